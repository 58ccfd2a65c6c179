//! Static timing analysis with OpenSTA of the Yosys gate netlist.
//!
//! [`time_verilog`] maps a design to the cells of a Liberty file exactly as
//! [`crate::synth_yosys`] does for area (`synth -flatten; dfflibmap; abc
//! -liberty; opt_clean`), writes the gate netlist, and runs OpenSTA (`sta`,
//! Debian's `opensta` 0~20191111, OpenSTA 2.0.17) on it:
//!
//! * one ideal clock on the clock port, [`STA_PERIOD_NS_DEFAULT`] ns unless
//!   [`TimingOptions::period_ns`] says otherwise;
//! * input delay 0 on every input but the clock and output delay 0 on every
//!   output, against that clock: ports are treated as if registered outside
//!   the unit, so the worst path is the bound over flop-to-flop,
//!   port-to-flop, flop-to-port and port-to-port paths;
//! * no input drive (ideal input transitions) and no output load beyond the
//!   wire load; the Liberty's `default_wire_load` (NanGate45:
//!   `5K_hvratio_1_1`), which OpenSTA applies by itself;
//! * the worst flop-to-flop path reported separately
//!   (`report_checks -from [all_registers -clock_pins] -to [all_registers
//!   -data_pins]`).
//!
//! Yosys's `abc -liberty` without `-D` neither buffers nor sizes: a net with a
//! large fan-out stays driven by one X1 gate, and OpenSTA then extrapolates
//! beyond the library's delay tables. Such paths are flagged in the notes
//! ([`SLOW_SLEW_NS`]). [`TimingOptions::abc_buffering`] maps with
//! `abc -D <period> -constr` instead, which buffers and sizes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::EdaError;
use crate::installed::{require_tool, tool_version};
use crate::run::{failed, input_file, run_checked, work_dir};
use crate::synth::parse_stat_json;
use crate::synth::{link_or_copy, read_output};
use crate::tool::Tool;

/// Default clock period for the analysis, in ns. The period only shifts the
/// slack: with an ideal clock and zero port delays, the minimum period
/// (arrival plus setup of the worst path) does not depend on it.
pub const STA_PERIOD_NS_DEFAULT: f64 = 10.0;

/// An output transition (ns) above which a path point is flagged in the
/// notes as an unbuffered high-fan-out net whose delay OpenSTA extrapolated
/// (the NanGate45 tables end near 0.2 ns of input transition).
pub const SLOW_SLEW_NS: f64 = 1.0;

/// How to run [`time_verilog_with`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingOptions {
    /// The clock input port (a plain Verilog identifier), e.g. `clock`.
    pub clock: String,
    /// The clock period in ns (positive).
    pub period_ns: f64,
    /// A time limit for each tool run (Yosys, then OpenSTA); `None` for none.
    pub timeout: Option<Duration>,
    /// `false` (the default): map exactly as [`crate::synth_yosys`] does,
    /// `abc -liberty L`, which neither buffers nor sizes. `true`: `abc -D
    /// <period in ps> -constr F -liberty L` with [`ABC_DRIVER_CELL`] and
    /// [`ABC_LOAD_FF`] in `F` (OpenROAD's NanGate45 settings), so that ABC
    /// buffers high-fan-out nets and sizes gates for the period, as a real
    /// flow would; the netlist then differs from the area figure's.
    pub abc_buffering: bool,
}

/// The driving cell [`TimingOptions::abc_buffering`] gives ABC
/// (`set_driving_cell`); it must be a cell of the Liberty file.
pub const ABC_DRIVER_CELL: &str = "BUF_X1";

/// The output load in fF [`TimingOptions::abc_buffering`] gives ABC
/// (`set_load`).
pub const ABC_LOAD_FF: f64 = 3.898;

impl TimingOptions {
    /// Clock port `clock`, [`STA_PERIOD_NS_DEFAULT`], no time limit.
    pub fn new(clock: &str) -> Self {
        TimingOptions {
            clock: clock.to_string(),
            period_ns: STA_PERIOD_NS_DEFAULT,
            timeout: None,
            abc_buffering: false,
        }
    }
}

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

/// The result of [`time_verilog`].
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

/// [`time_verilog_with`] with [`TimingOptions::new`]`(clock)`: a
/// [`STA_PERIOD_NS_DEFAULT`] ns ideal clock on port `clock`, no time limit.
pub fn time_verilog(
    verilog: &Path,
    top: &str,
    liberty: &Path,
    clock: &str,
) -> Result<TimingReport, EdaError> {
    time_verilog_with(verilog, top, liberty, &TimingOptions::new(clock))
}

