//! What a timing analysis reports: paths, their end points and cells, and
//! the whole report with its human-readable rendering.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// What a path starts or ends at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndpointKind {
    /// A primary input port (start) of the design.
    InputPort,
    /// A primary output port (end) of the design.
    OutputPort,
    /// An edge-triggered flip-flop.
    FlipFlop,
    /// Anything else OpenSTA named (a latch, a clock-gating check, ...).
    Other,
}

/// The start or the end of a timing path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathEndpoint {
    /// Port, flip-flop or other.
    pub kind: EndpointKind,
    /// The port name (`req_addr[7]`) or the cell instance (`_20466_`) as
    /// OpenSTA printed it.
    pub name: String,
    /// The cell type of a flip-flop (`DFF_X1`); `None` for ports.
    pub cell: Option<String>,
    /// For a flip-flop, the net on its `Q` (or else `QN`) pin in the netlist,
    /// which Yosys names after the RTL register (`m_evict_tag[3]`); `None`
    /// if that net has only a Yosys-generated name (`_123_`) or for ports.
    pub register: Option<String>,
    /// OpenSTA's description, e.g. `rising edge-triggered flip-flop clocked
    /// by clk` or `input port clocked by clk`.
    pub description: String,
}

impl PathEndpoint {
    /// The most meaningful name: the register for a flip-flop when known,
    /// else the port or instance name.
    pub fn display_name(&self) -> &str {
        self.register.as_deref().unwrap_or(&self.name)
    }
}

/// One cell (or port) on a timing path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathPoint {
    /// Cell instance, or port name for a port.
    pub instance: String,
    /// Cell type (`NAND2_X1`); `None` for a port.
    pub cell: Option<String>,
    /// The input pin the path enters by (`A1`), if any.
    pub input_pin: Option<String>,
    /// The output pin the path leaves by (`ZN`), if any (none at the
    /// endpoint).
    pub output_pin: Option<String>,
    /// `true` if the signal rises at the last pin of this point.
    pub rising: bool,
    /// Delay added by this point (wire to the input pin plus the cell arc),
    /// in ns.
    pub incr_ns: f64,
    /// Arrival time at the last pin of this point, in ns.
    pub arrival_ns: f64,
    /// Transition time at the last pin, in ns.
    pub slew_ns: Option<f64>,
    /// Load capacitance (pins plus wire load) on the output pin, in fF.
    pub load_ff: Option<f64>,
}

/// One timing path as OpenSTA reported it (`report_checks -path_delay max`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingPath {
    /// Where it starts.
    pub start: PathEndpoint,
    /// Where it ends.
    pub end: PathEndpoint,
    /// Data arrival time at the endpoint, in ns (from the launching clock
    /// edge; includes the launching flip-flop's clock-to-output delay).
    pub delay_ns: f64,
    /// Setup time of the endpoint flip-flop in ns (the output delay, 0, for
    /// an output port).
    pub setup_ns: f64,
    /// Slack at the analysed period, in ns (negative: violated).
    pub slack_ns: f64,
    /// The shortest clock period this path allows: period minus slack, in ns.
    pub min_period_ns: f64,
    /// `1000 / min_period_ns`, in MHz; `None` if the minimum period is not
    /// positive (a path with no delay at all).
    pub fmax_mhz: Option<f64>,
    /// Logic levels: cells on the data path, excluding the launching
    /// flip-flop (and the capturing one).
    pub levels: u32,
    /// The cells and ports along the path, in order (the launching
    /// flip-flop first when the path starts at one).
    pub points: Vec<PathPoint>,
}

