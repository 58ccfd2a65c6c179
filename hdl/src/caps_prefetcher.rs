//! `caps_prefetcher` — the CTA-aware prefetcher (spec `caps.md`,
//! micro-architecture `docs/units/caps_prefetcher.md`).
//!
//! Structure (every piece of state is a [`Reg`], synchronous reset):
//!
//! - [`CapsCta`], one per CTA slot: the slot's PerCTA table (per entry
//!   `valid`, `pc`, `lead`, `n`, `base0..base3`, least-recently-updated
//!   `rank`), two look-ups (the incoming load's pc, after the launch
//!   clearing of the same cycle; the generator's pc on the registered state)
//!   and the allocation / rewrite / invalidation of the load's entry.
//! - [`CapsDist`]: the DIST table (`valid`, `pc`, `stride`, `cnt`,
//!   `lead_cta`, `rank`), looked up by the load and by the generator;
//!   allocation and the saturating misprediction count.
//! - [`CapsJobQ`] and [`CapsPfq`]: the job FIFO and the output queue, both
//!   shift queues (entry 0 is the oldest; a pop shifts every entry down, a
//!   push fills the lowest free entry), so their depths are run-time values
//!   of the built block and `pf_*` come straight from entry 0's registers.
//! - [`CapsMul`]: `(signed WARP_IDX_W+1-bit warp distance) x stride` modulo
//!   `2^ADDR_W` as a shift-and-add over the distance's bits (the top bit
//!   has negative weight), one instance for the load's verification and one
//!   for the generator.
//! - [`CapsTrain`]: rule 4's `|delta|` power-of-two test, the divisibility
//!   test and `s = diff / delta` (arithmetic shift, negated for a negative
//!   delta).
//! - [`CapsPrefetcherRtl`]: the top; it applies the rules of the spec to
//!   the load, pushes the job, runs the generator FSM (`busy`, the current
//!   job, cursors `pos` and `k`) and drives the output queue.
//!
//! Rule 4 needs only `diff[0]`: when every `diff[k]` is divisible by
//! `delta = ±2^m`, the `s[k]` are equal exactly when the `diff[k]` are
//! equal (the exact division is injective) and `s = 0` exactly when
//! `diff[0] = 0`, so the RTL checks `diff[k] == diff[0]` for `k < n`, the
//! divisibility of `diff[0]` and computes one quotient.
//!
//! Widths are const generics: `A` = `ADDR_W`, `P` = `PC_W`, `WI` =
//! `WARP_IDX_W`, `WD` = `WI + 1`, `C` = `clog2(N_CTA)`, `CP` = `C + 1`,
//! `RP` = `clog2(PERCTA_ENTRIES)`, `RD` = `clog2(DIST_ENTRIES)`, `CW` =
//! `CNT_W`. `N_CTA`, the entry counts, `MAX_ADDRS`, `MISPRED_THRESHOLD` and
//! the two queue depths are run-time values of the built block. Address
//! counts `n` and the address index `k` are 3 bits (`MAX_ADDRS <= 4`); the
//! four address lanes always exist inside, lanes `k >= MAX_ADDRS` carry
//! zeros (they have no port) and synthesis removes their registers.
//!
//! Ports: the address ports are a `Vec` field, which rust-hdl names
//! `ld_addr$<k>`; [`crate::RtlUnit::verilog`] renames them to the spec's
//! `ld_addr<k>` (calling `emit::emit_unit` directly leaves `ld_addr__<k>`).
//!
//! Timing as in the contract: a job is taken at the edge after its push,
//! the generator makes one decision per cycle from the registered tables
//! (neither that cycle's launch nor its load is visible to it), job A skips
//! non-matching slots without spending cycles (lowest candidate slot by a
//! prefix chain), job B skips the leading warp without spending a cycle
//! but spends one cycle on a warp whose entry now has fewer addresses
//! (`k >= n`). Whether the job FIFO or the output queue is full is judged
//! at the start of the cycle. Multiplication: shift-and-add (WARP_IDX_W adders of
//! ADDR_W bits, one subtractor for the sign bit) rather than a sign
//! extension and an ADDR_W x ADDR_W multiplier.

use ports::caps::CapsParams;
use ports::clog2;
use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::ZeroExt;

/// Address lanes inside the unit (`MAX_ADDRS <= LANES`).
pub const LANES: usize = ports::caps::MAX_ADDR_PORTS;

fn sigs<T: Synth>(n: usize) -> Vec<Signal<Local, T>> {
    (0..n).map(|_| Signal::default()).collect()
}

fn regs<T: Synth>(n: usize) -> Vec<Reg<T>> {
    (0..n).map(|_| Reg::default()).collect()
}

fn konst<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

fn konsts<const N: usize>(vals: impl Iterator<Item = u64>) -> Vec<Constant<Bits<N>>> {
    vals.map(konst::<N>).collect()
}

// ---------------------------------------------------------------------------
// Warp distance x stride.

