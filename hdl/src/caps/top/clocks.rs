//! The first section of the [`super::CapsPrefetcherRtl`] kernel: every
//! register's clock, synchronous reset and hold (`d = q`, overridden by
//! the later sections).

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Clocks};
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
    > Section<Clocks> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Every register: clock and hold (`d = q`), then synchronous reset.
        dff_setup!(self, clock, busy, j_kind, j_pc, j_cta, j_oh, j_warp, j_stride, posa, posb);
        dff_setup!(self, clock, kk, st_v, st_base, st_stride, st_dp, st_dm, st_cta, pfq_n);
        dff_setup!(self, clock, b_v, b_pc, b_cta, b_warp, b_n, b_cleared, b_pceq, b_rwl);
        dff_setup!(self, clock, b_rns, b_rdelta, b_fwl);
        dff_setup!(self, clock, b_cteq, b_oh, c_neg, st_neg, j_neg);
        dff_setup!(self, clock, b_fns, b_fdelta, b_feq, b_fpow2, b_fdiv, b_fnz, fw_on);
        dff_setup!(self, clock, fw_cta, fw_dalloc, c_r1, c_r2, c_r3, c_ns, c_n);
        dff_setup!(self, clock, c_dh, c_lead, c_pc, c_warp, c_stride);
        dff_setup!(self, clock, st2_v, st2_s, st2_c, st2_cta, st2_warp);
        self.busy.reset.next = self.reset.val();
        self.j_kind.reset.next = self.reset.val();
        self.j_pc.reset.next = self.reset.val();
        self.j_cta.reset.next = self.reset.val();
        self.j_oh.reset.next = self.reset.val();
        self.j_warp.reset.next = self.reset.val();
        self.j_stride.reset.next = self.reset.val();
        self.posa.reset.next = self.reset.val();
        self.posb.reset.next = self.reset.val();
        self.kk.reset.next = self.reset.val();
        self.st_v.reset.next = self.reset.val();
        self.st_base.reset.next = self.reset.val();
        self.st_stride.reset.next = self.reset.val();
        self.st_dp.reset.next = self.reset.val();
        self.st_dm.reset.next = self.reset.val();
        self.st_cta.reset.next = self.reset.val();
        self.pfq_n.reset.next = self.reset.val();
        self.st2_v.reset.next = self.reset.val();
        self.st2_s.reset.next = self.reset.val();
        self.st2_c.reset.next = self.reset.val();
        self.st2_cta.reset.next = self.reset.val();
        self.st2_warp.reset.next = self.reset.val();
        self.b_v.reset.next = self.reset.val();
        self.b_pc.reset.next = self.reset.val();
        self.b_cta.reset.next = self.reset.val();
        self.b_warp.reset.next = self.reset.val();
        self.b_n.reset.next = self.reset.val();
        self.b_cleared.reset.next = self.reset.val();
        self.b_pceq.reset.next = self.reset.val();
        self.b_cteq.reset.next = self.reset.val();
        self.b_oh.reset.next = self.reset.val();
        self.b_rwl.reset.next = self.reset.val();
        self.b_rns.reset.next = self.reset.val();
        self.b_rdelta.reset.next = self.reset.val();
        self.b_fwl.reset.next = self.reset.val();
        self.b_fns.reset.next = self.reset.val();
        self.b_fdelta.reset.next = self.reset.val();
        self.b_feq.reset.next = self.reset.val();
        self.b_fpow2.reset.next = self.reset.val();
        self.b_fdiv.reset.next = self.reset.val();
        self.b_fnz.reset.next = self.reset.val();
        self.fw_on.reset.next = self.reset.val();
        self.fw_cta.reset.next = self.reset.val();
        self.fw_dalloc.reset.next = self.reset.val();
        self.c_r1.reset.next = self.reset.val();
        self.c_r2.reset.next = self.reset.val();
        self.c_r3.reset.next = self.reset.val();
        self.c_ns.reset.next = self.reset.val();
        self.c_n.reset.next = self.reset.val();
        self.c_dh.reset.next = self.reset.val();
        self.c_lead.reset.next = self.reset.val();
        self.c_pc.reset.next = self.reset.val();
        self.c_warp.reset.next = self.reset.val();
        self.c_stride.reset.next = self.reset.val();
        self.c_neg.reset.next = self.reset.val();
        self.st_neg.reset.next = self.reset.val();
        self.j_neg.reset.next = self.reset.val();
        for i in 0..self._lanes {
            self.b_a[i].clock.next = self.clock.val();
            self.b_a[i].reset.next = self.reset.val();
            self.b_a[i].d.next = self.b_a[i].q.val();
            self.b_fdiff[i].clock.next = self.clock.val();
            self.b_fdiff[i].reset.next = self.reset.val();
            self.b_fdiff[i].d.next = self.b_fdiff[i].q.val();
            self.c_diff[i].clock.next = self.clock.val();
            self.c_diff[i].reset.next = self.reset.val();
            self.c_diff[i].d.next = self.c_diff[i].q.val();
        }
        for i in 0..self._ne {
            self.b_hitr[i].clock.next = self.clock.val();
            self.b_hitr[i].reset.next = self.reset.val();
            self.b_hitr[i].d.next = self.b_hitr[i].q.val();
            self.b_evr[i].clock.next = self.clock.val();
            self.b_evr[i].reset.next = self.reset.val();
            self.b_evr[i].d.next = self.b_evr[i].q.val();
            self.b_rankr[i].clock.next = self.clock.val();
            self.b_rankr[i].reset.next = self.reset.val();
            self.b_rankr[i].d.next = self.b_rankr[i].q.val();
            self.fw_wr[i].clock.next = self.clock.val();
            self.fw_wr[i].reset.next = self.reset.val();
            self.fw_wr[i].d.next = self.fw_wr[i].q.val();
            self.fw_inv[i].clock.next = self.clock.val();
            self.fw_inv[i].reset.next = self.reset.val();
            self.fw_inv[i].d.next = self.fw_inv[i].q.val();
            self.fw_valid[i].clock.next = self.clock.val();
            self.fw_valid[i].reset.next = self.reset.val();
            self.fw_valid[i].d.next = self.fw_valid[i].q.val();
            self.fw_rank[i].clock.next = self.clock.val();
            self.fw_rank[i].reset.next = self.reset.val();
            self.fw_rank[i].d.next = self.fw_rank[i].q.val();
        }
        for i in 0..self._nd {
            self.b_dhit[i].clock.next = self.clock.val();
            self.b_dhit[i].reset.next = self.reset.val();
            self.b_dhit[i].d.next = self.b_dhit[i].q.val();
            self.fw_dtgt[i].clock.next = self.clock.val();
            self.fw_dtgt[i].reset.next = self.reset.val();
            self.fw_dtgt[i].d.next = self.fw_dtgt[i].q.val();
            self.c_dhit[i].clock.next = self.clock.val();
            self.c_dhit[i].reset.next = self.reset.val();
            self.c_dhit[i].d.next = self.c_dhit[i].q.val();
        }
    }
}
