//! `warpgen all`: every unit emitted, co-simulated, synthesized, timed and
//! proved, one summary row each, then the bundled kernels under every
//! harness combination.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use cosim::BackendKind;
use ports::ConfigFile;

use crate::commands::{choose_backend, CosimOutcome};
use crate::unit_config::load_config;
use crate::unit_table::{UnitCommands, UNITS};

/// Options of `warpgen all`.
#[derive(Args)]
pub struct AllCmd {
    /// Cycles of random co-simulation per unit (RustHDL runs a tenth).
    #[arg(long, default_value_t = 100_000)]
    cycles: u64,
    /// Output folder for the Verilog.
    #[arg(long, default_value = "verilog-out")]
    out: PathBuf,
    /// TOML file of parameter overrides.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Skip Yosys and OpenSTA (no cell counts, no timing).
    #[arg(long)]
    no_synth: bool,
    /// Skip the equivalence proofs and property checks.
    #[arg(long)]
    no_prove: bool,
    /// Folder of kernels for the harness comparison.
    #[arg(long, default_value = "kernels")]
    kernels: PathBuf,
}

/// `warpgen all`: false when a co-simulation, a proof or a property fails.
pub fn all_cmd(a: AllCmd) -> anyhow::Result<bool> {
    let cfg = load_config(a.config.as_deref())?;
    let backend = choose_backend(None)?;
    let n = if backend == BackendKind::RustHdl {
        (a.cycles / 10).max(1)
    } else {
        a.cycles
    };
    let mut ok = true;
    outln!(
        "{:<16} {:<10} {:>9} {:<7} {:>12} {:>13} {:>8} {:>6} {:>7} {:>6}",
        "unit",
        "backend",
        "cycles",
        "result",
        "cycles/s",
        "storage bits",
        "cells",
        "fmax",
        "equiv",
        "props"
    );
    let mut failures = Vec::new();
    let yosys = eda::tool_available(eda::Tool::Yosys);
    let tools = Tools {
        yosys,
        timing: yosys && eda::tool_available(eda::Tool::OpenSta),
    };
    for u in UNITS {
        let (row_ok, failure) = unit_row(*u, &cfg, &a, tools, (backend, n))?;
        ok &= row_ok;
        failures.extend(failure);
    }
    outln!("Verilog written to {}/", a.out.display());
    if a.kernels.is_dir() {
        let files = crate::run::kernel_files(&a.kernels)?;
        let rows = crate::kernel_compare::compare_kernels(&files, &[])?;
        outln!(
            "\nSM harness ({}): each bundled kernel with no prefetcher, CAPS (PAS), Snake \
             (decoupled L1), the BA L1, CAPS with BA, and DAC (instr: warp instructions \
             against the baseline's)",
            a.kernels.display()
        );
        outln!("{}", crate::kernel_compare::compare_table(&rows));
    }
    for f in failures {
        outln!("\n{f}");
    }
    Ok(ok)
}

/// The tools installed: Yosys, and Yosys with OpenSTA.
#[derive(Clone, Copy)]
struct Tools {
    yosys: bool,
    timing: bool,
}

/// One unit's row of the summary (co-simulated on `backend` for `cycles`):
/// whether it passed, and the mismatch report of a failed co-simulation.
fn unit_row(
    u: &dyn UnitCommands,
    cfg: &ConfigFile,
    a: &AllCmd,
    tools: Tools,
    (backend, cycles): (BackendKind, u64),
) -> anyhow::Result<(bool, Option<Box<cosim::Mismatch>>)> {
    let row = u.all(cfg, &a.out, backend, cycles, !a.no_synth)?;
    let res = if row.cosim.result.is_ok() {
        "PASS"
    } else {
        "FAIL"
    };
    let mut ok = row.cosim.result.is_ok();
    let v = u.emit(cfg)?;
    // Timing, proofs: each cached by the Verilog's content.
    let fmax = if !a.no_synth && tools.timing {
        crate::report::timing::timing_cached(&v, u.name())?
            .fmax_mhz()
            .map_or("-".to_string(), |f| format!("{f:.0}M"))
    } else {
        "-".to_string()
    };
    let (equiv, props) = if !a.no_prove && tools.yosys {
        let (proved, props) = proofs(u, cfg, &v)?;
        ok &= proved && props != "FAIL";
        (if proved { "proved" } else { "NO" }, props)
    } else {
        ("-", "-")
    };
    let CosimOutcome {
        backend,
        cycles,
        result,
        cycles_per_second,
        ..
    } = row.cosim;
    outln!(
        "{:<16} {:<10} {:>9} {:<7} {:>12.0} {:>13} {:>8} {:>6} {:>7} {:>6}",
        u.name(),
        backend,
        cycles,
        res,
        cycles_per_second,
        row.storage_bits,
        row.cells
            .map(|c| c.to_string())
            .unwrap_or_else(|| "-".into()),
        fmax,
        equiv,
        props
    );
    Ok((ok, result.err()))
}

/// The unit's equivalence proof under `cfg` (whether it proved) and its
/// property check (`pass`, `FAIL`, or `-` when `verilog` is not the
/// checked-in RTL the properties are stated for).
fn proofs(
    u: &dyn UnitCommands,
    cfg: &ConfigFile,
    verilog: &str,
) -> anyhow::Result<(bool, &'static str)> {
    // `warpgen prove`'s time limit per Yosys run (a proof that needs more
    // is reported as not proved, and cached as such for this limit), so the
    // two share the cache.
    let timeout = Duration::from_secs(eda::EQUIV_TIMEOUT_SECS_DEFAULT);
    let e = crate::prove::prove_unit(u, cfg, "this configuration", true, timeout)?;
    let checked_in =
        std::fs::read_to_string(PathBuf::from("verilog-out").join(format!("{}.v", u.name())))
            .unwrap_or_default();
    let p = if verilog == checked_in {
        let (o, _) = crate::formal::check_unit_cached(
            u.name(),
            Path::new("verilog-out"),
            Path::new("prove-cex"),
            &crate::formal::unit_settings(u.name()),
            true,
        )?;
        if o.report.passed() {
            "pass"
        } else {
            "FAIL"
        }
    } else {
        "-"
    };
    Ok((e.report.proved, p))
}
