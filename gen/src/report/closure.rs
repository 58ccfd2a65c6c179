//! `warpgen report --all-configs`: timing closure of every configuration of
//! the test suite's list (`cosim::CosimUnit::suite`) at one clock, the
//! table issue 29's target is stated over ("every unit, in every
//! compiled-in configuration, closes at 1.0 GHz or faster").

use std::fmt::Write as _;

use serde::Serialize;

use crate::report::timing::{timing_at, ClockTarget};
use crate::unit_table::UnitCommands;

/// One configuration of one unit at one clock.
#[derive(Clone, Debug, Serialize)]
pub struct ClosureRow {
    /// Unit name.
    pub unit: String,
    /// The configuration's one-line label (its parameters that differ from
    /// the paper's).
    pub config: String,
    /// Clock mapped and timed for, MHz.
    pub clock_mhz: f64,
    /// Area of the netlist mapped for that clock, µm².
    pub area_um2: Option<f64>,
    /// Worst path, `start -> end`.
    pub worst_path: String,
    /// Logic levels of the worst path.
    pub levels: u32,
    /// Worst slack at the clock, ns.
    pub slack_ns: f64,
    /// `1000 / (period - slack)`, MHz.
    pub fmax_mhz: Option<f64>,
    /// Whether the configuration closes at the clock (slack >= 0).
    pub closes: bool,
}

/// Maps and times every suite configuration of each of `units` at
/// `clock_mhz`; cached by content like every timing run.
pub fn closure_table(
    units: &[&dyn UnitCommands],
    clock_mhz: f64,
) -> anyhow::Result<Vec<ClosureRow>> {
    if !eda::tool_available(eda::Tool::Yosys) || !eda::tool_available(eda::Tool::OpenSta) {
        anyhow::bail!(
            "--all-configs needs Yosys and OpenSTA (apt-get install yosys opensta); \
             one of them is not installed"
        );
    }
    let mut rows = Vec::new();
    for u in units {
        for (label, cfg) in u.suite_configs()? {
            let v = u.emit(&cfg)?;
            let t = timing_at(&v, u.name(), &ClockTarget::new(clock_mhz))?;
            let w = &t.worst;
            rows.push(ClosureRow {
                unit: u.name().to_string(),
                config: label,
                clock_mhz,
                area_um2: t.area_um2,
                worst_path: format!("{} -> {}", w.start.display_name(), w.end.display_name()),
                levels: w.levels,
                slack_ns: w.slack_ns,
                fmax_mhz: t.fmax_mhz(),
                closes: w.slack_ns >= 0.0,
            });
        }
    }
    Ok(rows)
}

/// The table as text.
pub fn render_closure_table(rows: &[ClosureRow]) -> String {
    let mut s = String::new();
    let clock = rows.first().map_or(0.0, |r| r.clock_mhz);
    let _ = writeln!(
        s,
        "timing closure of the suite's configurations at {clock:.0} MHz (Yosys + ABC -D mapped \
         for the clock, OpenSTA, NanGate45 typical; inputs arrive at 0, outputs required at the \
         period's end)"
    );
    let _ = writeln!(
        s,
        "  {:<18} {:<44} {:>10} {:>9} {:>7} {:>9}  worst path",
        "unit", "configuration", "area um^2", "slack ns", "levels", "fmax MHz"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "  {:<18} {:<44} {:>10} {:>+9.3} {:>7} {:>9}  {}{}",
            r.unit,
            r.config,
            r.area_um2.map_or("-".into(), |a| format!("{a:.0}")),
            r.slack_ns,
            r.levels,
            r.fmax_mhz.map_or("-".into(), |f| format!("{f:.0}")),
            r.worst_path,
            if r.closes { "" } else { "  (does NOT close)" }
        );
    }
    let open = rows.iter().filter(|r| !r.closes).count();
    let _ = writeln!(
        s,
        "  {} of {} configurations close at {clock:.0} MHz",
        rows.len() - open,
        rows.len()
    );
    s
}
