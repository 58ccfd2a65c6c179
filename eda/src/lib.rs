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

mod equiv;
mod error;
mod formal;
mod liberty;
mod lint;
pub mod memories;
mod run;
mod sim;
mod sta;
mod synth;
mod tool;

pub use equiv::{
    equiv_script, prove_equiv, prove_rtl_vs_synth, synth_gate_netlist, EquivReport, GateNetlist,
    EQUIV_METHOD, EQUIV_TIMEOUT_SECS_DEFAULT,
};
pub use error::EdaError;
pub use formal::{
    check_formal, check_wires, formal_script, parse_probes, plant_bug, CheckResult, FormalEngine,
    FormalJob, FormalReport, Probe, SmtSolver, FORMAL_TIMEOUT_SECS_DEFAULT, Z3_FILTER,
};
pub use liberty::{find_liberty, LibertyCell, LibertyInfo, DEFAULT_LIBERTY_RELATIVE, LIBERTY_ENV};
pub use lint::{check_waiver, lint_verilator, LintReport, LintWarning, Waiver};
pub use run::{sim_timeout, SIM_TIMEOUT_ENV, SIM_TIMEOUT_SECS_DEFAULT};
pub use sim::{check_iverilog, run_iverilog_testbench, run_verilator_binary, VERILATOR_SIM_SEED};
pub use sta::{
    time_verilog, time_verilog_with, EndpointKind, PathEndpoint, PathPoint, TimingOptions,
    TimingPath, TimingReport, ABC_DRIVER_CELL, ABC_LOAD_FF, SLOW_SLEW_NS, STA_PERIOD_NS_DEFAULT,
};
pub use synth::{
    classify_generic_cell, estimate_cell_area, synth_yosys, AreaKind, CellKind, EstimateEntry,
    LongestPath, SynthReport, ESTIMATE_AREAS, ESTIMATE_FALLBACK_AREA_UM2,
};
pub use tool::{require_tool, tool_available, tool_version, Tool};

use std::path::{Path, PathBuf};

/// Verilog source text written to `<top>.v` inside its own temporary
/// directory, for running the tools on text rather than on an existing file.
///
/// The file is named after the top module so that Verilator's
/// `DECLFILENAME` check is satisfied, as it is for the generator's own
/// `verilog-out/<unit>.v` files. The directory is removed when the value is
/// dropped.
#[derive(Debug)]
pub struct TempVerilog {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl TempVerilog {
    /// Writes `text` to a fresh temporary `<top>.v`; `top` must be a plain
    /// Verilog identifier (see [`validate_top`]).
    pub fn new(text: &str, top: &str) -> Result<Self, EdaError> {
        validate_top(top)?;
        let dir = tempfile::Builder::new()
            .prefix("warpgen-eda-src-")
            .tempdir()
            .map_err(|e| EdaError::io("creating a temporary directory", e))?;
        let path = dir.path().join(format!("{top}.v"));
        std::fs::write(&path, text)
            .map_err(|e| EdaError::io(format!("writing {}", path.display()), e))?;
        Ok(TempVerilog { _dir: dir, path })
    }

    /// The path of the written Verilog file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Checks that `top` is a plain Verilog identifier (`[A-Za-z_][A-Za-z0-9_]*`,
/// as `conventions.md` requires of every emitted name), so that it can be
/// passed safely on tool command lines and inside Yosys scripts.
pub fn validate_top(top: &str) -> Result<(), EdaError> {
    let mut chars = top.chars();
    let ok = match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {
            chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(EdaError::InvalidTop(top.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_names() {
        assert!(validate_top("counter").is_ok());
        assert!(validate_top("_a1__b").is_ok());
        for bad in ["", "1abc", "a b", "a;b", "a$b", "a-b", "\\esc"] {
            assert!(
                matches!(validate_top(bad), Err(EdaError::InvalidTop(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn temp_verilog_is_named_after_top() {
        let t = TempVerilog::new("module m; endmodule\n", "m").unwrap();
        assert_eq!(t.path().file_name().unwrap(), "m.v");
        assert_eq!(
            std::fs::read_to_string(t.path()).unwrap(),
            "module m; endmodule\n"
        );
        let dir = t.path().parent().unwrap().to_path_buf();
        drop(t);
        assert!(!dir.exists());
    }
}
