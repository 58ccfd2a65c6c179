//! Arithmetic of `caps_prefetcher` built for depth (issue 29): the warp
//! distance times a stride as a carry-save sum ([`CsaSum`]) and rule 4's
//! exact division with a one-hot choice of the shift ([`ExactDivOh`]).
//! Same results as [`crate::arith::SignedMul`] and
//! [`crate::arith::ExactDiv`] (which other units keep using); the shared
//! blocks chain their adders and multiplexers, these do not.

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, low_mask, sigs};

/// `b + d * s = so + co mod 2^A` for a signed `WD`-bit `d` and `A`-bit `s`
/// and `b` (no carry-propagate adder; the generator adds `so + co` a
/// stage later with [`crate::arith::PrefixAdd`]): `b`, the
/// partial products `s << j` of the set bits `j < WD-1` and, for the sign
/// bit, `!(s << (WD-1))` with a carry-in of 1 (two's complement negation),
/// summed by carry-save adders into a sum and a carry word. A
/// consumer that only compares the sum with a value needs no adder:
/// `x == so + co` needs no carry propagation (the carry into bit `i + 1` of
/// a matching sum is `so & co | (so | co) & !x` at bit `i`, and
/// `x ^ so ^ co` must equal those carries shifted up by one).
///
/// Session 46: the `n = WD + 2` words (`b`, the carry-in word, the `WD`
/// partial products) are summed by a tree, not a row: the words form a
/// queue `x`, adder `q` (of `n - 2`) takes words `3q .. 3q + 2` and
/// appends its sum and carry as words `n + 2q`, `n + 2q + 1`; the last two
/// words are `so` and `co`. Taken in queue order, the adders form a
/// Wallace tree (9 words: 4 adders deep, where the row took 7).
#[derive(LogicBlock)]
pub struct CsaSum<const WD: usize, const A: usize> {
    /// Signed warp distance.
    pub d: Signal<In, Bits<WD>>,
    /// Stride (any sign; modular arithmetic).
    pub s: Signal<In, Bits<A>>,
    /// Addend.
    pub b: Signal<In, Bits<A>>,
    /// Sum word.
    pub so: Signal<Out, Bits<A>>,
    /// Carry word (`so + co = b + d * s` modulo `2^A`).
    pub co: Signal<Out, Bits<A>>,

    sh: Vec<Constant<Bits<A>>>,
    one_sh: Constant<Bits<A>>,
    zero_a: Constant<Bits<A>>,
    one_a: Constant<Bits<A>>,
    x: Vec<Signal<Local, Bits<A>>>,
    _wi: usize,
    _wd: usize,
    // The number of words and of adders.
    _n: usize,
    _n1: usize,
    _nq: usize,
}

impl<const WD: usize, const A: usize> Default for CsaSum<WD, A> {
    fn default() -> Self {
        assert!(WD >= 2 && WD <= A, "warp distance needs 2..=ADDR_W bits");
        let n = WD + 2;
        CsaSum {
            d: Default::default(),
            s: Default::default(),
            b: Default::default(),
            so: Default::default(),
            co: Default::default(),
            sh: konsts::<A>(0..WD as u64),
            one_sh: konst(1),
            zero_a: konst(0),
            one_a: konst(1),
            x: sigs(3 * n - 4),
            _wi: WD - 1,
            _wd: WD,
            _n: n,
            _n1: n + 1,
            _nq: n - 2,
        }
    }
}

