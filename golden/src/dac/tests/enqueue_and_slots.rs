//! Enqueue, the ATQ, the start of a tuple, slot updates, input widths and
//! statistics.

use super::bench::*;
use crate::dac::*;

// ----- enqueue, ATQ, start -----

#[test]
fn enq_ready_falls_when_the_atq_is_full() {
    let p = DacParams {
        ATQ_DEPTH: 3,
        PWAQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    // The first tuple stalls after one record (queue of one).
    tb.enq(&word_tuple(0, 128));
    tb.enq(&word_tuple(0x10000, 4));
    assert_eq!(tb.out().atq_count, 2);
    assert!(tb.out().enq_ready);
    tb.enq(&word_tuple(0x20000, 4));
    assert_eq!(tb.out().atq_count, 3);
    assert!(!tb.out().enq_ready);
    // A tuple offered while full is not taken.
    tb.edge(enq(&word_tuple(0x30000, 4)));
    tb.edge(enq(&word_tuple(0x30000, 4)));
    assert_eq!(tb.out().atq_count, 3);
    assert_eq!(tb.m.stats().enq_refused_cycles, 2);
    assert_eq!(tb.m.atq()[2].base, 0x20000);
    tb.drain();
    assert_eq!(tb.m.stats().tuples_enqueued, 3);
    assert_eq!(tb.got_addr[0].len(), 34);
}

#[test]
fn a_tuple_leaving_and_one_arriving_at_one_edge() {
    let p = DacParams {
        ATQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    // Full: refused in the start cycle, the two setup cycles, the warp's
    // cycle and the leave cycle (issue 29, step 4: the tuple leaves the ATQ
    // one edge after its end).
    assert!(!tb.out().enq_ready);
    tb.idle(1);
    assert!(!tb.out().enq_ready);
    tb.idle(1);
    assert!(!tb.out().enq_ready);
    tb.idle(1);
    assert!(!tb.out().enq_ready);
    tb.idle(1); // the warp: the tuple's end
    assert!(!tb.out().enq_ready);
    assert!(!tb.m.busy());
    tb.idle(1); // the tuple leaves
    assert!(tb.out().enq_ready);
    assert_eq!(tb.out().atq_count, 0);
    // Depth 2: the tuple leaves and one arrives at the same edge.
    let p = DacParams {
        ATQ_DEPTH: 2,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(4); // start, two setup cycles, the warp (the tuple's end)
    tb.enq(&word_tuple(0x100, 4)); // the first leaves, the second arrives
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    assert_eq!(tb.m.atq()[0].base, 0x100);
    // Full (2 of 2) in the cycle the current tuple leaves: refused.
    tb.enq(&word_tuple(0x200, 4)); // start of 0x100
    assert_eq!(tb.out().atq_count, 2);
    tb.idle(3); // its setup, its warp (its end)
    tb.edge(enq(&word_tuple(0x300, 4))); // 0x100 leaves, 0x300 refused
    assert_eq!(
        tb.m.atq().iter().map(|t| t.base).collect::<Vec<_>>(),
        vec![0x200]
    );
}

#[test]
fn atq_count_includes_the_tuple_being_expanded() {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(3); // start, two setup cycles
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(1); // warp 0
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(1); // warp 1: the tuple's end
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(1); // the tuple leaves (issue 29, step 4)
    assert_eq!(tb.out().atq_count, 0);
}

#[test]
fn reserved_tuples_leave_one_edge_after_their_start_edge() {
    let reserved = [
        Tuple {
            kind: 3,
            ..word_tuple(0, 4)
        },
        addr_tuple(kind::ADDR, 0, 4, 3),
        addr_tuple(kind::DATA, 0, 4, 3),
        pred_tuple(0, 0, 6, 0),
        pred_tuple(0, 0, 7, 0),
    ];
    for t in reserved {
        let mut tb = Tb::one_d(32);
        tb.launch(0, 0, 0);
        let e = tb.enq(&t);
        assert_eq!(tb.out().atq_count, 1);
        tb.idle(1); // start edge e+1: dropped
        assert_eq!(tb.out().atq_count, 1, "{t:?}");
        assert!(!tb.m.busy());
        tb.idle(1); // edge e+2: leaves (issue 29, step 4)
        assert_eq!(tb.out().atq_count, 0, "{t:?}");
        assert!(tb.m.idle());
        // The next tuple starts in the next cycle.
        let e2 = tb.enq(&word_tuple(0x100, 4));
        assert_eq!(e2, e + 3);
        tb.idle(1);
        assert!(tb.m.busy());
        tb.drain();
        assert_eq!(tb.got_addr[0], vec![rec(0x100, !0, gran::WORD, true)]);
        assert!(tb.mem.is_empty() && tb.got_pred[0].is_empty());
        assert_eq!(tb.m.stats().tuples_reserved, 1);
    }
    // gran 3 does not matter to a predicate, cmp 7 not to an address.
    let t = Tuple {
        gran: 3,
        ..pred_tuple(0, 0, cmp::EQ, 0)
    };
    assert_eq!(expand_1d(&t, 32).got_pred[0], vec![0xFFFF_FFFF]);
    let t = Tuple {
        cmp: 7,
        ..word_tuple(0x100, 4)
    };
    assert_eq!(expand_1d(&t, 32).got_addr[0].len(), 1);
}

#[test]
fn a_tuple_with_no_active_slot_is_dropped_at_its_start_edge() {
    let mut tb = Tb::one_d(32);
    tb.enq(&word_tuple(0x100, 4));
    // A launch in the start cycle is too late for this tuple; it leaves the
    // ATQ one edge later (issue 29, step 4).
    tb.launch(0, 0, 0);
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    tb.idle(1);
    assert_eq!(tb.out().atq_count, 0);
    assert!(tb.m.idle());
    assert_eq!(tb.m.stats().tuples_without_slots, 1);
    tb.drain();
    assert!(tb.got_addr[0].is_empty());
}

#[test]
fn the_slot_set_is_sampled_at_the_start_cycle() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 4)
    });
    // Start cycle: slot 1 done and slot 2 launched at the start edge.
    tb.edge(with(done(1), launch(2, 2, 0)));
    assert_eq!(tb.m.cursor().expect("busy").todo, 0b011);
    tb.drain();
    assert_eq!(tb.got_addr[0], vec![rec(0, !0, gran::WORD, true)]);
    // Slot 1, done, is still expanded with its index.
    assert_eq!(tb.got_addr[1], vec![rec(0x1000, !0, gran::WORD, true)]);
    // Slot 2, launched during the start cycle, is not.
    assert!(tb.got_addr[2].is_empty());
    // The next tuple sees slots 0 and 2.
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 4)
    });
    tb.drain();
    assert_eq!(tb.got_addr[1].len(), 1);
    assert_eq!(tb.got_addr[2], vec![rec(0x2000, !0, gran::WORD, true)]);
}

