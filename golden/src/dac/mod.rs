//! Golden model of `dac_expander`, the Decoupled Affine Computation
//! expansion datapath (spec `dac.md`, micro-architecture contract
//! `docs/units/dac_expander.md`).
//!
//! The model is written from the specification and the contract only, as
//! plain Rust: a bit set and a `Vec` of CTA indices for the slots, a
//! `VecDeque` of [`Tuple`]s for the Affine Tuple Queue (ATQ), the
//! expander's registers ([`Cursor`]), one `VecDeque` of [`Record`]s (PWAQ)
//! and one of masks (PWPQ) per warp, the memory request register and the
//! response register. Lane values, records and predicate masks are computed
//! directly from the spec's formulas ([`WarpLanes`]). It is the reference
//! the RTL is checked against cycle for cycle.
//!
//! # Timing
//! Every decision of a cycle is taken from the registered state at the start
//! of the cycle and the inputs of the cycle; every update happens at the
//! edge ([`GoldenModel::step`]); every output is a register.
//! * `reset` at an edge clears everything port-visible (slots, ATQ,
//!   expander, queues, `mem_valid`/`mem_addr`, `rsp_*`, the two counters);
//!   nothing else happens at that edge.
//! * Slots: `cta_done` makes its slot inactive, then `cta_launch` makes its
//!   slot active with the new `(cx, cy)`; slot numbers `>= N_CTA` are
//!   ignored.
//! * `enq_ready = atq_count < ATQ_DEPTH` (start of cycle); an accepted tuple
//!   is appended at the edge. `atq_count` includes the tuple being expanded.
//! * *Start cycle*: the expander is idle, the ATQ not empty and its head
//!   not leaving. At the edge `todo` becomes the set of slots active at the
//!   start of the cycle; a reserved tuple (kind 3; ADDR/DATA with gran 3;
//!   PRED with cmp 6 or 7), or one with an empty `todo`, is dropped: it
//!   leaves the ATQ at the next edge and the expander stays idle; otherwise
//!   the expander becomes busy on warp 0 of the lowest slot of `todo`. The
//!   start cycle produces nothing.
//! * *Leave cycle* (issue 29, step 4): a tuple leaves the ATQ one edge after
//!   its end (its last warp done, or its drop at its start edge); in the
//!   cycle between, the expander is idle and starts nothing, and
//!   `atq_count` still counts the tuple.
//! * *Setup cycles* (issue 29, the two warp-setup stages): the two cycles
//!   after a start that made the expander busy produce nothing; at the
//!   second one's edge the first warp becomes current.
//! * *Busy cycle*, current slot `c`, warp `wi`, warp id `w = c * W + wi`,
//!   `(cx, cy)` as the slot's registers held them at the start of the cycle
//!   at whose edge the walk moved to the warp before it (the first setup
//!   cycle for the tuple's first warp, the second setup cycle for its second
//!   warp, else the last cycle of the warp two before), fixed for the warp's
//!   cycles:
//!   - `w >= N_WARPS` or no active lane: the warp is done, nothing produced;
//!   - ADDR/DATA: one record (lanes `p .. e-1`) per cycle, pushed unless the
//!     warp's address queue is full at the start of the cycle or (DATA) the
//!     memory request register is busy (`mem_valid` and not `mem_ready`);
//!     a DATA record also loads `mem_addr` (its line) and sets `mem_valid`;
//!   - PRED fast path (condition (a) or (b)): one cycle, the exact mask is
//!     pushed unless the predicate queue is full, `stat_pred_fast` counts
//!     the warp at the push edge;
//!   - PRED slow path: group cycle `g` compares lanes `8g .. 8g+7`; the last
//!     group (`g = G - 1`, `G = ceil(n / 8)`) pushes the mask and counts
//!     `stat_pred_slow` if the queue is not full, else it repeats next
//!     cycle;
//!   - a done warp moves the expander to warp `wi + 1`, or after the last
//!     warp (`wi + 1 >= W`) to warp 0 of the next slot of `todo` above `c`,
//!     or after the last slot the tuple ends: the expander is idle and the
//!     tuple leaves the ATQ at the next edge (the leave cycle).
//! * Guard masks (revision 2, the contract's "Guard masks"): the ATQ keeps
//!   each tuple's `enq_guard`. A *guard* (PRED with `guard`) is expanded as
//!   any PRED tuple and also writes each pushed mask to its warp's `G[w]`
//!   at the push edge. A *guarded* ADDR/DATA tuple enables only the lanes
//!   `l < n` whose bit of `G[w]` is set: a warp with none is skipped in one
//!   cycle (tested after the `w >= N_WARPS` / `n = 0` skip, before any
//!   stall) and counted in `stat_guard_skips`; otherwise each record starts
//!   at the lowest enabled lane `>= p`, ends at the first lane that is not
//!   enabled or leaves the region, and is `last` when no enabled lane
//!   follows ([`WarpLanes::record_at`]). Reset clears every `G[w]`.
//! * `mem_valid` falls at an edge with `mem_ready = 1` unless a DATA record
//!   loads a new request at that edge.
//! * Dequeue: `rsp_*` is registered: `rsp_valid = deq_valid` of the
//!   previous cycle, `rsp_hit` if the queue held an entry at the start of
//!   that cycle (popped, its fields shown), otherwise every field 0. A push
//!   and a pop of one queue at one edge both take effect, each judged on the
//!   start-of-cycle queue (the push needs room, the pop an entry).
//!
//! A tuple enqueued at edge *t* starts in cycle *t + 1* (the cycle ending at
//! edge *t + 1*), is set up in cycles *t + 2* and *t + 3*; its first record
//! is pushed at edge *t + 4*; a dequeue in cycle *t + 5* pops it and shows
//! it in cycle *t + 6*; a DATA record's memory request is offered from cycle
//! *t + 5*. A tuple whose last record is pushed at edge *t* leaves at edge
//! *t + 1*; the next queued tuple starts in cycle *t + 2* and pushes its
//! first record at edge *t + 5*.
//!
//! # Decisions where the spec and the contract are silent or loose
//! These are the model's readings; the RTL must make the same ones:
//! * Every input is taken modulo its port width (`cfg_bdx_log2` 4 bits,
//!   `cfg_threads` 11, `cfg_warps_per_cta` 6, slots `clog2(N_CTA)`, CTA
//!   indices 16, `enq_kind` 2, `enq_gran` 2, `enq_cmp` 3, 32-bit values,
//!   `deq_warp` `clog2(N_WARPS)`, `deq_kind` 1). `cfg_*` are read every
//!   cycle (not latched); `W = cfg_warps_per_cta` is used as given, `n` is
//!   computed from `cfg_threads` (they need not agree).
//! * `cta_done` clears only the slot's `active` bit; its `(cx, cy)`
//!   registers keep their values (a slot of `todo` done during the expansion
//!   is still expanded with them). Reset clears `(cx, cy)` too (never
//!   observable).
//! * `mem_addr` is loaded only by a DATA record: it keeps its value when
//!   `mem_valid` falls; reset clears it to 0.
//! * `W = 0`: the expander still steps on warp 0 of each slot of `todo`
//!   (one cycle per slot; warp id `c * 0 + 0 = 0`, lanes from
//!   `cfg_threads` as usual, so with `cfg_threads > 0` that step expands
//!   lanes `0 .. n-1` into warp 0's queue) and then moves to the next slot
//!   "at once" (`wi + 1 >= W`). With a consistent configuration (`W = 0`
//!   only when `cfg_threads = 0`) the step produces nothing.
//! * The fast/slow decision of a predicate warp is taken in its cycles with
//!   `g = 0` (the first cycle, or a repeat of the only group when `G = 1`);
//!   once a warp has compared a group on the slow path it stays on it.
//!   A stalled slow last group changes nothing (the partial mask is not
//!   updated), so its repeat compares the group again from the registers of
//!   the repeat's cycle. Both only matter if `(cx, cy)` change during the
//!   warp.
//! * A warp with `w >= N_WARPS` or `n = 0` is tested before the kind, so it
//!   takes one cycle even when its queue would be full, and counts in
//!   neither `stat_pred_*`.
//! * `deq_warp >= N_WARPS` answers `rsp_valid = 1, rsp_hit = 0`.
//! * The fast-path condition is applied literally: "arithmetic" means
//!   `blockDim.x >= 32` or `off_ty = blockDim.x * off_tx`, so a 1-D block of
//!   fewer than 32 threads (`blockDim.x < 32`, every `ty = 0`) with
//!   `off_ty = 0` and `off_tx != 0` takes the slow path.
//! * The statistics ([`DacStats`]) are not port-visible state and are not
//!   cleared by reset (the port counters `stat_pred_*` are).

