//! Static timing of a unit (OpenSTA on the NanGate45 Liberty) at the CAPS
//! paper's clock, with the unit's baseline variant and its paper's latency
//! claim beside it.

use std::fmt::Write as _;

use cosim::LatencyClaim;
use eda::Tool;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::output::write_atomic;
use crate::report::synth::synth_cached;

/// The static timing of a unit, with the papers' clock and latency claims
/// beside it.
#[derive(Clone, Debug, Serialize)]
pub struct TimingSection {
    /// OpenSTA's result.
    pub report: eda::TimingReport,
    /// The unit's declared baseline variant (`cosim::CosimUnit::timing_baseline`,
    /// e.g. the unit with its mechanism off), area and timing, for the
    /// mechanism's overhead.
    pub baseline: Option<BaselineDelta>,
    /// The paper's latency claim (`cosim::CosimUnit::LATENCY_CLAIM`;
    /// printed, not serialized).
    #[serde(skip)]
    pub latency_claim: Option<LatencyClaim>,
}

/// A unit against its baseline variant.
#[derive(Clone, Debug, Serialize)]
pub struct BaselineDelta {
    /// What the baseline is.
    pub what: String,
    /// Its area (µm², flip-flops), if Yosys ran.
    pub area_um2: Option<f64>,
    /// Its timing.
    pub timing: eda::TimingReport,
}

/// The clock the timing flow maps against and constrains (MHz): the CAPS
/// paper's 1400 MHz core clock (Table III), a period of 0.714 ns.
pub const PAPER_CLOCK_MHZ: f64 = 1400.0;

/// OpenSTA timing of `verilog` (top `top`) on the NanGate45 Liberty, mapped
/// with ABC's delay target and buffering at the CAPS paper's clock
/// ([`PAPER_CLOCK_MHZ`]), cached by content hash like [`synth_cached`].
pub fn timing_cached(verilog: &str, top: &str) -> anyhow::Result<eda::TimingReport> {
    let liberty = eda::find_liberty(&std::env::current_dir()?).ok_or_else(|| {
        anyhow::anyhow!(
            "static timing needs the NanGate45 Liberty (../shared/pdk/nangate45/nangate45_typ.lib \
             or ${})",
            eda::LIBERTY_ENV
        )
    })?;
    let mut opts = eda::TimingOptions::new("clock");
    opts.period_ns = 1000.0 / PAPER_CLOCK_MHZ;
    opts.abc_buffering = true;
    let mut h = Sha256::new();
    h.update(b"timing v1\0");
    h.update(verilog.as_bytes());
    h.update(top.as_bytes());
    h.update(format!("{:?}", opts).as_bytes());
    h.update(liberty.to_string_lossy().as_bytes());
    h.update(
        std::fs::metadata(&liberty)
            .map(|m| m.len())
            .unwrap_or(0)
            .to_le_bytes(),
    );
    let key: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let dir = cosim::verilator::default_cache_dir().join("timing");
    let file = dir.join(format!("{top}-{}.json", &key[..16]));
    if let Ok(text) = std::fs::read_to_string(&file) {
        if let Ok(t) = serde_json::from_str(&text) {
            return Ok(t);
        }
    }
    let tmp = tempfile::tempdir()?;
    let v = tmp.path().join(format!("{top}.v"));
    std::fs::write(&v, verilog)?;
    let t = eda::time_verilog_with(&v, top, &liberty, &opts)?;
    std::fs::create_dir_all(&dir)?;
    write_atomic(&file, &serde_json::to_string_pretty(&t)?)?;
    Ok(t)
}

