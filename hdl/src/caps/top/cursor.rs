//! The second part of the [`super::CapsPrefetcherRtl`] kernel's generator
//! selection stage: job B's warp, the selected prefetch's values and the
//! cursor update (`pos`, `k`) when a prefetch is taken.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Cursor};
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
    > Section<Cursor> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Job B: the warp w' (the leading warp is skipped).
        // Session 46: `posb + 1`, `posb + 2` and both end tests from
        // registers; the entry's leading-warp test (`b_eq`) only selects.
        self.pb1.next = self.posb.q.val() + self.wd_one.val();
        self.pb2.next = self.posb.q.val() + self.wd_two.val();
        self.b_end.next = !self.s_hit.val() | !self.dtab.gh_hit.val();
        if self.b_eq.val() {
            self.wb.next = self.pb1.val();
            self.wb1.next = self.pb2.val();
            if self.pb1.val() >= self.zx_cfg.wide.val() {
                self.b_end.next = true;
            }
        } else {
            self.wb.next = self.posb.q.val();
            self.wb1.next = self.pb1.val();
            if self.posb.q.val() >= self.zx_cfg.wide.val() {
                self.b_end.next = true;
            }
        }
        // `kk >= n` (n = 0 without a hit) is "not kk < n".
        self.b_skip.next = !self.b_kin.val();
        if self.j_kind.q.val() {
            self.have_pf.next = self.busy.q.val() & !self.b_end.val() & !self.b_skip.val();
            self.g_end.next = self.busy.q.val() & self.b_end.val();
        } else {
            self.have_pf.next = self.busy.q.val() & self.found_a.val();
            self.g_end.next = self.busy.q.val() & !self.found_a.val();
        }
        // Room: the output queue, the read stage and the two address stages
        // hold fewer than PFQ_DEPTH prefetches at the start of the cycle, or
        // the queue is popped at this edge (so a full pipeline keeps one
        // prefetch per cycle); they never hold more, so "fewer" is "other
        // than PFQ_DEPTH" (`pfq_n` counts the queue and the address stages,
        // `r_v` the read stage: `pfq_n + r_v != PFQ_DEPTH`; the queue's own
        // full flag, implied by it, is kept as a second guard).
        if self.r_v.q.val() {
            self.pf_room.next = (self.pfq_n.q.val() != self.pfq_d1.val()) & !self.pfq.o_full.val();
        } else {
            self.pf_room.next = (self.pfq_n.q.val() != self.pfq_d.val()) & !self.pfq.o_full.val();
        }
        if self.pfq.o_valid.val() & self.pf_ready.val() {
            self.pf_room.next = true;
        }
        self.pf_push.next = self.have_pf.val() & self.pf_room.val();
        self.r_v.d.next = self.pf_push.val();
        // Generator state (the job's pc and warp after the edge,
        // `g_pc_n` and `g_warp_n`, are in the job section).
        if self.take.val() {
            self.busy.d.next = true;
            self.j_kind.d.next = self.jobq.o_data.val().get_bit(0);
            self.j_pc.d.next = self.g_pc_n.val();
            self.j_cta.d.next = self
                .jobq
                .o_data
                .val()
                .get_bits::<C>(self.joff_cta.val().index());
            self.j_oh.d.next = self.j_oh_n.val();
            self.j_warp.d.next = self.g_warp_n.val();
            self.j_stride.d.next = self.jobq_stride.o_data.val();
            self.j_neg.d.next = self.jobq.o_data.val().get_bit(self.joff_neg.val().index());
            self.posa.d.next = self.cp_zero.val();
            self.posb.d.next = self.wd_zero.val();
            self.kk.d.next = self.k_zero.val();
        } else if self.g_end.val() {
            self.busy.d.next = false;
        } else if self.busy.q.val() & self.j_kind.q.val() & self.b_skip.val() {
            self.posb.d.next = self.wb1.val();
            self.kk.d.next = self.k_zero.val();
        } else if self.pf_push.val() {
            if self.j_kind.q.val() {
                if self.b_kin1.val() {
                    self.kk.d.next = self.k_inc.val();
                    self.posb.d.next = self.wb.val();
                } else {
                    self.kk.d.next = self.k_zero.val();
                    self.posb.d.next = self.wb1.val();
                }
            } else {
                self.kk.d.next = self.na_k.val();
                self.posa.d.next = self.na_pos.val();
            }
        }
    }
}
