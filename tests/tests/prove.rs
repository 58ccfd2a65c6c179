//! `warpgen prove`: each unit's RTL is proved equivalent to its Yosys gate
//! netlist, and differences planted in the netlist are caught.
//!
//! Every unit's smallest configuration (`dac_expander`'s netlist removes
//! constant register bits, so the proof's induction over them runs; about
//! 4 minutes), `ba_tag_array`'s default one and the planted differences
//! run by default. The other proofs are `#[ignore]`d for time:
//! run them with `cargo test --release --test prove -- --ignored`, or
//! `warpgen prove` (`--all-configs` for the suite's whole list).

mod common;

use std::time::Duration;

use eda::Tool;
use ports::ConfigFile;

/// Each Yosys run's limit: `dac_expander`'s default equivalence takes
/// close to 600 s alone on a loaded 2-core machine.
const TIMEOUT: Duration = Duration::from_secs(1200);

/// Each unit's smallest compiled-in configuration.
const SMALL: &[(&str, &str)] = &[
    ("ba_tag_array", "[ba_tag_array]\nSETS = 2\nWAYS = 2\n"),
    (
        "caps_prefetcher",
        "[caps_prefetcher]\nN_CTA = 2\nPERCTA_ENTRIES = 1\nDIST_ENTRIES = 1\nCNT_W = 8\n",
    ),
    (
        "snake_prefetcher",
        "[snake_prefetcher]\nN_WARPS = 8\nTAIL_ENTRIES = 3\nLRU_GROUP = 3\n",
    ),
    (
        "dac_expander",
        "[dac_expander]\nN_WARPS = 8\nN_CTA = 4\nATQ_DEPTH = 4\nPWAQ_DEPTH = 2\nPWPQ_DEPTH = 2\n",
    ),
];

fn small_verilog(unit: &str) -> String {
    let text = SMALL.iter().find(|(u, _)| *u == unit).unwrap().1;
    let cfg = ConfigFile::parse(text, None).unwrap();
    gen::unit_table::unit(unit).unwrap().emit(&cfg).unwrap()
}

fn prove(unit: &str, v: &str) {
    let r = eda::prove_rtl_vs_synth(v, unit, TIMEOUT).unwrap();
    eprintln!(
        "{unit}: proved={} {} $equiv {} gate cells {:.1} s",
        r.proved,
        r.equiv_cells,
        r.gate_cells.unwrap_or(0),
        r.seconds
    );
    assert!(r.proved, "{unit}: {r:?}");
    assert_eq!(r.unproven, 0);
    assert!(r.equiv_cells > 0, "{unit}: nothing compared");
}

fn prove_small(unit: &str) {
    if !common::tool(Tool::Yosys) {
        return;
    }
    prove(unit, &small_verilog(unit));
}

fn prove_default(unit: &str) {
    if !common::tool(Tool::Yosys) {
        return;
    }
    let v = gen::unit_table::unit(unit)
        .unwrap()
        .emit(&ConfigFile::default())
        .unwrap();
    prove(unit, &v);
}

#[test]
fn ba_tag_array_proves() {
    prove_small("ba_tag_array");
}

#[test]
fn caps_prefetcher_proves() {
    prove_small("caps_prefetcher");
}

/// Proves since the netlist is synthesized with `synth -nofsm` (about 16 s).
#[test]
fn snake_prefetcher_proves() {
    prove_small("snake_prefetcher");
}

/// The netlist removes register bits that never change (line-aligned
/// address bits, unused mask bits): proved constant in the RTL first.
/// Needs `synth -nordff` (else `cwid.q[2:0]`, the memories' read address,
/// is copied into their read ports unnamed); 287 s, synthesis included.
#[test]
fn dac_expander_proves() {
    prove_small("dac_expander");
}

/// About 12 s, synthesis included.
#[test]
fn ba_tag_array_default_proves() {
    prove_default("ba_tag_array");
}

#[test]
#[ignore = "over 30 min since issue 29's pipeline (did not finish in Yosys's 1,800 s limit, session 52); run with --ignored or `warpgen prove --timeout N`"]
fn caps_prefetcher_default_proves() {
    prove_default("caps_prefetcher");
}

