//! The subcommands that run lists of harness runs: `sweep` and
//! `reproduce`, locally in parallel or as a Slurm job array.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Args;

use crate::reproduce::{self, Paper};
use crate::sweep::{self, RunList};

/// Options of `warpgen sweep`.
#[derive(Args)]
pub struct SweepCmd {
    /// The run list.
    #[arg(long)]
    list: PathBuf,
    /// Results folder.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    array: ArrayOpts,
    /// Rerun runs whose results are present.
    #[arg(long)]
    force: bool,
    /// Parallel runs (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// How a command of many items (a sweep's runs, an exploration's points)
/// runs as a Slurm job array: one item, the merge, or the scripts.
#[derive(Args)]
pub struct ArrayOpts {
    /// Only item N (0-based: run N of the list, point N of the grid): a
    /// Slurm array task.
    #[arg(long, value_name = "N", conflicts_with_all = ["merge", "emit_slurm"])]
    pub task: Option<usize>,
    /// Only merge the results present (fails naming the missing ones).
    #[arg(long, conflicts_with = "emit_slurm")]
    pub merge: bool,
    /// Write a Slurm job array (one task per item) and its merge into DIR
    /// instead of running.
    #[arg(long, value_name = "DIR")]
    pub emit_slurm: Option<PathBuf>,
}

/// `jobs`, or the machine's cores.
fn jobs_or_cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Print the files a Slurm emission wrote and how to submit them.
fn print_slurm(dir: &Path, written: &[PathBuf], tasks: usize, then: &str) {
    for p in written {
        outln!("wrote {}", p.display());
    }
    outln!(
        "submit with {} ({tasks} array tasks, then the {then})",
        dir.join("submit.sh").display(),
    );
}

/// `warpgen sweep`.
pub fn sweep_cmd(a: SweepCmd) -> anyhow::Result<bool> {
    let runs = RunList::read(&a.list)?;
    if let Some(dir) = a.array.emit_slurm {
        let written = sweep::emit_slurm(&dir, &runs, &a.out, |l, o| {
            vec![
                "sweep".into(),
                "--list".into(),
                l.display().to_string(),
                "--out".into(),
                o.display().to_string(),
                "--merge".into(),
            ]
        })?;
        print_slurm(&dir, &written, runs.runs.len(), "merge");
        return Ok(true);
    }
    if let Some(i) = a.array.task {
        let r = sweep::run_task(&runs, &a.out, i)?;
        outln!(
            "run {i} ({}): {} in {:.1} s -> {}",
            r.spec.id,
            r.error
                .as_deref()
                .map_or("ok".to_string(), |e| format!("refused: {e}")),
            r.seconds,
            sweep::result_path(&a.out, &r.spec).display()
        );
        return Ok(true);
    }
    // The merge's output is checked before the runs, not after them.
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("--out {}: cannot create the folder", a.out.display()))?;
    crate::output::check_output(&a.out.join("merged.json"), "sweep --out")?;
    if !a.array.merge {
        sweep::precheck(&runs)?;
        let n = sweep::run_missing(&runs, &a.out, jobs_or_cores(a.jobs), a.force)?;
        eprintln!("ran {n} of {} runs", runs.runs.len());
    }
    let all = sweep::merge(&runs, &a.out)?;
    let refused: Vec<&sweep::RunResult> = all.iter().filter(|r| r.error.is_some()).collect();
    outln!(
        "merged {} results into {} ({} did not run)",
        all.len(),
        a.out.join("merged.json").display(),
        refused.len()
    );
    for r in &refused {
        eprintln!(
            "error: run `{}` did not run: {}",
            r.spec.id,
            r.error.as_deref().unwrap_or("")
        );
    }
    // A run that did not run is a failed sweep (exit 1), its reason above.
    Ok(refused.is_empty())
}

/// Options of `warpgen reproduce`.
#[derive(Args)]
pub struct ReproduceCmd {
    /// Report folder (results in OUT/runs/).
    #[arg(long, default_value = "report")]
    out: PathBuf,
    /// Papers (repeatable; default: all).
    #[arg(long = "paper", value_enum)]
    papers: Vec<Paper>,
    /// Folder of the bundled kernels.
    #[arg(long, default_value = "kernels")]
    kernels: PathBuf,
    /// The kernel files' own input sizes (slower) instead of the
    /// quick set's.
    #[arg(long)]
    full: bool,
    /// Write the report from the results present; run nothing.
    #[arg(long)]
    no_run: bool,
    /// Rerun runs whose results are present.
    #[arg(long)]
    force: bool,
    /// Write the runs as a Slurm job array into DIR instead of running.
    #[arg(long, value_name = "DIR")]
    emit_slurm: Option<PathBuf>,
    /// Parallel runs (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// `warpgen reproduce`.
pub fn reproduce_cmd(a: ReproduceCmd) -> anyhow::Result<bool> {
    let opts = reproduce::Options {
        papers: a.papers.clone(),
        kernels: a.kernels.clone(),
        full: a.full,
    };
    let list = reproduce::plan(&opts)?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("--out {}: cannot create the folder", a.out.display()))?;
    // Every output is checked before the runs, not after them.
    for name in [
        "runs.json",
        "merged.json",
        "report.md",
        "report.html",
        "claims.json",
    ] {
        crate::output::check_output(&a.out.join(name), "reproduce --out")?;
    }
    list.write(&a.out.join("runs.json"))?;
    if let Some(dir) = &a.emit_slurm {
        let written = sweep::emit_slurm(dir, &list, &a.out, |_, o| {
            let mut v = vec![
                "reproduce".to_string(),
                "--out".into(),
                o.display().to_string(),
                "--kernels".into(),
                a.kernels.display().to_string(),
                "--no-run".into(),
            ];
            for p in &a.papers {
                v.push("--paper".into());
                v.push(p.name().into());
            }
            if a.full {
                v.push("--full".into());
            }
            v
        })?;
        print_slurm(dir, &written, list.runs.len(), "report");
        return Ok(true);
    }
    let start = std::time::Instant::now();
    let wall = if a.no_run {
        None
    } else {
        sweep::precheck(&list)?;
        let n = sweep::run_missing(&list, &a.out, jobs_or_cores(a.jobs), a.force)?;
        eprintln!("ran {n} of {} runs", list.runs.len());
        (n == list.runs.len()).then(|| start.elapsed().as_secs_f64())
    };
    let all = sweep::merge(&list, &a.out)?;
    let r = reproduce::report(&opts, &all)?;
    reproduce::write(&opts, &a.out, &r, wall)?;
    out!("{}", reproduce::claims_markdown(&r.claims));
    outln!(
        "\nwrote {} and {} ({} figures)",
        a.out.join("report.md").display(),
        a.out.join("report.html").display(),
        r.figures.len()
    );
    Ok(true)
}
