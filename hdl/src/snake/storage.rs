//! The storage table of `snake_prefetcher`, per the RTL's registers and
//! memories.

use ports::snake::SnakeParams;

use crate::storage::{StorageField, StorageReport};

/// Storage of `snake_prefetcher`. The paper (Table 3) keeps 32 Head
/// entries of 14 B (448 B) and 10 Tail entries of 32 B (320 B); this
/// design keeps one Head row per warp (`N_WARPS` rows of valid, pc,
/// address) and the Tail fields of the spec, with the per-PC fields in
/// every entry and revision 2's `span`. The walk queue's third lane holds
/// the job's span (12 bits) and CTA end zero-extended to 8 bits (its bits
/// above `clog2(N_WARPS) + 1` stay zero).
pub(super) fn storage(p: &SnakeParams) -> StorageReport {
    const ADD: &str = "added by this design";
    let nw = p.N_WARPS;
    let ne = p.TAIL_ENTRIES;
    let wb = p.warp_bits() as u64;
    let rt = ports::clog2(p.TAIL_ENTRIES) as u64;
    let a = p.ADDR_W;
    let pc = p.PC_W;
    let f = StorageField::new;
    let mut fields = vec![
        f("Head", "pc", pc, nw, true, "paper: 32 entries x 14 B"),
        f("Head", "address", a, nw, true, "paper: 32 entries x 14 B"),
        f("Head", "valid", 1, nw, false, ADD),
        f(
            "Tail",
            "pc1, pc2",
            2 * pc,
            ne,
            true,
            "paper: 32 B per entry",
        ),
        f("Tail", "stride", a, ne, true, "paper"),
        f("Tail", "warp vector", nw, ne, true, "paper"),
        f("Tail", "t1", 2, ne, true, "paper"),
        f("Tail", "intra stride, t2", a + 2, ne, true, "paper"),
        f(
            "Tail",
            "inter-warp: valid, warp, address, stride, count",
            1 + wb + 2 * a + 2,
            ne,
            true,
            "paper",
        ),
        f(
            "Tail",
            "span (of pc2)",
            u64::from(ports::snake::SPAN_W),
            ne,
            false,
            "spec revision 2",
        ),
        f("Tail", "valid", 1, ne, false, ADD),
        f("Tail", "LRU rank", rt, ne, false, ADD),
        f(
            "Tail",
            "ones in the warp vector (kept with it: no bit count on the training path)",
            8,
            ne,
            false,
            ADD,
        ),
        f(
            "walk queue",
            "3 valid (one per lane), warp, pc, address, span, CTA end (8 bits)",
            3 + wb + pc + a + 12 + 8,
            p.WALKQ_DEPTH,
            false,
            ADD,
        ),
        f(
            "prefetch queue",
            "valid, address, warp, kind, span",
            1 + a + wb + 2 + 12,
            p.PFQ_DEPTH,
            false,
            ADD,
        ),
        f(
            "walker",
            "phase (2 bits), hop, k, pc, address, sum",
            2 + 5 + 5 + pc + 2 * a,
            1,
            false,
            ADD,
        ),
        f(
            "throttle",
            "counter, bandwidth halt, halted (registered; issue 29 step 10)",
            16 + 1 + 1,
            1,
            false,
            ADD,
        ),
        f(
            "load stage (issue 29)",
            "valid, warp, pc, address, span, CTA end, previous valid, previous pc, stride, \
             warp one-hot",
            1 + wb + pc + a + 12 + (wb + 1) + 1 + pc + a + nw,
            1,
            false,
            ADD,
        ),
        f(
            "Tail",
            "matches with the staged load, registered (pc1 = q, pc1 = p, (pc2, stride) = (p, s)); \
             pc1 = the head walk job's pc, registered after this edge's pop (step 10); allocated \
             at the last edge; valid for the walker (valid, not allocated at the last edge; step \
             15); the staged load's warp bit, registered; the head walk job's warp bit, \
             registered after this edge's pop (issue 29 steps 8, 9, 10, 12)",
            8,
            ne,
            false,
            ADD,
        ),
        pair_registers(ne),
        f(
            "load stage (issue 29)",
            "the matches of the entry allocated at the last edge (q, p, tail; step 8)",
            3,
            1,
            false,
            ADD,
        ),
        f(
            "Tail",
            "intra-warp observation pending (the closing hop's, written one edge later)",
            1,
            ne,
            false,
            ADD,
        ),
        f(
            "Tail",
            "eviction-key comparisons with every entry, registered (ones_j - ones_e < -1, 0, 1, 2; \
             issue 29 step 6)",
            4 * ne,
            ne,
            false,
            ADD,
        ),
    ];
    fields.extend(step9(p));
    StorageReport {
        unit: "snake_prefetcher".into(),
        fields,
        paper_bits: (448 + 320) * 8,
        paper_note: "paper Table 3: Head 32 entries x 14 B = 448 B, Tail 10 entries x 32 B = \
                     320 B; this design keeps a Head row per warp and the spec's Tail fields"
            .into(),
        paper_area: None,
    }
}

/// Session 50's pair registers (form (C)): 8 bits per pair of entries.
fn pair_registers(ne: u64) -> StorageField {
    StorageField::new(
        "Tail",
        "pair registers: ones_j - ones_e for each pair j < e (8 bits; the eviction keys' \
         comparisons from them; session 50)",
        8,
        ne * (ne - 1) / 2,
        false,
        "added by this design",
    )
}

/// The registers issue 29 step 9 adds: the next staged load's pc's
/// inter-warp fields and the walker's pending-observation `intra`, step
/// 10's pending `x`, step 11's output stage and step 14's pending
/// allocation.
fn step9(p: &SnakeParams) -> Vec<StorageField> {
    const ADD: &str = "added by this design";
    let wb = p.warp_bits() as u64;
    let a = p.ADDR_W;
    let f = StorageField::new;
    vec![
        f(
            "prefetch queue",
            "output stage: valid, address, stride, k (4 bits), warp, kind, span (an intra- or \
             inter-warp prefetch one edge before the queue; issue 29 step 11)",
            1 + a + a + 4 + wb + 2 + 12,
            1,
            false,
            ADD,
        ),
        f(
            "load stage (issue 29)",
            "the staged load's pc's inter-warp fields (valid, warp, address, stride, count), \
             registered a cycle ahead (step 9)",
            1 + wb + a + a + 2,
            1,
            false,
            ADD,
        ),
        f(
            "walker",
            "the job pc's intra at the last edge (a pending observation's old value, step 9); \
             the closing hop's x, written only at a closing hop (step 10)",
            a + a,
            1,
            false,
            ADD,
        ),
        f(
            "load stage (issue 29)",
            "the last edge's allocation, written into its entry one edge later (pc1, pc2, \
             stride, warp one-hot, span, intra stride, t2, inter-warp valid, warp, address, \
             stride, count; step 14)",
            2 * p.PC_W + a + p.N_WARPS + 12 + a + 2 + 1 + wb + a + a + 2,
            1,
            false,
            ADD,
        ),
    ]
}
