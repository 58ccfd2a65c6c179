//! One point of `warpgen explore`: what is measured and how.

use ports::ConfigFile;
use serde::{Deserialize, Serialize};

use super::benefit::{Baseline, Benefit, BenefitRun};
use super::grid::Point;
use crate::report::timing::{timing_at, ClockTarget};
use crate::report::{add_memories, synth_cached};
use crate::unit_table::UnitCommands;

/// The measurements of one point.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PointResult {
    /// Unit name.
    pub unit: String,
    /// The swept parameters' values.
    pub point: Vec<(String, u64)>,
    /// The clock mapped and timed for, MHz.
    pub clock_mhz: f64,
    /// Verilator `--lint-only -Wall` warnings of the point's Verilog (with
    /// the project's documented waivers; 0 = clean), when Verilator is
    /// installed.
    #[serde(default)]
    pub lint_warnings: Option<u64>,
    /// The error Verilator's lint stopped on, if it did (the point is
    /// marked `ERR`, not dropped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint_error: Option<String>,
    /// Storage bits of the RTL (the unit's storage table).
    pub storage_bits: u64,
    /// Bits of the paper's field layout for the same parameters.
    pub paper_bits: u64,
    /// Flip-flops after synthesis.
    pub flip_flops: Option<u64>,
    /// Area with every memory in flip-flops, µm² (Yosys on NanGate45).
    pub ff_view_um2: Option<f64>,
    /// Area with the memories that may be macros as fakeram45 SRAM, µm².
    pub sram_view_um2: Option<f64>,
    /// Area of the netlist ABC mapped for the clock, µm².
    pub mapped_um2: Option<f64>,
    /// Worst slack at the clock, ns (negative: it does not close).
    pub slack_ns: Option<f64>,
    /// The best clock the mapped netlist closes at, MHz.
    pub fmax_mhz: Option<f64>,
    /// Logic levels of the worst path.
    pub levels: Option<u32>,
    /// Whether the point closes at the clock.
    pub closes: Option<bool>,
    /// What the unit buys at the point in the harness (`--kernel`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benefit: Option<Benefit>,
    /// Why the harness refused the point (`--kernel`), instead of a benefit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benefit_refused: Option<String>,
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The clock, MHz.
    pub clock_mhz: f64,
    /// Run OpenSTA (else synthesis only).
    pub timing: bool,
    /// Points measured at once.
    pub jobs: usize,
    /// The harness run of each point (`--kernel`), if any.
    pub benefit: Option<BenefitRun>,
}

/// The Verilator lint of `verilog` (top `top`): its warnings, or the
/// error Verilator stopped on (its first lines); `(None, None)` without
/// Verilator.
fn lint(verilog: &str, top: &str) -> anyhow::Result<(Option<u64>, Option<String>)> {
    if !eda::tool_available(eda::Tool::Verilator) {
        return Ok((None, None));
    }
    let f = tempfile::Builder::new().suffix(".v").tempfile()?;
    std::fs::write(f.path(), verilog)?;
    match eda::lint_verilator(f.path(), top, crate::report::LINT_WAIVERS) {
        Ok(r) => Ok((Some(r.warnings.len() as u64), None)),
        Err(e @ eda::EdaError::ToolFailed { .. }) => {
            let text = e.to_string();
            let first: Vec<&str> = text
                .lines()
                .filter(|l| l.contains("%Error"))
                .take(2)
                .collect();
            Ok((None, Some(first.join(" / "))))
        }
        Err(e) => Err(e.into()),
    }
}

/// Measure one point: lint, synthesis, timing when `opts.timing`, and the
/// harness's benefit when a `baseline` is given.
pub fn measure(
    u: &dyn UnitCommands,
    cfg: &ConfigFile,
    point: &Point,
    opts: &ExploreOptions,
    baseline: Option<&Baseline>,
) -> anyhow::Result<PointResult> {
    let verilog = u.emit(cfg)?;
    let mut r = u.report(cfg, true)?;
    let synth = match &r.synth {
        Some(s) => s.clone(),
        None => synth_cached(&verilog, u.name())?,
    };
    add_memories(&mut r, &verilog, true, None)?;
    let linted = lint(&verilog, u.name())?;
    let mem = r.memories.as_ref();
    let mut out = PointResult {
        unit: u.name().to_string(),
        point: point.clone(),
        clock_mhz: opts.clock_mhz,
        lint_warnings: linted.0,
        lint_error: linted.1,
        storage_bits: r.storage.total_bits(),
        paper_bits: r.storage.paper_field_bits(),
        flip_flops: Some(synth.flip_flops),
        ff_view_um2: mem.and_then(|m| m.ff_total_um2).or(synth.area_um2),
        sram_view_um2: mem.and_then(|m| m.sram_total_um2),
        mapped_um2: None,
        slack_ns: None,
        fmax_mhz: None,
        levels: None,
        closes: None,
        benefit: None,
        benefit_refused: None,
    };
    if opts.timing {
        let t = timing_at(&verilog, u.name(), &ClockTarget::new(opts.clock_mhz))?;
        out.mapped_um2 = t.area_um2;
        out.slack_ns = Some(t.worst.slack_ns);
        out.fmax_mhz = t.fmax_mhz();
        out.levels = Some(t.worst.levels);
        out.closes = Some(t.worst.slack_ns >= 0.0);
    }
    if let Some(b) = baseline {
        match b.benefit(point) {
            Ok(x) => out.benefit = Some(x),
            Err(e) => out.benefit_refused = Some(format!("{e:#}")),
        }
    }
    Ok(out)
}
