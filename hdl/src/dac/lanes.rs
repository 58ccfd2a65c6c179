//! [`DacLanes`]: the 32 lane values of a warp, from its lane-0 value as a
//! carry-save sum and carry word ([`super::DacLane0`]) and the tuple's
//! thread offsets.

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::{konst, konsts, sigs, ZeroExt};

/// Signals per lane of the lane trees (five offset terms, five compressors).
const LANE_SIGS: usize = 15;

/// `v[l] = vw + tx_rel(l)*off_tx + ty_rel(l)*off_ty` (modulo 2^32) for the
/// 32 lanes of a warp whose first thread is a multiple of 32, in a block
/// whose x dimension is `2^k`: `tx_rel(l) = l mod 2^k`, `ty_rel(l) = l div
/// 2^k` (`tx_rel = l`, `ty_rel = 0` when `k >= 5`), with lane 0's value
/// `vw = s + c` given as [`super::DacLane0`]'s carry-save words.
///
/// Issue 29 (timing): no multiplier chain and no adder chain. The offset of
/// a lane is additive over the bits of its number: with the five basis
/// offsets `bb[j]` (the offset of lane `2^j`: `off_tx << j` when `2^j <
/// 2^k`, else `off_ty << (j - k)`), lane `l`'s offset is the sum of
/// `bb[j]` over the set bits `j` of `l`. Each lane reduces its (at most
/// five) offset terms, then the sum and carry words of `vw`, to two words
/// and ends with one adder (a [`PrefixAdd`]: the flow maps `+` to a ripple
/// carry): lane 0's sum and carry pass two compressors and one adder.
#[derive(LogicBlock)]
pub struct DacLanes {
    /// Lane 0's value: the sum word.
    pub s: Signal<In, Bits<32>>,
    /// Lane 0's value: the carry word.
    pub c: Signal<In, Bits<32>>,
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// The lane values.
    pub v: Vec<Signal<Out, Bits<32>>>,

    y: Vec<Signal<Local, Bits<32>>>,
    bb: Vec<Signal<Local, Bits<32>>>,
    add: Vec<PrefixAdd<32>>,
    zx_k: ZeroExt<4, 32>,
    cb: Vec<Constant<Bits<32>>>,
    /// Per bit `j` of a lane number, per lane `l`: all ones when bit `j`
    /// of `l` is set.
    lm0: Vec<Constant<Bits<32>>>,
    lm1: Vec<Constant<Bits<32>>>,
    lm2: Vec<Constant<Bits<32>>>,
    lm3: Vec<Constant<Bits<32>>>,
    lm4: Vec<Constant<Bits<32>>>,
    c1: Constant<Bits<32>>,
    _nb: usize,
    _n: usize,
}

impl Default for DacLanes {
    fn default() -> Self {
        let lm = |j: u32| konsts::<32>((0..32u64).map(move |l| (l >> j & 1) * 0xFFFF_FFFF));
        DacLanes {
            s: Default::default(),
            c: Default::default(),
            off_tx: Default::default(),
            off_ty: Default::default(),
            k: Default::default(),
            v: (0..32).map(|_| Signal::default()).collect(),
            y: sigs(32 * LANE_SIGS),
            bb: sigs(5),
            add: (0..32).map(|_| PrefixAdd::default()).collect(),
            zx_k: Default::default(),
            cb: konsts::<32>(0..5),
            lm0: lm(0),
            lm1: lm(1),
            lm2: lm(2),
            lm3: lm(3),
            lm4: lm(4),
            c1: konst(1),
            _nb: 5,
            _n: 32,
        }
    }
}

impl Logic for DacLanes {
    #[hdl_gen]
    fn update(&mut self) {
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
            self.y[15 * l + 11].next = self.s.val() ^ self.c.val() ^ self.y[15 * l + 9].val();
            self.y[15 * l + 12].next = ((self.s.val() & self.c.val())
                | (self.s.val() & self.y[15 * l + 9].val())
                | (self.c.val() & self.y[15 * l + 9].val()))
                << self.c1.val();
            self.y[15 * l + 13].next =
                self.y[15 * l + 10].val() ^ self.y[15 * l + 11].val() ^ self.y[15 * l + 12].val();
            self.y[15 * l + 14].next = ((self.y[15 * l + 10].val() & self.y[15 * l + 11].val())
                | (self.y[15 * l + 10].val() & self.y[15 * l + 12].val())
                | (self.y[15 * l + 11].val() & self.y[15 * l + 12].val()))
                << self.c1.val();
            self.add[l].x.next = self.y[15 * l + 13].val();
            self.add[l].y.next = self.y[15 * l + 14].val();
            self.add[l].ci.next = false;
            self.v[l].next = self.add[l].s.val();
        }
    }
}
