//! The top of `snake_prefetcher` ([`SnakePrefetcherRtl`]): the throttle,
//! the Head table, the load's training of the Tail entries, the walk queue,
//! the walker and the output queue.

use ports::clog2;
use ports::snake::SnakeParams;
use rust_hdl::prelude::*;

use super::entry::SnakeEntry;
use super::head::SnakeHead;
use super::outq::OutQueue;
use super::prim::{FirstOne, IwDiv, PairKeys, Sum5};
use super::walkq::{LaneQueue, PeekQueue};
use crate::arith::PrefixAdd;
use crate::reg::Reg;
use crate::util::{konst, konsts, regs, sigs, with_defaults, Pack, ZeroExt};

mod front;
mod pending;
mod select;
mod updates;
mod walker;

/// Kernel section 1 ([`front`]): the registers' clock and reset, the
/// throttle, the load and its warp's previous load (Head), the walk job at
/// the head of the walk queue, and every entry's comparison with this
/// cycle's keys.
struct Front;
/// Kernel section 2 ([`select`]): the lowest-numbered matches, the victim,
/// and step 2, `p`'s inter-warp fields after this load.
struct Select;
/// Kernel section 2b ([`select`]): the next staged load's inter-warp
/// fields, registered a cycle ahead (issue 29).
struct PView;
/// Kernel section 3 ([`walker`]): the walker's decision for the head job
/// (a hop, an intra- or inter-warp prefetch, or the job's end).
struct Walker;
/// Kernel section 4 ([`walker`]): the prefetch it makes, the walker's
/// state, and the intra-warp observation of a closing hop.
struct WalkState;
/// Kernel section 5 ([`updates`]): the new entry's per-PC fields, the
/// recency order and the entry updates.
struct NewEntry;
/// Kernel section 6 ([`updates`]): the walk queue and the output queue.
struct Updates;
/// Kernel section 7 ([`pending`]): the registered contents of this edge's
/// allocation, written into the entry at the next edge (issue 29 step 14).
struct Pending;

