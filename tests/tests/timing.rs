//! Static timing of the four units' checked-in default Verilog
//! (`verilog-out/<unit>.v`) with Yosys + OpenSTA on NanGate45
//! (`eda::time_verilog_with`, ABC mapped with buffering for 1.4 GHz as `warpgen report` does): each unit times without error, its fmax is
//! plausible, and its worst paths start and end at names of the design.
//!
//! Run with `--nocapture` to see each unit's paths and run times. The Yosys
//! mapping dominates (OpenSTA takes a few seconds).

mod common;
use common::{root, tool};

use std::path::{Path, PathBuf};
use std::time::Instant;

use eda::{time_verilog_with, EndpointKind, PathEndpoint, TimingOptions, TimingPath, Tool};

fn nangate45() -> PathBuf {
    eda::find_liberty(&root()).expect("shared/pdk/nangate45/nangate45_typ.lib beside the checkout")
}

/// The Verilog names of `rtl`: every identifier-like word.
fn words(rtl: &str) -> std::collections::HashSet<&str> {
    rtl.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// `m_tag[3]` -> `m_tag`.
fn base(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}

fn check_endpoint(unit: &str, e: &PathEndpoint, names: &std::collections::HashSet<&str>) {
    match e.kind {
        EndpointKind::InputPort | EndpointKind::OutputPort => {
            assert!(
                names.contains(base(&e.name)),
                "{unit}: port `{}` is not a name of the RTL",
                e.name
            );
        }
        EndpointKind::FlipFlop => {
            assert!(
                e.cell.is_some(),
                "{unit}: flip-flop {e:?} without a cell type"
            );
            let reg = e
                .register
                .as_deref()
                .unwrap_or_else(|| panic!("{unit}: flip-flop {e:?} has no register name"));
            // Flattened: `instance.register[bit]`, every part an RTL name.
            for part in base(reg).split('.') {
                assert!(
                    names.contains(part),
                    "{unit}: register `{reg}` is not a name of the RTL"
                );
            }
        }
        EndpointKind::Other => panic!("{unit}: unexpected path end {e:?}"),
    }
}

fn check_path(unit: &str, p: &TimingPath, names: &std::collections::HashSet<&str>) {
    check_endpoint(unit, &p.start, names);
    check_endpoint(unit, &p.end, names);
    let fmax = p.fmax_mhz.expect("a positive minimum period");
    // NanGate45 typical corner, mapped with buffering: a few GHz at most
    // (a flop and a gate or two) and not below 100 MHz (unbuffered, one X1
    // gate driving a fan-out of hundreds gave ~1 MHz: that is what this
    // bound catches).
    assert!(
        (100.0..5000.0).contains(&fmax),
        "{unit}: fmax {fmax} MHz is implausible"
    );
    assert!(
        p.levels >= 1 && p.levels < 500,
        "{unit}: {} levels",
        p.levels
    );
    assert!(p.delay_ns > 0.0 && p.setup_ns >= 0.0);
    assert!((p.min_period_ns - (p.delay_ns + p.setup_ns)).abs() < 2e-3);
    // The points add up to the arrival. (Arrival times may decrease along
    // the path: OpenSTA extrapolates a negative delay for a gate after an
    // unbuffered net with a transition of several ns, in caps_prefetcher.)
    let sum: f64 = p.points.iter().map(|pt| pt.incr_ns).sum();
    assert!(
        (sum - p.delay_ns).abs() < 1e-2,
        "{unit}: {sum} vs {}",
        p.delay_ns
    );
    let last = p.points.last().unwrap();
    assert!((last.arrival_ns - p.delay_ns).abs() < 1e-3);
}

fn time_unit(unit: &str) {
    if !tool(Tool::Yosys) || !tool(Tool::OpenSta) {
        return;
    }
    let file = root().join("verilog-out").join(format!("{unit}.v"));
    let rtl = std::fs::read_to_string(&file).unwrap();
    let names = words(&rtl);
    let t0 = Instant::now();
    // As `warpgen report` times it: ABC maps for the CAPS paper's 1.4 GHz
    // with buffering (without it, nets of hundreds of loads hang on one X1
    // gate and the delays are artefacts of the unbuffered mapping).
    let mut opts = TimingOptions::new("clock");
    opts.period_ns = 1000.0 / gen::report::PAPER_CLOCK_MHZ;
    opts.abc_buffering = true;
    let r = time_verilog_with(Path::new(&file), unit, &nangate45(), &opts)
        .unwrap_or_else(|e| panic!("{unit}: {e}"));
    let fmax = r.fmax_mhz().unwrap();
    assert!(
        (100.0..5000.0).contains(&fmax),
        "{unit}: fmax {fmax} MHz is not plausible for NanGate45"
    );
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "{unit}: {secs:.1} s (Yosys {:.1} s, OpenSTA {:.1} s)\n{}",
        r.yosys_seconds,
        r.sta_seconds,
        r.render()
    );
    assert_eq!(r.top, unit);
    assert!(r.cells > 0);
    check_path(unit, &r.worst, &names);
    let r2r = r
        .reg_to_reg
        .as_ref()
        .unwrap_or_else(|| panic!("{unit}: no register-to-register path"));
    check_path(unit, r2r, &names);
    assert_eq!(r2r.start.kind, EndpointKind::FlipFlop);
    assert_eq!(r2r.end.kind, EndpointKind::FlipFlop);
    // The overall worst path bounds the register-to-register one.
    assert!(r2r.min_period_ns <= r.worst.min_period_ns + 1e-6);
}

#[test]
fn ba_tag_array_times() {
    time_unit("ba_tag_array");
}

#[test]
fn caps_prefetcher_times() {
    time_unit("caps_prefetcher");
}

/// About 2 minutes of Yosys on two cores: `warpgen report` times it (cached).
#[test]
#[ignore = "2 minutes of Yosys mapping; run with --ignored"]
fn snake_prefetcher_times() {
    time_unit("snake_prefetcher");
}

/// About 5 minutes of Yosys on two cores: `warpgen report` times it (cached).
#[test]
#[ignore = "5 minutes of Yosys mapping; run with --ignored"]
fn dac_expander_times() {
    time_unit("dac_expander");
}
