//! DAC's dequeue port (see `dac_side`): the warps whose decoupled load,
//! store or branch waits for the unit's address records or mask, served
//! round robin one dequeue a cycle; every record and mask checked against
//! the lanes the warp computes itself; a warp whose records are complete
//! queued for the load/store unit.

use crate::decouple::Step;
use crate::error::HarnessError;
use crate::expr::{eval, LANES};
use crate::kernel::{zero_divisor_error, Instr};
use crate::roles::TupleKind;
use crate::sched::scheduler::WarpState;

use super::dac_side::{Client, DacSide};
use super::state::Sm;
use super::warp::{truth_mask, BLOCKING};

impl Sm<'_, DacSide> {
    /// This cycle's `cta_done`, the previous dequeue's response and this
    /// cycle's dequeue.
    pub(super) fn dac_cycle(&mut self) -> Result<(), HarnessError> {
        self.dac_close_batch();
        let d = &mut self.xp;
        if let Some(dec) = d.dec.as_ref() {
            d.unit.shape(dec.plan.shape);
        }
        if let Some(slot) = d.done_q.pop_front() {
            d.unit.cta_done(slot);
        }
        if let Some(client) = d.sent.take() {
            let rsp = d.unit.response().ok_or_else(|| {
                HarnessError::Internal(format!(
                    "cycle {}: the expansion unit gave no response to a dequeue",
                    self.now
                ))
            })?;
            if !rsp.hit {
                d.m.deq_misses += 1;
                d.clients.retain(|&c| c != client);
                d.clients.push_back(client);
                let idle = !d.dec.as_ref().is_some_and(|x| x.aw.running())
                    && d.unit.tuples_held() == 0
                    && !d.launching;
                d.starved = if idle { d.starved + 1 } else { 0 };
                if d.starved > 4 {
                    return Err(HarnessError::Deadlock {
                        cycle: self.now,
                        detail: format!(
                            "DAC: {client:?} waits for a record or mask the affine warp never \
                             enqueued"
                        ),
                    });
                }
            } else {
                d.starved = 0;
                match client {
                    Client::Addr(w) => {
                        self.dac_record(w, rsp.addr, rsp.mask, rsp.size, rsp.last)?
                    }
                    Client::Pred(w) => self.dac_branch_done(w, rsp.mask)?,
                }
            }
        }
        let d = &mut self.xp;
        if let Some(&c) = d.clients.front() {
            let (w, pred) = match c {
                Client::Addr(w) => (w, false),
                Client::Pred(w) => (w, true),
            };
            let wp = &self.warps[w as usize];
            let unit_warp = wp.cta as u32 * self.wpc + wp.widx as u32;
            d.unit.dequeue(unit_warp, pred);
            d.sent = Some(c);
        }
        Ok(())
    }

    /// An address record for warp `w`'s load or store.
    fn dac_record(
        &mut self,
        w: u16,
        addr: u64,
        mask: u32,
        size: u32,
        last: bool,
    ) -> Result<(), HarnessError> {
        let lm = self.line_mask;
        let d = &mut self.xp;
        d.m.records += 1;
        let q = &mut d.pw[w as usize];
        if size != q.size {
            let want = q.size;
            return Err(self.dac_mismatch(
                w,
                format!("a record of access size {size} for an access of {want} bytes"),
            ));
        }
        for j in 0..32u64 {
            if mask & (1 << j) != 0 {
                q.got.push((addr + j * size as u64) & 0xFFFF_FFFF);
            }
        }
        let line = addr & lm;
        match q.lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, n)) => *n += 1,
            None => q.lines.push((line, 1)),
        }
        if q.lines.len() > LANES {
            return Err(self.dac_mismatch(w, "more than 32 lines".into()));
        }
        if !last {
            // Stays at the front of the queue for its next record.
            d.clients.retain(|&c| c != Client::Addr(w));
            d.clients.push_front(Client::Addr(w));
            return Ok(());
        }
        d.clients.retain(|&c| c != Client::Addr(w));
        q.got.sort_unstable();
        q.got.dedup();
        if q.got != q.expect {
            let (e, g) = (q.expect.clone(), q.got.clone());
            return Err(self.dac_mismatch(
                w,
                format!(
                    "the records name the chunks {} but the warp's lanes access {}",
                    chunks(&g),
                    chunks(&e)
                ),
            ));
        }
        d.ldst_q.push_back(w);
        Ok(())
    }

    fn dac_mismatch(&self, w: u16, what: String) -> HarnessError {
        let pc = self.xp.pw[w as usize].pc;
        let line = match self.prog.instrs[pc as usize] {
            Instr::Load { mem, .. } | Instr::Store { mem, .. } => self.prog.mems[mem as usize].line,
            _ => 0,
        };
        HarnessError::Unsupported(format!(
            "DAC: kernel {} line {line}, warp {w}: {what} (a value beyond 32 bits?)",
            self.k.name
        ))
    }

    /// A warp issued a load or store at `pc` whose lines `mem_instr` put in
    /// the load/store unit: if it is decoupled, the unit is released and
    /// the warp waits for its records instead (checked against these
    /// lanes), then for the load/store unit. Returns whether it was
    /// decoupled.
    pub(super) fn dac_mem_issued(&mut self, w: u16, pc: u32) -> bool {
        let d = &mut self.xp;
        let Some(Step::Enq { kind, size, .. }) = d.step_of(pc) else {
            // Not decoupled: it holds the load/store unit, with no locks.
            d.ldst_data = false;
            return false;
        };
        let (array, index) = match self.prog.instrs[pc as usize] {
            Instr::Load { array, index, .. } | Instr::Store { array, index, .. } => (array, index),
            _ => return false,
        };
        d.m.decoupled_mem_instructions += 1;
        let a = &self.k.arrays[array as usize];
        let wp = &mut self.warps[w as usize];
        let z = eval(&self.prog.ops, index, &wp.regs, &mut self.stack) & wp.active;
        if z != 0 && self.fault.is_none() {
            self.fault = Some(zero_divisor_error(self.k, index, z, w, self.now));
        }
        let q = &mut d.pw[w as usize];
        q.data = kind == TupleKind::Data;
        q.store = self.ldst.store;
        q.array = array;
        q.size = size;
        q.pc = pc;
        q.lines.clear();
        q.expect.clear();
        q.got.clear();
        for lane in 0..LANES {
            if wp.active & (1 << lane) != 0 {
                let addr = a
                    .base
                    .wrapping_add((self.stack[0][lane] as u64).wrapping_mul(a.elem as u64))
                    & 0xFFFF_FFFF;
                q.expect.push(addr & !(size as u64 - 1));
            }
        }
        q.expect.sort_unstable();
        q.expect.dedup();
        // With non-blocking loads a decoupled load still holds its warp
        // until its data is back (its lines come with its records): it
        // leaves the scoreboard.
        if self.scoreboard && kind == TupleKind::Data {
            if let Some(l) = wp.loads_out.pop() {
                for r in l.regs() {
                    wp.sb[r] -= 1;
                }
            }
        }
        // The load/store unit is not held while the records come. The
        // wait counts as a long one (the two-level scheduler demotes the
        // warp, as for a miss).
        self.ldst.busy = false;
        wp.pending = 1;
        wp.pending_misses = 1;
        d.clients.push_back(Client::Addr(w));
        self.block(w, WarpState::Mem);
        true
    }

    /// The load/store unit is free: give it the next warp whose records
    /// are complete. A store's warp goes on; a load's waits for its lines.
    pub(super) fn dac_ldst_take(&mut self) {
        let d = &mut self.xp;
        let Some(w) = d.ldst_q.pop_front() else {
            return;
        };
        let q = &mut d.pw[w as usize];
        let n = q.lines.len();
        for (i, &(line, records)) in q.lines.iter().enumerate() {
            self.ldst.lines[i] = line;
            d.ldst_records[i] = records;
        }
        d.ldst_data = q.data;
        self.ldst.busy = true;
        self.ldst.warp = w;
        self.ldst.load = BLOCKING;
        self.ldst.pc = match self.prog.instrs[q.pc as usize] {
            Instr::Load { mem, .. } | Instr::Store { mem, .. } => self.prog.pcs_of_mem(mem),
            _ => 0,
        };
        self.ldst.store = q.store;
        self.ldst.texture = false;
        self.ldst.array = q.array;
        self.ldst.n = n;
        self.ldst.next = 0;
        let wp = &mut self.warps[w as usize];
        wp.pending_misses = 0;
        if q.store {
            wp.pending = 0;
            if wp.state == WarpState::Mem {
                self.make_ready(w);
            }
        } else {
            wp.pending = n as u32;
        }
    }

    /// Warp `w` issued the branch at its PC: if it is decoupled, the warp
    /// waits for its mask. Returns whether it was.
    pub(super) fn dac_branch_issued(&mut self, w: u16) -> bool {
        let pc = self.warps[w as usize].pc;
        let d = &mut self.xp;
        if !matches!(d.step_of(pc), Some(Step::EnqPred { .. } | Step::LoopBack)) {
            return false;
        }
        d.m.decoupled_branches += 1;
        d.clients.push_back(Client::Pred(w));
        let wp = &mut self.warps[w as usize];
        wp.pending = 1;
        // A long wait for the two-level scheduler (see `dac_mem_issued`).
        wp.pending_misses = 1;
        self.block(w, WarpState::Mem);
        true
    }

    /// Warp `w`'s branch mask arrived: take the branch (checked against the
    /// condition the warp computes).
    fn dac_branch_done(&mut self, w: u16, mask: u32) -> Result<(), HarnessError> {
        let d = &mut self.xp;
        d.m.masks += 1;
        d.clients.retain(|&c| c != Client::Pred(w));
        let wi = w as usize;
        let pc = self.warps[wi].pc;
        let wp = &mut self.warps[wi];
        let own = match self.prog.instrs[pc as usize] {
            Instr::If { cond, .. } => {
                let z = eval(&self.prog.ops, cond, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, cond, z, w, self.now));
                }
                truth_mask(&self.stack[0]) & wp.active
            }
            // The counter is the warp's own (loop starts are in both
            // streams): advanced here, for free.
            Instr::LoopEnd { var, end, step, .. } => wp.count_loop(var, end, step),
            _ => {
                return Err(HarnessError::Internal(format!(
                    "DAC: warp {w} waits for a mask at instruction {pc}, not a branch"
                )))
            }
        };
        if own != mask {
            return Err(HarnessError::Unsupported(format!(
                "DAC: kernel {}, the branch at instruction {pc}: the unit's mask {mask:#010x} \
                 differs from warp {w}'s {own:#010x} (a value beyond 32 bits?)",
                self.k.name
            )));
        }
        match self.prog.instrs[pc as usize] {
            Instr::If { else_at, .. } => wp.take_if(mask, else_at),
            Instr::LoopEnd { body_at, .. } => wp.take_loop_back(mask, body_at),
            _ => {}
        }
        wp.pending = 0;
        wp.pending_misses = 0;
        self.settle(w);
        if self.warps[wi].state == WarpState::Mem {
            self.make_ready(w);
        }
        Ok(())
    }
}

/// The first chunk addresses of `v`, for an error message.
fn chunks(v: &[u64]) -> String {
    let shown: Vec<String> = v.iter().take(6).map(|a| format!("{a:#x}")).collect();
    format!(
        "{}{} ({} in all)",
        shown.join(", "),
        if v.len() > 6 { ", ..." } else { "" },
        v.len()
    )
}
