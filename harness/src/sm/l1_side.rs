//! The SM's L1 side ([`L1Side`]): the tag array in its role slot, the
//! MSHRs ([`Mshr`]), the hit queue, and the request the tag array answers
//! next cycle ([`Access`]).

use std::collections::VecDeque;

use crate::roles::{L1Role, WarpRef};

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
        expect_hit: bool,
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
        }
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

    /// Take a free MSHR for `line`, sent at cycle `now` (one was checked
    /// to be free).
    pub(super) fn alloc_mshr(&mut self, line: u64, now: u64) -> usize {
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
        e.sent = now;
        self.mshr_used += 1;
        i
    }
}