use std::collections::VecDeque;

use ports::dac::{kind, DacExpander, DacIn, DacOut, DacParams};
use ports::{mask, Params};

use crate::model::{GoldenModel, GoldenUnit};

mod lanes;

pub use lanes::{
    active_lanes, compare, Geometry, Record, Tuple, WarpLanes, SLOW_GROUP_LANES, WARP_LANES,
};

/// Bytes of a cache line (a memory request is for one line).
pub const LINE_BYTES: u32 = 128;
/// `deq_kind` of the per-warp address queue (PWAQ).
pub const DEQ_ADDR: u64 = 0;
/// `deq_kind` of the per-warp predicate queue (PWPQ).
pub const DEQ_PRED: u64 = 1;

/// Width of `cta_launch_x` / `cta_launch_y`.
const CTA_INDEX_W: u32 = 16;
/// Width of `deq_kind`.
const DEQ_KIND_W: u32 = 1;
/// Width of the predicate counters.
const STAT_W: u32 = 32;

/// The expander's registers while it is busy on a tuple.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The slots sampled at the start cycle (bit per slot).
    pub todo: u32,
    /// Current slot `c`.
    pub slot: u32,
    /// Current warp `wi` of the slot.
    pub wi: u32,
    /// Next lane `p` (ADDR/DATA).
    pub p: u32,
    /// Lane group `g` (slow predicate path).
    pub g: u32,
    /// Partial predicate mask (slow path).
    pub partial: u32,
    /// The tuple's setup cycles left (2 after the start cycle, 1 in the
    /// second, 0 once the first warp is current): no warp is current while
    /// it is not 0.
    pub setup: u32,
    /// The current warp's `(cx, cy)`: its slot's registers at the start of
    /// the cycle the walk moved to the warp before it (the two warp-setup
    /// stages: the first setup cycle for the tuple's first warp).
    pub cx: u32,
    /// See `cx`.
    pub cy: u32,
    /// The next warp's `(cx, cy)`, read the same way (in the second setup
    /// cycle, or the cycle the walk moved to the current warp); stale when
    /// the current warp is the tuple's last.
    pub ncx: u32,
    /// See `ncx`.
    pub ncy: u32,
}

