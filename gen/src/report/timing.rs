//! Static timing of a unit (OpenSTA on the NanGate45 Liberty) at the CAPS
//! paper's clock, with the unit's baseline variant and its paper's latency
//! claim beside it.

use std::fmt::Write as _;

use cosim::{Latency, LatencyClaim};
use eda::Tool;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::output::write_atomic;
use crate::report::synth::synth_cached;

/// The static timing of a unit, with the papers' clock and latency claims
/// beside it.
#[derive(Clone, Debug, Serialize)]
pub struct TimingSection {
    /// The clock mapped and timed for, MHz (period `1000 / clock_mhz` ns).
    pub clock_mhz: f64,
    /// The worst path's slack at that clock, ns (negative: the unit does
    /// not close at it).
    pub slack_ns: f64,
    /// `1000 / (period - slack)`, MHz: the clock the worst path allows.
    pub fmax_mhz: Option<f64>,
    /// Logic levels of the worst path.
    pub levels: u32,
    /// Where the power analysis's switching activity came from (`None`
    /// when power was not asked for).
    pub activity_source: Option<String>,
    /// The paper's power figure for the structure, quoted, or that it gives
    /// none.
    pub paper_power: Option<String>,
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
    /// The unit's latency table (`cosim::CosimUnit::LATENCIES`) in cycles
    /// and in nanoseconds at the clock and at the fmax.
    pub latencies: Vec<LatencyAtClock>,
    /// The paper's latency claim in cycles and in nanoseconds at the
    /// paper's clock, with our cycles for the same thing.
    pub paper_latency: Option<PaperLatency>,
}

/// One row of a unit's latency table at a clock.
#[derive(Clone, Debug, Serialize)]
pub struct LatencyAtClock {
    /// What is timed.
    pub what: String,
    /// Cycles.
    pub cycles: u32,
    /// `cycles` periods of the clock the unit was timed at, ns.
    pub ns_at_clock: f64,
    /// `cycles` periods at the unit's fmax, ns.
    pub ns_at_fmax: Option<f64>,
    /// Whether the paper's claim is about this row.
    pub claimed: bool,
}

/// A paper's latency claim beside ours.
#[derive(Clone, Debug, Serialize)]
pub struct PaperLatency {
    /// The claim, with its source.
    pub claim: String,
    /// The paper's cycles.
    pub cycles: u32,
    /// The paper's cycles at its clock ([`PAPER_CLOCK_MHZ`]), ns.
    pub ns_at_paper_clock: f64,
    /// Our cycles for the claimed row, if the unit's table has one.
    pub ours_cycles: Option<u32>,
    /// Our cycles at our clock, ns.
    pub ours_ns_at_clock: Option<f64>,
    /// Our cycles at our fmax, ns.
    pub ours_ns_at_fmax: Option<f64>,
}

