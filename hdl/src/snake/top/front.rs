//! The first section of the [`super::SnakePrefetcherRtl`] kernel: the
//! registers' clock and reset, the throttle, the load stage (the accepted
//! load writes its warp's Head row and waits one edge with its warp's
//! previous load and the link stride), the staged load's keys, the walk
//! job at the head of the walk queue, and every entry's comparison with
//! this cycle's keys.

use rust_hdl::prelude::*;

use super::{Front, SnakePrefetcherRtl};
use crate::section::Section;

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > Section<Front> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, count, bw_halt, r_halted, phase, hop, kidx, cur, addr, sum, l_valid,
            l_warp, l_pc, l_addr, l_span, l_end, l_link, l_q, l_s, l_onehot, rf_q, rf_p, rf_t
        );
        self.count.reset.next = self.reset.val();
        self.bw_halt.reset.next = self.reset.val();
        self.r_halted.reset.next = self.reset.val();
        self.phase.reset.next = self.reset.val();
        self.hop.reset.next = self.reset.val();
        self.kidx.reset.next = self.reset.val();
        self.cur.reset.next = self.reset.val();
        self.addr.reset.next = self.reset.val();
        self.sum.reset.next = self.reset.val();
        self.l_valid.reset.next = self.reset.val();
        self.l_warp.reset.next = self.reset.val();
        self.l_pc.reset.next = self.reset.val();
        self.l_addr.reset.next = self.reset.val();
        self.l_span.reset.next = self.reset.val();
        self.l_end.reset.next = self.reset.val();
        self.l_link.reset.next = self.reset.val();
        self.l_q.reset.next = self.reset.val();
        self.l_s.reset.next = self.reset.val();
        self.l_onehot.reset.next = self.reset.val();
        self.rf_q.reset.next = self.reset.val();
        self.rf_p.reset.next = self.reset.val();
        self.rf_t.reset.next = self.reset.val();

        // ---- Throttle (registered: halted and `throttled` come from it).
        self.halted.next = self.r_halted.q.val();
        self.throttled.next = self.halted.val();
        if self.cache_full.val() {
            self.count.d.next = self.throttle_cycles.val();
        } else if self.count.q.val() != self.count_zero.val() {
            self.count.d.next = self.count.q.val() - self.count_one.val();
        }
        if self.bw_util.val() >= self.bw_high.val() {
            self.bw_halt.d.next = true;
        } else if self.bw_util.val() <= self.bw_low.val() {
            self.bw_halt.d.next = false;
        }
        // `halted` after the edge, registered (issue 29 step 10).
        self.r_halted.d.next = (self.count.d.val() != self.count_zero.val()) | self.bw_halt.d.val();
        // ---- The load stage: an accepted load writes its warp's Head row and
        // waits one edge with the row's old contents (`q`, `s = a - prev.addr`).
        self.accept.next = self.ld_valid.val() & self.ld_uniform.val();
        self.head.clock.next = self.clock.val();
        self.head.reset.next = self.reset.val();
        self.zx_onehot.narrow.next = self.ld_warp.val();
        self.h_onehot.next = self.nw_one.val() << self.zx_onehot.wide.val();
        self.head.onehot.next = self.h_onehot.val();
        self.head.we.next = self.accept.val();
        self.head.w_pc.next = self.ld_pc.val();
        self.head.w_addr.next = self.ld_addr.val();
        self.l_valid.d.next = self.accept.val();
        self.l_warp.d.next = self.ld_warp.val();
        self.l_pc.d.next = self.ld_pc.val();
        self.l_addr.d.next = self.ld_addr.val();
        self.l_span.d.next = self.ld_span.val();
        self.l_end.d.next = self.ld_cta_end.val();
        self.l_link.d.next = self.head.prev_valid.val();
        self.l_q.d.next = self.head.prev_pc.val();
        self.sub_s.x.next = self.ld_addr.val();
        self.sub_s.y.next = !self.head.prev_addr.val();
        self.sub_s.ci.next = true;
        self.s_next.next = self.sub_s.s.val();
        self.l_s.d.next = self.s_next.val();
        self.l_onehot.d.next = self.h_onehot.val();
        // The next staged load's keys against the link this one allocates.
        self.f_q.next = self.head.prev_pc.val() == self.l_q.q.val();
        self.f_p.next = self.ld_pc.val() == self.l_q.q.val();
        self.f_t.next =
            (self.ld_pc.val() == self.l_pc.q.val()) & (self.s_next.val() == self.l_s.q.val());
        self.rf_q.d.next = self.f_q.val();
        self.rf_p.d.next = self.f_p.val();
        self.rf_t.d.next = self.f_t.val();
        // ---- The staged load: it trains, and its job enters the walk queue, at this edge.
        self.load_en.next = self.l_valid.q.val();
        self.w_onehot.next = self.l_onehot.q.val();
        self.link_en.next = self.load_en.val() & self.l_link.q.val();
        self.q.next = self.l_q.q.val();
        self.s.next = self.l_s.q.val();
        // ---- The walk job at the head of the walk queue.
        self.busy.next =
            self.walkq.o_valid.val() & self.walkq_addr.o_valid.val() & self.walkq_se.o_valid.val();
        // Its fields from entry 0's registers, ungated (uses are gated by `busy`).
        self.jw.next = self.walkq.o_data.val().get_bits::<WB>(0);
        self.jp.next = self
            .walkq
            .o_data
            .val()
            .get_bits::<P>(self.joff_p.val().index());
        self.ja.next = self.walkq_addr.o_data.val();
        self.jspan.next = self.walkq_se.o_data.val().get_bits::<12>(0);
        self.jend.next = self
            .walkq_se
            .o_data
            .val()
            .get_bits::<8>(self.joff_end.val().index());
        self.first.next = self.hop.q.val() == self.five_zero.val();
        // The second job's pc and warp: with the head's and the pushed job's, the head
        // after this edge (the entries register `pc1 = ` it, `r_mpj`, and its `wv` bit).
        self.jp1.next = self
            .walkq
            .o_second
            .val()
            .get_bits::<P>(self.joff_p.val().index());
        self.jw1.next = self.walkq.o_second.val().get_bits::<WB>(0);
        self.jw_w.next = self.jw.val() == self.l_warp.q.val();
        self.jw1_w.next = self.jw1.val() == self.l_warp.q.val();
        // ---- Every entry compares itself with this cycle's keys.
        self.pkeys.clock.next = self.clock.val();
        self.pkeys.reset.next = self.reset.val();
        for e in 0..self._ne {
            self.vt0[e].clock.next = self.clock.val();
            self.vt0[e].reset.next = self.reset.val();
            self.vt1[e].clock.next = self.clock.val();
            self.vt1[e].reset.next = self.reset.val();
            self.vt2[e].clock.next = self.clock.val();
            self.vt2[e].reset.next = self.reset.val();
            self.vt3[e].clock.next = self.clock.val();
            self.vt3[e].reset.next = self.reset.val();
            self.ents[e].clock.next = self.clock.val();
            self.ents[e].reset.next = self.reset.val();
            self.ents[e].p.next = self.l_pc.q.val();
            self.ents[e].w_onehot.next = self.w_onehot.val();
            self.ents[e].link_en.next = self.link_en.val();
            self.ents[e].train.next = self.train.val();
            self.ents[e].own.next = self.own_links.val().any();
            self.ents[e].sp.next = self.l_span.q.val();
            self.ents[e].nq.next = self.head.prev_pc.val();
            self.ents[e].np.next = self.ld_pc.val();
            self.ents[e].ns.next = self.s_next.val();
            self.ents[e].rf_q.next = self.rf_q.q.val();
            self.ents[e].rf_p.next = self.rf_p.q.val();
            self.ents[e].rf_t.next = self.rf_t.q.val();
            self.ents[e].jp1.next = self.jp1.val();
            self.ents[e].cur.next = self.cur.q.val();
            self.ents[e].first.next = self.first.val();
            self.ents[e].b_addr.next = self.addr.q.val();
            self.ents[e].b_sum.next = self.sum.q.val();
            self.ents[e].b_ja.next = self.ja.val();
            self.ents[e].jw.next = self.jw.val();
            self.ents[e].jp.next = self.jp.val();
            self.ents[e].jw1.next = self.jw1.val();
            self.ents[e].jw_w.next = self.jw_w.val();
            self.ents[e].jw1_w.next = self.jw1_w.val();
        }
    }
}
