//! Tests of the `caps_prefetcher` golden model: the spec's rules, timing and
//! scenarios, and properties over random stimulus.

use proptest::prelude::*;

use super::*;

const PC: u64 = 0x400;
const BASE_A: u64 = 0x1000_0000;
const BASE_B: u64 = 0x2000_0000;
const BASE_C: u64 = 0x3000_0000;
const STRIDE: u64 = 0x100;

/// A prefetch as seen on the port: `(addr, cta, warp)`.
type Pf = (u64, u64, u64);

/// Test bench: drives the model edge by edge, starting with one reset
/// edge, and records every prefetch transferred on `pf_*`.
///
/// Cycle `n` is the cycle after edge `n - 1` (the reset edge is not
/// counted); [`Tb::edge`] returns the number of the edge it applies,
/// which is also the number of the cycle whose inputs it uses.
struct Tb {
    m: CapsModel,
    cycle: u64,
    warps_per_cta: u64,
    pf_ready: bool,
    /// `(cycle, prefetch)` of every transfer.
    got: Vec<(u64, Pf)>,
}

impl Tb {
    fn new(params: &CapsParams, warps_per_cta: u64) -> Tb {
        let mut m = CapsModel::new(params);
        m.step(&CapsIn {
            reset: true,
            ..CapsIn::default()
        });
        Tb {
            m,
            cycle: 0,
            warps_per_cta,
            pf_ready: true,
            got: Vec::new(),
        }
    }

    /// One edge with `inputs` (`cfg_warps_per_cta` and `pf_ready` are
    /// the bench's); returns the edge number.
    fn edge(&mut self, inputs: CapsIn) -> u64 {
        let inputs = CapsIn {
            cfg_warps_per_cta: self.warps_per_cta,
            pf_ready: self.pf_ready,
            ..inputs
        };
        let out = self.m.outputs();
        if out.pf_valid && inputs.pf_ready && !inputs.reset {
            self.got
                .push((self.cycle, (out.pf_addr, out.pf_cta, out.pf_warp)));
        }
        self.m.step(&inputs);
        self.cycle += 1;
        self.cycle - 1
    }

    /// A load of `pc` by warp `warp` of CTA slot `cta` with these
    /// addresses (`ld_count` = their number).
    fn ld(&mut self, pc: u64, cta: u64, warp: u64, addrs: &[u64]) -> u64 {
        self.edge(load(pc, cta, warp, addrs))
    }

    fn idle(&mut self, edges: usize) {
        for _ in 0..edges {
            self.edge(CapsIn::default());
        }
    }

    /// Idle until no job is pending or running and the output queue is
    /// empty (at most 1000 edges).
    fn drain(&mut self) {
        for _ in 0..1000 {
            if self.m.jobs_pending() == 0 && self.m.generator().is_none() && self.m.pfq_len() == 0 {
                return;
            }
            self.idle(1);
        }
        panic!("the prefetcher does not drain");
    }

    /// The prefetches transferred so far, in order.
    fn seq(&self) -> Vec<Pf> {
        self.got.iter().map(|&(_, pf)| pf).collect()
    }

    /// The cycles of the transfers so far.
    fn cycles(&self) -> Vec<u64> {
        self.got.iter().map(|&(cycle, _)| cycle).collect()
    }
}

fn load(pc: u64, cta: u64, warp: u64, addrs: &[u64]) -> CapsIn {
    let mut ld_addr = [0; MAX_ADDR_PORTS];
    ld_addr[..addrs.len()].copy_from_slice(addrs);
    CapsIn {
        ld_valid: true,
        ld_pc: pc,
        ld_cta: cta,
        ld_warp: warp,
        ld_count: addrs.len() as u64,
        ld_addr,
        ..CapsIn::default()
    }
}

fn launch(slot: u64) -> CapsIn {
    CapsIn {
        cta_launch_valid: true,
        cta_launch_slot: slot,
        ..CapsIn::default()
    }
}

/// Address of warp `w` in the Figure 9 scenarios.
fn fig9(base: u64, w: u64) -> u64 {
    base + STRIDE * w
}

fn defaults() -> CapsParams {
    CapsParams::default()
}

// ----- the spec's scenarios -----

#[test]
fn scenario_fig9a() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[fig9(BASE_A, 0)]);
    tb.ld(PC, 1, 0, &[fig9(BASE_B, 0)]);
    tb.ld(PC, 2, 0, &[fig9(BASE_C, 0)]);
    assert!(tb.m.dist_entries().is_empty());
    let t = tb.ld(PC, 0, 1, &[fig9(BASE_A, 1)]);
    // A1 learnt the stride and created job A.
    let d = tb.m.dist_lookup(PC).expect("stride learnt");
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
    // First prefetch during the cycle after edge t + 2; the second job
    // is taken the edge after the first ends (t + 5), so its prefetches
    // come 3 cycles after the first job's last.
    assert_eq!(tb.cycles(), vec![t + 3, t + 4, t + 7, t + 8]);
    let s = tb.m.stats();
    assert_eq!((s.jobs_a, s.jobs_b, s.jobs_dropped), (2, 0, 0));
    assert_eq!((s.prefetches, s.trainings, s.mispredictions), (4, 1, 0));
    assert_eq!(s.invalidations, 0);
}

