//! Tool discovery, versions, error messages, and hygiene of the runs.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{counter_tb, have, COUNTER};
use eda::{
    check_iverilog, lint_verilator, require_tool, run_iverilog_testbench, run_verilator_binary,
    synth_yosys, tool_available, tool_version, EdaError, Tool,
};

#[test]
fn versions_are_reported() {
    for (tool, word) in [
        (Tool::Verilator, "Verilator"),
        (Tool::Yosys, "Yosys"),
        (Tool::Iverilog, "Icarus Verilog"),
    ] {
        if !have(&[tool]) {
            continue;
        }
        assert!(require_tool(tool).is_ok());
        let v = tool_version(tool).unwrap();
        eprintln!("{tool}: {v}");
        assert!(v.starts_with(word), "{v}");
    }
}

#[test]
fn not_installed_message_names_the_package() {
    let err = EdaError::NotInstalled {
        tool: Tool::Iverilog,
        program: "vvp",
        package: Tool::Iverilog.package(),
    };
    let msg = err.to_string();
    assert!(msg.contains("apt-get install iverilog"), "{msg}");
    assert!(msg.contains("vvp"), "{msg}");
    assert_eq!(Tool::Verilator.package(), "verilator");
    assert_eq!(Tool::Yosys.package(), "yosys");
    // Availability agrees with require_tool.
    for tool in Tool::ALL {
        assert_eq!(tool_available(tool), require_tool(tool).is_ok());
    }
}

#[test]
fn missing_input_and_bad_top_are_errors() {
    let missing = Path::new("/nonexistent/warpgen/counter.v");
    if have(&[Tool::Yosys, Tool::Iverilog, Tool::Verilator]) {
        assert!(matches!(
            synth_yosys(missing, "counter", None),
            Err(EdaError::Input { .. })
        ));
        assert!(matches!(
            check_iverilog(missing, "counter"),
            Err(EdaError::Input { .. })
        ));
        assert!(matches!(
            lint_verilator(missing, "counter", &[]),
            Err(EdaError::Input { .. })
        ));
    }
    assert!(matches!(
        synth_yosys(missing, "a; shell", None),
        Err(EdaError::InvalidTop(_))
    ));
}

fn listing(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Every tool runs in its own temporary directory: nothing appears next to
/// the input files.
#[test]
fn nothing_is_written_next_to_the_input() {
    if !have(&[Tool::Yosys, Tool::Iverilog, Tool::Verilator]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("counter.v"), COUNTER).unwrap();
    std::fs::write(dir.path().join("counter_tb.v"), counter_tb(0)).unwrap();
    let before = listing(dir.path());
    let dut = dir.path().join("counter.v");
    let tb = dir.path().join("counter_tb.v");

    assert!(lint_verilator(&dut, "counter", &[]).unwrap().clean);
    check_iverilog(&dut, "counter").unwrap();
    synth_yosys(&dut, "counter", None).unwrap();
    let out = run_iverilog_testbench(&[&tb, &dut], "counter_tb").unwrap();
    assert!(out.contains("PASS"), "{out}");
    let out = run_verilator_binary(&[&tb, &dut], "counter_tb").unwrap();
    assert!(out.contains("PASS"), "{out}");

    assert_eq!(listing(dir.path()), before);
}
