//! Timing runs of small designs with Yosys and OpenSTA (skipped when they
//! are not installed).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::*;
use crate::error::EdaError;
use crate::installed::tool_available;
use crate::tool::Tool;

fn have_tools() -> bool {
    let ok = tool_available(Tool::Yosys) && tool_available(Tool::OpenSta);
    if !ok {
        assert!(
            std::env::var_os("WARPGEN_REQUIRE_EDA_TOOLS").is_none(),
            "yosys and sta are required (WARPGEN_REQUIRE_EDA_TOOLS is set)"
        );
        eprintln!("SKIPPED: yosys or sta (opensta) not installed");
    }
    ok
}

fn nangate45() -> PathBuf {
    crate::liberty::find_liberty(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/pdk/nangate45/nangate45_typ.lib beside the checkout")
}

/// `d` -> flop `r_src` -> a chain of `n` XORs, each with its own input
/// `k[i]` -> flop `t[n]`. Every intermediate XOR output is registered
/// too (`t[i]`), so synthesis cannot rebalance the chain into a tree,
/// and NanGate45 has no XOR wider than two inputs: exactly `n` XOR2 or
/// XNOR2 cells lie between `r_src` and `t[n]`.
fn chain(n: usize) -> String {
    let mut s = format!(
        "module chain(clock, d, k, q);\n  input clock;\n  input d;\n  input [{m}:0] k;\n  \
         output [{n}:1] q;\n  reg r_src;\n  reg [{n}:1] t;\n  wire [{n}:0] c;\n  \
         assign c[0] = r_src;\n",
        m = n - 1
    );
    for i in 0..n {
        let _ = writeln!(s, "  assign c[{}] = c[{i}] ^ k[{i}];", i + 1);
    }
    s.push_str(&format!(
        "  always @(posedge clock) begin\n    r_src <= d;\n    t <= c[{n}:1];\n  end\n  \
         assign q = t;\nendmodule\n"
    ));
    s
}

fn time_chain(n: usize) -> TimingReport {
    let src = crate::source::TempVerilog::new(&chain(n), "chain").unwrap();
    time_verilog(src.path(), "chain", &nangate45(), "clock").unwrap()
}

#[test]
fn gate_chain_levels_and_endpoint() {
    if !have_tools() {
        return;
    }
    let short = time_chain(4);
    let r2r = short
        .reg_to_reg
        .as_ref()
        .expect("a register-to-register path");
    assert_eq!(
        r2r.start.register.as_deref(),
        Some("r_src"),
        "{}",
        short.render()
    );
    assert_eq!(
        r2r.end.register.as_deref(),
        Some("t[4]"),
        "{}",
        short.render()
    );
    assert_eq!(r2r.start.kind, EndpointKind::FlipFlop);
    assert_eq!(r2r.levels, 4, "{}", short.render());
    assert_eq!(
        r2r.points
            .iter()
            .filter(
                |p| p.cell.as_deref() == Some("XOR2_X1") || p.cell.as_deref() == Some("XNOR2_X1")
            )
            .count(),
        4,
        "{}",
        short.render()
    );
    assert!(r2r.setup_ns > 0.0 && r2r.delay_ns > 0.0);
    assert!((r2r.min_period_ns - (r2r.delay_ns + r2r.setup_ns)).abs() < 2e-3);
    // The flop-to-flop path is the worst one here (inputs reach one XOR).
    assert_eq!(short.worst, *r2r, "{}", short.render());
    assert_eq!(short.wire_load.as_deref(), Some("5K_hvratio_1_1"));
    assert!(short.sta_version.starts_with("OpenSTA"));

    let long = time_chain(12);
    let long_r2r = long.reg_to_reg.as_ref().unwrap();
    assert_eq!(long_r2r.levels, 12, "{}", long.render());
    assert!(long_r2r.delay_ns > r2r.delay_ns + 0.1, "{}", long.render());
    assert!(long.fmax_mhz().unwrap() < short.fmax_mhz().unwrap());
    let json = serde_json::to_string(&long).unwrap();
    let back: TimingReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back, long);
}

#[test]
fn abc_buffering_maps_the_chain_too() {
    if !have_tools() {
        return;
    }
    let src = crate::source::TempVerilog::new(&chain(6), "chain").unwrap();
    let mut o = TimingOptions::new("clock");
    o.period_ns = 1.0;
    o.abc_buffering = true;
    let r = time_verilog_with(src.path(), "chain", &nangate45(), &o).unwrap();
    let r2r = r.reg_to_reg.as_ref().unwrap();
    assert_eq!(
        r2r.start.register.as_deref(),
        Some("r_src"),
        "{}",
        r.render()
    );
    assert_eq!(r2r.end.register.as_deref(), Some("t[6]"), "{}", r.render());
    // The timed script's delay-oriented restructuring may balance the
    // chain's port inputs `k[i]` into a tree ahead of `r_src`'s XOR (it
    // does: 4 levels), but no mapping beats a tree of the seven inputs.
    assert!((3..=6).contains(&r2r.levels), "{}", r.render());
    assert!(
        r.notes.iter().any(|n| n.contains("abc -D 1000")),
        "{:?}",
        r.notes
    );
}

