//! `warpgen prove`: each unit's equivalence proof and property checks.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use ports::ConfigFile;

use crate::formal::{
    check_small_cached, check_unit_cached, small_config, small_rtl, small_settings, unit_settings,
};
use crate::run_args::unit_parser;
use crate::unit_config::load_config;
use crate::unit_table::{selected, UnitCommands};

/// Options of `warpgen prove`.
#[derive(Args)]
pub struct ProveCmd {
    /// One unit (default: all).
    #[arg(long, value_parser = unit_parser())]
    unit: Option<String>,
    /// TOML file of parameter overrides (default: each unit's defaults).
    #[arg(long, conflicts_with = "all_configs")]
    config: Option<PathBuf>,
    /// Prove every configuration of the test suite's list
    /// (`cosim::CosimUnit::suite`) for each selected unit.
    #[arg(long)]
    all_configs: bool,
    /// Prove again even when a result for the same Verilog is cached.
    #[arg(long)]
    no_cache: bool,
    /// Time limit of each Yosys run, in seconds.
    #[arg(long, default_value_t = eda::EQUIV_TIMEOUT_SECS_DEFAULT)]
    timeout: u64,
    /// Skip the equivalence proofs (properties only).
    #[arg(long)]
    no_equiv: bool,
    /// Skip the property checks of hdl/formal/ (equivalence only).
    #[arg(long)]
    no_properties: bool,
    /// Where counterexample waveforms (VCD) of failed properties go.
    #[arg(long, default_value = "prove-cex")]
    vcd_dir: PathBuf,
    /// The property checker: yosys-smtbmc with z3 (`smtbmc-z3`), or
    /// Yosys's own SAT solver (`yosys-sat`: `sat -seq` / `sat -tempinduct`).
    #[arg(long, default_value = "smtbmc-z3", value_parser = ["smtbmc-z3", "yosys-sat"])]
    engine: String,
}

/// One proof job: the unit, what its configuration is called, the
/// configuration.
type Job = (&'static dyn UnitCommands, String, ConfigFile);

/// The jobs of `a`: every selected unit under the given configuration, or
/// under each of its suite configurations.
fn jobs(a: &ProveCmd) -> anyhow::Result<Vec<Job>> {
    let mut jobs = Vec::new();
    for u in selected(a.unit.as_deref())? {
        if a.all_configs {
            for (label, cfg) in u.suite_configs()? {
                jobs.push((u, label, cfg));
            }
        } else {
            let cfg = load_config(a.config.as_deref())?;
            let label = a
                .config
                .as_ref()
                .map_or("default configuration".to_string(), |p| {
                    p.display().to_string()
                });
            jobs.push((u, label, cfg));
        }
    }
    Ok(jobs)
}

/// `warpgen prove`: false when a proof or a property fails.
pub fn prove_cmd(a: ProveCmd) -> anyhow::Result<bool> {
    let timeout = Duration::from_secs(a.timeout.max(1));
    let mut ok = true;
    let mut checked = Vec::new();
    let verilog_out = PathBuf::from("verilog-out");
    for (u, label, cfg) in jobs(&a)? {
        if !a.no_equiv {
            let o = crate::prove::prove_unit(u, &cfg, &label, !a.no_cache, timeout)?;
            ok &= o.report.proved;
            outln!("{}", crate::prove::render(&o));
        }
        // The properties are stated for the checked-in RTL: checked when
        // this configuration emits exactly that file.
        if a.no_properties || checked.contains(&u.name()) {
            continue;
        }
        let checked_in = std::fs::read_to_string(verilog_out.join(format!("{}.v", u.name())))
            .unwrap_or_default();
        let emitted = u.emit(&cfg)?;
        // Or for the unit's small configuration (hdl/formal/small/).
        let small = small_config(u.name()).is_some() && small_rtl(u.name())?.0 == emitted;
        if emitted != checked_in && !small {
            if !a.all_configs {
                outln!(
                    "{}: properties not checked: hdl/formal/{}_props.sv states them \
                     for the checked-in verilog-out/{}.v{}, and this configuration emits \
                     other RTL\n",
                    u.name(),
                    u.name(),
                    u.name(),
                    match small_config(u.name()) {
                        Some((c, _)) => format!(" (and hdl/formal/small/ for {})", c.display()),
                        None => String::new(),
                    }
                );
            }
            continue;
        }
        checked.push(u.name());
        let mut settings = if small {
            small_settings(u.name())
        } else {
            unit_settings(u.name())
        };
        settings.timeout = timeout;
        if a.engine == "yosys-sat" {
            settings.engine = eda::FormalEngine::YosysSat;
        }
        let (o, cached) = if small {
            check_small_cached(u.name(), &a.vcd_dir, &settings, !a.no_cache)?
        } else {
            check_unit_cached(u.name(), &verilog_out, &a.vcd_dir, &settings, !a.no_cache)?
        };
        ok &= o.report.passed();
        outln!(
            "properties of {}{}",
            crate::formal::render(&o),
            if cached { "  (cached result)\n" } else { "" }
        );
    }
    Ok(ok)
}
