//! [`OutQueue`]: Snake's output prefetch queue, the shared
//! [`ShiftQueue`](crate::queue::ShiftQueue) (entry 0 oldest, a pop shifts,
//! a push fills the lowest free entry, both judged at the start of the
//! cycle, synchronous reset, the head zero while empty) that also shows
//! whether it holds at least `depth - 1` entries (`o_afull`; always 1 for
//! depth 1). Issue 29 step 11: an intra- or inter-warp prefetch waits one
//! edge in the output stage before it enters the queue, and the walker
//! counts that stage as taken room (`o_full`, or `o_afull` while the stage
//! holds a prefetch). A block of Snake's own so that the shared queue's
//! Verilog (CAPS's, DAC's) does not change.

use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{regs, sigs};

/// A shift queue of `depth` entries of `N` bits that also shows whether
/// one more push would fill it.
#[derive(LogicBlock)]
pub struct OutQueue<const N: usize> {
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
    /// The queue holds at least `depth - 1` entries.
    pub o_afull: Signal<Out, Bit>,
    /// The queue is not empty.
    pub o_valid: Signal<Out, Bit>,
    /// The oldest entry; zero while the queue is empty.
    pub o_data: Signal<Out, Bits<N>>,

    valid: Vec<Reg<Bit>>,
    data: Vec<Reg<Bits<N>>>,
    data_zero: Constant<Bits<N>>,
    push_ok: Signal<Local, Bit>,
    vsh: Vec<Signal<Local, Bit>>,
    put: Vec<Signal<Local, Bit>>,
    _d: usize,
    _dm1: usize,
    /// The entry `o_afull` reads (`depth - 2`; none for depth 1), and one
    /// more.
    _a0: usize,
    _a1: usize,
}

impl<const N: usize> OutQueue<N> {
    /// A queue of `depth` entries (`depth >= 1`).
    pub fn new(depth: usize) -> Self {
        assert!(depth >= 1, "a queue needs at least one entry");
        OutQueue {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            i_data: Default::default(),
            o_full: Default::default(),
            o_afull: Default::default(),
            o_valid: Default::default(),
            o_data: Default::default(),
            valid: regs(depth),
            data: regs(depth),
            data_zero: crate::util::konst(0),
            push_ok: Default::default(),
            vsh: sigs(depth),
            put: sigs(depth),
            _d: depth,
            _dm1: depth - 1,
            _a0: depth.saturating_sub(2),
            _a1: depth - 1,
        }
    }
}

impl<const N: usize> Logic for OutQueue<N> {
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
        // Full = the last entry is occupied (entries fill from 0); one
        // short of full = the one before it (always, for depth 1).
        self.o_full.next = false;
        for i in self._dm1..self._d {
            self.o_full.next = self.valid[i].q.val();
        }
        self.o_afull.next = true;
        for i in self._a0..self._a1 {
            self.o_afull.next = self.valid[i].q.val();
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
        self.o_data.next = self.data_zero.val();
        if self.valid[0].q.val() {
            self.o_data.next = self.data[0].q.val();
        }
    }
}
