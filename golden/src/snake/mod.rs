//! Golden model of `snake_prefetcher`, the chain-of-strides prefetcher of
//! Snake (spec `snake.md`, micro-architecture contract
//! `docs/units/snake_prefetcher.md`).
//!
//! The model is written from the specification and the contract only, as
//! plain Rust: a `Vec` of Head rows (one per warp), a `Vec` of Tail entries,
//! the recency order of the Tail entries as a list of entry indices (most
//! recently used first), a `VecDeque` for the walk queue and one for the
//! output prefetch queue, the walker's registers ([`Walker`]) and the
//! throttle (`count`, `bw_halt`). It is the reference the RTL is checked
//! against cycle for cycle.
//!
//! # Timing
//! Every decision of a cycle is taken from the registered state at the start
//! of the cycle and the inputs of the cycle; every update happens at the
//! edge ([`GoldenModel::step`]):
//! * *halted* = `count != 0 || bw_halt` at the start of the cycle (shown on
//!   `throttled`); at the edge `count` reloads with `THROTTLE_CYCLES` on a
//!   `cache_full` cycle and otherwise counts down, `bw_halt` follows the
//!   hysteresis on `bw_util`;
//! * a load with `ld_valid = 1` and `ld_uniform = 1` trains the tables at
//!   the edge, halted or not;
//! * the same load enters the walk queue at the edge if not halted and if
//!   the walk queue was not full at the start of the cycle (else it is
//!   dropped);
//! * the walker works on the head of the walk queue, from the tables at the
//!   start of the cycle ([`walk`]): it pushes one prefetch (unless the
//!   output queue was full at the start of the cycle: stall, nothing
//!   changes), takes one hop that emits nothing (revision 2: beyond
//!   `CHAIN_DEPTH` or through a link not usable for the warp; no room
//!   needed), or ends the job (the job leaves the queue; that cycle makes
//!   no prefetch);
//! * a halted cycle empties the walk queue and returns the walker to its
//!   initial state, the output queue stays;
//! * the oldest prefetch of the output queue is on `pf_*` (all zero while
//!   the queue is empty) and is popped at an edge with `pf_ready = 1`.
//!
//! A load accepted at edge *t* with the walker idle, both queues empty, not
//! halted and `pf_ready = 1` has its first prefetch pushed at edge *t + 1*
//! and taken at edge *t + 2*; later prefetches of the same job follow one
//! per edge.
//!
//! # Revision 2
//! The spec's revision 2 (`snake.md`, "Revision 2") is the default; its
//! five parameters at the values of [`SnakeParams::revision1`] give
//! revision 1. Training: a link hit sets `t1 = 1` on any repeat with
//! `OWN_LINKS = 1` (else only when a second warp has the bit), and a hit
//! or an allocation writes the entry's `span` with the load's `ld_span`.
//! The walk ([`walk`]) follows the warp's own path up to `LOOP_HOPS` hops,
//! emits the first `CHAIN_DEPTH` of them that are usable for the warp,
//! closes loops into intra-warp observations, prefetches up to
//! `INTRA_DEGREE` iterations ahead and keeps inter-warp targets below the
//! job's `ld_cta_end` with `IW_SAME_CTA = 1`. A job holds its load's
//! `ld_span` and `ld_cta_end` (taken modulo their port widths).
//!
//! # Same-edge order
//! The walker's decision is taken first, from the start-of-cycle state. Its
//! intra-warp observation (a closing hop) is then written to the per-PC
//! fields `intra`, `t2` of the job's PC; the load's training follows (Head,
//! inter-warp fields `iw_*`, link fields `wv`, `t1`, allocation). The two
//! write disjoint fields, so the order only matters to a newly allocated
//! entry, which copies the per-PC fields of its source entry as they are
//! after both updates (contract, "Same-edge order"), and to the victim:
//! the updates go to the entries selected at the start of the cycle, and
//! the victim then takes its new contents (zero per-PC fields when it was
//! the only entry with `pc1 = q`, even if the observation or the load's
//! inter-warp update was for `q`).
//!
//! # Decisions where the spec and the contract are silent
//! These are the model's choices; the RTL must make the same ones:
//! * Every input is taken modulo its port width: `ld_warp` to
//!   `clog2(N_WARPS)` bits (`N_WARPS` is a power of two, so every warp id is
//!   in range), `ld_pc` to `PC_W`, `ld_addr` to `ADDR_W`, `bw_util` to 7
//!   bits (a value above 100 is compared as it is).
//! * Reset clears every field of the Head rows (not only `valid`), of the
//!   Tail entries, of the queues and of the walker. The statistics
//!   ([`SnakeStats`]) are not port-visible state and are not cleared by
//!   reset.
//! * A prefetch popped at a reset edge is not a transfer (nothing else
//!   happens at that edge).
//! * An allocation always sets `t1 = 0`, also with `TRAIN_WARPS = 1`: the
//!   link is promoted by its first hit.
//! * A job ends (leaves the walk queue) in a cycle with no next prefetch
//!   even when the output queue is full: only a prefetch needs room.
//! * A closing hop whose job PC no longer has an entry (`pc1 = p` evicted
//!   since the first hop) records its observation nowhere.