/// Maps `verilog` (top module `top`) to the cells of `liberty` with Yosys and
/// reports its worst setup paths with OpenSTA; see the module documentation
/// for the constraints.
///
/// Errors: [`EdaError::InvalidTop`] for a `top` or clock that is not a plain
/// identifier, [`EdaError::NotInstalled`] without `yosys` or `sta`,
/// [`EdaError::ToolFailed`] if Yosys fails or OpenSTA prints an `Error:`,
/// [`EdaError::Timeout`], and [`EdaError::Parse`] if the clock port is
/// missing or a report cannot be read.
pub fn time_verilog_with(
    verilog: &Path,
    top: &str,
    liberty: &Path,
    options: &TimingOptions,
) -> Result<TimingReport, EdaError> {
    crate::source::validate_top(top)?;
    crate::source::validate_top(&options.clock)?;
    if !(options.period_ns.is_finite() && options.period_ns > 0.0) {
        return Err(EdaError::parse(
            "timing options",
            format!("clock period {} ns is not positive", options.period_ns),
        ));
    }
    require_tool(Tool::Yosys)?;
    require_tool(Tool::OpenSta)?;
    let file = input_file(verilog)?;
    let lib = input_file(liberty)?;
    let dir = work_dir()?;
    link_or_copy(&lib, &dir.path().join("cells.lib"))
        .map_err(|e| EdaError::io("linking the Liberty file into the work directory", e))?;

    // 1. Yosys: the synth_yosys mapping, then a netlist OpenSTA can read.
    let constr = if options.abc_buffering {
        std::fs::write(
            dir.path().join("abc.constr"),
            format!("set_driving_cell {ABC_DRIVER_CELL}\nset_load {ABC_LOAD_FF}\n"),
        )
        .map_err(|e| EdaError::io("writing the ABC constraints", e))?;
        Some(((options.period_ns * 1000.0).round() as u64, "abc.constr"))
    } else {
        None
    };
    let script = yosys_script(top, "cells.lib", constr);
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir.path())
        .args(["-q", "-l", "yosys.log", "-f", "verilog", "-p", &script])
        .arg(&file);
    let t0 = Instant::now();
    run_checked(Tool::Yosys, &mut cmd, options.timeout)?;
    let yosys_seconds = t0.elapsed().as_secs_f64();
    let mapped = parse_stat_json(
        &read_output(dir.path(), "mapped.json")?,
        top,
        "Yosys stat after Liberty mapping",
    )?;
    let netlist_text = split_concat_assigns(&read_output(dir.path(), "netlist.v")?)?;
    std::fs::write(dir.path().join("netlist.v"), &netlist_text)
        .map_err(|e| EdaError::io("rewriting the gate netlist", e))?;
    let netlist = Netlist::parse(&netlist_text);

    // 2. OpenSTA.
    let tcl = sta_script(top, options);
    std::fs::write(dir.path().join("timing.tcl"), &tcl)
        .map_err(|e| EdaError::io("writing the OpenSTA script", e))?;
    let mut cmd = Command::new("sta");
    cmd.current_dir(dir.path())
        .args(["-no_splash", "-no_init", "-exit", "timing.tcl"]);
    let t0 = Instant::now();
    let out = run_checked(Tool::OpenSta, &mut cmd, options.timeout)?;
    let sta_seconds = t0.elapsed().as_secs_f64();
    // OpenSTA 2019 exits 0 after a Tcl error in the script: look for the
    // markers and for error lines instead.
    let text = out.combined();
    if text.lines().any(|l| l.starts_with("Error")) || !text.contains(MARK_DONE) {
        return Err(failed(Tool::OpenSta, &cmd, &out));
    }
    if text.contains(MARK_NO_CLOCK) {
        return Err(EdaError::parse(
            "OpenSTA run",
            format!("clock port `{}` not found in `{top}`", options.clock),
        ));
    }
    let worst_text = read_output(dir.path(), "worst.txt")?;
    let mut worst = parse_path(&worst_text, options.period_ns, "OpenSTA worst path")?;
    resolve_registers(&mut worst, &netlist);
    let reg_to_reg = if text.contains(MARK_HAS_REGS) {
        let t = read_output(dir.path(), "reg2reg.txt")?;
        if t.contains("Startpoint:") {
            let mut p = parse_path(&t, options.period_ns, "OpenSTA register-to-register path")?;
            resolve_registers(&mut p, &netlist);
            Some(p)
        } else {
            None
        }
    } else {
        None
    };

    let wire_load = default_wire_load(&lib);
    let mut notes = vec![
        format!(
            "ideal clock `{}` of {} ns; input delay 0 on all inputs but the clock, output \
             delay 0 on all outputs (ports treated as registered outside the unit); ideal \
             input transitions, no output load",
            options.clock, options.period_ns
        ),
        match &wire_load {
            Some(w) => format!("wire load: the Liberty default `{w}`"),
            None => "no wire load (the Liberty names no default_wire_load)".to_string(),
        },
        if options.abc_buffering {
            format!(
                "mapping with abc -D {} -constr (driver {ABC_DRIVER_CELL}, load {ABC_LOAD_FF} fF): \
                 ABC buffers and sizes; not synth_yosys's area netlist",
                (options.period_ns * 1000.0).round()
            )
        } else {
            "mapping as synth_yosys (synth -flatten; dfflibmap; abc -liberty; opt_clean): \
             no buffering or gate sizing"
                .to_string()
        },
    ];
    // Yosys writes its own cell types escaped: `\$_DFF_P_ _5_ (`.
    let mut unmapped: Vec<&str> = netlist_text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("\\$"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    unmapped.sort_unstable();
    unmapped.dedup();
    if !unmapped.is_empty() {
        notes.push(format!(
            "cells not mapped to the Liberty (OpenSTA sees them as black boxes): {}",
            unmapped.join(", ")
        ));
    }
    for (label, path) in std::iter::once(("worst path", &worst)).chain(
        reg_to_reg
            .as_ref()
            .map(|p| ("register-to-register path", p)),
    ) {
        let slow: Vec<String> = path
            .points
            .iter()
            .filter(|p| p.slew_ns.is_some_and(|s| s > SLOW_SLEW_NS))
            .map(|p| {
                format!(
                    "{} ({}; {:.3} ns, load {:.0} fF)",
                    p.instance,
                    p.cell.as_deref().unwrap_or("port"),
                    p.incr_ns,
                    p.load_ff.unwrap_or(0.0)
                )
            })
            .collect();
        if !slow.is_empty() {
            notes.push(format!(
                "{label}: unbuffered high-fan-out net(s) with transitions above {SLOW_SLEW_NS} ns, \
                 delays extrapolated beyond the library tables: {}",
                slow.join(", ")
            ));
        }
        let check = path.delay_ns + path.setup_ns;
        if (check - path.min_period_ns).abs() > 2e-3 {
            notes.push(format!(
                "{label}: arrival + setup = {check:.4} ns differs from period - slack = {:.4} ns",
                path.min_period_ns
            ));
        }
    }

    Ok(TimingReport {
        top: top.to_string(),
        clock: options.clock.clone(),
        period_ns: options.period_ns,
        worst,
        reg_to_reg,
        cells: mapped.cells,
        wire_load,
        liberty: lib,
        yosys_version: tool_version(Tool::Yosys)?,
        sta_version: format!("OpenSTA {}", tool_version(Tool::OpenSta)?),
        yosys_seconds,
        sta_seconds,
        notes,
    })
}

