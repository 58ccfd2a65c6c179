//! The last section of the [`super::CapsPrefetcherRtl`] kernel: the
//! generator's address stage, the output queue and its occupancy count,
//! and the `pf_*` ports.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Output};
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
    > Section<Output> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The address stage takes the selected base, the stride, the
        // target and the entry's leading warp (when the selection stage
        // pushes; `st_v` says whether it holds a prefetch).
        // ---- The generator's read stage (session 44): the slot the
        // selection chose, k* (k at job B's CTA or the cursor's slot, else 0)
        // and the job's fields; the columns read the entry as it was at the
        // selection.
        self.r_oh.d.next = self.g_selw.val();
        // k* one-hot (bit j: base j; base 0 unless `rd_at`), formed before
        // the edge and registered (session 51). `rd_at`: job B, or job A's
        // chosen slot is the cursor's; the chosen slot is the lowest
        // candidate and every candidate is at or above the cursor, so that
        // is "the cursor's slot is a candidate", read from the candidate
        // word `cw` beside the slot choice instead of from `r_oh` after it.
        self.rd_at.next = self.j_kind.q.val() | (self.cw.val() & self.pack_at.word.val()).any();
        self.rd_k.next = self.k4_b0.val();
        if self.rd_at.val() {
            if self.kk.q.val() == self.k_three.val() {
                self.rd_k.next = self.k4_b3.val();
            } else if self.kk.q.val() == self.k_two.val() {
                self.rd_k.next = self.k4_b2.val();
            } else if self.kk.q.val() == self.k_one.val() {
                self.rd_k.next = self.k4_b1.val();
            }
        }
        self.r_ks.d.next = self.rd_k.val();
        for e in 0..self._ne {
            self.cols[e].r_oh.next = self.r_oh.q.val();
            self.cols[e].r_ks.next = self.r_ks.q.val();
            self.sel_rb.hit[e].next = true;
            self.sel_rb.v[e].next = self.cols[e].q_base.val();
            self.sel_rl.hit[e].next = true;
            self.sel_rl.v[e].next = self.cols[e].q_lead.val();
        }
        self.st_base.d.next = self.sel_rb.o.val();
        // The multiplier's operands ordered by the stride's sign here
        // (session 52), so the first address stage has one subtraction and
        // no multiplexer in front of the partial products: `st_dp - st_dm`
        // is warp - lead, or lead - warp for a negative stride. `r_neg` and
        // `r_warp` are registers; only the lead's read passes the
        // multiplexer.
        if self.r_neg.q.val() {
            self.st_dp.d.next = self.sel_rl.o.val();
            self.st_dm.d.next = self.r_warp.q.val();
        } else {
            self.st_dp.d.next = self.r_warp.q.val();
            self.st_dm.d.next = self.sel_rl.o.val();
        }
        self.st_v.d.next = self.r_v.q.val();
        self.st_stride.d.next = self.r_stride.q.val();
        self.st_neg.d.next = self.r_neg.q.val();
        self.st_cta.d.next = self.r_cta.q.val();
        // The stride as magnitude and sign: DIST's (job B), the job's
        // (job A).
        if self.j_kind.q.val() {
            self.r_stride.d.next = self.dtab.gh_stride.val();
            self.r_neg.d.next = self.dtab.gh_neg.val();
            self.r_warp.d.next = self.wb.val().get_bits::<WI>(0);
            self.r_cta.d.next = self.j_cta.q.val();
        } else {
            self.r_stride.d.next = self.j_stride.q.val();
            self.r_neg.d.next = self.j_neg.q.val();
            self.r_warp.d.next = self.j_warp.q.val();
            self.r_cta.d.next = self.s_c.val();
        }
        // ---- The generator's first address stage: base + (warp - lead) *
        // stride as one carry-save sum and carry, registered with the
        // target.
        self.zx_stw.narrow.next = self.st_dp.q.val();
        self.zx_stl.narrow.next = self.st_dm.q.val();
        self.mul_g.b.next = self.st_base.q.val();
        // A negative stride magnitude m: (warp - lead) * -m = (lead - warp) * m;
        // the operands came ordered from the read stage.
        self.mul_g.d.next = self.zx_stw.wide.val() - self.zx_stl.wide.val();
        self.mul_g.s.next = self.st_stride.q.val();
        self.st2_v.d.next = self.st_v.q.val();
        self.st2_s.d.next = self.mul_g.so.val();
        self.st2_c.d.next = self.mul_g.co.val();
        self.st2_cta.d.next = self.st_cta.q.val();
        // The target warp: the minuend, or the subtrahend for a negative
        // stride.
        if self.st_neg.q.val() {
            self.st2_warp.d.next = self.st_dm.q.val();
        } else {
            self.st2_warp.d.next = self.st_dp.q.val();
        }
        // ---- The second address stage: the carry-propagate adder, pushed
        // into the output queue (the selection stage made room for it).
        self.add_g.x.next = self.st2_s.q.val();
        self.add_g.y.next = self.st2_c.q.val();
        self.add_g.ci.next = false;
        // ---- Output queue: a prefetch packed as {warp, cta, addr}; the
        // queue's head is zero while it is empty.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.st2_v.q.val();
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        // The prefetches held by the queue and the second stage: + the
        // first stage's prefetch moving on (`st_v`, a register, so the
        // selection's push is not on this path), - the pop.
        if self.r_v.q.val() & !self.pfq.pop.val() {
            self.pfq_n.d.next = self.pfq_n.q.val() + self.n7_one.val();
        } else if !self.r_v.q.val() & self.pfq.pop.val() {
            self.pfq_n.d.next = self.pfq_n.q.val() - self.n7_one.val();
        }
        self.qp_addr.narrow.next = self.add_g.s.val();
        self.qp_cta.narrow.next = self.st2_cta.q.val();
        self.qp_warp.narrow.next = self.st2_warp.q.val();
        self.pfq.i_data.next = self.qp_addr.wide.val()
            | (self.qp_cta.wide.val() << self.qoff_cta.val())
            | (self.qp_warp.wide.val() << self.qoff_warp.val());
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_data.val().get_bits::<A>(0);
        self.pf_cta.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<C>(self.qoff_cta.val().index());
        self.pf_warp.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<WI>(self.qoff_warp.val().index());
    }
}
