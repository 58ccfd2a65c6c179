//! The last section of the [`super::DacExpanderRtl`] kernel: the ATQ, the
//! per-warp queues and the dequeue response.

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Queues};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Queues> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The ATQ: {off_tx, base}, {off_cx, off_ty}, {scalar, off_cy},
        // {guard, cmp, gran, kind}.
        self.enq_ready.next = !(self.atq0.o_full.val()
            | self.atq1.o_full.val()
            | self.atq2.o_full.val()
            | self.atq3.o_full.val());
        self.enq_push.next = self.enq_valid.val() & self.enq_ready.val();
        self.atq0.clock.next = self.clock.val();
        self.atq1.clock.next = self.clock.val();
        self.atq2.clock.next = self.clock.val();
        self.atq3.clock.next = self.clock.val();
        self.atq0.reset.next = self.reset.val();
        self.atq1.reset.next = self.reset.val();
        self.atq2.reset.next = self.reset.val();
        self.atq3.reset.next = self.reset.val();
        self.atq0.push.next = self.enq_push.val();
        self.atq1.push.next = self.enq_push.val();
        self.atq2.push.next = self.enq_push.val();
        self.atq3.push.next = self.enq_push.val();
        self.atq0.pop.next = self.r_pop.q.val();
        self.atq1.pop.next = self.r_pop.q.val();
        self.atq2.pop.next = self.r_pop.q.val();
        self.atq3.pop.next = self.r_pop.q.val();
        self.pk_base.narrow.next = self.enq_base.val();
        self.pk_tx.narrow.next = self.enq_off_tx.val();
        self.pk_ty.narrow.next = self.enq_off_ty.val();
        self.pk_cx.narrow.next = self.enq_off_cx.val();
        self.pk_cy.narrow.next = self.enq_off_cy.val();
        self.pk_sc.narrow.next = self.enq_scalar.val();
        self.pk_kind.narrow.next = self.enq_kind.val();
        self.pk_gr.narrow.next = self.enq_gran.val();
        self.pk_cmp.narrow.next = self.enq_cmp.val();
        self.atq0.i_data.next =
            self.pk_base.wide.val() | (self.pk_tx.wide.val() << self.c32_64.val());
        self.atq1.i_data.next =
            self.pk_ty.wide.val() | (self.pk_cx.wide.val() << self.c32_64.val());
        self.atq2.i_data.next =
            self.pk_cy.wide.val() | (self.pk_sc.wide.val() << self.c32_64.val());
        self.pk_guard.next = self.c0_8.val();
        if self.enq_guard.val() {
            self.pk_guard.next = self.c128_8.val();
        }
        self.atq3.i_data.next = self.pk_kind.wide.val()
            | (self.pk_gr.wide.val() << self.c2_8.val())
            | (self.pk_cmp.wide.val() << self.c4_8.val())
            | self.pk_guard.val();
        self.count.d.next = self.count.q.val();
        if self.enq_push.val() & !self.r_pop.q.val() {
            self.count.d.next = self.count.q.val() + self.one_cb.val();
        } else if !self.enq_push.val() & self.r_pop.q.val() {
            self.count.d.next = self.count.q.val() - self.one_cb.val();
        }
        self.atq_count.next = self.count.q.val();

        // ---- Per-warp queues: the expander pushes, a warp pops.
        self.aq.clock.next = self.clock.val();
        self.aq.reset.next = self.reset.val();
        self.pq.clock.next = self.clock.val();
        self.pq.reset.next = self.reset.val();
        self.aq.push_q.next = self.wa.val();
        self.pq.push_q.next = self.wa.val();
        self.aq.push.next = self.a_push.val();
        self.pq.push.next = self.p_push.val();
        // Record {last, gran, mask, addr[31:5]}.
        self.pk_addr.narrow.next = self.rec.addr.val() >> self.c5_32.val();
        self.pk_mask.narrow.next = self.rec.mask.val();
        self.pk_gran.narrow.next = self.t_gran.val();
        self.pk_last.next = self.zero_62.val();
        if self.rec.last.val() {
            self.pk_last.next = self.bit61.val();
        }
        self.aq.push_data.next = self.pk_addr.wide.val()
            | (self.pk_mask.wide.val() << self.off27.val())
            | (self.pk_gran.wide.val() << self.off59.val())
            | self.pk_last.val();
        self.pq.push_data.next = self.pmask.val();
        self.aq.pop_q.next = self.deq_warp.val();
        self.pq.pop_q.next = self.deq_warp.val();
        self.aq.pop.next = self.deq_valid.val() & !self.deq_kind.val();
        self.pq.pop.next = self.deq_valid.val() & self.deq_kind.val();

        // ---- The dequeue response.
        self.d_hit.next = self.aq.pop_valid.val();
        if self.deq_kind.val() {
            self.d_hit.next = self.pq.pop_valid.val();
        }
        self.r_valid.d.next = self.deq_valid.val();
        self.r_hit.d.next = self.deq_valid.val() & self.d_hit.val();
        self.r_addr.d.next = self.c0_32.val();
        self.r_mask.d.next = self.c0_32.val();
        self.r_gran.d.next = self.c0_2.val();
        self.r_last.d.next = false;
        self.up_addr.narrow.next = self.aq.pop_data.val().get_bits::<27>(0);
        if self.deq_valid.val() & self.d_hit.val() {
            if self.deq_kind.val() {
                self.r_mask.d.next = self.pq.pop_data.val();
            } else {
                self.r_addr.d.next = self.up_addr.wide.val() << self.c5_32.val();
                self.r_mask.d.next = self.aq.pop_data.val().get_bits::<32>(27);
                self.r_gran.d.next = self.aq.pop_data.val().get_bits::<2>(59);
                self.r_last.d.next = self.aq.pop_data.val().get_bit(61);
            }
        }
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_hit.next = self.r_hit.q.val();
        self.rsp_addr.next = self.r_addr.q.val();
        self.rsp_mask.next = self.r_mask.q.val();
        self.rsp_gran.next = self.r_gran.q.val();
        self.rsp_last.next = self.r_last.q.val();
    }
}
