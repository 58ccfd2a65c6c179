//! [`DacLanes`]: the 32 lane values of a warp from the value of its lane 0.

use rust_hdl::prelude::*;

use crate::util::{konsts, sigs, ZeroExt};

/// `v[l] = vw + tx_rel(l)*off_tx + ty_rel(l)*off_ty` (modulo 2^32) for the
/// 32 lanes of a warp whose first thread is a multiple of 32, in a block
/// whose x dimension is `2^k`: `tx_rel(l) = l mod 2^k`, `ty_rel(l) = l div
/// 2^k` (`tx_rel = l`, `ty_rel = 0` when `k >= 5`).
///
/// The offset of a lane is additive over the bits of its number: for `a`
/// and `b` with no common bit, `(a | b) mod 2^k = a mod 2^k + b mod 2^k`
/// and likewise for `div`. So with the five basis offsets `bb[j]` (the
/// offset of lane `2^j`: `off_tx << j` when `2^j < 2^k`, else `off_ty <<
/// (j - k)`), `v[l] = v[l - 2^j] + bb[j]` for the highest bit `j` of `l`:
/// 31 adders, five deep, and no multiplier.
#[derive(LogicBlock)]
pub struct DacLanes {
    /// The value of lane 0.
    pub vw: Signal<In, Bits<32>>,
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// The lane values.
    pub v: Vec<Signal<Out, Bits<32>>>,

    bb: Vec<Signal<Local, Bits<32>>>,
    cb: Vec<Constant<Bits<32>>>,
    zx_k: ZeroExt<4, 32>,
    _nb: usize,
    _w1: usize,
    _w2: usize,
    _w4: usize,
    _w8: usize,
    _w16: usize,
}

impl Default for DacLanes {
    fn default() -> Self {
        DacLanes {
            vw: Default::default(),
            off_tx: Default::default(),
            off_ty: Default::default(),
            k: Default::default(),
            v: (0..32).map(|_| Signal::default()).collect(),
            bb: sigs(5),
            cb: konsts::<32>(0..5),
            zx_k: Default::default(),
            _nb: 5,
            _w1: 1,
            _w2: 2,
            _w4: 4,
            _w8: 8,
            _w16: 16,
        }
    }
}

impl Logic for DacLanes {
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_k.narrow.next = self.k.val();
        for j in 0..self._nb {
            if self.zx_k.wide.val() > self.cb[j].val() {
                self.bb[j].next = self.off_tx.val() << self.cb[j].val();
            } else {
                self.bb[j].next = self.off_ty.val() << (self.cb[j].val() - self.zx_k.wide.val());
            }
        }
        self.v[0].next = self.vw.val();
        for l in 0..self._w1 {
            self.v[l + 1].next = self.v[l].val() + self.bb[0].val();
        }
        for l in 0..self._w2 {
            self.v[l + 2].next = self.v[l].val() + self.bb[1].val();
        }
        for l in 0..self._w4 {
            self.v[l + 4].next = self.v[l].val() + self.bb[2].val();
        }
        for l in 0..self._w8 {
            self.v[l + 8].next = self.v[l].val() + self.bb[3].val();
        }
        for l in 0..self._w16 {
            self.v[l + 16].next = self.v[l].val() + self.bb[4].val();
        }
    }
}
