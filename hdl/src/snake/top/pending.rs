//! The last section of the [`super::SnakePrefetcherRtl`] kernel
//! ([`Pending`]): the allocation one edge later (issue 29 step 14). The
//! staged load's new entry is decided at its edge as before, but that edge
//! writes only the entry's narrow fields (valid, the ones, `t1`, the rank,
//! the pending observation) and marks it `r_new`; its wide fields are
//! registered here (`a_*`, without an enable) and written into the entry
//! at the next edge, where every read of the entry takes them meanwhile.

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
            a_q,
            a_p,
            a_s,
            a_w,
            a_sp,
            a_intra,
            a_t2,
            a_iw_valid,
            a_iw_warp,
            a_iw_addr,
            a_iw_stride,
            a_iw_cnt
        );
        self.a_q.reset.next = self.reset.val();
        self.a_p.reset.next = self.reset.val();
        self.a_s.reset.next = self.reset.val();
        self.a_w.reset.next = self.reset.val();
        self.a_sp.reset.next = self.reset.val();
        self.a_intra.reset.next = self.reset.val();
        self.a_t2.reset.next = self.reset.val();
        self.a_iw_valid.reset.next = self.reset.val();
        self.a_iw_warp.reset.next = self.reset.val();
        self.a_iw_addr.reset.next = self.reset.val();
        self.a_iw_stride.reset.next = self.reset.val();
        self.a_iw_cnt.reset.next = self.reset.val();
        // The new entry's contents as this edge's allocation would write
        // them (the link `(q, p, s)`, `wv = {w}`, the span, the copied
        // per-PC fields with this edge's updates forwarded).
        self.a_q.d.next = self.q.val();
        self.a_p.d.next = self.l_pc.q.val();
        self.a_s.d.next = self.s.val();
        self.a_w.d.next = self.w_onehot.val();
        self.a_sp.d.next = self.l_span.q.val();
        self.a_intra.d.next = self.cp_intra.val();
        self.a_t2.d.next = self.cp_t2.val();
        self.a_iw_valid.d.next = self.cp_iw_valid.val();
        self.a_iw_warp.d.next = self.cp_iw_warp.val();
        self.a_iw_addr.d.next = self.cp_iw_addr.val();
        self.a_iw_stride.d.next = self.cp_iw_stride.val();
        self.a_iw_cnt.d.next = self.cp_iw_cnt.val();
        for e in 0..self._ne {
            self.ents[e].q.next = self.a_q.q.val();
            self.ents[e].ap.next = self.a_p.q.val();
            self.ents[e].s.next = self.a_s.q.val();
            self.ents[e].aw.next = self.a_w.q.val();
            self.ents[e].asp.next = self.a_sp.q.val();
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
