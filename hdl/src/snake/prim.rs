//! [`FirstOne`]: the lowest set bit of a word as a one-hot word, each
//! output bit its own reduction (a tree, not a priority chain).

use rust_hdl::prelude::*;

use crate::util::{konsts, low_mask};

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
/// `eq` = `pow2 & div & (stride = cmp)`, decided without the subtraction
/// or the shift (issue 29 step 10): with `X = cmp << m`, `(a - base) / delta
/// = cmp` exactly when `a - base = X` (delta > 0) or `-X` (delta < 0) and
/// the shift's fill matches `cmp`'s top bits (`cmp`'s top `m + 1` bits all
/// equal; for delta < 0 not `cmp = -2^(A-1-m)` but also `cmp = 2^(A-1-m)`:
/// `a - base = -2^(A-1)`, whose negation overflows, has a positive quotient). `a + !base + Y = K` (`Y = !X`, `K =
/// -2`; or `Y = X`, `K = -1`) is tested as a carry-save row and the carries
/// it would need, without a carry chain.
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
    /// The stride `stride` is compared with.
    pub cmp: Signal<In, Bits<A>>,
    /// `pow2 & div & (stride = cmp)`.
    pub eq: Signal<Out, Bit>,

    /// `a - base` and `base - a` (prefix adders, issue 29 step 8).
    sub_d: crate::arith::PrefixAdd<A>,
    sub_n: crate::arith::PrefixAdd<A>,
    sign_a: Constant<Bits<A>>,
    zero_a: Constant<Bits<A>>,
    pow_c: Vec<Constant<Bits<WB>>>,
    low_c: Vec<Constant<Bits<A>>>,
    high_c: Vec<Constant<Bits<A>>>,
    sh_c: Vec<Constant<Bits<A>>>,
    /// `cmp`'s top `m + 1` bits, and `2^(A-1-m)`, per `m`.
    top_c: Vec<Constant<Bits<A>>>,
    min_c: Vec<Constant<Bits<A>>>,
    ones_a: Constant<Bits<A>>,
    /// `-2`.
    m2_a: Constant<Bits<A>>,

    neg: Signal<Local, Bit>,
    absd: Signal<Local, Bits<WB>>,
    diff: Signal<Local, Bits<A>>,
    ndiff: Signal<Local, Bits<A>>,
    num: Signal<Local, Bits<A>>,
    nneg: Signal<Local, Bit>,
    is_m: Vec<Signal<Local, Bit>>,
    part: Vec<Signal<Local, Bits<A>>>,
    /// Per `m`: `cmp << m`, the fill check, `a - base = cmp << m` (`sp`)
    /// and `a - base = -(cmp << m)` (`sn`).
    xs: Vec<Signal<Local, Bits<A>>>,
    nxs: Vec<Signal<Local, Bits<A>>>,
    fill: Vec<Signal<Local, Bit>>,
    eqm: Vec<Signal<Local, Bit>>,
    sp: Vec<SumIs<A>>,
    sn: Vec<SumIs<A>>,
    _wb: usize,
}

