//! Verilator lint and Icarus elaboration on small fixtures (real tool runs).

mod common;

use common::{have, BAD, COUNTER, LATCHY, UNUSED, WIDTHY};
use eda::{check_iverilog, lint_verilator, EdaError, TempVerilog, Tool, Waiver};

#[test]
fn counter_lints_clean() {
    if !have(&[Tool::Verilator]) {
        return;
    }
    let src = TempVerilog::new(COUNTER, "counter").unwrap();
    let report = lint_verilator(src.path(), "counter", &[]).unwrap();
    assert!(report.clean, "{}", report.raw);
    assert!(report.warnings.is_empty());
}

#[test]
fn counter_passes_iverilog() {
    if !have(&[Tool::Iverilog]) {
        return;
    }
    let src = TempVerilog::new(COUNTER, "counter").unwrap();
    check_iverilog(src.path(), "counter").unwrap();
}

#[test]
fn width_mismatch_gives_width_warning() {
    if !have(&[Tool::Verilator]) {
        return;
    }
    let src = TempVerilog::new(WIDTHY, "widthy").unwrap();
    let report = lint_verilator(src.path(), "widthy", &[]).unwrap();
    assert!(!report.clean);
    let w = report
        .warnings
        .iter()
        .find(|w| w.is_width())
        .unwrap_or_else(|| panic!("no WIDTH warning in:\n{}", report.raw));
    // Verilator 5.006 says WIDTH; later releases WIDTHTRUNC.
    assert!(w.category == "WIDTH" || w.category == "WIDTHTRUNC", "{w:?}");
    assert_eq!(w.line, Some(6), "{w:?}");
    assert!(w.file.as_deref().unwrap().ends_with("widthy.v"), "{w:?}");
    assert!(w.message.contains("4 bits"), "{w:?}");
}

#[test]
fn width_waivers_are_refused() {
    // Refused before any tool runs, so this needs no Verilator.
    let src = TempVerilog::new(WIDTHY, "widthy").unwrap();
    for category in ["WIDTH", "WIDTHEXPAND", "WIDTHTRUNC", "Width"] {
        let waiver = Waiver {
            category,
            reason: "the slice is intended",
        };
        match lint_verilator(src.path(), "widthy", &[waiver]) {
            Err(EdaError::WaiverRefused { category: c, why }) => {
                assert_eq!(c, category);
                assert!(why.contains("conventions.md"), "{why}");
            }
            other => panic!("{category}: expected WaiverRefused, got {other:?}"),
        }
    }
    // The LINT group would waive WIDTH too.
    let lint_group = Waiver {
        category: "LINT",
        reason: "everything",
    };
    assert!(matches!(
        lint_verilator(src.path(), "widthy", &[lint_group]),
        Err(EdaError::WaiverRefused { .. })
    ));
}

#[test]
fn named_waiver_suppresses_its_category_only() {
    if !have(&[Tool::Verilator]) {
        return;
    }
    let src = TempVerilog::new(UNUSED, "unused").unwrap();
    let report = lint_verilator(src.path(), "unused", &[]).unwrap();
    assert!(!report.clean);
    assert!(report.has_category("UNUSEDSIGNAL"), "{}", report.raw);
    assert_eq!(report.of_category("UNUSEDSIGNAL").count(), 1);

    let waiver = Waiver {
        category: "UNUSEDSIGNAL",
        reason: "input b is reserved by the unit's port list",
    };
    let report = lint_verilator(src.path(), "unused", &[waiver]).unwrap();
    assert!(report.clean, "{}", report.raw);

    // A waiver of another category leaves the warning in place.
    let other = Waiver {
        category: "DECLFILENAME",
        reason: "test",
    };
    let report = lint_verilator(src.path(), "unused", &[other]).unwrap();
    assert!(report.has_category("UNUSEDSIGNAL"));
}

#[test]
fn latch_gives_latch_warning() {
    if !have(&[Tool::Verilator]) {
        return;
    }
    let src = TempVerilog::new(LATCHY, "latchy").unwrap();
    let report = lint_verilator(src.path(), "latchy", &[]).unwrap();
    assert!(report.has_category("LATCH"), "{}", report.raw);
}

#[test]
fn syntax_error_names_the_line() {
    let src = TempVerilog::new(BAD, "bad").unwrap();
    if have(&[Tool::Verilator]) {
        let err = lint_verilator(src.path(), "bad", &[]).unwrap_err();
        assert!(matches!(err, EdaError::ToolFailed { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("bad.v:6:"), "{text}");
        assert!(text.contains("syntax error"), "{text}");
    }
    if have(&[Tool::Iverilog]) {
        let err = check_iverilog(src.path(), "bad").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("bad.v:6:"), "{text}");
        assert!(err.tool_output().unwrap().contains("syntax error"));
    }
}

#[test]
fn wrong_top_is_an_error() {
    if !have(&[Tool::Verilator, Tool::Iverilog]) {
        return;
    }
    let src = TempVerilog::new(COUNTER, "counter").unwrap();
    assert!(lint_verilator(src.path(), "no_such_top", &[]).is_err());
    assert!(check_iverilog(src.path(), "no_such_top").is_err());
}
