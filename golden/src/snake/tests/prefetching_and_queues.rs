//! Prefetching (chains, loops, inter-warp degree) and the walk and output
//! queues.

use super::bench::*;
use super::setups::*;

// ----- prefetching -----

/// The chain takes the lowest-numbered promoted entry with bit w set, else
/// the lowest-numbered promoted entry.
#[test]
fn chain_prefers_entry_with_own_bit() {
    let p = SnakeParams {
        TRAIN_WARPS: 2,
        ..defaults()
    };
    let (a, b) = (0x100, 0x200);
    let mut tb = Tb::new(&p);
    // (a, b, 0x10) by warps 0, 3; (a, b, 0x20) by warps 6, 9 (distances of
    // 3: no inter-warp stride).
    for (w, s) in [(0, 0x10), (3, 0x10), (6, 0x20), (9, 0x20)] {
        tb.ld(w, a, 0x10000 * w);
        tb.ld(w, b, 0x10000 * w + s);
        tb.drain();
    }
    assert_eq!(tb.m.find_link(a, b, 0x10), Some(0));
    assert_eq!(tb.m.find_link(a, b, 0x20), Some(1));
    assert!(tb.m.tail()[..2].iter().all(|e| e.t1 == T1_PROMOTED));
    let chain_of = |tb: &mut Tb, w: u64, addr: u64| {
        tb.forget();
        tb.ld(w, a, addr);
        tb.drain();
        tb.seq()
            .into_iter()
            .filter(|pf| pf.2 == kind::CHAIN)
            .collect::<Vec<_>>()
    };
    // Warp 6 has its bit in entry 1 only.
    assert_eq!(chain_of(&mut tb, 6, 0x7_0000), vec![(0x7_0020, 6, 0)]);
    // Warp 12 has no bit: the lowest-numbered, entry 0.
    assert_eq!(chain_of(&mut tb, 12, 0xC_0000), vec![(0xC_0010, 12, 0)]);
    // Warp 3 has its bit in entry 0.
    assert_eq!(chain_of(&mut tb, 3, 0xD_0000), vec![(0xD_0010, 3, 0)]);
}

/// At most CHAIN_DEPTH hops.
#[test]
fn chain_depth_limit() {
    for depth in [1usize, 2, 3, 4] {
        let p = SnakeParams {
            CHAIN_DEPTH: depth as u64,
            LOOP_HOPS: depth as u64,
            ..defaults()
        };
        let mut tb = Tb::new(&p);
        train_chain(&mut tb);
        tb.ld(4, 0x100, chain_base(4));
        tb.drain();
        assert_eq!(tb.seq(), chain_prefetches(depth), "CHAIN_DEPTH = {depth}");
    }
}

/// A closed loop records the observation (t2 counts to 3) and makes no
/// intra-warp prefetch; once the loop is broken, a trained `t2 = 3` gives
/// the intra-warp prefetch after the chain.
#[test]
fn loop_closing_and_intra_warp() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    for (w, t2) in [(9, 2), (12, 3), (15, 3)] {
        tb.forget();
        tb.ld(w, LA, loop_base(w));
        tb.drain();
        let b = loop_base(w);
        assert_eq!(
            tb.seq(),
            vec![(b + 0x40, w, kind::CHAIN), (b + 0x1000, w, kind::CHAIN)],
            "no intra-warp prefetch on a closed loop"
        );
        let f = tb.m.per_pc(LA).unwrap();
        assert_eq!((f.intra, f.t2), (0x1000, t2));
        // Entry 1 (pc1 = B) holds B's fields, untouched.
        assert_eq!(tb.m.tail()[1].per_pc.t2, 0);
    }
    // Warp 0 leaves B with another stride: B -> A loses its promotion.
    tb.ld(0, LB, loop_base(0) + 0x1040);
    tb.drain();
    tb.forget();
    let t = tb.ld(0, LA, loop_base(0) + 0x3000);
    assert_eq!(tb.settled().tail()[1].t1, T1_UNTRAINED);
    tb.drain();
    let b = loop_base(0) + 0x3000;
    assert_eq!(
        tb.seq(),
        vec![
            (b + 0x40, 0, kind::CHAIN),
            (b + 0x1000, 0, kind::INTRA_WARP)
        ]
    );
    // The intra-warp prefetch waits one edge in the output stage.
    assert_eq!(tb.taken(), vec![t + 3, t + 5]);
    assert_eq!(tb.m.stats().prefetches_intra, 1);
}

