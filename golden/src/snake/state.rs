//! The state and event counts of the `snake_prefetcher` golden model: the
//! Head row, the Tail entry with its per-PC fields, the walk job, the
//! walker's registers, a prefetch, and what the walker does at an edge.

/// Width of the `bw_util` port.
pub(super) const BW_UTIL_W: u32 = 7;

/// Largest value of the 2-bit saturating counters `t2` and `iw_cnt`.
pub(super) const CNT_MAX: u64 = 3;

/// Value of `t1` for an untrained link.
pub const T1_UNTRAINED: u64 = 0;
/// Value of `t1` for a trained link: seen by two warps, or (with
/// `OWN_LINKS = 1`) repeated; usable for the warps whose bit is set.
pub const T1_TWO_WARPS: u64 = 1;
/// Value of `t1` for a promoted link (used for every warp).
pub const T1_PROMOTED: u64 = 2;

/// One Head row: the last load of one warp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadRow {
    /// The warp has loaded since reset.
    pub valid: bool,
    /// PC of the warp's last load (`PC_W` bits).
    pub pc: u64,
    /// Address of the warp's last load (`ADDR_W` bits).
    pub addr: u64,
}

/// The per-PC fields of a Tail entry: they describe PC `pc1` and are the
/// same in every valid entry with that `pc1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerPc {
    /// Intra-warp stride (`ADDR_W` bits, two's complement).
    pub intra: u64,
    /// Intra-warp confidence, 0..=3 (trained at 3).
    pub t2: u64,
    /// `iw_warp` and `iw_addr` hold the last load of the PC.
    pub iw_valid: bool,
    /// Warp of the PC's last load.
    pub iw_warp: u64,
    /// Address of the PC's last load.
    pub iw_addr: u64,
    /// Inter-warp stride candidate (`ADDR_W` bits, two's complement).
    pub iw_stride: u64,
    /// Inter-warp confidence, 0..=3 (trained at 2 or more).
    pub iw_cnt: u64,
}

/// One Tail entry: a link `pc1 -> pc2` with an address difference, its
/// training state, and the per-PC fields of `pc1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TailEntry {
    /// The entry holds a link.
    pub valid: bool,
    /// PC of the earlier load of the link.
    pub pc1: u64,
    /// PC of the later load of the link.
    pub pc2: u64,
    /// Address difference `addr(pc2) - addr(pc1)` (`ADDR_W` bits, two's
    /// complement).
    pub stride: u64,
    /// Warp vector: bit `w` set when warp `w`'s last transition from `pc1`
    /// followed this link (`N_WARPS` bits).
    pub wv: u64,
    /// Link training: [`T1_UNTRAINED`], [`T1_TWO_WARPS`] or
    /// [`T1_PROMOTED`].
    pub t1: u64,
    /// The per-PC fields of `pc1`.
    pub per_pc: PerPc,
    /// Footprint (`ld_span`, 12 bits) of `pc2`'s load as last observed by
    /// the link's training (revision 2).
    pub span: u64,
}

/// A walk job: one accepted load, as held in the walk queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkJob {
    /// Warp of the load.
    pub warp: u64,
    /// PC of the load.
    pub pc: u64,
    /// Address of the load.
    pub addr: u64,
    /// The load's footprint (`ld_span`).
    pub span: u64,
    /// One past the last warp slot of the load's CTA (`ld_cta_end`).
    pub end: u64,
}

/// One entry of the output prefetch queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefetch {
    /// Address to prefetch (`pf_addr`).
    pub addr: u64,
    /// Warp the prefetch is for (`pf_warp`).
    pub warp: u64,
    /// [`kind`] of the prefetch (`pf_kind`).
    pub kind: u64,
    /// Footprint of the predicted load (`pf_span`; 0 when `SPAN = 0`).
    pub span: u64,
}

