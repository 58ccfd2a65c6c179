//! Golden model of `caps_prefetcher`, the CTA-aware prefetcher of CAPS
//! (spec `caps.md`, micro-architecture contract
//! `docs/units/caps_prefetcher.md`).
//!
//! The model is written from the specification and the contract only, as
//! plain Rust: one `Vec` of PerCTA entries per CTA slot, a `Vec` of DIST
//! entries, a `VecDeque` for the job FIFO and one for the output prefetch
//! queue, and a prefetch generator working on one [`Job`] at a time. The
//! least-recently-updated order of the tables is kept with an update stamp
//! per entry (a larger stamp is more recent). It is the reference the RTL is
//! checked against cycle for cycle.
//!
//! # Timing
//! Every decision of a cycle is taken from the registered state at the start
//! of the cycle and the inputs of the cycle; every update happens at the
//! edge ([`GoldenModel::step`]):
//! * a load accepted at edge *t* is held for one cycle: its table rules are
//!   applied at edge *t + 1*, before that edge's CTA launch (so the loads
//!   and launches take effect in the order they arrived), and the job it
//!   creates (at most one) enters the job FIFO at edge *t + 3* unless the
//!   FIFO was full at the start of that cycle (the job is then dropped);
//!   its DIST counter update is part of the application at *t + 1*;
//! * a CTA launch clears the PerCTA table of its slot and ends the
//!   leading-CTA right (`lead_live`) of every DIST entry trained in that
//!   slot, the load applied at the same edge first; a load in the same
//!   cycle sees that table already cleared and that right already ended;
//! * an idle generator takes the oldest job if the FIFO was not empty at the
//!   start of the cycle (so a job is taken no earlier than the edge after its
//!   push);
//! * a busy generator determines the next prefetch of its job, and its
//!   address, from the table state at the start of the cycle (it does not
//!   see the launch or the load of the same cycle); with no next prefetch
//!   the job ends, costing that cycle; otherwise the prefetch enters the
//!   generator's read stage unless the output queue, the read stage and
//!   the two address stages together held `PFQ_DEPTH` prefetches at the
//!   start of the cycle and the queue is not popped at this edge (stall);
//! * the read stage and each of the two address stages hold a prefetch for
//!   one cycle: a prefetch selected at edge *t* is in the first address
//!   stage after edge *t + 1*, in the second after *t + 2* and enters the
//!   output queue at edge *t + 3* (there is always room: the stages count
//!   as entries of the queue);
//! * the output queue's oldest entry is on `pf_*` while it is not empty and
//!   is popped at an edge with `pf_ready = 1`.
//!
//! A load accepted at edge *t* whose job finds both queues empty therefore
//! has its first prefetch on `pf_*` during the cycle after edge *t + 8*
//! (applied at *t + 1*, job in the FIFO at *t + 3*, taken at *t + 4*,
//! prefetch selected at *t + 5*, in the first address stage at *t + 6*, in
//! the second at *t + 7*, in the output queue at *t + 8*).
//!
//! # Decisions where the spec and the contract are silent
//! These are also what the RTL must do:
//! * Every input port value is taken modulo 2^(its port width) (`ld_cta`,
//!   `cta_launch_slot`: `clog2(N_CTA)` bits; `ld_warp`, `cfg_warps_per_cta`:
//!   `WARP_IDX_W` bits; `ld_count`: 6 bits; addresses `ADDR_W`, PC `PC_W`).
//! * `pf_addr`, `pf_cta` and `pf_warp` are 0 while `pf_valid` is 0.
//! * Job B, `k >= P.n` ("skip" cycle): the cursor moves on whether or not the
//!   output queue is full (no push is needed). Likewise a job ends even when
//!   the output queue is full.
//! * Rule 4 with `n != P.n` invalidates P before `|delta|` is looked at (so
//!   also for a non-power-of-two distance).
//! * Jobs never re-check the misprediction counter: the threshold is applied
//!   only when a job is created (rules 1 and 3). Job A keeps its captured
//!   stride even if its DIST entry is replaced; job B ends only when its
//!   PerCTA or DIST entry is gone (or past the last warp).
//! * `ld_warp` is not checked against `cfg_warps_per_cta`: a load of a warp
//!   index `>= cfg_warps_per_cta` follows the rules like any other; job B
//!   stops at `cfg_warps_per_cta` (ends at once when it is 0).
//! * A stride of 0 is never stored (rule 4), so a DIST stride is nonzero.
//! * The Figure 9b outcome ("A1 prefetches nothing") needs B0 to arrive at
//!   edge `t + 3` or later when A1 is accepted at edge `t` (A1's job is
//!   taken at `t + 3`, B0 is applied one edge after it arrives): job A reads the
//!   tables when each prefetch is produced and otherwise also finds B0's
//!   (and C0's) entry, prefetching B1 (C1) before the jobs B do it again.
//! * A reset discards the queued prefetches and jobs, and the load and job
//!   on their way (a `pf_ready` at the
//!   reset edge transfers nothing); the statistics
//!   ([`CapsStats`]) are not port-visible state and are not cleared by reset.
//! * Not visible at the ports: invalidated or cleared entries have all their
//!   fields 0, and bases `base[k]` for `k >= n` are stored as 0.