/// An observation different from `intra` restarts `t2` at 1.
#[test]
fn observation_mismatch_restarts_t2() {
    let p = 0x900;
    let mut tb = Tb::new(&defaults());
    // (p, p, 0x80) by warps 0, 3, 6; then (p, p, 0x100) by warps 9, 12, 15.
    let mut before_last = None;
    for (w, s) in [
        (0, 0x80),
        (3, 0x80),
        (6, 0x80),
        (9, 0x100),
        (12, 0x100),
        (15, 0x100),
    ] {
        tb.ld(w, p, 0x10000 * w);
        tb.drain();
        before_last = tb.m.per_pc(p);
        tb.ld(w, p, 0x10000 * w + s);
        tb.drain();
    }
    let f = before_last.unwrap();
    assert_eq!((f.intra, f.t2), (0x80, 3));
    // Warp 15's own bit is in the promoted (p, p, 0x100): observation 0x100.
    let f = tb.m.per_pc(p).unwrap();
    assert_eq!((f.intra, f.t2), (0x100, 1));
    assert_eq!(tb.m.tail()[0].per_pc, tb.m.tail()[1].per_pc);
}

/// IW_DEGREE future warps, and only warps below N_WARPS.
#[test]
fn inter_warp_degree_and_warp_bound() {
    let run = |p: &SnakeParams, warps: [u64; 3]| {
        let mut tb = iw_setup(p);
        for w in warps {
            tb.ld(w, 0x100, 0x1000 + 0x100 * w);
            tb.drain();
        }
        let last = warps[2];
        tb.seq()
            .into_iter()
            .filter(|pf| pf.2 == kind::INTER_WARP)
            .inspect(|pf| assert_eq!(pf.0, 0x1000 + 0x100 * pf.1))
            .map(|pf| pf.1 - last)
            .collect::<Vec<u64>>()
    };
    assert_eq!(run(&defaults(), [1, 2, 3]), vec![1, 2, 3, 4]);
    let deg = |d| SnakeParams {
        IW_DEGREE: d,
        ..defaults()
    };
    assert_eq!(run(&deg(2), [1, 2, 3]), vec![1, 2]);
    assert_eq!(run(&deg(0), [1, 2, 3]), Vec::<u64>::new());
    assert_eq!(run(&deg(15), [1, 2, 3]).len(), 15);
    // w + k < N_WARPS.
    assert_eq!(run(&defaults(), [60, 61, 62]), vec![1]);
    assert_eq!(run(&defaults(), [61, 62, 63]), Vec::<u64>::new());
    let small = SnakeParams {
        N_WARPS: 8,
        ..defaults()
    };
    assert_eq!(run(&small, [3, 4, 5]), vec![1, 2]);
}

// ----- queues -----

