//! A section of the [`super::DacExpanderRtl`] kernel (issue 29, the third
//! setup stage, session 49): the second warp-setup stage (lane 0's and lane
//! `n-1`'s values of the warp two ahead, added from its carry-save words),
//! the hold of its registers (`x_*`, loaded at `load` in
//! [`super::Expander`]), and the tuple's per-tuple products and lane offset
//! for the fast predicate path.

use rust_hdl::prelude::*;

use super::{DacExpanderRtl, Stage};
use crate::section::Section;

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Section<Stage> for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Second setup stage, on the warp after the next one (`ws`,
        // `wc`, `wn`: issue 29, the third setup stage, session 49): lane 0's
        // value `ws + wc` and lane `n-1`'s, `ws + wc + o(n-1)` (one 3:2
        // compressor and an adder), registered (`x_vw`, `x_vl`). `n - 1` is
        // 31 for a full warp, else `(T-1) mod 32` (the CTA's last warp), so
        // `o(n-1)` is one of two registers of the tuple (`r_lo[30]`,
        // `r_ot`); a warp with `n = 0` is skipped.
        self.add_vw.x.next = self.ws.q.val();
        self.add_vw.y.next = self.wc.q.val();
        self.add_vw.ci.next = false;
        self.ol.next = self.r_ot.q.val();
        if self.wn.q.val().get_bit(5) {
            self.ol.next = self.r_lo[30].q.val();
        }
        self.ls.next = self.ws.q.val() ^ self.wc.q.val() ^ self.ol.val();
        self.lc.next = ((self.ws.q.val() & self.wc.q.val())
            | (self.ws.q.val() & self.ol.val())
            | (self.wc.q.val() & self.ol.val()))
            << self.c1_32.val();
        self.add_vl.x.next = self.ls.val();
        self.add_vl.y.next = self.lc.val();
        self.add_vl.ci.next = false;

        // ---- The pointer's CTA terms for the cycle after this edge (issue
        // 29, session 52), from the head's fields as loaded at this edge:
        // the next slot of `todo` (taken at `load` on a slot's last warp) and
        // the pointer's slot after this edge's launch (while idle the first
        // active slot, taken at a start; `busy` excludes both).
        self.cta_a.base.next = self.h_base.d.val();
        self.cta_a.off_cx.next = self.h_cx.d.val();
        self.cta_a.off_cy.next = self.h_cy.d.val();
        self.cta_a.cx.next = self.pk_adv.x.val();
        self.cta_a.cy.next = self.pk_adv.y.val();
        self.cta_b.base.next = self.h_base.d.val();
        self.cta_b.off_cx.next = self.h_cx.d.val();
        self.cta_b.off_cy.next = self.h_cy.d.val();
        self.cta_b.cx.next = self.pk_start.x.val();
        self.cta_b.cy.next = self.pk_start.y.val();
        if self.busy.q.val() {
            self.cta_b.cx.next = self.tcx[30].val();
            self.cta_b.cy.next = self.tcy[30].val();
        }
        self.r_cas.d.next = self.cta_a.s.val();
        self.r_cac.d.next = self.cta_a.c.val();
        self.r_cbs.d.next = self.cta_b.s.val();
        self.r_cbc.d.next = self.cta_b.c.val();

        // The second stage's registers hold unless the walk moves (`load`).
        self.x_vw.d.next = self.x_vw.q.val();
        self.x_nvw.d.next = self.x_nvw.q.val();
        self.x_vl.d.next = self.x_vl.q.val();
        self.x_n.d.next = self.x_n.q.val();
        self.x_lg.d.next = self.x_lg.q.val();
        self.x_skip0.d.next = self.x_skip0.q.val();
        self.x_wid.d.next = self.x_wid.q.val();
        self.x_last.d.next = self.x_last.q.val();
        self.x_v.d.next = self.x_v.q.val();
        self.x_g.d.next = self.x_g.q.val();

        // The tuple's products (loaded every cycle from the copy of the
        // head's fields: `r_p31` holds the tuple's from its second setup
        // cycle, `r_pbt` from its third). 31*step = (step << 5) + !step + 1;
        // ((T-1) mod 32)*step from five partial products and the bias
        // through four 3:2 compressors (`po[3i..3i+3]` -> `po[2i+6]`,
        // `po[2i+7]`), registered, then one adder.
        self.sx_tx.narrow.next = self.t_tx.val();
        self.tm.next = self.cfg_threads.val().get_bits::<5>(0) - self.c1_5.val();
        for j in 0..self._nbb {
            self.po[j].next = self.c0_40.val();
            if self.tm.val().get_bit(j) {
                self.po[j].next = self.sx_tx.wide.val() << self.sh40[j].val();
            }
        }
        self.po[5].next = self.bias40.val();
        for i in 0..self._npc {
            self.po[2 * i + 6].next =
                self.po[3 * i].val() ^ self.po[3 * i + 1].val() ^ self.po[3 * i + 2].val();
            self.po[2 * i + 7].next = ((self.po[3 * i].val() & self.po[3 * i + 1].val())
                | (self.po[3 * i].val() & self.po[3 * i + 2].val())
                | (self.po[3 * i + 1].val() & self.po[3 * i + 2].val()))
                << self.c1_40.val();
        }
        self.r_pts.d.next = self.po[12].val();
        self.r_ptc.d.next = self.po[13].val();
        self.add_pb.x.next = self.r_pts.q.val();
        self.add_pb.y.next = self.r_ptc.q.val();
        self.add_pb.ci.next = false;
        self.r_pbt.d.next = self.add_pb.s.val();
        self.po[14].next = self.sx_tx.wide.val() << self.sh40[5].val();
        self.po[15].next = !self.sx_tx.wide.val();
        self.po[16].next = self.po[14].val() ^ self.po[15].val() ^ self.bias1_40.val();
        self.po[17].next = ((self.po[14].val() & self.po[15].val())
            | (self.po[14].val() & self.bias1_40.val())
            | (self.po[15].val() & self.bias1_40.val()))
            << self.c1_40.val();
        self.add_p31.x.next = self.po[16].val();
        self.add_p31.y.next = self.po[17].val();
        self.add_p31.ci.next = false;
        self.r_p31.d.next = self.add_p31.s.val();
        // Lane (T-1) mod 32's offset: the basis offsets of its set bits
        // through three 3:2 compressors and an adder (as `DacOffs`), loaded
        // every cycle: it holds the tuple's from its second setup cycle.
        for j in 0..self._nbb {
            self.tt[j].next = self.c0_32.val();
            if self.tm.val().get_bit(j) {
                self.tt[j].next = self.r_bb[j].q.val();
            }
        }
        for i in 0..self._ncsa3 {
            self.tt[2 * i + 5].next =
                self.tt[3 * i].val() ^ self.tt[3 * i + 1].val() ^ self.tt[3 * i + 2].val();
            self.tt[2 * i + 6].next = ((self.tt[3 * i].val() & self.tt[3 * i + 1].val())
                | (self.tt[3 * i].val() & self.tt[3 * i + 2].val())
                | (self.tt[3 * i + 1].val() & self.tt[3 * i + 2].val()))
                << self.c1_32.val();
        }
        self.add_ot.x.next = self.tt[9].val();
        self.add_ot.y.next = self.tt[10].val();
        self.add_ot.ci.next = false;
        self.r_ot.d.next = self.add_ot.s.val();
    }
}
