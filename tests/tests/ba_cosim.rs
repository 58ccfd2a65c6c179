//! `ba_tag_array`'s own co-simulation tests: the spec scenario against the
//! spec's own outcomes, property tests that shrink, and a deliberately
//! broken golden model that the framework must catch (with its waveform).
//! The random co-simulation of every suite configuration is in
//! `every_unit_cosim.rs`.

mod common;
use common::verilator;

use cosim::ba::spec_scenario;
use cosim::stimulus::Sequence;
use cosim::{backend_factory, run_lockstep, BackendKind, LockstepOptions};
use golden::ba::BaModel;
use golden::GoldenModel;
use ports::ba::{outcome, BaIn, BaOut, BaParams, BaTagArray};
use ports::UnitSpec;
use proptest::prelude::*;

/// Run the spec scenario on an RTL back-end and check every response
/// against the outcomes the spec lists (not against the golden model).
fn scenario_on(kind: BackendKind) {
    let (p, seq, [a, b, _c, _d]) = spec_scenario();
    let factory = backend_factory::<BaTagArray>(kind, &p, Some(3), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut outs = Vec::new();
    let mut o = vec![0u64; 5];
    for inp in &seq {
        rtl.cycle(&BaTagArray::in_values(&p, inp), &mut o);
        outs.push(BaTagArray::out_from_values(&p, &o));
    }
    // Responses appear two cycles after each request (requests start at
    // cycle 2; `outs[c]` is the outputs during cycle c).
    assert!(
        !outs[3].rsp_valid,
        "no response in the cycle after the first"
    );
    let got: Vec<(u64, bool, u64)> = outs[4..11]
        .iter()
        .map(|r| {
            assert!(r.rsp_valid);
            (r.rsp_outcome, r.rsp_evict_valid, r.rsp_evict_addr)
        })
        .collect();
    use outcome::*;
    assert_eq!(
        got,
        vec![
            (MISS, false, 0),
            (MISS, false, 0),
            (HIT, false, 0),
            (BYPASS, true, b),
            (PSEUDO_HIT, false, 0),
            (BYPASS, true, a),
            (HIT, false, 0),
        ],
        "{} back-end",
        kind.name()
    );
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

/// A golden model with a planted bug: a HIT whose way is 1 is reported as
/// way 0. The framework must stop at the first such response.
struct BrokenBa(BaModel);

impl GoldenModel<BaTagArray> for BrokenBa {
    fn new(p: &BaParams) -> Self {
        BrokenBa(BaModel::new(p))
    }
    fn outputs(&self) -> BaOut {
        let mut o = self.0.outputs();
        if o.rsp_valid && o.rsp_outcome == outcome::HIT && o.rsp_way == 1 {
            o.rsp_way = 0;
        }
        o
    }
    fn step(&mut self, i: &BaIn) {
        self.0.step(i)
    }
}

fn broken_model_is_caught(kind: BackendKind) {
    let (p, mut seq, [a, b, ..]) = spec_scenario();
    // After the scenario's A, B fills: B sits in way 1; hitting it trips the bug.
    seq.truncate(4); // reset, reset, A, B
    seq.push(cosim::ba::load(b));
    seq.push(cosim::ba::load(a));
    seq.push(BaIn::default());
    seq.push(BaIn::default());
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("fail.vcd");
    let factory = backend_factory::<BaTagArray>(kind, &p, Some(5), None, true).unwrap();
    let mut stim = Sequence::<BaTagArray>::new("planted bug", seq);
    let opts = LockstepOptions {
        cycles: 8,
        vcd_on_mismatch: Some(vcd.clone()),
        ..Default::default()
    };
    let m = run_lockstep::<BaTagArray, BrokenBa>(&p, factory.as_ref(), &mut stim, &opts)
        .unwrap()
        .expect_err("the planted bug must be caught");
    // B's HIT (request in cycle 4) is on the outputs in cycle 6.
    assert_eq!(m.cycle, 6, "{m}");
    assert_eq!(m.diffs.len(), 1, "{m}");
    assert_eq!(m.diffs[0].port, "rsp_way");
    assert_eq!((m.diffs[0].expected, m.diffs[0].actual), (0, 1));
    let text = m.to_string();
    assert!(
        text.contains("cycle 6") && text.contains("planted bug"),
        "{text}"
    );
    assert!(!m.recent_inputs.is_empty());
    let wave = std::fs::read_to_string(&vcd).expect("VCD written");
    assert!(wave.contains("$scope module golden $end"), "golden scope");
    assert!(wave.contains("rsp_way"));
    assert!(wave.contains("#60\n"), "timestamps up to the failing cycle");
}

#[test]
fn broken_golden_model_is_caught_rusthdl() {
    broken_model_is_caught(BackendKind::RustHdl);
}

#[test]
fn broken_golden_model_is_caught_verilator() {
    if verilator() {
        broken_model_is_caught(BackendKind::Verilator);
    }
}

/// One abstract request: which of a few tags, which of two sets, load,
/// prefetch fill or store, or a flush.
#[derive(Clone, Debug)]
enum Op {
    Load(u64, u64),
    Prefetch(u64, u64),
    /// A load or (flag set) prefetch fill with a reserved-way mask.
    Resv(u64, u64, u64, bool),
    Store(u64, u64),
    Flush,
    Idle,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u64..5, 0u64..2).prop_map(|(t, s)| Op::Load(t, s)),
        2 => (0u64..5, 0u64..2).prop_map(|(t, s)| Op::Prefetch(t, s)),
        3 => (0u64..5, 0u64..2, 0u64..4, any::<bool>()).prop_map(|(t, s, m, pf)| Op::Resv(t, s, m, pf)),
        2 => (0u64..5, 0u64..2).prop_map(|(t, s)| Op::Store(t, s)),
        1 => Just(Op::Flush),
        1 => Just(Op::Idle),
    ]
}