impl<const WB: usize, const A: usize> Default for IwDiv<WB, A> {
    fn default() -> Self {
        assert!(WB < A, "warp ids are narrower than addresses");
        IwDiv {
            w: Default::default(),
            lead: Default::default(),
            a: Default::default(),
            base: Default::default(),
            pow2: Default::default(),
            div: Default::default(),
            stride: Default::default(),
            cmp: Default::default(),
            eq: Default::default(),
            sub_d: Default::default(),
            sub_n: Default::default(),
            sign_a: crate::util::konst(1u64 << (A - 1)),
            zero_a: crate::util::konst(0),
            pow_c: konsts((0..WB).map(|m| 1u64 << m)),
            low_c: konsts((0..WB).map(low_mask)),
            high_c: konsts((0..WB).map(|m| low_mask(A) & !(low_mask(A) >> m))),
            sh_c: konsts((0..WB).map(|m| m as u64)),
            top_c: konsts((0..WB).map(|m| low_mask(A) & !(low_mask(A) >> (m + 1)))),
            min_c: konsts((0..WB).map(|m| 1u64 << (A - 1 - m))),
            ones_a: crate::util::konst(low_mask(A)),
            m2_a: crate::util::konst(low_mask(A) ^ 1),
            neg: Default::default(),
            absd: Default::default(),
            diff: Default::default(),
            ndiff: Default::default(),
            num: Default::default(),
            nneg: Default::default(),
            is_m: crate::util::sigs(WB),
            part: crate::util::sigs(WB),
            xs: crate::util::sigs(WB),
            nxs: crate::util::sigs(WB),
            fill: crate::util::sigs(WB),
            eqm: crate::util::sigs(WB),
            sp: (0..WB).map(|_| SumIs::default()).collect(),
            sn: (0..WB).map(|_| SumIs::default()).collect(),
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
        self.sub_d.x.next = self.a.val();
        self.sub_d.y.next = !self.base.val();
        self.sub_d.ci.next = true;
        self.diff.next = self.sub_d.s.val();
        self.sub_n.x.next = self.base.val();
        self.sub_n.y.next = !self.a.val();
        self.sub_n.ci.next = true;
        self.ndiff.next = self.sub_n.s.val();
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
                    & ((self.a.val() & self.low_c[m].val())
                        == (self.base.val() & self.low_c[m].val())));
            self.stride.next = self.stride.val() | self.part[m].val();
        }
        // ---- `eq`: for each `m`, `a - base = X` and `a - base = -X` with
        // `X = cmp << m`, as `a + !base + !X = -2` and `a + !base + X = -1`
        // (no carry chain, [`SumIs`]), from registers; `|delta|` and its
        // sign pick behind them.
        self.eq.next = false;
        for m in 0..self._wb {
            self.xs[m].next = self.cmp.val() << self.sh_c[m].val();
            self.nxs[m].next = !self.xs[m].val();
            self.sp[m].x.next = self.a.val();
            self.sp[m].y.next = !self.base.val();
            self.sp[m].z.next = self.nxs[m].val();
            self.sp[m].k.next = self.m2_a.val();
            self.sn[m].x.next = self.a.val();
            self.sn[m].y.next = !self.base.val();
            self.sn[m].z.next = self.xs[m].val();
            self.sn[m].k.next = self.ones_a.val();
            self.fill[m].next = (((self.cmp.val() & self.top_c[m].val()) == self.zero_a.val())
                | (((self.cmp.val() & self.top_c[m].val()) == self.top_c[m].val())
                    & !(self.neg.val() & (self.cmp.val() == self.top_c[m].val()))))
                | (self.neg.val() & (self.cmp.val() == self.min_c[m].val()));
            if self.neg.val() {
                self.eqm[m].next = self.sn[m].eq.val();
            } else {
                self.eqm[m].next = self.sp[m].eq.val();
            }
            self.eq.next =
                self.eq.val() | (self.is_m[m].val() & self.fill[m].val() & self.eqm[m].val());
        }
    }
}

/// `eq` = `x + y + z = k` (modulo `2^A`) without a carry chain (issue 29
/// step 10): the carry-save row `(cu, cm << 1)` of the three, then, bit by
/// bit, the carry into the bit that `cu + (cm << 1) = k` needs (`cu ^ cv ^
/// k`) against the carry out of the bit below that this carry implies
/// (`k`'s complement where the two operand bits differ, else their value).
#[derive(Clone, Debug, LogicBlock)]
pub struct SumIs<const A: usize> {
    /// The operands and the constant sum.
    pub x: Signal<In, Bits<A>>,
    pub y: Signal<In, Bits<A>>,
    pub z: Signal<In, Bits<A>>,
    pub k: Signal<In, Bits<A>>,
    /// `x + y + z = k`.
    pub eq: Signal<Out, Bit>,
    cu: Signal<Local, Bits<A>>,
    cm: Signal<Local, Bits<A>>,
    cv: Signal<Local, Bits<A>>,
    ct: Signal<Local, Bits<A>>,
    co: Signal<Local, Bits<A>>,
    cn: Signal<Local, Bits<A>>,
    cq: Signal<Local, Bits<A>>,
    one: Constant<Bits<32>>,
}

