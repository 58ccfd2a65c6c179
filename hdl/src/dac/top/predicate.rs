//! The third section of the [`super::DacExpanderRtl`] kernel: the predicate
//! mask, the fast path from lanes 0 and `n-1` and the slow path a group of
//! eight lanes at a time.

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Predicate};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Predicate> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Predicate: the fast path from lanes 0 and n-1.
        self.cmp_first.a.next = self.lv[0].q.val();
        self.cmp_first.b.next = self.t_scalar.val();
        self.cmp_first.op.next = self.t_cmp.val();
        // Lane n-1, formed in the second setup stage and registered (issue
        // 29, step 4).
        self.vlast.next = self.r_vl.q.val();
        self.cmp_last.a.next = self.vlast.val();
        self.cmp_last.b.next = self.t_scalar.val();
        self.cmp_last.op.next = self.t_cmp.val();
        // The tuple's conditions, registered with its fields (Tuple).
        self.zero_offs.next = self.h_zo.q.val();
        self.arith.next = self.h_ar.q.val();
        // first + (n-1)*step stays a signed 32-bit value.
        self.sx_v0.narrow.next = self.lv[0].q.val();
        self.add_fit.x.next = self.sx_v0.wide.val();
        self.add_fit.y.next = self.r_pb.q.val();
        self.add_fit.ci.next = false;
        // Below 2^32: bits 32..39 clear (no comparator: the flow maps one to a
        // ripple subtraction).
        self.fits.next = (self.add_fit.s.val() & self.hi40.val()) == self.c0_40.val();
        // The next warp's (n-1)*step + 2^31, registered with its lanes
        // (Control): po[j] = step << j when bit j of n-1 is set.
        self.sx_tx.narrow.next = self.t_tx.val();
        for j in 0..self._w6 {
            self.po[j].next = self.c0_40.val();
            if self.nm1.val().get_bit(j) {
                self.po[j].next = self.sx_tx.wide.val() << self.sh40[j].val();
            }
        }
        self.po[6].next = self.bias40.val();
        for i in 0..self._ncsa {
            self.po[2 * i + 7].next =
                self.po[3 * i].val() ^ self.po[3 * i + 1].val() ^ self.po[3 * i + 2].val();
            self.po[2 * i + 8].next = ((self.po[3 * i].val() & self.po[3 * i + 1].val())
                | (self.po[3 * i].val() & self.po[3 * i + 2].val())
                | (self.po[3 * i + 1].val() & self.po[3 * i + 2].val()))
                << self.c1_40.val();
        }
        self.add_pb.x.next = self.po[15].val();
        self.add_pb.y.next = self.po[16].val();
        self.add_pb.ci.next = false;
        self.pb.next = self.add_pb.s.val();
        // Decided in the warp's first predicate cycle: once a group was
        // compared, the warp stays on the slow path.
        self.fast.next = (self.grp.q.val() == self.c0_2.val())
            & (self.zero_offs.val()
                | (self.arith.val()
                    & (self.t_cmp.val() < self.cmp_ord.val())
                    & self.fits.val()
                    & (self.cmp_first.r.val() == self.cmp_last.r.val())));
        self.fast_mask.next = self.c0_32.val();
        if self.cmp_first.r.val() {
            self.fast_mask.next = self.r_act.q.val();
        }
        // The slow path: eight lanes of group `grp`.
        for i in 0..self._ng {
            if self.grp.q.val() == self.c0_2.val() {
                self.cmp_g[i].a.next = self.lv[i].q.val();
            } else if self.grp.q.val() == self.c1_2.val() {
                self.cmp_g[i].a.next = self.lv[i + 8].q.val();
            } else if self.grp.q.val() == self.c2_2.val() {
                self.cmp_g[i].a.next = self.lv[i + 16].q.val();
            } else {
                self.cmp_g[i].a.next = self.lv[i + 24].q.val();
            }
            self.cmp_g[i].b.next = self.t_scalar.val();
            self.cmp_g[i].op.next = self.t_cmp.val();
            self.gpack.bits[i].next = self.cmp_g[i].r.val();
        }
        self.zx_g8.narrow.next = self.gpack.word.val();
        self.zx_grp.narrow.next = self.grp.q.val();
        self.slow_mask.next = (self.part.q.val()
            | (self.zx_g8.wide.val() << (self.zx_grp.wide.val() << self.c3_32.val())))
            & self.r_act.q.val();
        self.lastg.next = self.r_lastg.q.val();
        // The mask a push of this cycle carries.
        self.pmask.next = self.slow_mask.val();
        if self.fast.val() {
            self.pmask.next = self.fast_mask.val();
        }
    }
}