const MARK_DONE: &str = "WARPGEN_STA_DONE";
const MARK_NO_CLOCK: &str = "WARPGEN_STA_NO_CLOCK";
const MARK_HAS_REGS: &str = "WARPGEN_STA_HAS_REGISTERS";

/// The Yosys script: [`crate::synth_yosys`]'s mapping, then the netlist.
/// `setundef -zero` ties undriven bits, which OpenSTA could not read as `x`;
/// `splitnets -ports` leaves only one-bit nets (ports keep their `name[i]`
/// names as escaped identifiers); constants (`1'b0`) and one-bit `assign`
/// statements are read by OpenSTA as they are.
fn yosys_script(top: &str, lib: &str, constr: Option<(u64, &str)>) -> String {
    let abc = match constr {
        Some((ps, file)) => format!("abc -D {ps} -constr {file} -liberty {lib}"),
        None => format!("abc -liberty {lib}"),
    };
    [
        format!("hierarchy -check -top {top}"),
        "proc".to_string(),
        "check -assert".to_string(),
        format!("synth -flatten -top {top}"),
        format!("dfflibmap -liberty {lib}"),
        abc,
        "opt_clean".to_string(),
        "setundef -zero".to_string(),
        // One-bit wires and ports: OpenSTA 2019 cannot read the
        // concatenations (`assign { a[1], b } = ...`) Yosys writes otherwise.
        "splitnets -ports".to_string(),
        "tee -q -o mapped.json stat -json".to_string(),
        "write_verilog -noattr -noexpr netlist.v".to_string(),
    ]
    .join("; ")
}

/// The OpenSTA Tcl script. Reports go to files (`>` redirection), so that
/// they do not interleave with Tcl's own output.
fn sta_script(top: &str, o: &TimingOptions) -> String {
    let clk = &o.clock;
    let period = o.period_ns;
    format!(
        "read_liberty cells.lib\n\
         read_verilog netlist.v\n\
         link_design {top}\n\
         if {{[llength [get_ports {clk}]] == 0}} {{\n\
         \x20 puts {MARK_NO_CLOCK}\n\
         \x20 puts {MARK_DONE}\n\
         \x20 exit\n\
         }}\n\
         create_clock -name clk -period {period} [get_ports {clk}]\n\
         set inputs [delete_from_list [all_inputs] [get_ports {clk}]]\n\
         if {{[llength $inputs] > 0}} {{ set_input_delay 0 -clock clk $inputs }}\n\
         if {{[llength [all_outputs]] > 0}} {{ set_output_delay 0 -clock clk [all_outputs] }}\n\
         report_checks -path_delay max -digits 4 -fields {{cap slew input_pins}} > worst.txt\n\
         if {{[llength [all_registers]] > 0}} {{\n\
         \x20 puts {MARK_HAS_REGS}\n\
         \x20 report_checks -path_delay max -digits 4 -fields {{cap slew input_pins}} \
         -from [all_registers -clock_pins] -to [all_registers -data_pins] > reg2reg.txt\n\
         }}\n\
         puts {MARK_DONE}\n\
         exit\n"
    )
}