/// `p = d * s mod 2^A` for a signed `WD`-bit `d` (two's complement) and an
/// `A`-bit `s`: the sum of `s << j` over the set bits `j < WD-1` of `d`,
/// minus `s << (WD-1)` when the sign bit is set.
#[derive(LogicBlock)]
pub struct CapsMul<const WD: usize, const A: usize> {
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

impl<const WD: usize, const A: usize> Default for CapsMul<WD, A> {
    fn default() -> Self {
        assert!(WD >= 2 && WD <= A, "warp distance needs 2..=ADDR_W bits");
        CapsMul {
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

impl<const WD: usize, const A: usize> Logic for CapsMul<WD, A> {
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

// ---------------------------------------------------------------------------
// Rule 4 arithmetic.

/// Rule 4: `pow2` = `|delta|` is a power of two `2^m`; `div` = the low `m`
/// bits of `diff` are zero; `stride` = `diff` shifted right arithmetically
/// by `m`, negated when `delta < 0` (all modulo `2^A`).
#[derive(LogicBlock)]
pub struct CapsTrain<const WD: usize, const A: usize> {
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

impl<const WD: usize, const A: usize> Default for CapsTrain<WD, A> {
    fn default() -> Self {
        let wi = WD - 1;
        assert!(wi < A, "WARP_IDX_W must be below ADDR_W");
        let mask = |bits: usize| -> u64 {
            if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            }
        };
        CapsTrain {
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
            low_c: konsts((0..wi).map(mask)),
            high_c: konsts((0..wi).map(|m| mask(A) & !(mask(A) >> m))),
            sh_c: konsts((0..wi).map(|m| m as u64)),
            neg: Default::default(),
            absd: Default::default(),
            dneg: Default::default(),
            sra: Default::default(),
            _wi: wi,
        }
    }
}

impl<const WD: usize, const A: usize> Logic for CapsTrain<WD, A> {
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

// ---------------------------------------------------------------------------
// PerCTA table of one CTA slot.

/// The PerCTA table of one CTA slot.
///
/// Look-up `lh_*`: the entry holding `l_pc` among the entries valid after
/// this cycle's launch clearing (`clear`). Look-up `gh_*`: the entry holding
/// `g_pc` in the registered state, with `gh_base` = its `base[g_k]`.
/// Updates (at most one of `alloc`, `touch`, `inval`; `clear` may come with
/// `alloc`): `alloc` writes the load into the lowest invalid entry, else the
/// least recently updated one; `touch` rewrites the `lh` entry's `n` and
/// bases (rule 2); `inval` invalidates the `lh` entry (rule 4).
#[derive(LogicBlock)]
pub struct CapsCta<const A: usize, const P: usize, const WI: usize, const RP: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// A CTA is launched into this slot: every entry becomes invalid.
    pub clear: Signal<In, Bit>,
    /// Allocate an entry for the load (rule 1).
    pub alloc: Signal<In, Bit>,
    /// The leading warp rewrites the load's entry (rule 2).
    pub touch: Signal<In, Bit>,
    /// Invalidate the load's entry (rule 4).
    pub inval: Signal<In, Bit>,
    /// Load pc.
    pub l_pc: Signal<In, Bits<P>>,
    /// Load warp (the leading warp of an allocated entry).
    pub l_warp: Signal<In, Bits<WI>>,
    /// Load address count (1..=4).
    pub l_n: Signal<In, Bits<3>>,
    /// Load address 0.
    pub a0: Signal<In, Bits<A>>,
    /// Load address 1.
    pub a1: Signal<In, Bits<A>>,
    /// Load address 2.
    pub a2: Signal<In, Bits<A>>,
    /// Load address 3.
    pub a3: Signal<In, Bits<A>>,
    /// Generator pc.
    pub g_pc: Signal<In, Bits<P>>,
    /// Generator address index.
    pub g_k: Signal<In, Bits<3>>,
    /// The load's pc has an entry.
    pub lh_hit: Signal<Out, Bit>,
    /// Its leading warp.
    pub lh_lead: Signal<Out, Bits<WI>>,
    /// Its address count.
    pub lh_n: Signal<Out, Bits<3>>,
    /// Its base 0.
    pub lh_base0: Signal<Out, Bits<A>>,
    /// Its base 1.
    pub lh_base1: Signal<Out, Bits<A>>,
    /// Its base 2.
    pub lh_base2: Signal<Out, Bits<A>>,
    /// Its base 3.
    pub lh_base3: Signal<Out, Bits<A>>,
    /// The generator's pc has an entry.
    pub gh_hit: Signal<Out, Bit>,
    /// Its leading warp.
    pub gh_lead: Signal<Out, Bits<WI>>,
    /// Its address count.
    pub gh_n: Signal<Out, Bits<3>>,
    /// Its base `g_k`.
    pub gh_base: Signal<Out, Bits<A>>,

    valid: Vec<Reg<Bit>>,
    pc: Vec<Reg<Bits<P>>>,
    lead: Vec<Reg<Bits<WI>>>,
    n: Vec<Reg<Bits<3>>>,
    base0: Vec<Reg<Bits<A>>>,
    base1: Vec<Reg<Bits<A>>>,
    base2: Vec<Reg<Bits<A>>>,
    base3: Vec<Reg<Bits<A>>>,
    rank: Vec<Reg<Bits<RP>>>,

    rank_zero: Constant<Bits<RP>>,
    rank_one: Constant<Bits<RP>>,
    rank_last: Constant<Bits<RP>>,
    k1: Constant<Bits<3>>,
    k2: Constant<Bits<3>>,
    k3: Constant<Bits<3>>,
    n_zero: Constant<Bits<3>>,
    lead_zero: Constant<Bits<WI>>,
    addr_zero: Constant<Bits<A>>,

    ev: Vec<Signal<Local, Bit>>,
    lhit: Vec<Signal<Local, Bit>>,
    ghit: Vec<Signal<Local, Bit>>,
    inval_below: Vec<Signal<Local, Bit>>,
    first_inval: Vec<Signal<Local, Bit>>,
    victim: Vec<Signal<Local, Bit>>,
    tgt: Vec<Signal<Local, Bit>>,
    wr: Vec<Signal<Local, Bit>>,
    any_inval: Signal<Local, Bit>,
    hit_rank: Signal<Local, Bits<RP>>,

    _ne: usize,
    _ne1: usize,
}

impl<const A: usize, const P: usize, const WI: usize, const RP: usize> CapsCta<A, P, WI, RP> {
    /// A slot of `p.PERCTA_ENTRIES` entries.
    pub fn new(p: &CapsParams) -> Self {
        let ne = p.PERCTA_ENTRIES as usize;
        assert!(ne >= 1 && ne <= 1 << RP, "PERCTA_ENTRIES does not fit RP");
        CapsCta {
            clock: Default::default(),
            reset: Default::default(),
            clear: Default::default(),
            alloc: Default::default(),
            touch: Default::default(),
            inval: Default::default(),
            l_pc: Default::default(),
            l_warp: Default::default(),
            l_n: Default::default(),
            a0: Default::default(),
            a1: Default::default(),
            a2: Default::default(),
            a3: Default::default(),
            g_pc: Default::default(),
            g_k: Default::default(),
            lh_hit: Default::default(),
            lh_lead: Default::default(),
            lh_n: Default::default(),
            lh_base0: Default::default(),
            lh_base1: Default::default(),
            lh_base2: Default::default(),
            lh_base3: Default::default(),
            gh_hit: Default::default(),
            gh_lead: Default::default(),
            gh_n: Default::default(),
            gh_base: Default::default(),
            valid: regs(ne),
            pc: regs(ne),
            lead: regs(ne),
            n: regs(ne),
            base0: regs(ne),
            base1: regs(ne),
            base2: regs(ne),
            base3: regs(ne),
            rank: regs(ne),
            rank_zero: konst(0),
            rank_one: konst(1),
            rank_last: konst(ne as u64 - 1),
            k1: konst(1),
            k2: konst(2),
            k3: konst(3),
            n_zero: konst(0),
            lead_zero: konst(0),
            addr_zero: konst(0),
            ev: sigs(ne),
            lhit: sigs(ne),
            ghit: sigs(ne),
            inval_below: sigs(ne + 1),
            first_inval: sigs(ne),
            victim: sigs(ne),
            tgt: sigs(ne),
            wr: sigs(ne),
            any_inval: Default::default(),
            hit_rank: Default::default(),
            _ne: ne,
            _ne1: ne + 1,
        }
    }
}

impl<const A: usize, const P: usize, const WI: usize, const RP: usize> Logic
    for CapsCta<A, P, WI, RP>
{
    #[hdl_gen]
    fn update(&mut self) {
        for e in 0..self._ne {
            self.valid[e].clock.next = self.clock.val();
            self.valid[e].reset.next = self.reset.val();
            self.valid[e].d.next = self.valid[e].q.val();
            self.pc[e].clock.next = self.clock.val();
            self.pc[e].reset.next = self.reset.val();
            self.pc[e].d.next = self.pc[e].q.val();
            self.lead[e].clock.next = self.clock.val();
            self.lead[e].reset.next = self.reset.val();
            self.lead[e].d.next = self.lead[e].q.val();
            self.n[e].clock.next = self.clock.val();
            self.n[e].reset.next = self.reset.val();
            self.n[e].d.next = self.n[e].q.val();
            self.base0[e].clock.next = self.clock.val();
            self.base0[e].reset.next = self.reset.val();
            self.base0[e].d.next = self.base0[e].q.val();
            self.base1[e].clock.next = self.clock.val();
            self.base1[e].reset.next = self.reset.val();
            self.base1[e].d.next = self.base1[e].q.val();
            self.base2[e].clock.next = self.clock.val();
            self.base2[e].reset.next = self.reset.val();
            self.base2[e].d.next = self.base2[e].q.val();
            self.base3[e].clock.next = self.clock.val();
            self.base3[e].reset.next = self.reset.val();
            self.base3[e].d.next = self.base3[e].q.val();
            self.rank[e].clock.next = self.clock.val();
            self.rank[e].reset.next = self.reset.val();
            self.rank[e].d.next = self.rank[e].q.val();
        }
        // Per-entry matches; the load sees the table after the launch.
        self.inval_below[0].next = false;
        for e in 0..self._ne {
            self.ev[e].next = self.valid[e].q.val() & !self.clear.val();
            self.lhit[e].next = self.ev[e].val() & (self.pc[e].q.val() == self.l_pc.val());
            self.ghit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.g_pc.val());
            self.first_inval[e].next = !self.ev[e].val() & !self.inval_below[e].val();
            self.inval_below[e + 1].next = self.inval_below[e].val() | !self.ev[e].val();
            self.victim[e].next = self.ev[e].val() & (self.rank[e].q.val() == self.rank_last.val());
        }
        self.any_inval.next = false;
        for t in self._ne..self._ne1 {
            self.any_inval.next = self.inval_below[t].val();
        }
        for e in 0..self._ne {
            if self.any_inval.val() {
                self.tgt[e].next = self.first_inval[e].val();
            } else {
                self.tgt[e].next = self.victim[e].val();
            }
        }
        // Look-ups (at most one entry per pc).
        self.lh_hit.next = false;
        self.lh_lead.next = self.lead_zero.val();
        self.lh_n.next = self.n_zero.val();
        self.lh_base0.next = self.addr_zero.val();
        self.lh_base1.next = self.addr_zero.val();
        self.lh_base2.next = self.addr_zero.val();
        self.lh_base3.next = self.addr_zero.val();
        self.hit_rank.next = self.rank_zero.val();
        self.gh_hit.next = false;
        self.gh_lead.next = self.lead_zero.val();
        self.gh_n.next = self.n_zero.val();
        self.gh_base.next = self.addr_zero.val();
        for e in 0..self._ne {
            if self.lhit[e].val() {
                self.lh_hit.next = true;
                self.lh_lead.next = self.lead[e].q.val();
                self.lh_n.next = self.n[e].q.val();
                self.lh_base0.next = self.base0[e].q.val();
                self.lh_base1.next = self.base1[e].q.val();
                self.lh_base2.next = self.base2[e].q.val();
                self.lh_base3.next = self.base3[e].q.val();
                self.hit_rank.next = self.rank[e].q.val();
            }
            if self.ghit[e].val() {
                self.gh_hit.next = true;
                self.gh_lead.next = self.lead[e].q.val();
                self.gh_n.next = self.n[e].q.val();
                if self.g_k.val() == self.k3.val() {
                    self.gh_base.next = self.base3[e].q.val();
                } else if self.g_k.val() == self.k2.val() {
                    self.gh_base.next = self.base2[e].q.val();
                } else if self.g_k.val() == self.k1.val() {
                    self.gh_base.next = self.base1[e].q.val();
                } else {
                    self.gh_base.next = self.base0[e].q.val();
                }
            }
        }
        // Updates.
        for e in 0..self._ne {
            if self.clear.val() {
                self.valid[e].d.next = false;
                self.rank[e].d.next = self.rank_zero.val();
            }
            // Data: written by an allocation or the leading warp's rewrite.
            self.wr[e].next =
                (self.alloc.val() & self.tgt[e].val()) | (self.touch.val() & self.lhit[e].val());
            if self.wr[e].val() {
                self.n[e].d.next = self.l_n.val();
                self.base0[e].d.next = self.a0.val();
                self.base1[e].d.next = self.a1.val();
                self.base2[e].d.next = self.a2.val();
                self.base3[e].d.next = self.a3.val();
            }
            if self.alloc.val() & self.tgt[e].val() {
                self.pc[e].d.next = self.l_pc.val();
                self.lead[e].d.next = self.l_warp.val();
            }
            // Valid bits and ranks.
            if self.alloc.val() {
                if self.tgt[e].val() {
                    self.valid[e].d.next = true;
                    self.rank[e].d.next = self.rank_zero.val();
                } else if self.ev[e].val() {
                    self.rank[e].d.next = self.rank[e].q.val() + self.rank_one.val();
                }
            }
            if self.touch.val() {
                if self.lhit[e].val() {
                    self.rank[e].d.next = self.rank_zero.val();
                } else if self.ev[e].val() & (self.rank[e].q.val() < self.hit_rank.val()) {
                    self.rank[e].d.next = self.rank[e].q.val() + self.rank_one.val();
                }
            }
            if self.inval.val() {
                if self.lhit[e].val() {
                    self.valid[e].d.next = false;
                    self.rank[e].d.next = self.rank_zero.val();
                } else if self.ev[e].val() & (self.rank[e].q.val() > self.hit_rank.val()) {
                    self.rank[e].d.next = self.rank[e].q.val() - self.rank_one.val();
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// DIST table.

/// The DIST table, shared by all CTAs.
///
/// Look-up `lh_*` by the load's pc and `gh_*` by the generator's pc, both on
/// the registered state. `alloc` writes a new entry (lowest invalid, else
/// least recently allocated) with `cnt = 0`; `inc` increments the `lh`
/// entry's counter, saturating at `2^CW - 1`.
#[derive(LogicBlock)]
pub struct CapsDist<
    const A: usize,
    const P: usize,
    const C: usize,
    const CW: usize,
    const RD: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Load pc.
    pub l_pc: Signal<In, Bits<P>>,
    /// Allocate an entry for `l_pc`.
    pub alloc: Signal<In, Bit>,
    /// Stride of the new entry.
    pub a_stride: Signal<In, Bits<A>>,
    /// Training CTA slot of the new entry.
    pub a_lead_cta: Signal<In, Bits<C>>,
    /// Count a misprediction for the `lh` entry.
    pub inc: Signal<In, Bit>,
    /// Generator pc.
    pub g_pc: Signal<In, Bits<P>>,
    /// The load's pc has an entry.
    pub lh_hit: Signal<Out, Bit>,
    /// Its stride.
    pub lh_stride: Signal<Out, Bits<A>>,
    /// Its misprediction counter.
    pub lh_cnt: Signal<Out, Bits<CW>>,
    /// Its training CTA slot.
    pub lh_lead_cta: Signal<Out, Bits<C>>,
    /// The generator's pc has an entry.
    pub gh_hit: Signal<Out, Bit>,
    /// Its stride.
    pub gh_stride: Signal<Out, Bits<A>>,

    valid: Vec<Reg<Bit>>,
    pc: Vec<Reg<Bits<P>>>,
    stride: Vec<Reg<Bits<A>>>,
    cnt: Vec<Reg<Bits<CW>>>,
    lead_cta: Vec<Reg<Bits<C>>>,
    rank: Vec<Reg<Bits<RD>>>,

    rank_zero: Constant<Bits<RD>>,
    rank_one: Constant<Bits<RD>>,
    rank_last: Constant<Bits<RD>>,
    cnt_zero: Constant<Bits<CW>>,
    cnt_one: Constant<Bits<CW>>,
    cnt_max: Constant<Bits<CW>>,
    cta_zero: Constant<Bits<C>>,
    addr_zero: Constant<Bits<A>>,

    lhit: Vec<Signal<Local, Bit>>,
    ghit: Vec<Signal<Local, Bit>>,
    inval_below: Vec<Signal<Local, Bit>>,
    first_inval: Vec<Signal<Local, Bit>>,
    victim: Vec<Signal<Local, Bit>>,
    tgt: Vec<Signal<Local, Bit>>,
    any_inval: Signal<Local, Bit>,

    _nd: usize,
    _nd1: usize,
}

impl<const A: usize, const P: usize, const C: usize, const CW: usize, const RD: usize>
    CapsDist<A, P, C, CW, RD>
{
    /// A table of `p.DIST_ENTRIES` entries.
    pub fn new(p: &CapsParams) -> Self {
        let nd = p.DIST_ENTRIES as usize;
        assert!(nd >= 1 && nd <= 1 << RD, "DIST_ENTRIES does not fit RD");
        CapsDist {
            clock: Default::default(),
            reset: Default::default(),
            l_pc: Default::default(),
            alloc: Default::default(),
            a_stride: Default::default(),
            a_lead_cta: Default::default(),
            inc: Default::default(),
            g_pc: Default::default(),
            lh_hit: Default::default(),
            lh_stride: Default::default(),
            lh_cnt: Default::default(),
            lh_lead_cta: Default::default(),
            gh_hit: Default::default(),
            gh_stride: Default::default(),
            valid: regs(nd),
            pc: regs(nd),
            stride: regs(nd),
            cnt: regs(nd),
            lead_cta: regs(nd),
            rank: regs(nd),
            rank_zero: konst(0),
            rank_one: konst(1),
            rank_last: konst(nd as u64 - 1),
            cnt_zero: konst(0),
            cnt_one: konst(1),
            cnt_max: konst(ports::mask(CW as u32)),
            cta_zero: konst(0),
            addr_zero: konst(0),
            lhit: sigs(nd),
            ghit: sigs(nd),
            inval_below: sigs(nd + 1),
            first_inval: sigs(nd),
            victim: sigs(nd),
            tgt: sigs(nd),
            any_inval: Default::default(),
            _nd: nd,
            _nd1: nd + 1,
        }
    }
}

impl<const A: usize, const P: usize, const C: usize, const CW: usize, const RD: usize> Logic
    for CapsDist<A, P, C, CW, RD>
{
    #[hdl_gen]
    fn update(&mut self) {
        for e in 0..self._nd {
            self.valid[e].clock.next = self.clock.val();
            self.valid[e].reset.next = self.reset.val();
            self.valid[e].d.next = self.valid[e].q.val();
            self.pc[e].clock.next = self.clock.val();
            self.pc[e].reset.next = self.reset.val();
            self.pc[e].d.next = self.pc[e].q.val();
            self.stride[e].clock.next = self.clock.val();
            self.stride[e].reset.next = self.reset.val();
            self.stride[e].d.next = self.stride[e].q.val();
            self.cnt[e].clock.next = self.clock.val();
            self.cnt[e].reset.next = self.reset.val();
            self.cnt[e].d.next = self.cnt[e].q.val();
            self.lead_cta[e].clock.next = self.clock.val();
            self.lead_cta[e].reset.next = self.reset.val();
            self.lead_cta[e].d.next = self.lead_cta[e].q.val();
            self.rank[e].clock.next = self.clock.val();
            self.rank[e].reset.next = self.reset.val();
            self.rank[e].d.next = self.rank[e].q.val();
        }
        self.inval_below[0].next = false;
        self.any_inval.next = false;
        for e in 0..self._nd {
            self.lhit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.l_pc.val());
            self.ghit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.g_pc.val());
            self.first_inval[e].next = !self.valid[e].q.val() & !self.inval_below[e].val();
            self.inval_below[e + 1].next = self.inval_below[e].val() | !self.valid[e].q.val();
            self.victim[e].next =
                self.valid[e].q.val() & (self.rank[e].q.val() == self.rank_last.val());
        }
        for t in self._nd..self._nd1 {
            self.any_inval.next = self.inval_below[t].val();
        }
        for e in 0..self._nd {
            if self.any_inval.val() {
                self.tgt[e].next = self.first_inval[e].val();
            } else {
                self.tgt[e].next = self.victim[e].val();
            }
        }
        self.lh_hit.next = false;
        self.lh_stride.next = self.addr_zero.val();
        self.lh_cnt.next = self.cnt_zero.val();
        self.lh_lead_cta.next = self.cta_zero.val();
        self.gh_hit.next = false;
        self.gh_stride.next = self.addr_zero.val();
        for e in 0..self._nd {
            if self.lhit[e].val() {
                self.lh_hit.next = true;
                self.lh_stride.next = self.stride[e].q.val();
                self.lh_cnt.next = self.cnt[e].q.val();
                self.lh_lead_cta.next = self.lead_cta[e].q.val();
            }
            if self.ghit[e].val() {
                self.gh_hit.next = true;
                self.gh_stride.next = self.stride[e].q.val();
            }
        }
        for e in 0..self._nd {
            if self.alloc.val() {
                if self.tgt[e].val() {
                    self.valid[e].d.next = true;
                    self.pc[e].d.next = self.l_pc.val();
                    self.stride[e].d.next = self.a_stride.val();
                    self.cnt[e].d.next = self.cnt_zero.val();
                    self.lead_cta[e].d.next = self.a_lead_cta.val();
                    self.rank[e].d.next = self.rank_zero.val();
                } else if self.valid[e].q.val() {
                    self.rank[e].d.next = self.rank[e].q.val() + self.rank_one.val();
                }
            }
            if self.inc.val() & self.lhit[e].val() & (self.cnt[e].q.val() != self.cnt_max.val()) {
                self.cnt[e].d.next = self.cnt[e].q.val() + self.cnt_one.val();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Queues.

/// The job FIFO: a shift queue of `JOBQ_DEPTH` entries (entry 0 oldest).
/// A push is accepted only if the queue was not full at the start of the
/// cycle; `pop` (only while `o_valid`) removes entry 0 at the same edge.
#[derive(LogicBlock)]
pub struct CapsJobQ<const A: usize, const P: usize, const WI: usize, const C: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Offer a job (dropped when full).
    pub push: Signal<In, Bit>,
    /// Remove the oldest job.
    pub pop: Signal<In, Bit>,
    /// Job kind (0 = A, 1 = B).
    pub i_kind: Signal<In, Bit>,
    /// Job pc.
    pub i_pc: Signal<In, Bits<P>>,
    /// Job CTA slot.
    pub i_cta: Signal<In, Bits<C>>,
    /// Job warp (A).
    pub i_warp: Signal<In, Bits<WI>>,
    /// Job stride (A).
    pub i_stride: Signal<In, Bits<A>>,
    /// The queue is not empty.
    pub o_valid: Signal<Out, Bit>,
    /// Oldest job's kind.
    pub o_kind: Signal<Out, Bit>,
    /// Oldest job's pc.
    pub o_pc: Signal<Out, Bits<P>>,
    /// Oldest job's CTA slot.
    pub o_cta: Signal<Out, Bits<C>>,
    /// Oldest job's warp.
    pub o_warp: Signal<Out, Bits<WI>>,
    /// Oldest job's stride.
    pub o_stride: Signal<Out, Bits<A>>,

    valid: Vec<Reg<Bit>>,
    kind: Vec<Reg<Bit>>,
    pc: Vec<Reg<Bits<P>>>,
    cta: Vec<Reg<Bits<C>>>,
    warp: Vec<Reg<Bits<WI>>>,
    stride: Vec<Reg<Bits<A>>>,

    push_ok: Signal<Local, Bit>,
    vsh: Vec<Signal<Local, Bit>>,
    put: Vec<Signal<Local, Bit>>,

    _d: usize,
    _dm1: usize,
}

impl<const A: usize, const P: usize, const WI: usize, const C: usize> CapsJobQ<A, P, WI, C> {
    /// A FIFO of `depth` jobs.
    pub fn new(depth: usize) -> Self {
        assert!(depth >= 1);
        CapsJobQ {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            i_kind: Default::default(),
            i_pc: Default::default(),
            i_cta: Default::default(),
            i_warp: Default::default(),
            i_stride: Default::default(),
            o_valid: Default::default(),
            o_kind: Default::default(),
            o_pc: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            o_stride: Default::default(),
            valid: regs(depth),
            kind: regs(depth),
            pc: regs(depth),
            cta: regs(depth),
            warp: regs(depth),
            stride: regs(depth),
            push_ok: Default::default(),
            vsh: sigs(depth),
            put: sigs(depth),
            _d: depth,
            _dm1: depth - 1,
        }
    }
}

impl<const A: usize, const P: usize, const WI: usize, const C: usize> Logic
    for CapsJobQ<A, P, WI, C>
{
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._d {
            self.valid[i].clock.next = self.clock.val();
            self.valid[i].reset.next = self.reset.val();
            self.valid[i].d.next = self.valid[i].q.val();
            self.kind[i].clock.next = self.clock.val();
            self.kind[i].reset.next = self.reset.val();
            self.kind[i].d.next = self.kind[i].q.val();
            self.pc[i].clock.next = self.clock.val();
            self.pc[i].reset.next = self.reset.val();
            self.pc[i].d.next = self.pc[i].q.val();
            self.cta[i].clock.next = self.clock.val();
            self.cta[i].reset.next = self.reset.val();
            self.cta[i].d.next = self.cta[i].q.val();
            self.warp[i].clock.next = self.clock.val();
            self.warp[i].reset.next = self.reset.val();
            self.warp[i].d.next = self.warp[i].q.val();
            self.stride[i].clock.next = self.clock.val();
            self.stride[i].reset.next = self.reset.val();
            self.stride[i].d.next = self.stride[i].q.val();
        }
        // Full = the last entry is occupied (entries fill from 0).
        self.push_ok.next = self.push.val();
        for i in self._dm1..self._d {
            self.push_ok.next = self.push.val() & !self.valid[i].q.val();
        }
        // Occupancy after the pop, then the entry the push fills.
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.vsh[i].next = self.valid[i + 1].q.val();
            } else {
                self.vsh[i].next = self.valid[i].q.val();
            }
        }
        for i in self._dm1..self._d {
            self.vsh[i].next = self.valid[i].q.val() & !self.pop.val();
        }
        self.put[0].next = self.push_ok.val() & !self.vsh[0].val();
        for i in 1..self._d {
            self.put[i].next = self.push_ok.val() & !self.vsh[i].val() & self.vsh[i - 1].val();
        }
        for i in 0..self._d {
            self.valid[i].d.next = self.vsh[i].val() | self.put[i].val();
        }
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.kind[i].d.next = self.kind[i + 1].q.val();
                self.pc[i].d.next = self.pc[i + 1].q.val();
                self.cta[i].d.next = self.cta[i + 1].q.val();
                self.warp[i].d.next = self.warp[i + 1].q.val();
                self.stride[i].d.next = self.stride[i + 1].q.val();
            }
        }
        for i in 0..self._d {
            if self.put[i].val() {
                self.kind[i].d.next = self.i_kind.val();
                self.pc[i].d.next = self.i_pc.val();
                self.cta[i].d.next = self.i_cta.val();
                self.warp[i].d.next = self.i_warp.val();
                self.stride[i].d.next = self.i_stride.val();
            }
        }
        self.o_valid.next = self.valid[0].q.val();
        self.o_kind.next = self.kind[0].q.val();
        self.o_pc.next = self.pc[0].q.val();
        self.o_cta.next = self.cta[0].q.val();
        self.o_warp.next = self.warp[0].q.val();
        self.o_stride.next = self.stride[0].q.val();
    }
}

/// The output prefetch queue: a shift queue of `PFQ_DEPTH` entries (entry
/// 0 oldest, shown on `o_*`). A push is accepted only if the queue was not
/// full at the start of the cycle (`o_full`); `pop` (only while `o_valid`)
/// removes entry 0 at the same edge. `o_addr`, `o_cta`, `o_warp` are 0
/// while the queue is empty.
#[derive(LogicBlock)]
pub struct CapsPfq<const A: usize, const WI: usize, const C: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Push a prefetch (ignored when full).
    pub push: Signal<In, Bit>,
    /// Remove the oldest prefetch.
    pub pop: Signal<In, Bit>,
    /// Address to push.
    pub i_addr: Signal<In, Bits<A>>,
    /// CTA slot to push.
    pub i_cta: Signal<In, Bits<C>>,
    /// Warp to push.
    pub i_warp: Signal<In, Bits<WI>>,
    /// The queue is full (at the start of the cycle).
    pub o_full: Signal<Out, Bit>,
    /// The queue is not empty.
    pub o_valid: Signal<Out, Bit>,
    /// Oldest address.
    pub o_addr: Signal<Out, Bits<A>>,
    /// Oldest CTA slot.
    pub o_cta: Signal<Out, Bits<C>>,
    /// Oldest warp.
    pub o_warp: Signal<Out, Bits<WI>>,

    valid: Vec<Reg<Bit>>,
    addr: Vec<Reg<Bits<A>>>,
    cta: Vec<Reg<Bits<C>>>,
    warp: Vec<Reg<Bits<WI>>>,

    addr_zero: Constant<Bits<A>>,
    cta_zero: Constant<Bits<C>>,
    warp_zero: Constant<Bits<WI>>,

    push_ok: Signal<Local, Bit>,
    vsh: Vec<Signal<Local, Bit>>,
    put: Vec<Signal<Local, Bit>>,

    _d: usize,
    _dm1: usize,
}

impl<const A: usize, const WI: usize, const C: usize> CapsPfq<A, WI, C> {
    /// A queue of `depth` prefetches.
    pub fn new(depth: usize) -> Self {
        assert!(depth >= 1);
        CapsPfq {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            i_addr: Default::default(),
            i_cta: Default::default(),
            i_warp: Default::default(),
            o_full: Default::default(),
            o_valid: Default::default(),
            o_addr: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            valid: regs(depth),
            addr: regs(depth),
            cta: regs(depth),
            warp: regs(depth),
            addr_zero: konst(0),
            cta_zero: konst(0),
            warp_zero: konst(0),
            push_ok: Default::default(),
            vsh: sigs(depth),
            put: sigs(depth),
            _d: depth,
            _dm1: depth - 1,
        }
    }
}

impl<const A: usize, const WI: usize, const C: usize> Logic for CapsPfq<A, WI, C> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._d {
            self.valid[i].clock.next = self.clock.val();
            self.valid[i].reset.next = self.reset.val();
            self.valid[i].d.next = self.valid[i].q.val();
            self.addr[i].clock.next = self.clock.val();
            self.addr[i].reset.next = self.reset.val();
            self.addr[i].d.next = self.addr[i].q.val();
            self.cta[i].clock.next = self.clock.val();
            self.cta[i].reset.next = self.reset.val();
            self.cta[i].d.next = self.cta[i].q.val();
            self.warp[i].clock.next = self.clock.val();
            self.warp[i].reset.next = self.reset.val();
            self.warp[i].d.next = self.warp[i].q.val();
        }
        self.o_full.next = false;
        for i in self._dm1..self._d {
            self.o_full.next = self.valid[i].q.val();
        }
        self.push_ok.next = self.push.val() & !self.o_full.val();
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.vsh[i].next = self.valid[i + 1].q.val();
            } else {
                self.vsh[i].next = self.valid[i].q.val();
            }
        }
        for i in self._dm1..self._d {
            self.vsh[i].next = self.valid[i].q.val() & !self.pop.val();
        }
        self.put[0].next = self.push_ok.val() & !self.vsh[0].val();
        for i in 1..self._d {
            self.put[i].next = self.push_ok.val() & !self.vsh[i].val() & self.vsh[i - 1].val();
        }
        for i in 0..self._d {
            self.valid[i].d.next = self.vsh[i].val() | self.put[i].val();
        }
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.addr[i].d.next = self.addr[i + 1].q.val();
                self.cta[i].d.next = self.cta[i + 1].q.val();
                self.warp[i].d.next = self.warp[i + 1].q.val();
            }
        }
        for i in 0..self._d {
            if self.put[i].val() {
                self.addr[i].d.next = self.i_addr.val();
                self.cta[i].d.next = self.i_cta.val();
                self.warp[i].d.next = self.i_warp.val();
            }
        }
        // Outputs are all zero while the queue is empty.
        self.o_valid.next = self.valid[0].q.val();
        self.o_addr.next = self.addr_zero.val();
        self.o_cta.next = self.cta_zero.val();
        self.o_warp.next = self.warp_zero.val();
        if self.valid[0].q.val() {
            self.o_addr.next = self.addr[0].q.val();
            self.o_cta.next = self.cta[0].q.val();
            self.o_warp.next = self.warp[0].q.val();
        }
    }
}