impl<const A: usize> Default for SumIs<A> {
    fn default() -> Self {
        SumIs {
            x: Default::default(),
            y: Default::default(),
            z: Default::default(),
            k: Default::default(),
            eq: Default::default(),
            cu: Default::default(),
            cm: Default::default(),
            cv: Default::default(),
            ct: Default::default(),
            co: Default::default(),
            cn: Default::default(),
            cq: Default::default(),
            one: crate::util::konst(1),
        }
    }
}

impl<const A: usize> Logic for SumIs<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.cu.next = self.x.val() ^ self.y.val() ^ self.z.val();
        self.cm.next = (self.x.val() & self.y.val())
            | (self.x.val() & self.z.val())
            | (self.y.val() & self.z.val());
        self.cv.next = self.cm.val() << self.one.val();
        self.ct.next = self.cu.val() ^ self.cv.val();
        self.co.next = (self.ct.val() & !self.k.val()) | (!self.ct.val() & self.cu.val());
        self.cn.next = self.co.val() << self.one.val();
        self.cq.next = self.ct.val() ^ self.k.val();
        self.eq.next = self.cq.val() == self.cn.val();
    }
}

/// `n` default signals.
fn vec_of<D: Direction, T: Synth>(n: usize) -> Vec<Signal<D, T>> {
    (0..n).map(|_| Signal::default()).collect()
}

/// The eviction keys' pairwise comparisons (issue 29 step 6), for `n <= 32`
/// entries, as one 32-bit word per entry e (bit j about the pair (j, e),
/// the bits from `n` up zero). `nt0`..`nt3`: with `D` = the ones of j less
/// the ones of e *after this edge* (`ones + up - dn`, or 1 for the entry
/// this edge allocates, `alloc`), `D < -1`, `D < 0`, `D < 1`, `D < 2` (the
/// diagonal j = e constant zero: no entry beats itself); the top
/// registers them, so the victim of the next cycle compares nothing wide.
/// Issue 29 step 12: the comparisons with the eight constants the
/// changes can shift a threshold to are formed from registers; this
/// edge's changes (`up`, `dn`, late: the load's hit or clearing) and
/// `alloc` only pick among them (step 12 formed `ones_j + onb_e` with
/// `onb = 128 - ones`; session 50 keeps the difference in registers,
/// below). `older`: `rank_j >
/// rank_e` (now, from the ranks). Each output word is its own
/// combinational block, so the words that do not depend on `alloc` are
/// not in a loop with it.
///
/// Session 50, form (C): the pair registers `pd` (8 bits per pair `j <
/// e`, two's complement) hold `D = ones_j - ones_e` now, written at each
/// edge with the changes (`pd + up_j - dn_j - up_e + dn_e`, or from the
/// allocated entry's 1: `1 - onx_e`, `onx_j - 1`); the thresholds compare
/// the register alone with the constants the changes shift them to (an
/// unsigned comparison with the sign bit flipped; the reverse pair `(e,
/// j)` as `D_je > -c`), so no adder is in front of them. The same
/// function as before (no cycle change).
#[derive(Clone, Debug, LogicBlock)]
pub struct PairKeys<const RT: usize> {
    /// Clock (the pair registers).
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (the pair registers clear, as the ones do).
    pub reset: Signal<In, Bit>,
    /// The ones of each entry's warp vector now (its register).
    pub ones: Vec<Signal<In, Bits<8>>>,
    /// The ones grow by one at this edge (a hit by a new warp).
    pub up: Vec<Signal<In, Bit>>,
    /// The ones shrink by one at this edge (a clearing; never with `up`).
    pub dn: Vec<Signal<In, Bit>>,
    /// The entry is allocated at this edge (its ones become 1).
    pub alloc: Vec<Signal<In, Bit>>,
    /// Each entry's rank.
    pub rank: Vec<Signal<In, Bits<RT>>>,
    /// `D < -1`, bit j of word e.
    pub nt0: Vec<Signal<Out, Bits<32>>>,
    /// `D < 0`.
    pub nt1: Vec<Signal<Out, Bits<32>>>,
    /// `D < 1`.
    pub nt2: Vec<Signal<Out, Bits<32>>>,
    /// `D < 2`.
    pub nt3: Vec<Signal<Out, Bits<32>>>,
    /// `rank_j > rank_e`.
    pub older: Vec<Signal<Out, Bits<32>>>,
    /// The simulator's pair registers, `_pd[j * n + e] = ones_j - ones_e`
    /// (both orders kept; the Verilog keeps `j < e`).
    _pd: Vec<i64>,
}

