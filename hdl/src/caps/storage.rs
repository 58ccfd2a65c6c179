//! The storage table of `caps_prefetcher`, per the RTL's registers.

use ports::caps::CapsParams;

use crate::storage::{StorageField, StorageReport};

/// Storage of `caps_prefetcher`, per the RTL's registers. The paper's
/// fields (Tables I/II): PerCTA entry = PC 4 B + leading warp 1 B + 4 bases
/// x 4 B = 21 B; DIST entry = PC 4 B + stride 4 B + counter 1 B = 9 B;
/// 708 B per SM for 8 CTAs x 4 entries and 4 DIST entries.
pub(super) fn storage(p: &CapsParams) -> StorageReport {
    const ADD: &str = "added by this design";
    let pe = p.N_CTA * p.PERCTA_ENTRIES;
    let de = p.DIST_ENTRIES;
    let cta = p.cta_bits() as u64;
    let w = p.WARP_IDX_W;
    let rp = ports::clog2(p.PERCTA_ENTRIES) as u64;
    let rd = ports::clog2(p.DIST_ENTRIES) as u64;
    let f = StorageField::new;
    let mut fields = vec![
        f("PerCTA", "pc", p.PC_W, pe, true, "paper: 4 B"),
        f("PerCTA", "lead warp", w, pe, true, "paper: 1 B"),
        f(
            "PerCTA",
            "bases",
            p.ADDR_W * p.MAX_ADDRS,
            pe,
            true,
            "paper: 4 x 4 B",
        ),
        f("PerCTA", "valid", 1, pe, false, ADD),
        f("PerCTA", "n (address count)", 3, pe, false, ADD),
        f("PerCTA", "LRU rank", rp, pe, false, ADD),
        f(
            "PerCTA",
            "scan compares, registered (pc = job's pc, lead warp != job's warp)",
            2,
            pe,
            false,
            ADD,
        ),
        f("DIST", "pc", p.PC_W, de, true, "paper: 4 B"),
        f("DIST", "stride", p.ADDR_W, de, true, "paper: 4 B"),
        f(
            "DIST",
            "stride sign (the stride is magnitude and sign)",
            1,
            de,
            false,
            ADD,
        ),
        f(
            "DIST",
            "mispredict counter",
            p.CNT_W,
            de,
            true,
            "paper: 1 B",
        ),
        f("DIST", "valid", 1, de, false, ADD),
        f("DIST", "leading CTA", cta, de, false, ADD),
        f(
            "DIST",
            "leading CTA still in its slot (no launch since the training)",
            1,
            de,
            false,
            ADD,
        ),
        f("DIST", "LRU rank", rd, de, false, ADD),
        f(
            "job FIFO",
            "2 valid (one per lane), kind, pc, cta, warp, stride and its sign",
            4 + p.PC_W + cta + w + p.ADDR_W,
            p.JOBQ_DEPTH,
            false,
            ADD,
        ),
        f(
            "prefetch queue",
            "valid, addr, cta, warp",
            1 + p.ADDR_W + cta + w,
            p.PFQ_DEPTH,
            false,
            ADD,
        ),
    ];
    fields.extend(generator(p));
    fields.extend(load_pipeline(p));
    let paper_bytes = de * 9 + pe * (5 + 4 * p.MAX_ADDRS);
    StorageReport {
        unit: "caps_prefetcher".into(),
        fields,
        paper_bits: paper_bytes * 8,
        paper_note: format!(
            "paper Tables I/II: {} DIST x 9 B + {} PerCTA entries x {} B = {} B per SM \
             (708 B for the paper configuration); the paper's leading-warp field is 1 B, \
             ours WARP_IDX_W bits",
            de,
            pe,
            5 + 4 * p.MAX_ADDRS,
            paper_bytes
        ),
        paper_area: Some((
            0.018,
            "CAPS paper, FreePDK45 synthesis with the PerCTA tables as CACTI SRAM; \
             here every table is flip-flops (7,219 DFF_X1 = 0.032 mm^2 alone in the \
             paper configuration) plus read multiplexers, tag comparators and the \
             stride arithmetic"
                .into(),
        )),
    }
}