/// The registered dequeue response (`rsp_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// `rsp_valid`.
    pub valid: bool,
    /// `rsp_hit`.
    pub hit: bool,
    /// `rsp_addr`.
    pub addr: u32,
    /// `rsp_mask`.
    pub mask: u32,
    /// `rsp_gran`.
    pub gran: u64,
    /// `rsp_last`.
    pub last: bool,
}

/// Event counts of the model since it was built (not cleared by reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DacStats {
    /// Tuples appended to the ATQ.
    pub tuples_enqueued: u64,
    /// Cycles with `enq_valid` while the ATQ was full.
    pub enq_refused_cycles: u64,
    /// Tuples started with a non-empty `todo` (the expander became busy).
    pub tuples_started: u64,
    /// Tuples that left the ATQ after their last warp.
    pub tuples_expanded: u64,
    /// Reserved tuples dropped at their start edge.
    pub tuples_reserved: u64,
    /// Tuples dropped at their start edge because no slot was active.
    pub tuples_without_slots: u64,
    /// Warps done that produced something (records or a mask).
    pub warps_expanded: u64,
    /// Warps done in one cycle producing nothing (`w >= N_WARPS` or
    /// `n = 0`).
    pub warps_skipped: u64,
    /// Address records pushed into the PWAQs.
    pub records_pushed: u64,
    /// Memory requests issued (DATA records).
    pub mem_requests: u64,
    /// Memory requests taken (`mem_valid` and `mem_ready`).
    pub mem_taken: u64,
    /// Predicate masks pushed into the PWPQs.
    pub masks_pushed: u64,
    /// Predicate warps on the fast path (not wrapping).
    pub pred_fast: u64,
    /// Predicate warps on the slow path (not wrapping).
    pub pred_slow: u64,
    /// Slow-path group cycles that advanced to the next group (not the
    /// last group).
    pub slow_groups: u64,
    /// Busy cycles stalled because the warp's queue was full.
    pub stall_queue_cycles: u64,
    /// Busy cycles of a DATA record stalled only by the memory request
    /// register.
    pub stall_mem_cycles: u64,
    /// Cycles the expander was busy (stalls included).
    pub busy_cycles: u64,
    /// Dequeues that popped an entry.
    pub deq_hits: u64,
    /// Dequeues that found the queue empty (or `deq_warp >= N_WARPS`).
    pub deq_misses: u64,
    /// Guard masks written (rule G1: a guard's mask pushed).
    pub guard_writes: u64,
    /// Warps of guarded tuples skipped with no enabled lane (rule G2; as
    /// `stat_guard_skips`, not wrapping).
    pub guard_skips: u64,
    /// Warps of guarded tuples expanded with some but not all of their
    /// active lanes enabled (counted at their last record).
    pub guarded_partial: u64,
    /// Records of guarded tuples ended by a lane that is not enabled with
    /// an enabled lane above it (a gap, rule G3).
    pub guard_gaps: u64,
}

