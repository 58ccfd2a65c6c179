//! Guard masks (revision 2, the contract's "Guard masks"): guards write
//! `G[w]` (rule G1), guarded warps with no enabled lane are skipped in one
//! cycle (G2), guarded records cover the enabled lanes only and a gap ends
//! a run (G3), `enq_guard = 0` is revision 1, reset clears `G`.

use super::bench::*;
use crate::dac::*;

/// `t` as a guard (PRED) or a guarded tuple (ADDR/DATA).
fn guarded(t: Tuple) -> Tuple {
    Tuple { guard: true, ..t }
}

/// The guard `tid.x CMP scalar` (base 0, `off_tx` 1).
fn tid_guard(cmp: u64, scalar: u32) -> Tuple {
    guarded(pred_tuple(0, 1, cmp, scalar))
}

/// A 64-thread CTA (`blockDim.x` 64, two warps) in slot 0, index (0, 0).
fn cta64() -> Tb {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb
}

/// Enqueue `t` and run idle until the ATQ is empty and the expander idle;
/// returns the number of edges from the enqueue's (excluded) to the edge
/// of the tuple's end (included), the edge before the one it leaves the
/// ATQ at (issue 29, step 4).
fn run(tb: &mut Tb, t: &Tuple) -> u64 {
    let e = tb.enq(t);
    while !tb.m.idle() {
        tb.idle(1);
    }
    tb.now() - 2 - e
}

