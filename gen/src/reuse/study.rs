//! The BA thesis's cache-size study (`warpgen reuse --kernel FILE`): the
//! kernel at each L1 size and associativity, in parallel; per
//! configuration the hit rate, the reuse classes and the seven intervals
//! (Figures 7 and 8), as a table, a figure and JSON.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use harness::metrics::ReuseMetrics;
use serde::Serialize;

use crate::compare::{compare, expand_kernels, Cell, Mechanism};
use crate::output::{write_atomic, write_json};
use crate::plot::{panels, StackedChart, StackedX};
use crate::reuse::profile::{combined, interval_series, kernels_name, pct, rd_series};

/// Arguments of `warpgen reuse`.
#[derive(Clone, Debug, clap::Args)]
pub struct StudyArgs {
    /// Kernel file, or an Accel-Sim trace (`kernel-N.traceg` or a folder
    /// with `kernelslist.g`: its kernels summed).
    #[arg(long)]
    pub kernel: PathBuf,
    /// Machine preset (default: the thesis's).
    #[arg(long, default_value = "ba-thesis",
          value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
    pub preset: String,
    /// L1 sizes in KB, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [16u32, 32, 48])]
    pub sizes: Vec<u32>,
    /// Associativities, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [4u32, 8])]
    pub ways: Vec<u32>,
    /// Settings for every run (`param.N=1024`, `l1=ba`; repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Folder for reuse-study.svg and reuse-study.json.
    #[arg(long, default_value = "reuse-study")]
    pub out: PathBuf,
    /// Parallel runs (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// One configuration of the study.
#[derive(Clone, Debug, Serialize)]
pub struct StudyRow {
    /// `16 KB 4-way`.
    pub label: String,
    /// L1 bytes.
    pub l1_bytes: u32,
    /// Associativity.
    pub ways: u32,
    /// Sets (`l1_bytes / (line x ways)`; 0 when refused).
    pub sets: u32,
    /// Cycles (summed over the kernels).
    pub cycles: u64,
    /// L1 demand accesses and hits (summed over the kernels).
    pub accesses: u64,
    /// Hits.
    pub hits: u64,
    /// `hits / accesses`.
    pub hit_rate: f64,
    /// The profile (summed over the kernels).
    pub reuse: Option<ReuseMetrics>,
    /// Why the machine refused the configuration.
    pub error: Option<String>,
}

/// Run the study (module documentation): every size x associativity, in
/// parallel on `jobs` threads ([`crate::compare::compare`]).
pub fn study(args: &StudyArgs) -> Result<(String, Vec<StudyRow>)> {
    if args.sizes.is_empty() || args.ways.is_empty() {
        bail!("warpgen reuse: give at least one --sizes and one --ways value");
    }
    let files = expand_kernels(std::slice::from_ref(&args.kernel))?;
    let mut configs = Vec::new();
    for &kb in &args.sizes {
        for &w in &args.ways {
            let bytes = kb
                .checked_mul(1024)
                .ok_or_else(|| anyhow!("--sizes {kb}: too large"))?;
            configs.push((kb, bytes, w));
        }
    }
    let mechs: Vec<Mechanism> = configs
        .iter()
        .map(|&(kb, bytes, w)| Mechanism {
            label: format!("{kb} KB {w}-way"),
            sets: vec![
                format!("l1_bytes={bytes}"),
                format!("l1_ways={w}"),
                "reuse_analysis=true".into(),
            ],
        })
        .collect();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cells = compare(
        std::slice::from_ref(&args.preset),
        &files,
        &mechs,
        &args.set,
        jobs,
    );
    let mut name = String::new();
    let mut rows = Vec::new();
    for (i, (m, &(_, bytes, ways))) in mechs.iter().zip(&configs).enumerate() {
        let runs: Vec<&Cell> = cells.iter().filter(|c| c.mechanism == i).collect();
        let mut row = StudyRow {
            label: m.label.clone(),
            l1_bytes: bytes,
            ways,
            sets: 0,
            cycles: 0,
            accesses: 0,
            hits: 0,
            hit_rate: 0.0,
            reuse: None,
            error: None,
        };
        let mut ok = Vec::new();
        for c in runs {
            match &c.result {
                Ok(x) => ok.push(x.clone()),
                Err(e) => {
                    row.error = Some(e.replace('\n', " "));
                    break;
                }
            }
        }
        if row.error.is_none() {
            if name.is_empty() {
                name = kernels_name(&ok);
            }
            row.cycles = ok.iter().map(|x| x.cycles).sum();
            row.accesses = ok.iter().map(|x| x.l1.accesses).sum();
            row.hits = ok.iter().map(|x| x.l1.hits).sum();
            row.hit_rate = if row.accesses == 0 {
                0.0
            } else {
                row.hits as f64 / row.accesses as f64
            };
            row.reuse = combined(&ok);
            row.sets = row.reuse.as_ref().map_or(0, |r| r.sets);
        }
        rows.push(row);
    }
    if name.is_empty() {
        name = args.kernel.display().to_string();
    }
    Ok((name, rows))
}

/// The study as a table: per configuration the hit rate, Table 1's
/// classes and the fully associative intervals of its capacity (percent
/// of the profiled accesses).
pub fn study_table(rows: &[StudyRow]) -> String {
    let mut s = String::from(
        "reuse distance per L1 configuration (BA thesis Figs. 7-8): hit rate of the run; rd0 / \
         rd1 / rd2 per set (Table 1); fully associative stack of the configuration's C lines in \
         the seven intervals [0,C/16) [C/16,C/8) [C/8,C/4) [C/4,C/2) [C/2,C) [C,inf) inf; % of \
         the profiled accesses\n",
    );
    s += &format!(
        "{:<14} {:>9} {:>11} {:>8} {:>6} {:>6} {:>6}  | {:>5} {:>6} {:>6} {:>6} {:>6} {:>6} \
         {:>6} {:>6}\n",
        "L1",
        "sets x n",
        "accesses",
        "hit %",
        "rd0",
        "rd1",
        "rd2",
        "C",
        "i0",
        "i1",
        "i2",
        "i3",
        "i4",
        "i5",
        "inf"
    );
    for r in rows {
        match (&r.reuse, &r.error) {
            (Some(u), None) => {
                let n = u.profiled;
                s += &format!(
                    "{:<14} {:>9} {:>11} {:>8.1} {:>6.1} {:>6.1} {:>6.1}  | {:>5}",
                    r.label,
                    format!("{} x {}", u.sets, u.ways),
                    r.accesses,
                    100.0 * r.hit_rate,
                    pct(u.rd0, n),
                    pct(u.rd1, n),
                    pct(u.rd2, n),
                    u.capacity
                );
                for x in u.intervals {
                    s += &format!(" {:>6.1}", pct(x, n));
                }
                s.push('\n');
            }
            (_, Some(e)) => s += &format!("{:<14} refused: {e}\n", r.label),
            (None, None) => s += &format!("{:<14} no profile\n", r.label),
        }
    }
    s
}

/// The study's figure: per configuration rd0 / rd1 / rd2 stacked with the
/// hit rate (Figures 7 and 8), and the seven intervals stacked.
pub fn study_svg(what: &str, rows: &[StudyRow]) -> Result<String> {
    let ok: Vec<(&StudyRow, &ReuseMetrics)> = rows
        .iter()
        .filter_map(|r| r.reuse.as_ref().map(|u| (r, u)))
        .collect();
    if ok.is_empty() {
        bail!("warpgen reuse: no configuration ran");
    }
    let labels: Vec<String> = ok.iter().map(|(r, _)| r.label.clone()).collect();
    let rd: Vec<([u64; 3], u64)> = ok
        .iter()
        .map(|(_, u)| ([u.rd0, u.rd1, u.rd2], u.profiled))
        .collect();
    let classes = StackedChart {
        title: format!("{what}: reuse distance per set (Table 1) and hit rate by L1 configuration"),
        x_label: "L1 size and associativity".into(),
        x: StackedX::Categories(labels.clone()),
        y_label: "% of profiled accesses".into(),
        y_range: Some((0.0, 100.0)),
        series: rd_series(&rd),
        line: Some((
            "hit rate".into(),
            ok.iter().map(|(r, _)| Some(100.0 * r.hit_rate)).collect(),
            "L1 hit rate (%)".into(),
        )),
        // The hit rate on the stacks' scale: it follows rd0 (Fig. 8).
        line_range: Some((0.0, 100.0)),
    };
    // Interval k of each configuration, named by its position: the bounds
    // scale with each configuration's capacity C.
    let names = [
        "[0,C/16)",
        "[C/16,C/8)",
        "[C/8,C/4)",
        "[C/4,C/2)",
        "[C/2,C)",
        "[C,inf)",
        "inf",
    ]
    .map(String::from);
    let iv: Vec<([u64; 7], u64)> = ok.iter().map(|(_, u)| (u.intervals, u.profiled)).collect();
    let intervals = StackedChart {
        title: format!(
            "{what}: fully associative stack of C lines (C = the L1's capacity; Fig. 6's intervals)"
        ),
        x_label: "L1 size and associativity".into(),
        x: StackedX::Categories(labels),
        y_label: "% of profiled accesses".into(),
        y_range: Some((0.0, 100.0)),
        series: interval_series(&names, &iv),
        line: None,
        line_range: None,
    };
    Ok(panels(&[classes.svg()?, intervals.svg()?]))
}

/// `warpgen reuse`: the study, its table on stdout, the figure and the
/// JSON in `--out`.
pub fn study_command(args: &StudyArgs) -> Result<()> {
    std::fs::create_dir_all(&args.out).map_err(|e| anyhow!("--out {}: {e}", args.out.display()))?;
    let svg = args.out.join("reuse-study.svg");
    let json = args.out.join("reuse-study.json");
    // The outputs are checked before the runs, not after them.
    crate::output::check_output(&svg, "reuse --out")?;
    crate::output::check_output(&json, "reuse --out")?;
    let (name, rows) = study(args)?;
    if rows.iter().all(|r| r.reuse.is_none()) {
        // Nothing ran: every reason on standard error, with the error.
        let reasons: Vec<String> = rows
            .iter()
            .map(|r| match &r.error {
                Some(e) => format!("{}: refused: {e}", r.label),
                None => format!("{}: no profile", r.label),
            })
            .collect();
        anyhow::bail!(
            "warpgen reuse: no configuration ran:\n  {}",
            reasons.join("\n  ")
        );
    }
    out!("{}", study_table(&rows));
    write_atomic(&svg, &study_svg(&name, &rows)?)?;
    write_json(&json, &rows)?;
    outln!("wrote {} and {}", svg.display(), json.display());
    Ok(())
}
