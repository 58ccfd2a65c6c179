//! The spec's Figure 9 scenarios, and the job and prefetch queues (back-
//! pressure, full job FIFO).

use super::bench::*;
use crate::caps::*;

// ----- the spec's scenarios -----

#[test]
fn scenario_fig9a() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[fig9(BASE_A, 0)]);
    tb.ld(PC, 1, 0, &[fig9(BASE_B, 0)]);
    tb.ld(PC, 2, 0, &[fig9(BASE_C, 0)]);
    assert!(tb.applied().dist_entries().is_empty());
    let t = tb.ld(PC, 0, 1, &[fig9(BASE_A, 1)]);
    // A1 learnt the stride and created job A.
    let d = tb.applied().dist_lookup(PC).expect("stride learnt");
    assert_eq!((d.stride, d.cnt, d.lead_cta), (STRIDE, 0, 0));
    tb.ld(PC, 0, 2, &[fig9(BASE_A, 2)]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (fig9(BASE_B, 1), 1, 1),
            (fig9(BASE_C, 1), 2, 1),
            (fig9(BASE_B, 2), 1, 2),
            (fig9(BASE_C, 2), 2, 2),
        ]
    );
    // First prefetch during the cycle after edge t + 8 (the load applied
    // at t + 1, its job in the FIFO at t + 3, taken at t + 4, the prefetch
    // selected at t + 5, in the first and second address stages at t + 6
    // and t + 7, in the output queue at t + 8); the second job is taken
    // the edge after the first ends, so its prefetches come 3 cycles after
    // the first job's last.
    assert_eq!(tb.cycles(), vec![t + 9, t + 10, t + 13, t + 14]);
    let s = tb.applied().stats();
    assert_eq!((s.jobs_a, s.jobs_b, s.jobs_dropped), (2, 0, 0));
    assert_eq!((s.prefetches, s.trainings, s.mispredictions), (4, 1, 0));
    assert_eq!(s.invalidations, 0);
}

#[test]
fn scenario_fig9b() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[fig9(BASE_A, 0)]);
    tb.ld(PC, 0, 1, &[fig9(BASE_A, 1)]);
    // Three idle cycles: job A (A1 at edge a: applied at a + 1, in the
    // FIFO at a + 3, taken at a + 4) looks at the tables in the cycle
    // before edge a + 5, before B0 (accepted at a + 4) is applied, and
    // finds no other CTA.
    tb.idle(3);
    let t = tb.ld(PC, 1, 0, &[fig9(BASE_B, 0)]);
    assert!(tb.m.generator().is_some(), "job A taken");
    tb.ld(PC, 2, 0, &[fig9(BASE_C, 0)]);
    assert_eq!(tb.m.generator(), None, "job A ended with nothing");
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (fig9(BASE_B, 1), 1, 1),
            (fig9(BASE_B, 2), 1, 2),
            (fig9(BASE_C, 1), 2, 1),
            (fig9(BASE_C, 2), 2, 2),
        ]
    );
    assert_eq!(tb.cycles(), vec![t + 9, t + 10, t + 13, t + 14]);
    let s = tb.applied().stats();
    assert_eq!((s.jobs_a, s.jobs_b, s.prefetches), (1, 2, 4));
}

/// Figure 9b issued back to back: job A reads the tables when each
/// prefetch is produced, so it also sees B0 and C0, registered while it
/// runs, and prefetches B1 and C1 before the jobs B do.
#[test]
fn scenario_fig9b_back_to_back() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[fig9(BASE_A, 0)]);
    let t = tb.ld(PC, 0, 1, &[fig9(BASE_A, 1)]);
    tb.ld(PC, 1, 0, &[fig9(BASE_B, 0)]);
    tb.ld(PC, 2, 0, &[fig9(BASE_C, 0)]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (fig9(BASE_B, 1), 1, 1),
            (fig9(BASE_C, 1), 2, 1),
            (fig9(BASE_B, 1), 1, 1),
            (fig9(BASE_B, 2), 1, 2),
            (fig9(BASE_C, 1), 2, 1),
            (fig9(BASE_C, 2), 2, 2),
        ]
    );
    assert_eq!(
        tb.cycles(),
        vec![t + 9, t + 10, t + 13, t + 14, t + 17, t + 18]
    );
}

// ----- queues -----

