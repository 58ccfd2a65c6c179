//! The top of `ba_tag_array`: address decode, the sets, the response
//! registers.

use ports::ba::BaParams;
use rust_hdl::prelude::*;

use super::way::BaWay;
use crate::reg::Reg;
use crate::util::{sigs, ZeroExt};
use ports::ba::outcome;

mod decide;
mod read;
mod respond;

/// Kernel section 1 ([`read`]): the response registers' clock and reset,
/// the address decode, every way's read of the addressed set, and the row
/// as the request sees it (hits, invalid and reused ways, the lowest
/// invalid way).
struct Read;
/// Kernel section 2 ([`decide`]): the count of never-reused lines, the
/// victim, the one-hot selections as values, and the way the request makes
/// most recently used.
struct Decide;
/// Kernel section 3 ([`respond`]): the outcome and eviction report, each
/// way's line written back, and the response registers.
struct Respond;

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
    /// Result of the request accepted in the previous cycle.
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

    zext_tag: ZeroExt<T, A>,
    zext_set: ZeroExt<S, A>,
    zext_onehot: ZeroExt<S, NS>,

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
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
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

    set_idx: Signal<Local, Bits<S>>,
    set_onehot: Signal<Local, Bits<NS>>,
    req_tag: Signal<Local, Bits<T>>,
    unused_addr_bits: Signal<Local, Bit>,

    // The decision on the addressed set's row, per way.
    ev: Vec<Signal<Local, Bit>>,
    /// A valid way that is not reserved: a possible victim.
    cand: Vec<Signal<Local, Bit>>,
    hit: Vec<Signal<Local, Bit>>,
    inval: Vec<Signal<Local, Bit>>,
    noreuse: Vec<Signal<Local, Bit>>,
    withreuse: Vec<Signal<Local, Bit>>,
    inval_below: Vec<Signal<Local, Bit>>,
    first_inval: Vec<Signal<Local, Bit>>,
    zcnt: Vec<Signal<Local, Bits<8>>>,
    vcand: Vec<Signal<Local, Bit>>,
    is_victim: Vec<Signal<Local, Bit>>,
    tgt: Vec<Signal<Local, Bit>>,

    any_hit: Signal<Local, Bit>,
    any_inval: Signal<Local, Bit>,
    any_victim: Signal<Local, Bit>,
    any_reuse: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
    zsum: Signal<Local, Bits<8>>,
    use_noreuse: Signal<Local, Bit>,
    hit_way: Signal<Local, Bits<W>>,
    hit_rank: Signal<Local, Bits<W>>,
    hit_bypass: Signal<Local, Bit>,
    pf_nop: Signal<Local, Bit>,
    fi_way: Signal<Local, Bits<W>>,
    victim_way: Signal<Local, Bits<W>>,
    victim_rank: Signal<Local, Bits<W>>,
    victim_bypass: Signal<Local, Bit>,
    victim_tag: Signal<Local, Bits<T>>,
    tgt_valid: Signal<Local, Bit>,
    tgt_rank: Signal<Local, Bits<W>>,
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
    /// Build the unit for `p`. Panics if `p`'s widths are not `A`, `T`, `S`,
    /// `W`, `NS` (`<ports::ba::BaTagArray as crate::registry::RtlDecl>::build`
    /// picks the instantiation).
    pub fn new(p: &BaParams) -> Self {
        assert_eq!(A as u64, p.ADDR_W, "ADDR_W");
        assert_eq!(T as u32, p.tag_bits(), "tag bits");
        assert_eq!(S as u32, p.set_bits().max(1), "set bits");
        assert_eq!(W as u32, p.way_bits(), "way bits");
        assert_eq!(NS as u64, p.SETS, "SETS");
        assert_eq!(NW as u64, p.WAYS, "WAYS");
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
            zext_tag: Default::default(),
            zext_set: Default::default(),
            zext_onehot: Default::default(),
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
            one8: Constant::new(Bits::<8>::from(1u64)),
            zero8: Constant::new(Bits::<8>::from(0u64)),
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
            ev: sigs(ways),
            cand: sigs(ways),
            hit: sigs(ways),
            inval: sigs(ways),
            noreuse: sigs(ways),
            withreuse: sigs(ways),
            inval_below: sigs(ways),
            first_inval: sigs(ways),
            zcnt: sigs(ways + 1),
            vcand: sigs(ways),
            is_victim: sigs(ways),
            tgt: sigs(ways),
            any_hit: Default::default(),
            any_inval: Default::default(),
            any_victim: Default::default(),
            any_reuse: Default::default(),
            free: Default::default(),
            zsum: Default::default(),
            use_noreuse: Default::default(),
            hit_way: Default::default(),
            hit_rank: Default::default(),
            hit_bypass: Default::default(),
            pf_nop: Default::default(),
            fi_way: Default::default(),
            victim_way: Default::default(),
            victim_rank: Default::default(),
            victim_bypass: Default::default(),
            victim_tag: Default::default(),
            tgt_valid: Default::default(),
            tgt_rank: Default::default(),
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
    crate::section::sections!(Read, Decide, Respond);
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
