//! Rules 2, 3 and 4: stride training and invalidation, the misprediction
//! counter, loop jobs.

use super::bench::*;
use crate::caps::*;

// ----- rule 4 -----

#[test]
fn rule4_non_power_of_two_distance_waits() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 3, &[BASE_A + 3 * 0x80]);
    tb.ld(PC, 0, 6, &[BASE_A + 0x1234]);
    tb.drain();
    assert!(tb.applied().dist_entries().is_empty());
    assert_eq!(
        tb.applied().percta_lookup(0, PC).unwrap().bases,
        vec![BASE_A]
    );
    assert_eq!(tb.applied().stats(), CapsStats::default());
    // Warp 2 (distance 2) trains: stride 0x80.
    tb.ld(PC, 0, 2, &[BASE_A + 2 * 0x80]);
    tb.drain();
    assert_eq!(tb.applied().dist_lookup(PC).unwrap().stride, 0x80);
    assert_eq!(tb.seq(), vec![(BASE_B + 2 * 0x80, 1, 2)]);
}

#[test]
fn rule4_non_divisible_diff_invalidates() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 2, &[BASE_A + 0x81]);
    assert_eq!(tb.applied().percta_lookup(0, PC), None);
    assert!(tb.applied().dist_entries().is_empty());
    assert_eq!(tb.applied().stats().invalidations, 1);
    // Distance 4: low two bits of the difference must be zero.
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 4, &[BASE_A + 0x102]);
    assert_eq!(tb.applied().percta_lookup(0, PC), None);
    assert_eq!(tb.applied().stats().invalidations, 2);
    // The next load of the PC leads again.
    tb.ld(PC, 0, 2, &[BASE_A + 0x100]);
    assert_eq!(tb.applied().percta_lookup(0, PC).unwrap().lead, 2);
    // A difference divisible by 4 but not by 8, at distance 4: fine.
    tb.ld(PC, 0, 6, &[BASE_A + 0x100 + 0x104]);
    assert_eq!(tb.applied().dist_lookup(PC).unwrap().stride, 0x41);
}

#[test]
fn rule4_differing_strides_invalidate() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 1, &[BASE_A + 0x80, BASE_A + 0x1100]);
    assert_eq!(tb.applied().percta_lookup(0, PC), None);
    assert!(tb.applied().dist_entries().is_empty());
    assert_eq!(tb.applied().stats().invalidations, 1);
    // Differing counts invalidate too, even at a non-power-of-two
    // distance.
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 3, &[BASE_A + 0x180]);
    assert_eq!(tb.applied().percta_lookup(0, PC), None);
    assert_eq!(tb.applied().stats().invalidations, 2);
    assert_eq!(tb.applied().stats().jobs_a, 0);
}

#[test]
fn rule4_zero_stride_does_nothing() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 1, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 4, &[BASE_A, BASE_A + 0x1000]);
    tb.drain();
    assert!(tb.applied().dist_entries().is_empty());
    let p = tb.applied().percta_lookup(0, PC).unwrap();
    assert_eq!(
        (p.lead, p.bases.clone()),
        (0, vec![BASE_A, BASE_A + 0x1000])
    );
    assert_eq!(tb.applied().stats(), CapsStats::default());
    assert!(tb.seq().is_empty());
}

