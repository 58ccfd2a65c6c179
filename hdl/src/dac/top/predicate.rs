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
        // first + (n-1)*step stays a signed 32-bit value: bits 32..39 of
        // sext(first) + (n-1)*step + 2^31 clear. With c32 the carry out of
        // the low 32 bits and s31 first's sign, the high byte is
        // pb[39:32] + c32 - s31: 0, 1 or 0xFF of pb[39:32] by the three
        // cases (issue 29, step 6: a carry instead of a 40-bit sum).
        self.zx_v33.narrow.next = self.lv[0].q.val();
        self.zx_p33.narrow.next = self.r_pb.q.val().get_bits::<32>(0);
        self.add_fit.x.next = self.zx_v33.wide.val();
        self.add_fit.y.next = self.zx_p33.wide.val();
        self.add_fit.ci.next = false;
        self.c32.next = (self.add_fit.s.val() & self.bit32_33.val()) != self.c0_33.val();
        self.s31.next = self.lv[0].q.val().get_bit(31);
        self.pb_hi0.next = (self.r_pb.q.val() & self.hi40.val()) == self.c0_40.val();
        self.pb_hi1.next = (self.r_pb.q.val() & self.hi40.val()) == self.hi1_40.val();
        self.pb_hiff.next = (self.r_pb.q.val() & self.hi40.val()) == self.hi40.val();
        self.fits.next = self.pb_hi0.val();
        if self.c32.val() & !self.s31.val() {
            self.fits.next = self.pb_hiff.val();
        } else if !self.c32.val() & self.s31.val() {
            self.fits.next = self.pb_hi1.val();
        }
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
        // The slow path: every lane compared with the scalar, the group's
        // eight kept by its mask `r_gm` (issue 29, step 6).
        for l in 0..self._n {
            self.cmp_l[l].a.next = self.lv[l].q.val();
            self.cmp_l[l].b.next = !self.h_nsc.q.val();
            self.cmp_l[l].op.next = self.t_cmp.val();
            self.cpack.bits[l].next = self.cmp_l[l].r.val();
        }
        self.slow_mask.next =
            (self.part.q.val() | (self.cpack.word.val() & self.r_gm.q.val())) & self.r_act.q.val();
        self.lastg.next = self.r_lastg.q.val();
        // The mask a push of this cycle carries.
        self.pmask.next = self.slow_mask.val();
        if self.fast.val() {
            self.pmask.next = self.fast_mask.val();
        }
    }
}
