//! Scheduling (step 8): the warps eligible this cycle (ready, operands
//! ready, the pipeline or the load/store unit they need free), the
//! scheduler's pick (`crate::sched`) issued, idle cycles counted; and the
//! eager wake-up of a prefetch's target warp.

use crate::roles::WarpRef;
use crate::sched::scheduler::WarpState;

use super::expander::ExpanderSide;
use super::state::Sm;

impl<X: ExpanderSide> Sm<'_, X> {
    /// Pick and issue one warp instruction; false when none issued.
    pub(super) fn schedule(&mut self) -> bool {
        if self.timing.timed {
            self.operand_wakeups();
        }
        let mut elig = self.ready;
        let mut pipe_blocked = 0;
        if self.timing.timed {
            for p in 0..3 {
                if self.timing.pipe_free[p] > self.now {
                    pipe_blocked |= elig & self.timing.pipe_next[p];
                    elig &= !self.timing.pipe_next[p];
                }
            }
        }
        if self.ldst.busy {
            if elig & self.mem_next != 0 {
                self.m.sched.ldst_stall_cycles += 1;
            }
            elig &= !self.mem_next;
        }
        match self.sched.pick(elig, &self.warps) {
            Some(w) => {
                self.issue(w);
                true
            }
            None => {
                self.m.sched.idle_cycles += 1;
                if self.timing.lat_wait != 0 || pipe_blocked != 0 {
                    self.m.sched.operand_wait_cycles += 1;
                }
                false
            }
        }
    }

    /// A prefetch for `target` came back: with `eager_wakeup`, a ready
    /// target warp moves up to issue soon, if the scheduler does that.
    pub(super) fn eager_wakeup(&mut self, target: WarpRef) {
        if !self.cfg.eager_wakeup {
            return;
        }
        let w = match target {
            WarpRef::InCta { cta_slot, warp } => {
                let Some(c) = self.ctas.get(cta_slot as usize) else {
                    return;
                };
                if !c.live || warp as usize >= c.warps.len() {
                    return;
                }
                c.warps[warp as usize]
            }
            WarpRef::Sm(w) if (w as usize) < self.warps.len() => w as u16,
            WarpRef::Sm(_) => return,
        };
        if self.warps[w as usize].state != WarpState::Ready {
            return;
        }
        if self.sched.wake_early(w) {
            self.pf.m.eager_wakeups += 1;
        }
    }
}