impl<const WD: usize, const A: usize> Logic for CsaSum<WD, A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The words: b, the carry-in (1 with the sign bit), the partial
        // products.
        self.x[0].next = self.b.val();
        self.x[1].next = self.zero_a.val();
        for j in 0..self._wi {
            if self.d.val().get_bit(j) {
                self.x[j + 2].next = self.s.val() << self.sh[j].val();
            } else {
                self.x[j + 2].next = self.zero_a.val();
            }
        }
        for j in self._wi..self._wd {
            if self.d.val().get_bit(j) {
                self.x[j + 2].next = !(self.s.val() << self.sh[j].val());
                self.x[1].next = self.one_a.val();
            } else {
                self.x[j + 2].next = self.zero_a.val();
            }
        }
        // The adders, in queue order (`n` is a one-value loop so that the
        // index expressions name only loop variables).
        for n in self._n..self._n1 {
            for q in 0..self._nq {
                self.x[n + 2 * q].next =
                    self.x[3 * q].val() ^ self.x[3 * q + 1].val() ^ self.x[3 * q + 2].val();
                self.x[n + 2 * q + 1].next = ((self.x[3 * q].val() & self.x[3 * q + 1].val())
                    | (self.x[3 * q].val() & self.x[3 * q + 2].val())
                    | (self.x[3 * q + 1].val() & self.x[3 * q + 2].val()))
                    << self.one_sh.val();
            }
            self.so.next = self.x[3 * n - 6].val();
            self.co.next = self.x[3 * n - 5].val();
        }
    }
}

/// `ne` = `x != so + co` modulo `2^A`, without a carry-propagate adder
/// (see [`CsaSum`]).
#[derive(LogicBlock)]
pub struct SumNe<const A: usize> {
    /// The value compared.
    pub x: Signal<In, Bits<A>>,
    /// Sum word.
    pub so: Signal<In, Bits<A>>,
    /// Carry word.
    pub co: Signal<In, Bits<A>>,
    /// `x` differs from `so + co`.
    pub ne: Signal<Out, Bit>,

    one_sh: Constant<Bits<A>>,
    h: Signal<Local, Bits<A>>,
    g: Signal<Local, Bits<A>>,
    o: Signal<Local, Bits<A>>,
    nx: Signal<Local, Bits<A>>,
    po: Signal<Local, Bits<A>>,
    cy: Signal<Local, Bits<A>>,
    cs: Signal<Local, Bits<A>>,
}

impl<const A: usize> Default for SumNe<A> {
    fn default() -> Self {
        SumNe {
            x: Default::default(),
            so: Default::default(),
            co: Default::default(),
            ne: Default::default(),
            one_sh: konst(1),
            h: Default::default(),
            g: Default::default(),
            o: Default::default(),
            nx: Default::default(),
            po: Default::default(),
            cy: Default::default(),
            cs: Default::default(),
        }
    }
}

impl<const A: usize> Logic for SumNe<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.h.next = self.x.val() ^ self.so.val() ^ self.co.val();
        self.g.next = self.so.val() & self.co.val();
        self.o.next = self.so.val() | self.co.val();
        self.nx.next = !self.x.val();
        self.po.next = self.o.val() & self.nx.val();
        self.cy.next = self.g.val() | self.po.val();
        self.cs.next = self.cy.val() << self.one_sh.val();
        self.ne.next = self.h.val() != self.cs.val();
    }
}

/// [`SumNe`]'s comparison as a word (issue 29, session 44): bit `i` of
/// `w` is set where `x` and `so + co` differ in the form `SumNe` compares
/// (`x != so + co` iff `w != 0`), so the word can be registered and the
/// OR of its bits taken a stage later.
#[derive(LogicBlock)]
pub struct SumNeWord<const A: usize> {
    /// The value compared.
    pub x: Signal<In, Bits<A>>,
    /// Sum word.
    pub so: Signal<In, Bits<A>>,
    /// Carry word.
    pub co: Signal<In, Bits<A>>,
    /// Nonzero iff `x != so + co` (modulo `2^A`).
    pub w: Signal<Out, Bits<A>>,
    one_sh: Constant<Bits<A>>,
    h: Signal<Local, Bits<A>>,
    cy: Signal<Local, Bits<A>>,
}

impl<const A: usize> Default for SumNeWord<A> {
    fn default() -> Self {
        SumNeWord {
            x: Default::default(),
            so: Default::default(),
            co: Default::default(),
            w: Default::default(),
            one_sh: konst(1),
            h: Default::default(),
            cy: Default::default(),
        }
    }
}

impl<const A: usize> Logic for SumNeWord<A> {
    #[hdl_gen]
    fn update(&mut self) {
        // As SumNe: x == so + co iff x ^ so ^ co equals the carries a
        // matching sum would have, (so & co | (so | co) & !x) << 1.
        self.h.next = self.x.val() ^ self.so.val() ^ self.co.val();
        self.cy.next =
            (self.so.val() & self.co.val()) | ((self.so.val() | self.co.val()) & !self.x.val());
        self.w.next = self.h.val() ^ (self.cy.val() << self.one_sh.val());
    }
}