#[test]
fn cta_indices_are_read_when_the_slot_is_expanded() {
    // Slot 1 is relaunched (done + launch at one edge) while slot 0's
    // first warp is being expanded: slot 1's warps (warp ids 2 and 3, read
    // when the walk moves to the warp before each) use the new index.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 128)
    });
    tb.idle(3); // start, two setup cycles
    tb.edge(with(done(1), launch(1, 5, 0))); // slot 0 warp 0's first record
    assert_eq!(tb.m.slot(1), Some((5, 0)));
    tb.drain();
    assert_eq!(tb.got_addr[2][0].addr, 0x5000);
    assert_eq!(tb.got_addr[3][0].addr, 0x5000 + 32 * 128);
}

#[test]
fn a_warps_cta_index_is_read_when_the_walk_moves_to_the_warp_before_it() {
    // Issue 29's two warp-setup stages: one record per warp (96 threads,
    // three warps), slot 0 relaunched with index 2 at edge t + `at`. Warp
    // 0 reads its index in the first setup cycle (t+2), warp 1 in the
    // second (t+3), warp 2 in warp 0's cycle (t+4).
    let relaunch_at = |at: u64| {
        let mut tb = Tb::one_d(96);
        tb.launch(0, 1, 0);
        let t = tb.enq(&Tuple {
            off_cx: 0x1_0000,
            ..word_tuple(0, 4)
        });
        while tb.now() < t + at {
            tb.idle(1);
        }
        tb.edge(with(done(0), launch(0, 2, 0)));
        tb.drain();
        (0..3).map(|w| tb.got_addr[w][0].addr).collect::<Vec<_>>()
    };
    // At the start edge: every warp reads index 2.
    assert_eq!(relaunch_at(1), vec![0x2_0000, 0x2_0080, 0x2_0100]);
    // At the first setup edge: warps 1 and 2 read 2.
    assert_eq!(relaunch_at(2), vec![0x1_0000, 0x2_0080, 0x2_0100]);
    // At the second setup edge: warp 2 reads 2.
    assert_eq!(relaunch_at(3), vec![0x1_0000, 0x1_0080, 0x2_0100]);
    // At warp 0's edge: every warp read 1.
    assert_eq!(relaunch_at(4), vec![0x1_0000, 0x1_0080, 0x1_0100]);
}

