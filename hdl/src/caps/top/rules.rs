//! The second section of the [`super::CapsPrefetcherRtl`] kernel: the rules
//! applied to the load, the DIST and PerCTA updates, and the job FIFO.

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
        // The rules.
        self.r1.next = self.elig.val() & !self.m_hit.val();
        self.r2.next = self.elig.val() & self.m_hit.val() & self.w_is_lead.val();
        self.r3.next =
            self.elig.val() & self.m_hit.val() & !self.w_is_lead.val() & self.dtab.lh_hit.val();
        self.r4.next =
            self.elig.val() & self.m_hit.val() & !self.w_is_lead.val() & !self.dtab.lh_hit.val();
        self.r4_inval.next = self.r4.val()
            & (!self.n_same.val()
                | (self.train.pow2.val() & (!self.train.div.val() | !self.eq_all.val())));
        self.r4_alloc.next = self.r4.val()
            & self.n_same.val()
            & self.train.pow2.val()
            & self.train.div.val()
            & self.eq_all.val()
            & (self.a[0].val() != self.m_base[0].val());
        // Rule 3's trigger compares the counter after the verification with
        // the threshold: cnt + 1 < thr <=> cnt < thr - 1 (saturated at
        // 2^CW - 1 >= thr: false either way), cnt - 1 < thr <=> cnt <= thr
        // (at 0: true either way), so the three comparisons are taken on the
        // registered counter in parallel with the verification.
        if self.mism.val() {
            self.cnt_lt.next = self.dtab.lh_cnt.val() < self.thr_m1.val();
        } else if self.cnt_decay.val() {
            self.cnt_lt.next = self.dtab.lh_cnt.val() <= self.thr.val();
        } else {
            self.cnt_lt.next = self.dtab.lh_cnt.val() < self.thr.val();
        }
        // Job B: a new leading warp (rule 1), or with LOOP_JOBS its next
        // iteration (rule 2).
        self.job_b.next = (self.r1.val() | (self.r2.val() & self.loop_jobs.val()))
            & self.dtab.lh_hit.val()
            & (self.dtab.lh_cnt.val() < self.thr.val());
        self.job_a.next = (self.r3.val()
            & (self.ld_cta.val() == self.dtab.lh_lead_cta.val())
            & self.cnt_lt.val())
            | self.r4_alloc.val();
        // DIST updates and the generator's DIST look-up.
        self.dtab.clock.next = self.clock.val();
        self.dtab.reset.next = self.reset.val();
        self.dtab.l_pc.next = self.ld_pc.val();
        self.dtab.alloc.next = self.r4_alloc.val();
        self.dtab.a_stride.next = self.train.stride.val();
        self.dtab.a_lead_cta.next = self.ld_cta.val();
        self.dtab.inc.next = self.r3.val() & self.mism.val();
        self.dtab.dec.next = self.r3.val() & !self.mism.val() & self.cnt_decay.val();
        self.dtab.g_pc.next = self.j_pc.q.val();
        // PerCTA[ld_cta] updates: allocation (rule 1), the leading warp's
        // rewrite (rule 2), invalidation (rule 4); the order's new ranks
        // are written back whenever the slot's table changes.
        self.order.alloc.next = self.r1.val();
        self.order.touch.next = self.r2.val();
        self.order.inval.next = self.r4_inval.val();
        for e in 0..self._ne {
            self.cols[e].wr.next = (self.r1.val() & self.order.tgt[e].val())
                | (self.r2.val() & self.cols[e].l_hit.val());
            self.cols[e].set_valid.next = self.r1.val() & self.order.tgt[e].val();
            self.cols[e].clr_valid.next = self.r4_inval.val() & self.cols[e].l_hit.val();
            self.cols[e].rank_we.next = self.r1.val() | self.r2.val() | self.r4_inval.val();
            self.cols[e].w_rank.next = self.order.new_rank[e].val();
            self.cols[e].g_pc.next = self.j_pc.q.val();
            self.cols[e].g_warp.next = self.j_warp.q.val();
            self.cols[e].g_pos.next = self.posa.q.val();
            self.cols[e].g_k.next = self.kk.q.val();
        }
        // Job FIFO: two queues in lock-step, the header {warp, cta, pc,
        // kind} and the stride (no lane wider than 64 bits, which Verilator
        // keeps in plain integers); like any lanes joined in parallel, the
        // FIFO is full when a lane is full and holds a job when both lanes
        // do. A job is dropped when the FIFO is full.
        self.take.next =
            !self.busy.q.val() & self.jobq.o_valid.val() & self.jobq_stride.o_valid.val();
        self.jobq.clock.next = self.clock.val();
        self.jobq.reset.next = self.reset.val();
        self.job_push.next = (self.job_a.val() | self.job_b.val())
            & !self.jobq.o_full.val()
            & !self.jobq_stride.o_full.val();
        self.jobq.push.next = self.job_push.val();
        self.jobq.pop.next = self.take.val();
        self.jobq_stride.clock.next = self.clock.val();
        self.jobq_stride.reset.next = self.reset.val();
        self.jobq_stride.push.next = self.job_push.val();
        self.jobq_stride.pop.next = self.take.val();
        self.jp_kind.narrow.next = self.job_b.val().into();
        self.jp_pc.narrow.next = self.ld_pc.val();
        self.jp_cta.narrow.next = self.ld_cta.val();
        self.jp_warp.narrow.next = self.ld_warp.val();
        if self.r4_alloc.val() {
            self.jobq_stride.i_data.next = self.train.stride.val();
        } else {
            self.jobq_stride.i_data.next = self.dtab.lh_stride.val();
        }
        self.jobq.i_data.next = self.jp_kind.wide.val()
            | (self.jp_pc.wide.val() << self.joff_pc.val())
            | (self.jp_cta.wide.val() << self.joff_cta.val())
            | (self.jp_warp.wide.val() << self.joff_warp.val());
    }
}
