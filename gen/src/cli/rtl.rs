//! The subcommands on a unit's RTL: `verilog`, `cosim`, `report`,
//! `configs` and `bench`.

use std::path::{Path, PathBuf};

use clap::Args;
use cosim::BackendKind;
use ports::ConfigFile;

use crate::cli::format::Format;
use crate::commands::{choose_backend, render_bench, render_reports, CosimArgs};
use crate::output::{remove_stale_temps, write_atomic};
use crate::report::activity::{default_activity_kernel, measure_activity, resolve_kernel};
use crate::report::closure::{closure_table, render_closure_table};
use crate::report::memories::MemoriesView;
use crate::report::sweep::{
    clock_sweep, paper_power, render_sweep_table, sweep_svg, DEFAULT_ACTIVITY,
};
use crate::report::timing::{ClockTarget, DEFAULT_REPORT_CLOCK_MHZ};
use crate::report::unit::add_memories;
use crate::run_args::{unit_parser, BackendArg};
use crate::unit_config::load_config;
use crate::unit_table::{selected, unit, UnitCommands, UNITS};

/// Options of `warpgen verilog`.
#[derive(Args)]
pub struct VerilogCmd {
    /// One unit (default: all).
    #[arg(long, value_parser = unit_parser())]
    unit: Option<String>,
    /// TOML file of parameter overrides, one `[unit]` table per unit.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Output folder.
    #[arg(long, default_value = "verilog-out")]
    out: PathBuf,
}

/// `warpgen verilog`.
pub fn verilog_cmd(a: VerilogCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    for p in verilog(&selected(a.unit.as_deref())?, &cfg, &a.out)? {
        outln!("wrote {}", p.display());
    }
    Ok(true)
}

/// `warpgen verilog`: emit every selected unit (all in memory first, so a
/// bad configuration writes nothing), then write `<out>/<unit>.v` and its
/// FuseSoC core file `<out>/<unit>.core` ([`crate::fusesoc`]), each
/// through a temporary file that a termination signal removes; temporary
/// files that an earlier, killed emission left in `out` are removed
/// first.
pub fn verilog(
    units: &[&dyn UnitCommands],
    cfg: &ConfigFile,
    out: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut texts = Vec::new();
    for &u in units {
        texts.push((u, u.emit(cfg)?, u.core_file(cfg)?));
    }
    // The temporary files of an earlier emission killed outright.
    remove_stale_temps(out);
    // Every output checked before the first is written (a FIFO without a
    // reader, a folder in the way): nothing is half-emitted.
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("--out {}: cannot create the folder: {e}", out.display()))?;
    for (u, _, _) in &texts {
        for ext in ["v", "core"] {
            crate::output::check_output(&out.join(format!("{}.{ext}", u.name())), "verilog --out")?;
        }
    }
    let mut written = Vec::new();
    for (u, text, core) in texts {
        let path = out.join(format!("{}.v", u.name()));
        write_atomic(&path, &text)?;
        written.push(path);
        let path = out.join(format!("{}.core", u.name()));
        write_atomic(&path, &core)?;
        written.push(path);
    }
    Ok(written)
}

/// Options of `warpgen cosim`.
#[derive(Args)]
pub struct CosimCmd {
    /// The unit.
    #[arg(long, value_parser = unit_parser())]
    unit: String,
    /// TOML file of parameter overrides.
    #[arg(long)]
    config: Option<PathBuf>,
    /// RTL simulator (default: verilator if installed, else rusthdl).
    #[arg(long, value_enum)]
    backend: Option<BackendArg>,
    /// Cycles of random stimulus (the first 2 are reset cycles).
    #[arg(long, default_value_t = 100_000)]
    cycles: u64,
    /// Seed of the random stimulus and of the random power-up state.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// VCD of the run up to the first difference (RTL + `golden` scope).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// Write the VCD even when the run passes.
    #[arg(long)]
    vcd_always: bool,
    /// Run the spec scenario instead of random stimulus.
    #[arg(long)]
    scenario: bool,
    /// Instead of co-simulating, write a self-checking Verilog test bench
    /// of the random stimulus (and the unit's Verilog) into this folder.
    #[arg(long)]
    export_tb: Option<PathBuf>,
}