#[test]
#[ignore = "about 2 min (131 s, synthesis included); run with --ignored or `warpgen prove`"]
fn snake_prefetcher_default_proves() {
    prove_default("snake_prefetcher");
}

#[test]
#[ignore = "about 12 min (708 s, synthesis included); run with --ignored or `warpgen prove`"]
fn dac_expander_default_proves() {
    prove_default("dac_expander");
}

/// Replaces line `i` of `text` by `line`.
fn with_line(text: &str, i: usize, line: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(j, l)| if j == i { line } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Proves `bad` against `v`, expecting the planted difference to be caught.
fn assert_caught(v: &str, bad: &str, what: &str) -> eda::EquivReport {
    let r = eda::prove_equiv(v, bad, "ba_tag_array", TIMEOUT).unwrap();
    eprintln!(
        "{what}: proved={} unproven={} {:?}",
        r.proved,
        r.unproven,
        r.unproven_signals.first()
    );
    assert!(!r.proved, "{what}: the planted difference was not caught");
    assert!(r.unproven > 0, "{what}");
    assert!(!r.unproven_signals.is_empty(), "{what}: {}", r.log_tail);
    r
}

/// Swapping AND gates of the netlist for ORs is caught, naming an unproven
/// signal; the unmodified netlist proves.
#[test]
fn planted_gate_difference_is_caught() {
    if !common::tool(Tool::Yosys) {
        return;
    }
    let v = small_verilog("ba_tag_array");
    let net = eda::synth_gate_netlist(&v, "ba_tag_array", TIMEOUT).unwrap();
    let ands: Vec<(usize, &str)> = net
        .verilog
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("assign ") && l.contains(" & "))
        .collect();
    assert!(ands.len() > 2, "AND gates in the netlist");
    // The first, middle and last AND gate, each alone.
    for k in [0, ands.len() / 2, ands.len() - 1] {
        let (i, line) = ands[k];
        let bad_line = line.replacen(" & ", " | ", 1);
        let bad = with_line(&net.verilog, i, &bad_line);
        assert_caught(
            &v,
            &bad,
            &format!("`{}` -> `{}`", line.trim(), bad_line.trim()),
        );
    }
    let r = eda::prove_equiv(&v, &net.verilog, "ba_tag_array", TIMEOUT).unwrap();
    assert!(r.proved, "{r:?}");
}

/// The small `ba_tag_array`'s RTL, its gate netlist, and the index and text
/// of the netlist's first line matching `find` (`what` names it).
fn small_ba_netlist_line(
    what: &str,
    find: impl Fn(&str) -> bool,
) -> (String, eda::GateNetlist, usize, String) {
    let v = small_verilog("ba_tag_array");
    let net = eda::synth_gate_netlist(&v, "ba_tag_array", TIMEOUT).unwrap();
    let (i, line) = net
        .verilog
        .lines()
        .enumerate()
        .find(|(_, l)| find(l))
        .map(|(i, l)| (i, l.to_string()))
        .unwrap_or_else(|| panic!("{what} in the netlist"));
    (v, net, i, line)
}

/// Inverting the next state of one register (and nothing else) is caught,
/// and the register is the unproven signal named.
#[test]
fn planted_next_state_difference_is_caught() {
    if !common::tool(Tool::Yosys) {
        return;
    }
    // `    else \s_valid.q <= req_valid;`: the first pipeline stage's valid
    // bit, its non-reset update. (`r_valid`, the response's, is a copy of
    // `s_valid` one edge later, like the write buffer's `wb_valid`: Yosys
    // keeps one register for both.)
    let (v, net, i, line) = small_ba_netlist_line("s_valid's update", |l| {
        l.trim_start().starts_with("else \\s_valid.q") && l.contains(" <= ")
    });
    let (lhs, rhs) = line.split_once(" <= ").unwrap();
    let rhs = rhs.trim_end().trim_end_matches(';');
    let bad_line = format!("{lhs} <= ~({rhs});");
    let bad = with_line(&net.verilog, i, &bad_line);
    let r = assert_caught(&v, &bad, &format!("`{}` -> `{bad_line}`", line.trim()));
    assert!(
        r.unproven_signals.iter().any(|s| s.contains("s_valid.q")),
        "s_valid not named: {:?}",
        r.unproven_signals
    );
}

