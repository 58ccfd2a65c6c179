//! The golden SM harness (`sm_harness.md`): a cycle-level model of one
//! streaming multiprocessor, or of all `n_sm` of them sharing the memory
//! below their L1s (`sms = all`), that runs kernels written in a small TOML
//! format and drives the golden models of the units every cycle, each in
//! its role slot (prefetcher, L1, expander) — and, through [`Probe`]s,
//! their RTL in lock-step and stimulus recorders.
//!
//! ```no_run
//! use harness::{Harness, Kernel, MachineConfig};
//! let kernel = Kernel::from_file("kernels/lps.toml".as_ref(), &[], 1).unwrap();
//! let mut cfg = MachineConfig::fermi();
//! cfg.set("prefetcher", "caps").unwrap();
//! cfg.set("sched", "pas").unwrap();
//! let metrics = Harness::new(&kernel, &cfg).run().unwrap();
//! println!("{}", metrics.table());
//! ```
//!
//! Modules: [`affine`] (the tuples of DAC's affine warp), `dac` (DAC's
//! decoupling of a kernel and its affine warp; the SM's side of DAC is
//! `sm/dac.rs`), [`config`] (the
//! machine and its presets), [`kernel`] (the file
//! format, its errors and the compiler), [`expr`] (expressions and their
//! classification), [`memsys`] (the memory below the L1: the flat model
//! and the interconnect / L2 / DRAM hierarchy), `decoupled` (the L1's
//! decoupled mode for Snake, its
//! rules in that module's source), [`metrics`] (what a run measures, with the definitions
//! of every figure), [`reuse`] (the BA thesis's reuse-distance profile
//! and its stack-distance structure), [`roles`] (the role slots the cycle loop talks to),
//! [`units`] (how a unit declares itself for a role, the generic wrapper
//! of its golden model and probes, the table of units), [`stimulus`] (the
//! stimulus files), [`trace`] (Accel-Sim trace reading). The cycle loop
//! itself is documented in the `sm` module source.
//!
//! Probes and recorders attach to a unit by name:
//!
//! ```no_run
//! # use harness::{Harness, Kernel, MachineConfig};
//! # let kernel = Kernel::from_file("kernels/lps.toml".as_ref(), &[], 1).unwrap();
//! let mut cfg = MachineConfig::fermi();
//! cfg.enable_unit("ba_tag_array").unwrap(); // l1 = ba
//! let metrics = Harness::new(&kernel, &cfg)
//!     .record("ba_tag_array", "ba.jsonl")
//!     .run()
//!     .unwrap();
//! ```

pub mod adapters;
pub mod affine;
pub mod baselines;
pub mod bypass;
pub mod catt;
pub mod config;
pub(crate) mod dac;
pub(crate) mod decoupled;
pub mod expr;
pub mod interwarp;
pub mod kernel;
pub(crate) mod l1;
pub mod memsys;
pub mod metrics;
pub mod presets;
pub mod reuse;
pub mod roles;
pub(crate) mod sm;
pub mod stimulus;
pub mod trace;
pub mod units;

use std::path::PathBuf;

pub use config::{
    Decoupling, InstrClass, Latencies, MachineConfig, MachineConfigError, MemModel, SchedPolicy,
    SmScope,
};
pub use expr::{Class, ExprClass};
pub use kernel::{ArrayInfo, Kernel, KernelError, MemInstrInfo};
pub use metrics::{DacMetrics, Metrics, SmSummary, UnitCounts};
pub use roles::{
    BlockShape, Choice, DeqResponse, EnqTuple, ExpanderRole, L1Outcome, L1Response, L1Role,
    LoadInfo, PrefetchOffer, PrefetcherRole, Pressure, Role, RoleObject, TupleCmp, TupleKind,
    WarpRef,
};
pub use stimulus::{read_stimulus, replay, Stimulus, StimulusWriter};
pub use units::{role_choices, unit_params, Attached, HarnessUnit, UnitContext, UnitEntry, UNITS};

use golden::check::{Mismatch, Probe};