// ---------------------------------------------------------------------------
// Top.

/// The `caps_prefetcher` unit. `A` = `ADDR_W`, `P` = `PC_W`, `WI` =
/// `WARP_IDX_W`, `WD` = `WI + 1`, `C` = `clog2(N_CTA)`, `CP` = `C + 1`,
/// `RP` = `clog2(PERCTA_ENTRIES)`, `RD` = `clog2(DIST_ENTRIES)`, `CW` =
/// `CNT_W`. Build it with [`crate::registry::build_caps`].
#[derive(LogicBlock)]
pub struct CapsPrefetcherRtl<
    const A: usize,
    const P: usize,
    const WI: usize,
    const WD: usize,
    const C: usize,
    const CP: usize,
    const RP: usize,
    const RD: usize,
    const CW: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset.
    pub reset: Signal<In, Bit>,
    /// Warps per CTA of the running kernel.
    pub cfg_warps_per_cta: Signal<In, Bits<WI>>,
    /// A CTA is launched this cycle.
    pub cta_launch_valid: Signal<In, Bit>,
    /// The slot whose PerCTA table is cleared.
    pub cta_launch_slot: Signal<In, Bits<C>>,
    /// A demand load this cycle.
    pub ld_valid: Signal<In, Bit>,
    /// Load pc.
    pub ld_pc: Signal<In, Bits<P>>,
    /// CTA slot of the load.
    pub ld_cta: Signal<In, Bits<C>>,
    /// Warp index of the load.
    pub ld_warp: Signal<In, Bits<WI>>,
    /// Coalesced request count.
    pub ld_count: Signal<In, Bits<6>>,
    /// Request addresses (`MAX_ADDRS` ports, emitted as `ld_addr0..`).
    pub ld_addr: Vec<Signal<In, Bits<A>>>,
    /// The load is indirect (never prefetched).
    pub ld_indirect: Signal<In, Bit>,
    /// The consumer takes the offered prefetch.
    pub pf_ready: Signal<In, Bit>,
    /// A prefetch is offered.
    pub pf_valid: Signal<Out, Bit>,
    /// Prefetch address.
    pub pf_addr: Signal<Out, Bits<A>>,
    /// CTA slot of the prefetch.
    pub pf_cta: Signal<Out, Bits<C>>,
    /// Warp of the prefetch.
    pub pf_warp: Signal<Out, Bits<WI>>,

    slots: Vec<CapsCta<A, P, WI, RP>>,
    dtab: CapsDist<A, P, C, CW, RD>,
    jobq: CapsJobQ<A, P, WI, C>,
    pfq: CapsPfq<A, WI, C>,
    mul_l: CapsMul<WD, A>,
    mul_g: CapsMul<WD, A>,
    train: CapsTrain<WD, A>,
    zx_ldw: ZeroExt<WI, WD>,
    zx_llead: ZeroExt<WI, WD>,
    zx_glead: ZeroExt<WI, WD>,
    zx_jwarp: ZeroExt<WI, WD>,
    zx_cfg: ZeroExt<WI, WD>,

    busy: Reg<Bit>,
    j_kind: Reg<Bit>,
    j_pc: Reg<Bits<P>>,
    j_cta: Reg<Bits<C>>,
    j_warp: Reg<Bits<WI>>,
    j_stride: Reg<Bits<A>>,
    posa: Reg<Bits<CP>>,
    posb: Reg<Bits<WD>>,
    kk: Reg<Bits<3>>,

    slot_c: Vec<Constant<Bits<C>>>,
    slot_cp: Vec<Constant<Bits<CP>>>,
    lane_k: Vec<Constant<Bits<3>>>,
    count_zero: Constant<Bits<6>>,
    count_max: Constant<Bits<6>>,
    thr: Constant<Bits<CW>>,
    cnt_one: Constant<Bits<CW>>,
    cnt_max: Constant<Bits<CW>>,
    addr_zero: Constant<Bits<A>>,
    k_zero: Constant<Bits<3>>,
    k_one: Constant<Bits<3>>,
    cp_zero: Constant<Bits<CP>>,
    cp_one: Constant<Bits<CP>>,
    wd_zero: Constant<Bits<WD>>,
    wd_one: Constant<Bits<WD>>,
    wi_zero: Constant<Bits<WI>>,
    c_zero: Constant<Bits<C>>,

    elig: Signal<Local, Bit>,
    n3: Signal<Local, Bits<3>>,
    a: Vec<Signal<Local, Bits<A>>>,
    sel_l: Vec<Signal<Local, Bit>>,
    m_hit: Signal<Local, Bit>,
    m_lead: Signal<Local, Bits<WI>>,
    m_n: Signal<Local, Bits<3>>,
    m_base: Vec<Signal<Local, Bits<A>>>,
    w_is_lead: Signal<Local, Bit>,
    n_same: Signal<Local, Bit>,
    delta_l: Signal<Local, Bits<WD>>,
    diff: Vec<Signal<Local, Bits<A>>>,
    in_n: Vec<Signal<Local, Bit>>,
    mism: Signal<Local, Bit>,
    eq_all: Signal<Local, Bit>,
    r1: Signal<Local, Bit>,
    r2: Signal<Local, Bit>,
    r3: Signal<Local, Bit>,
    r4: Signal<Local, Bit>,
    r4_inval: Signal<Local, Bit>,
    r4_alloc: Signal<Local, Bit>,
    cnt_after: Signal<Local, Bits<CW>>,
    job_b: Signal<Local, Bit>,
    job_a: Signal<Local, Bit>,

    take: Signal<Local, Bit>,
    cand: Vec<Signal<Local, Bit>>,
    cand_below: Vec<Signal<Local, Bit>>,
    gsel: Vec<Signal<Local, Bit>>,
    found_a: Signal<Local, Bit>,
    s_hit: Signal<Local, Bit>,
    s_lead: Signal<Local, Bits<WI>>,
    s_n: Signal<Local, Bits<3>>,
    s_base: Signal<Local, Bits<A>>,
    s_cp: Signal<Local, Bits<CP>>,
    s_c: Signal<Local, Bits<C>>,
    k_cur: Signal<Local, Bits<3>>,
    k_next: Signal<Local, Bits<3>>,
    wb: Signal<Local, Bits<WD>>,
    b_end: Signal<Local, Bit>,
    b_skip: Signal<Local, Bit>,
    have_pf: Signal<Local, Bit>,
    g_end: Signal<Local, Bit>,
    pf_push: Signal<Local, Bit>,

    _ncta: usize,
    _ncta1: usize,
    _m: usize,
    _lanes: usize,
}

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const RD: usize,
        const CW: usize,
    > CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW>
{
    /// Build the unit for `p` (which must be valid). Panics if `p`'s widths
    /// are not the const generics (use [`crate::registry::build_caps`]).
    pub fn new(p: &CapsParams) -> Self {
        assert_eq!(A as u64, p.ADDR_W, "ADDR_W");
        assert_eq!(P as u64, p.PC_W, "PC_W");
        assert_eq!(WI as u64, p.WARP_IDX_W, "WARP_IDX_W");
        assert_eq!(WD, WI + 1, "WD = WARP_IDX_W + 1");
        assert_eq!(C as u32, p.cta_bits(), "clog2(N_CTA)");
        assert_eq!(CP, C + 1, "CP = clog2(N_CTA) + 1");
        assert_eq!(RP as u32, clog2(p.PERCTA_ENTRIES), "clog2(PERCTA_ENTRIES)");
        assert_eq!(RD as u32, clog2(p.DIST_ENTRIES), "clog2(DIST_ENTRIES)");
        assert_eq!(CW as u64, p.CNT_W, "CNT_W");
        assert!(p.N_CTA >= 2 && p.N_CTA <= 1 << C, "N_CTA");
        assert!(
            p.MAX_ADDRS >= 1 && p.MAX_ADDRS as usize <= LANES,
            "MAX_ADDRS"
        );
        assert!(
            p.MISPRED_THRESHOLD >= 1 && p.MISPRED_THRESHOLD <= ports::mask(CW as u32),
            "MISPRED_THRESHOLD"
        );
        let ncta = p.N_CTA as usize;
        let m = p.MAX_ADDRS as usize;
        CapsPrefetcherRtl {
            clock: Default::default(),
            reset: Default::default(),
            cfg_warps_per_cta: Default::default(),
            cta_launch_valid: Default::default(),
            cta_launch_slot: Default::default(),
            ld_valid: Default::default(),
            ld_pc: Default::default(),
            ld_cta: Default::default(),
            ld_warp: Default::default(),
            ld_count: Default::default(),
            ld_addr: (0..m).map(|_| Signal::default()).collect(),
            ld_indirect: Default::default(),
            pf_ready: Default::default(),
            pf_valid: Default::default(),
            pf_addr: Default::default(),
            pf_cta: Default::default(),
            pf_warp: Default::default(),
            slots: (0..ncta).map(|_| CapsCta::new(p)).collect(),
            dtab: CapsDist::new(p),
            jobq: CapsJobQ::new(p.JOBQ_DEPTH as usize),
            pfq: CapsPfq::new(p.PFQ_DEPTH as usize),
            mul_l: Default::default(),
            mul_g: Default::default(),
            train: Default::default(),
            zx_ldw: Default::default(),
            zx_llead: Default::default(),
            zx_glead: Default::default(),
            zx_jwarp: Default::default(),
            zx_cfg: Default::default(),
            busy: Default::default(),
            j_kind: Default::default(),
            j_pc: Default::default(),
            j_cta: Default::default(),
            j_warp: Default::default(),
            j_stride: Default::default(),
            posa: Default::default(),
            posb: Default::default(),
            kk: Default::default(),
            slot_c: konsts(0..ncta as u64),
            slot_cp: konsts(0..ncta as u64),
            lane_k: konsts(0..LANES as u64),
            count_zero: konst(0),
            count_max: konst(p.MAX_ADDRS),
            thr: konst(p.MISPRED_THRESHOLD),
            cnt_one: konst(1),
            cnt_max: konst(ports::mask(CW as u32)),
            addr_zero: konst(0),
            k_zero: konst(0),
            k_one: konst(1),
            cp_zero: konst(0),
            cp_one: konst(1),
            wd_zero: konst(0),
            wd_one: konst(1),
            wi_zero: konst(0),
            c_zero: konst(0),
            elig: Default::default(),
            n3: Default::default(),
            a: sigs(LANES),
            sel_l: sigs(ncta),
            m_hit: Default::default(),
            m_lead: Default::default(),
            m_n: Default::default(),
            m_base: sigs(LANES),
            w_is_lead: Default::default(),
            n_same: Default::default(),
            delta_l: Default::default(),
            diff: sigs(LANES),
            in_n: sigs(LANES),
            mism: Default::default(),
            eq_all: Default::default(),
            r1: Default::default(),
            r2: Default::default(),
            r3: Default::default(),
            r4: Default::default(),
            r4_inval: Default::default(),
            r4_alloc: Default::default(),
            cnt_after: Default::default(),
            job_b: Default::default(),
            job_a: Default::default(),
            take: Default::default(),
            cand: sigs(ncta),
            cand_below: sigs(ncta + 1),
            gsel: sigs(ncta),
            found_a: Default::default(),
            s_hit: Default::default(),
            s_lead: Default::default(),
            s_n: Default::default(),
            s_base: Default::default(),
            s_cp: Default::default(),
            s_c: Default::default(),
            k_cur: Default::default(),
            k_next: Default::default(),
            wb: Default::default(),
            b_end: Default::default(),
            b_skip: Default::default(),
            have_pf: Default::default(),
            g_end: Default::default(),
            pf_push: Default::default(),
            _ncta: ncta,
            _ncta1: ncta + 1,
            _m: m,
            _lanes: LANES,
        }
    }
}

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const RD: usize,
        const CW: usize,
    > Logic for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Generator registers: clock, reset, hold.
        dff_setup!(self, clock, busy, j_kind, j_pc, j_cta, j_warp, j_stride, posa, posb, kk);
        self.busy.reset.next = self.reset.val();
        self.j_kind.reset.next = self.reset.val();
        self.j_pc.reset.next = self.reset.val();
        self.j_cta.reset.next = self.reset.val();
        self.j_warp.reset.next = self.reset.val();
        self.j_stride.reset.next = self.reset.val();
        self.posa.reset.next = self.reset.val();
        self.posb.reset.next = self.reset.val();
        self.kk.reset.next = self.reset.val();

        // ---- The load: eligibility, PerCTA[ld_cta] and DIST look-ups.
        self.elig.next = self.ld_valid.val()
            & !self.ld_indirect.val()
            & (self.ld_count.val() != self.count_zero.val())
            & (self.ld_count.val() <= self.count_max.val());
        self.n3.next = self.ld_count.val().get_bits::<3>(0);
        for k in 0..self._lanes {
            self.a[k].next = self.addr_zero.val();
        }
        for k in 0..self._m {
            self.a[k].next = self.ld_addr[k].val();
        }
        self.m_hit.next = false;
        self.m_lead.next = self.wi_zero.val();
        self.m_n.next = self.k_zero.val();
        for k in 0..self._lanes {
            self.m_base[k].next = self.addr_zero.val();
        }
        for s in 0..self._ncta {
            self.sel_l[s].next = self.slot_c[s].val() == self.ld_cta.val();
            if self.sel_l[s].val() {
                self.m_hit.next = self.slots[s].lh_hit.val();
                self.m_lead.next = self.slots[s].lh_lead.val();
                self.m_n.next = self.slots[s].lh_n.val();
                self.m_base[0].next = self.slots[s].lh_base0.val();
                self.m_base[1].next = self.slots[s].lh_base1.val();
                self.m_base[2].next = self.slots[s].lh_base2.val();
                self.m_base[3].next = self.slots[s].lh_base3.val();
            }
        }
        self.w_is_lead.next = self.ld_warp.val() == self.m_lead.val();
        self.n_same.next = self.n3.val() == self.m_n.val();
        self.zx_ldw.narrow.next = self.ld_warp.val();
        self.zx_llead.narrow.next = self.m_lead.val();
        self.delta_l.next = self.zx_ldw.wide.val() - self.zx_llead.wide.val();
        self.mul_l.d.next = self.delta_l.val();
        self.mul_l.s.next = self.dtab.lh_stride.val();
        // Rule 3 verification and rule 4 comparison, lane by lane.
        self.mism.next = !self.n_same.val();
        self.eq_all.next = true;
        for k in 0..self._lanes {
            self.diff[k].next = self.a[k].val() - self.m_base[k].val();
            self.in_n[k].next = self.lane_k[k].val() < self.n3.val();
            if self.in_n[k].val() & ((self.m_base[k].val() + self.mul_l.p.val()) != self.a[k].val())
            {
                self.mism.next = true;
            }
            if self.in_n[k].val() & (self.diff[k].val() != self.diff[0].val()) {
                self.eq_all.next = false;
            }
        }
        self.train.delta.next = self.delta_l.val();
        self.train.diff.next = self.diff[0].val();
        // The rules.
        self.r1.next = self.elig.val() & !self.m_hit.val();
        self.r2.next = self.elig.val() & self.m_hit.val() & self.w_is_lead.val();
        self.r3.next =
            self.elig.val() & self.m_hit.val() & !self.w_is_lead.val() & self.dtab.lh_hit.val();
        self.r4.next =
            self.elig.val() & self.m_hit.val() & !self.w_is_lead.val() & !self.dtab.lh_hit.val();
        self.r4_inval.next = self.r4.val()
            & (!self.n_same.val()
                | (self.train.pow2.val() & (!self.train.div.val() | !self.eq_all.val())));
        self.r4_alloc.next = self.r4.val()
            & self.n_same.val()
            & self.train.pow2.val()
            & self.train.div.val()
            & self.eq_all.val()
            & (self.diff[0].val() != self.addr_zero.val());
        self.cnt_after.next = self.dtab.lh_cnt.val();
        if self.r3.val() & self.mism.val() & (self.dtab.lh_cnt.val() != self.cnt_max.val()) {
            self.cnt_after.next = self.dtab.lh_cnt.val() + self.cnt_one.val();
        }
        self.job_b.next =
            self.r1.val() & self.dtab.lh_hit.val() & (self.dtab.lh_cnt.val() < self.thr.val());
        self.job_a.next = (self.r3.val()
            & (self.ld_cta.val() == self.dtab.lh_lead_cta.val())
            & (self.cnt_after.val() < self.thr.val()))
            | self.r4_alloc.val();
        // DIST updates and the generator's DIST look-up.
        self.dtab.clock.next = self.clock.val();
        self.dtab.reset.next = self.reset.val();
        self.dtab.l_pc.next = self.ld_pc.val();
        self.dtab.alloc.next = self.r4_alloc.val();
        self.dtab.a_stride.next = self.train.stride.val();
        self.dtab.a_lead_cta.next = self.ld_cta.val();
        self.dtab.inc.next = self.r3.val() & self.mism.val();
        self.dtab.g_pc.next = self.j_pc.q.val();
        // PerCTA updates and the generator's look-ups.
        for s in 0..self._ncta {
            self.slots[s].clock.next = self.clock.val();
            self.slots[s].reset.next = self.reset.val();
            self.slots[s].clear.next =
                self.cta_launch_valid.val() & (self.slot_c[s].val() == self.cta_launch_slot.val());
            self.slots[s].alloc.next = self.r1.val() & self.sel_l[s].val();
            self.slots[s].touch.next = self.r2.val() & self.sel_l[s].val();
            self.slots[s].inval.next = self.r4_inval.val() & self.sel_l[s].val();
            self.slots[s].l_pc.next = self.ld_pc.val();
            self.slots[s].l_warp.next = self.ld_warp.val();
            self.slots[s].l_n.next = self.n3.val();
            self.slots[s].a0.next = self.a[0].val();
            self.slots[s].a1.next = self.a[1].val();
            self.slots[s].a2.next = self.a[2].val();
            self.slots[s].a3.next = self.a[3].val();
            self.slots[s].g_pc.next = self.j_pc.q.val();
            if self.j_kind.q.val() | (self.slot_cp[s].val() == self.posa.q.val()) {
                self.slots[s].g_k.next = self.kk.q.val();
            } else {
                self.slots[s].g_k.next = self.k_zero.val();
            }
        }
        // Job FIFO.
        self.take.next = !self.busy.q.val() & self.jobq.o_valid.val();
        self.jobq.clock.next = self.clock.val();
        self.jobq.reset.next = self.reset.val();
        self.jobq.push.next = self.job_a.val() | self.job_b.val();
        self.jobq.pop.next = self.take.val();
        self.jobq.i_kind.next = self.job_b.val();
        self.jobq.i_pc.next = self.ld_pc.val();
        self.jobq.i_cta.next = self.ld_cta.val();
        self.jobq.i_warp.next = self.ld_warp.val();
        if self.r4_alloc.val() {
            self.jobq.i_stride.next = self.train.stride.val();
        } else {
            self.jobq.i_stride.next = self.dtab.lh_stride.val();
        }

        // ---- Generator: the next prefetch of the current job.
        // Job A: the lowest candidate slot. Job B: slot j_cta.
        self.found_a.next = false;
        self.cand_below[0].next = false;
        for s in 0..self._ncta {
            self.cand[s].next = (self.slot_c[s].val() != self.j_cta.q.val())
                & self.slots[s].gh_hit.val()
                & (self.slots[s].gh_lead.val() != self.j_warp.q.val())
                & (self.posa.q.val() <= self.slot_cp[s].val())
                & ((self.posa.q.val() != self.slot_cp[s].val())
                    | (self.kk.q.val() < self.slots[s].gh_n.val()));
            if self.j_kind.q.val() {
                self.gsel[s].next = self.slot_c[s].val() == self.j_cta.q.val();
            } else {
                self.gsel[s].next = self.cand[s].val() & !self.cand_below[s].val();
            }
            self.cand_below[s + 1].next = self.cand_below[s].val() | self.cand[s].val();
        }
        for t in self._ncta..self._ncta1 {
            self.found_a.next = self.cand_below[t].val();
        }
        self.s_hit.next = false;
        self.s_lead.next = self.wi_zero.val();
        self.s_n.next = self.k_zero.val();
        self.s_base.next = self.addr_zero.val();
        self.s_cp.next = self.cp_zero.val();
        self.s_c.next = self.c_zero.val();
        for s in 0..self._ncta {
            if self.gsel[s].val() {
                self.s_hit.next = self.slots[s].gh_hit.val();
                self.s_lead.next = self.slots[s].gh_lead.val();
                self.s_n.next = self.slots[s].gh_n.val();
                self.s_base.next = self.slots[s].gh_base.val();
                self.s_cp.next = self.slot_cp[s].val();
                self.s_c.next = self.slot_c[s].val();
            }
        }
        self.zx_glead.narrow.next = self.s_lead.val();
        self.zx_jwarp.narrow.next = self.j_warp.q.val();
        self.zx_cfg.narrow.next = self.cfg_warps_per_cta.val();
        // Job B: the warp w' (the leading warp is skipped).
        if self.posb.q.val() == self.zx_glead.wide.val() {
            self.wb.next = self.posb.q.val() + self.wd_one.val();
        } else {
            self.wb.next = self.posb.q.val();
        }
        self.b_end.next =
            !self.s_hit.val() | !self.dtab.gh_hit.val() | (self.wb.val() >= self.zx_cfg.wide.val());
        self.b_skip.next = self.kk.q.val() >= self.s_n.val();
        // The address k* of the prefetch and the one after it.
        if self.j_kind.q.val() | (self.s_cp.val() == self.posa.q.val()) {
            self.k_cur.next = self.kk.q.val();
        } else {
            self.k_cur.next = self.k_zero.val();
        }
        self.k_next.next = self.k_cur.val() + self.k_one.val();
        if self.j_kind.q.val() {
            self.mul_g.d.next = self.wb.val() - self.zx_glead.wide.val();
            self.mul_g.s.next = self.dtab.gh_stride.val();
            self.have_pf.next = self.busy.q.val() & !self.b_end.val() & !self.b_skip.val();
            self.g_end.next = self.busy.q.val() & self.b_end.val();
        } else {
            self.mul_g.d.next = self.zx_jwarp.wide.val() - self.zx_glead.wide.val();
            self.mul_g.s.next = self.j_stride.q.val();
            self.have_pf.next = self.busy.q.val() & self.found_a.val();
            self.g_end.next = self.busy.q.val() & !self.found_a.val();
        }
        self.pf_push.next = self.have_pf.val() & !self.pfq.o_full.val();
        // Generator state.
        if self.take.val() {
            self.busy.d.next = true;
            self.j_kind.d.next = self.jobq.o_kind.val();
            self.j_pc.d.next = self.jobq.o_pc.val();
            self.j_cta.d.next = self.jobq.o_cta.val();
            self.j_warp.d.next = self.jobq.o_warp.val();
            self.j_stride.d.next = self.jobq.o_stride.val();
            self.posa.d.next = self.cp_zero.val();
            self.posb.d.next = self.wd_zero.val();
            self.kk.d.next = self.k_zero.val();
        } else if self.g_end.val() {
            self.busy.d.next = false;
        } else if self.busy.q.val() & self.j_kind.q.val() & self.b_skip.val() {
            self.posb.d.next = self.wb.val() + self.wd_one.val();
            self.kk.d.next = self.k_zero.val();
        } else if self.pf_push.val() {
            if self.k_next.val() < self.s_n.val() {
                self.kk.d.next = self.k_next.val();
                self.posa.d.next = self.s_cp.val();
                self.posb.d.next = self.wb.val();
            } else {
                self.kk.d.next = self.k_zero.val();
                self.posa.d.next = self.s_cp.val() + self.cp_one.val();
                self.posb.d.next = self.wb.val() + self.wd_one.val();
            }
        }

        // ---- Output queue.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.pf_push.val();
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        self.pfq.i_addr.next = self.s_base.val() + self.mul_g.p.val();
        if self.j_kind.q.val() {
            self.pfq.i_cta.next = self.j_cta.q.val();
            self.pfq.i_warp.next = self.wb.val().get_bits::<WI>(0);
        } else {
            self.pfq.i_cta.next = self.s_c.val();
            self.pfq.i_warp.next = self.j_warp.q.val();
        }
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_addr.val();
        self.pf_cta.next = self.pfq.o_cta.val();
        self.pf_warp.next = self.pfq.o_warp.val();
    }
}

