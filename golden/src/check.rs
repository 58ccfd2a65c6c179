//! The one narrow interface through which anything runs beside a golden
//! model, cycle by cycle, and the structured report of a difference.
//!
//! A [`Probe`] is called once per cycle with the flattened input port values
//! the golden model gets this cycle (in `UnitSpec::inputs` order, before its
//! clock edge) and the golden outputs sampled during the cycle (in
//! `UnitSpec::outputs` order). The RTL lock-step checker of the `cosim`
//! crate is a probe (it steps the RTL with the same inputs and compares);
//! so is the stimulus recorder. The same probe serves `warpgen cosim`
//! (random stimulus, scenarios, replays) and the SM harness, as Ibex's
//! `dv/cosim` interface serves both its UVM scoreboard and its simple
//! system: step, then read the errors.
//!
//! On a difference a probe returns a [`Mismatch`]: the unit, back-end,
//! configuration, stimulus, cycle, every differing port with both values,
//! all golden outputs and the inputs of the last cycles. Callers keep it
//! structured up to the point where the command line prints it.

use std::fmt;
use std::path::PathBuf;

/// One output that differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortDiff {
    /// Port name.
    pub port: String,
    /// Golden model's value.
    pub expected: u64,
    /// RTL's value.
    pub actual: u64,
}

/// The outputs whose expected and actual values differ.
pub fn diff_ports(ports: &[ports::PortDesc], expected: &[u64], actual: &[u64]) -> Vec<PortDiff> {
    ports
        .iter()
        .zip(expected.iter().zip(actual))
        .filter(|(_, (e, a))| e != a)
        .map(|(p, (e, a))| PortDiff {
            port: p.name.clone(),
            expected: *e,
            actual: *a,
        })
        .collect()
}

/// The first cycle at which RTL and golden model differed.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Unit name.
    pub unit: &'static str,
    /// Back-end name.
    pub backend: &'static str,
    /// Configuration label (`NAME=value ...`).
    pub config: String,
    /// Stimulus description (source and seed, or `SM harness`).
    pub stimulus: String,
    /// Cycle number (from 0; reset cycles included).
    pub cycle: u64,
    /// Every differing output.
    pub diffs: Vec<PortDiff>,
    /// All outputs of the golden model at that cycle.
    pub expected: Vec<(String, u64)>,
    /// Inputs of the last cycles, oldest first: (cycle, [(port, value)]).
    pub recent_inputs: Vec<(u64, Vec<(String, u64)>)>,
    /// Waveform written, if any.
    pub vcd: Option<PathBuf>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "MISMATCH in {} ({} back-end), configuration {}, stimulus {}, at cycle {}:",
            self.unit, self.backend, self.config, self.stimulus, self.cycle
        )?;
        for d in &self.diffs {
            writeln!(
                f,
                "  {:<18} expected {:#x} ({}), RTL gave {:#x} ({})",
                d.port, d.expected, d.expected, d.actual, d.actual
            )?;
        }
        writeln!(f, "inputs of the last {} cycles:", self.recent_inputs.len())?;
        for (c, vals) in &self.recent_inputs {
            let line: Vec<String> = vals
                .iter()
                .filter(|(_, v)| *v != 0)
                .map(|(n, v)| format!("{n}={v:#x}"))
                .collect();
            writeln!(f, "  cycle {c:>8}: {}", line.join(" "))?;
        }
        match &self.vcd {
            Some(p) => writeln!(
                f,
                "waveform (RTL signals, golden outputs in scope `golden`): {}",
                p.display()
            ),
            None => writeln!(f, "(no waveform requested: pass --vcd FILE)"),
        }
    }
}

impl std::error::Error for Mismatch {}

/// Why a probe stopped a run.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The RTL differed from the golden model.
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    /// A file (stimulus recording, waveform) could not be written, or the
    /// back-end failed.
    #[error("{0}")]
    Io(String),
}

impl From<Box<Mismatch>> for ProbeError {
    fn from(m: Box<Mismatch>) -> Self {
        ProbeError::Mismatch(m)
    }
}

/// Something that runs beside a unit's golden model, cycle by cycle.
pub trait Probe {
    /// One cycle. `inputs`: every input port's value this cycle, masked to
    /// its width, in `UnitSpec::inputs` order (what the golden model gets
    /// before its edge); `golden`: the golden outputs sampled during the
    /// cycle, in `UnitSpec::outputs` order.
    fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError>;
    /// The run ended normally: flush files, close waveforms.
    fn finish(&mut self) -> Result<(), ProbeError> {
        Ok(())
    }
}
