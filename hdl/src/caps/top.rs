//! The top of `caps_prefetcher` ([`CapsPrefetcherRtl`]): the rules applied
//! to the load, the job FIFO, the generator and the output queue.

use ports::caps::CapsParams;
use ports::clog2;
use rust_hdl::prelude::*;

use super::column::CapsColumn;
use super::consts::LANES;
use super::dist::CapsDist;
use super::fastarith::{ArsOh, CsaSum, ExactDivOh, SelOr, SumNeWord};
use crate::arith::PrefixAdd;
use crate::queue::ShiftQueue;
use crate::rank::RankOrder;
use crate::reg::Reg;
use crate::util::{konst, konsts, regs, sigs, with_defaults, Pack, ZeroExt};

mod clocks;
mod clocks2;
mod cursor;
mod forward;
mod generator;
mod jobs;
mod load;
mod loadf;
mod output;
mod rules;
mod verify;

/// Kernel section 0 ([`clocks`]): every register's clock, reset and hold.
struct Clocks;
/// Kernel section: session 44's registers' clock, reset and hold.
struct Clocks2;
/// Kernel section 1 ([`load`]): the load's first stage (on the ports): its
/// eligibility, its PerCTA and DIST look-ups and the values the rules need,
/// for the entry it finds and for the entry the load in the rules stage
/// writes (forwarding).
struct Load;
/// Kernel section 1b ([`loadf`]): the load's first stage, second part: the
/// values for the entry the load in the rules stage writes (forwarding)
/// and `a[k] + !a[0]` for "all differences equal".
struct LoadF;
/// Kernel section 2 ([`forward`]): the load's second stage, first part: the
/// look-ups corrected for the previous load's update (forwarding).
struct Forward;
/// Kernel section 3 ([`rules`]): the load's second stage, second part: the
/// rules, the DIST and PerCTA updates, rule 3's product.
struct Rules;
/// Kernel section 4 ([`jobs`]): the load's third stage: rule 3's
/// verification, the counter, the job and the job FIFO.
struct Jobs;
/// Kernel section: the load's verify stage.
struct Verify;
/// Kernel section 5 ([`generator`]): the generator's selection stage (the
/// next prefetch of the current job, into the address stage's registers)
/// and its state.
struct Generator;
/// Kernel section 5b ([`cursor`]): the selection stage's second part:
/// job B's warp, the selected prefetch and the cursor update.
struct Cursor;
/// Kernel section 6 ([`output`]): the generator's address stage, the
/// output queue and its occupancy count, and the `pf_*` ports.
struct Output;

