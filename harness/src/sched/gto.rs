//! Greedy then oldest: the last warp issued while it is eligible, else the
//! oldest eligible one.

use super::scheduler::{WarpScheduler, WarpTable};

/// Greedy then oldest (`sched = gto`).
pub(crate) struct Gto {
    /// The warp issued last.
    last: Option<u16>,
    /// The live warps, oldest first.
    age_order: Vec<u16>,
}

impl Gto {
    /// For an SM of `warps` warp slots.
    pub(crate) fn new(warps: usize) -> Gto {
        Gto {
            last: None,
            age_order: Vec::with_capacity(warps),
        }
    }
}

impl<W: WarpTable + ?Sized> WarpScheduler<W> for Gto {
    fn warp_launched(&mut self, w: u16, _leading: bool) {
        self.age_order.push(w);
    }

    fn warp_exited(&mut self, w: u16) {
        self.age_order.retain(|&x| x != w);
    }

    fn pick(&mut self, elig: u64, _warps: &W) -> Option<u16> {
        if elig == 0 {
            return None;
        }
        let w = match self.last {
            Some(l) if elig & (1u64 << l) != 0 => Some(l),
            _ => self
                .age_order
                .iter()
                .copied()
                .find(|&w| elig & (1u64 << w) != 0),
        };
        if w.is_some() {
            self.last = w;
        }
        w
    }
}
