//! The load's second stage, first part (a section of the
//! [`super::CapsPrefetcherRtl`] kernel): the look-ups of the first stage
//! corrected for the update the previous load made at the last edge
//! (forwarding), and the values of the entry this load finds.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Forward};
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
    > Section<Forward> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Forwarding. The previous load (in this stage one cycle ago)
        // updated its slot's row and DIST at the last edge, after this
        // load's look-up: a launch of this load's slot in between cleared
        // the row (this load saw it empty). Otherwise, in the same slot,
        // the row's valid bits and ranks are the previous load's result,
        // the column it wrote holds this load's pc iff the pcs are equal
        // (its values are then the (f) ones), the column it invalidated
        // misses; and the DIST entry it allocated holds this load's pc iff
        // the pcs are equal.
        self.fwd.next = self.fw_on.q.val() & self.b_cteq.q.val() & !self.b_cleared.q.val();
        self.use_f.next = false;
        self.m_hit.next = false;
        // The found entry's values, registered per column by the look-up
        // and selected here by the registered hit columns (session 44).
        self.xr_eq.next = false;
        self.xr_pow2.next = false;
        self.xr_div.next = false;
        self.xr_nz.next = false;
        for e in 0..self._ne {
            self.sel_xb0.hit[e].next = self.b_hitr[e].q.val();
            self.sel_xb1.hit[e].next = self.b_hitr[e].q.val();
            self.sel_xb2.hit[e].next = self.b_hitr[e].q.val();
            self.sel_xb3.hit[e].next = self.b_hitr[e].q.val();
            self.sel_xd0.hit[e].next = self.b_hitr[e].q.val();
            self.sel_xb0.v[e].next = self.b_cb0[e].q.val();
            self.sel_xb1.v[e].next = self.b_cb1[e].q.val();
            self.sel_xb2.v[e].next = self.b_cb2[e].q.val();
            self.sel_xb3.v[e].next = self.b_cb3[e].q.val();
            self.sel_xd0.v[e].next = self.b_cd0[e].q.val();
            if self.b_hitr[e].q.val() & self.b_ceq[e].q.val() {
                self.xr_eq.next = true;
            }
            if self.b_hitr[e].q.val() & self.b_cpow2[e].q.val() {
                self.xr_pow2.next = true;
            }
            if self.b_hitr[e].q.val() & self.b_cdiv[e].q.val() {
                self.xr_div.next = true;
            }
            if self.b_hitr[e].q.val() & self.b_cnz[e].q.val() {
                self.xr_nz.next = true;
            }
        }
        for e in 0..self._ne {
            self.e_hit[e].next = self.b_hitr[e].q.val();
            self.e_valid[e].next = self.b_evr[e].q.val();
            self.e_rank[e].next = self.b_rankr[e].q.val();
            if self.fwd.val() {
                self.e_valid[e].next = self.fw_valid[e].q.val();
                self.e_rank[e].next = self.fw_rank[e].q.val();
                if self.fw_wr[e].q.val() {
                    self.e_hit[e].next = self.b_pceq.q.val();
                    if self.b_pceq.q.val() {
                        self.use_f.next = true;
                    }
                } else if self.fw_inv[e].q.val() {
                    self.e_hit[e].next = false;
                }
            }
            if self.e_hit[e].val() {
                self.m_hit.next = true;
            }
        }
        self.dh_any.next = false;
        for d in 0..self._nd {
            self.e_dhit[d].next = self.b_dhit[d].q.val();
            if self.fw_dalloc.q.val() & self.fw_dtgt[d].q.val() {
                self.e_dhit[d].next = self.b_pceq.q.val();
            }
            if self.e_dhit[d].val() {
                self.dh_any.next = true;
            }
            self.dtab.b_hit[d].next = self.e_dhit[d].val();
        }
        if self.use_f.val() {
            self.w_is_lead.next = self.b_fwl.q.val();
            self.n_same.next = self.b_fns.q.val();
            self.x_delta.next = self.b_fdelta.q.val();
            self.x_eq.next = self.b_feq.q.val();
            self.x_pow2.next = self.b_fpow2.q.val();
            self.x_div.next = self.b_fdiv.q.val();
            self.x_nz.next = self.b_fnz.q.val();
        } else {
            self.w_is_lead.next = self.b_rwl.q.val();
            self.n_same.next = self.b_rns.q.val();
            self.x_delta.next = self.b_rdelta.q.val();
            self.x_eq.next = self.xr_eq.val();
            self.x_pow2.next = self.xr_pow2.val();
            self.x_div.next = self.xr_div.val();
            self.x_nz.next = self.xr_nz.val();
        }
        // Rule 4's quotient, unnegated (`a0 - base0` shifted right by m,
        // both candidates from registers, only the choice after the
        // forwarding), and its sign (a negative warp distance): the stride
        // is kept as magnitude and sign (DIST, the job stage), so no
        // negation follows the forwarding. The negated warp distances
        // (from registers) are for rule 3's product with a negative
        // stride: d * -m = (-d) * m.
        self.qf.delta.next = self.b_fdelta.q.val();
        self.qf.diff.next = self.b_fdiff[0].q.val();
        self.qr.delta.next = self.b_rdelta.q.val();
        self.qr.diff.next = self.sel_xd0.o.val();
        if self.use_f.val() {
            self.x_stride.next = self.qf.mag.val();
            self.x_neg.next = self.b_fdelta.q.val() >= self.wd_half.val();
            self.x_ndelta.next = self.wd_zero.val() - self.b_fdelta.q.val();
        } else {
            self.x_stride.next = self.qr.mag.val();
            self.x_neg.next = self.b_rdelta.q.val() >= self.wd_half.val();
            self.x_ndelta.next = self.wd_zero.val() - self.b_rdelta.q.val();
        }
        self.rsub[0].y.next = !self.sel_xb0.o.val();
        self.rsub[1].y.next = !self.sel_xb1.o.val();
        self.rsub[2].y.next = !self.sel_xb2.o.val();
        self.rsub[3].y.next = !self.sel_xb3.o.val();
        for k in 0..self._lanes {
            self.rsub[k].x.next = self.b_a[k].q.val();

            self.rsub[k].ci.next = true;
            if self.use_f.val() {
                self.x_diff[k].next = self.b_fdiff[k].q.val();
            } else {
                self.x_diff[k].next = self.rsub[k].s.val();
            }
        }
    }
}
