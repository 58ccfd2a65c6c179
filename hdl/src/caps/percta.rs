//! The PerCTA table of one CTA slot ([`CapsCta`]).

use ports::caps::CapsParams;
use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{konst, regs, sigs};

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
