//! The walker of the `snake_prefetcher` golden model: what the job at the
//! head of the walk queue does in one cycle (spec `snake.md`, "Revision 2",
//! *Walk*; contract `docs/units/snake_prefetcher.md`, "The walk of job (w,
//! p, a, span, end), revision 2").
//!
//! A walk job `(w, p, a, span, end)` goes through three phases:
//! 1. **chain**: hops along the warp's own path (the hop choice, below), at
//!    most `LOOP_HOPS` of them, one per cycle; the first `CHAIN_DEPTH` hops
//!    through a link *usable* for w emit a kind-0 prefetch, the others emit
//!    nothing but still take their cycle; a hop that reaches `p` again has
//!    closed a loop, whose stride sum is an intra-warp observation for `p`;
//! 2. **intra**: with `p`'s intra-warp stride trained (`t2 = 3`), the
//!    iterations `k0 ..= INTRA_DEGREE` ahead (`k0 = 2` when the closing hop
//!    emitted: it predicted the next iteration already), one per cycle;
//! 3. **inter**: with `p`'s inter-warp stride trained (`iw_cnt >= 2`), the
//!    warps `w + 1 ..= w + IW_DEGREE`, below `N_WARPS` and, with
//!    `IW_SAME_CTA = 1`, below the CTA's end.
//!
//! A phase with nothing (left) to emit hands over to the next one in the
//! same cycle; a cycle in which nothing is left ends the job.

use ports::snake::kind;

use super::model::SnakeModel;
use super::state::{
    Phase, Prefetch, TailEntry, WalkAction, WalkJob, Walker, CNT_MAX, T1_PROMOTED, T1_TWO_WARPS,
};

/// What the walker's job does next, from the current tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WalkStep {
    /// No further prefetch: the job ends.
    End,
    /// A hop that emits nothing: the registers become `next`; a closing
    /// hop records the intra-warp observation `observation` for the job's
    /// PC.
    Hop {
        next: Walker,
        observation: Option<u64>,
    },
    /// This prefetch, then the registers become `next` (and a closing hop
    /// records `observation`).
    Push {
        pf: Prefetch,
        next: Walker,
        observation: Option<u64>,
    },
}

impl SnakeModel {
    /// Link `e` may predict warp `w`'s next load: promoted (every warp), or,
    /// with `OWN_LINKS = 1`, trained (`t1 = 1`) and observed by `w`.
    fn usable(&self, e: &TailEntry, w: u64) -> bool {
        e.t1 == T1_PROMOTED
            || (self.params.OWN_LINKS == 1 && e.t1 == T1_TWO_WARPS && e.wv & (1u64 << w) != 0)
    }

    /// The entry the walk of warp `w` follows from `cur`: the
    /// lowest-numbered valid entry with `pc1 = cur` and bit `w` set (the
    /// warp's own latest link; only a promoted one with `OWN_LINKS = 0`),
    /// else the lowest-numbered valid promoted entry with `pc1 = cur`. An
    /// entry allocated at the last edge is not seen (issue 29 step 15).
    fn hop_entry(&self, cur: u64, w: u64) -> Option<usize> {
        let own_links = self.params.OWN_LINKS == 1;
        let from_cur = |i: usize| self.walker_sees(i) && self.tail[i].pc1 == cur;
        let n = self.tail.len();
        (0..n)
            .find(|&i| {
                let e = &self.tail[i];
                from_cur(i) && e.wv & (1u64 << w) != 0 && (own_links || e.t1 == T1_PROMOTED)
            })
            .or_else(|| (0..n).find(|&i| from_cur(i) && self.tail[i].t1 == T1_PROMOTED))
    }

    /// `span` as `pf_span` shows it (0 when `SPAN = 0`).
    fn out_span(&self, span: u64) -> u64 {
        if self.params.SPAN == 1 {
            span
        } else {
            0
        }
    }