/// The latency table and the paper's claim at `clock_mhz` and `fmax_mhz`.
fn latencies_at(
    latencies: &[Latency],
    claim: Option<LatencyClaim>,
    clock_mhz: f64,
    fmax_mhz: Option<f64>,
) -> (Vec<LatencyAtClock>, Option<PaperLatency>) {
    let ns = |cycles: u32, mhz: f64| f64::from(cycles) * 1000.0 / mhz;
    let rows: Vec<LatencyAtClock> = latencies
        .iter()
        .map(|l| LatencyAtClock {
            what: l.what.to_string(),
            cycles: l.cycles,
            ns_at_clock: ns(l.cycles, clock_mhz),
            ns_at_fmax: fmax_mhz.map(|f| ns(l.cycles, f)),
            claimed: l.claimed,
        })
        .collect();
    let paper = claim.map(|c| {
        let ours = rows.iter().find(|r| r.claimed);
        PaperLatency {
            claim: c.claim.to_string(),
            cycles: c.cycles,
            ns_at_paper_clock: ns(c.cycles, PAPER_CLOCK_MHZ),
            ours_cycles: ours.map(|r| r.cycles),
            ours_ns_at_clock: ours.map(|r| r.ns_at_clock),
            ours_ns_at_fmax: ours.and_then(|r| r.ns_at_fmax),
        }
    });
    (rows, paper)
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

/// The clock `warpgen report` synthesizes and times for by default (MHz):
/// issue 29's target of 1 GHz or faster.
pub const DEFAULT_REPORT_CLOCK_MHZ: f64 = 1000.0;

/// OpenSTA timing of `verilog` (top `top`) on the NanGate45 Liberty, mapped
/// with ABC's delay target and buffering at the CAPS paper's clock
/// ([`PAPER_CLOCK_MHZ`]), cached by content hash like [`synth_cached`].
pub fn timing_cached(verilog: &str, top: &str) -> anyhow::Result<eda::TimingReport> {
    timing_at(verilog, top, &ClockTarget::new(PAPER_CLOCK_MHZ))
}

/// What to map, time and (optionally) power a unit for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockTarget {
    /// The clock in MHz: ABC maps with `-D` of its period and OpenSTA
    /// constrains the clock port to it.
    pub clock_mhz: f64,
    /// Run OpenSTA's `report_power` at that clock.
    pub power: bool,
    /// Input ports' switching activity measured in a run (empty: OpenSTA's
    /// default activity).
    pub activity: Vec<eda::PortActivity>,
}

impl ClockTarget {
    /// Timing only, at `clock_mhz`.
    pub fn new(clock_mhz: f64) -> Self {
        ClockTarget {
            clock_mhz,
            ..ClockTarget::default()
        }
    }
}

/// [`timing_cached`] at `target`'s clock (ABC's delay target and OpenSTA's
/// period `1000 / clock_mhz` ns), with power if asked; cached by content
/// (Verilog, options including the activity, Liberty).
pub fn timing_at(
    verilog: &str,
    top: &str,
    target: &ClockTarget,
) -> anyhow::Result<eda::TimingReport> {
    let liberty = eda::find_liberty(&std::env::current_dir()?).ok_or_else(|| {
        anyhow::anyhow!(
            "static timing needs the NanGate45 Liberty (../shared/pdk/nangate45/nangate45_typ.lib \
             or ${})",
            eda::LIBERTY_ENV
        )
    })?;
    let mut opts = eda::TimingOptions::new("clock");
    opts.period_ns = 1000.0 / target.clock_mhz;
    opts.abc_buffering = true;
    opts.power = target.power;
    opts.port_activity = target.activity.clone();
    let mut h = Sha256::new();
    h.update(b"timing v5\0");
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
    latencies: &'static [Latency],
    target: &ClockTarget,
) -> anyhow::Result<Option<TimingSection>> {
    if !eda::tool_available(Tool::Yosys) || !eda::tool_available(Tool::OpenSta) {
        return Ok(None);
    }
    let report = timing_at(verilog, top, target)?;
    let baseline = match baseline_verilog {
        Some((what, v)) => Some(BaselineDelta {
            what: what.to_string(),
            area_um2: synth_cached(&v, top)?.area_um2,
            timing: timing_at(&v, top, &ClockTarget::new(target.clock_mhz))?,
        }),
        None => None,
    };
    let slack_ns = report.worst.slack_ns;
    let (latencies, paper_latency) = latencies_at(
        latencies,
        latency_claim,
        target.clock_mhz,
        report.fmax_mhz(),
    );
    Ok(Some(TimingSection {
        clock_mhz: target.clock_mhz,
        slack_ns,
        fmax_mhz: report.fmax_mhz(),
        latencies,
        paper_latency,
        levels: report.worst.levels,
        report,
        baseline,
        latency_claim,
        activity_source: None,
        paper_power: None,
    }))
}

