//! All SMs (the harness-realism issue, item 2): every SM of `n_sm` runs,
//! sharing the memory below the L1s; CTAs are dealt to the SMs with room;
//! lock-step and recordings attach to one chosen SM.

mod common;
use common::{config, earlier_size_sets, earlier_sizes, kernel, root, run, verilator, LPS_128};

use harness::{Harness, HarnessError, Metrics};

fn strip(mut m: Metrics) -> Metrics {
    m.run.all_sms = false;
    m.per_sm.clear();
    m
}

/// With one SM, the all-SM driver is the one-SM run: same dealing, same
/// memory timing, every figure equal.
#[test]
fn one_sm_of_one_is_the_same_run_either_way() {
    for (name, sets) in [
        ("lps.toml", vec![("prefetcher", "caps"), ("sched", "pas")]),
        ("matrix_mul.toml", vec![("mem_model", "hier")]),
        ("dac_example.toml", vec![("expander", "dac")]),
        ("reuse.toml", vec![("l1", "ba")]),
    ] {
        let k = kernel(name, earlier_sizes(name));
        let mut one = sets.clone();
        one.push(("n_sm", "1"));
        let mut all = one.clone();
        all.push(("sms", "all"));
        let a = run(&k, &one);
        let b = run(&k, &all);
        assert!(b.run.all_sms && b.per_sm.len() == 1);
        assert_eq!(strip(b), a, "{name}");
    }
}

#[test]
fn every_cta_runs_once_and_the_sms_share_the_l2() {
    let k = kernel("lps.toml", LPS_128);
    let m = run(&k, &[("sms", "all"), ("mem_model", "hier")]);
    eprintln!("{}", m.table());
    assert_eq!(m.ctas, k.total_ctas());
    assert_eq!(m.per_sm.len(), 15);
    assert_eq!(m.per_sm.iter().map(|s| s.ctas).sum::<u64>(), m.ctas);
    assert_eq!(
        m.per_sm.iter().map(|s| s.warp_instructions).sum::<u64>(),
        m.warp_instructions
    );
    assert_eq!(m.cycles, m.per_sm.iter().map(|s| s.cycles).max().unwrap());
    // Dealt to the SMs with room: every SM gets CTAs, none more than its
    // share allows, and at first one round of each.
    assert!(m.per_sm.iter().all(|s| s.ctas >= 8), "{:?}", m.per_sm);
    // Neighbouring CTAs read each other's halos: the shared L2 hits.
    let lo = &m.memory.lower;
    assert!(lo.l2_read_hits > lo.l2_reads / 4, "{lo:?}");
    // One SM's run sees only its CTAs.
    let one = run(&k, &[("mem_model", "hier")]);
    assert!(one.ctas < m.ctas / 10);
    // A unit's counters are summed over the SMs, and so is its table line
    // (not one SM's line under a "summed" label).
    let c = run(
        &k,
        &[
            ("sms", "all"),
            ("mem_model", "hier"),
            ("prefetcher", "caps"),
        ],
    );
    let p = c.prefetch.as_ref().unwrap();
    let loads = common::counter(p, "loads");
    // LPS: every memory instruction but the one store per plane is a load.
    assert!(
        loads > c.mem_instructions / 2,
        "{loads} {}",
        c.mem_instructions
    );
    assert!(
        p.counts.summary.contains(&format!("loads {loads},")),
        "{}",
        p.counts.summary
    );
}

#[test]
fn lockstep_runs_on_the_chosen_sm() {
    use gen::run::{run_command, BackendArg, RunArgs};
    let mut a = RunArgs::new(root().join("kernels").join("matrix_mul.toml"));
    a.prefetcher = "caps".into();
    a.set = vec!["sched=pas".into(), "sms=all".into()];
    a.set.extend(earlier_size_sets("matrix_mul.toml"));
    a.cosim = Some("caps_prefetcher".into());
    a.cosim_sm = Some(4);
    a.quiet = true;
    a.backend = Some(if verilator() {
        BackendArg::Verilator
    } else {
        BackendArg::Rusthdl
    });
    run_command(&a).unwrap();
    // The SM must exist.
    let mut c = config(&[("sms", "all"), ("cosim_sm", "15")]);
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("cosim_sm"), "{e}");
    c.set("cosim_sm", "14").unwrap();
    c.validate().unwrap();
}

/// A recording attaches to the chosen SM's unit only: its cycles are that
/// SM's.
#[test]
fn a_recording_follows_the_chosen_sm() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel("lps.toml", LPS_128);
    let mut lines = Vec::new();
    for sm in [0u32, 7] {
        let mut c = config(&[("prefetcher", "caps"), ("sched", "pas"), ("sms", "all")]);
        c.set("cosim_sm", &sm.to_string()).unwrap();
        let path = dir.path().join(format!("caps{sm}.jsonl"));
        let m = Harness::new(&k, &c)
            .record("caps_prefetcher", &path)
            .run()
            .unwrap();
        let n = std::fs::read_to_string(&path).unwrap().lines().count() as u64;
        // Header line plus one line per cycle of that SM.
        assert_eq!(n, m.per_sm[sm as usize].cycles + 1, "SM {sm}");
        lines.push(n);
    }
    assert_ne!(lines[0], lines[1]);
    // A unit that is not in the run still cannot be recorded.
    let c = config(&[("sms", "all")]);
    match Harness::new(&k, &c)
        .record("caps_prefetcher", "x.jsonl")
        .run()
    {
        Err(HarnessError::Unsupported(e)) => assert!(e.contains("--prefetcher"), "{e}"),
        other => panic!("{:?}", other.map(|m| m.cycles)),
    }
}
