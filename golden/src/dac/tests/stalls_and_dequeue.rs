//! Stalls on full queues and the memory register, and dequeue responses.

use super::bench::*;
use crate::dac::*;

// ----- stalls -----

#[test]
fn a_full_address_queue_stalls_the_record() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    let t = tb.enq(&word_tuple(0, 128));
    tb.idle(7); // t+1 start, t+2 and t+3 setup, t+4..t+7 four records
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    tb.idle(3); // t+8..t+10 stalled
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    assert_eq!(tb.m.cursor().expect("busy").p, 4);
    assert_eq!(tb.m.stats().stall_queue_cycles, 3);
    // A pop at edge t+11: the queue was full at the start of the cycle, so
    // the record waits one more cycle.
    let e = tb.deq(0, DEQ_ADDR);
    assert_eq!(e, t + 11);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 3);
    tb.idle(1); // t+12: the fifth record
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    assert_eq!(tb.m.stats().stall_queue_cycles, 4);
    tb.drain();
    let got = &tb.got_addr[0];
    assert_eq!(got.len(), 32);
    assert!(got
        .iter()
        .enumerate()
        .all(|(i, r)| r.addr == 128 * i as u32));
}

#[test]
fn a_full_queue_of_one_warp_does_not_block_earlier_progress() {
    // Warp 1's queue full before the tuple: warp 0 is served, then the
    // expander stalls on warp 1.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    for _ in 0..4 {
        tb.enq(&Tuple {
            base: 0x1000,
            ..word_tuple(0, 4)
        });
    }
    // Drain warp 0 only as it fills; warp 1 stays full after 4 tuples.
    tb.idle(20);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    assert_eq!(tb.m.queue_len(1, DEQ_ADDR), 4);
    tb.enq(&word_tuple(0x2000, 4));
    tb.idle(3); // start, two setup cycles
    tb.idle(1); // warp 0: full too
    assert_eq!(tb.m.cursor().expect("busy").wi, 0);
    tb.deq(0, DEQ_ADDR); // pop (the push still waits: full at the start)
    tb.idle(1); // warp 0 pushed
    assert_eq!(tb.m.cursor().expect("busy").wi, 1);
    tb.idle(2); // warp 1 stalls
    assert_eq!(tb.m.cursor().expect("busy").wi, 1);
    tb.deq(1, DEQ_ADDR);
    tb.idle(1);
    assert!(!tb.m.busy());
    assert_eq!(tb.m.addr_queue(1).last().expect("record").addr, 0x2080);
}

#[test]
fn data_records_wait_for_the_memory_register() {
    let mut tb = Tb::one_d(32);
    tb.mem_ready = false;
    tb.launch(0, 0, 0);
    let t = tb.enq(&addr_tuple(kind::DATA, 0x3000, 256, gran::WORD));
    tb.idle(4); // t+1 start, t+2 and t+3 setup, t+4 first record and request
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    tb.idle(4); // t+5..t+8: the register is busy
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    assert_eq!(tb.m.stats().stall_mem_cycles, 4);
    assert_eq!(tb.out().mem_addr, 0x3000);
    // mem_ready in cycle t+9: taken and reloaded at the same edge.
    tb.mem_ready = true;
    let e = tb.edge(DacIn::default());
    assert_eq!(e, t + 9);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 2);
    assert!(tb.out().mem_valid);
    assert_eq!(tb.out().mem_addr, 0x3100);
    assert_eq!(tb.mem, vec![(t + 9, 0x3000)]);
    // With mem_ready every cycle and room: one record and request per cycle.
    tb.deq(0, DEQ_ADDR);
    tb.deq(0, DEQ_ADDR);
    assert_eq!(
        tb.mem,
        vec![(t + 9, 0x3000), (t + 10, 0x3100), (t + 11, 0x3200)]
    );
    tb.drain();
    let lines: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    let expect: Vec<u64> = (0..32).map(|i| 0x3000 + 256 * i).collect();
    assert_eq!(lines, expect);
}

#[test]
fn a_full_queue_beats_a_free_memory_register() {
    // ADDR/DATA: the queue full is a queue stall even when mem is busy.
    let p = DacParams {
        PWAQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.mem_ready = false;
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0, 128, gran::WORD));
    tb.idle(4); // start, two setup cycles, record 0
    tb.idle(3);
    let s = tb.m.stats();
    assert_eq!((s.stall_queue_cycles, s.stall_mem_cycles), (3, 0));
    // Room, but the register still busy.
    tb.deq(0, DEQ_ADDR);
    tb.idle(2);
    let s = tb.m.stats();
    assert_eq!((s.stall_queue_cycles, s.stall_mem_cycles), (4, 2));
}

