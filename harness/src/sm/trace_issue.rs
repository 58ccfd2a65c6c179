//! Replaying a trace: a warp's next traced instruction, and its issue (a
//! computation timed by its class; a load or store's lines, from the
//! trace, to the load/store unit).

use crate::expr::LANES;
use crate::roles::LoadInfo;
use crate::sched::scheduler::WarpState;
use crate::trace::{ReplayInstr, TraceOp};

use super::expander::ExpanderSide;
use super::state::Sm;
use super::warp::{LoadOut, Warp, BLOCKING};

impl<X: ExpanderSide> Sm<'_, X> {
    /// The warp's next traced instruction, if any.
    pub(super) fn trace_instr<'a>(&'a self, wp: &Warp) -> Option<&'a ReplayInstr> {
        let t = self.k.trace.as_ref()?;
        t.ctas
            .get(wp.tcta as usize)?
            .1
            .get(wp.widx as usize)?
            .get(wp.tpos as usize)
    }

    /// Issue warp `w`'s next traced instruction (none left: it exits).
    pub(super) fn trace_issue(&mut self, w: u16) {
        let wi = w as usize;
        let kernel = self.k;
        let Some(ins) = kernel.trace.as_ref().and_then(|t| {
            let wp = &self.warps[wi];
            t.ctas
                .get(wp.tcta as usize)?
                .1
                .get(wp.widx as usize)?
                .get(wp.tpos as usize)
        }) else {
            self.warps[wi].pc += 1;
            self.exit_warp(w);
            return;
        };
        // Issued with its own mask (the count above used the launch mask).
        self.m.thread_instructions -= self.warps[wi].active.count_ones() as u64;
        self.m.thread_instructions += ins.mask.count_ones() as u64;
        self.warps[wi].tpos += 1;
        let sb_load = ins.op == TraceOp::Load && self.scoreboard;
        if self.timing.timed {
            // A non-blocking load's destinations are the scoreboard's.
            let writes: &[u16] = if sb_load { &[] } else { &ins.writes };
            self.timed_issue(w, ins.class, writes);
        }
        if ins.op != TraceOp::Compute {
            self.trace_mem(w, ins, sb_load);
        }
        let done = self.trace_instr(&self.warps[wi]).is_none();
        if done {
            // The warp exits after its last traced instruction (once its
            // last load has returned).
            self.warps[wi].pc += 1;
        }
        if self.warps[wi].state == WarpState::Ready {
            if self.sb_blocked(w) {
                self.make_ready(w);
            } else if done {
                self.exit_warp(w);
            } else {
                self.update_mem_next(w);
                self.operand_wait(w);
            }
        } else {
            self.update_mem_next(w);
        }
    }

    /// Warp `w`'s traced load or store `ins`: its lines to the load/store
    /// unit; a load blocks the warp, or with `sb_load` its destinations go
    /// on the scoreboard, and is shown to the prefetcher.
    fn trace_mem(&mut self, w: u16, ins: &ReplayInstr, sb_load: bool) {
        let wi = w as usize;
        let n = ins.lines.len().min(LANES);
        self.ldst.lines[..n].copy_from_slice(&ins.lines[..n]);
        self.ldst.firsts[..n].copy_from_slice(&ins.firsts[..n]);
        self.ldst.busy = true;
        self.ldst.warp = w;
        self.ldst.load = BLOCKING;
        self.ldst.pc = ins.pc;
        self.ldst.store = ins.op == TraceOp::Store;
        self.ldst.texture = false;
        self.ldst.array = u16::MAX;
        self.ldst.n = n;
        self.ldst.next = 0;
        self.m.mem_instructions += 1;
        if ins.op != TraceOp::Load {
            return;
        }
        self.sched.load_issued(w, ins.pc);
        let wp = &mut self.warps[wi];
        let (cta, widx) = (wp.cta, wp.widx);
        if sb_load {
            // Non-blocking: the destination group waits on the
            // scoreboard.
            let id = wp.next_load;
            wp.next_load = wp.next_load.wrapping_add(1) % BLOCKING;
            let (dst, ndst) = match (ins.writes.first(), ins.writes.last()) {
                (Some(&a), Some(&b)) => (a, b - a + 1),
                _ => (0, 0),
            };
            let l = LoadOut {
                id,
                dst,
                ndst,
                lines: n as u32,
            };
            for r in l.regs() {
                wp.sb[r] += 1;
            }
            wp.loads_out.push(l);
            self.ldst.load = id;
        } else {
            wp.pending = n as u32;
            wp.pending_misses = 0;
            self.block(w, WarpState::Mem);
        }
        let info = LoadInfo {
            pc: ins.pc as u64,
            cta_slot: cta as u32,
            warp: widx as u32,
            sm_warp: w as u32,
            lines: &ins.lines[..n],
            firsts: &ins.firsts[..n],
            first_addr: ins.first_addr,
            uniform: ins.uniform,
            span: ins.span,
            cta_end: self.cta_end(cta),
            indirect: false,
        };
        if let Some(p) = self.interwarp.as_mut() {
            p.load(self.now, &info);
        }
        if let Some(p) = self.pf.unit.as_mut() {
            p.load(&info);
        }
        self.pf.first_load.get_or_insert(self.now);
    }
}