use std::collections::VecDeque;

use ports::caps::{CapsIn, CapsOut, CapsParams, CapsPrefetcher, MAX_ADDR_PORTS};
use ports::{mask, Params};

use crate::model::{GoldenModel, GoldenUnit};

/// Width of the `ld_count` port.
const LD_COUNT_W: u32 = 6;

/// One PerCTA entry: the base addresses of one load PC of one CTA, recorded
/// by the CTA's leading warp for that PC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PerCtaEntry {
    valid: bool,
    pc: u64,
    /// Warp index of the leading warp.
    lead: u64,
    /// Number of bases, 1..=MAX_ADDRS.
    n: usize,
    /// Base addresses; only the first `n` carry meaning (the others are 0).
    base: [u64; MAX_ADDR_PORTS],
    /// Update stamp: a larger stamp was updated more recently.
    stamp: u64,
}

/// One DIST entry: the learnt warp-to-warp stride of one load PC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct DistEntry {
    valid: bool,
    pc: u64,
    /// Stride, `ADDR_W` bits two's complement.
    stride: u64,
    /// Saturating misprediction counter.
    cnt: u64,
    /// CTA slot of the CTA that trained the entry.
    lead_cta: u64,
    /// The CTA that trained the entry is still in slot `lead_cta`: set by
    /// the allocation (rule 4), cleared by a CTA launch into that slot.
    /// Only then do the slot's trailing warps create jobs A (rule 3).
    lead_live: bool,
    /// Allocation stamp: a larger stamp was allocated more recently.
    stamp: u64,
}

/// A prefetch job, as held in the job FIFO and by the generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Prefetch for warp `warp` of every other CTA that has registered a
    /// base for `pc` (rules 3 and 4).
    A {
        /// Load PC.
        pc: u64,
        /// Warp index the prefetches are for (the trailing warp that
        /// created the job).
        warp: u64,
        /// CTA slot of that warp (its own CTA is not prefetched for).
        cta: u64,
        /// Stride captured when the job was created (`ADDR_W` bits, two's
        /// complement).
        stride: u64,
    },
    /// Prefetch for every other warp of CTA `cta` (rule 1, the leading warp
    /// arrived after the stride was known).
    B {
        /// CTA slot.
        cta: u64,
        /// Load PC.
        pc: u64,
    },
}

impl Job {
    /// The kind of the job.
    pub fn kind(&self) -> JobKind {
        match self {
            Job::A { .. } => JobKind::A,
            Job::B { .. } => JobKind::B,
        }
    }
}

/// The kind of a [`Job`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Job A: one warp index, every other CTA.
    A,
    /// Job B: one CTA, every other warp.
    B,
}

/// One entry of the output prefetch queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefetch {
    /// Address to prefetch (`pf_addr`).
    pub addr: u64,
    /// CTA slot the prefetch is for (`pf_cta`).
    pub cta: u64,
    /// Warp index the prefetch is for (`pf_warp`).
    pub warp: u64,
    /// The kind of job that produced it (kept by the model for tests and the
    /// harness; not an RTL field).
    pub kind: JobKind,
}

/// A read-only view of a valid PerCTA entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerCtaView {
    /// Entry index within its CTA's table.
    pub index: usize,
    /// Load PC.
    pub pc: u64,
    /// Warp index of the leading warp.
    pub lead: u64,
    /// The `n` base addresses (`n = bases.len()`, 1..=MAX_ADDRS).
    pub bases: Vec<u64>,
    /// Least-recently-updated rank among the valid entries of the table:
    /// 0 = most recently updated.
    pub rank: usize,
}

