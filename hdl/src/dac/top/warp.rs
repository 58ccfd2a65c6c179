//! The second section of the [`super::DacExpanderRtl`] kernel: the two
//! warp-setup stages (the first on the warp two ahead of the current one:
//! its active lanes and lane-0 value as carry-save words from its slot's CTA
//! index; the second on the next warp: its lane values and lane masks from
//! those registered words and its guard mask; each registered at the edge the
//! walk moves on) and the address record from lane `p` of the current warp.

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
        // ---- First setup stage, on the warp pointer (`nslot`, `nwi`,
        // `nwid`, `cc_x`, `cc_y`: two warps ahead of the current one).
        // Its slot (`nslot`). Its CTA index and warp
        // id are registers (`cc_x`, `cc_y`, `nwid`) set at the edge that
        // moves the walk (Control); the OR trees here give the slot's index
        // after this edge's launch, kept when the next warp stays in the
        // slot, so `cc_x`, `cc_y` always hold the slot's registers.
        self.zx_w10.narrow.next = self.cfg_warps_per_cta.val();
        for s in 0..self._nc {
            self.mul_sw[s].d.next = self.slot5[s].val();
            self.mul_sw[s].s.next = self.zx_w10.wide.val();
            self.pk_start.cx[s].next = self.cx[s].d.val();
            self.pk_start.cy[s].next = self.cy[s].d.val();
            self.pk_start.sw[s].next = self.mul_sw[s].p.val();
            self.pk_adv.cx[s].next = self.cx[s].d.val();
            self.pk_adv.cy[s].next = self.cy[s].d.val();
            self.pk_adv.sw[s].next = self.mul_sw[s].p.val();
            self.tcx[s].next = self.zero16.val();
            self.tcy[s].next = self.zero16.val();
            if self.nslot.q.val() == self.slot_id[s].val() {
                self.tcx[s].next = self.cx[s].d.val();
                self.tcy[s].next = self.cy[s].d.val();
            }
        }
        for s in self._nc..self._n16 {
            self.tcx[s].next = self.zero16.val();
            self.tcy[s].next = self.zero16.val();
        }
        for i in 0..self._ntree {
            self.tcx[i + 16].next = self.tcx[2 * i].val() | self.tcx[2 * i + 1].val();
            self.tcy[i + 16].next = self.tcy[2 * i].val() | self.tcy[2 * i + 1].val();
        }
        self.cur_cx.next = self.cc_x.q.val();
        self.cur_cy.next = self.cc_y.q.val();
        // Its id = slot * W + wi.
        self.wid.next = self.nwid.q.val();
        // Its active lanes: n = min(32, T - 32*wi), 0 past the block.
        self.zx_wi12.narrow.next = self.nwi.q.val();
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
        self.skip0.next =
            (self.wid.val() >= self.n_warps.val()) | (self.n.val() == self.c0_6.val());
        // Its lane values from base + cx*off_cx + cy*off_cy + tx0*off_tx +
        // ty0*off_ty, with tx0 = 32*(wi mod (bdx/32)) and ty0 = 32*wi / bdx.
        self.zx_k6.narrow.next = self.cfg_bdx_log2.val();
        self.zx_k12.narrow.next = self.cfg_bdx_log2.val();
        self.zx_k32.narrow.next = self.cfg_bdx_log2.val();
        self.amask.next = self.c0_6.val();
        if self.zx_k6.wide.val() >= self.c5_6.val() {
            self.amask.next =
                (self.c1_6.val() << (self.zx_k6.wide.val() - self.c5_6.val())) - self.c1_6.val();
        }
        self.lane0.base.next = self.t_base.val();
        self.lane0.off_cx.next = self.t_cx.val();
        self.lane0.off_cy.next = self.t_cy.val();
        self.lane0.off_tx.next = self.t_tx.val();
        self.lane0.off_ty.next = self.t_ty.val();
        self.lane0.cx.next = self.cur_cx.val();
        self.lane0.cy.next = self.cur_cy.val();
        self.lane0.a.next = self.nwi.q.val() & self.amask.val();
        self.lane0.ty0.next = self.t0.val() >> self.zx_k12.wide.val();

        // ---- Second setup stage, on the next warp (`ws`, `wc`, `wn`,
        // `wwid`): its lane values from lane 0's registered words.
        self.lanes.s.next = self.ws.q.val();
        self.lanes.c.next = self.wc.q.val();
        for i in 0..self._nlo {
            self.lanes.o[i].next = self.r_lo[i].q.val();
        }
        self.nm1.next = self.wnm1.q.val();
        self.lanes.nm1.next = self.wnm1.q.val();

        // ---- The pointed warp's guard mask G[w] (0 until written since
        // reset; a warp id past N_WARPS is never written, so its mask reads as
        // 0), registered as the next warp's (`wg`) when the walk moves on. No
        // guard writes G during a guarded tuple (a guard's last write is at
        // its last push, before its pop and the next tuple's start), so
        // reading it two warps ahead reads the value of the warp's own cycles
        // (issue 29, step 3: the read left the second stage).
        self.ra.next = self.wid.val().get_bits::<WB>(0);
        self.gmem.r_addr.next = self.ra.val();
        self.zx_ra64.narrow.next = self.ra.val();
        self.gmask.next = self.c0_32.val();
        if (self.g_written.q.val() & (self.one64.val() << self.zx_ra64.wide.val()))
            != self.zero64.val()
        {
            self.gmask.next = self.gmem.r_data.val();
        }

        // ---- The next warp's lane masks over its enabled lanes: every active
        // lane, or for a guarded tuple those whose bit of G[w] is set.
        for l in 0..self._n {
            self.setup.v[l].next = self.lanes.v[l].val().get_bits::<8>(0);
        }
        self.setup.n.next = self.wn.q.val();
        self.setup.g.next = self.t_gran.val();
        self.setup.brk.next = self.brks.brk.val();
        self.setup.en.next = self.ones32.val();
        if self.is_addr.val() & self.t_guard.val() {
            self.setup.en.next = self.wg.q.val();
        }
        // A warp produces nothing when it cannot be queued, has no active
        // lane, or (guarded) no enabled lane.
        self.gskip.next = self.is_addr.val() & self.t_guard.val() & self.setup.none.val();

        self.skip.next = self.r_skip0.q.val() | self.r_gskip.q.val();

        // ---- Address record from lane p of the current warp.
        for l in 0..self._n {
            self.rec.v[l].next = self.lv[l].q.val();
        }
        self.rec.p.next = self.p.q.val();
        self.rec.g.next = self.t_gran.val();
        self.rec.live.next = self.r_live.q.val();
        self.rec.ends.next = self.r_ends.q.val();
        self.rec.gef.next = self.r_gef.q.val();
        self.rec.starts.next = self.r_st.q.val();
    }
}