/// The elements of a Verilog concatenation's inside (`\\q[1] , x, 2'b01`),
/// constants expanded to one `1'bX` per bit, most significant first.
fn concat_elements(inner: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == ',' {
            chars.next();
            continue;
        }
        let mut tok = String::new();
        if c == '\\' {
            // An escaped identifier runs to the next white space.
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                tok.push(c);
                chars.next();
            }
            // A bit-select may follow after the space: `\\a.b [3]`.
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            if chars.peek() == Some(&'[') {
                tok.push(' ');
                for c in chars.by_ref() {
                    tok.push(c);
                    if c == ']' {
                        break;
                    }
                }
            } else {
                tok.push(' ');
            }
            out.push(tok);
            continue;
        }
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ',' {
                break;
            }
            tok.push(c);
            chars.next();
        }
        match tok.split_once('\'') {
            Some((width, value)) => {
                let width: usize = width.parse().ok()?;
                let mut chars = value.chars();
                let radix = chars.next()?;
                let digits: String = chars.filter(|c| *c != '_').collect();
                let bits: String = match radix {
                    'b' => digits,
                    'h' => digits
                        .chars()
                        .map(|d| d.to_digit(16).map(|v| format!("{v:04b}")))
                        .collect::<Option<String>>()?,
                    'd' => format!("{:b}", digits.parse::<u128>().ok()?),
                    _ => return None,
                };
                // Left-pad with zeros (or the x/z digit) to the width.
                let pad = bits
                    .chars()
                    .next()
                    .filter(|c| matches!(c, 'x' | 'z'))
                    .unwrap_or('0');
                let mut bits: Vec<char> = bits.chars().collect();
                while bits.len() < width {
                    bits.insert(0, pad);
                }
                let bits = &bits[bits.len() - width..];
                out.extend(bits.iter().map(|b| format!("1'b{b}")));
            }
            None => out.push(tok),
        }
    }
    Some(out)
}

/// Rewrites Yosys's `assign { a, b } = { c, 1'b0 };` (which OpenSTA 2019
/// cannot read: it wants a net on the left) as one `assign` per bit. The
/// netlist has only one-bit nets (`splitnets -ports`).
fn split_concat_assigns(netlist: &str) -> Result<String, EdaError> {
    let mut out = String::with_capacity(netlist.len());
    let mut pending = String::new();
    for line in netlist.lines() {
        if pending.is_empty() && !line.trim_start().starts_with("assign {") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        pending.push_str(line);
        pending.push(' ');
        if !line.trim_end().ends_with(';') {
            continue;
        }
        let stmt = std::mem::take(&mut pending);
        let bad = || EdaError::parse("the Yosys gate netlist", format!("assignment `{stmt}`"));
        let body = stmt
            .trim()
            .strip_prefix("assign")
            .and_then(|b| b.trim().strip_suffix(';'))
            .ok_or_else(bad)?;
        let (lhs, rhs) = body.split_once('=').ok_or_else(bad)?;
        let strip = |side: &str| {
            let side = side.trim();
            match side.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
                Some(inner) => concat_elements(inner),
                None => concat_elements(side),
            }
        };
        let (l, r) = (strip(lhs).ok_or_else(bad)?, strip(rhs).ok_or_else(bad)?);
        if l.len() != r.len() || l.iter().any(|x| x.contains('\'')) {
            return Err(bad());
        }
        for (a, b) in l.iter().zip(&r) {
            let _ = writeln!(out, "  assign {a} = {b};");
        }
    }
    if !pending.is_empty() {
        return Err(EdaError::parse(
            "the Yosys gate netlist",
            format!("unterminated `{pending}`"),
        ));
    }
    Ok(out)
}

/// The `default_wire_load : "NAME";` of a Liberty file, if any.
fn default_wire_load(liberty: &Path) -> Option<String> {
    let text = std::fs::read_to_string(liberty).ok()?;
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("default_wire_load")?.trim_start();
        let rest = rest.strip_prefix(':')?;
        let name = rest.trim().trim_end_matches(';').trim().trim_matches('"');
        (!name.is_empty()).then(|| name.to_string())
    })
}

/// Removes Verilog escaping (`\\j.q [3]` -> `j.q[3]`) and OpenSTA's
/// backslashes.
fn plain_name(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '\\' && !c.is_whitespace())
        .collect()
}

/// Cell instances of a Yosys `write_verilog -noattr` netlist: instance name
/// to pin-to-net connections.
#[derive(Debug, Default)]
struct Netlist {
    cells: std::collections::HashMap<String, Vec<(String, String)>>,
}

impl Netlist {
    fn parse(text: &str) -> Netlist {
        let mut cells = std::collections::HashMap::new();
        let mut current: Option<(String, Vec<(String, String)>)> = None;
        for line in text.lines() {
            let t = line.trim();
            if let Some((_, conns)) = current.as_mut() {
                if t.starts_with(");") {
                    if let Some((name, conns)) = current.take() {
                        cells.insert(name, conns);
                    }
                } else if let Some(rest) = t.strip_prefix('.') {
                    if let Some((pin, net)) = rest.split_once('(') {
                        let net = net.trim_end_matches(',').trim_end();
                        let net = net.strip_suffix(')').unwrap_or(net);
                        conns.push((pin.trim().to_string(), plain_name(net)));
                    }
                }
                continue;
            }
            // "CELL INST (" where INST may be escaped: "\a.b ("
            if let Some(head) = t.strip_suffix('(') {
                let mut words = head.split_whitespace();
                if let (Some(cell), Some(inst), None) = (words.next(), words.next(), words.next()) {
                    if cell != "module" && !cell.starts_with('.') {
                        current = Some((plain_name(inst), Vec::new()));
                    }
                }
            }
        }
        Netlist { cells }
    }

