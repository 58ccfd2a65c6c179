//! [`DacBasis`] and [`DacOffs`]: a tuple's thread offsets per lane (issue
//! 29, step 3: registered per tuple, off the warp-setup stages).

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::{konst, konsts, sigs, ZeroExt};

/// Signals per lane of the offset trees (five terms, three compressors).
const LANE_SIGS: usize = 11;

/// The five basis offsets of a tuple: `bb[j]` is the offset of lane `2^j`
/// relative to lane 0 of a warp whose first thread is a multiple of 32, in
/// a block whose x dimension is `2^k`: `off_tx << j` when `2^j < 2^k`, else
/// `off_ty << (j - k)` (modulo 2^32).
#[derive(LogicBlock)]
pub struct DacBasis {
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// The basis offsets.
    pub bb: Vec<Signal<Out, Bits<32>>>,

    zx_k: ZeroExt<4, 32>,
    cb: Vec<Constant<Bits<32>>>,
    _nb: usize,
}

impl Default for DacBasis {
    fn default() -> Self {
        DacBasis {
            off_tx: Default::default(),
            off_ty: Default::default(),
            k: Default::default(),
            bb: (0..5).map(|_| Signal::default()).collect(),
            zx_k: Default::default(),
            cb: konsts::<32>(0..5),
            _nb: 5,
        }
    }
}

impl Logic for DacBasis {
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
    }
}

/// Lane `l`'s offset relative to lane 0, `o[l - 1]` for lanes 1 to 31: the
/// sum of the basis offsets `bb[j]` over the set bits `j` of `l` (the
/// offset is additive over the bits of the lane number: it is
/// `tx_rel(l)*off_tx + ty_rel(l)*off_ty` with `tx_rel(l) = l mod 2^k`,
/// `ty_rel(l) = l div 2^k`). Per lane, three 3:2 compressors reduce the (at most five) terms
/// to two words and a [`PrefixAdd`] adds them.
#[derive(LogicBlock)]
pub struct DacOffs {
    /// The basis offsets ([`DacBasis`], registered).
    pub bb: Vec<Signal<In, Bits<32>>>,
    /// The offsets of lanes 1 to 31.
    pub o: Vec<Signal<Out, Bits<32>>>,

    y: Vec<Signal<Local, Bits<32>>>,
    add: Vec<PrefixAdd<32>>,
    /// Per bit `j` of a lane number, per lane `l` from 1 (at `l - 1`): all
    /// ones when bit `j` of `l` is set.
    lm0: Vec<Constant<Bits<32>>>,
    lm1: Vec<Constant<Bits<32>>>,
    lm2: Vec<Constant<Bits<32>>>,
    lm3: Vec<Constant<Bits<32>>>,
    lm4: Vec<Constant<Bits<32>>>,
    c1: Constant<Bits<32>>,
    _n: usize,
}

impl Default for DacOffs {
    fn default() -> Self {
        let lm = |j: u32| konsts::<32>((1..32u64).map(move |l| (l >> j & 1) * 0xFFFF_FFFF));
        DacOffs {
            bb: (0..5).map(|_| Signal::default()).collect(),
            o: (0..31).map(|_| Signal::default()).collect(),
            y: sigs(31 * LANE_SIGS),
            add: (0..31).map(|_| PrefixAdd::default()).collect(),
            lm0: lm(0),
            lm1: lm(1),
            lm2: lm(2),
            lm3: lm(3),
            lm4: lm(4),
            c1: konst(1),
            _n: 31,
        }
    }
}

impl Logic for DacOffs {
    #[hdl_gen]
    fn update(&mut self) {
        // Lane l = i + 1: y[11i + 0..5] its offset terms; compressors c0 (0,
        // 1, 2 -> 5, 6), c1 (3, 4, 5 -> 7, 8), c2 (6, 7, 8 -> 9, 10); o[i] =
        // y[9] + y[10].
        for i in 0..self._n {
            self.y[11 * i].next = self.bb[0].val() & self.lm0[i].val();
            self.y[11 * i + 1].next = self.bb[1].val() & self.lm1[i].val();
            self.y[11 * i + 2].next = self.bb[2].val() & self.lm2[i].val();
            self.y[11 * i + 3].next = self.bb[3].val() & self.lm3[i].val();
            self.y[11 * i + 4].next = self.bb[4].val() & self.lm4[i].val();
            self.y[11 * i + 5].next =
                self.y[11 * i].val() ^ self.y[11 * i + 1].val() ^ self.y[11 * i + 2].val();
            self.y[11 * i + 6].next = ((self.y[11 * i].val() & self.y[11 * i + 1].val())
                | (self.y[11 * i].val() & self.y[11 * i + 2].val())
                | (self.y[11 * i + 1].val() & self.y[11 * i + 2].val()))
                << self.c1.val();
            self.y[11 * i + 7].next =
                self.y[11 * i + 3].val() ^ self.y[11 * i + 4].val() ^ self.y[11 * i + 5].val();
            self.y[11 * i + 8].next = ((self.y[11 * i + 3].val() & self.y[11 * i + 4].val())
                | (self.y[11 * i + 3].val() & self.y[11 * i + 5].val())
                | (self.y[11 * i + 4].val() & self.y[11 * i + 5].val()))
                << self.c1.val();
            self.y[11 * i + 9].next =
                self.y[11 * i + 6].val() ^ self.y[11 * i + 7].val() ^ self.y[11 * i + 8].val();
            self.y[11 * i + 10].next = ((self.y[11 * i + 6].val() & self.y[11 * i + 7].val())
                | (self.y[11 * i + 6].val() & self.y[11 * i + 8].val())
                | (self.y[11 * i + 7].val() & self.y[11 * i + 8].val()))
                << self.c1.val();
            self.add[i].x.next = self.y[11 * i + 9].val();
            self.add[i].y.next = self.y[11 * i + 10].val();
            self.add[i].ci.next = false;
            self.o[i].next = self.add[i].s.val();
        }
    }
}
