//! CTAs (step 5): dealing them to the SM, launching one into a free slot
//! with its warps' registers set (thread and CTA indices), a warp's exit,
//! the CTA's end, and the barrier.
//!
//! **Warp slots.** A CTA launches into the lowest free CTA slot `s`, and
//! its warp `widx` takes warp slot `s * wpc + widx` (`wpc` warps per CTA):
//! CTA slot `s` always holds the contiguous warp slots `[s * wpc, (s + 1) *
//! wpc)`, and `(s + 1) * wpc` is Snake's `ld_cta_end` ([`Sm::cta_end`]).
//! They fit: the SM has `occupancy` CTA slots, at most `max_warps / wpc`
//! (`harness/src/occupancy.rs`), and a CTA only launches into one of them.
//! (Revision 1 took the lowest free warp slots, which is the same
//! assignment, since a CTA's warps are freed together when it ends; it is
//! now the rule rather than a consequence.)

use crate::expr::LANES;
use crate::kernel::{REG_CTAID, REG_TID};
use crate::roles::default_leading_warp;
use crate::sched::scheduler::WarpState;

use super::expander::ExpanderSide;
use super::state::Sm;

impl<X: ExpanderSide> Sm<'_, X> {
    /// A CTA can launch this cycle.
    pub(super) fn can_launch(&self) -> bool {
        self.can_launch_later()
            && self.live_ctas < self.occ
            && self.free_warps.count_ones() >= self.wpc
            && self.xp.allows_launch()
    }

    /// CTAs remain to be launched (here, or anywhere in an all-SM run).
    pub(super) fn can_launch_later(&self) -> bool {
        match &self.deal {
            Some(d) => d.get() < self.ctas_here,
            None => self.next_cta_k < self.ctas_here,
        }
    }

    /// This SM's next CTA: its id in the grid.
    fn take_cta(&mut self) -> u64 {
        self.next_cta_k += 1;
        match &self.deal {
            Some(d) => {
                let id = d.get();
                d.set(id + 1);
                id
            }
            None => self.cfg.sm_id as u64 + (self.next_cta_k - 1) * self.cfg.n_sm as u64,
        }
    }

    /// One past the last warp slot of the CTA in slot `slot` (Snake's
    /// `ld_cta_end`; module documentation).
    pub(super) fn cta_end(&self, slot: u16) -> u32 {
        (slot as u32 + 1) * self.wpc
    }

    /// Every CTA this SM will run is done.
    pub(super) fn all_done(&self) -> bool {
        !self.can_launch_later() && self.live_ctas == 0
    }

    /// Launch the next CTA into a free slot, if one can launch.
    pub(super) fn launch_cta(&mut self) {
        if !self.can_launch() {
            return;
        }
        let slot = self.ctas.iter().position(|c| !c.live).expect("free slot");
        let cta_id = self.take_cta();
        self.live_ctas += 1;
        if let Some(p) = self.interwarp.as_mut() {
            p.launch(slot, cta_id);
        }
        let g = self.k.grid;
        let ctaid = [
            (cta_id % g[0] as u64) as i64,
            ((cta_id / g[0] as u64) % g[1] as u64) as i64,
            (cta_id / (g[0] as u64 * g[1] as u64)) as i64,
        ];
        let tcta = self
            .k
            .trace
            .as_ref()
            .and_then(|t| t.cta_index(cta_id))
            .map(|i| i as u32)
            .unwrap_or(u32::MAX);
        let mut ws = std::mem::take(&mut self.ctas[slot].warps);
        ws.clear();
        for widx in 0..self.wpc {
            let w = (slot as u32 * self.wpc + widx) as u16;
            debug_assert!(self.free_warps & (1u64 << w) != 0, "warp slot {w} in use");
            self.free_warps &= !(1u64 << w);
            ws.push(w);
            self.launch_warp(w, slot, widx, ctaid, tcta);
        }
        let c = &mut self.ctas[slot];
        c.warps = ws;
        c.live = true;
        c.done = 0;
        c.at_barrier = 0;
        for i in 0..self.wpc as usize {
            let w = self.ctas[slot].warps[i];
            self.settle(w);
            if self.k.trace.is_some() && self.trace_instr(&self.warps[w as usize]).is_none() {
                // An untraced warp has nothing to do.
                self.warps[w as usize].pc = 1;
            }
            self.make_ready(w);
        }
        if let Some(p) = self.pf.unit.as_mut() {
            p.cta_launch(slot as u32);
        }
        X::cta_launched(self, slot, ctaid);
    }

    /// Warp `widx` of the CTA `ctaid` launching into CTA slot `slot` takes
    /// warp slot `w`: its registers hold its threads' indices; the
    /// scheduler is told (with whether the prefetcher marks it leading).
    fn launch_warp(&mut self, w: u16, slot: usize, widx: u32, ctaid: [i64; 3], tcta: u32) {
        let b = self.k.block;
        let threads = self.k.threads_per_cta();
        self.age += 1;
        let wp = &mut self.warps[w as usize];
        wp.cta = slot as u16;
        wp.widx = widx as u16;
        wp.age = self.age;
        wp.pc = 0;
        wp.stack.clear();
        wp.pending = 0;
        wp.pending_misses = 0;
        wp.compute_left = 0;
        wp.tcta = tcta;
        wp.tpos = 0;
        if self.timing.timed {
            wp.ready_at.fill(0);
        }
        for r in wp.regs.iter_mut() {
            *r = [0; LANES];
        }
        let mut active = 0u32;
        for lane in 0..LANES {
            let t = widx * 32 + lane as u32;
            if t < threads {
                active |= 1 << lane;
            }
            wp.regs[REG_TID as usize][lane] = (t % b[0]) as i64;
            wp.regs[REG_TID as usize + 1][lane] = ((t / b[0]) % b[1]) as i64;
            wp.regs[REG_TID as usize + 2][lane] = (t / (b[0] * b[1])) as i64;
            for (d, &c) in ctaid.iter().enumerate() {
                wp.regs[REG_CTAID as usize + d][lane] = c;
            }
        }
        wp.active = active;
        wp.state = WarpState::Mem; // becomes Ready in `launch_cta`
        let leading = match &self.pf.unit {
            Some(p) => p.leading_warp(widx),
            None => default_leading_warp(widx),
        };
        self.sched.warp_launched(w, leading);
    }

    /// Warp `w` exits; the last warp of its CTA ends the CTA, else the
    /// barrier may open.
    pub(super) fn exit_warp(&mut self, w: u16) {
        self.block(w, WarpState::Done);
        self.sched.warp_exited(w);
        let slot = self.warps[w as usize].cta as usize;
        let c = &mut self.ctas[slot];
        c.done += 1;
        if c.done == self.wpc {
            // The CTA is complete.
            c.live = false;
            for &x in &c.warps {
                self.warps[x as usize].state = WarpState::Free;
                self.free_warps |= 1u64 << x;
            }
            self.live_ctas -= 1;
            self.ctas_done += 1;
            self.m.ctas += 1;
            X::cta_done(self, slot);
        } else {
            self.check_barrier(slot);
        }
    }

    /// The barrier of the CTA in `slot` opens when every live warp waits
    /// at it.
    pub(super) fn check_barrier(&mut self, slot: usize) {
        let c = &self.ctas[slot];
        if c.at_barrier > 0 && c.at_barrier == self.wpc - c.done {
            self.ctas[slot].at_barrier = 0;
            self.m.sched.barriers += 1;
            for i in 0..self.ctas[slot].warps.len() {
                let x = self.ctas[slot].warps[i];
                if self.warps[x as usize].state == WarpState::Barrier {
                    self.make_ready(x);
                }
            }
        }
    }
}
