//! Stimulus sources: seeded random generators biased toward each unit's
//! interesting cases, and fixed sequences (spec scenarios, recorded runs).

use ports::UnitSpec;

/// Produces the inputs of one cycle at a time.
pub trait Stimulus<U: UnitSpec> {
    /// Inputs for `cycle`; `last_out` is what the golden model showed in the
    /// previous cycle (for stimuli that follow a handshake).
    fn next(&mut self, cycle: u64, last_out: &U::Out) -> U::In;
    /// Source and seed, for reports (`random(seed=7)`, `scenario`, ...).
    fn describe(&self) -> String;
}

/// A fixed sequence of inputs, then idle (default) inputs.
pub struct Sequence<U: UnitSpec> {
    label: String,
    items: Vec<U::In>,
}

impl<U: UnitSpec> Sequence<U> {
    /// A sequence with a label for reports.
    pub fn new(label: impl Into<String>, items: Vec<U::In>) -> Self {
        Sequence {
            label: label.into(),
            items,
        }
    }
    /// Number of cycles in the sequence.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether the sequence is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl<U: UnitSpec> Stimulus<U> for Sequence<U> {
    fn next(&mut self, cycle: u64, _last_out: &U::Out) -> U::In {
        self.items.get(cycle as usize).cloned().unwrap_or_default()
    }
    fn describe(&self) -> String {
        self.label.clone()
    }
}