/// A 32-bit subtraction between registers, mapped for 1 GHz, keeps a
/// carry tree: the register-to-register path has at most 16 logic levels.
/// With Yosys's own ABC script, whose `dc2` rewrites the carry tree into a
/// ripple chain, it had 33 (1.115 ns); with the flow's script 12 (0.657 ns).
#[test]
fn a_subtraction_keeps_its_carry_tree() {
    if !have_tools() {
        return;
    }
    let v = "module sub32(clock, a, b, s);\n  input clock;\n  input [31:0] a, b;\n  \
             output reg [31:0] s;\n  reg [31:0] ra, rb;\n  always @(posedge clock) begin\n    \
             ra <= a;\n    rb <= b;\n    s <= ra - rb;\n  end\nendmodule\n";
    let src = crate::source::TempVerilog::new(v, "sub32").unwrap();
    let mut o = TimingOptions::new("clock");
    o.period_ns = 1.0;
    o.abc_buffering = true;
    let r = time_verilog_with(src.path(), "sub32", &nangate45(), &o).unwrap();
    let r2r = r.reg_to_reg.as_ref().unwrap();
    assert!(r2r.levels <= 16, "{}", r.render());
    assert!(r.worst.slack_ns > 0.0, "{}", r.render());
}

/// The closure loop on a real design: a period ABC's own estimate misses
/// gives one mapping (ABC already sized for minimum delay) and a note; a
/// period that is met, one mapping and no note. (The remap itself is
/// exercised by the BA tag array's paper configuration at 1 GHz:
/// `tests/tests/timing.rs`.)
#[test]
fn a_missed_period_is_mapped_again_for_minimum_delay() {
    if !have_tools() {
        return;
    }
    let src = crate::source::TempVerilog::new(&chain(24), "chain").unwrap();
    let mut o = TimingOptions::new("clock");
    o.abc_buffering = true;
    o.period_ns = 20.0;
    let loose = time_verilog_with(src.path(), "chain", &nangate45(), &o).unwrap();
    assert!(loose.worst.slack_ns > 0.0, "{}", loose.render());
    assert!(
        !loose.notes.iter().any(|n| n.contains("mapped again")),
        "{:?}",
        loose.notes
    );
    o.period_ns = 0.2;
    let tight = time_verilog_with(src.path(), "chain", &nangate45(), &o).unwrap();
    assert!(tight.worst.slack_ns < 0.0, "{}", tight.render());
    assert!(
        tight
            .notes
            .iter()
            .any(|n| n.contains("already missed the 200 ps target")),
        "{:?}",
        tight.notes
    );
}

#[test]
fn the_abc_script_uses_wire_loads_and_the_target() {
    let timed = scripts::abc_script(Some(714));
    for part in [
        "&nf -D 714",
        "buffer -c",
        "upsize -c -D 714",
        "dnsize -c -D 714",
        "stime -c -p",
    ] {
        assert!(timed.contains(part), "{part} in {timed}");
    }
    // Delay-oriented restructuring, not `dc2`'s area rewriting, which turns
    // carry-lookahead adders into ripple chains.
    assert!(!timed.contains("dc2"), "{timed}");
    for part in ["&syn2", "&if -g", "&dch -f"] {
        assert!(timed.contains(part), "{part} in {timed}");
    }
    let fastest = scripts::abc_script(None);
    assert!(!fastest.contains("-D"), "{fastest}");
    assert!(fastest.contains("upsize -c;"), "{fastest}");
}

#[test]
fn errors_are_reported() {
    if !have_tools() {
        return;
    }
    let src = crate::source::TempVerilog::new(&chain(2), "chain").unwrap();
    let lib = nangate45();
    let e = time_verilog(src.path(), "chain", &lib, "clk").unwrap_err();
    assert!(e.to_string().contains("clock port `clk`"), "{e}");
    assert!(matches!(
        time_verilog(src.path(), "chain", &lib, "a b"),
        Err(EdaError::InvalidTop(_))
    ));
    assert!(matches!(
        time_verilog(src.path(), "nochain", &lib, "clock"),
        Err(EdaError::ToolFailed { .. })
    ));
    let mut o = TimingOptions::new("clock");
    o.period_ns = 0.0;
    assert!(time_verilog_with(src.path(), "chain", &lib, &o).is_err());
}

#[test]
fn remap_only_when_abc_believed_it_met_the_target() {
    // OpenSTA: missed; ABC: met (or unknown) -> map again.
    assert!(remap_for_minimum_delay(Some(979.0), 1000.0, -0.077));
    assert!(remap_for_minimum_delay(None, 1000.0, -0.01));
    // ABC already missed: it sized for minimum delay.
    assert!(!remap_for_minimum_delay(Some(3164.96), 1000.0, -2.3));
    // Met.
    assert!(!remap_for_minimum_delay(Some(900.0), 1000.0, 0.05));
    assert!(!remap_for_minimum_delay(None, 1000.0, 0.0));
}

#[test]
fn abc_delay_is_read_from_the_log() {
    let log = "ABC: + stime -c -p\nABC: WireLoad = \"5K_hvratio_1_1\"  Gates =  29338 ( 17.4 %)   \
               Cap =  4.5 ff (  3.1 %)   Area =    37336.29 ( 87.1 %)   Delay =  3164.96 ps  \
               ( 22.0 %)\nEnd of script.\n";
    assert_eq!(abc_delay_ps(log), Some(3164.96));
    assert_eq!(abc_delay_ps("no estimate here"), None);
    assert_eq!(abc_delay_ps("Delay = 12 ns"), None);
}
