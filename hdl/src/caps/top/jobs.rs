//! The load's third stage (a section of the [`super::CapsPrefetcherRtl`]
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
        // (`fw_cta` and `fw_dalloc` are this load's CTA and rule-4
        // allocation: the forwarding registers hold them for this stage;
        // `c_lead`, rule 3's "this load's CTA is the entry's leading CTA,
        // still in its slot", was read in the rules stage, before the
        // launch of the edge that applied the load.)
        // ---- Rule 3's verification: a[k] != base[k] + p  <=>  diff[k] != p
        // (mod 2^A), the product p taken in the rules stage as a carry-save
        // sum and carry, compared without a carry-propagate adder (`SumNe`).
        self.mism.next = !self.c_ns.q.val();
        for k in 0..self._lanes {
            self.in_c[k].next = self.lane_k[k].val() < self.c_n.q.val();
            self.chk[k].x.next = self.c_diff[k].q.val();
            self.chk[k].so.next = self.c_ps.q.val();
            self.chk[k].co.next = self.c_pcy.q.val();
            if self.in_c[k].val() & self.chk[k].ne.val() {
                self.mism.next = true;
            }
        }
        // The counter of the DIST entry the rules stage found: every
        // earlier load's counter update is in it (theirs were at earlier
        // edges). The trigger compares it after this verification with the
        // threshold: cnt + 1 < thr <=> cnt < thr - 1 (saturated at
        // 2^CW - 1 >= thr: false either way), cnt - 1 < thr <=> cnt <= thr
        // (at 0: true either way), so the three comparisons are taken on
        // the registered counter in parallel with the verification.
        for d in 0..self._nd {
            self.dtab.c_hit[d].next = self.c_dhit[d].q.val();
        }
        if self.mism.val() {
            self.cnt_lt.next = self.dtab.c_cnt.val() < self.thr_m1.val();
        } else if self.cnt_decay.val() {
            self.cnt_lt.next = self.dtab.c_cnt.val() <= self.thr.val();
        } else {
            self.cnt_lt.next = self.dtab.c_cnt.val() < self.thr.val();
        }
        self.dtab.inc.next = self.c_r3.q.val() & self.mism.val();
        self.dtab.dec.next = self.c_r3.q.val() & !self.mism.val() & self.cnt_decay.val();
        // Job B: a new leading warp (rule 1), or with LOOP_JOBS its next
        // iteration (rule 2).
        self.job_b.next = (self.c_r1.q.val() | (self.c_r2.q.val() & self.loop_jobs.val()))
            & self.c_dh.q.val()
            & (self.dtab.c_cnt.val() < self.thr.val());
        self.job_a.next =
            (self.c_r3.q.val() & self.c_lead.q.val() & self.cnt_lt.val()) | self.fw_dalloc.q.val();
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
        self.jp_pc.narrow.next = self.c_pc.q.val();
        self.jp_cta.narrow.next = self.fw_cta.q.val();
        self.jp_warp.narrow.next = self.c_warp.q.val();
        // The stride as magnitude (the second lane) and sign (the header).
        self.jobq_stride.i_data.next = self.c_stride.q.val();
        self.jp_neg.narrow.next = self.c_neg.q.val().into();
        self.jobq.i_data.next = self.jp_kind.wide.val()
            | (self.jp_pc.wide.val() << self.joff_pc.val())
            | (self.jp_cta.wide.val() << self.joff_cta.val())
            | (self.jp_warp.wide.val() << self.joff_warp.val())
            | (self.jp_neg.wide.val() << self.joff_neg.val());
        // ---- The job the generator takes: its pc and warp after this edge,
        // for the generator and the columns' registered scan compares.
        if self.take.val() {
            self.g_pc_n.next = self
                .jobq
                .o_data
                .val()
                .get_bits::<P>(self.joff_pc.val().index());
            self.g_warp_n.next = self
                .jobq
                .o_data
                .val()
                .get_bits::<WI>(self.joff_warp.val().index());
        } else {
            self.g_pc_n.next = self.j_pc.q.val();
            self.g_warp_n.next = self.j_warp.q.val();
        }
        for e in 0..self._ne {
            self.cols[e].g_pc_n.next = self.g_pc_n.val();
            self.cols[e].g_warp_n.next = self.g_warp_n.val();
        }
    }
}
