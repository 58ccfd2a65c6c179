//! `warpgen report` at a clock (`--clock-mhz`, `--clock-sweep`) with power
//! (`--activity`), on the smallest `ba_tag_array` (2 sets of 2 ways) so
//! that each Yosys mapping takes a second or two. Results are cached by
//! content like every timing run. Skipped with a notice without Yosys or
//! OpenSTA, failing instead under `WARPGEN_REQUIRE_EDA_TOOLS`.

mod common;
use common::{root, tool};

use eda::Tool;
use gen::report::activity::measure_activity;
use gen::report::sweep::clock_sweep;
use gen::report::ClockTarget;
use gen::unit_table::unit;
use ports::ConfigFile;

/// The smallest tag array the RTL is built for (2 sets, 2 ways).
fn small_ba() -> ConfigFile {
    ConfigFile::parse("[ba_tag_array]\nSETS = 2\nWAYS = 2\n", None).unwrap()
}

fn tools() -> bool {
    tool(Tool::Yosys) && tool(Tool::OpenSta)
}

/// The report's JSON at 1 GHz carries a slack and an fmax that agree:
/// fmax = 1000 / (period - slack); and the power it carries (activity
/// measured on a small `reuse` run) is positive in each part and sums.
#[test]
fn report_at_a_clock_has_consistent_slack_fmax_and_power() {
    if !tools() {
        return;
    }
    // Liberty lookup and bundled kernels are relative to the checkout.
    std::env::set_current_dir(root()).unwrap();
    let u = unit("ba_tag_array").unwrap();
    let cfg = small_ba();
    let kernel = root().join("kernels/reuse.toml");
    let (activity, source) = measure_activity(
        u,
        &kernel,
        &["param.NTHREADS=512", "param.ROUNDS=1", "param.STREAM=1"],
    )
    .unwrap();
    assert!(source.starts_with("measured"), "{source}");
    assert!(activity.iter().any(|a| a.activity > 0.0), "{activity:?}");
    assert!(activity
        .iter()
        .all(|a| (0.0..=2.0).contains(&a.activity) && (0.0..=1.0).contains(&a.duty)));
    let mut r = u.report(&cfg, true).unwrap();
    let target = ClockTarget {
        clock_mhz: 1000.0,
        power: true,
        activity,
    };
    u.add_timing(&mut r, &cfg, &target).unwrap();
    let v: serde_json::Value = serde_json::to_value(&r).unwrap();
    let t = &v["timing"];
    assert_eq!(t["clock_mhz"].as_f64(), Some(1000.0));
    let period = t["report"]["period_ns"].as_f64().unwrap();
    assert!((period - 1.0).abs() < 1e-9);
    let slack = t["slack_ns"].as_f64().unwrap();
    let fmax = t["fmax_mhz"].as_f64().unwrap();
    let expect = 1000.0 / (period - slack);
    assert!(
        (fmax - expect).abs() / expect < 1e-3,
        "fmax {fmax} vs 1000 / ({period} - {slack}) = {expect}"
    );
    assert!(t["levels"].as_u64().unwrap() >= 1);
    let p = &t["report"]["power"];
    let part = |k: &str| p[k].as_f64().unwrap();
    let (i, s, l, total) = (
        part("internal_w"),
        part("switching_w"),
        part("leakage_w"),
        part("total_w"),
    );
    assert!(i > 0.0 && s > 0.0 && l > 0.0, "{p}");
    assert!(
        (i + s + l - total).abs() <= 1e-3 * total,
        "{i} + {s} + {l} != {total}"
    );
    assert!(p["ports_with_activity"].as_u64().unwrap() > 0);
}

/// Two clocks: the worst slack falls as the clock rises.
#[test]
fn the_slack_falls_as_the_clock_rises() {
    if !tools() {
        return;
    }
    std::env::set_current_dir(root()).unwrap();
    let u = unit("ba_tag_array").unwrap();
    let rows = clock_sweep(&[u], &small_ba(), &[500.0, 1400.0]).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(
        rows[1].slack_ns < rows[0].slack_ns,
        "slack at 1400 MHz {} not below the slack at 500 MHz {}",
        rows[1].slack_ns,
        rows[0].slack_ns
    );
    for r in &rows {
        assert!(r.area_um2.is_some_and(|a| a > 0.0), "{r:?}");
        let f = r.fmax_mhz.unwrap();
        let expect = 1000.0 / (1000.0 / r.clock_mhz - r.slack_ns);
        assert!((f - expect).abs() / expect < 1e-3, "{r:?}");
    }
    let svg = gen::report::sweep::sweep_svg(&rows, &[500.0, 1400.0]).unwrap();
    assert!(svg.contains("<svg") && svg.contains("ba_tag_array"));
}
