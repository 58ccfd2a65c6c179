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
//! `abc -D <period> -constr` instead, which buffers and sizes, with ABC's
//! timing on the Liberty's wire load like OpenSTA's and delay-oriented
//! restructuring that keeps carry trees (`scripts::abc_script`);
//! a mapping OpenSTA finds missing the period while ABC's own estimate met
//! it is mapped a second time for minimum delay, and the faster netlist is
//! reported (`docs/eda.md`, "Static timing").

mod netlist;
mod options;
mod parse;
mod report;
mod scripts;
#[cfg(test)]
mod tests;

pub use options::{
    PortActivity, TimingOptions, ABC_DRIVER_CELL, ABC_LOAD_FF, STA_PERIOD_NS_DEFAULT,
};
pub use report::{EndpointKind, PathEndpoint, PathPoint, PowerReport, TimingPath, TimingReport};

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::error::EdaError;
use crate::installed::{require_tool, tool_version};
use crate::run::{failed, input_file, run_checked, work_dir};
use crate::synth::{link_or_copy, parse_chip_area, parse_stat_json, read_output};
use crate::tool::Tool;
use netlist::{resolve_registers, split_concat_assigns, Netlist};
use parse::parse_path;
use scripts::{
    abc_script, sta_script, yosys_script, AbcMapping, ABC_SCRIPT_FILE, MARK_DONE, MARK_HAS_REGS,
    MARK_NO_CLOCK,
};

/// An output transition (ns) above which a path point is flagged in the
/// notes as an unbuffered high-fan-out net whose delay OpenSTA extrapolated
/// (the NanGate45 tables end near 0.2 ns of input transition).
pub const SLOW_SLEW_NS: f64 = 1.0;

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
    check_names_and_period(top, options)?;
    require_tool(Tool::Yosys)?;
    require_tool(Tool::OpenSta)?;
    let file = input_file(verilog)?;
    let lib = input_file(liberty)?;
    let dir = work_dir()?;
    link_or_copy(&lib, &dir.path().join("cells.lib"))
        .map_err(|e| EdaError::io("linking the Liberty file into the work directory", e))?;

    // 1. Yosys: the mapping, then a netlist OpenSTA can read; 2. OpenSTA.
    let first = if options.abc_buffering {
        AbcMapping::Timed {
            target_ps: Some((options.period_ns * 1000.0).round() as u64),
            constr: ABC_CONSTR_FILE,
        }
    } else {
        AbcMapping::Plain
    };
    let mut run = map_and_time(dir.path(), &file, top, options, first)?;
    // 3. A mapping for the period that misses it: map again for minimum
    // delay and keep the faster netlist (what a closure loop does when
    // ABC's timing, without placement or OpenSTA's setup times, was
    // optimistic).
    // When ABC's own estimate already misses the target, it has sized for
    // minimum delay and a second mapping would give the same netlist.
    let target_ps = options.period_ns * 1000.0;
    let retry = options.abc_buffering
        && remap_for_minimum_delay(run.mapped.abc_delay_ps, target_ps, run.paths.worst.slack_ns);
    let mut retry_note = None;
    if options.abc_buffering && run.paths.worst.slack_ns < 0.0 && !retry {
        retry_note = Some(format!(
            "ABC's own estimate, {:.0} ps, already missed the {target_ps:.0} ps target, so it \
             mapped for minimum delay; not mapped again",
            run.mapped.abc_delay_ps.unwrap_or(0.0)
        ));
    }
    if retry {
        let again = work_dir()?;
        link_or_copy(&lib, &again.path().join("cells.lib"))
            .map_err(|e| EdaError::io("linking the Liberty file into the work directory", e))?;
        let fast = AbcMapping::Timed {
            target_ps: None,
            constr: ABC_CONSTR_FILE,
        };
        let mut second = map_and_time(again.path(), &file, top, options, fast)?;
        // Both runs' times are the report's.
        let (y, t) = (run.mapped.seconds, run.paths.seconds);
        run.mapped.seconds += second.mapped.seconds;
        run.paths.seconds += second.paths.seconds;
        second.mapped.seconds += y;
        second.paths.seconds += t;
        let (s1, s2) = (run.paths.worst.slack_ns, second.paths.worst.slack_ns);
        retry_note = Some(if s2 > s1 {
            format!(
                "mapped for {p} ns, OpenSTA found slack {s1:.3} ns; mapped again for minimum \
                 delay (no ABC delay target): slack {s2:.3} ns, this netlist is reported",
                p = options.period_ns
            )
        } else {
            format!(
                "mapped for {p} ns, OpenSTA found slack {s1:.3} ns; mapped again for minimum \
                 delay: slack {s2:.3} ns, no better, so the first netlist is reported",
                p = options.period_ns
            )
        });
        if s2 > s1 {
            run = second;
        }
    }
    let TimedRun { mapped, paths } = run;

    let wire_load = default_wire_load(&lib);
    let notes = timing_notes(
        options,
        wire_load.as_deref(),
        &mapped.text,
        &paths.worst,
        paths.reg_to_reg.as_ref(),
    );
    let notes = notes.into_iter().chain(retry_note).collect();
    Ok(TimingReport {
        top: top.to_string(),
        clock: options.clock.clone(),
        period_ns: options.period_ns,
        worst: paths.worst,
        reg_to_reg: paths.reg_to_reg,
        cells: mapped.cells,
        area_um2: mapped.area_um2,
        wire_load,
        liberty: lib,
        yosys_version: tool_version(Tool::Yosys)?,
        sta_version: format!("OpenSTA {}", tool_version(Tool::OpenSta)?),
        yosys_seconds: mapped.seconds,
        sta_seconds: paths.seconds,
        notes,
        power: paths.power,
    })
}

