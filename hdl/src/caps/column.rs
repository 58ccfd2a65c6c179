//! One column of the PerCTA tables ([`CapsColumn`]): entry `e` of every
//! CTA slot.

use ports::caps::CapsParams;
use rust_hdl::prelude::*;

use super::fastarith::{ExactDivOh, SelOr, SumNe};
use super::memtaps::MemTaps;
use crate::arith::PrefixAdd;
use crate::mem::Mem;
use crate::reg::Reg;
use crate::util::{konst, konsts, Pack, ZeroExt};

/// Kernel section: the ports and the scan.
struct ColMain;
/// Kernel section: the load's look-up values.
struct ColLook;
/// The column's generator read stage.
struct ColRead;
/// Kernel section: the generator port (slot `g_sel`'s values, job B's
/// entry) and the entry's update.
struct ColGen;

/// Entry `e` of every CTA slot's PerCTA table. `NS` = `2^C` slots.
///
/// State: the valid bits of the `NS` slots in one register (reset, and
/// cleared per slot by a CTA launch), and per slot `pc`, `lead`, `n`,
/// `base0..3` and the least-recently-updated `rank` in memories indexed by
/// the slot (no reset: every field is written when the entry becomes
/// valid, and every read is qualified by the valid bit).
///
/// - **Load port** (slot `l_slot`): `l_ev` (valid after this cycle's launch
///   clearing), `l_hit` (and its pc is `l_pc`), `l_rank`, and the look-up values below.
/// - **Scan** (every slot, for the generator's job A): per slot `s`,
///   "valid with the job's pc" (internal) and `g_cand[s]` (also its leading
///   warp is not the job's warp, and when `s = g_pos` the address index
///   `g_k` is below its `n`). The pc and leading-warp compares are
///   registered, computed at each edge for the values after it (the queue
///   head's `h_pc`, `h_warp` when `g_take`, else the current job's kept;
///   the entry written).
/// - **Look-up values** (issue 29): the rules' values for this column's
///   entry at slot `l_slot` (warp distance, `a[k] - base[k]`, rule 4's
///   division), computed beside the pc compare.
/// - **Generator port** (the one-hot slot `g_sel`, issue 29): when the
///   entry there is valid with the job's pc, its `gs_lead` and
///   `gs_base`, its base `k*` (`k* = g_k` for job B (`g_kind`) or at
///   `g_pos`, else 0; picked per slot before the read), zero otherwise,
///   as an AND-OR of the taps; and per slot `g_more[s]`: the entry is valid with the job's pc
///   and, were job A to prefetch from it now, another address would follow
///   (`k* + 1 < n`, with `k* = g_k` at `g_pos`, else 0).
/// - **Job B's port** (the one-hot slot `gb_sel`, the job's CTA): `gb_hit`,
///   and the cursor's tests on the entry there (`gb_eq`: its leading warp is
///   `gb_pos`; `gb_kin`, `gb_kin1`: `g_k`, `g_k + 1` below its count),
///   each compared per slot from registers and then selected (session
///   46), so that job B's cursor waits neither for job A's slot choice nor
///   for a read of the entry's values.
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
    const WD: usize,
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
    /// The load's warp.
    pub l_warp: Signal<In, Bits<WI>>,
    /// The load's address count (`ld_count`'s low 3 bits).
    pub l_n3: Signal<In, Bits<3>>,
    /// The load's address 0.
    pub l_a0: Signal<In, Bits<A>>,
    /// Lane 1 is below the load's count.
    pub l_in1: Signal<In, Bit>,
    /// Lane 2 is below the load's count.
    pub l_in2: Signal<In, Bit>,
    /// Lane 3 is below the load's count.
    pub l_in3: Signal<In, Bit>,
    /// `a1 + !a0` (the load's `a1 - a0 - 1`).
    pub l_u1: Signal<In, Bits<A>>,
    /// `a2 + !a0`.
    pub l_u2: Signal<In, Bits<A>>,
    /// `a3 + !a0`.
    pub l_u3: Signal<In, Bits<A>>,
    /// The generator takes the job at the head of the job queue at this
    /// edge (session 49: the registered compares are computed for both the
    /// current job and the queue's head, and this selects between them at
    /// the end).
    pub g_take: Signal<In, Bit>,
    /// The current job's pc.
    pub g_pc: Signal<In, Bits<P>>,
    /// The current job's warp.
    pub g_warp: Signal<In, Bits<WI>>,
    /// The job queue head's pc.
    pub h_pc: Signal<In, Bits<P>>,
    /// The job queue head's warp.
    pub h_warp: Signal<In, Bits<WI>>,
    /// The job queue head's slot (its CTA), one-hot.
    pub h_sel: Signal<In, Bits<NS>>,
    /// The generator's slot cursor `pos` (job A).
    pub g_pos: Signal<In, Bits<CP>>,
    /// The generator's address index `k`.
    pub g_k: Signal<In, Bits<3>>,
    /// The job is a job B (`k* = g_k` at every slot).
    pub g_kind: Signal<In, Bit>,
    /// The slot the generator reads, one-hot (or zero).
    pub g_sel: Signal<In, Bits<NS>>,
    /// Job B's slot, one-hot.
    pub gb_sel: Signal<In, Bits<NS>>,
    /// Job B's warp cursor `pos`, its low `WI` bits (the top compares the
    /// rest with zero).
    pub gb_pos: Signal<In, Bits<WI>>,
    /// The entry is valid after the launch clearing.
    pub l_ev: Signal<Out, Bit>,
    /// ... and holds `l_pc`.
    pub l_hit: Signal<Out, Bit>,
    /// Its rank.
    pub l_rank: Signal<Out, Bits<RP>>,
    /// The load's warp distance to the entry's leading warp, `l_warp -
    /// lead` (`WD` bits, signed).
    pub l_delta: Signal<Out, Bits<WD>>,
    /// Base 0 of the entry (used only when the entry hits; the top
    /// subtracts it from `a0` a stage later, issue 29).
    pub l_b0: Signal<Out, Bits<A>>,
    /// Base 1 (zero also when lane 1 is beyond the load's count).
    pub l_b1: Signal<Out, Bits<A>>,
    /// Base 2 (likewise).
    pub l_b2: Signal<Out, Bits<A>>,
    /// Base 3 (likewise).
    pub l_b3: Signal<Out, Bits<A>>,
    /// The load's warp is the entry's leading warp.
    pub l_wl: Signal<Out, Bit>,
    /// The load's count is the entry's.
    pub l_ns: Signal<Out, Bit>,
    /// Every difference `a[k] - base[k]` below the load's count equals
    /// `a0 - base0`.
    pub l_eq: Signal<Out, Bit>,
    /// `a0 != base0`.
    pub l_nz: Signal<Out, Bit>,
    /// Rule 4: `|l_delta|` is a power of two.
    pub l_pow2: Signal<Out, Bit>,
    /// Rule 4: `a0 - base0` is divisible by it.
    pub l_div: Signal<Out, Bit>,
    /// `a0 - base0` (rule 4's quotient is taken from it a stage later).
    pub l_diff0: Signal<Out, Bits<A>>,
    /// Bit `s`: slot `s`'s entry is a job-A candidate.
    pub g_cand: Signal<Out, Bits<NS>>,
    /// Bit `s`: slot `s`'s entry is valid with the job's pc and job A,
    /// prefetching from it now, would stay at it (`k* + 1 < n`).
    pub g_more: Signal<Out, Bits<NS>>,
    /// Slot `gb_sel`'s entry is valid with the job's pc.
    pub gb_hit: Signal<Out, Bit>,
    /// ... and its leading warp's low bits are `gb_pos` (session 46: the
    /// compare per slot from registers, beside the hit, instead of after
    /// the read).
    pub gb_eq: Signal<Out, Bit>,
    /// ... and `g_k` is below its address count.
    pub gb_kin: Signal<Out, Bit>,
    /// ... and `g_k + 1` (3 bits) is below its address count.
    pub gb_kin1: Signal<Out, Bit>,
    /// The generator's read stage: the slot the selection chose at the
    /// last edge, one-hot (or zero).
    pub r_oh: Signal<In, Bits<NS>>,
    /// The read stage's base index `k*`, one-hot (bit `j`: base `j`).
    pub r_ks: Signal<In, Bits<4>>,
    /// Slot `r_oh`'s leading warp, as the selection saw it (zero unless
    /// the entry there was valid with the job's pc at the selection).
    pub q_lead: Signal<Out, Bits<WI>>,
    /// Its base `k*`, as the selection saw it.
    pub q_base: Signal<Out, Bits<A>>,

    valid: Reg<Bits<NS>>,
    pc: MemTaps<Bits<P>, C>,
    lead: MemTaps<Bits<WI>, C>,
    cnt: MemTaps<Bits<3>, C>,
    base0: MemTaps<Bits<A>, C>,
    base1: MemTaps<Bits<A>, C>,
    base2: MemTaps<Bits<A>, C>,
    base3: MemTaps<Bits<A>, C>,
    rank: Mem<Bits<RP>, C>,
    // The load port (issue 29): slot `l_slot`'s fields as a one-hot AND-OR
    // of the taps. The pc is selected by `l_q` = the load's slot and this
    // column's valid bits (the hit); the other fields (lead, count, bases)
    // by the load's slot alone (session 48: the valid bits left the
    // look-up values' paths; every use of those values is qualified by
    // the column's hit, so an invalid entry's values are never used).
    l_q: Signal<Local, Bits<NS>>,
    // Bases 1..3 are read with the load's slot gated by "lane k is below
    // the load's count" (issue 29: a lane beyond it is never used, and the
    // gated select lines split the slot's fan-out).
    l_q1: Signal<Local, Bits<NS>>,
    l_q2: Signal<Local, Bits<NS>>,
    l_q3: Signal<Local, Bits<NS>>,
    ns_zero: Constant<Bits<NS>>,
    r_pc: SelOr<P>,
    r_lead: SelOr<WI>,
    r_cnt: SelOr<3>,
    r_b0: SelOr<A>,
    r_b1: SelOr<A>,
    r_b2: SelOr<A>,
    r_b3: SelOr<A>,
    // `a[k] - base[k]` as `a[k] + !base[k] + 1` with a prefix carry.
    sub: PrefixAdd<A>,
    // `a0 - base0`, for rule 4's division.
    l_d0: Signal<Local, Bits<A>>,
    // "All differences equal" (issue 29): `a[k] - base[k] == a0 - base0`
    // iff `a[k] + !a0 == base[k] + !base0`, compared without a carry chain.
    eqk: Vec<SumNe<A>>,
    pack_hit: Pack<NS>,
    // The generator port (issue 29): slot `g_sel`'s fields as an AND-OR of
    // the taps selected by `g_q` = `g_sel` and the hit word.
    g_q: Signal<Local, Bits<NS>>,
    // Per slot: the generator reads base `g_k` there (else base 0).
    g_at: Vec<Signal<Local, Bit>>,
    g_pick: Vec<Signal<Local, Bits<A>>>,
    r_hit: Reg<Bit>,
    sv_base: Reg<Bits<A>>,
    sv_lead: Reg<Bits<WI>>,
    sv_wr: Reg<Bit>,
    sv_oh: Reg<Bits<NS>>,
    sv_bk: SelOr<A>,
    sv_ld: SelOr<WI>,
    rd_bk: SelOr<A>,
    rd_ld: SelOr<WI>,
    rd_q: Signal<Local, Bits<NS>>,
    rd_cf: Signal<Local, Bit>,
    k2: Constant<Bits<3>>,
    k3: Constant<Bits<3>>,
    pack_more: Pack<NS>,
    // Job B's entry (slot `gb_sel`), registered (session 47): its pc is
    // the job's pc (`jb_pc`), its leading warp and count, computed at each
    // edge for the values after it (the job's slot and pc after the edge,
    // the entry written), like `gm_pc`; its valid bit is applied after.
    jb_pc: Reg<Bit>,
    jb_lead: Reg<Bits<WI>>,
    jb_n: Reg<Bits<3>>,
    jb_ld: SelOr<WI>,
    jb_nn: SelOr<3>,
    jb_w_h: Signal<Local, Bit>,
    jb_w_c: Signal<Local, Bit>,
    jb_v: Signal<Local, Bit>,
    // The base `k*` choices as bit masks (session 47: an AND-OR of the
    // four bases per slot instead of a chain of multiplexers).
    gkm: Vec<Signal<Local, Bits<A>>>,
    rkm: Vec<Signal<Local, Bits<A>>>,
    a_ones: Constant<Bits<A>>,
    a_zero: Constant<Bits<A>>,
    g_k1: Signal<Local, Bits<3>>,
    k_one: Constant<Bits<3>>,
    pack_cand: Pack<NS>,
    // The generator's scan, registered: bit `s` = slot `s`'s pc equals the
    // job's pc (`gm_pc`), its leading warp is not the job's warp
    // (`gm_lead`), computed at each edge from the values after it (the
    // entry written, the job taken), so that they always hold for the
    // current registers; the valid bits are applied after them.
    gm_pc: Reg<Bits<NS>>,
    gm_lead: Reg<Bits<NS>>,
    // Session 49: the compares after the edge for either job, the queue
    // head's (`_h`, compared with the taps) and the current one's (`_c`,
    // the registers kept or the entry written), chosen by `g_take` last.
    pack_mpc_h: Pack<NS>,
    pack_mpc_c: Pack<NS>,
    pack_mlead_h: Pack<NS>,
    pack_mlead_c: Pack<NS>,
    w_pceq_h: Signal<Local, Bit>,
    w_pceq_c: Signal<Local, Bit>,
    w_leadne_h: Signal<Local, Bit>,
    w_leadne_c: Signal<Local, Bit>,
    rdiv: ExactDivOh<WD, A>,
    zx_w: ZeroExt<WI, WD>,
    zx_lead: ZeroExt<WI, WD>,

    slot_cp: Vec<Constant<Bits<CP>>>,
    v_w: Signal<Local, Bits<NS>>,
    _ns: usize,
}