    fn net(&self, instance: &str, pin: &str) -> Option<&str> {
        self.cells
            .get(&plain_name(instance))?
            .iter()
            .find(|(p, _)| p == pin)
            .map(|(_, n)| n.as_str())
    }
}

/// Whether `net` is a Yosys-generated name (`_123_`) rather than an RTL one.
fn is_generated(net: &str) -> bool {
    net.len() > 2
        && net.starts_with('_')
        && net.ends_with('_')
        && net[1..net.len() - 1].chars().all(|c| c.is_ascii_digit())
}

fn resolve_registers(path: &mut TimingPath, netlist: &Netlist) {
    for end in [&mut path.start, &mut path.end] {
        if end.kind == EndpointKind::FlipFlop {
            end.register = ["Q", "QN"]
                .iter()
                .filter_map(|pin| netlist.net(&end.name, pin))
                .find(|n| !is_generated(n) && !n.contains('\''))
                .map(str::to_string);
        }
    }
}

fn endpoint(line: &str, what: &str) -> Result<PathEndpoint, EdaError> {
    let (name, desc) = match line.split_once(" (") {
        Some((n, d)) => (n.trim(), d.trim().trim_end_matches(')').to_string()),
        None => (line.trim(), String::new()),
    };
    if name.is_empty() {
        return Err(EdaError::parse(what, format!("empty name in `{line}`")));
    }
    let kind = if desc.starts_with("input port") {
        EndpointKind::InputPort
    } else if desc.starts_with("output port") {
        EndpointKind::OutputPort
    } else if desc.contains("flip-flop") {
        EndpointKind::FlipFlop
    } else {
        EndpointKind::Other
    };
    Ok(PathEndpoint {
        kind,
        name: plain_name(name),
        cell: None,
        register: None,
        description: desc,
    })
}

/// One line of an OpenSTA path report: the leading numbers, then the rest.
fn split_numbers(line: &str) -> (Vec<f64>, Vec<&str>) {
    let mut nums = Vec::new();
    let mut words = line.split_whitespace().peekable();
    while let Some(v) = words.peek().and_then(|w| w.parse::<f64>().ok()) {
        nums.push(v);
        words.next();
    }
    (nums, words.collect())
}

