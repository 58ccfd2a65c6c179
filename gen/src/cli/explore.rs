//! `warpgen explore`: the command line of [`crate::explore`].

use std::path::PathBuf;

use clap::Args;

use crate::cli::format::Format;
use crate::explore::{explore, render_table, svg, write_json, ExploreOptions, Sweep};
use crate::output::write_atomic;
use crate::report::timing::DEFAULT_REPORT_CLOCK_MHZ;
use crate::run_args::unit_parser;
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
    /// The other parameters (a configuration file; default: the paper's).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The clock (MHz) every point is mapped and timed for.
    #[arg(long, default_value_t = DEFAULT_REPORT_CLOCK_MHZ)]
    clock_mhz: f64,
    /// Synthesis only (cells, flip-flops, area), no static timing.
    #[arg(long)]
    no_timing: bool,
    /// Points measured at once (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// The folder of the results: one JSON per point, `explore.json`,
    /// `explore.svg` (default `explore-<unit>`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Output format of the table on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// `warpgen explore`: true when every point closes at the clock.
pub fn explore_cmd(a: ExploreCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    let u = unit(&a.unit)?;
    if !(a.clock_mhz.is_finite() && a.clock_mhz > 0.0) {
        anyhow::bail!("--clock-mhz {}: give a clock above 0 MHz", a.clock_mhz);
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
    };
    let rows = explore(u, &cfg, &a.sweeps, &opts)?;
    let figure = svg(&rows, &a.sweeps)?;
    let written = write_json(&out, &rows)?;
    let svg_path = out.join("explore.svg");
    write_atomic(&svg_path, &figure)?;
    if a.format == Format::Json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        out!("{}", render_table(&rows));
    }
    eprintln!(
        "wrote {} JSON files and {} into {}",
        written.len(),
        svg_path.display(),
        out.display()
    );
    Ok(rows.iter().all(|r| r.closes != Some(false)))
}
