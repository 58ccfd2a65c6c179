//! What comes back to the SM: the memory's reads filling their MSHRs
//! (step 1), the L1 tag array's response to the previous cycle's request
//! (step 2), hits whose latency has elapsed (step 3), and the delivery of
//! a load's line to its warp.
//!
//! A read's return goes to the oldest request of its line in flight: an
//! MSHR (its waiters get the line, the MSHR is freed and the tag array
//! releases the way the miss reserved, [`L1Role::fill`]) or a bypassed
//! read (its one warp gets the line; nothing is installed or released).

use crate::error::HarnessError;
use crate::roles::{L1Outcome, L1Plan};
use crate::sched::scheduler::WarpState;

use super::expander::ExpanderSide;
use super::l1_side::Access;
use super::state::Sm;
use super::warp::BLOCKING;

impl<X: ExpanderSide> Sm<'_, X> {
    /// The memory advances to this cycle; the reads back by now fill
    /// their MSHRs.
    pub(super) fn mem_returns(&mut self) {
        if self.ticks_memory {
            self.mem.borrow_mut().tick(self.now);
        }
        loop {
            let line = self.mem.borrow_mut().pop_return(self.port, self.now);
            let Some(line) = line else {
                break;
            };
            let l1_sent = self.l1.find_mshr(line).map(|i| self.l1.mshr[i].sent);
            if self.fill_is_texture(line, l1_sent) {
                self.texture_fill(line);
            } else {
                self.fill(line);
            }
        }
    }

    /// `line` is back from memory: its waiters get it, its MSHR is freed
    /// and its way released; a prefetch of it may wake its target warp
    /// early. Or it is a bypassed read's (module documentation).
    fn fill(&mut self, line: u64) {
        let m = self.l1.find_mshr(line);
        if let Some(j) = self.l1.find_bypassed(line) {
            if m.is_none_or(|i| self.l1.bypassed[j].seq < self.l1.mshr[i].seq) {
                let b = self.l1.bypassed.remove(j);
                self.warps[b.warp as usize].pending_misses -= 1;
                self.deliver(b.warp, b.load);
                return;
            }
        }
        let Some(i) = m else {
            return;
        };
        let installed = self.l1.tags.holds_data(line);
        self.l1.tags.fill(line);
        let waiters = std::mem::take(&mut self.l1.mshr[i].waiters);
        for &(w, load) in &waiters {
            self.warps[w as usize].pending_misses -= 1;
            self.deliver(w, load);
        }
        let mut waiters = waiters;
        waiters.clear();
        self.l1.mshr[i].waiters = waiters;
        self.l1.free_mshr(i, self.now);
        let e = &self.l1.mshr[i];
        if e.prefetch && !e.demanded {
            let target = e.target;
            if let Some(info) = self.pf.lines.get_mut(&line) {
                info.in_flight = false;
                if !installed {
                    self.pf.m.early_evicted += 1;
                    self.pf.lines.remove(&line);
                    self.pf.evicted_unused.insert(line);
                }
            }
            self.eager_wakeup(target);
        }
    }

    /// The hits whose latency has elapsed are delivered.
    pub(super) fn hit_completions(&mut self) {
        while let Some(&(t, w, load)) = self.l1.hitq.front() {
            if t > self.now {
                break;
            }
            self.l1.hitq.pop_front();
            self.deliver(w, load);
        }
    }

    /// A line of warp `w`'s load `load` is back.
    pub(super) fn deliver(&mut self, w: u16, load: u32) {
        let wp = &mut self.warps[w as usize];
        if load == BLOCKING {
            wp.pending -= 1;
            if wp.pending == 0 && wp.state == WarpState::Mem {
                self.make_ready(w);
            }
            return;
        }
        if let Some(i) = wp.loads_out.iter().position(|l| l.id == load) {
            wp.loads_out[i].lines -= 1;
            if wp.loads_out[i].lines == 0 {
                let l = wp.loads_out.swap_remove(i);
                for r in l.regs() {
                    wp.sb[r] -= 1;
                }
            }
        }
        if wp.sb_wait && wp.state == WarpState::Mem {
            self.make_ready(w);
        }
    }

    /// The L1 tag array's response to the previous cycle's request: its
    /// evictions, its outcome counted, a hit queued for delivery.
    pub(super) fn l1_response(&mut self) -> Result<(), HarnessError> {
        let rsp = self.l1.tags.response();
        self.l1.tags.take_freed(&mut self.l1.freed);
        if !self.l1.freed.is_empty() {
            let mut freed = std::mem::take(&mut self.l1.freed);
            for &line in &freed {
                self.m.l1.evictions += 1;
                self.evicted(line & self.line_mask);
            }
            freed.clear();
            self.l1.freed = freed;
        }
        let Some(acc) = self.l1.last_access.take() else {
            return Ok(());
        };
        let Some(rsp) = rsp else {
            return Err(HarnessError::Internal(format!(
                "cycle {}: the L1 tag array gave no response to the previous request",
                self.now
            )));
        };
        if let Some(evicted) = rsp.evicted {
            let line = evicted & self.line_mask;
            if rsp.outcome != L1Outcome::WriteEvict {
                self.m.l1.evictions += 1;
            }
            self.evicted(line);
        }
        match acc {
            Access::Demand {
                warp,
                load,
                array,
                merged,
                plan,
            } => {
                if merged {
                    self.m.l1.pending_hits += 1;
                    return Ok(());
                }
                let agrees = match rsp.outcome {
                    L1Outcome::Hit => plan == L1Plan::Hit,
                    L1Outcome::Miss | L1Outcome::PseudoHit => plan == L1Plan::Allocate,
                    L1Outcome::Bypass => plan == L1Plan::Bypass,
                    L1Outcome::WriteEvict | L1Outcome::WriteMiss => false,
                };
                if !agrees {
                    return Err(HarnessError::Internal(format!(
                        "cycle {}: L1 outcome {} but the tag array planned {plan:?}",
                        self.now,
                        rsp.outcome.name(),
                    )));
                }
                self.demand_outcome(rsp.outcome, warp, load, array);
            }
            Access::Prefetch | Access::Early => {}
            Access::Store => {
                if rsp.outcome == L1Outcome::WriteEvict {
                    self.m.l1.write_evicts += 1;
                }
            }
        }
        Ok(())
    }

    /// The outcome of warp `warp`'s demand request (load `load` of array
    /// `array`), counted; a hit delivered after the hit latency.
    fn demand_outcome(&mut self, outcome: L1Outcome, warp: u16, load: u32, array: u16) {
        match outcome {
            L1Outcome::Hit => {
                self.m.l1.hits += 1;
                if let Some(a) = self.arrays.get_mut(array as usize) {
                    a.hits += 1;
                }
                let ready = self.now - 1 + self.cfg.l1_hit_latency as u64;
                if ready <= self.now {
                    self.deliver(warp, load);
                } else {
                    self.l1.hitq.push_back((ready, warp, load));
                }
            }
            L1Outcome::Miss => self.m.l1.misses += 1,
            L1Outcome::Bypass => self.m.l1.bypasses += 1,
            L1Outcome::PseudoHit => self.m.l1.pseudo_hits += 1,
            L1Outcome::WriteEvict | L1Outcome::WriteMiss => {}
        }
    }

    /// Line `line` no longer holds data: an installed, unused prefetch of
    /// it was evicted early (one still in flight is counted at its fill).
    fn evicted(&mut self, line: u64) {
        if let Some(info) = self.pf.lines.get(&line) {
            if !info.in_flight {
                self.pf.lines.remove(&line);
                self.pf.m.early_evicted += 1;
                self.pf.evicted_unused.insert(line);
            }
        }
    }
}
