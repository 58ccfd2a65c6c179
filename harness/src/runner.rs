//! The entry point: a kernel on a machine, with probes and recorders
//! attached by unit name ([`Harness`]).

use std::path::PathBuf;

use golden::check::Probe;

use crate::config::{self, MachineConfig};
use crate::error::HarnessError;
use crate::kernel::Kernel;
use crate::metrics::Metrics;
use crate::options::{Progress, RunOptions};
use crate::sm;

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
        sm::run_one(self.kernel, &self.config, &mut self.opts)
    }
}

/// Run `kernel` on `config` with no attachments.
pub fn run(kernel: &Kernel, config: &MachineConfig) -> Result<Metrics, HarnessError> {
    Harness::new(kernel, config).run()
}
