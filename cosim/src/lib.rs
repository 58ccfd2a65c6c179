//! Lock-step co-simulation of a unit's RTL against its golden model
//! (`cosim.md`): back-ends, comparison, reports, waveforms and stimulus.

pub mod ba;
pub mod backend;
pub mod caps;
pub mod lockstep;
pub mod rusthdl;
pub mod stimulus;
pub mod testbench;
pub mod units;
pub mod vcd;
pub mod verilator;

pub use backend::{RtlBackend, CYCLE_TIME};
pub use lockstep::{run_lockstep, Mismatch, PortDiff, RunOptions, RunSummary};
pub use units::{backend_factory, cosim_random, emit_verilog, BackendKind, CosimUnit};
pub use verilator::{BuildOptions, VerilatorError, VerilatorModel};