impl<
        const A: usize,
        const P: usize,
        const WI: usize,
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const NS: usize,
    > CapsColumn<A, P, WI, WD, C, CP, RP, NS>
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
            l_warp: Default::default(),
            l_n3: Default::default(),
            l_a0: Default::default(),
            l_in1: Default::default(),
            l_in2: Default::default(),
            l_in3: Default::default(),
            l_u1: Default::default(),
            l_u2: Default::default(),
            l_u3: Default::default(),
            g_take: Default::default(),
            g_pc: Default::default(),
            g_warp: Default::default(),
            h_pc: Default::default(),
            h_warp: Default::default(),
            h_sel: Default::default(),
            g_pos: Default::default(),
            g_k: Default::default(),
            g_kind: Default::default(),
            g_sel: Default::default(),
            gb_sel: Default::default(),
            gb_pos: Default::default(),
            l_ev: Default::default(),
            l_hit: Default::default(),
            l_rank: Default::default(),
            l_delta: Default::default(),
            l_b0: Default::default(),
            l_b1: Default::default(),
            l_b2: Default::default(),
            l_b3: Default::default(),
            l_d0: Default::default(),
            l_wl: Default::default(),
            l_ns: Default::default(),
            l_eq: Default::default(),
            l_nz: Default::default(),
            l_pow2: Default::default(),
            l_div: Default::default(),
            l_diff0: Default::default(),
            g_cand: Default::default(),
            g_more: Default::default(),
            gb_hit: Default::default(),
            gb_eq: Default::default(),
            gb_kin: Default::default(),
            gb_kin1: Default::default(),
            r_oh: Default::default(),
            r_ks: Default::default(),
            q_lead: Default::default(),
            q_base: Default::default(),
            valid: Default::default(),
            pc: MemTaps::new(ns),
            lead: MemTaps::new(ns),
            cnt: MemTaps::new(ns),
            base0: MemTaps::new(ns),
            base1: MemTaps::new(ns),
            base2: MemTaps::new(ns),
            base3: MemTaps::new(ns),
            rank: Mem::new(ns),
            l_q: Default::default(),
            l_q1: Default::default(),
            l_q2: Default::default(),
            l_q3: Default::default(),
            ns_zero: konst(0),
            r_pc: SelOr::new(ns),
            r_lead: SelOr::new(ns),
            r_cnt: SelOr::new(ns),
            r_b0: SelOr::new(ns),
            r_b1: SelOr::new(ns),
            r_b2: SelOr::new(ns),
            r_b3: SelOr::new(ns),
            sub: PrefixAdd::default(),
            eqk: (0..3).map(|_| SumNe::default()).collect(),
            pack_hit: Pack::new(ns),
            g_q: Default::default(),
            g_at: (0..ns).map(|_| Default::default()).collect(),
            g_pick: (0..ns).map(|_| Default::default()).collect(),
            r_hit: Default::default(),
            sv_base: Default::default(),
            sv_lead: Default::default(),
            sv_wr: Default::default(),
            sv_oh: Default::default(),
            sv_bk: SelOr::new(ns),
            sv_ld: SelOr::new(ns),
            rd_bk: SelOr::new(ns),
            rd_ld: SelOr::new(ns),
            rd_q: Default::default(),
            rd_cf: Default::default(),
            k2: konst(2),
            k3: konst(3),
            pack_more: Pack::new(ns),
            jb_pc: Default::default(),
            jb_lead: Default::default(),
            jb_n: Default::default(),
            jb_ld: SelOr::new(ns),
            jb_nn: SelOr::new(ns),
            jb_w_h: Default::default(),
            jb_w_c: Default::default(),
            jb_v: Default::default(),
            gkm: (0..4).map(|_| Signal::default()).collect(),
            rkm: (0..4).map(|_| Signal::default()).collect(),
            a_ones: konst(u64::MAX >> (64 - A)),
            a_zero: konst(0),
            g_k1: Default::default(),
            k_one: konst(1),
            pack_cand: Pack::new(ns),
            gm_pc: Default::default(),
            gm_lead: Default::default(),
            pack_mpc_h: Pack::new(ns),
            pack_mpc_c: Pack::new(ns),
            pack_mlead_h: Pack::new(ns),
            pack_mlead_c: Pack::new(ns),
            w_pceq_h: Default::default(),
            w_pceq_c: Default::default(),
            w_leadne_h: Default::default(),
            w_leadne_c: Default::default(),
            rdiv: Default::default(),
            zx_w: Default::default(),
            zx_lead: Default::default(),
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
        const WD: usize,
        const C: usize,
        const CP: usize,
        const RP: usize,
        const NS: usize,
    > Logic for CapsColumn<A, P, WI, WD, C, CP, RP, NS>
{
    crate::section::sections!(ColMain, ColGen, ColRead, ColLook);
}