#[test]
fn contract_scenario_guard_then_guarded_data() {
    let mut tb = cta64();
    // 1. Guard tid.x < 40: warp 0 fast, warp 1 slow (4 groups).
    assert_eq!(run(&mut tb, &tid_guard(cmp::LT, 40)), 8);
    assert_eq!(tb.m.pred_queue(0), vec![0xFFFF_FFFF]);
    assert_eq!(tb.m.pred_queue(1), vec![0x0000_00FF]);
    assert_eq!((tb.m.guard_mask(0), tb.m.guard_mask(1)), (!0, 0xFF));
    let out = tb.out();
    assert_eq!((out.stat_pred_fast, out.stat_pred_slow), (1, 1));
    assert_eq!(tb.m.stats().guard_writes, 2);
    // 2. Guarded DATA (0x1000, 4, word): one record per warp, one request
    // per record.
    let data = guarded(addr_tuple(kind::DATA, 0x1000, 4, gran::WORD));
    assert_eq!(run(&mut tb, &data), 5);
    assert_eq!(
        tb.m.addr_queue(0),
        vec![rec(0x1000, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert_eq!(
        tb.m.addr_queue(1),
        vec![rec(0x1080, 0x0000_00FF, gran::WORD, true)]
    );
    assert_eq!(tb.m.stats().mem_requests, 2);
    assert_eq!(tb.out().stat_guard_skips, 0);
    tb.drain();
    let lines: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    assert_eq!(lines, vec![0x1000, 0x1080]);

    // 3. Guard tid.x < 32: warp 1's mask is 0 (fast path).
    assert_eq!(run(&mut tb, &tid_guard(cmp::LT, 32)), 5);
    assert_eq!((tb.m.guard_mask(0), tb.m.guard_mask(1)), (!0, 0));
    // 4. Guarded ADDR: warp 1 gets nothing, in one cycle.
    assert_eq!(run(&mut tb, &guarded(word_tuple(0x2000, 4))), 5);
    assert_eq!(
        tb.m.addr_queue(0),
        vec![rec(0x2000, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert!(tb.m.addr_queue(1).is_empty());
    assert_eq!(tb.out().stat_guard_skips, 1);
    assert_eq!(tb.m.stats().guard_skips, 1);
    tb.drain();

    // 5. Guard tid.x != 1 (slow on both warps), then a guarded ADDR: lane 1
    // ends warp 0's first run inside line 0x3000.
    run(&mut tb, &tid_guard(cmp::NE, 1));
    assert_eq!((tb.m.guard_mask(0), tb.m.guard_mask(1)), (0xFFFF_FFFD, !0));
    assert_eq!(run(&mut tb, &guarded(word_tuple(0x3000, 4))), 6);
    assert_eq!(
        tb.m.addr_queue(0),
        vec![
            rec(0x3000, 0x0000_0001, gran::WORD, false),
            rec(0x3000, 0xFFFF_FFFC, gran::WORD, true),
        ]
    );
    assert_eq!(
        tb.m.addr_queue(1),
        vec![rec(0x3080, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert_eq!(tb.m.stats().guard_gaps, 1);
}

#[test]
fn a_warp_with_no_enabled_lane_takes_one_cycle_and_makes_no_request() {
    let mut tb = cta64();
    run(&mut tb, &tid_guard(cmp::LT, 32)); // G = [!0, 0]
                                           // Warp 1's queue full and the memory not ready: the skip is not a
                                           // stall.
    tb.mem_ready = false;
    let fill = Tuple {
        off_tx: 0,
        ..addr_tuple(kind::ADDR, 0x40, 0, gran::WORD)
    };
    for _ in 0..4 {
        run(&mut tb, &fill);
    }
    // Warp 0's queue emptied again, warp 1's left full.
    for _ in 0..4 {
        tb.deq(0, DEQ_ADDR);
    }
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 0);
    assert_eq!(tb.m.queue_len(1, DEQ_ADDR), 4);
    let before = tb.m.stats();
    let t = tb.enq(&guarded(addr_tuple(kind::DATA, 0x5000, 4, gran::WORD)));
    tb.idle(6); // start, two setup cycles, warp 0's record (and request), warp 1's skip, the leave cycle
    assert!(tb.m.idle(), "the tuple left at edge t+6");
    assert_eq!(tb.now(), t + 7);
    let s = tb.m.stats();
    assert_eq!(s.records_pushed - before.records_pushed, 1);
    assert_eq!(s.mem_requests - before.mem_requests, 1);
    assert_eq!(s.stall_cycles(), before.stall_cycles());
    assert_eq!(tb.m.queue_len(1, DEQ_ADDR), 4);
    assert_eq!(tb.out().stat_guard_skips, 1);
    assert_eq!((tb.out().mem_valid, tb.out().mem_addr), (true, 0x5000));
    // A second guarded DATA tuple: warp 0 waits for the memory, warp 1 is
    // skipped again and requests nothing.
    tb.mem_ready = true;
    run(
        &mut tb,
        &guarded(addr_tuple(kind::DATA, 0x6000, 4, gran::WORD)),
    );
    tb.drain();
    let lines: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    assert_eq!(lines, vec![0x5000, 0x6000]);
    assert_eq!(tb.out().stat_guard_skips, 2);
}

/// Run `a` and `b` for `edges` edges with the same dequeues (round robin
/// over `a`'s non-empty queues of warps 0..8), checking that their outputs
/// agree every cycle.
fn lockstep(a: &mut Tb, b: &mut Tb, edges: usize) {
    let mut next = 0;
    for c in 0..edges {
        assert_eq!(a.out(), b.out(), "cycle {c}");
        let pick = (0..16)
            .map(|j| (next + j) % 16)
            .find(|&s| a.m.queue_len((s / 2) as u64, (s % 2) as u64) > 0);
        let i = match pick {
            Some(s) => {
                next = s + 1;
                deq((s / 2) as u64, (s % 2) as u64)
            }
            None => DacIn::default(),
        };
        a.edge(i);
        b.edge(i);
    }
}

/// Every tuple kind offered with and without `enq_guard` on a bench whose
/// guard masks are all ones: the outputs agree every cycle (a guard is a
/// PRED; a guarded tuple whose warps are fully enabled is unguarded).
#[test]
fn full_guard_masks_and_guards_change_no_output() {
    let tuples = [
        word_tuple(0x1004, 128),
        addr_tuple(kind::DATA, 0x2000, 8, gran::WORD),
        addr_tuple(kind::DATA, 0x3001, 3, gran::BYTE),
        addr_tuple(kind::ADDR, 0x40, neg(2), gran::HALF),
        pred_tuple(0, 1, cmp::LT, 45),
        pred_tuple(7, 0, cmp::EQ, 7),
        pred_tuple(0, 3, cmp::NE, 9),
    ];
    let mut a = Tb::one_d(48);
    let mut b = Tb::one_d(48);
    for tb in [&mut a, &mut b] {
        tb.launch(0, 0, 0);
        tb.launch(1, 2, 0);
        // G = all ones on every warp of both slots (a uniform true guard).
        run(tb, &guarded(pred_tuple(0, 0, cmp::GE, 0)));
        tb.drain();
    }
    for (i, t) in tuples.iter().enumerate() {
        a.mem_ready = i % 2 == 0;
        b.mem_ready = i % 2 == 0;
        a.enq(t);
        b.enq(&guarded(*t));
        lockstep(&mut a, &mut b, 120);
    }
    assert_eq!(b.out().stat_guard_skips, 0);
    assert_eq!((a.got_addr, a.got_pred), (b.got_addr, b.got_pred));
}

#[test]
fn unguarded_tuples_ignore_the_guard_masks() {
    let mut tb = cta64();
    run(&mut tb, &tid_guard(cmp::LT, 0)); // G = [0, 0]
    run(&mut tb, &word_tuple(0x81000, 4));
    assert_eq!(
        tb.m.addr_queue(1),
        vec![rec(0x81080, 0xFFFF_FFFF, gran::WORD, true)]
    );
    // A PRED without guard writes nothing.
    run(&mut tb, &pred_tuple(0, 1, cmp::GE, 0));
    assert_eq!((tb.m.guard_mask(0), tb.m.guard_mask(1)), (0, 0));
    assert_eq!(tb.out().stat_guard_skips, 0);
}

#[test]
fn reset_clears_the_guard_masks_and_the_counter() {
    let mut tb = cta64();
    run(&mut tb, &tid_guard(cmp::LT, 32));
    run(&mut tb, &guarded(word_tuple(0, 4)));
    assert_eq!(tb.out().stat_guard_skips, 1);
    assert_eq!(tb.m.guard_mask(0), !0);
    tb.edge(DacIn {
        reset: true,
        ..DacIn::default()
    });
    assert_eq!(tb.out(), reset_outputs());
    assert_eq!((tb.m.guard_mask(0), tb.m.guard_mask(1)), (0, 0));
    // With G = 0 a guarded tuple skips every warp, one cycle each.
    tb.launch(0, 0, 0);
    assert_eq!(run(&mut tb, &guarded(word_tuple(0x100, 4))), 5);
    assert!(tb.m.queues_empty());
    assert_eq!(tb.out().stat_guard_skips, 2);
}

#[test]
fn a_guard_writes_g_at_the_edge_its_mask_is_pushed() {
    let params = DacParams {
        PWPQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&params, 32);
    tb.launch(0, 0, 0);
    run(&mut tb, &pred_tuple(0, 0, cmp::EQ, 0)); // warp 0's queue full
    tb.enq(&tid_guard(cmp::LT, 5));
    tb.idle(5); // start, two setup cycles, then stalled
    assert_eq!(tb.m.guard_mask(0), 0);
    assert_eq!(tb.m.stats().guard_writes, 0);
    tb.deq(0, DEQ_PRED); // the pop makes room at this edge; still stalled
    assert_eq!(tb.m.guard_mask(0), 0);
    tb.idle(1); // pushed
    assert_eq!(tb.m.guard_mask(0), 0x1F);
    assert_eq!(tb.m.pred_queue(0), vec![0x1F]);
}

#[test]
fn a_reserved_guard_writes_nothing() {
    let mut tb = cta64();
    run(&mut tb, &tid_guard(cmp::LT, 40));
    run(
        &mut tb,
        &Tuple {
            cmp: 6,
            ..tid_guard(cmp::LT, 0)
        },
    );
    assert_eq!((tb.m.guard_mask(0), tb.m.guard_mask(1)), (!0, 0xFF));
    assert_eq!(tb.m.stats().tuples_reserved, 1);
    // A reserved guarded tuple (gran 3) produces nothing and skips nothing.
    run(
        &mut tb,
        &Tuple {
            gran: 3,
            ..guarded(word_tuple(0, 4))
        },
    );
    assert_eq!(tb.out().stat_guard_skips, 0);
    assert_eq!(tb.m.stats().tuples_reserved, 2);
}

#[test]
fn guarded_records_of_a_partial_warp_and_other_sizes() {
    // 40 threads: warp 1 has 8 active lanes; guard tid.x odd-ish via NE on
    // a uniform-stride value: lanes whose value != 34.
    let mut tb = Tb::one_d(40);
    tb.launch(0, 0, 0);
    run(&mut tb, &tid_guard(cmp::NE, 34));
    assert_eq!(tb.m.guard_mask(1), 0xFB);
    // Byte granularity, 1 byte per thread from 0x7000: warp 1's lanes 0, 1
    // then 3..7, one 32-byte region.
    run(
        &mut tb,
        &guarded(addr_tuple(kind::ADDR, 0x7000, 1, gran::BYTE)),
    );
    assert_eq!(
        tb.m.addr_queue(1),
        vec![
            rec(0x7020, 0x0000_0003, gran::BYTE, false),
            rec(0x7020, 0x0000_00F8, gran::BYTE, true),
        ]
    );
    let s = tb.m.stats();
    assert_eq!((s.guard_gaps, s.guarded_partial), (1, 1));
}
