//! Why a run stopped without metrics.

use golden::check::{Mismatch, ProbeError};

use crate::config::error::MachineConfigError;
use crate::kernel::error::KernelError;
use crate::trace::format::TraceError;

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
    /// ([`Kernel::check_trace`](crate::kernel::Kernel::check_trace): its block does not fit the SM's warp
    /// slots, or it does not cover its grid).
    #[error("{0}")]
    Trace(TraceError),
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
    /// model's ([`replay`](crate::stimulus::replay)).
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

impl From<TraceError> for HarnessError {
    fn from(e: TraceError) -> Self {
        HarnessError::Trace(e)
    }
}

impl From<MachineConfigError> for HarnessError {
    fn from(e: MachineConfigError) -> Self {
        HarnessError::Config(e)
    }
}

/// A probe's error as the harness reports it: a lock-step difference of
/// `unit` at `cycle`, or a failed file or back-end.
pub(crate) fn probe_error(unit: &'static str, cycle: u64, e: ProbeError) -> HarnessError {
    match e {
        ProbeError::Mismatch(mismatch) => HarnessError::Lockstep {
            unit,
            cycle,
            mismatch,
        },
        ProbeError::Io(s) => HarnessError::Io(format!("{unit}: {s}")),
    }
}
