//! Lock-step co-simulation of a unit's RTL against its golden model
//! (`cosim.md`): back-ends, comparison, reports, waveforms and stimulus.

pub mod backend;
pub mod verilator;

pub use backend::{RtlBackend, CYCLE_TIME};
pub use verilator::{BuildOptions, VerilatorError, VerilatorModel};