impl<const RT: usize> PairKeys<RT> {
    /// A block of `1 <= n <= 32` entries.
    pub fn new(n: usize) -> Self {
        assert!((1..=32).contains(&n), "PairKeys: 1..=32 entries");
        PairKeys {
            clock: Default::default(),
            reset: Default::default(),
            _pd: vec![0; n * n],
            ones: vec_of(n),
            up: vec_of(n),
            dn: vec_of(n),
            alloc: vec_of(n),
            rank: vec_of(n),
            nt0: vec_of(n),
            nt1: vec_of(n),
            nt2: vec_of(n),
            nt3: vec_of(n),
            older: vec_of(n),
        }
    }

    /// Entry i's change of its ones at this edge: +1, -1 or 0.
    fn delta(&self, i: usize) -> i64 {
        i64::from(self.up[i].val()) - i64::from(self.dn[i].val())
    }

    /// The four thresholds of the pair (j, e) after this edge (all zero
    /// on the diagonal: an entry's key is not below its own).
    fn pair(&self, j: usize, e: usize) -> [bool; 4] {
        if j == e {
            return [false; 4];
        }
        let d = self.next_pd(j, e);
        [d < -1, d < 0, d < 1, d < 2]
    }

    /// `D = ones_j - ones_e` after this edge: from the allocated entry's 1,
    /// else the pair register with the changes.
    fn next_pd(&self, j: usize, e: usize) -> i64 {
        let n = self.ones.len();
        let onx = |i: usize| self.ones[i].val().index() as i64 + self.delta(i);
        let (aj, ae) = (self.alloc[j].val(), self.alloc[e].val());
        if aj && !ae {
            1 - onx(e)
        } else if ae && !aj {
            onx(j) - 1
        } else {
            self._pd[j * n + e] + self.delta(j) - self.delta(e)
        }
    }
}

/// The Verilog condition "entry i's change is `d`" (+1, -1 or 0).
fn pk_delta(i: usize, d: i64) -> String {
    match d {
        1 => format!("up${i}"),
        -1 => format!("dn${i}"),
        _ => format!("(~up${i} & ~dn${i})"),
    }
}

/// `x >= c` for an 8-bit `x` (true for `c <= 0`).
fn pk_ge(x: &str, c: i64) -> String {
    if c <= 0 {
        "1'b1".to_string()
    } else {
        format!("({x} >= 8'd{c})")
    }
}

/// `x <= c` for an 8-bit `x` (false for `c < 0`).
fn pk_le(x: &str, c: i64) -> String {
    if c < 0 {
        "1'b0".to_string()
    } else {
        format!("({x} <= 8'd{c})")
    }
}

