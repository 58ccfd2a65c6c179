//! The top of `ba_tag_array`: address decode, the sets, the response
//! registers.

use ports::ba::BaParams;
use rust_hdl::prelude::*;

use super::BaWay;
use crate::reg::Reg;
use crate::util::{sigs, ZeroExt};
use ports::ba::outcome;

/// The `ba_tag_array` unit. `A` = `ADDR_W`, `T` = tag bits, `S` = set-index
/// bits (1 for a single set), `W` = `clog2(WAYS)`, `NS` = `SETS`.
#[derive(LogicBlock)]
pub struct BaTagArrayRtl<
    const A: usize,
    const T: usize,
    const S: usize,
    const W: usize,
    const NS: usize,
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

    set_idx: Signal<Local, Bits<S>>,
    set_onehot: Signal<Local, Bits<NS>>,
    req_tag: Signal<Local, Bits<T>>,
    unused_addr_bits: Signal<Local, Bit>,

    // The decision on the addressed set's row, per way.
    ev: Vec<Signal<Local, Bit>>,
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

impl<const A: usize, const T: usize, const S: usize, const W: usize, const NS: usize>
    BaTagArrayRtl<A, T, S, W, NS>
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
        let ways = p.WAYS as usize;
        let code = |c: u64| Constant::new(Bits::<3>::from(c));
        BaTagArrayRtl {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_addr: Default::default(),
            req_write: Default::default(),
            req_prefetch: Default::default(),
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
            set_idx: Default::default(),
            set_onehot: Default::default(),
            req_tag: Default::default(),
            unused_addr_bits: Default::default(),
            ev: sigs(ways),
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

impl<const A: usize, const T: usize, const S: usize, const W: usize, const NS: usize> Logic
    for BaTagArrayRtl<A, T, S, W, NS>
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
        self.zext_onehot.narrow.next = self.set_idx.val();
        self.set_onehot.next = self.ns_one.val() << self.zext_onehot.wide.val();
        // Every way reads the addressed set's line.
        for w in 0..self._ways {
            self.ways[w].clock.next = self.clock.val();
            self.ways[w].reset.next = self.reset.val();
            self.ways[w].flush.next = self.flush.val();
            self.ways[w].set_idx.next = self.set_idx.val();
            self.ways[w].set_onehot.next = self.set_onehot.val();
            self.ways[w].we.next = self.req_valid.val();
        }
        // The state a request sees: a flush in the same cycle comes first.
        for w in 0..self._ways {
            self.ev[w].next = self.ways[w].o_valid.val() & !self.flush.val();
            self.hit[w].next = self.ways[w].o_valid.val()
                & !self.flush.val()
                & (self.ways[w].o_tag.val() == self.req_tag.val());
            self.inval[w].next = !(self.ways[w].o_valid.val() & !self.flush.val());
            self.noreuse[w].next =
                self.ways[w].o_valid.val() & !self.flush.val() & !self.ways[w].o_reuse.val();
            self.withreuse[w].next =
                self.ways[w].o_valid.val() & !self.flush.val() & self.ways[w].o_reuse.val();
        }
        self.any_hit.next = false;
        self.any_inval.next = false;
        self.any_reuse.next = false;
        for w in 0..self._ways {
            if self.hit[w].val() {
                self.any_hit.next = true;
            }
            if self.inval[w].val() {
                self.any_inval.next = true;
            }
            if self.withreuse[w].val() {
                self.any_reuse.next = true;
            }
        }
        // Lowest-numbered invalid way.
        for w in 0..self._ways {
            self.inval_below[w].next = false;
            for u in 0..self._ways {
                if (u < w) & self.inval[u].val() {
                    self.inval_below[w].next = true;
                }
            }
            self.first_inval[w].next = self.inval[w].val() & !self.inval_below[w].val();
        }
        // Z = number of valid ways with reuse = 0.
        self.zcnt[0].next = self.zero8.val();
        self.zsum.next = self.zero8.val();
        for w in 0..self._ways {
            if self.noreuse[w].val() {
                self.zcnt[w + 1].next = self.zcnt[w].val() + self.one8.val();
            } else {
                self.zcnt[w + 1].next = self.zcnt[w].val();
            }
            self.zsum.next = self.zcnt[w + 1].val();
        }
        self.use_noreuse.next =
            (self.zsum.val() >= self.threshold.val()) & (self.zsum.val() != self.zero8.val());
        // BA_POLICY = 1 (rule Q3): a full set with a line never reused misses.
        self.free.next = self.policy1.val() & (self.zsum.val() != self.zero8.val());
        // Victim candidates, then the least recently used among them.
        for w in 0..self._ways {
            if !self.ba_enable.val() {
                self.vcand[w].next = self.ev[w].val();
            } else if self.use_noreuse.val() {
                self.vcand[w].next = self.noreuse[w].val();
            } else if self.any_reuse.val() {
                self.vcand[w].next = self.withreuse[w].val();
            } else {
                self.vcand[w].next = self.ev[w].val();
            }
        }
        for w in 0..self._ways {
            self.is_victim[w].next = self.vcand[w].val();
            for u in 0..self._ways {
                if (u != w)
                    & self.vcand[u].val()
                    & (self.ways[u].o_rank.val() >= self.ways[w].o_rank.val())
                {
                    self.is_victim[w].next = false;
                }
            }
        }
        // One-hot selections to values.
        self.hit_way.next = self.rank_zero.val();
        self.hit_rank.next = self.rank_zero.val();
        self.hit_bypass.next = false;
        self.fi_way.next = self.rank_zero.val();
        self.victim_way.next = self.rank_zero.val();
        self.victim_rank.next = self.rank_zero.val();
        self.victim_bypass.next = false;
        self.victim_tag.next = self.tag_zero.val();
        for w in 0..self._ways {
            if self.hit[w].val() {
                self.hit_way.next = self.way_id[w].val();
                self.hit_rank.next = self.ways[w].o_rank.val();
                self.hit_bypass.next = self.ways[w].o_bypass.val();
            }
            if self.first_inval[w].val() {
                self.fi_way.next = self.way_id[w].val();
            }
            if self.is_victim[w].val() {
                self.victim_way.next = self.way_id[w].val();
                self.victim_rank.next = self.ways[w].o_rank.val();
                self.victim_bypass.next = self.ways[w].o_bypass.val();
                self.victim_tag.next = self.ways[w].o_tag.val();
            }
        }
        // A prefetch of a line already holding data changes nothing (rule P1).
        self.pf_nop.next = self.req_prefetch.val() & self.any_hit.val() & !self.hit_bypass.val();
        // The way a load makes most recently used.
        for w in 0..self._ways {
            if self.any_hit.val() {
                self.tgt[w].next = self.hit[w].val() & !self.pf_nop.val();
            } else if self.any_inval.val() {
                self.tgt[w].next = self.first_inval[w].val();
            } else {
                self.tgt[w].next = self.is_victim[w].val();
            }
        }
        self.tgt_valid.next = self.any_hit.val() | !self.any_inval.val();
        if self.any_hit.val() {
            self.tgt_rank.next = self.hit_rank.val();
        } else {
            self.tgt_rank.next = self.victim_rank.val();
        }
        // Outcome and eviction report.
        self.m_outcome.next = self.c_hit.val();
        self.m_way.next = self.rank_zero.val();
        self.m_evict_valid.next = false;
        self.m_evict_tag.next = self.tag_zero.val();
        if self.req_write.val() {
            if self.any_hit.val() {
                self.m_outcome.next = self.c_wevict.val();
                self.m_way.next = self.hit_way.val();
                self.m_evict_valid.next = !self.hit_bypass.val();
                if !self.hit_bypass.val() {
                    self.m_evict_tag.next = self.req_tag.val();
                }
            } else {
                self.m_outcome.next = self.c_wmiss.val();
            }
        } else if self.any_hit.val() {
            if self.hit_bypass.val() {
                self.m_outcome.next = self.c_pseudo.val();
            } else {
                self.m_outcome.next = self.c_hit.val();
            }
            self.m_way.next = self.hit_way.val();
        } else if self.any_inval.val() {
            self.m_outcome.next = self.c_miss.val();
            self.m_way.next = self.fi_way.val();
        } else {
            if self.ba_enable.val() & !self.req_prefetch.val() & !self.free.val() {
                self.m_outcome.next = self.c_bypass.val();
            } else {
                self.m_outcome.next = self.c_miss.val();
            }
            self.m_way.next = self.victim_way.val();
            self.m_evict_valid.next = !self.victim_bypass.val();
            if !self.victim_bypass.val() {
                self.m_evict_tag.next = self.victim_tag.val();
            }
        }
        // The addressed line of each way after the request (written back when
        // a request is made; a flush of the same cycle is applied first).
        for w in 0..self._ways {
            self.ways[w].w_valid.next = self.ev[w].val();
            self.ways[w].w_tag.next = self.ways[w].o_tag.val();
            self.ways[w].w_reuse.next = self.ways[w].o_reuse.val();
            self.ways[w].w_bypass.next = self.ways[w].o_bypass.val();
            self.ways[w].w_rank.next = self.ways[w].o_rank.val();
            if self.req_write.val() {
                if self.hit[w].val() {
                    self.ways[w].w_valid.next = false;
                } else if self.any_hit.val()
                    & self.ev[w].val()
                    & (self.ways[w].o_rank.val() > self.hit_rank.val())
                {
                    self.ways[w].w_rank.next = self.ways[w].o_rank.val() - self.rank_one.val();
                }
            } else if self.tgt[w].val() {
                self.ways[w].w_rank.next = self.rank_zero.val();
                if self.any_hit.val() {
                    // A prefetch is not a use (rule P2 keeps reuse).
                    if !self.req_prefetch.val() {
                        self.ways[w].w_reuse.next = true;
                    }
                    self.ways[w].w_bypass.next = false;
                } else {
                    self.ways[w].w_valid.next = true;
                    self.ways[w].w_tag.next = self.req_tag.val();
                    self.ways[w].w_reuse.next = false;
                    self.ways[w].w_bypass.next = !self.any_inval.val()
                        & self.ba_enable.val()
                        & !self.req_prefetch.val()
                        & !self.free.val();
                }
            } else if self.ev[w].val()
                & !self.pf_nop.val()
                & (!self.tgt_valid.val() | (self.ways[w].o_rank.val() < self.tgt_rank.val()))
            {
                self.ways[w].w_rank.next = self.ways[w].o_rank.val() + self.rank_one.val();
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

impl<const A: usize, const T: usize, const S: usize, const W: usize, const NS: usize> crate::RtlUnit
    for BaTagArrayRtl<A, T, S, W, NS>
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