#[test]
fn scenario_fig9b() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[fig9(BASE_A, 0)]);
    tb.ld(PC, 0, 1, &[fig9(BASE_A, 1)]);
    // One idle cycle: job A (taken at the next edge) looks at the tables
    // before B0 is registered and finds no other CTA.
    tb.idle(1);
    let t = tb.ld(PC, 1, 0, &[fig9(BASE_B, 0)]);
    assert_eq!(tb.m.generator(), None, "job A ended with nothing");
    tb.ld(PC, 2, 0, &[fig9(BASE_C, 0)]);
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
    assert_eq!(tb.cycles(), vec![t + 3, t + 4, t + 7, t + 8]);
    let s = tb.m.stats();
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
        vec![t + 3, t + 4, t + 7, t + 8, t + 11, t + 12]
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
    tb.idle(2); // edges t+1, t+2: job taken, first push
    let head = tb.m.outputs();
    assert!(head.pf_valid);
    assert_eq!((head.pf_addr, head.pf_cta, head.pf_warp), expected[0]);
    for i in 0..20 {
        let out = tb.m.outputs();
        assert_eq!(out, head, "cycle {}", t + 3 + i);
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
    assert_eq!(tb.m.stats().prefetches, 14);
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
    let s = tb.m.stats();
    assert_eq!((s.jobs_a, s.jobs_dropped), (2, 3));
    assert_eq!(tb.seq(), job_a_prefetches(&[1, 3]));
}

#[test]
fn job_fifo_full_drops_depth_2() {
    // w1, w2, w3 pushed (w1 taken at w2's edge); w4, w5 dropped.
    let tb = job_fifo_run(2);
    let s = tb.m.stats();
    assert_eq!((s.jobs_a, s.jobs_dropped), (3, 2));
    assert_eq!(tb.seq(), job_a_prefetches(&[1, 2, 3]));
}

// ----- rule 4 -----

#[test]
fn rule4_non_power_of_two_distance_waits() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 3, &[BASE_A + 3 * 0x80]);
    tb.ld(PC, 0, 6, &[BASE_A + 0x1234]);
    tb.drain();
    assert!(tb.m.dist_entries().is_empty());
    assert_eq!(tb.m.percta_lookup(0, PC).unwrap().bases, vec![BASE_A]);
    assert_eq!(tb.m.stats(), CapsStats::default());
    // Warp 2 (distance 2) trains: stride 0x80.
    tb.ld(PC, 0, 2, &[BASE_A + 2 * 0x80]);
    tb.drain();
    assert_eq!(tb.m.dist_lookup(PC).unwrap().stride, 0x80);
    assert_eq!(tb.seq(), vec![(BASE_B + 2 * 0x80, 1, 2)]);
}

#[test]
fn rule4_non_divisible_diff_invalidates() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 2, &[BASE_A + 0x81]);
    assert_eq!(tb.m.percta_lookup(0, PC), None);
    assert!(tb.m.dist_entries().is_empty());
    assert_eq!(tb.m.stats().invalidations, 1);
    // Distance 4: low two bits of the difference must be zero.
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 4, &[BASE_A + 0x102]);
    assert_eq!(tb.m.percta_lookup(0, PC), None);
    assert_eq!(tb.m.stats().invalidations, 2);
    // The next load of the PC leads again.
    tb.ld(PC, 0, 2, &[BASE_A + 0x100]);
    assert_eq!(tb.m.percta_lookup(0, PC).unwrap().lead, 2);
    // A difference divisible by 4 but not by 8, at distance 4: fine.
    tb.ld(PC, 0, 6, &[BASE_A + 0x100 + 0x104]);
    assert_eq!(tb.m.dist_lookup(PC).unwrap().stride, 0x41);
}

#[test]
fn rule4_differing_strides_invalidate() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 1, &[BASE_A + 0x80, BASE_A + 0x1100]);
    assert_eq!(tb.m.percta_lookup(0, PC), None);
    assert!(tb.m.dist_entries().is_empty());
    assert_eq!(tb.m.stats().invalidations, 1);
    // Differing counts invalidate too, even at a non-power-of-two
    // distance.
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 3, &[BASE_A + 0x180]);
    assert_eq!(tb.m.percta_lookup(0, PC), None);
    assert_eq!(tb.m.stats().invalidations, 2);
    assert_eq!(tb.m.stats().jobs_a, 0);
}