#[test]
fn a_fast_mask_waits_for_room_and_counts_at_its_push() {
    let p = DacParams {
        PWPQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0));
    tb.enq(&pred_tuple(0, 0, cmp::NE, 0));
    tb.idle(8);
    // First pushed; second started and stalled.
    assert_eq!(tb.out().stat_pred_fast, 1);
    assert!(tb.m.busy());
    tb.idle(3);
    assert_eq!(tb.out().stat_pred_fast, 1);
    tb.deq(0, DEQ_PRED);
    assert_eq!(tb.out().stat_pred_fast, 1);
    tb.idle(1);
    assert_eq!(tb.out().stat_pred_fast, 2);
    assert_eq!(tb.m.pred_queue(0), vec![0]);
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
}

#[test]
fn a_slow_last_group_repeats_while_the_queue_is_full() {
    let p = DacParams {
        PWPQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0)); // fast, fills the queue
    let t = tb.enq(&pred_tuple(0, 1, cmp::LT, 20));
    // First tuple: start t, setup t+1 and t+2, warp t+3 (pushes), leaves
    // at t+4 (issue 29, step 4). Second: start t+5, setup t+6 and t+7,
    // groups 0..2 at t+8..t+10 despite the full queue, group 3 stalls from
    // t+11.
    tb.idle(9); // edges t+1..t+9
    tb.idle(1); // t+10
    let c = tb.m.cursor().expect("busy");
    assert_eq!((c.g, c.partial), (3, 0xF_FFFF));
    assert_eq!(tb.m.stats().stall_queue_cycles, 0);
    tb.idle(3); // t+11..t+13 stalled in group 3
    let c = tb.m.cursor().expect("busy");
    assert_eq!((c.g, c.partial), (3, 0xF_FFFF));
    assert_eq!(tb.m.stats().stall_queue_cycles, 3);
    assert_eq!(tb.out().stat_pred_slow, 0);
    tb.deq(0, DEQ_PRED); // t+14: still full at the start
    tb.idle(1); // t+15: pushed
    assert_eq!(tb.now(), t + 16);
    assert!(!tb.m.busy());
    assert_eq!(tb.out().stat_pred_slow, 1);
    assert_eq!(tb.m.pred_queue(0), vec![0x000F_FFFF]);
}

// ----- dequeue -----

#[test]
fn push_and_pop_of_one_queue_at_one_edge() {
    // Queue holding one record: pop the old head, keep the new record.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 128));
    tb.idle(4); // start, two setup cycles, record 0
    tb.deq(0, DEQ_ADDR); // pops record 0, pushes record 1
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    assert_eq!(tb.out().rsp_addr, 0x100);
    assert_eq!(tb.m.addr_queue(0)[0].addr, 0x180);

    // Empty queue: the pop misses, the pushed record stays.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 4));
    tb.idle(3); // start, two setup cycles
    tb.deq(0, DEQ_ADDR);
    let out = tb.out();
    assert!(out.rsp_valid && !out.rsp_hit);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);

    // Full queue: the pop takes effect, the push waits.
    let p = DacParams {
        PWPQ_DEPTH: 2,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    for s in [1, 2, 3] {
        tb.enq(&pred_tuple(0, 0, cmp::LT, s));
    }
    tb.idle(10);
    assert_eq!(tb.m.pred_queue(0), vec![0xFFFF_FFFF, 0xFFFF_FFFF]);
    tb.deq(0, DEQ_PRED);
    assert_eq!(tb.m.queue_len(0, DEQ_PRED), 1);
    tb.idle(1);
    assert_eq!(tb.m.queue_len(0, DEQ_PRED), 2);
}

#[test]
fn dequeue_responses() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::GE, 16));
    tb.enq(&addr_tuple(kind::ADDR, 0x40, 2, gran::HALF));
    tb.idle(11); // both tuples expanded and left (issue 29, step 4: one edge after each end)
                 // Predicate: rsp_mask alone.
    tb.deq(0, DEQ_PRED);
    assert_eq!(
        tb.out(),
        DacOut {
            enq_ready: true,
            rsp_valid: true,
            rsp_hit: true,
            rsp_mask: 0xFFFF_0000,
            stat_pred_slow: 1,
            ..DacOut::default()
        }
    );
    // Address record: every field.
    tb.deq(0, DEQ_ADDR);
    let out = tb.out();
    assert_eq!(
        (out.rsp_addr, out.rsp_mask, out.rsp_gran, out.rsp_last),
        (0x40, 0xFFFF_FFFF, gran::HALF, true)
    );
    // Empty queue, another warp, an out-of-range warp: misses.
    for (w, k) in [(0, DEQ_ADDR), (5, DEQ_PRED), (50, DEQ_ADDR), (63, DEQ_PRED)] {
        tb.deq(w, k);
        let out = tb.out();
        assert!(out.rsp_valid && !out.rsp_hit, "warp {w} kind {k}");
    }
    // deq_kind and deq_warp are taken modulo their widths.
    tb.enq(&word_tuple(0x100, 4));
    tb.idle(4);
    tb.deq(64, 2); // warp 0, kind 0
    assert!(tb.out().rsp_hit);
    assert_eq!(tb.out().rsp_addr, 0x100);
    assert_eq!(tb.m.stats().deq_hits, 3);
    assert_eq!(tb.m.stats().deq_misses, 4);
}
