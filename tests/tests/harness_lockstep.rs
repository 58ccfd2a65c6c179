//! Probes and the stimulus recorder: what an RTL co-simulation inside the
//! harness sees, and a recorded run replayed alone.

mod common;
use common::{config, kernel, LPS_128, MM_160};

use std::cell::RefCell;
use std::rc::Rc;

use golden::ba::BaModel;
use golden::caps::CapsModel;
use golden::check::{diff_ports, Mismatch, PortDiff, Probe, ProbeError};
use golden::GoldenModel;
use harness::{
    read_stimulus, replay, unit_params, Harness, HarnessError, HarnessUnit, Kernel, MachineConfig,
};
use ports::ba::BaTagArray;
use ports::caps::CapsPrefetcher;

/// A stand-in for the RTL: an independent golden model fed the probe's
/// inputs, compared with the harness's model every cycle.
struct Shadow<U: HarnessUnit> {
    params: U::Params,
    model: U::Model,
    /// Index of the `reset` input.
    reset_at: usize,
    cycles: Rc<RefCell<u64>>,
    resets: Rc<RefCell<u64>>,
}

impl<U: HarnessUnit> Shadow<U> {
    fn new(params: U::Params, cycles: Rc<RefCell<u64>>, resets: Rc<RefCell<u64>>) -> Self {
        Shadow {
            model: U::Model::new(&params),
            reset_at: U::inputs(&params)
                .iter()
                .position(|p| p.name == "reset")
                .unwrap(),
            params,
            cycles,
            resets,
        }
    }

    /// Built for exactly the parameters the harness gives `U`.
    fn for_run(
        c: &MachineConfig,
        k: &Kernel,
        cycles: Rc<RefCell<u64>>,
        resets: Rc<RefCell<u64>>,
    ) -> Self {
        Self::new(unit_params::<U>(c, k).unwrap(), cycles, resets)
    }
}

impl<U: HarnessUnit> Probe for Shadow<U> {
    fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
        let mine = U::out_values(&self.params, &self.model.outputs());
        let cycle = *self.cycles.borrow();
        if mine != golden {
            let outs = U::outputs(&self.params);
            return Err(ProbeError::Mismatch(Box::new(Mismatch {
                unit: U::NAME,
                backend: "shadow model",
                config: String::new(),
                stimulus: "SM harness".into(),
                cycle,
                diffs: diff_ports(&outs, golden, &mine),
                expected: Vec::new(),
                recent_inputs: Vec::new(),
                vcd: None,
            })));
        }
        *self.resets.borrow_mut() += inputs[self.reset_at];
        self.model.step(&U::in_from_values(&self.params, inputs));
        *self.cycles.borrow_mut() += 1;
        Ok(())
    }
}

fn counters() -> (Rc<RefCell<u64>>, Rc<RefCell<u64>>) {
    (Rc::new(RefCell::new(0)), Rc::new(RefCell::new(0)))
}

#[test]
fn probes_see_every_cycle_with_the_golden_inputs_and_outputs() {
    let k = kernel("matrix_mul.toml", MM_160);
    let c = config(&[("prefetcher", "caps"), ("sched", "pas"), ("l1", "ba")]);
    let (cc, cr) = counters();
    let (bc, br) = counters();
    let caps = Shadow::<CapsPrefetcher>::for_run(&c, &k, cc.clone(), cr.clone());
    let ba = Shadow::<BaTagArray>::for_run(&c, &k, bc.clone(), br.clone());
    let m = Harness::new(&k, &c)
        .probe("caps_prefetcher", Box::new(caps))
        .probe("ba_tag_array", Box::new(ba))
        .run()
        .unwrap();
    // Every cycle of the run, reset cycles included, idle ones too.
    assert_eq!(*cc.borrow(), m.cycles);
    assert_eq!(*bc.borrow(), m.cycles);
    assert_eq!(*cr.borrow(), c.reset_cycles as u64);
    assert_eq!(*br.borrow(), c.reset_cycles as u64);
    // The probes do not change the run.
    let plain = Harness::new(&k, &c).run().unwrap();
    assert_eq!(plain, m);
}

/// A probe that reports a difference after `after` cycles.
struct FailAt {
    after: u64,
    seen: u64,
}

impl Probe for FailAt {
    fn cycle(&mut self, _inputs: &[u64], _golden: &[u64]) -> Result<(), ProbeError> {
        self.seen += 1;
        if self.seen <= self.after {
            return Ok(());
        }
        Err(ProbeError::Mismatch(Box::new(Mismatch {
            unit: "ba_tag_array",
            backend: "test",
            config: "SETS=32".into(),
            stimulus: "SM harness".into(),
            cycle: self.seen - 1,
            diffs: vec![PortDiff {
                port: "rsp_outcome".into(),
                expected: 1,
                actual: 2,
            }],
            expected: Vec::new(),
            recent_inputs: Vec::new(),
            vcd: None,
        })))
    }
}

#[test]
fn a_probe_difference_stops_the_run_with_its_report() {
    let k = kernel("reuse.toml", &[]);
    let c = config(&[("l1", "ba")]);
    let e = Harness::new(&k, &c)
        .probe(
            "ba_tag_array",
            Box::new(FailAt {
                after: 1000,
                seen: 0,
            }),
        )
        .run()
        .unwrap_err();
    match &e {
        HarnessError::Lockstep {
            unit,
            cycle,
            mismatch,
        } => {
            assert_eq!(*unit, "ba_tag_array");
            assert_eq!(*cycle, 1000);
            assert_eq!(mismatch.cycle, 1000);
            assert_eq!(mismatch.diffs[0].port, "rsp_outcome");
            // Displayed as the report itself.
            assert_eq!(e.to_string(), mismatch.to_string());
            assert!(e.to_string().contains("rsp_outcome"));
        }
        other => panic!("{other}"),
    }
}