#[test]
fn rule4_zero_stride_does_nothing() {
    let mut tb = Tb::new(&defaults(), 8);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 1, &[BASE_A, BASE_A + 0x1000]);
    tb.ld(PC, 0, 4, &[BASE_A, BASE_A + 0x1000]);
    tb.drain();
    assert!(tb.m.dist_entries().is_empty());
    let p = tb.m.percta_lookup(0, PC).unwrap();
    assert_eq!(
        (p.lead, p.bases.clone()),
        (0, vec![BASE_A, BASE_A + 0x1000])
    );
    assert_eq!(tb.m.stats(), CapsStats::default());
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
    assert_eq!(tb.m.dist_lookup(PC).unwrap().stride, 0x80);
    // Job A for warp 0 of CTA 1 (lead 5): base - 5 * 0x80.
    assert_eq!(tb.seq(), vec![(BASE_B - 5 * 0x80, 1, 0)]);

    // Lead warp 1, trailing warp 3: delta = 2, diff = -0x80, s = -0x40.
    let pc = PC + 4;
    tb.ld(pc, 0, 1, &[BASE_A]);
    tb.ld(pc, 0, 3, &[BASE_A - 0x80]);
    assert_eq!(tb.m.dist_lookup(pc).unwrap().stride, 0xffff_ffc0);
    // Lead warp 4, trailing warp 0: delta = -4, diff = +0x100,
    // s = -0x40.
    let pc = PC + 8;
    tb.ld(pc, 0, 4, &[BASE_A]);
    tb.ld(pc, 1, 0, &[BASE_B]);
    tb.ld(pc, 0, 0, &[BASE_A + 0x100]);
    tb.drain();
    assert_eq!(tb.m.dist_lookup(pc).unwrap().stride, 0xffff_ffc0);
    // For warp 0 of CTA 1 (lead 0): lead == w, not a candidate.
    assert_eq!(tb.m.stats().prefetches, 1);
    // Lead warp 3, trailing warp 2: delta = -1, diff = +0x40,
    // s = -0x40; CTA 1 (lead 0) gets warp 2 at base - 0x80.
    let pc = PC + 12;
    tb.ld(pc, 1, 0, &[BASE_B]);
    tb.ld(pc, 0, 3, &[BASE_A]);
    tb.ld(pc, 0, 2, &[BASE_A + 0x40]);
    tb.drain();
    assert_eq!(tb.m.dist_lookup(pc).unwrap().stride, 0xffff_ffc0);
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
    let cnt = |tb: &Tb| tb.m.dist_lookup(PC).unwrap().cnt;
    assert_eq!(cnt(&tb), 0);
    // Wrong: cnt 1 < 2, job A still created.
    tb.ld(PC, 0, 2, &[BASE_A + 0x999]);
    assert_eq!(cnt(&tb), 1);
    assert_eq!(tb.m.stats().jobs_a, 2);
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
    // A new CTA's leading warp: no job B either.
    tb.ld(PC, 2, 0, &[BASE_C]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![(BASE_B + STRIDE, 1, 1), (BASE_B + 2 * STRIDE, 1, 2)]
    );
    let s = tb.m.stats();
    assert_eq!((s.jobs_a, s.jobs_b, s.mispredictions), (2, 0, 5));
    assert!(tb.m.percta_lookup(2, PC).is_some());
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
    let cnt = |tb: &Tb| tb.m.dist_lookup(PC).unwrap().cnt;
    // Right at 0: stays 0 (saturating), job A.
    tb.ld(PC, 0, 2, &[BASE_A + 2 * STRIDE]);
    assert_eq!(cnt(&tb), 0);
    // Two wrong: 2 = the threshold, no job.
    tb.ld(PC, 0, 3, &[BASE_A + 0x999]);
    tb.ld(PC, 0, 4, &[BASE_A + 0x999]);
    assert_eq!(cnt(&tb), 2);
    let jobs = tb.m.stats().jobs_a;
    // Right: 2 -> 1 < 2 after the verify step: job A again.
    tb.ld(PC, 0, 5, &[BASE_A + 5 * STRIDE]);
    assert_eq!(cnt(&tb), 1);
    assert_eq!(tb.m.stats().jobs_a, jobs + 1);
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
            tb.m.stats().jobs_b,
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
    assert_eq!(tb.m.stats().jobs_b, 0);
}

#[test]
fn rule3_only_the_training_cta_triggers() {
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 1, 1, &[BASE_B + STRIDE]);
    assert_eq!(tb.m.dist_lookup(PC).unwrap().lead_cta, 1);
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
    assert_eq!(tb.m.stats().mispredictions, 0);
}

// ----- multi-address and ineligible loads -----

#[test]
fn multi_address_job_a() {
    for n in 2..=4u64 {
        let mut tb = Tb::new(&defaults(), 4);
        let addrs = |base: u64, w: u64| -> Vec<u64> {
            (0..n).map(|k| base + k * 0x1000 + w * 0x80).collect()
        };
        tb.ld(PC, 1, 0, &addrs(BASE_B, 0));
        tb.ld(PC, 2, 1, &addrs(BASE_C, 1));
        tb.ld(PC, 0, 0, &addrs(BASE_A, 0));
        let t = tb.ld(PC, 0, 2, &addrs(BASE_A, 2));
        tb.drain();
        let mut expected = addrs(BASE_B, 2)
            .into_iter()
            .map(|a| (a, 1, 2))
            .collect::<Vec<_>>();
        expected.extend(addrs(BASE_C, 2).into_iter().map(|a| (a, 2, 2)));
        assert_eq!(tb.seq(), expected, "n = {n}");
        let cycles: Vec<u64> = (t + 3..t + 3 + 2 * n).collect();
        assert_eq!(tb.cycles(), cycles, "n = {n}");
    }
}

#[test]
fn multi_address_job_b() {
    let mut tb = Tb::new(&defaults(), 3);
    let addrs =
        |base: u64, w: u64| -> Vec<u64> { (0..3).map(|k| base + k * 0x1000 + w * 0x80).collect() };
    tb.ld(PC, 0, 0, &addrs(BASE_A, 0));
    tb.ld(PC, 0, 1, &addrs(BASE_A, 1));
    tb.drain();
    let t = tb.ld(PC, 1, 1, &addrs(BASE_B, 1));
    tb.drain();
    let mut expected = Vec::new();
    for w in [0, 2] {
        expected.extend(addrs(BASE_B, w).into_iter().map(|a| (a, 1, w)));
    }
    assert_eq!(tb.seq(), expected);
    let cycles: Vec<u64> = (t + 3..t + 9).collect();
    assert_eq!(tb.cycles(), cycles);
}

