//! Malformed kernel files give errors naming the file, the line and the field.

use sim_model::harness::{Kernel, KernelError};

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
