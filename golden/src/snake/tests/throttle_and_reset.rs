//! The throttle (cache full, bandwidth hysteresis), ignored loads and reset.

use super::bench::*;
use super::setups::*;

// ----- throttle -----

/// A `cache_full` cycle halts exactly the THROTTLE_CYCLES cycles after it;
/// a load accepted in the cycle before (handled at the `cache_full` edge,
/// the load stage's edge) enters the walk queue and is discarded by the
/// first halted cycle; loads handled in halted cycles train but make no
/// job.
#[test]
fn cache_full_halts_throttle_cycles() {
    let p = SnakeParams {
        THROTTLE_CYCLES: 5,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    train_chain(&mut tb);
    assert!(!tb.m.outputs().throttled);
    tb.ld(4, 0x100, chain_base(4));
    let t = tb.edge(SnakeIn {
        cache_full: true,
        ..SnakeIn::default()
    });
    assert_eq!(tb.m.walk_queue().len(), 1);
    let mut throttled = Vec::new();
    for i in 0..7 {
        throttled.push(tb.m.outputs().throttled);
        if i == 1 {
            // A load handled while halted trains (Head, link) but makes
            // no job.
            tb.ld(30, 0x900, 0x9000);
            let m = tb.settled();
            assert_eq!(m.head(30).pc, 0x900);
            assert!(m.walk_queue().is_empty());
        } else {
            tb.idle(1);
        }
        assert!(tb.m.walk_queue().is_empty());
    }
    // Cycles t + 1 .. t + 5 halted.
    assert_eq!(throttled, [true, true, true, true, true, false, false]);
    assert!(tb.got.is_empty(), "the job was discarded");
    let s = tb.m.stats();
    assert_eq!(
        (s.jobs_discarded, s.jobs_suppressed, s.halted_cycles),
        (1, 1, 5)
    );
    assert_eq!(tb.next_edge, t + 8);
    // Back to work.
    tb.ld(4, 0x100, chain_base(4));
    tb.drain();
    assert_eq!(tb.seq().len(), 7);
    // THROTTLE_CYCLES = 0: cache_full never halts.
    let mut tb = Tb::new(&SnakeParams {
        THROTTLE_CYCLES: 0,
        ..defaults()
    });
    for _ in 0..3 {
        tb.edge(SnakeIn {
            cache_full: true,
            ..SnakeIn::default()
        });
        assert!(!tb.m.outputs().throttled);
    }
    // A cache_full cycle while counting reloads the counter.
    let mut tb = Tb::new(&p);
    let full = SnakeIn {
        cache_full: true,
        ..SnakeIn::default()
    };
    tb.edge(full);
    tb.idle(3);
    assert_eq!(tb.m.throttle_count(), 2);
    tb.edge(full);
    assert_eq!(tb.m.throttle_count(), 5);
    tb.idle(4);
    assert!(tb.m.outputs().throttled);
    tb.idle(1);
    assert!(!tb.m.outputs().throttled);
}

/// `bw_util >= BW_HIGH` halts, `<= BW_LOW` resumes, between keeps;
/// `bw_util` is 7 bits, above 100 used as given.
#[test]
fn bandwidth_hysteresis() {
    let mut tb = Tb::new(&defaults());
    let steps = [
        (69, false),
        (70, true),
        (60, true),
        (51, true),
        (50, false),
        (60, false),
        (69, false),
        (100, true),
        (0, false),
        (127, true),
        (0x80 + 10, false), // 10 after masking to 7 bits
        (0x80 + 75, true),  // 75 after masking
        (0x80 + 60, true),  // 60: keeps
        (0x80 + 50, false), // 50: clears
    ];
    for &(bw, halted) in &steps {
        tb.edge(SnakeIn {
            bw_util: bw,
            ..SnakeIn::default()
        });
        assert_eq!(tb.m.outputs().throttled, halted, "bw_util {bw}");
        assert_eq!(tb.m.bw_halt(), halted);
    }
}

/// A halted cycle empties the walk queue and the walker; the output queue
/// keeps its prefetches.
#[test]
fn halted_cycle_discards_walk_keeps_output_queue() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.ld(20, 0x900, 0x1);
    tb.idle(6);
    assert_eq!(tb.m.pfq_len(), 4);
    assert_eq!(tb.m.walk_queue().len(), 2);
    let queued = tb.m.pfq_entries();
    tb.edge(SnakeIn {
        bw_util: 90,
        ..SnakeIn::default()
    });
    assert!(tb.m.outputs().throttled);
    assert_eq!(tb.m.walk_queue().len(), 2, "the halt starts next cycle");
    tb.edge(SnakeIn::default()); // halted cycle; bw_util 0 clears the halt
    assert!(tb.m.walk_queue().is_empty());
    assert_eq!(tb.m.walker(), Walker::INITIAL);
    assert_eq!(tb.m.pfq_entries(), queued);
    assert!(!tb.m.outputs().throttled);
    // A refused prefetch is offered even while halted; draining gives the
    // four queued prefetches and nothing else.
    tb.pf_ready = true;
    tb.drain();
    let expect: Vec<Pf> = queued.iter().map(|p| (p.addr, p.warp, p.kind)).collect();
    assert_eq!(tb.seq(), expect);
    assert_eq!(tb.seq(), chain_prefetches(3)[..4].to_vec());
    assert_eq!(tb.m.stats().jobs_discarded, 2);
}