#[test]
fn ineligible_loads_change_nothing() {
    let params = CapsParams {
        MAX_ADDRS: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    // Too many requests, none, indirect: no entry is allocated.
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x80, BASE_A + 0x100]);
    tb.edge(CapsIn {
        ld_count: 0,
        ..load(PC, 0, 0, &[BASE_A])
    });
    tb.edge(CapsIn {
        ld_indirect: true,
        ..load(PC, 0, 0, &[BASE_A])
    });
    tb.edge(CapsIn {
        ld_count: 40,
        ..load(PC, 0, 0, &[BASE_A])
    });
    assert!(tb.m.percta_entries(0).is_empty());
    // Registered, then ineligible trailing loads neither train nor
    // invalidate, and an ineligible leading load does not rewrite.
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    let before = tb.m.percta_entries(0);
    tb.ld(PC, 0, 1, &[BASE_A + 0x80, BASE_A + 0x1080, BASE_A + 0x2080]);
    tb.edge(CapsIn {
        ld_indirect: true,
        ..load(PC, 0, 1, &[BASE_A + 0x80, BASE_A + 0x1080])
    });
    tb.edge(CapsIn {
        ld_indirect: true,
        ..load(PC, 0, 0, &[BASE_A + 8])
    });
    assert_eq!(tb.m.percta_entries(0), before);
    assert!(tb.m.dist_entries().is_empty());
    assert_eq!(tb.m.stats(), CapsStats::default());

    // With MAX_ADDRS = 4, five requests are too many.
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 0, 0, &[BASE_A; 4]);
    tb.edge(CapsIn {
        ld_count: 5,
        ..load(PC, 0, 1, &[BASE_A + 0x80; 4])
    });
    assert!(tb.m.dist_entries().is_empty());
    assert_eq!(tb.m.percta_lookup(0, PC).unwrap().bases.len(), 4);
}

// ----- CTA launch -----

#[test]
fn cta_launch_clears_slot() {
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC + 4, 1, 2, &[BASE_B + 0x40]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    assert_eq!(tb.m.percta_entries(1).len(), 2);
    tb.edge(launch(1));
    assert!(tb.m.percta_entries(1).is_empty());
    assert_eq!(tb.m.percta_entries(0).len(), 1);
    // Job A no longer finds CTA 1.
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.drain();
    assert!(tb.seq().is_empty());
    assert_eq!(tb.m.stats().trainings, 1);
}

#[test]
fn launch_and_load_same_slot_same_cycle() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC + 4, 1, 1, &[BASE_C]);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.drain();
    let already = tb.seq().len();
    // Without the launch this would be rule 3 for warp 2 of CTA 1; with
    // it, warp 2 leads the new CTA in entry 0: job B for warps 0, 1.
    let new_base = 0x5000_0000;
    let t = tb.edge(CapsIn {
        cta_launch_valid: true,
        cta_launch_slot: 1,
        ..load(PC, 1, 2, &[new_base])
    });
    let views = tb.m.percta_entries(1);
    assert_eq!(views.len(), 1);
    assert_eq!((views[0].index, views[0].lead), (0, 2));
    tb.drain();
    assert_eq!(
        tb.seq()[already..].to_vec(),
        vec![(new_base - 2 * STRIDE, 1, 0), (new_base - STRIDE, 1, 1)]
    );
    assert_eq!(tb.cycles()[already], t + 3);
}

// ----- replacement -----

#[test]
fn percta_least_recently_updated() {
    let params = CapsParams {
        PERCTA_ENTRIES: 2,
        ..defaults()
    };
    let (x, y, z, w) = (0x10, 0x20, 0x30, 0x40);
    let mut tb = Tb::new(&params, 8);
    tb.ld(x, 0, 0, &[BASE_A]);
    tb.ld(y, 0, 0, &[BASE_B]);
    assert_eq!(tb.m.percta_entry(0, 0).unwrap().rank, 1);
    // Rule 2 rewrite of x counts as an update: y is now the oldest.
    tb.ld(x, 0, 0, &[BASE_A + 8]);
    assert_eq!(tb.m.percta_entry(0, 0).unwrap().rank, 0);
    tb.ld(z, 0, 1, &[BASE_C]);
    let pcs = |tb: &Tb| {
        (0..2)
            .map(|e| tb.m.percta_entry(0, e).map(|v| v.pc))
            .collect::<Vec<_>>()
    };
    assert_eq!(pcs(&tb), vec![Some(x), Some(z)]);
    // Look-ups by trailing warps (rule 4 waiting, rule 3 verifying) do
    // not count: x stays the oldest.
    tb.ld(x, 0, 3, &[BASE_A + 8 + 0x300]);
    assert_eq!(tb.m.percta_entry(0, 0).unwrap().rank, 1);
    tb.ld(w, 0, 0, &[0x100]);
    assert_eq!(pcs(&tb), vec![Some(w), Some(z)]);
    // z (lead 1) trains; verifying z does not update it: z is replaced.
    tb.ld(z, 0, 2, &[BASE_C + 0x80]);
    tb.ld(z, 0, 3, &[BASE_C + 0x100]);
    tb.ld(x, 0, 5, &[BASE_A]);
    assert_eq!(pcs(&tb), vec![Some(w), Some(x)]);
    // Other slots have their own order.
    assert!(tb.m.percta_entries(1).is_empty());
}

