//! The SM's L1 side ([`L1Side`]): the tag array in its role slot, the
//! MSHRs ([`Mshr`]), the hit queue, and the request the tag array answers
//! next cycle ([`Access`]), and the bypassed reads in flight
//! ([`Bypassed`]), which hold no MSHR.

use std::collections::VecDeque;

use crate::roles::{L1Plan, L1Role, WarpRef};

/// A miss status holding register.
pub(super) struct Mshr {
    pub(super) valid: bool,
    pub(super) line: u64,
    /// (warp, load id) of each merged demand request.
    pub(super) waiters: Vec<(u16, u32)>,
    pub(super) prefetch: bool,
    pub(super) demanded: bool,
    pub(super) target: WarpRef,
    /// Cycle the request was sent (`sm/texture.rs`: which cache a
    /// returned line is for when both have it in flight).
    pub(super) sent: u64,
    /// The order it was sent to memory in (matching a return of its line
    /// to an MSHR or a bypassed read: the oldest first).
    pub(super) seq: u64,
}

/// A bypassed read in flight: it holds no MSHR, merges with nothing, and
/// its line goes to its warp alone.
#[derive(Clone, Copy)]
pub(super) struct Bypassed {
    pub(super) line: u64,
    pub(super) warp: u16,
    pub(super) load: u32,
    pub(super) seq: u64,
}

/// The request the L1 tag array was given this cycle (its response comes
/// next cycle).
#[derive(Clone, Copy)]
pub(super) enum Access {
    Demand {
        warp: u16,
        load: u32,
        array: u16,
        merged: bool,
        /// What the tag array planned (its response must agree).
        plan: L1Plan,
    },
    Prefetch,
    /// The expander's early request.
    Early,
    Store,
}

/// The L1: its tag array, MSHRs and hit queue.
pub(super) struct L1Side {
    /// The tag array (a unit's golden model, a baseline, or the harness's
    /// own).
    pub(super) tags: Box<dyn L1Role>,
    pub(super) mshr: Vec<Mshr>,
    /// MSHRs valid.
    pub(super) mshr_used: usize,
    /// Hits on their way: (cycle delivered, warp, load id).
    pub(super) hitq: VecDeque<(u64, u16, u32)>,
    /// The request the tag array answers next cycle.
    pub(super) last_access: Option<Access>,
    /// Lines the L1 freed in bulk this cycle (reused buffer).
    pub(super) freed: Vec<u64>,
    /// Bypassed reads in flight, oldest first.
    pub(super) bypassed: Vec<Bypassed>,
    /// Reads sent so far (the next read's `seq`).
    pub(super) sent: u64,
    /// The most MSHRs in use at once.
    pub(super) mshr_peak: usize,
    /// Sum over cycles of the MSHRs in use, up to `occ_since`.
    pub(super) mshr_area: u64,
    /// The cycle `mshr_area` runs to.
    pub(super) occ_since: u64,
}

impl L1Side {
    /// The L1 of `tags` with `mshrs` MSHRs of `merges` requests each.
    pub(super) fn new(tags: Box<dyn L1Role>, mshrs: u32, merges: u32) -> L1Side {
        let mshr = (0..mshrs)
            .map(|_| Mshr {
                valid: false,
                line: 0,
                waiters: Vec::with_capacity(merges as usize),
                prefetch: false,
                demanded: false,
                target: WarpRef::Sm(u64::MAX),
                seq: 0,
                sent: 0,
            })
            .collect();
        L1Side {
            tags,
            mshr,
            mshr_used: 0,
            hitq: VecDeque::new(),
            last_access: None,
            freed: Vec::new(),
            bypassed: Vec::new(),
            sent: 0,
            mshr_peak: 0,
            mshr_area: 0,
            occ_since: 0,
        }
    }

    /// The MSHRs in use change at cycle `now`: the area up to it is
    /// counted with the count before the change.
    #[inline]
    fn occupancy_to(&mut self, now: u64) {
        if now > self.occ_since {
            self.mshr_area += self.mshr_used as u64 * (now - self.occ_since);
            self.occ_since = now;
        }
    }

    /// Free MSHR `i` at cycle `now`.
    pub(super) fn free_mshr(&mut self, i: usize, now: u64) {
        self.occupancy_to(now);
        self.mshr[i].valid = false;
        self.mshr_used -= 1;
    }

    /// The oldest bypassed read of `line` in flight.
    #[inline]
    pub(super) fn find_bypassed(&self, line: u64) -> Option<usize> {
        if self.bypassed.is_empty() {
            return None;
        }
        self.bypassed.iter().position(|b| b.line == line)
    }

    /// Peak and mean MSHRs in use over `cycles` cycles (to the run's end).
    pub(super) fn mshr_occupancy(&mut self, cycles: u64) -> (u64, f64) {
        self.occupancy_to(cycles);
        let mean = if cycles == 0 {
            0.0
        } else {
            self.mshr_area as f64 / cycles as f64
        };
        (self.mshr_peak as u64, mean)
    }

    /// The MSHR of `line`, if it is in flight.
    pub(super) fn find_mshr(&self, line: u64) -> Option<usize> {
        if self.mshr_used == 0 {
            return None;
        }
        self.mshr.iter().position(|e| e.valid && e.line == line)
    }

    /// Every MSHR is in use.
    #[inline]
    pub(super) fn mshrs_full(&self) -> bool {
        self.mshr_used >= self.mshr.len()
    }

    /// Take a free MSHR for `line` at cycle `now` (one was checked to be
    /// free); its read is the next sent.
    pub(super) fn alloc_mshr(&mut self, line: u64, now: u64) -> usize {
        self.occupancy_to(now);
        let i = self
            .mshr
            .iter()
            .position(|e| !e.valid)
            .expect("a free MSHR was checked");
        let e = &mut self.mshr[i];
        e.valid = true;
        e.line = line;
        e.waiters.clear();
        e.prefetch = false;
        e.demanded = false;
        e.seq = self.sent;
        e.sent = now;
        self.mshr_used += 1;
        self.mshr_peak = self.mshr_peak.max(self.mshr_used);
        i
    }
}
