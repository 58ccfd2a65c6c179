//! `warpgen all`: every unit emitted and co-simulated, the bundled kernels
//! under every harness combination, then (the slow part, cached) every
//! unit synthesized, timed and proved.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use cosim::BackendKind;
use ports::ConfigFile;

use crate::commands::{choose_backend, CosimOutcome};
use crate::report::timing::{timing_at, ClockTarget, DEFAULT_REPORT_CLOCK_MHZ};
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

/// The `max_cycles` of `warpgen all`'s kernel comparison: above the
/// longest bundled kernel at its dataset size (BICG kernel 2, 214 million
/// cycles on `fermi`), so that a run stops only if it truly hangs.
const ALL_MAX_CYCLES: u64 = 1_000_000_000;

/// `warpgen all`: false when a co-simulation, a proof or a property fails.
///
/// Fast first: every unit emitted and co-simulated, then the harness's
/// kernel table; then the slow columns (synthesis, timing at 1 GHz, the
/// equivalence proof and the property check), one unit at a time with a
/// progress line per step on a terminal, each step cached by the Verilog's
/// content (a warm cache prints them at once).
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
        "{:<16} {:<10} {:>9} {:<7} {:>12} {:>13}",
        "unit",
        "backend",
        "cycles",
        "result",
        "cycles/s",
        "storage bits"
    );
    let mut failures = Vec::new();
    for u in UNITS {
        let (row_ok, failure) = cosim_row(*u, &cfg, &a, (backend, n))?;
        ok &= row_ok;
        failures.extend(failure);
    }
    outln!("Verilog written to {}/", a.out.display());
    if a.kernels.is_dir() {
        let files = crate::run::kernel_files(&a.kernels)?;
        // The bundled kernels run at their papers' dataset sizes, and
        // PolyBench's BICG kernel 2 (4,096 x 4,096) takes 214 million
        // cycles on `fermi`, past the machine's `max_cycles` of 50 million:
        // the comparison allows ALL_MAX_CYCLES.
        let sets = [format!("max_cycles={ALL_MAX_CYCLES}")];
        let rows = crate::kernel_compare::compare_kernels(&files, &sets)?;
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
    let yosys = eda::tool_available(eda::Tool::Yosys);
    let tools = Tools {
        synth: yosys && !a.no_synth,
        timing: yosys && !a.no_synth && eda::tool_available(eda::Tool::OpenSta),
        prove: yosys && !a.no_prove,
    };
    if tools.synth || tools.prove {
        outln!(
            "\nArea, timing at {:.0} MHz and proofs (each cached by the Verilog's content; \
             --no-synth and --no-prove skip them):",
            DEFAULT_REPORT_CLOCK_MHZ
        );
        outln!(
            "{:<16} {:>8} {:>11} {:>9} {:>7} {:>6}",
            "unit",
            "cells",
            "area um^2",
            "fmax",
            "equiv",
            "props"
        );
        for u in UNITS {
            ok &= slow_row(*u, &cfg, tools)?;
        }
    } else {
        outln!("\n(no Yosys, or --no-synth and --no-prove: no area, timing or proofs)");
    }
    Ok(ok)
}

/// The slow steps that are run: synthesis, timing, proofs.
#[derive(Clone, Copy)]
struct Tools {
    synth: bool,
    timing: bool,
    prove: bool,
}

/// One unit's row of the fast table (co-simulated on `backend` for
/// `cycles`): whether it passed, and the mismatch report of a failed
/// co-simulation.
fn cosim_row(
    u: &dyn UnitCommands,
    cfg: &ConfigFile,
    a: &AllCmd,
    (backend, cycles): (BackendKind, u64),
) -> anyhow::Result<(bool, Option<Box<cosim::Mismatch>>)> {
    let row = u.all(cfg, &a.out, backend, cycles, false)?;
    let ok = row.cosim.result.is_ok();
    let CosimOutcome {
        backend,
        cycles,
        result,
        cycles_per_second,
        ..
    } = row.cosim;
    outln!(
        "{:<16} {:<10} {:>9} {:<7} {:>12.0} {:>13}",
        u.name(),
        backend,
        cycles,
        if ok { "PASS" } else { "FAIL" },
        cycles_per_second,
        row.storage_bits
    );
    Ok((ok, result.err()))
}

/// A progress line on standard error for one slow step (hidden when
/// standard error is not a terminal).
fn step(unit: &str, what: &str) -> indicatif::ProgressBar {
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        indicatif::ProgressBar::new_spinner()
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_message(format!("{unit}: {what}"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// One unit's row of the slow table: whether its proofs passed.
fn slow_row(u: &dyn UnitCommands, cfg: &ConfigFile, tools: Tools) -> anyhow::Result<bool> {
    let v = u.emit(cfg)?;
    let dash = || "-".to_string();
    let (cells, area) = if tools.synth {
        let bar = step(u.name(), "synthesis (Yosys)");
        let s = crate::report::synth_cached(&v, u.name())?;
        bar.finish_and_clear();
        (
            s.cells.to_string(),
            s.area_um2.map_or_else(dash, |a| format!("{a:.0}")),
        )
    } else {
        (dash(), dash())
    };
    let fmax = if tools.timing {
        let bar = step(u.name(), "timing (Yosys + ABC, OpenSTA)");
        let t = timing_at(&v, u.name(), &ClockTarget::new(DEFAULT_REPORT_CLOCK_MHZ))?;
        bar.finish_and_clear();
        t.fmax_mhz().map_or_else(dash, |f| format!("{f:.0}M"))
    } else {
        dash()
    };
    let mut ok = true;
    let (equiv, props) = if tools.prove {
        let bar = step(u.name(), "equivalence proof and property check");
        let (proved, props) = proofs(u, cfg, &v)?;
        bar.finish_and_clear();
        ok = proved && props != "FAIL";
        (if proved { "proved" } else { "NO" }, props)
    } else {
        ("-", "-")
    };
    outln!(
        "{:<16} {:>8} {:>11} {:>9} {:>7} {:>6}",
        u.name(),
        cells,
        area,
        fmax,
        equiv,
        props
    );
    Ok(ok)
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
