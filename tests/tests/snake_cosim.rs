//! `snake_prefetcher`'s own co-simulation tests: the spec's scenario as an
//! exact prefetch sequence, a check that the random stimulus reaches every
//! rule, and a planted bug the co-simulation must catch. The random
//! co-simulation and the lint of every suite configuration are in
//! `every_unit_cosim.rs`.

mod common;
use common::verilator;

use cosim::snake::{figure15, SnakeRandom};
use cosim::stimulus::Stimulus;
use cosim::{backend_factory, BackendKind};
use golden::snake::SnakeModel;
use golden::GoldenModel;
use ports::snake::{kind, SnakeIn, SnakeOut, SnakeParams, SnakePrefetcher};
use ports::UnitSpec;

/// The suite's configurations of this unit
/// (`cosim::CosimUnit::suite`, shared with `warpgen prove --all-configs`).
fn configs() -> Vec<SnakeParams> {
    <SnakePrefetcher as cosim::CosimUnit>::suite()
}

/// The prefetches the RTL offered in the scenario: (cycle index in the
/// sequence, addr, warp, kind); `pf_ready` is 1 throughout, so each valid
/// cycle is one transfer.
fn scenario_prefetches(kind: BackendKind, gap: usize) -> Vec<(usize, u64, u64, u64)> {
    let (p, seq) = figure15(gap);
    let factory = backend_factory::<SnakePrefetcher>(kind, &p, Some(1), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut o = vec![0u64; 5];
    let mut got = Vec::new();
    for (c, inp) in seq.iter().enumerate() {
        rtl.cycle(&SnakePrefetcher::in_values(&p, inp), &mut o);
        let out: SnakeOut = SnakePrefetcher::out_from_values(&p, &o);
        // Outputs during a reset cycle are the power-up state.
        if !inp.reset && out.pf_valid {
            got.push((c, out.pf_addr, out.pf_warp, out.pf_kind));
        }
    }
    got
}

fn scenario_on(kind: BackendKind) {
    for gap in [1usize, 6] {
        let got = scenario_prefetches(kind, gap);
        // W3's 0x520 is the seventh load, at sequence index 2 + 6 * gap:
        // its first prefetch is offered two cycles later, then one per
        // cycle: 0x1364 through the promoted link, then warps 4..7 at the
        // inter-warp stride 0x100.
        let t = 2 + 6 * gap;
        let want = vec![
            (t + 2, 0x1364, 3, kind::CHAIN),
            (t + 3, 0x1400, 4, kind::INTER_WARP),
            (t + 4, 0x1500, 5, kind::INTER_WARP),
            (t + 5, 0x1600, 6, kind::INTER_WARP),
            (t + 6, 0x1700, 7, kind::INTER_WARP),
        ];
        assert_eq!(got, want, "gap {gap}");
    }
}

#[test]
fn spec_scenario_rusthdl() {
    scenario_on(BackendKind::RustHdl);
}

#[test]
fn spec_scenario_verilator() {
    if verilator() {
        scenario_on(BackendKind::Verilator);
    }
}

/// The random stimulus must reach every rule, or a passing co-simulation
/// proves little.
#[test]
fn random_stimulus_reaches_every_rule() {
    for p in configs() {
        let mut stim = SnakeRandom::new(&p, 500);
        let mut m = SnakeModel::new(&p);
        let mut last = SnakeOut::default();
        let (mut full_halts, mut bw_halts, mut stalled) = (0u64, 0u64, 0u64);
        for c in 0..100_000 {
            let i = stim.next(c, &last);
            let o = m.outputs();
            if o.pf_valid && !i.pf_ready {
                stalled += 1;
            }
            if m.throttle_count() > 0 {
                full_halts += 1;
            }
            if m.bw_halt() {
                bw_halts += 1;
            }
            m.step(&i);
            last = o;
        }
        let s = m.stats();
        let ctx = format!("{p:?}: {s:?}");
        assert!(s.promotions > 10, "promotion: {ctx}");
        assert!(s.bits_cleared > 10, "mismatch clearing: {ctx}");
        assert!(s.evictions > 10, "eviction: {ctx}");
        assert!(s.loops_closed > 10, "loop closing: {ctx}");
        assert!(s.prefetches_chain > 100, "chain prefetches: {ctx}");
        assert!(s.prefetches_inter > 100, "inter-warp prefetches: {ctx}");
        assert!(s.prefetches_intra > 10, "intra-warp prefetches: {ctx}");
        assert!(
            s.jobs_dropped > 0 && s.jobs_discarded > 0,
            "queue rules: {ctx}"
        );
        assert!(s.loads_ignored > 100, "non-uniform loads: {ctx}");
        assert!(stalled > 100, "back-pressure: {stalled}");
        assert!(
            full_halts > 100 && bw_halts > 1000,
            "throttle triggers: {full_halts} {bw_halts}"
        );
    }
}

/// A golden model with a planted bug: the fourth inter-warp prefetch of a
/// walk (warp w + 4) is offered one line too far. The random co-simulation
/// must stop at the first such prefetch.
struct BrokenSnake(SnakeModel);

impl GoldenModel<SnakePrefetcher> for BrokenSnake {
    fn new(p: &SnakeParams) -> Self {
        BrokenSnake(SnakeModel::new(p))
    }
    fn outputs(&self) -> SnakeOut {
        let mut o = self.0.outputs();
        if o.pf_valid && o.pf_kind == kind::INTER_WARP && o.pf_warp % 4 == 3 {
            o.pf_addr = o.pf_addr.wrapping_add(128) & 0xffff_ffff;
        }
        o
    }
    fn step(&mut self, i: &SnakeIn) {
        self.0.step(i)
    }
}

#[test]
fn planted_bug_is_caught() {
    let p = SnakeParams::default();
    let m = common::planted_bug_mismatch::<SnakePrefetcher, BrokenSnake>(&p, 7, 100_000);
    assert_eq!(m.diffs.len(), 1, "{m}");
    assert_eq!(m.diffs[0].port, "pf_addr", "{m}");
    assert_eq!(
        m.diffs[0].expected,
        (m.diffs[0].actual + 128) & 0xffff_ffff,
        "{m}"
    );
}
