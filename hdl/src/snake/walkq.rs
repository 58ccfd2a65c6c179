//! [`PeekQueue`]: Snake's walk-queue lane of the job's warp and pc, a
//! [`ShiftQueue`](crate::queue::ShiftQueue) that also shows what its head
//! after this edge is made of (issue 29 step 8: every entry compares its
//! `pc1` with the next head job's pc one cycle ahead and registers the
//! match, so the walker's `pc1 = jp` comparators are off its paths).
//!
//! The same queue as `ShiftQueue` (entry 0 oldest, a pop shifts, a push
//! fills the lowest free entry, both judged at the start of the cycle,
//! synchronous reset) of `Bits<N>`, with `o_second` (the `S` bits at
//! offset `off` of entry 1: Snake shows the whole job, warp and pc; not gated by its valid bit;
//! entry 0's for depth 1, where a popped queue is empty or refilled by
//! the push) and whether this edge's push fills entry 0, without a pop
//! (`o_put0n`) and with one (`o_put0p`), from the valid bits alone (issue
//! 29: the entries compare for both cases, and the registered pop picks a
//! cycle later). The head after the edge is `i_data` if the push fills
//! entry 0, else entry 1 if `pop`, else entry 0 (meaningful only when the
//! queue will not be empty and is not reset at the edge). It is a block of Snake's own so that
//! the shared queue's Verilog (CAPS's, DAC's) does not change. Unlike
//! `ShiftQueue` its head is not gated by the valid bit (issue 29 step 10),
//! nor is that of [`LaneQueue`], the same queue without the peek, for the
//! walk queue's other two lanes.

use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{regs, sigs};

/// A shift queue of `depth` entries of `N` bits that shows what its next
/// head is made of (`S` bits of it).
#[derive(LogicBlock)]
pub struct PeekQueue<const N: usize, const S: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Offer `i_data` (ignored while `o_full`).
    pub push: Signal<In, Bit>,
    /// Remove the oldest entry (only while `o_valid`).
    pub pop: Signal<In, Bit>,
    /// The entry to push.
    pub i_data: Signal<In, Bits<N>>,
    /// The queue holds `depth` entries (at the start of the cycle).
    pub o_full: Signal<Out, Bit>,
    /// The queue is not empty.
    pub o_valid: Signal<Out, Bit>,
    /// The oldest entry: entry 0's register, not gated by its valid bit
    /// (issue 29 step 10: the walker reads its job from it, and every use
    /// is gated by `o_valid`; `ShiftQueue` shows zero while empty).
    pub o_data: Signal<Out, Bits<N>>,
    /// Entry 1's bits `off..off + S` (not gated by its valid bit; entry
    /// 0's for depth 1).
    pub o_second: Signal<Out, Bits<S>>,
    /// This edge's push fills entry 0 if it does not pop (from the valid
    /// bits alone, not `pop`).
    pub o_put0n: Signal<Out, Bit>,
    /// ... if it pops.
    pub o_put0p: Signal<Out, Bit>,

    valid: Vec<Reg<Bit>>,
    data: Vec<Reg<Bits<N>>>,

    off: Constant<Bits<32>>,

    push_ok: Signal<Local, Bit>,
    vsh: Vec<Signal<Local, Bit>>,
    put: Vec<Signal<Local, Bit>>,

    _d: usize,
    _dm1: usize,
    /// The entry `o_second` shows (1, or 0 for depth 1), and one more.
    _s: usize,
    _s1: usize,
}

impl<const N: usize, const S: usize> PeekQueue<N, S> {
    /// A queue of `depth` entries (`depth >= 1`) showing entry 1's bits
    /// `off..off + S`.
    pub fn new(depth: usize, off: usize) -> Self {
        assert!(depth >= 1, "a queue needs at least one entry");
        assert!(off + S <= N, "the shown field lies in the entry");
        PeekQueue {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            i_data: Default::default(),
            o_full: Default::default(),
            o_valid: Default::default(),
            o_data: Default::default(),
            o_second: Default::default(),
            o_put0n: Default::default(),
            o_put0p: Default::default(),
            valid: regs(depth),
            data: regs(depth),
            off: crate::util::konst(off as u64),
            push_ok: Default::default(),
            vsh: sigs(depth),
            put: sigs(depth),
            _d: depth,
            _dm1: depth - 1,
            _s: (depth - 1).min(1),
            _s1: (depth - 1).min(1) + 1,
        }
    }
}

