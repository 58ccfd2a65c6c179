//! The `warpgen` binary: exit codes, messages, and no half-written output.

use std::process::Command;

fn warpgen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warpgen"))
}

/// `warpgen verilog --config <text> --out <dir>/o` in a fresh folder.
fn verilog_with_config(text: &str) -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = warpgen()
        .args(["verilog", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    (dir, out)
}

#[test]
fn help_lists_examples() {
    let out = warpgen().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("Examples:") && text.contains("warpgen cosim"),
        "{text}"
    );
}

#[test]
fn bad_parameter_names_it_and_writes_nothing() {
    let (dir, out) = verilog_with_config("[ba_tag_array]\nWAYS = 6\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("WAYS = 6") && err.contains("power of two"),
        "{err}"
    );
    assert!(!dir.path().join("o").exists(), "nothing may be written");
}

#[test]
fn unknown_unit_table_and_parameter_are_errors() {
    for (text, needle) in [
        (
            "[ba_tag_arry]\nWAYS = 4\n",
            "unknown unit table [ba_tag_arry]",
        ),
        ("[ba_tag_array]\nWAYZ = 4\n", "WAYZ"),
        ("[ba_tag_array\n", "c.toml"),
    ] {
        let (_dir, out) = verilog_with_config(text);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{text}: {err}");
    }
}

#[test]
fn unsupported_geometry_lists_what_can_be_built() {
    let (_dir, out) = verilog_with_config("[ba_tag_array]\nLINE_BYTES = 64\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Configurations that can be built"), "{err}");
}

#[test]
fn emission_is_byte_identical_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for i in 0..2 {
        let o = dir.path().join(format!("o{i}"));
        let out = warpgen()
            .arg("verilog")
            .arg("--out")
            .arg(&o)
            .output()
            .unwrap();
        assert!(out.status.success());
        texts.push(std::fs::read(o.join("ba_tag_array.v")).unwrap());
    }
    assert_eq!(texts[0], texts[1]);
}

#[test]
fn scenario_cosim_passes_on_the_embedded_backend() {
    let out = warpgen()
        .args([
            "cosim",
            "--unit",
            "ba_tag_array",
            "--backend",
            "rusthdl",
            "--scenario",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("PASS ba_tag_array"), "{text}");
}

#[test]
fn report_json_has_the_papers_256_bits() {
    let out = warpgen()
        .args([
            "report",
            "--unit",
            "ba_tag_array",
            "--format",
            "json",
            "--no-synth",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["storage"]["paper_bits"], 256);
}
