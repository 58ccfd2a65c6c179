//! The load's first stage, second part (a section of the
//! [`super::CapsPrefetcherRtl`] kernel), on the ports: the rules' values
//! (f) for the entry the load in the rules stage may be writing at this
//! edge with its own values (its warp as the leading warp, its count and
//! addresses as the bases), and `a[k] + !a[0]` for "all differences
//! equal" (issue 29: compared without the differences, here and in the
//! columns).

use rust_hdl::prelude::*;

use super::{CapsPrefetcherRtl, LoadF};
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
    > Section<LoadF> for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // `a[k] + !a[0]` (lanes 1..3) of this load and of the load in the
        // rules stage, for "all differences equal" (the columns' and the
        // forwarding's).
        self.uadd[0].x.next = self.a[1].val();
        self.uadd[1].x.next = self.a[2].val();
        self.uadd[2].x.next = self.a[3].val();
        self.buadd[0].x.next = self.b_a[1].q.val();
        self.buadd[1].x.next = self.b_a[2].q.val();
        self.buadd[2].x.next = self.b_a[3].q.val();
        self.uadd[0].y.next = !self.a[0].val();
        self.uadd[1].y.next = !self.a[0].val();
        self.uadd[2].y.next = !self.a[0].val();
        self.buadd[0].y.next = !self.b_a[0].q.val();
        self.buadd[1].y.next = !self.b_a[0].q.val();
        self.buadd[2].y.next = !self.b_a[0].q.val();
        self.uadd[0].ci.next = false;
        self.uadd[1].ci.next = false;
        self.uadd[2].ci.next = false;
        self.buadd[0].ci.next = false;
        self.buadd[1].ci.next = false;
        self.buadd[2].ci.next = false;
        self.zx_ldw.narrow.next = self.ld_warp.val();
        // (f) The entry the load in the rules stage writes.
        self.zx_bw.narrow.next = self.b_warp.q.val();
        self.fdelta.next = self.zx_ldw.wide.val() - self.zx_bw.wide.val();
        for k in 0..self._lanes {
            self.fsub[k].x.next = self.a[k].val();
            self.fsub[k].y.next = !self.b_a[k].q.val();
            self.fsub[k].ci.next = true;
            self.fdiff[k].next = self.fsub[k].s.val();
        }
        // "All differences equal" without the differences: lane k (1..3)
        // compares `a[k] + !a[0]` with the same of the load ahead.
        self.feq.next = true;
        if self.in_n[0].val() & (self.uadd[0].s.val() != self.buadd[0].s.val()) {
            self.feq.next = false;
        }
        if self.in_n[1].val() & (self.uadd[1].s.val() != self.buadd[1].s.val()) {
            self.feq.next = false;
        }
        if self.in_n[2].val() & (self.uadd[2].s.val() != self.buadd[2].s.val()) {
            self.feq.next = false;
        }
        self.trainf.delta.next = self.fdelta.val();
        self.trainf.diff.next = self.fdiff[0].val();
        self.b_fwl.d.next = self.ld_warp.val() == self.b_warp.q.val();
        self.b_fns.d.next = self.n3.val() == self.b_n.q.val();
        self.b_fdelta.d.next = self.fdelta.val();
        self.b_feq.d.next = self.feq.val();
        self.b_fpow2.d.next = self.trainf.pow2.val();
        self.b_fdiv.d.next = self.trainf.div.val();
        self.b_fnz.d.next = self.a[0].val() != self.b_a[0].q.val();
        for k in 0..self._lanes {
            self.b_fdiff[k].d.next = self.fdiff[k].val();
        }
    }
}
