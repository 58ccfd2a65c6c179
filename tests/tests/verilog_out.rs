//! The checked-in Verilog: fresh, deterministic, lint-clean, accepted by
//! Icarus, synthesizable by Yosys with no latch.
//!
//! Tool tests skip (with a notice) when a tool is absent, unless
//! `WARPGEN_REQUIRE_EDA_TOOLS` is set (as in CI), when they fail.

mod common;
use common::{root, tool};

use std::path::PathBuf;

use eda::Tool;
use gen::units::{UnitEntry, UNITS};
use ports::ConfigFile;

fn checked_in(u: &dyn UnitEntry) -> (PathBuf, String) {
    let p = root().join("verilog-out").join(format!("{}.v", u.name()));
    let text = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e}; run `cargo run -p gen -- verilog`", p.display()));
    (p, text)
}

fn fresh(u: &dyn UnitEntry) -> String {
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
