//! [`DacLanes`]: the 32 lane values of a warp, from the tuple, the slot's
//! CTA index and the warp's position in the block, as carry-save trees.

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs, ZeroExt};

/// Operands of the lane-0 tree: `base`, 16 + 16 partial products of
/// `cx*off_cx` and `cy*off_cy`, 6 of `(a*off_tx) << 5`, 12 of
/// `ty0*off_ty`.
const VW_OPS: usize = 51;
/// Signals of the lane-0 tree: the operands, then two per 3:2 compressor.
const VW_SIGS: usize = VW_OPS + 2 * (VW_OPS - 2);
/// Signals per lane of the lane trees (five offset terms, five compressors).
const LANE_SIGS: usize = 15;

/// `v[l] = vw + tx_rel(l)*off_tx + ty_rel(l)*off_ty` (modulo 2^32) for the
/// 32 lanes of a warp whose first thread is a multiple of 32, in a block
/// whose x dimension is `2^k`: `tx_rel(l) = l mod 2^k`, `ty_rel(l) = l div
/// 2^k` (`tx_rel = l`, `ty_rel = 0` when `k >= 5`), with lane 0's value
/// `vw = base + cx*off_cx + cy*off_cy + (a*off_tx << 5) + ty0*off_ty`
/// (`a` = `tx0 / 32`, `ty0` the warp's first row; every factor unsigned).
///
/// Issue 29 (timing): no multiplier chain and no adder chain. `vw` is one
/// carry-save (3:2 compressor) tree over its 51 operands (`base` and the
/// partial products, each an AND of an offset shifted by a constant with
/// one bit of the factor), left as a sum and a carry word. The offset of a
/// lane is additive over the bits of its number: with the five basis
/// offsets `bb[j]` (the offset of lane `2^j`: `off_tx << j` when `2^j <
/// 2^k`, else `off_ty << (j - k)`), lane `l`'s offset is the sum of
/// `bb[j]` over the set bits `j` of `l`. Each lane reduces its (at most
/// five) offset terms, then the sum and carry words of `vw`, to two words
/// and ends with one adder: lane 0's sum and carry pass two compressors and
/// one adder.
#[derive(LogicBlock)]
pub struct DacLanes {
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
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// The lane values.
    pub v: Vec<Signal<Out, Bits<32>>>,

    x: Vec<Signal<Local, Bits<32>>>,
    y: Vec<Signal<Local, Bits<32>>>,
    bb: Vec<Signal<Local, Bits<32>>>,
    zx_k: ZeroExt<4, 32>,
    sh: Vec<Constant<Bits<32>>>,
    sh5: Vec<Constant<Bits<32>>>,
    cb: Vec<Constant<Bits<32>>>,
    /// Per bit `j` of a lane number, per lane `l`: all ones when bit `j`
    /// of `l` is set.
    lm0: Vec<Constant<Bits<32>>>,
    lm1: Vec<Constant<Bits<32>>>,
    lm2: Vec<Constant<Bits<32>>>,
    lm3: Vec<Constant<Bits<32>>>,
    lm4: Vec<Constant<Bits<32>>>,
    c1: Constant<Bits<32>>,
    z32: Constant<Bits<32>>,
    _nb: usize,
    _w6: usize,
    _w12: usize,
    _w16: usize,
    _ncsa: usize,
    _n: usize,
}

impl Default for DacLanes {
    fn default() -> Self {
        let lm = |j: u32| konsts::<32>((0..32u64).map(move |l| (l >> j & 1) * 0xFFFF_FFFF));
        DacLanes {
            base: Default::default(),
            off_cx: Default::default(),
            off_cy: Default::default(),
            off_tx: Default::default(),
            off_ty: Default::default(),
            cx: Default::default(),
            cy: Default::default(),
            a: Default::default(),
            ty0: Default::default(),
            k: Default::default(),
            v: (0..32).map(|_| Signal::default()).collect(),
            x: sigs(VW_SIGS),
            y: sigs(32 * LANE_SIGS),
            bb: sigs(5),
            zx_k: Default::default(),
            sh: konsts::<32>(0..16),
            sh5: konsts::<32>(5..11),
            cb: konsts::<32>(0..5),
            lm0: lm(0),
            lm1: lm(1),
            lm2: lm(2),
            lm3: lm(3),
            lm4: lm(4),
            c1: konst(1),
            z32: konst(0),
            _nb: 5,
            _w6: 6,
            _w12: 12,
            _w16: 16,
            _ncsa: VW_OPS - 2,
            _n: 32,
        }
    }
}