/// Rule 4's tests, as [`crate::arith::ExactDiv`]: `pow2` = `|delta| = 2^m`
/// for an `m < WD-1` (`delta` compared with `2^m` and `-2^m`, no
/// negation), `div` = the low `m` bits of `diff` are zero. The quotient is
/// [`ArsOh`]'s, a stage later (issue 29). The `m` tests are exclusive, so
/// the results are OR-ed, not chained.
#[derive(LogicBlock)]
pub struct ExactDivOh<const WD: usize, const A: usize> {
    /// `w - lead`, signed `WD` bits (nonzero).
    pub delta: Signal<In, Bits<WD>>,
    /// `a[0] - base[0]`.
    pub diff: Signal<In, Bits<A>>,
    /// `|delta|` is a power of two.
    pub pow2: Signal<Out, Bit>,
    /// `diff` is divisible by `delta` (meaningful when `pow2`).
    pub div: Signal<Out, Bit>,

    zero_a: Constant<Bits<A>>,
    pos_c: Vec<Constant<Bits<WD>>>,
    neg_c: Vec<Constant<Bits<WD>>>,
    low_c: Vec<Constant<Bits<A>>>,

    oh: Vec<Signal<Local, Bit>>,
    dv: Vec<Signal<Local, Bit>>,
    pw: Vec<Signal<Local, Bit>>,
    _wi: usize,
    _wi1: usize,
}

impl<const WD: usize, const A: usize> Default for ExactDivOh<WD, A> {
    fn default() -> Self {
        let wi = WD - 1;
        assert!(wi < A && WD < 64, "WARP_IDX_W must be below ADDR_W");
        ExactDivOh {
            delta: Default::default(),
            diff: Default::default(),
            pow2: Default::default(),
            div: Default::default(),
            zero_a: konst(0),
            pos_c: konsts((0..wi).map(|m| 1u64 << m)),
            neg_c: konsts((0..wi).map(|m| (1u64 << m).wrapping_neg() & low_mask(WD))),
            low_c: konsts((0..wi).map(low_mask)),
            oh: sigs(wi),
            dv: sigs(wi + 1),
            pw: sigs(wi + 1),
            _wi: wi,
            _wi1: wi + 1,
        }
    }
}

impl<const WD: usize, const A: usize> Logic for ExactDivOh<WD, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.dv[0].next = false;
        self.pw[0].next = false;
        for m in 0..self._wi {
            self.oh[m].next = (self.delta.val() == self.pos_c[m].val())
                | (self.delta.val() == self.neg_c[m].val());
            self.pw[m + 1].next = self.pw[m].val() | self.oh[m].val();
            self.dv[m + 1].next = self.dv[m].val()
                | (self.oh[m].val()
                    & ((self.diff.val() & self.low_c[m].val()) == self.zero_a.val()));
        }
        self.pow2.next = false;
        self.div.next = false;
        for t in self._wi..self._wi1 {
            self.pow2.next = self.pw[t].val();
            self.div.next = self.dv[t].val();
        }
    }
}

/// Rule 4's quotient's magnitude: `mag` = `diff` shifted right
/// arithmetically by `m` when `|delta| = 2^m` (`m < WD-1`; zero when
/// `|delta|` is no such power), meaningful when [`ExactDivOh`] found the
/// division exact; the quotient is `-mag` when `delta < 0` (the stride's
/// sign, kept beside it). The one-hot shift choices are OR-ed.
#[derive(LogicBlock)]
pub struct ArsOh<const WD: usize, const A: usize> {
    /// `w - lead`, signed `WD` bits.
    pub delta: Signal<In, Bits<WD>>,
    /// `a[0] - base[0]`.
    pub diff: Signal<In, Bits<A>>,
    /// `diff` shifted right arithmetically by `m`.
    pub mag: Signal<Out, Bits<A>>,

    sign_a: Constant<Bits<A>>,
    zero_a: Constant<Bits<A>>,
    pos_c: Vec<Constant<Bits<WD>>>,
    neg_c: Vec<Constant<Bits<WD>>>,
    high_c: Vec<Constant<Bits<A>>>,
    sh_c: Vec<Constant<Bits<A>>>,

