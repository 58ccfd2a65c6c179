//! Storage tables: every field a unit's RTL keeps in flip-flops, its width,
//! how many there are, and which fields the source paper counts.
//!
//! The generic types live here; each unit's table is in its own folder
//! (`hdl/src/<unit>/storage.rs`) and is reached through
//! [`crate::registry::RtlDecl::storage`].

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