use std::collections::VecDeque;

use ports::snake::{kind, SnakeIn, SnakeOut, SnakeParams, SnakePrefetcher, SPAN_W};
use ports::{mask, Params};

use crate::model::{GoldenModel, GoldenUnit};

mod walk;

use walk::WalkAction;
pub use walk::{Phase, Walker};

/// Width of the `bw_util` port.
const BW_UTIL_W: u32 = 7;

/// Largest value of the 2-bit saturating counters `t2` and `iw_cnt`.
const CNT_MAX: u64 = 3;

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

/// Cycle-accurate golden model of `snake_prefetcher`.
///
/// Build it with [`GoldenModel::new`] (or [`SnakeModel::with_params`]), read
/// the outputs of the current cycle with [`GoldenModel::outputs`] and advance
/// one clock edge with [`GoldenModel::step`]. The inspection helpers
/// ([`SnakeModel::tail`], [`SnakeModel::head`], [`SnakeModel::stats`], ...)
/// only read the state.
#[derive(Clone, Debug)]
pub struct SnakeModel {
    /// The configuration the model was built for.
    params: SnakeParams,
    /// `head[w]`: warp `w`'s last load.
    head: Vec<HeadRow>,
    /// The Tail table.
    tail: Vec<TailEntry>,
    /// Indices of the valid Tail entries, most recently used first (the
    /// position of an entry is its rank).
    order: Vec<usize>,
    /// Pending walk jobs, oldest (the walker's current job) first.
    walkq: VecDeque<WalkJob>,
    /// The walker's registers for the head job.
    walker: Walker,
    /// Output prefetch queue, oldest (the one on `pf_*`) first.
    pfq: VecDeque<Prefetch>,
    /// Throttle counter (`THROTTLE_CYCLES` down to 0).
    count: u64,
    /// Bandwidth halt.
    bw_halt: bool,
    /// Event counts.
    stats: SnakeStats,
}

impl SnakeModel {
    /// A model in its reset state (every table, queue and the walker empty;
    /// outputs all 0).
    ///
    /// # Panics
    /// If `params` is not a configuration the generator accepts
    /// ([`Params::validate`] fails).
    pub fn with_params(params: &SnakeParams) -> Self {
        if let Err(e) = params.validate() {
            panic!("SnakeModel: invalid snake_prefetcher configuration: {e}");
        }
        SnakeModel {
            params: params.clone(),
            head: vec![HeadRow::default(); params.N_WARPS as usize],
            tail: vec![TailEntry::default(); params.TAIL_ENTRIES as usize],
            order: Vec::new(),
            walkq: VecDeque::new(),
            walker: Walker::INITIAL,
            pfq: VecDeque::new(),
            count: 0,
            bw_halt: false,
            stats: SnakeStats::default(),
        }
    }

    // ----- inspection -----

    /// The configuration of this model.
    pub fn params(&self) -> &SnakeParams {
        &self.params
    }

    /// Event counts since the model was built.
    pub fn stats(&self) -> SnakeStats {
        self.stats
    }

    /// Head row of warp `w`.
    ///
    /// # Panics
    /// If `w >= N_WARPS`.
    pub fn head(&self, w: u64) -> HeadRow {
        self.head[w as usize]
    }

    /// Every Tail entry, valid or not, by index.
    pub fn tail(&self) -> &[TailEntry] {
        &self.tail
    }

    /// Tail entry `e`, if valid.
    ///
    /// # Panics
    /// If `e >= TAIL_ENTRIES`.
    pub fn tail_entry(&self, e: usize) -> Option<TailEntry> {
        Some(self.tail[e]).filter(|entry| entry.valid)
    }

    /// Index of the valid Tail entry holding the link `(pc1, pc2, stride)`
    /// (values taken modulo their widths), if any.
    pub fn find_link(&self, pc1: u64, pc2: u64, stride: u64) -> Option<usize> {
        let pm = self.pc_mask();
        let am = self.addr_mask();
        let (pc1, pc2, stride) = (pc1 & pm, pc2 & pm, stride & am);
        self.tail
            .iter()
            .position(|e| e.valid && e.pc1 == pc1 && e.pc2 == pc2 && e.stride == stride)
    }

