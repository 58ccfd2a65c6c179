//! The DIST table ([`CapsDist`]).

use ports::caps::CapsParams;
use rust_hdl::prelude::*;

use super::fastarith::SelOr;
use crate::rank::RankOrder;
use crate::reg::Reg;
use crate::util::{konst, regs, sigs};

/// The DIST table, shared by all CTAs.
///
/// Look-up `lh_*` by the load's pc and `gh_*` by the generator's pc, both on
/// the registered state. `alloc` writes a new entry (lowest invalid, else
/// least recently allocated: a [`RankOrder`] with allocation as the only
/// update) with `cnt = 0`; `inc` increments the `lh` entry's counter,
/// saturating at `2^CW - 1`.
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
    /// Count a correct verification for the `lh` entry (`CNT_DECAY`):
    /// its counter decrements, saturating at 0.
    pub dec: Signal<In, Bit>,
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
    order: RankOrder<RD>,
    sel_ls: SelOr<A>,
    sel_lc: SelOr<CW>,
    sel_ll: SelOr<C>,
    sel_gs: SelOr<A>,

    cnt_zero: Constant<Bits<CW>>,
    cnt_one: Constant<Bits<CW>>,
    cnt_max: Constant<Bits<CW>>,

    lhit: Vec<Signal<Local, Bit>>,
    ghit: Vec<Signal<Local, Bit>>,

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
            alloc: Default::default(),
            a_stride: Default::default(),
            a_lead_cta: Default::default(),
            inc: Default::default(),
            dec: Default::default(),
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
            order: RankOrder::new(nd),
            sel_ls: SelOr::new(nd),
            sel_lc: SelOr::new(nd),
            sel_ll: SelOr::new(nd),
            sel_gs: SelOr::new(nd),
            cnt_zero: konst(0),
            cnt_one: konst(1),
            cnt_max: konst(ports::mask(CW as u32)),
            lhit: sigs(nd),
            ghit: sigs(nd),
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
        self.order.alloc.next = self.alloc.val();
        self.order.touch.next = false;
        self.order.inval.next = false;
        for e in 0..self._nd {
            self.lhit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.l_pc.val());
            self.ghit[e].next = self.valid[e].q.val() & (self.pc[e].q.val() == self.g_pc.val());
            self.order.valid[e].next = self.valid[e].q.val();
            self.order.hit[e].next = false;
            self.order.rank[e].next = self.rank[e].q.val();
        }
        // The look-ups: one-hot (a pc is held by at most one valid entry),
        // selected by AND-OR.
        self.lh_hit.next = false;
        self.gh_hit.next = false;
        for e in 0..self._nd {
            if self.lhit[e].val() {
                self.lh_hit.next = true;
            }
            if self.ghit[e].val() {
                self.gh_hit.next = true;
            }
            self.sel_ls.hit[e].next = self.lhit[e].val();
            self.sel_ls.v[e].next = self.stride[e].q.val();
            self.sel_lc.hit[e].next = self.lhit[e].val();
            self.sel_lc.v[e].next = self.cnt[e].q.val();
            self.sel_ll.hit[e].next = self.lhit[e].val();
            self.sel_ll.v[e].next = self.lead_cta[e].q.val();
            self.sel_gs.hit[e].next = self.ghit[e].val();
            self.sel_gs.v[e].next = self.stride[e].q.val();
        }
        self.lh_stride.next = self.sel_ls.o.val();
        self.lh_cnt.next = self.sel_lc.o.val();
        self.lh_lead_cta.next = self.sel_ll.o.val();
        self.gh_stride.next = self.sel_gs.o.val();
        for e in 0..self._nd {
            if self.alloc.val() {
                self.rank[e].d.next = self.order.new_rank[e].val();
                if self.order.tgt[e].val() {
                    self.valid[e].d.next = true;
                    self.pc[e].d.next = self.l_pc.val();
                    self.stride[e].d.next = self.a_stride.val();
                    self.cnt[e].d.next = self.cnt_zero.val();
                    self.lead_cta[e].d.next = self.a_lead_cta.val();
                }
            }
            if self.inc.val() & self.lhit[e].val() & (self.cnt[e].q.val() != self.cnt_max.val()) {
                self.cnt[e].d.next = self.cnt[e].q.val() + self.cnt_one.val();
            }
            if self.dec.val() & self.lhit[e].val() & (self.cnt[e].q.val() != self.cnt_zero.val()) {
                self.cnt[e].d.next = self.cnt[e].q.val() - self.cnt_one.val();
            }
        }
    }
}