/// A read-only view of a valid DIST entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistView {
    /// Entry index within the DIST table.
    pub index: usize,
    /// Load PC.
    pub pc: u64,
    /// Stride, `ADDR_W` bits two's complement.
    pub stride: u64,
    /// Misprediction counter.
    pub cnt: u64,
    /// CTA slot of the CTA that trained the entry.
    pub lead_cta: u64,
    /// That CTA is still in its slot (no launch into the slot since the
    /// entry was allocated): rule 3 may create jobs A.
    pub lead_live: bool,
    /// Least-recently-updated (allocated) rank among the valid entries:
    /// 0 = most recently allocated.
    pub rank: usize,
}

/// A read-only view of the busy generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneratorView {
    /// The job being worked on.
    pub job: Job,
    /// Cursor: a CTA slot (job A, 0..=N_CTA) or a warp index (job B).
    pub pos: u64,
    /// Address index within the entry at `pos`.
    pub k: usize,
}

/// Event counts of the model since it was built (not cleared by reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CapsStats {
    /// Jobs A that entered the job FIFO.
    pub jobs_a: u64,
    /// Jobs B that entered the job FIFO.
    pub jobs_b: u64,
    /// Jobs (either kind) dropped because the job FIFO was full.
    pub jobs_dropped: u64,
    /// Prefetches produced by the generator (each enters the first
    /// address stage, and the output queue two edges later unless a reset
    /// comes first).
    pub prefetches: u64,
    /// Rule-3 verifications that found a wrong prediction (counted even when
    /// the counter is already saturated).
    pub mispredictions: u64,
    /// DIST entries allocated by rule 4 (strides learnt).
    pub trainings: u64,
    /// PerCTA entries invalidated by rule 4 (not a striding load); CTA
    /// launches are not counted.
    pub invalidations: u64,
    /// Jobs B created by rule 2 (`LOOP_JOBS`: a leading warp's next loop
    /// iteration), before the job FIFO (so also among `jobs_b` or
    /// `jobs_dropped`).
    pub loop_jobs: u64,
    /// Correct verifications that decremented a counter (`CNT_DECAY`).
    pub decays: u64,
}

/// The busy generator's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Generator {
    job: Job,
    pos: u64,
    k: usize,
}

/// What the busy generator's job does next, from the current tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// No further prefetch: the job ends.
    End,
    /// Job B with `k >= P.n`: no prefetch this cycle, the cursor moves on.
    Skip { pos: u64, k: usize },
    /// This prefetch, then the cursor moves to `(pos, k)`.
    Prefetch { pf: Prefetch, pos: u64, k: usize },
}

/// What the generator does at this edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GenAction {
    /// Idle with an empty job FIFO.
    Nothing,
    /// Idle: take the oldest job.
    Take,
    /// The job ends.
    End,
    /// Move the cursor without a prefetch.
    Advance { pos: u64, k: usize },
    /// The output queue and the two address stages hold `PFQ_DEPTH`
    /// prefetches: hold.
    Stall,
    /// Produce a prefetch (into the first address stage) and move the
    /// cursor.
    Push { pf: Prefetch, pos: u64, k: usize },
}

/// Cycle-accurate golden model of `caps_prefetcher`.
///
/// Build it with [`GoldenModel::new`] (or [`CapsModel::with_params`]), read
/// the outputs of the current cycle with [`GoldenModel::outputs`] and advance
/// one clock edge with [`GoldenModel::step`]. The inspection helpers
/// ([`CapsModel::percta_entry`], [`CapsModel::dist_entries`], ...) only read
/// the state.
#[derive(Clone, Debug)]
pub struct CapsModel {
    /// The configuration the model was built for.
    params: CapsParams,
    /// `percta[c][e]`: the PerCTA table of CTA slot `c`.
    percta: Vec<Vec<PerCtaEntry>>,
    /// The DIST table.
    dist: Vec<DistEntry>,
    /// The load accepted at the last edge, applied at the next.
    pending_load: Option<Load>,
    /// The job created at the last edge (the load applied there), which
    /// moves on at the next edge (the load's verify stage, issue 29).
    pending_job: Option<Job>,
    /// The job created two edges ago, entering the job FIFO at the next.
    pending_job2: Option<Job>,
    /// Pending jobs, oldest first.
    jobq: VecDeque<Job>,
    /// The generator: `None` when idle.
    gen: Option<Generator>,
    /// The generator's read stage: the prefetch selected at the last edge
    /// (its address already fixed by what the selection read).
    pf_stage: Option<Prefetch>,
    /// The first address stage: the prefetch selected two edges ago.
    pf_stage2: Option<Prefetch>,
    /// The second address stage: the prefetch selected three edges ago,
    /// which enters the output queue at the next edge.
    pf_stage3: Option<Prefetch>,
    /// Output prefetch queue, oldest first (the head is on `pf_*`).
    pfq: VecDeque<Prefetch>,
    /// Stamp given to the next table update.
    next_stamp: u64,
    /// Event counts.
    stats: CapsStats,
}

