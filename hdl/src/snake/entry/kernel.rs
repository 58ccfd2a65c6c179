//! The kernel of [`super::SnakeEntry`] in three sections: the registers'
//! hookup and the comparisons with this cycle's keys ([`Front`]); the
//! registered matches of the next cycle's head job and warp bit, and the
//! hop's sums ([`Ahead`]); the fields, the masked per-PC views and the
//! updates ([`Update`]).

use rust_hdl::prelude::*;

use super::SnakeEntry;
use crate::section::Section;

/// Section 1: registers, comparisons.
pub(super) struct Front;
/// Section 1b: the head job's and the staged load's warp's registers of
/// the next cycle (issue 29 step 9), the hop's sums.
pub(super) struct Ahead;
/// Section 2: fields, masked per-PC views, updates.
pub(super) struct Update;
/// Section 0: the contents of an entry allocated at the last edge, whose
/// wide fields are written at this edge (issue 29 step 14).
pub(super) struct Pend;

impl<const A: usize, const P: usize, const WB: usize, const NW: usize, const RT: usize>
    Section<Pend> for SnakeEntry<A, P, WB, NW, RT>
{
    #[hdl_gen]
    fn update(&mut self) {
        // The link fields now: the top's registers of the last edge's
        // allocation if it chose this entry, else the entry's own.
        if self.r_new.q.val() {
            self.e_pc1.next = self.q.val();
            self.e_pc2.next = self.ap.val();
            self.e_stride.next = self.s.val();
            self.e_wv.next = self.aw.val();
            self.e_span.next = self.asp.val();
            self.b_intra.next = self.c_intra.val();
            self.b_t2.next = self.c_t2.val();
            self.b_iw_valid.next = self.c_iw_valid.val();
            self.b_iw_warp.next = self.c_iw_warp.val();
            self.b_iw_addr.next = self.c_iw_addr.val();
            self.b_iw_stride.next = self.c_iw_stride.val();
            self.b_iw_cnt.next = self.c_iw_cnt.val();
        } else {
            self.e_pc1.next = self.r_pc1.q.val();
            self.e_pc2.next = self.r_pc2.q.val();
            self.e_stride.next = self.r_stride.q.val();
            self.e_wv.next = self.r_wv.q.val();
            self.e_span.next = self.r_span.q.val();
            self.b_intra.next = self.r_intra.q.val();
            self.b_t2.next = self.r_t2.q.val();
            self.b_iw_valid.next = self.r_iw_valid.q.val();
            self.b_iw_warp.next = self.r_iw_warp.q.val();
            self.b_iw_addr.next = self.r_iw_addr.q.val();
            self.b_iw_stride.next = self.r_iw_stride.q.val();
            self.b_iw_cnt.next = self.r_iw_cnt.q.val();
        }
        // The intra-warp fields to write, with a pending observation
        // applied (as `ef_intra`, `ef_t2` for the views).
        self.bf_intra.next = self.b_intra.val();
        self.bf_t2.next = self.b_t2.val();
        if self.r_op.q.val() {
            self.bf_intra.next = self.ox.val();
            if (self.b_t2.val() == self.t1_zero.val()) | !self.oeq.val() {
                self.bf_t2.next = self.t1_two.val();
            } else if self.b_t2.val() != self.t2_three.val() {
                self.bf_t2.next = self.b_t2.val() + self.t1_two.val();
            }
        }
    }
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize, const RT: usize>
    Section<Front> for SnakeEntry<A, P, WB, NW, RT>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_valid,
            r_pc1,
            r_pc2,
            r_stride,
            r_wv,
            r_t1,
            r_intra,
            r_t2,
            r_iw_valid,
            r_iw_warp,
            r_iw_addr,
            r_iw_stride,
            r_iw_cnt,
            r_rank,
            r_span,
            r_ones,
            r_mq,
            r_mp,
            r_mt,
            r_op,
            r_mpj,
            r_new,
            r_vw,
            r_hw,
            r_hjw
        );
        self.r_valid.reset.next = self.reset.val();
        self.r_pc1.reset.next = self.reset.val();
        self.r_pc2.reset.next = self.reset.val();
        self.r_stride.reset.next = self.reset.val();
        self.r_wv.reset.next = self.reset.val();
        self.r_t1.reset.next = self.reset.val();
        self.r_intra.reset.next = self.reset.val();
        self.r_t2.reset.next = self.reset.val();
        self.r_iw_valid.reset.next = self.reset.val();
        self.r_iw_warp.reset.next = self.reset.val();
        self.r_iw_addr.reset.next = self.reset.val();
        self.r_iw_stride.reset.next = self.reset.val();
        self.r_iw_cnt.reset.next = self.reset.val();
        self.r_rank.reset.next = self.reset.val();
        self.r_span.reset.next = self.reset.val();
        self.r_ones.reset.next = self.reset.val();
        self.r_mq.reset.next = self.reset.val();
        self.r_mp.reset.next = self.reset.val();
        self.r_mt.reset.next = self.reset.val();
        self.r_op.reset.next = self.reset.val();
        self.r_mpj.reset.next = self.reset.val();
        self.r_new.reset.next = self.reset.val();
        self.r_vw.reset.next = self.reset.val();
        self.r_hw.reset.next = self.reset.val();
        self.r_hjw.reset.next = self.reset.val();

        // Comparisons with the next staged load's keys and the next head
        // job's pc, registered; in the cycle after an allocation the
        // entry's matches are the forwarded ones (its new contents: valid,
        // `(q, p, s)`), registered by the top.
        self.r_new.d.next = self.alloc.val();
        self.r_vw.d.next = self.r_valid.q.val() & !self.alloc.val();
        self.r_mq.d.next = self.r_valid.q.val() & (self.e_pc1.val() == self.nq.val());
        self.nm_p.next = self.r_valid.q.val() & (self.e_pc1.val() == self.np.val());
        self.r_mp.d.next = self.nm_p.val();
        self.r_mt.d.next =
            (self.e_pc2.val() == self.np.val()) & (self.e_stride.val() == self.ns.val());
        // The staged load's matches and the head job's.
        if self.r_new.q.val() {
            self.m_q.next = self.rf_q.val();
            self.m_p.next = self.rf_p.val();
            self.m_t.next = self.rf_t.val();
        } else {
            self.m_q.next = self.r_mq.q.val();
            self.m_p.next = self.r_mp.q.val();
            self.m_t.next = self.r_mt.q.val();
        }
        self.m_pj.next = self.r_mpj.q.val();
        self.m_link.next = self.m_q.val() & self.m_t.val();
        self.has_w.next = self.r_hw.q.val();
        self.clr.next = self.m_q.val() & self.has_w.val() & !self.m_t.val();
        if self.link_en.val() & self.clr.val() {
            self.wv_clr.next = self.e_wv.val() & !self.w_onehot.val();
            self.ones_clr.next = self.r_ones.q.val() - self.cnt_one.val();
        } else {
            self.wv_clr.next = self.e_wv.val();
            self.ones_clr.next = self.r_ones.q.val();
        }
        self.wv_hit.next = self.e_wv.val() | self.w_onehot.val();
        if self.has_w.val() {
            self.hit_cnt.next = self.r_ones.q.val();
        } else {
            self.hit_cnt.next = self.r_ones.q.val() + self.cnt_one.val();
        }
        // The ones now and their change at this edge (the
        // top compares the pairs from the registers and picks by the
        // change; issue 29 step 12).
        self.ones.next = self.r_ones.q.val();
        self.up.next = self.link_en.val() & self.m_link.val() & !self.has_w.val();
        self.dn.next = self.link_en.val() & self.clr.val();
        self.clr_now.next = self.link_en.val() & self.clr.val();
        // Comparisons with the walker's keys: `pc1 = jp` and `pc1 = cur`
        // side by side, the hop choice's pc picked after them by `first`.
        // The walker does not see an entry allocated at the last edge
        // (`r_vw`; issue 29 step 15), so it reads the entry's own
        // registers (`r_pc1`, `r_pc2`, `r_stride`, `r_span`), never the
        // top's forwarded ones.
        if self.first.val() {
            self.m_cur_pc.next = self.m_pj.val() & self.r_vw.q.val();
        } else {
            self.m_cur_pc.next = self.r_vw.q.val() & (self.r_pc1.q.val() == self.cur.val());
        }
        self.m_cur.next = self.m_cur_pc.val() & (self.r_t1.q.val() == self.t1_prom.val());
        self.has_jw.next = self.r_hjw.q.val();
        self.m_cur_w.next = self.m_cur_pc.val()
            & (self.own.val() | (self.r_t1.q.val() == self.t1_prom.val()))
            & self.has_jw.val();
        self.usable.next = (self.r_t1.q.val() == self.t1_prom.val())
            | (self.own.val() & self.has_jw.val() & (self.r_t1.q.val() == self.t1_two.val()));
    }
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize, const RT: usize>
    Section<Ahead> for SnakeEntry<A, P, WB, NW, RT>
{
    #[hdl_gen]
    fn update(&mut self) {
        // The head job after this edge: without a pop the pushed one or
        // the same, with a pop the pushed one or the second; both compared
        // from registers, this edge's pop picks in front of `r_mpj` (for
        // the entry this edge allocates, the top's `f_j`, `f_j1`).
        self.mj_p.next = self.r_valid.q.val() & (self.e_pc1.val() == self.p.val());
        if self.nx_in.val() {
            self.mpj_n.next = self.mj_p.val();
        } else {
            self.mpj_n.next = self.r_valid.q.val() & (self.e_pc1.val() == self.jp.val());
        }
        if self.nx_in1.val() {
            self.mpj_p.next = self.mj_p.val();
        } else {
            self.mpj_p.next = self.r_valid.q.val() & (self.e_pc1.val() == self.jp1.val());
        }
        if self.alloc.val() {
            if self.pop.val() {
                self.r_mpj.d.next = self.f_j1.val();
            } else {
                self.r_mpj.d.next = self.f_j.val();
            }
        } else if self.pop.val() {
            self.r_mpj.d.next = self.mpj_p.val();
        } else {
            self.r_mpj.d.next = self.mpj_n.val();
        }
        // Bit w of wv for the next staged load (warp `h_onehot`) after this
        // edge: an allocation writes w's bit alone, a hit sets w's bit, a
        // clearing clears it.
        self.nhw.next = (self.e_wv.val() & self.h_onehot.val()).any();
        if self.alloc.val() {
            self.r_hw.d.next = self.same_w.val();
        } else if self.link_en.val() & self.m_link.val() {
            self.r_hw.d.next = self.nhw.val() | self.same_w.val();
        } else if self.link_en.val() & self.clr.val() {
            self.r_hw.d.next = self.nhw.val() & !self.same_w.val();
        } else {
            self.r_hw.d.next = self.nhw.val();
        }
        // Bit `jw` of wv for the head job after this edge (issue 29 step
        // 12): the pushed job's warp is the staged load's (`w`: `has_w`
        // with this edge's training), the head's or the second's from
        // `wv` with the training of `w` forwarded if it is the same warp;
        // the pop picks in front of `r_hjw`.
        self.wv_jw.next = self.e_wv.val().get_bit(self.jw.val().index());
        self.wv_jw1.next = self.e_wv.val().get_bit(self.jw1.val().index());
        if self.alloc.val() | (self.link_en.val() & self.m_link.val()) {
            self.hw_f.next = true;
        } else if self.link_en.val() & self.clr.val() {
            self.hw_f.next = false;
        } else {
            self.hw_f.next = self.has_w.val();
        }
        if self.alloc.val() {
            self.hj_f.next = self.jw_w.val();
            self.hj1_f.next = self.jw1_w.val();
        } else if self.link_en.val() & self.m_link.val() {
            self.hj_f.next = self.wv_jw.val() | self.jw_w.val();
            self.hj1_f.next = self.wv_jw1.val() | self.jw1_w.val();
        } else if self.link_en.val() & self.clr.val() {
            self.hj_f.next = self.wv_jw.val() & !self.jw_w.val();
            self.hj1_f.next = self.wv_jw1.val() & !self.jw1_w.val();
        } else {
            self.hj_f.next = self.wv_jw.val();
            self.hj1_f.next = self.wv_jw1.val();
        }
        if self.nx_in.val() {
            self.hjw_n.next = self.hw_f.val();
        } else {
            self.hjw_n.next = self.hj_f.val();
        }
        if self.nx_in1.val() {
            self.hjw_p.next = self.hw_f.val();
        } else {
            self.hjw_p.next = self.hj1_f.val();
        }
        if self.pop.val() {
            self.r_hjw.d.next = self.hjw_p.val();
        } else {
            self.r_hjw.d.next = self.hjw_n.val();
        }
        // This entry's hop: address and stride sum, from both bases (the
        // job's address before the first hop, the walker's registers
        // after), `first` picking behind the adders.
        self.add_a.x.next = self.b_addr.val();
        self.add_a.y.next = self.r_stride.q.val();
        self.add_a.ci.next = false;
        self.add_j.x.next = self.b_ja.val();
        self.add_j.y.next = self.r_stride.q.val();
        self.add_j.ci.next = false;
        self.add_s.x.next = self.b_sum.val();
        self.add_s.y.next = self.r_stride.q.val();
        self.add_s.ci.next = false;
        if self.first.val() {
            self.n_addr.next = self.add_j.s.val();
            self.n_sum.next = self.r_stride.q.val();
        } else {
            self.n_addr.next = self.add_a.s.val();
            self.n_sum.next = self.add_s.s.val();
        }
    }
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize, const RT: usize>
    Section<Update> for SnakeEntry<A, P, WB, NW, RT>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Fields.
        self.valid.next = self.r_valid.q.val();
        self.pc2.next = self.r_pc2.q.val();
        self.c_close.next = self.r_pc2.q.val() == self.jp.val();
        // The intra-warp fields with a pending observation applied (step 4
        // of the spec): `intra <- x` (the top's register `ox`, early);
        // `t2 <- 1` if it was 0 or `x != intra` (`!oeq`), else `min(t2 +
        // 1, 3)`.
        self.ef_intra.next = self.r_intra.q.val();
        self.ef_t2.next = self.r_t2.q.val();
        if self.r_op.q.val() {
            self.ef_intra.next = self.ox.val();
            if (self.r_t2.q.val() == self.t1_zero.val()) | !self.oeq.val() {
                self.ef_t2.next = self.t1_two.val();
            } else if self.r_t2.q.val() != self.t2_three.val() {
                self.ef_t2.next = self.r_t2.q.val() + self.t1_two.val();
            }
        }
        self.rank.next = self.r_rank.q.val();
        self.span.next = self.r_span.q.val();
        // Masked per-PC views (zero unless the entry matches the pc).
        self.p_iw_valid.next = false;
        self.p_iw_warp.next = self.zero_wb.val();
        self.p_iw_addr.next = self.zero_a.val();
        self.p_iw_stride.next = self.zero_a.val();
        self.p_iw_cnt.next = self.t1_zero.val();
        if self.nm_p.val() & !self.r_new.q.val() {
            self.p_iw_valid.next = self.r_iw_valid.q.val();
            self.p_iw_warp.next = self.r_iw_warp.q.val();
            self.p_iw_addr.next = self.r_iw_addr.q.val();
            self.p_iw_stride.next = self.r_iw_stride.q.val();
            self.p_iw_cnt.next = self.r_iw_cnt.q.val();
        }
        self.j_t2.next = self.t1_zero.val();
        self.j_iw_cnt.next = self.t1_zero.val();
        self.j_intra.next = self.zero_a.val();
        self.j_iw_stride.next = self.zero_a.val();
        if self.m_pj.val() & !self.r_new.q.val() {
            self.j_intra.next = self.ef_intra.val();
            self.j_iw_stride.next = self.r_iw_stride.q.val();
            self.j_t2.next = self.ef_t2.val();
            self.j_iw_cnt.next = self.r_iw_cnt.q.val();
        }
        self.q_intra.next = self.zero_a.val();
        self.q_t2.next = self.t1_zero.val();
        self.q_iw_valid.next = false;
        self.q_iw_warp.next = self.zero_wb.val();
        self.q_iw_addr.next = self.zero_a.val();
        self.q_iw_stride.next = self.zero_a.val();
        self.q_iw_cnt.next = self.t1_zero.val();
        if self.m_q.val() & !self.r_new.q.val() {
            self.q_intra.next = self.ef_intra.val();
            self.q_t2.next = self.ef_t2.val();
            self.q_iw_valid.next = self.r_iw_valid.q.val();
            self.q_iw_warp.next = self.r_iw_warp.q.val();
            self.q_iw_addr.next = self.r_iw_addr.q.val();
            self.q_iw_stride.next = self.r_iw_stride.q.val();
            self.q_iw_cnt.next = self.r_iw_cnt.q.val();
        }

        // Updates.
        if self.rank_we.val() {
            self.r_rank.d.next = self.n_rank.val();
        }
        // The wide fields (issue 29 step 14): an entry allocated at the
        // last edge (`r_new`) writes its contents now, from the top's
        // registers (`q`, `ap`, `s`, `aw`, `asp`, `c_*`: the `b_*` and
        // `e_*` bases), with this edge's updates applied to them as to
        // any entry; an allocation at this edge writes only the narrow
        // fields (valid, ones, `t1`, the pending observation; the rank
        // by `rank_we`), its wide fields follow at the next edge. A
        // pending observation is written (a closing hop one edge ago:
        // `intra <- x`, `t2`); a closing hop this cycle makes one pending
        // (never both: the cycle after a closing hop has no hop).
        self.r_pc1.d.next = self.e_pc1.val();
        self.r_pc2.d.next = self.e_pc2.val();
        self.r_stride.d.next = self.e_stride.val();
        self.r_wv.d.next = self.e_wv.val();
        self.r_span.d.next = self.e_span.val();
        self.r_t2.d.next = self.bf_t2.val();
        self.r_intra.d.next = self.bf_intra.val();
        self.r_iw_valid.d.next = self.b_iw_valid.val();
        self.r_iw_warp.d.next = self.b_iw_warp.val();
        self.r_iw_addr.d.next = self.b_iw_addr.val();
        self.r_iw_stride.d.next = self.b_iw_stride.val();
        self.r_iw_cnt.d.next = self.b_iw_cnt.val();
        self.r_op.d.next = self.obs_we.val() & self.m_pj.val();
        if self.link_en.val() & self.m_link.val() {
            self.r_wv.d.next = self.wv_hit.val();
            self.r_ones.d.next = self.hit_cnt.val();
            self.r_span.d.next = self.sp.val();
            if self.hit_cnt.val() >= self.train.val() {
                self.r_t1.d.next = self.t1_prom.val();
            } else if self.own.val() | (self.hit_cnt.val() == self.cnt_two.val()) {
                self.r_t1.d.next = self.t1_two.val();
            }
        } else if self.link_en.val() & self.clr.val() {
            self.r_wv.d.next = self.wv_clr.val();
            self.r_ones.d.next = self.ones_clr.val();
            self.r_t1.d.next = self.t1_zero.val();
        }
        if self.iw_we.val() & self.m_p.val() {
            self.r_iw_valid.d.next = self.n_iw_valid.val();
            self.r_iw_warp.d.next = self.n_iw_warp.val();
            self.r_iw_addr.d.next = self.n_iw_addr.val();
            self.r_iw_stride.d.next = self.n_iw_stride.val();
            self.r_iw_cnt.d.next = self.n_iw_cnt.val();
        }
        if self.alloc.val() {
            self.r_valid.d.next = true;
            self.r_ones.d.next = self.cnt_one.val();
            self.r_t1.d.next = self.t1_zero.val();
            self.r_op.d.next = self.c_op.val();
        }
    }
}
