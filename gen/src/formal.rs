//! Formal property checks of a unit: the wrapper
//! `hdl/formal/<unit>_props.sv` around the checked-in
//! `verilog-out/<unit>.v`, checked by bounded model checking and
//! k-induction ([`eda::check_formal`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use eda::{FormalEngine, FormalJob, FormalReport};

/// Settings of [`check_unit`].
#[derive(Debug, Clone)]
pub struct FormalSettings {
    /// BMC depth; 0 skips BMC.
    pub bmc_depth: u32,
    /// k-induction depth; 0 skips induction.
    pub induction_depth: u32,
    /// The engine.
    pub engine: FormalEngine,
    /// Time limit of each tool run.
    pub timeout: Duration,
}

impl Default for FormalSettings {
    /// BMC to depth 4 and 1-induction with `yosys-smtbmc` and z3 (through
    /// the filter `eda` puts in front of Debian's z3, see
    /// `eda/src/z3_filter.py`), 600 s per run.
    fn default() -> Self {
        FormalSettings {
            bmc_depth: 4,
            induction_depth: 1,
            engine: FormalEngine::Smtbmc(eda::SmtSolver::Z3),
            timeout: Duration::from_secs(eda::FORMAL_TIMEOUT_SECS_DEFAULT),
        }
    }
}

/// One unit's formal check.
#[derive(Debug, Clone)]
pub struct FormalOutcome {
    /// The unit.
    pub unit: String,
    /// The wrapper checked.
    pub wrapper: PathBuf,
    /// The RTL checked.
    pub rtl: PathBuf,
    /// The result.
    pub report: FormalReport,
}

/// The wrapper of `unit`: `hdl/formal/<unit>_props.sv` ([`hdl::FORMAL_DIR`]).
pub fn wrapper_path(unit: &str) -> PathBuf {
    Path::new(hdl::FORMAL_DIR).join(format!("{unit}_props.sv"))
}

/// Checks `unit`'s properties: the wrapper in `hdl/formal/` ([`wrapper_path`])
/// around `rtl` (by default `<verilog_out>/<unit>.v`), writing any
/// counterexample VCD to `vcd_dir`. Caches nothing.
pub fn check_unit(
    unit: &str,
    verilog_out: &Path,
    rtl: Option<&Path>,
    vcd_dir: &Path,
    settings: &FormalSettings,
) -> anyhow::Result<FormalOutcome> {
    if eda::validate_top(unit).is_err() {
        bail!("`{unit}` is not a unit name");
    }
    let wrapper = wrapper_path(unit);
    if !wrapper.is_file() {
        bail!(
            "unit `{unit}` has no formal wrapper ({} not found)",
            wrapper.display()
        );
    }
    let rtl = rtl
        .map(Path::to_path_buf)
        .unwrap_or_else(|| verilog_out.join(format!("{unit}.v")));
    check_with(unit, wrapper, rtl, vcd_dir, settings)
}

/// The small configuration of `unit` whose properties the suite checks,
/// when the unit has one: `hdl/formal/small/<unit>.toml` and its wrapper
/// `hdl/formal/small/<unit>_props.sv` (the same properties as the paper
/// configuration's wrapper, on a table small enough for deep BMC in
/// seconds).
pub fn small_config(unit: &str) -> Option<(PathBuf, PathBuf)> {
    let dir = Path::new(hdl::FORMAL_DIR).join("small");
    let config = dir.join(format!("{unit}.toml"));
    let wrapper = dir.join(format!("{unit}_props.sv"));
    (config.is_file() && wrapper.is_file()).then_some((config, wrapper))
}

/// The RTL of `unit`'s small configuration ([`small_config`]) and its
/// wrapper.
pub fn small_rtl(unit: &str) -> anyhow::Result<(String, PathBuf)> {
    let Some((config, wrapper)) = small_config(unit) else {
        bail!(
            "unit `{unit}` has no small formal configuration in {}/small",
            hdl::FORMAL_DIR
        );
    };
    let u = crate::unit_table::unit(unit)?;
    let cfg = crate::unit_config::load_config(Some(&config))?;
    Ok((u.emit(&cfg)?, wrapper))
}