/// Event counts of the model since it was built (not cleared by reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnakeStats {
    /// Loads that trained the tables (`ld_valid` and `ld_uniform`).
    pub loads_trained: u64,
    /// Loads ignored (`ld_valid` with `ld_uniform = 0`).
    pub loads_ignored: u64,
    /// Link hits (an existing `(pc1, pc2, stride)` entry found).
    pub link_hits: u64,
    /// Link allocations (into an invalid or a valid entry).
    pub link_allocations: u64,
    /// Allocations that replaced a valid entry.
    pub evictions: u64,
    /// Bits of warp vectors cleared by a mismatching link.
    pub bits_cleared: u64,
    /// Links that became promoted (`t1` became 2).
    pub promotions: u64,
    /// Links that became trained for the warps that observed them (`t1`
    /// went from 0 to 1).
    pub links_trained: u64,
    /// Walk jobs that entered the walk queue.
    pub jobs_enqueued: u64,
    /// Walk jobs dropped because the walk queue was full.
    pub jobs_dropped: u64,
    /// Loads that made no walk job because prefetching was halted.
    pub jobs_suppressed: u64,
    /// Walk jobs discarded from the walk queue by a halted cycle.
    pub jobs_discarded: u64,
    /// Walk jobs that ended normally.
    pub jobs_completed: u64,
    /// Chain prefetches (kind 0) pushed into the output queue.
    pub prefetches_chain: u64,
    /// Inter-warp prefetches (kind 1) pushed into the output queue.
    pub prefetches_inter: u64,
    /// Intra-warp prefetches (kind 2) pushed into the output queue.
    pub prefetches_intra: u64,
    /// Intra-warp observations recorded (chains that closed a loop).
    pub loops_closed: u64,
    /// Hops the walker took without emitting (beyond `CHAIN_DEPTH`, or
    /// through a link not usable for the job's warp).
    pub silent_hops: u64,
    /// Cycles the walker had a prefetch but the output queue was full.
    pub stall_cycles: u64,
    /// Halted cycles.
    pub halted_cycles: u64,
    /// Prefetches taken on `pf_*` (`pf_valid` and `pf_ready`).
    pub prefetches_taken: u64,
}

impl SnakeStats {
    /// All prefetches pushed into the output queue, every kind.
    pub fn prefetches(&self) -> u64 {
        self.prefetches_chain + self.prefetches_inter + self.prefetches_intra
    }
}

/// Phase of the walker within its job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Hops along the warp's path (chain prefetches, loop closing).
    #[default]
    Chain,
    /// Intra-warp prefetches, iteration `k` next.
    Intra,
    /// Inter-warp prefetches, warp `w + k` next.
    Inter,
}

/// The walker's registers for the job at the head of the walk queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walker {
    /// Current phase.
    pub phase: Phase,
    /// Hops taken (emitting or not).
    pub hop: u64,
    /// PC reached by the hops (meaningful after the first hop; before it
    /// the job's PC is used).
    pub cur: u64,
    /// Address reached by the hops (after the first hop; before it the
    /// job's address).
    pub addr: u64,
    /// Sum of the strides of the hops taken (after the first hop; before it
    /// 0).
    pub sum: u64,
    /// The next iteration (phase intra) or warp distance (phase inter);
    /// not used in the chain phase.
    pub k: u64,
}

impl Walker {
    /// The walker's initial state (no hop taken, `k = 1`).
    pub const INITIAL: Walker = Walker {
        phase: Phase::Chain,
        hop: 0,
        cur: 0,
        addr: 0,
        sum: 0,
        k: 1,
    };
}

impl Default for Walker {
    fn default() -> Self {
        Walker::INITIAL
    }
}

/// What the walker does at this edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WalkAction {
    /// Not halted, empty walk queue.
    Idle,
    /// Halted: discard the walk queue, back to the initial state.
    Discard,
    /// The head job ends.
    End,
    /// The output queue is full and the step would push: hold.
    Stall,
    /// Take a silent hop (no room needed).
    Hop {
        next: Walker,
        observation: Option<u64>,
    },
    /// Push a prefetch, advance, maybe record an observation.
    Push {
        pf: Prefetch,
        next: Walker,
        observation: Option<u64>,
    },
}

impl WalkAction {
    /// The intra-warp observation this action records, if any.
    pub(super) fn observation(&self) -> Option<u64> {
        match *self {
            WalkAction::Hop { observation, .. } | WalkAction::Push { observation, .. } => {
                observation
            }
            _ => None,
        }
    }
}
