//! The two-level scheduler: a ready queue of `ready_queue` warps, issued
//! oldest first; a warp waiting on memory or at a barrier goes to the
//! pending queue and comes back when ready. [`Queues`] is shared with PAS
//! (`pas`), which adds its leading warps.

use std::collections::VecDeque;

use super::scheduler::{WarpScheduler, WarpState, WarpTable};

/// The two queues of a two-level scheduler.
pub(crate) struct Queues {
    /// The ready queue (issue order), at most `cap` warps.
    pub(crate) rq: Vec<u16>,
    /// The pending queue.
    pub(crate) pq: VecDeque<u16>,
    /// The ready queue's size (`ready_queue`).
    pub(crate) cap: usize,
}

impl Queues {
    /// Empty queues: a ready queue of `cap`, for `warps` warp slots.
    pub(crate) fn new(cap: usize, warps: usize) -> Queues {
        Queues {
            rq: Vec::with_capacity(cap + 1),
            pq: VecDeque::with_capacity(warps),
            cap,
        }
    }

    /// Demote warps waiting on memory or a barrier; drop exited ones.
    #[inline]
    pub(crate) fn demote<W: WarpTable + ?Sized>(&mut self, warps: &W) {
        let mut i = 0;
        while i < self.rq.len() {
            let w = self.rq[i];
            let (remove, to_pending) = match warps.state(w) {
                WarpState::Ready => (false, false),
                WarpState::Mem => {
                    let long = warps.pending_misses(w) > 0;
                    (long, long)
                }
                WarpState::Barrier => (true, true),
                WarpState::Done | WarpState::Free => (true, false),
            };
            if remove {
                self.rq.remove(i);
                if to_pending {
                    self.pq.push_back(w);
                }
            } else {
                i += 1;
            }
        }
    }

    /// Refill the ready queue from the pending queue: ready warps, in
    /// pending order, the first one of `preferred` (a bit per warp slot)
    /// before the others; exited warps leave the pending queue.
    #[inline]
    pub(crate) fn refill<W: WarpTable + ?Sized>(&mut self, warps: &W, preferred: u64) {
        while self.rq.len() < self.cap && !self.pq.is_empty() {
            let mut found = None;
            let mut j = 0;
            while j < self.pq.len() {
                let w = self.pq[j];
                match warps.state(w) {
                    WarpState::Done | WarpState::Free => {
                        self.pq.remove(j);
                        continue;
                    }
                    WarpState::Ready => {
                        if preferred & (1u64 << w) != 0 {
                            found = Some(j);
                            break;
                        }
                        if found.is_none() {
                            found = Some(j);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            match found {
                Some(j) => {
                    let w = self.pq.remove(j).unwrap();
                    self.rq.push(w);
                }
                None => break,
            }
        }
    }

    /// The first warp of the ready queue in `elig`.
    #[inline]
    pub(crate) fn first_eligible(&self, elig: u64) -> Option<u16> {
        self.rq.iter().copied().find(|&w| elig & (1u64 << w) != 0)
    }

    /// Eager wake-up: warp `w`, ready in the pending queue, goes to the
    /// front of the ready queue (a full one sends its last warp to the
    /// front of the pending queue). Whether `w` was pending.
    pub(crate) fn wake_early(&mut self, w: u16) -> bool {
        let Some(j) = self.pq.iter().position(|&x| x == w) else {
            return false;
        };
        self.pq.remove(j);
        if self.rq.len() >= self.cap {
            if let Some(out) = self.rq.pop() {
                self.pq.push_front(out);
            }
        }
        self.rq.insert(0, w);
        true
    }
}

/// The two-level scheduler (`sched = two-level`).
pub(crate) struct TwoLevel {
    q: Queues,
}

impl TwoLevel {
    /// A ready queue of `ready_queue` warps, for `warps` warp slots.
    pub(crate) fn new(ready_queue: usize, warps: usize) -> TwoLevel {
        TwoLevel {
            q: Queues::new(ready_queue, warps),
        }
    }
}

impl<W: WarpTable + ?Sized> WarpScheduler<W> for TwoLevel {
    fn warp_launched(&mut self, w: u16, _leading: bool) {
        self.q.pq.push_back(w);
    }

    fn pick(&mut self, elig: u64, warps: &W) -> Option<u16> {
        self.q.demote(warps);
        // Every ready warp is as good as another: the first one comes.
        self.q.refill(warps, u64::MAX);
        self.q.first_eligible(elig)
    }

    fn wake_early(&mut self, w: u16) -> bool {
        self.q.wake_early(w)
    }
}