/// Checks that `top` and the clock port are plain identifiers and that the
/// period is positive.
fn check_names_and_period(top: &str, options: &TimingOptions) -> Result<(), EdaError> {
    crate::source::validate_top(top)?;
    crate::source::validate_top(&options.clock)?;
    if !(options.period_ns.is_finite() && options.period_ns > 0.0) {
        return Err(EdaError::parse(
            "timing options",
            format!("clock period {} ns is not positive", options.period_ns),
        ));
    }
    Ok(())
}

/// The gate netlist Yosys wrote, as OpenSTA will read it.
struct MappedNetlist {
    /// Cells in the mapped netlist.
    cells: u64,
    /// Its Liberty area (Yosys `stat -liberty`), µm².
    area_um2: Option<f64>,
    /// ABC's own estimate of the worst delay (its last `stime`), ps.
    abc_delay_ps: Option<f64>,
    /// The netlist's text (concatenated assignments split).
    text: String,
    /// Its cell instances and their connections.
    netlist: Netlist,
    /// Wall-clock seconds of the Yosys run.
    seconds: f64,
}

/// Runs Yosys in `dir` (which holds `cells.lib`): maps `file` to the
/// Liberty cells and writes `netlist.v`, rewritten so that OpenSTA 2019
/// reads it.
fn map_to_cells(
    dir: &Path,
    file: &Path,
    top: &str,
    options: &TimingOptions,
    mapping: AbcMapping,
) -> Result<MappedNetlist, EdaError> {
    if let AbcMapping::Timed { target_ps, constr } = mapping {
        std::fs::write(
            dir.join(constr),
            format!("set_driving_cell {ABC_DRIVER_CELL}\nset_load {ABC_LOAD_FF}\n"),
        )
        .map_err(|e| EdaError::io("writing the ABC constraints", e))?;
        std::fs::write(dir.join(ABC_SCRIPT_FILE), abc_script(target_ps))
            .map_err(|e| EdaError::io("writing the ABC script", e))?;
    }
    let script = yosys_script(top, "cells.lib", mapping);
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir)
        .args(["-q", "-l", "yosys.log", "-f", "verilog", "-p", &script])
        .arg(file);
    let t0 = Instant::now();
    run_checked(Tool::Yosys, &mut cmd, options.timeout)?;
    let seconds = t0.elapsed().as_secs_f64();
    let mapped = parse_stat_json(
        &read_output(dir, "mapped.json")?,
        top,
        "Yosys stat after Liberty mapping",
    )?;
    let text = split_concat_assigns(&read_output(dir, "netlist.v")?)?;
    std::fs::write(dir.join("netlist.v"), &text)
        .map_err(|e| EdaError::io("rewriting the gate netlist", e))?;
    let netlist = Netlist::parse(&text);
    let area_um2 = std::fs::read_to_string(dir.join("area.txt"))
        .ok()
        .and_then(|t| parse_chip_area(&t, top));
    let abc_delay_ps = std::fs::read_to_string(dir.join("yosys.log"))
        .ok()
        .and_then(|log| abc_delay_ps(&log));
    Ok(MappedNetlist {
        cells: mapped.cells,
        area_um2,
        abc_delay_ps,
        text,
        netlist,
        seconds,
    })
}

/// The ABC constraints file (driving cell and load) of a timed mapping.
const ABC_CONSTR_FILE: &str = "abc.constr";

/// One mapping and its timing.
struct TimedRun {
    mapped: MappedNetlist,
    paths: StaPaths,
}

/// Maps `file` in `dir` with `mapping` and times the netlist.
fn map_and_time(
    dir: &Path,
    file: &Path,
    top: &str,
    options: &TimingOptions,
    mapping: AbcMapping,
) -> Result<TimedRun, EdaError> {
    let mapped = map_to_cells(dir, file, top, options, mapping)?;
    let paths = run_opensta(dir, top, options, &mapped.netlist)?;
    Ok(TimedRun { mapped, paths })
}

