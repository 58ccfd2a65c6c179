//! Loose round robin: the first eligible warp after the last one issued.

use super::scheduler::{WarpScheduler, WarpTable};

/// Loose round robin (`sched = lrr`).
#[derive(Default)]
pub(crate) struct Lrr {
    /// The warp issued last.
    last: Option<u16>,
}

impl<W: WarpTable + ?Sized> WarpScheduler<W> for Lrr {
    fn pick(&mut self, elig: u64, _warps: &W) -> Option<u16> {
        if elig == 0 {
            return None;
        }
        let start = self.last.map(|l| l as u32 + 1).unwrap_or(0);
        let hi = if start >= 64 {
            0
        } else {
            elig & (u64::MAX << start)
        };
        let w = if hi != 0 {
            hi.trailing_zeros()
        } else {
            elig.trailing_zeros()
        } as u16;
        self.last = Some(w);
        Some(w)
    }
}
