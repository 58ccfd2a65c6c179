//! The `snake_prefetcher` golden model ([`SnakeModel`]): its tables,
//! queues and throttle, the inspection helpers, the training, and the
//! clock edge ([`GoldenModel::step`]); the walker's decisions are in
//! `walk.rs`.

use std::collections::VecDeque;

use ports::snake::{kind, SnakeIn, SnakeOut, SnakeParams, SnakePrefetcher, SPAN_W};
use ports::{mask, Params};

use super::state::{
    HeadRow, PerPc, Prefetch, SnakeStats, TailEntry, WalkAction, WalkJob, Walker, BW_UTIL_W,
    CNT_MAX, T1_PROMOTED, T1_TWO_WARPS, T1_UNTRAINED,
};
use crate::model::{GoldenModel, GoldenUnit};

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
    pub(super) params: SnakeParams,
    /// `head[w]`: warp `w`'s last load.
    pub(super) head: Vec<HeadRow>,
    /// The Tail table.
    pub(super) tail: Vec<TailEntry>,
    /// Indices of the valid Tail entries, most recently used first (the
    /// position of an entry is its rank).
    pub(super) order: Vec<usize>,
    /// Pending walk jobs, oldest (the walker's current job) first.
    pub(super) walkq: VecDeque<WalkJob>,
    /// The walker's registers for the head job.
    pub(super) walker: Walker,
    /// Output prefetch queue, oldest (the one on `pf_*`) first.
    pub(super) pfq: VecDeque<Prefetch>,
    /// The output stage (contract, "Timing", issue 29 step 11): an intra-
    /// or inter-warp prefetch made at the last edge, which enters the
    /// output queue at the next edge. It counts as taken room.
    pub(super) out_stage: Option<Prefetch>,
    /// Throttle counter (`THROTTLE_CYCLES` down to 0).
    pub(super) count: u64,
    /// Bandwidth halt.
    pub(super) bw_halt: bool,
    /// The load accepted at the last edge (`ld_valid = 1`, `ld_uniform =
    /// 1`), waiting in the load stage: it trains the tables, and its walk
    /// job enters the walk queue, at the next edge (contract, "Pipelining
    /// (issue 29)"). A walk job holds every field of a load.
    pub(super) staged: Option<WalkJob>,
    /// The entry allocated at the last edge, which the walker does not see
    /// during this cycle (contract, "Timing" step 6 and "Latency": the
    /// walker reads the Tail table without the last edge's allocation,
    /// issue 29 step 15). `None` when the last edge allocated nothing.
    pub(super) fresh: Option<usize>,
    /// Event counts.
    pub(super) stats: SnakeStats,
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
            out_stage: None,
            count: 0,
            bw_halt: false,
            staged: None,
            fresh: None,
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

    /// Entry `e` as the walker sees it this cycle: valid and not allocated
    /// at the last edge (issue 29 step 15).
    pub(super) fn walker_sees(&self, e: usize) -> bool {
        self.tail[e].valid && self.fresh != Some(e)
    }

    /// The per-PC fields of `pc` as the walker sees them: those of the
    /// lowest-numbered entry with `pc1 = pc` that the walker sees
    /// ([`SnakeModel::walker_sees`]), or `None`.
    pub(super) fn walker_per_pc(&self, pc: u64) -> Option<PerPc> {
        (0..self.tail.len())
            .find(|&e| self.walker_sees(e) && self.tail[e].pc1 == pc)
            .map(|e| self.tail[e].per_pc)
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

    /// The prefetch in the output stage (it enters the output queue at the
    /// next edge), if any.
    pub fn out_stage(&self) -> Option<Prefetch> {
        self.out_stage
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

    /// The load in the load stage (accepted at the last edge; it trains and
    /// enters the walk queue at the next edge), if any.
    pub fn staged_load(&self) -> Option<WalkJob> {
        self.staged
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
    pub(super) fn add(&self, a: u64, b: u64) -> u64 {
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
            self.fresh = Some(v);
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
        self.out_stage = None;
        self.count = 0;
        self.bw_halt = false;
        self.staged = None;
        self.fresh = None;
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
        let accepted = inputs.ld_valid && inputs.ld_uniform;
        if inputs.ld_valid && !accepted {
            self.stats.loads_ignored += 1;
        }
        // The load stage: this cycle handles the load accepted at the last
        // edge; the load of this cycle waits in the stage for the next one.
        let load = self.staged.take();
        if accepted {
            self.staged = Some(WalkJob {
                warp,
                pc,
                addr,
                span,
                end,
            });
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
        // The walker sees an allocation from the cycle after the next edge.
        self.fresh = None;
        if let Some(ld) = load {
            self.train(ld.warp, ld.pc, ld.addr, ld.span);
        }

        // Output queue: pop the head, then the output stage's prefetch
        // (halted or not), then the walker's push.
        if pop {
            self.pfq.pop_front();
            self.stats.prefetches_taken += 1;
        }
        if let Some(pf) = self.out_stage.take() {
            self.pfq.push_back(pf);
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
                // A hop's prefetch enters the queue now, an intra- or
                // inter-warp one the output stage.
                if pf.kind == kind::CHAIN {
                    self.pfq.push_back(pf);
                } else {
                    self.out_stage = Some(pf);
                }
                self.walker = next;
            }
        }

        // The staged load's walk job.
        if let Some(job) = load {
            if halted {
                self.stats.jobs_suppressed += 1;
            } else if walkq_full {
                self.stats.jobs_dropped += 1;
            } else {
                self.stats.jobs_enqueued += 1;
                self.walkq.push_back(job);
            }
        }
    }
}