/// One accepted load, its port values already taken modulo their widths.
#[derive(Clone, Copy, Debug)]
struct Load {
    pc: u64,
    cta: u64,
    warp: u64,
    count: u64,
    addr: [u64; MAX_ADDR_PORTS],
    indirect: bool,
}

impl CapsModel {
    /// A model in its reset state (every table, queue and the generator
    /// empty; outputs all 0).
    ///
    /// # Panics
    /// If `params` is not a configuration the generator accepts
    /// ([`Params::validate`] fails).
    pub fn with_params(params: &CapsParams) -> Self {
        if let Err(e) = params.validate() {
            panic!("CapsModel: invalid caps_prefetcher configuration: {e}");
        }
        let n_cta = params.N_CTA as usize;
        let entries = params.PERCTA_ENTRIES as usize;
        CapsModel {
            params: params.clone(),
            percta: vec![vec![PerCtaEntry::default(); entries]; n_cta],
            dist: vec![DistEntry::default(); params.DIST_ENTRIES as usize],
            pending_load: None,
            pending_job: None,
            pending_job2: None,
            jobq: VecDeque::new(),
            gen: None,
            pf_stage: None,
            pf_stage2: None,
            pf_stage3: None,
            pfq: VecDeque::new(),
            next_stamp: 0,
            stats: CapsStats::default(),
        }
    }

    /// The configuration of this model.
    pub fn params(&self) -> &CapsParams {
        &self.params
    }

    /// Event counts since the model was built.
    pub fn stats(&self) -> CapsStats {
        self.stats
    }

    /// Entry `e` of the PerCTA table of CTA slot `c`, if valid.
    ///
    /// # Panics
    /// If `c >= N_CTA` or `e >= PERCTA_ENTRIES`.
    pub fn percta_entry(&self, c: usize, e: usize) -> Option<PerCtaView> {
        let table = &self.percta[c];
        let entry = &table[e];
        if !entry.valid {
            return None;
        }
        let rank = table
            .iter()
            .filter(|other| other.valid && other.stamp > entry.stamp)
            .count();
        Some(PerCtaView {
            index: e,
            pc: entry.pc,
            lead: entry.lead,
            bases: entry.base[..entry.n].to_vec(),
            rank,
        })
    }

    /// Every valid entry of the PerCTA table of CTA slot `c`, by index.
    ///
    /// # Panics
    /// If `c >= N_CTA`.
    pub fn percta_entries(&self, c: usize) -> Vec<PerCtaView> {
        (0..self.percta[c].len())
            .filter_map(|e| self.percta_entry(c, e))
            .collect()
    }

    /// The valid entry of CTA slot `c`'s PerCTA table holding `pc` (taken
    /// modulo 2^PC_W), if any.
    ///
    /// # Panics
    /// If `c >= N_CTA`.
    pub fn percta_lookup(&self, c: usize, pc: u64) -> Option<PerCtaView> {
        let pc = pc & mask(self.params.PC_W as u32);
        self.find_percta(c as u64, pc)
            .and_then(|e| self.percta_entry(c, e))
    }

    /// Every valid DIST entry, by index.
    pub fn dist_entries(&self) -> Vec<DistView> {
        (0..self.dist.len())
            .filter_map(|d| self.dist_entry(d))
            .collect()
    }

