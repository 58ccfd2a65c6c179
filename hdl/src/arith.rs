//! Arithmetic blocks shared by the prefetchers: a signed small factor times
//! a stride ([`SignedMul`]: CAPS's warp distance x stride, Snake's
//! inter-warp distance x stride) and the exact division of an address
//! difference by a power-of-two warp distance ([`ExactDiv`]: CAPS's rule 4,
//! Snake's inter-warp stride training), and a parallel-prefix adder
//! ([`PrefixAdd`], issue 29: CAPS's and Snake's adders on one-cycle paths).

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, low_mask, sigs};

/// `p = d * s mod 2^A` for a signed `WD`-bit `d` (two's complement) and an
/// `A`-bit `s`: the sum of `s << j` over the set bits `j < WD-1` of `d`,
/// minus `s << (WD-1)` when the sign bit is set.
#[derive(LogicBlock)]
pub struct SignedMul<const WD: usize, const A: usize> {
    /// Signed warp distance.
    pub d: Signal<In, Bits<WD>>,
    /// Stride (any sign; modular arithmetic).
    pub s: Signal<In, Bits<A>>,
    /// Product modulo `2^A`.
    pub p: Signal<Out, Bits<A>>,

    sh: Vec<Constant<Bits<A>>>,
    zero_a: Constant<Bits<A>>,
    acc: Vec<Signal<Local, Bits<A>>>,
    _wi: usize,
    _wd: usize,
}

impl<const WD: usize, const A: usize> Default for SignedMul<WD, A> {
    fn default() -> Self {
        assert!(WD >= 2 && WD <= A, "warp distance needs 2..=ADDR_W bits");
        SignedMul {
            d: Default::default(),
            s: Default::default(),
            p: Default::default(),
            sh: konsts::<A>(0..WD as u64),
            zero_a: konst(0),
            acc: sigs(WD),
            _wi: WD - 1,
            _wd: WD,
        }
    }
}

impl<const WD: usize, const A: usize> Logic for SignedMul<WD, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.acc[0].next = self.zero_a.val();
        for j in 0..self._wi {
            if self.d.val().get_bit(j) {
                self.acc[j + 1].next = self.acc[j].val() + (self.s.val() << self.sh[j].val());
            } else {
                self.acc[j + 1].next = self.acc[j].val();
            }
        }
        self.p.next = self.acc[0].val();
        for t in self._wi..self._wd {
            if self.d.val().get_bit(t) {
                self.p.next = self.acc[t].val() - (self.s.val() << self.sh[t].val());
            } else {
                self.p.next = self.acc[t].val();
            }
        }
    }
}

/// Rule 4: `pow2` = `|delta|` is a power of two `2^m`; `div` = the low `m`
/// bits of `diff` are zero; `stride` = `diff` shifted right arithmetically
/// by `m`, negated when `delta < 0` (all modulo `2^A`).
#[derive(LogicBlock)]
pub struct ExactDiv<const WD: usize, const A: usize> {
    /// `w - lead`, signed `WD` bits (nonzero).
    pub delta: Signal<In, Bits<WD>>,
    /// `a[0] - base[0]`.
    pub diff: Signal<In, Bits<A>>,
    /// `|delta|` is a power of two.
    pub pow2: Signal<Out, Bit>,
    /// `diff` is divisible by `delta` (meaningful when `pow2`).
    pub div: Signal<Out, Bit>,
    /// `diff / delta` (meaningful when `pow2 & div`).
    pub stride: Signal<Out, Bits<A>>,

    half_wd: Constant<Bits<WD>>,
    zero_wd: Constant<Bits<WD>>,
    sign_a: Constant<Bits<A>>,
    zero_a: Constant<Bits<A>>,
    pow_c: Vec<Constant<Bits<WD>>>,
    low_c: Vec<Constant<Bits<A>>>,
    high_c: Vec<Constant<Bits<A>>>,
    sh_c: Vec<Constant<Bits<A>>>,

    neg: Signal<Local, Bit>,
    absd: Signal<Local, Bits<WD>>,
    dneg: Signal<Local, Bit>,
    sra: Signal<Local, Bits<A>>,
    _wi: usize,
}

impl<const WD: usize, const A: usize> Default for ExactDiv<WD, A> {
    fn default() -> Self {
        let wi = WD - 1;
        assert!(wi < A, "WARP_IDX_W must be below ADDR_W");
        ExactDiv {
            delta: Default::default(),
            diff: Default::default(),
            pow2: Default::default(),
            div: Default::default(),
            stride: Default::default(),
            half_wd: konst(1u64 << wi),
            zero_wd: konst(0),
            sign_a: konst(1u64 << (A - 1)),
            zero_a: konst(0),
            pow_c: konsts((0..wi).map(|m| 1u64 << m)),
            low_c: konsts((0..wi).map(low_mask)),
            high_c: konsts((0..wi).map(|m| low_mask(A) & !(low_mask(A) >> m))),
            sh_c: konsts((0..wi).map(|m| m as u64)),
            neg: Default::default(),
            absd: Default::default(),
            dneg: Default::default(),
            sra: Default::default(),
            _wi: wi,
        }
    }
}