impl DacStats {
    /// All stall cycles.
    pub fn stall_cycles(&self) -> u64 {
        self.stall_queue_cycles + self.stall_mem_cycles
    }
}

/// What the expander does at this edge, decided from the start-of-cycle
/// state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// Idle, ATQ empty.
    Idle,
    /// Start cycle: the tuple leaves (reserved, or no active slot).
    Leave { reserved: bool },
    /// Start cycle: busy on `todo`.
    Start { todo: u32 },
    /// A setup cycle: the first warp (first cycle) or the second (second
    /// cycle) reads its `(cx, cy)`.
    Setup,
    /// The current warp is done without producing anything.
    Skip,
    /// A guarded tuple's warp with no enabled lane: done, nothing produced,
    /// counted in `stat_guard_skips` (rule G2).
    GuardSkip,
    /// The warp's queue is full, or (`mem`) the memory register is busy.
    Stall { mem: bool },
    /// Push an address record into warp `w`'s queue; `e` is the next lane.
    /// `partial`: a guarded warp with some active lanes not enabled; `gap`:
    /// the record ends at a lane that is not enabled, before an enabled one.
    Record {
        w: usize,
        record: Record,
        e: u32,
        data: bool,
        partial: bool,
        gap: bool,
    },
    /// Push warp `w`'s finished predicate mask; the warp is done. `guard`:
    /// the mask is also written to `G[w]`.
    Mask {
        w: usize,
        mask: u32,
        fast: bool,
        guard: bool,
    },
    /// A slow-path group (not the last): the partial mask becomes `partial`.
    Group { partial: u32 },
}

/// Cycle-accurate golden model of `dac_expander`.
///
/// Build it with [`GoldenModel::new`] (or [`DacModel::with_params`]), read
/// the outputs of the current cycle with [`GoldenModel::outputs`] and advance
/// one clock edge with [`GoldenModel::step`]. The inspection helpers
/// ([`DacModel::atq_len`], [`DacModel::queue_len`], [`DacModel::stats`], ...)
/// only read the state.
#[derive(Clone, Debug)]
pub struct DacModel {
    /// The configuration the model was built for.
    params: DacParams,
    /// Bit `c` set: slot `c` is active.
    active: u32,
    /// Per slot: its CTA index `(cx, cy)`.
    cta: Vec<(u32, u32)>,
    /// The ATQ, oldest (the current tuple while busy) first.
    atq: VecDeque<Tuple>,
    /// The expander's registers; `None` while idle.
    cursor: Option<Cursor>,
    /// The head tuple is finished (its last warp done, or dropped at its
    /// start edge) and leaves the ATQ at the next edge (issue 29, step 4:
    /// the *leave cycle*, in which the expander starts nothing).
    leaving: bool,
    /// Per warp: the address queue, oldest first.
    pwaq: Vec<VecDeque<Record>>,
    /// Per warp: the predicate queue, oldest first.
    pwpq: Vec<VecDeque<u32>>,
    /// `mem_valid`.
    mem_valid: bool,
    /// `mem_addr`.
    mem_addr: u32,
    /// `rsp_*`.
    rsp: Response,
    /// `stat_pred_fast` (32-bit, wrapping).
    stat_fast: u32,
    /// `stat_pred_slow` (32-bit, wrapping).
    stat_slow: u32,
    /// Per warp: the guard mask `G[w]` (revision 2).
    guard: Vec<u32>,
    /// `stat_guard_skips` (32-bit, wrapping).
    stat_guard: u32,
    /// Event counts.
    stats: DacStats,
}