/// The static timing of `verilog` (top `top`) and of the baseline variant
/// `baseline_verilog` (what it is, its Verilog), with the paper's latency
/// claim; `None` when Yosys or OpenSTA is missing.
pub fn timing_section(
    verilog: &str,
    top: &str,
    baseline_verilog: Option<(&str, String)>,
    latency_claim: Option<LatencyClaim>,
) -> anyhow::Result<Option<TimingSection>> {
    if !eda::tool_available(Tool::Yosys) || !eda::tool_available(Tool::OpenSta) {
        return Ok(None);
    }
    let report = timing_cached(verilog, top)?;
    let baseline = match baseline_verilog {
        Some((what, v)) => Some(BaselineDelta {
            what: what.to_string(),
            area_um2: synth_cached(&v, top)?.area_um2,
            timing: timing_cached(&v, top)?,
        }),
        None => None,
    };
    Ok(Some(TimingSection {
        report,
        baseline,
        latency_claim,
    }))
}

/// Text of the timing section.
pub fn render_timing_text(t: &TimingSection, area_um2: Option<f64>) -> String {
    let mut s = String::new();
    let w = &t.report.worst;
    let _ = writeln!(
        s,
        "\nstatic timing (OpenSTA, NanGate45 typical, ABC mapped with buffering for {:.3} ns; \
         ports registered outside):",
        t.report.period_ns
    );
    let path = |p: &eda::TimingPath| {
        format!(
            "{} -> {}: {:.3} ns + setup {:.3} ns, {} logic levels; min period {:.3} ns = {}",
            p.start.display_name(),
            p.end.display_name(),
            p.delay_ns,
            p.setup_ns,
            p.levels,
            p.min_period_ns,
            p.fmax_mhz
                .map_or("-".to_string(), |f| format!("{f:.0} MHz"))
        )
    };
    let _ = writeln!(s, "  worst path         {}", path(w));
    if let Some(r2r) = &t.report.reg_to_reg {
        let _ = writeln!(s, "  worst reg-to-reg   {}", path(r2r));
    }
    if let Some(f) = t.report.fmax_mhz() {
        let verdict = if f >= PAPER_CLOCK_MHZ {
            "meets".to_string()
        } else {
            format!(
                "misses by {:.3} ns: a 1.4 GHz part would pipeline it into {} stages",
                w.min_period_ns - 1000.0 / PAPER_CLOCK_MHZ,
                (w.min_period_ns / (1000.0 / PAPER_CLOCK_MHZ)).ceil()
            )
        };
        let _ = writeln!(
            s,
            "  fmax               {f:.0} MHz; the CAPS configuration's 1400 MHz: {verdict}"
        );
        if let Some(LatencyClaim { claim, cycles }) = t.latency_claim {
            let _ = writeln!(
                s,
                "  latency claim      {claim}: {cycles} cycles = {:.2} ns at 1.4 GHz, {:.2} ns at our fmax",
                f64::from(cycles) * 1000.0 / PAPER_CLOCK_MHZ,
                f64::from(cycles) * 1000.0 / f
            );
        }
    }
    let _ = writeln!(
        s,
        "  netlist            {} cells; Yosys {:.0} s, OpenSTA {:.0} s",
        t.report.cells, t.report.yosys_seconds, t.report.sta_seconds
    );
    if let Some(b) = &t.baseline {
        let area = match (area_um2, b.area_um2) {
            (Some(a), Some(b)) => format!(
                "area {a:.0} vs {b:.0} um^2 (+{:.0} um^2, {:+.1} %)",
                a - b,
                100.0 * (a - b) / b
            ),
            _ => "area -".to_string(),
        };
        let (f, fb) = (t.report.fmax_mhz(), b.timing.fmax_mhz());
        let timing = match (f, fb) {
            (Some(f), Some(fb)) => format!(
                "worst path {:.3} vs {:.3} ns ({:+.3} ns), fmax {f:.0} vs {fb:.0} MHz",
                t.report.worst.min_period_ns,
                b.timing.worst.min_period_ns,
                t.report.worst.min_period_ns - b.timing.worst.min_period_ns
            ),
            _ => "timing -".to_string(),
        };
        let _ = writeln!(s, "  over {}: {area}; {timing}", b.what);
    }
    s
}
