//! [`MultiQueue`]: many small FIFO queues in one memory — the per-warp
//! queues of a unit (DAC's address and predicate queues), in the manner of
//! BaseJump STL's banked FIFOs: the entries of every queue sit in one
//! [`Mem`] addressed `{queue, position}`, and each queue keeps only a head
//! position and a count in registers.
//!
//! Timing (as [`crate::queue::ShiftQueue`]): `push_room` and `pop_valid`
//! describe the selected queues at the start of the cycle; a push is
//! accepted only if its queue had room then (no same-edge pass-through,
//! even with a pop of the same queue); a pop removes the oldest entry of a
//! non-empty queue. A push and a pop — of the same queue or of two
//! queues — may happen at one edge. `pop_data` shows the oldest entry of
//! queue `pop_q` and is meaningful only while `pop_valid`. A queue number
//! at or beyond the number of queues reads as empty and must not be pushed.
//! Reset empties every queue (the memory's contents are not cleared: an
//! entry is read only after it was written).
//!
//! The entry memory is written one edge after the push (issue 29, DAC's
//! step 4: its write enable, address and data come from registers, so the
//! push decision does not drive the memory's thousands of write enables);
//! the tail pointer moves at the push's edge, so the room is counted at the
//! decision, and a pop in the next cycle of the entry still on its way is
//! answered from the write register. The ports' timing is unchanged.
//!
//! A full bit per queue (issue 29, DAC's step 5) gives the room: one
//! flip-flop read at `push_q` instead of both pointers and their difference.
//! `push_full_next` and `peek_full_next` say whether queue `push_q`, and a
//! second queue `peek_q`, will be full at the start of the next cycle
//! (after this edge's push and pop), so that a user can keep its next
//! push's room in a register.

use rust_hdl::prelude::*;

use crate::mem::{Mem, Mem2};
use crate::reg::Reg;
use crate::util::{konst, konsts, ZeroExt};

