//! Lock-step co-simulation inside the SM harness: each unit's RTL beside
//! its golden model over two paper kernels (issue item 7).

mod common;
use common::{root, verilator};

use gen::run::{run_command, BackendArg, RunArgs};

fn backend() -> BackendArg {
    if verilator() {
        BackendArg::Verilator
    } else {
        BackendArg::Rusthdl
    }
}

fn run(kernel: &str, unit: &str, caps: bool, l1: &str) {
    run_with(
        kernel,
        unit,
        if caps { "caps" } else { "none" },
        &[&format!("l1={l1}")],
    );
}

fn run_with(kernel: &str, unit: &str, prefetcher: &str, sets: &[&str]) {
    let mut a = RunArgs::new(root().join("kernels").join(kernel));
    a.cosim = Some(unit.into());
    a.quiet = true;
    a.backend = Some(backend());
    a.prefetcher = prefetcher.into();
    a.set = sets.iter().map(|s| s.to_string()).collect();
    run_command(&a).unwrap_or_else(|e| panic!("{kernel} {unit}: {e:#}"));
}

#[test]
fn caps_rtl_matches_golden_on_lps_and_matrix_mul() {
    run("lps.toml", "caps_prefetcher", true, "lru");
    run("matrix_mul.toml", "caps_prefetcher", true, "lru");
}

/// Snake with the L1 decoupled: the throttle's inputs come from the
/// cache (free-ups raise `cache_full`) and the memory (`bw_util`), and
/// `pf_ready` from the L1's acceptance.
#[test]
fn snake_rtl_matches_golden_on_lps_stream_and_vector_add() {
    run_with("lps.toml", "snake_prefetcher", "snake", &[]);
    run_with(
        "stream.toml",
        "snake_prefetcher",
        "snake",
        &["mem_interval=4"],
    );
    run_with(
        "vector_add.toml",
        "snake_prefetcher",
        "snake",
        &["sched=gto"],
    );
}

/// A Snake RTL built with another throttle pause stands in for a bug in
/// the throttle: the harness's lock-step catches it, which it can only do
/// if the harness raises `cache_full`.
#[test]
fn the_harness_lockstep_catches_a_wrong_throttle_pause() {
    use cosim::{BackendKind, CheckOptions, Checker};
    use ports::snake::SnakePrefetcher;
    use sim_model::harness::{unit_params, Harness, HarnessError};

    let mut a = RunArgs::new(root().join("kernels").join("lps.toml"));
    a.cosim = Some("snake_prefetcher".into());
    let (cfg, kernel) = gen::run::prepare(&a).unwrap();
    let p = unit_params::<SnakePrefetcher>(&cfg, &kernel).unwrap();
    let mut q = p.clone();
    q.THROTTLE_CYCLES = 10;
    let kind = if verilator() {
        BackendKind::Verilator
    } else {
        BackendKind::RustHdl
    };
    let f = cosim::backend_factory::<SnakePrefetcher>(kind, &q, None, None, false).unwrap();
    let checker = Checker::new::<SnakePrefetcher>(
        &p,
        f().unwrap(),
        None,
        CheckOptions {
            stimulus: "SM harness".into(),
            ..Default::default()
        },
    )
    .unwrap();
    match Harness::new(&kernel, &cfg)
        .probe("snake_prefetcher", Box::new(checker))
        .run()
    {
        Err(HarnessError::Lockstep { unit, mismatch, .. }) => {
            assert_eq!(unit, "snake_prefetcher");
            assert!(
                mismatch.diffs.iter().any(|d| d.port == "throttled"),
                "{mismatch:?}"
            );
        }
        Err(e) => panic!("expected a lock-step report, got {e}"),
        Ok(_) => panic!("the wrong throttle pause went unnoticed"),
    }
}

#[test]
fn ba_rtl_matches_golden_on_reuse_and_matrix_mul() {
    run("reuse.toml", "ba_tag_array", false, "ba");
    run("matrix_mul.toml", "ba_tag_array", true, "ba");
}

