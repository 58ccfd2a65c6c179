//! The last section of the [`super::BaTagArrayRtl`] kernel (stage 1): the
//! request and its set's row into the registers of stage 2.
//!
//! The row comes from the memories, except when stage 2 holds a request to
//! the same set: that request's write lands at the very edge that moves
//! this one into stage 2, so the memories still hold the line before it,
//! and the row is taken from the lines stage 2 writes (the forward). Only
//! stage 2 can be in flight, so this one forward makes every request see
//! every earlier one. The tag comparison of stage 1 holds for a way stage
//! 2 does not fill (its tag does not change); for a way it fills, the
//! comparison is with stage 2's tag. A flush of this edge comes after
//! stage 2's request and before stage 1's: the row's valid bits are
//! cleared.

use rust_hdl::prelude::*;

use super::{BaTagArrayRtl, Forward};
use crate::section::Section;

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Section<Forward> for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.s_valid.d.next = self.req_valid.val();
        self.s_set.d.next = self.set_idx.val();
        self.s_tag.d.next = self.req_tag.val();
        self.s_write.d.next = self.req_write.val();
        self.s_prefetch.d.next = self.req_prefetch.val();
        self.s_resv.d.next = self.req_resv.val();
        // Stage 2's lines into the write buffer (a flush of this edge
        // comes after stage 2's request: its valid bits are cleared).
        self.wb_valid.d.next = self.s_valid.q.val();
        self.wb_set.d.next = self.s_set.q.val();
        self.wb_stag.d.next = self.s_tag.q.val();
        self.p_tag.d.next = self.s_tag.q.val();
        for w in 0..self._ways {
            self.wbv[w].d.next = self.n_valid[w].val() & !self.flush.val();
            self.wbtag[w].d.next = self.etag[w].val();
            self.wbfill[w].d.next = self.fill[w].val();
            self.wbreuse[w].d.next = self.n_reuse[w].val();
            self.wbbyp[w].d.next = self.n_byp[w].val();
            self.wbrank[w].d.next = self.n_rank[w].val();
        }
        for w in 0..self._ways {
            if self.same_set.val() {
                self.rv[w].d.next = self.n_valid[w].val() & !self.flush.val();
                self.rtag[w].d.next = self.etag[w].val();
                self.rfill[w].d.next = self.fill[w].val();
                self.rreuse[w].d.next = self.n_reuse[w].val();
                self.rbyp[w].d.next = self.n_byp[w].val();
                self.rrank[w].d.next = self.n_rank[w].val();
                if self.fill[w].val() {
                    self.req[w].d.next = self.eq_fwd.val();
                } else {
                    self.req[w].d.next = self.eq_mem[w].val();
                }
            } else {
                self.rv[w].d.next = self.m_valid[w].val() & !self.flush.val();
                self.rtag[w].d.next = self.m_tag[w].val();
                self.rfill[w].d.next = false;
                self.rreuse[w].d.next = self.m_reuse[w].val();
                self.rbyp[w].d.next = self.m_byp[w].val();
                self.rrank[w].d.next = self.m_rank[w].val();
                self.req[w].d.next = self.eq_mem[w].val();
            }
        }
    }
}
