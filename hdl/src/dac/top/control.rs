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
        // Not while the previous tuple leaves (its pop is registered: issue
        // 29, step 4).
        self.start.next = !self.busy.q.val()
            & !self.r_pop.q.val()
            & self.atq0.o_valid.val()
            & self.atq1.o_valid.val()
            & self.atq2.o_valid.val()
            & self.atq3.o_valid.val();
        self.start_drop.next =
            self.start.val() & (self.reserved.val() | (self.active.q.val() == self.zero16.val()));
        self.start_go.next = self.start.val() & !self.start_drop.val();
        self.memfree.next = !self.mem_v.q.val() | self.mem_ready.val();
        // A busy cycle on the current warp (`cv`); `busy & !cv` is one of
        // the tuple's two setup cycles (`!wv`: its first warp's first stage;
        // `wv`: its second stage and the second warp's first).
        self.cyc.next = self.busy.q.val() & self.cv.q.val();
        self.a_push.next = self.cyc.val()
            & self.is_addr.val()
            & !self.skip.val()
            & !self.r_afull.q.val()
            & (!self.is_data.val() | self.memfree.val());
        self.pf_push.next = self.cyc.val()
            & self.is_pred.val()
            & !self.skip.val()
            & self.fast.val()
            & !self.r_pfull.q.val();
        self.ps_final.next = self.cyc.val()
            & self.is_pred.val()
            & !self.skip.val()
            & !self.fast.val()
            & (self.grp.q.val() == self.lastg.val())
            & !self.r_pfull.q.val();
        self.ps_adv.next = self.cyc.val()
            & self.is_pred.val()
            & !self.skip.val()
            & !self.fast.val()
            & (self.grp.q.val() != self.lastg.val());
        self.p_push.next = self.pf_push.val() | self.ps_final.val();
        self.wdone.next = self.cyc.val()
            & (self.skip.val() | (self.a_push.val() & self.rec.last.val()) | self.p_push.val());
        // The next warp is its slot's last (its successor is in the next
        // slot of `todo`), and the tuple's last (no slot of `todo` left).
        self.zx_wi7.narrow.next = self.nwi.q.val();
        self.zx_wc7.narrow.next = self.cfg_warps_per_cta.val();
        self.slot_last.next = (self.zx_wi7.wide.val() + self.c1_7.val()) >= self.zx_wc7.wide.val();
        self.nlast.next = self.slot_last.val() & (self.todo.q.val() == self.zero16.val());
        self.low_act.next = self.active.q.val() & (!self.active.q.val() + self.one16.val());
        self.low_nxt.next = self.todo.q.val() & (!self.todo.q.val() + self.one16.val());
        self.pk_start.oh.next = self.low_act.val();
        self.pk_adv.oh.next = self.low_nxt.val();
        self.todo_next.next = self.todo.q.val() & !self.low_nxt.val();
        self.load.next =
            (self.busy.q.val() & !self.cv.q.val()) | (self.wdone.val() & !self.cend.q.val());
        self.tuple_done.next = self.wdone.val() & self.cend.q.val();
        // The tuple's end is decided here; it leaves the ATQ at the next edge
        // (`r_pop`).
        self.atq_pop.next = self.start_drop.val() | self.tuple_done.val();
        self.r_pop.d.next = self.atq_pop.val();
        // The current warp's queues are full (issue 29, step 5): counted a
        // cycle ahead, after this edge's push and pop, for the warp current
        // after the edge (the next one at `load`); the push decision reads a
        // flip-flop instead of both pointer memories at `cwid`.
        self.aq.peek_q.next = self.wwid.q.val();
        self.pq.peek_q.next = self.wwid.q.val();
        self.r_afull.d.next = self.aq.push_full_next.val();
        self.r_pfull.d.next = self.pq.push_full_next.val();
        if self.load.val() {
            self.r_afull.d.next = self.aq.peek_full_next.val();
            self.r_pfull.d.next = self.pq.peek_full_next.val();
        }

        // ---- The second setup stage's registers: loaded with the next warp's
        // values at the edge the walk moves to it (`load`).
        for l in 0..self._n {
            self.lv[l].clock.next = self.clock.val();
            self.lv[l].reset.next = self.reset.val();
            self.lv[l].d.next = self.lv[l].q.val();
            if self.load.val() {
                self.lv[l].d.next = self.lanes.v[l].val();
            }
            self.r_ci[l].clock.next = self.clock.val();
            self.r_ci[l].reset.next = self.reset.val();
            self.r_ci[l].d.next = self.r_ci[l].q.val();
            if self.load.val() {
                self.r_ci[l].d.next = self.setup.ci[l].val();
            }
            self.rec.ci[l].next = self.r_ci[l].q.val();
        }
        self.r_act.d.next = self.r_act.q.val();
        self.r_live.d.next = self.r_live.q.val();
        self.r_ends.d.next = self.r_ends.q.val();
        self.r_gef.d.next = self.r_gef.q.val();
        self.r_lastg.d.next = self.r_lastg.q.val();
        self.r_skip0.d.next = self.r_skip0.q.val();
        self.r_gskip.d.next = self.r_gskip.q.val();
        self.r_pb.d.next = self.r_pb.q.val();
        self.r_vl.d.next = self.r_vl.q.val();
        self.r_st.d.next = self.r_st.q.val();
        if self.load.val() {
            // Run starts: an enabled lane after one that is not enabled or
            // across a region boundary (`ends`); bit 0 is never read.
            self.r_st.d.next = self.setup.live.val()
                & (self.setup.ends.val() | !(self.setup.live.val() << self.c1_32.val()))
                & self.c1_32m.val();
            self.r_vl.d.next = self.lanes.vl.val();
            self.r_act.d.next = self.setup.act.val();
            // Bit 0 of the enabled lanes and of the run ends is never read
            // by the record loop (no run ends at lane 0, and `lowe` always
            // holds lane 0): kept 0 so that no register bit goes unread.
            self.r_live.d.next = self.setup.live.val() & self.c1_32m.val();
            self.r_ends.d.next = self.setup.ends.val() & self.c1_32m.val();
            self.r_gef.d.next = self.setup.gef.val();
            self.r_lastg.d.next = self.nm1.val().get_bits::<2>(3);
            self.r_skip0.d.next = self.wskip0.q.val();
            self.r_gskip.d.next = self.gskip.val();
            self.r_pb.d.next = self.pb.val();
        }
    }
}
