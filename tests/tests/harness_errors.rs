//! Malformed kernel files give errors naming the file, the line and the
//! field; unusable machine settings name the key, the value and what would
//! be accepted.

use harness::{role_choices, Kernel, KernelError, MachineConfig, Role};

const GOOD: &str = r#"name = "k"
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

fn load_bad(text: &str) -> KernelError {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad_kernel.toml");
    std::fs::write(&path, text).unwrap();
    let e = Kernel::from_file(&path, &[], 1).unwrap_err();
    let shown = e.to_string();
    assert!(shown.contains("bad_kernel.toml"), "{shown}");
    assert!(
        e.field.is_empty() || shown.contains(&format!("`{}`", e.field)),
        "{shown}"
    );
    e
}

fn expect(text: &str, line: u32, field: &str, msg: &str) {
    let e = load_bad(text);
    assert_eq!(e.line, Some(line), "{e}");
    assert_eq!(e.field, field, "{e}");
    assert!(e.msg.contains(msg), "{e}");
    assert!(
        e.to_string().contains(&format!(":{line}: field `{field}`")),
        "{e}"
    );
}

#[test]
fn good_file_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.toml");
    std::fs::write(&path, GOOD).unwrap();
    let k = Kernel::from_file(&path, &[], 1).unwrap();
    assert_eq!(k.grid, [16, 1, 1]);
}

#[test]
fn toml_syntax_error() {
    let e = load_bad(&GOOD.replace("block = [64]", "block = [64"));
    // Found where the parser gives up: the line after the open array.
    assert!(matches!(e.line, Some(3) | Some(4)), "{e}");
    assert!(
        e.msg.contains("TOML syntax error") && e.msg.contains("expected"),
        "{e}"
    );
}

#[test]
fn unknown_top_level_field() {
    expect(
        &GOOD.replace("block = [64]", "block = [64]\nthreads = 4"),
        4,
        "threads",
        "unknown field",
    );
}

#[test]
fn unknown_array_field() {
    expect(
        &GOOD.replace(
            "elem = 4\nlen = \"N\"\n\n[arrays.B]",
            "elem = 4\nsize = 3\nlen = \"N\"\n\n[arrays.B]",
        ),
        17,
        "size",
        "unknown field",
    );
}

#[test]
fn wrong_type() {
    expect(
        &GOOD.replace("name = \"k\"", "name = 3"),
        1,
        "name",
        "invalid type",
    );
}

#[test]
fn missing_field() {
    let e = load_bad(&GOOD.replace("block = [64]\n", ""));
    assert_eq!(e.field, "block");
    assert!(e.msg.contains("missing field"), "{e}");
}

#[test]
fn bad_parameter_expression() {
    expect(
        &GOOD.replace("N = 1024", "N = \"M * 2\""),
        13,
        "params.N",
        "unknown parameter `M`",
    );
}

#[test]
fn bad_element_size() {
    expect(
        &GOOD.replace(
            "elem = 4\nlen = \"N\"\n\n[arrays.B]",
            "elem = 3\nlen = \"N\"\n\n[arrays.B]",
        ),
        16,
        "arrays.A.elem",
        "element size 3",
    );
}

#[test]
fn bad_array_length() {
    expect(
        &GOOD.replace(
            "len = \"N\"\n\n[arrays.B]",
            "len = \"N - 2000\"\n\n[arrays.B]",
        ),
        17,
        "arrays.A.len",
        "length -976",
    );
}

#[test]
fn bad_grid() {
    expect(
        &GOOD.replace("grid = [\"N / 64\"]", "grid = [\"N / 2048\"]"),
        2,
        "grid[0]",
        "dimension 0 out of range (1..=2^31): `N / 2048` with N = 1024",
    );
    expect(
        &GOOD.replace("grid = [\"N / 64\"]", "grid = [1, 2, 3, 4]"),
        2,
        "grid",
        "1 to 3",
    );
}

