//! Golden behavioural models of the warpgen units, written from the
//! specification in plain Rust, independent of the RTL.
//!
//! Every model is cycle-accurate at the ports: [`GoldenModel::outputs`]
//! gives the output port values during the current cycle (a function of the
//! registered state only), and [`GoldenModel::step`] applies one rising
//! clock edge with the given input port values (including `reset`).
//! [`GoldenUnit`] links a unit's `ports::UnitSpec` type to its model;
//! [`check::Probe`] is the one interface through which anything (the RTL
//! lock-step checker, a stimulus recorder) runs beside a model.
//!
//! This crate depends on `ports` only. The SM harness that drives the
//! models in role slots is the `harness` crate.

pub mod ba;
pub mod caps;
pub mod check;
pub mod dac;
pub mod model;
pub mod snake;

pub use model::{GoldenModel, GoldenUnit};

macro_rules! every_unit_has_a_model {
    ($($u:path),* $(,)?) => {
        const _: fn() = || {
            fn has_model<U: GoldenUnit>() {}
            $(has_model::<$u>();)*
        };
    };
}
// Every unit of `ports::for_each_unit!` has a golden model (a unit without
// one fails to compile here, naming `GoldenUnit`).
ports::for_each_unit!(every_unit_has_a_model);