#[test]
fn percta_invalidation_keeps_order_of_others() {
    let params = CapsParams {
        PERCTA_ENTRIES: 3,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    for pc in [0x10, 0x20, 0x30] {
        tb.ld(pc, 0, 0, &[BASE_A + pc]);
    }
    // 0x20 is not a striding load: invalidated.
    tb.ld(0x20, 0, 2, &[BASE_A + 0x21]);
    assert_eq!(tb.m.percta_entry(0, 1), None);
    assert_eq!(tb.m.percta_entry(0, 0).unwrap().rank, 1);
    assert_eq!(tb.m.percta_entry(0, 2).unwrap().rank, 0);
    // The free entry is taken first, then the oldest (0x10).
    tb.ld(0x40, 0, 0, &[BASE_A]);
    tb.ld(0x50, 0, 0, &[BASE_A]);
    let pcs: Vec<u64> = tb.m.percta_entries(0).iter().map(|v| v.pc).collect();
    assert_eq!(pcs, vec![0x50, 0x40, 0x30]);
    let ranks: Vec<usize> = tb.m.percta_entries(0).iter().map(|v| v.rank).collect();
    assert_eq!(ranks, vec![0, 1, 2]);
}

#[test]
fn dist_lru_on_allocation() {
    let params = CapsParams {
        DIST_ENTRIES: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    let train = |tb: &mut Tb, pc: u64| {
        tb.ld(pc, 0, 0, &[BASE_A + pc]);
        tb.ld(pc, 0, 1, &[BASE_A + pc + 0x80]);
    };
    train(&mut tb, 0x10);
    train(&mut tb, 0x20);
    // Verifications and counter increments do not count as updates.
    tb.ld(0x10, 0, 2, &[BASE_A + 0x10 + 0x100]);
    tb.ld(0x10, 0, 3, &[0]);
    assert_eq!(tb.m.dist_lookup(0x10).unwrap().cnt, 1);
    train(&mut tb, 0x30);
    let pcs: Vec<(usize, u64)> =
        tb.m.dist_entries()
            .iter()
            .map(|d| (d.index, d.pc))
            .collect();
    assert_eq!(pcs, vec![(0, 0x30), (1, 0x20)]);
    train(&mut tb, 0x40);
    let pcs: Vec<(usize, u64, usize)> =
        tb.m.dist_entries()
            .iter()
            .map(|d| (d.index, d.pc, d.rank))
            .collect();
    assert_eq!(pcs, vec![(0, 0x30, 1), (1, 0x40, 0)]);
    assert_eq!(tb.m.stats().trainings, 4);
}

// ----- generator timing -----

#[test]
fn job_a_skips_scattered_slots_without_gaps() {
    let mut tb = Tb::new(&defaults(), 8);
    let base = |c: u64| 0x1000_0000 * (c + 1);
    for c in [1, 5, 7] {
        tb.ld(PC, c, 0, &[base(c)]);
    }
    tb.ld(PC, 3, 1, &[base(3)]); // lead 1: skipped for warp 1
    tb.ld(PC, 0, 0, &[base(0)]);
    let t = tb.ld(PC, 0, 1, &[base(0) + 0x80]);
    assert_eq!(tb.m.generator(), None);
    tb.ld(PC, 0, 2, &[base(0) + 0x100]);
    let g = tb.m.generator().unwrap();
    assert_eq!((g.pos, g.k), (0, 0));
    tb.idle(1); // edge t+2: first push
    assert_eq!(tb.m.generator().unwrap().pos, 2);
    tb.idle(2); // edges t+3, t+4
    assert_eq!(tb.m.generator().unwrap().pos, 8);
    tb.idle(1); // edge t+5: job ends
    assert_eq!(tb.m.generator(), None);
    assert_eq!(tb.m.jobs_pending(), 1);
    tb.idle(1); // edge t+6: next job taken
    assert!(tb.m.generator().is_some());
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (base(1) + 0x80, 1, 1),
            (base(5) + 0x80, 5, 1),
            (base(7) + 0x80, 7, 1),
            (base(1) + 0x100, 1, 2),
            (base(3) + 0x80, 3, 2),
            (base(5) + 0x100, 5, 2),
            (base(7) + 0x100, 7, 2),
        ]
    );
    assert_eq!(
        tb.cycles(),
        vec![t + 3, t + 4, t + 5, t + 8, t + 9, t + 10, t + 11]
    );
}

#[test]
fn job_b_skips_leading_warp_without_gap() {
    for lead in 0..4u64 {
        let mut tb = Tb::new(&defaults(), 4);
        tb.ld(PC, 0, 0, &[BASE_A]);
        tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
        tb.drain();
        let t = tb.ld(PC, 1, lead, &[BASE_B]);
        tb.drain();
        let expected: Vec<Pf> = (0..4)
            .filter(|&w| w != lead)
            .map(|w| ((BASE_B + w * STRIDE).wrapping_sub(lead * STRIDE), 1, w))
            .collect();
        assert_eq!(tb.seq(), expected, "lead {lead}");
        assert_eq!(tb.cycles(), vec![t + 3, t + 4, t + 5], "lead {lead}");
        // The job ended at edge t + 5 at the latest.
        assert_eq!(tb.cycle, t + 6);
    }
}

#[test]
fn job_b_reads_current_tables() {
    // The first spec's rule 2 (no job B when the leading warp rewrites):
    // the running job B reads the rewritten bases.
    let params = CapsParams {
        LOOP_JOBS: 0,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    let two = |base: u64, w: u64| [base + w * 0x80, base + 0x1000 + w * 0x80];
    tb.ld(PC, 0, 0, &two(BASE_A, 0));
    tb.ld(PC, 0, 1, &two(BASE_A, 1));
    tb.drain();
    let t = tb.ld(PC, 1, 0, &two(BASE_B, 0));
    tb.idle(1); // t+1: job B taken
                // t+2: (w1, k0) pushed from n = 2; the leading warp rewrites with
                // one address at the same edge.
    let moved = BASE_B + 0x10;
    tb.ld(PC, 1, 0, &[moved]);
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((1, 1)));
    // t+3: k = 1 >= n = 1: no prefetch, the cursor moves on.
    tb.idle(1);
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (BASE_B + 0x80, 1, 1),
            (moved + 2 * 0x80, 1, 2),
            (moved + 3 * 0x80, 1, 3)
        ]
    );
    assert_eq!(tb.cycles(), vec![t + 3, t + 5, t + 6]);
}