#[test]
fn bad_contents() {
    let t = GOOD.replace(
        "[arrays.B]\nelem = 4\nlen = \"N\"",
        "[arrays.B]\nelem = 4\nlen = \"N\"\ncontents = { kind = \"fancy\" }",
    );
    expect(&t, 22, "arrays.B.contents", "unknown contents kind `fancy`");
    let t = GOOD.replace(
        "[arrays.B]\nelem = 4\nlen = \"N\"",
        "[arrays.B]\nelem = 4\nlen = \"N\"\ncontents = { kind = \"graph-edges\", graph = \"g\" }",
    );
    expect(&t, 22, "arrays.B.contents", "no graph `g`");
}

#[test]
fn body_errors_name_the_body_line() {
    expect(
        &GOOD.replace("  load A[i]", "  load C[i]"),
        7,
        "body",
        "unknown array `C`",
    );
    expect(
        &GOOD.replace("  load A[i]", "  load A[j]"),
        7,
        "body",
        "unknown name `j`",
    );
    expect(
        &GOOD.replace("  store B[i]", "  stor B[i]"),
        8,
        "body",
        "unknown statement `stor`",
    );
    expect(
        &GOOD.replace("if i < N {", "if i < N"),
        6,
        "body",
        "expected `{`",
    );
    expect(
        &GOOD.replace("  load A[i]", "  load A[i +]"),
        7,
        "body",
        "expected an expression",
    );
    expect(
        &GOOD.replace("  load A[i]", "  compute i"),
        7,
        "body",
        "constant",
    );
    expect(
        &GOOD.replace("  store B[i]\n}", "  store B[i]"),
        6,
        "body",
        "missing `}`",
    );
    expect(
        &GOOD.replace("let i =", "let N ="),
        5,
        "body",
        "is a parameter",
    );
    expect(
        &GOOD.replace("  load A[i]", "  load A[i] @0x10\n  load B[i] @0x10"),
        8,
        "body",
        "PC 0x10",
    );
}

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

// ------------------------------------------------------------ issue 13 item 3

/// `GOOD` with its `load A[i]` line (line 7) replaced by `stmt`.
fn with_stmt(stmt: &str) -> String {
    GOOD.replace("  load A[i]", stmt)
}

