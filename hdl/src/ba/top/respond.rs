//! The fourth section of the [`super::BaTagArrayRtl`] kernel (stage 2): the
//! outcome and eviction report, each way's line written back, and the
//! response registers.

use rust_hdl::prelude::*;

use super::{BaTagArrayRtl, Respond};
use crate::section::Section;

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Section<Respond> for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Outcome and eviction report.
        self.m_outcome.next = self.c_hit.val();
        self.m_way.next = self.rank_zero.val();
        self.m_evict_valid.next = false;
        self.m_evict_tag.next = self.tag_zero.val();
        if self.s_write.q.val() {
            if self.any_hit.val() {
                self.m_outcome.next = self.c_wevict.val();
                self.m_way.next = self.hit_way.val();
                self.m_evict_valid.next = !self.hit_bypass.val();
                if !self.hit_bypass.val() {
                    self.m_evict_tag.next = self.s_tag.q.val();
                }
            } else {
                self.m_outcome.next = self.c_wmiss.val();
            }
        } else if self.any_hit.val() {
            if self.hit_bypass.val() {
                self.m_outcome.next = self.c_pseudo.val();
            } else {
                self.m_outcome.next = self.c_hit.val();
            }
            self.m_way.next = self.hit_way.val();
        } else if self.any_inval.val() {
            self.m_outcome.next = self.c_miss.val();
            self.m_way.next = self.fi_way.val();
        } else {
            // No way to fill: BYPASS (which needs no way: with every way
            // reserved it stores nothing), a MISS over the victim, or, with
            // every way reserved, RESV_FAIL (way 0, nothing changes: no way
            // is a target, so no line is written differently).
            if self.ba_enable.val() & !self.s_prefetch.q.val() & !self.free.val() {
                self.m_outcome.next = self.c_bypass.val();
            } else if self.any_victim.val() {
                self.m_outcome.next = self.c_miss.val();
            } else {
                self.m_outcome.next = self.c_resvfail.val();
            }
            self.m_way.next = self.victim_way.val();
            self.m_evict_valid.next = self.any_victim.val() & !self.victim_bypass.val();
            if self.any_victim.val() & !self.victim_bypass.val() {
                self.m_evict_tag.next = self.victim_tag.val();
            }
        }
        // The addressed line of each way after the request (written back
        // when stage 2 holds a request; a flush of this edge is applied
        // after it, in the ways).
        self.new_bypass.next = !self.any_inval.val()
            & self.ba_enable.val()
            & !self.s_prefetch.q.val()
            & !self.free.val();
        for w in 0..self._ways {
            self.fill[w].next = false;
            self.n_valid[w].next = self.rv[w].q.val();
            self.n_reuse[w].next = self.rreuse[w].q.val();
            self.n_byp[w].next = self.rbyp[w].q.val();
            self.n_rank[w].next = self.rrank[w].q.val();
            if self.s_write.q.val() {
                if self.hit[w].val() {
                    self.n_valid[w].next = false;
                } else if self.rv[w].q.val() & self.dec[w].val() {
                    self.n_rank[w].next = self.rrank[w].q.val() - self.rank_one.val();
                }
            } else if self.tgt[w].val() {
                self.n_rank[w].next = self.rank_zero.val();
                if self.any_hit.val() {
                    // A prefetch is not a use (rule P2 keeps reuse).
                    if !self.s_prefetch.q.val() {
                        self.n_reuse[w].next = true;
                    }
                    self.n_byp[w].next = false;
                } else {
                    self.fill[w].next = true;
                    self.n_valid[w].next = true;
                    self.n_reuse[w].next = false;
                    self.n_byp[w].next = self.new_bypass.val();
                }
            } else if self.rv[w].q.val() & !self.pf_nop.val() & self.inc[w].val() {
                self.n_rank[w].next = self.rrank[w].q.val() + self.rank_one.val();
            }
        }
        // Written only after m_evict_tag: in one always block every signal
        // must be assigned before it is read (event-driven simulators do
        // not re-run a block for its own writes).
        self.zext_tag.narrow.next = self.m_evict_tag.val();
        // Response registers: all zero when no request was accepted.
        self.zext_set.narrow.next = self.s_set.q.val();
        self.r_valid.d.next = self.s_valid.q.val();
        self.r_outcome.d.next = self.code_zero.val();
        self.r_way.d.next = self.way_zero.val();
        self.r_evict_valid.d.next = false;
        self.r_evict_addr.d.next = self.addr_zero.val();
        if self.s_valid.q.val() {
            self.r_outcome.d.next = self.m_outcome.val();
            self.r_way.d.next = self.m_way.val();
            self.r_evict_valid.d.next = self.m_evict_valid.val();
            if self.m_evict_valid.val() {
                self.r_evict_addr.d.next = (self.zext_tag.wide.val() << self.tag_amt.val())
                    | (self.zext_set.wide.val() << self.off_amt.val());
            }
        }
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_outcome.next = self.r_outcome.q.val();
        self.rsp_way.next = self.r_way.q.val();
        self.rsp_evict_valid.next = self.r_evict_valid.q.val();
        self.rsp_evict_addr.next = self.r_evict_addr.q.val();
    }
}
