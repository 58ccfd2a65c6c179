//! Helpers shared by the integration tests. Each test file compiles this
//! module on its own and uses only part of it, hence the `dead_code` allow.
#![allow(dead_code)]

use std::path::PathBuf;

use eda::Tool;
use harness::metrics::PrefetchMetrics;
use harness::{Harness, Kernel, MachineConfig, Metrics};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The bundled kernels' folder.
pub fn kernels_dir() -> PathBuf {
    root().join("kernels")
}

/// A bundled kernel with parameter overrides, seed 1.
pub fn kernel(name: &str, params: &[(&str, i64)]) -> Kernel {
    let ps: Vec<(String, i64)> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    Kernel::from_file(&kernels_dir().join(name), &ps, 1).unwrap_or_else(|e| panic!("{e}"))
}

/// `lps.toml` at the dimensions the tests were written for, 128 x 128 x 32
/// with a 128-float pitch, before its defaults became laplace3d.cu's
/// 100 x 100 x 100 (the CAPS paper's run).
pub const LPS_128: &[(&str, i64)] = &[("NX", 128), ("NY", 128), ("NZ", 32)];

/// `matrix_mul.toml` at the sizes the tests were written for, the later
/// CUDA samples' A 160 x 160 and B 320 x 160 (wA = hA = 160, wB = 320),
/// before its defaults became the CUDA SDK 2.3 sizes the CAPS paper ran
/// (wA = 48, hA = 80, wB = 128).
pub const MM_160: &[(&str, i64)] = &[("WA", 160), ("HA", 160), ("WB", 320)];

/// The parameter overrides that give bundled kernel `name` the sizes the
/// older tests were written for ([`LPS_128`], [`MM_160`]); none for the
/// other kernels.
pub fn earlier_sizes(name: &str) -> &'static [(&'static str, i64)] {
    match name {
        "lps.toml" => LPS_128,
        "matrix_mul.toml" => MM_160,
        _ => &[],
    }
}

/// [`earlier_sizes`] as `param.NAME=V` settings (`RunArgs::set`, `--set`).
pub fn earlier_size_sets(name: &str) -> Vec<String> {
    earlier_sizes(name)
        .iter()
        .map(|(k, v)| format!("param.{k}={v}"))
        .collect()
}

/// The Fermi preset with `key=value` settings.
pub fn config(sets: &[(&str, &str)]) -> MachineConfig {
    let mut c = MachineConfig::fermi();
    for (k, v) in sets {
        c.set(k, v).unwrap();
    }
    c
}

/// Two runs did the same work: the same warp and memory instructions, L1
/// line requests, stored lines and CTAs (only their timing may differ).
pub fn same_work(x: &Metrics, y: &Metrics, what: &str) {
    assert_eq!(x.warp_instructions, y.warp_instructions, "{what}");
    assert_eq!(x.mem_instructions, y.mem_instructions, "{what}");
    assert_eq!(x.l1.accesses, y.l1.accesses, "{what}");
    assert_eq!(x.l1.store_lines, y.l1.store_lines, "{what}");
    assert_eq!(x.ctas, y.ctas, "{what}");
}

/// Run `k` on the Fermi preset with `sets`.
pub fn run(k: &Kernel, sets: &[(&str, &str)]) -> Metrics {
    Harness::new(k, &config(sets))
        .run()
        .unwrap_or_else(|e| panic!("{}: {e}", k.name))
}

/// The prefetcher's own counter `name` (`trainings`, `loads`, ...), which
/// must exist.
pub fn counter(p: &PrefetchMetrics, name: &str) -> u64 {
    p.counts
        .get(name)
        .unwrap_or_else(|| panic!("the prefetcher has no counter `{name}`: {:?}", p.counts))
}

/// Whether `t` is installed. When it is not, the calling test returns early
/// with a notice — unless `WARPGEN_REQUIRE_EDA_TOOLS` is set (as
/// `scripts/test` does), when the test fails instead.
pub fn tool(t: Tool) -> bool {
    if eda::tool_available(t) {
        return true;
    }
    assert!(
        std::env::var_os("WARPGEN_REQUIRE_EDA_TOOLS").is_none(),
        "{t:?} is required (WARPGEN_REQUIRE_EDA_TOOLS is set) but not installed"
    );
    eprintln!("SKIPPED: {t:?} not installed");
    false
}

/// [`tool`] for Verilator.
pub fn verilator() -> bool {
    tool(Tool::Verilator)
}

/// `verilator --lint-only -Wall` on Verilog text (top module `top`) with
/// the project's waivers (`gen::report::LINT_WAIVERS`). Call only when
/// [`verilator`] says Verilator is installed.
pub fn lint_text(verilog: &str, top: &str) -> eda::LintReport {
    let file = eda::TempVerilog::new(verilog, top).unwrap();
    eda::lint_verilator(file.path(), top, gen::report::LINT_WAIVERS).unwrap()
}

/// Random co-simulation of unit `U` with `p` on `kind` for `cycles` cycles
/// from `seed`: panics with the report on a difference.
pub fn cosim_random_run<U: cosim::CosimUnit>(
    kind: cosim::BackendKind,
    p: &U::Params,
    seed: u64,
    cycles: u64,
) {
    let opts = cosim::LockstepOptions {
        cycles,
        config_label: gen::unit_config::label(p),
        ..Default::default()
    };
    match cosim::cosim_random::<U>(kind, p, seed, &opts).expect("backend builds") {
        Ok(s) => {
            assert_eq!(s.cycles, cycles);
            eprintln!(
                "{} {}: {} cycles, {:.0} cycles/s",
                s.backend,
                gen::unit_config::label(p),
                s.cycles,
                s.cycles_per_second()
            );
        }
        Err(m) => panic!("{m}"),
    }
}

/// Random co-simulation of unit `U` with `p` against the golden model `B`
/// that has a planted bug, on Verilator when it is installed (else
/// rust-hdl), for `cycles` cycles from `seed`: the difference it reports.
pub fn planted_bug_mismatch<U, B>(p: &U::Params, seed: u64, cycles: u64) -> Box<cosim::Mismatch>
where
    U: cosim::CosimUnit,
    B: golden::GoldenModel<U> + Send,
{
    let kind = if verilator() {
        cosim::BackendKind::Verilator
    } else {
        cosim::BackendKind::RustHdl
    };
    let factory = cosim::backend_factory::<U>(kind, p, Some(3), None, false).unwrap();
    let mut stim = U::random_stimulus(p, seed);
    let opts = cosim::LockstepOptions {
        cycles,
        ..Default::default()
    };
    cosim::run_lockstep::<U, B>(p, factory.as_ref(), stim.as_mut(), &opts)
        .unwrap()
        .expect_err("the planted bug must be caught")
}

/// A small valid kernel file (`N` elements of `A` loaded and stored to `B`,
/// `load A[i]` on line 7) that the error tests break one field or line at a
/// time.
pub const GOOD_KERNEL: &str = r#"name = "k"
grid = ["N / 64"]
block = [64]
body = """
let i = ctaid.x * 64 + tid.x
if i < N {
  load A[i]
  store B[i]
}
"""

[params]
N = 1024

[arrays.A]
elem = 4
len = "N"

[arrays.B]
elem = 4
len = "N"
"#;

/// Load kernel text from a file named `run_kernel.toml` (which errors
/// name); the folder lives as long as the returned guard.
pub fn load_ok(text: &str) -> (tempfile::TempDir, Kernel) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run_kernel.toml");
    std::fs::write(&path, text).unwrap();
    let k = Kernel::from_file(&path, &[], 1).unwrap();
    (dir, k)
}
