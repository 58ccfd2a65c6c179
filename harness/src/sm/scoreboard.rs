//! When a warp may issue: ready unless its next instruction reads a
//! register a load in flight writes (non-blocking loads, `loads =
//! scoreboard`), or, with instruction timing, until its operands are ready
//! and the pipeline it needs is free; what its next instruction needs
//! (the load/store unit, a pipeline).

use crate::config::InstrClass;
use crate::kernel::Instr;
use crate::sched::scheduler::WarpState;
use crate::trace::TraceOp;

use super::expander::ExpanderSide;
use super::state::Sm;

impl<X: ExpanderSide> Sm<'_, X> {
    /// Warp `w` may go on: it settles, then issues (ready), waits for a
    /// load's value, or exits.
    pub(super) fn make_ready(&mut self, w: u16) {
        self.settle(w);
        if self.sb_blocked(w) {
            // Waits for a load's value (non-blocking loads).
            let wp = &mut self.warps[w as usize];
            wp.state = WarpState::Mem;
            wp.sb_wait = true;
            self.ready &= !(1u64 << w);
            return;
        }
        let wp = &mut self.warps[w as usize];
        wp.sb_wait = false;
        if matches!(self.prog.instrs[wp.pc as usize], Instr::Exit) {
            self.exit_warp(w);
            return;
        }
        wp.state = WarpState::Ready;
        self.ready |= 1u64 << w;
        self.update_mem_next(w);
        self.operand_wait(w);
    }

    /// Instruction timing: warp `w` (ready) waits until its next
    /// instruction's operands are ready (the registers it reads or
    /// writes).
    pub(super) fn operand_wait(&mut self, w: u16) {
        if !self.timing.timed {
            return;
        }
        let wp = &self.warps[w as usize];
        let pc = wp.pc as usize;
        let regs: &[u16] = match self.prog.instrs[pc] {
            Instr::Trace => match self.trace_instr(wp) {
                Some(i) => {
                    let t = i
                        .reads
                        .iter()
                        .chain(&i.writes)
                        .map(|&r| wp.ready_at[r as usize]);
                    let wake = t.max().unwrap_or(0);
                    self.wait_until(w, wake);
                    return;
                }
                None => &[],
            },
            _ => &self.reads[pc],
        };
        let wake = regs
            .iter()
            .chain(&self.writes[pc])
            .map(|&r| wp.ready_at[r as usize])
            .max()
            .unwrap_or(0);
        self.wait_until(w, wake);
    }

    fn wait_until(&mut self, w: u16, wake: u64) {
        if wake > self.now + 1 {
            self.warps[w as usize].wake_at = wake;
            self.ready &= !(1u64 << w);
            self.timing.lat_wait |= 1u64 << w;
        }
    }

    /// Instruction timing: the warps whose operands are ready by now can
    /// issue again.
    pub(super) fn operand_wakeups(&mut self) {
        let mut m = self.timing.lat_wait;
        while m != 0 {
            let w = m.trailing_zeros() as u16;
            m &= m - 1;
            let wp = &self.warps[w as usize];
            if wp.wake_at <= self.now {
                self.timing.lat_wait &= !(1u64 << w);
                if wp.state == WarpState::Ready {
                    self.ready |= 1u64 << w;
                }
            }
        }
    }

    /// Instruction timing: an instruction of `class` writing `regs` issued
    /// now.
    pub(super) fn timed_issue(&mut self, w: u16, class: InstrClass, regs: &[u16]) {
        let lat = class.latency(&self.cfg.lat) as u64;
        let wp = &mut self.warps[w as usize];
        for &r in regs {
            wp.ready_at[r as usize] = self.now + lat;
        }
        if let Some(p) = class.pipe() {
            self.timing.pipe_free[p] = self.now + InstrClass::intervals(&self.cfg.lat)[p] as u64;
        }
    }

    /// With non-blocking loads: warp `w`'s next instruction reads a
    /// register a load in flight writes, or is its exit while loads are in
    /// flight.
    pub(super) fn sb_blocked(&self, w: u16) -> bool {
        if !self.scoreboard {
            return false;
        }
        let wp = &self.warps[w as usize];
        if wp.loads_out.is_empty() {
            return false;
        }
        let pc = wp.pc as usize;
        match self.prog.instrs[pc] {
            Instr::Exit => true,
            // A traced instruction reading a loaded register, or writing
            // one a load in flight writes.
            Instr::Trace => self.trace_instr(wp).is_some_and(|i| {
                i.reads
                    .iter()
                    .chain(&i.writes)
                    .any(|&r| wp.sb[r as usize] > 0)
            }),
            _ => self.reads[pc]
                .iter()
                .chain(&self.writes[pc])
                .any(|&r| wp.sb[r as usize] > 0),
        }
    }

    /// Record what warp `w`'s next instruction needs: the load/store unit
    /// (`mem_next`), a special pipeline (`pipe_next`).
    pub(super) fn update_mem_next(&mut self, w: u16) {
        let wp = &self.warps[w as usize];
        let (is_mem, class) = match self.prog.instrs[wp.pc as usize] {
            Instr::Load { .. } | Instr::Store { .. } => (true, InstrClass::Alu),
            Instr::Compute { class, .. } => (false, class),
            Instr::Trace => self.trace_instr(wp).map_or((false, InstrClass::Alu), |i| {
                (i.op != TraceOp::Compute, i.class)
            }),
            _ => (false, InstrClass::Alu),
        };
        let bit = 1u64 << w;
        if is_mem {
            self.mem_next |= bit;
        } else {
            self.mem_next &= !bit;
        }
        if self.timing.timed {
            for (p, m) in self.timing.pipe_next.iter_mut().enumerate() {
                if class.pipe() == Some(p) {
                    *m |= bit;
                } else {
                    *m &= !bit;
                }
            }
        }
    }

    /// Warp `w` leaves the ready set in state `s`.
    pub(super) fn block(&mut self, w: u16, s: WarpState) {
        self.warps[w as usize].state = s;
        self.ready &= !(1u64 << w);
    }
}
