//! [`DacLane0`]: lane 0's value of a warp (`base + cx*off_cx + cy*off_cy +
//! tx0*off_tx + ty0*off_ty`) as a carry-save sum and carry word (issue 29:
//! the first half of the warp setup, registered before the lanes; session
//! 52: the CTA terms come in as two registered words, [`super::DacCta`]).

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs};

/// Operands of the lane-0 tree: the CTA terms' two words, 6 partial
/// products of `(a*off_tx) << 5`, 12 of `ty0*off_ty`.
const VW_OPS: usize = 20;
/// Signals of the lane-0 tree: the operands, then two per 3:2 compressor.
const VW_SIGS: usize = VW_OPS + 2 * (VW_OPS - 2);

/// `vw = cs + cc + (a*off_tx << 5) + ty0*off_ty` (modulo 2^32; `cs + cc` =
/// `base + cx*off_cx + cy*off_cy`, `a` = `tx0 / 32`, `ty0` the warp's first
/// row; every factor unsigned) as `s + c`: one carry-save (3:2 compressor)
/// tree over its 20 operands. No adder: the lanes ([`super::DacLanes`]) add
/// the two words into each lane's value.
#[derive(LogicBlock)]
pub struct DacLane0 {
    /// The CTA terms' sum word.
    pub cs: Signal<In, Bits<32>>,
    /// The CTA terms' carry word.
    pub cc: Signal<In, Bits<32>>,
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
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
    _ncsa: usize,
}

impl Default for DacLane0 {
    fn default() -> Self {
        DacLane0 {
            cs: Default::default(),
            cc: Default::default(),
            off_tx: Default::default(),
            off_ty: Default::default(),
            a: Default::default(),
            ty0: Default::default(),
            s: Default::default(),
            c: Default::default(),
            x: sigs(VW_SIGS),
            sh: konsts::<32>(0..12),
            sh5: konsts::<32>(5..11),
            c1: konst(1),
            z32: konst(0),
            _w6: 6,
            _w12: 12,
            _ncsa: VW_OPS - 2,
        }
    }
}

impl Logic for DacLane0 {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Lane 0: operands x[0..20], compressor i reads x[3i..3i+2] and
        // writes x[20+2i] (sum) and x[21+2i] (carry); x[54], x[55] remain.
        self.x[0].next = self.cs.val();
        self.x[1].next = self.cc.val();
        for j in 0..self._w6 {
            self.x[j + 2].next = self.z32.val();
            if self.a.val().get_bit(j) {
                self.x[j + 2].next = self.off_tx.val() << self.sh5[j].val();
            }
        }
        for j in 0..self._w12 {
            self.x[j + 8].next = self.z32.val();
            if self.ty0.val().get_bit(j) {
                self.x[j + 8].next = self.off_ty.val() << self.sh[j].val();
            }
        }
        for i in 0..self._ncsa {
            self.x[2 * i + 20].next =
                self.x[3 * i].val() ^ self.x[3 * i + 1].val() ^ self.x[3 * i + 2].val();
            self.x[2 * i + 21].next = ((self.x[3 * i].val() & self.x[3 * i + 1].val())
                | (self.x[3 * i].val() & self.x[3 * i + 2].val())
                | (self.x[3 * i + 1].val() & self.x[3 * i + 2].val()))
                << self.c1.val();
        }
        self.s.next = self.x[54].val();
        self.c.next = self.x[55].val();
    }
}