/// A load finding the walk queue full at the start of the cycle is dropped,
/// even when the walker ends a job at that edge.
#[test]
fn walk_queue_full_drops_job() {
    // WALKQ_DEPTH = 1, jobs with nothing to do: every other load dropped.
    let p = SnakeParams {
        WALKQ_DEPTH: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for i in 0..6 {
        tb.ld(i, 0x100 + 4 * i, 0x1000);
        // Load i is handled at the next edge (load stage).
        let s = tb.settled().stats();
        assert_eq!(
            (s.jobs_enqueued, s.jobs_dropped),
            (i / 2 + 1, i.div_ceil(2))
        );
    }
    // WALKQ_DEPTH = 2, a stalled job at the head.
    let p = SnakeParams {
        PFQ_DEPTH: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.ld(20, 0x900, 0x1); // second job
    tb.ld(21, 0x900, 0x2); // dropped
    tb.idle(5);
    assert_eq!(tb.m.walk_queue().len(), 2);
    assert_eq!(tb.m.walk_queue()[1].warp, 20);
    assert_eq!(tb.m.stats().jobs_dropped, 1);
    tb.pf_ready = true;
    tb.drain();
    assert_eq!(tb.seq(), chain_prefetches(3));
}

/// A full output queue stalls the walker; nothing is lost and the order
/// stays, whatever the consumer's pattern.
#[test]
fn output_queue_full_stalls() {
    let p = SnakeParams {
        PFQ_DEPTH: 2,
        ..defaults()
    };
    for pattern in [0b1u32, 0b10, 0b100, 0b1101] {
        let mut tb = Tb::new(&p);
        train_chain(&mut tb);
        tb.pf_ready = false;
        tb.ld(4, 0x100, chain_base(4));
        tb.idle(7); // the job enters at t + 1, pushes at t + 2 and t + 3
        assert_eq!(tb.m.pfq_len(), 2);
        let walker = tb.m.walker();
        assert_eq!(walker.hop, 2, "two hops pushed, the third stalls");
        tb.idle(1);
        assert_eq!(tb.m.walker(), walker, "nothing changes in a stall");
        assert!(tb.m.stats().stall_cycles >= 5);
        for i in 0..40 {
            tb.pf_ready = pattern & (1 << (i % 4)) != 0;
            tb.idle(1);
        }
        tb.drain();
        assert_eq!(tb.seq(), chain_prefetches(3), "pattern {pattern:b}");
        let s = tb.m.stats();
        assert_eq!(s.prefetches(), s.prefetches_taken);
    }
}

/// A stall re-decides from the current phase against the current tables:
/// a link promoted during the stall extends the chain.
#[test]
fn stall_redecides_against_current_tables() {
    let p = SnakeParams {
        TRAIN_WARPS: 2,
        PFQ_DEPTH: 1,
        ..defaults()
    };
    let (a, b, c) = (0x100, 0x200, 0x300);
    let mut tb = Tb::new(&p);
    for (w, pc, addr) in [
        (0, a, 0x1000),
        (0, b, 0x1010),
        (1, a, 0x1100),
        (1, b, 0x1110), // (a, b, 0x10) promoted
        (2, a, 0x1200), // a: iw_cnt 1
        (2, b, 0x1210),
        (2, c, 0x1230), // (b, c, 0x20), wv = {2}
    ] {
        tb.ld(w, pc, addr);
        tb.drain();
    }
    tb.forget();
    tb.pf_ready = false;
    let t = tb.ld(3, a, 0x1300); // a: iw_cnt 2 (at t + 1, load stage)
    tb.idle(2); // t + 1: the job enters; t + 2: push the hop to b
    assert_eq!(tb.m.pfq_len(), 1);
    // t + 3: chain over at b, the inter-warp prefetch stalls; warp 5's
    // load of b is accepted (its job enters the walk queue at t + 4).
    tb.ld(5, b, 0x5010);
    assert_eq!(tb.m.walker().phase, Phase::Chain);
    // Accepted at t + 4: at t + 5 warp 5 promotes (b, c); its job is
    // dropped (queue full).
    assert_eq!(tb.ld(5, c, 0x5030), t + 4);
    assert_eq!(tb.settled().tail()[1].t1, T1_PROMOTED);
    assert_eq!(tb.settled().stats().jobs_dropped, 1);
    tb.pf_ready = true;
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x1310, 3, kind::CHAIN),
            (0x1330, 3, kind::CHAIN),
            (0x1400, 4, kind::INTER_WARP),
            (0x1500, 5, kind::INTER_WARP),
            (0x1600, 6, kind::INTER_WARP),
            (0x1700, 7, kind::INTER_WARP),
            (0x5030, 5, kind::CHAIN),
        ]
    );
}

/// The walker decides from the tables at the start of the cycle: a link
/// promoted at the same edge does not extend the chain, and once the walk
/// has moved to the inter phase the chain is not retried.
#[test]
fn walker_decides_from_start_of_cycle_tables() {
    let p = SnakeParams {
        TRAIN_WARPS: 2,
        ..defaults()
    };
    let (a, b, c) = (0x100, 0x200, 0x300);
    let mut tb = Tb::new(&p);
    for (w, pc, addr) in [
        (0, a, 0x1000),
        (0, b, 0x1010),
        (1, a, 0x1100),
        (1, b, 0x1110), // (a, b, 0x10) promoted
        (2, a, 0x1200), // a: iw_cnt 1
        (2, b, 0x1210),
        (2, c, 0x1230), // (b, c, 0x20), wv = {2}
        (5, b, 0x5010), // warp 5's Head at b
    ] {
        tb.ld(w, pc, addr);
        tb.drain();
    }
    tb.forget();
    let t = tb.ld(3, a, 0x1300); // a: iw_cnt 2; the job enters at t + 1
    tb.idle(1);
    // Edge t + 2: the hop to b. Warp 5's load accepted at t + 2 promotes
    // (b, c) at t + 3, where the walker, at b, sees it unpromoted and goes
    // on with the inter-warp prefetches.
    tb.ld(5, c, 0x5030);
    let m = tb.settled();
    assert_eq!(m.tail()[1].t1, T1_PROMOTED);
    assert_eq!(m.walker().phase, Phase::Inter);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x1310, 3, kind::CHAIN),
            (0x1400, 4, kind::INTER_WARP),
            (0x1500, 5, kind::INTER_WARP),
            (0x1600, 6, kind::INTER_WARP),
            (0x1700, 7, kind::INTER_WARP),
        ]
    );
    // The hop's at t + 3; the inter-warp ones one edge later each (the
    // output stage).
    assert_eq!(tb.taken(), vec![t + 3, t + 5, t + 6, t + 7, t + 8]);
}
