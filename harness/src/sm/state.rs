//! The SM's state ([`Sm`]): the kernel and the machine, the warp and CTA
//! slots, the scheduler, the load/store unit, the L1 side, the memory port,
//! the units in their role slots, and the run's figures. Its behaviour is
//! in the sibling modules, one per section of the cycle.

use std::cell::Cell;
use std::rc::Rc;

use crate::config::MachineConfig;
use crate::error::HarnessError;
use crate::expr::Lanes;
use crate::interwarp::InterWarpProbe;
use crate::kernel::{Kernel, Program};
use crate::metrics::{ArrayMetrics, BurstMeter, Metrics};
use crate::reuse::ReuseTracker;
use crate::sched::scheduler::WarpScheduler;

use super::l1_side::L1Side;
use super::ldst::LdSt;
use super::memory::SharedMemory;
use super::prefetches::Prefetches;
use super::tex_cache::TexCache;
use super::warp::{CtaSlot, Warp};

/// Instruction timing (`lat_*`, `ii_*`).
pub(super) struct Timing {
    /// Whether any latency or interval exceeds 1 (else results are ready
    /// the next cycle and nothing waits).
    pub(super) timed: bool,
    /// Bit per warp slot: waiting for its next instruction's operands.
    pub(super) lat_wait: u64,
    /// Per pipeline (`[sfu, dp, tensor]`): bit per warp slot, the next
    /// instruction needs it ...
    pub(super) pipe_next: [u64; 3],
    /// ... and the cycle it is free.
    pub(super) pipe_free: [u64; 3],
}

/// One SM, with `X` the SM's side of the unit in the expander slot
/// (`super::expander`).
pub(super) struct Sm<'k, X> {
    pub(super) k: &'k Kernel,
    pub(super) prog: &'k Program,
    pub(super) cfg: &'k MachineConfig,
    pub(super) now: u64,
    pub(super) line_mask: u64,
    pub(super) warps: Vec<Warp>,
    pub(super) ctas: Vec<CtaSlot>,
    /// Warps per CTA, and CTAs resident at once.
    pub(super) wpc: u32,
    pub(super) occ: u32,
    /// Bit per warp slot: free.
    pub(super) free_warps: u64,
    /// Bit per warp slot: state Ready.
    pub(super) ready: u64,
    /// Bit per warp slot: the next instruction is a load or a store.
    pub(super) mem_next: u64,
    pub(super) timing: Timing,
    /// The registers each instruction writes with a latency.
    pub(super) writes: Vec<Vec<u16>>,
    /// One-SM mode: CTAs launched here so far (this SM's k-th CTA is
    /// `sm_id + k * n_sm`).
    pub(super) next_cta_k: u64,
    /// One-SM mode: CTAs this SM runs; all-SM mode: the grid's.
    pub(super) ctas_here: u64,
    /// Non-blocking loads with a scoreboard (`loads = scoreboard`), and
    /// the registers each instruction reads.
    pub(super) scoreboard: bool,
    pub(super) reads: Vec<Vec<u16>>,
    /// All-SM mode: the next CTA of the grid to deal, shared by the SMs.
    pub(super) deal: Option<Rc<Cell<u64>>>,
    /// This SM's port of the memory below the L1, and whether this SM
    /// advances the memory itself (one-SM mode).
    pub(super) port: u32,
    pub(super) ticks_memory: bool,
    pub(super) ctas_done: u64,
    pub(super) live_ctas: u32,
    /// Warps launched so far (each warp's age).
    pub(super) age: u64,
    pub(super) sched: Box<dyn WarpScheduler<[Warp]>>,
    pub(super) ldst: LdSt,
    pub(super) l1: L1Side,
    /// The read-only texture cache (`texture` loads).
    pub(super) tex: TexCache,
    /// The memory below the L1, shared by the SMs of a run.
    pub(super) mem: SharedMemory,
    pub(super) pf: Prefetches,
    /// The SM's side of the expander slot.
    pub(super) xp: X,
    pub(super) reuse: Option<ReuseTracker>,
    /// The inter-warp stride probe (`interwarp_probe`).
    pub(super) interwarp: Option<InterWarpProbe>,
    /// The expression evaluator's stack.
    pub(super) stack: Vec<Lanes>,
    /// A kernel error found while executing (a zero divisor of an active
    /// thread): the cycle ends with it.
    pub(super) fault: Option<HarnessError>,
    // metrics
    pub(super) m: Metrics,
    pub(super) arrays: Vec<ArrayMetrics>,
    pub(super) bursts: BurstMeter,
}
