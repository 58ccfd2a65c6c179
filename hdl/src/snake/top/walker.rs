//! The third section of the [`super::SnakePrefetcherRtl`] kernel: the
//! walker's next prefetch of the head job, its state, and the intra-warp
//! observation of a closing hop.

use rust_hdl::prelude::*;

use super::{SnakePrefetcherRtl, Walker};
use crate::section::Section;

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > Section<Walker> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The walker: the next prefetch of the head job.
        self.e_stride.next = self.addr_zero.val();
        self.e_pc2.next = self.pc_zero.val();
        self.pj_intra.next = self.addr_zero.val();
        self.pj_t2.next = self.two_zero.val();
        self.pj_iw_stride.next = self.addr_zero.val();
        self.pj_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.chain_sel[e].val() {
                self.e_stride.next = self.ents[e].stride.val();
                self.e_pc2.next = self.ents[e].pc2.val();
            }
            if self.pj_src[e].val() {
                self.pj_intra.next = self.ents[e].intra.val();
                self.pj_t2.next = self.ents[e].t2.val();
                self.pj_iw_stride.next = self.ents[e].iw_stride.val();
                self.pj_iw_cnt.next = self.ents[e].iw_cnt.val();
            }
        }
        self.chain_ok.next = !self.phase.q.val()
            & (self.hop.q.val() < self.chain_depth.val())
            & self.chain_found.val();
        self.intra_ok.next =
            !self.phase.q.val() & self.pj_found.val() & (self.pj_t2.val() == self.two_three.val());
        self.zx_jw.narrow.next = self.jw.val();
        self.zx_kidx.narrow.next = self.kidx.q.val();
        self.inter_warp.next =
            self.zx_jw.wide.val() + self.zx_kidx.wide.val() + self.eight_one.val();
        self.inter_ok.next = self.pj_found.val()
            & (self.pj_iw_cnt.val() >= self.two_two.val())
            & (self.kidx.q.val() < self.iw_degree.val())
            & (self.inter_warp.val() < self.n_warps.val());
        self.any_ok.next = self.chain_ok.val() | self.intra_ok.val() | self.inter_ok.val();
        self.next_addr.next = self.addr_eff.val() + self.e_stride.val();
        self.next_sum.next = self.sum_eff.val() + self.e_stride.val();
        self.closes.next = self.e_pc2.val() == self.jp.val();
        self.zx_k.narrow.next = self.kidx.q.val() + self.five_one.val();
        self.mul.d.next = self.zx_k.wide.val();
        self.mul.s.next = self.pj_iw_stride.val();
        if self.chain_ok.val() {
            self.pf_a.next = self.next_addr.val();
            self.pf_w.next = self.jw.val();
            self.pf_k.next = self.kind_chain.val();
        } else if self.intra_ok.val() {
            self.pf_a.next = self.ja.val() + self.pj_intra.val();
            self.pf_w.next = self.jw.val();
            self.pf_k.next = self.kind_intra.val();
        } else {
            self.pf_a.next = self.ja.val() + self.mul.p.val();
            self.pf_w.next = self.inter_warp.val().get_bits::<WB>(0);
            self.pf_k.next = self.kind_inter.val();
        }
        self.push.next =
            self.busy.val() & !self.halted.val() & self.any_ok.val() & !self.pfq.o_full.val();
        self.job_end.next = self.busy.val() & !self.halted.val() & !self.any_ok.val();
        // Walker state.
        if self.halted.val() | self.job_end.val() {
            self.phase.d.next = false;
            self.hop.d.next = self.five_zero.val();
            self.kidx.d.next = self.five_zero.val();
        } else if self.push.val() {
            if self.chain_ok.val() {
                self.hop.d.next = self.hop.q.val() + self.five_one.val();
                self.cur.d.next = self.e_pc2.val();
                self.addr.d.next = self.next_addr.val();
                self.sum.d.next = self.next_sum.val();
                if self.closes.val() {
                    self.phase.d.next = true;
                }
            } else if self.intra_ok.val() {
                self.phase.d.next = true;
            } else {
                self.phase.d.next = true;
                self.kidx.d.next = self.kidx.q.val() + self.five_one.val();
            }
        }
        // The intra-warp observation of a closing hop.
        self.obs_en.next = self.push.val() & self.chain_ok.val() & self.closes.val();
        if (self.pj_t2.val() == self.two_zero.val()) | (self.next_sum.val() != self.pj_intra.val())
        {
            self.o_intra.next = self.next_sum.val();
            self.o_t2.next = self.two_one.val();
        } else {
            self.o_intra.next = self.pj_intra.val();
            if self.pj_t2.val() == self.two_three.val() {
                self.o_t2.next = self.pj_t2.val();
            } else {
                self.o_t2.next = self.pj_t2.val() + self.two_one.val();
            }
        }
    }
}
