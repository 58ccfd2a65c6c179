//! Yosys synthesis: cell, flip-flop and latch counts, and area.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::cells::{
    classify_generic_cell, estimate_cell_area, CellKind, ESTIMATE_FALLBACK_AREA_UM2,
};
use crate::error::EdaError;
use crate::installed::require_tool;
use crate::liberty::LibertyInfo;
use crate::run::{input_file, run_checked, work_dir};
use crate::tool::Tool;

/// Where [`SynthReport::area_um2`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AreaKind {
    /// Yosys `stat -liberty` ("Chip area for module") after mapping to the
    /// cells of a Liberty file ([`SynthReport::liberty`]).
    Liberty,
    /// A library-free **estimate**: the generic Yosys cells counted with the
    /// NanGate45-like per-cell areas of [`ESTIMATE_AREAS`](crate::ESTIMATE_AREAS).
    /// Not a synthesized area; typically within about 10-20 % of the Liberty
    /// figure.
    Estimate,
}

/// The result of [`synth_yosys`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthReport {
    /// Cells in the final (flattened; Liberty-mapped if a library was given) netlist.
    pub cells: u64,
    /// Flip-flop bits in the final netlist: generic `$_DFF_*`, `$_DFFE_*`,
    /// `$_SDFF*`, `$_DFFSR*`, `$_ALDFF*` cells and Liberty cells with an `ff`
    /// group (e.g. `DFF_X1`).
    pub flip_flops: u64,
    /// Latch bits: the larger of the latch cells after synthesis (generic
    /// `$_DLATCH*`/`$_SR_*` before and after mapping, Liberty cells with a
    /// `latch` group) and the word-level latches `proc` inferred
    /// (`$dlatch`, `$adlatch`, `$dlatchsr`, `$sr`). Must be 0 by `conventions.md`.
    pub latches: u64,
    /// Cell count per type in the final netlist.
    pub cell_types: BTreeMap<String, u64>,
    /// Gates on the longest combinational path of the generic netlist after
    /// `synth` (Yosys `ltp -noff`: flip-flops cut the paths, every other
    /// cell, a 2-input gate or a 2:1 multiplexer, counts one), with its
    /// first and last nets; `None` if Yosys reported none.
    pub longest_path: Option<LongestPath>,
    /// Cell count per type after `synth` (generic Yosys gates), before any
    /// Liberty mapping. Equal to `cell_types` without a library.
    pub generic_cell_types: BTreeMap<String, u64>,
    /// Area in µm²: see `area_kind`. `None` if Yosys printed no chip area
    /// (some cell had no Liberty area; see `notes`).
    pub area_um2: Option<f64>,
    /// Whether `area_um2` is a Liberty figure or a library-free estimate.
    pub area_kind: AreaKind,
    /// The Liberty file used, if any.
    pub liberty: Option<PathBuf>,
    /// Caveats about the figures (estimate, unknown cell areas, cross-check
    /// differences). Empty notes mean nothing unusual.
    pub notes: Vec<String>,
    /// Yosys's log of the run.
    pub log: String,
}

/// The longest combinational path of a netlist, in cells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongestPath {
    /// Cells on the path.
    pub gates: u64,
    /// The net where it starts (an input port or a flip-flop output).
    pub from: String,
    /// The net where it ends (an output port or a flip-flop input).
    pub to: String,
}

/// Parses Yosys `ltp -noff` output: "Longest topological path in TOP
/// (length=N):" followed by one "  k: NET (via CELL)" line per step and,
/// when the path ends at a flip-flop, "  ff: NET (via CELL)".
fn parse_ltp(text: &str) -> Option<LongestPath> {
    let mut lines = text.lines().map(str::trim);
    let head = lines.find(|l| l.starts_with("Longest topological path in"))?;
    let gates = head
        .split("length=")
        .nth(1)?
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()?;
    let net = |rest: &str| {
        rest.split_whitespace()
            .next()
            .unwrap_or("")
            .trim_start_matches('\\')
            .to_string()
    };
    let (mut from, mut to) = (String::new(), String::new());
    for l in lines.take_while(|l| !l.is_empty()) {
        let Some((label, rest)) = l.split_once(':') else {
            break;
        };
        if label.chars().all(|c| c.is_ascii_digit()) {
            if from.is_empty() {
                from = net(rest);
            }
            to = net(rest);
        } else if label == "ff" {
            to = net(rest);
        }
    }
    Some(LongestPath { gates, from, to })
}

