//! The top of `ba_tag_array`: address decode, the sets, the two pipeline
//! stages, the response registers.

use ports::ba::BaParams;
use rust_hdl::prelude::*;

use super::way::BaWay;
use crate::reg::Reg;
use crate::util::{regs, sigs, Pack, PopCount, ZeroExt};
use ports::ba::outcome;

mod decide;
mod forward;
mod read;
mod respond;
mod victim;

/// Kernel section 1 ([`read`]), stage 1: the registers' clock and reset,
/// the address decode, every way's read of the addressed set and its tag
/// compared with the request's, and whether the request in stage 2 writes
/// the same set.
struct Read;
/// Kernel section 2 ([`decide`]), stage 2: the row as the request sees it
/// (hits, invalid and reused ways, the lowest invalid way), the count of
/// never-reused lines, and the ways that move down one rank.
struct Decide;
/// Kernel section 3 ([`victim`]), stage 2: the victim, the selected way
/// numbers, tags and bypass bits, and the way the request makes most
/// recently used.
struct Victim;
/// Kernel section 4 ([`respond`]), stage 2: the outcome and eviction
/// report, each way's line written back, and the response registers.
struct Respond;
/// Kernel section 5 ([`forward`]), stage 1: the row registers of stage 2,
/// from the memories or, for the set stage 2 writes, from its write.
struct Forward;

