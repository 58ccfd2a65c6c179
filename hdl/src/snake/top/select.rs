//! The second section of the [`super::SnakePrefetcherRtl`] kernel: the
//! matches of this cycle (p's and the job pc's per-PC fields, the hop
//! choice), the victim, and step 2, `p`'s inter-warp fields after this
//! load.
//!
//! The per-PC fields are the same in every valid entry with one `pc1` (an
//! update writes all of them, a new entry copies them), so "the
//! lowest-numbered valid entry with `pc1 = x`" reads the OR of every
//! matching entry's masked view: no priority chain. The hop choice's first
//! preference (`m_cur_w`) holds in at most one entry (the mismatch
//! clearing); only the promoted fallback needs the lowest match
//! ([`FirstOne`](crate::snake::prim::FirstOne)). The victim compares every
//! pair of keys at once, from registers, the clearing bits applied last.

use rust_hdl::prelude::*;

use super::{PView, Select, SnakePrefetcherRtl};
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
    > Section<Select> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Which entries match: any hit, the lowest invalid entry, the
        // hop choice.
        self.any_hit.next = false;
        self.cw_any.next = false;
        self.pj_found.next = false;
        for e in 0..self._ne {
            if self.ents[e].m_link.val() {
                self.any_hit.next = true;
            }
            if self.ents[e].m_cur_w.val() {
                self.cw_any.next = true;
            }
            if self.ents[e].m_pj.val() {
                self.pj_found.next = true;
            }
            self.fo_cur.x[e].next = self.ents[e].m_cur.val();
            self.fo_inv.x[e].next = !self.ents[e].valid.val();
        }
        self.any_inval.next = self.fo_inv.any.val();
        self.chain_found.next = self.cw_any.val() | self.fo_cur.any.val();
        for e in 0..self._ne {
            if self.cw_any.val() {
                self.chain_sel[e].next = self.ents[e].m_cur_w.val();
            } else {
                self.chain_sel[e].next = self.fo_cur.first[e].val();
            }
        }

        // ---- Victim: the lowest invalid entry, else the least recently
        // used group's entry with the fewest ones (after this load's
        // clearing), ties to the less recently used: the smallest key
        // {ones, ~rank} among the group (keys are unique: ranks are), the
        // entry whose key is at most every other group member's.
        for e in 0..self._ne {
            self.pkeys.rank[e].next = self.ents[e].rank.val();
            self.in_group[e].next = true;
            for g in 0..self._grp {
                self.in_group[e].next = self.ents[e].rank.val() >= self.group_first[g].val();
            }
        }
        // Key j below key e: with `D = ones_j - ones_e` (before this load)
        // and the clearing bits `cj`, `ce`, `D < cj - ce`, or `D = cj - ce`
        // and j less recently used (`older`). The comparisons of `D` were
        // registered at the last edge (`vt0`..`vt3`: `D < -1, 0, 1, 2`); the
        // clearing bits only select among them, a word per entry e.
        for e in 0..self._ne {
            self.pk_clr.bits[e].next = self.ents[e].clr_now.val();
            self.pk_grp.bits[e].next = self.in_group[e].val();
        }
        for e in 0..self._ne {
            if self.ents[e].clr_now.val() {
                // cj = 1: D < 0; cj = 0: D < -1.
                self.beats[e].next = (self.pk_clr.word.val()
                    & (self.vt1[e].q.val() | (self.vt2[e].q.val() & self.pkeys.older[e].val())))
                    | ((!self.pk_clr.word.val())
                        & (self.vt0[e].q.val()
                            | (self.vt1[e].q.val() & self.pkeys.older[e].val())));
            } else {
                // cj = 0: D < 0; cj = 1: D < 1.
                self.beats[e].next = ((!self.pk_clr.word.val())
                    & (self.vt1[e].q.val() | (self.vt2[e].q.val() & self.pkeys.older[e].val())))
                    | (self.pk_clr.word.val()
                        & (self.vt2[e].q.val()
                            | (self.vt3[e].q.val() & self.pkeys.older[e].val())));
            }
            self.vic_ok[e].next =
                self.in_group[e].val() & !((self.beats[e].val() & self.pk_grp.word.val()).any());
            if self.any_inval.val() {
                self.victim[e].next = self.fo_inv.first[e].val();
            } else {
                self.victim[e].next = self.vic_ok[e].val();
            }
        }
        self.allocate.next = self.link_en.val() & !self.any_hit.val();

        // ---- Step 2: p's inter-warp fields (registered a cycle ahead)
        // after this load.
        self.s_iw_valid.next = self.r_pv_valid.q.val();
        self.s_iw_warp.next = self.r_pv_warp.q.val();
        self.s_iw_addr.next = self.r_pv_addr.q.val();
        self.s_iw_stride.next = self.r_pv_stride.q.val();
        self.s_iw_cnt.next = self.r_pv_cnt.q.val();
        self.iw_div.w.next = self.l_warp.q.val();
        self.iw_div.lead.next = self.s_iw_warp.val();
        self.iw_div.a.next = self.l_addr.q.val();
        self.iw_div.base.next = self.s_iw_addr.val();
        self.iw_div.cmp.next = self.s_iw_stride.val();
        self.cand.next = self.iw_div.stride.val();
        self.u_iw_stride.next = self.s_iw_stride.val();
        self.u_iw_cnt.next = self.s_iw_cnt.val();
        if self.s_iw_valid.val() & (self.l_warp.q.val() != self.s_iw_warp.val()) {
            if self.iw_div.pow2.val() & self.iw_div.div.val() {
                if (self.s_iw_cnt.val() != self.two_zero.val()) & self.iw_div.eq.val() {
                    if self.s_iw_cnt.val() != self.two_three.val() {
                        self.u_iw_cnt.next = self.s_iw_cnt.val() + self.two_one.val();
                    }
                } else {
                    self.u_iw_stride.next = self.cand.val();
                    self.u_iw_cnt.next = self.two_one.val();
                }
            } else {
                self.u_iw_cnt.next = self.two_zero.val();
            }
        }
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
    > Section<PView> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // The registers of issue 29 step 9 (the next staged load's
        // inter-warp fields, the pending observation's old `intra`; step
        // 10: its `x`).
        dff_setup!(
            self,
            clock,
            r_pv_valid,
            r_pv_warp,
            r_pv_addr,
            r_pv_stride,
            r_pv_cnt,
            r_ointra,
            r_ox
        );
        self.r_pv_valid.reset.next = self.reset.val();
        self.r_pv_warp.reset.next = self.reset.val();
        self.r_pv_addr.reset.next = self.reset.val();
        self.r_pv_stride.reset.next = self.reset.val();
        self.r_pv_cnt.reset.next = self.reset.val();
        self.r_ointra.reset.next = self.reset.val();
        self.r_ox.reset.next = self.reset.val();
        // The next staged load's warp for the entries' warp bit.
        self.same_w.next = self.ld_warp.val() == self.l_warp.q.val();
        for e in 0..self._ne {
            self.ents[e].h_onehot.next = self.h_onehot.val();
            self.ents[e].same_w.next = self.same_w.val();
        }
        // ---- The next staged load's inter-warp fields, after this edge:
        // none if no entry keeps its pc (an evicted entry does not; an
        // entry allocated for it copies a surviving one's); this edge's
        // update if it has this load's pc (every entry with the pc takes
        // it); else the entries' own (unchanged at this edge).
        self.pv_same.next = self.load_en.val() & (self.ld_pc.val() == self.l_pc.q.val());
        self.pv_any.next = false;
        self.o_iw_valid.next = false;
        self.o_iw_warp.next = self.wb_zero.val();
        self.o_iw_addr.next = self.addr_zero.val();
        self.o_iw_stride.next = self.addr_zero.val();
        self.o_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.ents[e].nm_p.val() & !(self.allocate.val() & self.victim[e].val()) {
                self.pv_any.next = true;
            }
            self.o_iw_valid.next = self.o_iw_valid.val() | self.ents[e].p_iw_valid.val();
            self.o_iw_warp.next = self.o_iw_warp.val() | self.ents[e].p_iw_warp.val();
            self.o_iw_addr.next = self.o_iw_addr.val() | self.ents[e].p_iw_addr.val();
            self.o_iw_stride.next = self.o_iw_stride.val() | self.ents[e].p_iw_stride.val();
            self.o_iw_cnt.next = self.o_iw_cnt.val() | self.ents[e].p_iw_cnt.val();
        }
        self.r_pv_valid.d.next = false;
        self.r_pv_warp.d.next = self.wb_zero.val();
        self.r_pv_addr.d.next = self.addr_zero.val();
        self.r_pv_stride.d.next = self.addr_zero.val();
        self.r_pv_cnt.d.next = self.two_zero.val();
        if self.pv_any.val() {
            if self.pv_same.val() {
                self.r_pv_valid.d.next = true;
                self.r_pv_warp.d.next = self.l_warp.q.val();
                self.r_pv_addr.d.next = self.l_addr.q.val();
                self.r_pv_stride.d.next = self.u_iw_stride.val();
                self.r_pv_cnt.d.next = self.u_iw_cnt.val();
            } else {
                self.r_pv_valid.d.next = self.o_iw_valid.val();
                self.r_pv_warp.d.next = self.o_iw_warp.val();
                self.r_pv_addr.d.next = self.o_iw_addr.val();
                self.r_pv_stride.d.next = self.o_iw_stride.val();
                self.r_pv_cnt.d.next = self.o_iw_cnt.val();
            }
        }
    }
}
