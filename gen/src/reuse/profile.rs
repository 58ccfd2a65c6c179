//! The reuse-distance profile of a run as one SVG of stacked panels
//! (`warpgen run --reuse-distance FILE.svg`), and the helpers the study's
//! figure shares.

use anyhow::{anyhow, Result};
use harness::metrics::{ReuseMetrics, ReusePc};
use harness::Metrics;

use crate::output::OutputFile;
use crate::plot::{panels, BarChart, Group, StackedChart, StackedX};

/// Loads drawn in the per-load panels (the most accessed).
const MAX_LOADS: usize = 20;

/// The profile of a run's kernels as one: counts summed, each kernel's
/// timeline after the previous kernel's cycles. `None` when the runs have
/// no profile (`reuse_analysis = false`).
pub fn combined(runs: &[Metrics]) -> Option<ReuseMetrics> {
    let mut out: Option<ReuseMetrics> = None;
    let mut start = 0;
    for m in runs {
        let r = m.reuse.as_ref()?;
        match out.as_mut() {
            None => out = Some(r.clone()),
            Some(o) => {
                let mut rest = r.clone();
                rest.timeline = Default::default();
                o.add(&rest);
                o.timeline.append(&r.timeline, start);
            }
        }
        start += m.cycles;
    }
    out
}

pub(crate) fn pct(x: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * x as f64 / n as f64
    }
}

/// The seven intervals as (name, per-position values) series of shares.
pub(crate) fn interval_series(
    names: &[String; 7],
    rows: &[([u64; 7], u64)],
) -> Vec<(String, Vec<f64>)> {
    (0..7)
        .map(|k| {
            (
                names[k].clone(),
                rows.iter().map(|(iv, n)| pct(iv[k], *n)).collect(),
            )
        })
        .collect()
}

pub(crate) fn rd_series(rows: &[([u64; 3], u64)]) -> Vec<(String, Vec<f64>)> {
    ["rd0 (hit)", "rd1 (miss, seen)", "rd2 (first access)"]
        .iter()
        .enumerate()
        .map(|(k, name)| {
            (
                name.to_string(),
                rows.iter().map(|(rd, n)| pct(rd[k], *n)).collect(),
            )
        })
        .collect()
}

/// A load's label on the x axis: its PC and array.
fn load_label(p: &ReusePc) -> String {
    match p.load.split(" (").next() {
        Some(a) if !a.is_empty() => format!("{:#x} {a}", p.pc),
        _ => format!("{:#x}", p.pc),
    }
}

/// The profile's panels as one SVG document (module documentation):
/// histogram, over time, per load (intervals), per load (classes).
/// `what` names the kernel(s) in the titles.
pub fn profile_svg(what: &str, r: &ReuseMetrics) -> Result<String> {
    let names = r.interval_names();
    let n = r.profiled;
    let set_label = format!("per set ({} x {}-way)", r.sets, r.ways);
    let full_label = format!("fully associative ({} lines)", r.capacity);
    let below: u64 = r.intervals[..5].iter().sum();
    let mut groups: Vec<Group> = (0..7)
        .map(|k| Group {
            label: names[k].clone(),
            values: vec![
                Some(pct(r.set_intervals[k], n)),
                Some(pct(r.intervals[k], n)),
            ],
        })
        .collect();
    for (label, set, full) in [
        ("rd0 hit", r.rd0, below),
        ("rd1 miss", r.rd1, r.intervals[5]),
        ("rd2 first", r.rd2, r.intervals[6]),
    ] {
        groups.push(Group {
            label: label.into(),
            values: vec![Some(pct(set, n)), Some(pct(full, n))],
        });
    }
    let hist = BarChart {
        title: format!("{what}: reuse distance of {n} L1 accesses"),
        y_label: "% of profiled accesses".into(),
        series: vec![set_label, full_label.clone()],
        groups,
        y_range: None,
        reference: None,
    };
    let mut charts = vec![hist.svg()?];

    let tl = &r.timeline;
    if !tl.intervals.is_empty() {
        let rows: Vec<([u64; 7], u64)> =
            tl.intervals.iter().map(|w| (*w, w.iter().sum())).collect();
        let time = StackedChart {
            title: format!("{what}: reuse distance over time, {full_label} (thesis Fig. 13)"),
            x_label: format!("cycle (windows of {} cycles)", tl.window_cycles),
            x: StackedX::Bins {
                start: 0.0,
                width: tl.window_cycles as f64,
            },
            y_label: "% of the window's accesses".into(),
            y_range: Some((0.0, 100.0)),
            series: interval_series(&names, &rows),
            line: Some((
                "accesses".into(),
                rows.iter().map(|(_, n)| Some(*n as f64)).collect(),
                "accesses per window".into(),
            )),
            line_range: None,
        };
        charts.push(time.svg()?);
    }

    let mut loads: Vec<&ReusePc> = r.per_pc.iter().collect();
    if loads.len() > MAX_LOADS {
        loads.sort_by(|a, b| b.accesses.cmp(&a.accesses).then(a.pc.cmp(&b.pc)));
        loads.truncate(MAX_LOADS);
        loads.sort_by_key(|p| p.pc);
    }
    if !loads.is_empty() {
        let shown = if loads.len() < r.per_pc.len() {
            format!(" ({} most accessed of {})", loads.len(), r.per_pc.len())
        } else {
            String::new()
        };
        let labels: Vec<String> = loads.iter().map(|p| load_label(p)).collect();
        let accesses = || {
            Some((
                "accesses".to_string(),
                loads.iter().map(|p| Some(p.accesses as f64)).collect(),
                "accesses".to_string(),
            ))
        };
        let rows: Vec<([u64; 7], u64)> = loads.iter().map(|p| (p.intervals, p.accesses)).collect();
        charts.push(
            StackedChart {
                title: format!("{what}: per load{shown}, {full_label}"),
                x_label: "load (PC, array)".into(),
                x: StackedX::Categories(labels.clone()),
                y_label: "% of the load's accesses".into(),
                y_range: Some((0.0, 100.0)),
                series: interval_series(&names, &rows),
                line: accesses(),
                line_range: None,
            }
            .svg()?,
        );
        let rows: Vec<([u64; 3], u64)> = loads
            .iter()
            .map(|p| ([p.rd0, p.rd1, p.rd2], p.accesses))
            .collect();
        charts.push(
            StackedChart {
                title: format!(
                    "{what}: per load{shown}, per set ({} x {}-way, Table 1)",
                    r.sets, r.ways
                ),
                x_label: "load (PC, array)".into(),
                x: StackedX::Categories(labels),
                y_label: "% of the load's accesses".into(),
                y_range: Some((0.0, 100.0)),
                series: rd_series(&rows),
                line: accesses(),
                line_range: None,
            }
            .svg()?,
        );
    }
    Ok(panels(&charts))
}

/// What a figure's titles call a run's kernels.
pub fn kernels_name(runs: &[Metrics]) -> String {
    match runs {
        [] => String::new(),
        [m] => m.run.kernel.clone(),
        [m, rest @ ..] => format!("{} + {} kernels (summed)", m.run.kernel, rest.len()),
    }
}

/// `warpgen run --reuse-distance FILE`: the profile of the runs' kernels
/// as one SVG.
pub fn write_profile(out: OutputFile, runs: &[Metrics]) -> Result<()> {
    let r = combined(runs).ok_or_else(|| {
        anyhow!("--reuse-distance: the runs have no reuse profile (reuse_analysis = false)")
    })?;
    out.write_bytes(profile_svg(&kernels_name(runs), &r)?.as_bytes())
}
