//! [`ShiftQueue`]: the one FIFO block of the units (CAPS's job FIFO and
//! output prefetch queue; Snake's and DAC's queues).
//!
//! A shift queue: entry 0 is the oldest; a pop shifts every entry down by
//! one, a push fills the lowest free entry. Its depth is therefore a
//! run-time value of the built block (no pointers whose width would depend
//! on it), and the head comes straight from entry 0's registers.
//!
//! The payload is one [`Synth`] type `T`, in practice `Bits<W>`: a unit
//! packs its fields into one vector (each field zero-extended with
//! [`crate::util::ZeroExt`] and shifted to its offset by a constant) and
//! unpacks the head with `get_bits` / `get_bit` at the same offsets. This is
//! the way to one reusable block in rust-hdl 0.46: a block with one port per
//! field is specific to its payload, `#[derive(LogicStruct)]` rejects
//! const-generic structs, and a hand-written `Synth` impl for one cannot
//! produce its reset literal (`Bits<{A + P + ...}>` is not expressible on
//! stable Rust). A unit whose field widths are const generics therefore
//! takes the packed width `W` as one more const generic, supplied by its
//! width table as a literal expression and checked when it is built.

use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{regs, sigs};

/// A shift queue of `depth` entries of type `T` (entry 0 oldest).
///
/// Timing: `o_full` and `o_valid` describe the queue at the start of the
/// cycle; a `push` is accepted only if the queue was not full then (no
/// same-edge pass-through, even with a `pop`); a `pop` removes entry 0 and
/// must be given only while `o_valid`. A push and a pop may happen at the
/// same edge. `o_data` shows entry 0 and is all zeros while the queue is
/// empty. Every register has synchronous reset ([`Reg`]): reset empties
/// the queue and clears every entry.
#[derive(LogicBlock)]
pub struct ShiftQueue<T: Synth> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Offer `i_data` (ignored while `o_full`).
    pub push: Signal<In, Bit>,
    /// Remove the oldest entry (only while `o_valid`).
    pub pop: Signal<In, Bit>,
    /// The entry to push.
    pub i_data: Signal<In, T>,
    /// The queue holds `depth` entries (at the start of the cycle).
    pub o_full: Signal<Out, Bit>,
    /// The queue is not empty.
    pub o_valid: Signal<Out, Bit>,
    /// The oldest entry; zero while the queue is empty.
    pub o_data: Signal<Out, T>,

    valid: Vec<Reg<Bit>>,
    data: Vec<Reg<T>>,

    data_zero: Constant<T>,

    push_ok: Signal<Local, Bit>,
    vsh: Vec<Signal<Local, Bit>>,
    put: Vec<Signal<Local, Bit>>,

    _d: usize,
    _dm1: usize,
}

impl<T: Synth> ShiftQueue<T> {
    /// A queue of `depth` entries (`depth >= 1`).
    pub fn new(depth: usize) -> Self {
        assert!(depth >= 1, "a queue needs at least one entry");
        ShiftQueue {
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
            data_zero: Constant::new(T::default()),
            push_ok: Default::default(),
            vsh: sigs(depth),
            put: sigs(depth),
            _d: depth,
            _dm1: depth - 1,
        }
    }

    /// The number of entries.
    pub fn depth(&self) -> usize {
        self._d
    }
}

impl<T: Synth> Logic for ShiftQueue<T> {
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
        // The head; zero while the queue is empty.
        self.o_valid.next = self.valid[0].q.val();
        self.o_data.next = self.data_zero.val();
        if self.valid[0].q.val() {
            self.o_data.next = self.data[0].q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// One cycle: apply the inputs, sample the outputs, clock an edge.
    fn cycle(
        q: &mut ShiftQueue<Bits<8>>,
        reset: bool,
        push: bool,
        pop: bool,
        v: u64,
    ) -> (bool, bool, u64) {
        q.clock.next = Clock::from(false);
        q.reset.next = reset;
        q.push.next = push;
        q.pop.next = pop;
        q.i_data.next = Bits::<8>::from(v);
        assert!(simulate(q, 100));
        let out = (
            q.o_full.val(),
            q.o_valid.val(),
            q.o_data.val().index() as u64,
        );
        q.clock.next = Clock::from(true);
        assert!(simulate(q, 100));
        out
    }

    /// Random pushes and pops against a `VecDeque`, for depths 1 to 4.
    #[test]
    fn behaves_as_a_fifo_judged_at_the_start_of_the_cycle() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for depth in 1..=4 {
            let mut q = ShiftQueue::<Bits<8>>::new(depth);
            q.connect_all();
            assert_eq!(q.depth(), depth);
            let mut m: VecDeque<u64> = VecDeque::new();
            let (mut pushes, mut pops, mut refused) = (0, 0, 0);
            for t in 0..3000 {
                let reset = t == 0 || rnd(200) == 0;
                let push = rnd(100) < 55;
                let v = rnd(256);
                let pop = !m.is_empty() && rnd(100) < 50;
                let (full, valid, data) = cycle(&mut q, reset, push, pop, v);
                if t == 0 {
                    continue;
                }
                let want_full = m.len() == depth;
                assert_eq!(full, want_full, "depth {depth} cycle {t}: o_full");
                assert_eq!(valid, !m.is_empty(), "depth {depth} cycle {t}: o_valid");
                assert_eq!(
                    data,
                    m.front().copied().unwrap_or(0),
                    "depth {depth} cycle {t}: o_data"
                );
                if reset {
                    m.clear();
                    continue;
                }
                if pop {
                    m.pop_front();
                    pops += 1;
                }
                if push && !want_full {
                    m.push_back(v);
                    pushes += 1;
                } else if push {
                    refused += 1;
                }
            }
            assert!(
                pushes > 500 && pops > 500 && refused > 50,
                "{pushes} {pops} {refused}"
            );
        }
    }
}
