//! The top of `snake_prefetcher` ([`SnakePrefetcherRtl`]): the throttle,
//! the Head table, the load's training of the Tail entries, the walk queue,
//! the walker and the output queue.

use ports::clog2;
use ports::snake::SnakeParams;
use rust_hdl::prelude::*;

use super::{SnakeEntry, SnakeHead};
use crate::arith::{ExactDiv, SignedMul};
use crate::queue::ShiftQueue;
use crate::rank::RankOrder;
use crate::reg::Reg;
use crate::util::{konst, konsts, sigs, ZeroExt};

/// The `snake_prefetcher` unit. `A` = `ADDR_W`, `P` = `PC_W`, `WB` =
/// `clog2(N_WARPS)`, `WD` = `WB + 1`, `NW` = `N_WARPS`, `RT` =
/// `clog2(TAIL_ENTRIES)`, `JW` = `WB + P` (a walk job's warp and pc, one
/// lane of the walk queue; its address is the other), `QW` = `A + WB + 2`
/// (a prefetch packed for the output queue). Build it with
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
    /// Prefetching is halted.
    pub throttled: Signal<Out, Bit>,

    head: SnakeHead<A, P, WB, NW>,
    ents: Vec<SnakeEntry<A, P, WB, NW, RT>>,
    order: RankOrder<RT>,
    walkq: ShiftQueue<Bits<JW>>,
    walkq_addr: ShiftQueue<Bits<A>>,
    pfq: ShiftQueue<Bits<QW>>,
    iw_div: ExactDiv<WD, A>,
    mul: SignedMul<6, A>,
    zx_w: ZeroExt<WB, WD>,
    zx_iww: ZeroExt<WB, WD>,
    zx_onehot: ZeroExt<WB, NW>,
    zx_jw: ZeroExt<WB, 8>,
    zx_kidx: ZeroExt<5, 8>,
    zx_k: ZeroExt<5, 6>,
    jp_w: ZeroExt<WB, JW>,
    jp_p: ZeroExt<P, JW>,
    qp_addr: ZeroExt<A, QW>,
    qp_warp: ZeroExt<WB, QW>,
    qp_kind: ZeroExt<2, QW>,

    count: Reg<Bits<16>>,
    bw_halt: Reg<Bit>,
    phase: Reg<Bit>,
    hop: Reg<Bits<5>>,
    kidx: Reg<Bits<5>>,
    cur: Reg<Bits<P>>,
    addr: Reg<Bits<A>>,
    sum: Reg<Bits<A>>,

    throttle_cycles: Constant<Bits<16>>,
    count_zero: Constant<Bits<16>>,
    count_one: Constant<Bits<16>>,
    bw_high: Constant<Bits<7>>,
    bw_low: Constant<Bits<7>>,
    train: Constant<Bits<8>>,
    chain_depth: Constant<Bits<5>>,
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
    key_max: Constant<Bits<16>>,
    qoff_warp: Constant<Bits<32>>,
    qoff_kind: Constant<Bits<32>>,
    joff_p: Constant<Bits<32>>,
    kind_chain: Constant<Bits<2>>,
    kind_inter: Constant<Bits<2>>,
    kind_intra: Constant<Bits<2>>,

    halted: Signal<Local, Bit>,
    load_en: Signal<Local, Bit>,
    link_en: Signal<Local, Bit>,
    q: Signal<Local, Bits<P>>,
    s: Signal<Local, Bits<A>>,
    w_onehot: Signal<Local, Bits<NW>>,
    busy: Signal<Local, Bit>,
    jw: Signal<Local, Bits<WB>>,
    jp: Signal<Local, Bits<P>>,
    ja: Signal<Local, Bits<A>>,
    cur_eff: Signal<Local, Bits<P>>,
    addr_eff: Signal<Local, Bits<A>>,
    sum_eff: Signal<Local, Bits<A>>,
    // Lowest-numbered matches (prefix chains).
    p_below: Vec<Signal<Local, Bit>>,
    p_src: Vec<Signal<Local, Bit>>,
    cw_below: Vec<Signal<Local, Bit>>,
    c_below: Vec<Signal<Local, Bit>>,
    chain_sel: Vec<Signal<Local, Bit>>,
    pj_below: Vec<Signal<Local, Bit>>,
    pj_src: Vec<Signal<Local, Bit>>,
    q_below: Vec<Signal<Local, Bit>>,
    q_src: Vec<Signal<Local, Bit>>,
    inv_below: Vec<Signal<Local, Bit>>,
    // Eviction.
    in_group: Vec<Signal<Local, Bit>>,
    best: Vec<Signal<Local, Bits<16>>>,
    victim: Vec<Signal<Local, Bit>>,
    any_hit: Signal<Local, Bit>,
    any_inval: Signal<Local, Bit>,
    allocate: Signal<Local, Bit>,
    // Step 2: p's per-PC fields and their update.
    s_iw_valid: Signal<Local, Bit>,
    s_iw_warp: Signal<Local, Bits<WB>>,
    s_iw_addr: Signal<Local, Bits<A>>,
    s_iw_stride: Signal<Local, Bits<A>>,
    s_iw_cnt: Signal<Local, Bits<2>>,
    cand: Signal<Local, Bits<A>>,
    u_iw_stride: Signal<Local, Bits<A>>,
    u_iw_cnt: Signal<Local, Bits<2>>,
    // The walker.
    chain_found: Signal<Local, Bit>,
    e_stride: Signal<Local, Bits<A>>,
    e_pc2: Signal<Local, Bits<P>>,
    pj_found: Signal<Local, Bit>,
    pj_intra: Signal<Local, Bits<A>>,
    pj_t2: Signal<Local, Bits<2>>,
    pj_iw_stride: Signal<Local, Bits<A>>,
    pj_iw_cnt: Signal<Local, Bits<2>>,
    chain_ok: Signal<Local, Bit>,
    intra_ok: Signal<Local, Bit>,
    inter_ok: Signal<Local, Bit>,
    any_ok: Signal<Local, Bit>,
    next_addr: Signal<Local, Bits<A>>,
    next_sum: Signal<Local, Bits<A>>,
    closes: Signal<Local, Bit>,
    inter_warp: Signal<Local, Bits<8>>,
    push: Signal<Local, Bit>,
    job_end: Signal<Local, Bit>,
    obs_en: Signal<Local, Bit>,
    o_intra: Signal<Local, Bits<A>>,
    o_t2: Signal<Local, Bits<2>>,
    pf_a: Signal<Local, Bits<A>>,
    pf_w: Signal<Local, Bits<WB>>,
    pf_k: Signal<Local, Bits<2>>,
    // The new entry's per-PC fields.
    cp_intra: Signal<Local, Bits<A>>,
    cp_t2: Signal<Local, Bits<2>>,
    cp_iw_valid: Signal<Local, Bit>,
    cp_iw_warp: Signal<Local, Bits<WB>>,
    cp_iw_addr: Signal<Local, Bits<A>>,
    cp_iw_stride: Signal<Local, Bits<A>>,
    cp_iw_cnt: Signal<Local, Bits<2>>,

    _ne: usize,
    _nem1: usize,
    _ne1: usize,
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
        assert_eq!(QW, A + WB + 2, "QW = ADDR_W + WB + 2");
        assert!(WB <= 7, "warp ids fit the 8-bit warp arithmetic");
        let ne = p.TAIL_ENTRIES as usize;
        SnakePrefetcherRtl {
            clock: Default::default(),
            reset: Default::default(),
            ld_valid: Default::default(),
            ld_warp: Default::default(),
            ld_pc: Default::default(),
            ld_addr: Default::default(),
            ld_uniform: Default::default(),
            cache_full: Default::default(),
            bw_util: Default::default(),
            pf_ready: Default::default(),
            pf_valid: Default::default(),
            pf_addr: Default::default(),
            pf_warp: Default::default(),
            pf_kind: Default::default(),
            throttled: Default::default(),
            head: SnakeHead::new(p.N_WARPS as usize),
            ents: (0..ne).map(|_| SnakeEntry::default()).collect(),
            order: RankOrder::new(ne),
            walkq: ShiftQueue::new(p.WALKQ_DEPTH as usize),
            walkq_addr: ShiftQueue::new(p.WALKQ_DEPTH as usize),
            pfq: ShiftQueue::new(p.PFQ_DEPTH as usize),
            iw_div: Default::default(),
            mul: Default::default(),
            zx_w: Default::default(),
            zx_iww: Default::default(),
            zx_onehot: Default::default(),
            zx_jw: Default::default(),
            zx_kidx: Default::default(),
            zx_k: Default::default(),
            jp_w: Default::default(),
            jp_p: Default::default(),
            qp_addr: Default::default(),
            qp_warp: Default::default(),
            qp_kind: Default::default(),
            count: Default::default(),
            bw_halt: Default::default(),
            phase: Default::default(),
            hop: Default::default(),
            kidx: Default::default(),
            cur: Default::default(),
            addr: Default::default(),
            sum: Default::default(),
            throttle_cycles: konst(p.THROTTLE_CYCLES),
            count_zero: konst(0),
            count_one: konst(1),
            bw_high: konst(p.BW_HIGH),
            bw_low: konst(p.BW_LOW),
            train: konst(p.TRAIN_WARPS),
            chain_depth: konst(p.CHAIN_DEPTH),
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
            key_max: konst(0xffff),
            qoff_warp: konst(A as u64),
            qoff_kind: konst((A + WB) as u64),
            joff_p: konst(WB as u64),
            kind_chain: konst(ports::snake::kind::CHAIN),
            kind_inter: konst(ports::snake::kind::INTER_WARP),
            kind_intra: konst(ports::snake::kind::INTRA_WARP),
            halted: Default::default(),
            load_en: Default::default(),
            link_en: Default::default(),
            q: Default::default(),
            s: Default::default(),
            w_onehot: Default::default(),
            busy: Default::default(),
            jw: Default::default(),
            jp: Default::default(),
            ja: Default::default(),
            cur_eff: Default::default(),
            addr_eff: Default::default(),
            sum_eff: Default::default(),
            p_below: sigs(ne),
            p_src: sigs(ne),
            cw_below: sigs(ne + 1),
            c_below: sigs(ne + 1),
            chain_sel: sigs(ne),
            pj_below: sigs(ne + 1),
            pj_src: sigs(ne),
            q_below: sigs(ne),
            q_src: sigs(ne),
            inv_below: sigs(ne + 1),
            in_group: sigs(ne),
            best: sigs(ne + 1),
            victim: sigs(ne),
            any_hit: Default::default(),
            any_inval: Default::default(),
            allocate: Default::default(),
            s_iw_valid: Default::default(),
            s_iw_warp: Default::default(),
            s_iw_addr: Default::default(),
            s_iw_stride: Default::default(),
            s_iw_cnt: Default::default(),
            cand: Default::default(),
            u_iw_stride: Default::default(),
            u_iw_cnt: Default::default(),
            chain_found: Default::default(),
            e_stride: Default::default(),
            e_pc2: Default::default(),
            pj_found: Default::default(),
            pj_intra: Default::default(),
            pj_t2: Default::default(),
            pj_iw_stride: Default::default(),
            pj_iw_cnt: Default::default(),
            chain_ok: Default::default(),
            intra_ok: Default::default(),
            inter_ok: Default::default(),
            any_ok: Default::default(),
            next_addr: Default::default(),
            next_sum: Default::default(),
            closes: Default::default(),
            inter_warp: Default::default(),
            push: Default::default(),
            job_end: Default::default(),
            obs_en: Default::default(),
            o_intra: Default::default(),
            o_t2: Default::default(),
            pf_a: Default::default(),
            pf_w: Default::default(),
            pf_k: Default::default(),
            cp_intra: Default::default(),
            cp_t2: Default::default(),
            cp_iw_valid: Default::default(),
            cp_iw_warp: Default::default(),
            cp_iw_addr: Default::default(),
            cp_iw_stride: Default::default(),
            cp_iw_cnt: Default::default(),
            _ne: ne,
            _nem1: ne - 1,
            _ne1: ne + 1,
        }
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
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, bw_halt, phase, hop, kidx, cur, addr, sum);
        self.count.reset.next = self.reset.val();
        self.bw_halt.reset.next = self.reset.val();
        self.phase.reset.next = self.reset.val();
        self.hop.reset.next = self.reset.val();
        self.kidx.reset.next = self.reset.val();
        self.cur.reset.next = self.reset.val();
        self.addr.reset.next = self.reset.val();
        self.sum.reset.next = self.reset.val();

        // ---- Throttle (registered: halted and `throttled` come from it).
        self.halted.next = (self.count.q.val() != self.count_zero.val()) | self.bw_halt.q.val();
        self.throttled.next = self.halted.val();
        if self.cache_full.val() {
            self.count.d.next = self.throttle_cycles.val();
        } else if self.count.q.val() != self.count_zero.val() {
            self.count.d.next = self.count.q.val() - self.count_one.val();
        }
        if self.bw_util.val() >= self.bw_high.val() {
            self.bw_halt.d.next = true;
        } else if self.bw_util.val() <= self.bw_low.val() {
            self.bw_halt.d.next = false;
        }

        // ---- The load and the warp's previous load (Head).
        self.load_en.next = self.ld_valid.val() & self.ld_uniform.val();
        self.head.clock.next = self.clock.val();
        self.head.reset.next = self.reset.val();
        self.head.warp.next = self.ld_warp.val();
        self.zx_onehot.narrow.next = self.ld_warp.val();
        self.w_onehot.next = self.nw_one.val() << self.zx_onehot.wide.val();
        self.head.onehot.next = self.w_onehot.val();
        self.head.we.next = self.load_en.val();
        self.head.w_pc.next = self.ld_pc.val();
        self.head.w_addr.next = self.ld_addr.val();
        self.link_en.next = self.load_en.val() & self.head.prev_valid.val();
        self.q.next = self.head.prev_pc.val();
        self.s.next = self.ld_addr.val() - self.head.prev_addr.val();

        // ---- The walk job at the head of the walk queue.
        self.busy.next = self.walkq.o_valid.val() & self.walkq_addr.o_valid.val();
        self.jw.next = self.walkq.o_data.val().get_bits::<WB>(0);
        self.jp.next = self
            .walkq
            .o_data
            .val()
            .get_bits::<P>(self.joff_p.val().index());
        self.ja.next = self.walkq_addr.o_data.val();
        if self.hop.q.val() == self.five_zero.val() {
            self.cur_eff.next = self.jp.val();
            self.addr_eff.next = self.ja.val();
            self.sum_eff.next = self.addr_zero.val();
        } else {
            self.cur_eff.next = self.cur.q.val();
            self.addr_eff.next = self.addr.q.val();
            self.sum_eff.next = self.sum.q.val();
        }

        // ---- Every entry compares itself with this cycle's keys.
        for e in 0..self._ne {
            self.ents[e].clock.next = self.clock.val();
            self.ents[e].reset.next = self.reset.val();
            self.ents[e].q.next = self.q.val();
            self.ents[e].p.next = self.ld_pc.val();
            self.ents[e].s.next = self.s.val();
            self.ents[e].w_onehot.next = self.w_onehot.val();
            self.ents[e].link_en.next = self.link_en.val();
            self.ents[e].train.next = self.train.val();
            self.ents[e].cur.next = self.cur_eff.val();
            self.ents[e].jw.next = self.jw.val();
            self.ents[e].jp.next = self.jp.val();
        }

        // ---- Lowest-numbered matches: p's per-PC source (step 2), the
        // chain's entry (bit jw set first), the job pc's per-PC source, q's
        // per-PC source other than the victim, and the lowest invalid
        // entry.
        self.p_below[0].next = false;
        self.cw_below[0].next = false;
        self.c_below[0].next = false;
        self.pj_below[0].next = false;
        self.inv_below[0].next = false;
        self.any_hit.next = false;
        for e in 0..self._nem1 {
            self.p_below[e + 1].next = self.p_below[e].val() | self.ents[e].m_p.val();
        }
        for e in 0..self._ne {
            self.p_src[e].next = self.ents[e].m_p.val() & !self.p_below[e].val();
            self.cw_below[e + 1].next = self.cw_below[e].val() | self.ents[e].m_cur_w.val();
            self.c_below[e + 1].next = self.c_below[e].val() | self.ents[e].m_cur.val();
            self.pj_src[e].next = self.ents[e].m_pj.val() & !self.pj_below[e].val();
            self.pj_below[e + 1].next = self.pj_below[e].val() | self.ents[e].m_pj.val();
            self.inv_below[e + 1].next = self.inv_below[e].val() | !self.ents[e].valid.val();
            if self.ents[e].m_link.val() {
                self.any_hit.next = true;
            }
        }
        self.chain_found.next = false;
        self.pj_found.next = false;
        self.any_inval.next = false;
        for t in self._ne..self._ne1 {
            self.chain_found.next = self.c_below[t].val();
            self.pj_found.next = self.pj_below[t].val();
            self.any_inval.next = self.inv_below[t].val();
        }
        for t in self._ne..self._ne1 {
            for e in 0..self._ne {
                if self.cw_below[t].val() {
                    self.chain_sel[e].next = self.ents[e].m_cur_w.val() & !self.cw_below[e].val();
                } else {
                    self.chain_sel[e].next = self.ents[e].m_cur.val() & !self.c_below[e].val();
                }
            }
        }

        // ---- Victim: the lowest invalid entry, else the least recently
        // used group's entry with the fewest ones (after this load's
        // clearing), ties to the less recently used: the smallest key
        // {ones, ~rank} among the group.
        self.best[0].next = self.key_max.val();
        for e in 0..self._ne {
            self.in_group[e].next = true;
            for g in 0..self._grp {
                self.in_group[e].next = self.ents[e].rank.val() >= self.group_first[g].val();
            }
            if self.in_group[e].val() & (self.ents[e].key.val() < self.best[e].val()) {
                self.best[e + 1].next = self.ents[e].key.val();
            } else {
                self.best[e + 1].next = self.best[e].val();
            }
        }
        for t in self._ne..self._ne1 {
            for e in 0..self._ne {
                if self.any_inval.val() {
                    // The lowest invalid entry: the rank order's choice.
                    self.victim[e].next = self.order.tgt[e].val();
                } else {
                    self.victim[e].next =
                        self.in_group[e].val() & (self.ents[e].key.val() == self.best[t].val());
                }
            }
        }
        self.allocate.next = self.link_en.val() & !self.any_hit.val();

        // ---- Step 2: p's inter-warp fields after this load.
        self.s_iw_valid.next = false;
        self.s_iw_warp.next = self.wb_zero.val();
        self.s_iw_addr.next = self.addr_zero.val();
        self.s_iw_stride.next = self.addr_zero.val();
        self.s_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.p_src[e].val() {
                self.s_iw_valid.next = self.ents[e].iw_valid.val();
                self.s_iw_warp.next = self.ents[e].iw_warp.val();
                self.s_iw_addr.next = self.ents[e].iw_addr.val();
                self.s_iw_stride.next = self.ents[e].iw_stride.val();
                self.s_iw_cnt.next = self.ents[e].iw_cnt.val();
            }
        }
        self.zx_w.narrow.next = self.ld_warp.val();
        self.zx_iww.narrow.next = self.s_iw_warp.val();
        self.iw_div.delta.next = self.zx_w.wide.val() - self.zx_iww.wide.val();
        self.iw_div.diff.next = self.ld_addr.val() - self.s_iw_addr.val();
        self.cand.next = self.iw_div.stride.val();
        self.u_iw_stride.next = self.s_iw_stride.val();
        self.u_iw_cnt.next = self.s_iw_cnt.val();
        if self.s_iw_valid.val() & (self.ld_warp.val() != self.s_iw_warp.val()) {
            if self.iw_div.pow2.val() & self.iw_div.div.val() {
                if (self.s_iw_cnt.val() != self.two_zero.val())
                    & (self.cand.val() == self.s_iw_stride.val())
                {
                    if self.s_iw_cnt.val() != self.two_three.val() {
                        self.u_iw_cnt.next = self.s_iw_cnt.val() + self.two_one.val();
                    }
                } else {
                    self.u_iw_stride.next = self.cand.val();
                    self.u_iw_cnt.next = self.two_one.val();
                }
            } else {
                self.u_iw_cnt.next = self.two_zero.val();
            }
        }

        // ---- The walker: the next prefetch of the head job.
        self.e_stride.next = self.addr_zero.val();
        self.e_pc2.next = self.pc_zero.val();
        self.pj_intra.next = self.addr_zero.val();
        self.pj_t2.next = self.two_zero.val();
        self.pj_iw_stride.next = self.addr_zero.val();
        self.pj_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.chain_sel[e].val() {
                self.e_stride.next = self.ents[e].stride.val();
                self.e_pc2.next = self.ents[e].pc2.val();
            }
            if self.pj_src[e].val() {
                self.pj_intra.next = self.ents[e].intra.val();
                self.pj_t2.next = self.ents[e].t2.val();
                self.pj_iw_stride.next = self.ents[e].iw_stride.val();
                self.pj_iw_cnt.next = self.ents[e].iw_cnt.val();
            }
        }
        self.chain_ok.next = !self.phase.q.val()
            & (self.hop.q.val() < self.chain_depth.val())
            & self.chain_found.val();
        self.intra_ok.next =
            !self.phase.q.val() & self.pj_found.val() & (self.pj_t2.val() == self.two_three.val());
        self.zx_jw.narrow.next = self.jw.val();
        self.zx_kidx.narrow.next = self.kidx.q.val();
        self.inter_warp.next =
            self.zx_jw.wide.val() + self.zx_kidx.wide.val() + self.eight_one.val();
        self.inter_ok.next = self.pj_found.val()
            & (self.pj_iw_cnt.val() >= self.two_two.val())
            & (self.kidx.q.val() < self.iw_degree.val())
            & (self.inter_warp.val() < self.n_warps.val());
        self.any_ok.next = self.chain_ok.val() | self.intra_ok.val() | self.inter_ok.val();
        self.next_addr.next = self.addr_eff.val() + self.e_stride.val();
        self.next_sum.next = self.sum_eff.val() + self.e_stride.val();
        self.closes.next = self.e_pc2.val() == self.jp.val();
        self.zx_k.narrow.next = self.kidx.q.val() + self.five_one.val();
        self.mul.d.next = self.zx_k.wide.val();
        self.mul.s.next = self.pj_iw_stride.val();
        if self.chain_ok.val() {
            self.pf_a.next = self.next_addr.val();
            self.pf_w.next = self.jw.val();
            self.pf_k.next = self.kind_chain.val();
        } else if self.intra_ok.val() {
            self.pf_a.next = self.ja.val() + self.pj_intra.val();
            self.pf_w.next = self.jw.val();
            self.pf_k.next = self.kind_intra.val();
        } else {
            self.pf_a.next = self.ja.val() + self.mul.p.val();
            self.pf_w.next = self.inter_warp.val().get_bits::<WB>(0);
            self.pf_k.next = self.kind_inter.val();
        }
        self.push.next =
            self.busy.val() & !self.halted.val() & self.any_ok.val() & !self.pfq.o_full.val();
        self.job_end.next = self.busy.val() & !self.halted.val() & !self.any_ok.val();
        // Walker state.
        if self.halted.val() | self.job_end.val() {
            self.phase.d.next = false;
            self.hop.d.next = self.five_zero.val();
            self.kidx.d.next = self.five_zero.val();
        } else if self.push.val() {
            if self.chain_ok.val() {
                self.hop.d.next = self.hop.q.val() + self.five_one.val();
                self.cur.d.next = self.e_pc2.val();
                self.addr.d.next = self.next_addr.val();
                self.sum.d.next = self.next_sum.val();
                if self.closes.val() {
                    self.phase.d.next = true;
                }
            } else if self.intra_ok.val() {
                self.phase.d.next = true;
            } else {
                self.phase.d.next = true;
                self.kidx.d.next = self.kidx.q.val() + self.five_one.val();
            }
        }
        // The intra-warp observation of a closing hop.
        self.obs_en.next = self.push.val() & self.chain_ok.val() & self.closes.val();
        if (self.pj_t2.val() == self.two_zero.val()) | (self.next_sum.val() != self.pj_intra.val())
        {
            self.o_intra.next = self.next_sum.val();
            self.o_t2.next = self.two_one.val();
        } else {
            self.o_intra.next = self.pj_intra.val();
            if self.pj_t2.val() == self.two_three.val() {
                self.o_t2.next = self.pj_t2.val();
            } else {
                self.o_t2.next = self.pj_t2.val() + self.two_one.val();
            }
        }

        // ---- The new entry's per-PC fields: those of q's lowest entry
        // other than the victim, after this edge's updates.
        self.q_below[0].next = false;
        for e in 0..self._nem1 {
            self.q_below[e + 1].next =
                self.q_below[e].val() | (self.ents[e].m_q.val() & !self.victim[e].val());
        }
        for e in 0..self._ne {
            self.q_src[e].next =
                self.ents[e].m_q.val() & !self.victim[e].val() & !self.q_below[e].val();
        }
        self.cp_intra.next = self.addr_zero.val();
        self.cp_t2.next = self.two_zero.val();
        self.cp_iw_valid.next = false;
        self.cp_iw_warp.next = self.wb_zero.val();
        self.cp_iw_addr.next = self.addr_zero.val();
        self.cp_iw_stride.next = self.addr_zero.val();
        self.cp_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.q_src[e].val() {
                if self.obs_en.val() & self.ents[e].m_pj.val() {
                    self.cp_intra.next = self.o_intra.val();
                    self.cp_t2.next = self.o_t2.val();
                } else {
                    self.cp_intra.next = self.ents[e].intra.val();
                    self.cp_t2.next = self.ents[e].t2.val();
                }
                if self.ents[e].m_p.val() {
                    self.cp_iw_valid.next = true;
                    self.cp_iw_warp.next = self.ld_warp.val();
                    self.cp_iw_addr.next = self.ld_addr.val();
                    self.cp_iw_stride.next = self.u_iw_stride.val();
                    self.cp_iw_cnt.next = self.u_iw_cnt.val();
                } else {
                    self.cp_iw_valid.next = self.ents[e].iw_valid.val();
                    self.cp_iw_warp.next = self.ents[e].iw_warp.val();
                    self.cp_iw_addr.next = self.ents[e].iw_addr.val();
                    self.cp_iw_stride.next = self.ents[e].iw_stride.val();
                    self.cp_iw_cnt.next = self.ents[e].iw_cnt.val();
                }
            }
        }

        // ---- Entry updates and the recency order.
        self.order.alloc.next = self.allocate.val() & self.any_inval.val();
        self.order.touch.next = (self.link_en.val() & self.any_hit.val())
            | (self.allocate.val() & !self.any_inval.val());
        self.order.inval.next = false;
        for e in 0..self._ne {
            self.order.valid[e].next = self.ents[e].valid.val();
            self.order.rank[e].next = self.ents[e].rank.val();
            self.order.hit[e].next = (self.link_en.val() & self.ents[e].m_link.val())
                | (self.allocate.val() & !self.any_inval.val() & self.victim[e].val());
            self.ents[e].iw_we.next = self.load_en.val();
            self.ents[e].n_iw_valid.next = true;
            self.ents[e].n_iw_warp.next = self.ld_warp.val();
            self.ents[e].n_iw_addr.next = self.ld_addr.val();
            self.ents[e].n_iw_stride.next = self.u_iw_stride.val();
            self.ents[e].n_iw_cnt.next = self.u_iw_cnt.val();
            self.ents[e].obs_we.next = self.obs_en.val();
            self.ents[e].n_intra.next = self.o_intra.val();
            self.ents[e].n_t2.next = self.o_t2.val();
            self.ents[e].alloc.next = self.allocate.val() & self.victim[e].val();
            self.ents[e].c_intra.next = self.cp_intra.val();
            self.ents[e].c_t2.next = self.cp_t2.val();
            self.ents[e].c_iw_valid.next = self.cp_iw_valid.val();
            self.ents[e].c_iw_warp.next = self.cp_iw_warp.val();
            self.ents[e].c_iw_addr.next = self.cp_iw_addr.val();
            self.ents[e].c_iw_stride.next = self.cp_iw_stride.val();
            self.ents[e].c_iw_cnt.next = self.cp_iw_cnt.val();
            self.ents[e].rank_we.next = self.order.alloc.val() | self.order.touch.val();
            self.ents[e].n_rank.next = self.order.new_rank[e].val();
        }

        // ---- Walk queue: two lanes ({pc, warp} and the address) in
        // lock-step; emptied in a halted cycle; a job is dropped when full.
        self.walkq.clock.next = self.clock.val();
        self.walkq.reset.next = self.reset.val() | self.halted.val();
        self.walkq_addr.clock.next = self.clock.val();
        self.walkq_addr.reset.next = self.reset.val() | self.halted.val();
        self.walkq.push.next = self.load_en.val()
            & !self.halted.val()
            & !self.walkq.o_full.val()
            & !self.walkq_addr.o_full.val();
        self.walkq_addr.push.next = self.walkq.push.val();
        self.walkq.pop.next = self.job_end.val();
        self.walkq_addr.pop.next = self.job_end.val();
        self.jp_w.narrow.next = self.ld_warp.val();
        self.jp_p.narrow.next = self.ld_pc.val();
        self.walkq.i_data.next = self.jp_w.wide.val() | (self.jp_p.wide.val() << self.joff_p.val());
        self.walkq_addr.i_data.next = self.ld_addr.val();

        // ---- Output queue, packed {kind, warp, addr}.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.push.val();
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        self.qp_addr.narrow.next = self.pf_a.val();
        self.qp_warp.narrow.next = self.pf_w.val();
        self.qp_kind.narrow.next = self.pf_k.val();
        self.pfq.i_data.next = self.qp_addr.wide.val()
            | (self.qp_warp.wide.val() << self.qoff_warp.val())
            | (self.qp_kind.wide.val() << self.qoff_kind.val());
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_data.val().get_bits::<A>(0);
        self.pf_warp.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<WB>(self.qoff_warp.val().index());
        self.pf_kind.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<2>(self.qoff_kind.val().index());
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
