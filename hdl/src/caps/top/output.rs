//! The last section of the [`super::CapsPrefetcherRtl`] kernel: the output
//! queue and the `pf_*` ports.

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, Output};
use crate::section::Section;

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const RD: usize,
        const CW: usize,
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > Section<Output> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Output queue: a prefetch packed as {warp, cta, addr}; the
        // queue's head is zero while it is empty.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.pf_push.val();
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        self.qp_addr.narrow.next = self.mul_g.p.val();
        if self.j_kind.q.val() {
            self.qp_cta.narrow.next = self.j_cta.q.val();
            self.qp_warp.narrow.next = self.wb.val().get_bits::<WI>(0);
        } else {
            self.qp_cta.narrow.next = self.s_c.val();
            self.qp_warp.narrow.next = self.j_warp.q.val();
        }
        self.pfq.i_data.next = self.qp_addr.wide.val()
            | (self.qp_cta.wide.val() << self.qoff_cta.val())
            | (self.qp_warp.wide.val() << self.qoff_warp.val());
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_data.val().get_bits::<A>(0);
        self.pf_cta.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<C>(self.qoff_cta.val().index());
        self.pf_warp.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<WI>(self.qoff_warp.val().index());
    }
}
