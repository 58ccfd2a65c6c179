//! The lock-step hook and the stimulus recorder: what an RTL co-simulation
//! inside the harness sees, and a recorded run replayed alone.

mod common;
use common::{config, kernel};

use std::cell::RefCell;
use std::rc::Rc;

use ports::ba::{BaIn, BaOut, BaTagArray};
use ports::caps::{CapsIn, CapsOut, CapsPrefetcher};
use sim_model::ba::BaModel;
use sim_model::caps::CapsModel;
use sim_model::harness::{read_stimulus, replay, Harness, HarnessError, Lockstep};
use sim_model::GoldenModel;

/// A stand-in for the RTL: an independent golden model fed the hook's
/// inputs, compared with the harness' model every cycle.
struct Shadow<M> {
    model: M,
    cycles: Rc<RefCell<u64>>,
    resets: Rc<RefCell<u64>>,
}

impl Lockstep<CapsPrefetcher> for Shadow<CapsModel> {
    fn cycle(&mut self, i: &CapsIn, golden: &CapsOut) -> Result<(), String> {
        let mine = self.model.outputs();
        if mine != *golden {
            return Err(format!(
                "cycle {}: {mine:?} != {golden:?}",
                self.cycles.borrow()
            ));
        }
        *self.resets.borrow_mut() += i.reset as u64;
        self.model.step(i);
        *self.cycles.borrow_mut() += 1;
        Ok(())
    }
}

impl Lockstep<BaTagArray> for Shadow<BaModel> {
    fn cycle(&mut self, i: &BaIn, golden: &BaOut) -> Result<(), String> {
        let mine = self.model.outputs();
        if mine != *golden {
            return Err(format!(
                "cycle {}: {mine:?} != {golden:?}",
                self.cycles.borrow()
            ));
        }
        *self.resets.borrow_mut() += i.reset as u64;
        self.model.step(i);
        *self.cycles.borrow_mut() += 1;
        Ok(())
    }
}

#[test]
fn hooks_see_every_cycle_with_the_golden_inputs_and_outputs() {
    let k = kernel("matrix_mul.toml", &[]);
    let c = config(&[("prefetcher", "caps"), ("sched", "pas"), ("l1", "ba")]);
    let (cc, cr) = (Rc::new(RefCell::new(0)), Rc::new(RefCell::new(0)));
    let (bc, br) = (Rc::new(RefCell::new(0)), Rc::new(RefCell::new(0)));
    let caps = Shadow {
        model: CapsModel::new(&c.caps_params(k.warps_per_cta())),
        cycles: cc.clone(),
        resets: cr.clone(),
    };
    let ba = Shadow {
        model: BaModel::new(&c.ba_params()),
        cycles: bc.clone(),
        resets: br.clone(),
    };
    let m = Harness::new(&k, &c)
        .caps_lockstep(Box::new(caps))
        .ba_lockstep(Box::new(ba))
        .run()
        .unwrap();
    // Every cycle of the run, reset cycles included, idle ones too.
    assert_eq!(*cc.borrow(), m.cycles);
    assert_eq!(*bc.borrow(), m.cycles);
    assert_eq!(*cr.borrow(), c.reset_cycles as u64);
    assert_eq!(*br.borrow(), c.reset_cycles as u64);
    // The hooks do not change the run.
    let plain = Harness::new(&k, &c).run().unwrap();
    assert_eq!(plain, m);
}

struct FailAt(u64, u64);

impl Lockstep<BaTagArray> for FailAt {
    fn cycle(&mut self, _i: &BaIn, _g: &BaOut) -> Result<(), String> {
        self.1 += 1;
        if self.1 > self.0 {
            Err("ba_tag_array: rsp_outcome differs (expected 1, RTL 2)".into())
        } else {
            Ok(())
        }
    }
}

#[test]
fn a_hook_error_stops_the_run_with_its_message() {
    let k = kernel("reuse.toml", &[]);
    let c = config(&[("l1", "ba")]);
    let e = Harness::new(&k, &c)
        .ba_lockstep(Box::new(FailAt(1000, 0)))
        .run()
        .unwrap_err();
    match &e {
        HarnessError::Lockstep {
            unit,
            cycle,
            message,
        } => {
            assert_eq!(*unit, "ba_tag_array");
            assert_eq!(*cycle, 1000);
            assert!(message.contains("rsp_outcome"));
        }
        other => panic!("{other}"),
    }
    assert_eq!(
        e.to_string(),
        "ba_tag_array: rsp_outcome differs (expected 1, RTL 2)"
    );
}

#[test]
fn a_hook_needs_its_unit() {
    let k = kernel("reuse.toml", &[]);
    let e = Harness::new(&k, &config(&[]))
        .ba_lockstep(Box::new(FailAt(10, 0)))
        .run()
        .unwrap_err();
    assert!(matches!(e, HarnessError::Unsupported(_)), "{e}");
}

#[test]
fn recorded_stimulus_replays_alone() {
    let dir = tempfile::tempdir().unwrap();
    let caps_file = dir.path().join("caps.jsonl");
    let ba_file = dir.path().join("ba.jsonl");
    let k = kernel("lps.toml", &[]);
    let c = config(&[("prefetcher", "caps"), ("sched", "pas"), ("l1", "ba")]);
    let m = Harness::new(&k, &c)
        .record_caps(&caps_file)
        .record_ba(&ba_file)
        .run()
        .unwrap();

    let s = read_stimulus::<CapsPrefetcher>(&caps_file).unwrap();
    assert_eq!(s.params, c.caps_params(k.warps_per_cta()));
    assert_eq!(s.cycles.len() as u64, m.cycles);
    assert!(s.cycles[0].0.reset);
    assert!(s.cycles.iter().any(|(i, _)| i.ld_valid));
    assert!(s.cycles.iter().any(|(_, o)| o.pf_valid));
    // Replayed into a fresh model (and a hook) it reproduces every output.
    let (cc, cr) = (Rc::new(RefCell::new(0)), Rc::new(RefCell::new(0)));
    let mut shadow = Shadow {
        model: CapsModel::new(&s.params),
        cycles: cc.clone(),
        resets: cr,
    };
    assert_eq!(
        replay::<CapsPrefetcher, CapsModel>(&s, Some(&mut shadow)).unwrap(),
        m.cycles
    );
    assert_eq!(*cc.borrow(), m.cycles);

    let s = read_stimulus::<BaTagArray>(&ba_file).unwrap();
    assert_eq!(s.cycles.len() as u64, m.cycles);
    assert_eq!(
        s.cycles
            .iter()
            .filter(|(i, _)| i.req_valid && !i.req_write)
            .count() as u64,
        m.l1.accesses + m.prefetch.as_ref().unwrap().issued
    );
    replay::<BaTagArray, BaModel>(&s, None).unwrap();

    // A corrupted output column is caught.
    let text = std::fs::read_to_string(&ba_file).unwrap();
    let bad: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(n, l)| {
            if n == 50 {
                l.replace("\"out\":[0,", "\"out\":[1,")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&ba_file, bad.join("\n")).unwrap();
    let s = read_stimulus::<BaTagArray>(&ba_file).unwrap();
    let e = replay::<BaTagArray, BaModel>(&s, None).unwrap_err();
    assert!(e.contains("cycle 49"), "{e}");
    // The wrong unit is refused.
    assert!(read_stimulus::<CapsPrefetcher>(&ba_file)
        .unwrap_err()
        .contains("ba_tag_array"));
}
