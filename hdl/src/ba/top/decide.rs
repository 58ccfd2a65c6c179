//! The second section of the [`super::BaTagArrayRtl`] kernel (stage 2, from
//! registers only): the row as the request sees it, the count of
//! never-reused lines, the victim, and the way the request makes most
//! recently used with the ways ranked before it.
//!
//! Searches are written as trees: OR reductions without priority, the
//! count of never-reused ways as a parallel bit count, and the victim
//! searched in each of its three possible groups side by side, the group
//! chosen afterwards, so the count is not in series with the rank
//! comparators.

use rust_hdl::prelude::*;

use super::{BaTagArrayRtl, Decide};
use crate::section::Section;

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Section<Decide> for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // The row (a flush of the accepting edge is already in `rv`). A
        // reserved way (`req_resv`) is neither a way to fill nor a victim
        // candidate, nor counted among the never-reused ways; hits ignore
        // it, but a store does not see a reserved way's tag (GPGPU-Sim: a
        // write to a reserved line is a write miss).
        for w in 0..self._ways {
            if self.rfill[w].q.val() {
                self.etag[w].next = self.p_tag.q.val();
            } else {
                self.etag[w].next = self.rtag[w].q.val();
            }
            self.hit[w].next = self.rv[w].q.val()
                & self.req[w].q.val()
                & !(self.s_write.q.val() & self.s_resv.q.val().get_bit(w));
            self.inval[w].next = !self.rv[w].q.val() & !self.s_resv.q.val().get_bit(w);
            self.cand[w].next = self.rv[w].q.val() & !self.s_resv.q.val().get_bit(w);
            self.noreuse[w].next =
                self.rv[w].q.val() & !self.s_resv.q.val().get_bit(w) & !self.rreuse[w].q.val();
            self.withreuse[w].next =
                self.rv[w].q.val() & !self.s_resv.q.val().get_bit(w) & self.rreuse[w].q.val();
            self.zpack.bits[w].next = self.noreuse[w].val();
        }
        self.any_hit.next = false;
        self.any_inval.next = false;
        self.any_reuse.next = false;
        self.any_noreuse.next = false;
        self.hit_bypass.next = false;
        for w in 0..self._ways {
            self.any_hit.next = self.any_hit.val() | self.hit[w].val();
            self.any_inval.next = self.any_inval.val() | self.inval[w].val();
            self.any_reuse.next = self.any_reuse.val() | self.withreuse[w].val();
            self.any_noreuse.next = self.any_noreuse.val() | self.noreuse[w].val();
            self.hit_bypass.next =
                self.hit_bypass.val() | (self.hit[w].val() & self.rbyp[w].q.val());
        }
        // Lowest-numbered invalid way.
        for w in 0..self._ways {
            self.inval_below[w].next = false;
            for u in 0..self._ways {
                if u < w {
                    self.inval_below[w].next = self.inval_below[w].val() | self.inval[u].val();
                }
            }
            self.first_inval[w].next = self.inval[w].val() & !self.inval_below[w].val();
        }
        // Z = number of valid ways with reuse = 0 that are not reserved.
        self.zpop.x.next = self.zpack.word.val();
        self.zsum.next = self.zpop.ones.val();
        self.use_noreuse.next = (self.zsum.val() >= self.threshold.val()) & self.any_noreuse.val();
        // BA_POLICY = 1 (rule Q3): a full set with a line never reused misses.
        self.free.next = self.policy1.val() & self.any_noreuse.val();
        // The ways ranked before the target move down one. For a hit, the
        // ways ranked before the hit way. For a victim, the ways ranked
        // before the least recently used member of its group, i.e. before
        // some member of the group (ranks are a permutation): no wait for
        // the victim search, only the group's choice. A fill of an invalid
        // way moves every valid way.
        for w in 0..self._ways {
            self.inc_hit[w].next = false;
            self.dec[w].next = false;
            self.old_nr[w].next = false;
            self.old_wr[w].next = false;
            self.old_all[w].next = false;
            for u in 0..self._ways {
                self.inc_hit[w].next = self.inc_hit[w].val()
                    | (self.hit[u].val() & (self.rrank[u].q.val() > self.rrank[w].q.val()));
                self.dec[w].next = self.dec[w].val()
                    | (self.hit[u].val() & (self.rrank[u].q.val() < self.rrank[w].q.val()));
                self.old_nr[w].next = self.old_nr[w].val()
                    | (self.noreuse[u].val() & (self.rrank[u].q.val() > self.rrank[w].q.val()));
                self.old_wr[w].next = self.old_wr[w].val()
                    | (self.withreuse[u].val() & (self.rrank[u].q.val() > self.rrank[w].q.val()));
                self.old_all[w].next = self.old_all[w].val()
                    | (self.cand[u].val() & (self.rrank[u].q.val() > self.rrank[w].q.val()));
            }
            if self.any_hit.val() {
                self.inc[w].next = self.inc_hit[w].val();
            } else if self.any_inval.val() {
                self.inc[w].next = true;
            } else if !self.ba_enable.val() {
                self.inc[w].next = self.old_all[w].val();
            } else if self.use_noreuse.val() {
                self.inc[w].next = self.old_nr[w].val();
            } else if self.any_reuse.val() {
                self.inc[w].next = self.old_wr[w].val();
            } else {
                self.inc[w].next = self.old_all[w].val();
            }
        }
        // The victim: the least recently used way of rule 4's group (the
        // member no other member ranks after: ranks are a permutation);
        // rule 4's group with BA_ENABLE = 1 (never reused when
        // there are enough of them, else reused, else any), plain LRU with
        // BA_ENABLE = 0.
        for w in 0..self._ways {
            self.v_nr[w].next = self.noreuse[w].val() & !self.old_nr[w].val();
            self.v_wr[w].next = self.withreuse[w].val() & !self.old_wr[w].val();
            self.v_all[w].next = self.cand[w].val() & !self.old_all[w].val();
            if !self.ba_enable.val() {
                self.is_victim[w].next = self.v_all[w].val();
            } else if self.use_noreuse.val() {
                self.is_victim[w].next = self.v_nr[w].val();
            } else if self.any_reuse.val() {
                self.is_victim[w].next = self.v_wr[w].val();
            } else {
                self.is_victim[w].next = self.v_all[w].val();
            }
        }
        // One-hot selections to values (OR of the selected values).
        self.hit_way.next = self.rank_zero.val();
        self.fi_way.next = self.rank_zero.val();
        self.victim_way.next = self.rank_zero.val();
        self.vt_nr.next = self.tag_zero.val();
        self.vt_wr.next = self.tag_zero.val();
        self.vt_all.next = self.tag_zero.val();
        self.vb_nr.next = false;
        self.vb_wr.next = false;
        self.vb_all.next = false;
        self.any_victim.next = false;
        for w in 0..self._ways {
            if self.hit[w].val() {
                self.hit_way.next = self.hit_way.val() | self.way_id[w].val();
            }
            if self.first_inval[w].val() {
                self.fi_way.next = self.fi_way.val() | self.way_id[w].val();
            }
            if self.is_victim[w].val() {
                self.victim_way.next = self.victim_way.val() | self.way_id[w].val();
            }
            if self.v_nr[w].val() {
                self.vt_nr.next = self.vt_nr.val() | self.etag[w].val();
            }
            if self.v_wr[w].val() {
                self.vt_wr.next = self.vt_wr.val() | self.etag[w].val();
            }
            if self.v_all[w].val() {
                self.vt_all.next = self.vt_all.val() | self.etag[w].val();
            }
            self.vb_nr.next = self.vb_nr.val() | (self.v_nr[w].val() & self.rbyp[w].q.val());
            self.vb_wr.next = self.vb_wr.val() | (self.v_wr[w].val() & self.rbyp[w].q.val());
            self.vb_all.next = self.vb_all.val() | (self.v_all[w].val() & self.rbyp[w].q.val());
            self.any_victim.next = self.any_victim.val() | self.is_victim[w].val();
        }
        // The victim's tag and bypass bit: each group's, then the group
        // (as for `is_victim`), so the count Z is not in series with them.
        if !self.ba_enable.val() {
            self.victim_tag.next = self.vt_all.val();
            self.victim_bypass.next = self.vb_all.val();
        } else if self.use_noreuse.val() {
            self.victim_tag.next = self.vt_nr.val();
            self.victim_bypass.next = self.vb_nr.val();
        } else if self.any_reuse.val() {
            self.victim_tag.next = self.vt_wr.val();
            self.victim_bypass.next = self.vb_wr.val();
        } else {
            self.victim_tag.next = self.vt_all.val();
            self.victim_bypass.next = self.vb_all.val();
        }
        // A prefetch of a line already holding data changes nothing (rule P1).
        self.pf_nop.next = self.s_prefetch.q.val() & self.any_hit.val() & !self.hit_bypass.val();
        // The way a load makes most recently used.
        for w in 0..self._ways {
            if self.any_hit.val() {
                self.tgt[w].next = self.hit[w].val() & !self.pf_nop.val();
            } else if self.any_inval.val() {
                self.tgt[w].next = self.first_inval[w].val();
            } else {
                self.tgt[w].next = self.is_victim[w].val();
            }
        }
    }
}
