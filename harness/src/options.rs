//! What a run is given besides the kernel and the machine: probes,
//! stimulus recorders, a progress callback.

use std::path::PathBuf;

use golden::check::Probe;

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
