//! The first section of the [`super::CapsPrefetcherRtl`] kernel: the
//! generator registers' clock, reset and hold; the load's eligibility, its
//! PerCTA and DIST look-ups, rule 3's verification and rule 4's comparison.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Load};
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
    > Section<Load> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Generator registers: clock, reset, hold.
        dff_setup!(self, clock, busy, j_kind, j_pc, j_cta, j_warp, j_stride, posa, posb, kk);
        dff_setup!(self, clock, st_v, st_base, st_stride, st_warp, st_lead, st_cta, pfq_n);
        self.busy.reset.next = self.reset.val();
        self.j_kind.reset.next = self.reset.val();
        self.j_pc.reset.next = self.reset.val();
        self.j_cta.reset.next = self.reset.val();
        self.j_warp.reset.next = self.reset.val();
        self.j_stride.reset.next = self.reset.val();
        self.posa.reset.next = self.reset.val();
        self.posb.reset.next = self.reset.val();
        self.kk.reset.next = self.reset.val();
        self.st_v.reset.next = self.reset.val();
        self.st_base.reset.next = self.reset.val();
        self.st_stride.reset.next = self.reset.val();
        self.st_warp.reset.next = self.reset.val();
        self.st_lead.reset.next = self.reset.val();
        self.st_cta.reset.next = self.reset.val();
        self.pfq_n.reset.next = self.reset.val();

        // ---- The load: eligibility, PerCTA[ld_cta] and DIST look-ups.
        self.elig.next = self.ld_valid.val()
            & !self.ld_indirect.val()
            & (self.ld_count.val() != self.count_zero.val())
            & (self.ld_count.val() <= self.count_max.val());
        self.n3.next = self.ld_count.val().get_bits::<3>(0);
        for k in 0..self._lanes {
            self.a[k].next = self.addr_zero.val();
        }
        for k in 0..self._m {
            self.a[k].next = self.ld_addr[k].val();
        }
        // PerCTA[ld_cta]: one entry per column; the launch of this cycle
        // clears the launched slot first.
        self.zx_lslot.narrow.next = self.ld_cta.val();
        self.l_onehot.next = self.ns_one.val() << self.zx_lslot.wide.val();
        self.zx_cslot.narrow.next = self.cta_launch_slot.val();
        if self.cta_launch_valid.val() {
            self.clear_mask.next = self.ns_one.val() << self.zx_cslot.wide.val();
        } else {
            self.clear_mask.next = self.ns_zero.val();
        }
        self.l_cleared.next =
            self.cta_launch_valid.val() & (self.cta_launch_slot.val() == self.ld_cta.val());
        self.m_hit.next = false;
        for e in 0..self._ne {
            self.cols[e].clock.next = self.clock.val();
            self.cols[e].reset.next = self.reset.val();
            self.cols[e].clear_mask.next = self.clear_mask.val();
            self.cols[e].l_slot.next = self.ld_cta.val();
            self.cols[e].l_onehot.next = self.l_onehot.val();
            self.cols[e].l_cleared.next = self.l_cleared.val();
            self.cols[e].l_pc.next = self.ld_pc.val();
            self.cols[e].l_warp.next = self.ld_warp.val();
            self.cols[e].l_n.next = self.n3.val();
            self.cols[e].a0.next = self.a[0].val();
            self.cols[e].a1.next = self.a[1].val();
            self.cols[e].a2.next = self.a[2].val();
            self.cols[e].a3.next = self.a[3].val();
            // The hit column's entry (at most one column hits): AND-OR.
            if self.cols[e].l_hit.val() {
                self.m_hit.next = true;
            }
            self.sel_llead.hit[e].next = self.cols[e].l_hit.val();
            self.sel_llead.v[e].next = self.cols[e].l_lead.val();
            self.sel_ln.hit[e].next = self.cols[e].l_hit.val();
            self.sel_ln.v[e].next = self.cols[e].l_cnt.val();
            self.sel_lb0.hit[e].next = self.cols[e].l_hit.val();
            self.sel_lb1.hit[e].next = self.cols[e].l_hit.val();
            self.sel_lb2.hit[e].next = self.cols[e].l_hit.val();
            self.sel_lb3.hit[e].next = self.cols[e].l_hit.val();
            self.sel_lb0.v[e].next = self.cols[e].l_base0.val();
            self.sel_lb1.v[e].next = self.cols[e].l_base1.val();
            self.sel_lb2.v[e].next = self.cols[e].l_base2.val();
            self.sel_lb3.v[e].next = self.cols[e].l_base3.val();
            self.order.valid[e].next = self.cols[e].l_ev.val();
            self.order.hit[e].next = self.cols[e].l_hit.val();
            self.order.rank[e].next = self.cols[e].l_rank.val();
        }
        self.m_lead.next = self.sel_llead.o.val();
        self.m_n.next = self.sel_ln.o.val();
        self.m_base[0].next = self.sel_lb0.o.val();
        self.m_base[1].next = self.sel_lb1.o.val();
        self.m_base[2].next = self.sel_lb2.o.val();
        self.m_base[3].next = self.sel_lb3.o.val();
        self.w_is_lead.next = self.ld_warp.val() == self.m_lead.val();
        self.n_same.next = self.n3.val() == self.m_n.val();
        self.zx_ldw.narrow.next = self.ld_warp.val();
        self.zx_llead.narrow.next = self.m_lead.val();
        self.delta_l.next = self.zx_ldw.wide.val() - self.zx_llead.wide.val();
        self.mul_l.d.next = self.delta_l.val();
        self.mul_l.s.next = self.dtab.lh_stride.val();
        self.mul_l.b.next = self.addr_zero.val();
        // Rule 3 verification and rule 4 comparison, lane by lane.
        self.mism.next = !self.n_same.val();
        self.eq_all.next = true;
        for k in 0..self._lanes {
            self.diff[k].next = self.a[k].val() - self.m_base[k].val();
            self.in_n[k].next = self.lane_k[k].val() < self.n3.val();
            // a[k] != base[k] + p  <=>  diff[k] != p (mod 2^A).
            if self.in_n[k].val() & (self.diff[k].val() != self.mul_l.p.val()) {
                self.mism.next = true;
            }
            if self.in_n[k].val() & (self.diff[k].val() != self.diff[0].val()) {
                self.eq_all.next = false;
            }
        }
        self.train.delta.next = self.delta_l.val();
        self.train.diff.next = self.diff[0].val();
    }
}