/// The column's kernel sections (the top of a unit does not import
/// [`crate::section::Section`]).
mod kernel {
    use rust_hdl::prelude::*;

    use super::{CapsColumn, ColGen, ColLook, ColMain, ColRead};
    use crate::section::Section;

    impl<
            const A: usize,
            const P: usize,
            const WI: usize,
            const WD: usize,
            const C: usize,
            const CP: usize,
            const RP: usize,
            const NS: usize,
        > Section<ColMain> for CapsColumn<A, P, WI, WD, C, CP, RP, NS>
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

            // Load port: slot l_slot, one-hot (see `l_q`).
            self.rank.r_addr.next = self.l_slot.val();
            self.l_q.next = self.valid.q.val() & self.l_onehot.val();
            for s in 0..self._ns {
                self.r_pc.hit[s].next = self.l_q.val().get_bit(s);
                self.r_lead.hit[s].next = self.l_onehot.val().get_bit(s);
                self.r_cnt.hit[s].next = self.l_onehot.val().get_bit(s);
                self.r_b0.hit[s].next = self.l_onehot.val().get_bit(s);
                self.r_pc.v[s].next = self.pc.taps[s].val();
                self.r_lead.v[s].next = self.lead.taps[s].val();
                self.r_cnt.v[s].next = self.cnt.taps[s].val();
                self.r_b0.v[s].next = self.base0.taps[s].val();
                self.r_b1.v[s].next = self.base1.taps[s].val();
                self.r_b2.v[s].next = self.base2.taps[s].val();
                self.r_b3.v[s].next = self.base3.taps[s].val();
            }
            self.l_ev.next = self.l_q.val().any() & !self.l_cleared.val();
            self.l_hit.next = self.l_q.val().any()
                & !self.l_cleared.val()
                & (self.r_pc.o.val() == self.l_pc.val());
            self.l_rank.next = self.rank.r_data.val();

