//! The top of `ba_tag_array`: address decode, the sets, the response
//! registers.

use ports::ba::BaParams;
use rust_hdl::prelude::*;

use super::BaSet;
use crate::reg::Reg;
use crate::util::{sigs, ZeroExt};

/// The `ba_tag_array` unit. `A` = `ADDR_W`, `T` = tag bits, `S` = set-index
/// bits (1 for a single set), `W` = `clog2(WAYS)`.
#[derive(LogicBlock)]
pub struct BaTagArrayRtl<const A: usize, const T: usize, const S: usize, const W: usize> {
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

    sets: Vec<BaSet<T, W>>,
    r_valid: Reg<Bit>,
    r_outcome: Reg<Bits<3>>,
    r_way: Reg<Bits<W>>,
    r_evict_valid: Reg<Bit>,
    r_evict_addr: Reg<Bits<A>>,

    zext_tag: ZeroExt<T, A>,
    zext_set: ZeroExt<S, A>,

    set_id: Vec<Constant<Bits<S>>>,
    off_amt: Constant<Bits<A>>,
    tag_amt: Constant<Bits<A>>,
    set_mask: Constant<Bits<S>>,
    addr_zero: Constant<Bits<A>>,
    way_zero: Constant<Bits<W>>,
    tag_zero: Constant<Bits<T>>,
    code_zero: Constant<Bits<3>>,

    set_idx: Signal<Local, Bits<S>>,
    req_tag: Signal<Local, Bits<T>>,
    unused_addr_bits: Signal<Local, Bit>,
    set_sel: Vec<Signal<Local, Bit>>,
    m_outcome: Signal<Local, Bits<3>>,
    m_way: Signal<Local, Bits<W>>,
    m_evict_valid: Signal<Local, Bit>,
    m_evict_tag: Signal<Local, Bits<T>>,

    _sets: usize,
}

impl<const A: usize, const T: usize, const S: usize, const W: usize> BaTagArrayRtl<A, T, S, W> {
    /// Build the unit for `p`. Panics if `p`'s widths are not `A`, `T`, `S`,
    /// `W` (`<ports::ba::BaTagArray as crate::registry::RtlDecl>::build`
    /// picks the instantiation).
    pub fn new(p: &BaParams) -> Self {
        assert_eq!(A as u64, p.ADDR_W, "ADDR_W");
        assert_eq!(T as u32, p.tag_bits(), "tag bits");
        assert_eq!(S as u32, p.set_bits().max(1), "set bits");
        assert_eq!(W as u32, p.way_bits(), "way bits");
        let sets = p.SETS as usize;
        BaTagArrayRtl {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_addr: Default::default(),
            req_write: Default::default(),
            flush: Default::default(),
            rsp_valid: Default::default(),
            rsp_outcome: Default::default(),
            rsp_way: Default::default(),
            rsp_evict_valid: Default::default(),
            rsp_evict_addr: Default::default(),
            sets: (0..sets).map(|_| BaSet::new(p)).collect(),
            r_valid: Default::default(),
            r_outcome: Default::default(),
            r_way: Default::default(),
            r_evict_valid: Default::default(),
            r_evict_addr: Default::default(),
            zext_tag: Default::default(),
            zext_set: Default::default(),
            set_id: (0..sets)
                .map(|s| Constant::new(Bits::<S>::from(s as u64)))
                .collect(),
            off_amt: Constant::new(Bits::<A>::from(p.offset_bits() as u64)),
            tag_amt: Constant::new(Bits::<A>::from((p.offset_bits() + p.set_bits()) as u64)),
            set_mask: Constant::new(Bits::<S>::from(p.SETS - 1)),
            addr_zero: Constant::new(Bits::<A>::from(0u64)),
            way_zero: Constant::new(Bits::<W>::from(0u64)),
            tag_zero: Constant::new(Bits::<T>::from(0u64)),
            code_zero: Constant::new(Bits::<3>::from(0u64)),
            set_idx: Default::default(),
            req_tag: Default::default(),
            unused_addr_bits: Default::default(),
            set_sel: sigs(sets),
            m_outcome: Default::default(),
            m_way: Default::default(),
            m_evict_valid: Default::default(),
            m_evict_tag: Default::default(),
            _sets: sets,
        }
    }
}