/// The paths OpenSTA reported.
struct StaPaths {
    /// The worst path of the design.
    worst: TimingPath,
    /// The worst register-to-register path, if there are registers.
    reg_to_reg: Option<TimingPath>,
    /// Wall-clock seconds of the OpenSTA run.
    seconds: f64,
    /// `report_power`'s totals, if asked for.
    power: Option<PowerReport>,
}

/// Runs OpenSTA in `dir` on the mapped `netlist.v` and reads its path
/// reports, naming the flip-flops' registers from `netlist`.
fn run_opensta(
    dir: &Path,
    top: &str,
    options: &TimingOptions,
    netlist: &Netlist,
) -> Result<StaPaths, EdaError> {
    let tcl = sta_script(top, options);
    std::fs::write(dir.join("timing.tcl"), &tcl)
        .map_err(|e| EdaError::io("writing the OpenSTA script", e))?;
    let mut cmd = Command::new("sta");
    cmd.current_dir(dir)
        .args(["-no_splash", "-no_init", "-exit", "timing.tcl"]);
    let t0 = Instant::now();
    let out = run_checked(Tool::OpenSta, &mut cmd, options.timeout)?;
    let seconds = t0.elapsed().as_secs_f64();
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
    let worst_text = read_output(dir, "worst.txt")?;
    let mut worst = parse_path(&worst_text, options.period_ns, "OpenSTA worst path")?;
    resolve_registers(&mut worst, netlist);
    let reg_to_reg = if text.contains(MARK_HAS_REGS) {
        let t = read_output(dir, "reg2reg.txt")?;
        if t.contains("Startpoint:") {
            let mut p = parse_path(&t, options.period_ns, "OpenSTA register-to-register path")?;
            resolve_registers(&mut p, netlist);
            Some(p)
        } else {
            None
        }
    } else {
        None
    };
    let power = if options.power {
        let t = read_output(dir, "power.txt")?;
        Some(
            PowerReport::parse(&t, options.port_activity.len()).ok_or_else(|| {
                EdaError::parse("OpenSTA report_power", "no `Total` row of four numbers")
            })?,
        )
    } else {
        None
    };
    Ok(StaPaths {
        worst,
        reg_to_reg,
        seconds,
        power,
    })
}

/// The report's notes: the constraints and mapping, cells left unmapped,
/// and each path's extrapolated delays and inconsistencies.
fn timing_notes(
    options: &TimingOptions,
    wire_load: Option<&str>,
    netlist_text: &str,
    worst: &TimingPath,
    reg_to_reg: Option<&TimingPath>,
) -> Vec<String> {
    let mut notes = vec![
        format!(
            "ideal clock `{}` of {} ns; input delay 0 on all inputs but the clock, output \
             delay 0 on all outputs (ports treated as registered outside the unit); ideal \
             input transitions, no output load",
            options.clock, options.period_ns
        ),
        match wire_load {
            Some(w) => format!("wire load: the Liberty default `{w}`"),
            None => "no wire load (the Liberty names no default_wire_load)".to_string(),
        },
        if options.abc_buffering {
            format!(
                "mapping with abc -D {} -constr (driver {ABC_DRIVER_CELL}, load {ABC_LOAD_FF} fF) \
                 and Yosys's script for it, with delay-oriented restructuring (`&syn2; &if -g`) \
                 in place of `dc2` and ABC's timing on the Liberty's wire load (`-c`): ABC \
                 buffers and sizes; not synth_yosys's area netlist",
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
    for (label, path) in std::iter::once(("worst path", worst))
        .chain(reg_to_reg.map(|p| ("register-to-register path", p)))
    {
        path_notes(label, path, &mut notes);
    }
    notes
}

/// Notes on one path: points with transitions above [`SLOW_SLEW_NS`], and an
/// arrival plus setup that disagrees with period minus slack.
fn path_notes(label: &str, path: &TimingPath, notes: &mut Vec<String>) {
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

/// Whether a timed mapping is mapped again for minimum delay: OpenSTA found
/// it misses the period (`slack_ns < 0`) while ABC believed it met its
/// target (or its estimate could not be read), so ABC may have stopped
/// sizing early. When ABC's own estimate already missed, it has sized for
/// minimum delay and a second mapping would give the same netlist.
fn remap_for_minimum_delay(abc_delay_ps: Option<f64>, target_ps: f64, slack_ns: f64) -> bool {
    slack_ns < 0.0 && abc_delay_ps.is_none_or(|d| d <= target_ps)
}

/// ABC's last delay estimate in a Yosys log (`ABC: ... Delay = 723.54 ps`).
fn abc_delay_ps(log: &str) -> Option<f64> {
    let line = log.lines().rev().find(|l| l.contains("Delay ="))?;
    let rest = line.split("Delay =").nth(1)?.trim_start();
    let value = rest.split_whitespace().next()?;
    if rest.split_whitespace().nth(1) != Some("ps") {
        return None;
    }
    value.parse().ok()
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
