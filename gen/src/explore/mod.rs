//! `warpgen explore`: a unit's design space as a grid of parameter values
//! (issue 31). Every point is emitted (elaborated on demand when its widths
//! are not compiled in), linted (Verilator `--lint-only -Wall` with the
//! project's waivers, when installed), synthesized (Yosys: cells, flip-flops, the
//! memories' flip-flop and SRAM views) and mapped and timed at the clock
//! (ABC, OpenSTA: area, worst slack, fmax, logic levels), each step cached
//! by content like `warpgen report`; with `--kernel`, the unit also runs in
//! the SM harness at each point ([`benefit`]). The points run in parallel
//! on the local cores, or one per Slurm array task ([`run_task`], merged by
//! [`merge`]). The result: one JSON per point, a table, and an SVG
//! ([`figure`]). A point that does not close at the clock is marked, not
//! dropped.
//!
//! [`grid`] builds the points, [`point`] measures one, [`results`] writes
//! and reads them.

pub mod benefit;
pub mod figure;
pub mod grid;
pub mod point;
pub mod results;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context};
use ports::ConfigFile;

pub use benefit::{Baseline, Benefit, BenefitRun};
pub use figure::svg;
pub use grid::{grid, label, point_config, Point, Sweep};
pub use point::{measure, ExploreOptions, PointResult};
pub use results::{point_path, read_points, render_table, write_json, write_point};

use crate::unit_table::UnitCommands;

/// Check the tools and every point of the grid before any work: the
/// points and their configurations. An invalid point is an error naming it.
pub fn checked_grid(
    u: &dyn UnitCommands,
    base: &ConfigFile,
    sweeps: &[Sweep],
    opts: &ExploreOptions,
) -> anyhow::Result<(Vec<Point>, Vec<ConfigFile>)> {
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
    Ok((points, cfgs))
}

/// The baseline run of `--kernel`, if asked for.
fn baseline(u: &dyn UnitCommands, opts: &ExploreOptions) -> anyhow::Result<Option<Baseline>> {
    opts.benefit
        .clone()
        .map(|run| Baseline::measure(u.name(), run))
        .transpose()
}

/// Measure every point of `sweeps` over `base`, `opts.jobs` at a time,
/// with a progress bar on a terminal; each point's JSON is written into
/// `out` (when given) as soon as it is measured. The grid is checked
/// before any work.
pub fn explore(
    u: &dyn UnitCommands,
    base: &ConfigFile,
    sweeps: &[Sweep],
    opts: &ExploreOptions,
    out: Option<&Path>,
) -> anyhow::Result<Vec<PointResult>> {
    let (points, cfgs) = checked_grid(u, base, sweeps, opts)?;
    let baseline = baseline(u, opts)?;
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
                let r = measure(u, &cfgs[i], &points[i], opts, baseline.as_ref())
                    .and_then(|r| match out {
                        Some(dir) => write_point(dir, &r).map(|_| r),
                        None => Ok(r),
                    })
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

/// Measure point `index` of the grid alone (a Slurm array task) and write
/// its JSON into `out`; returns the result and the path.
pub fn run_task(
    u: &dyn UnitCommands,
    base: &ConfigFile,
    sweeps: &[Sweep],
    opts: &ExploreOptions,
    out: &Path,
    index: usize,
) -> anyhow::Result<(PointResult, PathBuf)> {
    let (points, cfgs) = checked_grid(u, base, sweeps, opts)?;
    if index >= points.len() {
        bail!(
            "--task {index}: the grid has {} points (tasks 0..={})",
            points.len(),
            points.len().saturating_sub(1)
        );
    }
    let b = baseline(u, opts)?;
    let r = measure(u, &cfgs[index], &points[index], opts, b.as_ref())
        .with_context(|| format!("{} ({})", u.name(), label(&points[index])))?;
    let path = write_point(out, &r)?;
    Ok((r, path))
}

/// The results of every point of the grid, read from `out` (after the
/// array tasks), in grid order; fails naming the points not ready.
pub fn merge(
    u: &dyn UnitCommands,
    sweeps: &[Sweep],
    opts: &ExploreOptions,
    out: &Path,
) -> anyhow::Result<Vec<PointResult>> {
    if sweeps.is_empty() {
        bail!("give at least one --sweep NAME=v1,v2,...");
    }
    read_points(
        out,
        u.name(),
        &grid(sweeps),
        opts.clock_mhz,
        opts.benefit.is_some(),
    )
}
