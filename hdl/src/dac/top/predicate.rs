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
        self.cmp_first.a.next = self.lanes.v[0].val();
        self.cmp_first.b.next = self.t_scalar.val();
        self.cmp_first.op.next = self.t_cmp.val();
        // Lane n-1 (the top bit of the active mask) through an OR tree.
        self.oh_last.next = self.rec.act.val() & !(self.rec.act.val() >> self.c1_32.val());
        for l in 0..self._n {
            self.tvl[l].next = self.c0_32.val();
            if self.oh_last.val().get_bit(l) {
                self.tvl[l].next = self.lanes.v[l].val();
            }
        }
        for i in 0..self._nt32 {
            self.tvl[i + 32].next = self.tvl[2 * i].val() | self.tvl[2 * i + 1].val();
        }
        self.vlast.next = self.tvl[62].val();
        self.cmp_last.a.next = self.vlast.val();
        self.cmp_last.b.next = self.t_scalar.val();
        self.cmp_last.op.next = self.t_cmp.val();
        self.zero_offs.next =
            (self.t_tx.val() == self.c0_32.val()) & (self.t_ty.val() == self.c0_32.val());
        self.arith.next = (self.zx_k6.wide.val() >= self.c5_6.val())
            | (self.t_ty.val() == (self.t_tx.val() << self.zx_k32.wide.val()));
        // first + (n-1)*step stays a signed 32-bit value.
        self.sx_v0.narrow.next = self.lanes.v[0].val();
        self.sx_tx.narrow.next = self.t_tx.val();
        self.zx_nm7.narrow.next = self.nm1.val();
        self.mul_ov.d.next = self.zx_nm7.wide.val();
        self.mul_ov.s.next = self.sx_tx.wide.val();
        self.pb.next = self.mul_ov.p.val() + self.bias40.val();
        self.fits.next = (self.sx_v0.wide.val() + self.pb.val()) < self.lim40.val();
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
            self.fast_mask.next = self.rec.act.val();
        }
        // The slow path: eight lanes of group `grp`.
        for i in 0..self._ng {
            if self.grp.q.val() == self.c0_2.val() {
                self.cmp_g[i].a.next = self.lanes.v[i].val();
            } else if self.grp.q.val() == self.c1_2.val() {
                self.cmp_g[i].a.next = self.lanes.v[i + 8].val();
            } else if self.grp.q.val() == self.c2_2.val() {
                self.cmp_g[i].a.next = self.lanes.v[i + 16].val();
            } else {
                self.cmp_g[i].a.next = self.lanes.v[i + 24].val();
            }
            self.cmp_g[i].b.next = self.t_scalar.val();
            self.cmp_g[i].op.next = self.t_cmp.val();
            self.gpack.bits[i].next = self.cmp_g[i].r.val();
        }
        self.zx_g8.narrow.next = self.gpack.word.val();
        self.zx_grp.narrow.next = self.grp.q.val();
        self.slow_mask.next = (self.part.q.val()
            | (self.zx_g8.wide.val() << (self.zx_grp.wide.val() << self.c3_32.val())))
            & self.rec.act.val();
        self.lastg.next = self.nm1.val().get_bits::<2>(3);
        // The mask a push of this cycle carries.
        self.pmask.next = self.slow_mask.val();
        if self.fast.val() {
            self.pmask.next = self.fast_mask.val();
        }
    }
}
