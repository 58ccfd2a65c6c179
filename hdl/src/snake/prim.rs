//! [`FirstOne`]: the lowest set bit of a word as a one-hot word, each
//! output bit its own reduction (a tree, not a priority chain).

use rust_hdl::prelude::*;

/// `first` = the lowest set bit of `x` (one-hot, all zero when no bit is
/// set); `any` = some bit is set. `first[i]` is `x[i] & ~(x[0] | ... |
/// x[i-1])`, emitted as one reduction per bit so that synthesis builds
/// trees, not a priority chain.
#[derive(Clone, Debug, LogicBlock)]
pub struct FirstOne {
    /// The bits.
    pub x: Vec<Signal<In, Bit>>,
    /// The lowest set bit, one-hot.
    pub first: Vec<Signal<Out, Bit>>,
    /// Some bit is set.
    pub any: Signal<Out, Bit>,
}

impl FirstOne {
    /// A block of `n >= 1` bits.
    pub fn new(n: usize) -> Self {
        assert!(n >= 1, "FirstOne: at least one bit");
        FirstOne {
            x: (0..n).map(|_| Signal::default()).collect(),
            first: (0..n).map(|_| Signal::default()).collect(),
            any: Default::default(),
        }
    }
}

impl Logic for FirstOne {
    fn update(&mut self) {
        let mut seen = false;
        for (x, f) in self.x.iter().zip(self.first.iter_mut()) {
            f.next = x.val() & !seen;
            seen |= x.val();
        }
        self.any.next = seen;
    }

    fn connect(&mut self) {
        for f in self.first.iter_mut() {
            f.connect();
        }
        self.any.connect();
    }

    fn hdl(&self) -> Verilog {
        let n = self.x.len();
        let mut v = String::from("always @(*) begin\n    first$0 = x$0;\n");
        for i in 1..n {
            let below: Vec<String> = (0..i).map(|j| format!("x${j}")).collect();
            v += &format!("    first${i} = x${i} & ~({});\n", below.join(" | "));
        }
        let all: Vec<String> = (0..n).map(|j| format!("x${j}")).collect();
        v += &format!("    any = {};\nend", all.join(" | "));
        Verilog::Custom(v)
    }
}

/// The inter-warp candidate stride (training step 2) without a negation
/// after the shift: for `delta = w - lead` (warp ids of `WB` bits, `w !=
/// lead`), `pow2` = `|delta|` is a power of two `2^m`; `div` = the low `m`
/// bits of `a - base` are zero; `stride` = `(a - base) / delta`, computed
/// as `(a - base)` (delta > 0) or `(base - a)` (delta < 0), both formed in
/// parallel, shifted right arithmetically by `m` (exact when `div`).
#[derive(LogicBlock)]
pub struct IwDiv<const WB: usize, const A: usize> {
    /// This load's warp.
    pub w: Signal<In, Bits<WB>>,
    /// The warp of the previous load of the pc.
    pub lead: Signal<In, Bits<WB>>,
    /// This load's address.
    pub a: Signal<In, Bits<A>>,
    /// The previous load's address.
    pub base: Signal<In, Bits<A>>,
    /// `|w - lead|` is a power of two.
    pub pow2: Signal<Out, Bit>,
    /// `a - base` is divisible by it.
    pub div: Signal<Out, Bit>,
    /// `(a - base) / (w - lead)` (meaningful when `pow2 & div`).
    pub stride: Signal<Out, Bits<A>>,

    sign_a: Constant<Bits<A>>,
    zero_a: Constant<Bits<A>>,
    pow_c: Vec<Constant<Bits<WB>>>,
    low_c: Vec<Constant<Bits<A>>>,
    high_c: Vec<Constant<Bits<A>>>,
    sh_c: Vec<Constant<Bits<A>>>,

    neg: Signal<Local, Bit>,
    absd: Signal<Local, Bits<WB>>,
    diff: Signal<Local, Bits<A>>,
    ndiff: Signal<Local, Bits<A>>,
    num: Signal<Local, Bits<A>>,
    nneg: Signal<Local, Bit>,
    is_m: Vec<Signal<Local, Bit>>,
    part: Vec<Signal<Local, Bits<A>>>,
    _wb: usize,
}

impl<const WB: usize, const A: usize> Default for IwDiv<WB, A> {
    fn default() -> Self {
        assert!(WB < A, "warp ids are narrower than addresses");
        let mask = |bits: usize| -> u64 {
            if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            }
        };
        IwDiv {
            w: Default::default(),
            lead: Default::default(),
            a: Default::default(),
            base: Default::default(),
            pow2: Default::default(),
            div: Default::default(),
            stride: Default::default(),
            sign_a: crate::util::konst(1u64 << (A - 1)),
            zero_a: crate::util::konst(0),
            pow_c: crate::util::konsts((0..WB).map(|m| 1u64 << m)),
            low_c: crate::util::konsts((0..WB).map(mask)),
            high_c: crate::util::konsts((0..WB).map(|m| mask(A) & !(mask(A) >> m))),
            sh_c: crate::util::konsts((0..WB).map(|m| m as u64)),
            neg: Default::default(),
            absd: Default::default(),
            diff: Default::default(),
            ndiff: Default::default(),
            num: Default::default(),
            nneg: Default::default(),
            is_m: crate::util::sigs(WB),
            part: crate::util::sigs(WB),
            _wb: WB,
        }
    }
}

impl<const WB: usize, const A: usize> Logic for IwDiv<WB, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.neg.next = self.w.val() < self.lead.val();
        if self.neg.val() {
            self.absd.next = self.lead.val() - self.w.val();
        } else {
            self.absd.next = self.w.val() - self.lead.val();
        }
        self.diff.next = self.a.val() - self.base.val();
        self.ndiff.next = self.base.val() - self.a.val();
        if self.neg.val() {
            self.num.next = self.ndiff.val();
        } else {
            self.num.next = self.diff.val();
        }
        // The sign that the shift extends: that of the exact numerator,
        // `-(a - base)` for a negative delta (positive when `a - base` is
        // negative, including `-2^(A-1)`, whose negation overflows).
        if self.neg.val() {
            self.nneg.next =
                (self.diff.val() < self.sign_a.val()) & (self.diff.val() != self.zero_a.val());
        } else {
            self.nneg.next = self.diff.val() >= self.sign_a.val();
        }
        self.pow2.next = false;
        self.div.next = false;
        self.stride.next = self.zero_a.val();
        for m in 0..self._wb {
            self.is_m[m].next = self.absd.val() == self.pow_c[m].val();
            self.part[m].next = self.zero_a.val();
            if self.is_m[m].val() {
                if self.nneg.val() {
                    self.part[m].next =
                        (self.num.val() >> self.sh_c[m].val()) | self.high_c[m].val();
                } else {
                    self.part[m].next = self.num.val() >> self.sh_c[m].val();
                }
            }
            self.pow2.next = self.pow2.val() | self.is_m[m].val();
            self.div.next = self.div.val()
                | (self.is_m[m].val()
                    & ((self.diff.val() & self.low_c[m].val()) == self.zero_a.val()));
            self.stride.next = self.stride.val() | self.part[m].val();
        }
    }
}
