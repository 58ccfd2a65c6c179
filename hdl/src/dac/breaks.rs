//! [`DacBreaks`], [`DacDelta`] and [`DacDeltaFlags`]: a warp's region
//! boundaries from its lanes' carry-save words (issue 29, step 5).
//!
//! Lane `l` starts a new region of `R = 32 << g` bytes when `v[l] >> b !=
//! v[l-1] >> b` (`b = 5 + g`). Consecutive lanes differ by a constant of
//! the tuple, `d = v[l] - v[l-1]` (modulo 2^32): with `bdx = 2^k`, `d1 =
//! off_tx` inside a row and `d2 = off_ty - (2^k - 1)*off_tx` at a row start
//! (lane `l` with `l mod 2^k = 0`, when `k < 5`; the lane offsets are sums
//! of the basis offsets over the bits of the lane number, [`super::DacOffs`],
//! so `d` is that difference exactly). Then `v[l] >> b = (v[l-1] >> b) +
//! (d >> b) + cy` (modulo `2^(32-b)`), with `cy` the carry out of bit `b-1`
//! of `(v[l-1] mod R) + (d mod R)`: the lane starts no region exactly when
//! `d >> b` is 0 and `cy` is 0, or `d >> b` is all ones and `cy` is 1. The
//! two conditions on `d >> b` are per tuple (registered); `cy` needs only
//! the low eight bits: with lane `l-1`'s carry-save words `s`, `c`, `cy =
//! Q2 - Q1`, `Q1` the carry into bit `b` of `(s mod R) + (c mod R)` and
//! `Q2 = floor(((s mod R) + (c mod R) + (d mod R)) / R)` (one more 3:2
//! compressor, its carry out of bit `b-1`, and the carry into bit `b` of
//! the compressed words); `cy` is 0 or 1, so it is the parity of those
//! three carries. No 32-bit adder or comparison of lane values is on the
//! path (before: each lane's prefix adder, then the XOR of neighbours over
//! bits `b..31` and its OR).

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::{konst, konsts, sigs, Pack, ZeroExt};

/// Carry out of each bit of `x + y` (8 bits, no carry in): Kogge-Stone
/// group generates.
#[derive(LogicBlock)]
pub struct Carry8 {
    /// Addend.
    pub x: Signal<In, Bits<8>>,
    /// Addend.
    pub y: Signal<In, Bits<8>>,
    /// Bit `j`: the carry out of bit `j`.
    pub co: Signal<Out, Bits<8>>,

    g: Vec<Signal<Local, Bits<8>>>,
    p: Vec<Signal<Local, Bits<8>>>,
    sh: Vec<Constant<Bits<8>>>,
}

impl Default for Carry8 {
    fn default() -> Self {
        Carry8 {
            x: Default::default(),
            y: Default::default(),
            co: Default::default(),
            g: sigs(4),
            p: sigs(3),
            sh: konsts::<8>([1u64, 2, 4].into_iter()),
        }
    }
}

impl Logic for Carry8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.g[0].next = self.x.val() & self.y.val();
        self.p[0].next = self.x.val() ^ self.y.val();
        self.g[1].next =
            self.g[0].val() | (self.p[0].val() & (self.g[0].val() << self.sh[0].val()));
        self.p[1].next = self.p[0].val() & (self.p[0].val() << self.sh[0].val());
        self.g[2].next =
            self.g[1].val() | (self.p[1].val() & (self.g[1].val() << self.sh[1].val()));
        self.p[2].next = self.p[1].val() & (self.p[1].val() << self.sh[1].val());
        self.g[3].next =
            self.g[2].val() | (self.p[2].val() & (self.g[2].val() << self.sh[2].val()));
        self.co.next = self.g[3].val();
    }
}

