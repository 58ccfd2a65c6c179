//! Malformed kernel files give errors naming the file, the line and the
//! field; unusable machine settings name the key, the value and what would
//! be accepted.

use sim_model::harness::{role_choices, Kernel, KernelError, MachineConfig, Role};

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
        &GOOD.replace("grid = [\"N / 64\"]", "grid = [\"N / 0\"]"),
        2,
        "grid[0]",
        "dimension 0",
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
        sim_model::harness::run(&k, &c)
            .map(|_| ())
            .unwrap_err()
            .to_string()
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
    sim_model::harness::run(&k, &c).unwrap();
}