impl DacModel {
    /// A model in its reset state (slots inactive, every queue empty,
    /// expander idle, outputs 0 except `enq_ready`).
    ///
    /// # Panics
    /// If `params` is not a configuration the generator accepts
    /// ([`Params::validate`] fails).
    pub fn with_params(params: &DacParams) -> Self {
        if let Err(e) = params.validate() {
            panic!("DacModel: invalid dac_expander configuration: {e}");
        }
        let warps = params.N_WARPS as usize;
        DacModel {
            params: params.clone(),
            active: 0,
            cta: vec![(0, 0); params.N_CTA as usize],
            atq: VecDeque::with_capacity(params.ATQ_DEPTH as usize),
            cursor: None,
            leaving: false,
            pwaq: (0..warps)
                .map(|_| VecDeque::with_capacity(params.PWAQ_DEPTH as usize))
                .collect(),
            pwpq: (0..warps)
                .map(|_| VecDeque::with_capacity(params.PWPQ_DEPTH as usize))
                .collect(),
            mem_valid: false,
            mem_addr: 0,
            rsp: Response::default(),
            stat_fast: 0,
            stat_slow: 0,
            guard: vec![0; warps],
            stat_guard: 0,
            stats: DacStats::default(),
        }
    }

    // ----- inspection -----

    /// The configuration of this model.
    pub fn params(&self) -> &DacParams {
        &self.params
    }

    /// Event counts since the model was built.
    pub fn stats(&self) -> DacStats {
        self.stats
    }

    /// Tuples in the ATQ, the one being expanded included (`atq_count`).
    pub fn atq_len(&self) -> usize {
        self.atq.len()
    }

    /// The tuples in the ATQ, oldest (the current one while busy) first.
    pub fn atq(&self) -> Vec<Tuple> {
        self.atq.iter().copied().collect()
    }

    /// The expander is working on a tuple (past its start cycle).
    pub fn busy(&self) -> bool {
        self.cursor.is_some()
    }

    /// The expander's registers, `None` while idle.
    pub fn cursor(&self) -> Option<Cursor> {
        self.cursor
    }

    /// The ATQ is empty and the expander idle: nothing left to expand.
    pub fn idle(&self) -> bool {
        self.atq.is_empty() && self.cursor.is_none()
    }

    /// The CTA index `(cx, cy)` of slot `c` if it is active.
    pub fn slot(&self, c: u64) -> Option<(u32, u32)> {
        (c < self.params.N_CTA && self.active & (1 << c) != 0).then(|| self.cta[c as usize])
    }

    /// Entries in warp `warp`'s queue of kind `kind` ([`DEQ_ADDR`] or
    /// [`DEQ_PRED`]); 0 for `warp >= N_WARPS`.
    pub fn queue_len(&self, warp: u64, kind: u64) -> usize {
        if warp >= self.params.N_WARPS {
            return 0;
        }
        if kind == DEQ_ADDR {
            self.pwaq[warp as usize].len()
        } else {
            self.pwpq[warp as usize].len()
        }
    }

    /// Warp `warp`'s address records, oldest first.
    ///
    /// # Panics
    /// If `warp >= N_WARPS`.
    pub fn addr_queue(&self, warp: u64) -> Vec<Record> {
        self.pwaq[warp as usize].iter().copied().collect()
    }

    /// Warp `warp`'s predicate masks, oldest first.
    ///
    /// # Panics
    /// If `warp >= N_WARPS`.
    pub fn pred_queue(&self, warp: u64) -> Vec<u32> {
        self.pwpq[warp as usize].iter().copied().collect()
    }

    /// Warp `warp`'s guard mask `G[w]`.
    ///
    /// # Panics
    /// If `warp >= N_WARPS`.
    pub fn guard_mask(&self, warp: u64) -> u32 {
        self.guard[warp as usize]
    }

    /// Every per-warp queue is empty.
    pub fn queues_empty(&self) -> bool {
        self.pwaq.iter().all(VecDeque::is_empty) && self.pwpq.iter().all(VecDeque::is_empty)
    }

    /// The registered dequeue response.
    pub fn response(&self) -> Response {
        self.rsp
    }

