//! The storage table of `ba_tag_array`.

use ports::ba::BaParams;

use crate::storage::{StorageField, StorageReport};

/// Storage of `ba_tag_array`. The thesis counts the two extra bits per line
/// (reuse and bypass): 256 bits for the 16 KB, 128-line baseline. The
/// baseline tag array (valid, tag, LRU rank) is listed too but is not extra.
pub(super) fn storage(p: &BaParams) -> StorageReport {
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