/// Bit j of `nt{k}$e` (`D < k - 1`), `j != e`: the register-only
/// comparisons, picked by the changes and `alloc`.
fn pk_bit(j: usize, e: usize, k: i64) -> String {
    let mut sum = Vec::new();
    let mut jal = Vec::new();
    let mut eal = Vec::new();
    for dj in [-1i64, 0, 1] {
        for de in [-1i64, 0, 1] {
            // D + dj - de < k - 1 with D the pair register: D < c, as
            // `pd_je ^ 0x80 < c + 128` (j < e) or `pd_ej ^ 0x80 > 128 - c`
            // (D = -pd_ej).
            let c = k - 1 - dj + de;
            let cmp = if j < e {
                format!("((pd${j}${e} ^ 8'h80) < 8'd{})", c + 128)
            } else {
                format!("((pd${e}${j} ^ 8'h80) > 8'd{})", 128 - c)
            };
            sum.push(format!(
                "({} & {} & {cmp})",
                pk_delta(j, dj),
                pk_delta(e, de)
            ));
        }
        // With d the change of the one entry: j allocated, D = 1 - onx_e
        // < k - 1, i.e. ones_e + d >= 3 - k; e allocated, D = onx_j - 1 <
        // k - 1, i.e. ones_j + d <= k - 1.
        let d = dj;
        let on_e = format!("ones${e}");
        jal.push(format!(
            "({} & {})",
            pk_delta(e, d),
            pk_ge(&on_e, 3 - k - d)
        ));
        let on_j = format!("ones${j}");
        eal.push(format!(
            "({} & {})",
            pk_delta(j, d),
            pk_le(&on_j, k - 1 - d)
        ));
    }
    format!(
        "((alloc${j} & ~alloc${e}) ? ({}) : ((alloc${e} & ~alloc${j}) ? ({}) : ({})))",
        jal.join(" | "),
        eal.join(" | "),
        sum.join(" | ")
    )
}

impl<const RT: usize> Logic for PairKeys<RT> {
    fn update(&mut self) {
        let n = self.ones.len();
        if self.clock.pos_edge() {
            let mut next = vec![0i64; n * n];
            if !self.reset.val() {
                for j in 0..n {
                    for e in 0..n {
                        if j != e {
                            // 8-bit two's complement, as the register.
                            let d = self.next_pd(j, e) & 0xff;
                            next[j * n + e] = if d >= 128 { d - 256 } else { d };
                        }
                    }
                }
            }
            self._pd = next;
        }
        for e in 0..n {
            let mut w = [0u64; 5];
            for j in 0..n {
                let t = self.pair(j, e);
                for (k, b) in t.iter().enumerate() {
                    w[k] |= u64::from(*b) << j;
                }
                let older = self.rank[j].val().index() > self.rank[e].val().index();
                w[4] |= u64::from(older) << j;
            }
            self.nt0[e].next = Bits::<32>::from(w[0]);
            self.nt1[e].next = Bits::<32>::from(w[1]);
            self.nt2[e].next = Bits::<32>::from(w[2]);
            self.nt3[e].next = Bits::<32>::from(w[3]);
            self.older[e].next = Bits::<32>::from(w[4]);
        }
    }

