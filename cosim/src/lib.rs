//! Lock-step co-simulation of a unit's RTL against its golden model
//! (`cosim.md`): back-ends, comparison, reports, waveforms and stimulus.

pub mod backend;
pub mod elaborate;
pub mod gtkw;
pub mod lockstep;
pub mod rusthdl;
pub mod stimulus;
pub mod testbench;
pub mod threaded;
pub mod unit;
pub mod vcd;
pub mod verilator;

// Units: stimulus, scenarios and documents (`CosimUnit`).
pub mod ba;
pub mod caps;
pub mod dac;
pub mod snake;

pub use backend::{RtlBackend, CYCLE_TIME};
pub use lockstep::{
    run_lockstep, CheckOptions, Checker, LockstepOptions, Mismatch, PortDiff, RunSummary, Waveform,
};
pub use threaded::ThreadedProbe;
pub use unit::{
    backend_factory, cosim_random, emit_verilog, BackendKind, CosimUnit, Latency, LatencyClaim,
    ModelOf, PaperArea,
};
pub use verilator::{BuildOptions, VerilatorError, VerilatorModel};
