//! The CAPS paper's prefetch-aware scheduler (PAS): two-level, with the
//! leading warps of each CTA (as the prefetcher marks them; warp 0 by
//! default) pushed to the front of the ready queue when ready ("PAS pushes
//! warps that have this marker set to the front of the ready queue", CAPS
//! section V-A; a full queue sends its last warp that is not leading to
//! the pending queue) and issued first.
//!
//! The marker lasts "until they compute the base address. Then the
//! trailing warps can continue" (CAPS §V-A; `sm_harness.md`, revision 3):
//! a leading warp's marker is cleared when it issues a load whose PC it
//! has issued before (its first pass over the loads is done, so every base
//! address the CTA needs is computed), or when it has issued as many
//! distinct load PCs as the prefetcher has PerCTA entries
//! (`PrefetcherRole::leading_loads`; without a limit only the repeat
//! clears it). Revision 2 kept the marker for the warp's life; the machine
//! key `pas_lifetime_marker` keeps that rule for comparison.

use super::scheduler::{WarpScheduler, WarpState, WarpTable};
use super::two_level::Queues;

/// The prefetch-aware scheduler (`sched = pas`).
pub(crate) struct Pas {
    q: Queues,
    /// Bit per warp slot: a leading warp whose marker is still set.
    leading: u64,
    /// Per warp slot: the distinct load PCs a leading warp has issued
    /// since its launch (until its marker clears).
    loads: Vec<Vec<u32>>,
    /// The marker clears (`None`: never, `pas_lifetime_marker`); with
    /// `Some(limit)`, at a repeated load PC or after `limit` distinct ones
    /// (`None`: no limit).
    clear: Option<Option<u32>>,
}

impl Pas {
    /// A ready queue of `ready_queue` warps, for `warps` warp slots; with
    /// `clear = Some(limit)` a leading warp's marker clears at its first
    /// repeated load PC or after `limit` distinct load PCs (`None`: no
    /// limit); with `clear = None` it lasts the warp's life.
    pub(crate) fn new(ready_queue: usize, warps: usize, clear: Option<Option<u32>>) -> Pas {
        Pas {
            q: Queues::new(ready_queue, warps),
            leading: 0,
            loads: vec![Vec::new(); warps],
            clear,
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
        self.loads[w as usize].clear();
        self.q.pq.push_back(w);
    }

    fn warp_exited(&mut self, w: u16) {
        self.leading &= !(1u64 << w);
    }

    fn load_issued(&mut self, w: u16, pc: u32) {
        let Some(limit) = self.clear else {
            return;
        };
        if !self.is_leading(w) {
            return;
        }
        let seen = &mut self.loads[w as usize];
        let repeat = seen.contains(&pc);
        if !repeat {
            seen.push(pc);
        }
        if repeat || limit.is_some_and(|n| seen.len() >= n as usize) {
            self.leading &= !(1u64 << w);
            seen.clear();
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every warp ready, none waiting on memory.
    struct AllReady;

    impl WarpTable for AllReady {
        fn state(&self, _w: u16) -> WarpState {
            WarpState::Ready
        }
        fn pending_misses(&self, _w: u16) -> u32 {
            0
        }
    }

    fn leading(p: &Pas, w: u16) -> bool {
        p.is_leading(w)
    }

    fn launched(limit: Option<u32>) -> Pas {
        let mut p = Pas::new(8, 8, Some(limit));
        for w in 0..4u16 {
            WarpScheduler::<AllReady>::warp_launched(&mut p, w, w == 0);
        }
        p
    }

    /// The marker stays through the first pass over the loads and clears
    /// at the first repeated load PC; other warps' loads do not touch it.
    #[test]
    fn a_repeated_load_pc_clears_the_marker() {
        let mut p = launched(None);
        let load = |p: &mut Pas, w, pc| WarpScheduler::<AllReady>::load_issued(p, w, pc);
        for pc in [0x10, 0x20, 0x30] {
            load(&mut p, 0, pc);
            assert!(leading(&p, 0), "pc {pc:#x}");
        }
        load(&mut p, 1, 0x10);
        assert!(leading(&p, 0));
        load(&mut p, 0, 0x20);
        assert!(!leading(&p, 0), "second pass");
        // A leading warp launched into the slot again starts over.
        WarpScheduler::<AllReady>::warp_launched(&mut p, 0, true);
        load(&mut p, 0, 0x20);
        assert!(leading(&p, 0));
    }

    /// With a limit (CAPS's PerCTA entries) the marker clears at that many
    /// distinct load PCs, and a cleared leading warp is issued in the
    /// ordinary order.
    #[test]
    fn the_prefetchers_entries_bound_the_marker() {
        let mut p = launched(Some(2));
        let load = |p: &mut Pas, w, pc| WarpScheduler::<AllReady>::load_issued(p, w, pc);
        load(&mut p, 0, 0x10);
        assert!(leading(&p, 0));
        assert_eq!(p.pick(0b1010, &AllReady), Some(1));
        assert_eq!(p.pick(0b1011, &AllReady), Some(0), "leading first");
        load(&mut p, 0, 0x20);
        assert!(!leading(&p, 0), "two distinct PCs");
        assert_eq!(p.loads[0].len(), 0);
    }

    /// With `pas_lifetime_marker` (no clearing) the marker stays.
    #[test]
    fn the_lifetime_marker_never_clears() {
        let mut p = Pas::new(8, 8, None);
        WarpScheduler::<AllReady>::warp_launched(&mut p, 0, true);
        for pc in [0x10, 0x10, 0x20, 0x30, 0x40] {
            WarpScheduler::<AllReady>::load_issued(&mut p, 0, pc);
        }
        assert!(leading(&p, 0));
    }
}