/// The settings of `unit`'s small configuration: BMC to the depth that
/// finishes in seconds there and still sees several requests' effects in
/// the tables, no induction (it fails on unreachable states without
/// strengthening invariants). `ba_tag_array`: 6 steps, 6 s with z3 where
/// 7 took 38 s (a request's row reaches the memories three edges after it
/// is accepted). `dac_expander`: 6 steps, 3 s (8: 15 s, 10: 41 s), enough
/// to fill its 4-entry ATQ.
pub fn small_settings(unit: &str) -> FormalSettings {
    FormalSettings {
        bmc_depth: match unit {
            "ba_tag_array" | "dac_expander" => 6,
            _ => 4,
        },
        induction_depth: 0,
        ..unit_settings(unit)
    }
}

/// Checks `unit`'s properties on its small configuration
/// ([`small_config`]): `rtl` (by default the RTL emitted for it), written
/// into `work` (which also receives any counterexample VCD), checked with
/// the small wrapper.
pub fn check_small(
    unit: &str,
    rtl: Option<&str>,
    work: &Path,
    settings: &FormalSettings,
) -> anyhow::Result<FormalOutcome> {
    let (emitted, wrapper) = small_rtl(unit)?;
    let path = work.join(format!("{unit}.v"));
    std::fs::write(&path, rtl.unwrap_or(&emitted))
        .with_context(|| format!("writing {}", path.display()))?;
    check_with(unit, wrapper, path, work, settings)
}

/// Runs the check of `wrapper` around `rtl`.
fn check_with(
    unit: &str,
    wrapper: PathBuf,
    rtl: PathBuf,
    vcd_dir: &Path,
    settings: &FormalSettings,
) -> anyhow::Result<FormalOutcome> {
    let job = FormalJob {
        wrapper: wrapper.clone(),
        rtl: rtl.clone(),
        top: format!("{unit}_props"),
        bmc_depth: settings.bmc_depth,
        induction_depth: settings.induction_depth,
        engine: settings.engine,
        timeout: settings.timeout,
        vcd_dir: vcd_dir.to_path_buf(),
    };
    let report = eda::check_formal(&job)
        .with_context(|| format!("formal check of {unit} ({})", wrapper.display()))?;
    Ok(FormalOutcome {
        unit: unit.to_string(),
        wrapper,
        rtl,
        report,
    })
}

/// A text rendering of an outcome: one line per check, with the failing
/// assertion and the counterexample VCD when a check failed.
pub fn render(o: &FormalOutcome) -> String {
    let r = &o.report;
    let mut s = format!(
        "{}: {} ({} probes, {}, model {:.1} s)\n",
        o.unit,
        if r.passed() { "PASS" } else { "FAIL" },
        r.probes,
        engine_name(r.engine),
        r.prepare_seconds
    );
    for (name, c) in [("bmc", &r.bmc), ("induction", &r.induction)] {
        let Some(c) = c else {
            let _ = writeln!(s, "  {name}: not run");
            continue;
        };
        let verdict = match (name, c.passed) {
            ("bmc", true) => "no counterexample",
            ("bmc", false) => "counterexample",
            (_, true) => "proved",
            (_, false) => "not proved",
        };
        let _ = writeln!(
            s,
            "  {name} depth {}: {verdict} ({:.1} s)",
            c.depth, c.seconds
        );
        if let Some(a) = &c.failed_assertion {
            let _ = writeln!(s, "    failing assertion: {a}");
        }
        if let Some(v) = &c.vcd {
            let _ = writeln!(s, "    counterexample: {}", v.display());
        }
    }
    s
}

/// How an engine is named in the output.
pub fn engine_name(engine: FormalEngine) -> &'static str {
    match engine {
        FormalEngine::Smtbmc(eda::SmtSolver::Z3) => "yosys-smtbmc + z3",
        FormalEngine::Smtbmc(eda::SmtSolver::Boolector) => "yosys-smtbmc + boolector",
        FormalEngine::YosysSat => "Yosys sat",
    }
}