    /// DIST entry `d`, if valid.
    ///
    /// # Panics
    /// If `d >= DIST_ENTRIES`.
    pub fn dist_entry(&self, d: usize) -> Option<DistView> {
        let entry = &self.dist[d];
        if !entry.valid {
            return None;
        }
        let rank = self
            .dist
            .iter()
            .filter(|other| other.valid && other.stamp > entry.stamp)
            .count();
        Some(DistView {
            index: d,
            pc: entry.pc,
            stride: entry.stride,
            cnt: entry.cnt,
            lead_cta: entry.lead_cta,
            lead_live: entry.lead_live,
            rank,
        })
    }

    /// The valid DIST entry holding `pc` (taken modulo 2^PC_W), if any.
    pub fn dist_lookup(&self, pc: u64) -> Option<DistView> {
        let pc = pc & mask(self.params.PC_W as u32);
        self.find_dist(pc).and_then(|d| self.dist_entry(d))
    }

    /// A load or a job is on its way to the tables or the job FIFO (a load
    /// accepted at the last edge, or the job it created at the last edge).
    pub fn load_in_flight(&self) -> bool {
        self.pending_load.is_some() || self.pending_job.is_some() || self.pending_job2.is_some()
    }

    /// Number of jobs waiting in the job FIFO (not counting the one the
    /// generator works on).
    pub fn jobs_pending(&self) -> usize {
        self.jobq.len()
    }

    /// The jobs waiting in the job FIFO, oldest first.
    pub fn job_queue(&self) -> Vec<Job> {
        self.jobq.iter().copied().collect()
    }

    /// The generator's job and cursor, or `None` when it is idle.
    pub fn generator(&self) -> Option<GeneratorView> {
        self.gen.map(|g| GeneratorView {
            job: g.job,
            pos: g.pos,
            k: g.k,
        })
    }

    /// The prefetch in the generator's read stage (selected at the last
    /// edge, in the output queue three edges later), if any.
    pub fn prefetch_in_flight(&self) -> Option<Prefetch> {
        self.pf_stage
    }

    /// The number of prefetches in the read stage and the two address
    /// stages (selected but not yet in the output queue), 0..=3.
    pub fn prefetches_in_flight(&self) -> usize {
        usize::from(self.pf_stage.is_some())
            + usize::from(self.pf_stage2.is_some())
            + usize::from(self.pf_stage3.is_some())
    }

    /// Number of prefetches in the output queue (0..=PFQ_DEPTH).
    pub fn pfq_len(&self) -> usize {
        self.pfq.len()
    }

    /// The prefetches in the output queue, oldest (the one on `pf_*`) first.
    pub fn pfq_entries(&self) -> Vec<Prefetch> {
        self.pfq.iter().copied().collect()
    }

    // ----- arithmetic -----

    fn addr_mask(&self) -> u64 {
        mask(self.params.ADDR_W as u32)
    }