fn to_inputs(p: &BaParams, ops: &[Op]) -> Vec<BaIn> {
    let addr = |t: u64, s: u64| (t * p.SETS + s) * p.LINE_BYTES;
    let mut v = vec![
        BaIn {
            reset: true,
            ..Default::default()
        };
        2
    ];
    for o in ops {
        v.push(match *o {
            Op::Load(t, s) => cosim::ba::load(addr(t, s)),
            Op::Prefetch(t, s) => BaIn {
                req_prefetch: true,
                ..cosim::ba::load(addr(t, s))
            },
            Op::Resv(t, s, m, pf) => BaIn {
                req_prefetch: pf,
                req_resv: m,
                ..cosim::ba::load(addr(t, s))
            },
            Op::Store(t, s) => BaIn {
                req_write: true,
                ..cosim::ba::load(addr(t, s))
            },
            Op::Flush => BaIn {
                flush: true,
                ..Default::default()
            },
            Op::Idle => BaIn::default(),
        });
    }
    // Two idle cycles: the last response is compared too.
    v.push(BaIn::default());
    v.push(BaIn::default());
    v
}

/// `mode`: 0 plain LRU, 1 the spec's policy, 2 the second reading.
fn prop_run(kind: BackendKind, mode: u64, ops: &[Op]) -> Result<(), TestCaseError> {
    let p = BaParams {
        SETS: 2,
        WAYS: 2,
        BA_ENABLE: (mode > 0) as u64,
        BA_POLICY: (mode == 2) as u64,
        ..Default::default()
    };
    let seq = to_inputs(&p, ops);
    let n = seq.len() as u64;
    let factory = backend_factory::<BaTagArray>(kind, &p, Some(9), None, false).unwrap();
    let mut stim = Sequence::<BaTagArray>::new("proptest", seq);
    let opts = LockstepOptions {
        cycles: n,
        ..Default::default()
    };
    let r = run_lockstep::<BaTagArray, BaModel>(&p, factory.as_ref(), &mut stim, &opts).unwrap();
    prop_assert!(r.is_ok(), "{}", r.err().unwrap());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn rusthdl_matches_golden_on_any_short_sequence(ba in 0u64..3, ops in prop::collection::vec(op(), 1..60)) {
        prop_run(BackendKind::RustHdl, ba, &ops)?;
    }

    #[test]
    fn verilator_matches_golden_on_any_short_sequence(ba in 0u64..3, ops in prop::collection::vec(op(), 1..200)) {
        if cosim::verilator::verilator_available() {
            prop_run(BackendKind::Verilator, ba, &ops)?;
        }
    }
}

/// What the random stimulus reached with reserved ways (issue 27), counted
/// on the golden model: each load is also decided by a copy of the model
/// without the mask, to see a reserved victim skipped.
#[derive(Default, Debug)]
struct ResvReach {
    fail_load: u64,
    fail_prefetch: u64,
    skipped_victim: u64,
    bypass_beside_reserved: u64,
}

fn resv_reach(p: &BaParams, seed: u64, cycles: u64) -> ResvReach {
    use cosim::stimulus::Stimulus;
    let mut stim = cosim::ba::BaRandom::new(p, seed);
    let mut m = BaModel::new(p);
    let mut r = ResvReach::default();
    for cycle in 0..cycles {
        let i = stim.next(cycle, &m.outputs());
        let load = i.req_valid && !i.req_write && !i.reset && !i.flush;
        let mut shadow = m.clone();
        let (set, _) = m.set_and_tag(i.req_addr);
        m.step(&i);
        if !load {
            continue;
        }
        // The responses the request decided (on the outputs one edge later).
        let o = m.decided();
        shadow.step(&BaIn { req_resv: 0, ..i });
        let s = shadow.decided();
        if o.rsp_outcome == outcome::RESV_FAIL {
            if i.req_prefetch {
                r.fail_prefetch += 1;
            } else {
                r.fail_load += 1;
            }
        }
        if o.rsp_outcome == outcome::BYPASS && i.req_resv != 0 {
            r.bypass_beside_reserved += 1;
        }
        let v = s.rsp_way as usize;
        let replaced = (s.rsp_outcome == outcome::MISS || s.rsp_outcome == outcome::BYPASS)
            && shadow.line(set, v).tag != m.line(set, v).tag;
        if replaced
            && (i.req_resv >> v) & 1 == 1
            && (o.rsp_way as usize != v || o.rsp_outcome == outcome::RESV_FAIL)
        {
            r.skipped_victim += 1;
        }
    }
    r
}

/// The random stimulus of every suite configuration reaches a reserved
/// victim skipped and a prefetch fill dropped as RESV_FAIL; with plain LRU
/// a demand load's RESV_FAIL; with the bypass-aware policy bypasses beside
/// reserved ways, and never a demand RESV_FAIL (a bypass needs no way).
#[test]
fn random_stimulus_reaches_reservation_cases() {
    use cosim::unit::CosimUnit;
    for p in BaTagArray::suite() {
        let r = resv_reach(&p, 100, 20_000);
        let what = format!("{p:?}: {r:?}");
        assert!(r.fail_prefetch > 0, "{what}");
        assert!(r.skipped_victim > 0, "{what}");
        if p.BA_ENABLE == 0 {
            assert!(r.fail_load > 0, "{what}");
        } else {
            assert_eq!(r.fail_load, 0, "{what}");
            assert!(r.bypass_beside_reserved > 0, "{what}");
        }
    }
}
