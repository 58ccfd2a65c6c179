//! Unusable machine settings name the key, the value and what would be
//! accepted; the machine limits a run stops at, and `warpgen run`'s
//! configuration errors, name where the value came from.

mod common;
use common::{load_ok, GOOD_KERNEL as GOOD};

use harness::{role_choices, Kernel, MachineConfig, Role};

#[test]
fn machine_settings_name_what_would_be_accepted() {
    let mut c = MachineConfig::fermi();
    let e = c.set("prefetcher", "foo").unwrap_err();
    assert_eq!(
        e.to_string(),
        "configuration `prefetcher` = foo: expected none, caps, snake, intra, inter, mta, nlp or lap"
    );
    let e = c.set("l1", "xx").unwrap_err();
    assert_eq!(
        e.to_string(),
        "configuration `l1` = xx: expected lru, ba, ba-lru or bypass"
    );
    // The choices come from the unit table, the native one first.
    assert_eq!(role_choices(Role::L1)[0].0, "lru");
    assert_eq!(role_choices(Role::Prefetcher)[0].0, "none");
    let e = c.set("caps.FOO", "1").unwrap_err();
    assert_eq!(e.key, "caps.FOO");
    assert!(
        e.reason
            .starts_with("unknown caps_prefetcher parameter; known: N_CTA, PERCTA_ENTRIES"),
        "{e}"
    );
    let e = c.set("ba.BAR", "2").unwrap_err();
    assert!(
        e.reason
            .starts_with("unknown ba_tag_array parameter; known: SETS, WAYS"),
        "{e}"
    );
    let e = c.set("caps.N_CTA", "x").unwrap_err();
    assert_eq!(e.reason, "expected an integer");
    let e = c.set("zzz", "1").unwrap_err();
    assert!(
        e.reason
            .contains("caps.NAME, snake.NAME, ba.NAME, dac.NAME (and param.NAME"),
        "{e}"
    );
    // Accepted forms.
    c.set("l1", "ba_lru").unwrap();
    assert_eq!(c.l1, "ba-lru");
    c.set("caps.MISPRED_THRESHOLD", "64").unwrap();
    c.set("ba.REUSE_THRESHOLD", "2").unwrap();
    c.validate().unwrap();
}

#[test]
fn unit_parameters_are_checked_when_the_unit_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.toml");
    std::fs::write(&path, GOOD).unwrap();
    let k = Kernel::from_file(&path, &[], 1).unwrap();
    let run = |sets: &[(&str, &str)]| {
        let mut c = MachineConfig::fermi();
        for (a, b) in sets {
            c.set(a, b).unwrap();
        }
        harness::run(&k, &c).map(|_| ()).unwrap_err().to_string()
    };
    assert_eq!(
        run(&[("prefetcher", "caps"), ("caps.N_CTA", "4")]),
        "caps_prefetcher: N_CTA = 4 < 8 resident CTAs"
    );
    assert_eq!(
        run(&[("prefetcher", "caps"), ("caps.N_CTA", "3")]),
        "caps_prefetcher: parameter N_CTA = 3 is out of range: allowed a power of two in 2..=64"
    );
    assert_eq!(
        run(&[("l1", "ba"), ("ba.WAYS", "3")]),
        "configuration `ba` = : parameter WAYS = 3 is out of range: allowed a power of two in \
         1..=32"
    );
    assert_eq!(
        run(&[("l1", "ba"), ("l1_ways", "3"), ("l1_bytes", "12288")]),
        "configuration `l1_ways (with the BA tag array)` = 3: must be a power of two"
    );
    // Overrides of a unit that is not in the run are not checked.
    let mut c = MachineConfig::fermi();
    c.set("caps.N_CTA", "3").unwrap();
    harness::run(&k, &c).unwrap();
}

/// The machine limits a run stops at name the kernel file and the field or
/// the machine key.
#[test]
fn machine_limits_name_the_file_and_the_field() {
    use harness::HarnessError;
    let (_dir, k) = load_ok(&GOOD.replace("block = [64]", "block = [64]\nsmem_bytes = 65536"));
    let e = harness::run(&k, &MachineConfig::fermi()).unwrap_err();
    match &e {
        HarnessError::Kernel(ke) => assert_eq!(ke.field, "smem_bytes"),
        other => panic!("{other}"),
    }
    let s = e.to_string();
    assert!(
        s.contains("run_kernel.toml: field `smem_bytes`")
            && s.contains("65536 bytes")
            && s.contains("49152 (`shared_mem_bytes`)"),
        "{s}"
    );
    // 32 warps (CUDA's 1,024 threads) on an SM of 16.
    let (_dir, k) = load_ok(&GOOD.replace("block = [64]", "block = [1024]"));
    let mut c = MachineConfig::fermi();
    c.set("max_warps", "16").unwrap();
    let s = harness::run(&k, &c).unwrap_err().to_string();
    assert!(
        s.contains("run_kernel.toml: field `block`") && s.contains("`max_warps`"),
        "{s}"
    );
    let (_dir, k) = load_ok(GOOD);
    let mut c = MachineConfig::fermi();
    c.set("max_cycles", "20").unwrap();
    let s = harness::run(&k, &c).unwrap_err().to_string();
    assert!(
        s.contains("run_kernel.toml: the kernel did not finish within 20 cycles")
            && s.contains("`max_cycles`"),
        "{s}"
    );
}

/// `warpgen run`'s preparation names where a bad machine value comes from:
/// the `--set` option, or the preset file's line and field.
#[test]
fn configuration_errors_name_their_origin() {
    use gen::run::{prepare, RunArgs};
    let k = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/vector_add.toml");
    let err = |preset: &str, sets: &[&str]| {
        let mut a = RunArgs::new(&k);
        a.preset = preset.into();
        a.set = sets.iter().map(|s| s.to_string()).collect();
        format!("{:#}", prepare(&a).unwrap_err())
    };
    let e = err("fermi", &["l1_ways=abc"]);
    assert!(
        e.starts_with("--set l1_ways=abc: configuration `l1_ways` = abc"),
        "{e}"
    );
    let e = err("fermi", &["max_warps=100"]);
    assert!(
        e.starts_with("--set max_warps=100: configuration `max_warps` = 100: allowed 1..=64"),
        "{e}"
    );
    let e = err("fermi", &["max_cycles=0"]);
    assert!(
        e.starts_with("--set max_cycles=0: configuration `max_cycles` = 0"),
        "{e}"
    );
    let e = err("fermi", &["l1_ways=3"]);
    assert!(
        e.starts_with("preset `fermi`: configuration `l1_bytes`") && e.contains("--set l1_ways=3"),
        "{e}"
    );
    let e = err("caps-gtx480", &["l1_line=64", "l1_bytes=100"]);
    assert!(
        e.starts_with("--set l1_bytes=100: configuration `l1_bytes`"),
        "{e}"
    );
    let e = err("caps-gtx480", &["l2_ways=3"]);
    assert!(
        e.starts_with("presets/caps-gtx480.toml:") && e.contains("field `machine.l2_bytes`"),
        "{e}"
    );
}