            // Scan: every slot, for job A, from the registered compares.
            self.gm_pc.clock.next = self.clock.val();
            self.gm_pc.reset.next = self.reset.val();
            self.gm_lead.clock.next = self.clock.val();
            self.gm_lead.reset.next = self.reset.val();
            for s in 0..self._ns {
                self.pack_hit.bits[s].next =
                    self.valid.q.val().get_bit(s) & self.gm_pc.q.val().get_bit(s);
                self.pack_cand.bits[s].next = self.valid.q.val().get_bit(s)
                    & self.gm_pc.q.val().get_bit(s)
                    & self.gm_lead.q.val().get_bit(s)
                    & ((self.g_pos.val() != self.slot_cp[s].val())
                        | (self.g_k.val() < self.cnt.taps[s].val()));
            }
            // The compares after this edge: the entry written gets `w_pc` and
            // `w_warp`; a job taken brings the queue head's pc and warp, and
            // otherwise the job stays, so a slot not written keeps its
            // registered compare. Both are formed, `g_take` picks (session
            // 49: `take` no longer waits in front of the pc compares).
            self.w_pceq_h.next = self.w_pc.val() == self.h_pc.val();
            self.w_pceq_c.next = self.w_pc.val() == self.g_pc.val();
            self.w_leadne_h.next = self.w_warp.val() != self.h_warp.val();
            self.w_leadne_c.next = self.w_warp.val() != self.g_warp.val();
            for s in 0..self._ns {
                if self.wr.val() & self.w_onehot.val().get_bit(s) {
                    self.pack_mpc_h.bits[s].next = self.w_pceq_h.val();
                    self.pack_mpc_c.bits[s].next = self.w_pceq_c.val();
                    self.pack_mlead_h.bits[s].next = self.w_leadne_h.val();
                    self.pack_mlead_c.bits[s].next = self.w_leadne_c.val();
                } else {
                    self.pack_mpc_h.bits[s].next = self.pc.taps[s].val() == self.h_pc.val();
                    self.pack_mpc_c.bits[s].next = self.gm_pc.q.val().get_bit(s);
                    self.pack_mlead_h.bits[s].next = self.lead.taps[s].val() != self.h_warp.val();
                    self.pack_mlead_c.bits[s].next = self.gm_lead.q.val().get_bit(s);
                }
            }
            if self.g_take.val() {
                self.gm_pc.d.next = self.pack_mpc_h.word.val();
                self.gm_lead.d.next = self.pack_mlead_h.word.val();
            } else {
                self.gm_pc.d.next = self.pack_mpc_c.word.val();
                self.gm_lead.d.next = self.pack_mlead_c.word.val();
            }

