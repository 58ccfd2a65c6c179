//! Golden behavioural models of the warpgen units, written from the
//! specification in plain Rust, independent of the RTL; and the SM harness
//! that drives them.
//!
//! Every model is cycle-accurate at the ports: [`GoldenModel::outputs`]
//! gives the output port values during the current cycle (a function of the
//! registered state only), and [`GoldenModel::step`] applies one rising
//! clock edge with the given input port values (including `reset`).

use ports::UnitSpec;

pub mod ba;
pub mod caps;
pub mod check;
pub mod dac;
pub mod harness;
pub mod snake;

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
