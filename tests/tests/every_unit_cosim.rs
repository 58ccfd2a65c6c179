//! Every unit's RTL against its golden model, the same tests for each unit
//! of `ports::for_each_unit!` (one module per unit: `ba::...`,
//! `caps::...`): random co-simulation of every suite configuration on both
//! back-ends, the unit's scenarios in lock-step, a planted difference on
//! every output port caught at its cycle, and every configuration's
//! Verilog `verilator -Wall` clean.
//!
//! What only one unit has (its scenarios' expected outcomes from the spec,
//! the reach of its random stimulus, its own planted bugs and property
//! tests) is in that unit's `<unit>_cosim.rs`.

mod common;
use common::{lint_text, verilator};

use cosim::stimulus::Sequence;
use cosim::{backend_factory, run_lockstep, BackendKind, CosimUnit, LockstepOptions, ModelOf};
use golden::{GoldenModel, GoldenUnit};

/// Cycles of each random co-simulation.
const CYCLES: u64 = 100_000;

/// The suite's configurations of `U` (`cosim::CosimUnit::suite`, shared
/// with `warpgen prove --all-configs`).
fn configs<U: CosimUnit>() -> Vec<U::Params> {
    U::suite()
}

/// Random co-simulation of every suite configuration on `kind`.
fn random_on_all_configs<U: CosimUnit>(kind: BackendKind) {
    let (verilator_seed, rusthdl_seed) = U::SUITE_SEEDS;
    let first = match kind {
        BackendKind::Verilator => verilator_seed,
        BackendKind::RustHdl => rusthdl_seed,
    };
    for (i, p) in configs::<U>().iter().enumerate() {
        common::cosim_random_run::<U>(kind, p, first + i as u64, CYCLES);
    }
}

/// Each of the unit's scenarios in lock-step with its golden model.
fn scenarios_on<U: CosimUnit>(kind: BackendKind) {
    for (name, p, seq) in U::scenarios() {
        let factory = backend_factory::<U>(kind, &p, Some(1), None, false).unwrap();
        let opts = LockstepOptions {
            cycles: seq.len() as u64,
            ..Default::default()
        };
        let mut stim = Sequence::<U>::new(name, seq);
        if let Err(m) =
            run_lockstep::<U, ModelOf<U>>(&p, factory.as_ref(), &mut stim, &opts).unwrap()
        {
            panic!("{m}");
        }
    }
}

/// The cycle at which [`Flipped`] changes every output.
const FLIP_CYCLE: u64 = 100;

/// A golden model with a planted difference: at [`FLIP_CYCLE`] the low bit
/// of every output port is inverted.
struct Flipped<U: GoldenUnit> {
    p: U::Params,
    model: U::Model,
    cycle: u64,
}

impl<U: GoldenUnit> GoldenModel<U> for Flipped<U> {
    fn new(p: &U::Params) -> Self {
        Flipped {
            p: p.clone(),
            model: U::Model::new(p),
            cycle: 0,
        }
    }
    fn outputs(&self) -> U::Out {
        let o = self.model.outputs();
        if self.cycle != FLIP_CYCLE {
            return o;
        }
        let flipped: Vec<u64> = U::out_values(&self.p, &o).iter().map(|v| v ^ 1).collect();
        U::out_from_values(&self.p, &flipped)
    }
    fn step(&mut self, i: &U::In) {
        self.model.step(i);
        self.cycle += 1;
    }
}

/// The planted difference is caught at its cycle, on every output port
/// (every port is compared, none is masked), with the stimulus named.
fn flipped_outputs_are_caught<U: CosimUnit>(kind: BackendKind) {
    let p = U::Params::default();
    let factory = backend_factory::<U>(kind, &p, Some(3), None, false).unwrap();
    let mut stim = U::random_stimulus(&p, 11);
    let opts = LockstepOptions {
        cycles: 2 * FLIP_CYCLE,
        ..Default::default()
    };
    let m = run_lockstep::<U, Flipped<U>>(&p, factory.as_ref(), stim.as_mut(), &opts)
        .unwrap()
        .expect_err("the planted difference must be caught");
    assert_eq!(m.cycle, FLIP_CYCLE, "{m}");
    let ports: Vec<String> = U::outputs(&p).into_iter().map(|d| d.name).collect();
    let diffs: Vec<String> = m.diffs.iter().map(|d| d.port.clone()).collect();
    assert_eq!(diffs, ports, "{m}");
    for d in &m.diffs {
        assert_eq!(d.expected ^ d.actual, 1, "{m}");
    }
    assert!(m.to_string().contains("random(seed=11)"), "{m}");
}

/// The Verilog of every suite configuration is `verilator -Wall` clean
/// (the checked-in files cover only the paper's configurations).
fn every_config_lints_clean<U: CosimUnit>() {
    if !verilator() {
        return;
    }
    for p in configs::<U>() {
        let v = cosim::emit_verilog::<U>(&p).unwrap();
        let r = lint_text(&v, U::NAME);
        assert!(r.clean, "{p:?}: {}", r.raw);
    }
}

/// One module of tests per unit, named after the unit's module in `ports`.
macro_rules! tests_per_unit {
    ($($krate:tt :: $module:ident :: $unit:ident),* $(,)?) => {$(
        mod $module {
            type U = $krate::$module::$unit;
            use super::{verilator, BackendKind};

            #[test]
            fn verilator_agrees_with_golden_on_all_configs() {
                if verilator() {
                    super::random_on_all_configs::<U>(BackendKind::Verilator);
                }
            }

            #[test]
            fn rusthdl_agrees_with_golden_on_all_configs() {
                super::random_on_all_configs::<U>(BackendKind::RustHdl);
            }

            #[test]
            fn scenarios_agree_with_golden_rusthdl() {
                super::scenarios_on::<U>(BackendKind::RustHdl);
            }

            #[test]
            fn scenarios_agree_with_golden_verilator() {
                if verilator() {
                    super::scenarios_on::<U>(BackendKind::Verilator);
                }
            }

            #[test]
            fn flipped_outputs_are_caught_rusthdl() {
                super::flipped_outputs_are_caught::<U>(BackendKind::RustHdl);
            }

            #[test]
            fn flipped_outputs_are_caught_verilator() {
                if verilator() {
                    super::flipped_outputs_are_caught::<U>(BackendKind::Verilator);
                }
            }

            #[test]
            fn every_config_lints_clean() {
                super::every_config_lints_clean::<U>();
            }
        }
    )*};
}

ports::for_each_unit!(tests_per_unit);
