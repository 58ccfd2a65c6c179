//! The subcommands on a unit's RTL: `verilog`, `cosim`, `report`,
//! `configs` and `bench`.

use std::path::{Path, PathBuf};

use clap::Args;
use cosim::BackendKind;
use ports::ConfigFile;

use crate::cli::format::Format;
use crate::commands::{choose_backend, render_bench, render_reports, CosimArgs};
use crate::output::{remove_stale_temps, write_atomic};
use crate::report::memories::MemoriesView;
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
        println!("wrote {}", p.display());
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
        println!("wrote {}", names.join(" "));
        println!(
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
    let args = CosimArgs {
        backend,
        cycles: a.cycles,
        seed: a.seed,
        vcd: a.vcd,
        vcd_always: a.vcd_always,
        scenario: a.scenario,
    };
    let o = unit.cosim(&cfg, &args)?;
    match o.result {
        Ok(()) => {
            println!(
                "PASS {}: {} cycles on {}, every output equal every cycle ({:.0} cycles/s{traced})",
                o.unit, o.cycles, o.backend, o.cycles_per_second
            );
            Ok(true)
        }
        Err(report) => {
            println!("{report}");
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
}

/// `warpgen report`.
pub fn report_cmd(a: ReportCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    let mut reports = Vec::new();
    for u in selected(a.unit.as_deref())? {
        let mut r = u.report(&cfg, !a.no_synth)?;
        add_memories(&mut r, &u.emit(&cfg)?, !a.no_synth, a.memories)?;
        if !a.no_synth && !a.no_timing {
            u.add_timing(&mut r, &cfg)?;
        }
        reports.push(r);
    }
    println!("{}", render_reports(&reports, a.format == Format::Json)?);
    if a.format == Format::Text {
        println!("{}", crate::report::memories::render_fit_table());
    }
    Ok(true)
}

/// `warpgen configs`.
pub fn configs_cmd() -> anyhow::Result<bool> {
    for u in UNITS {
        print!("{}", u.configs());
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
        println!("{}", render_bench(u.name(), &rows));
    }
    Ok(true)
}
