//! The third section of the [`super::CapsPrefetcherRtl`] kernel: the
//! generator's selection stage (the next prefetch of the current job, into
//! the address stage's registers) and the generator's state.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Generator};
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
    > Section<Generator> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Job B's CTA after the edge.
        self.zx_jslot.narrow.next = self
            .jobq
            .o_data
            .val()
            .get_bits::<C>(self.joff_cta.val().index());
        // Job B's slot after the edge, one-hot (the columns keep job B's
        // entry registered for it).
        self.h_oh.next = self.ns_one.val() << self.zx_jslot.wide.val();
        if self.take.val() {
            self.j_oh_n.next = self.h_oh.val();
        } else {
            self.j_oh_n.next = self.j_oh.q.val();
        }
        // ---- Generator: the next prefetch of the current job.
        // Job A: the lowest candidate slot, its one-hot choice by a
        // parallel-prefix OR of the candidate word; job B: slot j_cta.
        for s in 0..self._ncta {
            self.cand_any[s].next = false;
            self.more[s].next = false;
            for e in 0..self._ne {
                if self.cols[e].g_cand.val().get_bit(s) {
                    self.cand_any[s].next = true;
                }
                if self.cols[e].g_more.val().get_bit(s) {
                    self.more[s].next = true;
                }
            }
            self.at_slot[s].next = self.posa.q.val() == self.slot_cp[s].val();
            self.pack_at.bits[s].next = self.at_slot[s].val();
            self.cand[s].next = self.cand_any[s].val()
                & !self.j_oh.q.val().get_bit(s)
                & (self.posa.q.val() <= self.slot_cp[s].val());
            self.pack_cw.bits[s].next = self.cand[s].val();
        }
        self.cw.next = self.pack_cw.word.val();
        self.found_a.next = self.cw.val().any();
        // below[s] = some candidate below slot s: log2(N_CTA) levels of ORs
        // with constant shifts.
        self.pfx[0].next = self.cw.val() << self.ns_one.val();
        for l in 0..self._c {
            self.pfx[l + 1].next = self.pfx[l].val() | (self.pfx[l].val() << self.ns_sh[l].val());
        }
        self.gsel_w.next = self.cw.val();
        for t in self._c..self._c1 {
            self.gsel_w.next = self.cw.val() & !self.pfx[t].val();
        }
        self.gb_selw.next = self.j_oh.q.val();
        // The columns read the chosen slot (job A) or j_cta (job B) for the
        // address stage; job B's cursor reads j_cta through its own port.
        if self.j_kind.q.val() {
            self.g_selw.next = self.gb_selw.val();
        } else {
            self.g_selw.next = self.gsel_w.val();
        }
        // Job A, per slot beside the choice: the cursor after a prefetch
        // from slot s (stay at s with k* + 1, or move to s + 1 with k = 0;
        // k* = k at the cursor's slot, else 0), picked by the one-hot
        // choice (AND-OR).
        self.k_inc.next = self.kk.q.val() + self.k_one.val();
        for s in 0..self._ncta {
            self.gsel[s].next = self.gsel_w.val().get_bit(s);
            self.sel_sc.hit[s].next = self.gsel[s].val();
            self.sel_sc.v[s].next = self.slot_c[s].val();
            self.sel_npos.hit[s].next = self.gsel[s].val();
            self.sel_nk.hit[s].next = self.gsel[s].val();
            if self.more[s].val() {
                self.sel_npos.v[s].next = self.slot_cp[s].val();
                if self.at_slot[s].val() {
                    self.sel_nk.v[s].next = self.k_inc.val();
                } else {
                    self.sel_nk.v[s].next = self.k_one.val();
                }
            } else {
                self.sel_npos.v[s].next = self.slot_cp1[s].val();
                self.sel_nk.v[s].next = self.k_zero.val();
            }
        }
        self.s_c.next = self.sel_sc.o.val();
        self.na_pos.next = self.sel_npos.o.val();
        self.na_k.next = self.sel_nk.o.val();
        // The selected entry: each column's outputs are zero unless it hits
        // at the selected slot, so they are OR-ed.
        // Job B's tests on its entry, one bit per column (at most one
        // column hits), OR-ed; `posb` is the leading warp only if its bits
        // above WI are zero.
        self.s_hit.next = false;
        self.b_eq.next = false;
        self.b_kin.next = false;
        self.b_kin1.next = false;
        for e in 0..self._ne {
            self.cols[e].gb_pos.next = self.posb.q.val().get_bits::<WI>(0);
            if self.cols[e].gb_eq.val() & (self.posb.q.val() < self.wd_half.val()) {
                self.b_eq.next = true;
            }
            if self.cols[e].gb_kin.val() {
                self.b_kin.next = true;
            }
            if self.cols[e].gb_kin1.val() {
                self.b_kin1.next = true;
            }
            self.cols[e].g_sel.next = self.g_selw.val();
            self.cols[e].gb_sel.next = self.gb_selw.val();
            self.cols[e].h_sel.next = self.h_oh.val();
            self.cols[e].g_take.next = self.take.val();
            self.cols[e].g_kind.next = self.j_kind.q.val();
            if self.cols[e].gb_hit.val() {
                self.s_hit.next = true;
            }
        }
        self.zx_cfg.narrow.next = self.cfg_warps_per_cta.val();
    }
}