/// Why a run stopped without metrics.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// The machine configuration is unusable.
    #[error("{0}")]
    Config(MachineConfigError),
    /// The kernel file is unusable.
    #[error("{0}")]
    Kernel(KernelError),
    /// The kernel or the options cannot run on this machine.
    #[error("{0}")]
    Unsupported(String),
    /// The kernel's Accel-Sim trace cannot run as it stands
    /// ([`Kernel::check_trace`]: its block does not fit the SM's warp
    /// slots, or it does not cover its grid).
    #[error("{0}")]
    Trace(trace::TraceError),
    /// A lock-step probe found a difference between the unit's RTL and its
    /// golden model; the report is kept structured up to the command line.
    #[error("{mismatch}")]
    Lockstep {
        /// The unit whose probe failed.
        unit: &'static str,
        /// The harness cycle (0-based, reset cycles included).
        cycle: u64,
        /// The probe's report.
        mismatch: Box<Mismatch>,
    },
    /// The run exceeded `max_cycles`.
    #[error(
        "{file}: the kernel did not finish within {cycles} cycles (machine key `max_cycles`; \
         {ctas_done} of {ctas} CTAs done)"
    )]
    CycleLimit {
        /// The kernel's file.
        file: String,
        /// The limit.
        cycles: u64,
        /// CTAs finished.
        ctas_done: u64,
        /// CTAs of this SM.
        ctas: u64,
    },
    /// Nothing can make progress (e.g. a barrier some warps skip).
    #[error("deadlock at cycle {cycle}: {detail}")]
    Deadlock {
        /// The cycle.
        cycle: u64,
        /// What is waiting.
        detail: String,
    },
    /// A stimulus file (or another probe's file or back-end) failed.
    #[error("{0}")]
    Io(String),
    /// A replayed stimulus's recorded outputs differ from the golden
    /// model's ([`replay`]).
    #[error("{0}")]
    Replay(String),
    /// A harness invariant broke (a bug).
    #[error("internal harness error: {0}")]
    Internal(String),
}

impl From<KernelError> for HarnessError {
    fn from(e: KernelError) -> Self {
        HarnessError::Kernel(e)
    }
}

impl From<trace::TraceError> for HarnessError {
    fn from(e: trace::TraceError) -> Self {
        HarnessError::Trace(e)
    }
}

impl From<MachineConfigError> for HarnessError {
    fn from(e: MachineConfigError) -> Self {
        HarnessError::Config(e)
    }
}

/// Progress of a running kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Current cycle.
    pub cycle: u64,
    /// CTAs finished on this SM.
    pub ctas_done: u64,
    /// CTAs this SM runs in all.
    pub ctas: u64,
}

/// A progress callback.
pub type ProgressFn<'a> = Box<dyn FnMut(&Progress) + 'a>;

/// Optional attachments of a run.
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Probes by unit name (`ports::UnitSpec::NAME`): each runs beside that
    /// unit's golden model (the unit must be part of the run).
    pub probes: Vec<(String, Box<dyn Probe>)>,
    /// Stimulus recordings by unit name: the unit's inputs and outputs of
    /// every cycle are written to the file ([`stimulus`]).
    pub records: Vec<(String, PathBuf)>,
    /// Called every `progress_interval` cycles.
    pub progress: Option<ProgressFn<'a>>,
    /// Cycles between progress calls (default 65536).
    pub progress_interval: u64,
}

/// One run of a kernel on the modelled SM.
pub struct Harness<'a> {
    kernel: &'a Kernel,
    config: MachineConfig,
    opts: RunOptions<'a>,
}

impl<'a> Harness<'a> {
    /// A run of `kernel` on the machine `config`.
    pub fn new(kernel: &'a Kernel, config: &MachineConfig) -> Self {
        Harness {
            kernel,
            config: config.clone(),
            opts: RunOptions {
                progress_interval: 1 << 16,
                ..RunOptions::default()
            },
        }
    }

    /// Run `p` beside the golden model of unit `unit` (the RTL lock-step
    /// checker of `cosim`, or any other [`Probe`]). The run fails with
    /// [`HarnessError::Unsupported`] if the unit is not part of it.
    pub fn probe(mut self, unit: &str, p: Box<dyn Probe>) -> Self {
        self.opts.probes.push((unit.to_string(), p));
        self
    }

    /// Record unit `unit`'s stimulus of the run to `path` (a
    /// [`StimulusWriter`] probe). The run fails with
    /// [`HarnessError::Unsupported`] if the unit is not part of it.
    pub fn record(mut self, unit: &str, path: impl Into<PathBuf>) -> Self {
        self.opts.records.push((unit.to_string(), path.into()));
        self
    }

    /// Report progress every `interval` cycles.
    pub fn progress(mut self, interval: u64, f: impl FnMut(&Progress) + 'a) -> Self {
        self.opts.progress = Some(Box::new(f));
        self.opts.progress_interval = interval.max(1);
        self
    }

    /// Run the kernel to completion: on SM `sm_id` alone, or with `sms =
    /// all` on every SM.
    pub fn run(mut self) -> Result<Metrics, HarnessError> {
        // A trace is checked against the machine before anything runs.
        self.config.validate()?;
        self.kernel.check_trace(&self.config)?;
        if self.config.sms == config::SmScope::All {
            return sm::run_all(self.kernel, &self.config, &mut self.opts);
        }
        let sm = sm::Sm::new(self.kernel, &self.config, &mut self.opts)?;
        let interval = self.opts.progress_interval;
        sm.run(&mut self.opts.progress, interval)
    }
}

/// Run `kernel` on `config` with no attachments.
pub fn run(kernel: &Kernel, config: &MachineConfig) -> Result<Metrics, HarnessError> {
    Harness::new(kernel, config).run()
}
