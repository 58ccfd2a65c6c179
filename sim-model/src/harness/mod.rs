//! The golden SM harness (`sm_harness.md`): a cycle-level model of one
//! streaming multiprocessor that runs kernels written in a small TOML
//! format and drives the golden models of the units (`caps_prefetcher`,
//! `ba_tag_array`) every cycle — and, through [`Lockstep`], their RTL.
//!
//! ```no_run
//! use sim_model::harness::{Harness, Kernel, MachineConfig};
//! let kernel = Kernel::from_file("kernels/lps.toml".as_ref(), &[], 1).unwrap();
//! let mut cfg = MachineConfig::fermi();
//! cfg.set("prefetcher", "caps").unwrap();
//! cfg.set("sched", "pas").unwrap();
//! let metrics = Harness::new(&kernel, &cfg).run().unwrap();
//! println!("{}", metrics.table());
//! ```
//!
//! Modules: [`config`] (the machine and its presets), [`kernel`] (the file
//! format, its errors and the compiler), [`expr`] (expressions and their
//! classification), [`metrics`] (what a run measures, with the definitions
//! of every figure), [`lockstep`] (the co-simulation hook and the stimulus
//! files), [`trace`] (Accel-Sim trace reading). The cycle loop itself is
//! documented in the `sm` module source.

pub mod config;
pub mod expr;
pub mod kernel;
pub(crate) mod l1;
pub mod lockstep;
pub mod metrics;
pub(crate) mod sm;
pub mod trace;

use std::path::PathBuf;

pub use config::{L1Policy, MachineConfig, MachineConfigError, PrefetcherKind, SchedPolicy};
pub use expr::{Class, ExprClass};
pub use kernel::{ArrayInfo, Kernel, KernelError, MemInstrInfo};
pub use lockstep::{read_stimulus, replay, Lockstep, Stimulus, StimulusWriter};
pub use metrics::Metrics;
use ports::ba::BaTagArray;
use ports::caps::CapsPrefetcher;

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
    /// A lock-step hook reported a difference; `message` is its message.
    #[error("{message}")]
    Lockstep {
        /// The unit whose hook failed.
        unit: &'static str,
        /// The cycle (0-based, reset cycles included).
        cycle: u64,
        /// The hook's message.
        message: String,
    },
    /// The run exceeded `max_cycles`.
    #[error("the kernel did not finish within {cycles} cycles ({ctas_done} of {ctas} CTAs done)")]
    CycleLimit {
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
    /// A stimulus file could not be written.
    #[error("{0}")]
    Io(String),
    /// A harness invariant broke (a bug).
    #[error("internal harness error: {0}")]
    Internal(String),
}

impl From<KernelError> for HarnessError {
    fn from(e: KernelError) -> Self {
        HarnessError::Kernel(e)
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
    /// Runs beside the CAPS golden model (needs `prefetcher = caps`).
    pub caps_lockstep: Option<Box<dyn Lockstep<CapsPrefetcher>>>,
    /// Runs beside the BA golden model (needs `l1 = ba` or `ba-lru`).
    pub ba_lockstep: Option<Box<dyn Lockstep<BaTagArray>>>,
    /// Record the CAPS inputs and outputs of every cycle to this file.
    pub record_caps: Option<PathBuf>,
    /// Record the BA inputs and outputs of every cycle to this file.
    pub record_ba: Option<PathBuf>,
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

    /// Attach the CAPS lock-step hook.
    pub fn caps_lockstep(mut self, l: Box<dyn Lockstep<CapsPrefetcher>>) -> Self {
        self.opts.caps_lockstep = Some(l);
        self
    }

    /// Attach the BA lock-step hook.
    pub fn ba_lockstep(mut self, l: Box<dyn Lockstep<BaTagArray>>) -> Self {
        self.opts.ba_lockstep = Some(l);
        self
    }

    /// Record the CAPS stimulus of the run.
    pub fn record_caps(mut self, path: impl Into<PathBuf>) -> Self {
        self.opts.record_caps = Some(path.into());
        self
    }

    /// Record the BA stimulus of the run.
    pub fn record_ba(mut self, path: impl Into<PathBuf>) -> Self {
        self.opts.record_ba = Some(path.into());
        self
    }

    /// Report progress every `interval` cycles.
    pub fn progress(mut self, interval: u64, f: impl FnMut(&Progress) + 'a) -> Self {
        self.opts.progress = Some(Box::new(f));
        self.opts.progress_interval = interval.max(1);
        self
    }

    /// Run the kernel to completion.
    pub fn run(mut self) -> Result<Metrics, HarnessError> {
        let sm = sm::Sm::new(self.kernel, &self.config, &mut self.opts)?;
        let interval = self.opts.progress_interval;
        sm.run(&mut self.opts.progress, interval)
    }
}

/// Run `kernel` on `config` with no attachments.
pub fn run(kernel: &Kernel, config: &MachineConfig) -> Result<Metrics, HarnessError> {
    Harness::new(kernel, config).run()
}
