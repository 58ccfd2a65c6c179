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