    /// The per-PC fields of `pc` (taken modulo 2^PC_W): those of the
    /// lowest-numbered valid entry with `pc1 = pc`, or `None` if there is
    /// none.
    pub fn per_pc(&self, pc: u64) -> Option<PerPc> {
        let pc = pc & self.pc_mask();
        self.tail
            .iter()
            .find(|e| e.valid && e.pc1 == pc)
            .map(|e| e.per_pc)
    }

    /// The recency order: indices of the valid Tail entries, most recently
    /// used first.
    pub fn recency(&self) -> &[usize] {
        &self.order
    }

    /// Recency rank of Tail entry `e` (0 = most recently used), or `None` if
    /// it is invalid.
    pub fn rank(&self, e: usize) -> Option<usize> {
        self.order.iter().position(|&x| x == e)
    }

    /// The jobs in the walk queue, oldest (the walker's current job) first.
    pub fn walk_queue(&self) -> Vec<WalkJob> {
        self.walkq.iter().copied().collect()
    }

    /// The walker's registers ([`Walker::INITIAL`] when no job has made
    /// progress).
    pub fn walker(&self) -> Walker {
        self.walker
    }

    /// The prefetches in the output queue, oldest (the one on `pf_*`) first.
    pub fn pfq_entries(&self) -> Vec<Prefetch> {
        self.pfq.iter().copied().collect()
    }

    /// Number of prefetches in the output queue (0..=PFQ_DEPTH).
    pub fn pfq_len(&self) -> usize {
        self.pfq.len()
    }

    /// The throttle counter.
    pub fn throttle_count(&self) -> u64 {
        self.count
    }

    /// The bandwidth halt.
    pub fn bw_halt(&self) -> bool {
        self.bw_halt
    }

    /// Prefetching is halted during the current cycle (`throttled`).
    pub fn halted(&self) -> bool {
        self.count != 0 || self.bw_halt
    }

    // ----- arithmetic -----

    fn addr_mask(&self) -> u64 {
        mask(self.params.ADDR_W as u32)
    }

    fn pc_mask(&self) -> u64 {
        mask(self.params.PC_W as u32)
    }

    /// An `ADDR_W`-bit value read as two's complement.
    fn signed(&self, value: u64) -> i64 {
        let w = self.params.ADDR_W as u32;
        if w >= 64 {
            value as i64
        } else {
            let shift = 64 - w;
            ((value << shift) as i64) >> shift
        }
    }

    /// `(a + b) mod 2^ADDR_W`.
    fn add(&self, a: u64, b: u64) -> u64 {
        a.wrapping_add(b) & self.addr_mask()
    }

    /// `(a - b) mod 2^ADDR_W`.
    fn sub(&self, a: u64, b: u64) -> u64 {
        a.wrapping_sub(b) & self.addr_mask()
    }

    // ----- recency -----

    /// Entry `e` becomes most recently used (the entries before it move
    /// down one; if it was not in the order, every entry moves down one).
    fn touch(&mut self, e: usize) {
        self.order.retain(|&x| x != e);
        self.order.insert(0, e);
    }

    /// The entry an allocation takes: the lowest-numbered invalid entry;
    /// else, among the `LRU_GROUP` least recently used entries, the one with
    /// the fewest ones in `wv` (as they are now, after this load's
    /// clearing), ties to the less recently used.
    fn victim(&self) -> usize {
        if let Some(free) = self.tail.iter().position(|e| !e.valid) {
            return free;
        }
        let group = (self.params.LRU_GROUP as usize).min(self.order.len());
        let lru_first = self.order.iter().rev().take(group);
        let mut best: Option<usize> = None;
        for &e in lru_first {
            let ones = self.tail[e].wv.count_ones();
            // Strictly fewer: a tie keeps the less recently used.
            if best.is_none_or(|b| ones < self.tail[b].wv.count_ones()) {
                best = Some(e);
            }
        }
        best.expect("a full Tail table has a least recently used entry")
    }

    // ----- training -----

