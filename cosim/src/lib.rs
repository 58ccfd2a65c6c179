//! Lock-step co-simulation of a unit's RTL against its golden model
//! (`cosim.md`): back-ends, comparison, reports, waveforms and stimulus.

pub mod backend;

pub use backend::{RtlBackend, CYCLE_TIME};
