//! The second section of the [`super::BaTagArrayRtl`] kernel: the count of
//! never-reused lines, the victim, the selections as values, and the way
//! the request makes most recently used.

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
        // Z = number of valid ways with reuse = 0.
        self.zcnt[0].next = self.zero8.val();
        self.zsum.next = self.zero8.val();
        for w in 0..self._ways {
            if self.noreuse[w].val() {
                self.zcnt[w + 1].next = self.zcnt[w].val() + self.one8.val();
            } else {
                self.zcnt[w + 1].next = self.zcnt[w].val();
            }
            self.zsum.next = self.zcnt[w + 1].val();
        }
        self.use_noreuse.next =
            (self.zsum.val() >= self.threshold.val()) & (self.zsum.val() != self.zero8.val());
        // BA_POLICY = 1 (rule Q3): a full set with a line never reused misses.
        self.free.next = self.policy1.val() & (self.zsum.val() != self.zero8.val());
        // Victim candidates (never a reserved way), then the least recently
        // used among them.
        for w in 0..self._ways {
            if !self.ba_enable.val() {
                self.vcand[w].next = self.cand[w].val();
            } else if self.use_noreuse.val() {
                self.vcand[w].next = self.noreuse[w].val();
            } else if self.any_reuse.val() {
                self.vcand[w].next = self.withreuse[w].val();
            } else {
                self.vcand[w].next = self.cand[w].val();
            }
        }
        for w in 0..self._ways {
            self.is_victim[w].next = self.vcand[w].val();
            for u in 0..self._ways {
                if (u != w)
                    & self.vcand[u].val()
                    & (self.ways[u].o_rank.val() >= self.ways[w].o_rank.val())
                {
                    self.is_victim[w].next = false;
                }
            }
        }
        // One-hot selections to values.
        self.hit_way.next = self.rank_zero.val();
        self.hit_rank.next = self.rank_zero.val();
        self.hit_bypass.next = false;
        self.fi_way.next = self.rank_zero.val();
        self.victim_way.next = self.rank_zero.val();
        self.victim_rank.next = self.rank_zero.val();
        self.victim_bypass.next = false;
        self.victim_tag.next = self.tag_zero.val();
        self.any_victim.next = false;
        for w in 0..self._ways {
            if self.hit[w].val() {
                self.hit_way.next = self.way_id[w].val();
                self.hit_rank.next = self.ways[w].o_rank.val();
                self.hit_bypass.next = self.ways[w].o_bypass.val();
            }
            if self.first_inval[w].val() {
                self.fi_way.next = self.way_id[w].val();
            }
            if self.is_victim[w].val() {
                self.any_victim.next = true;
                self.victim_way.next = self.way_id[w].val();
                self.victim_rank.next = self.ways[w].o_rank.val();
                self.victim_bypass.next = self.ways[w].o_bypass.val();
                self.victim_tag.next = self.ways[w].o_tag.val();
            }
        }
        // A prefetch of a line already holding data changes nothing (rule P1).
        self.pf_nop.next = self.req_prefetch.val() & self.any_hit.val() & !self.hit_bypass.val();
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
        self.tgt_valid.next = self.any_hit.val() | !self.any_inval.val();
        if self.any_hit.val() {
            self.tgt_rank.next = self.hit_rank.val();
        } else {
            self.tgt_rank.next = self.victim_rank.val();
        }
    }
}