    /// Intra-warp observation `x` for `pc` (spec, prefetching step 4),
    /// written to every valid entry with `pc1 = pc`.
    fn record_observation(&mut self, pc: u64, x: u64) {
        self.stats.loops_closed += 1;
        let Some(f) = self.per_pc(pc) else {
            return; // no entry describes pc any more
        };
        let (intra, t2) = if f.t2 == 0 || x != f.intra {
            (x, 1)
        } else {
            (f.intra, (f.t2 + 1).min(CNT_MAX))
        };
        for e in self.tail.iter_mut().filter(|e| e.valid && e.pc1 == pc) {
            e.per_pc.intra = intra;
            e.per_pc.t2 = t2;
        }
    }

    /// Inter-warp stride of `p` (training step 2) for a load of warp `w` at
    /// `a`, written to every valid entry with `pc1 = p`.
    fn train_inter_warp(&mut self, w: u64, p: u64, a: u64) {
        let Some(f) = self.per_pc(p) else {
            return; // no entry describes p: nothing is recorded
        };
        let (mut iw_stride, mut iw_cnt) = (f.iw_stride, f.iw_cnt);
        if f.iw_valid && w != f.iw_warp {
            let delta = w as i64 - f.iw_warp as i64;
            let magnitude = delta.unsigned_abs();
            let m = magnitude.trailing_zeros();
            let diff = self.sub(a, f.iw_addr);
            if magnitude.is_power_of_two() && diff & mask(m) == 0 {
                // Exact signed division by +-2^m: an arithmetic shift,
                // negated for a negative delta.
                let mut cand = ((self.signed(diff) >> m) as u64) & self.addr_mask();
                if delta < 0 {
                    cand = cand.wrapping_neg() & self.addr_mask();
                }
                if f.iw_cnt >= 1 && cand == f.iw_stride {
                    iw_cnt = (f.iw_cnt + 1).min(CNT_MAX);
                } else {
                    iw_stride = cand;
                    iw_cnt = 1;
                }
            } else {
                iw_cnt = 0;
            }
        }
        for e in self.tail.iter_mut().filter(|e| e.valid && e.pc1 == p) {
            e.per_pc.iw_stride = iw_stride;
            e.per_pc.iw_cnt = iw_cnt;
            e.per_pc.iw_valid = true;
            e.per_pc.iw_warp = w;
            e.per_pc.iw_addr = a;
        }
    }

    /// The link `q -> p` with stride `s` seen by warp `w` (training step 3).
    fn train_link(&mut self, w: u64, q: u64, p: u64, s: u64, span: u64) {
        let bit = 1u64 << w;
        // Clear: warp w no longer follows the other links from q.
        for e in self.tail.iter_mut() {
            if e.valid && e.pc1 == q && e.wv & bit != 0 && (e.pc2, e.stride) != (p, s) {
                e.wv &= !bit;
                e.t1 = T1_UNTRAINED;
                self.stats.bits_cleared += 1;
            }
        }
        if let Some(h) = self.find_link(q, p, s) {
            // Hit.
            self.stats.link_hits += 1;
            let train_warps = self.params.TRAIN_WARPS;
            let own_links = self.params.OWN_LINKS == 1;
            let e = &mut self.tail[h];
            e.wv |= bit;
            e.span = span;
            let c = e.wv.count_ones() as u64;
            if c >= train_warps {
                if e.t1 != T1_PROMOTED {
                    self.stats.promotions += 1;
                }
                e.t1 = T1_PROMOTED;
            } else if own_links || c == 2 {
                // Revision 2: any repeat trains the link for the warps that
                // observed it; revision 1 needs a second warp.
                if e.t1 == T1_UNTRAINED {
                    self.stats.links_trained += 1;
                }
                e.t1 = T1_TWO_WARPS;
            }
            self.touch(h);
        } else {
            // Allocate.
            let v = self.victim();
            self.stats.link_allocations += 1;
            if self.tail[v].valid {
                self.stats.evictions += 1;
            }
            let per_pc = self
                .tail
                .iter()
                .enumerate()
                .find(|&(i, e)| i != v && e.valid && e.pc1 == q)
                .map(|(_, e)| e.per_pc)
                .unwrap_or_default();
            // t1 = 0 even when TRAIN_WARPS = 1 (the contract's allocation
            // rule): the next hit promotes the link.
            self.tail[v] = TailEntry {
                valid: true,
                pc1: q,
                pc2: p,
                stride: s,
                wv: bit,
                t1: T1_UNTRAINED,
                per_pc,
                span,
            };
            self.touch(v);
        }
    }

    /// Train the tables with the load `(w, p, a)` of footprint `span`
    /// (Head, inter-warp stride, link).
    fn train(&mut self, w: u64, p: u64, a: u64, span: u64) {
        self.stats.loads_trained += 1;
        let prev = self.head[w as usize];
        self.head[w as usize] = HeadRow {
            valid: true,
            pc: p,
            addr: a,
        };
        self.train_inter_warp(w, p, a);
        if prev.valid {
            let s = self.sub(a, prev.addr);
            self.train_link(w, prev.pc, p, s, span);
        }
    }

