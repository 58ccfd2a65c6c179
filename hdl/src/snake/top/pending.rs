//! The last section of the [`super::SnakePrefetcherRtl`] kernel
//! ([`Pending`]): the allocation one edge later (issue 29 step 14). The
//! staged load's new entry is decided at its edge as before, but that edge
//! writes only the entry's link (`pc1`, `pc2`, `stride`, `span`) and narrow
//! fields (valid, the ones, `t1`, the rank, the pending observation) and
//! marks it `r_new`; its `wv` and per-PC fields are registered here (`a_*`,
//! without an enable) and written into the entry at the next edge, where
//! every read of them takes these meanwhile (the per-PC views leave the
//! entry out).

use rust_hdl::prelude::*;

use super::{Pending, SnakePrefetcherRtl};
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
    > Section<Pending> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            a_w,
            a_intra,
            a_t2,
            a_iw_valid,
            a_iw_warp,
            a_iw_addr,
            a_iw_stride,
            a_iw_cnt
        );
        self.a_w.reset.next = self.reset.val();
        self.a_intra.reset.next = self.reset.val();
        self.a_t2.reset.next = self.reset.val();
        self.a_iw_valid.reset.next = self.reset.val();
        self.a_iw_warp.reset.next = self.reset.val();
        self.a_iw_addr.reset.next = self.reset.val();
        self.a_iw_stride.reset.next = self.reset.val();
        self.a_iw_cnt.reset.next = self.reset.val();
        // The new entry's `wv = {w}` and copied per-PC fields (this edge's
        // updates forwarded) as this edge's allocation would write them;
        // its link `(q, p, s)` and span are written at this edge.
        self.a_w.d.next = self.w_onehot.val();
        self.a_intra.d.next = self.cp_intra.val();
        self.a_t2.d.next = self.cp_t2.val();
        self.a_iw_valid.d.next = self.cp_iw_valid.val();
        self.a_iw_warp.d.next = self.cp_iw_warp.val();
        self.a_iw_addr.d.next = self.cp_iw_addr.val();
        self.a_iw_stride.d.next = self.cp_iw_stride.val();
        self.a_iw_cnt.d.next = self.cp_iw_cnt.val();
        for e in 0..self._ne {
            self.ents[e].q.next = self.q.val();
            self.ents[e].ap.next = self.l_pc.q.val();
            self.ents[e].s.next = self.s.val();
            self.ents[e].aw.next = self.a_w.q.val();
            self.ents[e].asp.next = self.l_span.q.val();
            self.ents[e].c_intra.next = self.a_intra.q.val();
            self.ents[e].c_t2.next = self.a_t2.q.val();
            self.ents[e].c_iw_valid.next = self.a_iw_valid.q.val();
            self.ents[e].c_iw_warp.next = self.a_iw_warp.q.val();
            self.ents[e].c_iw_addr.next = self.a_iw_addr.q.val();
            self.ents[e].c_iw_stride.next = self.a_iw_stride.q.val();
            self.ents[e].c_iw_cnt.next = self.a_iw_cnt.q.val();
        }
    }
}
