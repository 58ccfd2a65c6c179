//! The interface every golden model implements, and the link from a unit's
//! `ports::UnitSpec` type to its model.

use ports::UnitSpec;

/// A cycle-accurate golden model of one unit.
pub trait GoldenModel<U: UnitSpec> {
    /// A model in its reset state.
    fn new(params: &U::Params) -> Self
    where
        Self: Sized;
    /// Output port values during the current cycle.
    fn outputs(&self) -> U::Out;
    /// One rising clock edge with these input values.
    fn step(&mut self, inputs: &U::In);
}

/// A unit with a golden model: implemented in the model's own module for
/// the unit's `ports::UnitSpec` type. Co-simulation (`cosim`) and the SM
/// harness find a unit's model through this trait.
pub trait GoldenUnit: UnitSpec + Sized {
    /// The golden model (`Send`: lock-step co-simulation runs it on its own
    /// thread).
    type Model: GoldenModel<Self> + Send + 'static;
}