#[test]
fn back_pressure_holds_and_loses_nothing() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.pf_ready = false;
    // CTAs 1..=7 register two bases each; CTA 0 trains: 14 prefetches.
    let base = |c: u64| 0x1000_0000 * (c + 1);
    for c in 1..8 {
        tb.ld(PC, c, 0, &[base(c), base(c) + 0x1000]);
    }
    tb.ld(PC, 0, 0, &[base(0), base(0) + 0x1000]);
    let t = tb.ld(PC, 0, 1, &[base(0) + 0x80, base(0) + 0x1080]);
    let mut expected = Vec::new();
    for c in 1..8 {
        expected.push((base(c) + 0x80, c, 1));
        expected.push((base(c) + 0x1080, c, 1));
    }
    // Edges t+1 .. t+8: the load applied, its job through the verify stage
    // into the FIFO, taken, the first prefetch selected, in the first and
    // second address stages, in the output queue.
    tb.idle(8);
    let head = tb.m.outputs();
    assert!(head.pf_valid);
    assert_eq!((head.pf_addr, head.pf_cta, head.pf_warp), expected[0]);
    for i in 0..20 {
        let out = tb.m.outputs();
        assert_eq!(out, head, "cycle {}", t + 9 + i);
        assert_eq!(tb.m.pfq_len(), (i as usize + 1).min(4));
        tb.idle(1);
    }
    assert_eq!(tb.m.pfq_len(), 4);
    assert_eq!(
        tb.m.pfq_entries()
            .iter()
            .map(|p| (p.addr, p.cta, p.warp))
            .collect::<Vec<_>>(),
        expected[..4].to_vec()
    );
    // The generator stalls at the fifth prefetch (slot 3, k = 0).
    let g = tb.m.generator().expect("busy");
    assert_eq!((g.pos, g.k), (3, 0));
    tb.pf_ready = true;
    let release = tb.cycle;
    tb.drain();
    assert_eq!(tb.seq(), expected);
    // One transfer every cycle from the release on: no bubble.
    let cycles: Vec<u64> = (release..release + 14).collect();
    assert_eq!(tb.cycles(), cycles);
    assert_eq!(tb.applied().stats().prefetches, 14);
}

#[test]
fn intermittent_ready_keeps_order() {
    let mut tb = Tb::new(&defaults(), 8);
    let base = |c: u64| 0x1000_0000 * (c + 1);
    for c in 1..8 {
        tb.ld(PC, c, 0, &[base(c), base(c) + 0x1000, base(c) + 0x2000]);
    }
    tb.ld(PC, 0, 0, &[base(0), base(0) + 0x1000, base(0) + 0x2000]);
    tb.ld(
        PC,
        0,
        2,
        &[base(0) + 0x100, base(0) + 0x1100, base(0) + 0x2100],
    );
    let mut expected = Vec::new();
    for c in 1..8 {
        for k in 0..3 {
            expected.push((base(c) + k * 0x1000 + 0x100, c, 2));
        }
    }
    for i in 0..200 {
        tb.pf_ready = i % 3 == 0 || i % 7 == 1;
        let before = tb.m.outputs();
        tb.idle(1);
        if before.pf_valid && !tb.pf_ready {
            assert_eq!(tb.m.outputs(), before);
        }
    }
    assert_eq!(tb.seq(), expected);
}

/// Jobs created at edges t .. t+4 by warps 1..=5 of the leading CTA; the
/// first runs for 5 cycles (3 prefetches).
fn job_fifo_run(depth: u64) -> Tb {
    let params = CapsParams {
        JOBQ_DEPTH: depth,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    for c in 1..4 {
        tb.ld(PC, c, 0, &[0x1000_0000 * c]);
    }
    tb.ld(PC, 0, 0, &[BASE_A]);
    for w in 1..6 {
        tb.ld(PC, 0, w, &[BASE_A + w * 0x80]);
    }
    tb.drain();
    tb
}

fn job_a_prefetches(warps: &[u64]) -> Vec<Pf> {
    let mut v = Vec::new();
    for &w in warps {
        for c in 1..4 {
            v.push((0x1000_0000 * c + w * 0x80, c, w));
        }
    }
    v
}

#[test]
fn job_fifo_full_drops_depth_1() {
    // w1 pushed (empty); w2 dropped (w1 still queued at the start of the
    // cycle, although taken at that edge); w3 pushed; w4, w5 dropped.
    let tb = job_fifo_run(1);
    let s = tb.applied().stats();
    assert_eq!((s.jobs_a, s.jobs_dropped), (2, 3));
    assert_eq!(tb.seq(), job_a_prefetches(&[1, 3]));
}

#[test]
fn job_fifo_full_drops_depth_2() {
    // w1, w2, w3 pushed (w1 taken at w2's edge); w4, w5 dropped.
    let tb = job_fifo_run(2);
    let s = tb.applied().stats();
    assert_eq!((s.jobs_a, s.jobs_dropped), (3, 2));
    assert_eq!(tb.seq(), job_a_prefetches(&[1, 2, 3]));
}
