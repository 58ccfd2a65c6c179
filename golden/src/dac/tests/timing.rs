//! The contract's timing: records, memory requests, predicate paths, skipped
//! warps.

use super::bench::*;
use crate::dac::*;

// ----- timing -----

#[test]
fn latency_of_a_record() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    let t = tb.enq(&word_tuple(0x100, 4));
    // Cycle t+1: the start cycle.
    assert_eq!(tb.now(), t + 1);
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    tb.idle(1); // edge t+1
    assert!(tb.m.busy());
    // Cycles t+2 and t+3: the two setup cycles.
    tb.idle(1); // edge t+2
    assert!(tb.m.busy());
    tb.idle(1); // edge t+3
    assert!(tb.m.busy());
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 0);
    // Cycle t+4: a dequeue misses; the record is pushed at edge t+4.
    tb.deq(0, DEQ_ADDR);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    let out = tb.out();
    assert!(out.rsp_valid && !out.rsp_hit);
    // Its only warp was done at edge t+4; the tuple leaves the ATQ at edge
    // t+5 (issue 29, step 4: the pop is registered).
    assert_eq!(out.atq_count, 1);
    assert!(!tb.m.busy());
    // Cycle t+5: the dequeue pops; shown in cycle t+6.
    let e = tb.deq(0, DEQ_ADDR);
    assert_eq!(e, t + 5);
    let out = tb.out();
    assert_eq!(out.atq_count, 0);
    assert!(out.rsp_valid && out.rsp_hit);
    assert_eq!(
        (out.rsp_addr, out.rsp_mask, out.rsp_gran, out.rsp_last),
        (0x100, 0xFFFF_FFFF, gran::WORD, true)
    );
    // Cycle t+7: no dequeue in t+6, every rsp_* is 0.
    tb.idle(1);
    assert_eq!(tb.out(), reset_outputs());
}

#[test]
fn latency_of_a_memory_request() {
    let mut tb = Tb::one_d(32);
    tb.mem_ready = false;
    tb.launch(0, 0, 0);
    // One 32-byte region in line 0x1200.
    let t = tb.enq(&addr_tuple(kind::DATA, 0x1220, 1, gran::BYTE));
    tb.idle(1); // t+1
    assert!(!tb.out().mem_valid);
    tb.idle(1); // t+2: first setup cycle
    assert!(!tb.out().mem_valid);
    tb.idle(1); // t+3: second setup cycle
    assert!(!tb.out().mem_valid);
    tb.idle(1); // t+4: record and request
    let out = tb.out(); // cycle t+5
    assert!(out.mem_valid);
    assert_eq!(out.mem_addr, 0x1200);
    assert_eq!(tb.now(), t + 5);
    // Held until taken.
    tb.idle(3);
    assert!(tb.out().mem_valid && tb.out().mem_addr == 0x1200);
    tb.mem_ready = true;
    let e = tb.edge(DacIn::default());
    assert_eq!(tb.mem, vec![(e, 0x1200)]);
    assert!(!tb.out().mem_valid);
    // mem_addr keeps the last request (the contract's register).
    assert_eq!(tb.out().mem_addr, 0x1200);
}

#[test]
fn thirty_two_records_in_thirty_two_cycles() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    let t = tb.enq(&word_tuple(0x1004, 128));
    tb.idle(4); // t+1 start, t+2 and t+3 setup, t+4 first record
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    for i in 1..32 {
        // Cycle t+4+i: dequeue one, push one.
        let e = tb.deq(0, DEQ_ADDR);
        assert_eq!(e, t + 4 + i);
        assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1, "record {i}");
        // The tuple leaves one edge after its last record (step 4).
        assert_eq!(tb.out().atq_count, 1);
    }
    tb.drain();
    let got = &tb.got_addr[0];
    assert_eq!(got.len(), 32);
    for (i, r) in got.iter().enumerate() {
        assert_eq!(*r, rec(0x1000 + 128 * i as u32, 0b10, gran::WORD, i == 31));
    }
    assert_eq!(tb.m.stats().stall_cycles(), 0);
    // 32 record cycles and the two setup cycles.
    assert_eq!(tb.m.stats().busy_cycles, 34);
}

#[test]
fn one_cycle_per_single_region_warp_and_the_next_tuple_follows() {
    // Two slots of 64 threads: 4 warps, one record each; a second tuple
    // enqueued at once starts the cycle after the first leaves.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    let t = tb.enq(&word_tuple(0x100, 4));
    tb.enq(&word_tuple(0x8000, 4)); // edge t+1 (the first's start)
    let pushed = |tb: &Tb| {
        (0..4)
            .map(|w| tb.m.queue_len(w, DEQ_ADDR))
            .collect::<Vec<_>>()
    };
    tb.idle(2); // t+2, t+3: setup
    assert_eq!(pushed(&tb), vec![0, 0, 0, 0]);
    tb.idle(1); // t+4: warp 0
    assert_eq!(pushed(&tb), vec![1, 0, 0, 0]);
    tb.idle(1); // t+5: warp 1
    tb.idle(1); // t+6: warp 2
    assert_eq!(pushed(&tb), vec![1, 1, 1, 0]);
    assert_eq!(tb.out().atq_count, 2);
    tb.idle(1); // t+7: warp 3, the first tuple's end
    assert_eq!(tb.out().atq_count, 2);
    assert!(!tb.m.busy());
    tb.idle(1); // t+8: the first tuple leaves (step 4: the pop registered)
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    tb.idle(1); // t+9: start of the second
    assert!(tb.m.busy());
    tb.idle(2); // t+10, t+11: its setup
    assert_eq!(pushed(&tb), vec![1, 1, 1, 1]);
    let e = tb.edge(DacIn::default()); // t+12: its warp 0
    assert_eq!(e, t + 12);
    assert_eq!(pushed(&tb), vec![2, 1, 1, 1]);
}

