//! The top of `dac_expander` ([`DacExpanderRtl`]): CTA slots, the ATQ, the
//! expander (warp walk, lane values, records, predicate masks), the early
//! memory request, the per-warp queues and the dequeue response.

use ports::dac::{kind, DacParams};
use ports::{clog2, log2_exact};
use rust_hdl::prelude::*;

use super::breaks::{DacBreaks, DacDelta, DacDeltaFlags};
use super::cmp::SignedCmp;
use super::lane0::DacLane0;
use super::lanes::DacLanes;
use super::offs::{DacBasis, DacOffs};
use super::pick::SlotPick;
use super::record::DacRecord;
use super::setup::DacSetup;
use crate::arith::{PrefixAdd, SignedMul};
use crate::mem::Mem;
use crate::multiqueue::MultiQueue;
use crate::queue::ShiftQueue;
use crate::reg::Reg;
use crate::util::{konst, konsts, regs, sigs, with_defaults, Pack, SignExt, ZeroExt};

mod control;
mod expander;
mod head;
mod predicate;
mod queues;
mod tuple;
mod warp;

/// Kernel section 1 ([`tuple`]): the registers' clock, reset and hold, the
/// tuple at the head of the ATQ, and the CTA slots (done, then launch).
struct Tuple;
/// Kernel section 1b ([`head`]): the tuple at the head of the ATQ, the copy
/// of its fields, its lane offsets and its lane differences' conditions.
struct Head;
/// Kernel section 2 ([`warp`]): the current slot and warp, the warp's
/// active lanes and lane values, and the address record from lane `p`.
struct Warp;
/// Kernel section 3 ([`predicate`]): the predicate mask, the fast path from
/// lanes 0 and `n-1` and the slow path a group of eight lanes at a time.
struct Predicate;
/// Kernel section 4 ([`control`]): the expander's control, its registers,
/// the early memory request and the statistics.
struct Control;
/// Kernel section 4b ([`expander`]): the expander registers, the early
/// memory requests, the statistics and the guard masks.
struct Expander;
/// Kernel section 5 ([`queues`]): the ATQ, the per-warp queues and the
/// dequeue response.
struct Queues;