    /// `base + (w - lead) * stride` modulo 2^ADDR_W; `w - lead` is a signed
    /// warp distance.
    fn predict(&self, base: u64, w: u64, lead: u64, stride: u64) -> u64 {
        let distance = w as i64 - lead as i64;
        base.wrapping_add((distance as u64).wrapping_mul(stride)) & self.addr_mask()
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

    // ----- table look-ups -----

    /// Index of the valid entry with `pc` in CTA slot `c`'s PerCTA table.
    fn find_percta(&self, c: u64, pc: u64) -> Option<usize> {
        self.percta[c as usize]
            .iter()
            .position(|e| e.valid && e.pc == pc)
    }

    /// Index of the valid DIST entry with `pc`.
    fn find_dist(&self, pc: u64) -> Option<usize> {
        self.dist.iter().position(|d| d.valid && d.pc == pc)
    }

    /// A new update stamp.
    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// The entry an allocation takes: the lowest-numbered invalid entry,
    /// else the valid entry with the oldest stamp.
    fn victim<T>(entries: &[T], valid: impl Fn(&T) -> bool, stamp: impl Fn(&T) -> u64) -> usize {
        if let Some(free) = entries.iter().position(|e| !valid(e)) {
            return free;
        }
        let mut best = 0;
        for (i, e) in entries.iter().enumerate() {
            if stamp(e) < stamp(&entries[best]) {
                best = i;
            }
        }
        best
    }

    // ----- the load rules -----

    /// Apply the table rules to an accepted load; the job it creates, if
    /// any.
    fn apply_load(&mut self, ld: &Load) -> Option<Job> {
        let n = ld.count as usize;
        if ld.indirect || n == 0 || n > self.params.MAX_ADDRS as usize {
            return None; // ineligible: changes nothing
        }
        let mut a = [0u64; MAX_ADDR_PORTS];
        a[..n].copy_from_slice(&ld.addr[..n]);
        let threshold = self.params.MISPRED_THRESHOLD;
        let c = ld.cta as usize;
        let p = self.find_percta(ld.cta, ld.pc);
        let d = self.find_dist(ld.pc);

        let Some(p) = p else {
            // Rule 1: w becomes the leading warp of CTA c for pc.
            let e = Self::victim(&self.percta[c], |e| e.valid, |e| e.stamp);
            let stamp = self.stamp();
            self.percta[c][e] = PerCtaEntry {
                valid: true,
                pc: ld.pc,
                lead: ld.warp,
                n,
                base: a,
                stamp,
            };
            return match d {
                Some(d) if self.dist[d].cnt < threshold => Some(Job::B {
                    cta: ld.cta,
                    pc: ld.pc,
                }),
                _ => None,
            };
        };

        let entry = self.percta[c][p];
        if ld.warp == entry.lead {
            // Rule 2: the leading warp rewrites its bases (its next loop
            // iteration); with LOOP_JOBS the CTA's trailing warps are
            // prefetched for the new bases, as after rule 1.
            let stamp = self.stamp();
            let e = &mut self.percta[c][p];
            e.base = a;
            e.n = n;
            e.stamp = stamp;
            return match d {
                Some(d) if self.params.LOOP_JOBS == 1 && self.dist[d].cnt < threshold => {
                    self.stats.loop_jobs += 1;
                    Some(Job::B {
                        cta: ld.cta,
                        pc: ld.pc,
                    })
                }
                _ => None,
            };
        }

        match d {
            Some(d) => {
                // Rule 3: verify, then trigger.
                let stride = self.dist[d].stride;
                let wrong = n != entry.n
                    || (0..n)
                        .any(|k| a[k] != self.predict(entry.base[k], ld.warp, entry.lead, stride));
                if wrong {
                    self.stats.mispredictions += 1;
                    let max = mask(self.params.CNT_W as u32);
                    let dist = &mut self.dist[d];
                    if dist.cnt < max {
                        dist.cnt += 1;
                    }
                } else if self.params.CNT_DECAY == 1 && self.dist[d].cnt > 0 {
                    // A correct verification pays a misprediction back.
                    self.dist[d].cnt -= 1;
                    self.stats.decays += 1;
                }
                let dist = &self.dist[d];
                // Only the leading CTA's trailing warps: the CTA that
                // trained the entry, while it is still in its slot.
                if dist.lead_live && ld.cta == dist.lead_cta && dist.cnt < threshold {
                    Some(Job::A {
                        pc: ld.pc,
                        warp: ld.warp,
                        cta: ld.cta,
                        stride,
                    })
                } else {
                    None
                }
            }
            None => self.train(ld, c, p, &a[..n]),
        }
    }

    /// Rule 4: PerCTA entry `p` of CTA `c` present, `w != lead`, DIST absent.
    fn train(&mut self, ld: &Load, c: usize, p: usize, a: &[u64]) -> Option<Job> {
        let entry = self.percta[c][p];
        if a.len() != entry.n {
            self.invalidate_percta(c, p);
            return None;
        }
        let delta = ld.warp as i64 - entry.lead as i64;
        let magnitude = delta.unsigned_abs();
        if !magnitude.is_power_of_two() {
            return None; // wait for a better-placed warp
        }
        let m = magnitude.trailing_zeros();
        let amask = self.addr_mask();
        let mut strides = Vec::with_capacity(a.len());
        for (k, &addr) in a.iter().enumerate() {
            let diff = addr.wrapping_sub(entry.base[k]) & amask;
            if diff & mask(m) != 0 {
                self.invalidate_percta(c, p);
                return None; // not divisible by delta
            }
            let mut s = ((self.signed(diff) >> m) as u64) & amask;
            if delta < 0 {
                s = s.wrapping_neg() & amask;
            }
            strides.push(s);
        }
        let s = strides[0];
        if strides.iter().any(|&other| other != s) {
            self.invalidate_percta(c, p);
            return None;
        }
        if s == 0 {
            return None; // a broadcast load: not worth prefetching
        }
        let d = Self::victim(&self.dist, |d| d.valid, |d| d.stamp);
        let stamp = self.stamp();
        self.dist[d] = DistEntry {
            valid: true,
            pc: ld.pc,
            stride: s,
            cnt: 0,
            lead_cta: ld.cta,
            lead_live: true,
            stamp,
        };
        self.stats.trainings += 1;
        Some(Job::A {
            pc: ld.pc,
            warp: ld.warp,
            cta: ld.cta,
            stride: s,
        })
    }

    /// Invalidate PerCTA entry `p` of CTA `c` (all fields cleared); the order
    /// of the others is unchanged.
    fn invalidate_percta(&mut self, c: usize, p: usize) {
        self.percta[c][p] = PerCtaEntry::default();
        self.stats.invalidations += 1;
    }

    // ----- the prefetch generator -----

    /// The next step of `gen`'s job, from the current tables.
    fn next(&self, gen: &Generator, warps_per_cta: u64) -> Next {
        match gen.job {
            Job::A {
                pc,
                warp,
                cta,
                stride,
            } => self.next_a(pc, warp, cta, stride, gen.pos, gen.k),
            Job::B { cta, pc } => self.next_b(cta, pc, gen.pos, gen.k, warps_per_cta),
        }
    }

    /// Job A: the lowest candidate slot at or after the cursor.
    fn next_a(&self, pc: u64, w: u64, c: u64, s: u64, pos: u64, k: usize) -> Next {
        for slot in pos..self.params.N_CTA {
            if slot == c {
                continue;
            }
            let Some(e) = self.find_percta(slot, pc) else {
                continue;
            };
            let entry = &self.percta[slot as usize][e];
            if entry.lead == w {
                continue;
            }
            let k_now = if slot == pos { k } else { 0 };
            if k_now >= entry.n {
                continue;
            }
            let pf = Prefetch {
                addr: self.predict(entry.base[k_now], w, entry.lead, s),
                cta: slot,
                warp: w,
                kind: JobKind::A,
            };
            return if k_now + 1 < entry.n {
                Next::Prefetch {
                    pf,
                    pos: slot,
                    k: k_now + 1,
                }
            } else {
                Next::Prefetch {
                    pf,
                    pos: slot + 1,
                    k: 0,
                }
            };
        }
        Next::End
    }

    /// Job B: the next warp of CTA `c`, skipping the leading warp.
    fn next_b(&self, c: u64, pc: u64, pos: u64, k: usize, warps_per_cta: u64) -> Next {
        let (Some(p), Some(d)) = (self.find_percta(c, pc), self.find_dist(pc)) else {
            return Next::End;
        };
        let entry = &self.percta[c as usize][p];
        let stride = self.dist[d].stride;
        let w = if pos != entry.lead { pos } else { pos + 1 };
        if w >= warps_per_cta {
            return Next::End;
        }
        if k >= entry.n {
            return Next::Skip { pos: w + 1, k: 0 };
        }
        let pf = Prefetch {
            addr: self.predict(entry.base[k], w, entry.lead, stride),
            cta: c,
            warp: w,
            kind: JobKind::B,
        };
        if k + 1 < entry.n {
            Next::Prefetch {
                pf,
                pos: w,
                k: k + 1,
            }
        } else {
            Next::Prefetch {
                pf,
                pos: w + 1,
                k: 0,
            }
        }
    }

    /// What the generator does at this edge, from the state at the start of
    /// the cycle.
    fn generator_action(&self, warps_per_cta: u64, pop_pf: bool) -> GenAction {
        let Some(gen) = &self.gen else {
            return if self.jobq.is_empty() {
                GenAction::Nothing
            } else {
                GenAction::Take
            };
        };
        match self.next(gen, warps_per_cta) {
            Next::End => GenAction::End,
            Next::Skip { pos, k } => GenAction::Advance { pos, k },
            Next::Prefetch { pf, pos, k } => {
                // The prefetches in the read and address stages count as
                // entries; the one popped at this edge does not.
                let held = self.pfq.len() + self.prefetches_in_flight() - usize::from(pop_pf);
                if held >= self.params.PFQ_DEPTH as usize {
                    GenAction::Stall
                } else {
                    GenAction::Push { pf, pos, k }
                }
            }
        }
    }

    /// Return every piece of state to its reset value (statistics excepted).
    fn reset_state(&mut self) {
        for table in &mut self.percta {
            table.fill(PerCtaEntry::default());
        }
        self.dist.fill(DistEntry::default());
        self.pending_load = None;
        self.pending_job = None;
        self.pending_job2 = None;
        self.jobq.clear();
        self.gen = None;
        self.pf_stage = None;
        self.pf_stage2 = None;
        self.pf_stage3 = None;
        self.pfq.clear();
        self.next_stamp = 0;
    }
}

impl GoldenUnit for CapsPrefetcher {
    type Model = CapsModel;
}

impl GoldenModel<CapsPrefetcher> for CapsModel {
    fn new(params: &CapsParams) -> Self {
        CapsModel::with_params(params)
    }