/// The latency table and the paper's claim beside ours.
fn render_latencies(s: &mut String, t: &TimingSection) {
    let fmax = |ns: Option<f64>| ns.map_or(String::new(), |ns| format!(", {ns:.2} ns at our fmax"));
    if !t.latencies.is_empty() {
        let _ = writeln!(s, "  latencies          (the unit's document, \"Latency\")");
        for l in &t.latencies {
            let _ = writeln!(
                s,
                "    {}: {} cycle{} = {:.2} ns at {:.0} MHz{}{}",
                l.what,
                l.cycles,
                if l.cycles == 1 { "" } else { "s" },
                l.ns_at_clock,
                t.clock_mhz,
                fmax(l.ns_at_fmax),
                if l.claimed {
                    "  <- the paper's claim"
                } else {
                    ""
                }
            );
        }
    }
    if let Some(p) = &t.paper_latency {
        let ours = match (p.ours_cycles, p.ours_ns_at_clock) {
            (Some(c), Some(ns)) => format!(
                "ours {c} cycles = {ns:.2} ns at {:.0} MHz{}",
                t.clock_mhz,
                fmax(p.ours_ns_at_fmax)
            ),
            _ => "ours: no row of the latency table is about it".to_string(),
        };
        let _ = writeln!(
            s,
            "  paper latency      {}: {} cycles = {:.2} ns at {:.1} GHz; {ours}",
            p.claim,
            p.cycles,
            p.ns_at_paper_clock,
            PAPER_CLOCK_MHZ / 1000.0
        );
    }
}

/// Text of the timing section.
pub fn render_timing_text(t: &TimingSection, area_um2: Option<f64>) -> String {
    let mut s = String::new();
    let w = &t.report.worst;
    let _ = writeln!(
        s,
        "\nstatic timing at {:.0} MHz (period {:.3} ns; OpenSTA, NanGate45 typical, ABC mapped \
         with buffering for that period; inputs arrive at 0 ns after the clock edge, outputs \
         are required at the period's end, i.e. ports registered outside):",
        t.clock_mhz, t.report.period_ns
    );
    let path = |p: &eda::TimingPath| {
        format!(
            "{} -> {}: {:.3} ns + setup {:.3} ns, {} logic levels, slack {:+.3} ns; \
             min period {:.3} ns = {}",
            p.start.display_name(),
            p.end.display_name(),
            p.delay_ns,
            p.setup_ns,
            p.levels,
            p.slack_ns,
            p.min_period_ns,
            p.fmax_mhz
                .map_or("-".to_string(), |f| format!("{f:.0} MHz"))
        )
    };
    let _ = writeln!(s, "  worst path         {}", path(w));
    if let Some(r2r) = &t.report.reg_to_reg {
        let _ = writeln!(s, "  worst reg-to-reg   {}", path(r2r));
    }
    if let Some(a) = t.report.area_um2 {
        let _ = writeln!(
            s,
            "  mapped area        {a:.1} um^2 (the netlist mapped and buffered for {:.0} MHz)",
            t.clock_mhz
        );
    }
    if let Some(f) = t.fmax_mhz {
        let verdict = if t.slack_ns >= 0.0 {
            format!("closes (slack {:+.3} ns)", t.slack_ns)
        } else {
            format!(
                "does NOT close: misses by {:.3} ns, its worst path needs {:.2} periods \
                 (retime or split that path, or clock at the fmax)",
                -t.slack_ns,
                w.min_period_ns / t.report.period_ns
            )
        };
        let _ = writeln!(
            s,
            "  fmax               {f:.0} MHz = 1000 / (period - slack); at {:.0} MHz the unit {verdict}",
            t.clock_mhz
        );
    }
    render_latencies(&mut s, t);
    if let Some(p) = &t.report.power {
        let mw = |w: f64| w * 1e3;
        let _ = writeln!(
            s,
            "  power              internal {:.4} mW, switching {:.4} mW, leakage {:.4} mW, \
             total {:.4} mW (OpenSTA report_power at {:.0} MHz)",
            mw(p.internal_w),
            mw(p.switching_w),
            mw(p.leakage_w),
            mw(p.total_w),
            t.clock_mhz
        );
        if let Some(src) = &t.activity_source {
            let _ = writeln!(s, "  activity           {src}");
        }
        if let Some(pp) = &t.paper_power {
            let _ = writeln!(s, "  paper power        {pp}");
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