    // ----- the expander -----

    /// What the expander does at this edge, from the start-of-cycle state
    /// and the cycle's inputs.
    fn action(&self, geom: &Geometry, mem_ready: bool) -> Action {
        let Some(tuple) = self.atq.front() else {
            return Action::Idle;
        };
        if self.leaving {
            // The leave cycle: the finished tuple is still the head.
            return Action::Idle;
        }
        let Some(cur) = self.cursor else {
            // Start cycle.
            let reserved = tuple.is_reserved();
            return if reserved || self.active == 0 {
                Action::Leave { reserved }
            } else {
                Action::Start { todo: self.active }
            };
        };
        if cur.setup > 0 {
            return Action::Setup;
        }
        let w = cur.slot as u64 * geom.warps_per_cta as u64 + cur.wi as u64;
        let n = active_lanes(geom.threads, cur.wi);
        if w >= self.params.N_WARPS || n == 0 {
            return Action::Skip;
        }
        let w = w as usize;
        let (cx, cy) = (cur.cx, cur.cy);
        let lanes = WarpLanes::new(*tuple, geom, cur.wi, cx, cy);
        match tuple.kind {
            kind::ADDR | kind::DATA => self.addr_action(lanes, w, cur.p, mem_ready),
            kind::PRED => {
                let full = self.pwpq[w].len() >= self.params.PWPQ_DEPTH as usize;
                if cur.g == 0 && lanes.fast_path() {
                    if full {
                        return Action::Stall { mem: false };
                    }
                    let mask = lanes.pred_mask();
                    return Action::Mask {
                        w,
                        mask,
                        fast: true,
                        guard: tuple.is_guard(),
                    };
                }
                let partial = cur.partial | lanes.pred_group(cur.g);
                if cur.g + 1 < lanes.groups() {
                    Action::Group { partial }
                } else if full {
                    Action::Stall { mem: false }
                } else {
                    Action::Mask {
                        w,
                        mask: partial,
                        fast: false,
                        guard: tuple.is_guard(),
                    }
                }
            }
            // A reserved tuple never starts.
            _ => Action::Skip,
        }
    }

    /// An ADDR/DATA busy cycle on warp `w` (`w < N_WARPS`, `n > 0`) at lane
    /// `p`: a guarded tuple's warp with no enabled lane is skipped (rule
    /// G2, before any stall); otherwise the record at `p` is pushed unless
    /// the queue is full or (DATA) the memory request register busy.
    fn addr_action(&self, lanes: WarpLanes, w: usize, p: u32, mem_ready: bool) -> Action {
        let guarded = lanes.tuple.is_guarded();
        let lanes = if guarded {
            lanes.guarded_by(self.guard[w])
        } else {
            lanes
        };
        if guarded && lanes.enabled == 0 {
            return Action::GuardSkip;
        }
        let data = lanes.tuple.kind == kind::DATA;
        if self.pwaq[w].len() >= self.params.PWAQ_DEPTH as usize {
            return Action::Stall { mem: false };
        }
        if data && self.mem_valid && !mem_ready {
            return Action::Stall { mem: true };
        }
        let (record, e) = lanes.record_at(p);
        Action::Record {
            w,
            record,
            e,
            data,
            partial: guarded && lanes.enabled.count_ones() < lanes.n,
            gap: !record.last && !lanes.is_enabled(e),
        }
    }

    /// The warp after warp `wi` of slot `slot` in the walk over `todo`:
    /// `(slot, wi + 1)`, or warp 0 of the next slot of `todo` above `slot`
    /// after the slot's last warp (`wi + 1 >= W`); `None` after the last.
    fn successor(todo: u32, slot: u32, wi: u32, geom: &Geometry) -> Option<(u32, u32)> {
        if wi + 1 < geom.warps_per_cta {
            return Some((slot, wi + 1));
        }
        let above = todo & !((2u32 << slot) - 1);
        (above != 0).then(|| (above.trailing_zeros(), 0))
    }

