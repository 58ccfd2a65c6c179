//! Malformed kernel files give errors naming the file, the line and the
//! field. (Unusable machine settings: `harness_config_errors.rs`; the
//! kernel loader under a mutation fuzzer: `harness_kernel_fuzz.rs`.)

mod common;
use common::{load_ok, GOOD_KERNEL as GOOD};

use harness::{Kernel, KernelError, MachineConfig};

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
