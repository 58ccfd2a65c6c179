//! The second section of the [`super::SnakePrefetcherRtl`] kernel: the
//! lowest-numbered matches, the victim, and step 2, `p`'s inter-warp fields
//! after this load.

use rust_hdl::prelude::*;

use super::{Select, SnakePrefetcherRtl};
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
        // ---- Lowest-numbered matches: p's per-PC source (step 2), the
        // hop choice (the warp's own link first, `m_cur_w`, else the lowest
        // promoted one, `m_cur`), the job pc's per-PC source, q's
        // per-PC source other than the victim, and the lowest invalid
        // entry.
        self.p_below[0].next = false;
        self.cw_below[0].next = false;
        self.c_below[0].next = false;
        self.pj_below[0].next = false;
        self.inv_below[0].next = false;
        self.any_hit.next = false;
        for e in 0..self._nem1 {
            self.p_below[e + 1].next = self.p_below[e].val() | self.ents[e].m_p.val();
        }
        for e in 0..self._ne {
            self.p_src[e].next = self.ents[e].m_p.val() & !self.p_below[e].val();
            self.cw_below[e + 1].next = self.cw_below[e].val() | self.ents[e].m_cur_w.val();
            self.c_below[e + 1].next = self.c_below[e].val() | self.ents[e].m_cur.val();
            self.pj_src[e].next = self.ents[e].m_pj.val() & !self.pj_below[e].val();
            self.pj_below[e + 1].next = self.pj_below[e].val() | self.ents[e].m_pj.val();
            self.inv_below[e + 1].next = self.inv_below[e].val() | !self.ents[e].valid.val();
            if self.ents[e].m_link.val() {
                self.any_hit.next = true;
            }
        }
        self.chain_found.next = false;
        self.pj_found.next = false;
        self.any_inval.next = false;
        for t in self._ne..self._ne1 {
            self.chain_found.next = self.cw_below[t].val() | self.c_below[t].val();
            self.pj_found.next = self.pj_below[t].val();
            self.any_inval.next = self.inv_below[t].val();
        }
        for t in self._ne..self._ne1 {
            for e in 0..self._ne {
                if self.cw_below[t].val() {
                    self.chain_sel[e].next = self.ents[e].m_cur_w.val() & !self.cw_below[e].val();
                } else {
                    self.chain_sel[e].next = self.ents[e].m_cur.val() & !self.c_below[e].val();
                }
            }
        }

        // ---- Victim: the lowest invalid entry, else the least recently
        // used group's entry with the fewest ones (after this load's
        // clearing), ties to the less recently used: the smallest key
        // {ones, ~rank} among the group.
        self.best[0].next = self.key_max.val();
        for e in 0..self._ne {
            self.in_group[e].next = true;
            for g in 0..self._grp {
                self.in_group[e].next = self.ents[e].rank.val() >= self.group_first[g].val();
            }
            if self.in_group[e].val() & (self.ents[e].key.val() < self.best[e].val()) {
                self.best[e + 1].next = self.ents[e].key.val();
            } else {
                self.best[e + 1].next = self.best[e].val();
            }
        }
        for t in self._ne..self._ne1 {
            for e in 0..self._ne {
                if self.any_inval.val() {
                    // The lowest invalid entry: the rank order's choice.
                    self.victim[e].next = self.order.tgt[e].val();
                } else {
                    self.victim[e].next =
                        self.in_group[e].val() & (self.ents[e].key.val() == self.best[t].val());
                }
            }
        }
        self.allocate.next = self.link_en.val() & !self.any_hit.val();

        // ---- Step 2: p's inter-warp fields after this load.
        self.s_iw_valid.next = false;
        self.s_iw_warp.next = self.wb_zero.val();
        self.s_iw_addr.next = self.addr_zero.val();
        self.s_iw_stride.next = self.addr_zero.val();
        self.s_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.p_src[e].val() {
                self.s_iw_valid.next = self.ents[e].iw_valid.val();
                self.s_iw_warp.next = self.ents[e].iw_warp.val();
                self.s_iw_addr.next = self.ents[e].iw_addr.val();
                self.s_iw_stride.next = self.ents[e].iw_stride.val();
                self.s_iw_cnt.next = self.ents[e].iw_cnt.val();
            }
        }
        self.zx_w.narrow.next = self.ld_warp.val();
        self.zx_iww.narrow.next = self.s_iw_warp.val();
        self.iw_div.delta.next = self.zx_w.wide.val() - self.zx_iww.wide.val();
        self.iw_div.diff.next = self.ld_addr.val() - self.s_iw_addr.val();
        self.cand.next = self.iw_div.stride.val();
        self.u_iw_stride.next = self.s_iw_stride.val();
        self.u_iw_cnt.next = self.s_iw_cnt.val();
        if self.s_iw_valid.val() & (self.ld_warp.val() != self.s_iw_warp.val()) {
            if self.iw_div.pow2.val() & self.iw_div.div.val() {
                if (self.s_iw_cnt.val() != self.two_zero.val())
                    & (self.cand.val() == self.s_iw_stride.val())
                {
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
