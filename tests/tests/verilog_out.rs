//! The checked-in Verilog: fresh, deterministic, lint-clean, accepted by
//! Icarus, synthesizable by Yosys with no latch; its FuseSoC core files
//! fresh and accepted by FuseSoC.
//!
//! Tool tests skip (with a notice) when a tool is absent, unless
//! `WARPGEN_REQUIRE_EDA_TOOLS` is set (as in CI), when they fail.

mod common;
use common::{root, tool};

use std::path::PathBuf;
use std::process::Command;

use eda::Tool;
use gen::unit_table::{UnitCommands, UNITS};
use ports::ConfigFile;

fn checked_in(u: &dyn UnitCommands) -> (PathBuf, String) {
    let p = root().join("verilog-out").join(format!("{}.v", u.name()));
    let text = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e}; run `cargo run -p gen -- verilog`", p.display()));
    (p, text)
}

fn fresh(u: &dyn UnitCommands) -> String {
    u.emit(&ConfigFile::default()).unwrap()
}

#[test]
fn checked_in_verilog_matches_a_fresh_emission() {
    for &u in UNITS {
        let (path, text) = checked_in(u);
        let now = fresh(u);
        assert!(
            now == text,
            "{} is stale: regenerate it with `cargo run -p gen -- verilog` and commit",
            path.display()
        );
    }
}

fn checked_in_core(u: &dyn UnitCommands) -> (PathBuf, String) {
    let p = root()
        .join("verilog-out")
        .join(format!("{}.core", u.name()));
    let text = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e}; run `cargo run -p gen -- verilog`", p.display()));
    (p, text)
}

#[test]
fn checked_in_core_files_match_a_fresh_emission() {
    for &u in UNITS {
        let (path, text) = checked_in_core(u);
        let now = u.core_file(&ConfigFile::default()).unwrap();
        assert_eq!(now, u.core_file(&ConfigFile::default()).unwrap());
        assert!(
            now == text,
            "{} is stale: regenerate it with `cargo run -p gen -- verilog` and commit",
            path.display()
        );
        // The parameters as the Verilog header lists them.
        let (_, v) = checked_in(u);
        for line in v.lines().skip(2).map_while(|l| l.strip_prefix("//   ")) {
            assert!(
                text.contains(&format!("#   {line}\n")),
                "{}: `{line}` missing",
                path.display()
            );
        }
    }
}

/// Whether `fusesoc` is installed; like `common::tool`, a missing one fails
/// the test when `WARPGEN_REQUIRE_EDA_TOOLS` is set (`scripts/test`
/// installs it with pip).
fn fusesoc() -> bool {
    let ok = Command::new("fusesoc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("WARPGEN_REQUIRE_EDA_TOOLS").is_none(),
            "fusesoc is required (WARPGEN_REQUIRE_EDA_TOOLS is set) but not installed \
             (pip install fusesoc)"
        );
        eprintln!("SKIPPED: fusesoc not installed");
    }
    ok
}

/// `fusesoc --cores-root verilog-out ARGS`, run in a temporary folder (so
/// that nothing is written into the checkout); panics unless it succeeds.
fn run_fusesoc(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("fusesoc")
        .arg("--cores-root")
        .arg(root().join("verilog-out"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "fusesoc {args:?}:\n{text}");
    text
}

#[test]
fn fusesoc_accepts_the_core_files() {
    if !fusesoc() {
        return;
    }
    let list = run_fusesoc(&["core", "list"]);
    for &u in UNITS {
        let vlnv = gen::fusesoc::vlnv(u.name());
        assert!(list.contains(&vlnv), "{vlnv} not listed:\n{list}");
        let info = run_fusesoc(&["core-info", &vlnv]);
        assert!(info.contains(&format!("Name:        {vlnv}")), "{info}");
        assert!(!info.contains("WARNING"), "{info}");
    }
}

#[test]
fn fusesoc_lint_target_is_clean() {
    if !fusesoc() || !tool(Tool::Verilator) {
        return;
    }
    for &u in UNITS {
        let build = tempfile::tempdir().unwrap();
        let vlnv = gen::fusesoc::vlnv(u.name());
        let build_root = build.path().to_str().unwrap();
        let log = run_fusesoc(&["run", "--build-root", build_root, "--target=lint", &vlnv]);
        assert!(!log.contains("%Warning"), "{}:\n{log}", u.name());
    }
}

#[test]
fn emission_is_deterministic_and_follows_the_naming_rules() {
    for &u in UNITS {
        let a = fresh(u);
        let b = fresh(u);
        assert_eq!(a, b, "{} emission differs between runs", u.name());
        assert!(!a.contains("initial"), "initial block in {}", u.name());
        for line in a.lines() {
            if let Some(rest) = line.strip_prefix("module ") {
                let name = rest.split('(').next().unwrap();
                assert!(
                    name == u.name() || name.starts_with(&format!("{}__", u.name())),
                    "module {name} does not start with {}__",
                    u.name()
                );
            }
            // `$` only in system functions.
            let mut prev = ' ';
            for c in line.chars() {
                assert!(
                    !(c == '$' && (prev.is_ascii_alphanumeric() || prev == '_')),
                    "identifier with `$`: {line}"
                );
                prev = c;
            }
        }
    }
}

#[test]
fn verilator_lint_is_clean() {
    if !tool(Tool::Verilator) {
        return;
    }
    for &u in UNITS {
        let (path, _) = checked_in(u);
        let r = eda::lint_verilator(&path, u.name(), gen::report::LINT_WAIVERS).unwrap();
        assert!(r.clean, "{} lint:\n{}", u.name(), r.raw);
    }
}

#[test]
fn icarus_accepts_it() {
    if !tool(Tool::Iverilog) {
        return;
    }
    for &u in UNITS {
        let (path, _) = checked_in(u);
        eda::check_iverilog(&path, u.name()).unwrap();
    }
}

#[test]
fn yosys_synthesizes_it_without_latches() {
    if !tool(Tool::Yosys) {
        return;
    }
    for &u in UNITS {
        let (path, _) = checked_in(u);
        let r = eda::synth_yosys(&path, u.name(), None).unwrap();
        assert_eq!(r.latches, 0, "{} has latches", u.name());
        assert!(r.flip_flops > 0 && r.cells > 0);
    }
}
