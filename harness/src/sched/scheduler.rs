//! What a warp scheduler sees of the SM's warps ([`WarpTable`], each
//! warp's [`WarpState`]) and what it does ([`WarpScheduler`]).

/// A warp slot's state, as the scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WarpState {
    /// No CTA in this slot.
    Free,
    /// Can issue.
    Ready,
    /// Waiting for the lines of a load (or, with an expander, for its
    /// records or its branch mask).
    Mem,
    /// Waiting at a barrier.
    Barrier,
    /// Exited.
    Done,
}

/// The SM's warps, by slot, as a scheduler reads them.
pub(crate) trait WarpTable {
    /// Warp `w`'s state.
    fn state(&self, w: u16) -> WarpState;
    /// Lines of warp `w`'s current load that went to memory and are not
    /// back yet (a long wait: the two-level scheduler demotes the warp).
    fn pending_misses(&self, w: u16) -> u32;
}

/// A warp scheduling policy. The SM tells it which warps its slots hold
/// (launch, exit) and asks it each cycle for the warp to issue among the
/// eligible ones (ready, operands ready, the load/store unit or pipeline
/// they need free).
pub(crate) trait WarpScheduler<W: WarpTable + ?Sized> {
    /// Warp slot `w` got a warp of a CTA launched this cycle (the CTA's
    /// warps in order); `leading`: the prefetcher marks it a leading warp
    /// (warp 0 of each CTA unless the prefetcher says otherwise).
    fn warp_launched(&mut self, w: u16, leading: bool) {
        let _ = (w, leading);
    }

    /// Warp `w` exited.
    fn warp_exited(&mut self, w: u16) {
        let _ = w;
    }

    /// Warp `w` issued the load at `pc` (kernel files and traces alike).
    fn load_issued(&mut self, w: u16, pc: u32) {
        let _ = (w, pc);
    }

    /// The warp to issue this cycle: the first warp of `elig` (a bit per
    /// warp slot) in the policy's order, or `None` when none is eligible.
    fn pick(&mut self, elig: u64, warps: &W) -> Option<u16>;

    /// A prefetch for warp `w` (ready) came back: whether the policy moved
    /// it up to issue soon (the eager wake-up; `eager_wakeup`).
    fn wake_early(&mut self, w: u16) -> bool {
        let _ = w;
        false
    }
}