/// Rename the address ports rust-hdl names `ld_addr__<k>` (a `Vec` field)
/// to the spec's `ld_addr<k>`.
fn rename_addr_ports(verilog: &str, m: usize) -> String {
    let mut out = verilog.to_string();
    for k in 0..m {
        let from = format!("ld_addr__{k}");
        let to = format!("ld_addr{k}");
        let mut res = String::with_capacity(out.len());
        let bytes = out.as_bytes();
        let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        let mut i = 0;
        while i < out.len() {
            if out[i..].starts_with(&from)
                && (i == 0 || !is_ident(bytes[i - 1]))
                && (i + from.len() == out.len() || !is_ident(bytes[i + from.len()]))
            {
                res.push_str(&to);
                i += from.len();
            } else {
                let ch = out[i..].chars().next().unwrap();
                res.push(ch);
                i += ch.len_utf8();
            }
        }
        out = res;
    }
    out
}

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const RD: usize,
        const CW: usize,
    > crate::RtlUnit for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW>
{
    fn block(&self) -> &dyn Block {
        self
    }
    fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        let m = self.ld_addr.len();
        let v = crate::emit::emit_unit("caps_prefetcher", self, header)?;
        Ok(rename_addr_ports(&v, m))
    }
    fn set_inputs(&mut self, v: &[u64]) {
        use crate::PortValue;
        let m = self.ld_addr.len();
        self.reset.next = Bit::from_u64(v[0]);
        self.cfg_warps_per_cta.next = Bits::<WI>::from_u64(v[1]);
        self.cta_launch_valid.next = Bit::from_u64(v[2]);
        self.cta_launch_slot.next = Bits::<C>::from_u64(v[3]);
        self.ld_valid.next = Bit::from_u64(v[4]);
        self.ld_pc.next = Bits::<P>::from_u64(v[5]);
        self.ld_cta.next = Bits::<C>::from_u64(v[6]);
        self.ld_warp.next = Bits::<WI>::from_u64(v[7]);
        self.ld_count.next = Bits::<6>::from_u64(v[8]);
        for (k, port) in self.ld_addr.iter_mut().enumerate() {
            port.next = Bits::<A>::from_u64(v[9 + k]);
        }
        self.ld_indirect.next = Bit::from_u64(v[9 + m]);
        self.pf_ready.next = Bit::from_u64(v[10 + m]);
    }
    fn set_clock(&mut self, high: bool) {
        self.clock.next = Clock::from(high);
    }
    fn settle(&mut self) -> bool {
        simulate(self, 1000)
    }
    fn outputs(&self, out: &mut [u64]) {
        use crate::PortValue;
        out[0] = self.pf_valid.val().to_u64();
        out[1] = self.pf_addr.val().to_u64();
        out[2] = self.pf_cta.val().to_u64();
        out[3] = self.pf_warp.val().to_u64();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RtlUnit;
    use ports::caps::{CapsIn, CapsOut, CapsPrefetcher};
    use ports::{Params, UnitSpec};

    /// Drives a built unit cycle by cycle as `cosim` does.
    struct Drv {
        p: CapsParams,
        u: Box<dyn RtlUnit>,
    }

    impl Drv {
        fn new(p: &CapsParams) -> Self {
            p.validate().unwrap();
            let mut u = crate::registry::build_caps(p).unwrap();
            u.set_clock(false);
            assert!(u.settle());
            Drv { p: p.clone(), u }
        }

        /// Apply `i`, sample the outputs, clock a rising edge.
        fn cycle(&mut self, i: &CapsIn) -> CapsOut {
            let v = CapsPrefetcher::in_values(&self.p, i);
            self.u.set_clock(false);
            self.u.set_inputs(&v);
            assert!(self.u.settle(), "did not settle");
            let mut o = vec![0; 4];
            self.u.outputs(&mut o);
            self.u.set_clock(true);
            assert!(self.u.settle(), "did not settle");
            CapsPrefetcher::out_from_values(&self.p, &o)
        }
    }

    const PC: u64 = 0x0000_0a40;
    const BASES: [u64; 3] = [0x1000_0000, 0x2345_6700, 0x0abc_0000];

    fn load(cta: u64, warp: u64) -> CapsIn {
        CapsIn {
            cfg_warps_per_cta: 3,
            pf_ready: true,
            ld_valid: true,
            ld_pc: PC,
            ld_cta: cta,
            ld_warp: warp,
            ld_count: 1,
            ld_addr: [BASES[cta as usize] + 0x100 * warp, 0, 0, 0],
            ..Default::default()
        }
    }

    /// Run `loads` (cycle, cta, warp) after a reset in cycle 0 with
    /// `pf_ready = 1`; every prefetch as (cycle seen, addr, cta, warp).
    fn run(p: &CapsParams, loads: &[(u64, u64, u64)], cycles: u64) -> Vec<(u64, u64, u64, u64)> {
        let mut d = Drv::new(p);
        let mut out = Vec::new();
        for t in 0..cycles {
            let mut i = CapsIn {
                cfg_warps_per_cta: 3,
                pf_ready: true,
                reset: t == 0,
                ..Default::default()
            };
            if let Some(&(_, c, w)) = loads.iter().find(|l| l.0 == t) {
                i = load(c, w);
            }
            let o = d.cycle(&i);
            if o.pf_valid {
                out.push((t, o.pf_addr, o.pf_cta, o.pf_warp));
            } else {
                assert_eq!((o.pf_addr, o.pf_cta, o.pf_warp), (0, 0, 0), "cycle {t}");
            }
        }
        out
    }

    fn pf(t: u64, cta: u64, warp: u64) -> (u64, u64, u64, u64) {
        (t, BASES[cta as usize] + 0x100 * warp, cta, warp)
    }

    #[test]
    fn figure9a_spaced() {
        let p = CapsParams::default();
        // A0, B0, C0, then A1 at edge 10 and A2 at edge 20.
        let got = run(
            &p,
            &[(2, 0, 0), (3, 1, 0), (4, 2, 0), (10, 0, 1), (20, 0, 2)],
            40,
        );
        // First prefetch during the cycle after edge t+2.
        let want = vec![pf(13, 1, 1), pf(14, 2, 1), pf(23, 1, 2), pf(24, 2, 2)];
        assert_eq!(got, want);
    }

    #[test]
    fn figure9a_back_to_back() {
        let p = CapsParams::default();
        let got = run(
            &p,
            &[(2, 0, 0), (3, 1, 0), (4, 2, 0), (5, 0, 1), (6, 0, 2)],
            30,
        );
        // Job A1: taken at 6, B1 pushed at 7, C1 at 8, ends at 9; job A2
        // taken at 10, B2 at 11, C2 at 12.
        let want = vec![pf(8, 1, 1), pf(9, 2, 1), pf(12, 1, 2), pf(13, 2, 2)];
        assert_eq!(got, want);
    }

    #[test]
    fn figure9b_spaced() {
        let p = CapsParams::default();
        let got = run(&p, &[(2, 0, 0), (10, 0, 1), (20, 1, 0), (30, 2, 0)], 45);
        // A1 trains, prefetches nothing; B0 -> B1, B2; C0 -> C1, C2.
        let want = vec![pf(23, 1, 1), pf(24, 1, 2), pf(33, 2, 1), pf(34, 2, 2)];
        assert_eq!(got, want);
    }

    #[test]
    fn figure9b_back_to_back_sees_later_ctas() {
        // Contract, further choice 6: job A of A1 runs after B0 and C0
        // registered their bases.
        let p = CapsParams::default();
        let got = run(&p, &[(2, 0, 0), (3, 0, 1), (4, 1, 0), (5, 2, 0)], 30);
        let want = vec![
            pf(6, 1, 1),
            pf(7, 2, 1),
            pf(10, 1, 1),
            pf(11, 1, 2),
            pf(14, 2, 1),
            pf(15, 2, 2),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn small_configuration_runs_figure9a() {
        let p = CapsParams {
            N_CTA: 2,
            PERCTA_ENTRIES: 2,
            DIST_ENTRIES: 1,
            MAX_ADDRS: 2,
            JOBQ_DEPTH: 1,
            PFQ_DEPTH: 1,
            ..Default::default()
        };
        // Two CTAs: A0, B0, A1, A2 spaced, then A1', A2' back to back:
        // with one job slot, the job of A2' is dropped while A1''s job
        // is still queued (A1's job is taken only at edge 31).
        let got = run(
            &p,
            &[
                (2, 0, 0),
                (3, 1, 0),
                (10, 0, 1),
                (20, 0, 2),
                (30, 0, 1),
                (31, 0, 2),
            ],
            45,
        );
        let want = vec![pf(13, 1, 1), pf(23, 1, 2), pf(33, 1, 1)];
        assert_eq!(got, want);
    }

    fn tool(name: &str) -> bool {
        std::process::Command::new(name)
            .arg(if name == "verilator" {
                "--version"
            } else {
                "-V"
            })
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    }

    fn emit_to_dir(p: &CapsParams, tag: &str) -> std::path::PathBuf {
        let mut u = crate::registry::build_caps(p).unwrap();
        let v = u.verilog(&[format!("test {tag}")]).unwrap();
        let mut again = crate::registry::build_caps(p).unwrap();
        assert!(
            v == again.verilog(&[format!("test {tag}")]).unwrap(),
            "not deterministic"
        );
        assert!(!v.contains('$'), "identifier with `$`");
        for k in 0..p.MAX_ADDRS {
            assert!(v.contains(&format!(" ld_addr{k};")), "port ld_addr{k}");
        }
        assert!(!v.contains("ld_addr__"));
        let dir = std::env::temp_dir().join(format!("caps_rtl_{}_{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("caps_prefetcher.v"), v).unwrap();
        dir
    }

    fn lint(p: &CapsParams, tag: &str) {
        if !tool("verilator") {
            eprintln!("verilator not found: lint skipped");
            return;
        }
        let dir = emit_to_dir(p, tag);
        let out = std::process::Command::new("verilator")
            .current_dir(&dir)
            .args([
                "--lint-only",
                "-Wall",
                "-Wno-UNOPTFLAT",
                "-Wno-DECLFILENAME",
                "--top-module",
                "caps_prefetcher",
                "caps_prefetcher.v",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !err.contains("%Warning"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Writes the Verilog of a few configurations to `$CAPS_DUMP/<tag>/`.
    #[test]
    #[ignore]
    fn dump_verilog() {
        let Some(root) = std::env::var_os("CAPS_DUMP") else {
            return;
        };
        for (tag, p) in [
            ("paper", CapsParams::default()),
            (
                "small",
                CapsParams {
                    N_CTA: 2,
                    PERCTA_ENTRIES: 2,
                    DIST_ENTRIES: 1,
                    MAX_ADDRS: 1,
                    JOBQ_DEPTH: 1,
                    PFQ_DEPTH: 1,
                    ..Default::default()
                },
            ),
            (
                "n16",
                CapsParams {
                    N_CTA: 16,
                    ..Default::default()
                },
            ),
        ] {
            let t0 = std::time::Instant::now();
            let mut u = crate::registry::build_caps(&p).unwrap();
            let v = u.verilog(&[format!("dump {tag}")]).unwrap();
            eprintln!("{tag}: emitted in {:?}", t0.elapsed());
            let dir = std::path::Path::new(&root).join(tag);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("caps_prefetcher.v"), v).unwrap();
        }
    }

    #[test]
    fn verilog_lints_clean_paper() {
        lint(&CapsParams::default(), "paper");
    }

    #[test]
    fn verilog_lints_clean_small() {
        lint(
            &CapsParams {
                N_CTA: 2,
                PERCTA_ENTRIES: 2,
                DIST_ENTRIES: 1,
                MAX_ADDRS: 1,
                JOBQ_DEPTH: 1,
                PFQ_DEPTH: 1,
                ..Default::default()
            },
            "small",
        );
    }

    // -----------------------------------------------------------------
    // A plain cycle model of the contract, written from
    // `docs/units/caps_prefetcher.md` for this test only (LRU by update
    // time stamps, rule 4 by per-address division), and random stimulus.

    #[derive(Clone, Copy, Default)]
    struct MEntry {
        valid: bool,
        pc: u64,
        lead: u64,
        n: usize,
        base: [u64; 4],
        stamp: u64,
    }

    #[derive(Clone, Copy, Default)]
    struct MDist {
        valid: bool,
        pc: u64,
        stride: u64,
        cnt: u64,
        lead_cta: u64,
        stamp: u64,
    }

    #[derive(Clone, Copy, Debug)]
    enum MJob {
        A { pc: u64, w: u64, c: u64, s: u64 },
        B { c: u64, pc: u64 },
    }

    struct Model {
        p: CapsParams,
        cta: Vec<Vec<MEntry>>,
        dist: Vec<MDist>,
        jobs: std::collections::VecDeque<MJob>,
        job: Option<MJob>,
        pos: u64,
        k: u64,
        pfq: std::collections::VecDeque<(u64, u64, u64)>,
        time: u64,
        /// Events seen (coverage of the stimulus).
        ev: std::collections::BTreeMap<&'static str, usize>,
    }

    fn victim(stamps: &[(bool, u64)]) -> usize {
        if let Some(i) = stamps.iter().position(|e| !e.0) {
            return i;
        }
        (0..stamps.len()).min_by_key(|&i| stamps[i].1).unwrap()
    }

    impl Model {
        fn new(p: &CapsParams) -> Self {
            Model {
                p: p.clone(),
                cta: vec![vec![MEntry::default(); p.PERCTA_ENTRIES as usize]; p.N_CTA as usize],
                dist: vec![MDist::default(); p.DIST_ENTRIES as usize],
                jobs: Default::default(),
                job: None,
                pos: 0,
                k: 0,
                pfq: Default::default(),
                time: 0,
                ev: Default::default(),
            }
        }

        fn amask(&self) -> u64 {
            ports::mask(self.p.ADDR_W as u32)
        }

        fn find(&self, c: u64, pc: u64) -> Option<usize> {
            self.cta[c as usize]
                .iter()
                .position(|e| e.valid && e.pc == pc)
        }

        fn dfind(&self, pc: u64) -> Option<usize> {
            self.dist.iter().position(|d| d.valid && d.pc == pc)
        }

        /// Warp distance times stride, modulo 2^ADDR_W.
        fn mul(&self, w: u64, lead: u64, s: u64) -> u64 {
            (w.wrapping_sub(lead)).wrapping_mul(s) & self.amask()
        }

        /// The generator's step on the current tables: (prefetch, next
        /// job state (job, pos, k)).
        #[allow(clippy::type_complexity)]
        fn gen(&self, cfg: u64) -> (Option<(u64, u64, u64)>, (Option<MJob>, u64, u64), bool) {
            let job = self.job.unwrap();
            let (pos, k) = (self.pos, self.k);
            match job {
                MJob::A { pc, w, c, s } => {
                    for c2 in 0..self.p.N_CTA {
                        if c2 == c || c2 < pos {
                            continue;
                        }
                        let Some(e) = self.find(c2, pc) else { continue };
                        let e = self.cta[c2 as usize][e];
                        if e.lead == w || (c2 == pos && k as usize >= e.n) {
                            continue;
                        }
                        let ks = if c2 == pos { k } else { 0 };
                        let addr = (e.base[ks as usize] + self.mul(w, e.lead, s)) & self.amask();
                        let next = if (ks as usize + 1) < e.n {
                            (Some(job), c2, ks + 1)
                        } else {
                            (Some(job), c2 + 1, 0)
                        };
                        return (Some((addr, c2, w)), next, false);
                    }
                    (None, (None, pos, k), false)
                }
                MJob::B { c, pc } => {
                    let (Some(e), Some(d)) = (self.find(c, pc), self.dfind(pc)) else {
                        return (None, (None, pos, k), false);
                    };
                    let e = self.cta[c as usize][e];
                    let stride = self.dist[d].stride;
                    let w2 = if pos != e.lead { pos } else { pos + 1 };
                    if w2 >= cfg {
                        return (None, (None, pos, k), false);
                    }
                    if k as usize >= e.n {
                        return (None, (Some(job), w2 + 1, 0), true);
                    }
                    let addr = (e.base[k as usize] + self.mul(w2, e.lead, stride)) & self.amask();
                    let next = if (k as usize + 1) < e.n {
                        (Some(job), w2, k + 1)
                    } else {
                        (Some(job), w2 + 1, 0)
                    };
                    (Some((addr, c, w2)), next, false)
                }
            }
        }

        fn cycle(&mut self, i: &CapsIn) -> CapsOut {
            let out = match self.pfq.front() {
                Some(&(a, c, w)) => CapsOut {
                    pf_valid: true,
                    pf_addr: a,
                    pf_cta: c,
                    pf_warp: w,
                },
                None => CapsOut::default(),
            };
            if i.reset {
                let ev = std::mem::take(&mut self.ev);
                *self = Model::new(&self.p);
                self.ev = ev;
                return out;
            }
            self.time += 1;
            let wmask = ports::mask(self.p.WARP_IDX_W as u32);
            let cmask = self.p.N_CTA - 1;
            let cfg = i.cfg_warps_per_cta & wmask;
            // Generator, on the tables at the start of the cycle.
            let pfq_full = self.pfq.len() >= self.p.PFQ_DEPTH as usize;
            let jobs_full = self.jobs.len() >= self.p.JOBQ_DEPTH as usize;
            let mut push_pf = None;
            if self.job.is_some() {
                let (pf, (job, pos, k), skip) = self.gen(cfg);
                if skip || job.is_none() {
                    *self.ev.entry("gen skip/end").or_default() += 1;
                    self.job = job;
                    self.pos = pos;
                    self.k = k;
                } else if pfq_full {
                    *self.ev.entry("gen stall").or_default() += 1;
                } else {
                    *self.ev.entry("gen push").or_default() += 1;
                    push_pf = pf;
                    self.job = job;
                    self.pos = pos;
                    self.k = k;
                }
            } else if let Some(j) = self.jobs.pop_front() {
                *self.ev.entry("job taken").or_default() += 1;
                self.job = Some(j);
                self.pos = 0;
                self.k = 0;
            }
            if out.pf_valid && i.pf_ready {
                self.pfq.pop_front();
            }
            if let Some(x) = push_pf {
                self.pfq.push_back(x);
            }
            // Launch, then the load.
            if i.cta_launch_valid {
                for e in self.cta[(i.cta_launch_slot & cmask) as usize].iter_mut() {
                    e.valid = false;
                }
            }
            let n = (i.ld_count & 63) as usize;
            if !(i.ld_valid && !i.ld_indirect && n >= 1 && n <= self.p.MAX_ADDRS as usize) {
                return out;
            }
            let am = self.amask();
            let pc = i.ld_pc & ports::mask(self.p.PC_W as u32);
            let c = i.ld_cta & cmask;
            let w = i.ld_warp & wmask;
            let mut a = [0u64; 4];
            for (x, y) in a.iter_mut().zip(i.ld_addr).take(n) {
                *x = y & am;
            }
            let d = self.dfind(pc);
            let thr = self.p.MISPRED_THRESHOLD;
            let mut job = None;
            let now = self.time;
            match self.find(c, pc) {
                None => {
                    let t = &mut self.cta[c as usize];
                    let v = victim(&t.iter().map(|e| (e.valid, e.stamp)).collect::<Vec<_>>());
                    t[v] = MEntry {
                        valid: true,
                        pc,
                        lead: w,
                        n,
                        base: a,
                        stamp: now,
                    };
                    if let Some(d) = d {
                        if self.dist[d].cnt < thr {
                            *self.ev.entry("rule1 job B").or_default() += 1;
                            job = Some(MJob::B { c, pc });
                        }
                    }
                }
                Some(e) => {
                    let pe = self.cta[c as usize][e];
                    if w == pe.lead {
                        *self.ev.entry("rule2").or_default() += 1;
                        let ent = &mut self.cta[c as usize][e];
                        ent.base = a;
                        ent.n = n;
                        ent.stamp = now;
                    } else if let Some(d) = d {
                        let dd = self.dist[d];
                        let bad = n != pe.n
                            || (0..n).any(|k| {
                                (pe.base[k] + self.mul(w, pe.lead, dd.stride)) & am != a[k]
                            });
                        if bad && dd.cnt < ports::mask(self.p.CNT_W as u32) {
                            *self.ev.entry("rule3 mispredict").or_default() += 1;
                            self.dist[d].cnt += 1;
                        }
                        if c == dd.lead_cta && self.dist[d].cnt < thr {
                            *self.ev.entry("rule3 job A").or_default() += 1;
                            job = Some(MJob::A {
                                pc,
                                w,
                                c,
                                s: dd.stride,
                            });
                        }
                    } else if n != pe.n {
                        *self.ev.entry("rule4 n differs").or_default() += 1;
                        self.cta[c as usize][e].valid = false;
                    } else {
                        let delta = w as i64 - pe.lead as i64;
                        let ad = delta.unsigned_abs();
                        if ad.is_power_of_two() {
                            let m = ad.trailing_zeros();
                            let bits = self.p.ADDR_W as u32;
                            let mut ss = Vec::new();
                            let mut ok = true;
                            for (x, b) in a.iter().zip(pe.base).take(n) {
                                let diff = x.wrapping_sub(b) & am;
                                if diff & ((1u64 << m) - 1) != 0 {
                                    ok = false;
                                }
                                // Sign-extend to 64 bits, shift arithmetically.
                                let sx = ((diff << (64 - bits)) as i64) >> (64 - bits);
                                let mut q = (sx >> m) as u64;
                                if delta < 0 {
                                    q = q.wrapping_neg();
                                }
                                ss.push(q & am);
                            }
                            if !ok || ss.iter().any(|&x| x != ss[0]) {
                                *self.ev.entry("rule4 invalidate").or_default() += 1;
                                self.cta[c as usize][e].valid = false;
                            } else if ss[0] != 0 {
                                *self.ev.entry("rule4 train").or_default() += 1;
                                let v = victim(
                                    &self
                                        .dist
                                        .iter()
                                        .map(|e| (e.valid, e.stamp))
                                        .collect::<Vec<_>>(),
                                );
                                self.dist[v] = MDist {
                                    valid: true,
                                    pc,
                                    stride: ss[0],
                                    cnt: 0,
                                    lead_cta: c,
                                    stamp: now,
                                };
                                job = Some(MJob::A { pc, w, c, s: ss[0] });
                            }
                        }
                    }
                }
            }
            if let Some(j) = job {
                if !jobs_full {
                    *self.ev.entry("job pushed").or_default() += 1;
                    self.jobs.push_back(j);
                } else {
                    *self.ev.entry("job dropped").or_default() += 1;
                }
            }
            out
        }
    }

    /// xorshift64*: deterministic stimulus without extra dependencies.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn chance(&mut self, percent: u64) -> bool {
            self.below(100) < percent
        }
    }

    /// Random loads from a few striding PCs (plus noise, broadcasts,
    /// indirect and ineligible loads, launches, back-pressure, resets).
    fn random_inputs(p: &CapsParams, seed: u64, cycles: usize) -> Vec<CapsIn> {
        const NPC: u64 = 6;
        let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let ncta = p.N_CTA;
        let strides: [u64; NPC as usize] = [0x80, 0xffff_ff00, 0, 0x180, 0x40, 0x200];
        let mut bases: Vec<u64> = (0..ncta * NPC).map(|_| r.next() & 0xffff_ff80).collect();
        let mut cfg = 3 + r.below(5);
        let mut v = Vec::with_capacity(cycles);
        for t in 0..cycles {
            let mut i = CapsIn {
                reset: t == 0 || r.below(1000) < 3,
                cfg_warps_per_cta: cfg,
                pf_ready: r.chance(70),
                ..Default::default()
            };
            if r.chance(2) {
                let slot = r.below(ncta);
                i.cta_launch_valid = true;
                i.cta_launch_slot = slot;
                for j in 0..NPC {
                    bases[(slot * NPC + j) as usize] = r.next() & 0xffff_ff80;
                }
            }
            if r.chance(1) {
                cfg = r.below(9);
                i.cfg_warps_per_cta = cfg;
            }
            if r.chance(60) {
                let c = r.below(ncta);
                let j = r.below(NPC);
                let w = r.below(cfg + 2);
                let base = bases[(c * NPC + j) as usize];
                let n = match r.below(100) {
                    0..=84 => 1 + j % p.MAX_ADDRS,
                    85..=94 => 1 + r.below(p.MAX_ADDRS),
                    _ => r.below(40),
                };
                i.ld_valid = true;
                i.ld_pc = 0x100 + 8 * j;
                i.ld_cta = c;
                i.ld_warp = w;
                i.ld_count = n;
                i.ld_indirect = r.chance(3);
                for k in 0..4 {
                    let mut a = base
                        .wrapping_add(0x80 * k as u64)
                        .wrapping_add(w.wrapping_mul(strides[j as usize]));
                    if r.chance(2) {
                        a ^= 1 << r.below(12);
                    }
                    i.ld_addr[k] = a & 0xffff_ffff;
                }
            }
            v.push(i);
        }
        v
    }

    fn compare_with_model(p: &CapsParams, seed: u64, cycles: usize) -> usize {
        let ins = random_inputs(p, seed, cycles);
        let mut d = Drv::new(p);
        let mut m = Model::new(p);
        let mut pfs = 0;
        for (t, i) in ins.iter().enumerate() {
            let got = d.cycle(i);
            let want = m.cycle(i);
            assert_eq!(got, want, "seed {seed} cycle {t}: inputs {i:?}");
            pfs += (got.pf_valid && i.pf_ready) as usize;
        }
        eprintln!("seed {seed}: {pfs} prefetches, events {:?}", m.ev);
        pfs
    }

    #[test]
    fn random_against_contract_model_paper() {
        let p = CapsParams {
            MISPRED_THRESHOLD: 6,
            ..Default::default()
        };
        let mut pfs = 0;
        for seed in 1..=4 {
            pfs += compare_with_model(&p, seed, 3000);
        }
        assert!(pfs > 300, "too few prefetches ({pfs}) to mean anything");
    }

    #[test]
    fn random_against_contract_model_odd_sizes() {
        for (seed, n_cta, ent) in [(21, 16, 3), (22, 8, 3), (23, 16, 4)] {
            let p = CapsParams {
                N_CTA: n_cta,
                PERCTA_ENTRIES: ent,
                DIST_ENTRIES: 7 - ent,
                MISPRED_THRESHOLD: 20,
                JOBQ_DEPTH: 3,
                PFQ_DEPTH: 2,
                ..Default::default()
            };
            let pfs = compare_with_model(&p, seed, 2000);
            assert!(pfs > 100, "too few prefetches ({pfs})");
        }
    }

    /// The emitted Verilog, simulated by Icarus Verilog, gives the outputs
    /// of the rust-hdl simulation cycle for cycle (random stimulus).
    #[test]
    fn iverilog_matches_rust_simulation() {
        if !tool("iverilog") {
            eprintln!("iverilog not found: skipped");
            return;
        }
        for (tag, p) in [
            (
                "iv_paper",
                CapsParams {
                    MISPRED_THRESHOLD: 6,
                    ..Default::default()
                },
            ),
            (
                "iv_small",
                CapsParams {
                    N_CTA: 2,
                    PERCTA_ENTRIES: 2,
                    DIST_ENTRIES: 1,
                    MAX_ADDRS: 2,
                    JOBQ_DEPTH: 1,
                    PFQ_DEPTH: 3,
                    MISPRED_THRESHOLD: 3,
                    ..Default::default()
                },
            ),
        ] {
            let cycles = 1500;
            let ins = random_inputs(&p, 77, cycles);
            let mut d = Drv::new(&p);
            let mut vin = String::new();
            let mut vout = String::new();
            let nin = CapsPrefetcher::inputs(&p).len();
            for i in &ins {
                let o = d.cycle(i);
                for x in CapsPrefetcher::in_values(&p, i) {
                    vin.push_str(&format!("{x:x}\n"));
                }
                for x in CapsPrefetcher::out_values(&p, &o) {
                    vout.push_str(&format!("{x:x}\n"));
                }
            }
            let dir = emit_to_dir(&p, tag);
            std::fs::write(dir.join("in.hex"), vin).unwrap();
            std::fs::write(dir.join("out.hex"), vout).unwrap();
            std::fs::write(dir.join("tb.v"), testbench(&p, cycles, nin)).unwrap();
            let c = std::process::Command::new("iverilog")
                .current_dir(&dir)
                .args([
                    "-g2005",
                    "-s",
                    "tb",
                    "-o",
                    "tb.vvp",
                    "tb.v",
                    "caps_prefetcher.v",
                ])
                .output()
                .unwrap();
            assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
            let r = std::process::Command::new("vvp")
                .current_dir(&dir)
                .args(["-n", "tb.vvp"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&r.stdout);
            assert!(text.contains("DONE errors=0"), "{tag}: {text}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    /// A test bench applying `in.hex` and checking against `out.hex`
    /// (cycle 0, before the first reset edge, is not checked).
    fn testbench(p: &CapsParams, cycles: usize, nin: usize) -> String {
        let ins = CapsPrefetcher::inputs(p);
        let outs = CapsPrefetcher::outputs(p);
        let nout = outs.len();
        let mut t = String::from("`timescale 1ns/1ps\nmodule tb;\n    reg clock;\n");
        for q in &ins {
            t.push_str(&format!("    reg [{}:0] {};\n", q.width - 1, q.name));
        }
        for q in &outs {
            t.push_str(&format!("    wire [{}:0] {};\n", q.width - 1, q.name));
        }
        t.push_str("    caps_prefetcher dut(.clock(clock)");
        for q in ins.iter().chain(outs.iter()) {
            t.push_str(&format!(", .{0}({0})", q.name));
        }
        t.push_str(");\n");
        t.push_str(&format!(
            "    reg [63:0] vin [0:{}];\n    reg [63:0] vout [0:{}];\n    integer c, errors;\n",
            nin * cycles - 1,
            nout * cycles - 1
        ));
        t.push_str("    initial begin\n        $readmemh(\"in.hex\", vin);\n        $readmemh(\"out.hex\", vout);\n        errors = 0;\n        clock = 0;\n");
        t.push_str(&format!(
            "        for (c = 0; c < {cycles}; c = c + 1) begin\n"
        ));
        for (k, q) in ins.iter().enumerate() {
            t.push_str(&format!("            {} = vin[c*{nin}+{k}];\n", q.name));
        }
        t.push_str("            #1;\n");
        for (k, q) in outs.iter().enumerate() {
            t.push_str(&format!(
                "            if (c > 0 && {0} !== vout[c*{nout}+{k}][{1}:0]) begin errors = errors + 1; if (errors < 10) $display(\"cycle %0d {0} %h want %h\", c, {0}, vout[c*{nout}+{k}]); end\n",
                q.name,
                q.width - 1
            ));
        }
        t.push_str("            clock = 1; #1; clock = 0; #1;\n        end\n");
        t.push_str("        $display(\"DONE errors=%0d\", errors);\n        $finish;\n    end\nendmodule\n");
        t
    }

    #[test]
    fn random_against_contract_model_small() {
        for (seed, m, jq, pq) in [(11, 1, 1, 1), (12, 2, 1, 2), (13, 4, 3, 1), (14, 3, 2, 5)] {
            let p = CapsParams {
                N_CTA: 2,
                PERCTA_ENTRIES: 1 + seed % 2,
                DIST_ENTRIES: 1 + (seed / 2) % 2,
                MAX_ADDRS: m,
                JOBQ_DEPTH: jq,
                PFQ_DEPTH: pq,
                MISPRED_THRESHOLD: 3,
                ..Default::default()
            };
            let pfs = compare_with_model(&p, seed, 3000);
            assert!(pfs > 50, "too few prefetches ({pfs})");
        }
    }
}
