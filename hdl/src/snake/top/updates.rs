//! The last section of the [`super::SnakePrefetcherRtl`] kernel: the new
//! entry's per-PC fields, the entry updates and the recency order, the walk
//! queue and the output queue.

use rust_hdl::prelude::*;

use super::{SnakePrefetcherRtl, Updates};
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
    > Section<Updates> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The new entry's per-PC fields: those of q's lowest entry
        // other than the victim, after this edge's updates.
        self.q_below[0].next = false;
        for e in 0..self._nem1 {
            self.q_below[e + 1].next =
                self.q_below[e].val() | (self.ents[e].m_q.val() & !self.victim[e].val());
        }
        for e in 0..self._ne {
            self.q_src[e].next =
                self.ents[e].m_q.val() & !self.victim[e].val() & !self.q_below[e].val();
        }
        self.cp_intra.next = self.addr_zero.val();
        self.cp_t2.next = self.two_zero.val();
        self.cp_iw_valid.next = false;
        self.cp_iw_warp.next = self.wb_zero.val();
        self.cp_iw_addr.next = self.addr_zero.val();
        self.cp_iw_stride.next = self.addr_zero.val();
        self.cp_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.q_src[e].val() {
                if self.obs_en.val() & self.ents[e].m_pj.val() {
                    self.cp_intra.next = self.o_intra.val();
                    self.cp_t2.next = self.o_t2.val();
                } else {
                    self.cp_intra.next = self.ents[e].intra.val();
                    self.cp_t2.next = self.ents[e].t2.val();
                }
                if self.ents[e].m_p.val() {
                    self.cp_iw_valid.next = true;
                    self.cp_iw_warp.next = self.ld_warp.val();
                    self.cp_iw_addr.next = self.ld_addr.val();
                    self.cp_iw_stride.next = self.u_iw_stride.val();
                    self.cp_iw_cnt.next = self.u_iw_cnt.val();
                } else {
                    self.cp_iw_valid.next = self.ents[e].iw_valid.val();
                    self.cp_iw_warp.next = self.ents[e].iw_warp.val();
                    self.cp_iw_addr.next = self.ents[e].iw_addr.val();
                    self.cp_iw_stride.next = self.ents[e].iw_stride.val();
                    self.cp_iw_cnt.next = self.ents[e].iw_cnt.val();
                }
            }
        }

        // ---- Entry updates and the recency order.
        self.order.alloc.next = self.allocate.val() & self.any_inval.val();
        self.order.touch.next = (self.link_en.val() & self.any_hit.val())
            | (self.allocate.val() & !self.any_inval.val());
        self.order.inval.next = false;
        for e in 0..self._ne {
            self.order.valid[e].next = self.ents[e].valid.val();
            self.order.rank[e].next = self.ents[e].rank.val();
            self.order.hit[e].next = (self.link_en.val() & self.ents[e].m_link.val())
                | (self.allocate.val() & !self.any_inval.val() & self.victim[e].val());
            self.ents[e].iw_we.next = self.load_en.val();
            self.ents[e].n_iw_valid.next = true;
            self.ents[e].n_iw_warp.next = self.ld_warp.val();
            self.ents[e].n_iw_addr.next = self.ld_addr.val();
            self.ents[e].n_iw_stride.next = self.u_iw_stride.val();
            self.ents[e].n_iw_cnt.next = self.u_iw_cnt.val();
            self.ents[e].obs_we.next = self.obs_en.val();
            self.ents[e].n_intra.next = self.o_intra.val();
            self.ents[e].n_t2.next = self.o_t2.val();
            self.ents[e].alloc.next = self.allocate.val() & self.victim[e].val();
            self.ents[e].c_intra.next = self.cp_intra.val();
            self.ents[e].c_t2.next = self.cp_t2.val();
            self.ents[e].c_iw_valid.next = self.cp_iw_valid.val();
            self.ents[e].c_iw_warp.next = self.cp_iw_warp.val();
            self.ents[e].c_iw_addr.next = self.cp_iw_addr.val();
            self.ents[e].c_iw_stride.next = self.cp_iw_stride.val();
            self.ents[e].c_iw_cnt.next = self.cp_iw_cnt.val();
            self.ents[e].rank_we.next = self.order.alloc.val() | self.order.touch.val();
            self.ents[e].n_rank.next = self.order.new_rank[e].val();
        }

        // ---- Walk queue: three lanes ({pc, warp}, the address, {end,
        // span}) in lock-step; emptied in a halted cycle; a job is dropped
        // when full.
        self.walkq.clock.next = self.clock.val();
        self.walkq.reset.next = self.reset.val() | self.halted.val();
        self.walkq_addr.clock.next = self.clock.val();
        self.walkq_addr.reset.next = self.reset.val() | self.halted.val();
        self.walkq_se.clock.next = self.clock.val();
        self.walkq_se.reset.next = self.reset.val() | self.halted.val();
        self.walkq.push.next = self.load_en.val()
            & !self.halted.val()
            & !self.walkq.o_full.val()
            & !self.walkq_addr.o_full.val()
            & !self.walkq_se.o_full.val();
        self.walkq_addr.push.next = self.walkq.push.val();
        self.walkq_se.push.next = self.walkq.push.val();
        self.walkq.pop.next = self.job_end.val();
        self.walkq_addr.pop.next = self.job_end.val();
        self.walkq_se.pop.next = self.job_end.val();
        self.jp_w.narrow.next = self.ld_warp.val();
        self.jp_p.narrow.next = self.ld_pc.val();
        self.walkq.i_data.next = self.jp_w.wide.val() | (self.jp_p.wide.val() << self.joff_p.val());
        self.walkq_addr.i_data.next = self.ld_addr.val();
        self.js_span.narrow.next = self.ld_span.val();
        self.js_end.narrow.next = self.ld_cta_end.val();
        self.walkq_se.i_data.next =
            self.js_span.wide.val() | (self.js_end.wide.val() << self.joff_end.val());

        // ---- Output queue, packed {span, kind, warp, addr}.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.push.val();
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        self.qp_addr.narrow.next = self.pf_a.val();
        self.qp_warp.narrow.next = self.pf_w.val();
        self.qp_kind.narrow.next = self.pf_k.val();
        self.qp_span.narrow.next = self.pf_s.val();
        self.pfq.i_data.next = self.qp_addr.wide.val()
            | (self.qp_warp.wide.val() << self.qoff_warp.val())
            | (self.qp_kind.wide.val() << self.qoff_kind.val())
            | (self.qp_span.wide.val() << self.qoff_span.val());
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_data.val().get_bits::<A>(0);
        self.pf_warp.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<WB>(self.qoff_warp.val().index());
        self.pf_kind.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<2>(self.qoff_kind.val().index());
        self.pf_span.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<12>(self.qoff_span.val().index());
    }
}