            self.g_cand.next = self.pack_cand.word.val();

            // Job A's next cursor per slot, beside the scan: another
            // address follows at slot s when k* + 1 < n (k* = g_k at the
            // cursor's slot, else 0).
            self.g_k1.next = self.g_k.val() + self.k_one.val();
            for s in 0..self._ns {
                self.pack_more.bits[s].next = self.valid.q.val().get_bit(s)
                    & self.gm_pc.q.val().get_bit(s)
                    & (((self.g_pos.val() == self.slot_cp[s].val())
                        & (self.g_k1.val() < self.cnt.taps[s].val()))
                        | ((self.g_pos.val() != self.slot_cp[s].val())
                            & (self.k_one.val() < self.cnt.taps[s].val())));
            }
            self.g_more.next = self.pack_more.word.val();
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
            const NS: usize,
        > Section<ColGen> for CapsColumn<A, P, WI, WD, C, CP, RP, NS>
    {
        #[hdl_gen]
        fn update(&mut self) {
            // Generator port: slot g_sel (one-hot), an AND-OR of the taps.
            self.g_q.next = self.g_sel.val() & self.pack_hit.word.val();
            // Base k* of slot s, from registers only (the cursor, the
            // job's kind), beside the slot choice: base `g_k` where `g_at`,
            // else base 0, as an AND-OR with masks.
            self.gkm[1].next = self.a_zero.val();
            self.gkm[2].next = self.a_zero.val();
            self.gkm[3].next = self.a_zero.val();
            self.gkm[0].next = self.a_zero.val();
            if self.g_k.val() == self.k3.val() {
                self.gkm[3].next = self.a_ones.val();
            } else if self.g_k.val() == self.k2.val() {
                self.gkm[2].next = self.a_ones.val();
            } else if self.g_k.val() == self.k_one.val() {
                self.gkm[1].next = self.a_ones.val();
            } else {
                self.gkm[0].next = self.a_ones.val();
            }
            for s in 0..self._ns {
                self.g_at[s].next = self.g_kind.val() | (self.g_pos.val() == self.slot_cp[s].val());
                if self.g_at[s].val() {
                    self.g_pick[s].next = (self.base0.taps[s].val() & self.gkm[0].val())
                        | (self.base1.taps[s].val() & self.gkm[1].val())
                        | (self.base2.taps[s].val() & self.gkm[2].val())
                        | (self.base3.taps[s].val() & self.gkm[3].val());
                } else {
                    self.g_pick[s].next = self.base0.taps[s].val();
                }
            }
            // Job B's entry after this edge (the queue head's slot `h_sel`
            // if the job is taken, else the current slot `gb_sel`, whose
            // registers are kept; the entry written at this edge gets
            // `w_warp`, `w_n`; `pack_mpc_*` hold the pc compares after the
            // edge; session 49: `g_take` selects last), and its cursor tests
            // from the registers (session 47).
            self.jb_pc.clock.next = self.clock.val();
            self.jb_pc.reset.next = self.reset.val();
            self.jb_lead.clock.next = self.clock.val();
            self.jb_lead.reset.next = self.reset.val();
            self.jb_n.clock.next = self.clock.val();
            self.jb_n.reset.next = self.reset.val();
            for s in 0..self._ns {
                self.jb_ld.hit[s].next = self.h_sel.val().get_bit(s);
                self.jb_ld.v[s].next = self.lead.taps[s].val();
                self.jb_nn.hit[s].next = self.h_sel.val().get_bit(s);
                self.jb_nn.v[s].next = self.cnt.taps[s].val();
            }
            self.jb_w_h.next = self.wr.val() & (self.w_onehot.val() & self.h_sel.val()).any();
            self.jb_w_c.next = self.wr.val() & (self.w_onehot.val() & self.gb_sel.val()).any();
            if self.g_take.val() {
                self.jb_pc.d.next = (self.pack_mpc_h.word.val() & self.h_sel.val()).any();
                if self.jb_w_h.val() {
                    self.jb_lead.d.next = self.w_warp.val();
                    self.jb_n.d.next = self.w_n.val();
                } else {
                    self.jb_lead.d.next = self.jb_ld.o.val();
                    self.jb_n.d.next = self.jb_nn.o.val();
                }
            } else {
                if self.jb_w_c.val() {
                    self.jb_pc.d.next = self.w_pceq_c.val();
                    self.jb_lead.d.next = self.w_warp.val();
                    self.jb_n.d.next = self.w_n.val();
                } else {
                    self.jb_pc.d.next = self.jb_pc.q.val();
                    self.jb_lead.d.next = self.jb_lead.q.val();
                    self.jb_n.d.next = self.jb_n.q.val();
                }
            }
            self.jb_v.next = (self.valid.q.val() & self.gb_sel.val()).any() & self.jb_pc.q.val();
            self.gb_hit.next = self.jb_v.val();
            self.gb_eq.next = self.jb_v.val() & (self.jb_lead.q.val() == self.gb_pos.val());
            self.gb_kin.next = self.jb_v.val() & (self.g_k.val() < self.jb_n.q.val());
            self.gb_kin1.next = self.jb_v.val() & (self.g_k1.val() < self.jb_n.q.val());
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
            // Valid bits: the load's entry, then the launch clearing, through a local
            // (`valid.d` read back would show rust-hdl's simulator the last pass's value).
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

    impl<
            const A: usize,
            const P: usize,
            const WI: usize,
            const WD: usize,
            const C: usize,
            const CP: usize,
            const RP: usize,
            const NS: usize,
        > Section<ColRead> for CapsColumn<A, P, WI, WD, C, CP, RP, NS>
    {
        /// The generator's read stage (issue 29, session 44): slot
        /// `r_oh`'s base `k*` (`r_ks`) and lead, or, when the rules stage wrote
        /// this column at that slot at the last edge, the values kept from
        /// before that write.
        #[hdl_gen]
        fn update(&mut self) {
            // The entry the rules stage overwrites at this edge, as the
            // selection of this cycle reads it (its base k* and lead).
            self.r_hit.clock.next = self.clock.val();
            self.r_hit.reset.next = self.reset.val();
            self.r_hit.d.next = self.g_q.val().any();
            self.sv_base.clock.next = self.clock.val();
            self.sv_base.reset.next = self.reset.val();
            self.sv_lead.clock.next = self.clock.val();
            self.sv_lead.reset.next = self.reset.val();
            self.sv_wr.clock.next = self.clock.val();
            self.sv_wr.reset.next = self.reset.val();
            self.sv_oh.clock.next = self.clock.val();
            self.sv_oh.reset.next = self.reset.val();
            for s in 0..self._ns {
                self.sv_bk.hit[s].next = self.w_onehot.val().get_bit(s);
                self.sv_bk.v[s].next = self.g_pick[s].val();
                self.sv_ld.hit[s].next = self.w_onehot.val().get_bit(s);
                self.sv_ld.v[s].next = self.lead.taps[s].val();
            }
            self.sv_base.d.next = self.sv_bk.o.val();
            self.sv_lead.d.next = self.sv_ld.o.val();
            self.sv_wr.d.next = self.wr.val();
            self.sv_oh.d.next = self.w_onehot.val();
            self.rd_q.next = self.ns_zero.val();
            if self.r_hit.q.val() {
                self.rd_q.next = self.r_oh.val();
            }
            // Base `k*` (one-hot `r_ks`) as an AND-OR with masks.
            self.rkm[0].next = self.a_zero.val();
            self.rkm[1].next = self.a_zero.val();
            self.rkm[2].next = self.a_zero.val();
            self.rkm[3].next = self.a_zero.val();
            if self.r_ks.val().get_bit(0) {
                self.rkm[0].next = self.a_ones.val();
            }
            if self.r_ks.val().get_bit(1) {
                self.rkm[1].next = self.a_ones.val();
            }
            if self.r_ks.val().get_bit(2) {
                self.rkm[2].next = self.a_ones.val();
            }
            if self.r_ks.val().get_bit(3) {
                self.rkm[3].next = self.a_ones.val();
            }
            for s in 0..self._ns {
                self.rd_bk.hit[s].next = self.rd_q.val().get_bit(s);
                self.rd_ld.hit[s].next = self.rd_q.val().get_bit(s);
                self.rd_ld.v[s].next = self.lead.taps[s].val();
                self.rd_bk.v[s].next = (self.base0.taps[s].val() & self.rkm[0].val())
                    | (self.base1.taps[s].val() & self.rkm[1].val())
                    | (self.base2.taps[s].val() & self.rkm[2].val())
                    | (self.base3.taps[s].val() & self.rkm[3].val());
            }
            self.rd_cf.next = self.sv_wr.q.val() & (self.sv_oh.q.val() & self.rd_q.val()).any();
            if self.rd_cf.val() {
                self.q_base.next = self.sv_base.q.val();
                self.q_lead.next = self.sv_lead.q.val();
            } else {
                self.q_base.next = self.rd_bk.o.val();
                self.q_lead.next = self.rd_ld.o.val();
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
            const NS: usize,
        > Section<ColLook> for CapsColumn<A, P, WI, WD, C, CP, RP, NS>
    {
        #[hdl_gen]
        fn update(&mut self) {
            // Bases 1..3: read only for the lanes below the load's count.
            self.l_q1.next = self.ns_zero.val();
            self.l_q2.next = self.ns_zero.val();
            self.l_q3.next = self.ns_zero.val();
            if self.l_in1.val() {
                self.l_q1.next = self.l_onehot.val();
            }
            if self.l_in2.val() {
                self.l_q2.next = self.l_onehot.val();
            }
            if self.l_in3.val() {
                self.l_q3.next = self.l_onehot.val();
            }
            for s in 0..self._ns {
                self.r_b1.hit[s].next = self.l_q1.val().get_bit(s);
                self.r_b2.hit[s].next = self.l_q2.val().get_bit(s);
                self.r_b3.hit[s].next = self.l_q3.val().get_bit(s);
            }
            // The rules' values for this entry, beside the pc compare (the top
            // selects the hit column's).
            self.zx_w.narrow.next = self.l_warp.val();
            self.zx_lead.narrow.next = self.r_lead.o.val();
            self.l_delta.next = self.zx_w.wide.val() - self.zx_lead.wide.val();
            self.l_wl.next = self.l_warp.val() == self.r_lead.o.val();
            self.l_ns.next = self.l_n3.val() == self.r_cnt.o.val();
            self.l_nz.next = self.l_a0.val() != self.r_b0.o.val();
            self.sub.x.next = self.l_a0.val();
            self.sub.y.next = !self.r_b0.o.val();
            self.sub.ci.next = true;
            self.l_d0.next = self.sub.s.val();
            self.l_b0.next = self.r_b0.o.val();
            self.l_b1.next = self.r_b1.o.val();
            self.l_b2.next = self.r_b2.o.val();
            self.l_b3.next = self.r_b3.o.val();
            self.eqk[0].x.next = self.l_u1.val();
            self.eqk[1].x.next = self.l_u2.val();
            self.eqk[2].x.next = self.l_u3.val();
            self.eqk[0].so.next = self.r_b1.o.val();
            self.eqk[1].so.next = self.r_b2.o.val();
            self.eqk[2].so.next = self.r_b3.o.val();
            self.eqk[0].co.next = !self.r_b0.o.val();
            self.eqk[1].co.next = !self.r_b0.o.val();
            self.eqk[2].co.next = !self.r_b0.o.val();
            self.l_eq.next = true;
            if self.l_in1.val() & self.eqk[0].ne.val() {
                self.l_eq.next = false;
            }
            if self.l_in2.val() & self.eqk[1].ne.val() {
                self.l_eq.next = false;
            }
            if self.l_in3.val() & self.eqk[2].ne.val() {
                self.l_eq.next = false;
            }
            self.rdiv.delta.next = self.l_delta.val();
            self.rdiv.diff.next = self.l_d0.val();
            self.l_pow2.next = self.rdiv.pow2.val();
            self.l_div.next = self.rdiv.div.val();
            self.l_diff0.next = self.l_d0.val();
        }
    }
}
