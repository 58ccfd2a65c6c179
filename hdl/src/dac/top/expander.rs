//! The second part of the [`super::DacExpanderRtl`] kernel's control: the
//! expander registers (the current warp), the early memory requests, the
//! statistics and the guard masks.

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Expander};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Expander> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Expander registers: the current warp (`cwid`, `cend`, `p`,
        // `grp`, `part`), the next one half set up (`ws`, `wc`, `wn`,
        // `wskip0`, `wwid`, `wlast`, `wv`) and the warp pointer two ahead
        // (`nslot`, `nwi`, `nwid`, with `todo` the slots after it). `load`
        // moves the next warp to the current one, the pointed warp to the next
        // one and the pointer to its successor.
        self.busy.d.next = self.busy.q.val();
        self.cv.d.next = self.cv.q.val();
        self.wv.d.next = self.wv.q.val();
        self.wg.d.next = self.wg.q.val();
        self.ws.d.next = self.ws.q.val();
        self.wc.d.next = self.wc.q.val();
        self.wn.d.next = self.wn.q.val();
        self.wnm1.d.next = self.wnm1.q.val();
        self.wskip0.d.next = self.wskip0.q.val();
        self.wwid.d.next = self.wwid.q.val();
        self.wlast.d.next = self.wlast.q.val();
        self.cend.d.next = self.cend.q.val();
        self.todo.d.next = self.todo.q.val();
        self.cwid.d.next = self.cwid.q.val();
        self.p.d.next = self.p.q.val();
        self.grp.d.next = self.grp.q.val();
        self.r_gm.d.next = self.r_gm.q.val();
        self.part.d.next = self.part.q.val();
        self.nslot.d.next = self.nslot.q.val();
        for b in 0..self._sb {
            self.pk_enc_act.bits[b].next =
                (self.low_act.val() & self.sbit[b].val()) != self.zero16.val();
            self.pk_enc_nxt.bits[b].next =
                (self.low_nxt.val() & self.sbit[b].val()) != self.zero16.val();
        }
        self.nwi.d.next = self.nwi.q.val();
        self.nwid.d.next = self.nwid.q.val();
        // The next warp's slot index: its slot's registers after this
        // edge's launch (the trees read `cx[s].d`).
        self.cc_x.d.next = self.tcx[30].val();
        self.cc_y.d.next = self.tcy[30].val();
        if self.start_go.val() {
            self.busy.d.next = true;
            self.cv.d.next = false;
            self.wv.d.next = false;
            self.todo.d.next = self.active.q.val() & !self.low_act.val();
            self.nslot.d.next = self.pk_enc_act.word.val();
            self.nwi.d.next = self.c0_6.val();
            self.nwid.d.next = self.pk_start.w.val();
            self.cc_x.d.next = self.pk_start.x.val();
            self.cc_y.d.next = self.pk_start.y.val();
        } else if self.load.val() {
            self.cv.d.next = self.wv.q.val();
            self.cwid.d.next = self.wwid.q.val();
            self.cend.d.next = self.wlast.q.val();
            self.wv.d.next = true;
            self.ws.d.next = self.lane0.s.val();
            self.wc.d.next = self.lane0.c.val();
            self.wg.d.next = self.gmask.val();
            self.wn.d.next = self.n.val();
            self.wnm1.d.next = self.n.val() - self.c1_6.val();
            self.wskip0.d.next = self.skip0.val();
            self.wwid.d.next = self.wid.val().get_bits::<WB>(0);
            self.wlast.d.next = self.nlast.val();
            self.p.d.next = self.c0_6.val();
            self.grp.d.next = self.c0_2.val();
            self.r_gm.d.next = self.ff_32.val();
            self.part.d.next = self.c0_32.val();
            if self.slot_last.val() {
                self.nslot.d.next = self.pk_enc_nxt.word.val();
                self.todo.d.next = self.todo_next.val();
                self.nwi.d.next = self.c0_6.val();
                self.nwid.d.next = self.pk_adv.w.val();
                self.cc_x.d.next = self.pk_adv.x.val();
                self.cc_y.d.next = self.pk_adv.y.val();
            } else {
                self.nwi.d.next = self.nwi.q.val() + self.c1_6.val();
                self.nwid.d.next = self.nwid.q.val() + self.one10.val();
            }
        } else if self.tuple_done.val() {
            self.busy.d.next = false;
            self.cv.d.next = false;
        } else if self.a_push.val() {
            self.p.d.next = self.rec.nxt.val();
        } else if self.ps_adv.val() {
            self.grp.d.next = self.grp.q.val() + self.c1_2.val();
            self.r_gm.d.next = self.r_gm.q.val() << self.c8_32.val();
            self.part.d.next = self.slow_mask.val();
        }

        // ---- Early memory requests.
        self.mem_v.d.next = self.mem_v.q.val();
        self.mem_a.d.next = self.mem_a.q.val();
        if self.a_push.val() & self.is_data.val() {
            self.mem_v.d.next = true;
            self.mem_a.d.next = self.rec.addr.val() & self.line_mask.val();
        } else if self.mem_ready.val() {
            self.mem_v.d.next = false;
        }
        self.mem_valid.next = self.mem_v.q.val();
        self.mem_addr.next = self.mem_a.q.val();

        // ---- Statistics.
        self.st_fast.d.next = self.st_fast.q.val();
        self.st_slow.d.next = self.st_slow.q.val();
        if self.pf_push.val() {
            self.st_fast.d.next = self.st_fast.q.val() + self.c1_32.val();
        }
        if self.ps_final.val() {
            self.st_slow.d.next = self.st_slow.q.val() + self.c1_32.val();
        }
        self.st_gskip.d.next = self.st_gskip.q.val();
        if self.cyc.val() & self.r_gskip.q.val() & !self.r_skip0.q.val() {
            self.st_gskip.d.next = self.st_gskip.q.val() + self.c1_32.val();
        }
        self.stat_pred_fast.next = self.st_fast.q.val();
        self.stat_pred_slow.next = self.st_slow.q.val();
        self.stat_guard_skips.next = self.st_gskip.q.val();

        // ---- Guard masks: a guard's pushed mask is written to G[w], one
        // edge after the push (issue 29, step 4: from registers; G is read
        // only in a later tuple's setup, after this tuple's registered pop).
        self.wa.next = self.cwid.q.val();
        self.g_write.next = self.p_push.val() & self.t_guard.val();
        self.r_gw.d.next = self.g_write.val();
        self.r_gwa.d.next = self.wa.val();
        self.r_gwd.d.next = self.pmask.val();
        self.zx_wa64.narrow.next = self.r_gwa.q.val();
        self.gmem.w_en.next = self.r_gw.q.val();
        self.gmem.w_addr.next = self.r_gwa.q.val();
        self.gmem.w_data.next = self.r_gwd.q.val();
        self.g_written.d.next = self.g_written.q.val();
        if self.r_gw.q.val() {
            self.g_written.d.next =
                self.g_written.q.val() | (self.one64.val() << self.zx_wa64.wide.val());
        }
    }
}