#[test]
fn rule4_negative_delta_and_negative_stride() {
    let mut tb = Tb::new(&defaults(), 8);
    // Lead warp 2, trailing warp 0: delta = -2, diff = -0x100, s = 0x80.
    tb.ld(PC, 1, 5, &[BASE_B]);
    tb.ld(PC, 0, 2, &[BASE_A + 2 * 0x80]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.drain();
    assert_eq!(tb.applied().dist_lookup(PC).unwrap().stride, 0x80);
    // Job A for warp 0 of CTA 1 (lead 5): base - 5 * 0x80.
    assert_eq!(tb.seq(), vec![(BASE_B - 5 * 0x80, 1, 0)]);

    // Lead warp 1, trailing warp 3: delta = 2, diff = -0x80, s = -0x40.
    let pc = PC + 4;
    tb.ld(pc, 0, 1, &[BASE_A]);
    tb.ld(pc, 0, 3, &[BASE_A - 0x80]);
    assert_eq!(tb.applied().dist_lookup(pc).unwrap().stride, 0xffff_ffc0);
    // Lead warp 4, trailing warp 0: delta = -4, diff = +0x100,
    // s = -0x40.
    let pc = PC + 8;
    tb.ld(pc, 0, 4, &[BASE_A]);
    tb.ld(pc, 1, 0, &[BASE_B]);
    tb.ld(pc, 0, 0, &[BASE_A + 0x100]);
    tb.drain();
    assert_eq!(tb.applied().dist_lookup(pc).unwrap().stride, 0xffff_ffc0);
    // For warp 0 of CTA 1 (lead 0): lead == w, not a candidate.
    assert_eq!(tb.applied().stats().prefetches, 1);
    // Lead warp 3, trailing warp 2: delta = -1, diff = +0x40,
    // s = -0x40; CTA 1 (lead 0) gets warp 2 at base - 0x80.
    let pc = PC + 12;
    tb.ld(pc, 1, 0, &[BASE_B]);
    tb.ld(pc, 0, 3, &[BASE_A]);
    tb.ld(pc, 0, 2, &[BASE_A + 0x40]);
    tb.drain();
    assert_eq!(tb.applied().dist_lookup(pc).unwrap().stride, 0xffff_ffc0);
    assert_eq!(tb.seq().last(), Some(&(BASE_B - 0x80, 1, 2)));
}

// ----- rule 3 -----

#[test]
fn rule3_mispredictions_throttle() {
    let params = CapsParams {
        CNT_W: 2,
        MISPRED_THRESHOLD: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    let cnt = |tb: &Tb| tb.applied().dist_lookup(PC).unwrap().cnt;
    assert_eq!(cnt(&tb), 0);
    // Wrong: cnt 1 < 2, job A still created.
    tb.ld(PC, 0, 2, &[BASE_A + 0x999]);
    assert_eq!(cnt(&tb), 1);
    assert_eq!(tb.applied().stats().jobs_a, 2);
    // Wrong: cnt 2 after the verify step, no job.
    tb.ld(PC, 0, 3, &[BASE_A + 0x999]);
    assert_eq!(cnt(&tb), 2);
    // Right: cnt unchanged (never decrements), still no job.
    tb.ld(PC, 0, 4, &[BASE_A + 4 * STRIDE]);
    assert_eq!(cnt(&tb), 2);
    // Wrong from another CTA (no job anyway): 3 = 2^CNT_W - 1.
    tb.ld(PC, 1, 1, &[BASE_B]);
    assert_eq!(cnt(&tb), 3);
    // Saturated: a wrong count (n != P.n) and a wrong address.
    tb.ld(PC, 0, 5, &[BASE_A + 5 * STRIDE, BASE_A]);
    tb.ld(PC, 0, 6, &[BASE_A]);
    assert_eq!(cnt(&tb), 3);
    // A new CTA's leading warp: no job B either (once job A of warp 2
    // has ended, so that it does not prefetch for the new CTA).
    tb.drain();
    tb.ld(PC, 2, 0, &[BASE_C]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![(BASE_B + STRIDE, 1, 1), (BASE_B + 2 * STRIDE, 1, 2)]
    );
    let s = tb.applied().stats();
    assert_eq!((s.jobs_a, s.jobs_b, s.mispredictions), (2, 0, 5));
    assert!(tb.applied().percta_lookup(2, PC).is_some());
}

/// `CNT_DECAY = 1` (spec revision): a correct verification decrements the
/// counter, saturating at 0, and the trigger sees the decremented value.
#[test]
fn rule3_correct_verifications_decay_the_counter() {
    let params = CapsParams {
        CNT_W: 2,
        MISPRED_THRESHOLD: 2,
        CNT_DECAY: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    let cnt = |tb: &Tb| tb.applied().dist_lookup(PC).unwrap().cnt;
    // Right at 0: stays 0 (saturating), job A.
    tb.ld(PC, 0, 2, &[BASE_A + 2 * STRIDE]);
    assert_eq!(cnt(&tb), 0);
    // Two wrong: 2 = the threshold, no job.
    tb.ld(PC, 0, 3, &[BASE_A + 0x999]);
    tb.ld(PC, 0, 4, &[BASE_A + 0x999]);
    assert_eq!(cnt(&tb), 2);
    let jobs = tb.applied().stats().jobs_a;
    // Right: 2 -> 1 < 2 after the verify step: job A again.
    tb.ld(PC, 0, 5, &[BASE_A + 5 * STRIDE]);
    assert_eq!(cnt(&tb), 1);
    assert_eq!(tb.applied().stats().jobs_a, jobs + 1);
    tb.ld(PC, 0, 6, &[BASE_A + 6 * STRIDE]);
    assert_eq!(cnt(&tb), 0);
    // The paper's reading: never decrements.
    let mut tb = Tb::new(
        &CapsParams {
            CNT_DECAY: 0,
            ..params
        },
        8,
    );
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC, 0, 2, &[BASE_A + 0x999]);
    tb.ld(PC, 0, 3, &[BASE_A + 3 * STRIDE]);
    assert_eq!(cnt(&tb), 1);
}

/// `LOOP_JOBS = 1` (spec revision): the leading warp's next iteration of
/// a load (rule 2) enqueues job B, so the trailing warps are prefetched
/// for every iteration; `LOOP_JOBS = 0` prefetches the first only.
#[test]
fn rule2_loop_iterations_enqueue_job_b() {
    for loop_jobs in [0, 1] {
        let params = CapsParams {
            LOOP_JOBS: loop_jobs,
            ..defaults()
        };
        let mut tb = Tb::new(&params, 4);
        // CTA 0 trains the stride.
        tb.ld(PC, 0, 0, &[BASE_A]);
        tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
        tb.drain();
        let before = tb.seq().len();
        // CTA 1's leading warp: iteration 0 (rule 1: job B), then its
        // next iteration one plane further (rule 2).
        tb.ld(PC, 1, 0, &[BASE_B]);
        tb.drain();
        let plane = 0x1_0000;
        tb.ld(PC, 1, 0, &[BASE_B + plane]);
        tb.drain();
        let new: Vec<Pf> = tb.seq()[before..].to_vec();
        let mut expected: Vec<Pf> = (1..4).map(|w| (BASE_B + w * STRIDE, 1, w)).collect();
        if loop_jobs == 1 {
            expected.extend((1..4).map(|w| (BASE_B + plane + w * STRIDE, 1, w)));
        }
        assert_eq!(new, expected, "LOOP_JOBS = {loop_jobs}");
        assert_eq!(
            tb.applied().stats().jobs_b,
            1 + loop_jobs,
            "LOOP_JOBS = {loop_jobs}"
        );
    }
    // Not while the counter is at the threshold.
    let params = CapsParams {
        CNT_W: 2,
        MISPRED_THRESHOLD: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC, 0, 2, &[BASE_A + 0x999]);
    tb.ld(PC, 0, 0, &[BASE_A + 0x1_0000]);
    tb.drain();
    assert_eq!(tb.applied().stats().jobs_b, 0);
}

#[test]
fn rule3_only_the_training_cta_triggers() {
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 1, 1, &[BASE_B + STRIDE]);
    assert_eq!(tb.applied().dist_lookup(PC).unwrap().lead_cta, 1);
    // CTA 0 is not the leading CTA: verify only.
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC, 0, 2, &[BASE_A + 2 * STRIDE]);
    // CTA 1 is: job A for warp 2.
    tb.ld(PC, 1, 2, &[BASE_B + 2 * STRIDE]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![(BASE_A + STRIDE, 0, 1), (BASE_A + 2 * STRIDE, 0, 2)]
    );
    assert_eq!(tb.applied().stats().mispredictions, 0);
}