/// `n` queues of `depth = 2^(AW - QB)` entries of `D`; `QB` bits name a
/// queue (at most 64 queues), `AW` bits address the memory (`{queue,
/// position}`), `CW = AW - QB + 1` bits hold a queue's head and tail
/// pointers (positions modulo `2 * depth`, so `tail - head` is the count).
///
/// The pointers sit in two small memories indexed by the queue, each read
/// at the pushed and at the popped queue: the tails written by pushes, the
/// heads by pops. A bit per queue and pointer (reset to 0) says whether
/// the pointer was written since reset; an unwritten pointer reads as 0,
/// so reset empties every queue without touching the memories.
#[derive(LogicBlock)]
pub struct MultiQueue<D: Synth, const QB: usize, const AW: usize, const CW: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Push `push_data` into queue `push_q` (ignored without room).
    pub push: Signal<In, Bit>,
    /// The queue pushed.
    pub push_q: Signal<In, Bits<QB>>,
    /// The entry pushed.
    pub push_data: Signal<In, D>,
    /// Queue `push_q` will be full at the start of the next cycle (after
    /// this edge's push and pop).
    pub push_full_next: Signal<Out, Bit>,
    /// A queue whose room at the next cycle is asked for (issue 29, DAC's
    /// step 5: the warp after the pushing one).
    pub peek_q: Signal<In, Bits<QB>>,
    /// Queue `peek_q` will be full at the start of the next cycle.
    pub peek_full_next: Signal<Out, Bit>,
    /// Pop the oldest entry of queue `pop_q` (ignored while it is empty).
    pub pop: Signal<In, Bit>,
    /// The queue popped.
    pub pop_q: Signal<In, Bits<QB>>,
    /// Queue `pop_q` is not empty.
    pub pop_valid: Signal<Out, Bit>,
    /// Its oldest entry (meaningful while `pop_valid`).
    pub pop_data: Signal<Out, D>,

    store: Mem<D, AW>,
    tails: Mem2<Bits<CW>, QB>,
    heads: Mem2<Bits<CW>, QB>,
    t_written: Reg<Bits<64>>,
    h_written: Reg<Bits<64>>,
    /// Bit `q`: queue `q` is full (issue 29, DAC's step 5: the room is one
    /// flip-flop read at the queue, not both pointers and a subtraction).
    full: Reg<Bits<64>>,
    /// Queue `push_q` has room (at the start of the cycle).
    push_room: Signal<Local, Bit>,
    /// The pushed queue holds `depth - 1` entries; a push and a pop of the
    /// same queue; the queues whose full bit is set and cleared at the edge.
    push_last: Signal<Local, Bit>,
    same_q: Signal<Local, Bit>,
    f_set: Signal<Local, Bits<64>>,
    f_clr: Signal<Local, Bits<64>>,
    peek_known: Signal<Local, Bit>,
    /// The pushed and the peeked queue are full now.
    push_f: Signal<Local, Bit>,
    peek_f: Signal<Local, Bit>,
    zx_peek_q64: ZeroExt<QB, 64>,
    depth_m1: Constant<Bits<CW>>,
    /// The entry pushed at the last edge, written into `store` at this one.
    w_en: Reg<Bit>,
    w_addr: Reg<Bits<AW>>,
    w_data: Reg<D>,
    /// The popped entry's address, and whether it is the one being written.
    r_addr: Signal<Local, Bits<AW>>,
    r_fwd: Signal<Local, Bit>,
    /// The last queue number, when some numbers have no queue (else empty).
    last_q: Vec<Constant<Bits<QB>>>,
    nq_one: Constant<Bits<64>>,
    pmask: Constant<Bits<CW>>,
    pshift: Constant<Bits<AW>>,
    one_c: Constant<Bits<CW>>,
    zero_c: Constant<Bits<CW>>,
    zero_64: Constant<Bits<64>>,
    zx_push_q: ZeroExt<QB, AW>,
    zx_pop_q: ZeroExt<QB, AW>,
    zx_push_q64: ZeroExt<QB, 64>,
    zx_pop_q64: ZeroExt<QB, 64>,
    zx_tail: ZeroExt<CW, AW>,
    zx_head: ZeroExt<CW, AW>,

    push_known: Signal<Local, Bit>,
    pop_known: Signal<Local, Bit>,
    push_tail: Signal<Local, Bits<CW>>,
    push_head: Signal<Local, Bits<CW>>,
    pop_tail: Signal<Local, Bits<CW>>,
    pop_head: Signal<Local, Bits<CW>>,
    push_ok: Signal<Local, Bit>,
    pop_ok: Signal<Local, Bit>,
    /// 1 when some queue numbers of `QB` bits have no queue, else 0.
    _partial: usize,
}

impl<D: Synth, const QB: usize, const AW: usize, const CW: usize> MultiQueue<D, QB, AW, CW> {
    /// `queues` queues (`1 <= queues <= 2^QB`, at most 64) of `depth`
    /// entries each (`depth = 2^(AW - QB)`, at most 16).
    pub fn new(queues: usize, depth: usize) -> Self {
        assert!(
            AW >= QB && QB >= 1 && QB <= 6,
            "AW = QB + log2(depth), QB <= 6"
        );
        assert_eq!(CW, AW - QB + 1, "CW = log2(depth) + 1");
        assert!(
            queues >= 1 && queues <= 1 << QB,
            "{queues} queues in {QB} bits"
        );
        assert!(
            depth.is_power_of_two() && depth <= 16 && depth == 1 << (AW - QB),
            "depth {depth} = 2^(AW - QB), at most 16"
        );
        MultiQueue {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_q: Default::default(),
            push_data: Default::default(),
            push_full_next: Default::default(),
            peek_q: Default::default(),
            peek_full_next: Default::default(),
            full: Default::default(),
            push_room: Default::default(),
            push_last: Default::default(),
            same_q: Default::default(),
            f_set: Default::default(),
            f_clr: Default::default(),
            peek_known: Default::default(),
            push_f: Default::default(),
            peek_f: Default::default(),
            zx_peek_q64: Default::default(),
            depth_m1: konst(depth as u64 - 1),
            pop: Default::default(),
            pop_q: Default::default(),
            pop_valid: Default::default(),
            pop_data: Default::default(),
            store: Mem::new(queues * depth),
            tails: Mem2::new(queues),
            heads: Mem2::new(queues),
            t_written: Default::default(),
            h_written: Default::default(),
            w_en: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
            r_addr: Default::default(),
            r_fwd: Default::default(),
            last_q: konsts::<QB>((queues < 1 << QB).then_some(queues as u64 - 1).into_iter()),
            nq_one: konst(1),
            pmask: konst(depth as u64 - 1),
            pshift: konst((AW - QB) as u64),
            one_c: konst(1),
            zero_c: konst(0),
            zero_64: konst(0),
            zx_push_q: Default::default(),
            zx_pop_q: Default::default(),
            zx_push_q64: Default::default(),
            zx_pop_q64: Default::default(),
            zx_tail: Default::default(),
            zx_head: Default::default(),
            push_known: Default::default(),
            pop_known: Default::default(),
            push_tail: Default::default(),
            push_head: Default::default(),
            pop_tail: Default::default(),
            pop_head: Default::default(),
            push_ok: Default::default(),
            pop_ok: Default::default(),
            _partial: usize::from(queues < 1 << QB),
        }
    }
}