/// The settings `warpgen prove` uses for `unit`'s properties: BMC to the
/// depth the unit declares (`cosim::CosimUnit::BMC_DEPTH`, 4 unless it says
/// otherwise), and k-induction to the depth the unit declares
/// (`cosim::CosimUnit::INDUCTION_DEPTH`: 0, BMC only, for a unit whose
/// induction does not close). A name that is not a unit's gets BMC only.
pub fn unit_settings(unit: &str) -> FormalSettings {
    let induction_depth = crate::unit_table::unit(unit).map_or(0, |u| u.induction_depth());
    let defaults = FormalSettings::default();
    let bmc_depth = crate::unit_table::unit(unit).map_or(defaults.bmc_depth, |u| u.bmc_depth());
    FormalSettings {
        induction_depth,
        bmc_depth,
        ..defaults
    }
}

/// [`check_unit`] with the result cached by content (the wrapper, the RTL
/// and the settings; `prove/` in the warpgen cache). Only passing results
/// are cached, so a counterexample is always written afresh. Returns the
/// outcome and whether it came from the cache.
pub fn check_unit_cached(
    unit: &str,
    verilog_out: &Path,
    vcd_dir: &Path,
    settings: &FormalSettings,
    use_cache: bool,
) -> anyhow::Result<(FormalOutcome, bool)> {
    let rtl = verilog_out.join(format!("{unit}.v"));
    check_cached(unit, wrapper_path(unit), rtl, vcd_dir, settings, use_cache)
}

/// [`check_small`] with the result cached by content, as
/// [`check_unit_cached`]; the emitted RTL is written to a private
/// temporary folder.
pub fn check_small_cached(
    unit: &str,
    vcd_dir: &Path,
    settings: &FormalSettings,
    use_cache: bool,
) -> anyhow::Result<(FormalOutcome, bool)> {
    let (rtl, wrapper) = small_rtl(unit)?;
    let work = tempfile::tempdir().context("creating a temporary folder")?;
    let path = work.path().join(format!("{unit}.v"));
    std::fs::write(&path, rtl).with_context(|| format!("writing {}", path.display()))?;
    check_cached(unit, wrapper, path, vcd_dir, settings, use_cache)
}

/// `wrapper` around `rtl` checked, or the cached result of the same
/// check (keyed by both files' content and the settings).
fn check_cached(
    unit: &str,
    wrapper: PathBuf,
    rtl: PathBuf,
    vcd_dir: &Path,
    settings: &FormalSettings,
    use_cache: bool,
) -> anyhow::Result<(FormalOutcome, bool)> {
    use sha2::{Digest, Sha256};
    let read = |p: &Path| std::fs::read(p).with_context(|| format!("reading {}", p.display()));
    let mut h = Sha256::new();
    for part in [
        b"formal v2".to_vec(),
        // The z3 filter is part of the engine (the text, so an edit to it
        // checks again).
        match settings.engine {
            FormalEngine::Smtbmc(eda::SmtSolver::Z3) => eda::Z3_FILTER.as_bytes().to_vec(),
            _ => Vec::new(),
        },
        read(&wrapper)?,
        read(&rtl)?,
        format!(
            "{} {} {:?}",
            settings.bmc_depth, settings.induction_depth, settings.engine
        )
        .into_bytes(),
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(&part);
    }
    let key: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let file = crate::prove::cache_dir().join(format!("formal-{unit}-{}.json", &key[..32]));
    if use_cache {
        if let Some(report) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str::<FormalReport>(&t).ok())
        {
            return Ok((
                FormalOutcome {
                    unit: unit.to_string(),
                    wrapper,
                    rtl,
                    report,
                },
                true,
            ));
        }
    }
    let o = check_with(unit, wrapper, rtl, vcd_dir, settings)?;
    if o.report.passed() && std::fs::create_dir_all(crate::prove::cache_dir()).is_ok() {
        let _ = crate::output::write_atomic(&file, &serde_json::to_string_pretty(&o.report)?);
    }
    Ok((o, false))
}
