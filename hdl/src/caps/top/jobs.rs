//! The load's third and fourth stages (a section of the [`super::CapsPrefetcherRtl`]
//! kernel): rule 3's verification, the DIST counter, the job and the job
//! FIFO.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Jobs};
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
    > Section<Jobs> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Rule 3's verification: a[k] != base[k] + p  <=>  diff[k] != p
        // (mod 2^A), compared without a carry-propagate adder. (`fw_cta`
        // and `fw_dalloc` are this load's CTA and rule-4 allocation in the
        // verify stage; `v_cta` and `v_dalloc` keep them for the job stage;
        // `v_lead`, rule 3's "this load's CTA is the entry's leading CTA,
        // still in its slot", was read in the rules stage (`c_lead`), before
        // the launch of the edge that applied the load.)
        // The job stage: the verification's result.
        self.mism.next = !self.v_ns.q.val();
        for k in 0..self._lanes {
            self.in_c[k].next = self.lane_k[k].val() < self.v_n.q.val();
            if self.in_c[k].val() & self.v_hx[k].q.val().any() {
                self.mism.next = true;
            }
        }
        // The counter after this stage's update (for the next load's v_cnt).
        self.j_cnt.next = self.v_cnt.q.val();
        if self.v_r3.q.val() & self.mism.val() & (self.v_cnt.q.val() != self.cw_max.val()) {
            self.j_cnt.next = self.v_cnt.q.val() + self.cw_one.val();
        }
        if self.v_r3.q.val()
            & !self.mism.val()
            & self.cnt_decay.val()
            & (self.v_cnt.q.val() != self.cw_zero.val())
        {
            self.j_cnt.next = self.v_cnt.q.val() - self.cw_one.val();
        }
        // The counter of the DIST entry this load found, for the job
        // stage (v_cnt), read one stage early: with the
        // update the load now in the job stage makes at this edge (when it
        // is the same entry), without the allocation the rules stage makes
        // at this edge (that load comes later).
        self.v_same.next = false;
        for d in 0..self._nd {
            self.dtab.c_hit[d].next = self.c_dhit[d].q.val();
            if self.c_dhit[d].q.val() & self.v_dhit[d].q.val() {
                self.v_same.next = true;
            }
        }
        if self.v_same.val() {
            self.v_cnt.d.next = self.j_cnt.val();
        } else {
            self.v_cnt.d.next = self.dtab.c_cnt.val();
        }
        // The job stage: a DIST allocation at the last edge (the next load's)
        // that took this load's entry drops its counter update (the
        // allocation came later); one at this edge wins in DIST.
        self.j_kill.next = false;
        for d in 0..self._nd {
            self.dtab.u_hit[d].next = self.v_dhit[d].q.val();
            if self.fw_dalloc.q.val() & self.fw_dtgt[d].q.val() & self.v_dhit[d].q.val() {
                self.j_kill.next = true;
            }
        }
        // The trigger compares the counter after this verification with the
        // threshold: cnt + 1 < thr <=> cnt < thr - 1 (saturated at
        // 2^CW - 1 >= thr: false either way), cnt - 1 < thr <=> cnt <= thr
        // (at 0: true either way), so the three comparisons are taken on
        // the registered counter in parallel with the verification.
        if self.mism.val() {
            self.cnt_lt.next = self.v_cnt.q.val() < self.thr_m1.val();
        } else if self.cnt_decay.val() {
            self.cnt_lt.next = self.v_cnt.q.val() <= self.thr.val();
        } else {
            self.cnt_lt.next = self.v_cnt.q.val() < self.thr.val();
        }
        self.dtab.inc.next = self.v_r3.q.val() & self.mism.val() & !self.j_kill.val();
        self.dtab.dec.next =
            self.v_r3.q.val() & !self.mism.val() & self.cnt_decay.val() & !self.j_kill.val();
        // Job B: a new leading warp (rule 1), or with LOOP_JOBS its next
        // iteration (rule 2).
        self.job_b.next = (self.v_r1.q.val() | (self.v_r2.q.val() & self.loop_jobs.val()))
            & self.v_dh.q.val()
            & (self.v_cnt.q.val() < self.thr.val());
        self.job_a.next =
            (self.v_r3.q.val() & self.v_lead.q.val() & self.cnt_lt.val()) | self.v_dalloc.q.val();
        // Job FIFO: two queues in lock-step, the header {warp, cta, pc,
        // kind, stride sign} and the stride's magnitude (no lane wider than 64 bits, which Verilator
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
        self.jp_pc.narrow.next = self.v_pc.q.val();
        self.jp_cta.narrow.next = self.v_cta.q.val();
        self.jp_warp.narrow.next = self.v_warp.q.val();
        // The stride as magnitude (the second lane) and sign (the header).
        self.jobq_stride.i_data.next = self.v_stride.q.val();
        self.jp_neg.narrow.next = self.v_neg.q.val().into();
        self.jobq.i_data.next = self.jp_kind.wide.val()
            | (self.jp_pc.wide.val() << self.joff_pc.val())
            | (self.jp_cta.wide.val() << self.joff_cta.val())
            | (self.jp_warp.wide.val() << self.joff_warp.val())
            | (self.jp_neg.wide.val() << self.joff_neg.val());
        // ---- The job the generator takes: its pc and warp after this edge,
        // for the generator and the columns' registered scan compares.
        self.h_pc.next = self
            .jobq
            .o_data
            .val()
            .get_bits::<P>(self.joff_pc.val().index());
        self.h_warp.next = self
            .jobq
            .o_data
            .val()
            .get_bits::<WI>(self.joff_warp.val().index());
        if self.take.val() {
            self.g_pc_n.next = self.h_pc.val();
            self.g_warp_n.next = self.h_warp.val();
        } else {
            self.g_pc_n.next = self.j_pc.q.val();
            self.g_warp_n.next = self.j_warp.q.val();
        }
        // The columns form their registered compares for both the queue's
        // head and the current job, and `take` chooses last (session 49).
        for e in 0..self._ne {
            self.cols[e].h_pc.next = self.h_pc.val();
            self.cols[e].h_warp.next = self.h_warp.val();
            self.cols[e].g_pc.next = self.j_pc.q.val();
            self.cols[e].g_warp.next = self.j_warp.q.val();
        }
    }
}
