//! [`DacLane0`]: lane 0's value of a warp (`base + cx*off_cx + cy*off_cy +
//! tx0*off_tx + ty0*off_ty`) as a carry-save sum and carry word (issue 29:
//! the first half of the warp setup, registered before the lanes).

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs};

/// Operands of the lane-0 tree: `base`, 16 + 16 partial products of
/// `cx*off_cx` and `cy*off_cy`, 6 of `(a*off_tx) << 5`, 12 of
/// `ty0*off_ty`.
const VW_OPS: usize = 51;
/// Signals of the lane-0 tree: the operands, then two per 3:2 compressor.
const VW_SIGS: usize = VW_OPS + 2 * (VW_OPS - 2);

/// `vw = base + cx*off_cx + cy*off_cy + (a*off_tx << 5) + ty0*off_ty`
/// (modulo 2^32; `a` = `tx0 / 32`, `ty0` the warp's first row; every factor
/// unsigned) as `s + c`: one carry-save (3:2 compressor) tree over its 51
/// operands (`base` and the partial products, each an AND of an offset
/// shifted by a constant with one bit of the factor). No adder: the lanes
/// ([`super::DacLanes`]) add the two words into each lane's value.
#[derive(LogicBlock)]
pub struct DacLane0 {
    /// `base`.
    pub base: Signal<In, Bits<32>>,
    /// Offset per `ctaid.x`.
    pub off_cx: Signal<In, Bits<32>>,
    /// Offset per `ctaid.y`.
    pub off_cy: Signal<In, Bits<32>>,
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
    /// The slot's CTA index x.
    pub cx: Signal<In, Bits<16>>,
    /// The slot's CTA index y.
    pub cy: Signal<In, Bits<16>>,
    /// `tx0 / 32` of the warp's first thread.
    pub a: Signal<In, Bits<6>>,
    /// `ty0` of the warp's first thread (below 2^11).
    pub ty0: Signal<In, Bits<12>>,
    /// The sum word.
    pub s: Signal<Out, Bits<32>>,
    /// The carry word (bit 0 always 0).
    pub c: Signal<Out, Bits<32>>,

    x: Vec<Signal<Local, Bits<32>>>,
    sh: Vec<Constant<Bits<32>>>,
    sh5: Vec<Constant<Bits<32>>>,
    c1: Constant<Bits<32>>,
    z32: Constant<Bits<32>>,
    _w6: usize,
    _w12: usize,
    _w16: usize,
    _ncsa: usize,
}

impl Default for DacLane0 {
    fn default() -> Self {
        DacLane0 {
            base: Default::default(),
            off_cx: Default::default(),
            off_cy: Default::default(),
            off_tx: Default::default(),
            off_ty: Default::default(),
            cx: Default::default(),
            cy: Default::default(),
            a: Default::default(),
            ty0: Default::default(),
            s: Default::default(),
            c: Default::default(),
            x: sigs(VW_SIGS),
            sh: konsts::<32>(0..16),
            sh5: konsts::<32>(5..11),
            c1: konst(1),
            z32: konst(0),
            _w6: 6,
            _w12: 12,
            _w16: 16,
            _ncsa: VW_OPS - 2,
        }
    }
}

impl Logic for DacLane0 {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Lane 0: operands x[0..51], compressor i reads x[3i..3i+2] and
        // writes x[51+2i] (sum) and x[52+2i] (carry); x[147], x[148] remain.
        self.x[0].next = self.base.val();
        for j in 0..self._w16 {
            self.x[j + 1].next = self.z32.val();
            if self.cx.val().get_bit(j) {
                self.x[j + 1].next = self.off_cx.val() << self.sh[j].val();
            }
            self.x[j + 17].next = self.z32.val();
            if self.cy.val().get_bit(j) {
                self.x[j + 17].next = self.off_cy.val() << self.sh[j].val();
            }
        }
        for j in 0..self._w6 {
            self.x[j + 33].next = self.z32.val();
            if self.a.val().get_bit(j) {
                self.x[j + 33].next = self.off_tx.val() << self.sh5[j].val();
            }
        }
        for j in 0..self._w12 {
            self.x[j + 39].next = self.z32.val();
            if self.ty0.val().get_bit(j) {
                self.x[j + 39].next = self.off_ty.val() << self.sh[j].val();
            }
        }
        for i in 0..self._ncsa {
            self.x[2 * i + 51].next =
                self.x[3 * i].val() ^ self.x[3 * i + 1].val() ^ self.x[3 * i + 2].val();
            self.x[2 * i + 52].next = ((self.x[3 * i].val() & self.x[3 * i + 1].val())
                | (self.x[3 * i].val() & self.x[3 * i + 2].val())
                | (self.x[3 * i + 1].val() & self.x[3 * i + 2].val()))
                << self.c1.val();
        }
        self.s.next = self.x[147].val();
        self.c.next = self.x[148].val();
    }
}
