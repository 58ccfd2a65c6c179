//! The second section of the [`super::DacExpanderRtl`] kernel: the current
//! slot (the lowest of `todo`) and warp, the warp's active lanes and lane
//! values, and the address record from lane `p`.

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Warp};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Warp> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The current slot: the lowest of `todo`.
        self.sfound[0].next = false;
        self.cur.next = self.slot4[0].val();
        self.cur_oh.next = self.zero16.val();
        self.cur_cx.next = self.cx[0].q.val();
        self.cur_cy.next = self.cy[0].q.val();
        for s in 0..self._ncm1 {
            self.sfound[s + 1].next = self.sfound[s].val() | self.todo.q.val().get_bit(s);
        }
        for s in 0..self._nc {
            if self.todo.q.val().get_bit(s) & !self.sfound[s].val() {
                self.cur.next = self.slot4[s].val();
                self.cur_oh.next = self.slot_oh[s].val();
                self.cur_cx.next = self.cx[s].q.val();
                self.cur_cy.next = self.cy[s].q.val();
            }
        }
        // Warp id = slot * W + wi.
        self.zx_c5.narrow.next = self.cur.val();
        self.zx_w10.narrow.next = self.cfg_warps_per_cta.val();
        self.mul_wb.d.next = self.zx_c5.wide.val();
        self.mul_wb.s.next = self.zx_w10.wide.val();
        self.zx_wi10.narrow.next = self.wi.q.val();
        self.wid.next = self.mul_wb.p.val() + self.zx_wi10.wide.val();
        // Active lanes: n = min(32, T - 32*wi), 0 past the block.
        self.zx_wi12.narrow.next = self.wi.q.val();
        self.zx_t12.narrow.next = self.cfg_threads.val();
        self.t0.next = self.zx_wi12.wide.val() << self.c5_12.val();
        self.rem.next = self.zx_t12.wide.val() - self.t0.val();
        self.n.next = self.c0_6.val();
        if self.zx_t12.wide.val() > self.t0.val() {
            if self.rem.val() >= self.c32_12.val() {
                self.n.next = self.c32_6.val();
            } else {
                self.n.next = self.rem.val().get_bits::<6>(0);
            }
        }
        self.nm1.next = self.n.val() - self.c1_6.val();
        self.skip0.next =
            (self.wid.val() >= self.n_warps.val()) | (self.n.val() == self.c0_6.val());
        // Lane 0's value: base + cx*off_cx + cy*off_cy + tx0*off_tx +
        // ty0*off_ty, with tx0 = 32*(wi mod (bdx/32)) and ty0 = 32*wi / bdx.
        self.zx_cx.narrow.next = self.cur_cx.val();
        self.zx_cy.narrow.next = self.cur_cy.val();
        self.mul_cx.d.next = self.zx_cx.wide.val();
        self.mul_cx.s.next = self.t_cx.val();
        self.mul_cy.d.next = self.zx_cy.wide.val();
        self.mul_cy.s.next = self.t_cy.val();
        self.zx_k6.narrow.next = self.cfg_bdx_log2.val();
        self.zx_k12.narrow.next = self.cfg_bdx_log2.val();
        self.zx_k32.narrow.next = self.cfg_bdx_log2.val();
        self.amask.next = self.c0_6.val();
        if self.zx_k6.wide.val() >= self.c5_6.val() {
            self.amask.next =
                (self.c1_6.val() << (self.zx_k6.wide.val() - self.c5_6.val())) - self.c1_6.val();
        }
        self.zx_a7.narrow.next = self.wi.q.val() & self.amask.val();
        self.mul_tx.d.next = self.zx_a7.wide.val();
        self.mul_tx.s.next = self.t_tx.val();
        self.mul_ty.d.next = self.t0.val() >> self.zx_k12.wide.val();
        self.mul_ty.s.next = self.t_ty.val();
        self.vw.next = self.t_base.val()
            + self.mul_cx.p.val()
            + self.mul_cy.p.val()
            + (self.mul_tx.p.val() << self.c5_32.val())
            + self.mul_ty.p.val();
        self.lanes.vw.next = self.vw.val();
        self.lanes.off_tx.next = self.t_tx.val();
        self.lanes.off_ty.next = self.t_ty.val();
        self.lanes.k.next = self.cfg_bdx_log2.val();

        // ---- The warp's guard mask G[w] (0 until written since reset; a warp
        // id past N_WARPS is never written, so its mask reads as 0).
        self.wa.next = self.wid.val().get_bits::<WB>(0);
        self.gmem.r_addr.next = self.wa.val();
        self.zx_wa64.narrow.next = self.wa.val();
        self.gmask.next = self.c0_32.val();
        if (self.g_written.q.val() & (self.one64.val() << self.zx_wa64.wide.val()))
            != self.zero64.val()
        {
            self.gmask.next = self.gmem.r_data.val();
        }

        // ---- Address record from lane p, over the enabled lanes: every
        // active lane, or for a guarded tuple those whose bit of G[w] is set.
        for l in 0..self._n {
            self.rec.v[l].next = self.lanes.v[l].val();
        }
        self.rec.n.next = self.n.val();
        self.rec.p.next = self.p.q.val();
        self.rec.g.next = self.t_gran.val();
        self.rec.en.next = self.ones32.val();
        if self.is_addr.val() & self.t_guard.val() {
            self.rec.en.next = self.gmask.val();
        }
        // A warp produces nothing when it cannot be queued, has no active
        // lane, or (guarded) no enabled lane.
        self.gskip.next = self.is_addr.val() & self.t_guard.val() & self.rec.none.val();
        self.skip.next = self.skip0.val() | self.gskip.val();
    }
}
