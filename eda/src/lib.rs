//! Running external EDA tools on emitted Verilog.
//!
//! The generator's output has to pass the checks of
//! `shared/spec/conventions.md`: clean under `verilator --lint-only -Wall`,
//! accepted by Icarus Verilog (`iverilog -g2005`) and by Yosys
//! (`hierarchy -check; proc; synth`), and free of latches. This crate wraps
//! those tools:
//!
//! * [`tool_available`] / [`tool_version`] / [`require_tool`] — is a tool on
//!   `PATH`, and which version;
//! * [`lint_verilator`] — Verilator lint with named, documented [`Waiver`]s
//!   (`WIDTH*` categories are refused);
//! * [`check_iverilog`] — Icarus Verilog elaboration in Verilog-2005 mode;
//! * [`synth_yosys`] — Yosys synthesis with cell, flip-flop and latch counts
//!   and an area, either from a Liberty file (see [`find_liberty`]) or a
//!   clearly labelled library-free [`AreaKind::Estimate`];
//! * [`prove_rtl_vs_synth`] — formal equivalence of the RTL and its Yosys
//!   gate netlist ([`synth_gate_netlist`], [`prove_equiv`]);
//! * [`memories`] — the fakeram45 SRAM macro set, its area fit, and the
//!   memory modules of an emitted Verilog file (`warpgen report --memories`);
//! * [`check_formal`] — property checking of a formal wrapper (BMC and
//!   k-induction; probes of internal state, [`plant_bug`]);
//! * [`run_iverilog_testbench`] / [`run_verilator_binary`] — compile and run
//!   a self-checking test bench, returning what it printed.
//!
//! Every invocation runs inside a fresh temporary directory: nothing is ever
//! written next to the input files, and a failing tool's stdout and stderr
//! are carried in the returned [`EdaError`]. Verilog given as text can be put
//! in a file with [`TempVerilog`].

#![warn(missing_docs)]

mod cells;
mod equiv;
mod error;
mod formal;
mod installed;
mod liberty;
mod lint;
pub mod memories;
mod run;
mod sim;
mod source;
mod sta;
mod synth;
mod tool;

pub use cells::{
    classify_generic_cell, estimate_cell_area, CellKind, EstimateEntry, ESTIMATE_AREAS,
    ESTIMATE_FALLBACK_AREA_UM2,
};
pub use equiv::{
    equiv_script, prove_equiv, prove_rtl_vs_synth, synth_gate_netlist, EquivReport, GateNetlist,
    EQUIV_METHOD, EQUIV_TIMEOUT_SECS_DEFAULT,
};
pub use error::EdaError;
pub use formal::{
    check_formal, check_wires, formal_script, parse_probes, plant_bug, CheckResult, FormalEngine,
    FormalJob, FormalReport, Probe, SmtSolver, FORMAL_TIMEOUT_SECS_DEFAULT, Z3_FILTER,
};
pub use installed::{require_tool, tool_available, tool_version};
pub use liberty::{find_liberty, LibertyCell, LibertyInfo, DEFAULT_LIBERTY_RELATIVE, LIBERTY_ENV};
pub use lint::{check_waiver, lint_verilator, LintReport, LintWarning, Waiver};
pub use run::{sim_timeout, KEEP_WORK_ENV, SIM_TIMEOUT_ENV, SIM_TIMEOUT_SECS_DEFAULT};
pub use sim::{check_iverilog, run_iverilog_testbench, run_verilator_binary, VERILATOR_SIM_SEED};
pub use source::{validate_top, TempVerilog};
pub use sta::{
    time_verilog, time_verilog_with, EndpointKind, PathEndpoint, PathPoint, PortActivity,
    PowerReport, TimingOptions, TimingPath, TimingReport, ABC_DRIVER_CELL, ABC_LOAD_FF,
    SLOW_SLEW_NS, STA_PERIOD_NS_DEFAULT,
};
pub use synth::{synth_yosys, AreaKind, LongestPath, SynthReport};
pub use tool::Tool;
