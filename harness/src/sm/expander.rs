//! The SM's side of the expander role ([`ExpanderSide`]): what the cycle
//! loop asks of and tells the unit in the expander slot, at the steps of
//! the cycle where it may act. [`NoExpander`] is the empty slot; DAC's
//! side (the affine warp, batches of CTAs, the dequeue port, early requests
//! and line locks) is `dac_side`. The SM is generic over its side, so an
//! empty slot costs nothing.
//!
//! A new kind of expander: a type implementing [`ExpanderSide`] and its
//! line where the SM is built (`run`).

use crate::error::HarnessError;

use super::state::Sm;

/// The SM's side of the expander slot. The methods taking `sm` may act on
/// the whole SM (its warps, the load/store unit, the L1 port); they are
/// called at the cycle's steps their names say (see the `sm` module).
pub(super) trait ExpanderSide: Sized {
    /// The unit needs every cycle simulated (no fast-forward).
    fn needs_every_cycle(&self) -> bool;
    /// Whether a CTA may launch now.
    fn allows_launch(&self) -> bool;
    /// Whether the SM's warps evaluate instruction `pc` (a `let`) without
    /// issuing it: the expander computes it for them.
    fn skips(&self, pc: u32) -> bool;
    /// A warp evaluated an instruction it skips.
    fn count_skipped(&mut self);
    /// The unit's clock edge (`reset`: this cycle's reset input).
    fn step(&mut self, reset: bool) -> Result<(), HarnessError>;
    /// Work under way or about to start: no deadlock while it is.
    fn busy(sm: &Sm<'_, Self>) -> bool;

    /// Step 5, before a CTA may launch.
    fn before_launch(sm: &mut Sm<'_, Self>);
    /// A CTA with index `ctaid` launched into slot `slot`.
    fn cta_launched(sm: &mut Sm<'_, Self>, slot: usize, ctaid: [i64; 3]);
    /// The CTA in slot `slot` finished.
    fn cta_done(sm: &mut Sm<'_, Self>, slot: usize);
    /// Step 6, after CTA launch.
    fn after_launch(sm: &mut Sm<'_, Self>) -> Result<(), HarnessError>;
    /// Step 7: the load/store unit is free; the expander may give it an
    /// instruction.
    fn ldst_free(sm: &mut Sm<'_, Self>);
    /// Step 7: where `line` is before the load/store unit's request for
    /// it (handed to [`Self::demand_served`]).
    fn line_state(sm: &Sm<'_, Self>, line: u64) -> u8;
    /// Step 7: line `i` of the load/store unit's instruction reached the
    /// L1 (`state`: from [`Self::line_state`]).
    fn demand_served(sm: &mut Sm<'_, Self>, i: usize, state: u8);
    /// Step 7: the L1 port has no demand line; whether the expander used
    /// it (else the prefetcher may).
    fn port_free(sm: &mut Sm<'_, Self>) -> bool;
    /// Step 8: the expander's own issue slot, before the scheduler's;
    /// whether it issued.
    fn issue(sm: &mut Sm<'_, Self>) -> Result<bool, HarnessError>;
    /// Warp `w` issued the load or store at `pc` (its lines are in the
    /// load/store unit); whether the expander took it over.
    fn mem_issued(sm: &mut Sm<'_, Self>, w: u16, pc: u32) -> bool;
    /// Warp `w` issues the branch at its PC; whether the expander takes it
    /// over (the warp then waits).
    fn branch_issued(sm: &mut Sm<'_, Self>, w: u16) -> bool;
    /// The run ended: the unit's figures and final checks.
    fn finish(sm: &mut Sm<'_, Self>) -> Result<(), HarnessError>;
}

/// The empty expander slot.
pub(super) struct NoExpander;

impl ExpanderSide for NoExpander {
    #[inline]
    fn needs_every_cycle(&self) -> bool {
        false
    }
    #[inline]
    fn allows_launch(&self) -> bool {
        true
    }
    #[inline]
    fn skips(&self, _pc: u32) -> bool {
        false
    }
    #[inline]
    fn count_skipped(&mut self) {}
    #[inline]
    fn step(&mut self, _reset: bool) -> Result<(), HarnessError> {
        Ok(())
    }
    #[inline]
    fn busy(_sm: &Sm<'_, Self>) -> bool {
        false
    }
    #[inline]
    fn before_launch(_sm: &mut Sm<'_, Self>) {}
    #[inline]
    fn cta_launched(_sm: &mut Sm<'_, Self>, _slot: usize, _ctaid: [i64; 3]) {}
    #[inline]
    fn cta_done(_sm: &mut Sm<'_, Self>, _slot: usize) {}
    #[inline]
    fn after_launch(_sm: &mut Sm<'_, Self>) -> Result<(), HarnessError> {
        Ok(())
    }
    #[inline]
    fn ldst_free(_sm: &mut Sm<'_, Self>) {}
    #[inline]
    fn line_state(_sm: &Sm<'_, Self>, _line: u64) -> u8 {
        0
    }
    #[inline]
    fn demand_served(_sm: &mut Sm<'_, Self>, _i: usize, _state: u8) {}
    #[inline]
    fn port_free(_sm: &mut Sm<'_, Self>) -> bool {
        false
    }
    #[inline]
    fn issue(_sm: &mut Sm<'_, Self>) -> Result<bool, HarnessError> {
        Ok(false)
    }
    #[inline]
    fn mem_issued(_sm: &mut Sm<'_, Self>, _w: u16, _pc: u32) -> bool {
        false
    }
    #[inline]
    fn branch_issued(_sm: &mut Sm<'_, Self>, _w: u16) -> bool {
        false
    }
    #[inline]
    fn finish(_sm: &mut Sm<'_, Self>) -> Result<(), HarnessError> {
        Ok(())
    }
}