#[test]
fn job_b_skip_and_end_do_not_wait_for_the_queue() {
    let params = CapsParams {
        PFQ_DEPTH: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 3);
    let two = |base: u64, w: u64| [base + w * 0x80, base + 0x1000 + w * 0x80];
    tb.ld(PC, 0, 0, &two(BASE_A, 0));
    tb.ld(PC, 0, 1, &two(BASE_A, 1));
    tb.drain();
    tb.pf_ready = false;
    tb.ld(PC, 1, 0, &two(BASE_B, 0));
    tb.idle(1); // job taken
    tb.ld(PC, 1, 0, &[BASE_B]); // first push; rewrite n = 1
    assert_eq!(tb.m.pfq_len(), 1);
    tb.idle(1); // skip with a full queue
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    tb.idle(3); // stall on (w2, k0)
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    // The CTA is relaunched: the job ends although the queue is full.
    tb.edge(launch(1));
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    tb.idle(1);
    assert_eq!(tb.m.generator(), None);
    assert_eq!(tb.m.pfq_len(), 1);
    tb.pf_ready = true;
    tb.drain();
    assert_eq!(tb.seq(), vec![(BASE_B + 0x80, 1, 1)]);
}

// ----- reset and widths -----

#[test]
fn reset_clears_everything() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.pf_ready = false;
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 2, 0, &[BASE_C]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC, 0, 2, &[BASE_A + 2 * STRIDE]);
    tb.ld(PC, 1, 1, &[BASE_B + STRIDE]);
    tb.idle(1);
    assert!(tb.m.outputs().pf_valid);
    let stats = tb.m.stats();
    // A reset with a launch and a load: both ignored.
    tb.edge(CapsIn {
        reset: true,
        cta_launch_valid: true,
        cta_launch_slot: 2,
        ..load(PC, 2, 1, &[BASE_C + STRIDE])
    });
    assert_eq!(tb.m.outputs(), CapsOut::default());
    assert_eq!(tb.m.pfq_len(), 0);
    assert_eq!(tb.m.jobs_pending(), 0);
    assert_eq!(tb.m.generator(), None);
    assert!(tb.m.dist_entries().is_empty());
    for c in 0..8 {
        assert!(tb.m.percta_entries(c).is_empty());
    }
    assert_eq!(tb.m.stats(), stats, "statistics survive reset");
    // Everything starts again from empty.
    tb.pf_ready = true;
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    assert_eq!(tb.m.percta_lookup(0, PC).unwrap().lead, 1);
}

#[test]
fn narrow_addresses_and_pcs_wrap() {
    let params = CapsParams {
        ADDR_W: 8,
        PC_W: 4,
        WARP_IDX_W: 3,
        N_CTA: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    // PC 0x13 and 0x3 are the same load; addresses wrap at 256.
    tb.ld(0x13, 0, 0, &[0xf0]);
    tb.ld(0x3, 0, 1, &[0x110]);
    let d = tb.m.dist_lookup(0x3).unwrap();
    assert_eq!((d.pc, d.stride), (0x3, 0x20));
    tb.drain();
    // Slot bits above clog2(N_CTA) and warp bits above WARP_IDX_W are
    // dropped: CTA 3 is slot 1, warp 8 is warp 0.
    let t = tb.ld(0x3, 3, 8, &[0x1e0]);
    assert_eq!(tb.m.percta_lookup(1, 3).unwrap().lead, 0);
    tb.drain();
    assert_eq!(tb.seq(), vec![(0x00, 1, 1), (0x20, 1, 2), (0x40, 1, 3)]);
    assert_eq!(tb.cycles()[0], t + 3);
    // A negative stride of 8 bits: -0x10 = 0xf0.
    tb.ld(0x5, 0, 2, &[0x08]);
    tb.ld(0x5, 0, 0, &[0x28]);
    assert_eq!(tb.m.dist_lookup(0x5).unwrap().stride, 0xf0);
}

#[test]
fn full_width_addresses() {
    let params = CapsParams {
        ADDR_W: 64,
        PC_W: 64,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 3);
    let top = 0xffff_ffff_ffff_ff00;
    tb.ld(u64::MAX, 0, 0, &[top]);
    tb.ld(u64::MAX, 0, 2, &[top + 0x40]);
    assert_eq!(tb.m.dist_lookup(u64::MAX).unwrap().stride, 0x20);
    tb.ld(u64::MAX, 1, 2, &[0x10]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x10u64.wrapping_sub(0x40), 1, 0),
            (0x10u64.wrapping_sub(0x20), 1, 1)
        ]
    );
}

#[test]
#[should_panic(expected = "N_CTA")]
fn rejects_invalid_params() {
    let _ = CapsModel::new(&CapsParams {
        N_CTA: 6,
        ..defaults()
    });
}

// ----- property tests -----