impl Logic for DacLanes {
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
        // ---- The basis offsets.
        self.zx_k.narrow.next = self.k.val();
        for j in 0..self._nb {
            if self.zx_k.wide.val() > self.cb[j].val() {
                self.bb[j].next = self.off_tx.val() << self.cb[j].val();
            } else {
                self.bb[j].next = self.off_ty.val() << (self.cb[j].val() - self.zx_k.wide.val());
            }
        }
        // ---- Lane l: y[15l + 0..5] its offset terms; compressors c0 (0, 1,
        // 2 -> 5, 6), c1 (3, 4, 5 -> 7, 8), c2 (6, 7, 8 -> 9, 10) leave the
        // offset in two words; c3 (sum, carry, 9 -> 11, 12) and c4 (10, 11,
        // 12 -> 13, 14) add lane 0's two words; v = y[13] + y[14].
        for l in 0..self._n {
            self.y[15 * l].next = self.bb[0].val() & self.lm0[l].val();
            self.y[15 * l + 1].next = self.bb[1].val() & self.lm1[l].val();
            self.y[15 * l + 2].next = self.bb[2].val() & self.lm2[l].val();
            self.y[15 * l + 3].next = self.bb[3].val() & self.lm3[l].val();
            self.y[15 * l + 4].next = self.bb[4].val() & self.lm4[l].val();
            self.y[15 * l + 5].next =
                self.y[15 * l].val() ^ self.y[15 * l + 1].val() ^ self.y[15 * l + 2].val();
            self.y[15 * l + 6].next = ((self.y[15 * l].val() & self.y[15 * l + 1].val())
                | (self.y[15 * l].val() & self.y[15 * l + 2].val())
                | (self.y[15 * l + 1].val() & self.y[15 * l + 2].val()))
                << self.c1.val();
            self.y[15 * l + 7].next =
                self.y[15 * l + 3].val() ^ self.y[15 * l + 4].val() ^ self.y[15 * l + 5].val();
            self.y[15 * l + 8].next = ((self.y[15 * l + 3].val() & self.y[15 * l + 4].val())
                | (self.y[15 * l + 3].val() & self.y[15 * l + 5].val())
                | (self.y[15 * l + 4].val() & self.y[15 * l + 5].val()))
                << self.c1.val();
            self.y[15 * l + 9].next =
                self.y[15 * l + 6].val() ^ self.y[15 * l + 7].val() ^ self.y[15 * l + 8].val();
            self.y[15 * l + 10].next = ((self.y[15 * l + 6].val() & self.y[15 * l + 7].val())
                | (self.y[15 * l + 6].val() & self.y[15 * l + 8].val())
                | (self.y[15 * l + 7].val() & self.y[15 * l + 8].val()))
                << self.c1.val();
            self.y[15 * l + 11].next =
                self.x[147].val() ^ self.x[148].val() ^ self.y[15 * l + 9].val();
            self.y[15 * l + 12].next = ((self.x[147].val() & self.x[148].val())
                | (self.x[147].val() & self.y[15 * l + 9].val())
                | (self.x[148].val() & self.y[15 * l + 9].val()))
                << self.c1.val();
            self.y[15 * l + 13].next =
                self.y[15 * l + 10].val() ^ self.y[15 * l + 11].val() ^ self.y[15 * l + 12].val();
            self.y[15 * l + 14].next = ((self.y[15 * l + 10].val() & self.y[15 * l + 11].val())
                | (self.y[15 * l + 10].val() & self.y[15 * l + 12].val())
                | (self.y[15 * l + 11].val() & self.y[15 * l + 12].val()))
                << self.c1.val();
            self.v[l].next = self.y[15 * l + 13].val() + self.y[15 * l + 14].val();
        }
    }
}
