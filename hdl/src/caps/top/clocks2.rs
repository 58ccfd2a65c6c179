//! The second register section of the [`super::CapsPrefetcherRtl`]
//! kernel: clock, synchronous reset and hold of session 44's registers
//! (the look-up's per-column values, the verify and job stages, the
//! generator's read stage).

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Clocks2};
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
    > Section<Clocks2> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, c_pd, c_pst, v_ns, v_n, v_cnt, v_lead, v_r1, v_r2, v_r3, v_dh, v_pc
        );
        dff_setup!(self, clock, v_warp, v_stride, v_neg, v_cta, v_dalloc);
        dff_setup!(self, clock, r_v, r_oh, r_ks, r_stride, r_neg, r_warp, r_cta);
        self.r_v.reset.next = self.reset.val();
        self.c_pd.reset.next = self.reset.val();
        self.c_pst.reset.next = self.reset.val();
        self.v_ns.reset.next = self.reset.val();
        self.v_cnt.reset.next = self.reset.val();
        self.v_lead.reset.next = self.reset.val();
        self.v_n.reset.next = self.reset.val();
        self.v_dh.reset.next = self.reset.val();
        self.v_pc.reset.next = self.reset.val();
        self.v_warp.reset.next = self.reset.val();
        self.v_stride.reset.next = self.reset.val();
        self.v_neg.reset.next = self.reset.val();
        self.v_cta.reset.next = self.reset.val();
        self.r_oh.reset.next = self.reset.val();
        self.r_ks.reset.next = self.reset.val();
        self.r_stride.reset.next = self.reset.val();
        self.r_neg.reset.next = self.reset.val();
        self.r_warp.reset.next = self.reset.val();
        self.r_cta.reset.next = self.reset.val();
        self.v_r1.reset.next = self.reset.val();
        self.v_r2.reset.next = self.reset.val();
        self.v_r3.reset.next = self.reset.val();
        self.v_dalloc.reset.next = self.reset.val();
        for i in 0..self._lanes {
            self.v_hx[i].clock.next = self.clock.val();
            self.v_hx[i].reset.next = self.reset.val();
            self.v_hx[i].d.next = self.v_hx[i].q.val();
        }
        for i in 0..self._ne {
            self.b_cb0[i].clock.next = self.clock.val();
            self.b_cb0[i].reset.next = self.reset.val();
            self.b_cb0[i].d.next = self.b_cb0[i].q.val();
            self.b_cb1[i].clock.next = self.clock.val();
            self.b_cb1[i].reset.next = self.reset.val();
            self.b_cb1[i].d.next = self.b_cb1[i].q.val();
            self.b_cb2[i].clock.next = self.clock.val();
            self.b_cb2[i].reset.next = self.reset.val();
            self.b_cb2[i].d.next = self.b_cb2[i].q.val();
            self.b_cb3[i].clock.next = self.clock.val();
            self.b_cb3[i].reset.next = self.reset.val();
            self.b_cb3[i].d.next = self.b_cb3[i].q.val();
            self.b_cd0[i].clock.next = self.clock.val();
            self.b_cd0[i].reset.next = self.reset.val();
            self.b_cd0[i].d.next = self.b_cd0[i].q.val();
            self.b_ceq[i].clock.next = self.clock.val();
            self.b_ceq[i].reset.next = self.reset.val();
            self.b_ceq[i].d.next = self.b_ceq[i].q.val();
            self.b_cpow2[i].clock.next = self.clock.val();
            self.b_cpow2[i].reset.next = self.reset.val();
            self.b_cpow2[i].d.next = self.b_cpow2[i].q.val();
            self.b_cdiv[i].clock.next = self.clock.val();
            self.b_cdiv[i].reset.next = self.reset.val();
            self.b_cdiv[i].d.next = self.b_cdiv[i].q.val();
            self.b_cnz[i].clock.next = self.clock.val();
            self.b_cnz[i].reset.next = self.reset.val();
            self.b_cnz[i].d.next = self.b_cnz[i].q.val();
        }
        for i in 0..self._nd {
            self.v_dhit[i].clock.next = self.clock.val();
            self.v_dhit[i].reset.next = self.reset.val();
            self.v_dhit[i].d.next = self.v_dhit[i].q.val();
        }
    }
}
