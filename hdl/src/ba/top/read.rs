//! The first section of the [`super::BaTagArrayRtl`] kernel (stage 1): the
//! registers' clock and reset, the address decode, every way's read of the
//! addressed set with its tag compared to the request's, and whether the
//! request in stage 2 writes the set stage 1 reads.

use rust_hdl::prelude::*;

use super::{BaTagArrayRtl, Read};
use crate::section::Section;

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Section<Read> for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_valid,
            r_outcome,
            r_way,
            r_evict_valid,
            r_evict_addr,
            s_valid,
            s_set,
            s_tag,
            s_write,
            s_prefetch,
            s_resv,
            wb_valid,
            wb_set,
            p_tag,
            wb_stag
        );
        self.r_valid.reset.next = self.reset.val();
        self.r_outcome.reset.next = self.reset.val();
        self.r_way.reset.next = self.reset.val();
        self.r_evict_valid.reset.next = self.reset.val();
        self.r_evict_addr.reset.next = self.reset.val();
        self.s_valid.reset.next = self.reset.val();
        self.s_set.reset.next = self.reset.val();
        self.s_tag.reset.next = self.reset.val();
        self.s_write.reset.next = self.reset.val();
        self.s_prefetch.reset.next = self.reset.val();
        self.s_resv.reset.next = self.reset.val();
        self.wb_valid.reset.next = self.reset.val();
        self.wb_set.reset.next = self.reset.val();
        self.p_tag.reset.next = self.reset.val();
        self.wb_stag.reset.next = self.reset.val();
        for w in 0..self._ways {
            self.rv[w].clock.next = self.clock.val();
            self.rv[w].reset.next = self.reset.val();
            self.req[w].clock.next = self.clock.val();
            self.req[w].reset.next = self.reset.val();
            self.rtag[w].clock.next = self.clock.val();
            self.rtag[w].reset.next = self.reset.val();
            self.rreuse[w].clock.next = self.clock.val();
            self.rreuse[w].reset.next = self.reset.val();
            self.rbyp[w].clock.next = self.clock.val();
            self.rbyp[w].reset.next = self.reset.val();
            self.rrank[w].clock.next = self.clock.val();
            self.rrank[w].reset.next = self.reset.val();
            self.wbv[w].clock.next = self.clock.val();
            self.wbv[w].reset.next = self.reset.val();
            self.wbtag[w].clock.next = self.clock.val();
            self.wbtag[w].reset.next = self.reset.val();
            self.rfill[w].clock.next = self.clock.val();
            self.rfill[w].reset.next = self.reset.val();
            self.wbfill[w].clock.next = self.clock.val();
            self.wbfill[w].reset.next = self.reset.val();
            self.wbreuse[w].clock.next = self.clock.val();
            self.wbreuse[w].reset.next = self.reset.val();
            self.wbbyp[w].clock.next = self.clock.val();
            self.wbbyp[w].reset.next = self.reset.val();
            self.wbrank[w].clock.next = self.clock.val();
            self.wbrank[w].reset.next = self.reset.val();
        }
        // Address decode. The offset bits select nothing here; Verilator's
        // `*unused*` naming rule marks them as deliberately unused.
        self.set_idx.next = self
            .req_addr
            .val()
            .get_bits::<S>(self.off_amt.val().index())
            & self.set_mask.val();
        self.req_tag.next = self
            .req_addr
            .val()
            .get_bits::<T>(self.tag_amt.val().index());
        self.unused_addr_bits.next = self.req_addr.val().any();
        self.zext_onehot.narrow.next = self.set_idx.val();
        self.set_onehot.next = self.ns_one.val() << self.zext_onehot.wide.val();
        self.zext_wonehot.narrow.next = self.wb_set.q.val();
        self.w_onehot.next = self.ns_one.val() << self.zext_wonehot.wide.val();
        // Every way reads stage 1's set and writes the write buffer's; the
        // write buffer's line of stage 1's set replaces the memories'.
        self.wb_same.next = self.wb_valid.q.val() & (self.wb_set.q.val() == self.set_idx.val());
        for w in 0..self._ways {
            if self.wbfill[w].q.val() {
                self.wb_tag[w].next = self.wb_stag.q.val();
            } else {
                self.wb_tag[w].next = self.wbtag[w].q.val();
            }
            self.ways[w].clock.next = self.clock.val();
            self.ways[w].reset.next = self.reset.val();
            self.ways[w].flush.next = self.flush.val();
            self.ways[w].set_idx.next = self.set_idx.val();
            self.ways[w].set_onehot.next = self.set_onehot.val();
            self.ways[w].w_set_idx.next = self.wb_set.q.val();
            self.ways[w].w_set_onehot.next = self.w_onehot.val();
            self.ways[w].we.next = self.wb_valid.q.val();
            self.ways[w].w_valid.next = self.wbv[w].q.val();
            self.ways[w].w_tag.next = self.wb_tag[w].val();
            self.ways[w].w_reuse.next = self.wbreuse[w].q.val();
            self.ways[w].w_bypass.next = self.wbbyp[w].q.val();
            self.ways[w].w_rank.next = self.wbrank[w].q.val();
            if self.wb_same.val() {
                self.m_valid[w].next = self.wbv[w].q.val();
                self.m_tag[w].next = self.wb_tag[w].val();
                self.m_reuse[w].next = self.wbreuse[w].q.val();
                self.m_byp[w].next = self.wbbyp[w].q.val();
                self.m_rank[w].next = self.wbrank[w].q.val();
            } else {
                self.m_valid[w].next = self.ways[w].o_valid.val();
                self.m_tag[w].next = self.ways[w].o_tag.val();
                self.m_reuse[w].next = self.ways[w].o_reuse.val();
                self.m_byp[w].next = self.ways[w].o_bypass.val();
                self.m_rank[w].next = self.ways[w].o_rank.val();
            }
            self.eq_mem[w].next = self.m_tag[w].val() == self.req_tag.val();
        }
        // Forwarding: stage 2's write lands at the edge that moves stage
        // 1's request into stage 2, so stage 1 reads that set's line from
        // stage 2 instead of the memories.
        self.same_set.next = self.s_valid.q.val() & (self.s_set.q.val() == self.set_idx.val());
        self.eq_fwd.next = self.s_tag.q.val() == self.req_tag.val();
    }
}