/// The region boundaries of a warp: bit `l` set when lane `l` starts a new
/// region (bit 0 always), from lanes `0..30`'s carry-save words' low eight
/// bits (`s`, `c`), the tuple's lane differences' low eight bits (`d1`,
/// `d2`) and their high parts' conditions (`z*`: `d >> b` is 0, `m*`: all
/// ones), `k = log2(bdx)` and the access size `g`.
#[derive(LogicBlock)]
pub struct DacBreaks {
    /// Lane `l`'s carry-save sum word, low bits, for lanes 0 to 30.
    pub s: Vec<Signal<In, Bits<8>>>,
    /// Lane `l`'s carry-save carry word, low bits, for lanes 0 to 30.
    pub c: Vec<Signal<In, Bits<8>>>,
    /// `v[l] - v[l-1]` inside a row, low bits.
    pub d1: Signal<In, Bits<8>>,
    /// `v[l] - v[l-1]` at a row start, low bits.
    pub d2: Signal<In, Bits<8>>,
    /// `d1 >> b` is 0.
    pub z1: Signal<In, Bit>,
    /// `d1 >> b` is all ones.
    pub m1: Signal<In, Bit>,
    /// `d2 >> b` is 0.
    pub z2: Signal<In, Bit>,
    /// `d2 >> b` is all ones.
    pub m2: Signal<In, Bit>,
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// `log2` of the access size.
    pub g: Signal<In, Bits<2>>,
    /// The region boundaries.
    pub brk: Signal<Out, Bits<32>>,

    q1: Vec<Carry8>,
    q2: Vec<Carry8>,
    /// Per lane from 1: the difference's low bits, the compressor's sum and
    /// carry-out words, whether the lane starts a row.
    dl: Vec<Signal<Local, Bits<8>>>,
    cs: Vec<Signal<Local, Bits<8>>>,
    cc: Vec<Signal<Local, Bits<8>>>,
    rs: Vec<Signal<Local, Bit>>,
    cy: Vec<Signal<Local, Bit>>,
    pk: Pack<32>,
    /// The lanes that start a row (`l mod 2^k = 0`, `k < 5`).
    rows: Signal<Local, Bits<32>>,
    /// Bit `b - 1` of a word.
    sel: Signal<Local, Bits<8>>,
    zx_g: ZeroExt<2, 8>,
    row_k: Vec<Constant<Bits<32>>>,
    kc: Vec<Constant<Bits<4>>>,
    lbit: Vec<Constant<Bits<32>>>,
    c16: Constant<Bits<8>>,
    c1: Constant<Bits<8>>,
    c0_8: Constant<Bits<8>>,
    c0: Constant<Bits<32>>,
    _n: usize,
}

impl Default for DacBreaks {
    fn default() -> Self {
        let row = |k: u32| {
            (1..32u64)
                .filter(|l| l % (1 << k) == 0)
                .fold(0, |a, l| a | 1 << l)
        };
        DacBreaks {
            s: (0..31).map(|_| Signal::default()).collect(),
            c: (0..31).map(|_| Signal::default()).collect(),
            d1: Default::default(),
            d2: Default::default(),
            z1: Default::default(),
            m1: Default::default(),
            z2: Default::default(),
            m2: Default::default(),
            k: Default::default(),
            g: Default::default(),
            brk: Default::default(),
            q1: (0..31).map(|_| Carry8::default()).collect(),
            q2: (0..31).map(|_| Carry8::default()).collect(),
            dl: sigs(31),
            cs: sigs(31),
            cc: sigs(31),
            rs: sigs(31),
            cy: sigs(31),
            pk: Pack::new(32),
            rows: Default::default(),
            sel: Default::default(),
            zx_g: Default::default(),
            row_k: konsts::<32>((0..5).map(row)),
            kc: konsts::<4>(0..5),
            lbit: konsts::<32>((1..32).map(|l| 1 << l)),
            c16: konst(16),
            c1: konst(1),
            c0_8: konst(0),
            c0: konst(0),
            _n: 31,
        }
    }
}

