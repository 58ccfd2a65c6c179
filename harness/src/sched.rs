//! The warp schedulers: which of an SM's warps issues each cycle. Each
//! policy is one type implementing [`scheduler::WarpScheduler`] (in the
//! manner of GPGPU-Sim's `scheduler_unit::order_warps()`: the policy orders
//! the warps, the first eligible one issues): loose round robin
//! ([`lrr`]), greedy then oldest ([`gto`]), two-level ([`two_level`]) and
//! the CAPS paper's prefetch-aware scheduler ([`pas`]). The machine's
//! `sched` choice ([`SchedPolicy`]) names one; [`for_policy`] builds it.
//!
//! A new policy: a module with its type and `impl WarpScheduler`, its name
//! in [`SchedPolicy`], and its line in [`for_policy`].

pub(crate) mod gto;
pub(crate) mod lrr;
pub(crate) mod pas;
pub(crate) mod scheduler;
pub(crate) mod two_level;

use crate::config::{MachineConfig, SchedPolicy};
use gto::Gto;
use lrr::Lrr;
use pas::Pas;
use scheduler::{WarpScheduler, WarpTable};
use two_level::TwoLevel;

/// The scheduler `cfg.sched` names, for an SM whose warps `W` holds;
/// `leading_loads`: the distinct load PCs after which PAS clears a leading
/// warp's marker (the prefetcher's PerCTA entries; `None`: only a repeated
/// PC clears it).
pub(crate) fn for_policy<W: WarpTable + ?Sized>(
    cfg: &MachineConfig,
    leading_loads: Option<u32>,
) -> Box<dyn WarpScheduler<W>> {
    let warps = cfg.max_warps as usize;
    let ready_queue = cfg.ready_queue as usize;
    match cfg.sched {
        SchedPolicy::Lrr => Box::new(Lrr::default()),
        SchedPolicy::Gto => Box::new(Gto::new(warps)),
        SchedPolicy::TwoLevel => Box::new(TwoLevel::new(ready_queue, warps)),
        SchedPolicy::Pas => Box::new(Pas::new(
            ready_queue,
            warps,
            (!cfg.pas_lifetime_marker).then_some(leading_loads),
        )),
    }
}