/// The `caps_prefetcher` unit. `A` = `ADDR_W`, `P` = `PC_W`, `WI` =
/// `WARP_IDX_W`, `WD` = `WI + 1`, `C` = `clog2(N_CTA)`, `CP` = `C + 1`,
/// `RP` = `clog2(PERCTA_ENTRIES)`, `RD` = `clog2(DIST_ENTRIES)`, `CW` =
/// `CNT_W`, `JW` = `2 + P + C + WI` (a job's header packed for the job
/// FIFO, with its stride's sign; the stride's magnitude travels in a
/// second lane),
/// `QW` = `A + C + WI` (a prefetch packed for the output queue), `NS` =
/// `2^C` = `N_CTA`. Build it
/// with `<ports::caps::CapsPrefetcher as crate::registry::RtlDecl>::build`.
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
    const JW: usize,
    const QW: usize,
    const NS: usize,
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

    cols: Vec<CapsColumn<A, P, WI, WD, C, CP, RP, NS>>,
    trainf: ExactDivOh<WD, A>,
    qf: ArsOh<WD, A>,
    qr: ArsOh<WD, A>,
    zx_bw: ZeroExt<WI, WD>,
    order: RankOrder<RP>,
    dtab: CapsDist<A, P, C, CW, RD>,
    jobq: ShiftQueue<Bits<JW>>,
    jobq_stride: ShiftQueue<Bits<A>>,
    pfq: ShiftQueue<Bits<QW>>,
    mul_l: CsaSum<WD, A>,
    chk: Vec<SumNeWord<A>>,
    // Issue 29 (look-up stage): the forwarding's `a[k] - b_a[k]`
    // (`fsub`), and for "all differences equal" `a[k] + !a[0]` of this
    // load (`uadd`, lanes 1..3, also given to the columns) and of the load
    // in the rules stage (`buadd`): `a[k] - b[k] == a[0] - b[0]` iff
    // `a[k] - a[0] == b[k] - b[0]`.
    fsub: Vec<PrefixAdd<A>>,
    uadd: Vec<PrefixAdd<A>>,
    buadd: Vec<PrefixAdd<A>>,
    // The rules stage's negated quotients (`0 - mag` as `!mag + 1`), from
    // the registers, before the forwarding's choice.
    // The rules stage's `a[k] - base[k]` of the entry found (the look-up
    // stage registers the bases it read).
    rsub: Vec<PrefixAdd<A>>,
    mul_g: CsaSum<WD, A>,
    add_g: PrefixAdd<A>,
    sel_llead: SelOr<WD>,
    sel_sc: SelOr<C>,
    sel_npos: SelOr<CP>,
    sel_nk: SelOr<3>,
    pack_cw: Pack<NS>,
    // `posa == s` per slot, for the read stage's `k*` (session 47).
    pack_at: Pack<NS>,
    zx_ldw: ZeroExt<WI, WD>,
    zx_stw: ZeroExt<WI, WD>,
    zx_stl: ZeroExt<WI, WD>,
    zx_cfg: ZeroExt<WI, WD>,
    zx_lslot: ZeroExt<C, NS>,
    zx_cslot: ZeroExt<C, NS>,
    zx_jslot: ZeroExt<C, NS>,
    jp_kind: ZeroExt<1, JW>,
    jp_pc: ZeroExt<P, JW>,
    jp_cta: ZeroExt<C, JW>,
    jp_warp: ZeroExt<WI, JW>,
    jp_neg: ZeroExt<1, JW>,
    qp_addr: ZeroExt<A, QW>,
    qp_cta: ZeroExt<C, QW>,
    qp_warp: ZeroExt<WI, QW>,

    busy: Reg<Bit>,
    j_kind: Reg<Bit>,
    j_pc: Reg<Bits<P>>,
    j_cta: Reg<Bits<C>>,
    // The job's CTA one-hot (`1 << j_cta`), decoded when the job is taken.
    j_oh: Reg<Bits<NS>>,
    j_warp: Reg<Bits<WI>>,
    j_stride: Reg<Bits<A>>,
    j_neg: Reg<Bit>,
    posa: Reg<Bits<CP>>,
    posb: Reg<Bits<WD>>,
    kk: Reg<Bits<3>>,
    // The load's second stage (b_): the load, its look-ups and the rules'
    // values for the entry it found (r) and for the entry the load ahead
    // of it writes (f); fw_: that load's update of its slot's row and of
    // DIST, for the next load.
    b_v: Reg<Bit>,
    b_pc: Reg<Bits<P>>,
    b_cta: Reg<Bits<C>>,
    b_warp: Reg<Bits<WI>>,
    b_n: Reg<Bits<3>>,
    b_a: Vec<Reg<Bits<A>>>,
    b_cleared: Reg<Bit>,
    b_pceq: Reg<Bit>,
    b_cteq: Reg<Bit>,
    b_oh: Reg<Bits<NS>>,
    b_hitr: Vec<Reg<Bit>>,
    // The look-up's values for the entry found, per column (session 44):
    // bases, a0 - base0, all differences equal, rule 4's tests.
    b_cb0: Vec<Reg<Bits<A>>>,
    b_cb1: Vec<Reg<Bits<A>>>,
    b_cb2: Vec<Reg<Bits<A>>>,
    b_cb3: Vec<Reg<Bits<A>>>,
    b_cd0: Vec<Reg<Bits<A>>>,
    b_ceq: Vec<Reg<Bit>>,
    b_cpow2: Vec<Reg<Bit>>,
    b_cdiv: Vec<Reg<Bit>>,
    b_cnz: Vec<Reg<Bit>>,
    sel_xb0: SelOr<A>,
    sel_xb1: SelOr<A>,
    sel_xb2: SelOr<A>,
    sel_xb3: SelOr<A>,
    sel_xd0: SelOr<A>,
    xr_eq: Signal<Local, Bit>,
    xr_pow2: Signal<Local, Bit>,
    xr_div: Signal<Local, Bit>,
    xr_nz: Signal<Local, Bit>,
    b_evr: Vec<Reg<Bit>>,
    b_rankr: Vec<Reg<Bits<RP>>>,
    b_dhit: Vec<Reg<Bit>>,
    b_rwl: Reg<Bit>,
    b_rns: Reg<Bit>,
    b_rdelta: Reg<Bits<WD>>,
    b_fwl: Reg<Bit>,
    b_fns: Reg<Bit>,
    b_fdelta: Reg<Bits<WD>>,
    b_fdiff: Vec<Reg<Bits<A>>>,
    b_feq: Reg<Bit>,
    b_fpow2: Reg<Bit>,
    b_fdiv: Reg<Bit>,
    b_fnz: Reg<Bit>,
    fw_on: Reg<Bit>,
    fw_cta: Reg<Bits<C>>,
    fw_wr: Vec<Reg<Bit>>,
    fw_inv: Vec<Reg<Bit>>,
    fw_valid: Vec<Reg<Bit>>,
    fw_rank: Vec<Reg<Bits<RP>>>,
    fw_dalloc: Reg<Bit>,
    fw_dtgt: Vec<Reg<Bit>>,
    // The load's third stage (c_): its rules, rule 3's operands and the
    // job's fields (its CTA and rule-4 allocation are `fw_cta` and
    // `fw_dalloc`, which hold the same load's).
    c_r1: Reg<Bit>,
    c_r2: Reg<Bit>,
    c_r3: Reg<Bit>,
    c_ns: Reg<Bit>,
    c_n: Reg<Bits<3>>,
    c_diff: Vec<Reg<Bits<A>>>,
    c_dh: Reg<Bit>,
    /// Rule 3's trigger's CTA test, read in the rules stage: the DIST
    /// entry's leading CTA is this load's CTA, still in its slot.
    c_lead: Reg<Bit>,
    c_dhit: Vec<Reg<Bit>>,
    c_pc: Reg<Bits<P>>,
    c_warp: Reg<Bits<WI>>,
    c_stride: Reg<Bits<A>>,
    c_neg: Reg<Bit>,
    // The verify stage (c_pd, c_pst: rule 3's operands from the rules
    // stage) and the job stage's registers (v_).
    c_pd: Reg<Bits<WD>>,
    c_pst: Reg<Bits<A>>,
    v_ns: Reg<Bit>,
    v_cnt: Reg<Bits<CW>>,
    /// Rule 3's leading-CTA test (`c_lead`, from the rules stage).
    v_lead: Reg<Bit>,
    j_cnt: Signal<Local, Bits<CW>>,
    v_same: Signal<Local, Bit>,
    j_kill: Signal<Local, Bit>,
    cw_one: Constant<Bits<CW>>,
    cw_max: Constant<Bits<CW>>,
    cw_zero: Constant<Bits<CW>>,
    v_n: Reg<Bits<3>>,
    v_hx: Vec<Reg<Bits<A>>>,
    v_r1: Reg<Bit>,
    v_r2: Reg<Bit>,
    v_r3: Reg<Bit>,
    v_dh: Reg<Bit>,
    v_pc: Reg<Bits<P>>,
    v_warp: Reg<Bits<WI>>,
    v_stride: Reg<Bits<A>>,
    v_neg: Reg<Bit>,
    v_cta: Reg<Bits<C>>,
    v_dalloc: Reg<Bit>,
    v_dhit: Vec<Reg<Bit>>,
    // The generator's read stage (session 44).
    r_v: Reg<Bit>,
    r_oh: Reg<Bits<NS>>,
    // The read stage's base index `k*`, one-hot, registered with the
    // selection (session 51: `rd_k` formed before the edge from the
    // candidate word, not after it from `r_oh`).
    r_ks: Reg<Bits<4>>,
    r_stride: Reg<Bits<A>>,
    r_neg: Reg<Bit>,
    r_warp: Reg<Bits<WI>>,
    r_cta: Reg<Bits<C>>,
    rd_at: Signal<Local, Bit>,
    rd_k: Signal<Local, Bits<4>>,
    sel_rb: SelOr<A>,
    sel_rl: SelOr<WI>,
    // The address stages: a prefetch selected at the last edge (its base,
    // stride, target and the entry's leading warp; st_), its address as a
    // carry-save sum and carry one edge later (st2_), pushed into the
    // output queue at the next; `pfq_n` counts the prefetches the output
    // queue and the second stage hold (`st_v` is the first's). The
    // multiplier's operands `st_dp - st_dm` are the target warp and the
    // leading warp already ordered by the stride's sign (session 52: warp -
    // lead, or lead - warp for a negative stride); the target warp is read
    // back from them by `st_neg`.
    st_v: Reg<Bit>,
    st_base: Reg<Bits<A>>,
    st_stride: Reg<Bits<A>>,
    st_neg: Reg<Bit>,
    st_dp: Reg<Bits<WI>>,
    st_dm: Reg<Bits<WI>>,
    st_cta: Reg<Bits<C>>,
    st2_v: Reg<Bit>,
    st2_s: Reg<Bits<A>>,
    st2_c: Reg<Bits<A>>,
    st2_cta: Reg<Bits<C>>,
    st2_warp: Reg<Bits<WI>>,
    pfq_n: Reg<Bits<7>>,

    slot_c: Vec<Constant<Bits<C>>>,
    slot_cp: Vec<Constant<Bits<CP>>>,
    slot_cp1: Vec<Constant<Bits<CP>>>,
    ns_sh: Vec<Constant<Bits<NS>>>,
    lane_k: Vec<Constant<Bits<3>>>,
    count_zero: Constant<Bits<6>>,
    count_max: Constant<Bits<6>>,
    thr: Constant<Bits<CW>>,
    thr_m1: Constant<Bits<CW>>,
    loop_jobs: Constant<Bit>,
    cnt_decay: Constant<Bit>,
    addr_zero: Constant<Bits<A>>,
    k_zero: Constant<Bits<3>>,
    k_one: Constant<Bits<3>>,
    k_two: Constant<Bits<3>>,
    k_three: Constant<Bits<3>>,
    // `k*` one-hot: base 0..3.
    k4_b0: Constant<Bits<4>>,
    k4_b1: Constant<Bits<4>>,
    k4_b2: Constant<Bits<4>>,
    k4_b3: Constant<Bits<4>>,
    cp_zero: Constant<Bits<CP>>,
    wd_zero: Constant<Bits<WD>>,
    wd_one: Constant<Bits<WD>>,
    wd_two: Constant<Bits<WD>>,
    wd_half: Constant<Bits<WD>>,
    ns_zero: Constant<Bits<NS>>,
    ns_one: Constant<Bits<NS>>,
    n7_one: Constant<Bits<7>>,
    pfq_d: Constant<Bits<7>>,
    pfq_d1: Constant<Bits<7>>,
    // Field offsets in a packed job / prefetch (32 bits: Verilator takes a
    // 32-bit part-select base as an integer and does not ask for a
    // log2(width)-bit one).
    joff_pc: Constant<Bits<32>>,
    joff_cta: Constant<Bits<32>>,
    joff_warp: Constant<Bits<32>>,
    joff_neg: Constant<Bits<32>>,
    qoff_cta: Constant<Bits<32>>,
    qoff_warp: Constant<Bits<32>>,

    elig: Signal<Local, Bit>,
    n3: Signal<Local, Bits<3>>,
    a: Vec<Signal<Local, Bits<A>>>,
    l_onehot: Signal<Local, Bits<NS>>,
    clear_mask: Signal<Local, Bits<NS>>,
    l_cleared: Signal<Local, Bit>,
    delta_l: Signal<Local, Bits<WD>>,
    in_n: Vec<Signal<Local, Bit>>,
    fdelta: Signal<Local, Bits<WD>>,
    fdiff: Vec<Signal<Local, Bits<A>>>,
    feq: Signal<Local, Bit>,
    fwd: Signal<Local, Bit>,
    use_f: Signal<Local, Bit>,
    e_hit: Vec<Signal<Local, Bit>>,
    e_valid: Vec<Signal<Local, Bit>>,
    e_rank: Vec<Signal<Local, Bits<RP>>>,
    e_dhit: Vec<Signal<Local, Bit>>,
    e_wr: Vec<Signal<Local, Bit>>,
    e_inv: Vec<Signal<Local, Bit>>,
    dh_any: Signal<Local, Bit>,
    m_hit: Signal<Local, Bit>,
    w_is_lead: Signal<Local, Bit>,
    n_same: Signal<Local, Bit>,
    x_delta: Signal<Local, Bits<WD>>,
    x_diff: Vec<Signal<Local, Bits<A>>>,
    x_eq: Signal<Local, Bit>,
    x_pow2: Signal<Local, Bit>,
    x_div: Signal<Local, Bit>,
    x_nz: Signal<Local, Bit>,
    x_stride: Signal<Local, Bits<A>>,
    x_neg: Signal<Local, Bit>,
    x_ndelta: Signal<Local, Bits<WD>>,
    g_pc_n: Signal<Local, Bits<P>>,
    g_warp_n: Signal<Local, Bits<WI>>,
    // The job queue head's pc, warp and slot (one-hot), for the columns'
    // compares after a take (session 49).
    h_pc: Signal<Local, Bits<P>>,
    h_warp: Signal<Local, Bits<WI>>,
    h_oh: Signal<Local, Bits<NS>>,
    w_onehot: Signal<Local, Bits<NS>>,
    rank_we: Signal<Local, Bit>,
    in_c: Vec<Signal<Local, Bit>>,
    mism: Signal<Local, Bit>,
    r1: Signal<Local, Bit>,
    r2: Signal<Local, Bit>,
    r3: Signal<Local, Bit>,
    r4: Signal<Local, Bit>,
    r4_inval: Signal<Local, Bit>,
    r4_alloc: Signal<Local, Bit>,
    cnt_lt: Signal<Local, Bit>,
    job_b: Signal<Local, Bit>,
    job_a: Signal<Local, Bit>,

    take: Signal<Local, Bit>,
    job_push: Signal<Local, Bit>,
    cand_any: Vec<Signal<Local, Bit>>,
    cand: Vec<Signal<Local, Bit>>,
    more: Vec<Signal<Local, Bit>>,
    at_slot: Vec<Signal<Local, Bit>>,
    cw: Signal<Local, Bits<NS>>,
    pfx: Vec<Signal<Local, Bits<NS>>>,
    gsel_w: Signal<Local, Bits<NS>>,
    g_selw: Signal<Local, Bits<NS>>,
    gb_selw: Signal<Local, Bits<NS>>,
    // Job B's slot after this edge, one-hot (session 47).
    j_oh_n: Signal<Local, Bits<NS>>,
    // Job B's cursor (session 46): the entry's tests from the columns
    // (`posb` is its leading warp; `kk`, `kk + 1` below its count) and
    // `posb + 1`, `posb + 2`, so that `w'` and its end test only select.
    b_eq: Signal<Local, Bit>,
    b_kin: Signal<Local, Bit>,
    b_kin1: Signal<Local, Bit>,
    pb1: Signal<Local, Bits<WD>>,
    pb2: Signal<Local, Bits<WD>>,
    wb1: Signal<Local, Bits<WD>>,
    gsel: Vec<Signal<Local, Bit>>,
    k_inc: Signal<Local, Bits<3>>,
    na_pos: Signal<Local, Bits<CP>>,
    na_k: Signal<Local, Bits<3>>,
    found_a: Signal<Local, Bit>,
    s_hit: Signal<Local, Bit>,
    s_c: Signal<Local, Bits<C>>,
    wb: Signal<Local, Bits<WD>>,
    b_end: Signal<Local, Bit>,
    b_skip: Signal<Local, Bit>,
    have_pf: Signal<Local, Bit>,
    g_end: Signal<Local, Bit>,
    pf_push: Signal<Local, Bit>,
    pf_room: Signal<Local, Bit>,

    _ncta: usize,
    _c: usize,
    _c1: usize,
    _ne: usize,
    _m: usize,
    _nd: usize,
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
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    /// Panics unless `p`'s widths are the const generics and its values
    /// are in range.
    fn check_widths(p: &CapsParams) {
        assert_eq!(A as u64, p.ADDR_W, "ADDR_W");
        assert_eq!(P as u64, p.PC_W, "PC_W");
        assert_eq!(WI as u64, p.WARP_IDX_W, "WARP_IDX_W");
        assert_eq!(WD, WI + 1, "WD = WARP_IDX_W + 1");
        assert_eq!(C as u32, p.cta_bits(), "clog2(N_CTA)");
        assert_eq!(CP, C + 1, "CP = clog2(N_CTA) + 1");
        assert_eq!(RP as u32, clog2(p.PERCTA_ENTRIES), "clog2(PERCTA_ENTRIES)");
        assert_eq!(RD as u32, clog2(p.DIST_ENTRIES), "clog2(DIST_ENTRIES)");
        assert_eq!(CW as u64, p.CNT_W, "CNT_W");
        assert_eq!(JW, 2 + P + C + WI, "JW = 2 + PC_W + C + WARP_IDX_W");
        assert_eq!(QW, A + C + WI, "QW = ADDR_W + C + WARP_IDX_W");
        assert_eq!(NS, 1 << C, "NS = 2^clog2(N_CTA)");
        assert!(p.N_CTA >= 2 && p.N_CTA <= 1 << C, "N_CTA");
        assert!(
            p.MAX_ADDRS >= 1 && p.MAX_ADDRS as usize <= LANES,
            "MAX_ADDRS"
        );
        assert!(
            p.MISPRED_THRESHOLD >= 1 && p.MISPRED_THRESHOLD <= ports::mask(CW as u32),
            "MISPRED_THRESHOLD"
        );
    }

    /// Build the unit for `p` (which must be valid). Panics if `p`'s widths
    /// are not the const generics (`<ports::caps::CapsPrefetcher as
    /// crate::registry::RtlDecl>::build` picks the instantiation).
    pub fn new(p: &CapsParams) -> Self {
        Self::check_widths(p);
        let ncta = p.N_CTA as usize;
        let ne = p.PERCTA_ENTRIES as usize;
        let m = p.MAX_ADDRS as usize;
        let nd = p.DIST_ENTRIES as usize;
        with_defaults!(CapsPrefetcherRtl {
            ld_addr: (0..m).map(|_| Signal::default()).collect(),
            cols: (0..ne).map(|_| CapsColumn::new(p)).collect(),
            sel_llead: SelOr::new(ne),
            sel_sc: SelOr::new(ncta),
            sel_npos: SelOr::new(ncta),
            sel_nk: SelOr::new(ncta),
            pack_cw: Pack::new(ncta),
            pack_at: Pack::new(ncta),
            order: RankOrder::new(ne),
            dtab: CapsDist::new(p),
            jobq: ShiftQueue::new(p.JOBQ_DEPTH as usize),
            jobq_stride: ShiftQueue::new(p.JOBQ_DEPTH as usize),
            pfq: ShiftQueue::new(p.PFQ_DEPTH as usize),
            slot_c: konsts(0..ncta as u64),
            slot_cp: konsts(0..ncta as u64),
            slot_cp1: konsts(1..ncta as u64 + 1),
            ns_sh: konsts((0..C).map(|l| 1u64 << l)),
            lane_k: konsts(0..LANES as u64),
            count_zero: konst(0),
            count_max: konst(p.MAX_ADDRS),
            thr: konst(p.MISPRED_THRESHOLD),
            thr_m1: konst(p.MISPRED_THRESHOLD - 1),
            cw_one: konst(1),
            cw_max: konst((1u64 << p.CNT_W) - 1),
            cw_zero: konst(0),
            loop_jobs: Constant::new(p.LOOP_JOBS == 1),
            cnt_decay: Constant::new(p.CNT_DECAY == 1),
            addr_zero: konst(0),
            k_zero: konst(0),
            k_one: konst(1),
            k_two: konst(2),
            k_three: konst(3),
            k4_b0: konst(1),
            k4_b1: konst(2),
            k4_b2: konst(4),
            k4_b3: konst(8),
            cp_zero: konst(0),
            wd_zero: konst(0),
            wd_one: konst(1),
            wd_two: konst(2),
            wd_half: konst(1u64 << WI),
            ns_zero: konst(0),
            ns_one: konst(1),
            n7_one: konst(1),
            pfq_d: konst(p.PFQ_DEPTH),
            pfq_d1: konst(p.PFQ_DEPTH - 1),
            joff_pc: konst(1),
            joff_cta: konst((1 + P) as u64),
            joff_warp: konst((1 + P + C) as u64),
            joff_neg: konst((1 + P + C + WI) as u64),
            qoff_cta: konst(A as u64),
            qoff_warp: konst((A + C) as u64),
            a: sigs(LANES),
            in_n: sigs(LANES - 1),
            fdiff: sigs(LANES),
            x_diff: sigs(LANES),
            in_c: sigs(LANES),
            e_hit: sigs(ne),
            e_valid: sigs(ne),
            e_rank: sigs(ne),
            e_wr: sigs(ne),
            e_inv: sigs(ne),
            e_dhit: sigs(nd),
            chk: (0..LANES).map(|_| SumNeWord::default()).collect(),
            fsub: (0..LANES).map(|_| PrefixAdd::default()).collect(),
            rsub: (0..LANES).map(|_| PrefixAdd::default()).collect(),
            uadd: (1..LANES).map(|_| PrefixAdd::default()).collect(),
            buadd: (1..LANES).map(|_| PrefixAdd::default()).collect(),
            b_a: regs(LANES),
            b_hitr: regs(ne),
            b_cb0: regs(ne),
            b_cb1: regs(ne),
            b_cb2: regs(ne),
            b_cb3: regs(ne),
            b_cd0: regs(ne),
            b_ceq: regs(ne),
            b_cpow2: regs(ne),
            b_cdiv: regs(ne),
            b_cnz: regs(ne),
            sel_xb0: SelOr::new(ne),
            sel_xb1: SelOr::new(ne),
            sel_xb2: SelOr::new(ne),
            sel_xb3: SelOr::new(ne),
            sel_xd0: SelOr::new(ne),
            b_evr: regs(ne),
            b_rankr: regs(ne),
            b_dhit: regs(nd),
            b_fdiff: regs(LANES),
            fw_wr: regs(ne),
            fw_inv: regs(ne),
            fw_valid: regs(ne),
            fw_rank: regs(ne),
            fw_dtgt: regs(nd),
            c_diff: regs(LANES),
            c_dhit: regs(nd),
            v_dhit: regs(nd),
            v_hx: regs(LANES),
            sel_rb: SelOr::new(ne),
            sel_rl: SelOr::new(ne),
            cand_any: sigs(ncta),
            cand: sigs(ncta),
            more: sigs(ncta),
            at_slot: sigs(ncta),
            pfx: sigs(C + 1),
            gsel: sigs(ncta),
            _ncta: ncta,
            _c: C,
            _c1: C + 1,
            _ne: ne,
            _m: m,
            _nd: nd,
            _lanes: LANES,
        } default {
            // Ports.
            clock, reset, cfg_warps_per_cta, cta_launch_valid, cta_launch_slot, ld_valid, ld_pc,
            ld_cta, ld_warp, ld_count, ld_indirect, pf_ready, pf_valid, pf_addr, pf_cta, pf_warp,
            // Blocks.
            mul_l, mul_g, add_g, trainf, qf, qr, zx_bw, zx_ldw, zx_stw, zx_stl, zx_cfg, zx_lslot,
            zx_cslot, zx_jslot,
            jp_kind, jp_pc, jp_cta, jp_warp, jp_neg, qp_addr, qp_cta, qp_warp,
            // Registers.
            busy, j_kind, j_pc, j_cta, j_oh, j_warp, j_stride, posa, posb, kk, st_v, st_base, st_stride,
            st_dp, st_dm, st_cta, st2_v, st2_s, st2_c, st2_cta, st2_warp, pfq_n, b_v, b_pc, b_cta, b_warp, b_n, b_cleared, b_pceq, b_cteq, b_oh, b_rwl,
            b_rns, b_rdelta, b_fwl, b_fns, b_fdelta, b_feq,
            b_fpow2, b_fdiv, b_fnz, fw_on, fw_cta, fw_dalloc, c_r1, c_r2, c_r3, c_ns, c_n,
            c_dh, c_lead, c_pc, c_warp, c_stride, c_neg, st_neg, j_neg,
            c_pd, c_pst, r_v, r_oh, r_ks, r_stride, r_neg, r_warp, r_cta, rd_at, rd_k, xr_eq, xr_pow2, xr_div, xr_nz, v_ns, v_n, v_cnt, v_lead, j_cnt, v_same, j_kill, v_r1, v_r2, v_r3, v_dh, v_pc, v_warp, v_stride, v_neg, v_cta, v_dalloc,
            // Local signals.
            elig, n3, l_onehot, clear_mask, l_cleared, m_hit, w_is_lead, n_same,
            delta_l, mism, fdelta, feq, fwd, use_f, dh_any, x_delta, x_eq, x_pow2, x_div,
            x_nz, x_stride, x_neg, x_ndelta, g_pc_n, g_warp_n, h_pc, h_warp, h_oh, w_onehot, rank_we, r1, r2, r3, r4, r4_inval, r4_alloc, cnt_lt, job_b,
            job_a,
            take, job_push, found_a, s_hit, s_c,
            wb, cw, gsel_w, g_selw, gb_selw, j_oh_n, b_eq, b_kin, b_kin1, pb1, pb2, wb1, k_inc, na_pos, na_k, b_end, b_skip, have_pf, g_end, pf_push, pf_room,
        })
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
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > Logic for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    crate::section::sections!(
        Clocks, Clocks2, Load, LoadF, Forward, Rules, Verify, Jobs, Generator, Cursor, Output
    );
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
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > crate::RtlUnit for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    fn block(&self) -> &dyn Block {
        self
    }
    fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        let m = self.ld_addr.len();
        let v = crate::emit::emit_unit("caps_prefetcher", self, header)?;
        Ok(rename_addr_ports(&v, m))
    }
    // `set_inputs` and `outputs`, from the unit's port declaration.
    ports::caps_prefetcher_ports!(crate::rtl_port_glue);
    fn set_clock(&mut self, high: bool) {
        self.clock.next = Clock::from(high);
    }
    fn settle(&mut self) -> bool {
        simulate(self, 1000)
    }
}
