//! The storage table of `dac_expander`, per the RTL's registers and
//! memories.

use ports::dac::DacParams;
use ports::log2_exact;

use crate::storage::{StorageField, StorageReport};

const ADD: &str = "added by this design";

/// Storage of `dac_expander`. The paper (section 4.8) keeps an ATQ of 24
/// entries (393 B), 192 address records (1560 B: 4 per warp) and 192
/// predicate masks (768 B).
pub(super) fn storage(p: &DacParams) -> StorageReport {
    let nw = p.N_WARPS;
    let f = StorageField::new;
    let mut fields = vec![
        f(
            "ATQ",
            "base, off_tx, off_ty, off_cx, off_cy",
            5 * 32,
            p.ATQ_DEPTH,
            true,
            "paper: 24 entries, 393 B",
        ),
        f("ATQ", "scalar", 32, p.ATQ_DEPTH, true, "paper (predicates)"),
        f("ATQ", "kind, gran, cmp", 7, p.ATQ_DEPTH, true, "paper"),
        f("ATQ", "guard (revision 2)", 1, p.ATQ_DEPTH, false, ADD),
        f(
            "ATQ",
            "valid (one per 64-bit lane)",
            4,
            p.ATQ_DEPTH,
            false,
            ADD,
        ),
        f("ATQ", "count", p.count_bits() as u64, 1, false, ADD),
        f(
            "ATQ",
            "pop (registered; issue 29, step 4)",
            1,
            1,
            false,
            ADD,
        ),
        f(
            "PWAQ",
            "record: addr[31:5], mask, gran, last",
            27 + 32 + 2 + 1,
            nw * p.PWAQ_DEPTH,
            true,
            "paper: 192 entries, 1560 B",
        ),
        f(
            "PWAQ",
            "head, tail pointers (memories, per warp)",
            2 * (log2_exact(p.PWAQ_DEPTH) as u64 + 1),
            nw,
            false,
            ADD,
        ),
        f(
            "PWAQ",
            "pointers written since reset (a bit per warp id)",
            2 * 64,
            1,
            false,
            ADD,
        ),
        f(
            "PWAQ",
            "full (a bit per warp id; issue 29, step 5)",
            64,
            1,
            false,
            ADD,
        ),
        f(
            "PWAQ",
            "entry write register: valid, address, record (issue 29, step 4)",
            1 + p.warp_bits() as u64 + log2_exact(p.PWAQ_DEPTH) as u64 + 62,
            1,
            false,
            ADD,
        ),
        f(
            "PWPQ",
            "mask",
            32,
            nw * p.PWPQ_DEPTH,
            true,
            "paper: 192 entries, 768 B",
        ),
        f(
            "PWPQ",
            "head, tail pointers (memories, per warp)",
            2 * (log2_exact(p.PWPQ_DEPTH) as u64 + 1),
            nw,
            false,
            ADD,
        ),
        f(
            "PWPQ",
            "pointers written since reset (a bit per warp id)",
            2 * 64,
            1,
            false,
            ADD,
        ),
        f(
            "PWPQ",
            "full (a bit per warp id; issue 29, step 5)",
            64,
            1,
            false,
            ADD,
        ),
        f(
            "PWPQ",
            "entry write register: valid, address, mask (issue 29, step 4)",
            1 + p.warp_bits() as u64 + log2_exact(p.PWPQ_DEPTH) as u64 + 32,
            1,
            false,
            ADD,
        ),
    ];
    fields.extend(guard_mask_fields(p));
    fields.extend(slot_and_expander_fields(p));
    StorageReport {
        unit: "dac_expander".into(),
        fields,
        paper_bits: (393 + 1560 + 768) * 8,
        paper_note: "paper section 4.8: ATQ 24 entries 393 B, PWAQ 192 entries 1560 B, PWPQ \
                     192 entries 768 B"
            .into(),
        paper_area: None,
    }
}

/// The guard masks' registers and memory.
fn guard_mask_fields(p: &DacParams) -> Vec<StorageField> {
    let nw = p.N_WARPS;
    let f = StorageField::new;
    vec![
        f(
            "guard masks",
            "write register: valid, warp id, mask (issue 29, step 4)",
            1 + p.warp_bits() as u64 + 32,
            1,
            false,
            ADD,
        ),
        f(
            "guard masks",
            "G[w] (revision 2; a memory, per warp)",
            32,
            nw,
            false,
            ADD,
        ),
        f(
            "guard masks",
            "written since reset (a bit per warp id)",
            64,
            1,
            false,
            ADD,
        ),
    ]
}

/// The CTA slots', the expander's (its warp-setup stage included), the
/// memory request's, the dequeue response's and the statistics' registers.
fn slot_and_expander_fields(p: &DacParams) -> Vec<StorageField> {
    let nc = p.N_CTA;
    let f = StorageField::new;
    vec![
        f("slots", "active, sampled set", 2, nc, false, ADD),
        f("slots", "CTA index x, y", 32, nc, false, ADD),
        f(
            "expander",
            "busy, lane, lane group, partial mask",
            1 + 5 + 2 + 32,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "warp pointer (two ahead): slot, warp, warp id, CTA index (issue 29)",
            p.slot_bits() as u64 + 6 + 10 + 32,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "current warp: id, set up, last of the tuple (issue 29)",
            p.warp_bits() as u64 + 1 + 1,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "next warp, first stage: lane-0 sum and carry, n, n - 1, skip, warp id, last, \
             valid (issue 29)",
            64 + 6 + 6 + 1 + p.warp_bits() as u64 + 1 + 1,
            1,
            false,
            ADD,
        ),
        f("warp setup", "lane values (issue 29)", 32, 32, false, ADD),
        f(
            "warp setup",
            "lane masks (active, enabled, run ends, from the first), last slow group, \
             skips, (n-1)*step + 2^31 (issue 29)",
            4 * 32 + 2 + 2 + 40,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "the head tuple's basis offsets and lane offsets (issue 29, step 3)",
            32,
            5 + 31,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "next warp's guard mask, current warp's chunk index per lane (issue 29, step 3)",
            32 + 32 * 5,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "current warp's lane n-1 value and run starts (issue 29, step 4)",
            32 + 32,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "copy of the head tuple's fields: base, offsets, scalar, access size, comparison, \
             kind flags, guard, fast-path conditions (issue 29, step 5)",
            6 * 32 + 2 + 3 + 6,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "current warp's queues full; the tuple's lane difference at a row start and \
             both differences' high-part conditions (issue 29, step 5)",
            2 + 32 + 4,
            1,
            false,
            ADD,
        ),
        f(
            "warp setup",
            "the slow path's group mask and a complemented copy of the scalar (issue 29, \
             step 6)",
            32 + 32,
            1,
            false,
            ADD,
        ),
        f(
            "memory request",
            "valid, line address",
            1 + 25,
            1,
            false,
            ADD,
        ),
        f(
            "dequeue response",
            "valid, hit, addr, mask, gran, last",
            1 + 1 + 32 + 32 + 2 + 1,
            1,
            false,
            ADD,
        ),
        f("statistics", "fast, slow, guard skips", 96, 1, false, ADD),
    ]
}