impl Logic for DacBreaks {
    #[hdl_gen]
    fn update(&mut self) {
        self.rows.next = self.c0.val();
        if self.k.val() == self.kc[0].val() {
            self.rows.next = self.row_k[0].val();
        } else if self.k.val() == self.kc[1].val() {
            self.rows.next = self.row_k[1].val();
        } else if self.k.val() == self.kc[2].val() {
            self.rows.next = self.row_k[2].val();
        } else if self.k.val() == self.kc[3].val() {
            self.rows.next = self.row_k[3].val();
        } else if self.k.val() == self.kc[4].val() {
            self.rows.next = self.row_k[4].val();
        }
        self.zx_g.narrow.next = self.g.val();
        self.sel.next = self.c16.val() << self.zx_g.wide.val();
        self.pk.bits[0].next = true;
        // Lane l = i + 1 against lane i.
        for i in 0..self._n {
            self.rs[i].next = (self.rows.val() & self.lbit[i].val()) != self.c0.val();
            self.dl[i].next = self.d1.val();
            if self.rs[i].val() {
                self.dl[i].next = self.d2.val();
            }
            self.q1[i].x.next = self.s[i].val();
            self.q1[i].y.next = self.c[i].val();
            self.cs[i].next = self.s[i].val() ^ self.c[i].val() ^ self.dl[i].val();
            self.cc[i].next = (self.s[i].val() & self.c[i].val())
                | (self.s[i].val() & self.dl[i].val())
                | (self.c[i].val() & self.dl[i].val());
            self.q2[i].x.next = self.cs[i].val();
            self.q2[i].y.next = self.cc[i].val() << self.c1.val();
            // The parity of the three carries into bit b.
            self.cy[i].next = ((self.q1[i].co.val() ^ self.cc[i].val() ^ self.q2[i].co.val())
                & self.sel.val())
                != self.c0_8.val();
            if self.rs[i].val() {
                if self.cy[i].val() {
                    self.pk.bits[i + 1].next = !self.m2.val();
                } else {
                    self.pk.bits[i + 1].next = !self.z2.val();
                }
            } else if self.cy[i].val() {
                self.pk.bits[i + 1].next = !self.m1.val();
            } else {
                self.pk.bits[i + 1].next = !self.z1.val();
            }
        }
        self.brk.next = self.pk.word.val();
    }
}

/// `d2 = off_ty - (off_tx << k) + off_tx` (modulo 2^32): the difference of
/// consecutive lanes at a row start (one 3:2 compressor and a prefix adder,
/// with the subtraction's `+1` as the carry in).
#[derive(LogicBlock)]
pub struct DacDelta {
    /// Offset per `tid.x`.
    pub off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub off_ty: Signal<In, Bits<32>>,
    /// `log2(blockDim.x)`.
    pub k: Signal<In, Bits<4>>,
    /// The difference.
    pub d2: Signal<Out, Bits<32>>,

    zx_k: ZeroExt<4, 32>,
    nt: Signal<Local, Bits<32>>,
    add: PrefixAdd<32>,
    c1: Constant<Bits<32>>,
}

impl Default for DacDelta {
    fn default() -> Self {
        DacDelta {
            off_tx: Default::default(),
            off_ty: Default::default(),
            k: Default::default(),
            d2: Default::default(),
            zx_k: Default::default(),
            nt: Default::default(),
            add: Default::default(),
            c1: konst(1),
        }
    }
}

impl Logic for DacDelta {
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_k.narrow.next = self.k.val();
        self.nt.next = !(self.off_tx.val() << self.zx_k.wide.val());
        self.add.x.next = self.off_ty.val() ^ self.off_tx.val() ^ self.nt.val();
        self.add.y.next = ((self.off_ty.val() & self.off_tx.val())
            | (self.off_ty.val() & self.nt.val())
            | (self.off_tx.val() & self.nt.val()))
            << self.c1.val();
        self.add.ci.next = true;
        self.d2.next = self.add.s.val();
    }
}

/// For a lane difference `d` and access size `g` (`b = 5 + g`): `z`, `d >>
/// b` is 0; `m`, `d >> b` is all ones.
#[derive(LogicBlock)]
pub struct DacDeltaFlags {
    /// The difference.
    pub d: Signal<In, Bits<32>>,
    /// `log2` of the access size.
    pub g: Signal<In, Bits<2>>,
    /// `d >> b` is 0.
    pub z: Signal<Out, Bit>,
    /// `d >> b` is all ones.
    pub m: Signal<Out, Bit>,

    zx_g: ZeroExt<2, 32>,
    regm: Signal<Local, Bits<32>>,
    c32: Constant<Bits<32>>,
    c1: Constant<Bits<32>>,
    c0: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
}

impl Default for DacDeltaFlags {
    fn default() -> Self {
        DacDeltaFlags {
            d: Default::default(),
            g: Default::default(),
            z: Default::default(),
            m: Default::default(),
            zx_g: Default::default(),
            regm: Default::default(),
            c32: konst(32),
            c1: konst(1),
            c0: konst(0),
            ones: konst(0xFFFF_FFFF),
        }
    }
}

impl Logic for DacDeltaFlags {
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_g.narrow.next = self.g.val();
        // Bits b..31.
        self.regm.next = !((self.c32.val() << self.zx_g.wide.val()) - self.c1.val());
        self.z.next = (self.d.val() & self.regm.val()) == self.c0.val();
        self.m.next = (self.d.val() | !self.regm.val()) == self.ones.val();
    }
}