/// A probe whose files fail.
struct BrokenFile;

impl Probe for BrokenFile {
    fn cycle(&mut self, _inputs: &[u64], _golden: &[u64]) -> Result<(), ProbeError> {
        Err(ProbeError::Io("disk full".into()))
    }
}

#[test]
fn a_probe_io_error_is_an_io_error() {
    let k = kernel("reuse.toml", &[]);
    let c = config(&[("prefetcher", "caps")]);
    let e = Harness::new(&k, &c)
        .probe("caps_prefetcher", Box::new(BrokenFile))
        .run()
        .unwrap_err();
    assert!(
        matches!(&e, HarnessError::Io(m) if m.contains("disk full")),
        "{e}"
    );
}

#[test]
fn a_probe_needs_its_unit() {
    let k = kernel("reuse.toml", &[]);
    let fail = || Box::new(FailAt { after: 10, seen: 0 });
    let e = Harness::new(&k, &config(&[]))
        .probe("ba_tag_array", fail())
        .run()
        .unwrap_err();
    assert!(matches!(e, HarnessError::Unsupported(_)), "{e}");
    assert_eq!(
        e.to_string(),
        "ba_tag_array lock-step or recording needs --l1 ba or ba-lru"
    );
    let e = Harness::new(&k, &config(&[("l1", "ba")]))
        .record("caps_prefetcher", "/nonexistent/never-written.jsonl")
        .run()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "caps_prefetcher lock-step or recording needs --prefetcher caps"
    );
    let e = Harness::new(&k, &config(&[]))
        .probe("snake", fail())
        .run()
        .unwrap_err();
    assert!(
        matches!(&e, HarnessError::Unsupported(m) if m.contains("unknown unit `snake`")),
        "{e}"
    );
}

#[test]
fn recorded_stimulus_replays_alone() {
    let dir = tempfile::tempdir().unwrap();
    let caps_file = dir.path().join("caps.jsonl");
    let ba_file = dir.path().join("ba.jsonl");
    let k = kernel("lps.toml", LPS_128);
    let c = config(&[("prefetcher", "caps"), ("sched", "pas"), ("l1", "ba")]);
    let m = Harness::new(&k, &c)
        .record("caps_prefetcher", &caps_file)
        .record("ba_tag_array", &ba_file)
        .run()
        .unwrap();

    let s = read_stimulus::<CapsPrefetcher>(&caps_file).unwrap();
    assert_eq!(s.params, unit_params::<CapsPrefetcher>(&c, &k).unwrap());
    assert_eq!(s.cycles.len() as u64, m.cycles);
    assert!(s.cycles[0].0.reset);
    assert!(s.cycles.iter().any(|(i, _)| i.ld_valid));
    assert!(s.cycles.iter().any(|(_, o)| o.pf_valid));
    // Replayed into a fresh model (and a probe) it reproduces every output.
    let (cc, cr) = counters();
    let mut shadow = Shadow::<CapsPrefetcher>::new(s.params.clone(), cc.clone(), cr);
    assert_eq!(
        replay::<CapsPrefetcher, CapsModel>(&s, Some(&mut shadow)).unwrap(),
        m.cycles
    );
    assert_eq!(*cc.borrow(), m.cycles);

    let s = read_stimulus::<BaTagArray>(&ba_file).unwrap();
    assert_eq!(s.params, unit_params::<BaTagArray>(&c, &k).unwrap());
    assert_eq!(s.cycles.len() as u64, m.cycles);
    assert_eq!(
        s.cycles
            .iter()
            .filter(|(i, _)| i.req_valid && !i.req_write)
            .count() as u64,
        m.l1.accesses + m.prefetch.as_ref().unwrap().issued
    );
    // Every issued prefetch, and nothing else, is a prefetch fill.
    assert_eq!(
        s.cycles
            .iter()
            .filter(|(i, _)| i.req_valid && i.req_prefetch)
            .count() as u64,
        m.prefetch.as_ref().unwrap().issued
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
    assert!(
        matches!(&e, HarnessError::Replay(m) if m.contains("cycle 49")),
        "{e}"
    );
    // The wrong unit is refused.
    assert!(read_stimulus::<CapsPrefetcher>(&ba_file)
        .unwrap_err()
        .contains("ba_tag_array"));
}

#[test]
fn a_replay_probe_difference_is_the_structured_report() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ba.jsonl");
    let k = kernel("reuse.toml", &[]);
    let c = config(&[("l1", "ba")]);
    Harness::new(&k, &c)
        .record("ba_tag_array", &file)
        .run()
        .unwrap();
    let s = read_stimulus::<BaTagArray>(&file).unwrap();
    let mut fail = FailAt { after: 20, seen: 0 };
    match replay::<BaTagArray, BaModel>(&s, Some(&mut fail)).unwrap_err() {
        HarnessError::Lockstep { unit, cycle, .. } => {
            assert_eq!(unit, "ba_tag_array");
            assert_eq!(cycle, 20);
        }
        other => panic!("{other}"),
    }
}