/// The `ba_tag_array` unit. `A` = `ADDR_W`, `T` = tag bits, `S` = set-index
/// bits (1 for a single set), `W` = `clog2(WAYS)`, `NS` = `SETS`, `NW` =
/// `WAYS` (the width of `req_resv`).
#[derive(LogicBlock)]
pub struct BaTagArrayRtl<
    const A: usize,
    const T: usize,
    const S: usize,
    const W: usize,
    const NS: usize,
    const NW: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset.
    pub reset: Signal<In, Bit>,
    /// A request this cycle (always accepted).
    pub req_valid: Signal<In, Bit>,
    /// Byte address.
    pub req_addr: Signal<In, Bits<A>>,
    /// 1 = store.
    pub req_write: Signal<In, Bit>,
    /// 1 = the load is a prefetch fill (allocates, never bypasses, no reuse).
    pub req_prefetch: Signal<In, Bit>,
    /// Reserved ways of the request's set (bit i = way i): never a victim
    /// or a way to fill; all reserved and an allocation needed: RESV_FAIL.
    pub req_resv: Signal<In, Bits<NW>>,
    /// Invalidate every line, before the request of the same cycle.
    pub flush: Signal<In, Bit>,
    /// Result of the request accepted two edges before (latency 2).
    pub rsp_valid: Signal<Out, Bit>,
    /// Outcome code.
    pub rsp_outcome: Signal<Out, Bits<3>>,
    /// Way read, filled or written.
    pub rsp_way: Signal<Out, Bits<W>>,
    /// A line holding data was displaced.
    pub rsp_evict_valid: Signal<Out, Bit>,
    /// Line address of the displaced line.
    pub rsp_evict_addr: Signal<Out, Bits<A>>,

    ways: Vec<BaWay<T, W, S, NS>>,
    r_valid: Reg<Bit>,
    r_outcome: Reg<Bits<3>>,
    r_way: Reg<Bits<W>>,
    r_evict_valid: Reg<Bit>,
    r_evict_addr: Reg<Bits<A>>,

    // Stage 2's request (registered at the edge that accepts it).
    s_valid: Reg<Bit>,
    s_set: Reg<Bits<S>>,
    s_tag: Reg<Bits<T>>,
    s_write: Reg<Bit>,
    s_prefetch: Reg<Bit>,
    s_resv: Reg<Bits<NW>>,
    // Stage 2's row, per way: valid (after a flush of the accepting edge),
    // the tag equal to the request's, the tag, reuse, bypass and rank.
    rv: Vec<Reg<Bit>>,
    req: Vec<Reg<Bit>>,
    rtag: Vec<Reg<Bits<T>>>,
    rreuse: Vec<Reg<Bit>>,
    rbyp: Vec<Reg<Bit>>,
    rrank: Vec<Reg<Bits<W>>>,
    /// Per way: the previous request (then in stage 2) filled the way with
    /// its tag, kept in `p_tag` (the tag is then `p_tag`, not `rtag`: the
    /// wide tag multiplexer stays out of the forward path).
    rfill: Vec<Reg<Bit>>,
    p_tag: Reg<Bits<T>>,
    // The write buffer (stage 3): stage 2's lines, written to the memories
    // at the next edge; per way valid (a flush of the edge that took them
    // applied), tag, reuse, bypass, rank.
    wb_valid: Reg<Bit>,
    wb_set: Reg<Bits<S>>,
    wbv: Vec<Reg<Bit>>,
    wbtag: Vec<Reg<Bits<T>>>,
    /// Per way: the line takes `wb_stag` (a fill) instead of `wbtag`.
    wbfill: Vec<Reg<Bit>>,
    wb_stag: Reg<Bits<T>>,
    wbreuse: Vec<Reg<Bit>>,
    wbbyp: Vec<Reg<Bit>>,
    wbrank: Vec<Reg<Bits<W>>>,

    zext_tag: ZeroExt<T, A>,
    zext_set: ZeroExt<S, A>,
    zext_onehot: ZeroExt<S, NS>,
    zext_wonehot: ZeroExt<S, NS>,
    zpack: Pack<NW>,
    zpop: PopCount<NW>,

    off_amt: Constant<Bits<A>>,
    tag_amt: Constant<Bits<A>>,
    set_mask: Constant<Bits<S>>,
    addr_zero: Constant<Bits<A>>,
    way_zero: Constant<Bits<W>>,
    code_zero: Constant<Bits<3>>,
    ns_one: Constant<Bits<NS>>,

    // Policy constants.
    way_id: Vec<Constant<Bits<W>>>,
    ba_enable: Constant<Bit>,
    policy1: Constant<Bit>,
    threshold: Constant<Bits<8>>,
    rank_one: Constant<Bits<W>>,
    rank_zero: Constant<Bits<W>>,
    tag_zero: Constant<Bits<T>>,
    c_hit: Constant<Bits<3>>,
    c_miss: Constant<Bits<3>>,
    c_bypass: Constant<Bits<3>>,
    c_pseudo: Constant<Bits<3>>,
    c_wevict: Constant<Bits<3>>,
    c_wmiss: Constant<Bits<3>>,
    c_resvfail: Constant<Bits<3>>,

    // Stage 1.
    set_idx: Signal<Local, Bits<S>>,
    set_onehot: Signal<Local, Bits<NS>>,
    req_tag: Signal<Local, Bits<T>>,
    unused_addr_bits: Signal<Local, Bit>,
    w_onehot: Signal<Local, Bits<NS>>,
    /// Stage 2 holds a request to the set stage 1 reads.
    same_set: Signal<Local, Bit>,
    /// Stage 2's tag equals stage 1's (for a way stage 2 fills).
    eq_fwd: Signal<Local, Bit>,
    /// Per way: the tag read equals the request's.
    eq_mem: Vec<Signal<Local, Bit>>,
    /// The write buffer holds a line of the set stage 1 reads.
    wb_same: Signal<Local, Bit>,
    /// The line read: the memories', or the write buffer's.
    m_valid: Vec<Signal<Local, Bit>>,
    m_tag: Vec<Signal<Local, Bits<T>>>,
    m_reuse: Vec<Signal<Local, Bit>>,
    m_byp: Vec<Signal<Local, Bit>>,
    m_rank: Vec<Signal<Local, Bits<W>>>,
    /// Stage 2's line of each way after its request.
    n_valid: Vec<Signal<Local, Bit>>,
    /// The write buffer's tag of each way.
    wb_tag: Vec<Signal<Local, Bits<T>>>,
    /// Stage 2's tag of each way before its request.
    etag: Vec<Signal<Local, Bits<T>>>,
    n_reuse: Vec<Signal<Local, Bit>>,
    n_byp: Vec<Signal<Local, Bit>>,
    n_rank: Vec<Signal<Local, Bits<W>>>,

    // Stage 2: the decision on the row, per way.
    /// A valid way that is not reserved: a possible victim.
    cand: Vec<Signal<Local, Bit>>,
    hit: Vec<Signal<Local, Bit>>,
    inval: Vec<Signal<Local, Bit>>,
    noreuse: Vec<Signal<Local, Bit>>,
    withreuse: Vec<Signal<Local, Bit>>,
    inval_below: Vec<Signal<Local, Bit>>,
    first_inval: Vec<Signal<Local, Bit>>,
    /// The least recently used way among the never-reused, the reused
    /// and all candidates (three searches side by side).
    v_nr: Vec<Signal<Local, Bit>>,
    v_wr: Vec<Signal<Local, Bit>>,
    v_all: Vec<Signal<Local, Bit>>,
    is_victim: Vec<Signal<Local, Bit>>,
    tgt: Vec<Signal<Local, Bit>>,
    /// The way is ranked before the target (moves down one).
    inc: Vec<Signal<Local, Bit>>,
    /// The way is ranked before the hit way.
    inc_hit: Vec<Signal<Local, Bit>>,
    /// The way is ranked before some never-reused, reused, any candidate
    /// way (before the victim when it is taken from that group).
    old_nr: Vec<Signal<Local, Bit>>,
    old_wr: Vec<Signal<Local, Bit>>,
    old_all: Vec<Signal<Local, Bit>>,
    /// The way is ranked after the store's hit (moves up one).
    dec: Vec<Signal<Local, Bit>>,
    /// The way takes stage 2's tag (a fill).
    fill: Vec<Signal<Local, Bit>>,

    any_hit: Signal<Local, Bit>,
    any_inval: Signal<Local, Bit>,
    any_victim: Signal<Local, Bit>,
    any_reuse: Signal<Local, Bit>,
    any_noreuse: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
    zsum: Signal<Local, Bits<8>>,
    use_noreuse: Signal<Local, Bit>,
    hit_way: Signal<Local, Bits<W>>,
    hit_bypass: Signal<Local, Bit>,
    pf_nop: Signal<Local, Bit>,
    fi_way: Signal<Local, Bits<W>>,
    victim_way: Signal<Local, Bits<W>>,
    victim_bypass: Signal<Local, Bit>,
    victim_tag: Signal<Local, Bits<T>>,
    /// The tag and bypass bit of each group's victim (selected after).
    vt_nr: Signal<Local, Bits<T>>,
    vt_wr: Signal<Local, Bits<T>>,
    vt_all: Signal<Local, Bits<T>>,
    vb_nr: Signal<Local, Bit>,
    vb_wr: Signal<Local, Bit>,
    vb_all: Signal<Local, Bit>,
    new_bypass: Signal<Local, Bit>,
    m_outcome: Signal<Local, Bits<3>>,
    m_way: Signal<Local, Bits<W>>,
    m_evict_valid: Signal<Local, Bit>,
    m_evict_tag: Signal<Local, Bits<T>>,

    _ways: usize,
}

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > BaTagArrayRtl<A, T, S, W, NS, NW>
{
    /// Panics unless `p`'s widths are this instantiation's.
    fn assert_widths(p: &BaParams) {
        assert_eq!(A as u64, p.ADDR_W, "ADDR_W");
        assert_eq!(T as u32, p.tag_bits(), "tag bits");
        assert_eq!(S as u32, p.set_bits().max(1), "set bits");
        assert_eq!(W as u32, p.way_bits(), "way bits");
        assert_eq!(NS as u64, p.SETS, "SETS");
        assert_eq!(NW as u64, p.WAYS, "WAYS");
    }

    /// Build the unit for `p`. Panics if `p`'s widths are not `A`, `T`, `S`,
    /// `W`, `NS` (`<ports::ba::BaTagArray as crate::registry::RtlDecl>::build`
    /// picks the instantiation).
    pub fn new(p: &BaParams) -> Self {
        Self::assert_widths(p);
        let ways = p.WAYS as usize;
        let code = |c: u64| Constant::new(Bits::<3>::from(c));
        BaTagArrayRtl {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_addr: Default::default(),
            req_write: Default::default(),
            req_prefetch: Default::default(),
            req_resv: Default::default(),
            flush: Default::default(),
            rsp_valid: Default::default(),
            rsp_outcome: Default::default(),
            rsp_way: Default::default(),
            rsp_evict_valid: Default::default(),
            rsp_evict_addr: Default::default(),
            ways: (0..ways).map(|_| BaWay::new(p)).collect(),
            r_valid: Default::default(),
            r_outcome: Default::default(),
            r_way: Default::default(),
            r_evict_valid: Default::default(),
            r_evict_addr: Default::default(),
            s_valid: Default::default(),
            s_set: Default::default(),
            s_tag: Default::default(),
            s_write: Default::default(),
            s_prefetch: Default::default(),
            s_resv: Default::default(),
            rv: regs(ways),
            req: regs(ways),
            rtag: regs(ways),
            rreuse: regs(ways),
            rbyp: regs(ways),
            rrank: regs(ways),
            rfill: regs(ways),
            p_tag: Default::default(),
            wb_valid: Default::default(),
            wb_set: Default::default(),
            wbv: regs(ways),
            wbtag: regs(ways),
            wbfill: regs(ways),
            wb_stag: Default::default(),
            wbreuse: regs(ways),
            wbbyp: regs(ways),
            wbrank: regs(ways),
            zext_tag: Default::default(),
            zext_set: Default::default(),
            zext_onehot: Default::default(),
            zext_wonehot: Default::default(),
            zpack: Pack::new(ways),
            zpop: Default::default(),
            off_amt: Constant::new(Bits::<A>::from(p.offset_bits() as u64)),
            tag_amt: Constant::new(Bits::<A>::from((p.offset_bits() + p.set_bits()) as u64)),
            set_mask: Constant::new(Bits::<S>::from(p.SETS - 1)),
            addr_zero: Constant::new(Bits::<A>::from(0u64)),
            way_zero: Constant::new(Bits::<W>::from(0u64)),
            code_zero: Constant::new(Bits::<3>::from(0u64)),
            ns_one: Constant::new(Bits::<NS>::from(1u64)),
            way_id: (0..ways)
                .map(|w| Constant::new(Bits::<W>::from(w as u64)))
                .collect(),
            ba_enable: Constant::new(p.BA_ENABLE == 1),
            policy1: Constant::new(p.BA_POLICY == 1),
            threshold: Constant::new(Bits::<8>::from(p.reuse_threshold())),
            rank_one: Constant::new(Bits::<W>::from(1u64)),
            rank_zero: Constant::new(Bits::<W>::from(0u64)),
            tag_zero: Constant::new(Bits::<T>::from(0u64)),
            c_hit: code(outcome::HIT),
            c_miss: code(outcome::MISS),
            c_bypass: code(outcome::BYPASS),
            c_pseudo: code(outcome::PSEUDO_HIT),
            c_wevict: code(outcome::WRITE_EVICT),
            c_wmiss: code(outcome::WRITE_MISS),
            c_resvfail: code(outcome::RESV_FAIL),
            set_idx: Default::default(),
            set_onehot: Default::default(),
            req_tag: Default::default(),
            unused_addr_bits: Default::default(),
            w_onehot: Default::default(),
            same_set: Default::default(),
            eq_fwd: Default::default(),
            eq_mem: sigs(ways),
            wb_same: Default::default(),
            m_valid: sigs(ways),
            m_tag: sigs(ways),
            m_reuse: sigs(ways),
            m_byp: sigs(ways),
            m_rank: sigs(ways),
            n_valid: sigs(ways),
            wb_tag: sigs(ways),
            etag: sigs(ways),
            n_reuse: sigs(ways),
            n_byp: sigs(ways),
            n_rank: sigs(ways),
            cand: sigs(ways),
            hit: sigs(ways),
            inval: sigs(ways),
            noreuse: sigs(ways),
            withreuse: sigs(ways),
            inval_below: sigs(ways),
            first_inval: sigs(ways),
            v_nr: sigs(ways),
            v_wr: sigs(ways),
            v_all: sigs(ways),
            is_victim: sigs(ways),
            tgt: sigs(ways),
            inc: sigs(ways),
            inc_hit: sigs(ways),
            old_nr: sigs(ways),
            old_wr: sigs(ways),
            old_all: sigs(ways),
            dec: sigs(ways),
            fill: sigs(ways),
            any_hit: Default::default(),
            any_inval: Default::default(),
            any_victim: Default::default(),
            any_reuse: Default::default(),
            any_noreuse: Default::default(),
            free: Default::default(),
            zsum: Default::default(),
            use_noreuse: Default::default(),
            hit_way: Default::default(),
            hit_bypass: Default::default(),
            pf_nop: Default::default(),
            fi_way: Default::default(),
            victim_way: Default::default(),
            victim_bypass: Default::default(),
            victim_tag: Default::default(),
            vt_nr: Default::default(),
            vt_wr: Default::default(),
            vt_all: Default::default(),
            vb_nr: Default::default(),
            vb_wr: Default::default(),
            vb_all: Default::default(),
            new_bypass: Default::default(),
            m_outcome: Default::default(),
            m_way: Default::default(),
            m_evict_valid: Default::default(),
            m_evict_tag: Default::default(),
            _ways: ways,
        }
    }
}

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Logic for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    crate::section::sections!(Read, Decide, Victim, Respond, Forward);
}

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > crate::RtlUnit for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    fn block(&self) -> &dyn Block {
        self
    }
    fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        crate::emit::emit_unit("ba_tag_array", self, header)
    }
    // `set_inputs` and `outputs`, from the unit's port declaration.
    ports::ba_tag_array_ports!(crate::rtl_port_glue);
    fn set_clock(&mut self, high: bool) {
        self.clock.next = Clock::from(high);
    }
    fn settle(&mut self) -> bool {
        simulate(self, 1000)
    }
}
