//! Properties over random stimulus on small configurations.

use proptest::prelude::*;

use super::bench::*;
use crate::caps::*;

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
        let pfq_before = m.pfq_len() + m.prefetches_in_flight();
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
            prop_assert_eq!(m.prefetches_in_flight(), 0);
            prop_assert!(m.dist_entries().is_empty());
            for slot in 0..n_cta as usize {
                prop_assert!(m.percta_entries(slot).is_empty());
            }
        } else if m.stats().prefetches > pushed_before {
            // The prefetch just produced belongs to the generator's job.
            let pf = m.prefetch_in_flight().expect("in the address stage");
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
        // Nothing is lost: every produced prefetch was transferred, is
        // queued or in an address stage, or was discarded by a reset.
        let in_flight = m.prefetches_in_flight() as u64;
        prop_assert!(m.pfq_len() as u64 + in_flight <= p.PFQ_DEPTH, "{}", ctx);
        prop_assert_eq!(
            m.stats().prefetches,
            transfers + discarded + m.pfq_len() as u64 + in_flight,
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
