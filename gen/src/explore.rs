//! `warpgen explore`: a unit's design space as a grid of parameter values
//! (issue 31, item 2). Every point is emitted (elaborated on demand when
//! its widths are not compiled in), synthesized (Yosys: cells, flip-flops,
//! the memories' flip-flop and SRAM views) and mapped and timed at the
//! clock (ABC, OpenSTA: area, worst slack, fmax, logic levels), each step
//! cached by content like `warpgen report`; the points run in parallel on
//! the local cores. The result: one JSON per point, a table, and an SVG
//! (area in both views, fmax and storage bits against each swept parameter;
//! with two parameters swept, area against fmax with the Pareto front). A
//! point that does not close at the clock is marked, not dropped.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context};
use ports::ConfigFile;
use serde::Serialize;

use crate::plot::{panels, pareto_svg, BarChart, Group};
use crate::report::timing::{timing_at, ClockTarget};
use crate::report::{add_memories, synth_cached};
use crate::unit_table::UnitCommands;

/// One swept parameter: `NAME=v1,v2,...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The parameter's name, as in the unit's table.
    pub name: String,
    /// Its values, in the order given.
    pub values: Vec<u64>,
}

impl std::str::FromStr for Sweep {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, vals) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: give NAME=v1,v2,... (e.g. TAIL_ENTRIES=4,8,16,32)"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{s}`: the parameter's name is missing before `=`"));
        }
        let values = vals
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|e| format!("`{s}`: `{}` is not a whole number ({e})", v.trim()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if values.is_empty() {
            return Err(format!("`{s}`: no values after `=`"));
        }
        Ok(Sweep {
            name: name.to_string(),
            values,
        })
    }
}

/// One point of the grid: each swept parameter's value.
pub type Point = Vec<(String, u64)>;

/// Every combination of the sweeps' values, the first sweep slowest.
pub fn grid(sweeps: &[Sweep]) -> Vec<Point> {
    let mut points: Vec<Point> = vec![Vec::new()];
    for s in sweeps {
        points = points
            .into_iter()
            .flat_map(|p| {
                s.values.iter().map(move |&v| {
                    let mut q = p.clone();
                    q.push((s.name.clone(), v));
                    q
                })
            })
            .collect();
    }
    points
}