/// Parses the first path of `report_checks -path_delay max -fields {cap slew
/// input_pins}` output.
pub(crate) fn parse_path(text: &str, period_ns: f64, what: &str) -> Result<TimingPath, EdaError> {
    let err = |d: String| EdaError::parse(what, d);
    let lines: Vec<&str> = text.lines().collect();
    let find = |prefix: &str| {
        lines
            .iter()
            .find_map(|l| l.trim().strip_prefix(prefix))
            .map(str::trim)
    };
    let mut start = endpoint(
        find("Startpoint:").ok_or_else(|| err(format!("no Startpoint in:\n{text}")))?,
        what,
    )?;
    let mut end = endpoint(
        find("Endpoint:").ok_or_else(|| err(format!("no Endpoint in:\n{text}")))?,
        what,
    )?;
    let body_start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("---"))
        .ok_or_else(|| err("no table in the report".to_string()))?
        + 1;
    let arrival_at = lines[body_start..]
        .iter()
        .position(|l| l.contains("data arrival time"))
        .ok_or_else(|| err("no data arrival time".to_string()))?
        + body_start;
    let (nums, _) = split_numbers(lines[arrival_at]);
    let delay_ns = *nums
        .last()
        .ok_or_else(|| err("no value on the data arrival time line".to_string()))?;

    // The data path: lines "[cap] slew incr time ^|v NAME (TYPE)".
    let mut points: Vec<PathPoint> = Vec::new();
    for line in &lines[body_start..arrival_at] {
        let (nums, words) = split_numbers(line);
        let rising = match words.first() {
            Some(&"^") => true,
            Some(&"v") => false,
            _ => continue, // clock lines
        };
        let desc = words[1..].join(" ");
        if desc == "input external delay" {
            continue;
        }
        if nums.len() < 3 {
            return Err(err(format!("too few numbers in `{line}`")));
        }
        let (incr, time, slew) = (
            nums[nums.len() - 2],
            nums[nums.len() - 1],
            nums[nums.len() - 3],
        );
        let load = (nums.len() >= 4).then(|| nums[nums.len() - 4]);
        let (name, kind) = desc
            .rsplit_once(" (")
            .map(|(n, k)| (n.trim(), k.trim_end_matches(')')))
            .ok_or_else(|| err(format!("no (type) in `{line}`")))?;
        if kind == "in" || kind == "out" {
            points.push(PathPoint {
                instance: plain_name(name),
                cell: None,
                input_pin: (kind == "out").then(|| plain_name(name)),
                output_pin: (kind == "in").then(|| plain_name(name)),
                rising,
                incr_ns: incr,
                arrival_ns: time,
                slew_ns: Some(slew),
                load_ff: load,
            });
            continue;
        }
        let (inst, pin) = name
            .rsplit_once('/')
            .ok_or_else(|| err(format!("no instance/pin in `{line}`")))?;
        let inst = plain_name(inst);
        // Driver pins carry a load (the Cap column); input pins do not.
        let is_output = load.is_some();
        match points.last_mut() {
            Some(p)
                if p.instance == inst
                    && p.cell.as_deref() == Some(kind)
                    && p.output_pin.is_none() =>
            {
                if is_output {
                    p.output_pin = Some(pin.to_string());
                    p.load_ff = load;
                } else {
                    p.input_pin = Some(pin.to_string());
                }
                p.rising = rising;
                p.incr_ns += incr;
                p.arrival_ns = time;
                p.slew_ns = Some(slew);
            }
            _ => points.push(PathPoint {
                instance: inst,
                cell: Some(kind.to_string()),
                input_pin: (!is_output).then(|| pin.to_string()),
                output_pin: is_output.then(|| pin.to_string()),
                rising,
                incr_ns: incr,
                arrival_ns: time,
                slew_ns: Some(slew),
                load_ff: load,
            }),
        }
    }
    if points.is_empty() {
        return Err(err("no points on the data path".to_string()));
    }
    for (ep, pt) in [(&mut start, points.first()), (&mut end, points.last())] {
        if let Some(pt) = pt {
            if pt.cell.is_some() && pt.instance == ep.name {
                ep.cell.clone_from(&pt.cell);
            }
        }
    }
    let levels = points
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            p.cell.is_some()
                && p.output_pin.is_some()
                && !(*i == 0 && start.kind != EndpointKind::InputPort && p.instance == start.name)
        })
        .count() as u32;

    // The required-time side: capture edge, setup, required time, slack.
    let mut capture = None;
    let mut required = None;
    let mut slack = None;
    for line in &lines[arrival_at + 1..] {
        let (nums, words) = split_numbers(line);
        let desc = words.join(" ");
        if desc.starts_with("clock ") {
            capture = nums.last().copied();
        } else if desc.starts_with("data required time") && required.is_none() {
            required = nums.last().copied();
        } else if desc.starts_with("slack") {
            slack = nums.first().copied();
            break;
        }
    }
    let capture = capture.ok_or_else(|| err("no capture clock edge".to_string()))?;
    let required = required.ok_or_else(|| err("no data required time".to_string()))?;
    let slack_ns = slack.ok_or_else(|| err("no slack".to_string()))?;
    let setup_ns = capture - required;
    let min_period_ns = period_ns - slack_ns;
    let fmax_mhz = (min_period_ns > 0.0).then(|| 1000.0 / min_period_ns);
    Ok(TimingPath {
        start,
        end,
        delay_ns,
        setup_ns,
        slack_ns,
        min_period_ns,
        fmax_mhz,
        levels,
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::installed::tool_available;

    const REG2REG: &str = "\
Startpoint: _5_ (rising edge-triggered flip-flop clocked by clk)
Endpoint: _6_ (rising edge-triggered flip-flop clocked by clk)
Path Group: clk
Path Type: max

      Cap      Slew     Delay      Time   Description
-------------------------------------------------------------------------------
             0.0000    0.0000    0.0000   clock clk (rise edge)
                       0.0000    0.0000   clock network delay (ideal)
             0.0000    0.0000    0.0000 ^ _5_/CK (DFF_X1)
   2.6733    0.0101    0.0873    0.0873 ^ _5_/Q (DFF_X1)
             0.0101    0.0000    0.0874 ^ _3_/B (XOR2_X1)
   1.9739    0.0225    0.0457    0.1330 ^ _3_/Z (XOR2_X1)
             0.0225    0.0000    0.1330 ^ _4_/A2 (NAND2_X1)
   1.3721    0.0072    0.0154    0.1485 v _4_/ZN (NAND2_X1)
             0.0072    0.0000    0.1485 v _6_/D (DFF_X1)
                                 0.1485   data arrival time

             0.0000   10.0000   10.0000   clock clk (rise edge)
                       0.0000   10.0000   clock network delay (ideal)
                       0.0000   10.0000   clock reconvergence pessimism
                                10.0000 ^ _6_/CK (DFF_X1)
                      -0.0397    9.9603   library setup time
                                 9.9603   data required time
-------------------------------------------------------------------------------
                                 9.9603   data required time
                                -0.1485   data arrival time
-------------------------------------------------------------------------------
                                 9.8119   slack (MET)
";

    const IN2OUT: &str = "\
Startpoint: a (input port clocked by clk)
Endpoint: y (output port clocked by clk)
Path Group: clk
Path Type: max

      Cap      Slew     Delay      Time   Description
-------------------------------------------------------------------------------
             0.0000    0.0000    0.0000   clock clk (rise edge)
                       0.0000    0.0000   clock network delay (ideal)
                       0.0000    0.0000 ^ input external delay
   1.6735    0.0000    0.0000    0.0000 ^ a (in)
             0.0000    0.0000    0.0000 ^ _0_/A2 (AND2_X1)
   0.3097    0.0056    0.0236    0.0236 ^ _0_/ZN (AND2_X1)
             0.0056    0.0000    0.0236 ^ y (out)
                                 0.0236   data arrival time

             0.0000   10.0000   10.0000   clock clk (rise edge)
                       0.0000   10.0000   clock network delay (ideal)
                       0.0000   10.0000   clock reconvergence pessimism
                       0.0000   10.0000   output external delay
                                10.0000   data required time
-------------------------------------------------------------------------------
                                10.0000   data required time
                                -0.0236   data arrival time
-------------------------------------------------------------------------------
                                 9.9764   slack (MET)
";

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn register_to_register_report() {
        let p = parse_path(REG2REG, 10.0, "t").unwrap();
        assert_eq!(p.start.kind, EndpointKind::FlipFlop);
        assert_eq!(p.start.name, "_5_");
        assert_eq!(p.start.cell.as_deref(), Some("DFF_X1"));
        assert_eq!(p.end.name, "_6_");
        assert_eq!(p.end.cell.as_deref(), Some("DFF_X1"));
        assert_eq!(p.levels, 2);
        assert_eq!(p.points.len(), 4);
        let xor = &p.points[1];
        assert_eq!(xor.cell.as_deref(), Some("XOR2_X1"));
        assert_eq!(xor.input_pin.as_deref(), Some("B"));
        assert_eq!(xor.output_pin.as_deref(), Some("Z"));
        assert!(close(xor.incr_ns, 0.0457) && close(xor.arrival_ns, 0.1330));
        assert_eq!(xor.load_ff, Some(1.9739));
        assert!(!p.points[2].rising);
        assert_eq!(p.points[3].input_pin.as_deref(), Some("D"));
        assert!(close(p.delay_ns, 0.1485));
        assert!(close(p.setup_ns, 0.0397));
        assert!(close(p.slack_ns, 9.8119));
        assert!(close(p.min_period_ns, 0.1881));
        assert!(close(p.fmax_mhz.unwrap(), 1000.0 / 0.1881));
    }

    #[test]
    fn port_to_port_report() {
        let p = parse_path(IN2OUT, 10.0, "t").unwrap();
        assert_eq!(p.start.kind, EndpointKind::InputPort);
        assert_eq!(p.end.kind, EndpointKind::OutputPort);
        assert_eq!((p.start.name.as_str(), p.end.name.as_str()), ("a", "y"));
        assert_eq!(p.levels, 1);
        assert!(close(p.setup_ns, 0.0));
        assert!(close(p.min_period_ns, 0.0236));
        assert!(parse_path("No paths found.\n", 10.0, "t").is_err());
        assert!(parse_path(&REG2REG[..600], 10.0, "t").is_err());
    }

    #[test]
    fn concatenated_assigns_are_split() {
        let text = "module t;\n  assign \\c[0]  = r;\n  \
                    assign { \\q[4] , \\q[3] , \\j.r [1] , y } = { \\t[4] , 2'b10, x };\n\
                    assign { a, b } = 2'h1;\nassign { c, d, e } = 3'd6;\nendmodule\n";
        let out = split_concat_assigns(text).unwrap();
        assert_eq!(
            out,
            "module t;\n  assign \\c[0]  = r;\n  assign \\q[4]  = \\t[4] ;\n  \
             assign \\q[3]  = 1'b1;\n  assign \\j.r [1] = 1'b0;\n  assign y = x;\n  \
             assign a = 1'b0;\n  assign b = 1'b1;\n  assign c = 1'b1;\n  assign d = 1'b1;\n  \
             assign e = 1'b0;\nendmodule\n"
        );
        assert!(split_concat_assigns("  assign { a, b } = c;\n").is_err());
        assert!(split_concat_assigns("  assign { a, b } = { c,\n").is_err());
    }

    #[test]
    fn netlist_connections_and_names() {
        let text = "module t(a);\n  DFF_X1 _5_ (\n    .CK(clock),\n    .D(a),\n    \
                    .Q(\\m_tag [3]),\n    .QN(_2_)\n  );\n  DFF_X1 \\u.r  (\n    .D(1'b0),\n    \
                    .Q(_7_)\n  );\nendmodule\n";
        let n = Netlist::parse(text);
        assert_eq!(n.net("_5_", "Q"), Some("m_tag[3]"));
        assert_eq!(n.net("_5_", "CK"), Some("clock"));
        assert_eq!(n.net("u.r", "D"), Some("1'b0"));
        assert!(is_generated("_7_") && !is_generated("m_tag[3]") && !is_generated("__"));
    }

    fn have_tools() -> bool {
        let ok = tool_available(Tool::Yosys) && tool_available(Tool::OpenSta);
        if !ok {
            assert!(
                std::env::var_os("WARPGEN_REQUIRE_EDA_TOOLS").is_none(),
                "yosys and sta are required (WARPGEN_REQUIRE_EDA_TOOLS is set)"
            );
            eprintln!("SKIPPED: yosys or sta (opensta) not installed");
        }
        ok
    }

    fn nangate45() -> PathBuf {
        crate::liberty::find_liberty(Path::new(env!("CARGO_MANIFEST_DIR")))
            .expect("shared/pdk/nangate45/nangate45_typ.lib beside the checkout")
    }

    /// `d` -> flop `r_src` -> a chain of `n` XORs, each with its own input
    /// `k[i]` -> flop `t[n]`. Every intermediate XOR output is registered
    /// too (`t[i]`), so synthesis cannot rebalance the chain into a tree,
    /// and NanGate45 has no XOR wider than two inputs: exactly `n` XOR2 or
    /// XNOR2 cells lie between `r_src` and `t[n]`.
    fn chain(n: usize) -> String {
        let mut s = format!(
            "module chain(clock, d, k, q);\n  input clock;\n  input d;\n  input [{m}:0] k;\n  \
             output [{n}:1] q;\n  reg r_src;\n  reg [{n}:1] t;\n  wire [{n}:0] c;\n  \
             assign c[0] = r_src;\n",
            m = n - 1
        );
        for i in 0..n {
            let _ = writeln!(s, "  assign c[{}] = c[{i}] ^ k[{i}];", i + 1);
        }
        s.push_str(&format!(
            "  always @(posedge clock) begin\n    r_src <= d;\n    t <= c[{n}:1];\n  end\n  \
             assign q = t;\nendmodule\n"
        ));
        s
    }

    fn time_chain(n: usize) -> TimingReport {
        let src = crate::source::TempVerilog::new(&chain(n), "chain").unwrap();
        time_verilog(src.path(), "chain", &nangate45(), "clock").unwrap()
    }

    #[test]
    fn gate_chain_levels_and_endpoint() {
        if !have_tools() {
            return;
        }
        let short = time_chain(4);
        let r2r = short
            .reg_to_reg
            .as_ref()
            .expect("a register-to-register path");
        assert_eq!(
            r2r.start.register.as_deref(),
            Some("r_src"),
            "{}",
            short.render()
        );
        assert_eq!(
            r2r.end.register.as_deref(),
            Some("t[4]"),
            "{}",
            short.render()
        );
        assert_eq!(r2r.start.kind, EndpointKind::FlipFlop);
        assert_eq!(r2r.levels, 4, "{}", short.render());
        assert_eq!(
            r2r.points
                .iter()
                .filter(|p| p.cell.as_deref() == Some("XOR2_X1")
                    || p.cell.as_deref() == Some("XNOR2_X1"))
                .count(),
            4,
            "{}",
            short.render()
        );
        assert!(r2r.setup_ns > 0.0 && r2r.delay_ns > 0.0);
        assert!((r2r.min_period_ns - (r2r.delay_ns + r2r.setup_ns)).abs() < 2e-3);
        // The flop-to-flop path is the worst one here (inputs reach one XOR).
        assert_eq!(short.worst, *r2r, "{}", short.render());
        assert_eq!(short.wire_load.as_deref(), Some("5K_hvratio_1_1"));
        assert!(short.sta_version.starts_with("OpenSTA"));

        let long = time_chain(12);
        let long_r2r = long.reg_to_reg.as_ref().unwrap();
        assert_eq!(long_r2r.levels, 12, "{}", long.render());
        assert!(long_r2r.delay_ns > r2r.delay_ns + 0.1, "{}", long.render());
        assert!(long.fmax_mhz().unwrap() < short.fmax_mhz().unwrap());
        let json = serde_json::to_string(&long).unwrap();
        let back: TimingReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back, long);
    }

    #[test]
    fn abc_buffering_maps_the_chain_too() {
        if !have_tools() {
            return;
        }
        let src = crate::source::TempVerilog::new(&chain(6), "chain").unwrap();
        let mut o = TimingOptions::new("clock");
        o.period_ns = 1.0;
        o.abc_buffering = true;
        let r = time_verilog_with(src.path(), "chain", &nangate45(), &o).unwrap();
        let r2r = r.reg_to_reg.as_ref().unwrap();
        assert_eq!(
            r2r.start.register.as_deref(),
            Some("r_src"),
            "{}",
            r.render()
        );
        assert_eq!(r2r.end.register.as_deref(), Some("t[6]"), "{}", r.render());
        assert!(r2r.levels >= 6, "{}", r.render());
        assert!(
            r.notes.iter().any(|n| n.contains("abc -D 1000")),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn errors_are_reported() {
        if !have_tools() {
            return;
        }
        let src = crate::source::TempVerilog::new(&chain(2), "chain").unwrap();
        let lib = nangate45();
        let e = time_verilog(src.path(), "chain", &lib, "clk").unwrap_err();
        assert!(e.to_string().contains("clock port `clk`"), "{e}");
        assert!(matches!(
            time_verilog(src.path(), "chain", &lib, "a b"),
            Err(EdaError::InvalidTop(_))
        ));
        assert!(matches!(
            time_verilog(src.path(), "nochain", &lib, "clock"),
            Err(EdaError::ToolFailed { .. })
        ));
        let mut o = TimingOptions::new("clock");
        o.period_ns = 0.0;
        assert!(time_verilog_with(src.path(), "chain", &lib, &o).is_err());
    }
}
