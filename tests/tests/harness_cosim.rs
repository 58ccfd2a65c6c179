//! Lock-step co-simulation inside the SM harness: each unit's RTL beside
//! its golden model over two paper kernels (issue item 7).

mod common;
use common::{root, verilator};

use cosim::BackendKind;
use gen::run::{run_command_with, PrefetcherArg, RunArgs};

fn backend() -> BackendKind {
    if verilator() {
        BackendKind::Verilator
    } else {
        BackendKind::RustHdl
    }
}

fn run(kernel: &str, unit: &str, caps: bool, l1: &str) {
    let mut a = RunArgs::new(root().join("kernels").join(kernel));
    a.cosim = Some(unit.into());
    a.quiet = true;
    if caps {
        a.prefetcher = PrefetcherArg::Caps;
    }
    a.set = vec![format!("l1={l1}")];
    let hook = gen::harness_cosim::hook(backend(), None);
    run_command_with(&a, Some(&hook)).unwrap_or_else(|e| panic!("{kernel} {unit}: {e:#}"));
}

#[test]
fn caps_rtl_matches_golden_on_lps_and_matrix_mul() {
    run("lps.toml", "caps_prefetcher", true, "lru");
    run("matrix_mul.toml", "caps_prefetcher", true, "lru");
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
    let hook = gen::harness_cosim::hook(BackendKind::RustHdl, None);
    run_command_with(&a, Some(&hook)).unwrap();
    a.cosim = Some("snake".into());
    let e = run_command_with(&a, Some(&hook)).unwrap_err().to_string();
    assert!(e.contains("caps_prefetcher or ba_tag_array"), "{e}");
}