/// An output bit the netlist leaves undriven is compared, not skipped.
#[test]
fn planted_undriven_output_is_caught() {
    if !common::tool(Tool::Yosys) {
        return;
    }
    let (v, net, i, line) = small_ba_netlist_line("rsp_valid's driver", |l| {
        l.trim_start().starts_with("assign rsp_valid ")
    });
    let bad = with_line(&net.verilog, i, "");
    let r = assert_caught(&v, &bad, &format!("`{}` removed", line.trim()));
    // The RTL's rsp_valid net is also r_valid.q; Yosys names it either way.
    assert!(
        r.unproven_signals
            .iter()
            .any(|s| s.contains("rsp_valid") || s.contains("r_valid.q")),
        "rsp_valid not named: {:?}",
        r.unproven_signals
    );
}

/// A register that keeps line-aligned addresses: `synth` removes its low
/// bits, which never change, so the netlist has constants where the RTL has
/// flip-flops. `mask` is the alignment mask of the loaded address.
fn line_register(mask: &str) -> String {
    format!(
        "module line_reg(clock, reset, load, addr, q);
    input wire clock;
    input wire reset;
    input wire load;
    input wire [15:0] addr;
    output wire [15:0] q;
    reg [15:0] r;
    always @(posedge clock) begin
        if (reset) r <= 16'h0;
        else if (load) r <= addr & {mask};
    end
    assign q = r;
endmodule
"
    )
}

/// The register bits the netlist made constant are proved constant in the
/// RTL (one induction step) before they are used as constants.
#[test]
fn registers_the_netlist_made_constant_are_proved() {
    if !common::tool(Tool::Yosys) {
        return;
    }
    let v = line_register("16'hfff0");
    let net = eda::synth_gate_netlist(&v, "line_reg", TIMEOUT).unwrap();
    // The premise of this test: synth did remove the low flip-flops.
    assert!(
        net.verilog.contains("\\r_reg[4] ") && !net.verilog.contains("\\r_reg[0] "),
        "{}",
        net.verilog
    );
    let r = eda::prove_equiv(&v, &net.verilog, "line_reg", TIMEOUT).unwrap();
    assert!(r.proved, "{r:?}");
}

/// A netlist that holds a register bit constant when the RTL's bit does
/// change (here the netlist of a 32-byte-aligned register against 16-byte
/// RTL) is caught, naming the bit: the constant is not assumed.
#[test]
fn planted_constant_register_is_caught() {
    if !common::tool(Tool::Yosys) {
        return;
    }
    let v = line_register("16'hfff0");
    let bad = eda::synth_gate_netlist(&line_register("16'hffe0"), "line_reg", TIMEOUT).unwrap();
    let r = eda::prove_equiv(&v, &bad.verilog, "line_reg", TIMEOUT).unwrap();
    eprintln!("{:?} {:?}", r.unproven_signals, r.log_tail);
    assert!(!r.proved, "the planted constant was assumed");
    assert!(
        r.unproven_signals.iter().any(|s| s.contains("[4]")),
        "bit 4 not named: {:?}",
        r.unproven_signals
    );
}

/// The suite's configuration lists parse, validate and are the sizes the
/// co-simulation tests expect.
#[test]
fn suite_configs_are_listed() {
    let sizes = [
        ("ba_tag_array", 9),
        ("caps_prefetcher", 4),
        ("snake_prefetcher", 4),
        ("dac_expander", 3),
    ];
    for (unit, n) in sizes {
        let list = gen::unit_table::suite_configs(unit).unwrap();
        assert_eq!(list.len(), n, "{unit}");
        for (label, cfg) in &list {
            gen::unit_table::unit(unit)
                .unwrap()
                .validate(cfg)
                .unwrap_or_else(|e| panic!("{unit} {label}: {e}"));
        }
    }
    assert!(gen::unit_table::suite_configs("no_such_unit").is_err());
}

/// `warpgen prove` caches by the Verilog's content hash.
#[test]
fn cache_key_follows_the_verilog() {
    let a = gen::prove::cache_key("module a; endmodule\n", "a");
    assert_eq!(a, gen::prove::cache_key("module a; endmodule\n", "a"));
    assert_ne!(a, gen::prove::cache_key("module a;  endmodule\n", "a"));
    assert_eq!(a.len(), 64);
}