fn small_params() -> impl Strategy<Value = CapsParams> {
    (
        (1u32..4, 1u64..5, 1u64..5, 1u64..5),
        (2u64..5, 1u64..5, any::<u16>(), 0u64..2, 0u64..2),
        (1u64..4, 1u64..5, any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                (cta_bits, percta, dist, max_addrs),
                (warp_w, cnt_w, thr, loop_jobs, cnt_decay),
                (jobq, pfq, narrow_addr, narrow_pc),
            )| {
                let cnt_max = (1u64 << cnt_w) - 1;
                CapsParams {
                    N_CTA: 1 << cta_bits,
                    PERCTA_ENTRIES: percta,
                    DIST_ENTRIES: dist,
                    MAX_ADDRS: max_addrs,
                    WARP_IDX_W: warp_w,
                    CNT_W: cnt_w,
                    MISPRED_THRESHOLD: 1 + thr as u64 % cnt_max,
                    LOOP_JOBS: loop_jobs,
                    CNT_DECAY: cnt_decay,
                    JOBQ_DEPTH: jobq,
                    PFQ_DEPTH: pfq,
                    ADDR_W: if narrow_addr { 16 } else { 32 },
                    PC_W: if narrow_pc { 2 } else { 32 },
                }
            },
        )
}

/// One cycle of stimulus, independent of the configuration.
#[derive(Clone, Debug)]
struct Cycle {
    reset: bool,
    launch: Option<u8>,
    ld: Option<Ld>,
    pf_ready: bool,
}

#[derive(Clone, Debug)]
struct Ld {
    pc: u8,
    cta: u8,
    warp: u8,
    count: u8,
    iteration: u8,
    noise: Option<u64>,
    indirect: bool,
}

fn cycles(max_len: usize) -> impl Strategy<Value = Vec<Cycle>> {
    let ld = (
        (0u8..3, any::<u8>(), any::<u8>(), 0u8..100),
        (0u8..3, 0u8..100, any::<u64>(), 0u8..100),
    )
        .prop_map(
            |((pc, cta, warp, count), (iteration, noisy, noise, ind))| Ld {
                pc,
                cta,
                warp,
                count: match count {
                    0..=2 => 0,
                    3..=5 => 5,
                    6..=7 => 40,
                    8..=59 => 1,
                    60..=79 => 2,
                    80..=89 => 3,
                    _ => 4,
                },
                iteration,
                noise: (noisy < 10).then_some(noise),
                indirect: ind < 5,
            },
        );
    let cycle = (
        0u16..1000,
        0u8..100,
        any::<u8>(),
        0u8..100,
        proptest::option::weighted(0.6, ld),
    )
        .prop_map(|(r, l, slot, ready, ld)| Cycle {
            reset: r < 4,
            launch: (l < 3).then_some(slot),
            ld,
            pf_ready: ready < 60,
        });
    proptest::collection::vec(cycle, 1..max_len)
}

/// Per-PC strides: positive, negative, large (PC 2 is a broadcast load,
/// stride 0, in its iteration 0).
const STRIDES: [u64; 3] = [0x80, 0xffff_ffc0, 0x200];

fn to_inputs(p: &CapsParams, warps_per_cta: u64, c: &Cycle) -> CapsIn {
    let mut inputs = CapsIn {
        reset: c.reset,
        cfg_warps_per_cta: warps_per_cta,
        pf_ready: c.pf_ready,
        ..CapsIn::default()
    };
    if let Some(slot) = c.launch {
        inputs.cta_launch_valid = true;
        inputs.cta_launch_slot = slot as u64 % p.N_CTA;
    }
    if let Some(ld) = &c.ld {
        let cta = ld.cta as u64 % p.N_CTA;
        // Mostly warps of the kernel, sometimes any warp index.
        let warp = if ld.warp < 240 {
            ld.warp as u64 % warps_per_cta
        } else {
            ld.warp as u64
        };
        let pc = 0x100 + 4 * ld.pc as u64;
        let stride = if ld.pc == 2 && ld.iteration == 0 {
            0
        } else {
            STRIDES[ld.pc as usize]
        };
        let base = 0x1000_0000 * (ld.pc as u64 + 1) + 0x10_0000 * cta + 0x20 * ld.iteration as u64;
        let mut ld_addr = [0u64; MAX_ADDR_PORTS];
        for (k, a) in ld_addr.iter_mut().enumerate() {
            *a = base
                .wrapping_add(warp.wrapping_mul(stride))
                .wrapping_add(0x1000 * k as u64);
        }
        if let Some(noise) = ld.noise {
            ld_addr[(noise % MAX_ADDR_PORTS as u64) as usize] ^= noise >> 8;
        }
        inputs.ld_valid = true;
        inputs.ld_pc = pc;
        inputs.ld_cta = cta;
        inputs.ld_warp = warp;
        inputs.ld_count = ld.count as u64;
        inputs.ld_addr = ld_addr;
        inputs.ld_indirect = ld.indirect;
    }
    inputs
}