    fn outputs(&self) -> CapsOut {
        match self.pfq.front() {
            Some(pf) => CapsOut {
                pf_valid: true,
                pf_addr: pf.addr,
                pf_cta: pf.cta,
                pf_warp: pf.warp,
            },
            None => CapsOut::default(),
        }
    }

    fn step(&mut self, inputs: &CapsIn) {
        if inputs.reset {
            self.reset_state();
            return;
        }
        let p = &self.params;
        let cta_mask = mask(p.cta_bits());
        let warp_mask = mask(p.WARP_IDX_W as u32);
        let addr_mask = mask(p.ADDR_W as u32);
        let warps_per_cta = inputs.cfg_warps_per_cta & warp_mask;

        // Decisions from the state at the start of the cycle.
        let jobq_full = self.jobq.len() >= p.JOBQ_DEPTH as usize;
        let pop_pf = !self.pfq.is_empty() && inputs.pf_ready;
        let action = self.generator_action(warps_per_cta, pop_pf);

        // The load accepted at the last edge, then this cycle's launch; this
        // cycle's load waits for the next edge.
        let new_job = self
            .pending_load
            .take()
            .and_then(|load| self.apply_load(&load));
        if inputs.cta_launch_valid {
            let slot = (inputs.cta_launch_slot & cta_mask) as usize;
            self.percta[slot].fill(PerCtaEntry::default());
            // A new CTA in the slot is not the leading CTA of the DIST
            // entries its predecessor trained (after the load applied
            // above, so an allocation at this edge is also ended).
            for d in &mut self.dist {
                if d.lead_cta == slot as u64 {
                    d.lead_live = false;
                }
            }
        }
        self.pending_load = inputs.ld_valid.then(|| Load {
            pc: inputs.ld_pc & mask(self.params.PC_W as u32),
            cta: inputs.ld_cta & cta_mask,
            warp: inputs.ld_warp & warp_mask,
            count: inputs.ld_count & mask(LD_COUNT_W),
            addr: inputs.ld_addr.map(|a| a & addr_mask),
            indirect: inputs.ld_indirect,
        });

        // The output queue: pop the head, then the second address stage's
        // push; the first address stage's prefetch moves to the second, the
        // read stage's to the first, and the generator's new prefetch
        // enters the read stage.
        if pop_pf {
            self.pfq.pop_front();
        }
        if let Some(pf) = self.pf_stage3.take() {
            self.pfq.push_back(pf);
        }
        self.pf_stage3 = self.pf_stage2.take();
        self.pf_stage2 = self.pf_stage.take();
        match action {
            GenAction::Nothing | GenAction::Stall => {}
            GenAction::Take => {
                let job = self.jobq.pop_front().expect("job FIFO not empty");
                self.gen = Some(Generator { job, pos: 0, k: 0 });
            }
            GenAction::End => self.gen = None,
            GenAction::Advance { pos, k } => {
                let gen = self.gen.as_mut().expect("generator busy");
                gen.pos = pos;
                gen.k = k;
            }
            GenAction::Push { pf, pos, k } => {
                self.pf_stage = Some(pf);
                self.stats.prefetches += 1;
                let gen = self.gen.as_mut().expect("generator busy");
                gen.pos = pos;
                gen.k = k;
            }
        }

        // The job FIFO: the job created two edges ago enters unless it was
        // full; the newer ones move on.
        let older = std::mem::replace(&mut self.pending_job, new_job);
        if let Some(job) = std::mem::replace(&mut self.pending_job2, older) {
            if jobq_full {
                self.stats.jobs_dropped += 1;
            } else {
                match job {
                    Job::A { .. } => self.stats.jobs_a += 1,
                    Job::B { .. } => self.stats.jobs_b += 1,
                }
                self.jobq.push_back(job);
            }
        }
    }
}

#[cfg(test)]
mod tests;
