//! `warpgen prove`: each unit's emitted RTL proved equivalent to its Yosys
//! gate netlist ([`eda::prove_rtl_vs_synth`]), with results cached by the
//! Verilog's content hash.
//!
//! The method (see `eda`'s `equiv` module and [`eda::equiv_script`]):
//! outputs and registers are matched by name, ABC's SAT sweeping (`&fraig -x`)
//! proves the next-state and output functions equal, and Yosys's
//! `equiv_simple` / `equiv_induct` / `equiv_status -assert` close the rest.
//! What is proved: started with every register equal to its namesake, the
//! RTL and the netlist produce the same outputs and register values in
//! every cycle. `warpgen prove --all-configs` proves every configuration of
//! the test suite's list (`cosim::CosimUnit::suite`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use eda::EquivReport;
use ports::ConfigFile;
use sha2::{Digest, Sha256};

use crate::unit_table::UnitCommands;

/// The folder of cached proof results: `prove/` in the cache folder of the
/// Verilator builds ([`cosim::verilator::default_cache_dir`], `$WARPGEN_CACHE`).
pub fn cache_dir() -> PathBuf {
    cosim::verilator::default_cache_dir().join("prove")
}

/// The cache key of a proof of `verilog` (top `top`): SHA-256 of the proof
/// method, the Yosys script and the Verilog text.
pub fn cache_key(verilog: &str, top: &str) -> String {
    let mut h = Sha256::new();
    // The gate netlist's synthesis is part of what is proved: bump the tag
    // when `eda::synth_gate_netlist` changes.
    let synth = "gate netlist v3: synth -flatten -nofsm -nordff";
    for part in [
        eda::EQUIV_METHOD,
        synth,
        &eda::equiv_script(top),
        top,
        verilog,
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// One unit's proof.
#[derive(Debug, Clone)]
pub struct ProveOutcome {
    /// The unit.
    pub unit: &'static str,
    /// Its parameters, one line.
    pub config: String,
    /// The proof's result.
    pub report: EquivReport,
    /// Whether the result came from the cache.
    pub cached: bool,
}

/// Proves unit `u`'s RTL for `cfg` equivalent to its gate netlist; a cached
/// result for the same Verilog is reused unless `use_cache` is false (a
/// fresh result is stored either way). `config` names the configuration
/// in the output (`default configuration`, a file name).
pub fn prove_unit(
    u: &dyn UnitCommands,
    cfg: &ConfigFile,
    config: &str,
    use_cache: bool,
    timeout: Duration,
) -> anyhow::Result<ProveOutcome> {
    let verilog = u.emit(cfg)?;
    let config = config.to_string();
    let top = u.name();
    // A proof holds whatever time it took: proved results are kept under the
    // key alone, so any time limit reads them back; a result that is not a
    // proof (possibly a time-out) is kept under the key and the time limit.
    let key = cache_key(&verilog, top);
    let proved_path = cache_dir().join(format!("{key}.json"));
    let path = cache_dir().join(format!("{key}-{}s.json", timeout.as_secs()));
    if use_cache {
        for p in [&proved_path, &path] {
            if let Some(report) = std::fs::read_to_string(p)
                .ok()
                .and_then(|t| serde_json::from_str::<EquivReport>(&t).ok())
            {
                return Ok(ProveOutcome {
                    unit: top,
                    config,
                    report,
                    cached: true,
                });
            }
        }
    }
    let report = match eda::prove_rtl_vs_synth(&verilog, top, timeout) {
        Ok(r) => r,
        // A proof that runs out of time is not proved: a result, cached
        // like any other for this time limit's key, not a tool error.
        Err(eda::EdaError::Timeout { seconds, .. }) => eda::EquivReport {
            proved: false,
            method: eda::EQUIV_METHOD.to_string(),
            equiv_cells: 0,
            unproven: 0,
            unproven_signals: Vec::new(),
            gate_cells: None,
            seconds: seconds as f64,
            log_tail: format!("not proved: Yosys ran out of its {seconds} s time limit"),
        },
        Err(e) => return Err(e).with_context(|| format!("proving {top} ({config})")),
    };
    // A cache that cannot be written only costs the next run time.
    let _ = store(if report.proved { &proved_path } else { &path }, &report);
    Ok(ProveOutcome {
        unit: top,
        config,
        report,
        cached: false,
    })
}

fn store(path: &std::path::Path, report: &EquivReport) -> std::io::Result<()> {
    let Some(dir) = path.parent() else {
        return Err(std::io::Error::other("cache file without a folder"));
    };
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".tmp-{}", std::process::id()));
    std::fs::write(&tmp, serde_json::to_string_pretty(report)?)?;
    std::fs::rename(&tmp, path)
}

/// One line per outcome: unit, configuration, result, `$equiv` cells
/// (output and register bits compared), gate cells, seconds and whether
/// cached; a failure adds up to 10 unproven signals.
pub fn render(o: &ProveOutcome) -> String {
    let r = &o.report;
    let cells = format!(
        "{} $equiv, {}",
        r.equiv_cells,
        r.gate_cells
            .map_or("? gate cells".to_string(), |c| format!("{c} gate cells"))
    );
    let cached = if o.cached { ", cached" } else { "" };
    if r.proved {
        format!(
            "{} ({}): proved equivalent ({}, {cells}, {:.1} s{cached})",
            o.unit, o.config, r.method, r.seconds
        )
    } else {
        let mut s = format!(
            "{} ({}): NOT proved equivalent ({}, {cells}, {:.1} s{cached}): {} unproven signal bit(s)",
            o.unit, o.config, r.method, r.seconds, r.unproven
        );
        for sig in r.unproven_signals.iter().take(10) {
            s.push_str(&format!("\n  unproven: {sig}"));
        }
        if r.unproven_signals.is_empty() {
            s.push_str(&format!("\n  Yosys log tail:\n{}", r.log_tail));
        }
        s
    }
}