fn check_invariants(p: &CapsParams, warps: u64, stimulus: &[Cycle]) -> Result<(), TestCaseError> {
    let mut m = CapsModel::new(p);
    let n_cta = p.N_CTA;
    let warp_limit = 1u64 << p.WARP_IDX_W;
    let warps_per_cta = 1 + warps % (warp_limit - 1);
    let addr_mask = mask(p.ADDR_W as u32);
    m.step(&CapsIn {
        reset: true,
        ..CapsIn::default()
    });
    prop_assert_eq!(m.outputs(), CapsOut::default());
    let mut transfers = 0u64;
    let mut discarded = 0u64;
    let mut previous: Option<(CapsOut, CapsIn)> = None;
    for (cycle, c) in stimulus.iter().enumerate() {
        let inputs = to_inputs(p, warps_per_cta, c);
        let out = m.outputs();
        let ctx = format!("cycle {cycle}, inputs {inputs:?}, outputs {out:?}");

        // Outputs: the head of the queue, or all zero.
        prop_assert_eq!(out.pf_valid, m.pfq_len() > 0, "{}", ctx);
        if !out.pf_valid {
            prop_assert_eq!(out, CapsOut::default(), "{}", ctx);
        }
        prop_assert!(out.pf_cta < n_cta, "{}", ctx);
        prop_assert!(out.pf_warp < warp_limit, "{}", ctx);
        prop_assert!(out.pf_addr <= addr_mask, "{}", ctx);
        // A refused prefetch stays on the port.
        if let Some((prev_out, prev_in)) = &previous {
            if prev_out.pf_valid && !prev_in.pf_ready && !prev_in.reset {
                prop_assert_eq!(out, *prev_out, "{}", ctx);
            }
        }
        prop_assert!(m.pfq_len() <= p.PFQ_DEPTH as usize, "{}", ctx);
        prop_assert!(m.jobs_pending() <= p.JOBQ_DEPTH as usize, "{}", ctx);
        for pf in m.pfq_entries() {
            prop_assert!(pf.cta < n_cta, "{} {:?}", ctx, pf);
            prop_assert!(pf.addr <= addr_mask, "{} {:?}", ctx, pf);
            match pf.kind {
                JobKind::A => prop_assert!(pf.warp < warp_limit, "{} {:?}", ctx, pf),
                JobKind::B => prop_assert!(pf.warp < warps_per_cta, "{} {:?}", ctx, pf),
            }
        }
        // One entry per PC in each table.
        for slot in 0..n_cta as usize {
            let views = m.percta_entries(slot);
            for (i, v) in views.iter().enumerate() {
                prop_assert!(views[i + 1..].iter().all(|o| o.pc != v.pc), "{}", ctx);
                prop_assert!(!v.bases.is_empty() && v.bases.len() <= p.MAX_ADDRS as usize);
            }
        }
        let dist = m.dist_entries();
        for (i, d) in dist.iter().enumerate() {
            prop_assert!(dist[i + 1..].iter().all(|o| o.pc != d.pc), "{}", ctx);
            prop_assert!(d.cnt <= mask(p.CNT_W as u32), "{}", ctx);
            prop_assert!(d.stride != 0, "{}", ctx);
        }

        let job = m.generator().map(|g| g.job);
        let pushed_before = m.stats().prefetches;
        let pfq_before = m.pfq_len();
        if out.pf_valid && inputs.pf_ready && !inputs.reset {
            transfers += 1;
        }
        m.step(&inputs);

        if inputs.reset {
            discarded += pfq_before as u64;
            prop_assert_eq!(m.outputs(), CapsOut::default(), "{}", ctx);
            prop_assert_eq!(m.pfq_len(), 0);
            prop_assert_eq!(m.jobs_pending(), 0);
            prop_assert_eq!(m.generator(), None);
            prop_assert!(m.dist_entries().is_empty());
            for slot in 0..n_cta as usize {
                prop_assert!(m.percta_entries(slot).is_empty());
            }
        } else if m.stats().prefetches > pushed_before {
            // The prefetch just pushed belongs to the generator's job.
            let pf = *m.pfq_entries().last().unwrap();
            match job {
                Some(Job::A { warp, cta, .. }) => {
                    prop_assert_eq!(pf.kind, JobKind::A);
                    prop_assert_eq!(pf.warp, warp, "{}", ctx);
                    prop_assert!(pf.cta != cta && pf.cta < n_cta, "{}", ctx);
                }
                Some(Job::B { cta, .. }) => {
                    prop_assert_eq!(pf.kind, JobKind::B);
                    prop_assert_eq!(pf.cta, cta, "{}", ctx);
                }
                None => prop_assert!(false, "push while idle: {}", ctx),
            }
        }
        // Nothing is lost: every pushed prefetch was transferred, is
        // queued, or was discarded by a reset.
        prop_assert_eq!(
            m.stats().prefetches,
            transfers + discarded + m.pfq_len() as u64,
            "{}",
            ctx
        );
        previous = Some((out, inputs));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Refused prefetches hold, queues stay within their depths, job A
    /// targets stay in range, nothing is lost, and reset clears every
    /// output and all state.
    #[test]
    fn invariants_hold_on_random_stimulus(
        p in small_params(),
        warps in any::<u16>(),
        stimulus in cycles(400),
    ) {
        check_invariants(&p, warps as u64, &stimulus)?;
    }
}

/// The random stimulus does exercise the interesting paths.
#[test]
fn random_stimulus_reaches_prefetches() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut total = CapsStats::default();
    for _ in 0..32 {
        let stimulus = cycles(400).new_tree(&mut runner).unwrap().current();
        let p = defaults();
        let mut m = CapsModel::new(&p);
        for c in &stimulus {
            m.step(&to_inputs(&p, 8, c));
        }
        let s = m.stats();
        total.jobs_a += s.jobs_a;
        total.jobs_b += s.jobs_b;
        total.jobs_dropped += s.jobs_dropped;
        total.prefetches += s.prefetches;
        total.mispredictions += s.mispredictions;
        total.trainings += s.trainings;
        total.invalidations += s.invalidations;
        total.loop_jobs += s.loop_jobs;
    }
    assert!(total.loop_jobs > 0, "{total:?}");
    assert!(total.jobs_a > 0 && total.jobs_b > 0, "{total:?}");
    assert!(
        total.jobs_dropped > 0 && total.prefetches > 100,
        "{total:?}"
    );
    assert!(total.mispredictions > 0 && total.trainings > 0, "{total:?}");
    assert!(total.invalidations > 0, "{total:?}");
}
