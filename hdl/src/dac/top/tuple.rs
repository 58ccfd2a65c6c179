//! The first section of the [`super::DacExpanderRtl`] kernel: the registers'
//! clock, reset and hold, the tuple at the head of the ATQ, and the CTA slots
//! (done, then launch).

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Tuple};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Tuple> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, active, todo, busy, p, grp, r_gm, part, count, mem_v, mem_a, r_valid,
            r_hit, r_addr, r_mask, r_gran, r_last, st_fast, st_slow, st_gskip, g_written, cwid, cv,
            cend, nslot, nwi, nwid, cc_x, cc_y, ws, wc, wn, wnm1, wskip0, wwid, wlast, wv, wg,
            r_act, r_live, r_ends, r_gef, r_lastg, r_skip0, r_gskip, r_pb, r_vl, r_pop, r_st, r_gw,
            r_gwa, r_gwd, h_base, h_tx, h_ty, h_cx, h_cy, h_sc, h_nsc, h_gran, h_cmp, h_addr,
            h_data, h_pred, h_guard, h_zo, h_ar, r_afull, r_pfull, r_d2, r_z1, r_m1, r_z2, r_m2
        );
        self.active.reset.next = self.reset.val();
        self.todo.reset.next = self.reset.val();
        self.busy.reset.next = self.reset.val();
        self.p.reset.next = self.reset.val();
        self.grp.reset.next = self.reset.val();
        self.r_gm.reset.next = self.reset.val();
        self.part.reset.next = self.reset.val();
        self.count.reset.next = self.reset.val();
        self.mem_v.reset.next = self.reset.val();
        self.mem_a.reset.next = self.reset.val();
        self.r_valid.reset.next = self.reset.val();
        self.r_hit.reset.next = self.reset.val();
        self.r_addr.reset.next = self.reset.val();
        self.r_mask.reset.next = self.reset.val();
        self.r_gran.reset.next = self.reset.val();
        self.r_last.reset.next = self.reset.val();
        self.st_fast.reset.next = self.reset.val();
        self.st_slow.reset.next = self.reset.val();
        self.st_gskip.reset.next = self.reset.val();
        self.g_written.reset.next = self.reset.val();
        self.cc_x.reset.next = self.reset.val();
        self.cc_y.reset.next = self.reset.val();
        self.cwid.reset.next = self.reset.val();
        self.cv.reset.next = self.reset.val();
        self.cend.reset.next = self.reset.val();
        self.nslot.reset.next = self.reset.val();
        self.nwi.reset.next = self.reset.val();
        self.nwid.reset.next = self.reset.val();
        self.ws.reset.next = self.reset.val();
        self.wc.reset.next = self.reset.val();
        self.wn.reset.next = self.reset.val();
        self.wnm1.reset.next = self.reset.val();
        self.wskip0.reset.next = self.reset.val();
        self.wwid.reset.next = self.reset.val();
        self.wlast.reset.next = self.reset.val();
        self.wv.reset.next = self.reset.val();
        self.wg.reset.next = self.reset.val();
        self.r_act.reset.next = self.reset.val();
        self.r_live.reset.next = self.reset.val();
        self.r_ends.reset.next = self.reset.val();
        self.r_gef.reset.next = self.reset.val();
        self.r_lastg.reset.next = self.reset.val();
        self.r_skip0.reset.next = self.reset.val();
        self.r_gskip.reset.next = self.reset.val();
        self.r_pb.reset.next = self.reset.val();
        self.r_vl.reset.next = self.reset.val();
        self.r_pop.reset.next = self.reset.val();
        self.r_st.reset.next = self.reset.val();
        self.r_gw.reset.next = self.reset.val();
        self.r_gwa.reset.next = self.reset.val();
        self.r_gwd.reset.next = self.reset.val();
        self.gmem.clock.next = self.clock.val();
        for s in 0..self._nc {
            self.cx[s].clock.next = self.clock.val();
            self.cx[s].reset.next = self.reset.val();
            self.cx[s].d.next = self.cx[s].q.val();
            self.cy[s].clock.next = self.clock.val();
            self.cy[s].reset.next = self.reset.val();
            self.cy[s].d.next = self.cy[s].q.val();
        }

        // ---- Slots: done, then launch.
        self.zx_ds.narrow.next = self.cta_done_slot.val();
        self.zx_ls.narrow.next = self.cta_launch_slot.val();
        self.zx_cnt_d.narrow.next = self.cta_done_slot.val();
        self.zx_cnt_l.narrow.next = self.cta_launch_slot.val();
        self.done_ok.next =
            self.cta_done_valid.val() & (self.zx_cnt_d.wide.val() < self.n_cta.val());
        self.launch_ok.next =
            self.cta_launch_valid.val() & (self.zx_cnt_l.wide.val() < self.n_cta.val());
        self.act1.next = self.active.q.val();
        if self.done_ok.val() {
            self.act1.next = self.active.q.val() & !(self.one16.val() << self.zx_ds.wide.val());
        }
        self.active.d.next = self.act1.val();
        if self.launch_ok.val() {
            self.active.d.next = self.act1.val() | (self.one16.val() << self.zx_ls.wide.val());
        }
        for s in 0..self._nc {
            if self.launch_ok.val() & (self.cta_launch_slot.val() == self.slot_id[s].val()) {
                self.cx[s].d.next = self.cta_launch_x.val();
                self.cy[s].d.next = self.cta_launch_y.val();
            }
        }
    }
}
