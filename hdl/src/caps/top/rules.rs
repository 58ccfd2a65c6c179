//! The load's second stage, second part (a section of the
//! [`super::CapsPrefetcherRtl`] kernel): the rules, the DIST and PerCTA
//! updates (and the row after them, for the next load's forwarding), and
//! rule 3's product for the third stage.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Rules};
use crate::section::Section;

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const RD: usize,
        const CW: usize,
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > Section<Rules> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The rules.
        self.r1.next = self.b_v.q.val() & !self.m_hit.val();
        self.r2.next = self.b_v.q.val() & self.m_hit.val() & self.w_is_lead.val();
        self.r3.next =
            self.b_v.q.val() & self.m_hit.val() & !self.w_is_lead.val() & self.dh_any.val();
        self.r4.next =
            self.b_v.q.val() & self.m_hit.val() & !self.w_is_lead.val() & !self.dh_any.val();
        self.r4_inval.next = self.r4.val()
            & (!self.n_same.val() | (self.x_pow2.val() & (!self.x_div.val() | !self.x_eq.val())));
        self.r4_alloc.next = self.r4.val()
            & self.n_same.val()
            & self.x_pow2.val()
            & self.x_div.val()
            & self.x_eq.val()
            & self.x_nz.val();
        // DIST: allocation, and the entry's stride for rule 3's product.
        self.dtab.clock.next = self.clock.val();
        self.dtab.reset.next = self.reset.val();
        self.dtab.alloc.next = self.r4_alloc.val();
        self.dtab.a_pc.next = self.b_pc.q.val();
        self.dtab.a_stride.next = self.x_stride.val();
        self.dtab.a_neg.next = self.x_neg.val();
        self.dtab.a_lead_cta.next = self.b_cta.q.val();
        // Rule 3's leading CTA, on DIST as the earlier loads and launches
        // left it (this edge's launch comes after this load), and the
        // launch's end of the slot's leading-CTA rights.
        self.dtab.b_cta.next = self.b_cta.q.val();
        self.dtab.launch.next = self.cta_launch_valid.val();
        self.dtab.launch_slot.next = self.cta_launch_slot.val();
        self.dtab.g_pc.next = self.j_pc.q.val();
        // Rule 3's product with DIST's stride, magnitude m and sign:
        // d * -m = (-d) * m (|d| < 2^WI, so -d fits).
        if self.dtab.b_neg.val() {
            self.c_pd.d.next = self.x_ndelta.val();
        } else {
            self.c_pd.d.next = self.x_delta.val();
        }
        self.c_pst.d.next = self.dtab.b_stride.val();
        // PerCTA[b_cta] updates: allocation (rule 1), the leading warp's
        // rewrite (rule 2), invalidation (rule 4); the order's new ranks
        // are written back whenever the slot's table changes.
        self.order.alloc.next = self.r1.val();
        self.order.touch.next = self.r2.val();
        self.order.inval.next = self.r4_inval.val();
        self.rank_we.next = self.r1.val() | self.r2.val() | self.r4_inval.val();
        self.w_onehot.next = self.b_oh.q.val();
        for e in 0..self._ne {
            self.order.valid[e].next = self.e_valid[e].val();
            self.order.hit[e].next = self.e_hit[e].val();
            self.order.rank[e].next = self.e_rank[e].val();
            self.e_wr[e].next =
                (self.r1.val() & self.order.tgt[e].val()) | (self.r2.val() & self.e_hit[e].val());
            self.e_inv[e].next = self.r4_inval.val() & self.e_hit[e].val();
            self.cols[e].w_slot.next = self.b_cta.q.val();
            self.cols[e].w_onehot.next = self.w_onehot.val();
            self.cols[e].w_pc.next = self.b_pc.q.val();
            self.cols[e].w_warp.next = self.b_warp.q.val();
            self.cols[e].w_n.next = self.b_n.q.val();
            self.cols[e].w_a0.next = self.b_a[0].q.val();
            self.cols[e].w_a1.next = self.b_a[1].q.val();
            self.cols[e].w_a2.next = self.b_a[2].q.val();
            self.cols[e].w_a3.next = self.b_a[3].q.val();
            self.cols[e].wr.next = self.e_wr[e].val();
            self.cols[e].set_valid.next = self.r1.val() & self.order.tgt[e].val();
            self.cols[e].clr_valid.next = self.e_inv[e].val();
            self.cols[e].rank_we.next = self.rank_we.val();
            self.cols[e].w_rank.next = self.order.new_rank[e].val();
            self.cols[e].g_pos.next = self.posa.q.val();
            self.cols[e].g_k.next = self.kk.q.val();
            // The row after this update, for the next load.
            self.fw_wr[e].d.next = self.e_wr[e].val();
            self.fw_inv[e].d.next = self.e_inv[e].val();
            self.fw_valid[e].d.next = (self.r1.val() & self.order.tgt[e].val())
                | (self.e_valid[e].val() & !self.e_inv[e].val());
            if self.rank_we.val() {
                self.fw_rank[e].d.next = self.order.new_rank[e].val();
            } else {
                self.fw_rank[e].d.next = self.e_rank[e].val();
            }
        }
        self.fw_on.d.next = self.b_v.q.val();
        self.fw_cta.d.next = self.b_cta.q.val();
        self.fw_dalloc.d.next = self.r4_alloc.val();
        for d in 0..self._nd {
            self.fw_dtgt[d].d.next = self.dtab.a_tgt[d].val();
            self.c_dhit[d].d.next = self.e_dhit[d].val();
        }
        // ---- Into the job stage.
        self.c_r1.d.next = self.r1.val();
        self.c_r2.d.next = self.r2.val();
        self.c_r3.d.next = self.r3.val();
        self.c_ns.d.next = self.n_same.val();
        self.c_n.d.next = self.b_n.q.val();
        self.c_dh.d.next = self.dh_any.val();
        self.c_lead.d.next = self.dtab.b_lead.val();
        self.c_pc.d.next = self.b_pc.q.val();
        self.c_warp.d.next = self.b_warp.q.val();
        // The job's stride as magnitude and sign (negated in the job stage).
        if self.r4_alloc.val() {
            self.c_stride.d.next = self.x_stride.val();
            self.c_neg.d.next = self.x_neg.val();
        } else {
            self.c_stride.d.next = self.dtab.b_stride.val();
            self.c_neg.d.next = self.dtab.b_neg.val();
        }
        for k in 0..self._lanes {
            self.c_diff[k].d.next = self.x_diff[k].val();
        }
    }
}