impl<const A: usize, const T: usize, const S: usize, const W: usize> Logic
    for BaTagArrayRtl<A, T, S, W>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_valid,
            r_outcome,
            r_way,
            r_evict_valid,
            r_evict_addr
        );
        self.r_valid.reset.next = self.reset.val();
        self.r_outcome.reset.next = self.reset.val();
        self.r_way.reset.next = self.reset.val();
        self.r_evict_valid.reset.next = self.reset.val();
        self.r_evict_addr.reset.next = self.reset.val();
        // Address decode.
        // Address decode. The offset bits select nothing here; Verilator's
        // `*unused*` naming rule marks them as deliberately unused.
        self.set_idx.next = self
            .req_addr
            .val()
            .get_bits::<S>(self.off_amt.val().index())
            & self.set_mask.val();
        self.req_tag.next = self
            .req_addr
            .val()
            .get_bits::<T>(self.tag_amt.val().index());
        self.unused_addr_bits.next = self.req_addr.val().any();
        self.zext_set.narrow.next = self.set_idx.val();
        // Broadcast to the sets; select the addressed set's answer.
        self.m_outcome.next = self.code_zero.val();
        self.m_way.next = self.way_zero.val();
        self.m_evict_valid.next = false;
        self.m_evict_tag.next = self.tag_zero.val();
        for s in 0..self._sets {
            self.set_sel[s].next = self.set_idx.val() == self.set_id[s].val();
            self.sets[s].clock.next = self.clock.val();
            self.sets[s].reset.next = self.reset.val();
            self.sets[s].flush.next = self.flush.val();
            self.sets[s].sel.next = self.req_valid.val() & self.set_sel[s].val();
            self.sets[s].is_write.next = self.req_write.val();
            self.sets[s].req_tag.next = self.req_tag.val();
            if self.set_sel[s].val() {
                self.m_outcome.next = self.sets[s].o_outcome.val();
                self.m_way.next = self.sets[s].o_way.val();
                self.m_evict_valid.next = self.sets[s].o_evict_valid.val();
                self.m_evict_tag.next = self.sets[s].o_evict_tag.val();
            }
        }
        // Written only after m_evict_tag: in one always block every signal
        // must be assigned before it is read (event-driven simulators do
        // not re-run a block for its own writes).
        self.zext_tag.narrow.next = self.m_evict_tag.val();
        // Response registers: all zero when no request was accepted.
        self.r_valid.d.next = self.req_valid.val();
        self.r_outcome.d.next = self.code_zero.val();
        self.r_way.d.next = self.way_zero.val();
        self.r_evict_valid.d.next = false;
        self.r_evict_addr.d.next = self.addr_zero.val();
        if self.req_valid.val() {
            self.r_outcome.d.next = self.m_outcome.val();
            self.r_way.d.next = self.m_way.val();
            self.r_evict_valid.d.next = self.m_evict_valid.val();
            if self.m_evict_valid.val() {
                self.r_evict_addr.d.next = (self.zext_tag.wide.val() << self.tag_amt.val())
                    | (self.zext_set.wide.val() << self.off_amt.val());
            }
        }
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_outcome.next = self.r_outcome.q.val();
        self.rsp_way.next = self.r_way.q.val();
        self.rsp_evict_valid.next = self.r_evict_valid.q.val();
        self.rsp_evict_addr.next = self.r_evict_addr.q.val();
    }
}

impl<const A: usize, const T: usize, const S: usize, const W: usize> crate::RtlUnit
    for BaTagArrayRtl<A, T, S, W>
{
    fn block(&self) -> &dyn Block {
        self
    }
    fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        crate::emit::emit_unit("ba_tag_array", self, header)
    }
    fn set_inputs(&mut self, v: &[u64]) {
        use crate::PortValue;
        self.reset.next = Bit::from_u64(v[0]);
        self.req_valid.next = Bit::from_u64(v[1]);
        self.req_addr.next = Bits::<A>::from_u64(v[2]);
        self.req_write.next = Bit::from_u64(v[3]);
        self.flush.next = Bit::from_u64(v[4]);
    }
    fn set_clock(&mut self, high: bool) {
        self.clock.next = Clock::from(high);
    }
    fn settle(&mut self) -> bool {
        simulate(self, 1000)
    }
    fn outputs(&self, out: &mut [u64]) {
        use crate::PortValue;
        out[0] = self.rsp_valid.val().to_u64();
        out[1] = self.rsp_outcome.val().to_u64();
        out[2] = self.rsp_way.val().to_u64();
        out[3] = self.rsp_evict_valid.val().to_u64();
        out[4] = self.rsp_evict_addr.val().to_u64();
    }
}
