//! The fourth section of the [`super::DacExpanderRtl`] kernel: the
//! expander's control, its registers, the early memory request and the
//! statistics.

use rust_hdl::prelude::*;

use super::{Control, DacExpanderRtl};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Control> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Control.
        self.start.next = !self.busy.q.val()
            & self.atq0.o_valid.val()
            & self.atq1.o_valid.val()
            & self.atq2.o_valid.val()
            & self.atq3.o_valid.val();
        self.start_drop.next =
            self.start.val() & (self.reserved.val() | (self.active.q.val() == self.zero16.val()));
        self.start_go.next = self.start.val() & !self.start_drop.val();
        self.memfree.next = !self.mem_v.q.val() | self.mem_ready.val();
        self.a_push.next = self.busy.q.val()
            & self.is_addr.val()
            & !self.skip.val()
            & self.aq.push_room.val()
            & (!self.is_data.val() | self.memfree.val());
        self.pf_push.next = self.busy.q.val()
            & self.is_pred.val()
            & !self.skip.val()
            & self.fast.val()
            & self.pq.push_room.val();
        self.ps_final.next = self.busy.q.val()
            & self.is_pred.val()
            & !self.skip.val()
            & !self.fast.val()
            & (self.grp.q.val() == self.lastg.val())
            & self.pq.push_room.val();
        self.ps_adv.next = self.busy.q.val()
            & self.is_pred.val()
            & !self.skip.val()
            & !self.fast.val()
            & (self.grp.q.val() != self.lastg.val());
        self.p_push.next = self.pf_push.val() | self.ps_final.val();
        self.wdone.next = self.busy.q.val()
            & (self.skip.val() | (self.a_push.val() & self.rec.last.val()) | self.p_push.val());
        self.zx_wi7.narrow.next = self.wi.q.val();
        self.zx_wc7.narrow.next = self.cfg_warps_per_cta.val();
        self.slot_last.next = (self.zx_wi7.wide.val() + self.c1_7.val()) >= self.zx_wc7.wide.val();
        self.slot_done.next = self.wdone.val() & self.slot_last.val();
        self.todo_next.next = self.todo.q.val() & !self.cur_oh.val();
        self.tuple_done.next = self.slot_done.val() & (self.todo_next.val() == self.zero16.val());
        self.atq_pop.next = self.start_drop.val() | self.tuple_done.val();

        // ---- Expander registers.
        self.busy.d.next = self.busy.q.val();
        self.todo.d.next = self.todo.q.val();
        self.wi.d.next = self.wi.q.val();
        self.p.d.next = self.p.q.val();
        self.grp.d.next = self.grp.q.val();
        self.part.d.next = self.part.q.val();
        if self.start_go.val() {
            self.busy.d.next = true;
            self.todo.d.next = self.active.q.val();
            self.wi.d.next = self.c0_6.val();
            self.p.d.next = self.c0_6.val();
            self.grp.d.next = self.c0_2.val();
            self.part.d.next = self.c0_32.val();
        } else if self.wdone.val() {
            self.p.d.next = self.c0_6.val();
            self.grp.d.next = self.c0_2.val();
            self.part.d.next = self.c0_32.val();
            if self.slot_last.val() {
                self.wi.d.next = self.c0_6.val();
                self.todo.d.next = self.todo_next.val();
                if self.tuple_done.val() {
                    self.busy.d.next = false;
                }
            } else {
                self.wi.d.next = self.wi.q.val() + self.c1_6.val();
            }
        } else if self.a_push.val() {
            self.p.d.next = self.rec.nxt.val();
        } else if self.ps_adv.val() {
            self.grp.d.next = self.grp.q.val() + self.c1_2.val();
            self.part.d.next = self.slow_mask.val();
        }

        // ---- The next cycle's slot index and warp id (the walk above):
        // the lowest active slot at a start, the lowest slot of `todo` above
        // the current one when the slot is done, else the current slot (the
        // trees read the slots' registers after this edge's launch).
        self.low_act.next = self.active.q.val() & (!self.active.q.val() + self.one16.val());
        self.low_nxt.next = self.todo_next.val() & (!self.todo_next.val() + self.one16.val());
        self.pk_start.oh.next = self.low_act.val();
        self.pk_adv.oh.next = self.low_nxt.val();
        self.cc_x.d.next = self.tcx[30].val();
        self.cc_y.d.next = self.tcy[30].val();
        self.cwid.d.next = self.cwid.q.val();
        if self.start_go.val() {
            self.cc_x.d.next = self.pk_start.x.val();
            self.cc_y.d.next = self.pk_start.y.val();
            self.cwid.d.next = self.pk_start.w.val();
        } else if self.wdone.val() {
            if self.slot_last.val() {
                self.cc_x.d.next = self.pk_adv.x.val();
                self.cc_y.d.next = self.pk_adv.y.val();
                self.cwid.d.next = self.pk_adv.w.val();
            } else {
                self.cwid.d.next = self.cwid.q.val() + self.one10.val();
            }
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
        if self.busy.q.val() & self.gskip.val() & !self.skip0.val() {
            self.st_gskip.d.next = self.st_gskip.q.val() + self.c1_32.val();
        }
        self.stat_pred_fast.next = self.st_fast.q.val();
        self.stat_pred_slow.next = self.st_slow.q.val();
        self.stat_guard_skips.next = self.st_gskip.q.val();

        // ---- Guard masks: a guard's pushed mask is written to G[w].
        self.g_write.next = self.p_push.val() & self.t_guard.val();
        self.gmem.w_en.next = self.g_write.val();
        self.gmem.w_addr.next = self.wa.val();
        self.gmem.w_data.next = self.pmask.val();
        self.g_written.d.next = self.g_written.q.val();
        if self.g_write.val() {
            self.g_written.d.next =
                self.g_written.q.val() | (self.one64.val() << self.zx_wa64.wide.val());
        }
    }
}