/// Prefetches in the output queue are offered and taken while halted.
#[test]
fn output_queue_drains_while_halted() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.idle(5);
    tb.edge(SnakeIn {
        bw_util: 70,
        ..SnakeIn::default()
    });
    tb.pf_ready = true;
    for _ in 0..6 {
        tb.edge(SnakeIn {
            bw_util: 60,
            ..SnakeIn::default()
        });
        assert!(tb.m.outputs().throttled);
    }
    assert_eq!(tb.seq(), chain_prefetches(3)[..4].to_vec());
}

/// An observation recorded before a halt stays; one not reached is lost.
#[test]
fn halt_and_intra_warp_observation() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    let halt_at = |tb: &mut Tb, edge: u64| {
        while tb.next_edge < edge {
            tb.idle(1);
        }
        tb.edge(SnakeIn {
            bw_util: 70,
            ..SnakeIn::default()
        });
        tb.edge(SnakeIn::default()); // halted; clears the halt
        tb.drain();
    };
    // The job enters at edge t + 1 (load stage); closing hop at edge t + 3,
    // halted from cycle t + 4: recorded.
    let t = tb.ld(9, LA, loop_base(9));
    halt_at(&mut tb, t + 3);
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 2);
    assert_eq!(tb.seq().len(), 2);
    // Halted from cycle t + 3: the closing hop is not taken, lost.
    tb.forget();
    let t = tb.ld(12, LA, loop_base(12));
    halt_at(&mut tb, t + 2);
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 2);
    assert_eq!(tb.seq(), vec![(loop_base(12) + 0x40, 12, kind::CHAIN)]);
}

// ----- ignored loads, reset -----

/// A load with `ld_uniform = 0` changes nothing, not even Head.
#[test]
fn non_uniform_load_is_ignored() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    let before = snapshot(&tb.m);
    for (w, pc, addr) in [(4, 0x100, chain_base(4)), (0, 0x200, 0x1), (1, 0x100, 0x2)] {
        tb.edge(SnakeIn {
            ld_uniform: false,
            ..load(w, pc, addr)
        });
    }
    assert_eq!(snapshot(&tb.m), before);
    assert!(tb.got.is_empty());
    assert_eq!(tb.m.stats().loads_ignored, 3);
}

/// Reset clears every table, queue, the walker and the throttle; nothing
/// else happens at that edge (no load, no transfer).
#[test]
fn reset_clears_everything() {
    let mut tb = Tb::new(&defaults());
    let empty = snapshot(&tb.m);
    assert_eq!(tb.m.outputs(), SnakeOut::default());
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.ld(5, 0x100, chain_base(5));
    tb.idle(3);
    tb.edge(SnakeIn {
        cache_full: true,
        bw_util: 100,
        ..SnakeIn::default()
    });
    assert!(tb.m.pfq_len() > 0 && tb.m.outputs().throttled);
    let taken = tb.m.stats().prefetches_taken;
    tb.pf_ready = true;
    tb.edge(SnakeIn {
        reset: true,
        ..load(6, 0x100, 0x1234)
    });
    assert_eq!(snapshot(&tb.m), empty);
    assert_eq!(tb.m.outputs(), SnakeOut::default());
    assert_eq!(tb.m.stats().prefetches_taken, taken);
    assert!(tb.got.is_empty());
    // Trains again from scratch like a new model.
    for &(w, pc) in &FIG15_LOADS {
        tb.ld(w, pc, fig15(w, pc));
    }
    tb.drain();
    assert_eq!(tb.seq(), fig15_prefetches());
}
