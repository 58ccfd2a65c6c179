//! The BA thesis's reuse-distance profile as pictures and as its
//! cache-size study (Wang 2016, chapters 3-4; the profile itself is
//! `harness::reuse`):
//!
//! * [`profile_svg`]: `warpgen run ... --reuse-distance FILE.svg` writes one
//!   SVG of stacked panels: the histogram (the seven intervals per set and
//!   fully associative, and Table 1's rd0 / rd1 / rd2), the profile over
//!   time (Figure 13's view: per window of cycles the share of each
//!   interval, with the accesses per window), and per load PC the
//!   intervals and the classes.
//! * [`study`]: `warpgen reuse --kernel FILE` runs the kernel at each L1
//!   size and associativity (default 16, 32, 48 KB x 4, 8 ways) in
//!   parallel and tabulates, per configuration, the hit rate, rd0 / rd1 /
//!   rd2 and the seven intervals (Figures 7 and 8), with a figure.
//!
//! A run of several kernels (a trace folder) is profiled as their sum, as
//! the thesis does ("every distribution is the sum of all cores and
//! kernels"), its timeline one kernel after the other.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use harness::metrics::{ReuseMetrics, ReusePc};
use harness::Metrics;
use serde::Serialize;

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

fn pct(x: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * x as f64 / n as f64
    }
}

/// The seven intervals as (name, per-position values) series of shares.
fn interval_series(names: &[String; 7], rows: &[([u64; 7], u64)]) -> Vec<(String, Vec<f64>)> {
    (0..7)
        .map(|k| {
            (
                names[k].clone(),
                rows.iter().map(|(iv, n)| pct(iv[k], *n)).collect(),
            )
        })
        .collect()
}

fn rd_series(rows: &[([u64; 3], u64)]) -> Vec<(String, Vec<f64>)> {
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

// ------------------------------------------------------------ the study

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
    use crate::compare::{compare, expand_kernels, Mechanism};
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
        let runs: Vec<&crate::compare::Cell> = cells.iter().filter(|c| c.mechanism == i).collect();
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
    let (name, rows) = study(args)?;
    print!("{}", study_table(&rows));
    let svg = args.out.join("reuse-study.svg");
    let json = args.out.join("reuse-study.json");
    crate::output::write_atomic(&svg, &study_svg(&name, &rows)?)?;
    crate::output::write_json(&json, &rows)?;
    println!("wrote {} and {}", svg.display(), json.display());
    Ok(())
}

/// `warpgen run --reuse-distance FILE`: the profile of the runs' kernels
/// as one SVG.
pub fn write_profile(out: crate::output::OutputFile, runs: &[Metrics]) -> Result<()> {
    let r = combined(runs).ok_or_else(|| {
        anyhow!("--reuse-distance: the runs have no reuse profile (reuse_analysis = false)")
    })?;
    out.write_bytes(profile_svg(&kernels_name(runs), &r)?.as_bytes())
}