    /// Return every piece of state to its reset value (statistics excepted).
    fn reset_state(&mut self) {
        self.head.fill(HeadRow::default());
        self.tail.fill(TailEntry::default());
        self.order.clear();
        self.walkq.clear();
        self.walker = Walker::INITIAL;
        self.pfq.clear();
        self.count = 0;
        self.bw_halt = false;
    }
}

impl GoldenUnit for SnakePrefetcher {
    type Model = SnakeModel;
}

impl GoldenModel<SnakePrefetcher> for SnakeModel {
    fn new(params: &SnakeParams) -> Self {
        SnakeModel::with_params(params)
    }

    fn outputs(&self) -> SnakeOut {
        let throttled = self.halted();
        match self.pfq.front() {
            Some(pf) => SnakeOut {
                pf_valid: true,
                pf_addr: pf.addr,
                pf_warp: pf.warp,
                pf_kind: pf.kind,
                pf_span: pf.span,
                throttled,
            },
            None => SnakeOut {
                throttled,
                ..SnakeOut::default()
            },
        }
    }

    fn step(&mut self, inputs: &SnakeIn) {
        if inputs.reset {
            self.reset_state();
            return;
        }
        let p = &self.params;
        let warp = inputs.ld_warp & mask(p.warp_bits());
        let pc = inputs.ld_pc & mask(p.PC_W as u32);
        let addr = inputs.ld_addr & mask(p.ADDR_W as u32);
        let bw_util = inputs.bw_util & mask(BW_UTIL_W);
        let span = inputs.ld_span & mask(SPAN_W);
        let end = inputs.ld_cta_end & mask(p.warp_bits() + 1);
        debug_assert!(warp < p.N_WARPS, "N_WARPS is a power of two");
        let load = inputs.ld_valid && inputs.ld_uniform;
        if inputs.ld_valid && !load {
            self.stats.loads_ignored += 1;
        }

        // Decisions from the state at the start of the cycle.
        let halted = self.halted();
        let walkq_full = self.walkq.len() >= p.WALKQ_DEPTH as usize;
        let pop = inputs.pf_ready && !self.pfq.is_empty();
        let action = self.walk_action();

        // Throttle.
        let p = &self.params;
        if inputs.cache_full {
            self.count = p.THROTTLE_CYCLES;
        } else if self.count != 0 {
            self.count -= 1;
        }
        if bw_util >= p.BW_HIGH {
            self.bw_halt = true;
        } else if bw_util <= p.BW_LOW {
            self.bw_halt = false;
        }

        // The walker's intra-warp observation, then the load's training
        // (disjoint fields; a new entry copies both).
        if let Some(x) = action.observation() {
            let job_pc = self.walkq.front().expect("walk job").pc;
            self.record_observation(job_pc, x);
        }
        if load {
            self.train(warp, pc, addr, span);
        }

        // Output queue: pop the head, then the walker's push.
        if pop {
            self.pfq.pop_front();
            self.stats.prefetches_taken += 1;
        }
        match action {
            WalkAction::Idle => {}
            WalkAction::Discard => {
                self.stats.halted_cycles += 1;
                self.stats.jobs_discarded += self.walkq.len() as u64;
                self.walkq.clear();
                self.walker = Walker::INITIAL;
            }
            WalkAction::End => {
                self.walkq.pop_front();
                self.walker = Walker::INITIAL;
                self.stats.jobs_completed += 1;
            }
            WalkAction::Stall => self.stats.stall_cycles += 1,
            WalkAction::Hop { next, .. } => {
                self.stats.silent_hops += 1;
                self.walker = next;
            }
            WalkAction::Push { pf, next, .. } => {
                match pf.kind {
                    kind::CHAIN => self.stats.prefetches_chain += 1,
                    kind::INTER_WARP => self.stats.prefetches_inter += 1,
                    _ => self.stats.prefetches_intra += 1,
                }
                self.pfq.push_back(pf);
                self.walker = next;
            }
        }

        // The load's walk job.
        if load {
            if halted {
                self.stats.jobs_suppressed += 1;
            } else if walkq_full {
                self.stats.jobs_dropped += 1;
            } else {
                self.stats.jobs_enqueued += 1;
                self.walkq.push_back(WalkJob {
                    warp,
                    pc,
                    addr,
                    span,
                    end,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