#[test]
fn predicate_paths_take_one_cycle_or_g_cycles() {
    // Per warp of 32 lanes: fast one cycle, slow four cycles.
    let cycles = |t: &Tuple, threads: u64| {
        let mut tb = Tb::one_d(threads);
        tb.launch(0, 0, 0);
        tb.enq(t);
        tb.idle(3); // start, two setup cycles
        let mut n = 0;
        while tb.m.busy() {
            tb.idle(1);
            n += 1;
        }
        n
    };
    assert_eq!(cycles(&pred_tuple(0, 0, cmp::EQ, 0), 32), 1);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 32), 4);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 64), 8);
    // Partial warps: G = ceil(n / 8).
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 40), 4 + 1);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 41), 4 + 2);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 8), 1);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 9), 2);
    // Mixed: warp 0 slow (first/last differ), warp 1 fast.
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::LT, 10), 64), 4 + 1);
}

#[test]
fn slow_path_groups_and_the_mask_push() {
    // Watch the cursor: groups 0..3, the mask pushed in group 3's cycle.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::NE, 12));
    tb.idle(3); // start, two setup cycles
    let mut partials = Vec::new();
    for _ in 0..3 {
        tb.idle(1);
        let c = tb.m.cursor().expect("busy");
        partials.push((c.g, c.partial));
        assert_eq!(tb.m.queue_len(0, DEQ_PRED), 0);
        assert_eq!(tb.out().stat_pred_slow, 0);
    }
    assert_eq!(partials, vec![(1, 0xFF), (2, 0xEFFF), (3, 0xFF_EFFF)]);
    tb.idle(1);
    assert!(!tb.m.busy());
    assert_eq!(tb.m.pred_queue(0), vec![0xFFFF_EFFF]);
    assert_eq!(tb.out().stat_pred_slow, 1);
}

#[test]
fn warps_out_of_range_or_empty_take_one_cycle_and_produce_nothing() {
    // N_WARPS = 4, W = 2: slot 2's warps are 4 and 5.
    let p = DacParams {
        N_WARPS: 4,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 64);
    tb.launch(0, 0, 0);
    tb.launch(2, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::EQ, 3));
    tb.idle(3); // start, two setup cycles
    let mut n = 0;
    while tb.m.busy() {
        tb.idle(1);
        n += 1;
    }
    // Slot 0: two slow warps (4 cycles each); slot 2: one cycle each.
    assert_eq!(n, 4 + 4 + 1 + 1);
    assert_eq!(tb.out().stat_pred_slow, 2);
    assert_eq!(tb.m.stats().warps_skipped, 2);
    // W = 3 with 64 threads: warp 2 has no active lane.
    let mut tb = Tb::new(&DacParams::default(), 6, 64, 3);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(3); // start, two setup cycles
    let mut n = 0;
    while tb.m.busy() {
        tb.idle(1);
        n += 1;
    }
    assert_eq!(n, 3);
    assert_eq!(tb.m.queue_len(2, DEQ_ADDR), 0);
    assert_eq!(tb.m.stats().warps_skipped, 1);
    // Every warp empty (cfg_threads = 0): one cycle per warp.
    let mut tb = Tb::new(&DacParams::default(), 0, 0, 2);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(3); // start, two setup cycles
    tb.idle(1);
    assert!(tb.m.busy());
    tb.idle(1);
    assert!(!tb.m.busy() && tb.m.queues_empty());
    tb.idle(1); // the leave cycle (step 4)
    assert!(tb.m.idle());
}

#[test]
fn zero_warps_per_cta_reading() {
    // The contract's "at once when W = 0": one step per slot, on warp 0.
    // With cfg_threads = 0 (the consistent configuration) it produces
    // nothing.
    let mut tb = Tb::new(&DacParams::default(), 0, 0, 0);
    tb.launch(0, 0, 0);
    tb.launch(3, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(3); // start, two setup cycles
    tb.idle(1); // slot 0
    assert!(tb.m.busy());
    tb.idle(1); // slot 3
    assert!(!tb.m.busy() && tb.m.queues_empty());
    tb.idle(1); // the leave cycle (step 4)
    assert!(tb.m.idle());
    // The model's reading with cfg_threads > 0: warp id c * 0 + 0 = 0
    // receives lanes 0..n-1 of each slot.
    let mut tb = Tb::new(&DacParams::default(), 5, 32, 0);
    tb.launch(0, 0, 0);
    tb.launch(3, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 4)
    });
    tb.idle(6); // start, two setup cycles, two slots, the leave cycle
    assert!(tb.m.idle());
    assert_eq!(
        tb.m.addr_queue(0),
        vec![
            rec(0, 0xFFFF_FFFF, gran::WORD, true),
            rec(0x1000, 0xFFFF_FFFF, gran::WORD, true)
        ]
    );
}
