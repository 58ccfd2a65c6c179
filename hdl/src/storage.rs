//! Storage tables: every field a unit's RTL keeps in flip-flops, its width,
//! how many there are, and which fields the source paper counts.

use ports::ba::BaParams;
use serde::Serialize;

/// One stored field.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct StorageField {
    /// Table or structure it belongs to.
    pub table: String,
    /// Field name.
    pub field: String,
    /// Bits per instance.
    pub bits: u64,
    /// Number of instances.
    pub count: u64,
    /// Whether the paper's storage figure includes this field.
    pub in_paper: bool,
    /// What the field is, relative to the paper (e.g. "baseline tag
    /// array", "added by this design").
    pub note: String,
}

impl StorageField {
    /// A field; `note` says what it is relative to the paper.
    pub fn new(
        table: &str,
        field: &str,
        bits: u64,
        count: u64,
        in_paper: bool,
        note: &str,
    ) -> Self {
        StorageField {
            table: table.into(),
            field: field.into(),
            bits,
            count,
            in_paper,
            note: note.into(),
        }
    }
    /// `bits * count`.
    pub fn total(&self) -> u64 {
        self.bits * self.count
    }
}

/// A unit's storage, with the paper's figure for comparison.
#[derive(Clone, Debug, Serialize)]
pub struct StorageReport {
    /// Unit name.
    pub unit: String,
    /// Every stored field.
    pub fields: Vec<StorageField>,
    /// The paper's figure in bits for this configuration, and what it covers.
    pub paper_bits: u64,
    /// What the paper's figure covers and where it comes from.
    pub paper_note: String,
    /// The paper's area for this unit in mm^2, and how it was obtained.
    pub paper_area: Option<(f64, String)>,
}

impl StorageReport {
    /// All bits.
    pub fn total_bits(&self) -> u64 {
        self.fields.iter().map(StorageField::total).sum()
    }
    /// Bits of the fields the paper counts.
    pub fn paper_field_bits(&self) -> u64 {
        self.fields
            .iter()
            .filter(|f| f.in_paper)
            .map(StorageField::total)
            .sum()
    }
}

/// Storage of `ba_tag_array`. The thesis counts the two extra bits per line
/// (reuse and bypass): 256 bits for the 16 KB, 128-line baseline. The
/// baseline tag array (valid, tag, LRU rank) is listed too but is not extra.
pub fn ba_storage(p: &BaParams) -> StorageReport {
    const BASE: &str = "baseline tag array (any cache has it)";
    const RESP: &str = "response register, added by this design";
    let lines = p.lines();
    let w = p.way_bits() as u64;
    StorageReport {
        unit: "ba_tag_array".into(),
        fields: vec![
            StorageField::new("line", "valid", 1, lines, false, BASE),
            StorageField::new("line", "tag", p.tag_bits() as u64, lines, false, BASE),
            StorageField::new("line", "lru rank", w, lines, false, BASE),
            StorageField::new("line", "reuse", 1, lines, true, "thesis extra bit"),
            StorageField::new("line", "bypass", 1, lines, true, "thesis extra bit"),
            StorageField::new("response", "valid", 1, 1, false, RESP),
            StorageField::new("response", "outcome", 3, 1, false, RESP),
            StorageField::new("response", "way", w, 1, false, RESP),
            StorageField::new("response", "evict valid", 1, 1, false, RESP),
            StorageField::new("response", "evict addr", p.ADDR_W, 1, false, RESP),
        ],
        paper_bits: 2 * lines,
        paper_note: format!(
            "thesis: 2 extra bits (reuse, bypass) per line = {} bits for {} lines \
             ({} KB; 256 bits for the 16 KB baseline)",
            2 * lines,
            lines,
            lines * p.LINE_BYTES / 1024
        ),
        paper_area: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_configuration_has_256_extra_bits() {
        let r = ba_storage(&BaParams::default());
        assert_eq!(r.paper_field_bits(), 256);
        assert_eq!(r.paper_bits, 256);
        // 128 lines x (1 + 21 + 3 + 2) + response 1 + 3 + 3 + 1 + 32.
        assert_eq!(r.total_bits(), 128 * 27 + 40);
    }
}

/// Storage of `caps_prefetcher`, per the RTL's registers. The paper's
/// fields (Tables I/II): PerCTA entry = PC 4 B + leading warp 1 B + 4 bases
/// x 4 B = 21 B; DIST entry = PC 4 B + stride 4 B + counter 1 B = 9 B;
/// 708 B per SM for 8 CTAs x 4 entries and 4 DIST entries.
pub fn caps_storage(p: &ports::caps::CapsParams) -> StorageReport {
    const ADD: &str = "added by this design";
    let pe = p.N_CTA * p.PERCTA_ENTRIES;
    let de = p.DIST_ENTRIES;
    let cta = p.cta_bits() as u64;
    let w = p.WARP_IDX_W;
    let rp = ports::clog2(p.PERCTA_ENTRIES) as u64;
    let rd = ports::clog2(p.DIST_ENTRIES) as u64;
    let f = StorageField::new;
    let fields = vec![
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
        f("DIST", "pc", p.PC_W, de, true, "paper: 4 B"),
        f("DIST", "stride", p.ADDR_W, de, true, "paper: 4 B"),
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
        f("DIST", "LRU rank", rd, de, false, ADD),
        f(
            "job FIFO",
            "valid, kind, pc, cta, warp, stride",
            2 + p.PC_W + cta + w + p.ADDR_W,
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
        f(
            "generator",
            "busy, job, cursors",
            2 + p.PC_W + cta + w + p.ADDR_W + (cta + 1) + (w + 1) + 3,
            1,
            false,
            ADD,
        ),
    ];
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
             here every table is flip-flops (6,223 DFF_X1 = 0.028 mm^2 alone in the \
             paper configuration) plus read multiplexers, tag comparators and the \
             stride arithmetic"
                .into(),
        )),
    }
}

#[cfg(test)]
mod caps_tests {
    use super::*;

    #[test]
    fn paper_configuration_is_708_bytes() {
        let r = caps_storage(&ports::caps::CapsParams::default());
        assert_eq!(r.paper_bits, 708 * 8);
        // Our paper fields: lead is 6 bits instead of 8.
        assert_eq!(r.paper_field_bits(), 708 * 8 - 32 * 2);
        // Every register of the RTL: 6,223 flip-flops after Yosys.
        assert_eq!(r.total_bits(), 6223);
    }
}
