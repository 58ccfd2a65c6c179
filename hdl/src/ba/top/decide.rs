//! The second section of the [`super::BaTagArrayRtl`] kernel (stage 2, from
//! registers only): the row as the request sees it, the count of
//! never-reused lines, and the ways ranked before the hit way or before
//! the victim's group, which move down one; the victim itself, the
//! selections and the way made most recently used are [`super::victim`].
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
        // Lowest-numbered invalid way. (The condition reads `inval[u]`: an
        // `if` on the loop indices alone is constant in the Verilog, and for
        // way 0 Icarus then finds no sensitivity and never runs the block.)
        for w in 0..self._ways {
            self.inval_below[w].next = false;
            for u in 0..self._ways {
                if (u < w) & self.inval[u].val() {
                    self.inval_below[w].next = true;
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
    }
}
