//! The results of `warpgen explore`: one JSON per point (written as soon
//! as the point is measured, so an array task or an interrupted run keeps
//! what it did), `explore.json` with every point, and the table.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use super::grid::{label, Point};
use super::point::PointResult;

/// The JSON file of `point` of `unit` in `dir`: `<unit>_<NAME>-<v>_....json`.
pub fn point_path(dir: &Path, unit: &str, point: &Point) -> PathBuf {
    let name: Vec<String> = point.iter().map(|(n, v)| format!("{n}-{v}")).collect();
    dir.join(format!("{unit}_{}.json", name.join("_")))
}

/// Write one point's JSON into `dir`; returns its path.
pub fn write_point(dir: &Path, r: &PointResult) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let p = point_path(dir, &r.unit, &r.point);
    crate::output::write_atomic(&p, &serde_json::to_string_pretty(r)?)?;
    Ok(p)
}

/// Write one JSON per point into `dir` and `explore.json` with all of
/// them; returns the paths.
pub fn write_json(dir: &Path, rows: &[PointResult]) -> anyhow::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for r in rows {
        paths.push(write_point(dir, r)?);
    }
    let all = dir.join("explore.json");
    crate::output::write_atomic(&all, &serde_json::to_string_pretty(rows)?)?;
    paths.push(all);
    Ok(paths)
}

/// Read the JSON of every point of `points` of `unit` from `dir` (the
/// merge of array tasks). Fails naming each point that is missing,
/// unreadable, or measured for another unit, grid or clock, with the task
/// that makes it.
pub fn read_points(
    dir: &Path,
    unit: &str,
    points: &[Point],
    clock_mhz: f64,
    with_benefit: bool,
) -> anyhow::Result<Vec<PointResult>> {
    let mut rows = Vec::new();
    let mut bad = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let path = point_path(dir, unit, p);
        let got = std::fs::read_to_string(&path)
            .map_err(|_| "missing".to_string())
            .and_then(|t| {
                serde_json::from_str::<PointResult>(&t).map_err(|e| format!("unreadable: {e}"))
            })
            .and_then(|r| {
                if r.unit != unit || &r.point != p {
                    Err("written for another unit or point".into())
                } else if (r.clock_mhz - clock_mhz).abs() > 1e-9 {
                    Err(format!("measured at {} MHz, not {clock_mhz}", r.clock_mhz))
                } else if with_benefit && r.benefit.is_none() && r.benefit_refused.is_none() {
                    Err("measured without --kernel".into())
                } else {
                    Ok(r)
                }
            });
        match got {
            Ok(r) => rows.push(r),
            Err(why) => bad.push(format!(
                "  task {i} ({}): {}: {why}",
                label(p),
                path.display()
            )),
        }
    }
    if !bad.is_empty() {
        bail!(
            "{} of {} points are not ready to merge (run those tasks again with --task N):\n{}",
            bad.len(),
            points.len(),
            bad.join("\n")
        );
    }
    Ok(rows)
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

/// The points as a text table; a point that does not close is marked; with
/// `--kernel`, the harness's speed-up and the unit's figure of merit.
pub fn render_table(rows: &[PointResult]) -> String {
    let mut s = String::new();
    let Some(first) = rows.first() else {
        return s;
    };
    let _ = writeln!(
        s,
        "{}: {} points at {:.0} MHz (Yosys + ABC mapped for the clock, OpenSTA, NanGate45; areas in um^2)",
        first.unit,
        rows.len(),
        first.clock_mhz
    );
    let bench = rows.iter().find_map(|r| r.benefit.as_ref());
    if let Some(b) = bench {
        let _ = writeln!(
            s,
            "harness: {} on preset {} (baseline {} cycles){}",
            b.kernel,
            b.preset,
            b.base_cycles,
            b.base_value
                .map_or(String::new(), |v| format!(", baseline {} {v:.3}", b.figure))
        );
    }
    let w = rows
        .iter()
        .map(|r| label(&r.point).len())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = write!(
        s,
        "  {:<w$} {:>5} {:>8} {:>8} {:>7} {:>10} {:>10} {:>10} {:>8} {:>6} {:>7}",
        "point",
        "lint",
        "bits",
        "paper",
        "FFs",
        "FF view",
        "SRAM view",
        "mapped",
        "fmax",
        "levels",
        "closes"
    );
    let any_refused = rows.iter().any(|r| r.benefit_refused.is_some());
    if let Some(b) = bench {
        let _ = write!(s, " {:>8} {:>12}", "speedup", b.figure);
        if b.accuracy.is_some() {
            let _ = write!(s, " {:>8}", "accuracy");
        }
    } else if any_refused {
        let _ = write!(s, " {:>8}", "harness");
    }
    s.push('\n');
    for r in rows {
        let _ = write!(
            s,
            "  {:<w$} {:>5} {:>8} {:>8} {:>7} {:>10} {:>10} {:>10} {:>8} {:>6} {:>7}",
            label(&r.point),
            match (r.lint_warnings, &r.lint_error) {
                (_, Some(_)) => "ERR".to_string(),
                (Some(0), None) => "clean".to_string(),
                (Some(n), None) => format!("{n} w"),
                (None, None) => "-".into(),
            },
            r.storage_bits,
            r.paper_bits,
            r.flip_flops.map_or("-".into(), |f| f.to_string()),
            opt(r.ff_view_um2, 0),
            opt(r.sram_view_um2, 0),
            opt(r.mapped_um2, 0),
            opt(r.fmax_mhz, 0),
            r.levels.map_or("-".into(), |l| l.to_string()),
            match r.closes {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "-",
            }
        );
        match (&r.benefit, &r.benefit_refused) {
            (Some(x), _) => {
                let _ = write!(s, " {:>8.3} {:>12.3}", x.speedup, x.value);
                if let Some(a) = x.accuracy {
                    let _ = write!(s, " {a:>8.3}");
                }
            }
            (None, Some(_)) => s.push_str(" refused (below)"),
            (None, None) => {}
        }
        s.push('\n');
    }
    for r in rows {
        if let Some(e) = &r.lint_error {
            let _ = writeln!(s, "  {}: Verilator's lint failed: {e}", label(&r.point));
        }
        if let Some(why) = &r.benefit_refused {
            let _ = writeln!(s, "  {}: the harness refused: {why}", label(&r.point));
        }
    }
    s
}