impl<D: Synth, const QB: usize, const AW: usize, const CW: usize> Logic
    for MultiQueue<D, QB, AW, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.store.clock.next = self.clock.val();
        self.tails.clock.next = self.clock.val();
        self.heads.clock.next = self.clock.val();
        self.t_written.clock.next = self.clock.val();
        self.t_written.reset.next = self.reset.val();
        self.h_written.clock.next = self.clock.val();
        self.h_written.reset.next = self.reset.val();
        self.full.clock.next = self.clock.val();
        self.full.reset.next = self.reset.val();
        self.w_en.clock.next = self.clock.val();
        self.w_en.reset.next = self.reset.val();
        self.w_addr.clock.next = self.clock.val();
        self.w_addr.reset.next = self.reset.val();
        self.w_data.clock.next = self.clock.val();
        self.w_data.reset.next = self.reset.val();
        // The selected queues' pointers (0 until written since reset). A
        // queue number past the last queue reads as empty.
        self.zx_push_q64.narrow.next = self.push_q.val();
        self.zx_pop_q64.narrow.next = self.pop_q.val();
        self.tails.r_addr.next = self.push_q.val();
        self.heads.r_addr.next = self.push_q.val();
        self.tails.r2_addr.next = self.pop_q.val();
        self.heads.r2_addr.next = self.pop_q.val();
        // Every queue number exists when there are 2^QB queues: then no
        // comparison is emitted (it would be constant).
        self.push_known.next = true;
        self.pop_known.next = true;
        self.peek_known.next = true;
        for i in 0..self._partial {
            self.push_known.next = self.push_q.val() <= self.last_q[i].val();
            self.pop_known.next = self.pop_q.val() <= self.last_q[i].val();
            self.peek_known.next = self.peek_q.val() <= self.last_q[i].val();
        }
        self.push_tail.next = self.zero_c.val();
        self.push_head.next = self.zero_c.val();
        self.pop_tail.next = self.zero_c.val();
        self.pop_head.next = self.zero_c.val();
        if self.push_known.val() {
            if (self.t_written.q.val() & (self.nq_one.val() << self.zx_push_q64.wide.val()))
                != self.zero_64.val()
            {
                self.push_tail.next = self.tails.r_data.val();
            }
            if (self.h_written.q.val() & (self.nq_one.val() << self.zx_push_q64.wide.val()))
                != self.zero_64.val()
            {
                self.push_head.next = self.heads.r_data.val();
            }
        }
        if self.pop_known.val() {
            if (self.t_written.q.val() & (self.nq_one.val() << self.zx_pop_q64.wide.val()))
                != self.zero_64.val()
            {
                self.pop_tail.next = self.tails.r2_data.val();
            }
            if (self.h_written.q.val() & (self.nq_one.val() << self.zx_pop_q64.wide.val()))
                != self.zero_64.val()
            {
                self.pop_head.next = self.heads.r2_data.val();
            }
        }
        self.push_room.next = self.push_known.val()
            & ((self.full.q.val() & (self.nq_one.val() << self.zx_push_q64.wide.val()))
                == self.zero_64.val());
        self.pop_valid.next = self.pop_known.val() & (self.pop_tail.val() != self.pop_head.val());
        self.push_ok.next = self.push.val() & self.push_room.val();
        self.pop_ok.next = self.pop.val() & self.pop_valid.val();

        // The entries: the tail of queue push_q is written, the head of
        // queue pop_q read.
        self.zx_push_q.narrow.next = self.push_q.val();
        self.zx_pop_q.narrow.next = self.pop_q.val();
        self.zx_tail.narrow.next = self.push_tail.val() & self.pmask.val();
        self.zx_head.narrow.next = self.pop_head.val() & self.pmask.val();
        // Written one edge later, from registers.
        self.w_en.d.next = self.push_ok.val();
        self.w_addr.d.next =
            (self.zx_push_q.wide.val() << self.pshift.val()) | self.zx_tail.wide.val();
        self.w_data.d.next = self.push_data.val();
        self.store.w_en.next = self.w_en.q.val();
        self.store.w_addr.next = self.w_addr.q.val();
        self.store.w_data.next = self.w_data.q.val();
        self.r_addr.next =
            (self.zx_pop_q.wide.val() << self.pshift.val()) | self.zx_head.wide.val();
        self.store.r_addr.next = self.r_addr.val();
        self.r_fwd.next = self.w_en.q.val() & (self.w_addr.q.val() == self.r_addr.val());
        self.pop_data.next = self.store.r_data.val();
        if self.r_fwd.val() {
            self.pop_data.next = self.w_data.q.val();
        }

        // The pointers move.
        self.tails.w_en.next = self.push_ok.val();
        self.tails.w_addr.next = self.push_q.val();
        self.tails.w_data.next = self.push_tail.val() + self.one_c.val();
        self.heads.w_en.next = self.pop_ok.val();
        self.heads.w_addr.next = self.pop_q.val();
        self.heads.w_data.next = self.pop_head.val() + self.one_c.val();
        self.t_written.d.next = self.t_written.q.val();
        if self.push_ok.val() {
            self.t_written.d.next =
                self.t_written.q.val() | (self.nq_one.val() << self.zx_push_q64.wide.val());
        }
        // The full bits: a push into a queue of `depth - 1` entries fills
        // it, a pop empties a place; both at one queue leave it as it was.
        self.zx_peek_q64.narrow.next = self.peek_q.val();
        self.push_last.next = (self.push_tail.val() - self.push_head.val()) == self.depth_m1.val();
        self.same_q.next = self.pop_ok.val() & (self.pop_q.val() == self.push_q.val());
        self.f_set.next = self.zero_64.val();
        if self.push_ok.val() & self.push_last.val() & !self.same_q.val() {
            self.f_set.next = self.nq_one.val() << self.zx_push_q64.wide.val();
        }
        self.f_clr.next = self.zero_64.val();
        if self.pop_ok.val() & !(self.push_ok.val() & self.same_q.val()) {
            self.f_clr.next = self.nq_one.val() << self.zx_pop_q64.wide.val();
        }
        self.full.d.next = (self.full.q.val() & !self.f_clr.val()) | self.f_set.val();
        // The next cycle's full bits of the pushed and of the peeked queue,
        // from their bits now (read early) and this edge's push and pop (late,
        // in the last gates). A pushed queue had room. Without a queue (past
        // the last) a number never has room.
        self.push_f.next = !self.push_room.val();
        self.peek_f.next = (self.full.q.val() & (self.nq_one.val() << self.zx_peek_q64.wide.val()))
            != self.zero_64.val();
        self.push_full_next.next = !self.push_known.val()
            | ((self.push_f.val() | (self.push_ok.val() & self.push_last.val()))
                & !(self.pop_ok.val() & (self.pop_q.val() == self.push_q.val())));
        self.peek_full_next.next = !self.peek_known.val()
            | ((self.peek_f.val()
                | (self.push_ok.val()
                    & self.push_last.val()
                    & (self.push_q.val() == self.peek_q.val())))
                & !(self.pop_ok.val() & (self.pop_q.val() == self.peek_q.val())));
        self.h_written.d.next = self.h_written.q.val();
        if self.pop_ok.val() {
            self.h_written.d.next =
                self.h_written.q.val() | (self.nq_one.val() << self.zx_pop_q64.wide.val());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    type Q = MultiQueue<Bits<8>, 2, 4, 3>;

    struct Ins {
        push: Option<(u64, u64)>,
        pop: Option<u64>,
        peek: u64,
    }

    /// One cycle: apply the inputs, read the outputs (`push_room`,
    /// `pop_valid`, `pop_data`, `push_full_next`, `peek_full_next`), clock
    /// an edge.
    fn cycle(q: &mut Q, reset: bool, i: &Ins) -> (bool, bool, u64, bool, bool) {
        q.reset.next = reset;
        q.push.next = i.push.is_some();
        q.push_q.next = i.push.map_or(0, |p| p.0).into();
        q.push_data.next = i.push.map_or(0, |p| p.1).into();
        q.pop.next = i.pop.is_some();
        q.pop_q.next = i.pop.unwrap_or(0).into();
        q.peek_q.next = i.peek.into();
        q.clock.next = Clock::from(false);
        assert!(simulate(q, 100));
        let out = (
            q.push_room.val(),
            q.pop_valid.val(),
            q.pop_data.val().index() as u64,
            q.push_full_next.val(),
            q.peek_full_next.val(),
        );
        q.clock.next = Clock::from(true);
        assert!(simulate(q, 100));
        out
    }

    /// Random pushes and pops of three queues (queue number 3 has none)
    /// and of four (every number has one) of four entries against
    /// `VecDeque`s, with resets.
    #[test]
    fn matches_a_queue_per_index() {
        matches_queues(3);
        matches_queues(4);
    }

    fn matches_queues(n: u64) {
        let mut q = Q::new(n as usize, 4);
        q.connect_all();
        let mut model: Vec<VecDeque<u64>> = vec![VecDeque::new(); n as usize];
        let mut s = 12345u64;
        let mut rnd = |m: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % m
        };
        cycle(
            &mut q,
            true,
            &Ins {
                push: None,
                pop: None,
                peek: 0,
            },
        );
        for step in 0..3000 {
            let reset = rnd(200) == 0;
            let push = (rnd(3) != 0).then(|| (rnd(n), rnd(256)));
            // With three queues, number 3 has none: it reads as empty.
            let pop = (rnd(2) == 0).then(|| rnd(4));
            let peek = rnd(4);
            let (room, valid, data, push_full, peek_full) =
                cycle(&mut q, reset, &Ins { push, pop, peek });
            if let Some((pq, _)) = push {
                assert_eq!(room, model[pq as usize].len() < 4, "step {step}");
            }
            if let Some(p) = pop {
                let m = model.get(p as usize);
                assert_eq!(valid, m.is_some_and(|m| !m.is_empty()), "step {step}");
                if valid {
                    assert_eq!(data, m.unwrap()[0], "step {step}");
                }
            }
            if reset {
                model.iter_mut().for_each(|m| m.clear());
                continue;
            }
            // Both judged on the start-of-cycle state.
            let popped = pop.filter(|&p| model.get(p as usize).is_some_and(|m| !m.is_empty()));
            let pushed = push.filter(|&(p, _)| model[p as usize].len() < 4);
            if let Some(p) = popped {
                model[p as usize].pop_front();
            }
            if let Some((p, d)) = pushed {
                model[p as usize].push_back(d);
            }
            // The next cycle's room, counted before the edge (a number
            // without a queue never has room).
            let full = |p: u64| model.get(p as usize).is_none_or(|m| m.len() == 4);
            if let Some((p, _)) = push {
                assert_eq!(push_full, full(p), "step {step}: push_full_next");
            }
            assert_eq!(peek_full, full(peek), "step {step}: peek_full_next");
        }
    }
}
