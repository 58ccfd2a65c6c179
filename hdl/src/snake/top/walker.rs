//! The third and fourth sections of the [`super::SnakePrefetcherRtl`]
//! kernel: the walker's decision for the head job this cycle (a hop, an
//! intra-warp or an inter-warp prefetch, or the job's end), then the
//! prefetch it makes, its state, and the intra-warp observation of a
//! closing hop.
//!
//! `kidx` holds `k - 1` (so that its reset value is the initial `k = 1`).
//! `phase` is `ph_chain` (hops), `ph_intra` or `ph_inter`; the `k` of the
//! intra-warp step is `kidx + 1` in `ph_intra` and 1 otherwise, that of the
//! inter-warp step `kidx + 1` in `ph_inter` and 1 otherwise.

use rust_hdl::prelude::*;

use super::{SnakePrefetcherRtl, WalkState, Walker};
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
        // ---- The hop choice's entry (one-hot `chain_sel`) and the job
        // pc's per-PC fields (the same in every matching entry): ORs of
        // masked views.
        self.next_addr.next = self.addr_zero.val();
        self.next_sum.next = self.addr_zero.val();
        self.e_pc2.next = self.pc_zero.val();
        self.e_usable.next = false;
        self.closes.next = false;
        self.e_span.next = self.span_zero.val();
        self.pj_intra.next = self.addr_zero.val();
        self.pj_t2.next = self.two_zero.val();
        self.pj_iw_stride.next = self.addr_zero.val();
        self.pj_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            self.h_naddr[e].next = self.addr_zero.val();
            self.h_nsum[e].next = self.addr_zero.val();
            self.h_pc2[e].next = self.pc_zero.val();
            self.h_usable[e].next = false;
            self.h_span[e].next = self.span_zero.val();
            self.h_close[e].next = false;
            if self.chain_sel[e].val() {
                self.h_close[e].next = self.ents[e].c_close.val();
                self.h_naddr[e].next = self.ents[e].n_addr.val();
                self.h_nsum[e].next = self.ents[e].n_sum.val();
                self.h_pc2[e].next = self.ents[e].pc2.val();
                self.h_usable[e].next = self.ents[e].usable.val();
                self.h_span[e].next = self.ents[e].span.val();
            }
            self.next_addr.next = self.next_addr.val() | self.h_naddr[e].val();
            self.next_sum.next = self.next_sum.val() | self.h_nsum[e].val();
            self.e_pc2.next = self.e_pc2.val() | self.h_pc2[e].val();
            self.e_usable.next = self.e_usable.val() | self.h_usable[e].val();
            self.closes.next = self.closes.val() | self.h_close[e].val();
            self.e_span.next = self.e_span.val() | self.h_span[e].val();
            self.pj_intra.next = self.pj_intra.val() | self.ents[e].j_intra.val();
            self.pj_t2.next = self.pj_t2.val() | self.ents[e].j_t2.val();
            self.pj_iw_stride.next = self.pj_iw_stride.val() | self.ents[e].j_iw_stride.val();
            self.pj_iw_cnt.next = self.pj_iw_cnt.val() | self.ents[e].j_iw_cnt.val();
        }
        // A pending observation's `x` (`r_ox`) against the `intra` it
        // replaced (the job pc's, registered at the closing hop).
        self.oeq.next = self.r_ox.q.val() == self.r_ointra.q.val();
        self.r_ointra.d.next = self.pj_intra.val();

        // ---- 1. A hop (chain phase, hop < LOOP_HOPS, an entry found); it
        // emits when hop < CHAIN_DEPTH and the entry is usable for jw.
        self.hop_ok.next = (self.phase.q.val() == self.ph_chain.val())
            & (self.hop.q.val() < self.loop_hops.val())
            & self.chain_found.val();
        self.hop_emit.next =
            self.hop_ok.val() & (self.hop.q.val() < self.chain_depth.val()) & self.e_usable.val();
        // `next_addr` and `next_sum` (`addr + stride`, `sum + stride` of the
        // chosen entry) and `closes` (`pc2 = jp`) are read above from the
        // entries' own sums and comparisons.

        // ---- 2. Intra-warp (no hop this cycle, not in the inter phase).
        if self.phase.q.val() == self.ph_intra.val() {
            self.kin.next = self.kidx.q.val();
        } else {
            self.kin.next = self.five_zero.val();
        }
        self.intra_sel.next = (self.phase.q.val() != self.ph_inter.val())
            & self.pj_found.val()
            & (self.pj_t2.val() == self.two_three.val())
            & (self.kin.val() < self.intra_degree.val());
        self.intra_ok.next = !self.hop_ok.val() & self.intra_sel.val();

        // ---- 3. Inter-warp (no hop and no intra-warp prefetch).
        if self.phase.q.val() == self.ph_inter.val() {
            self.kiw.next = self.kidx.q.val();
        } else {
            self.kiw.next = self.five_zero.val();
        }
        self.zx_jw.narrow.next = self.jw.val();
        self.zx_kidx.narrow.next = self.kiw.val();
        self.inter_warp.next =
            self.zx_jw.wide.val() + self.zx_kidx.wide.val() + self.eight_one.val();
        self.cta_ok.next =
            !self.iw_same_cta.val().any() | (self.inter_warp.val() < self.jend.val());
        self.inter_ok.next = !self.hop_ok.val()
            & !self.intra_ok.val()
            & self.pj_found.val()
            & (self.pj_iw_cnt.val() >= self.two_two.val())
            & (self.kiw.val() < self.iw_degree.val())
            & (self.inter_warp.val() < self.n_warps.val())
            & self.cta_ok.val();
        self.any_ok.next = self.hop_ok.val() | self.intra_ok.val() | self.inter_ok.val();

        // ---- The next `kidx` after an intra- or inter-warp prefetch (`k`,
        // which the output stage multiplies; issue 29 step 11).
        self.kmul_in.next = self.kin.val() + self.five_one.val();
        self.kmul_iw.next = self.kiw.val() + self.five_one.val();
        if self.intra_sel.val() {
            self.kmul.next = self.kmul_in.val();
        } else {
            self.kmul.next = self.kmul_iw.val();
        }

        // ---- What happens at the edge: a push needs room; a hop that
        // does not emit needs none; no next step ends the job.
        // Room: the output queue not full, and not one short of full while
        // the output stage holds a prefetch (which enters it at this edge).
        self.room.next =
            !self.pfq.o_full.val() & !(self.pst_valid.q.val() & self.pfq.o_afull.val());
        self.push.next = self.busy.val()
            & !self.halted.val()
            & (self.hop_emit.val() | self.intra_ok.val() | self.inter_ok.val())
            & self.room.val();
        self.hop_step.next = self.busy.val()
            & !self.halted.val()
            & self.hop_ok.val()
            & (!self.hop_emit.val() | self.room.val());
        self.job_end.next = self.busy.val() & !self.halted.val() & !self.any_ok.val();
    }
}

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > Section<WalkState> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The prefetch (when `push`): a hop's enters the output queue
        // at this edge; an intra- or inter-warp one enters the output stage
        // (issue 29 step 11) with its address's operands, and the queue at
        // the next edge.
        dff_setup!(self, clock, pst_valid, pst_a, pst_st, pst_k, pst_w, pst_kind, pst_span);
        self.pst_valid.reset.next = self.reset.val();
        self.pst_a.reset.next = self.reset.val();
        self.pst_st.reset.next = self.reset.val();
        self.pst_k.reset.next = self.reset.val();
        self.pst_w.reset.next = self.reset.val();
        self.pst_kind.reset.next = self.reset.val();
        self.pst_span.reset.next = self.reset.val();
        self.pst_valid.d.next = self.push.val() & !self.hop_emit.val();
        self.pst_a.d.next = self.ja.val();
        self.pst_k.d.next = self.kmul.val().get_bits::<4>(0);
        if self.intra_sel.val() {
            self.pst_st.d.next = self.pj_intra.val();
            self.pst_w.d.next = self.jw.val();
            self.pst_kind.d.next = self.kind_intra.val();
        } else {
            self.pst_st.d.next = self.pj_iw_stride.val();
            self.pst_w.d.next = self.inter_warp.val().get_bits::<WB>(0);
            self.pst_kind.d.next = self.kind_inter.val();
        }
        self.pst_span.d.next = self.jspan.val();
        if !self.span_en.val().any() {
            self.pst_span.d.next = self.span_zero.val();
        }
        // `a + k x stride` from the stage's registers (k <= 15: a
        // prefetch's k is at most `INTRA_DEGREE` or `IW_DEGREE`): four
        // partial products and the address in one addition.
        self.ks.a.next = self.pst_a.q.val();
        self.ks.b.next = self.addr_zero.val();
        self.ks.c.next = self.addr_zero.val();
        self.ks.d.next = self.addr_zero.val();
        self.ks.e.next = self.addr_zero.val();
        if self.pst_k.q.val().get_bit(0) {
            self.ks.b.next = self.pst_st.q.val();
        }
        if self.pst_k.q.val().get_bit(1) {
            self.ks.c.next = self.pst_st.q.val() << self.sh_one.val();
        }
        if self.pst_k.q.val().get_bit(2) {
            self.ks.d.next = self.pst_st.q.val() << self.sh_two.val();
        }
        if self.pst_k.q.val().get_bit(3) {
            self.ks.e.next = self.pst_st.q.val() << self.sh_three.val();
        }
        // The output queue's entry: the stage's, else the hop's (never
        // both: the stage holds a prefetch only in the cycle after an
        // intra- or inter-warp one, when the walker is past its hops).
        if self.pst_valid.q.val() {
            self.pf_a.next = self.ks.s.val();
            self.pf_w.next = self.pst_w.q.val();
            self.pf_k.next = self.pst_kind.q.val();
            self.pf_s.next = self.pst_span.q.val();
        } else {
            self.pf_a.next = self.next_addr.val();
            self.pf_w.next = self.jw.val();
            self.pf_k.next = self.kind_chain.val();
            self.pf_s.next = self.e_span.val();
            if !self.span_en.val().any() {
                self.pf_s.next = self.span_zero.val();
            }
        }

        // ---- Walker state.
        if self.halted.val() | self.job_end.val() {
            self.phase.d.next = self.ph_chain.val();
            self.hop.d.next = self.five_zero.val();
            self.kidx.d.next = self.five_zero.val();
        } else if self.hop_step.val() {
            self.hop.d.next = self.hop.q.val() + self.five_one.val();
            self.cur.d.next = self.e_pc2.val();
            self.addr.d.next = self.next_addr.val();
            self.sum.d.next = self.next_sum.val();
            if self.closes.val() {
                self.phase.d.next = self.ph_intra.val();
                if self.hop_emit.val() {
                    self.kidx.d.next = self.five_one.val();
                } else {
                    self.kidx.d.next = self.five_zero.val();
                }
            }
        } else if self.push.val() {
            self.kidx.d.next = self.kmul.val();
            if self.intra_ok.val() {
                self.phase.d.next = self.ph_intra.val();
            } else {
                self.phase.d.next = self.ph_inter.val();
            }
        }

        // ---- The intra-warp observation of a closing hop: the entries with
        // `pc1 = jp` mark it pending at this edge (`x` = `sum + stride` in
        // `r_ox`, the old `intra` in `r_ointra`) and write `intra <- x` and
        // `t2` at the next edge, showing them to every reader in between
        // (`SnakeEntry`'s `ef_intra`, `ef_t2`; issue 29 step 10: step 9
        // wrote `intra` at the closing hop's edge).
        self.obs_en.next = self.hop_step.val() & self.closes.val();
        if self.obs_en.val() {
            self.r_ox.d.next = self.next_sum.val();
        }
    }
}
