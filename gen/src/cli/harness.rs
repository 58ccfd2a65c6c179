//! The subcommands on the SM harness besides `run` and `reuse`: `presets`,
//! `compare`, `catt` and `bench-harness`.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use crate::cli::format::Format;
use crate::run_args::RunArgs;

/// Options of `warpgen presets`.
#[derive(Args)]
pub struct PresetsCmd {
    /// A preset (default: list them all).
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
    name: Option<String>,
}

/// `warpgen presets`.
pub fn presets_cmd(a: PresetsCmd) -> anyhow::Result<bool> {
    out!("{}", presets_text(a.name.as_deref())?);
    Ok(true)
}

/// `warpgen presets [NAME]`: the list, or one paper preset's table.
pub fn presets_text(name: Option<&str>) -> anyhow::Result<String> {
    use harness::presets;
    let mut s = String::new();
    match name {
        None => {
            s += "fermi        the first harness's Fermi-like machine (one SM, flat memory)\n";
            s += "volta        the first harness's Volta-like machine (one SM, flat memory)\n";
            for n in presets::names().into_iter().skip(2) {
                let f = presets::file(n).expect("listed").map_err(|e| anyhow!(e))?;
                s += &format!("{n:<12} {}, {}\n", f.paper, f.table);
            }
        }
        Some(n) => match presets::file(n) {
            None => s += &format!("{n}: the first harness's preset (no paper table)\n"),
            Some(f) => {
                let f = f.map_err(|e| anyhow!(e))?;
                s += &format!("{}: {}\n{}\n\n", f.name, f.paper, f.table);
                let w = f.quote.iter().map(|q| q.field.len()).max().unwrap_or(0);
                for q in &f.quote {
                    s += &format!(
                        "{:<w$}  {}\n{:<w$}    -> {}\n",
                        q.field, q.paper, "", q.sets
                    );
                }
                s += &format!("\n{}\n", f.note);
            }
        },
    }
    Ok(s)
}

/// Options of `warpgen compare`.
#[derive(Args)]
pub struct CompareCmd {
    /// Kernel files, trace folders, or folders of kernel files
    /// (repeatable; default: kernels).
    #[arg(long = "kernel", value_name = "PATH")]
    kernels: Vec<PathBuf>,
    /// Machine presets (repeatable; default: every paper preset).
    #[arg(long = "preset", value_name = "NAME",
          value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
    presets: Vec<String>,
    /// A mechanism as LABEL=KEY=VALUE[,KEY=VALUE...] (repeatable;
    /// default: base, CAPS=prefetcher=caps,sched=pas, BA=l1=ba). The
    /// first is the speedups' baseline.
    #[arg(long = "mechanism", value_name = "SPEC")]
    mechanisms: Vec<String>,
    /// Settings for every run (`param.N=1024`, `l1_ways=8`; repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Parallel runs (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// `warpgen compare`.
pub fn compare_cmd(a: CompareCmd) -> anyhow::Result<bool> {
    use crate::compare::{compare, expand_kernels, table, Mechanism};
    let kernels = if a.kernels.is_empty() {
        vec![PathBuf::from("kernels")]
    } else {
        a.kernels
    };
    let files = expand_kernels(&kernels)?;
    let presets = if a.presets.is_empty() {
        harness::presets::names()
            .into_iter()
            .filter(|n| !matches!(*n, "fermi" | "volta"))
            .map(str::to_string)
            .collect()
    } else {
        a.presets
    };
    let mechs = if a.mechanisms.is_empty() {
        Mechanism::defaults()
    } else {
        a.mechanisms
            .iter()
            .map(|m| Mechanism::parse(m))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    // A kernel that does not load or a setting that is wrong is an error
    // now, for every cell (a machine's refusal of one mechanism stays a
    // "refused" cell: it is a finding, not a mistake).
    let mut bad = Vec::new();
    for f in &files {
        for p in &presets {
            let mut args = crate::run::RunArgs::new(f);
            args.quiet = true;
            args.preset = p.clone();
            args.set = a.set.clone();
            if let Err(e) = crate::run::prepare(&args) {
                bad.push(format!("{} on `{p}`: {e:#}", f.display()));
            }
        }
    }
    if !bad.is_empty() {
        anyhow::bail!(
            "{} of {} kernel and preset pairs cannot run; nothing ran:\n  {}",
            bad.len(),
            files.len() * presets.len(),
            bad.join("\n  ")
        );
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cells = compare(&presets, &files, &mechs, &a.set, jobs);
    out!("{}", table(&cells, &mechs));
    Ok(true)
}

/// Options of `warpgen catt`.
#[derive(Args)]
pub struct CattCmd {
    /// Kernel files (repeatable).
    #[arg(long = "kernel", value_name = "FILE", required = true)]
    kernels: Vec<PathBuf>,
    /// Machine preset.
    #[arg(long, default_value = "catt-titanv",
          value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
    preset: String,
    /// Fix the L1 size in KB (default: the largest the kernel's shared
    /// memory leaves, equation 4); 1 to 1048576 (1 GB).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
    l1_kb: Option<u32>,
    /// Machine values and kernel parameters (`param.NX=81920`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// `warpgen catt`.
pub fn catt_cmd(a: CattCmd) -> anyhow::Result<bool> {
    let mut reports = Vec::new();
    let mut texts = Vec::new();
    for file in &a.kernels {
        let mut args = RunArgs::new(file);
        args.preset = a.preset.clone();
        args.set = a.set.clone();
        let (cfg, ks) = crate::run::prepare_all(&args)?;
        for k in &ks {
            let r = crate::catt::report(&cfg, k, a.l1_kb.map(|x| x.saturating_mul(1024)))?;
            texts.push(crate::catt::text(k, &r));
            reports.push(r);
        }
    }
    match a.format {
        Format::Text => out!("{}", texts.join("\n")),
        Format::Json => outln!("{}", serde_json::to_string_pretty(&reports)?),
    }
    Ok(true)
}

/// Options of `warpgen bench-harness`.
#[derive(Args)]
pub struct BenchHarnessCmd {
    /// Folder of kernel files.
    #[arg(long, default_value = "kernels")]
    kernels: PathBuf,
    /// Runs per kernel (best is kept).
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// Also run with each unit's RTL in lock-step.
    #[arg(long)]
    cosim: bool,
}

/// `warpgen bench-harness`.
pub fn bench_harness_cmd(a: BenchHarnessCmd) -> anyhow::Result<bool> {
    use crate::bench_harness::{bench_harness, bench_ratios, bench_table, bench_work_table};
    let files = crate::run::kernel_files(&a.kernels)?;
    let rows = bench_harness(&files, a.repeat, a.cosim)?;
    outln!("{}", bench_table(&rows));
    outln!("{}", bench_work_table(&rows));
    if a.cosim {
        out!("{}", bench_ratios(&rows));
    }
    Ok(true)
}