    /// The current warp is done at this edge: move to the next warp, the
    /// next slot of `todo`, or finish the tuple. The warp the walk moves to
    /// takes the `(cx, cy)` read one warp ahead; the warp after it reads its
    /// slot's `(cx, cy)` now (start-of-cycle registers).
    fn warp_done(&mut self, geom: &Geometry) {
        let cta = &self.cta;
        let cur = self.cursor.as_mut().expect("busy");
        cur.p = 0;
        cur.g = 0;
        cur.partial = 0;
        if let Some((slot, wi)) = Self::successor(cur.todo, cur.slot, cur.wi, geom) {
            (cur.slot, cur.wi) = (slot, wi);
            (cur.cx, cur.cy) = (cur.ncx, cur.ncy);
            if let Some((s2, _)) = Self::successor(cur.todo, slot, wi, geom) {
                (cur.ncx, cur.ncy) = cta[s2 as usize];
            }
        } else {
            self.cursor = None;
            self.leaving = true;
            self.stats.tuples_expanded += 1;
        }
    }

    /// Apply the expander's decision at the edge.
    fn apply(&mut self, action: Action, geom: &Geometry) {
        if self.cursor.is_some() {
            self.stats.busy_cycles += 1;
        }
        match action {
            Action::Idle => {}
            Action::Leave { reserved } => {
                self.leaving = true;
                if reserved {
                    self.stats.tuples_reserved += 1;
                } else {
                    self.stats.tuples_without_slots += 1;
                }
            }
            Action::Start { todo } => {
                self.stats.tuples_started += 1;
                self.cursor = Some(Cursor {
                    todo,
                    slot: todo.trailing_zeros(),
                    setup: 2,
                    ..Cursor::default()
                });
            }
            Action::Setup => {
                // The first setup cycle reads the first warp's `(cx, cy)`,
                // the second the second warp's (if the tuple has one).
                let cur = self.cursor.as_mut().expect("busy");
                if cur.setup == 2 {
                    (cur.cx, cur.cy) = self.cta[cur.slot as usize];
                } else if let Some((s2, _)) = Self::successor(cur.todo, cur.slot, cur.wi, geom) {
                    (cur.ncx, cur.ncy) = self.cta[s2 as usize];
                }
                cur.setup -= 1;
            }
            Action::Skip => {
                self.stats.warps_skipped += 1;
                self.warp_done(geom);
            }
            Action::GuardSkip => {
                self.stats.guard_skips += 1;
                self.stat_guard = self.stat_guard.wrapping_add(1);
                self.warp_done(geom);
            }
            Action::Stall { mem } => {
                if mem {
                    self.stats.stall_mem_cycles += 1;
                } else {
                    self.stats.stall_queue_cycles += 1;
                }
            }
            Action::Record {
                w,
                record,
                e,
                data,
                partial,
                gap,
            } => {
                self.pwaq[w].push_back(record);
                self.stats.records_pushed += 1;
                self.stats.guard_gaps += u64::from(gap);
                self.stats.guarded_partial += u64::from(partial && record.last);
                if data {
                    self.mem_valid = true;
                    self.mem_addr = record.addr & !(LINE_BYTES - 1);
                    self.stats.mem_requests += 1;
                }
                if record.last {
                    self.stats.warps_expanded += 1;
                    self.warp_done(geom);
                } else {
                    self.cursor.as_mut().expect("busy").p = e;
                }
            }
            Action::Mask {
                w,
                mask,
                fast,
                guard,
            } => {
                self.pwpq[w].push_back(mask);
                if guard {
                    self.guard[w] = mask;
                    self.stats.guard_writes += 1;
                }
                self.stats.masks_pushed += 1;
                self.stats.warps_expanded += 1;
                if fast {
                    self.stat_fast = self.stat_fast.wrapping_add(1);
                    self.stats.pred_fast += 1;
                } else {
                    self.stat_slow = self.stat_slow.wrapping_add(1);
                    self.stats.pred_slow += 1;
                }
                self.warp_done(geom);
            }
            Action::Group { partial } => {
                self.stats.slow_groups += 1;
                let cur = self.cursor.as_mut().expect("busy");
                cur.partial = partial;
                cur.g += 1;
            }
        }
    }

