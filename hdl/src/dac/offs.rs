//! [`DacBasis`] and [`DacOffs`]: a tuple's thread offsets per lane (issue
//! 29, step 3: registered per tuple, off the warp-setup stages).

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::{konst, konsts, sigs, ZeroExt};

/// Signals per lane of the offset trees (three terms, one compressor).
const LANE_SIGS: usize = 5;

/// The five basis offsets of a tuple: `bb[j]` is the offset of lane `2^j`
/// relative to lane 0 of a warp whose first thread is a multiple of 32, in
/// a block whose x dimension is `2^k`: `off_tx << j` when `2^j < 2^k`, else
/// `off_ty << (j - k)` (modulo 2^32), then (issue 29, session 48) two
/// pair sums, `bb[5] = bb[0] + bb[1]` and `bb[6] = bb[2] + bb[3]`, so that
/// a lane's offset is the sum of at most three registered words.
#[derive(LogicBlock)]
pub struct DacBasis {
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// The basis offsets (0 to 4) and the pair sums (5 and 6).
    pub bb: Vec<Signal<Out, Bits<32>>>,

    b: Vec<Signal<Local, Bits<32>>>,
    pair: Vec<PrefixAdd<32>>,
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
            bb: (0..7).map(|_| Signal::default()).collect(),
            b: sigs(5),
            pair: (0..2).map(|_| PrefixAdd::default()).collect(),
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
                self.b[j].next = self.off_tx.val() << self.cb[j].val();
            } else {
                self.b[j].next = self.off_ty.val() << (self.cb[j].val() - self.zx_k.wide.val());
            }
            self.bb[j].next = self.b[j].val();
        }
        self.pair[0].x.next = self.b[0].val();
        self.pair[0].y.next = self.b[1].val();
        self.pair[0].ci.next = false;
        self.bb[5].next = self.pair[0].s.val();
        self.pair[1].x.next = self.b[2].val();
        self.pair[1].y.next = self.b[3].val();
        self.pair[1].ci.next = false;
        self.bb[6].next = self.pair[1].s.val();
    }
}

/// Lane `l`'s offset relative to lane 0, `o[l - 1]` for lanes 1 to 31: the
/// sum of the basis offsets `bb[j]` over the set bits `j` of `l` (the
/// offset is additive over the bits of the lane number: it is
/// `tx_rel(l)*off_tx + ty_rel(l)*off_ty` with `tx_rel(l) = l mod 2^k`,
/// `ty_rel(l) = l div 2^k`). Issue 29, session 48: the terms are grouped
/// by bit pairs, `a` = the sum over bits 0 and 1 (`bb[0]`, `bb[1]` or the
/// registered pair sum `bb[5]`), `b` over bits 2 and 3 (`bb[2]`, `bb[3]`
/// or `bb[6]`), `c` = `bb[4]` for bit 4, each a constant choice per lane;
/// one 3:2 compressor reduces them to two words and a [`PrefixAdd`] adds
/// them (before: five terms, three compressors in series).
#[derive(LogicBlock)]
pub struct DacOffs {
    /// The basis offsets and pair sums ([`DacBasis`], registered).
    pub bb: Vec<Signal<In, Bits<32>>>,
    /// The offsets of lanes 1 to 31.
    pub o: Vec<Signal<Out, Bits<32>>>,

    y: Vec<Signal<Local, Bits<32>>>,
    add: Vec<PrefixAdd<32>>,
    /// Per lane `l` from 1 (at `l - 1`): all ones when the term is chosen
    /// (`ma*`: bits 0 and 1 of `l` are 01, 10, 11; `mb*`: bits 2 and 3;
    /// `m4`: bit 4 set).
    ma1: Vec<Constant<Bits<32>>>,
    ma2: Vec<Constant<Bits<32>>>,
    ma3: Vec<Constant<Bits<32>>>,
    mb1: Vec<Constant<Bits<32>>>,
    mb2: Vec<Constant<Bits<32>>>,
    mb3: Vec<Constant<Bits<32>>>,
    m4: Vec<Constant<Bits<32>>>,
    c1: Constant<Bits<32>>,
    _n: usize,
}

impl Default for DacOffs {
    fn default() -> Self {
        let lm = |j: u32, v: u64| {
            konsts::<32>((1..32u64).map(move |l| u64::from(((l >> j) & 3) == v) * 0xFFFF_FFFF))
        };
        DacOffs {
            bb: (0..7).map(|_| Signal::default()).collect(),
            o: (0..31).map(|_| Signal::default()).collect(),
            y: sigs(31 * LANE_SIGS),
            add: (0..31).map(|_| PrefixAdd::default()).collect(),
            ma1: lm(0, 1),
            ma2: lm(0, 2),
            ma3: lm(0, 3),
            mb1: lm(2, 1),
            mb2: lm(2, 2),
            mb3: lm(2, 3),
            m4: lm(4, 1),
            c1: konst(1),
            _n: 31,
        }
    }
}

impl Logic for DacOffs {
    #[hdl_gen]
    fn update(&mut self) {
        // Lane l = i + 1: y[5i + 0..3] its terms a, b, c; one compressor
        // (0, 1, 2 -> 3, 4); o[i] = y[3] + y[4].
        for i in 0..self._n {
            self.y[5 * i].next = (self.bb[0].val() & self.ma1[i].val())
                | (self.bb[1].val() & self.ma2[i].val())
                | (self.bb[5].val() & self.ma3[i].val());
            self.y[5 * i + 1].next = (self.bb[2].val() & self.mb1[i].val())
                | (self.bb[3].val() & self.mb2[i].val())
                | (self.bb[6].val() & self.mb3[i].val());
            self.y[5 * i + 2].next = self.bb[4].val() & self.m4[i].val();
            self.y[5 * i + 3].next =
                self.y[5 * i].val() ^ self.y[5 * i + 1].val() ^ self.y[5 * i + 2].val();
            self.y[5 * i + 4].next = ((self.y[5 * i].val() & self.y[5 * i + 1].val())
                | (self.y[5 * i].val() & self.y[5 * i + 2].val())
                | (self.y[5 * i + 1].val() & self.y[5 * i + 2].val()))
                << self.c1.val();
            self.add[i].x.next = self.y[5 * i + 3].val();
            self.add[i].y.next = self.y[5 * i + 4].val();
            self.add[i].ci.next = false;
            self.o[i].next = self.add[i].s.val();
        }
    }
}