/// Every kernel that used to overflow the stack, divide by zero silently,
/// loop a negative or per-thread number of times, or show a wrapped value:
/// each is refused naming the file, the line and the field.
#[test]
fn malformed_kernels_name_file_line_and_field() {
    let deep_parens = format!("  load A[{}i{}]", "(".repeat(20_000), ")".repeat(20_000));
    let minus = format!("  load A[{}i]", "-".repeat(100_000));
    let chain = format!("  load A[{}]", vec!["i"; 100_000].join(" + "));
    let calls = format!(
        "  load A[{}i{}]",
        "min(1, ".repeat(20_000),
        ")".repeat(20_000)
    );
    let blocks = format!(
        "{}  load A[i]\n{}",
        "  if i < 5 {\n".repeat(20_000),
        "  }\n".repeat(20_000)
    );
    let else_ifs = format!(
        "  if i < 0 {{\n    load A[i]\n  {}}}",
        "} else if i < 1 {\n    load A[i]\n  ".repeat(20_000)
    );
    let unrolls =
        "  unroll a 4096 {\n  unroll b 4096 {\n  unroll c 4096 {\n  compute 1\n  }\n  }\n  }";
    let big = GOOD.replace("N = 1024", "N = 9223372036854775807");
    let table: Vec<(String, u32, &str, &str)> = vec![
        // 1. nesting
        (with_stmt(&deep_parens), 7, "body", "nested more than 128 levels"),
        (with_stmt(&minus), 7, "body", "nested more than 128 levels"),
        (with_stmt(&chain), 7, "body", "nested more than 128 levels"),
        (with_stmt(&calls), 7, "body", "nested more than 128 levels"),
        // The 65th nested block opens on line 6 + 64.
        (with_stmt(&blocks), 70, "body", "blocks nested more than 64 deep"),
        (with_stmt(&else_ifs), 133, "body", "blocks nested more than 64 deep"),
        (with_stmt(unrolls), 9, "body", "more than 16384 copies"),
        (
            GOOD.replace("N = 1024", &format!("N = \"{}1\"", "-".repeat(100_000))),
            13,
            "params.N",
            "nested more than 128 levels",
        ),
        // 2. constant zero divisors
        (with_stmt("  load A[i / 0]"), 7, "body", "constant divisor 0"),
        (with_stmt("  load A[i % 0]"), 7, "body", "constant divisor 0"),
        (with_stmt("  load A[i / (N - N)]"), 7, "body", "constant divisor 0"),
        (with_stmt("  let q = 1\n  q = A[i % (2 - 2)]"), 8, "body", "constant divisor 0"),
        (with_stmt("  if i % 0 == 1 {\n  }"), 7, "body", "constant divisor 0"),
        (
            GOOD.replace("grid = [\"N / 64\"]", "grid = [\"N / (64 - 64)\"]"),
            2,
            "grid[0]",
            "division by zero: 1024 / 0 (with N = 1024)",
        ),
        (
            GOOD.replace("N = 1024", "N = 1024\nM = \"N % 0\""),
            14,
            "params.M",
            "division by zero",
        ),
        // 3. loop counts
        (with_stmt("  loop q -5 {\n    load A[i]\n  }"), 7, "body", "`loop` count -5 is negative"),
        (with_stmt("  loop q N - 2000 {\n  }"), 7, "body", "`loop` count -976 is negative"),
        (with_stmt("  unroll q -5 {\n  }"), 7, "body", "`unroll` count -5 is negative"),
        (with_stmt("  loop q tid.x {\n  }"), 7, "body", "must be scalar"),
        (with_stmt("  loop q i {\n  }"), 7, "body", "is affine"),
        (with_stmt("  loop q i * i {\n  }"), 7, "body", "is non-affine"),
        (with_stmt("  loop q A[i] {\n  }"), 7, "body", "depends on loaded data"),
        // 4. overflow in parameter and size expressions
        (
            big.replace("len = \"N\"\n\n[arrays.B]", "len = \"N + 1\"\n\n[arrays.B]")
                .replace("grid = [\"N / 64\"]", "grid = [1]"),
            17,
            "arrays.A.len",
            "9223372036854775807 + 1 overflows the 64-bit integer range (with N = 9223372036854775807)",
        ),
        (
            big.clone(),
            2,
            "grid[0]",
            "dimension 144115188075855871 out of range (1..=2^31): `N / 64` with N = 9223372036854775807",
        ),
        (
            big.replace("N = 9223372036854775807", "N = 9223372036854775807\nM = \"N * 2\""),
            14,
            "params.M",
            "9223372036854775807 * 2 overflows the 64-bit integer range (with N = 9223372036854775807)",
        ),
        (
            GOOD.replace("N = 1024", "N = \"-(-9223372036854775807 - 1)\""),
            13,
            "params.N",
            "overflows",
        ),
        (
            GOOD.replace("N = 1024", "N = \"M\"\nM = \"N\""),
            14,
            "params.M",
            "`M` needs `N`, which cannot be resolved first",
        ),
        // A graph too large to build.
        (
            GOOD.replace(
                "[arrays.A]",
                "[graphs.g]\nnodes = 16777216\ndegree = [1, 4096]\n\n[arrays.A]",
            ),
            15,
            "graphs.g",
            "at most 2^25",
        ),
    ];
    for (text, line, field, msg) in table {
        let e = load_bad(&text);
        assert_eq!((e.line, e.field.as_str()), (Some(line), field), "{e}");
        assert!(e.msg.contains(msg), "want {msg:?}: {e}");
        assert!(
            e.to_string()
                .contains(&format!("bad_kernel.toml:{line}: field `{field}`")),
            "{e}"
        );
    }
    // The big N is named wherever its overflow shows.
    let e = load_bad(&big);
    assert!(e.msg.contains("N = 9223372036854775807"), "{e}");
    // An override of the same value: the same message.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.toml");
    std::fs::write(&path, GOOD.replace("N / 64", "(N + 63) / 64")).unwrap();
    let e = Kernel::from_file(&path, &[("N".into(), i64::MAX)], 1).unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (Some(2), "grid[0]"), "{e}");
    assert!(e.msg.contains("with N = 9223372036854775807"), "{e}");
}