impl<const WD: usize, const A: usize> Logic for ExactDiv<WD, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.neg.next = self.delta.val() >= self.half_wd.val();
        if self.neg.val() {
            self.absd.next = self.zero_wd.val() - self.delta.val();
        } else {
            self.absd.next = self.delta.val();
        }
        self.dneg.next = self.diff.val() >= self.sign_a.val();
        self.pow2.next = false;
        self.div.next = false;
        self.sra.next = self.zero_a.val();
        for m in 0..self._wi {
            if self.absd.val() == self.pow_c[m].val() {
                self.pow2.next = true;
                self.div.next = (self.diff.val() & self.low_c[m].val()) == self.zero_a.val();
                if self.dneg.val() {
                    self.sra.next = (self.diff.val() >> self.sh_c[m].val()) | self.high_c[m].val();
                } else {
                    self.sra.next = self.diff.val() >> self.sh_c[m].val();
                }
            }
        }
        if self.neg.val() {
            self.stride.next = self.zero_a.val() - self.sra.val();
        } else {
            self.stride.next = self.sra.val();
        }
    }
}

/// `s = x + y + ci mod 2^A` with a parallel-prefix (Kogge-Stone) carry:
/// `log2 A` levels of group generate and propagate words (constant
/// shifts), where the synthesis flow maps `+` to a ripple carry. A
/// subtraction is `x + !y + 1`.
#[derive(LogicBlock)]
pub struct PrefixAdd<const A: usize> {
    /// Addend.
    pub x: Signal<In, Bits<A>>,
    /// Addend.
    pub y: Signal<In, Bits<A>>,
    /// Carry in.
    pub ci: Signal<In, Bit>,
    /// `x + y + ci` modulo `2^A`.
    pub s: Signal<Out, Bits<A>>,

    one: Constant<Bits<A>>,
    zero: Constant<Bits<A>>,
    sh: Vec<Constant<Bits<A>>>,
    p0: Signal<Local, Bits<A>>,
    g0: Signal<Local, Bits<A>>,
    cw: Signal<Local, Bits<A>>,
    cp: Signal<Local, Bits<A>>,
    g: Vec<Signal<Local, Bits<A>>>,
    p: Vec<Signal<Local, Bits<A>>>,
    gs: Vec<Signal<Local, Bits<A>>>,
    ps: Vec<Signal<Local, Bits<A>>>,
    pg: Vec<Signal<Local, Bits<A>>>,
    gc: Signal<Local, Bits<A>>,
    c: Signal<Local, Bits<A>>,
    _l: usize,
    _l1: usize,
    _lp: usize,
}

impl<const A: usize> Default for PrefixAdd<A> {
    fn default() -> Self {
        let mut l = 1;
        while (1usize << l) < A {
            l += 1;
        }
        PrefixAdd {
            x: Default::default(),
            y: Default::default(),
            ci: Default::default(),
            s: Default::default(),
            one: konst(1),
            zero: konst(0),
            sh: konsts::<A>((0..l).map(|i| 1u64 << i)),
            p0: Default::default(),
            g0: Default::default(),
            cw: Default::default(),
            cp: Default::default(),
            g: sigs(l + 1),
            p: sigs(l),
            gs: sigs(l),
            ps: sigs(l - 1),
            pg: sigs(l),
            gc: Default::default(),
            c: Default::default(),
            _l: l,
            _l1: l + 1,
            _lp: l - 1,
        }
    }
}

impl<const A: usize> Logic for PrefixAdd<A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The carry in enters as bit 0's generate: bit 0 carries out when it
        // generates, or propagates the carry in.
        if self.ci.val() {
            self.cw.next = self.one.val();
        } else {
            self.cw.next = self.zero.val();
        }
        self.p0.next = self.x.val() ^ self.y.val();
        self.cp.next = self.p0.val() & self.cw.val();
        self.g0.next = (self.x.val() & self.y.val()) | self.cp.val();
        self.g[0].next = self.g0.val();
        self.p[0].next = self.p0.val();
        // The last level's group propagate is not needed.
        for l in 0..self._lp {
            self.ps[l].next = self.p[l].val() << self.sh[l].val();
            self.p[l + 1].next = self.p[l].val() & self.ps[l].val();
        }
        for l in 0..self._l {
            self.gs[l].next = self.g[l].val() << self.sh[l].val();
            self.pg[l].next = self.p[l].val() & self.gs[l].val();
            self.g[l + 1].next = self.g[l].val() | self.pg[l].val();
        }
        // Bit i's carry in: the group carry out of bits 0..i-1.
        self.gc.next = self.zero.val();
        for t in self._l..self._l1 {
            self.gc.next = self.g[t].val() << self.one.val();
        }
        self.c.next = self.gc.val() | self.cw.val();
        self.s.next = self.p0.val() ^ self.c.val();
    }
}
