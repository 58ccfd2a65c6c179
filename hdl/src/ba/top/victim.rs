//! The third section of the [`super::BaTagArrayRtl`] kernel (stage 2, after
//! [`super::decide`]): the victim of rule 4's group, the one-hot
//! selections turned into way numbers, tags and bypass bits, and the way a
//! load makes most recently used.

use rust_hdl::prelude::*;

use super::{BaTagArrayRtl, Victim};
use crate::section::Section;

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Section<Victim> for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
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
