//! Executing a warp's instructions: the free ones at its PC (control flow
//! of the SIMT stack, and the `let`s the expander computes for it) and the
//! one the scheduler issued (computation, branches and loops, barriers,
//! loads and stores, traced instructions).

use crate::config::InstrClass;
use crate::expr::{eval, Code};
use crate::kernel::{zero_divisor_error, Instr};
use crate::sched::scheduler::WarpState;

use super::expander::ExpanderSide;
use super::state::Sm;
use super::warp::{loop_mask, truth_mask, write_masked, Frame};

impl<X: ExpanderSide> Sm<'_, X> {
    /// Execute the free instructions at the warp's PC: control, and the
    /// `let`s the expander computes (evaluated, not issued: the expander's
    /// results are checked against the values).
    pub(super) fn settle(&mut self, w: u16) {
        let wp = &mut self.warps[w as usize];
        loop {
            match self.prog.instrs[wp.pc as usize] {
                // A value's first use: the warp stops here while a load
                // writing it is in flight (non-blocking loads only).
                Instr::Use { reg } => {
                    if wp.sb[reg as usize] > 0 {
                        break;
                    }
                    wp.pc += 1;
                }
                Instr::Let { dst, code } if self.xp.skips(wp.pc) => {
                    let z = eval(&self.prog.ops, code, &wp.regs, &mut self.stack) & wp.active;
                    if z != 0 && self.fault.is_none() {
                        self.fault = Some(zero_divisor_error(self.k, code, z, w, self.now));
                    }
                    write_masked(&mut wp.regs[dst as usize], &self.stack[0], wp.active);
                    wp.pc += 1;
                    self.xp.count_skipped();
                }
                // Address arithmetic: free when `address_arithmetic` is
                // off; skipped when DAC's affine warp computes the address
                // (the load or store it belongs to is decoupled).
                Instr::Compute { n, .. } if self.prog.info[wp.pc as usize].addr => {
                    let charged = self.cfg.address_arithmetic && self.k.address_arithmetic;
                    if charged && !self.xp.skips(wp.pc) {
                        break;
                    }
                    if charged {
                        for _ in 0..n {
                            self.xp.count_skipped();
                        }
                    }
                    wp.pc += 1;
                }
                Instr::Else { end_at } => {
                    let f = *wp.stack.last().expect("if frame");
                    wp.active = f.other;
                    if wp.active == 0 {
                        wp.pc = end_at;
                    } else {
                        wp.pc += 1;
                    }
                }
                Instr::EndIf => {
                    let f = wp.stack.pop().expect("if frame");
                    wp.active = f.saved;
                    wp.pc += 1;
                }
                _ => break,
            }
        }
    }

    /// Issue warp `w`'s instruction.
    pub(super) fn issue(&mut self, w: u16) {
        let prog = self.prog;
        let wi = w as usize;
        let pc = self.warps[wi].pc;
        let ins = prog.instrs[pc as usize];
        self.m.warp_instructions += 1;
        self.m.thread_instructions += self.warps[wi].active.count_ones() as u64;
        if self.timing.timed && !matches!(ins, Instr::Compute { .. } | Instr::Trace) {
            let writes = std::mem::take(&mut self.writes[pc as usize]);
            self.timed_issue(w, InstrClass::Alu, &writes);
            self.writes[pc as usize] = writes;
        }
        match ins {
            Instr::Compute { n, class } => {
                if self.timing.timed {
                    // Address arithmetic writes the address its access
                    // reads; other computations write nothing modelled.
                    let writes = std::mem::take(&mut self.writes[pc as usize]);
                    self.timed_issue(w, class, &writes);
                    self.writes[pc as usize] = writes;
                }
                if prog.info[pc as usize].addr {
                    self.m.address_instructions += 1;
                }
                let wp = &mut self.warps[wi];
                if wp.compute_left == 0 {
                    wp.compute_left = n;
                }
                wp.compute_left -= 1;
                if wp.compute_left > 0 {
                    return;
                }
                wp.pc += 1;
            }
            Instr::Let { dst, code } => {
                let wp = &mut self.warps[wi];
                let z = eval(&prog.ops, code, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, code, z, w, self.now));
                }
                write_masked(&mut wp.regs[dst as usize], &self.stack[0], wp.active);
                wp.pc += 1;
            }
            Instr::If { .. } if X::branch_issued(self, w) => return,
            Instr::If { cond, else_at } => {
                let wp = &mut self.warps[wi];
                let z = eval(&prog.ops, cond, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, cond, z, w, self.now));
                }
                let m = truth_mask(&self.stack[0]) & wp.active;
                wp.take_if(m, else_at);
            }
            Instr::LoopBegin {
                var,
                end,
                start,
                bound,
                step,
                exit_at,
            } => self.loop_begin(w, [var, end], [start, bound], step, exit_at),
            Instr::LoopEnd { .. } if X::branch_issued(self, w) => return,
            Instr::LoopEnd {
                var,
                end,
                step,
                body_at,
            } => {
                let wp = &mut self.warps[wi];
                let m = wp.count_loop(var, end, step);
                wp.take_loop_back(m, body_at);
            }
            Instr::Barrier => {
                let slot = self.warps[wi].cta as usize;
                self.warps[wi].pc += 1;
                self.settle(w);
                self.block(w, WarpState::Barrier);
                self.ctas[slot].at_barrier += 1;
                self.check_barrier(slot);
                return;
            }
            Instr::Load {
                array,
                index,
                dst,
                mem,
            } => {
                self.issue_load(w, pc, array, index, dst, mem);
                return;
            }
            Instr::Store { array, index, mem } => {
                self.mem_instr(w, array, index, None, mem, true);
                X::mem_issued(self, w, pc);
                self.warps[wi].pc += 1;
            }
            Instr::Trace => {
                self.trace_issue(w);
                return;
            }
            Instr::Else { .. } | Instr::EndIf | Instr::Exit | Instr::Use { .. } => {
                unreachable!("free instructions are settled")
            }
        }
        self.settle(w);
        if self.warps[wi].state == WarpState::Ready {
            if self.sb_blocked(w) {
                self.make_ready(w);
            } else if matches!(prog.instrs[self.warps[wi].pc as usize], Instr::Exit) {
                self.exit_warp(w);
            } else {
                self.update_mem_next(w);
                self.operand_wait(w);
            }
        }
    }

    /// A loop's start: the counter `var` and the bound `end` set from the
    /// expressions `start` and `bound`; the lanes that enter the loop, or
    /// on to `exit_at` when none do.
    fn loop_begin(
        &mut self,
        w: u16,
        [var, end]: [u16; 2],
        [start, bound]: [Code; 2],
        step: i64,
        exit_at: u32,
    ) {
        let prog = self.prog;
        let wp = &mut self.warps[w as usize];
        let mut z = eval(&prog.ops, start, &wp.regs, &mut self.stack) & wp.active;
        write_masked(&mut wp.regs[var as usize], &self.stack[0], wp.active);
        z |= eval(&prog.ops, bound, &wp.regs, &mut self.stack) & wp.active;
        if z != 0 && self.fault.is_none() {
            self.fault = Some(zero_divisor_error(self.k, start, z, w, self.now));
        }
        write_masked(&mut wp.regs[end as usize], &self.stack[0], wp.active);
        let m = loop_mask(&wp.regs[var as usize], &wp.regs[end as usize], step) & wp.active;
        if m == 0 {
            wp.pc = exit_at;
        } else {
            wp.stack.push(Frame {
                saved: wp.active,
                other: 0,
            });
            wp.active = m;
            wp.pc += 1;
        }
    }

    /// Warp `w` issues the load at `pc`: its lines to the load/store unit
    /// (or to the expander), then the warp waits for them or, with
    /// non-blocking loads, goes on.
    fn issue_load(&mut self, w: u16, pc: u32, array: u16, index: Code, dst: Option<u16>, mem: u16) {
        let wi = w as usize;
        self.mem_instr(w, array, index, dst, mem, false);
        X::mem_issued(self, w, pc);
        self.sched.load_issued(w, pc);
        self.warps[wi].pc += 1;
        self.settle(w);
        if self.warps[wi].state == WarpState::Ready && self.sb_blocked(w) {
            self.make_ready(w);
        }
        self.update_mem_next(w);
        if self.warps[wi].state == WarpState::Ready {
            self.operand_wait(w);
        }
    }
}
