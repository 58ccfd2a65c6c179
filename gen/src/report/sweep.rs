//! `warpgen report --clock-sweep`: each unit mapped and timed at several
//! clocks (area, worst slack, fmax), as a table and an SVG plot; and the
//! power section's labels (the activity source, the papers' figures).

use std::fmt::Write as _;

use ports::ConfigFile;
use serde::Serialize;

use crate::plot::{panels, BarChart, Group};
use crate::report::timing::{timing_at, ClockTarget};
use crate::unit_table::UnitCommands;

/// The label of a power analysis without a measured activity (the
/// fallback when the activity run fails).
pub const DEFAULT_ACTIVITY: &str = "OpenSTA's DEFAULT activity, not a recorded run (every \
     input toggles 0.1 times per clock period, duty 0.5, propagated through the netlist)";

/// The paper's power figure for `unit`'s structure, quoted from the seed
/// papers, or that the paper gives none.
pub fn paper_power(unit: &str) -> &'static str {
    match unit {
        "caps_prefetcher" => {
            "CAPS paper (FreePDK 45 nm RTL + CACTI): \"CAPS consumes 15.07 pJ per access and \
             550 uW of static power\""
        }
        "snake_prefetcher" => {
            "Snake paper (NanGate 28 nm, scaled to 12 nm, AccelWattch): \"Snake consumes 6.4 pJ \
             per access and 6 mW of static power\""
        }
        "dac_expander" => {
            "DAC paper: no power of the unit; \"The overhead of DAC is only 0.96% of the dynamic \
             energy consumption\" (GPUWattch)"
        }
        _ => "the paper (BA thesis) gives no power figure",
    }
}

/// One unit at one clock.
#[derive(Clone, Debug, Serialize)]
pub struct SweepRow {
    /// Unit name.
    pub unit: String,
    /// Clock mapped and timed for, MHz.
    pub clock_mhz: f64,
    /// Area of the netlist mapped for that clock, µm².
    pub area_um2: Option<f64>,
    /// Worst slack at that clock, ns.
    pub slack_ns: f64,
    /// `1000 / (period - slack)`, MHz.
    pub fmax_mhz: Option<f64>,
    /// Logic levels of the worst path.
    pub levels: u32,
}

/// Maps and times every unit of `units` (configuration `cfg`) at each of
/// `clocks` (MHz); cached by content like every timing run.
pub fn clock_sweep(
    units: &[&dyn UnitCommands],
    cfg: &ConfigFile,
    clocks: &[f64],
) -> anyhow::Result<Vec<SweepRow>> {
    if !eda::tool_available(eda::Tool::Yosys) || !eda::tool_available(eda::Tool::OpenSta) {
        anyhow::bail!(
            "--clock-sweep needs Yosys and OpenSTA (apt-get install yosys opensta); \
             one of them is not installed"
        );
    }
    let mut rows = Vec::new();
    for u in units {
        let v = u.emit(cfg)?;
        for &c in clocks {
            let t = timing_at(&v, u.name(), &ClockTarget::new(c))?;
            rows.push(SweepRow {
                unit: u.name().to_string(),
                clock_mhz: c,
                area_um2: t.area_um2,
                slack_ns: t.worst.slack_ns,
                fmax_mhz: t.fmax_mhz(),
                levels: t.worst.levels,
            });
        }
    }
    Ok(rows)
}

/// The sweep as a text table.
pub fn render_sweep_table(rows: &[SweepRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "clock sweep (Yosys + ABC -D mapped for each clock, OpenSTA, NanGate45 typical; inputs \
         arrive at 0, outputs required at the period's end)"
    );
    let _ = writeln!(
        s,
        "  {:<18} {:>9} {:>12} {:>10} {:>9} {:>7}",
        "unit", "clock MHz", "area um^2", "slack ns", "fmax MHz", "levels"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "  {:<18} {:>9.0} {:>12} {:>+10.3} {:>9} {:>7}",
            r.unit,
            r.clock_mhz,
            r.area_um2.map_or("-".into(), |a| format!("{a:.0}")),
            r.slack_ns,
            r.fmax_mhz.map_or("-".into(), |f| format!("{f:.0}")),
            r.levels
        );
    }
    s
}

/// The sweep as an SVG: area (top) and worst slack (bottom) against the
/// clock, one bar series per unit and one group per clock; the slack panel
/// has a dashed line at 0 (above it the unit closes).
pub fn sweep_svg(rows: &[SweepRow], clocks: &[f64]) -> anyhow::Result<String> {
    let mut units: Vec<String> = Vec::new();
    for r in rows {
        if !units.contains(&r.unit) {
            units.push(r.unit.clone());
        }
    }
    let value = |u: &str, c: f64, f: &dyn Fn(&SweepRow) -> Option<f64>| {
        rows.iter()
            .find(|r| r.unit == u && r.clock_mhz == c)
            .and_then(f)
    };
    let groups = |f: &dyn Fn(&SweepRow) -> Option<f64>| -> Vec<Group> {
        clocks
            .iter()
            .map(|&c| Group {
                label: format!("{c:.0} MHz"),
                values: units.iter().map(|u| value(u, c, f)).collect(),
            })
            .collect()
    };
    let area = BarChart {
        title: "Area of the netlist mapped for each clock (NanGate45)".into(),
        y_label: "area (um^2)".into(),
        series: units.clone(),
        groups: groups(&|r| r.area_um2),
        y_range: None,
        reference: None,
    };
    let slack = BarChart {
        title: "Worst slack at each clock (negative: does not close)".into(),
        y_label: "worst slack (ns)".into(),
        series: units.clone(),
        groups: groups(&|r| Some(r.slack_ns)),
        y_range: None,
        reference: Some((0.0, "slack 0".into())),
    };
    Ok(panels(&[area.svg()?, slack.svg()?]))
}
