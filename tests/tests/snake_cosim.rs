//! `snake_prefetcher`'s own co-simulation tests: the spec's scenario as an
//! exact prefetch sequence, a check that the random stimulus reaches every
//! rule, and a planted bug the co-simulation must catch. The random
//! co-simulation and the lint of every suite configuration are in
//! `every_unit_cosim.rs`.

mod common;
use common::verilator;

use cosim::snake::{figure15, revision2_scenario, SnakeRandom};
use cosim::stimulus::Stimulus;
use cosim::{backend_factory, BackendKind};
use golden::snake::{Phase, SnakeModel};
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
    rtl_prefetches(kind, &p, &seq)
        .into_iter()
        .map(|(c, a, w, k, _)| (c, a, w, k))
        .collect()
}

/// Every prefetch the RTL offers on `seq`: (cycle index, addr, warp, kind,
/// span).
fn rtl_prefetches(
    kind: BackendKind,
    p: &SnakeParams,
    seq: &[SnakeIn],
) -> Vec<(usize, u64, u64, u64, u64)> {
    let factory = backend_factory::<SnakePrefetcher>(kind, p, Some(1), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut o = vec![0u64; SnakePrefetcher::outputs(p).len()];
    let mut got = Vec::new();
    for (c, inp) in seq.iter().enumerate() {
        rtl.cycle(&SnakePrefetcher::in_values(p, inp), &mut o);
        let out: SnakeOut = SnakePrefetcher::out_from_values(p, &o);
        // Outputs during a reset cycle are the power-up state.
        if !inp.reset && out.pf_valid {
            got.push((c, out.pf_addr, out.pf_warp, out.pf_kind, out.pf_span));
        }
    }
    got
}

fn scenario_on(kind: BackendKind) {
    for gap in [1usize, 6] {
        let got = scenario_prefetches(kind, gap);
        // W3's 0x520 is the seventh load, at sequence index 2 + 6 * gap:
        // its first prefetch is offered three cycles later (the load stage,
        // the walker's push, the offer): 0x1364 through the promoted link;
        // then warps 4..7 at the inter-warp stride 0x100, one per cycle
        // after one more for the output stage (issue 29 step 11).
        let t = 2 + 6 * gap;
        let want = vec![
            (t + 3, 0x1364, 3, kind::CHAIN),
            (t + 5, 0x1400, 4, kind::INTER_WARP),
            (t + 6, 0x1500, 5, kind::INTER_WARP),
            (t + 7, 0x1600, 6, kind::INTER_WARP),
            (t + 8, 0x1700, 7, kind::INTER_WARP),
        ];
        assert_eq!(got, want, "gap {gap}");
    }
}

/// The spec's revision-2 scenario on the RTL: the prefetch list derived by
/// hand in the unit's document, with its cycles (loads 10 cycles apart;
/// the first prefetch three cycles after a load whose first hop emits,
/// four after B1's, whose first hop is silent; an intra-warp prefetch one
/// cycle later for the output stage, issue 29 step 11).
fn revision2_scenario_on(kind: BackendKind) {
    let (p, seq) = revision2_scenario(10);
    let got = rtl_prefetches(kind, &p, &seq);
    // Load j (0 = A0) is at sequence index 2 + 10 j.
    let load = |j: usize| 2 + 10 * j;
    let (c, i) = (kind::CHAIN, kind::INTRA_WARP);
    let want = vec![
        (load(3) + 4, 0x9400, 0, c, 124),
        (load(4) + 3, 0x9400, 0, c, 124),
        (load(4) + 4, 0x8600, 0, c, 124),
        (load(5) + 3, 0x8600, 0, c, 124),
        (load(5) + 4, 0x9600, 0, c, 124),
        (load(6) + 3, 0x9600, 0, c, 124),
        (load(6) + 4, 0x8800, 0, c, 124),
        (load(6) + 6, 0x8A00, 0, i, 124),
        (load(6) + 7, 0x8C00, 0, i, 124),
        (load(6) + 8, 0x8E00, 0, i, 124),
        (load(7) + 3, 0x8800, 0, c, 124),
        (load(7) + 4, 0x9800, 0, c, 124),
        (load(7) + 6, 0x9A00, 0, i, 124),
        (load(7) + 7, 0x9C00, 0, i, 124),
        (load(7) + 8, 0x9E00, 0, i, 124),
    ];
    assert_eq!(got, want);
    // The same loads with the revision-1 values prefetch nothing.
    assert!(rtl_prefetches(kind, &p.revision1(), &seq).is_empty());
}

#[test]
fn revision2_scenario_rusthdl() {
    revision2_scenario_on(BackendKind::RustHdl);
}

#[test]
fn revision2_scenario_verilator() {
    if verilator() {
        revision2_scenario_on(BackendKind::Verilator);
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
        // Revision 2: intra-warp prefetches by iteration k, jobs whose
        // inter-warp prefetches stopped at the CTA's end, spans seen.
        let mut intra_k = [0u64; 16];
        let (mut cut, mut span_max, mut span_zero) = (0u64, 0u64, 0u64);
        for c in 0..100_000 {
            let i = stim.next(c, &last);
            let o = m.outputs();
            let before = m.stats();
            let walker = m.walker();
            let job = m.walk_queue().first().copied();
            if i.ld_valid && i.ld_uniform {
                span_max = span_max.max(i.ld_span);
                span_zero += u64::from(i.ld_span == 0);
            }
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
            let after = m.stats();
            if after.prefetches_intra > before.prefetches_intra {
                let k = if walker.phase == Phase::Intra {
                    walker.k
                } else {
                    1
                };
                intra_k[k as usize] += 1;
            }
            if let Some(job) = job.filter(|_| after.jobs_completed > before.jobs_completed) {
                let k = if walker.phase == Phase::Inter {
                    walker.k
                } else {
                    1
                };
                let target = job.warp + k;
                let iw = m.per_pc(job.pc).is_some_and(|f| f.iw_cnt >= 2);
                if iw && k <= p.IW_DEGREE && target < p.N_WARPS && target >= job.end {
                    cut += 1;
                }
            }
        }
        let s = m.stats();
        let ctx = format!("{p:?}: {s:?}");
        if p.OWN_LINKS == 1 {
            assert!(s.links_trained > 10, "own-link training: {ctx}");
            assert!(s.silent_hops > 100, "silent hops (loop closing): {ctx}");
        }
        for k in 1..=p.INTRA_DEGREE as usize {
            assert!(
                intra_k[k] > 5,
                "intra-warp prefetch k = {k}: {intra_k:?} {ctx}"
            );
        }
        if p.IW_SAME_CTA == 1 {
            assert!(
                cut > 10,
                "inter-warp targets cut at ld_cta_end: {cut} {ctx}"
            );
        }
        assert!(
            span_max == 4095 && span_zero > 100,
            "spans: {span_max} {span_zero}"
        );
        assert!(s.promotions > 10, "promotion: {ctx}");
        assert!(s.bits_cleared > 10, "mismatch clearing: {ctx}");
        assert!(s.evictions > 10, "eviction: {ctx}");
        assert!(s.loops_closed > 10, "loop closing: {ctx}");
        assert!(s.prefetches_chain > 100, "chain prefetches: {ctx}");
        assert!(s.prefetches_inter > 50, "inter-warp prefetches: {ctx}");
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