/// The `dac_expander` unit. `WB` = `clog2(N_WARPS)`, `SB` =
/// `clog2(N_CTA)`, `CB` = `clog2(ATQ_DEPTH + 1)`, `AQ` = `WB +
/// log2(PWAQ_DEPTH)`, `PQ` = `WB + log2(PWPQ_DEPTH)` (the per-warp queues'
/// memory addresses), `AC` / `PC` = `log2(depth) + 1` (their counts). Build it with `<ports::dac::DacExpander as
/// crate::registry::RtlDecl>::build`.
#[derive(LogicBlock)]
pub struct DacExpanderRtl<
    const WB: usize,
    const SB: usize,
    const CB: usize,
    const AQ: usize,
    const PQ: usize,
    const AC: usize,
    const PC: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset.
    pub reset: Signal<In, Bit>,
    /// `log2(blockDim.x)`.
    pub cfg_bdx_log2: Signal<In, Bits<4>>,
    /// Threads per CTA.
    pub cfg_threads: Signal<In, Bits<11>>,
    /// Warps per CTA.
    pub cfg_warps_per_cta: Signal<In, Bits<6>>,
    /// A CTA becomes active in a slot.
    pub cta_launch_valid: Signal<In, Bit>,
    /// The slot.
    pub cta_launch_slot: Signal<In, Bits<SB>>,
    /// Its CTA index x.
    pub cta_launch_x: Signal<In, Bits<16>>,
    /// Its CTA index y.
    pub cta_launch_y: Signal<In, Bits<16>>,
    /// A slot becomes inactive.
    pub cta_done_valid: Signal<In, Bit>,
    /// The slot.
    pub cta_done_slot: Signal<In, Bits<SB>>,
    /// A tuple is offered.
    pub enq_valid: Signal<In, Bit>,
    /// Its kind.
    pub enq_kind: Signal<In, Bits<2>>,
    /// `base`.
    pub enq_base: Signal<In, Bits<32>>,
    /// Offset per `tid.x`.
    pub enq_off_tx: Signal<In, Bits<32>>,
    /// Offset per `tid.y`.
    pub enq_off_ty: Signal<In, Bits<32>>,
    /// Offset per `ctaid.x`.
    pub enq_off_cx: Signal<In, Bits<32>>,
    /// Offset per `ctaid.y`.
    pub enq_off_cy: Signal<In, Bits<32>>,
    /// Access size.
    pub enq_gran: Signal<In, Bits<2>>,
    /// Comparison.
    pub enq_cmp: Signal<In, Bits<3>>,
    /// Scalar of a predicate.
    pub enq_scalar: Signal<In, Bits<32>>,
    /// Guard bit (revision 2): a PRED tuple is a guard, an ADDR/DATA tuple
    /// is guarded.
    pub enq_guard: Signal<In, Bit>,
    /// The memory takes the early request.
    pub mem_ready: Signal<In, Bit>,
    /// A warp dequeues.
    pub deq_valid: Signal<In, Bit>,
    /// The warp.
    pub deq_warp: Signal<In, Bits<WB>>,
    /// 0 address, 1 predicate.
    pub deq_kind: Signal<In, Bit>,
    /// The ATQ can take a tuple.
    pub enq_ready: Signal<Out, Bit>,
    /// An early memory request is offered.
    pub mem_valid: Signal<Out, Bit>,
    /// Its line address.
    pub mem_addr: Signal<Out, Bits<32>>,
    /// Response to the previous cycle's dequeue.
    pub rsp_valid: Signal<Out, Bit>,
    /// A record was popped.
    pub rsp_hit: Signal<Out, Bit>,
    /// Its region address.
    pub rsp_addr: Signal<Out, Bits<32>>,
    /// Its mask.
    pub rsp_mask: Signal<Out, Bits<32>>,
    /// Its access size.
    pub rsp_gran: Signal<Out, Bits<2>>,
    /// The warp's final record.
    pub rsp_last: Signal<Out, Bit>,
    /// Tuples in the ATQ.
    pub atq_count: Signal<Out, Bits<CB>>,
    /// Fast-path predicate warps.
    pub stat_pred_fast: Signal<Out, Bits<32>>,
    /// Slow-path predicate warps.
    pub stat_pred_slow: Signal<Out, Bits<32>>,
    /// Guarded warps skipped with no enabled lane.
    pub stat_guard_skips: Signal<Out, Bits<32>>,

    // ---- Blocks.
    atq0: ShiftQueue<Bits<64>>,
    atq1: ShiftQueue<Bits<64>>,
    atq2: ShiftQueue<Bits<64>>,
    atq3: ShiftQueue<Bits<8>>,
    aq: MultiQueue<Bits<62>, WB, AQ, AC>,
    pq: MultiQueue<Bits<32>, WB, PQ, PC>,
    /// The guard masks `G[w]` (revision 2), one entry per warp id.
    gmem: Mem<Bits<32>, WB>,
    lane0: DacLane0,
    lanes: DacLanes,
    /// The tuple's basis offsets and lane offsets (issue 29, step 3).
    basis: DacBasis,
    offs: DacOffs,
    setup: DacSetup,
    /// The region boundaries from the lanes' carry-save words, the tuple's
    /// lane difference at a row start and the high parts' conditions of
    /// both differences (issue 29, step 5).
    brks: DacBreaks,
    delta: DacDelta,
    dfl1: DacDeltaFlags,
    dfl2: DacDeltaFlags,
    rec: DacRecord,
    cmp_first: SignedCmp,
    cmp_last: SignedCmp,
    /// The slow path's comparison of every lane with the scalar (issue 29,
    /// step 6: no select of the group's lanes by `grp`).
    cmp_l: Vec<SignedCmp>,
    cpack: Pack<32>,
    /// `(n-1)*step + 2^31` and `first + (n-1)*step + 2^31` (prefix adders:
    /// the flow maps `+` to a ripple carry).
    add_pb: PrefixAdd<40>,
    /// The carry out of bit 31 of `first + (n-1)*step + 2^31` (issue 29,
    /// step 6: `fits` from it and the high byte's three cases).
    add_fit: PrefixAdd<33>,
    zx_v33: ZeroExt<32, 33>,
    zx_p33: ZeroExt<32, 33>,
    /// `s * W` per slot `s` (a constant times the configuration).
    mul_sw: Vec<SignedMul<5, 10>>,
    /// The next cycle's slot when a tuple starts (the lowest active slot)
    /// and when the walk moves to the next slot of `todo`.
    pk_start: SlotPick,
    pk_adv: SlotPick,
    sx_tx: SignExt<32, 40>,
    zx_w10: ZeroExt<6, 10>,
    zx_wi12: ZeroExt<6, 12>,
    zx_t12: ZeroExt<11, 12>,
    zx_k12: ZeroExt<4, 12>,
    zx_k6: ZeroExt<4, 6>,
    zx_k32: ZeroExt<4, 32>,
    zx_wi7: ZeroExt<6, 7>,
    zx_wc7: ZeroExt<6, 7>,
    zx_ls: ZeroExt<SB, 16>,
    zx_ds: ZeroExt<SB, 16>,
    zx_cnt_l: ZeroExt<SB, 5>,
    zx_cnt_d: ZeroExt<SB, 5>,
    pk_addr: ZeroExt<32, 62>,
    pk_mask: ZeroExt<32, 62>,
    pk_gran: ZeroExt<2, 62>,
    up_addr: ZeroExt<27, 32>,
    pk_base: ZeroExt<32, 64>,
    pk_tx: ZeroExt<32, 64>,
    pk_ty: ZeroExt<32, 64>,
    pk_cx: ZeroExt<32, 64>,
    pk_cy: ZeroExt<32, 64>,
    pk_sc: ZeroExt<32, 64>,
    pk_kind: ZeroExt<2, 8>,
    pk_gr: ZeroExt<2, 8>,
    pk_cmp: ZeroExt<3, 8>,
    zx_wa64: ZeroExt<WB, 64>,
    zx_ra64: ZeroExt<WB, 64>,

    // ---- Registers.
    active: Reg<Bits<16>>,
    todo: Reg<Bits<16>>,
    cx: Vec<Reg<Bits<16>>>,
    cy: Vec<Reg<Bits<16>>>,
    busy: Reg<Bit>,
    p: Reg<Bits<6>>,
    grp: Reg<Bits<2>>,
    /// The lanes of group `grp`, `0xFF << 8*grp` (issue 29, step 6).
    r_gm: Reg<Bits<32>>,
    part: Reg<Bits<32>>,
    count: Reg<Bits<CB>>,
    mem_v: Reg<Bit>,
    mem_a: Reg<Bits<32>>,
    r_valid: Reg<Bit>,
    r_hit: Reg<Bit>,
    r_addr: Reg<Bits<32>>,
    r_mask: Reg<Bits<32>>,
    r_gran: Reg<Bits<2>>,
    r_last: Reg<Bit>,
    st_fast: Reg<Bits<32>>,
    st_slow: Reg<Bits<32>>,
    st_gskip: Reg<Bits<32>>,
    /// Bit `w`: `G[w]` was written since reset (an unwritten entry reads
    /// as 0).
    g_written: Reg<Bits<64>>,
    /// The current warp id (its low `WB` bits: the queues' index).
    cwid: Reg<Bits<WB>>,
    /// A current warp is set up (`busy & !cv`: the tuple's setup cycle).
    cv: Reg<Bit>,
    /// The current warp is the tuple's last.
    cend: Reg<Bit>,
    /// The warp pointer (issue 29, the warp-setup stages), two warps ahead of
    /// the current one: its slot, warp and warp id, and its slot's `(cx, cy)`
    /// (the slot's registers, a launch into the slot forwarded at each edge).
    /// `todo` holds the slots after it.
    nslot: Reg<Bits<SB>>,
    nwi: Reg<Bits<6>>,
    nwid: Reg<Bits<10>>,
    cc_x: Reg<Bits<16>>,
    cc_y: Reg<Bits<16>>,
    /// The warp after the current one, half set up (issue 29, the split
    /// warp setup): its lane-0 value as carry-save sum and carry words, its
    /// active lanes `n`, its first skip (`w >= N_WARPS` or `n = 0`), its
    /// warp id's low `WB` bits, whether it is the tuple's last, and whether
    /// it holds a warp (`wv`: 0 in the tuple's first setup cycle).
    ws: Reg<Bits<32>>,
    wc: Reg<Bits<32>>,
    wn: Reg<Bits<6>>,
    wnm1: Reg<Bits<6>>,
    wskip0: Reg<Bit>,
    wwid: Reg<Bits<WB>>,
    wlast: Reg<Bit>,
    wv: Reg<Bit>,
    /// The current warp's lane values and lane masks, registered at the
    /// edge the walk moves to it (`DacSetup`), with its last slow-path group
    /// and its skips.
    lv: Vec<Reg<Bits<32>>>,
    r_act: Reg<Bits<32>>,
    r_live: Reg<Bits<32>>,
    r_ends: Reg<Bits<32>>,
    r_gef: Reg<Bits<32>>,
    r_lastg: Reg<Bits<2>>,
    r_skip0: Reg<Bit>,
    r_gskip: Reg<Bit>,
    r_pb: Reg<Bits<40>>,
    /// Lane `n-1`'s value, formed in the second setup stage (issue 29,
    /// step 4).
    r_vl: Reg<Bits<32>>,
    /// The current warp's run starts (issue 29, step 4: the record's
    /// `last`).
    r_st: Reg<Bits<32>>,
    /// A guard's mask written to `G` one edge after its push (issue 29,
    /// step 4): enable, warp id, mask.
    r_gw: Reg<Bit>,
    r_gwa: Reg<Bits<WB>>,
    r_gwd: Reg<Bits<32>>,
    /// The ATQ pops at this edge (issue 29, step 4: registered, the tuple
    /// leaves one edge after its end was decided).
    r_pop: Reg<Bit>,
    /// The ATQ head's basis offsets and the offsets of lanes 1 to 31
    /// relative to lane 0 (issue 29, step 3): loaded every cycle, so they
    /// hold the head tuple's from its first setup cycle (`r_bb`) and its
    /// second (`r_lo`, read by the second setup stage) to its pop.
    r_bb: Vec<Reg<Bits<32>>>,
    r_lo: Vec<Reg<Bits<32>>>,
    /// The current warp's chunk index per lane (issue 29, step 3).
    r_ci: Vec<Reg<Bits<5>>>,
    /// The next warp's guard mask `G[w]`, read in the first setup stage
    /// (issue 29, step 3).
    wg: Reg<Bits<32>>,
    /// A copy of the ATQ head's fields, loaded every cycle (issue 29, step
    /// 5): base, thread and CTA offsets, scalar, access size, comparison,
    /// kind flags, guard bit, and the fast path's tuple conditions (no
    /// thread offsets; lanes in arithmetic progression).
    h_base: Reg<Bits<32>>,
    h_tx: Reg<Bits<32>>,
    h_ty: Reg<Bits<32>>,
    h_cx: Reg<Bits<32>>,
    h_cy: Reg<Bits<32>>,
    h_sc: Reg<Bits<32>>,
    /// The scalar's complement, for the slow path's 32 comparisons (issue
    /// 29, step 6: a second copy, complemented so that synthesis keeps it
    /// apart from `h_sc`, whose load stays on the fast path's two).
    h_nsc: Reg<Bits<32>>,
    h_gran: Reg<Bits<2>>,
    h_cmp: Reg<Bits<3>>,
    h_addr: Reg<Bit>,
    h_data: Reg<Bit>,
    h_pred: Reg<Bit>,
    h_guard: Reg<Bit>,
    h_zo: Reg<Bit>,
    h_ar: Reg<Bit>,
    /// The current warp's address and predicate queues are full (issue 29,
    /// step 5: counted a cycle ahead).
    r_afull: Reg<Bit>,
    r_pfull: Reg<Bit>,
    /// The head tuple's lane difference at a row start (loaded every
    /// cycle, as the copy of its fields), and the conditions on both
    /// differences' bits `b..31` (from the copy: they hold the tuple's from
    /// its second setup cycle on).
    r_d2: Reg<Bits<32>>,
    r_z1: Reg<Bit>,
    r_m1: Reg<Bit>,
    r_z2: Reg<Bit>,
    r_m2: Reg<Bit>,

    // ---- Constants.
    slot5: Vec<Constant<Bits<5>>>,
    slot_id: Vec<Constant<Bits<SB>>>,
    n_cta: Constant<Bits<5>>,
    n_warps: Constant<Bits<10>>,
    one16: Constant<Bits<16>>,
    one10: Constant<Bits<10>>,
    zero16: Constant<Bits<16>>,
    one_cb: Constant<Bits<CB>>,
    k_addr: Constant<Bits<2>>,
    k_data: Constant<Bits<2>>,
    k_pred: Constant<Bits<2>>,
    k_rsvd: Constant<Bits<2>>,
    gran_rsvd: Constant<Bits<2>>,
    cmp_rsvd: Constant<Bits<3>>,
    cmp_ord: Constant<Bits<3>>,
    c0_2: Constant<Bits<2>>,
    c1_2: Constant<Bits<2>>,
    c0_6: Constant<Bits<6>>,
    c1_6: Constant<Bits<6>>,
    c5_6: Constant<Bits<6>>,
    c32_6: Constant<Bits<6>>,
    c1_7: Constant<Bits<7>>,
    c5_12: Constant<Bits<12>>,
    c32_12: Constant<Bits<12>>,
    c0_32: Constant<Bits<32>>,
    c8_32: Constant<Bits<32>>,
    ff_32: Constant<Bits<32>>,
    bit32_33: Constant<Bits<33>>,
    hi1_40: Constant<Bits<40>>,
    c5_32: Constant<Bits<32>>,
    line_mask: Constant<Bits<32>>,
    bias40: Constant<Bits<40>>,
    c1_40: Constant<Bits<40>>,
    /// Bits 32..39 of a 40-bit word.
    hi40: Constant<Bits<40>>,
    c0_40: Constant<Bits<40>>,
    c0_33: Constant<Bits<33>>,
    sh40: Vec<Constant<Bits<40>>>,
    off27: Constant<Bits<62>>,
    off59: Constant<Bits<62>>,
    bit61: Constant<Bits<62>>,
    zero_62: Constant<Bits<62>>,
    c1_32: Constant<Bits<32>>,
    c32_64: Constant<Bits<64>>,
    c2_8: Constant<Bits<8>>,
    c4_8: Constant<Bits<8>>,
    c0_8: Constant<Bits<8>>,
    c128_8: Constant<Bits<8>>,
    one64: Constant<Bits<64>>,
    zero64: Constant<Bits<64>>,
    ones32: Constant<Bits<32>>,

    // ---- Tuple at the head of the ATQ (`q_*`: read from it in the start
    // cycle; `t_*`: the registered copy).
    q_tx: Signal<Local, Bits<32>>,
    q_ty: Signal<Local, Bits<32>>,
    q_kind: Signal<Local, Bits<2>>,
    q_gran: Signal<Local, Bits<2>>,
    q_cmp: Signal<Local, Bits<3>>,
    q_addr: Signal<Local, Bit>,
    q_pred: Signal<Local, Bit>,
    t_base: Signal<Local, Bits<32>>,
    t_tx: Signal<Local, Bits<32>>,
    t_ty: Signal<Local, Bits<32>>,
    t_cx: Signal<Local, Bits<32>>,
    t_cy: Signal<Local, Bits<32>>,
    t_scalar: Signal<Local, Bits<32>>,
    t_gran: Signal<Local, Bits<2>>,
    t_cmp: Signal<Local, Bits<3>>,
    t_guard: Signal<Local, Bit>,
    is_addr: Signal<Local, Bit>,
    is_data: Signal<Local, Bit>,
    is_pred: Signal<Local, Bit>,
    reserved: Signal<Local, Bit>,
    // ---- Slots.
    done_ok: Signal<Local, Bit>,
    launch_ok: Signal<Local, Bit>,
    act1: Signal<Local, Bits<16>>,
    // ---- The next warp (set up this cycle).
    /// OR trees over 16 leaves (slot `s` at leaf `s`, node `i` at `16 +
    /// i`, root 30): the current slot's CTA index after this edge's launch.
    tcx: Vec<Signal<Local, Bits<16>>>,
    tcy: Vec<Signal<Local, Bits<16>>>,
    /// The lowest active slot and the lowest slot of `todo` above the
    /// current one (one-hot).
    low_act: Signal<Local, Bits<16>>,
    low_nxt: Signal<Local, Bits<16>>,
    /// `low_act` and `low_nxt` as slot numbers.
    pk_enc_act: Pack<SB>,
    pk_enc_nxt: Pack<SB>,
    cur_cx: Signal<Local, Bits<16>>,
    cur_cy: Signal<Local, Bits<16>>,
    wid: Signal<Local, Bits<10>>,
    t0: Signal<Local, Bits<12>>,
    rem: Signal<Local, Bits<12>>,
    n: Signal<Local, Bits<6>>,
    nm1: Signal<Local, Bits<6>>,
    amask: Signal<Local, Bits<6>>,
    skip0: Signal<Local, Bit>,
    gskip: Signal<Local, Bit>,
    skip: Signal<Local, Bit>,
    // ---- Guard masks.
    wa: Signal<Local, Bits<WB>>,
    ra: Signal<Local, Bits<WB>>,
    gmask: Signal<Local, Bits<32>>,
    g_write: Signal<Local, Bit>,
    // ---- Predicates.
    vlast: Signal<Local, Bits<32>>,
    /// `(n-1)*step + 2^31` of the next warp (set up one warp ahead): six
    /// partial products and the bias reduced by five 3:2 compressors
    /// (`po[0..7]` the operands, then two per compressor) and one adder.
    pb: Signal<Local, Bits<40>>,
    po: Vec<Signal<Local, Bits<40>>>,
    zero_offs: Signal<Local, Bit>,
    arith: Signal<Local, Bit>,
    fits: Signal<Local, Bit>,
    c32: Signal<Local, Bit>,
    s31: Signal<Local, Bit>,
    pb_hi0: Signal<Local, Bit>,
    pb_hi1: Signal<Local, Bit>,
    pb_hiff: Signal<Local, Bit>,
    fast: Signal<Local, Bit>,
    fast_mask: Signal<Local, Bits<32>>,
    slow_mask: Signal<Local, Bits<32>>,
    pmask: Signal<Local, Bits<32>>,
    lastg: Signal<Local, Bits<2>>,
    // ---- Control.
    start: Signal<Local, Bit>,
    start_drop: Signal<Local, Bit>,
    start_go: Signal<Local, Bit>,
    cyc: Signal<Local, Bit>,
    load: Signal<Local, Bit>,
    nlast: Signal<Local, Bit>,
    memfree: Signal<Local, Bit>,
    a_push: Signal<Local, Bit>,
    pf_push: Signal<Local, Bit>,
    ps_final: Signal<Local, Bit>,
    ps_adv: Signal<Local, Bit>,
    p_push: Signal<Local, Bit>,
    wdone: Signal<Local, Bit>,
    slot_last: Signal<Local, Bit>,
    todo_next: Signal<Local, Bits<16>>,
    tuple_done: Signal<Local, Bit>,
    atq_pop: Signal<Local, Bit>,
    enq_push: Signal<Local, Bit>,
    d_hit: Signal<Local, Bit>,
    pk_last: Signal<Local, Bits<62>>,
    pk_guard: Signal<Local, Bits<8>>,

    _nc: usize,
    _n16: usize,
    _ntree: usize,
    _w6: usize,
    _sb: usize,
    /// Per bit `b` of a slot number: the slots whose number has bit `b`.
    sbit: Vec<Constant<Bits<16>>>,
    c1_32m: Constant<Bits<32>>,
    _ncsa: usize,
    _nbb: usize,
    _nlo: usize,
    _n: usize,
}

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    /// Build the unit for `p` (which must be valid). Panics if `p`'s widths
    /// are not the const generics.
    pub fn new(p: &DacParams) -> Self {
        assert_eq!(p.ADDR_W, 32, "ADDR_W");
        assert_eq!(WB as u32, p.warp_bits(), "clog2(N_WARPS)");
        assert_eq!(SB as u32, p.slot_bits(), "clog2(N_CTA)");
        assert_eq!(CB as u32, p.count_bits(), "clog2(ATQ_DEPTH + 1)");
        assert_eq!(AQ as u32, p.warp_bits() + log2_exact(p.PWAQ_DEPTH), "AQ");
        assert_eq!(PQ as u32, p.warp_bits() + log2_exact(p.PWPQ_DEPTH), "PQ");
        assert_eq!(AC as u32, log2_exact(p.PWAQ_DEPTH) + 1, "AC");
        assert_eq!(PC as u32, log2_exact(p.PWPQ_DEPTH) + 1, "PC");
        assert!(SB <= 4 && clog2(p.N_CTA) as usize == SB);
        let nc = p.N_CTA as usize;
        let nw = p.N_WARPS as usize;
        let atq = p.ATQ_DEPTH as usize;
        with_defaults!(DacExpanderRtl {
            atq0: ShiftQueue::new(atq),
            atq1: ShiftQueue::new(atq),
            atq2: ShiftQueue::new(atq),
            atq3: ShiftQueue::new(atq),
            aq: MultiQueue::new(nw, p.PWAQ_DEPTH as usize),
            pq: MultiQueue::new(nw, p.PWPQ_DEPTH as usize),
            gmem: Mem::new(nw),
            cmp_l: (0..32).map(|_| SignedCmp::default()).collect(),
            cpack: Pack::new(32),
            cx: regs(nc),
            lv: regs(32),
            r_bb: regs(5),
            r_lo: regs(31),
            r_ci: regs(32),
            cy: regs(nc),
            slot5: konsts::<5>(0..nc as u64),
            mul_sw: (0..nc).map(|_| SignedMul::default()).collect(),
            pk_start: SlotPick::new(nc),
            pk_enc_act: Pack::new(SB),
            pk_enc_nxt: Pack::new(SB),
            pk_adv: SlotPick::new(nc),
            tcx: sigs(31),
            tcy: sigs(31),
            slot_id: konsts::<SB>(0..nc as u64),
            n_cta: konst(p.N_CTA),
            n_warps: konst(p.N_WARPS),
            one16: konst(1),
            one10: konst(1),
            zero16: konst(0),
            one_cb: konst(1),
            k_addr: konst(kind::ADDR),
            k_data: konst(kind::DATA),
            k_pred: konst(kind::PRED),
            k_rsvd: konst(3),
            gran_rsvd: konst(3),
            cmp_rsvd: konst(6),
            cmp_ord: konst(4),
            c0_2: konst(0),
            c1_2: konst(1),
            c0_6: konst(0),
            c1_6: konst(1),
            c5_6: konst(5),
            c32_6: konst(32),
            c1_7: konst(1),
            c5_12: konst(5),
            c32_12: konst(32),
            c0_32: konst(0),
            c8_32: konst(8),
            ff_32: konst(0xFF),
            bit32_33: konst(1 << 32),
            hi1_40: konst(1 << 32),
            c5_32: konst(5),
            line_mask: konst(0xFFFF_FF80),
            bias40: konst(0x8000_0000),
            c1_40: konst(1),
            hi40: konst(0xFF_0000_0000),
            c0_40: konst(0),
            c0_33: konst(0),
            _w6: 6,
            _sb: SB,
            sbit: konsts::<16>((0..SB as u32).map(|b| {
                (0..16u64)
                    .filter(|s| s >> b & 1 == 1)
                    .fold(0, |a, s| a | 1 << s)
            })),
            c1_32m: konst(0xFFFF_FFFE),
            _ncsa: 5,
            _nbb: 5,
            _nlo: 31,
            sh40: konsts::<40>(0..6),
            po: sigs(17),
            off27: konst(27),
            off59: konst(59),
            bit61: konst(1 << 61),
            zero_62: konst(0),
            c1_32: konst(1),
            c32_64: konst(32),
            c2_8: konst(2),
            c4_8: konst(4),
            c0_8: konst(0),
            c128_8: konst(128),
            one64: konst(1),
            zero64: konst(0),
            ones32: konst(0xFFFF_FFFF),
            _nc: nc,
            _n16: 16,
            _ntree: 15,
            _n: 32,
        } default {
            // Ports.
            clock, reset, cfg_bdx_log2, cfg_threads, cfg_warps_per_cta, cta_launch_valid,
            cta_launch_slot, cta_launch_x, cta_launch_y, cta_done_valid, cta_done_slot, enq_valid,
            enq_kind, enq_base, enq_off_tx, enq_off_ty, enq_off_cx, enq_off_cy, enq_gran, enq_cmp,
            enq_scalar, enq_guard, mem_ready, deq_valid, deq_warp, deq_kind, enq_ready, mem_valid,
            mem_addr, rsp_valid, rsp_hit, rsp_addr, rsp_mask, rsp_gran, rsp_last, atq_count,
            stat_pred_fast, stat_pred_slow, stat_guard_skips,
            // Blocks.
            lane0, lanes, basis, offs, setup, brks, delta, dfl1, dfl2, rec, add_pb, add_fit, zx_v33, zx_p33, cmp_first, cmp_last,
            sx_tx, zx_w10, zx_wi12, zx_t12, zx_k12, zx_k6, zx_k32,
            zx_wi7, zx_wc7, zx_ls, zx_ds, zx_cnt_l, zx_cnt_d, pk_addr,
            pk_mask, pk_gran, up_addr, pk_base, pk_tx, pk_ty, pk_cx, pk_cy, pk_sc, pk_kind, pk_gr,
            pk_cmp, zx_wa64, zx_ra64,
            // Registers.
            active, todo, busy, p, grp, r_gm, part, count, mem_v, mem_a, r_valid, r_hit, r_addr,
            r_mask, r_gran, r_last, st_fast, st_slow, st_gskip, g_written, cwid, cv, cend, nslot,
            nwi, nwid, cc_x, cc_y, ws, wc, wn, wnm1, wskip0, wwid, wlast, wv, wg, r_act, r_live, r_ends, r_gef, r_lastg, r_skip0, r_gskip, r_pb, r_vl, r_pop, r_st, r_gw, r_gwa, r_gwd,
            h_base, h_tx, h_ty, h_cx, h_cy, h_sc, h_nsc, h_gran, h_cmp, h_addr, h_data, h_pred, h_guard,
            h_zo, h_ar, r_afull, r_pfull, r_d2, r_z1, r_m1, r_z2, r_m2,
            // Local signals.
            q_tx, q_ty, q_kind, q_gran, q_cmp, q_addr, q_pred,
            t_base, t_tx, t_ty, t_cx, t_cy, t_scalar, t_gran, t_cmp, t_guard, is_addr,
            is_data, is_pred, reserved, done_ok, launch_ok, act1, low_act, low_nxt, cur_cx,
            cur_cy, wid,
            t0, rem, n, nm1, amask, skip0, gskip, skip, wa, ra, gmask, g_write, vlast, pb, zero_offs,
            arith, fits, c32, s31, pb_hi0, pb_hi1, pb_hiff, fast, fast_mask, slow_mask, pmask, lastg, start, start_drop, start_go, cyc, load, nlast,
            memfree, a_push, pf_push, ps_final, ps_adv, p_push, wdone, slot_last,
            todo_next, tuple_done, atq_pop, enq_push, d_hit, pk_last, pk_guard,
        })
    }
}

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > Logic for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    crate::section::sections!(Tuple, Head, Warp, Predicate, Control, Expander, Queues);
}

impl<
        const WB: usize,
        const SB: usize,
        const CB: usize,
        const AQ: usize,
        const PQ: usize,
        const AC: usize,
        const PC: usize,
    > crate::RtlUnit for DacExpanderRtl<WB, SB, CB, AQ, PQ, AC, PC>
{
    fn block(&self) -> &dyn Block {
        self
    }
    fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        crate::emit::emit_unit("dac_expander", self, header)
    }
    // `set_inputs` and `outputs`, from the unit's port declaration.
    ports::dac_expander_ports!(crate::rtl_port_glue);
    fn set_clock(&mut self, high: bool) {
        self.clock.next = Clock::from(high);
    }
    fn settle(&mut self) -> bool {
        simulate(self, 1000)
    }
}
