//! A section of the [`super::DacExpanderRtl`] kernel (issue 29, step 5,
//! split off the first two): the tuple at the head of the ATQ, the copy of
//! its fields, its lane offsets and its lane differences' conditions for the
//! region boundaries.

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Head};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Head> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.h_base.reset.next = self.reset.val();
        self.h_tx.reset.next = self.reset.val();
        self.h_ty.reset.next = self.reset.val();
        self.h_cx.reset.next = self.reset.val();
        self.h_cy.reset.next = self.reset.val();
        self.h_sc.reset.next = self.reset.val();
        self.h_nsc.reset.next = self.reset.val();
        self.h_gran.reset.next = self.reset.val();
        self.h_cmp.reset.next = self.reset.val();
        self.h_addr.reset.next = self.reset.val();
        self.h_data.reset.next = self.reset.val();
        self.h_pred.reset.next = self.reset.val();
        self.h_guard.reset.next = self.reset.val();
        self.h_zo.reset.next = self.reset.val();
        self.h_ar.reset.next = self.reset.val();
        self.r_afull.reset.next = self.reset.val();
        self.r_pfull.reset.next = self.reset.val();
        self.r_d2.reset.next = self.reset.val();
        self.r_z1.reset.next = self.reset.val();
        self.r_m1.reset.next = self.reset.val();
        self.r_z2.reset.next = self.reset.val();
        self.r_m2.reset.next = self.reset.val();

        // ---- The tuple at the head of the ATQ (four lanes in lock-step; the
        // fourth holds {guard, cmp, gran, kind}). The start cycle decides a
        // drop from the head itself (`reserved`), and the basis offsets
        // (`r_bb`) are loaded from it; everything else reads a copy of the
        // head's fields loaded every cycle (issue 29, step 5), which holds
        // the expanded tuple's from its first setup cycle to its pop (the head
        // is that tuple from its start cycle on): the ATQ's valid gate and the
        // fields' fan-out are off the setup stages and the busy cycle.
        self.q_tx.next = self.atq0.o_data.val().get_bits::<32>(32);
        self.q_ty.next = self.atq1.o_data.val().get_bits::<32>(0);
        self.q_kind.next = self.atq3.o_data.val().get_bits::<2>(0);
        self.q_gran.next = self.atq3.o_data.val().get_bits::<2>(2);
        self.q_cmp.next = self.atq3.o_data.val().get_bits::<3>(4);
        self.q_addr.next =
            (self.q_kind.val() == self.k_addr.val()) | (self.q_kind.val() == self.k_data.val());
        self.q_pred.next = self.q_kind.val() == self.k_pred.val();
        self.reserved.next = (self.q_kind.val() == self.k_rsvd.val())
            | (self.q_addr.val() & (self.q_gran.val() == self.gran_rsvd.val()))
            | (self.q_pred.val() & (self.q_cmp.val() >= self.cmp_rsvd.val()));
        self.h_base.d.next = self.atq0.o_data.val().get_bits::<32>(0);
        self.h_tx.d.next = self.q_tx.val();
        self.h_ty.d.next = self.q_ty.val();
        self.h_cx.d.next = self.atq1.o_data.val().get_bits::<32>(32);
        self.h_cy.d.next = self.atq2.o_data.val().get_bits::<32>(0);
        self.h_sc.d.next = self.atq2.o_data.val().get_bits::<32>(32);
        self.h_nsc.d.next = !self.atq2.o_data.val().get_bits::<32>(32);
        self.h_gran.d.next = self.q_gran.val();
        self.h_cmp.d.next = self.q_cmp.val();
        self.h_addr.d.next = self.q_addr.val();
        self.h_data.d.next = self.q_kind.val() == self.k_data.val();
        self.h_pred.d.next = self.q_pred.val();
        self.h_guard.d.next = self.atq3.o_data.val().get_bit(7);
        // The fast path's tuple conditions: no thread offsets, or lanes in
        // arithmetic progression (`bdx >= 32`, or `off_ty = bdx * off_tx`).
        self.h_zo.d.next =
            (self.q_tx.val() == self.c0_32.val()) & (self.q_ty.val() == self.c0_32.val());
        self.h_ar.d.next = (self.zx_k6.wide.val() >= self.c5_6.val())
            | (self.q_ty.val() == (self.q_tx.val() << self.zx_k32.wide.val()));
        self.t_base.next = self.h_base.q.val();
        self.t_tx.next = self.h_tx.q.val();
        self.t_ty.next = self.h_ty.q.val();
        self.t_cx.next = self.h_cx.q.val();
        self.t_cy.next = self.h_cy.q.val();
        self.t_scalar.next = self.h_sc.q.val();
        self.t_gran.next = self.h_gran.q.val();
        self.t_cmp.next = self.h_cmp.q.val();
        self.t_guard.next = self.h_guard.q.val();
        self.is_addr.next = self.h_addr.q.val();
        self.is_data.next = self.h_data.q.val();
        self.is_pred.next = self.h_pred.q.val();

        // ---- The head tuple's lane offsets (issue 29, step 3): its basis
        // offsets registered (`r_bb`), then each lane's offset (`r_lo`), both
        // loaded every cycle. The head is the expanded tuple from its start
        // cycle to its pop, so `r_lo` holds its offsets from its second setup
        // cycle on, the first cycle the second stage's results are kept.
        self.basis.off_tx.next = self.q_tx.val();
        self.basis.off_ty.next = self.q_ty.val();
        self.basis.k.next = self.cfg_bdx_log2.val();
        for j in 0..self._nbb {
            self.r_bb[j].clock.next = self.clock.val();
            self.r_bb[j].reset.next = self.reset.val();
            self.r_bb[j].d.next = self.basis.bb[j].val();
            self.offs.bb[j].next = self.r_bb[j].q.val();
        }
        for i in 0..self._nlo {
            self.r_lo[i].clock.next = self.clock.val();
            self.r_lo[i].reset.next = self.reset.val();
            self.r_lo[i].d.next = self.offs.o[i].val();
        }

        // ---- The region boundaries' tuple constants (issue 29, step 5): from the lanes'
        // carry-save words and the tuple's lane differences (`d1 = off_tx`
        // inside a row, `d2` at a row start), whose high parts' conditions
        // are registered from the copy of the head's fields.
        self.delta.off_tx.next = self.q_tx.val();
        self.delta.off_ty.next = self.q_ty.val();
        self.delta.k.next = self.cfg_bdx_log2.val();
        self.r_d2.d.next = self.delta.d2.val();
        self.dfl1.d.next = self.t_tx.val();
        self.dfl1.g.next = self.t_gran.val();
        self.dfl2.d.next = self.r_d2.q.val();
        self.dfl2.g.next = self.t_gran.val();
        self.r_z1.d.next = self.dfl1.z.val();
        self.r_m1.d.next = self.dfl1.m.val();
        self.r_z2.d.next = self.dfl2.z.val();
        self.r_m2.d.next = self.dfl2.m.val();
        for l in 0..self._nlo {
            self.brks.s[l].next = self.lanes.ps[l].val();
            self.brks.c[l].next = self.lanes.pc[l].val();
        }
        self.brks.d1.next = self.t_tx.val().get_bits::<8>(0);
        self.brks.d2.next = self.r_d2.q.val().get_bits::<8>(0);
        self.brks.z1.next = self.r_z1.q.val();
        self.brks.m1.next = self.r_m1.q.val();
        self.brks.z2.next = self.r_z2.q.val();
        self.brks.m2.next = self.r_m2.q.val();
        self.brks.k.next = self.cfg_bdx_log2.val();
        self.brks.g.next = self.t_gran.val();
    }
}
