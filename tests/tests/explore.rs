//! `warpgen explore` (issue 31, item 2) on a grid small enough for the
//! suite: two `ba_tag_array` geometries of one or two sets, linted,
//! synthesized and timed at 1 GHz; every point measured and written, a point that
//! does not close marked, an impossible point refused before any work.

mod common;
use common::tool;

use eda::Tool;
use gen::explore::{explore, grid, point_config, render_table, svg, write_json, ExploreOptions};
use gen::unit_table::unit;
use ports::ConfigFile;

#[test]
fn a_small_grid_is_measured_plotted_and_written() {
    if !tool(Tool::Yosys) || !tool(Tool::OpenSta) {
        return;
    }
    let u = unit("ba_tag_array").unwrap();
    // WAYS = 1: every 1-bit vector rust-hdl bit-selects gets a range
    // (`hdl/src/scalar_range.rs`), or Verilator's lint would refuse it.
    let sweeps = vec!["SETS=1,2".parse().unwrap(), "WAYS=1,2".parse().unwrap()];
    let opts = ExploreOptions {
        clock_mhz: 1000.0,
        timing: true,
        jobs: 2,
        benefit: None,
    };
    let rows = explore(u, &ConfigFile::default(), &sweeps, &opts, None).unwrap();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert!(r.fmax_mhz.unwrap() > 0.0, "{r:?}");
        assert!(
            r.mapped_um2.unwrap() > 0.0 && r.ff_view_um2.unwrap() > 0.0,
            "{r:?}"
        );
        assert_eq!(r.closes, Some(r.slack_ns.unwrap() >= 0.0));
        assert!(r.storage_bits > 0 && r.flip_flops.unwrap() > 0);
        if tool(Tool::Verilator) {
            // Verilator accepts every point; one way has a constant
            // compare (`zsum >= threshold` with threshold WAYS/2 = 0: an
            // UNSIGNED warning), two ways are clean.
            assert!(r.lint_error.is_none() && r.lint_warnings.is_some(), "{r:?}");
            if r.point[1].1 == 2 {
                assert_eq!(r.lint_warnings, Some(0), "lint-clean: {r:?}");
            }
        }
    }
    // More sets, more storage; the same for ways.
    let bits = |s: u64, w: u64| {
        rows.iter()
            .find(|r| r.point == vec![("SETS".into(), s), ("WAYS".into(), w)])
            .unwrap()
            .storage_bits
    };
    assert!(bits(2, 1) > bits(1, 1) && bits(1, 2) > bits(1, 1));
    let table = render_table(&rows);
    assert!(table.contains("SETS=2 WAYS=2"), "{table}");
    let figure = svg(&rows, &sweeps).unwrap();
    assert!(figure.contains("against SETS") && figure.contains("against WAYS"));
    assert!(
        figure.contains("Pareto front"),
        "two sweeps: the Pareto view"
    );
    let dir = tempfile::tempdir().unwrap();
    let files = write_json(dir.path(), &rows).unwrap();
    assert_eq!(files.len(), 5);
    let one: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(one["unit"], "ba_tag_array");
}

#[test]
fn an_impossible_point_is_refused_naming_the_parameter() {
    let base = ConfigFile::default();
    let points = grid(&["WAYS=2,3".parse().unwrap()]);
    assert!(point_config(&base, "ba_tag_array", &points[0]).is_ok());
    let e = format!(
        "{:#}",
        point_config(&base, "ba_tag_array", &points[1]).unwrap_err()
    );
    assert!(e.contains("WAYS") && e.contains("WAYS=3"), "{e}");
    let e = format!(
        "{:#}",
        point_config(
            &base,
            "ba_tag_array",
            &grid(&["NO_SUCH=1".parse().unwrap()])[0]
        )
        .unwrap_err()
    );
    assert!(e.contains("NO_SUCH"), "{e}");
    // The whole grid is checked before any work: nothing is measured.
    let u = unit("ba_tag_array").unwrap();
    let opts = ExploreOptions {
        clock_mhz: 1000.0,
        timing: false,
        jobs: 1,
        benefit: None,
    };
    if tool(Tool::Yosys) {
        let e = explore(u, &base, &["WAYS=2,3".parse().unwrap()], &opts, None).unwrap_err();
        assert!(format!("{e:#}").contains("WAYS=3"), "{e:#}");
    }
}
