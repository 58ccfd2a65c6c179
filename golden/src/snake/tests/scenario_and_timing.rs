//! The spec's Figure-15 scenario, input masking, and the contract's timing.

use super::bench::*;
use super::setups::*;

// ----- the Figure-15 scenario -----

/// The scenario with three idle cycles after each load, checking the tables
/// after each load; then the exact prefetches and their cycles.
///
/// The gap is not needed for the outcome (no job before W3's 0x520 makes a
/// prefetch, and each ends in the cycle after its load, so the walk queue
/// never holds more than one job); it keeps each load's state on its own
/// and checks that every earlier job has ended (walk queue empty, walker in
/// its initial state) before the next load.
#[test]
fn scenario_figure15() {
    const GAP: usize = 3;
    let mut tb = Tb::new(&defaults());
    let mut t = 0;
    for (i, &(w, pc)) in FIG15_LOADS.iter().enumerate() {
        assert!(tb.m.walk_queue().is_empty(), "load {i}: earlier job ended");
        assert_eq!(tb.m.walker(), Walker::INITIAL);
        t = tb.ld(w, pc, fig15(w, pc));
        assert_eq!(t, (GAP as u64 + 1) * i as u64);
        // The load trains at the edge after it is accepted (load stage).
        let m = tb.settled();
        assert_eq!(
            m.head(w),
            HeadRow {
                valid: true,
                pc,
                addr: fig15(w, pc)
            }
        );
        let link = m.find_link(PC_A, PC_B, 0x64);
        let a = m.per_pc(PC_A);
        match i {
            0 => {
                // W0 0x520: Head only.
                assert!(valid_entries(&m).is_empty());
            }
            1 => {
                // W0 0x540 allocates the link with wv = {0}, per-PC zero.
                assert_eq!(link, Some(0));
                assert_eq!(
                    m.tail_entry(0),
                    Some(TailEntry {
                        valid: true,
                        pc1: PC_A,
                        pc2: PC_B,
                        stride: 0x64,
                        wv: 0b1,
                        t1: T1_UNTRAINED,
                        per_pc: PerPc::default(),
                        span: 0,
                    })
                );
                assert_eq!(m.recency(), &[0]);
            }
            2 => {
                // W1 0x520 records the inter-warp history (warp 0 is not
                // part of it); no link (Head[1] was invalid).
                assert_eq!(valid_entries(&m).len(), 1);
                assert_eq!(
                    a,
                    Some(PerPc {
                        iw_valid: true,
                        iw_warp: 1,
                        iw_addr: 0x1100,
                        ..PerPc::default()
                    })
                );
            }
            3 => {
                // W1 0x540 sets bit 1: t1 = 01.
                let e = m.tail_entry(0).unwrap();
                assert_eq!((e.wv, e.t1), (0b11, T1_TWO_WARPS));
            }
            4 => {
                // W2 0x520: inter-warp candidate 0x100, iw_cnt = 1.
                let a = a.unwrap();
                assert_eq!(
                    (a.iw_warp, a.iw_addr, a.iw_stride, a.iw_cnt),
                    (2, 0x1200, 0x100, 1)
                );
            }
            5 => {
                // W2 0x540 sets bit 2 and promotes the link.
                let e = m.tail_entry(0).unwrap();
                assert_eq!((e.wv, e.t1), (0b111, T1_PROMOTED));
            }
            _ => {
                // W3 0x520 confirms the inter-warp stride: iw_cnt = 2.
                let a = a.unwrap();
                assert_eq!(
                    (a.iw_warp, a.iw_addr, a.iw_stride, a.iw_cnt),
                    (3, 0x1300, 0x100, 2)
                );
                assert_eq!(valid_entries(&m).len(), 1, "one entry in all");
                assert_eq!(m.walk_queue().len(), 1);
            }
        }
        if i + 1 < FIG15_LOADS.len() {
            tb.idle(GAP);
        }
    }
    assert!(tb.got.is_empty(), "nothing before W3's 0x520");
    assert_eq!(t, 24);
    // During the cycle after edge t the load is in the load stage (its job
    // enters the walk queue at edge t + 1); during the next one the walker
    // works; nothing is offered in either.
    assert!(!tb.m.outputs().pf_valid);
    assert!(tb.m.walk_queue().is_empty() && tb.m.staged_load().is_some());
    tb.idle(1);
    assert!(!tb.m.outputs().pf_valid);
    tb.idle(4);
    assert_eq!(tb.m.walk_queue().len(), 1, "job still there before t + 7");
    tb.idle(1); // edge t + 6
    tb.idle(1); // edge t + 7: the job ends; 0x1700 enters the output queue
    assert!(tb.m.walk_queue().is_empty(), "the job ends at edge t + 7");
    tb.idle(1); // edge t + 8: takes 0x1700
    assert_eq!(tb.seq(), fig15_prefetches());
    // Each is offered in the cycle it is taken: the hop's at t + 3, the
    // inter-warp ones (one edge in the output stage) at t + 5 .. t + 8.
    let expect: Vec<Transfer> = fig15_prefetches()
        .into_iter()
        .enumerate()
        .map(|(k, pf)| {
            let at = if k == 0 { t + 3 } else { t + 4 + k as u64 };
            Transfer {
                offered: at,
                taken: at,
                pf,
            }
        })
        .collect();
    assert_eq!(tb.got, expect);
    assert_eq!(tb.taken(), vec![27, 29, 30, 31, 32]);
    let s = tb.m.stats();
    assert_eq!((s.prefetches_chain, s.prefetches_inter), (1, 4));
    assert_eq!(
        (s.prefetches_intra, s.jobs_enqueued, s.jobs_completed),
        (0, 7, 7)
    );
    assert_eq!((s.link_allocations, s.link_hits, s.promotions), (1, 2, 1));
}

