//! The load's third stage (a section of the [`super::CapsPrefetcherRtl`]
//! kernel, session 44): rule 3's product and the verification's
//! difference words, registered for the job stage with the load's fields.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Verify};
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
    > Section<Verify> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The verify stage (session 44): rule 3's product from the
        // rules stage's warp distance and stride, as a carry-save sum and
        // carry, and per lane the word whose bits say where diff[k] differs
        // from it (`SumNeWord`, registered; the job stage ORs it).
        self.mul_l.d.next = self.c_pd.q.val();
        self.mul_l.s.next = self.c_pst.q.val();
        self.mul_l.b.next = self.addr_zero.val();
        for k in 0..self._lanes {
            self.chk[k].x.next = self.c_diff[k].q.val();
            self.chk[k].so.next = self.mul_l.so.val();
            self.chk[k].co.next = self.mul_l.co.val();
            self.v_hx[k].d.next = self.chk[k].w.val();
        }
        self.v_ns.d.next = self.c_ns.q.val();
        self.v_n.d.next = self.c_n.q.val();
        // Into the job stage: the verify stage's registers.
        self.v_r1.d.next = self.c_r1.q.val();
        self.v_r2.d.next = self.c_r2.q.val();
        self.v_r3.d.next = self.c_r3.q.val();
        self.v_dh.d.next = self.c_dh.q.val();
        self.v_lead.d.next = self.c_lead.q.val();
        self.v_pc.d.next = self.c_pc.q.val();
        self.v_warp.d.next = self.c_warp.q.val();
        self.v_stride.d.next = self.c_stride.q.val();
        self.v_neg.d.next = self.c_neg.q.val();
        self.v_cta.d.next = self.fw_cta.q.val();
        self.v_dalloc.d.next = self.fw_dalloc.q.val();
        for d in 0..self._nd {
            self.v_dhit[d].d.next = self.c_dhit[d].q.val();
        }
    }
}
