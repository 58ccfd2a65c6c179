//! Lock-step co-simulation inside the SM harness: each unit's RTL beside
//! its golden model over two paper kernels (issue item 7; DAC: its issue's
//! item 5).

mod common;
use common::{earlier_size_sets, root, verilator};

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
    a.set.extend(earlier_size_sets(kernel));
    run_command(&a).unwrap_or_else(|e| panic!("{kernel} {unit}: {e:#}"));
}

/// A lock-step checker of unit `U` whose RTL is built with `rtl`'s
/// parameters while its golden model has `golden`'s: a planted bug.
fn planted_checker<U: cosim::unit::CosimUnit>(
    golden: &U::Params,
    rtl: &U::Params,
) -> Box<dyn golden::check::Probe> {
    use cosim::{BackendKind, CheckOptions, Checker};
    let kind = if verilator() {
        BackendKind::Verilator
    } else {
        BackendKind::RustHdl
    };
    let f = cosim::backend_factory::<U>(kind, rtl, None, None, false).unwrap();
    Box::new(
        Checker::new::<U>(
            golden,
            f().unwrap(),
            None,
            CheckOptions {
                stimulus: "SM harness".into(),
                ..Default::default()
            },
        )
        .unwrap(),
    )
}

#[test]
fn caps_rtl_matches_golden_on_lps_and_matrix_mul() {
    run("lps.toml", "caps_prefetcher", true, "lru");
    run("matrix_mul.toml", "caps_prefetcher", true, "lru");
}

/// Snake's revision-2 parameters at the values that reproduce revision 1
/// (`SnakeParams::revision1`): revision 1 stays a configuration, checked in
/// lock-step too. The harness still drives `ld_cta_end` and `ld_span`,
/// which revision 1 ignores.
const SNAKE_REV1: [&str; 5] = [
    "snake.OWN_LINKS=0",
    "snake.LOOP_HOPS=3",
    "snake.INTRA_DEGREE=1",
    "snake.IW_SAME_CTA=0",
    "snake.SPAN=0",
];

/// Snake with the L1 decoupled: the throttle's inputs come from the
/// cache (free-ups raise `cache_full`) and the memory (`bw_util`), and
/// `pf_ready` from the L1's acceptance.
#[test]
fn snake_rtl_matches_golden_on_lps_stream_and_vector_add() {
    fn with(extra: &'static str) -> Vec<&'static str> {
        Some(extra).into_iter().filter(|e| !e.is_empty()).collect()
    }
    run_with("lps.toml", "snake_prefetcher", "snake", &with(""));
    run_with("lps.toml", "snake_prefetcher", "snake", &SNAKE_REV1);
    run_with(
        "stream.toml",
        "snake_prefetcher",
        "snake",
        &with("mem_interval=4"),
    );
    run_with(
        "vector_add.toml",
        "snake_prefetcher",
        "snake",
        &with("sched=gto"),
    );
}

/// A Snake RTL built with another throttle pause stands in for a bug in
/// the throttle: the harness's lock-step catches it, which it can only do
/// if the harness raises `cache_full`.
#[test]
fn the_harness_lockstep_catches_a_wrong_throttle_pause() {
    use harness::{unit_params, Harness, HarnessError};
    use ports::snake::SnakePrefetcher;

    let mut a = RunArgs::new(root().join("kernels").join("lps.toml"));
    a.set = earlier_size_sets("lps.toml");
    a.cosim = Some("snake_prefetcher".into());
    let (cfg, kernel) = gen::run::prepare(&a).unwrap();
    let p = unit_params::<SnakePrefetcher>(&cfg, &kernel).unwrap();
    let mut q = p.clone();
    q.THROTTLE_CYCLES = 10;
    match Harness::new(&kernel, &cfg)
        .probe(
            "snake_prefetcher",
            planted_checker::<SnakePrefetcher>(&p, &q),
        )
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

/// DAC: the affine warp's tuples, the CTA launches and completions of each
/// batch, the early requests' acceptance and the warps' dequeues drive
/// the RTL and the golden model alike.
#[test]
fn dac_rtl_matches_golden_on_the_dac_example_and_matrix_mul() {
    for kernel in ["dac_example.toml", "matrix_mul.toml"] {
        let mut a = RunArgs::new(root().join("kernels").join(kernel));
        a.set = earlier_size_sets(kernel);
        a.cosim = Some("dac_expander".into());
        a.quiet = true;
        a.backend = Some(backend());
        run_command(&a).unwrap_or_else(|e| panic!("{kernel}: {e:#}"));
    }
}

/// A DAC RTL built with per-warp queues of 2 (the golden model has 4)
/// stands in for a bug in the queues: the harness's lock-step catches it,
/// which it can only do if the warps fall behind the affine warp far
/// enough to fill a queue.
#[test]
fn the_harness_lockstep_catches_shallower_per_warp_queues() {
    use harness::{unit_params, Harness, HarnessError};
    use ports::dac::DacExpander;

    let mut a = RunArgs::new(root().join("kernels").join("matrix_mul.toml"));
    a.set = earlier_size_sets("matrix_mul.toml");
    a.cosim = Some("dac_expander".into());
    let (cfg, kernel) = gen::run::prepare(&a).unwrap();
    let p = unit_params::<DacExpander>(&cfg, &kernel).unwrap();
    let mut q = p.clone();
    q.PWAQ_DEPTH = 2;
    q.PWPQ_DEPTH = 2;
    match Harness::new(&kernel, &cfg)
        .probe("dac_expander", planted_checker::<DacExpander>(&p, &q))
        .run()
    {
        Err(HarnessError::Lockstep { unit, mismatch, .. }) => {
            assert_eq!(unit, "dac_expander");
            assert!(!mismatch.diffs.is_empty(), "{mismatch:?}");
        }
        Err(e) => panic!("expected a lock-step report, got {e}"),
        Ok(_) => panic!("the shallower queue went unnoticed"),
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
    use harness::{unit_params, Harness, HarnessError};
    use ports::ba::BaTagArray;

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
            // The GTKWave view beside it: the cursor on the difference,
            // whose cycle the `mismatch` marker shows, and only signals of
            // the waveform.
            let save = std::fs::read_to_string(dir.path().join("h.gtkw")).expect("h.gtkw");
            let at = cycle * cosim::backend::CYCLE_TIME;
            assert_eq!(cosim::gtkw::cursor_time(&save), Some(at), "{save}");
            assert!(
                save.contains(&format!("[dumpfile] \"{}\"", vcd.display())),
                "{save}"
            );
            let header = &text[..cosim::vcd::header_end(&text).unwrap()];
            let names = cosim::gtkw::vcd_signal_names(header);
            for s in cosim::gtkw::referenced_signals(&save) {
                assert!(names.contains(&s), "{s} is not in the VCD");
            }
            let id = header
                .lines()
                .find(|l| l.contains(" mismatch $end"))
                .and_then(|l| l.split_whitespace().nth(3))
                .unwrap();
            let body = &text[text.find(&format!("\n#{at}\n")).unwrap()..];
            let this_cycle = &body[..body[1..].find("\n#").unwrap_or(body.len() - 1) + 1];
            assert!(
                this_cycle.lines().any(|l| l == format!("1{id}")),
                "{this_cycle}"
            );
            assert!(!text[..text.find(&format!("\n#{at}\n")).unwrap()]
                .lines()
                .any(|l| l == format!("1{id}")));
            let left = std::fs::read_dir(dir.path()).unwrap().count();
            assert_eq!(left, 2, "the VCD and its view, no partial file");
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
    use harness::{unit_params, Harness};
    use ports::ba::BaTagArray;

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