/// Nesting just within the limits loads.
#[test]
fn nesting_within_the_limits_loads() {
    let parens = format!("  load A[{}i{}]", "(".repeat(100), ")".repeat(100));
    let blocks = format!(
        "{}  load A[i]\n{}",
        "  if i < 5 {\n".repeat(60),
        "  }\n".repeat(60)
    );
    for s in [
        parens,
        blocks,
        "  loop q N / 512 {\n    load A[i]\n  }".into(),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.toml");
        std::fs::write(&path, with_stmt(&s)).unwrap();
        Kernel::from_file(&path, &[], 1).unwrap();
    }
}

fn load_ok(text: &str) -> (tempfile::TempDir, Kernel) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run_kernel.toml");
    std::fs::write(&path, text).unwrap();
    let k = Kernel::from_file(&path, &[], 1).unwrap();
    (dir, k)
}

/// A divisor that is 0 for an active thread stops the run, naming the
/// kernel file and the statement's line; inactive threads' divisors do not
/// matter; the same under DAC.
#[test]
fn a_zero_divisor_at_run_time_names_file_and_line() {
    use harness::HarnessError;
    let cases = [
        ("  let d = tid.x - 3\n  load A[i / d]", 8),
        ("  let d = tid.x - 3\n  let q = i % d", 8),
        (
            "  loop j 4 {\n    if 8 / (2 - j) > 1 {\n      load A[j]\n    }\n  }",
            8,
        ),
        ("  loop j = 0 .. 64 / (tid.x - 5) {\n  }", 7),
        ("  let d = tid.x - 3\n  store B[i] = A[i / d]", 8),
    ];
    for (stmt, line) in cases {
        let (_dir, k) = load_ok(&with_stmt(stmt));
        for sets in [&[][..], &[("expander", "dac")][..]] {
            let mut c = MachineConfig::fermi();
            for (a, b) in sets {
                c.set(a, b).unwrap();
            }
            match harness::run(&k, &c) {
                Err(HarnessError::Kernel(e)) => {
                    assert_eq!(
                        (e.line, e.field.as_str()),
                        (Some(line), "body"),
                        "{stmt}: {e}"
                    );
                    assert!(e.file.ends_with("run_kernel.toml"), "{e}");
                    assert!(
                        e.to_string().contains(&format!(
                            "run_kernel.toml:{line}: field `body`: division by zero at run time"
                        )),
                        "{e}"
                    );
                }
                Err(e) => panic!("{stmt} {sets:?}: expected the zero divisor, got {e}"),
                Ok(_) => panic!("{stmt} {sets:?}: a zero divisor went unnoticed"),
            }
        }
    }
    // Guarded: the lanes whose divisor is 0 are inactive.
    let (_dir, k) = load_ok(&with_stmt(
        "  let d = tid.x - 3\n  if d != 0 {\n    load A[i % d]\n  }",
    ));
    harness::run(&k, &MachineConfig::fermi()).unwrap();
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
    let (_dir, k) = load_ok(&GOOD.replace("block = [64]", "block = [2048]"));
    let s = harness::run(&k, &MachineConfig::fermi())
        .unwrap_err()
        .to_string();
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

/// The kernel-file loader (TOML, parameters, arrays and graphs, body
/// statements, expressions) under a seeded mutation fuzzer: the bundled
/// kernels with bytes flipped, tokens swapped or replaced, deep nesting
/// inserted, numbers made huge, lines deleted, duplicated or spliced from
/// another kernel, and parameters overridden with extreme values. Every
/// input must load or be refused with an error naming the file (and, when
/// it gives one, a line of the file); none may panic, overflow the stack
/// (the workers have 2 MiB stacks, as test threads do) or hang.
///
/// `WARPGEN_FUZZ_CASES` sets the number of inputs (default 100,000),
/// `WARPGEN_FUZZ_SEED` the seed; a panicking input is written to
/// `target/fuzz-failures/`.
mod fuzz {
    use super::Kernel;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::path::Path;
    use std::time::{Duration, Instant};

    const NUMBERS: &[&str] = &[
        "0",
        "-1",
        "1",
        "-5",
        "7",
        "4096",
        "4097",
        "65536",
        "16777216",
        "2147483648",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "99999999999999999999",
        "0x7fffffffffffffff",
        "0xffffffffffffffff",
        "0x",
        "1e308",
        "nan",
        "inf",
        "-0",
        "1_000",
        "\"N * 0x7fffffffffffffff\"",
        "\"-(-9223372036854775807 - 1)\"",
        "\"1 / 0\"",
    ];

    const TOKENS: &[&str] = &[
        "let",
        "loop",
        "unroll",
        "if",
        "else",
        "load",
        "store",
        "compute",
        "use",
        "uses",
        "barrier",
        "step",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "/ 0",
        "% 0",
        "/",
        "%",
        "-",
        "!",
        "..",
        "->",
        "@",
        "=",
        "+=",
        "*=",
        ",",
        ";",
        "\n",
        "tid.x",
        "ctaid.y",
        "ntid.z",
        "warpSize",
        "min(",
        "max(",
        "&&",
        "||",
        "<=",
        "\"\"\"",
        "\"",
        "'",
        "[params]",
        "[arrays.X]",
        "[graphs.g]",
        "#",
        "//",
        "sfu",
        "dp",
        "tensor",
        "smem",
        "elem",
        "len",
        "contents",
        "kind",
        "graph-edges",
        "values",
        "nodes",
        "degree",
    ];

    const STATEMENTS: &[&str] = &[
        "loop q -5 {",
        "loop q tid.x {",
        "loop q = 0 .. 9223372036854775807 step 4611686018427387904 {",
        // (4096 copies of a kernel's body take a quarter of a second: the
        // limits are tested by the table above.)
        "unroll u 64 {",
        "unroll u 4097 {",
        "unroll u = 9223372036854775807 .. -9223372036854775808 step -1 {",
        "unroll u = -9223372036854775807 .. 9223372036854775807 step 9223372036854775807 {",
        "}",
        "} else {",
        "} else if 1 {",
        "let z = 1 / 0",
        "let z = tid.x / (tid.x - tid.x)",
        "compute 99999999999",
        "compute -1 sfu",
        "use nothing",
        "load nothing[0] @0",
        "load X[0] @4294967296",
        "barrier",
        "if 1 {",
    ];

    /// The bundled kernels, bfs's graph made small (its 65,536 nodes take
    /// most of the time otherwise).
    fn seeds() -> Vec<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 10, "{files:?}");
        files
            .iter()
            .map(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .replace("NODES = 65536", "NODES = 1024")
            })
            .collect()
    }

    /// Split into tokens: runs of word characters, of spaces, and single
    /// other characters.
    fn tokens(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut start = 0;
        let class = |c: char| {
            if c.is_alphanumeric() || c == '_' || c == '.' {
                0
            } else if c == ' ' || c == '\t' {
                1
            } else {
                2
            }
        };
        let mut prev = None;
        for (i, c) in s.char_indices() {
            let k = class(c);
            if prev.is_some() && (prev != Some(k) || k == 2) {
                out.push(&s[start..i]);
                start = i;
            }
            prev = Some(k);
        }
        if start < s.len() {
            out.push(&s[start..]);
        }
        out
    }

    fn pick<'a>(rng: &mut StdRng, v: &[&'a str]) -> &'a str {
        v[rng.gen_range(0..v.len())]
    }

    /// A char boundary of `s` at or before byte `i`.
    fn boundary(s: &str, mut i: usize) -> usize {
        i = i.min(s.len());
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    fn nesting(rng: &mut StdRng) -> String {
        // Mostly around the limits (128 levels of an expression, 64 of
        // blocks); now and then the 20,000 and 100,000 levels of the
        // inputs that used to overflow the stack.
        let k = match rng.gen_range(0..50) {
            0 => 100_000,
            1..=3 => 20_000,
            4..=15 => rng.gen_range(120..140),
            16..=25 => rng.gen_range(60..70),
            _ => rng.gen_range(1..40),
        };
        let rep = |a: &str, n: usize| a.repeat(n);
        match rng.gen_range(0..9) {
            0 => format!("{}1{}", rep("(", k), rep(")", k)),
            1 => format!("{}1", rep("-", k)),
            2 => format!("{}1", rep("!", k)),
            3 => vec!["1"; k + 1].join(" + "),
            4 => format!("{}1{}", rep("min(1, ", k), rep(")", k)),
            5 => format!("{}compute 1\n{}", rep("if 1 {\n", k), rep("}\n", k)),
            6 => format!("{}0{}", rep("A[", k), rep("]", k)),
            7 => format!("{}1{}", rep("[", k), rep("]", k)),
            _ => format!("{}1{}", rep("{a=", k), rep("}", k)),
        }
    }

    fn mutate(text: &str, seeds: &[String], rng: &mut StdRng) -> String {
        let mut s = text.to_string();
        for _ in 0..rng.gen_range(1..=4) {
            if s.is_empty() {
                s.push_str(&seeds[0]);
            }
            match rng.gen_range(0..10) {
                // A byte flipped (a bit, or a printable character).
                0 => {
                    let mut b = s.clone().into_bytes();
                    let i = rng.gen_range(0..b.len());
                    if rng.gen_bool(0.5) {
                        b[i] ^= 1 << rng.gen_range(0..8);
                    } else {
                        b[i] = rng.gen_range(0x20..0x7f);
                    }
                    s = String::from_utf8_lossy(&b).into_owned();
                }
                // Two tokens swapped.
                1 => {
                    let t = tokens(&s);
                    let (i, j) = (rng.gen_range(0..t.len()), rng.gen_range(0..t.len()));
                    let mut t: Vec<String> = t.into_iter().map(str::to_string).collect();
                    t.swap(i, j);
                    s = t.concat();
                }
                // A token replaced.
                2 => {
                    let mut t: Vec<String> = tokens(&s).into_iter().map(str::to_string).collect();
                    let i = rng.gen_range(0..t.len());
                    let from = if rng.gen_bool(0.5) { TOKENS } else { NUMBERS };
                    t[i] = pick(rng, from).to_string();
                    s = t.concat();
                }
                // Deep nesting inserted.
                3 => {
                    let i = boundary(&s, rng.gen_range(0..=s.len()));
                    s.insert_str(i, &nesting(rng));
                }
                // A number made huge (or odd).
                4 => {
                    let mut t: Vec<String> = tokens(&s).into_iter().map(str::to_string).collect();
                    let nums: Vec<usize> = (0..t.len())
                        .filter(|&i| t[i].starts_with(|c: char| c.is_ascii_digit()))
                        .collect();
                    if let Some(&i) = nums.get(rng.gen_range(0..nums.len().max(1))) {
                        t[i] = pick(rng, NUMBERS).to_string();
                    }
                    s = t.concat();
                }
                // Lines deleted.
                5 => {
                    let mut l: Vec<&str> = s.lines().collect();
                    if !l.is_empty() {
                        let i = rng.gen_range(0..l.len());
                        let n = rng.gen_range(1..=3).min(l.len() - i);
                        l.drain(i..i + n);
                    }
                    s = l.join("\n");
                }
                // A line duplicated, or two swapped.
                6 => {
                    let mut l: Vec<String> = s.lines().map(str::to_string).collect();
                    if !l.is_empty() {
                        let (i, j) = (rng.gen_range(0..l.len()), rng.gen_range(0..l.len()));
                        if rng.gen_bool(0.5) {
                            let d = l[i].clone();
                            l.insert(j, d);
                        } else {
                            l.swap(i, j);
                        }
                    }
                    s = l.join("\n");
                }
                // A line of another kernel spliced in.
                7 => {
                    let other = &seeds[rng.gen_range(0..seeds.len())];
                    let ol: Vec<&str> = other.lines().collect();
                    let mut l: Vec<&str> = s.lines().collect();
                    let i = rng.gen_range(0..=l.len());
                    l.insert(i, ol[rng.gen_range(0..ol.len())]);
                    s = l.join("\n");
                }
                // A statement inserted after the body's first line.
                _ => {
                    let at = s.find("body = \"\"\"\n").map_or(0, |i| i + 11);
                    let mut l: Vec<&str> = s[at..].lines().collect();
                    let i = rng.gen_range(0..=l.len().min(12));
                    l.insert(i, pick(rng, STATEMENTS));
                    s = format!("{}{}", &s[..at], l.join("\n"));
                }
            }
        }
        s
    }

    /// Parameter overrides with extreme values, now and then.
    fn overrides(text: &str, rng: &mut StdRng) -> Vec<(String, i64)> {
        if !rng.gen_bool(0.1) {
            return Vec::new();
        }
        let Some(at) = text.find("[params]") else {
            return Vec::new();
        };
        let names: Vec<&str> = text[at + 8..]
            .lines()
            .take_while(|l| !l.starts_with('['))
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim()))
            .filter(|k| !k.is_empty() && !k.starts_with('#'))
            .collect();
        if names.is_empty() {
            return Vec::new();
        }
        let v = [i64::MAX, i64::MIN, 0, -1, 1 << 40, 3][rng.gen_range(0..6)];
        vec![(names[rng.gen_range(0..names.len())].to_string(), v)]
    }

    struct Tally {
        loaded: u64,
        refused: u64,
        slowest: (Duration, u64),
        failures: Vec<String>,
    }

    fn worker(seeds: &[String], base: u64, cases: u64, w: u64, workers: u64) -> Tally {
        let mut t = Tally {
            loaded: 0,
            refused: 0,
            slowest: (Duration::ZERO, 0),
            failures: Vec::new(),
        };
        let mut case = w;
        while case < cases {
            let mut rng = StdRng::seed_from_u64(base ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let seed = &seeds[rng.gen_range(0..seeds.len())];
            let text = mutate(seed, seeds, &mut rng);
            let ov = overrides(&text, &mut rng);
            let start = Instant::now();
            let r = catch_unwind(AssertUnwindSafe(|| {
                Kernel::from_str(&text, "fuzz.toml", &ov, case)
            }));
            let took = start.elapsed();
            if took > t.slowest.0 {
                t.slowest = (took, case);
            }
            match r {
                Ok(Ok(_)) => t.loaded += 1,
                Ok(Err(e)) => {
                    t.refused += 1;
                    let shown = e.to_string();
                    let lines = text.lines().count() as u32 + 1;
                    let ok = e.file == "fuzz.toml"
                        && shown.starts_with("fuzz.toml")
                        && !e.msg.is_empty()
                        && e.line.is_none_or(|l| (1..=lines).contains(&l))
                        && (!e.field.is_empty() || e.msg.starts_with("TOML syntax error"));
                    if !ok {
                        t.failures
                            .push(format!("case {case}: malformed error: {shown}"));
                    }
                }
                Err(_) => t.failures.push(format!("case {case}: panicked")),
            }
            if !t.failures.is_empty() {
                // Kept for reproduction; this worker stops at its first.
                let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-failures");
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::fs::write(dir.join(format!("case-{case}.toml")), &text);
                break;
            }
            case += workers;
        }
        t
    }

    #[test]
    fn kernel_loader_survives_mutated_kernels() {
        let cases: u64 = std::env::var("WARPGEN_FUZZ_CASES")
            .ok()
            .and_then(|v| v.replace('_', "").parse().ok())
            .unwrap_or(100_000);
        let base: u64 = std::env::var("WARPGEN_FUZZ_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0x5EED_1303);
        let seeds = seeds();
        let workers = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .clamp(2, 8) as u64;
        let start = Instant::now();
        let tallies: Vec<Tally> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let seeds = &seeds;
                    std::thread::Builder::new()
                        .stack_size(2 << 20)
                        .spawn_scoped(sc, move || worker(seeds, base, cases, w, workers))
                        .unwrap()
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let loaded: u64 = tallies.iter().map(|t| t.loaded).sum();
        let refused: u64 = tallies.iter().map(|t| t.refused).sum();
        let slowest = tallies.iter().map(|t| t.slowest).max().unwrap_or_default();
        let failures: Vec<&String> = tallies.iter().flat_map(|t| &t.failures).collect();
        eprintln!(
            "kernel fuzz: {} inputs (seed {base:#x}) in {:.1} s on {workers} threads: {loaded} \
             loaded, {refused} refused, {} failed; slowest case {} took {:.1} ms",
            loaded + refused + failures.len() as u64,
            start.elapsed().as_secs_f64(),
            failures.len(),
            slowest.1,
            slowest.0.as_secs_f64() * 1e3
        );
        assert!(
            failures.is_empty(),
            "{failures:?} (inputs in target/fuzz-failures/)"
        );
        assert_eq!(loaded + refused, cases);
        // Both outcomes are exercised: the mutations keep many inputs valid.
        assert!(
            loaded > cases / 20 && refused > cases / 20,
            "{loaded} / {refused}"
        );
    }
}