    fn connect(&mut self) {
        for s in self
            .nt0
            .iter_mut()
            .chain(self.nt1.iter_mut())
            .chain(self.nt2.iter_mut())
            .chain(self.nt3.iter_mut())
            .chain(self.older.iter_mut())
        {
            s.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.ones.len();
        let pad = |bits: Vec<String>| -> String {
            let mut parts: Vec<String> = bits.into_iter().rev().collect();
            if n < 32 {
                parts.insert(0, format!("{}'d0", 32 - n));
            }
            format!("{{{}}}", parts.join(", "))
        };
        let mut v = String::new();
        // The pair registers (j < e): `D = ones_j - ones_e`.
        let dl = |i: usize| format!("{{7'd0, up${i}}} - {{7'd0, dn${i}}}");
        for e in 0..n {
            for j in 0..e {
                v += &format!("reg [7:0] pd${j}${e};\n");
                v += &format!(
                    "always @(posedge clock) begin\n    if (reset) pd${j}${e} <= 8'd0;\n    \
                     else if (alloc${j} & ~alloc${e}) pd${j}${e} <= 8'd1 - ones${e} - ({});\n    \
                     else if (alloc${e} & ~alloc${j}) pd${j}${e} <= ones${j} + ({}) - 8'd1;\n    \
                     else pd${j}${e} <= pd${j}${e} + ({}) - ({});\nend\n",
                    dl(e),
                    dl(j),
                    dl(j),
                    dl(e)
                );
            }
        }
        for (k, name) in ["nt0", "nt1", "nt2", "nt3"].iter().enumerate() {
            for e in 0..n {
                let bits = (0..n)
                    .map(|j| {
                        if j == e {
                            "1'b0".to_string()
                        } else {
                            pk_bit(j, e, k as i64)
                        }
                    })
                    .collect();
                v += &format!("always @(*) {name}${e} = {};\n", pad(bits));
            }
        }
        for e in 0..n {
            let bits = (0..n)
                .map(|j| {
                    if j == e {
                        "1'b0".to_string()
                    } else {
                        format!("(rank${j} > rank${e})")
                    }
                })
                .collect();
            v += &format!("always @(*) older${e} = {};\n", pad(bits));
        }
        Verilog::Custom(v.trim_end().to_string())
    }
}

/// `s = a + b + c + d + e mod 2^A` for depth (issue 29): three rows of
/// carry-save adders and one parallel-prefix adder
/// ([`PrefixAdd`](crate::arith::PrefixAdd)), where the synthesis
/// flow maps a chain of `+` to a ripple carry.
#[derive(LogicBlock)]
pub struct Sum5<const A: usize> {
    /// Operand.
    pub a: Signal<In, Bits<A>>,
    /// Operand.
    pub b: Signal<In, Bits<A>>,
    /// Operand.
    pub c: Signal<In, Bits<A>>,
    /// Operand.
    pub d: Signal<In, Bits<A>>,
    /// Operand.
    pub e: Signal<In, Bits<A>>,
    /// The sum modulo `2^A`.
    pub s: Signal<Out, Bits<A>>,

    add: crate::arith::PrefixAdd<A>,
    one: Constant<Bits<A>>,
    s1: Signal<Local, Bits<A>>,
    c1: Signal<Local, Bits<A>>,
    s2: Signal<Local, Bits<A>>,
    c2: Signal<Local, Bits<A>>,
    s3: Signal<Local, Bits<A>>,
    c3: Signal<Local, Bits<A>>,
}

impl<const A: usize> Default for Sum5<A> {
    fn default() -> Self {
        Sum5 {
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            d: Default::default(),
            e: Default::default(),
            s: Default::default(),
            add: Default::default(),
            one: crate::util::konst(1),
            s1: Default::default(),
            c1: Default::default(),
            s2: Default::default(),
            c2: Default::default(),
            s3: Default::default(),
            c3: Default::default(),
        }
    }
}

impl<const A: usize> Logic for Sum5<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.s1.next = self.a.val() ^ self.b.val() ^ self.c.val();
        self.c1.next = ((self.a.val() & self.b.val())
            | (self.a.val() & self.c.val())
            | (self.b.val() & self.c.val()))
            << self.one.val();
        self.s2.next = self.d.val() ^ self.e.val() ^ self.s1.val();
        self.c2.next = ((self.d.val() & self.e.val())
            | (self.d.val() & self.s1.val())
            | (self.e.val() & self.s1.val()))
            << self.one.val();
        self.s3.next = self.c1.val() ^ self.c2.val() ^ self.s2.val();
        self.c3.next = ((self.c1.val() & self.c2.val())
            | (self.c1.val() & self.s2.val())
            | (self.c2.val() & self.s2.val()))
            << self.one.val();
        self.add.x.next = self.s3.val();
        self.add.y.next = self.c3.val();
        self.add.ci.next = false;
        self.s.next = self.add.s.val();
    }
}
