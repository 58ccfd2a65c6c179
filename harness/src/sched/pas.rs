//! The CAPS paper's prefetch-aware scheduler (PAS): two-level, with the
//! leading warps of each CTA (as the prefetcher marks them; warp 0 by
//! default) pushed to the front of the ready queue when ready ("PAS pushes
//! warps that have this marker set to the front of the ready queue", CAPS
//! section V-A; a full queue sends its last warp that is not leading to
//! the pending queue) and issued first.

use super::scheduler::{WarpScheduler, WarpState, WarpTable};
use super::two_level::Queues;

/// The prefetch-aware scheduler (`sched = pas`).
pub(crate) struct Pas {
    q: Queues,
    /// Bit per warp slot: a leading warp (for its lifetime).
    leading: u64,
}

impl Pas {
    /// A ready queue of `ready_queue` warps, for `warps` warp slots.
    pub(crate) fn new(ready_queue: usize, warps: usize) -> Pas {
        Pas {
            q: Queues::new(ready_queue, warps),
            leading: 0,
        }
    }

    #[inline]
    fn is_leading(&self, w: u16) -> bool {
        self.leading & (1u64 << w) != 0
    }

    /// A ready leading warp in the pending queue moves to the front of the
    /// ready queue, displacing the last warp that is not leading when it
    /// is full.
    #[inline]
    fn promote<W: WarpTable + ?Sized>(&mut self, warps: &W) {
        let mut j = 0;
        while j < self.q.pq.len() {
            let w = self.q.pq[j];
            if warps.state(w) != WarpState::Ready || !self.is_leading(w) {
                j += 1;
                continue;
            }
            if self.q.rq.len() >= self.q.cap {
                let Some(k) = self.q.rq.iter().rposition(|&x| !self.is_leading(x)) else {
                    break;
                };
                let out = self.q.rq.remove(k);
                self.q.pq.push_back(out);
            }
            self.q.pq.remove(j);
            self.q.rq.insert(0, w);
        }
    }
}

impl<W: WarpTable + ?Sized> WarpScheduler<W> for Pas {
    fn warp_launched(&mut self, w: u16, leading: bool) {
        if leading {
            self.leading |= 1u64 << w;
        } else {
            self.leading &= !(1u64 << w);
        }
        self.q.pq.push_back(w);
    }

    fn warp_exited(&mut self, w: u16) {
        self.leading &= !(1u64 << w);
    }

    fn pick(&mut self, elig: u64, warps: &W) -> Option<u16> {
        self.q.demote(warps);
        self.promote(warps);
        // Refill: ready warps, leading ones first.
        self.q.refill(warps, self.leading);
        if let Some(&w) = self
            .q
            .rq
            .iter()
            .find(|&&w| elig & (1u64 << w) != 0 && self.is_leading(w))
        {
            return Some(w);
        }
        self.q.first_eligible(elig)
    }

    fn wake_early(&mut self, w: u16) -> bool {
        self.q.wake_early(w)
    }
}