    dneg: Signal<Local, Bit>,
    oh: Vec<Signal<Local, Bit>>,
    sm: Vec<Signal<Local, Bits<A>>>,
    sr: Vec<Signal<Local, Bits<A>>>,
    _wi: usize,
    _wi1: usize,
}

impl<const WD: usize, const A: usize> Default for ArsOh<WD, A> {
    fn default() -> Self {
        let wi = WD - 1;
        assert!(wi < A && WD < 64, "WARP_IDX_W must be below ADDR_W");
        ArsOh {
            delta: Default::default(),
            diff: Default::default(),
            mag: Default::default(),
            sign_a: konst(1u64 << (A - 1)),
            zero_a: konst(0),
            pos_c: konsts((0..wi).map(|m| 1u64 << m)),
            neg_c: konsts((0..wi).map(|m| (1u64 << m).wrapping_neg() & low_mask(WD))),
            high_c: konsts((0..wi).map(|m| low_mask(A) & !(low_mask(A) >> m))),
            sh_c: konsts((0..wi).map(|m| m as u64)),
            dneg: Default::default(),
            oh: sigs(wi),
            sm: sigs(wi),
            sr: sigs(wi + 1),
            _wi: wi,
            _wi1: wi + 1,
        }
    }
}

impl<const WD: usize, const A: usize> Logic for ArsOh<WD, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.dneg.next = self.diff.val() >= self.sign_a.val();
        self.sr[0].next = self.zero_a.val();
        for m in 0..self._wi {
            self.oh[m].next = (self.delta.val() == self.pos_c[m].val())
                | (self.delta.val() == self.neg_c[m].val());
            if self.oh[m].val() {
                if self.dneg.val() {
                    self.sm[m].next =
                        (self.diff.val() >> self.sh_c[m].val()) | self.high_c[m].val();
                } else {
                    self.sm[m].next = self.diff.val() >> self.sh_c[m].val();
                }
            } else {
                self.sm[m].next = self.zero_a.val();
            }
            self.sr[m + 1].next = self.sr[m].val() | self.sm[m].val();
        }
        self.mag.next = self.zero_a.val();
        for t in self._wi..self._wi1 {
            self.mag.next = self.sr[t].val();
        }
    }
}

/// `o` = the OR of the `v[i]` whose `hit[i]` is set: a one-hot selection
/// as an AND-OR (at most one `hit` may be set; none gives 0), where a
/// `for` loop of `if`s would build a priority chain of multiplexers.
#[derive(LogicBlock)]
pub struct SelOr<const N: usize> {
    /// Per input: selected.
    pub hit: Vec<Signal<In, Bit>>,
    /// Per input: the value.
    pub v: Vec<Signal<In, Bits<N>>>,
    /// The selected value (0 when none is).
    pub o: Signal<Out, Bits<N>>,

    zero: Constant<Bits<N>>,
    m: Vec<Signal<Local, Bits<N>>>,
    acc: Vec<Signal<Local, Bits<N>>>,
    _n: usize,
    _n1: usize,
}

impl<const N: usize> SelOr<N> {
    /// A selection among `n >= 1` inputs.
    pub fn new(n: usize) -> Self {
        assert!(n >= 1, "SelOr needs an input");
        SelOr {
            hit: (0..n).map(|_| Signal::default()).collect(),
            v: (0..n).map(|_| Signal::default()).collect(),
            o: Default::default(),
            zero: konst(0),
            m: sigs(n),
            acc: sigs(n + 1),
            _n: n,
            _n1: n + 1,
        }
    }
}

impl<const N: usize> Logic for SelOr<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.acc[0].next = self.zero.val();
        for i in 0..self._n {
            if self.hit[i].val() {
                self.m[i].next = self.v[i].val();
            } else {
                self.m[i].next = self.zero.val();
            }
            self.acc[i + 1].next = self.acc[i].val() | self.m[i].val();
        }
        self.o.next = self.zero.val();
        for t in self._n..self._n1 {
            self.o.next = self.acc[t].val();
        }
    }
}
