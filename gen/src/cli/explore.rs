//! `warpgen explore`: the command line of [`crate::explore`].

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::batch::ArrayOpts;
use crate::cli::format::Format;
use crate::explore::{
    explore, merge, render_table, run_task, svg, write_json, BenefitRun, ExploreOptions,
    PointResult, Sweep,
};
use crate::output::write_atomic;
use crate::report::timing::DEFAULT_REPORT_CLOCK_MHZ;
use crate::run_args::unit_parser;
use crate::sweep::{absolute, write_slurm, SlurmJob};
use crate::unit_config::load_config;
use crate::unit_table::unit;

/// Options of `warpgen explore`.
#[derive(Args)]
pub struct ExploreCmd {
    /// The unit whose design space is swept.
    #[arg(long, value_parser = unit_parser())]
    unit: String,
    /// A swept parameter and its values, `NAME=v1,v2,...` (repeat for a
    /// grid: every combination is a point).
    #[arg(long = "sweep", value_name = "NAME=v1,v2,...", required = true)]
    sweeps: Vec<Sweep>,
    /// The other parameters of the RTL (a configuration file; default:
    /// the paper's).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The clock (MHz) every point is mapped and timed for.
    #[arg(long, default_value_t = DEFAULT_REPORT_CLOCK_MHZ)]
    clock_mhz: f64,
    /// Synthesis only (cells, flip-flops, area), no static timing.
    #[arg(long)]
    no_timing: bool,
    /// Also run the unit in the SM harness on this kernel (a kernel file
    /// or an Accel-Sim trace) at every point, with the swept values as its
    /// parameters: the speed-up over the baseline and the unit's figure of
    /// merit (coverage, L1 miss rate, instruction reduction).
    #[arg(long)]
    kernel: Option<PathBuf>,
    /// The machine preset of the `--kernel` runs.
    #[arg(long, default_value = "fermi", requires = "kernel")]
    preset: String,
    /// A machine setting `KEY=VALUE` of every `--kernel` run, baseline
    /// included (repeatable; e.g. `sched=pas`).
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "kernel")]
    sets: Vec<String>,
    /// Points measured at once (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// The folder of the results: one JSON per point, `explore.json`,
    /// `explore.svg` (default `explore-<unit>`).
    #[arg(long)]
    out: Option<PathBuf>,
    // `--task N` measures point N alone (the grid's order: first sweep
    // slowest), `--merge` merges the points' files in `--out`.
    #[command(flatten)]
    array: ArrayOpts,
    /// Output format of the table on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

impl ExploreCmd {
    /// The arguments that repeat this grid in another process, absolute
    /// paths, `--out` included (for the Slurm scripts).
    fn repeat_args(&self, out: &Path) -> anyhow::Result<Vec<String>> {
        let mut a = vec!["explore".to_string(), "--unit".into(), self.unit.clone()];
        for s in &self.sweeps {
            let vals: Vec<String> = s.values.iter().map(u64::to_string).collect();
            a.push("--sweep".into());
            a.push(format!("{}={}", s.name, vals.join(",")));
        }
        if let Some(c) = &self.config {
            a.push("--config".into());
            a.push(absolute(c)?.display().to_string());
        }
        a.push("--clock-mhz".into());
        a.push(self.clock_mhz.to_string());
        if self.no_timing {
            a.push("--no-timing".into());
        }
        if let Some(k) = &self.kernel {
            a.push("--kernel".into());
            a.push(absolute(k)?.display().to_string());
            a.push("--preset".into());
            a.push(self.preset.clone());
            for s in &self.sets {
                a.push("--set".into());
                a.push(s.clone());
            }
        }
        a.push("--out".into());
        a.push(absolute(out)?.display().to_string());
        Ok(a)
    }
}

/// Write `explore.json`, the figure and the table of `rows`.
fn finish(a: &ExploreCmd, out: &Path, rows: &[PointResult]) -> anyhow::Result<bool> {
    let figure = svg(rows, &a.sweeps)?;
    let written = write_json(out, rows)?;
    let svg_path = out.join("explore.svg");
    write_atomic(&svg_path, &figure)?;
    if a.format == Format::Json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        out!("{}", render_table(rows));
    }
    eprintln!(
        "wrote {} JSON files and {} into {}",
        written.len(),
        svg_path.display(),
        out.display()
    );
    Ok(rows.iter().all(|r| r.closes != Some(false)))
}

/// `warpgen explore`: true when every point closes at the clock.
pub fn explore_cmd(a: ExploreCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    let u = unit(&a.unit)?;
    if !(a.clock_mhz.is_finite() && a.clock_mhz > 0.0) {
        anyhow::bail!("--clock-mhz {}: give a clock above 0 MHz", a.clock_mhz);
    }
    if let Some(k) = &a.kernel {
        if !k.exists() {
            anyhow::bail!(
                "--kernel {}: no such kernel file or trace folder",
                k.display()
            );
        }
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("explore-{}", u.name())));
    let opts = ExploreOptions {
        clock_mhz: a.clock_mhz,
        timing: !a.no_timing,
        jobs,
        benefit: a.kernel.as_ref().map(|k| BenefitRun {
            kernel: k.clone(),
            preset: a.preset.clone(),
            sets: a.sets.clone(),
        }),
    };
    if let Some(dir) = &a.array.emit_slurm {
        // Checked here, before any script is written.
        let (points, _) = crate::explore::checked_grid(u, &cfg, &a.sweeps, &opts)?;
        let task_args = a.repeat_args(&out)?;
        let mut merge_args = task_args.clone();
        merge_args.push("--merge".into());
        let binary = std::env::current_exe()?;
        let workdir = std::env::current_dir()?;
        let logs = absolute(&out)?.join("slurm-logs");
        let written = write_slurm(
            dir,
            &SlurmJob {
                name: "explore",
                binary: &binary,
                workdir: &workdir,
                logs: &logs,
                tasks: points.len(),
                mem_gb: 8,
                task_args: &task_args,
                merge_args: &merge_args,
            },
        )?;
        for p in &written {
            outln!("wrote {}", p.display());
        }
        outln!(
            "submit with {} ({} array tasks, one per point, then the merge)",
            dir.join("submit.sh").display(),
            points.len()
        );
        return Ok(true);
    }
    if let Some(i) = a.array.task {
        let (r, path) = run_task(u, &cfg, &a.sweeps, &opts, &out, i)?;
        outln!(
            "point {i} ({}) -> {}",
            crate::explore::label(&r.point),
            path.display()
        );
        return Ok(true);
    }
    let rows = if a.array.merge {
        merge(u, &a.sweeps, &opts, &out)?
    } else {
        explore(u, &cfg, &a.sweeps, &opts, Some(&out))?
    };
    finish(&a, &out, &rows)
}
