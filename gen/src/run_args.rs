//! The options of `warpgen run` ([`RunArgs`]) and the choice lists the
//! command line shares (`--unit`, the role options, `--sched`,
//! `--backend`).

use std::path::PathBuf;

use anyhow::bail;
use clap::builder::{PossibleValue, PossibleValuesParser};
use cosim::BackendKind;
use harness::{role_choices, Role};

use crate::unit_table::{unit, UNITS};

/// The choices of a harness role (`--prefetcher`, `--l1`), from the unit
/// table, each with its help line.
fn role_parser(role: Role) -> PossibleValuesParser {
    PossibleValuesParser::new(
        role_choices(role)
            .into_iter()
            .map(|(name, help)| PossibleValue::new(name).help(help)),
    )
}

/// `--unit`, `--cosim`, `--record`: every unit's name.
pub fn unit_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        UNITS
            .iter()
            .map(|u| PossibleValue::new(u.name()).help(u.summary())),
    )
}

/// `--sched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchedArg {
    /// Loose round robin.
    Lrr,
    /// Greedy then oldest.
    Gto,
    /// Two-level (ready queue of 8).
    TwoLevel,
    /// Prefetch-aware scheduler (CAPS): two-level, leading warps first.
    Pas,
}

/// `--backend`: the RTL simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// Verilator on the emitted Verilog (the reference).
    Verilator,
    /// The rust-hdl block driven directly (no tool needed).
    Rusthdl,
}

impl From<BackendArg> for BackendKind {
    fn from(b: BackendArg) -> Self {
        match b {
            BackendArg::Verilator => BackendKind::Verilator,
            BackendArg::Rusthdl => BackendKind::RustHdl,
        }
    }
}

/// `--decoupled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DecoupledArg {
    /// On for a prefetcher that asks for it (snake), else off.
    Auto,
    /// Always on: prefetched lines flagged, the L1 side capped until the
    /// prefetcher trains, a quarter freed when full.
    On,
    /// Always off: prefetches are allocated as load misses.
    Off,
}

/// `--sms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SmsArg {
    /// SM `sm_id` alone, with the CTAs it gets when the grid is dealt in
    /// turn (the first harness).
    One,
    /// Every SM of `n_sm`, sharing the memory below the L1s.
    All,
}

/// Arguments of `warpgen run`.
#[derive(Clone, Debug, clap::Args)]
pub struct RunArgs {
    /// Kernel file (TOML; format in kernels/README.md), or an Accel-Sim
    /// trace: a `kernel-N.traceg` file or a folder with `kernelslist.g`
    /// (every kernel listed is run in turn).
    #[arg(long)]
    pub kernel: PathBuf,
    /// Prefetcher.
    #[arg(long, default_value = "none", value_parser = role_parser(Role::Prefetcher))]
    pub prefetcher: String,
    /// L1 tag array (default: the preset's, lru).
    #[arg(long, value_parser = role_parser(Role::L1))]
    pub l1: Option<String>,
    /// The L1's decoupled prefetch storage (Snake's): `auto` turns it on
    /// for a prefetcher that asks for it (snake); needs the lru L1.
    #[arg(long, value_enum)]
    pub decoupled: Option<DecoupledArg>,
    /// Expansion unit beside the warp scheduler (`dac`: DAC's affine warp
    /// and dac_expander).
    #[arg(long, default_value = "none", value_parser = role_parser(Role::Expander))]
    pub expander: String,
    /// DAC: the same as `--expander dac`.
    #[arg(long, conflicts_with = "expander")]
    pub dac: bool,
    /// Warp scheduler (default: the preset's; fermi: two-level, volta: gto).
    #[arg(long, value_enum)]
    pub sched: Option<SchedArg>,
    /// Machine preset: `fermi`, `volta`, or a paper's (`warpgen presets`).
    #[arg(long, default_value = "fermi",
          value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
    pub preset: String,
    /// Model SM `sm_id` alone (default) or every SM of `n_sm`.
    #[arg(long, value_enum)]
    pub sms: Option<SmsArg>,
    /// With `--sms all`: the SM whose units `--cosim` and `--record`
    /// attach to (default 0).
    #[arg(long, value_name = "N")]
    pub cosim_sm: Option<u32>,
    /// Override a machine value (`l1_ways=8`, `mem_latency=300`,
    /// `caps.MISPRED_THRESHOLD=64`, `ba.REUSE_THRESHOLD=2`) or a kernel
    /// parameter (`param.N=4096`). Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Seed of the synthetic array contents (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the metrics as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Co-simulate a unit's RTL in lock-step beside its golden model on the
    /// harness's own stimulus (enables the unit in its role if needed); the
    /// first difference stops the run with a report.
    #[arg(long, value_name = "UNIT", value_parser = unit_parser())]
    pub cosim: Option<String>,
    /// With `--cosim`: write the run's waveform here if the RTL and the
    /// golden model differ (RTL signals and a `golden` scope).
    #[arg(long, value_name = "FILE", requires = "cosim")]
    pub vcd: Option<PathBuf>,
    /// With `--cosim`: RTL simulator (default: verilator if installed).
    #[arg(long, value_enum, requires = "cosim")]
    pub backend: Option<BackendArg>,
    /// Record a unit's inputs and golden outputs of every cycle to FILE
    /// (JSON lines, replayable alone; format in the harness's `stimulus`
    /// module). The unit must be part of the run. Repeatable.
    #[arg(long, num_args = 2, value_names = ["UNIT", "FILE"], action = clap::ArgAction::Append)]
    pub record: Vec<String>,
    /// Do not print the table (only errors and the JSON file).
    #[arg(long)]
    pub quiet: bool,
    /// Apply CATT's thread throttling (`warpgen catt`): each loop's
    /// warp-level factor, the kernel's CTA-level limit, fitted to this
    /// run's L1 (`--set l1_bytes=...`).
    #[arg(long)]
    pub catt: bool,
    /// Write the reuse-distance profile (the BA thesis's: histogram of
    /// the seven intervals per set and fully associative with rd0 / rd1 /
    /// rd2, over time, per load) as one SVG of stacked panels.
    #[arg(long, value_name = "FILE.svg")]
    pub reuse_distance: Option<PathBuf>,
}

impl RunArgs {
    /// Arguments for `kernel` with every option at its default.
    pub fn new(kernel: impl Into<PathBuf>) -> Self {
        RunArgs {
            kernel: kernel.into(),
            prefetcher: "none".into(),
            l1: None,
            decoupled: None,
            expander: "none".into(),
            dac: false,
            sched: None,
            preset: "fermi".into(),
            sms: None,
            cosim_sm: None,
            set: Vec::new(),
            seed: None,
            json: None,
            cosim: None,
            vcd: None,
            backend: None,
            record: Vec::new(),
            quiet: false,
            catt: false,
            reuse_distance: None,
        }
    }

    /// `--record` as (unit, file) pairs, each unit checked.
    pub fn records(&self) -> anyhow::Result<Vec<(&'static str, PathBuf)>> {
        self.record
            .chunks(2)
            .map(|c| match c {
                [u, f] => Ok((unit(u)?.name(), PathBuf::from(f))),
                _ => bail!("--record takes a unit and a file"),
            })
            .collect()
    }
}
