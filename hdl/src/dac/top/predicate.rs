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
        // ---- Predicate: the fast path from lanes 0 and n-1, decided in the
        // third setup stage from the next warp's registered lane 0 and lane
        // n-1 (`x_vw`, `x_vl`) and registered at `load` (`r_ff`, `r_cf`;
        // issue 29, session 49: off the busy cycle's `load` chain).
        self.cmp_first.a.next = self.x_vw.q.val();
        self.cmp_first.b.next = self.t_scalar.val();
        self.cmp_first.op.next = self.t_cmp.val();
        self.cmp_last.a.next = self.x_vl.q.val();
        self.cmp_last.b.next = self.t_scalar.val();
        self.cmp_last.op.next = self.t_cmp.val();
        // The tuple's conditions, registered with its fields (Tuple).
        self.zero_offs.next = self.h_zo.q.val();
        self.arith.next = self.h_ar.q.val();
        // first + (n-1)*step stays a signed 32-bit value: bits 32..39 of
        // sext(first) + (n-1)*step + 2^31 clear. With c32 the carry out of
        // the low 32 bits and s31 first's sign, the high byte is
        // pb[39:32] + c32 - s31: 0, 1 or 0xFF of pb[39:32] by the three
        // cases (issue 29, step 6: a carry instead of a 40-bit sum). `pb`
        // is one of the tuple's two products (n - 1 = 31, or (T-1) mod 32).
        self.pb.next = self.r_pbt.q.val();
        if self.x_n.q.val().get_bit(5) {
            self.pb.next = self.r_p31.q.val();
        }
        self.zx_v33.narrow.next = self.x_vw.q.val();
        self.zx_p33.narrow.next = self.pb.val().get_bits::<32>(0);
        self.add_fit.x.next = self.zx_v33.wide.val();
        self.add_fit.y.next = self.zx_p33.wide.val();
        self.add_fit.ci.next = false;
        self.c32.next = (self.add_fit.s.val() & self.bit32_33.val()) != self.c0_33.val();
        self.s31.next = self.x_vw.q.val().get_bit(31);
        self.pb_hi0.next = (self.pb.val() & self.hi40.val()) == self.c0_40.val();
        self.pb_hi1.next = (self.pb.val() & self.hi40.val()) == self.hi1_40.val();
        self.pb_hiff.next = (self.pb.val() & self.hi40.val()) == self.hi40.val();
        self.fits.next = self.pb_hi0.val();
        if self.c32.val() & !self.s31.val() {
            self.fits.next = self.pb_hiff.val();
        } else if !self.c32.val() & self.s31.val() {
            self.fits.next = self.pb_hi1.val();
        }
        self.ffast.next = self.zero_offs.val()
            | (self.arith.val()
                & (self.t_cmp.val() < self.cmp_ord.val())
                & self.fits.val()
                & (self.cmp_first.r.val() == self.cmp_last.r.val()));
        // Decided in the warp's first predicate cycle: once a group was
        // compared, the warp stays on the slow path.
        self.fast.next = (self.grp.q.val() == self.c0_2.val()) & self.r_ff.q.val();
        self.fast_mask.next = self.c0_32.val();
        if self.r_cf.q.val() {
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

        // ---- The statistics' increments (Expander) are prefix adders (issue 29, session 49: the flow
        // maps `+ 1` to a ripple chain, which the mapping joined with the
        // push decision's enable: `grp` -> `st_fast[31]` was the worst path).
        self.add_sf.x.next = self.st_fast.q.val();
        self.add_sf.y.next = self.c1_32.val();
        self.add_sf.ci.next = false;
        self.add_ss.x.next = self.st_slow.q.val();
        self.add_ss.y.next = self.c1_32.val();
        self.add_ss.ci.next = false;
        self.add_sg.x.next = self.st_gskip.q.val();
        self.add_sg.y.next = self.c1_32.val();
        self.add_sg.ci.next = false;
    }
}