#[test]
fn cosim_enables_its_unit_and_rejects_unknown_ones() {
    // --cosim caps_prefetcher turns CAPS on even without --prefetcher caps.
    let mut a = RunArgs::new(root().join("kernels").join("vector_add.toml"));
    a.cosim = Some("caps_prefetcher".into());
    a.quiet = true;
    a.backend = Some(BackendArg::Rusthdl);
    run_command(&a).unwrap();
    a.cosim = Some("snake".into());
    let e = run_command(&a).unwrap_err().to_string();
    assert!(
        e.contains("unknown unit `snake`") && ports::UNIT_NAMES.iter().all(|u| e.contains(u)),
        "{e}"
    );
}

/// The harness's lock-step checker is the same one `warpgen cosim` uses:
/// a planted difference comes back as the structured report, with the
/// unit, the cycle, the differing port and the waveform.
#[test]
fn a_difference_in_the_harness_is_the_structured_report() {
    use cosim::{BackendKind, CheckOptions, Checker, Waveform};
    use ports::ba::BaTagArray;
    use sim_model::harness::{unit_params, Harness, HarnessError};

    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("h.vcd");
    let mut a = RunArgs::new(root().join("kernels").join("reuse.toml"));
    a.cosim = Some("ba_tag_array".into());
    let (cfg, kernel) = gen::run::prepare(&a).unwrap();
    let p = unit_params::<BaTagArray>(&cfg, &kernel).unwrap();
    // The RTL of another configuration (no bypassing) stands in for a bug.
    let mut q = p.clone();
    q.BA_ENABLE = 1 - q.BA_ENABLE;
    let f =
        cosim::backend_factory::<BaTagArray>(BackendKind::RustHdl, &q, None, None, true).unwrap();
    let checker = Checker::new::<BaTagArray>(
        &p,
        f().unwrap(),
        None,
        CheckOptions {
            waveform: Waveform::OnMismatch(vcd.clone()),
            stimulus: "SM harness".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let e = Harness::new(&kernel, &cfg)
        .probe("ba_tag_array", Box::new(checker))
        .run()
        .unwrap_err();
    match e {
        HarnessError::Lockstep {
            unit,
            cycle,
            mismatch,
        } => {
            assert_eq!(unit, "ba_tag_array");
            assert_eq!(mismatch.cycle, cycle);
            assert!(!mismatch.diffs.is_empty());
            assert_eq!(mismatch.vcd.as_deref(), Some(vcd.as_path()));
            let text = std::fs::read_to_string(&vcd).unwrap();
            assert!(text.contains("golden"), "no golden scope");
        }
        other => panic!("expected a lock-step report, got {other}"),
    }
}

/// `--vcd` in the harness writes a waveform only for a failing run: a
/// passing run leaves no file, and a file already at the path is left as
/// it was.
#[test]
fn a_passing_harness_run_writes_no_waveform() {
    use cosim::{BackendKind, CheckOptions, Checker, Waveform};
    use ports::ba::BaTagArray;
    use sim_model::harness::{unit_params, Harness};

    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("keep.vcd");
    std::fs::write(&vcd, "mine").unwrap();
    let mut a = RunArgs::new(root().join("kernels").join("reuse.toml"));
    a.cosim = Some("ba_tag_array".into());
    let (cfg, kernel) = gen::run::prepare(&a).unwrap();
    let p = unit_params::<BaTagArray>(&cfg, &kernel).unwrap();
    let f =
        cosim::backend_factory::<BaTagArray>(BackendKind::RustHdl, &p, None, None, true).unwrap();
    let checker = Checker::new::<BaTagArray>(
        &p,
        f().unwrap(),
        None,
        CheckOptions {
            waveform: Waveform::OnMismatch(vcd.clone()),
            stimulus: "SM harness".into(),
            ..Default::default()
        },
    )
    .unwrap();
    Harness::new(&kernel, &cfg)
        .probe("ba_tag_array", Box::new(checker))
        .run()
        .unwrap();
    assert_eq!(std::fs::read_to_string(&vcd).unwrap(), "mine");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "only the user's file remains: {left:?}");
}