    /// The dequeue of this edge: pops from the start-of-cycle queue (call
    /// before the expander's push) and returns the next `rsp_*`.
    fn dequeue(&mut self, i: &DacIn) -> Response {
        if !i.deq_valid {
            return Response::default();
        }
        let warp = i.deq_warp & mask(self.params.warp_bits());
        let miss = Response {
            valid: true,
            ..Response::default()
        };
        if warp >= self.params.N_WARPS {
            self.stats.deq_misses += 1;
            return miss;
        }
        let w = warp as usize;
        let rsp = if i.deq_kind & mask(DEQ_KIND_W) == DEQ_ADDR {
            self.pwaq[w].pop_front().map(|r| Response {
                valid: true,
                hit: true,
                addr: r.addr,
                mask: r.mask,
                gran: r.gran,
                last: r.last,
            })
        } else {
            self.pwpq[w].pop_front().map(|m| Response {
                valid: true,
                hit: true,
                mask: m,
                ..Response::default()
            })
        };
        match rsp {
            Some(r) => {
                self.stats.deq_hits += 1;
                r
            }
            None => {
                self.stats.deq_misses += 1;
                miss
            }
        }
    }

    /// Slot updates of this edge: done, then launch.
    fn update_slots(&mut self, i: &DacIn) {
        let slot_mask = mask(self.params.slot_bits());
        let n_cta = self.params.N_CTA;
        let done = i.cta_done_slot & slot_mask;
        if i.cta_done_valid && done < n_cta {
            self.active &= !(1u32 << done);
        }
        let launch = i.cta_launch_slot & slot_mask;
        if i.cta_launch_valid && launch < n_cta {
            self.active |= 1u32 << launch;
            self.cta[launch as usize] = (
                (i.cta_launch_x & mask(CTA_INDEX_W)) as u32,
                (i.cta_launch_y & mask(CTA_INDEX_W)) as u32,
            );
        }
    }

    /// Return every piece of state to its reset value (statistics excepted).
    fn reset_state(&mut self) {
        self.active = 0;
        self.cta.fill((0, 0));
        self.atq.clear();
        self.cursor = None;
        self.leaving = false;
        self.pwaq.iter_mut().for_each(VecDeque::clear);
        self.pwpq.iter_mut().for_each(VecDeque::clear);
        self.mem_valid = false;
        self.mem_addr = 0;
        self.rsp = Response::default();
        self.stat_fast = 0;
        self.stat_slow = 0;
        self.guard.fill(0);
        self.stat_guard = 0;
    }
}

impl GoldenUnit for DacExpander {
    type Model = DacModel;
}

impl GoldenModel<DacExpander> for DacModel {
    fn new(params: &DacParams) -> Self {
        DacModel::with_params(params)
    }

    fn outputs(&self) -> DacOut {
        DacOut {
            enq_ready: self.atq.len() < self.params.ATQ_DEPTH as usize,
            mem_valid: self.mem_valid,
            mem_addr: self.mem_addr as u64,
            rsp_valid: self.rsp.valid,
            rsp_hit: self.rsp.hit,
            rsp_addr: self.rsp.addr as u64,
            rsp_mask: self.rsp.mask as u64,
            rsp_gran: self.rsp.gran,
            rsp_last: self.rsp.last,
            atq_count: self.atq.len() as u64,
            stat_pred_fast: self.stat_fast as u64 & mask(STAT_W),
            stat_pred_slow: self.stat_slow as u64 & mask(STAT_W),
            stat_guard_skips: self.stat_guard as u64 & mask(STAT_W),
        }
    }

    fn step(&mut self, inputs: &DacIn) {
        if inputs.reset {
            self.reset_state();
            return;
        }
        let geom = Geometry::from_inputs(inputs);

        // Decisions from the state at the start of the cycle.
        let action = self.action(&geom, inputs.mem_ready);
        let enq = inputs.enq_valid && self.atq.len() < self.params.ATQ_DEPTH as usize;
        // A finished tuple leaves the ATQ one edge after its end.
        if self.leaving {
            self.atq.pop_front();
            self.leaving = false;
        }

        // Dequeue: pops the start-of-cycle head, before any push.
        self.rsp = self.dequeue(inputs);

        // The memory request register: taken, then maybe reloaded.
        if self.mem_valid && inputs.mem_ready {
            self.mem_valid = false;
            self.stats.mem_taken += 1;
        }

        // The expander (reads the slots' start-of-cycle registers above).
        self.apply(action, &geom);
        self.update_slots(inputs);

        // Enqueue.
        if enq {
            self.atq.push_back(Tuple::from_inputs(inputs));
            self.stats.tuples_enqueued += 1;
        } else if inputs.enq_valid {
            self.stats.enq_refused_cycles += 1;
        }
    }
}

#[cfg(test)]
mod tests;
