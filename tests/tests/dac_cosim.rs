//! `dac_expander`'s own co-simulation tests: the spec's scenarios as exact
//! records on model and RTL, a check that the random stimulus reaches every
//! path, and a planted bug the co-simulation must catch. The random
//! co-simulation and the lint of every suite configuration are in
//! `every_unit_cosim.rs`.

mod common;
use common::verilator;

use cosim::dac::{guard_scenario, responses, spec_scenarios, DacRandom, Shape};
use cosim::stimulus::Stimulus;
use cosim::{backend_factory, BackendKind};
use golden::dac::DacModel;
use golden::GoldenModel;
use ports::dac::{cmp, gran, kind, DacExpander, DacIn, DacOut, DacParams};
use ports::UnitSpec;

/// The suite's configurations of this unit
/// (`cosim::CosimUnit::suite`, shared with `warpgen prove --all-configs`).
fn configs() -> Vec<DacParams> {
    <DacExpander as cosim::CosimUnit>::suite()
}

/// The scenario's inputs on the RTL of `kind`: the outputs of every cycle.
fn rtl_outputs(kind: BackendKind, seq: &[DacIn]) -> Vec<DacOut> {
    let p = DacParams::default();
    let factory = backend_factory::<DacExpander>(kind, &p, Some(1), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut o = vec![0u64; DacExpander::outputs(&p).len()];
    seq.iter()
        .map(|i| {
            rtl.cycle(&DacExpander::in_values(&p, i), &mut o);
            DacExpander::out_from_values(&p, &o)
        })
        .collect()
}

fn model_outputs(seq: &[DacIn]) -> Vec<DacOut> {
    let mut m = DacModel::new(&DacParams::default());
    seq.iter()
        .map(|i| {
            let o = m.outputs();
            m.step(i);
            o
        })
        .collect()
}

fn scenarios_on(kind: Option<BackendKind>) {
    for (name, seq, want) in spec_scenarios() {
        let outs = match kind {
            Some(k) => rtl_outputs(k, &seq),
            None => model_outputs(&seq),
        };
        assert_eq!(responses(&seq, &outs), want, "{name} on {kind:?}");
    }
}

/// The contract's guard scenario (revision 2): the exact records and masks,
/// and one guard skip.
fn guard_scenario_on(kind: Option<BackendKind>) {
    let (name, seq, want) = guard_scenario();
    let outs = match kind {
        Some(k) => rtl_outputs(k, &seq),
        None => model_outputs(&seq),
    };
    assert_eq!(responses(&seq, &outs), want, "{name} on {kind:?}");
    let last = outs.last().unwrap();
    assert_eq!(last.stat_guard_skips, 1, "{name} on {kind:?}");
    // One early request per DATA record: lines 0x1000 and 0x1080.
    // (Outputs before the first reset edge are unknown on Verilator.)
    let lines: Vec<u64> = (1..seq.len())
        .filter(|&c| outs[c].mem_valid && seq[c].mem_ready)
        .map(|c| outs[c].mem_addr)
        .collect();
    assert_eq!(lines, vec![0x1000, 0x1080], "{name} on {kind:?}");
}

#[test]
fn guard_scenario_on_the_golden_model() {
    guard_scenario_on(None);
}

#[test]
fn guard_scenario_on_rusthdl() {
    guard_scenario_on(Some(BackendKind::RustHdl));
}

#[test]
fn guard_scenario_on_verilator() {
    if verilator() {
        guard_scenario_on(Some(BackendKind::Verilator));
    }
}

#[test]
fn spec_scenarios_on_the_golden_model() {
    scenarios_on(None);
}

#[test]
fn spec_scenarios_on_rusthdl() {
    scenarios_on(Some(BackendKind::RustHdl));
}

#[test]
fn spec_scenarios_on_verilator() {
    if verilator() {
        scenarios_on(Some(BackendKind::Verilator));
    }
}

/// A predicate tuple whose lanes wrap past the signed 32-bit minimum: lane
/// `t` is `0x8000_0010 - t`, so lanes 0..=16 are negative and lanes
/// 17..=31 wrap to large positive values. Against `GT 0x8000_0008` the
/// first and last lanes are both true but lanes 8..=16 are false, so only
/// the overflow test (`fits`, here a negative first lane and no carry out
/// of bit 31) keeps the tuple off the fast path, which would report every
/// lane. The random
/// stimulus does not reach this case (measured in session 47: a planted
/// bug in that branch passed every co-simulation), so it is pinned here.
fn wrapping_predicate_on(kind: Option<BackendKind>) {
    let cfg = DacIn {
        mem_ready: true,
        ..Shape { k: 5, threads: 32 }.cfg()
    };
    let mut seq = vec![DacIn { reset: true, ..cfg }; 2];
    seq.push(DacIn {
        cta_launch_valid: true,
        ..cfg
    });
    seq.push(DacIn {
        enq_valid: true,
        enq_kind: kind::PRED,
        enq_base: 0x8000_0010,
        enq_off_tx: 0xFFFF_FFFF,
        enq_gran: gran::WORD,
        enq_cmp: cmp::GT,
        enq_scalar: 0x8000_0008,
        ..cfg
    });
    seq.extend(std::iter::repeat_n(cfg, 40));
    seq.push(DacIn {
        deq_valid: true,
        deq_warp: 0,
        deq_kind: 1,
        ..cfg
    });
    seq.extend(std::iter::repeat_n(cfg, 4));
    let outs = match kind {
        Some(k) => rtl_outputs(k, &seq),
        None => model_outputs(&seq),
    };
    assert_eq!(
        responses(&seq, &outs),
        vec![(0, 0, 0xFFFE_00FF, false)],
        "wrapping predicate on {kind:?}"
    );
}

#[test]
fn wrapping_predicate_on_the_golden_model() {
    wrapping_predicate_on(None);
}

#[test]
fn wrapping_predicate_on_rusthdl() {
    wrapping_predicate_on(Some(BackendKind::RustHdl));
}

#[test]
fn wrapping_predicate_on_verilator() {
    if verilator() {
        wrapping_predicate_on(Some(BackendKind::Verilator));
    }
}

/// The random stimulus must reach every path, or a passing co-simulation
/// proves little: the tuple shapes the issue lists (1-D and 2-D blocks,
/// partial last warps, offsets of 1, 2, 4, 8, 128 and odd bytes, negative
/// offsets, all three access sizes, all six comparisons), and in the
/// model every rule: records and early requests, both predicate paths,
/// slow groups, stalls on a full queue and on the memory, reserved tuples,
/// tuples with no active slot, skipped warps, dequeue hits and misses, the
/// ATQ filling up, and resets; and guard masks (revision 2): guards
/// written, guarded warps with partial masks, with gaps, and with zero
/// masks (skipped).
#[test]
fn random_stimulus_reaches_every_path() {
    for p in configs() {
        let mut stim = DacRandom::new(&p, 700);
        let mut m = DacModel::new(&p);
        let mut last = DacOut::default();
        let mut offsets = std::collections::BTreeSet::new();
        let (mut grans, mut cmps) = ([0u64; 4], [0u64; 8]);
        let (mut neg, mut two_d, mut partial, mut resets, mut full) = (0, 0, 0, 0, 0);
        // Accepted tuples with enq_guard: [guards, guarded ADDR/DATA].
        let mut guards = [0u64; 2];
        for c in 0..100_000 {
            let i = stim.next(c, &last);
            let o = m.outputs();
            if i.reset {
                resets += 1;
            }
            if !o.enq_ready {
                full += 1;
            }
            if i.enq_valid && o.enq_ready {
                offsets.insert(i.enq_off_tx);
                if i.enq_off_tx >= 0x8000_0000 {
                    neg += 1;
                }
                if i.enq_guard && i.enq_kind <= kind::PRED {
                    guards[usize::from(i.enq_kind != kind::PRED)] += 1;
                }
                if i.enq_kind == kind::PRED {
                    cmps[i.enq_cmp as usize] += 1;
                } else {
                    grans[i.enq_gran as usize] += 1;
                }
                if i.cfg_bdx_log2 < 5 && i.cfg_threads > 1 << i.cfg_bdx_log2 {
                    two_d += 1;
                }
                if i.cfg_threads % 32 != 0 {
                    partial += 1;
                }
            }
            m.step(&i);
            last = o;
        }
        let s = m.stats();
        let ctx = format!("{p:?}: {s:?}");
        for off in [1u64, 2, 4, 8, 128, 3, 12, 0xFFFF_FFFC] {
            assert!(offsets.contains(&off), "offset {off:#x}: {ctx}");
        }
        assert!(
            neg > 10 && two_d > 50 && partial > 50,
            "{neg} {two_d} {partial}"
        );
        assert!(grans[..3].iter().all(|&n| n > 50), "{grans:?}");
        assert!(cmps[..6].iter().all(|&n| n > 20), "{cmps:?}");
        assert!(resets > 5 && full > 100, "{resets} {full}");
        assert!(
            s.records_pushed > 1000 && s.mem_requests > 300,
            "records: {ctx}"
        );
        assert!(s.mem_taken > 300, "memory: {ctx}");
        assert!(s.pred_fast > 300 && s.pred_slow > 300, "predicates: {ctx}");
        assert!(s.slow_groups > 300, "slow groups: {ctx}");
        assert!(
            s.stall_queue_cycles > 1000 && s.stall_mem_cycles > 100,
            "stalls: {ctx}"
        );
        assert!(
            s.tuples_reserved > 10 && s.tuples_without_slots > 10,
            "start drops: {ctx}"
        );
        assert!(s.warps_skipped > 10, "skipped warps: {ctx}");
        assert!(s.deq_hits > 1000 && s.deq_misses > 1000, "dequeues: {ctx}");
        assert!(s.tuples_expanded > 150, "tuples: {ctx}");
        assert!(s.guard_writes > 150, "guards: {ctx}");
        // (These counts move with the unit's timing: after issue 29's
        // warp-setup stage seed 700 gives 34 partial warps and 84 gaps on
        // the paper's configuration, 11 and 72 with 64 warps; before it
        // every configuration gave over 30 and 100.)
        assert!(
            s.guarded_partial > 10 && s.guard_gaps > 50 && s.guard_skips > 100,
            "guarded warps: {ctx}"
        );
        assert!(guards[0] > 50 && guards[1] > 50, "guard bits {guards:?}");
    }
}

/// A golden model with a planted bug: a record whose mask has its top chunk
/// set reports it clear. The random co-simulation must catch it.
struct BrokenDac(DacModel);

impl GoldenModel<DacExpander> for BrokenDac {
    fn new(p: &DacParams) -> Self {
        BrokenDac(DacModel::new(p))
    }
    fn outputs(&self) -> DacOut {
        let mut o = self.0.outputs();
        if o.rsp_hit && o.rsp_addr != 0 && o.rsp_mask & 0x8000_0000 != 0 {
            o.rsp_mask &= 0x7FFF_FFFF;
        }
        o
    }
    fn step(&mut self, i: &DacIn) {
        self.0.step(i)
    }
}

#[test]
fn planted_bug_is_caught() {
    let p = DacParams::default();
    let m = common::planted_bug_mismatch::<DacExpander, BrokenDac>(&p, 7, 100_000);
    assert_eq!(m.diffs.len(), 1, "{m}");
    assert_eq!(m.diffs[0].port, "rsp_mask", "{m}");
    assert_eq!(m.diffs[0].actual, m.diffs[0].expected | 0x8000_0000, "{m}");
}