/// Counts from one `stat -json` report.
#[derive(Debug, Default)]
pub(crate) struct Stat {
    pub(crate) cells: u64,
    by_type: BTreeMap<String, u64>,
}

/// Yosys 0.23 prints the text hierarchy summary (`  name   count` lines)
/// into `stat -json` output for hierarchical designs, which makes it
/// invalid JSON. Drop every line that has no JSON punctuation in it.
fn sanitize_stat_json(text: &str) -> String {
    text.lines()
        .filter(|l| {
            let t = l.trim();
            t.is_empty() || t.contains('"') || t.starts_with(['{', '}', '[', ']'])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn parse_stat_json(text: &str, top: &str, what: &str) -> Result<Stat, EdaError> {
    let text = &sanitize_stat_json(text);
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| EdaError::parse(what, format!("invalid JSON: {e}")))?;
    let modules = v
        .get("modules")
        .and_then(|m| m.as_object())
        .ok_or_else(|| EdaError::parse(what, "no \"modules\" object"))?;
    let escaped = format!("\\{top}");
    let module = modules
        .get(&escaped)
        .or_else(|| modules.get(top))
        .ok_or_else(|| {
            EdaError::parse(
                what,
                format!(
                    "module `{top}` not in the report (has: {})",
                    modules.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
        })?;
    let cells = module
        .get("num_cells")
        .and_then(|n| n.as_u64())
        .ok_or_else(|| EdaError::parse(what, "no \"num_cells\" count"))?;
    let mut by_type = BTreeMap::new();
    if let Some(types) = module.get("num_cells_by_type").and_then(|t| t.as_object()) {
        for (name, n) in types {
            let n = n.as_u64().ok_or_else(|| {
                EdaError::parse(what, format!("count of `{name}` is not an integer"))
            })?;
            by_type.insert(name.clone(), n);
        }
    }
    let sum: u64 = by_type.values().sum();
    if sum != cells {
        return Err(EdaError::parse(
            what,
            format!("num_cells is {cells} but the per-type counts add up to {sum}"),
        ));
    }
    Ok(Stat { cells, by_type })
}

/// Parses "Chip area for module '\TOP': 27.664000" from `stat -liberty` text.
pub(crate) fn parse_chip_area(text: &str, top: &str) -> Option<f64> {
    let value = |line: &str| line.rsplit(':').next()?.trim().parse::<f64>().ok();
    let exact = format!("Chip area for module '\\{top}':");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .iter()
        .find(|l| l.starts_with(&exact))
        .or_else(|| {
            lines
                .iter()
                .find(|l| l.starts_with("Chip area for top module"))
        })
        .or_else(|| {
            lines
                .iter()
                .rev()
                .find(|l| l.starts_with("Chip area for module"))
        })
        .and_then(|l| value(l))
}

/// Cell types `stat -liberty` reports as "Area for cell type X is unknown!".
fn unknown_area_types(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("Area for cell type ")?
                .strip_suffix(" is unknown!")
                .map(str::to_string)
        })
        .collect()
}

fn count_kind(types: &BTreeMap<String, u64>, kind: CellKind, lib: Option<&LibertyInfo>) -> u64 {
    types
        .iter()
        .filter(|(name, _)| {
            lib.and_then(|l| l.kind(name))
                .or_else(|| classify_generic_cell(name))
                == Some(kind)
        })
        .map(|(_, n)| n)
        .sum()
}

/// A tool's output file `name` in `dir`.
pub(crate) fn read_output(dir: &Path, name: &str) -> Result<String, EdaError> {
    let path = dir.join(name);
    std::fs::read_to_string(&path)
        .map_err(|e| EdaError::io(format!("reading tool output {}", path.display()), e))
}

/// Puts `src` at `dst` (a symbolic link, or a copy where links fail).
#[cfg(unix)]
pub(crate) fn link_or_copy(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(src, dst).or_else(|_| std::fs::copy(src, dst).map(|_| ()))
}

/// Puts `src` at `dst` (a copy).
#[cfg(not(unix))]
pub(crate) fn link_or_copy(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::copy(src, dst).map(|_| ())
}

/// The Yosys script [`synth_yosys`] runs (the design itself is read with
/// `-f verilog <file>` on the command line). `liberty` is the library's name
/// inside the working directory.
fn yosys_script(top: &str, liberty: Option<&str>) -> String {
    let mut s = vec![
        format!("hierarchy -check -top {top}"),
        "proc".to_string(),
        // Fails on combinational loops, multiple drivers, undriven wires.
        "check -assert".to_string(),
        "tee -q -o proc.json stat -json".to_string(),
        format!("synth -flatten -top {top}"),
        "tee -q -o generic.json stat -json".to_string(),
        // The longest combinational path, in generic gates (flip-flops,
        // recognised by type here, cut the paths).
        "tee -q -o ltp.txt ltp -noff".to_string(),
    ];
    match liberty {
        Some(lib) => s.extend([
            format!("dfflibmap -liberty {lib}"),
            format!("abc -liberty {lib}"),
            "opt_clean".to_string(),
            "tee -q -o mapped.json stat -json".to_string(),
            format!("tee -o mapped.txt stat -liberty {lib}"),
        ]),
        None => s.push("stat".to_string()),
    }
    s.join("; ")
}

/// Synthesizes `verilog` with Yosys and reports cells, flip-flops, latches
/// and area.
///
/// Runs, in a temporary directory,
/// `yosys -q -f verilog <file> -p "hierarchy -check -top TOP; proc;
/// synth -flatten -top TOP; ..."`. With a Liberty file, the netlist is then
/// mapped as in `shared/pdk/README.md` (`dfflibmap -liberty L; abc -liberty L;
/// opt_clean; stat -liberty L`) and `area_um2` is Yosys's "Chip area" figure
/// ([`AreaKind::Liberty`]). Without one, `area_um2` is the library-free
/// [`AreaKind::Estimate`] from [`ESTIMATE_AREAS`](crate::ESTIMATE_AREAS).
///
/// Counts come from `stat -json`; the chip area from the text `stat -liberty`
/// output, because Yosys 0.23's `stat -json` omits it. Note that small tables
/// map to flip-flops, not SRAM macros.
///
/// A parse or elaboration error (including a missing module under
/// `hierarchy -check`) is [`EdaError::ToolFailed`] with Yosys's messages.
pub fn synth_yosys(
    verilog: &Path,
    top: &str,
    liberty: Option<&Path>,
) -> Result<SynthReport, EdaError> {
    crate::source::validate_top(top)?;
    require_tool(Tool::Yosys)?;
    let file = input_file(verilog)?;
    let dir = work_dir()?;
    let (liberty_abs, lib_info) = match liberty {
        Some(l) => {
            let (abs, info) = link_liberty(dir.path(), l)?;
            (Some(abs), Some(info))
        }
        None => (None, None),
    };
    let script = yosys_script(top, liberty_abs.as_ref().map(|_| "cells.lib"));
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir.path())
        .args(["-q", "-l", "yosys.log", "-f", "verilog", "-p", &script])
        .arg(&file);
    run_checked(Tool::Yosys, &mut cmd, None)?;
    let log = std::fs::read_to_string(dir.path().join("yosys.log")).unwrap_or_default();

    let proc_stat = parse_stat_json(
        &read_output(dir.path(), "proc.json")?,
        top,
        "Yosys stat after proc",
    )?;
    let generic = parse_stat_json(
        &read_output(dir.path(), "generic.json")?,
        top,
        "Yosys stat after synth",
    )?;
    let mut notes = Vec::new();

    let (final_stat, area_um2, area_kind) = match &lib_info {
        Some(info) => liberty_area(dir.path(), top, info, &mut notes)?,
        None => estimated_area(&generic, &mut notes),
    };

    let lib = lib_info.as_ref();
    let (flip_flops, latches) = storage_bits(&proc_stat, &generic, &final_stat, lib, &mut notes);
    note_unclassified(&final_stat, lib, &mut notes);

    let longest_path = read_output(dir.path(), "ltp.txt")
        .ok()
        .and_then(|t| parse_ltp(&t));
    Ok(SynthReport {
        cells: final_stat.cells,
        longest_path,
        flip_flops,
        latches,
        cell_types: final_stat.by_type,
        generic_cell_types: generic.by_type,
        area_um2,
        area_kind,
        liberty: liberty_abs,
        notes,
        log,
    })
}

/// Reads the Liberty file `liberty` and puts it at `cells.lib` in `dir`;
/// returns its absolute path and its cells.
fn link_liberty(dir: &Path, liberty: &Path) -> Result<(PathBuf, LibertyInfo), EdaError> {
    let abs = input_file(liberty)?;
    let info = LibertyInfo::read(&abs)?;
    link_or_copy(&abs, &dir.join("cells.lib"))
        .map_err(|e| EdaError::io("linking the Liberty file into the work directory", e))?;
    Ok((abs, info))
}

/// The Liberty-mapped netlist's counts and Yosys's chip area
/// ([`AreaKind::Liberty`]), cross-checked against the library's own cell
/// areas; caveats go to `notes`.
fn liberty_area(
    dir: &Path,
    top: &str,
    info: &LibertyInfo,
    notes: &mut Vec<String>,
) -> Result<(Stat, Option<f64>, AreaKind), EdaError> {
    let mapped = parse_stat_json(
        &read_output(dir, "mapped.json")?,
        top,
        "Yosys stat after Liberty mapping",
    )?;
    let text = read_output(dir, "mapped.txt")?;
    let area = parse_chip_area(&text, top);
    let unknown = unknown_area_types(&text);
    if !unknown.is_empty() {
        notes.push(format!(
            "cells without a Liberty area (not mapped to the library): {}; \
             Yosys printed {}",
            unknown.join(", "),
            if area.is_some() {
                "a chip area that excludes them"
            } else {
                "no chip area"
            }
        ));
    }
    if let Some(area) = area {
        // Cross-check Yosys's figure against the library's own areas.
        let sum: f64 = mapped
            .by_type
            .iter()
            .filter_map(|(t, n)| Some(info.cells.get(t)?.area? * *n as f64))
            .sum();
        if (sum - area).abs() > 1e-3 * area.max(1.0) {
            notes.push(format!(
                "Yosys chip area {area} differs from the Liberty cell areas summed \
                 by this crate ({sum:.3})"
            ));
        }
    } else if unknown.is_empty() {
        notes.push("Yosys printed no \"Chip area\" line".to_string());
    }
    Ok((mapped, area, AreaKind::Liberty))
}

/// The generic netlist's counts and its library-free area
/// ([`AreaKind::Estimate`]); caveats go to `notes`.
fn estimated_area(generic: &Stat, notes: &mut Vec<String>) -> (Stat, Option<f64>, AreaKind) {
    let mut area = 0.0;
    let mut unknown = Vec::new();
    for (t, n) in &generic.by_type {
        match estimate_cell_area(t) {
            Some(a) => area += a * *n as f64,
            None => {
                area += ESTIMATE_FALLBACK_AREA_UM2 * *n as f64;
                unknown.push(format!("{t} x{n}"));
            }
        }
    }
    notes.push(
        "area is a library-free ESTIMATE from generic Yosys cell counts and \
         NanGate45-like per-cell areas (eda::ESTIMATE_AREAS), not a mapped area"
            .to_string(),
    );
    if !unknown.is_empty() {
        notes.push(format!(
            "cell types not in the estimate table, counted at {ESTIMATE_FALLBACK_AREA_UM2} µm² each: {}",
            unknown.join(", ")
        ));
    }
    let stat = Stat {
        cells: generic.cells,
        by_type: generic.by_type.clone(),
    };
    (stat, Some(area), AreaKind::Estimate)
}

/// Flip-flop and latch bits of the final netlist (latches: also those
/// `proc` inferred), noting counts that changed between the stages.
fn storage_bits(
    proc_stat: &Stat,
    generic: &Stat,
    final_stat: &Stat,
    lib: Option<&LibertyInfo>,
    notes: &mut Vec<String>,
) -> (u64, u64) {
    let flip_flops = count_kind(&final_stat.by_type, CellKind::FlipFlop, lib);
    let generic_ffs = count_kind(&generic.by_type, CellKind::FlipFlop, None);
    if flip_flops != generic_ffs {
        notes.push(format!(
            "flip-flop count changed in Liberty mapping: {generic_ffs} generic, {flip_flops} mapped"
        ));
    }
    let proc_latches = count_kind(&proc_stat.by_type, CellKind::Latch, None);
    let synth_latches = count_kind(&generic.by_type, CellKind::Latch, None).max(count_kind(
        &final_stat.by_type,
        CellKind::Latch,
        lib,
    ));
    if proc_latches > 0 && synth_latches == 0 {
        notes.push(format!(
            "proc inferred {proc_latches} latch cell(s) that synthesis later removed"
        ));
    }
    (flip_flops, synth_latches.max(proc_latches))
}

/// Notes the final netlist's cell types that are neither Yosys internal
/// cells nor cells of the Liberty file.
fn note_unclassified(final_stat: &Stat, lib: Option<&LibertyInfo>, notes: &mut Vec<String>) {
    let unclassified: Vec<&str> = final_stat
        .by_type
        .keys()
        .filter(|t| {
            lib.and_then(|l| l.kind(t))
                .or_else(|| classify_generic_cell(t))
                .is_none()
        })
        .map(String::as_str)
        .collect();
    if !unclassified.is_empty() {
        notes.push(format!(
            "cell types neither Yosys internal nor in the Liberty file (not counted as \
             flip-flops or latches): {}",
            unclassified.join(", ")
        ));
    }
}

#[cfg(test)]
mod ltp_tests {
    #[test]
    fn longest_path_is_read_with_its_ends() {
        // Yosys 0.23's output for `q <= (a & b) | c`.
        let text = "\n3. Executing LTP pass (find longest path).\n\n\
            Longest topological path in t (length=2):\n\
            \x20   0: \\b\n\
            \x20   1: $abc$85$new_n5_ (via $abc$85$auto$blifparse.cc:386:parse_blif$86)\n\
            \x20   2: $0\\q[0:0] (via $abc$85$auto$blifparse.cc:386:parse_blif$87)\n\
            \x20  ff: \\q (via $auto$ff.cc:266:slice$82)\n";
        let p = super::parse_ltp(text).unwrap();
        assert_eq!(p.gates, 2);
        assert_eq!(p.from, "b");
        assert_eq!(p.to, "q");
        assert_eq!(super::parse_ltp("no path here"), None);
    }
}

#[cfg(test)]
mod sanitize_tests {
    #[test]
    fn hierarchy_text_lines_are_dropped() {
        let bad = "{\n  \"a\": {\n  },\n       sub__x           24\n  \"b\": 1\n}\n";
        let good = super::sanitize_stat_json(bad);
        assert!(!good.contains("sub__x"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT_JSON: &str = r#"{
   "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
   "invocation": "stat -json ",
   "modules": {
      "\\counter": {
         "num_wires":         7,
         "num_cells":         10,
         "num_cells_by_type": {
            "$_AND_": 2,
            "$_NOT_": 1,
            "$_SDFF_PP0_": 4,
            "$_XOR_": 3
         }
      }
   },
      "design": {
         "num_cells":         10
      }
}"#;

    #[test]
    fn stat_json() {
        let s = parse_stat_json(STAT_JSON, "counter", "t").unwrap();
        assert_eq!(s.cells, 10);
        assert_eq!(s.by_type["$_SDFF_PP0_"], 4);
        assert_eq!(count_kind(&s.by_type, CellKind::FlipFlop, None), 4);
        assert!(parse_stat_json(STAT_JSON, "other", "t").is_err());
        assert!(parse_stat_json("{", "counter", "t").is_err());
    }

    #[test]
    fn chip_area_text() {
        let text = "   Number of cells:                 13\n     DFF_X1   4\n\n   Chip area for module '\\counter': 27.664000\n";
        assert_eq!(parse_chip_area(text, "counter"), Some(27.664));
        let text = "   Area for cell type $_DLATCH_P_ is unknown!\n";
        assert_eq!(parse_chip_area(text, "x"), None);
        assert_eq!(unknown_area_types(text), vec!["$_DLATCH_P_".to_string()]);
    }
}