/// The `snake_prefetcher` unit. `A` = `ADDR_W`, `P` = `PC_W`, `WB` =
/// `clog2(N_WARPS)`, `WD` = `WB + 1`, `NW` = `N_WARPS`, `RT` =
/// `clog2(TAIL_ENTRIES)`, `JW` = `WB + P` (a walk job's warp and pc, one
/// lane of the walk queue; its address and its `{end, span}` are the
/// others), `QW` = `A + WB + 2 + 12` (a prefetch packed for the output
/// queue, `{span, kind, warp, addr}`). Build it with
/// `<ports::snake::SnakePrefetcher as crate::registry::RtlDecl>::build`.
#[derive(LogicBlock)]
pub struct SnakePrefetcherRtl<
    const A: usize,
    const P: usize,
    const WB: usize,
    const WD: usize,
    const NW: usize,
    const RT: usize,
    const JW: usize,
    const QW: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset.
    pub reset: Signal<In, Bit>,
    /// A demand load this cycle.
    pub ld_valid: Signal<In, Bit>,
    /// Its warp.
    pub ld_warp: Signal<In, Bits<WB>>,
    /// Its pc.
    pub ld_pc: Signal<In, Bits<P>>,
    /// Its first active thread's address.
    pub ld_addr: Signal<In, Bits<A>>,
    /// Its threads share one stride (else the load is ignored).
    pub ld_uniform: Signal<In, Bit>,
    /// One past the last warp slot of the load's CTA.
    pub ld_cta_end: Signal<In, Bits<WD>>,
    /// The load's footprint in bytes (first to last active thread).
    pub ld_span: Signal<In, Bits<12>>,
    /// The cache has no free space.
    pub cache_full: Signal<In, Bit>,
    /// Memory bandwidth utilisation, percent.
    pub bw_util: Signal<In, Bits<7>>,
    /// The consumer takes the offered prefetch.
    pub pf_ready: Signal<In, Bit>,
    /// A prefetch is offered.
    pub pf_valid: Signal<Out, Bit>,
    /// Its address.
    pub pf_addr: Signal<Out, Bits<A>>,
    /// Its warp.
    pub pf_warp: Signal<Out, Bits<WB>>,
    /// Its kind (0 chain, 1 inter-warp, 2 intra-warp).
    pub pf_kind: Signal<Out, Bits<2>>,
    /// The predicted load's footprint in bytes.
    pub pf_span: Signal<Out, Bits<12>>,
    /// Prefetching is halted.
    pub throttled: Signal<Out, Bit>,

    head: SnakeHead<A, P, WB, NW>,
    ents: Vec<SnakeEntry<A, P, WB, NW, RT>>,
    /// The entries' promoted `pc1 = cur` matches and invalid bits, packed.
    fo_cur: FirstOne,
    fo_inv: FirstOne,
    /// The walk queue's `{pc, warp}` lane, which also shows its second
    /// entry (the entries compare their `pc1` with the next head a cycle
    /// ahead, and register its warp's bit of `wv`).
    walkq: PeekQueue<JW, JW>,
    walkq_addr: LaneQueue<A>,
    /// The job's `{end, span}`: `ld_span` in bits 0..12, `ld_cta_end`
    /// zero-extended to 8 bits in bits 12..20.
    walkq_se: LaneQueue<20>,
    /// The output queue (`OutQueue`: `ShiftQueue` that also shows one
    /// short of full, for the output stage's room).
    pfq: OutQueue<QW>,
    iw_div: IwDiv<WB, A>,
    /// `a + k x stride` of the prefetch in the output stage (`intra` or
    /// `iw_stride`, issue 29 step 11: from the stage's registers): the
    /// address and four masked, shifted copies of the stride, carry-save
    /// rows and a prefix adder (issue 29 step 7).
    ks: Sum5<A>,
    /// The link stride `ld_addr - prev.addr` (a prefix adder).
    sub_s: PrefixAdd<A>,
    /// The eviction keys of the next cycle compared pairwise (issue 29
    /// step 6), registered in `vt0`..`vt3`; and the ranks' order now.
    pkeys: PairKeys<RT>,
    /// This load's clearing bits, one per entry, as a word.
    pk_clr: Pack<32>,
    /// The LRU group's members, as a word.
    pk_grp: Pack<32>,
    zx_onehot: ZeroExt<WB, NW>,
    zx_jw: ZeroExt<WB, 8>,
    zx_kidx: ZeroExt<5, 8>,
    jp_w: ZeroExt<WB, JW>,
    jp_p: ZeroExt<P, JW>,
    qp_addr: ZeroExt<A, QW>,
    qp_warp: ZeroExt<WB, QW>,
    qp_kind: ZeroExt<2, QW>,
    qp_span: ZeroExt<12, QW>,
    js_span: ZeroExt<12, 20>,
    js_end: ZeroExt<WD, 20>,

    count: Reg<Bits<16>>,
    bw_halt: Reg<Bit>,
    /// `count != 0 | bw_halt` (prefetching is halted), registered.
    r_halted: Reg<Bit>,
    /// `ph_chain`, `ph_intra` or `ph_inter`.
    phase: Reg<Bits<2>>,
    hop: Reg<Bits<5>>,
    kidx: Reg<Bits<5>>,
    cur: Reg<Bits<P>>,
    addr: Reg<Bits<A>>,
    sum: Reg<Bits<A>>,
    /// The load stage (issue 29): the load accepted at the last edge, its
    /// warp's previous load (`l_link` = that row was valid, `l_q` its pc)
    /// and the link stride `l_s = a - prev.addr`.
    l_valid: Reg<Bit>,
    l_warp: Reg<Bits<WB>>,
    l_pc: Reg<Bits<P>>,
    l_addr: Reg<Bits<A>>,
    l_span: Reg<Bits<12>>,
    l_end: Reg<Bits<WD>>,
    l_link: Reg<Bit>,
    l_q: Reg<Bits<P>>,
    l_s: Reg<Bits<A>>,
    /// The staged load's warp, one-hot.
    l_onehot: Reg<Bits<NW>>,
    /// The matches of the entry allocated at the last edge (`f_q`, `f_p`,
    /// `f_t`, `f_j` registered; issue 29 step 8).
    rf_q: Reg<Bit>,
    rf_p: Reg<Bit>,
    rf_t: Reg<Bit>,
    /// The staged load's `p`'s inter-warp fields (the OR of the entries
    /// with `pc1 = p`), registered a cycle ahead from the state after that
    /// edge (this edge's update of `p` forwarded, an evicted entry left
    /// out).
    r_pv_valid: Reg<Bit>,
    r_pv_warp: Reg<Bits<WB>>,
    r_pv_addr: Reg<Bits<A>>,
    r_pv_stride: Reg<Bits<A>>,
    r_pv_cnt: Reg<Bits<2>>,
    /// The job pc's `intra` at the last edge (a closing hop's: the value
    /// its observation replaced, compared with `x`, the `sum` register,
    /// in the pending cycle).
    r_ointra: Reg<Bits<A>>,
    /// A closing hop's `x` (`sum + stride`, the `sum` register after that
    /// edge), written only at a closing hop (issue 29 step 10): the
    /// pending observation's `intra` and the operand of `oeq`.
    r_ox: Reg<Bits<A>>,
    /// The allocation of the last edge (issue 29 step 14): the new entry's
    /// `pc1`, `pc2`, `stride`, `wv` (one-hot), `span` and per-PC fields,
    /// registered at that edge (at every edge, without an enable: only the
    /// entry marked `r_new` reads them) and written into the entry at this
    /// edge with this edge's updates; until then the entry reads them.
    a_q: Reg<Bits<P>>,
    a_p: Reg<Bits<P>>,
    a_s: Reg<Bits<A>>,
    a_w: Reg<Bits<NW>>,
    a_sp: Reg<Bits<12>>,
    a_intra: Reg<Bits<A>>,
    a_t2: Reg<Bits<2>>,
    a_iw_valid: Reg<Bit>,
    a_iw_warp: Reg<Bits<WB>>,
    a_iw_addr: Reg<Bits<A>>,
    a_iw_stride: Reg<Bits<A>>,
    a_iw_cnt: Reg<Bits<2>>,
    /// The output stage (issue 29 step 11): an intra- or inter-warp
    /// prefetch decided at the last edge, which enters the output queue at
    /// this edge as `a + k x stride` formed from these registers.
    pst_valid: Reg<Bit>,
    pst_a: Reg<Bits<A>>,
    pst_st: Reg<Bits<A>>,
    pst_k: Reg<Bits<4>>,
    pst_w: Reg<Bits<WB>>,
    pst_kind: Reg<Bits<2>>,
    pst_span: Reg<Bits<12>>,
    /// Entry e's eviction-key comparisons with every entry j (bit j), for
    /// this cycle, registered at the last edge from that edge's updates
    /// ([`PairKeys`]): with `D = ones_j - ones_e`, `D < -1`, `D < 0`, `D <
    /// 1`, `D < 2`.
    vt0: Vec<Reg<Bits<32>>>,
    vt1: Vec<Reg<Bits<32>>>,
    vt2: Vec<Reg<Bits<32>>>,
    vt3: Vec<Reg<Bits<32>>>,

    throttle_cycles: Constant<Bits<16>>,
    count_zero: Constant<Bits<16>>,
    count_one: Constant<Bits<16>>,
    bw_high: Constant<Bits<7>>,
    bw_low: Constant<Bits<7>>,
    train: Constant<Bits<8>>,
    chain_depth: Constant<Bits<5>>,
    loop_hops: Constant<Bits<5>>,
    intra_degree: Constant<Bits<5>>,
    own_links: Constant<Bits<1>>,
    iw_same_cta: Constant<Bits<1>>,
    span_en: Constant<Bits<1>>,
    ph_chain: Constant<Bits<2>>,
    ph_intra: Constant<Bits<2>>,
    ph_inter: Constant<Bits<2>>,
    iw_degree: Constant<Bits<5>>,
    n_warps: Constant<Bits<8>>,
    /// The rank that starts the LRU group, when the group is not the whole
    /// table (else empty: every entry is in it, and no comparison is
    /// emitted that would be constant).
    group_first: Vec<Constant<Bits<RT>>>,
    nw_one: Constant<Bits<NW>>,
    five_zero: Constant<Bits<5>>,
    five_one: Constant<Bits<5>>,
    eight_one: Constant<Bits<8>>,
    two_zero: Constant<Bits<2>>,
    two_one: Constant<Bits<2>>,
    two_three: Constant<Bits<2>>,
    two_two: Constant<Bits<2>>,
    addr_zero: Constant<Bits<A>>,
    pc_zero: Constant<Bits<P>>,
    wb_zero: Constant<Bits<WB>>,
    qoff_warp: Constant<Bits<32>>,
    qoff_kind: Constant<Bits<32>>,
    qoff_span: Constant<Bits<32>>,
    joff_end: Constant<Bits<32>>,
    joff_p: Constant<Bits<32>>,
    kind_chain: Constant<Bits<2>>,
    kind_inter: Constant<Bits<2>>,
    kind_intra: Constant<Bits<2>>,
    span_zero: Constant<Bits<12>>,
    sh_one: Constant<Bits<32>>,
    sh_two: Constant<Bits<32>>,
    sh_three: Constant<Bits<32>>,
    rank_zero: Constant<Bits<RT>>,
    rank_one: Constant<Bits<RT>>,

    halted: Signal<Local, Bit>,
    /// A load is accepted this cycle (`ld_valid` and `ld_uniform`).
    accept: Signal<Local, Bit>,
    /// Its warp, one-hot (the Head row it writes).
    h_onehot: Signal<Local, Bits<NW>>,
    /// The staged load is handled this cycle.
    load_en: Signal<Local, Bit>,
    /// The accepted load's link stride (`ld_addr` less its warp's Head
    /// address): the next staged load's `s`.
    s_next: Signal<Local, Bits<A>>,
    /// The accepted load's keys against the staged load's link (`q` = its
    /// `q`; `p` = its `q`; `(p, s)` = its `(p, s)`): the registered matches
    /// of the entry the staged load allocates.
    f_q: Signal<Local, Bit>,
    f_p: Signal<Local, Bit>,
    f_t: Signal<Local, Bit>,
    /// The staged load's `q` (an allocated entry's new `pc1`) against the
    /// walk queue's next head pc.
    f_j: Signal<Local, Bit>,
    /// ... if the edge pops.
    f_j1: Signal<Local, Bit>,
    /// The pc of the walk queue's second job.
    jp1: Signal<Local, Bits<P>>,
    /// The warp of the walk queue's second job.
    jw1: Signal<Local, Bits<WB>>,
    /// `jw`, `jw1` = the staged load's warp (the entries' `r_hjw`).
    jw_w: Signal<Local, Bit>,
    jw1_w: Signal<Local, Bit>,
    /// `q = jp1`.
    q_is_j1: Signal<Local, Bit>,
    link_en: Signal<Local, Bit>,
    q: Signal<Local, Bits<P>>,
    s: Signal<Local, Bits<A>>,
    w_onehot: Signal<Local, Bits<NW>>,
    busy: Signal<Local, Bit>,
    jw: Signal<Local, Bits<WB>>,
    jp: Signal<Local, Bits<P>>,
    ja: Signal<Local, Bits<A>>,
    jspan: Signal<Local, Bits<12>>,
    /// The job's `end`, zero-extended to the 8-bit warp arithmetic.
    jend: Signal<Local, Bits<8>>,
    /// The walker is before its first hop (`hop = 0`).
    first: Signal<Local, Bit>,
    // The hop choice (one-hot) and its entry's masked fields.
    cw_any: Signal<Local, Bit>,
    chain_sel: Vec<Signal<Local, Bit>>,
    h_naddr: Vec<Signal<Local, Bits<A>>>,
    h_nsum: Vec<Signal<Local, Bits<A>>>,
    h_pc2: Vec<Signal<Local, Bits<P>>>,
    h_usable: Vec<Signal<Local, Bit>>,
    h_span: Vec<Signal<Local, Bits<12>>>,
    // Eviction and recency.
    in_group: Vec<Signal<Local, Bit>>,
    vic_ok: Vec<Signal<Local, Bit>>,
    /// The group members whose key is below entry e's (bit j).
    beats: Vec<Signal<Local, Bits<32>>>,
    victim: Vec<Signal<Local, Bit>>,
    hit: Vec<Signal<Local, Bit>>,
    newer: Vec<Signal<Local, Bit>>,
    new_rank: Vec<Signal<Local, Bits<RT>>>,
    alloc_inv: Signal<Local, Bit>,
    touch: Signal<Local, Bit>,
    any_hit: Signal<Local, Bit>,
    any_inval: Signal<Local, Bit>,
    allocate: Signal<Local, Bit>,
    // Step 2: p's per-PC fields and their update.
    s_iw_valid: Signal<Local, Bit>,
    s_iw_warp: Signal<Local, Bits<WB>>,
    s_iw_addr: Signal<Local, Bits<A>>,
    s_iw_stride: Signal<Local, Bits<A>>,
    s_iw_cnt: Signal<Local, Bits<2>>,
    /// The next staged load's pc is this one's (this edge's inter-warp
    /// update is its fields).
    pv_same: Signal<Local, Bit>,
    /// Some entry has `pc1` = the next staged load's pc after this edge
    /// (other than one evicted at it; an allocated one copies a survivor).
    pv_any: Signal<Local, Bit>,
    /// The OR of the entries' views with `pc1` = the next staged load's pc.
    o_iw_valid: Signal<Local, Bit>,
    o_iw_warp: Signal<Local, Bits<WB>>,
    o_iw_addr: Signal<Local, Bits<A>>,
    o_iw_stride: Signal<Local, Bits<A>>,
    o_iw_cnt: Signal<Local, Bits<2>>,
    /// The accepted load's warp is the staged load's.
    same_w: Signal<Local, Bit>,
    cand: Signal<Local, Bits<A>>,
    u_iw_stride: Signal<Local, Bits<A>>,
    u_iw_cnt: Signal<Local, Bits<2>>,
    // The walker.
    chain_found: Signal<Local, Bit>,
    e_pc2: Signal<Local, Bits<P>>,
    e_usable: Signal<Local, Bit>,
    e_span: Signal<Local, Bits<12>>,
    pj_found: Signal<Local, Bit>,
    pj_intra: Signal<Local, Bits<A>>,
    pj_t2: Signal<Local, Bits<2>>,
    pj_iw_stride: Signal<Local, Bits<A>>,
    pj_iw_cnt: Signal<Local, Bits<2>>,
    hop_ok: Signal<Local, Bit>,
    hop_emit: Signal<Local, Bit>,
    hop_step: Signal<Local, Bit>,
    kin: Signal<Local, Bits<5>>,
    kiw: Signal<Local, Bits<5>>,
    /// The next `kidx` after a prefetch: `kmul_in` or `kmul_iw`.
    kmul: Signal<Local, Bits<5>>,
    /// The intra-warp step's k (`kin + 1`).
    kmul_in: Signal<Local, Bits<5>>,
    /// The inter-warp step's k (`kiw + 1`).
    kmul_iw: Signal<Local, Bits<5>>,
    cta_ok: Signal<Local, Bit>,
    intra_ok: Signal<Local, Bit>,
    /// The intra-warp step's conditions but for "no hop" (with no hop,
    /// `intra_ok`; it picks the output stage's stride, warp and kind).
    intra_sel: Signal<Local, Bit>,
    /// The output queue has room for a prefetch of this cycle: not full,
    /// and not one short of full while the output stage holds one.
    room: Signal<Local, Bit>,
    inter_ok: Signal<Local, Bit>,
    any_ok: Signal<Local, Bit>,
    next_addr: Signal<Local, Bits<A>>,
    next_sum: Signal<Local, Bits<A>>,
    closes: Signal<Local, Bit>,
    inter_warp: Signal<Local, Bits<8>>,
    push: Signal<Local, Bit>,
    job_end: Signal<Local, Bit>,
    /// A closing hop this cycle: its intra-warp observation becomes
    /// pending in the entries with `pc1 = jp` and is written at the next
    /// edge (`x` is then the walker's `sum` register).
    obs_en: Signal<Local, Bit>,
    /// The chosen entry's `pc2 = jp`, per entry.
    h_close: Vec<Signal<Local, Bit>>,
    /// The pending observation's `x` equals the `intra` it replaced.
    oeq: Signal<Local, Bit>,
    /// A new entry's pending observation (its `pc1` is the closing hop's
    /// job pc and it copies an entry that records the observation).
    c_op: Signal<Local, Bit>,
    pf_a: Signal<Local, Bits<A>>,
    pf_w: Signal<Local, Bits<WB>>,
    pf_k: Signal<Local, Bits<2>>,
    pf_s: Signal<Local, Bits<12>>,
    // The new entry's per-PC fields.
    q_other: Signal<Local, Bit>,
    q_is_p: Signal<Local, Bit>,
    q_is_jp: Signal<Local, Bit>,
    cq_intra: Signal<Local, Bits<A>>,
    cq_t2: Signal<Local, Bits<2>>,
    cq_iw_valid: Signal<Local, Bit>,
    cq_iw_warp: Signal<Local, Bits<WB>>,
    cq_iw_addr: Signal<Local, Bits<A>>,
    cq_iw_stride: Signal<Local, Bits<A>>,
    cq_iw_cnt: Signal<Local, Bits<2>>,
    cp_intra: Signal<Local, Bits<A>>,
    cp_t2: Signal<Local, Bits<2>>,
    cp_iw_valid: Signal<Local, Bit>,
    cp_iw_warp: Signal<Local, Bits<WB>>,
    cp_iw_addr: Signal<Local, Bits<A>>,
    cp_iw_stride: Signal<Local, Bits<A>>,
    cp_iw_cnt: Signal<Local, Bits<2>>,

    _ne: usize,
    _grp: usize,
}

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    /// Build the unit for `p` (which must be valid). Panics if `p`'s widths
    /// are not the const generics.
    pub fn new(p: &SnakeParams) -> Self {
        assert_eq!(A as u64, p.ADDR_W, "ADDR_W");
        assert_eq!(P as u64, p.PC_W, "PC_W");
        assert_eq!(WB as u32, p.warp_bits(), "clog2(N_WARPS)");
        assert_eq!(WD, WB + 1, "WD = WB + 1");
        assert_eq!(NW as u64, p.N_WARPS, "NW = N_WARPS");
        assert_eq!(RT as u32, clog2(p.TAIL_ENTRIES), "clog2(TAIL_ENTRIES)");
        assert_eq!(JW, WB + P, "JW = WB + PC_W");
        assert_eq!(QW, A + WB + 2 + 12, "QW = ADDR_W + WB + 2 + 12");
        assert!(QW <= 64, "the output queue's payload is one word");
        assert!(WB <= 7, "warp ids fit the 8-bit warp arithmetic");
        let ne = p.TAIL_ENTRIES as usize;
        with_defaults!(SnakePrefetcherRtl {
            head: SnakeHead::new(p.N_WARPS as usize),
            ents: (0..ne).map(|_| SnakeEntry::default()).collect(),
            fo_cur: FirstOne::new(ne),
            fo_inv: FirstOne::new(ne),
            pkeys: PairKeys::new(ne),
            pk_clr: Pack::new(ne),
            pk_grp: Pack::new(ne),
            vt0: regs(ne),
            vt1: regs(ne),
            vt2: regs(ne),
            vt3: regs(ne),
            beats: sigs(ne),
            walkq: PeekQueue::new(p.WALKQ_DEPTH as usize, 0),
            walkq_addr: LaneQueue::new(p.WALKQ_DEPTH as usize),
            walkq_se: LaneQueue::new(p.WALKQ_DEPTH as usize),
            pfq: OutQueue::new(p.PFQ_DEPTH as usize),
            throttle_cycles: konst(p.THROTTLE_CYCLES),
            count_zero: konst(0),
            count_one: konst(1),
            bw_high: konst(p.BW_HIGH),
            bw_low: konst(p.BW_LOW),
            train: konst(p.TRAIN_WARPS),
            chain_depth: konst(p.CHAIN_DEPTH),
            loop_hops: konst(p.LOOP_HOPS),
            intra_degree: konst(p.INTRA_DEGREE),
            own_links: konst(p.OWN_LINKS),
            iw_same_cta: konst(p.IW_SAME_CTA),
            span_en: konst(p.SPAN),
            ph_chain: konst(0),
            ph_intra: konst(1),
            ph_inter: konst(2),
            iw_degree: konst(p.IW_DEGREE),
            n_warps: konst(p.N_WARPS),
            group_first: konsts::<RT>(
                (p.LRU_GROUP < p.TAIL_ENTRIES)
                    .then_some(p.TAIL_ENTRIES - p.LRU_GROUP)
                    .into_iter(),
            ),
            _grp: usize::from(p.LRU_GROUP < p.TAIL_ENTRIES),
            nw_one: konst(1),
            five_zero: konst(0),
            five_one: konst(1),
            eight_one: konst(1),
            two_zero: konst(0),
            two_one: konst(1),
            two_three: konst(3),
            two_two: konst(2),
            addr_zero: konst(0),
            pc_zero: konst(0),
            wb_zero: konst(0),
            qoff_warp: konst(A as u64),
            qoff_kind: konst((A + WB) as u64),
            qoff_span: konst((A + WB + 2) as u64),
            joff_end: konst(12),
            joff_p: konst(WB as u64),
            kind_chain: konst(ports::snake::kind::CHAIN),
            kind_inter: konst(ports::snake::kind::INTER_WARP),
            kind_intra: konst(ports::snake::kind::INTRA_WARP),
            span_zero: konst(0),
            sh_one: konst(1),
            sh_two: konst(2),
            sh_three: konst(3),
            rank_zero: konst(0),
            rank_one: konst(1),
            chain_sel: sigs(ne),
            h_naddr: sigs(ne),
            h_nsum: sigs(ne),
            h_pc2: sigs(ne),
            h_usable: sigs(ne),
            h_span: sigs(ne),
            h_close: sigs(ne),
            in_group: sigs(ne),
            vic_ok: sigs(ne),
            victim: sigs(ne),
            hit: sigs(ne),
            newer: sigs(ne),
            new_rank: sigs(ne),
            _ne: ne,
        } default {
            // Ports.
            clock, reset, ld_valid, ld_warp, ld_pc, ld_addr, ld_uniform, ld_cta_end, ld_span,
            cache_full, bw_util, pf_ready, pf_valid, pf_addr, pf_warp, pf_kind, pf_span, throttled,
            // Blocks.
            iw_div, ks, sub_s, zx_onehot, zx_jw, zx_kidx, jp_w, jp_p, qp_addr,
            qp_warp, qp_kind, qp_span, js_span, js_end,
            // Registers.
            count, bw_halt, r_halted, phase, hop, kidx, cur, addr, sum, l_valid, l_warp, l_pc, l_addr,
            l_span, l_end, l_link, l_q, l_s, l_onehot, rf_q, rf_p, rf_t, r_pv_valid,
            r_pv_warp, r_pv_addr, r_pv_stride, r_pv_cnt, r_ointra, r_ox, a_q, a_p, a_s, a_w, a_sp,
            a_intra, a_t2, a_iw_valid, a_iw_warp, a_iw_addr, a_iw_stride, a_iw_cnt, oeq, pst_valid, pst_a,
            pst_st, pst_k, pst_w, pst_kind, pst_span,
            // Local signals.
            halted, accept, h_onehot, load_en, s_next, f_q, f_p, f_t, f_j, f_j1, jp1, jw1, jw_w, jw1_w, q_is_j1, link_en, q, s, w_onehot, busy, jw, jp, ja, jspan, jend, first,
            e_usable, e_span, hop_ok, hop_emit, hop_step, kin, kiw, kmul,
            cta_ok, pf_s, cw_any, alloc_inv, touch, kmul_in, kmul_iw, q_other,
            q_is_p, q_is_jp, cq_intra, cq_t2, cq_iw_valid, cq_iw_warp, cq_iw_addr, cq_iw_stride,
            cq_iw_cnt,
            any_hit, any_inval, allocate, s_iw_valid, s_iw_warp, s_iw_addr, s_iw_stride, s_iw_cnt,
            pv_same, pv_any, o_iw_valid, o_iw_warp, o_iw_addr, o_iw_stride, o_iw_cnt, same_w,
            cand, u_iw_stride, u_iw_cnt, chain_found, e_pc2, pj_found, pj_intra, pj_t2,
            pj_iw_stride, pj_iw_cnt, intra_ok, inter_ok, any_ok, next_addr, next_sum,
            closes, inter_warp, push, job_end, intra_sel, room, obs_en, c_op, pf_a, pf_w, pf_k, cp_intra,
            cp_t2, cp_iw_valid, cp_iw_warp, cp_iw_addr, cp_iw_stride, cp_iw_cnt,
        })
    }
}

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > Logic for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    crate::section::sections!(Front, Select, PView, Walker, WalkState, NewEntry, Updates, Pending);
}

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > crate::RtlUnit for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    fn block(&self) -> &dyn Block {
        self
    }
    fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        crate::emit::emit_unit("snake_prefetcher", self, header)
    }
    // `set_inputs` and `outputs`, from the unit's port declaration.
    ports::snake_prefetcher_ports!(crate::rtl_port_glue);
    fn set_clock(&mut self, high: bool) {
        self.clock.next = Clock::from(high);
    }
    fn settle(&mut self) -> bool {
        simulate(self, 1000)
    }
}