#[test]
fn slot_updates() {
    let p = DacParams {
        N_CTA: 3,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    // Slot numbers >= N_CTA are ignored (2 slot bits).
    tb.launch(3, 1, 1);
    assert_eq!((0..4).filter_map(|c| tb.m.slot(c)).count(), 0);
    // Slot numbers and indices are taken modulo their widths.
    tb.launch(4 + 2, 0x1_0007, 0x2_0008);
    assert_eq!(tb.m.slot(2), Some((7, 8)));
    // Done then launch of one slot: active with the new index.
    tb.edge(with(done(2), launch(2, 9, 9)));
    assert_eq!(tb.m.slot(2), Some((9, 9)));
    tb.edge(done(2));
    assert_eq!(tb.m.slot(2), None);
    tb.edge(done(3)); // ignored
}

#[test]
fn inputs_are_taken_modulo_their_widths() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.edge(DacIn {
        enq_valid: true,
        enq_kind: 4 + kind::ADDR,
        enq_base: 0x1_0000_0100,
        enq_off_tx: 0xF_0000_0004,
        enq_off_ty: 0x1_0000_0000,
        enq_off_cx: 0x1_0000_0000,
        enq_off_cy: 0x1_0000_0000,
        enq_gran: 4 + gran::WORD,
        enq_cmp: 8,
        enq_scalar: 0x1_0000_0000,
        ..DacIn::default()
    });
    assert_eq!(tb.m.atq()[0], word_tuple(0x100, 4));
    tb.drain();
    assert_eq!(tb.got_addr[0], vec![rec(0x100, !0, gran::WORD, true)]);
    // cfg_* too: 32 threads, k = 5 and W = 1 with high bits set.
    let mut tb = Tb::new(&DacParams::default(), 16 + 5, (1 << 11) + 32, (1 << 6) + 1);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 4));
    tb.drain();
    assert_eq!(tb.got_addr[0], vec![rec(0x100, !0, gran::WORD, true)]);
}

#[test]
fn statistics_count_events() {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0, 8, gran::WORD));
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0));
    tb.enq(&pred_tuple(0, 1, cmp::EQ, 0));
    tb.enq(&Tuple {
        kind: 3,
        ..Tuple::default()
    });
    tb.drain();
    let s = tb.m.stats();
    assert_eq!(s.tuples_enqueued, 4);
    assert_eq!(s.tuples_started, 3);
    assert_eq!(s.tuples_expanded, 3);
    assert_eq!(s.tuples_reserved, 1);
    assert_eq!(s.records_pushed, 4);
    assert_eq!((s.mem_requests, s.mem_taken), (4, 4));
    assert_eq!(s.masks_pushed, 4);
    assert_eq!((s.pred_fast, s.pred_slow), (2, 2));
    assert_eq!(s.slow_groups, 6);
    assert_eq!(s.warps_expanded, 6);
    assert_eq!(s.deq_hits, 8);
    // Busy cycles: 3 x 2 setup cycles + 4 records + 2 fast + 8 slow group
    // cycles + stalls.
    assert_eq!(s.busy_cycles, 6 + 4 + 2 + 8 + s.stall_cycles());
}