impl<const N: usize, const S: usize> Logic for PeekQueue<N, S> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._d {
            self.valid[i].clock.next = self.clock.val();
            self.valid[i].reset.next = self.reset.val();
            self.valid[i].d.next = self.valid[i].q.val();
            self.data[i].clock.next = self.clock.val();
            self.data[i].reset.next = self.reset.val();
            self.data[i].d.next = self.data[i].q.val();
        }
        // Full = the last entry is occupied (entries fill from 0).
        self.o_full.next = false;
        for i in self._dm1..self._d {
            self.o_full.next = self.valid[i].q.val();
        }
        self.push_ok.next = self.push.val() & !self.o_full.val();
        // Occupancy after the pop, then the entry the push fills.
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.vsh[i].next = self.valid[i + 1].q.val();
            } else {
                self.vsh[i].next = self.valid[i].q.val();
            }
        }
        for i in self._dm1..self._d {
            self.vsh[i].next = self.valid[i].q.val() & !self.pop.val();
        }
        self.put[0].next = self.push_ok.val() & !self.vsh[0].val();
        for i in 1..self._d {
            self.put[i].next = self.push_ok.val() & !self.vsh[i].val() & self.vsh[i - 1].val();
        }
        for i in 0..self._d {
            self.valid[i].d.next = self.vsh[i].val() | self.put[i].val();
        }
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.data[i].d.next = self.data[i + 1].q.val();
            }
        }
        for i in 0..self._d {
            if self.put[i].val() {
                self.data[i].d.next = self.i_data.val();
            }
        }
        // The head (not gated by its valid bit). What the next head is
        // made of.
        self.o_valid.next = self.valid[0].q.val();
        self.o_data.next = self.data[0].q.val();
        for i in self._s..self._s1 {
            self.o_second.next = self.data[i].q.val().get_bits::<S>(self.off.val().index());
        }
        // Whether this edge's push fills entry 0, without and with a pop (for depth 1 a push
        // is refused while full, so `push_ok` alone says the popped queue
        // is refilled).
        self.o_put0n.next = self.push_ok.val() & !self.valid[0].q.val();
        self.o_put0p.next = self.push_ok.val();
        for i in self._s..self._s1 {
            self.o_put0p.next = self.push_ok.val() & !self.valid[i].q.val();
        }
    }
}

/// A shift queue of `depth` entries of `N` bits whose head (`o_data`) is
/// entry 0's register, not gated by its valid bit (issue 29 step 10): the
/// walk queue's address and `{end, span}` lanes, otherwise `ShiftQueue`.
#[derive(LogicBlock)]
pub struct LaneQueue<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Offer `i_data` (ignored while `o_full`).
    pub push: Signal<In, Bit>,
    /// Remove the oldest entry (only while `o_valid`).
    pub pop: Signal<In, Bit>,
    /// The entry to push.
    pub i_data: Signal<In, Bits<N>>,
    /// The queue holds `depth` entries (at the start of the cycle).
    pub o_full: Signal<Out, Bit>,
    /// The queue is not empty.
    pub o_valid: Signal<Out, Bit>,
    /// Entry 0's register (meaningful while `o_valid`).
    pub o_data: Signal<Out, Bits<N>>,

    valid: Vec<Reg<Bit>>,
    data: Vec<Reg<Bits<N>>>,
    push_ok: Signal<Local, Bit>,
    vsh: Vec<Signal<Local, Bit>>,
    put: Vec<Signal<Local, Bit>>,
    _d: usize,
    _dm1: usize,
}

impl<const N: usize> LaneQueue<N> {
    /// A queue of `depth` entries (`depth >= 1`).
    pub fn new(depth: usize) -> Self {
        assert!(depth >= 1, "a queue needs at least one entry");
        LaneQueue {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            i_data: Default::default(),
            o_full: Default::default(),
            o_valid: Default::default(),
            o_data: Default::default(),
            valid: regs(depth),
            data: regs(depth),
            push_ok: Default::default(),
            vsh: sigs(depth),
            put: sigs(depth),
            _d: depth,
            _dm1: depth - 1,
        }
    }
}

impl<const N: usize> Logic for LaneQueue<N> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._d {
            self.valid[i].clock.next = self.clock.val();
            self.valid[i].reset.next = self.reset.val();
            self.valid[i].d.next = self.valid[i].q.val();
            self.data[i].clock.next = self.clock.val();
            self.data[i].reset.next = self.reset.val();
            self.data[i].d.next = self.data[i].q.val();
        }
        self.o_full.next = false;
        for i in self._dm1..self._d {
            self.o_full.next = self.valid[i].q.val();
        }
        self.push_ok.next = self.push.val() & !self.o_full.val();
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.vsh[i].next = self.valid[i + 1].q.val();
            } else {
                self.vsh[i].next = self.valid[i].q.val();
            }
        }
        for i in self._dm1..self._d {
            self.vsh[i].next = self.valid[i].q.val() & !self.pop.val();
        }
        self.put[0].next = self.push_ok.val() & !self.vsh[0].val();
        for i in 1..self._d {
            self.put[i].next = self.push_ok.val() & !self.vsh[i].val() & self.vsh[i - 1].val();
        }
        for i in 0..self._d {
            self.valid[i].d.next = self.vsh[i].val() | self.put[i].val();
        }
        for i in 0..self._dm1 {
            if self.pop.val() {
                self.data[i].d.next = self.data[i + 1].q.val();
            }
        }
        for i in 0..self._d {
            if self.put[i].val() {
                self.data[i].d.next = self.i_data.val();
            }
        }
        self.o_valid.next = self.valid[0].q.val();
        self.o_data.next = self.data[0].q.val();
    }
}
