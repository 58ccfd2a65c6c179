//! One column of the PerCTA tables ([`CapsColumn`]): entry `e` of every
//! CTA slot.

use ports::caps::CapsParams;
use rust_hdl::prelude::*;

use crate::mem::{Mem, Mem2};
use crate::reg::Reg;
use crate::util::{konsts, Pack};

/// Entry `e` of every CTA slot's PerCTA table. `NS` = `2^C` slots.
///
/// State: the valid bits of the `NS` slots in one register (reset, and
/// cleared per slot by a CTA launch), and per slot `pc`, `lead`, `n`,
/// `base0..3` and the least-recently-updated `rank` in memories indexed by
/// the slot (no reset: every field is written when the entry becomes
/// valid, and every read is qualified by the valid bit).
///
/// - **Load port** (slot `l_slot`): `l_ev` (valid after this cycle's launch
///   clearing), `l_hit` (and its pc is `l_pc`), and the entry's fields.
/// - **Scan** (every slot, for the generator's job A): per slot `s`,
///   `g_hit[s]` (valid and pc `g_pc`) and `g_cand[s]` (also its leading
///   warp is not `g_warp`, and when `s = g_pos` the address index `g_k` is
///   below its `n`).
/// - **Generator port** (slot `g_slot`): `gs_lead`, `gs_n`, `gs_base0..3`.
/// - **Update** of entry (`w_slot`, `e`) at the edge (the load in the rules
///   stage, one cycle after its look-up): `wr` writes `w_pc`, `w_warp`
///   (the leading warp), `w_n` and the bases `w_a0..3`; `set_valid` /
///   `clr_valid` set or clear its valid bit, and then the launch clearing
///   of `clear_mask` applies (a launch comes after the load in the rules
///   stage); `rank_we` writes `w_rank`.
#[derive(LogicBlock)]
pub struct CapsColumn<
    const A: usize,
    const P: usize,
    const WI: usize,
    const C: usize,
    const CP: usize,
    const RP: usize,
    const NS: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (clears the valid bits).
    pub reset: Signal<In, Bit>,
    /// The launched slot's bit (zero when no CTA is launched).
    pub clear_mask: Signal<In, Bits<NS>>,
    /// The load's slot.
    pub l_slot: Signal<In, Bits<C>>,
    /// The load's slot, one-hot.
    pub l_onehot: Signal<In, Bits<NS>>,
    /// The load's slot is launched this cycle (its table reads as empty).
    pub l_cleared: Signal<In, Bit>,
    /// The load's pc.
    pub l_pc: Signal<In, Bits<P>>,
    /// The slot written.
    pub w_slot: Signal<In, Bits<C>>,
    /// The slot written, one-hot.
    pub w_onehot: Signal<In, Bits<NS>>,
    /// The pc written by `wr`.
    pub w_pc: Signal<In, Bits<P>>,
    /// The leading warp written by `wr`.
    pub w_warp: Signal<In, Bits<WI>>,
    /// The address count written by `wr`.
    pub w_n: Signal<In, Bits<3>>,
    /// Base 0 written by `wr`.
    pub w_a0: Signal<In, Bits<A>>,
    /// Base 1 written by `wr`.
    pub w_a1: Signal<In, Bits<A>>,
    /// Base 2 written by `wr`.
    pub w_a2: Signal<In, Bits<A>>,
    /// Base 3 written by `wr`.
    pub w_a3: Signal<In, Bits<A>>,
    /// Write the load into the entry.
    pub wr: Signal<In, Bit>,
    /// Set the entry's valid bit.
    pub set_valid: Signal<In, Bit>,
    /// Clear the entry's valid bit.
    pub clr_valid: Signal<In, Bit>,
    /// Write the entry's rank.
    pub rank_we: Signal<In, Bit>,
    /// The rank written.
    pub w_rank: Signal<In, Bits<RP>>,
    /// The generator's pc.
    pub g_pc: Signal<In, Bits<P>>,
    /// The generator's (job A) warp.
    pub g_warp: Signal<In, Bits<WI>>,
    /// The generator's slot cursor `pos` (job A).
    pub g_pos: Signal<In, Bits<CP>>,
    /// The generator's address index `k`.
    pub g_k: Signal<In, Bits<3>>,
    /// The slot the generator reads.
    pub g_slot: Signal<In, Bits<C>>,
    /// The entry is valid after the launch clearing.
    pub l_ev: Signal<Out, Bit>,
    /// ... and holds `l_pc`.
    pub l_hit: Signal<Out, Bit>,
    /// Its leading warp.
    pub l_lead: Signal<Out, Bits<WI>>,
    /// Its address count.
    pub l_cnt: Signal<Out, Bits<3>>,
    /// Its base 0.
    pub l_base0: Signal<Out, Bits<A>>,
    /// Its base 1.
    pub l_base1: Signal<Out, Bits<A>>,
    /// Its base 2.
    pub l_base2: Signal<Out, Bits<A>>,
    /// Its base 3.
    pub l_base3: Signal<Out, Bits<A>>,
    /// Its rank.
    pub l_rank: Signal<Out, Bits<RP>>,
    /// Bit `s`: slot `s`'s entry is valid with pc `g_pc`.
    pub g_hit: Signal<Out, Bits<NS>>,
    /// Bit `s`: slot `s`'s entry is a job-A candidate.
    pub g_cand: Signal<Out, Bits<NS>>,
    /// Slot `g_slot`'s leading warp.
    pub gs_lead: Signal<Out, Bits<WI>>,
    /// Its address count.
    pub gs_n: Signal<Out, Bits<3>>,
    /// Its base 0.
    pub gs_base0: Signal<Out, Bits<A>>,
    /// Its base 1.
    pub gs_base1: Signal<Out, Bits<A>>,
    /// Its base 2.
    pub gs_base2: Signal<Out, Bits<A>>,
    /// Its base 3.
    pub gs_base3: Signal<Out, Bits<A>>,

    valid: Reg<Bits<NS>>,
    pc: Mem<Bits<P>, C>,
    lead: Mem2<Bits<WI>, C>,
    cnt: Mem2<Bits<3>, C>,
    base0: Mem2<Bits<A>, C>,
    base1: Mem2<Bits<A>, C>,
    base2: Mem2<Bits<A>, C>,
    base3: Mem2<Bits<A>, C>,
    rank: Mem<Bits<RP>, C>,
    pack_hit: Pack<NS>,
    pack_cand: Pack<NS>,

    slot_cp: Vec<Constant<Bits<CP>>>,
    v_w: Signal<Local, Bits<NS>>,
    _ns: usize,
}

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const NS: usize,
    > CapsColumn<A, P, WI, C, CP, RP, NS>
{
    /// One column of `p.N_CTA` slots.
    pub fn new(p: &CapsParams) -> Self {
        let ns = p.N_CTA as usize;
        assert_eq!(NS, ns, "NS is N_CTA");
        assert_eq!(NS, 1 << C, "NS = 2^C");
        CapsColumn {
            clock: Default::default(),
            reset: Default::default(),
            clear_mask: Default::default(),
            l_slot: Default::default(),
            l_onehot: Default::default(),
            l_cleared: Default::default(),
            l_pc: Default::default(),
            w_slot: Default::default(),
            w_onehot: Default::default(),
            w_pc: Default::default(),
            w_warp: Default::default(),
            w_n: Default::default(),
            w_a0: Default::default(),
            w_a1: Default::default(),
            w_a2: Default::default(),
            w_a3: Default::default(),
            wr: Default::default(),
            set_valid: Default::default(),
            clr_valid: Default::default(),
            rank_we: Default::default(),
            w_rank: Default::default(),
            g_pc: Default::default(),
            g_warp: Default::default(),
            g_pos: Default::default(),
            g_k: Default::default(),
            g_slot: Default::default(),
            l_ev: Default::default(),
            l_hit: Default::default(),
            l_lead: Default::default(),
            l_cnt: Default::default(),
            l_base0: Default::default(),
            l_base1: Default::default(),
            l_base2: Default::default(),
            l_base3: Default::default(),
            l_rank: Default::default(),
            g_hit: Default::default(),
            g_cand: Default::default(),
            gs_lead: Default::default(),
            gs_n: Default::default(),
            gs_base0: Default::default(),
            gs_base1: Default::default(),
            gs_base2: Default::default(),
            gs_base3: Default::default(),
            valid: Default::default(),
            pc: Mem::with_taps(ns),
            lead: Mem2::with_taps(ns),
            cnt: Mem2::with_taps(ns),
            base0: Mem2::new(ns),
            base1: Mem2::new(ns),
            base2: Mem2::new(ns),
            base3: Mem2::new(ns),
            rank: Mem::new(ns),
            pack_hit: Pack::new(ns),
            pack_cand: Pack::new(ns),
            slot_cp: konsts(0..ns as u64),
            v_w: Default::default(),
            _ns: ns,
        }
    }
}

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const NS: usize,
    > Logic for CapsColumn<A, P, WI, C, CP, RP, NS>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.clock.next = self.clock.val();
        self.valid.reset.next = self.reset.val();
        self.pc.clock.next = self.clock.val();
        self.lead.clock.next = self.clock.val();
        self.cnt.clock.next = self.clock.val();
        self.base0.clock.next = self.clock.val();
        self.base1.clock.next = self.clock.val();
        self.base2.clock.next = self.clock.val();
        self.base3.clock.next = self.clock.val();
        self.rank.clock.next = self.clock.val();

        // Load port: slot l_slot.
        self.pc.r_addr.next = self.l_slot.val();
        self.lead.r_addr.next = self.l_slot.val();
        self.cnt.r_addr.next = self.l_slot.val();
        self.base0.r_addr.next = self.l_slot.val();
        self.base1.r_addr.next = self.l_slot.val();
        self.base2.r_addr.next = self.l_slot.val();
        self.base3.r_addr.next = self.l_slot.val();
        self.rank.r_addr.next = self.l_slot.val();
        self.l_ev.next = (self.valid.q.val() & self.l_onehot.val()).any() & !self.l_cleared.val();
        self.l_hit.next = (self.valid.q.val() & self.l_onehot.val()).any()
            & !self.l_cleared.val()
            & (self.pc.r_data.val() == self.l_pc.val());
        self.l_lead.next = self.lead.r_data.val();
        self.l_cnt.next = self.cnt.r_data.val();
        self.l_base0.next = self.base0.r_data.val();
        self.l_base1.next = self.base1.r_data.val();
        self.l_base2.next = self.base2.r_data.val();
        self.l_base3.next = self.base3.r_data.val();
        self.l_rank.next = self.rank.r_data.val();

        // Scan: every slot, for job A.
        for s in 0..self._ns {
            self.pack_hit.bits[s].next =
                self.valid.q.val().get_bit(s) & (self.pc.taps[s].val() == self.g_pc.val());
            self.pack_cand.bits[s].next = self.valid.q.val().get_bit(s)
                & (self.pc.taps[s].val() == self.g_pc.val())
                & (self.lead.taps[s].val() != self.g_warp.val())
                & ((self.g_pos.val() != self.slot_cp[s].val())
                    | (self.g_k.val() < self.cnt.taps[s].val()));
        }

        self.g_hit.next = self.pack_hit.word.val();
        self.g_cand.next = self.pack_cand.word.val();

        // Generator port: slot g_slot.
        self.lead.r2_addr.next = self.g_slot.val();
        self.cnt.r2_addr.next = self.g_slot.val();
        self.base0.r2_addr.next = self.g_slot.val();
        self.base1.r2_addr.next = self.g_slot.val();
        self.base2.r2_addr.next = self.g_slot.val();
        self.base3.r2_addr.next = self.g_slot.val();
        self.gs_lead.next = self.lead.r2_data.val();
        self.gs_n.next = self.cnt.r2_data.val();
        self.gs_base0.next = self.base0.r2_data.val();
        self.gs_base1.next = self.base1.r2_data.val();
        self.gs_base2.next = self.base2.r2_data.val();
        self.gs_base3.next = self.base3.r2_data.val();

        // Update of entry (w_slot, e).
        self.pc.w_en.next = self.wr.val();
        self.lead.w_en.next = self.wr.val();
        self.cnt.w_en.next = self.wr.val();
        self.base0.w_en.next = self.wr.val();
        self.base1.w_en.next = self.wr.val();
        self.base2.w_en.next = self.wr.val();
        self.base3.w_en.next = self.wr.val();
        self.rank.w_en.next = self.rank_we.val();
        self.pc.w_addr.next = self.w_slot.val();
        self.lead.w_addr.next = self.w_slot.val();
        self.cnt.w_addr.next = self.w_slot.val();
        self.base0.w_addr.next = self.w_slot.val();
        self.base1.w_addr.next = self.w_slot.val();
        self.base2.w_addr.next = self.w_slot.val();
        self.base3.w_addr.next = self.w_slot.val();
        self.rank.w_addr.next = self.w_slot.val();
        self.pc.w_data.next = self.w_pc.val();
        self.lead.w_data.next = self.w_warp.val();
        self.cnt.w_data.next = self.w_n.val();
        self.base0.w_data.next = self.w_a0.val();
        self.base1.w_data.next = self.w_a1.val();
        self.base2.w_data.next = self.w_a2.val();
        self.base3.w_data.next = self.w_a3.val();
        self.rank.w_data.next = self.w_rank.val();
        // Valid bits: the load's entry, then the launch clearing (through
        // a local: `valid.d` read back after its assignment would show
        // rust-hdl's simulator the previous pass's value).
        if self.set_valid.val() {
            self.v_w.next = self.valid.q.val() | self.w_onehot.val();
        } else if self.clr_valid.val() {
            self.v_w.next = self.valid.q.val() & !self.w_onehot.val();
        } else {
            self.v_w.next = self.valid.q.val();
        }
        self.valid.d.next = self.v_w.val() & !self.clear_mask.val();
    }
}
