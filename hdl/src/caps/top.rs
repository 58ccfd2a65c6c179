//! The top of `caps_prefetcher` ([`CapsPrefetcherRtl`]): the rules applied
//! to the load, the job FIFO, the generator and the output queue.

use ports::caps::CapsParams;
use ports::clog2;
use rust_hdl::prelude::*;

use super::{CapsColumn, CapsDist, LANES};
use crate::arith::{ExactDiv, SignedMul};
use crate::queue::ShiftQueue;
use crate::rank::RankOrder;
use crate::reg::Reg;
use crate::util::{konst, konsts, sigs, ZeroExt};

/// The `caps_prefetcher` unit. `A` = `ADDR_W`, `P` = `PC_W`, `WI` =
/// `WARP_IDX_W`, `WD` = `WI + 1`, `C` = `clog2(N_CTA)`, `CP` = `C + 1`,
/// `RP` = `clog2(PERCTA_ENTRIES)`, `RD` = `clog2(DIST_ENTRIES)`, `CW` =
/// `CNT_W`, `JW` = `1 + P + C + WI` (a job's header packed for the job
/// FIFO; its stride travels in a second lane),
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

    cols: Vec<CapsColumn<A, P, WI, C, CP, RP, NS>>,
    order: RankOrder<RP>,
    dtab: CapsDist<A, P, C, CW, RD>,
    jobq: ShiftQueue<Bits<JW>>,
    jobq_stride: ShiftQueue<Bits<A>>,
    pfq: ShiftQueue<Bits<QW>>,
    mul_l: SignedMul<WD, A>,
    mul_g: SignedMul<WD, A>,
    train: ExactDiv<WD, A>,
    zx_ldw: ZeroExt<WI, WD>,
    zx_llead: ZeroExt<WI, WD>,
    zx_glead: ZeroExt<WI, WD>,
    zx_jwarp: ZeroExt<WI, WD>,
    zx_cfg: ZeroExt<WI, WD>,
    zx_lslot: ZeroExt<C, NS>,
    zx_cslot: ZeroExt<C, NS>,
    jp_kind: ZeroExt<1, JW>,
    jp_pc: ZeroExt<P, JW>,
    jp_cta: ZeroExt<C, JW>,
    jp_warp: ZeroExt<WI, JW>,
    qp_addr: ZeroExt<A, QW>,
    qp_cta: ZeroExt<C, QW>,
    qp_warp: ZeroExt<WI, QW>,

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
    loop_jobs: Constant<Bit>,
    cnt_decay: Constant<Bit>,
    cnt_zero: Constant<Bits<CW>>,
    cnt_one: Constant<Bits<CW>>,
    cnt_max: Constant<Bits<CW>>,
    addr_zero: Constant<Bits<A>>,
    k_zero: Constant<Bits<3>>,
    k_one: Constant<Bits<3>>,
    k2: Constant<Bits<3>>,
    k3: Constant<Bits<3>>,
    cp_zero: Constant<Bits<CP>>,
    cp_one: Constant<Bits<CP>>,
    wd_zero: Constant<Bits<WD>>,
    wd_one: Constant<Bits<WD>>,
    wi_zero: Constant<Bits<WI>>,
    c_zero: Constant<Bits<C>>,
    ns_zero: Constant<Bits<NS>>,
    ns_one: Constant<Bits<NS>>,
    // Field offsets in a packed job / prefetch (32 bits: Verilator takes a
    // 32-bit part-select base as an integer and does not ask for a
    // log2(width)-bit one).
    joff_pc: Constant<Bits<32>>,
    joff_cta: Constant<Bits<32>>,
    joff_warp: Constant<Bits<32>>,
    qoff_cta: Constant<Bits<32>>,
    qoff_warp: Constant<Bits<32>>,

    elig: Signal<Local, Bit>,
    n3: Signal<Local, Bits<3>>,
    a: Vec<Signal<Local, Bits<A>>>,
    l_onehot: Signal<Local, Bits<NS>>,
    clear_mask: Signal<Local, Bits<NS>>,
    l_cleared: Signal<Local, Bit>,
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
    job_push: Signal<Local, Bit>,
    cand_any: Vec<Signal<Local, Bit>>,
    cand: Vec<Signal<Local, Bit>>,
    cand_below: Vec<Signal<Local, Bit>>,
    gsel: Vec<Signal<Local, Bit>>,
    found_a: Signal<Local, Bit>,
    s_hit: Signal<Local, Bit>,
    s_lead: Signal<Local, Bits<WI>>,
    s_n: Signal<Local, Bits<3>>,
    colsel: Vec<Signal<Local, Bit>>,
    s_b0: Signal<Local, Bits<A>>,
    s_b1: Signal<Local, Bits<A>>,
    s_b2: Signal<Local, Bits<A>>,
    s_b3: Signal<Local, Bits<A>>,
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
    _ne: usize,
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
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
{
    /// Build the unit for `p` (which must be valid). Panics if `p`'s widths
    /// are not the const generics (`<ports::caps::CapsPrefetcher as
    /// crate::registry::RtlDecl>::build` picks the instantiation).
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
        assert_eq!(JW, 1 + P + C + WI, "JW = 1 + PC_W + C + WARP_IDX_W");
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
        let ncta = p.N_CTA as usize;
        let ne = p.PERCTA_ENTRIES as usize;
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
            cols: (0..ne).map(|_| CapsColumn::new(p)).collect(),
            order: RankOrder::new(ne),
            dtab: CapsDist::new(p),
            jobq: ShiftQueue::new(p.JOBQ_DEPTH as usize),
            jobq_stride: ShiftQueue::new(p.JOBQ_DEPTH as usize),
            pfq: ShiftQueue::new(p.PFQ_DEPTH as usize),
            mul_l: Default::default(),
            mul_g: Default::default(),
            train: Default::default(),
            zx_ldw: Default::default(),
            zx_llead: Default::default(),
            zx_glead: Default::default(),
            zx_jwarp: Default::default(),
            zx_cfg: Default::default(),
            zx_lslot: Default::default(),
            zx_cslot: Default::default(),
            jp_kind: Default::default(),
            jp_pc: Default::default(),
            jp_cta: Default::default(),
            jp_warp: Default::default(),
            qp_addr: Default::default(),
            qp_cta: Default::default(),
            qp_warp: Default::default(),
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
            loop_jobs: Constant::new(p.LOOP_JOBS == 1),
            cnt_decay: Constant::new(p.CNT_DECAY == 1),
            cnt_zero: konst(0),
            cnt_one: konst(1),
            cnt_max: konst(ports::mask(CW as u32)),
            addr_zero: konst(0),
            k_zero: konst(0),
            k_one: konst(1),
            k2: konst(2),
            k3: konst(3),
            cp_zero: konst(0),
            cp_one: konst(1),
            wd_zero: konst(0),
            wd_one: konst(1),
            wi_zero: konst(0),
            c_zero: konst(0),
            ns_zero: konst(0),
            ns_one: konst(1),
            joff_pc: konst(1),
            joff_cta: konst((1 + P) as u64),
            joff_warp: konst((1 + P + C) as u64),
            qoff_cta: konst(A as u64),
            qoff_warp: konst((A + C) as u64),
            elig: Default::default(),
            n3: Default::default(),
            a: sigs(LANES),
            l_onehot: Default::default(),
            clear_mask: Default::default(),
            l_cleared: Default::default(),
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
            job_push: Default::default(),
            cand_any: sigs(ncta),
            cand: sigs(ncta),
            cand_below: sigs(ncta + 1),
            gsel: sigs(ncta),
            found_a: Default::default(),
            s_hit: Default::default(),
            s_lead: Default::default(),
            s_n: Default::default(),
            colsel: sigs(ne),
            s_b0: Default::default(),
            s_b1: Default::default(),
            s_b2: Default::default(),
            s_b3: Default::default(),
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
            _ne: ne,
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
        const JW: usize,
        const QW: usize,
        const NS: usize,
    > Logic for CapsPrefetcherRtl<A, P, WI, WD, C, CP, RP, RD, CW, JW, QW, NS>
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
        // PerCTA[ld_cta]: one entry per column; the launch of this cycle
        // clears the launched slot first.
        self.zx_lslot.narrow.next = self.ld_cta.val();
        self.l_onehot.next = self.ns_one.val() << self.zx_lslot.wide.val();
        self.zx_cslot.narrow.next = self.cta_launch_slot.val();
        if self.cta_launch_valid.val() {
            self.clear_mask.next = self.ns_one.val() << self.zx_cslot.wide.val();
        } else {
            self.clear_mask.next = self.ns_zero.val();
        }
        self.l_cleared.next =
            self.cta_launch_valid.val() & (self.cta_launch_slot.val() == self.ld_cta.val());
        self.m_hit.next = false;
        self.m_lead.next = self.wi_zero.val();
        self.m_n.next = self.k_zero.val();
        for k in 0..self._lanes {
            self.m_base[k].next = self.addr_zero.val();
        }
        for e in 0..self._ne {
            self.cols[e].clock.next = self.clock.val();
            self.cols[e].reset.next = self.reset.val();
            self.cols[e].clear_mask.next = self.clear_mask.val();
            self.cols[e].l_slot.next = self.ld_cta.val();
            self.cols[e].l_onehot.next = self.l_onehot.val();
            self.cols[e].l_cleared.next = self.l_cleared.val();
            self.cols[e].l_pc.next = self.ld_pc.val();
            self.cols[e].l_warp.next = self.ld_warp.val();
            self.cols[e].l_n.next = self.n3.val();
            self.cols[e].a0.next = self.a[0].val();
            self.cols[e].a1.next = self.a[1].val();
            self.cols[e].a2.next = self.a[2].val();
            self.cols[e].a3.next = self.a[3].val();
            if self.cols[e].l_hit.val() {
                self.m_hit.next = true;
                self.m_lead.next = self.cols[e].l_lead.val();
                self.m_n.next = self.cols[e].l_cnt.val();
                self.m_base[0].next = self.cols[e].l_base0.val();
                self.m_base[1].next = self.cols[e].l_base1.val();
                self.m_base[2].next = self.cols[e].l_base2.val();
                self.m_base[3].next = self.cols[e].l_base3.val();
            }
            self.order.valid[e].next = self.cols[e].l_ev.val();
            self.order.hit[e].next = self.cols[e].l_hit.val();
            self.order.rank[e].next = self.cols[e].l_rank.val();
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
        if self.r3.val()
            & !self.mism.val()
            & self.cnt_decay.val()
            & (self.dtab.lh_cnt.val() != self.cnt_zero.val())
        {
            self.cnt_after.next = self.dtab.lh_cnt.val() - self.cnt_one.val();
        }
        // Job B: a new leading warp (rule 1), or with LOOP_JOBS its next
        // iteration (rule 2).
        self.job_b.next = (self.r1.val() | (self.r2.val() & self.loop_jobs.val()))
            & self.dtab.lh_hit.val()
            & (self.dtab.lh_cnt.val() < self.thr.val());
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
        self.dtab.dec.next = self.r3.val() & !self.mism.val() & self.cnt_decay.val();
        self.dtab.g_pc.next = self.j_pc.q.val();
        // PerCTA[ld_cta] updates: allocation (rule 1), the leading warp's
        // rewrite (rule 2), invalidation (rule 4); the order's new ranks
        // are written back whenever the slot's table changes.
        self.order.alloc.next = self.r1.val();
        self.order.touch.next = self.r2.val();
        self.order.inval.next = self.r4_inval.val();
        for e in 0..self._ne {
            self.cols[e].wr.next = (self.r1.val() & self.order.tgt[e].val())
                | (self.r2.val() & self.cols[e].l_hit.val());
            self.cols[e].set_valid.next = self.r1.val() & self.order.tgt[e].val();
            self.cols[e].clr_valid.next = self.r4_inval.val() & self.cols[e].l_hit.val();
            self.cols[e].rank_we.next = self.r1.val() | self.r2.val() | self.r4_inval.val();
            self.cols[e].w_rank.next = self.order.new_rank[e].val();
            self.cols[e].g_pc.next = self.j_pc.q.val();
            self.cols[e].g_warp.next = self.j_warp.q.val();
            self.cols[e].g_pos.next = self.posa.q.val();
            self.cols[e].g_k.next = self.kk.q.val();
        }
        // Job FIFO: two queues in lock-step, the header {warp, cta, pc,
        // kind} and the stride (no lane wider than 64 bits, which Verilator
        // keeps in plain integers); like any lanes joined in parallel, the
        // FIFO is full when a lane is full and holds a job when both lanes
        // do. A job is dropped when the FIFO is full.
        self.take.next =
            !self.busy.q.val() & self.jobq.o_valid.val() & self.jobq_stride.o_valid.val();
        self.jobq.clock.next = self.clock.val();
        self.jobq.reset.next = self.reset.val();
        self.job_push.next = (self.job_a.val() | self.job_b.val())
            & !self.jobq.o_full.val()
            & !self.jobq_stride.o_full.val();
        self.jobq.push.next = self.job_push.val();
        self.jobq.pop.next = self.take.val();
        self.jobq_stride.clock.next = self.clock.val();
        self.jobq_stride.reset.next = self.reset.val();
        self.jobq_stride.push.next = self.job_push.val();
        self.jobq_stride.pop.next = self.take.val();
        self.jp_kind.narrow.next = self.job_b.val().into();
        self.jp_pc.narrow.next = self.ld_pc.val();
        self.jp_cta.narrow.next = self.ld_cta.val();
        self.jp_warp.narrow.next = self.ld_warp.val();
        if self.r4_alloc.val() {
            self.jobq_stride.i_data.next = self.train.stride.val();
        } else {
            self.jobq_stride.i_data.next = self.dtab.lh_stride.val();
        }
        self.jobq.i_data.next = self.jp_kind.wide.val()
            | (self.jp_pc.wide.val() << self.joff_pc.val())
            | (self.jp_cta.wide.val() << self.joff_cta.val())
            | (self.jp_warp.wide.val() << self.joff_warp.val());

        // ---- Generator: the next prefetch of the current job.
        // Job A: the lowest candidate slot. Job B: slot j_cta.
        self.found_a.next = false;
        self.cand_below[0].next = false;
        for s in 0..self._ncta {
            self.cand_any[s].next = false;
            for e in 0..self._ne {
                if self.cols[e].g_cand.val().get_bit(s) {
                    self.cand_any[s].next = true;
                }
            }
            self.cand[s].next = self.cand_any[s].val()
                & (self.slot_c[s].val() != self.j_cta.q.val())
                & (self.posa.q.val() <= self.slot_cp[s].val());
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
        // The selected slot, and its entry holding the job's pc (the
        // column that hits there).
        self.s_cp.next = self.cp_zero.val();
        self.s_c.next = self.c_zero.val();
        for s in 0..self._ncta {
            if self.gsel[s].val() {
                self.s_cp.next = self.slot_cp[s].val();
                self.s_c.next = self.slot_c[s].val();
            }
        }
        self.s_hit.next = false;
        self.s_lead.next = self.wi_zero.val();
        self.s_n.next = self.k_zero.val();
        self.s_b0.next = self.addr_zero.val();
        self.s_b1.next = self.addr_zero.val();
        self.s_b2.next = self.addr_zero.val();
        self.s_b3.next = self.addr_zero.val();
        for e in 0..self._ne {
            self.cols[e].g_slot.next = self.s_c.val();
            self.colsel[e].next = false;
            for s in 0..self._ncta {
                if self.gsel[s].val() & self.cols[e].g_hit.val().get_bit(s) {
                    self.colsel[e].next = true;
                }
            }
            if self.colsel[e].val() {
                self.s_hit.next = true;
                self.s_lead.next = self.cols[e].gs_lead.val();
                self.s_n.next = self.cols[e].gs_n.val();
                self.s_b0.next = self.cols[e].gs_base0.val();
                self.s_b1.next = self.cols[e].gs_base1.val();
                self.s_b2.next = self.cols[e].gs_base2.val();
                self.s_b3.next = self.cols[e].gs_base3.val();
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
        if self.k_cur.val() == self.k3.val() {
            self.s_base.next = self.s_b3.val();
        } else if self.k_cur.val() == self.k2.val() {
            self.s_base.next = self.s_b2.val();
        } else if self.k_cur.val() == self.k_one.val() {
            self.s_base.next = self.s_b1.val();
        } else {
            self.s_base.next = self.s_b0.val();
        }
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
            self.j_kind.d.next = self.jobq.o_data.val().get_bit(0);
            self.j_pc.d.next = self
                .jobq
                .o_data
                .val()
                .get_bits::<P>(self.joff_pc.val().index());
            self.j_cta.d.next = self
                .jobq
                .o_data
                .val()
                .get_bits::<C>(self.joff_cta.val().index());
            self.j_warp.d.next = self
                .jobq
                .o_data
                .val()
                .get_bits::<WI>(self.joff_warp.val().index());
            self.j_stride.d.next = self.jobq_stride.o_data.val();
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

        // ---- Output queue: a prefetch packed as {warp, cta, addr}; the
        // queue's head is zero while it is empty.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.pf_push.val();
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        self.qp_addr.narrow.next = self.s_base.val() + self.mul_g.p.val();
        if self.j_kind.q.val() {
            self.qp_cta.narrow.next = self.j_cta.q.val();
            self.qp_warp.narrow.next = self.wb.val().get_bits::<WI>(0);
        } else {
            self.qp_cta.narrow.next = self.s_c.val();
            self.qp_warp.narrow.next = self.j_warp.q.val();
        }
        self.pfq.i_data.next = self.qp_addr.wide.val()
            | (self.qp_cta.wide.val() << self.qoff_cta.val())
            | (self.qp_warp.wide.val() << self.qoff_warp.val());
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_data.val().get_bits::<A>(0);
        self.pf_cta.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<C>(self.qoff_cta.val().index());
        self.pf_warp.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<WI>(self.qoff_warp.val().index());
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
