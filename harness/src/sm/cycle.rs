//! The SM's cycle (the steps in the `sm` module's documentation), the
//! units' clock edge, idle cycles (skipped, or a deadlock), and the run's
//! end.

use crate::error::HarnessError;
use crate::metrics::{ratio, L1Metrics, MemMetrics, Metrics};
use crate::options::{Progress, ProgressFn};
use crate::roles::Pressure;
use crate::sched::scheduler::WarpState;

use super::expander::ExpanderSide;
use super::state::Sm;

impl<X: ExpanderSide> Sm<'_, X> {
    /// Whether idle cycles may be skipped: fast-forward is on and no unit
    /// model needs every cycle.
    pub(super) fn can_skip(&self) -> bool {
        self.cfg.fast_forward
            && !self.pf.unit.as_ref().is_some_and(|p| p.needs_every_cycle())
            && !self.l1.tags.needs_every_cycle()
            && !self.xp.needs_every_cycle()
    }

    /// Simulate one cycle (or, with `can_skip`, jump over idle ones);
    /// true when the SM has finished: every CTA it will run is done.
    pub(super) fn cycle(&mut self, can_skip: bool) -> Result<bool, HarnessError> {
        let in_reset = self.now < self.cfg.reset_cycles as u64;
        let mut issued = false;
        if !in_reset {
            self.mem_returns();
            self.l1_response()?;
            self.hit_completions();
            self.texture_hits();
            X::before_launch(self);
            self.launch_cta();
            X::after_launch(self)?;
            self.l1_port();
            issued = X::issue(self)? || self.schedule();
            if let Some(e) = self.fault.take() {
                return Err(e);
            }
        }
        self.step_units(in_reset)?;
        if !in_reset && self.all_done() && !self.ldst.busy {
            self.now += 1;
            return Ok(true);
        }
        if !in_reset && !issued {
            self.check_idle(can_skip)?;
        }
        self.now += 1;
        if self.now > self.cfg.max_cycles {
            return Err(HarnessError::CycleLimit {
                file: self.k.file.clone(),
                cycles: self.cfg.max_cycles,
                ctas_done: self.ctas_done,
                ctas: self.ctas_here,
            });
        }
        Ok(false)
    }

    /// CTAs finished here.
    pub(super) fn ctas_done(&self) -> u64 {
        self.ctas_done
    }

    /// Run to completion (a one-SM run).
    pub(super) fn run(
        mut self,
        progress: &mut Option<ProgressFn<'_>>,
        progress_interval: u64,
    ) -> Result<Metrics, HarnessError> {
        let can_skip = self.can_skip();
        let mut next_progress = progress_interval.max(1);
        while !self.cycle(can_skip)? {
            if self.now >= next_progress {
                if let Some(cb) = progress.as_mut() {
                    cb(&Progress {
                        cycle: self.now,
                        ctas_done: self.ctas_done,
                        ctas: self.ctas_here,
                    });
                }
                next_progress = self.now + progress_interval.max(1);
            }
        }
        self.finish()
    }

    /// Step 9: the units' clock edge (the expander, the prefetcher, the
    /// L1), the prefetcher told the pressure on the L1 and the memory.
    fn step_units(&mut self, in_reset: bool) -> Result<(), HarnessError> {
        self.xp.step(in_reset)?;
        self.lift_cap(in_reset);
        if let Some(p) = self.pf.unit.as_mut() {
            let cache_full = self.l1.tags.cache_full();
            if cache_full {
                self.pf.m.cache_full_cycles += 1;
            }
            p.pressure(Pressure {
                cache_full,
                bw_util: if in_reset {
                    0
                } else {
                    self.mem.borrow_mut().bw_util(self.port, self.now)
                },
            });
            p.step(in_reset)?;
        }
        self.l1.tags.step(in_reset)
    }

    /// The decoupled L1's cap until trained (`decoupled.rs`) lifts at the
    /// prefetcher's first offered prefetch or `decoupled_cap_cycles`
    /// cycles after the SM's first demand load (0: never by time),
    /// whichever comes first; told to the L1 once, and counted.
    fn lift_cap(&mut self, in_reset: bool) {
        if self.pf.cap_lifted || in_reset {
            return;
        }
        let offered = self.pf.unit.as_ref().is_some_and(|p| p.offer().is_some());
        let cap = self.cfg.decoupled_cap_cycles as u64;
        let timed_out = cap > 0 && self.pf.first_load.is_some_and(|t| self.now >= t + cap);
        if offered || timed_out {
            self.pf.cap_lifted = true;
            self.pf.m.cap_lift_cycle = self.now;
            if offered {
                self.pf.m.cap_lifted_by_prefetch += 1;
            } else {
                self.pf.m.cap_lifted_by_time += 1;
            }
            self.l1.tags.prefetcher_trained();
        }
    }

    /// Nothing issued this cycle: when nothing can happen before some later
    /// cycle, skip to it (with `can_skip`); when nothing can happen at all,
    /// a deadlock.
    fn check_idle(&mut self, can_skip: bool) -> Result<(), HarnessError> {
        if self.ready != 0 || self.ldst.busy || self.l1.last_access.is_some() || self.can_launch() {
            return Ok(());
        }
        let mut next = u64::MAX;
        if let Some(&(t, _, _)) = self.l1.hitq.front() {
            next = next.min(t);
        }
        if let Some(t) = self.tex.next_hit() {
            next = next.min(t);
        }
        let mut m = self.timing.lat_wait;
        while m != 0 {
            let w = m.trailing_zeros() as usize;
            m &= m - 1;
            next = next.min(self.warps[w].wake_at);
        }
        if let Some(t) = self.mem.borrow().next_event(self.now) {
            next = next.min(t);
        }
        if next == u64::MAX {
            // The prefetcher or the expander has work under way.
            if self.pf.unit.as_ref().is_some_and(|p| p.busy()) || X::busy(self) {
                return Ok(());
            }
            return Err(self.deadlock());
        }
        if can_skip && next > self.now + 1 {
            // The skipped cycles are idle ones.
            self.m.sched.idle_cycles += next - 1 - self.now;
            self.now = next - 1;
        }
        Ok(())
    }

    /// The deadlock error: no warp can issue and nothing is in flight.
    fn deadlock(&self) -> HarnessError {
        let waiting: Vec<String> = self
            .warps
            .iter()
            .enumerate()
            .filter(|(_, w)| matches!(w.state, WarpState::Mem | WarpState::Barrier))
            .map(|(i, w)| format!("warp {i} ({:?} at instruction {})", w.state, w.pc))
            .take(8)
            .collect();
        HarnessError::Deadlock {
            cycle: self.now,
            detail: format!(
                "no warp can issue and nothing is in flight; waiting: {}",
                waiting.join(", ")
            ),
        }
    }

    /// The SM's metrics at the end of the run.
    pub(super) fn finish(mut self) -> Result<Metrics, HarnessError> {
        let cycles = self.now;
        let m = &mut self.m;
        m.cycles = cycles;
        m.ipc = ratio(m.warp_instructions, cycles);
        m.texture.rate();
        let l: &mut L1Metrics = &mut m.l1;
        l.set_miss_rates();
        (l.burst_peak, l.burst_cv) = std::mem::take(&mut self.bursts).finish(cycles);
        (l.mshr_peak, l.mshr_mean) = self.l1.mshr_occupancy(cycles);
        let mm: &mut MemMetrics = &mut m.memory;
        mm.bandwidth_utilisation = self.mem.borrow().link_utilisation(self.port, cycles);
        mm.lower = self.mem.borrow().stats();
        mm.l2_miss_rate = if mm.lower.l2_reads == 0 {
            0.0
        } else {
            1.0 - ratio(mm.lower.l2_read_hits, mm.lower.l2_reads)
        };
        if let Some(pf) = self.pf.unit.as_mut() {
            pf.finish()?;
            let mut p = std::mem::take(&mut self.pf.m);
            p.unused_at_end = self.pf.lines.len() as u64;
            p.early_evicted_never = p.early_evicted - p.early_evicted_demanded;
            let used = p.useful + p.late;
            p.coverage = ratio(used, m.l1.accesses);
            p.accuracy = ratio(used, p.issued);
            p.timely_per_demand = ratio(p.useful, m.l1.accesses);
            p.issued_per_demand = ratio(p.issued, m.l1.accesses);
            p.caps_coverage = ratio(p.offered, m.l1.accesses);
            p.avg_distance = ratio(self.pf.distance_sum, used);
            p.counts = pf.counts();
            m.prefetch = Some(p);
        }
        self.l1.tags.finish()?;
        X::finish(&mut self)?;
        let m = &mut self.m;
        m.l1.counts = self.l1.tags.counts();
        m.reuse = self.reuse.take().map(|r| r.finish(&self.prog.mems));
        m.interwarp = self.interwarp.take().map(|p| p.finish());
        m.arrays = std::mem::take(&mut self.arrays);
        Ok(std::mem::take(&mut self.m))
    }
}