/// The leading CTA is one CTA, not its slot (the paper: "the CTA
/// containing the warp issuing the load is set as the leading CTA"): a
/// CTA launched into the leading slot ends the DIST entry's leading-CTA
/// right, so the new CTA's trailing warps only verify (no job A for the
/// ended CTAs' entries), while its leading warp still gets job B.
#[test]
fn rule3_a_relaunched_leading_slot_creates_no_job_a() {
    let mut tb = Tb::new(&defaults(), 4);
    // CTA 1 registers its base; CTA 0 trains: job A for warp 1 (CTA 1).
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.drain();
    assert_eq!(tb.seq(), vec![(BASE_B + STRIDE, 1, 1)]);
    let d = tb.applied().dist_lookup(PC).unwrap();
    assert_eq!((d.lead_cta, d.lead_live), (0, true));
    // A new CTA in slot 0: its leading warp gets job B (warps 1..3).
    tb.edge(launch(0));
    let d = tb.applied().dist_lookup(PC).unwrap();
    assert_eq!((d.lead_cta, d.lead_live), (0, false));
    tb.ld(PC, 0, 0, &[BASE_C]);
    tb.drain();
    // Its trailing warp 2 verifies (right) but creates no job A: CTA 1's
    // warp 2 is not prefetched.
    tb.ld(PC, 0, 2, &[BASE_C + 2 * STRIDE]);
    tb.drain();
    let mut expected = vec![(BASE_B + STRIDE, 1, 1)];
    expected.extend((1..4).map(|w| (BASE_C + w * STRIDE, 0, w)));
    assert_eq!(tb.seq(), expected);
    let stats = tb.applied().stats();
    assert_eq!(
        (stats.jobs_a, stats.jobs_b, stats.mispredictions),
        (1, 1, 0)
    );
}

/// The launch and the load in flight: a load accepted at the edge before
/// a launch of its slot is applied first (an allocation it makes is ended
/// by that launch); a load accepted with the launch sees the right ended.
#[test]
fn rule3_leading_right_and_a_launch_in_the_pipeline() {
    // Training accepted at edge t, the slot launched at edge t + 1: the
    // training's own job A stands (it comes from rule 4), the entry starts
    // without the leading-CTA right.
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.edge(launch(0));
    let d = tb.applied().dist_lookup(PC).unwrap();
    assert_eq!((d.lead_cta, d.lead_live), (0, false));
    tb.drain();
    assert_eq!(tb.seq(), vec![(BASE_B + STRIDE, 1, 1)]);
    // A trailing load accepted at edge t, its slot launched at edge t + 1:
    // applied before the launch, it still creates job A.
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.drain();
    tb.ld(PC, 0, 2, &[BASE_A + 2 * STRIDE]);
    tb.edge(launch(0));
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![(BASE_B + STRIDE, 1, 1), (BASE_B + 2 * STRIDE, 1, 2)]
    );
    assert_eq!(tb.applied().stats().jobs_a, 2);
}
