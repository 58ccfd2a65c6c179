//! `caps_prefetcher`'s own co-simulation tests: the Figure 9 scenarios
//! against the paper's prefetch sequences, and a check that the random
//! stimulus really exercises CAPS. The random co-simulation of every suite
//! configuration is in `every_unit_cosim.rs`.

mod common;
use common::verilator;

use cosim::caps::{figure9, CapsRandom};
use cosim::stimulus::Stimulus;
use cosim::{backend_factory, BackendKind};
use golden::caps::CapsModel;
use golden::GoldenModel;
use ports::caps::{CapsOut, CapsParams, CapsPrefetcher};
use ports::UnitSpec;

/// The suite's configurations of this unit
/// (`cosim::CosimUnit::suite`, shared with `warpgen prove --all-configs`).
fn configs() -> Vec<CapsParams> {
    <CapsPrefetcher as cosim::CosimUnit>::suite()
}

/// Prefetches (addr, cta, warp) in the order the RTL offered them, with
/// the cycle each first appeared.
fn prefetches(kind: BackendKind, order: &[(u64, u64)], gap: usize) -> Vec<(u64, u64, u64)> {
    let (p, seq) = figure9(order, gap);
    let factory = backend_factory::<CapsPrefetcher>(kind, &p, Some(1), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut o = vec![0u64; 4];
    let mut got = Vec::new();
    for inp in &seq {
        rtl.cycle(&CapsPrefetcher::in_values(&p, inp), &mut o);
        let out: CapsOut = CapsPrefetcher::out_from_values(&p, &o);
        // Outputs during a reset cycle are the power-up state (random under
        // Verilator's `--x-initial unique`): not part of the behaviour.
        // pf_ready is 1 throughout: each valid cycle is one transfer.
        if !inp.reset && out.pf_valid {
            got.push((out.pf_addr, out.pf_cta, out.pf_warp));
        }
    }
    got
}

fn figure9_on(kind: BackendKind) {
    let b = 0x2000_0000u64;
    let c = 0x3000_0000u64;
    // (a) A0, B0, C0, A1, A2: after A1: B1, C1; after A2: B2, C2.
    assert_eq!(
        prefetches(kind, &[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)], 8),
        vec![
            (b + 0x100, 1, 1),
            (c + 0x100, 2, 1),
            (b + 0x200, 1, 2),
            (c + 0x200, 2, 2)
        ]
    );
    // (b) A0, A1, B0, C0: A1 trains (nothing); B0: B1, B2; C0: C1, C2.
    assert_eq!(
        prefetches(kind, &[(0, 0), (0, 1), (1, 0), (2, 0)], 8),
        vec![
            (b + 0x100, 1, 1),
            (b + 0x200, 1, 2),
            (c + 0x100, 2, 1),
            (c + 0x200, 2, 2)
        ]
    );
}

#[test]
fn figure9_scenarios_rusthdl() {
    figure9_on(BackendKind::RustHdl);
}

#[test]
fn figure9_scenarios_verilator() {
    if verilator() {
        figure9_on(BackendKind::Verilator);
    }
}

/// The random stimulus must reach the situations that matter, or a passing
/// co-simulation proves little.
#[test]
fn random_stimulus_exercises_every_mechanism() {
    for p in configs() {
        let mut stim = CapsRandom::new(&p, 300);
        let mut m = CapsModel::new(&p);
        let mut last = CapsOut::default();
        let (mut stalled, mut transfers) = (0u64, 0u64);
        for c in 0..100_000 {
            let i = stim.next(c, &last);
            let o = m.outputs();
            if o.pf_valid && !i.pf_ready {
                stalled += 1;
            }
            if o.pf_valid && i.pf_ready {
                transfers += 1;
            }
            m.step(&i);
            last = o;
        }
        let s = m.stats();
        assert!(transfers > 1_000, "{p:?}: {transfers} prefetches");
        assert!(stalled > 100, "back-pressure: {stalled}");
        assert!(s.jobs_a > 10 && s.jobs_b > 10, "{s:?}");
        assert!(s.jobs_dropped > 0, "{s:?}");
        assert!(s.mispredictions > p.MISPRED_THRESHOLD, "{s:?}");
        assert!(s.trainings > 0 && s.invalidations > 0, "{s:?}");
        // The revisions are exercised where they are on.
        assert_eq!(s.loop_jobs > 10, p.LOOP_JOBS == 1, "{s:?}");
        assert_eq!(s.decays > 10, p.CNT_DECAY == 1, "{s:?}");
    }
}