/// `warpgen cosim`: false when the RTL and the golden model differ.
pub fn cosim_cmd(a: CosimCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    let unit = unit(&a.unit)?;
    if let Some(dir) = a.export_tb {
        let files = unit.export_tb(&cfg, &dir, a.cycles, a.seed)?;
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        outln!("wrote {}", names.join(" "));
        outln!(
            "run: iverilog -g2005 -s tb_{u} -o tb.vvp {f} && vvp -n tb.vvp\n  or: verilator --binary --top-module tb_{u} {f} && ./obj_dir/Vtb_{u}",
            u = unit.name(),
            f = names.join(" ")
        );
        return Ok(true);
    }
    let backend = choose_backend(a.backend.map(Into::into))?;
    // A VCD needs a traced model, which is slower: say so beside the speed.
    let traced = if a.vcd.is_some() && backend == BackendKind::Verilator {
        ", traced for the VCD"
    } else {
        ""
    };
    // The simulator writes the VCD into a private temporary folder; it is
    // delivered to `--vcd` at the end through the checked writer (checked
    // now): a symlink, FIFO or device is written through, never replaced,
    // and a write error (`/dev/full`) is one error line, not a hang in the
    // simulator's VCD writer or a panic in rust-hdl's.
    if let Some(p) = &a.vcd {
        crate::output::check_output(p, "--vcd")?;
    }
    let scratch = tempfile::tempdir()?;
    let private = a.vcd.as_ref().map(|p| {
        scratch.path().join(
            p.file_name()
                .unwrap_or_else(|| std::ffi::OsStr::new("run.vcd")),
        )
    });
    let args = CosimArgs {
        backend,
        cycles: a.cycles,
        seed: a.seed,
        vcd: private.clone(),
        vcd_always: a.vcd_always,
        scenario: a.scenario,
    };
    let mut o = unit.cosim(&cfg, &args)?;
    if let (Some(tmp), Some(dest)) = (&private, &a.vcd) {
        if tmp.is_file() {
            crate::output::deliver_waveform(tmp, dest, "--vcd")?;
            if let Err(m) = &mut o.result {
                m.vcd = Some(dest.clone());
            }
        }
    }
    match o.result {
        Ok(()) => {
            outln!(
                "PASS {}: {} cycles on {}, every output equal every cycle ({:.0} cycles/s{traced})",
                o.unit,
                o.cycles,
                o.backend,
                o.cycles_per_second
            );
            Ok(true)
        }
        Err(report) => {
            outln!("{report}");
            Ok(false)
        }
    }
}

/// Options of `warpgen report`.
#[derive(Args)]
pub struct ReportCmd {
    /// One unit (default: all).
    #[arg(long, value_parser = unit_parser())]
    unit: Option<String>,
    /// TOML file of parameter overrides.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Skip Yosys and OpenSTA (storage only).
    #[arg(long)]
    no_synth: bool,
    /// Skip the static timing (OpenSTA), keep synthesis.
    #[arg(long)]
    no_timing: bool,
    /// Memory view: `sram` (memories that may be macros as fakeram45
    /// SRAM macros) or `ff` (all in flip-flops); default: both totals.
    #[arg(long, value_enum)]
    memories: Option<MemoriesView>,
    /// The clock (MHz) to map (ABC `-D` of its period) and time (OpenSTA)
    /// for, and to report the slack and power at. Default 1000 MHz: issue
    /// 29's target is 1 GHz or faster. A unit that does not close there
    /// gets a negative slack, reported as such, and is mapped for minimum
    /// delay, so its fmax is the clock it can reach.
    #[arg(long, default_value_t = DEFAULT_REPORT_CLOCK_MHZ, value_parser = parse_clock_mhz)]
    clock_mhz: f64,
    /// Report area, worst slack and fmax of each unit at each of these
    /// clocks (MHz, comma-separated, e.g. `500,1000,1400`) instead of the
    /// full report: a table on stdout and an SVG plot (see `--out`).
    #[arg(long, value_parser = parse_clock_list, conflicts_with = "all_configs")]
    clock_sweep: Option<ClockList>,
    /// Map and time every configuration of the test suite's list (the
    /// configurations `warpgen prove --all-configs` proves) at `--clock-mhz`
    /// instead of the full report: area, worst path, levels, slack and fmax
    /// per configuration; exits 1 when one does not close.
    #[arg(long, conflicts_with = "config")]
    all_configs: bool,
    /// The SVG file of `--clock-sweep` (default `clock_sweep.svg`).
    #[arg(long, default_value = "clock_sweep.svg")]
    out: PathBuf,
    /// Skip OpenSTA's power analysis.
    #[arg(long)]
    no_power: bool,
    /// The kernel whose harness run gives the power analysis its switching
    /// activity (the unit's input ports' toggles, counted over at most
    /// 200,000 cycles): a kernel file or a bundled kernel's name. Default
    /// per unit: `lps` (small grid) for caps_prefetcher and
    /// snake_prefetcher, `reuse` (4096 threads, 2 rounds) for ba_tag_array,
    /// `dac_example` (4096 threads) for dac_expander.
    #[arg(long)]
    activity: Option<String>,
}

/// The clocks of `--clock-sweep`, MHz.
#[derive(Clone, Debug)]
pub struct ClockList(pub Vec<f64>);