    /// Step 1, one hop of the chain phase, if the walk has one to take.
    fn hop_step(&self, job: &WalkJob, ws: &Walker) -> Option<WalkStep> {
        let p = &self.params;
        if ws.phase != Phase::Chain || ws.hop >= p.LOOP_HOPS {
            return None;
        }
        let (cur, addr, sum) = if ws.hop == 0 {
            (job.pc, job.addr, 0)
        } else {
            (ws.cur, ws.addr, ws.sum)
        };
        let entry = &self.tail[self.hop_entry(cur, job.warp)?];
        let mut next = *ws;
        next.hop = ws.hop + 1;
        next.cur = entry.pc2;
        next.addr = self.add(addr, entry.stride);
        next.sum = self.add(sum, entry.stride);
        let emits = next.hop <= p.CHAIN_DEPTH && self.usable(entry, job.warp);
        let observation = if entry.pc2 == job.pc {
            // The loop closed: the intra-warp prefetches follow, from the
            // second iteration if this hop predicted the next one.
            next.phase = Phase::Intra;
            next.k = if emits { 2 } else { 1 };
            Some(next.sum)
        } else {
            None
        };
        Some(if emits {
            WalkStep::Push {
                pf: Prefetch {
                    addr: next.addr,
                    warp: job.warp,
                    kind: kind::CHAIN,
                    span: self.out_span(entry.span),
                },
                next,
                observation,
            }
        } else {
            WalkStep::Hop { next, observation }
        })
    }

    /// The next step of `job` with the walker's registers `ws`, from the
    /// current tables.
    pub(super) fn walk_step(&self, job: &WalkJob, ws: &Walker) -> WalkStep {
        if let Some(step) = self.hop_step(job, ws) {
            return step;
        }
        let p = &self.params;
        let f = self.walker_per_pc(job.pc);
        // 2. Intra-warp: from the walker's k in the intra phase, else from 1
        // (the chain is over in this cycle).
        if ws.phase != Phase::Inter {
            let k = if ws.phase == Phase::Intra { ws.k } else { 1 };
            if let Some(f) = f.filter(|f| f.t2 == CNT_MAX && k <= p.INTRA_DEGREE) {
                let next = Walker {
                    phase: Phase::Intra,
                    k: k + 1,
                    ..*ws
                };
                return WalkStep::Push {
                    pf: Prefetch {
                        addr: self.add(job.addr, k.wrapping_mul(f.intra)),
                        warp: job.warp,
                        kind: kind::INTRA_WARP,
                        span: self.out_span(job.span),
                    },
                    next,
                    observation: None,
                };
            }
        }
        // 3. Inter-warp: from the walker's k in the inter phase, else from 1.
        let k = if ws.phase == Phase::Inter { ws.k } else { 1 };
        let target = job.warp + k;
        let in_cta = p.IW_SAME_CTA == 0 || target < job.end;
        if let Some(f) = f.filter(|f| f.iw_cnt >= 2) {
            if k <= p.IW_DEGREE && target < p.N_WARPS && in_cta {
                let next = Walker {
                    phase: Phase::Inter,
                    k: k + 1,
                    ..*ws
                };
                return WalkStep::Push {
                    pf: Prefetch {
                        addr: self.add(job.addr, k.wrapping_mul(f.iw_stride)),
                        warp: target,
                        kind: kind::INTER_WARP,
                        span: self.out_span(job.span),
                    },
                    next,
                    observation: None,
                };
            }
        }
        // 4. Nothing more.
        WalkStep::End
    }

    /// What the walker does at this edge, from the state at the start of
    /// the cycle.
    pub(super) fn walk_action(&self) -> WalkAction {
        if self.halted() {
            return WalkAction::Discard;
        }
        let Some(job) = self.walkq.front() else {
            return WalkAction::Idle;
        };
        match self.walk_step(job, &self.walker) {
            WalkStep::End => WalkAction::End,
            WalkStep::Hop { next, observation } => WalkAction::Hop { next, observation },
            WalkStep::Push { .. }
                if self.pfq.len() + usize::from(self.out_stage.is_some())
                    >= self.params.PFQ_DEPTH as usize =>
            {
                WalkAction::Stall
            }
            WalkStep::Push {
                pf,
                next,
                observation,
            } => WalkAction::Push {
                pf,
                next,
                observation,
            },
        }
    }
}