/// The generator's registers (the job, the cursors, the read stage, job
/// B's entry per column, the two address stages).
fn generator(p: &CapsParams) -> Vec<StorageField> {
    const ADD: &str = "added by this design";
    let cta = p.cta_bits() as u64;
    let w = p.WARP_IDX_W;
    let f = StorageField::new;
    vec![
        f(
            "generator",
            "busy, job (its CTA also one-hot, its stride as magnitude and sign), cursors",
            3 + p.PC_W + cta + (1u64 << cta) + w + p.ADDR_W + (cta + 1) + (w + 1) + 3,
            1,
            false,
            ADD,
        ),
        f(
            "generator",
            "read stage (valid, the selected slot one-hot, k* one-hot, stride and its \
             sign, warp, cta; the slot the rules stage wrote, one-hot)",
            1 + (1u64 << cta) + 4 + p.ADDR_W + 1 + w + cta + (1u64 << cta),
            1,
            false,
            ADD,
        ),
        f(
            "generator",
            "job B's entry, per PerCTA column (its pc is the job's, lead warp, count)",
            1 + w + 3,
            p.PERCTA_ENTRIES,
            false,
            ADD,
        ),
        f(
            "generator",
            "read stage, per PerCTA column: hit at the selection, the entry the rules stage \
             overwrote (base k*, lead; its write flag is the forwarding's)",
            1 + p.ADDR_W + w,
            p.PERCTA_ENTRIES,
            false,
            ADD,
        ),
        f(
            "generator",
            "first address stage (valid, base, stride and its sign, warp and lead ordered by \
             the sign, cta), output queue count",
            1 + 2 * p.ADDR_W + 1 + 2 * w + cta + 7,
            1,
            false,
            ADD,
        ),
        f(
            "generator",
            "second address stage (valid, carry-save sum and carry, warp, cta)",
            1 + 2 * p.ADDR_W - 1 + w + cta,
            1,
            false,
            ADD,
        ),
    ]
}

/// The load pipeline's registers (the rules, verify and job stages, the
/// forwarding).
fn load_pipeline(p: &CapsParams) -> Vec<StorageField> {
    const ADD: &str = "added by this design";
    let de = p.DIST_ENTRIES;
    let cta = p.cta_bits() as u64;
    let w = p.WARP_IDX_W;
    let rp = ports::clog2(p.PERCTA_ENTRIES) as u64;
    let ne = p.PERCTA_ENTRIES;
    let lanes = p.ADDR_W * p.MAX_ADDRS;
    let f = StorageField::new;
    vec![
        f(
            "load pipeline",
            "rules stage: the load, its look-ups, the rules' values for the entry found (per \
         column: bases, a0 - base0, four tests) and for the entry forwarded, the forwarding's \
         CTA compare, the slot one-hot",
            2 + (1u64 << cta)
                + p.PC_W
                + cta
                + w
                + 3
                + lanes
                + 2
                + ne * (2 + rp)
                + de
                + (6 + (w + 1) + lanes)
                + (2 + (w + 1))
                + ne * (lanes + p.ADDR_W + 4),
            1,
            false,
            ADD,
        ),
        f(
            "load pipeline",
            "forwarding: the previous load's row update and DIST allocation",
            2 + cta + ne * (3 + rp) + de,
            1,
            false,
            ADD,
        ),
        f(
            "load pipeline",
            "verify stage: rules, a - base, rule 3's warp distance and stride, DIST entry and \
         its leading-CTA test, the job's fields (its stride as magnitude and sign)",
            3 + 1 + 3 + lanes + (w + 1) + p.ADDR_W + 1 + 1 + de + p.PC_W + w + p.ADDR_W + 1,
            1,
            false,
            ADD,
        ),
        f(
            "load pipeline",
            "job stage: rules, the verification's difference words, the DIST entry's counter \
         and leading-CTA test, the job's fields",
            3 + 1 + 3 + 4 * p.ADDR_W + p.CNT_W + 1 + 1 + de + p.PC_W + w + p.ADDR_W + 1 + cta + 1,
            1,
            false,
            ADD,
        ),
    ]
}