/// The same loads back to back give the same prefetches, the first taken
/// three edges after the last load.
#[test]
fn scenario_figure15_back_to_back() {
    let mut tb = Tb::new(&defaults());
    let mut t = 0;
    for &(w, pc) in &FIG15_LOADS {
        t = tb.ld(w, pc, fig15(w, pc));
        assert!(tb.m.walk_queue().len() <= 1);
    }
    tb.drain();
    assert_eq!(t, 6);
    assert_eq!(tb.seq(), fig15_prefetches());
    assert_eq!(tb.taken(), vec![9, 11, 12, 13, 14]);
    assert_eq!(tb.m.stats().jobs_dropped, 0);
}

/// Inputs are taken modulo their port widths: the scenario with PC and
/// warp bits above the port widths and 16-bit addresses that wrap.
#[test]
fn inputs_are_masked_and_arithmetic_wraps() {
    let p = SnakeParams {
        ADDR_W: 16,
        PC_W: 12,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for &(w, pc) in &FIG15_LOADS {
        // 0xFE00 + 0x100 * w wraps past 0xFFFF from warp 2 on.
        let addr = 0xABCD_0000 + 0xFE00 + 0x100 * w + if pc == PC_B { 0x64 } else { 0 };
        tb.ld(w + 64, pc | 0xF000, addr);
        tb.idle(2);
    }
    assert_eq!(
        tb.m.head(3),
        HeadRow {
            valid: true,
            pc: PC_A,
            addr: 0x0100
        }
    );
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x0164, 3, kind::CHAIN),
            (0x0200, 4, kind::INTER_WARP),
            (0x0300, 5, kind::INTER_WARP),
            (0x0400, 6, kind::INTER_WARP),
            (0x0500, 7, kind::INTER_WARP),
        ]
    );
    // A negative stride stored in 16 bits.
    let mut tb = Tb::new(&p);
    tb.ld(0, 0x10, 0x0010);
    tb.ld(0, 0x20, 0xFFF0);
    assert_eq!(tb.settled().find_link(0x10, 0x20, 0xFFE0), Some(0));
    assert_eq!(tb.settled().tail()[0].stride, 0xFFE0);
}

// ----- timing -----

/// The contract's latency (issue 29's load stage): accepted at edge t, in
/// the load stage during the next cycle, its job at the head of the walk
/// queue from edge t + 1, first prefetch pushed at t + 2 and taken at
/// edge t + 3, then one per edge; the job ends in its own cycle.
#[test]
fn latency_three_cycles_then_one_per_edge() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    let t = tb.ld(4, 0x100, chain_base(4));
    assert!(!tb.m.outputs().pf_valid, "cycle t + 1: nothing yet");
    assert!(tb.m.walk_queue().is_empty(), "cycle t + 1: no job yet");
    assert_eq!(tb.m.staged_load().map(|l| l.warp), Some(4), "load stage");
    tb.idle(1);
    assert!(!tb.m.outputs().pf_valid, "cycle t + 2: nothing yet");
    assert_eq!(tb.m.walk_queue().len(), 1, "the job is at the head");
    tb.idle(1);
    assert!(tb.m.outputs().pf_valid, "cycle t + 3: offered");
    tb.drain();
    let expect = chain_prefetches(3);
    assert_eq!(tb.seq(), expect);
    // The three hops' taken at t + 3 .. t + 5; the four inter-warp ones
    // wait one edge in the output stage: t + 7 .. t + 10.
    let edges: Vec<u64> = (0..expect.len() as u64)
        .map(|k| if k < 3 { t + 3 + k } else { t + 4 + k })
        .collect();
    assert_eq!(tb.taken(), edges);
    assert!(tb.got.iter().all(|x| x.offered == x.taken));
    // 7 prefetches made at t + 2 .. t + 8 (the inter-warp ones enter the
    // output queue at t + 6 .. t + 9), the job ends at t + 9.
    assert_eq!(tb.next_edge, t + 11);
}

/// A job ends in a cycle of its own: the second of two back-to-back jobs
/// with one prefetch each is taken two edges after the first.
#[test]
fn job_end_takes_its_own_cycle() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    // Break the loop's second link so that each job has one prefetch:
    // warp 0 leaves B with another stride (clears bit 0 of B -> A).
    tb.ld(0, LB, loop_base(0) + 0x1040);
    tb.ld(0, LA, loop_base(0) + 0x3000);
    tb.drain();
    assert_ne!(tb.m.tail()[1].t1, T1_PROMOTED);
    // A's intra-warp stride is not trained (t2 = 1): one chain hop only.
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 1);
    tb.forget();
    let t = tb.ld(9, LA, loop_base(9));
    tb.ld(12, LA, loop_base(12));
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (loop_base(9) + 0x40, 9, kind::CHAIN),
            (loop_base(12) + 0x40, 12, kind::CHAIN)
        ]
    );
    // Job 1 (enters at t + 1): push t + 2, end t + 3; job 2: push t + 4.
    assert_eq!(tb.taken(), vec![t + 3, t + 5]);
}