/// `NAME=v NAME2=v2`.
pub fn label(p: &Point) -> String {
    p.iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The configuration of one point: `base` with the unit's table extended
/// by the point's values (checked as a file would be: an unknown parameter
/// or an impossible value names the parameter).
pub fn point_config(base: &ConfigFile, unit: &str, p: &Point) -> anyhow::Result<ConfigFile> {
    let pairs: Vec<(&str, u64)> = p.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    base.with_params(unit, &pairs)
        .map_err(|e| anyhow!("{} ({}): {e}", unit, label(p)))
}

/// The measurements of one point.
#[derive(Clone, Debug, Serialize)]
pub struct PointResult {
    /// Unit name.
    pub unit: String,
    /// The swept parameters' values.
    pub point: Vec<(String, u64)>,
    /// The clock mapped and timed for, MHz.
    pub clock_mhz: f64,
    /// Storage bits of the RTL (the unit's storage table).
    pub storage_bits: u64,
    /// Bits of the paper's field layout for the same parameters.
    pub paper_bits: u64,
    /// Flip-flops after synthesis.
    pub flip_flops: Option<u64>,
    /// Area with every memory in flip-flops, µm² (Yosys on NanGate45).
    pub ff_view_um2: Option<f64>,
    /// Area with the memories that may be macros as fakeram45 SRAM, µm².
    pub sram_view_um2: Option<f64>,
    /// Area of the netlist ABC mapped for the clock, µm².
    pub mapped_um2: Option<f64>,
    /// Worst slack at the clock, ns (negative: it does not close).
    pub slack_ns: Option<f64>,
    /// The best clock the mapped netlist closes at, MHz.
    pub fmax_mhz: Option<f64>,
    /// Logic levels of the worst path.
    pub levels: Option<u32>,
    /// Whether the point closes at the clock.
    pub closes: Option<bool>,
}

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct ExploreOptions {
    /// The clock, MHz.
    pub clock_mhz: f64,
    /// Run OpenSTA (else synthesis only).
    pub timing: bool,
    /// Points measured at once.
    pub jobs: usize,
}

/// Measure one point.
pub fn measure(
    u: &dyn UnitCommands,
    cfg: &ConfigFile,
    point: &Point,
    opts: &ExploreOptions,
) -> anyhow::Result<PointResult> {
    let verilog = u.emit(cfg)?;
    let mut r = u.report(cfg, true)?;
    let synth = match &r.synth {
        Some(s) => s.clone(),
        None => synth_cached(&verilog, u.name())?,
    };
    add_memories(&mut r, &verilog, true, None)?;
    let mem = r.memories.as_ref();
    let mut out = PointResult {
        unit: u.name().to_string(),
        point: point.clone(),
        clock_mhz: opts.clock_mhz,
        storage_bits: r.storage.total_bits(),
        paper_bits: r.storage.paper_field_bits(),
        flip_flops: Some(synth.flip_flops),
        ff_view_um2: mem.and_then(|m| m.ff_total_um2).or(synth.area_um2),
        sram_view_um2: mem.and_then(|m| m.sram_total_um2),
        mapped_um2: None,
        slack_ns: None,
        fmax_mhz: None,
        levels: None,
        closes: None,
    };
    if opts.timing {
        let t = timing_at(&verilog, u.name(), &ClockTarget::new(opts.clock_mhz))?;
        out.mapped_um2 = t.area_um2;
        out.slack_ns = Some(t.worst.slack_ns);
        out.fmax_mhz = t.fmax_mhz();
        out.levels = Some(t.worst.levels);
        out.closes = Some(t.worst.slack_ns >= 0.0);
    }
    Ok(out)
}

/// Measure every point of `sweeps` over `base`, `opts.jobs` at a time,
/// with a progress bar on a terminal. The grid is checked before any
/// work: an invalid point is an error naming it.
pub fn explore(
    u: &dyn UnitCommands,
    base: &ConfigFile,
    sweeps: &[Sweep],
    opts: &ExploreOptions,
) -> anyhow::Result<Vec<PointResult>> {
    if sweeps.is_empty() {
        bail!("give at least one --sweep NAME=v1,v2,...");
    }
    let needs = if opts.timing {
        vec![eda::Tool::Yosys, eda::Tool::OpenSta]
    } else {
        vec![eda::Tool::Yosys]
    };
    for t in needs {
        if !eda::tool_available(t) {
            bail!("warpgen explore needs {t:?} (apt-get install yosys opensta)");
        }
    }
    let points = grid(sweeps);
    let cfgs = points
        .iter()
        .map(|p| {
            let c = point_config(base, u.name(), p)?;
            u.validate(&c)
                .map_err(|e| anyhow!("{} ({}): {e:#}", u.name(), label(p)))?;
            Ok(c)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    // A progress bar on a terminal only (indicatif draws nothing otherwise).
    let bar = indicatif::ProgressBar::new(points.len() as u64);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "explore {}: {{bar:30}} {{pos}}/{{len}} points, {{elapsed}} ({{eta}} left)",
            u.name()
        ))
        .expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<anyhow::Result<PointResult>>>> =
        Mutex::new((0..points.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1).min(points.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= points.len() {
                    break;
                }
                let r = measure(u, &cfgs[i], &points[i], opts)
                    .with_context(|| format!("{} ({})", u.name(), label(&points[i])));
                if let Ok(mut v) = results.lock() {
                    v[i] = Some(r);
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    results
        .into_inner()
        .map_err(|_| anyhow!("a worker panicked"))?
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow!("a point was not measured"))))
        .collect()
}

/// Write one JSON per point into `dir` (`<unit>_<NAME>-<v>_....json`) and
/// `explore.json` with all of them; returns the paths.
pub fn write_json(dir: &Path, rows: &[PointResult]) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut paths = Vec::new();
    for r in rows {
        let name: Vec<String> = r.point.iter().map(|(n, v)| format!("{n}-{v}")).collect();
        let p = dir.join(format!("{}_{}.json", r.unit, name.join("_")));
        crate::output::write_atomic(&p, &serde_json::to_string_pretty(r)?)?;
        paths.push(p);
    }
    let all = dir.join("explore.json");
    crate::output::write_atomic(&all, &serde_json::to_string_pretty(rows)?)?;
    paths.push(all);
    Ok(paths)
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

/// The points as a text table; a point that does not close is marked.
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
    let w = rows
        .iter()
        .map(|r| label(&r.point).len())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(
        s,
        "  {:<w$} {:>8} {:>8} {:>7} {:>10} {:>10} {:>10} {:>8} {:>6} {:>7}",
        "point",
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
    for r in rows {
        let _ = writeln!(
            s,
            "  {:<w$} {:>8} {:>8} {:>7} {:>10} {:>10} {:>10} {:>8} {:>6} {:>7}",
            label(&r.point),
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
    }
    s
}

/// The figures: for each swept parameter, area (both views), fmax and
/// storage bits against its values (one series per combination of the
/// other parameters); with two parameters swept, the Pareto view.
pub fn svg(rows: &[PointResult], sweeps: &[Sweep]) -> anyhow::Result<String> {
    let mut charts = Vec::new();
    for (k, s) in sweeps.iter().enumerate() {
        let others = |r: &PointResult| -> String {
            let o: Point = r
                .point
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, x)| x.clone())
                .collect();
            if o.is_empty() {
                String::new()
            } else {
                label(&o)
            }
        };
        let mut series: Vec<String> = Vec::new();
        for r in rows {
            let o = others(r);
            if !series.contains(&o) {
                series.push(o);
            }
        }
        let at = |v: u64, o: &str, f: &dyn Fn(&PointResult) -> Option<f64>| {
            rows.iter()
                .find(|r| r.point[k].1 == v && others(r) == o)
                .and_then(f)
        };
        let chart = |title: String, y: &str, f: &dyn Fn(&PointResult) -> Option<f64>, reference| {
            let names: Vec<String> = series
                .iter()
                .map(|o| {
                    if o.is_empty() {
                        y.to_string()
                    } else {
                        o.clone()
                    }
                })
                .collect();
            BarChart {
                title,
                y_label: y.into(),
                series: names,
                groups: s
                    .values
                    .iter()
                    .map(|&v| Group {
                        label: format!("{}={v}", s.name),
                        values: series.iter().map(|o| at(v, o, f)).collect(),
                    })
                    .collect(),
                y_range: None,
                reference,
            }
        };
        let unit = rows.first().map_or("", |r| r.unit.as_str());
        let clock = rows.first().map_or(0.0, |r| r.clock_mhz);
        charts.push(
            chart(
                format!("{unit}: area, memories in flip-flops, against {}", s.name),
                "area (um^2)",
                &|r| r.ff_view_um2,
                None,
            )
            .svg()?,
        );
        if rows.iter().any(|r| r.sram_view_um2.is_some()) {
            charts.push(
                chart(
                    format!(
                        "{unit}: area, memories as fakeram45 SRAM macros, against {}",
                        s.name
                    ),
                    "area (um^2)",
                    &|r| r.sram_view_um2,
                    None,
                )
                .svg()?,
            );
        }
        if rows.iter().any(|r| r.fmax_mhz.is_some()) {
            charts.push(
                chart(
                    format!(
                        "{unit}: fmax against {} (dashed: the {clock:.0} MHz target)",
                        s.name
                    ),
                    "fmax (MHz)",
                    &|r| r.fmax_mhz,
                    Some((clock, format!("{clock:.0} MHz"))),
                )
                .svg()?,
            );
        }
        let bits = BarChart {
            title: format!(
                "{unit}: storage bits against {} (RTL and the paper's layout)",
                s.name
            ),
            y_label: "bits".into(),
            series: vec!["RTL".into(), "paper's field layout".into()],
            groups: s
                .values
                .iter()
                .map(|&v| {
                    let r = rows.iter().find(|r| r.point[k].1 == v);
                    Group {
                        label: format!("{}={v}", s.name),
                        values: vec![
                            r.map(|r| r.storage_bits as f64),
                            r.map(|r| r.paper_bits as f64),
                        ],
                    }
                })
                .collect(),
            y_range: None,
            reference: None,
        };
        charts.push(bits.svg()?);
    }
    if sweeps.len() == 2 && rows.iter().all(|r| r.fmax_mhz.is_some()) {
        charts.push(pareto_svg(
            &format!(
                "{}: area against fmax, every point (Pareto front: no other point is both smaller and faster)",
                rows.first().map_or("", |r| r.unit.as_str())
            ),
            &rows
                .iter()
                .map(|r| {
                    (
                        label(&r.point),
                        r.ff_view_um2.unwrap_or(0.0),
                        r.fmax_mhz.unwrap_or(0.0),
                    )
                })
                .collect::<Vec<_>>(),
        )?);
    }
    Ok(panels(&charts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::pareto_front;

    #[test]
    fn sweeps_parse_and_say_what_is_wrong() {
        let s: Sweep = "TAIL_ENTRIES=4,8, 16".parse().unwrap();
        assert_eq!(s.name, "TAIL_ENTRIES");
        assert_eq!(s.values, vec![4, 8, 16]);
        assert!("TAIL_ENTRIES"
            .parse::<Sweep>()
            .unwrap_err()
            .contains("NAME=v1,v2"));
        assert!("=4"
            .parse::<Sweep>()
            .unwrap_err()
            .contains("name is missing"));
        assert!("X=4,a"
            .parse::<Sweep>()
            .unwrap_err()
            .contains("`a` is not a whole number"));
    }

    #[test]
    fn the_grid_is_every_combination_first_sweep_slowest() {
        let g = grid(&["A=1,2".parse().unwrap(), "B=5,6,7".parse().unwrap()]);
        assert_eq!(g.len(), 6);
        assert_eq!(label(&g[0]), "A=1 B=5");
        assert_eq!(label(&g[2]), "A=1 B=7");
        assert_eq!(label(&g[3]), "A=2 B=5");
    }

    #[test]
    fn the_pareto_front_keeps_only_undominated_points() {
        let p = vec![
            ("small slow".to_string(), 10.0, 300.0),
            ("big fast".to_string(), 30.0, 900.0),
            ("dominated".to_string(), 31.0, 800.0),
            ("middle".to_string(), 20.0, 500.0),
            ("tie".to_string(), 20.0, 400.0),
        ];
        assert_eq!(pareto_front(&p), vec![0, 1, 3]);
    }
}