/// `--clock-mhz`: a finite clock above 0 MHz.
fn parse_clock_mhz(s: &str) -> Result<f64, String> {
    let f: f64 = s.trim().parse().map_err(|_| {
        format!("`{s}` is not a number of MHz; give the clock in MHz, e.g. --clock-mhz 1000")
    })?;
    if !(f.is_finite() && f > 0.0 && f <= 100_000.0) {
        return Err(format!(
            "{s} MHz is not a clock: give a frequency above 0 and at most 100000 MHz, \
             e.g. --clock-mhz 1000"
        ));
    }
    Ok(f)
}

/// `--clock-sweep`: clocks in MHz separated by commas.
fn parse_clock_list(s: &str) -> Result<ClockList, String> {
    let v = s
        .split(',')
        .map(|c| {
            parse_clock_mhz(c).map_err(|e| {
                format!("--clock-sweep takes MHz separated by commas (e.g. 500,1000,1400): {e}")
            })
        })
        .collect::<Result<Vec<f64>, String>>()?;
    Ok(ClockList(v))
}

/// `warpgen report`.
pub fn report_cmd(a: ReportCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    let units = selected(a.unit.as_deref())?;
    if let Some(ClockList(clocks)) = &a.clock_sweep {
        let rows = clock_sweep(&units, &cfg, clocks)?;
        if a.format == Format::Json {
            outln!("{}", serde_json::to_string_pretty(&rows)?);
        } else {
            outln!("{}", render_sweep_table(&rows));
        }
        write_atomic(&a.out, &sweep_svg(&rows, clocks)?)?;
        eprintln!("wrote {}", a.out.display());
        return Ok(true);
    }
    if a.all_configs {
        let rows = closure_table(&units, a.clock_mhz)?;
        if a.format == Format::Json {
            outln!("{}", serde_json::to_string_pretty(&rows)?);
        } else {
            out!("{}", render_closure_table(&rows));
        }
        return Ok(rows.iter().all(|r| r.closes));
    }
    let chosen = a.activity.as_deref().map(resolve_kernel).transpose()?;
    let mut reports = Vec::new();
    for u in units {
        let mut r = u.report(&cfg, !a.no_synth)?;
        add_memories(&mut r, &u.emit(&cfg)?, !a.no_synth, a.memories)?;
        if !a.no_synth && !a.no_timing {
            let (activity, source) = if a.no_power {
                (Vec::new(), None)
            } else {
                let (act, src) = unit_activity(u, chosen.as_deref())?;
                (act, Some(src))
            };
            let target = ClockTarget {
                clock_mhz: a.clock_mhz,
                power: !a.no_power,
                activity,
            };
            u.add_timing(&mut r, &cfg, &target)?;
            if let Some(t) = &mut r.timing {
                t.activity_source = source;
                t.paper_power = Some(paper_power(&r.unit).to_string());
            }
        }
        reports.push(r);
    }
    outln!("{}", render_reports(&reports, a.format == Format::Json)?);
    if a.format == Format::Text {
        outln!("{}", crate::report::memories::render_fit_table());
    }
    Ok(true)
}

/// The power analysis's activity for `u`: measured on `chosen` (an error if
/// that run fails), or on the unit's default kernel, falling back to
/// OpenSTA's default activity (labelled) if that run fails.
fn unit_activity(
    u: &dyn UnitCommands,
    chosen: Option<&Path>,
) -> anyhow::Result<(Vec<eda::PortActivity>, String)> {
    if let Some(k) = chosen {
        return measure_activity(u, k, &[]);
    }
    let (k, params) = default_activity_kernel(u.name());
    match measure_activity(u, Path::new(k), params) {
        Ok(r) => Ok(r),
        Err(e) => Ok((
            Vec::new(),
            format!("{DEFAULT_ACTIVITY} (the run on {k} failed: {e:#})"),
        )),
    }
}

/// `warpgen configs`.
pub fn configs_cmd() -> anyhow::Result<bool> {
    for u in UNITS {
        out!("{}", u.configs());
    }
    Ok(true)
}

/// Options of `warpgen bench`.
#[derive(Args)]
pub struct BenchCmd {
    /// One unit (default: all).
    #[arg(long, value_parser = unit_parser())]
    unit: Option<String>,
    /// TOML file of parameter overrides.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Cycles for the golden model and Verilator.
    #[arg(long, default_value_t = 1_000_000)]
    cycles: u64,
    /// Cycles for the (slower) RustHDL back-end.
    #[arg(long, default_value_t = 20_000)]
    rusthdl_cycles: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Runs of each row; the fastest is reported (timing noise on a
    /// shared machine only ever slows a run down).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
}

/// `warpgen bench`.
pub fn bench_cmd(a: BenchCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    for u in selected(a.unit.as_deref())? {
        let rows = u.bench(&cfg, a.cycles, a.rusthdl_cycles, a.seed, a.repeat)?;
        outln!("{}", render_bench(u.name(), &rows));
    }
    Ok(true)
}
