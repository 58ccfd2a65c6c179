//! The load's first stage (a section of the [`super::CapsPrefetcherRtl`]
//! kernel), on the ports: the load's eligibility, its PerCTA and DIST
//! look-ups, and the values the rules need for the entry the look-up
//! finds (r; its bases are registered and subtracted from the addresses
//! in the rules stage). The values for the entry the load in the rules
//! stage may be writing (f) are in [`super::loadf`]; the rules stage
//! picks one of the two when it knows what that load did.

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
        // Lanes 1..3 below the load's count (`in_n[k - 1]`).
        self.in_n[0].next = self.lane_k[1].val() < self.n3.val();
        self.in_n[1].next = self.lane_k[2].val() < self.n3.val();
        self.in_n[2].next = self.lane_k[3].val() < self.n3.val();
        // Each column computes the rules' values (r) for its entry beside
        // its pc compare; the hit column's are selected (AND-OR; at most
        // one column hits).
        self.b_rwl.d.next = false;
        self.b_rns.d.next = false;
        for e in 0..self._ne {
            self.cols[e].clock.next = self.clock.val();
            self.cols[e].reset.next = self.reset.val();
            self.cols[e].clear_mask.next = self.clear_mask.val();
            self.cols[e].l_slot.next = self.ld_cta.val();
            self.cols[e].l_onehot.next = self.l_onehot.val();
            self.cols[e].l_cleared.next = self.l_cleared.val();
            self.cols[e].l_pc.next = self.ld_pc.val();
            self.cols[e].l_warp.next = self.ld_warp.val();
            self.cols[e].l_n3.next = self.n3.val();
            self.cols[e].l_a0.next = self.a[0].val();
            self.cols[e].l_in1.next = self.in_n[0].val();
            self.cols[e].l_in2.next = self.in_n[1].val();
            self.cols[e].l_in3.next = self.in_n[2].val();
            self.cols[e].l_u1.next = self.uadd[0].s.val();
            self.cols[e].l_u2.next = self.uadd[1].s.val();
            self.cols[e].l_u3.next = self.uadd[2].s.val();
            self.sel_llead.hit[e].next = self.cols[e].l_hit.val();
            self.sel_llead.v[e].next = self.cols[e].l_delta.val();
            if self.cols[e].l_hit.val() {
                self.b_rwl.d.next = self.cols[e].l_wl.val();
                self.b_rns.d.next = self.cols[e].l_ns.val();
            }
            self.b_hitr[e].d.next = self.cols[e].l_hit.val();
            self.b_cb0[e].d.next = self.cols[e].l_b0.val();
            self.b_cb1[e].d.next = self.cols[e].l_b1.val();
            self.b_cb2[e].d.next = self.cols[e].l_b2.val();
            self.b_cb3[e].d.next = self.cols[e].l_b3.val();
            self.b_cd0[e].d.next = self.cols[e].l_diff0.val();
            self.b_ceq[e].d.next = self.cols[e].l_eq.val();
            self.b_cpow2[e].d.next = self.cols[e].l_pow2.val();
            self.b_cdiv[e].d.next = self.cols[e].l_div.val();
            self.b_cnz[e].d.next = self.cols[e].l_nz.val();
            self.b_evr[e].d.next = self.cols[e].l_ev.val();
            self.b_rankr[e].d.next = self.cols[e].l_rank.val();
        }
        self.delta_l.next = self.sel_llead.o.val();
        self.dtab.l_pc.next = self.ld_pc.val();
        for d in 0..self._nd {
            self.b_dhit[d].d.next = self.dtab.l_hit[d].val();
        }
        // ---- Into the rules stage.
        self.b_v.d.next = self.elig.val();
        self.b_pc.d.next = self.ld_pc.val();
        self.b_cta.d.next = self.ld_cta.val();
        self.b_warp.d.next = self.ld_warp.val();
        self.b_n.d.next = self.n3.val();
        self.b_cleared.d.next = self.l_cleared.val();
        self.b_pceq.d.next = self.ld_pc.val() == self.b_pc.q.val();
        // The forwarding's CTA compare and the written slot's one-hot, a
        // cycle early (`fw_cta` will be this `b_cta`).
        self.b_cteq.d.next = self.ld_cta.val() == self.b_cta.q.val();
        self.b_oh.d.next = self.l_onehot.val();
        self.b_rdelta.d.next = self.delta_l.val();
        for k in 0..self._lanes {
            self.b_a[k].d.next = self.a[k].val();
        }
    }
}