/// The result of [`time_verilog`](super::time_verilog).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingReport {
    /// The top module.
    pub top: String,
    /// The clock port.
    pub clock: String,
    /// The analysed clock period, in ns.
    pub period_ns: f64,
    /// The worst (setup) path of the design, over all path groups: flop to
    /// flop, port to flop, flop to port and port to port.
    pub worst: TimingPath,
    /// The worst flip-flop-to-flip-flop path, if the design has registers.
    pub reg_to_reg: Option<TimingPath>,
    /// Cells in the mapped netlist.
    pub cells: u64,
    /// The mapped netlist's Liberty area in µm² (Yosys `stat -liberty`; with
    /// [`TimingOptions::abc_buffering`](super::TimingOptions::abc_buffering)
    /// it includes the buffers and sizing for the period).
    #[serde(default)]
    pub area_um2: Option<f64>,
    /// The wire-load model in effect (the Liberty's `default_wire_load`),
    /// if the library names one.
    pub wire_load: Option<String>,
    /// The Liberty file used.
    pub liberty: PathBuf,
    /// `yosys -V`.
    pub yosys_version: String,
    /// OpenSTA's version (`sta -version`).
    pub sta_version: String,
    /// Wall-clock seconds of the Yosys mapping run.
    pub yosys_seconds: f64,
    /// Wall-clock seconds of the OpenSTA run.
    pub sta_seconds: f64,
    /// Assumptions of the analysis and anything unusual about the result.
    pub notes: Vec<String>,
    /// OpenSTA's `report_power` at the period, when
    /// [`TimingOptions::power`](super::TimingOptions::power) asked for it.
    #[serde(default)]
    pub power: Option<PowerReport>,
}

/// The design's total power as OpenSTA's `report_power` splits it, in
/// watts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerReport {
    /// Internal power of the cells (short-circuit and internal nodes).
    pub internal_w: f64,
    /// Switching power (charging the nets' capacitance).
    pub switching_w: f64,
    /// Leakage power.
    pub leakage_w: f64,
    /// OpenSTA's total.
    pub total_w: f64,
    /// Input ports given a measured activity; the others kept OpenSTA's
    /// default (0.1 transitions per clock period, duty 0.5).
    pub ports_with_activity: usize,
}

impl PowerReport {
    /// Parses the `Total` row of OpenSTA's `report_power` table.
    pub fn parse(text: &str, ports_with_activity: usize) -> Option<PowerReport> {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("Total "))?;
        let v: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .take(4)
            .filter_map(|w| w.parse().ok())
            .collect();
        if v.len() != 4 {
            return None;
        }
        Some(PowerReport {
            internal_w: v[0],
            switching_w: v[1],
            leakage_w: v[2],
            total_w: v[3],
            ports_with_activity,
        })
    }
}

impl TimingReport {
    /// The worst path's maximum frequency in MHz (see [`TimingPath::fmax_mhz`]).
    pub fn fmax_mhz(&self) -> Option<f64> {
        self.worst.fmax_mhz
    }

    /// A human-readable summary: both paths with their cells, then the notes.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Timing of {} ({} cells; clock {} at {} ns; {}; {})",
            self.top, self.cells, self.clock, self.period_ns, self.yosys_version, self.sta_version
        );
        render_path(&mut s, "Worst path", &self.worst);
        match &self.reg_to_reg {
            Some(p) => render_path(&mut s, "Worst register-to-register path", p),
            None => s.push_str("No register-to-register path.\n"),
        }
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        s
    }
}

fn render_path(s: &mut String, title: &str, p: &TimingPath) {
    let fmax = match p.fmax_mhz {
        Some(f) if f >= 1000.0 => format!("{:.3} GHz", f / 1000.0),
        Some(f) => format!("{f:.1} MHz"),
        None => "unbounded".to_string(),
    };
    let _ = writeln!(
        s,
        "{title}: {} -> {}, {} levels, arrival {:.4} ns + setup {:.4} ns = min period {:.4} ns, fmax {fmax}",
        p.start.display_name(),
        p.end.display_name(),
        p.levels,
        p.delay_ns,
        p.setup_ns,
        p.min_period_ns
    );
    for pt in &p.points {
        let pins = match (&pt.input_pin, &pt.output_pin) {
            (Some(i), Some(o)) => format!("{i}->{o}"),
            (Some(i), None) => i.clone(),
            (None, Some(o)) => o.clone(),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            s,
            "  {:>9.4} {:>9.4} {} {:<24} {:<12} {}",
            pt.incr_ns,
            pt.arrival_ns,
            if pt.rising { '^' } else { 'v' },
            pt.instance,
            pt.cell.as_deref().unwrap_or("(port)"),
            pins
        );
    }
}
