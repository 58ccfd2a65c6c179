//! The DIST table ([`CapsDist`]).

use ports::caps::CapsParams;
use rust_hdl::prelude::*;

use super::fastarith::SelOr;
use crate::rank::RankOrder;
use crate::reg::Reg;
use crate::util::{konst, regs, sigs};

/// The DIST table, shared by all CTAs, with one port per load stage.
///
/// - **Look-up** (the load's first stage): `l_hit[d]`, entry `d` is valid
///   with pc `l_pc`, on the registered state.
/// - **Rules stage**: `b_stride` and `b_neg`, the stride of the entry
///   `b_hit` selects (one-hot or zero); `alloc` writes a new entry for `a_pc` (lowest
///   invalid, else least recently allocated: a [`RankOrder`] with
///   allocation as the only update) with `cnt = 0`; `a_tgt` is the entry
///   it takes.
/// - **Rules stage, rule 3's trigger**: `b_lead`, the entry `b_hit`
///   selects was trained by CTA slot `b_cta` and no CTA has been launched
///   into that slot since (`live`): the load's CTA is its leading CTA.
/// - **CTA launch** (`launch`, `launch_slot`): ends the leading-CTA right
///   (`live`) of every entry trained in the launched slot, after this
///   edge's allocation (an entry allocated at the launch's edge for the
///   launched slot starts without it: the load came from the CTA the
///   launch replaces).
/// - **Verify and job stages**: `c_cnt` of the entry `c_hit` selects (read
///   in the verify stage); `u_hit` is the entry the job stage updates;
///   `inc` increments its counter, saturating at `2^CW - 1`, `dec`
///   decrements it, saturating at 0. An allocation of the same entry at
///   the same edge wins (it comes from a later load).
/// - **Generator**: `gh_hit`, `gh_stride` and `gh_neg` for pc `g_pc`.
///
/// A stride is kept as its magnitude (`stride`) and its sign (`neg`, the
/// stride is `-stride` mod 2^A): rule 4's quotient comes unnegated from
/// the look-up (issue 29), and its users fold the sign into the warp
/// distance (`d * -m = (-d) * m`).
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
    /// Look-up pc.
    pub l_pc: Signal<In, Bits<P>>,
    /// Per entry: valid with pc `l_pc`.
    pub l_hit: Vec<Signal<Out, Bit>>,
    /// The rules stage's entry (one-hot or zero).
    pub b_hit: Vec<Signal<In, Bit>>,
    /// Its stride's magnitude.
    pub b_stride: Signal<Out, Bits<A>>,
    /// Its stride's sign (negative).
    pub b_neg: Signal<Out, Bit>,
    /// Allocate an entry for `a_pc`.
    pub alloc: Signal<In, Bit>,
    /// Pc of the new entry.
    pub a_pc: Signal<In, Bits<P>>,
    /// Stride of the new entry (magnitude).
    pub a_stride: Signal<In, Bits<A>>,
    /// Its sign (negative).
    pub a_neg: Signal<In, Bit>,
    /// Training CTA slot of the new entry.
    pub a_lead_cta: Signal<In, Bits<C>>,
    /// Per entry: the one an allocation takes.
    pub a_tgt: Vec<Signal<Out, Bit>>,
    /// The job stage's entry (one-hot or zero).
    pub c_hit: Vec<Signal<In, Bit>>,
    /// Its misprediction counter.
    pub c_cnt: Signal<Out, Bits<CW>>,
    /// The rules stage's CTA slot.
    pub b_cta: Signal<In, Bits<C>>,
    /// The `b_hit` entry's leading CTA is the live CTA in slot `b_cta`.
    pub b_lead: Signal<Out, Bit>,
    /// A CTA is launched at this edge.
    pub launch: Signal<In, Bit>,
    /// Its slot.
    pub launch_slot: Signal<In, Bits<C>>,
    /// Per entry: the one `inc` and `dec` update (the job stage's, one
    /// stage after the `c_hit` read, issue 29).
    pub u_hit: Vec<Signal<In, Bit>>,
    /// Count a misprediction for the `u_hit` entry.
    pub inc: Signal<In, Bit>,
    /// Count a correct verification for the `c_hit` entry (`CNT_DECAY`):
    /// its counter decrements, saturating at 0.
    pub dec: Signal<In, Bit>,
    /// Generator pc.
    pub g_pc: Signal<In, Bits<P>>,
    /// The generator's pc has an entry.
    pub gh_hit: Signal<Out, Bit>,
    /// Its stride's magnitude.
    pub gh_stride: Signal<Out, Bits<A>>,
    /// Its stride's sign (negative).
    pub gh_neg: Signal<Out, Bit>,

    valid: Vec<Reg<Bit>>,
    pc: Vec<Reg<Bits<P>>>,
    stride: Vec<Reg<Bits<A>>>,
    neg: Vec<Reg<Bit>>,
    cnt: Vec<Reg<Bits<CW>>>,
    lead_cta: Vec<Reg<Bits<C>>>,
    live: Vec<Reg<Bit>>,
    rank: Vec<Reg<Bits<RD>>>,
    order: RankOrder<RD>,
    sel_bs: SelOr<A>,
    sel_cc: SelOr<CW>,
    sel_gs: SelOr<A>,

    cnt_zero: Constant<Bits<CW>>,
    cnt_one: Constant<Bits<CW>>,
    cnt_max: Constant<Bits<CW>>,

    ghit: Vec<Signal<Local, Bit>>,
    lmatch: Vec<Signal<Local, Bit>>,

    _nd: usize,
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
            l_hit: (0..nd).map(|_| Signal::default()).collect(),
            b_hit: (0..nd).map(|_| Signal::default()).collect(),
            b_stride: Default::default(),
            b_neg: Default::default(),
            alloc: Default::default(),
            a_pc: Default::default(),
            a_stride: Default::default(),
            a_neg: Default::default(),
            a_lead_cta: Default::default(),
            a_tgt: (0..nd).map(|_| Signal::default()).collect(),
            c_hit: (0..nd).map(|_| Signal::default()).collect(),
            u_hit: (0..nd).map(|_| Signal::default()).collect(),
            c_cnt: Default::default(),
            b_cta: Default::default(),
            b_lead: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            inc: Default::default(),
            dec: Default::default(),
            g_pc: Default::default(),
            gh_hit: Default::default(),
            gh_stride: Default::default(),
            gh_neg: Default::default(),
            valid: regs(nd),
            pc: regs(nd),
            stride: regs(nd),
            neg: regs(nd),
            cnt: regs(nd),
            lead_cta: regs(nd),
            live: regs(nd),
            rank: regs(nd),
            order: RankOrder::new(nd),
            sel_bs: SelOr::new(nd),
            sel_cc: SelOr::new(nd),
            sel_gs: SelOr::new(nd),
            cnt_zero: konst(0),
            cnt_one: konst(1),
            cnt_max: konst(ports::mask(CW as u32)),
            ghit: sigs(nd),
            lmatch: sigs(nd),
            _nd: nd,
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
            self.neg[e].clock.next = self.clock.val();
            self.neg[e].reset.next = self.reset.val();
            self.neg[e].d.next = self.neg[e].q.val();
            self.cnt[e].clock.next = self.clock.val();
            self.cnt[e].reset.next = self.reset.val();
            self.cnt[e].d.next = self.cnt[e].q.val();
            self.lead_cta[e].clock.next = self.clock.val();
            self.lead_cta[e].reset.next = self.reset.val();
            self.lead_cta[e].d.next = self.lead_cta[e].q.val();
            self.live[e].clock.next = self.clock.val();
            self.live[e].reset.next = self.reset.val();
            self.live[e].d.next = self.live[e].q.val();
            self.rank[e].clock.next = self.clock.val();
            self.rank[e].reset.next = self.reset.val();
            self.rank[e].d.next = self.rank[e].q.val();
        }
        self.order.alloc.next = self.alloc.val();
        self.order.touch.next = false;
        self.order.inval.next = false;
        for e in 0..self._nd {
            self.l_hit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.l_pc.val());
            self.ghit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.g_pc.val());
            self.order.valid[e].next = self.valid[e].q.val();
            self.order.hit[e].next = false;
            self.order.rank[e].next = self.rank[e].q.val();
            self.a_tgt[e].next = self.order.tgt[e].val();
        }
        // The selections: one-hot (a pc is held by at most one valid
        // entry), by AND-OR.
        self.gh_hit.next = false;
        self.gh_neg.next = false;
        self.b_neg.next = false;
        self.b_lead.next = false;
        for e in 0..self._nd {
            // Rule 3's trigger: from registers and `b_cta` only, then the
            // entry's hit.
            self.lmatch[e].next =
                self.live[e].q.val() & (self.lead_cta[e].q.val() == self.b_cta.val());
            if self.b_hit[e].val() & self.lmatch[e].val() {
                self.b_lead.next = true;
            }
            if self.ghit[e].val() {
                self.gh_hit.next = true;
            }
            if self.ghit[e].val() & self.neg[e].q.val() {
                self.gh_neg.next = true;
            }
            if self.b_hit[e].val() & self.neg[e].q.val() {
                self.b_neg.next = true;
            }
            self.sel_bs.hit[e].next = self.b_hit[e].val();
            self.sel_bs.v[e].next = self.stride[e].q.val();
            self.sel_cc.hit[e].next = self.c_hit[e].val();
            self.sel_cc.v[e].next = self.cnt[e].q.val();
            self.sel_gs.hit[e].next = self.ghit[e].val();
            self.sel_gs.v[e].next = self.stride[e].q.val();
        }
        self.b_stride.next = self.sel_bs.o.val();
        self.c_cnt.next = self.sel_cc.o.val();
        self.gh_stride.next = self.sel_gs.o.val();
        for e in 0..self._nd {
            if self.inc.val() & self.u_hit[e].val() & (self.cnt[e].q.val() != self.cnt_max.val()) {
                self.cnt[e].d.next = self.cnt[e].q.val() + self.cnt_one.val();
            }
            if self.dec.val() & self.u_hit[e].val() & (self.cnt[e].q.val() != self.cnt_zero.val()) {
                self.cnt[e].d.next = self.cnt[e].q.val() - self.cnt_one.val();
            }
            if self.launch.val() & (self.lead_cta[e].q.val() == self.launch_slot.val()) {
                self.live[e].d.next = false;
            }
            if self.alloc.val() {
                self.rank[e].d.next = self.order.new_rank[e].val();
                if self.order.tgt[e].val() {
                    self.valid[e].d.next = true;
                    self.pc[e].d.next = self.a_pc.val();
                    self.stride[e].d.next = self.a_stride.val();
                    self.neg[e].d.next = self.a_neg.val();
                    self.cnt[e].d.next = self.cnt_zero.val();
                    self.lead_cta[e].d.next = self.a_lead_cta.val();
                    self.live[e].d.next =
                        !(self.launch.val() & (self.a_lead_cta.val() == self.launch_slot.val()));
                }
            }
        }
    }
}
