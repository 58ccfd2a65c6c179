//! The top of `dac_expander` ([`DacExpanderRtl`]): CTA slots, the ATQ, the
//! expander (warp walk, lane values, records, predicate masks), the early
//! memory request, the per-warp queues and the dequeue response.

use ports::dac::{kind, DacParams};
use ports::{clog2, log2_exact};
use rust_hdl::prelude::*;

use super::{DacLanes, DacRecord, SignedCmp};
use crate::arith::SignedMul;
use crate::multiqueue::MultiQueue;
use crate::queue::ShiftQueue;
use crate::reg::Reg;
use crate::util::{konst, konsts, regs, sigs, Pack, SignExt, ZeroExt};

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

    // ---- Blocks.
    atq0: ShiftQueue<Bits<64>>,
    atq1: ShiftQueue<Bits<64>>,
    atq2: ShiftQueue<Bits<64>>,
    atq3: ShiftQueue<Bits<7>>,
    aq: MultiQueue<Bits<62>, WB, AQ, AC>,
    pq: MultiQueue<Bits<32>, WB, PQ, PC>,
    lanes: DacLanes,
    rec: DacRecord,
    cmp_first: SignedCmp,
    cmp_last: SignedCmp,
    cmp_g: Vec<SignedCmp>,
    gpack: Pack<8>,
    mul_cx: SignedMul<17, 32>,
    mul_cy: SignedMul<17, 32>,
    mul_tx: SignedMul<7, 32>,
    mul_ty: SignedMul<12, 32>,
    mul_wb: SignedMul<5, 10>,
    mul_ov: SignedMul<7, 40>,
    sx_v0: SignExt<32, 40>,
    sx_tx: SignExt<32, 40>,
    zx_cx: ZeroExt<16, 17>,
    zx_cy: ZeroExt<16, 17>,
    zx_c5: ZeroExt<4, 5>,
    zx_w10: ZeroExt<6, 10>,
    zx_wi10: ZeroExt<6, 10>,
    zx_wi12: ZeroExt<6, 12>,
    zx_t12: ZeroExt<11, 12>,
    zx_k12: ZeroExt<4, 12>,
    zx_k6: ZeroExt<4, 6>,
    zx_k32: ZeroExt<4, 32>,
    zx_a7: ZeroExt<6, 7>,
    zx_nm7: ZeroExt<6, 7>,
    zx_wi7: ZeroExt<6, 7>,
    zx_wc7: ZeroExt<6, 7>,
    zx_g8: ZeroExt<8, 32>,
    zx_grp: ZeroExt<2, 32>,
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
    pk_kind: ZeroExt<2, 7>,
    pk_gr: ZeroExt<2, 7>,
    pk_cmp: ZeroExt<3, 7>,

    // ---- Registers.
    active: Reg<Bits<16>>,
    todo: Reg<Bits<16>>,
    cx: Vec<Reg<Bits<16>>>,
    cy: Vec<Reg<Bits<16>>>,
    busy: Reg<Bit>,
    wi: Reg<Bits<6>>,
    p: Reg<Bits<6>>,
    grp: Reg<Bits<2>>,
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

    // ---- Constants.
    slot4: Vec<Constant<Bits<4>>>,
    slot_oh: Vec<Constant<Bits<16>>>,
    slot_id: Vec<Constant<Bits<SB>>>,
    lane6: Vec<Constant<Bits<6>>>,
    n_cta: Constant<Bits<5>>,
    n_warps: Constant<Bits<10>>,
    one16: Constant<Bits<16>>,
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
    c2_2: Constant<Bits<2>>,
    c0_6: Constant<Bits<6>>,
    c1_6: Constant<Bits<6>>,
    c5_6: Constant<Bits<6>>,
    c32_6: Constant<Bits<6>>,
    c1_7: Constant<Bits<7>>,
    c5_12: Constant<Bits<12>>,
    c32_12: Constant<Bits<12>>,
    c0_32: Constant<Bits<32>>,
    c3_32: Constant<Bits<32>>,
    c5_32: Constant<Bits<32>>,
    line_mask: Constant<Bits<32>>,
    bias40: Constant<Bits<40>>,
    lim40: Constant<Bits<40>>,
    off27: Constant<Bits<62>>,
    off59: Constant<Bits<62>>,
    bit61: Constant<Bits<62>>,
    zero_62: Constant<Bits<62>>,
    c1_32: Constant<Bits<32>>,
    c32_64: Constant<Bits<64>>,
    c2_7: Constant<Bits<7>>,
    c4_7: Constant<Bits<7>>,

    // ---- Tuple at the head of the ATQ.
    t_base: Signal<Local, Bits<32>>,
    t_tx: Signal<Local, Bits<32>>,
    t_ty: Signal<Local, Bits<32>>,
    t_cx: Signal<Local, Bits<32>>,
    t_cy: Signal<Local, Bits<32>>,
    t_scalar: Signal<Local, Bits<32>>,
    t_kind: Signal<Local, Bits<2>>,
    t_gran: Signal<Local, Bits<2>>,
    t_cmp: Signal<Local, Bits<3>>,
    is_addr: Signal<Local, Bit>,
    is_data: Signal<Local, Bit>,
    is_pred: Signal<Local, Bit>,
    reserved: Signal<Local, Bit>,
    // ---- Slots.
    done_ok: Signal<Local, Bit>,
    launch_ok: Signal<Local, Bit>,
    act1: Signal<Local, Bits<16>>,
    // ---- The current slot and warp.
    sfound: Vec<Signal<Local, Bit>>,
    cur: Signal<Local, Bits<4>>,
    cur_oh: Signal<Local, Bits<16>>,
    cur_cx: Signal<Local, Bits<16>>,
    cur_cy: Signal<Local, Bits<16>>,
    wid: Signal<Local, Bits<10>>,
    t0: Signal<Local, Bits<12>>,
    rem: Signal<Local, Bits<12>>,
    n: Signal<Local, Bits<6>>,
    nm1: Signal<Local, Bits<6>>,
    amask: Signal<Local, Bits<6>>,
    vw: Signal<Local, Bits<32>>,
    skip: Signal<Local, Bit>,
    // ---- Predicates.
    vlast: Signal<Local, Bits<32>>,
    zero_offs: Signal<Local, Bit>,
    arith: Signal<Local, Bit>,
    fits: Signal<Local, Bit>,
    fast: Signal<Local, Bit>,
    fast_mask: Signal<Local, Bits<32>>,
    slow_mask: Signal<Local, Bits<32>>,
    lastg: Signal<Local, Bits<2>>,
    // ---- Control.
    start: Signal<Local, Bit>,
    start_drop: Signal<Local, Bit>,
    start_go: Signal<Local, Bit>,
    memfree: Signal<Local, Bit>,
    a_push: Signal<Local, Bit>,
    pf_push: Signal<Local, Bit>,
    ps_final: Signal<Local, Bit>,
    ps_adv: Signal<Local, Bit>,
    p_push: Signal<Local, Bit>,
    wdone: Signal<Local, Bit>,
    slot_last: Signal<Local, Bit>,
    slot_done: Signal<Local, Bit>,
    todo_next: Signal<Local, Bits<16>>,
    tuple_done: Signal<Local, Bit>,
    atq_pop: Signal<Local, Bit>,
    enq_push: Signal<Local, Bit>,
    d_hit: Signal<Local, Bit>,
    pk_last: Signal<Local, Bits<62>>,

    _nc: usize,
    _ncm1: usize,
    _ng: usize,
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
        DacExpanderRtl {
            clock: Default::default(),
            reset: Default::default(),
            cfg_bdx_log2: Default::default(),
            cfg_threads: Default::default(),
            cfg_warps_per_cta: Default::default(),
            cta_launch_valid: Default::default(),
            cta_launch_slot: Default::default(),
            cta_launch_x: Default::default(),
            cta_launch_y: Default::default(),
            cta_done_valid: Default::default(),
            cta_done_slot: Default::default(),
            enq_valid: Default::default(),
            enq_kind: Default::default(),
            enq_base: Default::default(),
            enq_off_tx: Default::default(),
            enq_off_ty: Default::default(),
            enq_off_cx: Default::default(),
            enq_off_cy: Default::default(),
            enq_gran: Default::default(),
            enq_cmp: Default::default(),
            enq_scalar: Default::default(),
            mem_ready: Default::default(),
            deq_valid: Default::default(),
            deq_warp: Default::default(),
            deq_kind: Default::default(),
            enq_ready: Default::default(),
            mem_valid: Default::default(),
            mem_addr: Default::default(),
            rsp_valid: Default::default(),
            rsp_hit: Default::default(),
            rsp_addr: Default::default(),
            rsp_mask: Default::default(),
            rsp_gran: Default::default(),
            rsp_last: Default::default(),
            atq_count: Default::default(),
            stat_pred_fast: Default::default(),
            stat_pred_slow: Default::default(),
            atq0: ShiftQueue::new(atq),
            atq1: ShiftQueue::new(atq),
            atq2: ShiftQueue::new(atq),
            atq3: ShiftQueue::new(atq),
            aq: MultiQueue::new(nw, p.PWAQ_DEPTH as usize),
            pq: MultiQueue::new(nw, p.PWPQ_DEPTH as usize),
            lanes: Default::default(),
            rec: Default::default(),
            cmp_first: Default::default(),
            cmp_last: Default::default(),
            cmp_g: (0..8).map(|_| SignedCmp::default()).collect(),
            gpack: Pack::new(8),
            mul_cx: Default::default(),
            mul_cy: Default::default(),
            mul_tx: Default::default(),
            mul_ty: Default::default(),
            mul_wb: Default::default(),
            mul_ov: Default::default(),
            sx_v0: Default::default(),
            sx_tx: Default::default(),
            zx_cx: Default::default(),
            zx_cy: Default::default(),
            zx_c5: Default::default(),
            zx_w10: Default::default(),
            zx_wi10: Default::default(),
            zx_wi12: Default::default(),
            zx_t12: Default::default(),
            zx_k12: Default::default(),
            zx_k6: Default::default(),
            zx_k32: Default::default(),
            zx_a7: Default::default(),
            zx_nm7: Default::default(),
            zx_wi7: Default::default(),
            zx_wc7: Default::default(),
            zx_g8: Default::default(),
            zx_grp: Default::default(),
            zx_ls: Default::default(),
            zx_ds: Default::default(),
            zx_cnt_l: Default::default(),
            zx_cnt_d: Default::default(),
            pk_addr: Default::default(),
            pk_mask: Default::default(),
            pk_gran: Default::default(),
            up_addr: Default::default(),
            pk_base: Default::default(),
            pk_tx: Default::default(),
            pk_ty: Default::default(),
            pk_cx: Default::default(),
            pk_cy: Default::default(),
            pk_sc: Default::default(),
            pk_kind: Default::default(),
            pk_gr: Default::default(),
            pk_cmp: Default::default(),
            active: Default::default(),
            todo: Default::default(),
            cx: regs(nc),
            cy: regs(nc),
            busy: Default::default(),
            wi: Default::default(),
            p: Default::default(),
            grp: Default::default(),
            part: Default::default(),
            count: Default::default(),
            mem_v: Default::default(),
            mem_a: Default::default(),
            r_valid: Default::default(),
            r_hit: Default::default(),
            r_addr: Default::default(),
            r_mask: Default::default(),
            r_gran: Default::default(),
            r_last: Default::default(),
            st_fast: Default::default(),
            st_slow: Default::default(),
            slot4: konsts::<4>(0..nc as u64),
            slot_oh: konsts::<16>((0..nc).map(|s| 1u64 << s)),
            slot_id: konsts::<SB>(0..nc as u64),
            lane6: konsts::<6>(0..32),
            n_cta: konst(p.N_CTA),
            n_warps: konst(p.N_WARPS),
            one16: konst(1),
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
            c2_2: konst(2),
            c0_6: konst(0),
            c1_6: konst(1),
            c5_6: konst(5),
            c32_6: konst(32),
            c1_7: konst(1),
            c5_12: konst(5),
            c32_12: konst(32),
            c0_32: konst(0),
            c3_32: konst(3),
            c5_32: konst(5),
            line_mask: konst(0xFFFF_FF80),
            bias40: konst(0x8000_0000),
            lim40: konst(0x1_0000_0000),
            off27: konst(27),
            off59: konst(59),
            bit61: konst(1 << 61),
            zero_62: konst(0),
            c1_32: konst(1),
            c32_64: konst(32),
            c2_7: konst(2),
            c4_7: konst(4),
            t_base: Default::default(),
            t_tx: Default::default(),
            t_ty: Default::default(),
            t_cx: Default::default(),
            t_cy: Default::default(),
            t_scalar: Default::default(),
            t_kind: Default::default(),
            t_gran: Default::default(),
            t_cmp: Default::default(),
            is_addr: Default::default(),
            is_data: Default::default(),
            is_pred: Default::default(),
            reserved: Default::default(),
            done_ok: Default::default(),
            launch_ok: Default::default(),
            act1: Default::default(),
            sfound: sigs(nc),
            cur: Default::default(),
            cur_oh: Default::default(),
            cur_cx: Default::default(),
            cur_cy: Default::default(),
            wid: Default::default(),
            t0: Default::default(),
            rem: Default::default(),
            n: Default::default(),
            nm1: Default::default(),
            amask: Default::default(),
            vw: Default::default(),
            skip: Default::default(),
            vlast: Default::default(),
            zero_offs: Default::default(),
            arith: Default::default(),
            fits: Default::default(),
            fast: Default::default(),
            fast_mask: Default::default(),
            slow_mask: Default::default(),
            lastg: Default::default(),
            start: Default::default(),
            start_drop: Default::default(),
            start_go: Default::default(),
            memfree: Default::default(),
            a_push: Default::default(),
            pf_push: Default::default(),
            ps_final: Default::default(),
            ps_adv: Default::default(),
            p_push: Default::default(),
            wdone: Default::default(),
            slot_last: Default::default(),
            slot_done: Default::default(),
            todo_next: Default::default(),
            tuple_done: Default::default(),
            atq_pop: Default::default(),
            enq_push: Default::default(),
            d_hit: Default::default(),
            pk_last: Default::default(),
            _nc: nc,
            _ncm1: nc - 1,
            _ng: 8,
            _n: 32,
        }
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
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, active, todo, busy, wi, p, grp, part, count, mem_v, mem_a, r_valid, r_hit,
            r_addr, r_mask, r_gran, r_last, st_fast, st_slow
        );
        self.active.reset.next = self.reset.val();
        self.todo.reset.next = self.reset.val();
        self.busy.reset.next = self.reset.val();
        self.wi.reset.next = self.reset.val();
        self.p.reset.next = self.reset.val();
        self.grp.reset.next = self.reset.val();
        self.part.reset.next = self.reset.val();
        self.count.reset.next = self.reset.val();
        self.mem_v.reset.next = self.reset.val();
        self.mem_a.reset.next = self.reset.val();
        self.r_valid.reset.next = self.reset.val();
        self.r_hit.reset.next = self.reset.val();
        self.r_addr.reset.next = self.reset.val();
        self.r_mask.reset.next = self.reset.val();
        self.r_gran.reset.next = self.reset.val();
        self.r_last.reset.next = self.reset.val();
        self.st_fast.reset.next = self.reset.val();
        self.st_slow.reset.next = self.reset.val();
        for s in 0..self._nc {
            self.cx[s].clock.next = self.clock.val();
            self.cx[s].reset.next = self.reset.val();
            self.cx[s].d.next = self.cx[s].q.val();
            self.cy[s].clock.next = self.clock.val();
            self.cy[s].reset.next = self.reset.val();
            self.cy[s].d.next = self.cy[s].q.val();
        }

        // ---- The tuple at the head of the ATQ (four lanes in lock-step).
        self.t_base.next = self.atq0.o_data.val().get_bits::<32>(0);
        self.t_tx.next = self.atq0.o_data.val().get_bits::<32>(32);
        self.t_ty.next = self.atq1.o_data.val().get_bits::<32>(0);
        self.t_cx.next = self.atq1.o_data.val().get_bits::<32>(32);
        self.t_cy.next = self.atq2.o_data.val().get_bits::<32>(0);
        self.t_scalar.next = self.atq2.o_data.val().get_bits::<32>(32);
        self.t_kind.next = self.atq3.o_data.val().get_bits::<2>(0);
        self.t_gran.next = self.atq3.o_data.val().get_bits::<2>(2);
        self.t_cmp.next = self.atq3.o_data.val().get_bits::<3>(4);
        self.is_addr.next =
            (self.t_kind.val() == self.k_addr.val()) | (self.t_kind.val() == self.k_data.val());
        self.is_data.next = self.t_kind.val() == self.k_data.val();
        self.is_pred.next = self.t_kind.val() == self.k_pred.val();
        self.reserved.next = (self.t_kind.val() == self.k_rsvd.val())
            | (self.is_addr.val() & (self.t_gran.val() == self.gran_rsvd.val()))
            | (self.is_pred.val() & (self.t_cmp.val() >= self.cmp_rsvd.val()));

        // ---- Slots: done, then launch.
        self.zx_ds.narrow.next = self.cta_done_slot.val();
        self.zx_ls.narrow.next = self.cta_launch_slot.val();
        self.zx_cnt_d.narrow.next = self.cta_done_slot.val();
        self.zx_cnt_l.narrow.next = self.cta_launch_slot.val();
        self.done_ok.next =
            self.cta_done_valid.val() & (self.zx_cnt_d.wide.val() < self.n_cta.val());
        self.launch_ok.next =
            self.cta_launch_valid.val() & (self.zx_cnt_l.wide.val() < self.n_cta.val());
        self.act1.next = self.active.q.val();
        if self.done_ok.val() {
            self.act1.next = self.active.q.val() & !(self.one16.val() << self.zx_ds.wide.val());
        }
        self.active.d.next = self.act1.val();
        if self.launch_ok.val() {
            self.active.d.next = self.act1.val() | (self.one16.val() << self.zx_ls.wide.val());
        }
        for s in 0..self._nc {
            if self.launch_ok.val() & (self.cta_launch_slot.val() == self.slot_id[s].val()) {
                self.cx[s].d.next = self.cta_launch_x.val();
                self.cy[s].d.next = self.cta_launch_y.val();
            }
        }

        // ---- The current slot: the lowest of `todo`.
        self.sfound[0].next = false;
        self.cur.next = self.slot4[0].val();
        self.cur_oh.next = self.zero16.val();
        self.cur_cx.next = self.cx[0].q.val();
        self.cur_cy.next = self.cy[0].q.val();
        for s in 0..self._ncm1 {
            self.sfound[s + 1].next = self.sfound[s].val() | self.todo.q.val().get_bit(s);
        }
        for s in 0..self._nc {
            if self.todo.q.val().get_bit(s) & !self.sfound[s].val() {
                self.cur.next = self.slot4[s].val();
                self.cur_oh.next = self.slot_oh[s].val();
                self.cur_cx.next = self.cx[s].q.val();
                self.cur_cy.next = self.cy[s].q.val();
            }
        }
        // Warp id = slot * W + wi.
        self.zx_c5.narrow.next = self.cur.val();
        self.zx_w10.narrow.next = self.cfg_warps_per_cta.val();
        self.mul_wb.d.next = self.zx_c5.wide.val();
        self.mul_wb.s.next = self.zx_w10.wide.val();
        self.zx_wi10.narrow.next = self.wi.q.val();
        self.wid.next = self.mul_wb.p.val() + self.zx_wi10.wide.val();
        // Active lanes: n = min(32, T - 32*wi), 0 past the block.
        self.zx_wi12.narrow.next = self.wi.q.val();
        self.zx_t12.narrow.next = self.cfg_threads.val();
        self.t0.next = self.zx_wi12.wide.val() << self.c5_12.val();
        self.rem.next = self.zx_t12.wide.val() - self.t0.val();
        self.n.next = self.c0_6.val();
        if self.zx_t12.wide.val() > self.t0.val() {
            if self.rem.val() >= self.c32_12.val() {
                self.n.next = self.c32_6.val();
            } else {
                self.n.next = self.rem.val().get_bits::<6>(0);
            }
        }
        self.nm1.next = self.n.val() - self.c1_6.val();
        self.skip.next = (self.wid.val() >= self.n_warps.val()) | (self.n.val() == self.c0_6.val());
        // Lane 0's value: base + cx*off_cx + cy*off_cy + tx0*off_tx +
        // ty0*off_ty, with tx0 = 32*(wi mod (bdx/32)) and ty0 = 32*wi / bdx.
        self.zx_cx.narrow.next = self.cur_cx.val();
        self.zx_cy.narrow.next = self.cur_cy.val();
        self.mul_cx.d.next = self.zx_cx.wide.val();
        self.mul_cx.s.next = self.t_cx.val();
        self.mul_cy.d.next = self.zx_cy.wide.val();
        self.mul_cy.s.next = self.t_cy.val();
        self.zx_k6.narrow.next = self.cfg_bdx_log2.val();
        self.zx_k12.narrow.next = self.cfg_bdx_log2.val();
        self.zx_k32.narrow.next = self.cfg_bdx_log2.val();
        self.amask.next = self.c0_6.val();
        if self.zx_k6.wide.val() >= self.c5_6.val() {
            self.amask.next =
                (self.c1_6.val() << (self.zx_k6.wide.val() - self.c5_6.val())) - self.c1_6.val();
        }
        self.zx_a7.narrow.next = self.wi.q.val() & self.amask.val();
        self.mul_tx.d.next = self.zx_a7.wide.val();
        self.mul_tx.s.next = self.t_tx.val();
        self.mul_ty.d.next = self.t0.val() >> self.zx_k12.wide.val();
        self.mul_ty.s.next = self.t_ty.val();
        self.vw.next = self.t_base.val()
            + self.mul_cx.p.val()
            + self.mul_cy.p.val()
            + (self.mul_tx.p.val() << self.c5_32.val())
            + self.mul_ty.p.val();
        self.lanes.vw.next = self.vw.val();
        self.lanes.off_tx.next = self.t_tx.val();
        self.lanes.off_ty.next = self.t_ty.val();
        self.lanes.k.next = self.cfg_bdx_log2.val();

        // ---- Address record from lane p.
        for l in 0..self._n {
            self.rec.v[l].next = self.lanes.v[l].val();
        }
        self.rec.n.next = self.n.val();
        self.rec.p.next = self.p.q.val();
        self.rec.g.next = self.t_gran.val();

        // ---- Predicate: the fast path from lanes 0 and n-1.
        self.cmp_first.a.next = self.lanes.v[0].val();
        self.cmp_first.b.next = self.t_scalar.val();
        self.cmp_first.op.next = self.t_cmp.val();
        self.vlast.next = self.c0_32.val();
        for l in 0..self._n {
            if self.nm1.val() == self.lane6[l].val() {
                self.vlast.next = self.lanes.v[l].val();
            }
        }
        self.cmp_last.a.next = self.vlast.val();
        self.cmp_last.b.next = self.t_scalar.val();
        self.cmp_last.op.next = self.t_cmp.val();
        self.zero_offs.next =
            (self.t_tx.val() == self.c0_32.val()) & (self.t_ty.val() == self.c0_32.val());
        self.arith.next = (self.zx_k6.wide.val() >= self.c5_6.val())
            | (self.t_ty.val() == (self.t_tx.val() << self.zx_k32.wide.val()));
        // first + (n-1)*step stays a signed 32-bit value.
        self.sx_v0.narrow.next = self.lanes.v[0].val();
        self.sx_tx.narrow.next = self.t_tx.val();
        self.zx_nm7.narrow.next = self.nm1.val();
        self.mul_ov.d.next = self.zx_nm7.wide.val();
        self.mul_ov.s.next = self.sx_tx.wide.val();
        self.fits.next =
            (self.sx_v0.wide.val() + self.mul_ov.p.val() + self.bias40.val()) < self.lim40.val();
        // Decided in the warp's first predicate cycle: once a group was
        // compared, the warp stays on the slow path.
        self.fast.next = (self.grp.q.val() == self.c0_2.val())
            & (self.zero_offs.val()
                | (self.arith.val()
                    & (self.t_cmp.val() < self.cmp_ord.val())
                    & self.fits.val()
                    & (self.cmp_first.r.val() == self.cmp_last.r.val())));
        self.fast_mask.next = self.c0_32.val();
        if self.cmp_first.r.val() {
            self.fast_mask.next = self.rec.act.val();
        }
        // The slow path: eight lanes of group `grp`.
        for i in 0..self._ng {
            if self.grp.q.val() == self.c0_2.val() {
                self.cmp_g[i].a.next = self.lanes.v[i].val();
            } else if self.grp.q.val() == self.c1_2.val() {
                self.cmp_g[i].a.next = self.lanes.v[i + 8].val();
            } else if self.grp.q.val() == self.c2_2.val() {
                self.cmp_g[i].a.next = self.lanes.v[i + 16].val();
            } else {
                self.cmp_g[i].a.next = self.lanes.v[i + 24].val();
            }
            self.cmp_g[i].b.next = self.t_scalar.val();
            self.cmp_g[i].op.next = self.t_cmp.val();
            self.gpack.bits[i].next = self.cmp_g[i].r.val();
        }
        self.zx_g8.narrow.next = self.gpack.word.val();
        self.zx_grp.narrow.next = self.grp.q.val();
        self.slow_mask.next = (self.part.q.val()
            | (self.zx_g8.wide.val() << (self.zx_grp.wide.val() << self.c3_32.val())))
            & self.rec.act.val();
        self.lastg.next = self.nm1.val().get_bits::<2>(3);

        // ---- Control.
        self.start.next = !self.busy.q.val()
            & self.atq0.o_valid.val()
            & self.atq1.o_valid.val()
            & self.atq2.o_valid.val()
            & self.atq3.o_valid.val();
        self.start_drop.next =
            self.start.val() & (self.reserved.val() | (self.active.q.val() == self.zero16.val()));
        self.start_go.next = self.start.val() & !self.start_drop.val();
        self.memfree.next = !self.mem_v.q.val() | self.mem_ready.val();
        self.a_push.next = self.busy.q.val()
            & self.is_addr.val()
            & !self.skip.val()
            & self.aq.push_room.val()
            & (!self.is_data.val() | self.memfree.val());
        self.pf_push.next = self.busy.q.val()
            & self.is_pred.val()
            & !self.skip.val()
            & self.fast.val()
            & self.pq.push_room.val();
        self.ps_final.next = self.busy.q.val()
            & self.is_pred.val()
            & !self.skip.val()
            & !self.fast.val()
            & (self.grp.q.val() == self.lastg.val())
            & self.pq.push_room.val();
        self.ps_adv.next = self.busy.q.val()
            & self.is_pred.val()
            & !self.skip.val()
            & !self.fast.val()
            & (self.grp.q.val() != self.lastg.val());
        self.p_push.next = self.pf_push.val() | self.ps_final.val();
        self.wdone.next = self.busy.q.val()
            & (self.skip.val() | (self.a_push.val() & self.rec.last.val()) | self.p_push.val());
        self.zx_wi7.narrow.next = self.wi.q.val();
        self.zx_wc7.narrow.next = self.cfg_warps_per_cta.val();
        self.slot_last.next = (self.zx_wi7.wide.val() + self.c1_7.val()) >= self.zx_wc7.wide.val();
        self.slot_done.next = self.wdone.val() & self.slot_last.val();
        self.todo_next.next = self.todo.q.val() & !self.cur_oh.val();
        self.tuple_done.next = self.slot_done.val() & (self.todo_next.val() == self.zero16.val());
        self.atq_pop.next = self.start_drop.val() | self.tuple_done.val();

        // ---- Expander registers.
        self.busy.d.next = self.busy.q.val();
        self.todo.d.next = self.todo.q.val();
        self.wi.d.next = self.wi.q.val();
        self.p.d.next = self.p.q.val();
        self.grp.d.next = self.grp.q.val();
        self.part.d.next = self.part.q.val();
        if self.start_go.val() {
            self.busy.d.next = true;
            self.todo.d.next = self.active.q.val();
            self.wi.d.next = self.c0_6.val();
            self.p.d.next = self.c0_6.val();
            self.grp.d.next = self.c0_2.val();
            self.part.d.next = self.c0_32.val();
        } else if self.wdone.val() {
            self.p.d.next = self.c0_6.val();
            self.grp.d.next = self.c0_2.val();
            self.part.d.next = self.c0_32.val();
            if self.slot_last.val() {
                self.wi.d.next = self.c0_6.val();
                self.todo.d.next = self.todo_next.val();
                if self.tuple_done.val() {
                    self.busy.d.next = false;
                }
            } else {
                self.wi.d.next = self.wi.q.val() + self.c1_6.val();
            }
        } else if self.a_push.val() {
            self.p.d.next = self.rec.e.val();
        } else if self.ps_adv.val() {
            self.grp.d.next = self.grp.q.val() + self.c1_2.val();
            self.part.d.next = self.slow_mask.val();
        }

        // ---- Early memory requests.
        self.mem_v.d.next = self.mem_v.q.val();
        self.mem_a.d.next = self.mem_a.q.val();
        if self.a_push.val() & self.is_data.val() {
            self.mem_v.d.next = true;
            self.mem_a.d.next = self.rec.addr.val() & self.line_mask.val();
        } else if self.mem_ready.val() {
            self.mem_v.d.next = false;
        }
        self.mem_valid.next = self.mem_v.q.val();
        self.mem_addr.next = self.mem_a.q.val();

        // ---- Statistics.
        self.st_fast.d.next = self.st_fast.q.val();
        self.st_slow.d.next = self.st_slow.q.val();
        if self.pf_push.val() {
            self.st_fast.d.next = self.st_fast.q.val() + self.c1_32.val();
        }
        if self.ps_final.val() {
            self.st_slow.d.next = self.st_slow.q.val() + self.c1_32.val();
        }
        self.stat_pred_fast.next = self.st_fast.q.val();
        self.stat_pred_slow.next = self.st_slow.q.val();

        // ---- The ATQ: {off_tx, base}, {off_cx, off_ty}, {scalar, off_cy},
        // {cmp, gran, kind}.
        self.enq_ready.next = !(self.atq0.o_full.val()
            | self.atq1.o_full.val()
            | self.atq2.o_full.val()
            | self.atq3.o_full.val());
        self.enq_push.next = self.enq_valid.val() & self.enq_ready.val();
        self.atq0.clock.next = self.clock.val();
        self.atq1.clock.next = self.clock.val();
        self.atq2.clock.next = self.clock.val();
        self.atq3.clock.next = self.clock.val();
        self.atq0.reset.next = self.reset.val();
        self.atq1.reset.next = self.reset.val();
        self.atq2.reset.next = self.reset.val();
        self.atq3.reset.next = self.reset.val();
        self.atq0.push.next = self.enq_push.val();
        self.atq1.push.next = self.enq_push.val();
        self.atq2.push.next = self.enq_push.val();
        self.atq3.push.next = self.enq_push.val();
        self.atq0.pop.next = self.atq_pop.val();
        self.atq1.pop.next = self.atq_pop.val();
        self.atq2.pop.next = self.atq_pop.val();
        self.atq3.pop.next = self.atq_pop.val();
        self.pk_base.narrow.next = self.enq_base.val();
        self.pk_tx.narrow.next = self.enq_off_tx.val();
        self.pk_ty.narrow.next = self.enq_off_ty.val();
        self.pk_cx.narrow.next = self.enq_off_cx.val();
        self.pk_cy.narrow.next = self.enq_off_cy.val();
        self.pk_sc.narrow.next = self.enq_scalar.val();
        self.pk_kind.narrow.next = self.enq_kind.val();
        self.pk_gr.narrow.next = self.enq_gran.val();
        self.pk_cmp.narrow.next = self.enq_cmp.val();
        self.atq0.i_data.next =
            self.pk_base.wide.val() | (self.pk_tx.wide.val() << self.c32_64.val());
        self.atq1.i_data.next =
            self.pk_ty.wide.val() | (self.pk_cx.wide.val() << self.c32_64.val());
        self.atq2.i_data.next =
            self.pk_cy.wide.val() | (self.pk_sc.wide.val() << self.c32_64.val());
        self.atq3.i_data.next = self.pk_kind.wide.val()
            | (self.pk_gr.wide.val() << self.c2_7.val())
            | (self.pk_cmp.wide.val() << self.c4_7.val());
        self.count.d.next = self.count.q.val();
        if self.enq_push.val() & !self.atq_pop.val() {
            self.count.d.next = self.count.q.val() + self.one_cb.val();
        } else if !self.enq_push.val() & self.atq_pop.val() {
            self.count.d.next = self.count.q.val() - self.one_cb.val();
        }
        self.atq_count.next = self.count.q.val();

        // ---- Per-warp queues: the expander pushes, a warp pops.
        self.aq.clock.next = self.clock.val();
        self.aq.reset.next = self.reset.val();
        self.pq.clock.next = self.clock.val();
        self.pq.reset.next = self.reset.val();
        self.aq.push_q.next = self.wid.val().get_bits::<WB>(0);
        self.pq.push_q.next = self.wid.val().get_bits::<WB>(0);
        self.aq.push.next = self.a_push.val();
        self.pq.push.next = self.p_push.val();
        // Record {last, gran, mask, addr[31:5]}.
        self.pk_addr.narrow.next = self.rec.addr.val() >> self.c5_32.val();
        self.pk_mask.narrow.next = self.rec.mask.val();
        self.pk_gran.narrow.next = self.t_gran.val();
        self.pk_last.next = self.zero_62.val();
        if self.rec.last.val() {
            self.pk_last.next = self.bit61.val();
        }
        self.aq.push_data.next = self.pk_addr.wide.val()
            | (self.pk_mask.wide.val() << self.off27.val())
            | (self.pk_gran.wide.val() << self.off59.val())
            | self.pk_last.val();
        if self.fast.val() {
            self.pq.push_data.next = self.fast_mask.val();
        } else {
            self.pq.push_data.next = self.slow_mask.val();
        }
        self.aq.pop_q.next = self.deq_warp.val();
        self.pq.pop_q.next = self.deq_warp.val();
        self.aq.pop.next = self.deq_valid.val() & !self.deq_kind.val();
        self.pq.pop.next = self.deq_valid.val() & self.deq_kind.val();

        // ---- The dequeue response.
        self.d_hit.next = self.aq.pop_valid.val();
        if self.deq_kind.val() {
            self.d_hit.next = self.pq.pop_valid.val();
        }
        self.r_valid.d.next = self.deq_valid.val();
        self.r_hit.d.next = self.deq_valid.val() & self.d_hit.val();
        self.r_addr.d.next = self.c0_32.val();
        self.r_mask.d.next = self.c0_32.val();
        self.r_gran.d.next = self.c0_2.val();
        self.r_last.d.next = false;
        self.up_addr.narrow.next = self.aq.pop_data.val().get_bits::<27>(0);
        if self.deq_valid.val() & self.d_hit.val() {
            if self.deq_kind.val() {
                self.r_mask.d.next = self.pq.pop_data.val();
            } else {
                self.r_addr.d.next = self.up_addr.wide.val() << self.c5_32.val();
                self.r_mask.d.next = self.aq.pop_data.val().get_bits::<32>(27);
                self.r_gran.d.next = self.aq.pop_data.val().get_bits::<2>(59);
                self.r_last.d.next = self.aq.pop_data.val().get_bit(61);
            }
        }
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_hit.next = self.r_hit.q.val();
        self.rsp_addr.next = self.r_addr.q.val();
        self.rsp_mask.next = self.r_mask.q.val();
        self.rsp_gran.next = self.r_gran.q.val();
        self.rsp_last.next = self.r_last.q.val();
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
