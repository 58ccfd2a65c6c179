//! A unit's report: the storage table, Yosys's figures, the memories and
//! the static timing, as one [`UnitReport`] rendered as text.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cosim::CosimUnit;
use eda::Tool;
use hdl::storage::StorageReport;
use serde::Serialize;

use crate::report::facts::UnitFacts;
use crate::report::memories::{
    memories_report, render_memories_text, MemoriesReport, MemoriesView,
};
use crate::report::synth::{synth_cached, SynthSummary};
use crate::report::timing::{render_timing_text, timing_section, ClockTarget, TimingSection};

/// Synthesis figures of a unit, with the storage table.
#[derive(Clone, Debug, Serialize)]
pub struct UnitReport {
    /// Unit name.
    pub unit: String,
    /// Parameters.
    pub params: Vec<(String, u64)>,
    /// Storage table.
    pub storage: StorageReport,
    /// Yosys result, if Yosys ran.
    pub synth: Option<SynthSummary>,
    /// Why there is no synthesis result.
    pub synth_skipped: Option<String>,
    /// Memories as SRAM macros and as flip-flops (`warpgen report`;
    /// [`add_memories`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memories: Option<MemoriesReport>,
    /// Static timing of the mapped netlist (`warpgen report`; [`add_timing`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<TimingSection>,
    /// The paper figures the text prints beside the measurements (from
    /// the unit's declaration; not serialized).
    #[serde(skip)]
    pub facts: UnitFacts,
}

/// Build the report of `U` for `p`.
pub fn unit_report<U: CosimUnit>(p: &U::Params, synth: bool) -> anyhow::Result<UnitReport> {
    use ports::Params;
    let storage = U::storage(p);
    let (synth, skipped) = if !synth {
        (None, Some("not requested".to_string()))
    } else if !eda::tool_available(Tool::Yosys) {
        (
            None,
            Some("yosys is not installed (apt-get install yosys)".to_string()),
        )
    } else {
        let v = cosim::emit_verilog::<U>(p)?;
        (Some(synth_cached(&v, U::NAME)?), None)
    };
    Ok(UnitReport {
        unit: U::NAME.into(),
        params: p.list().into_iter().map(|(k, v)| (k.into(), v)).collect(),
        storage,
        synth,
        synth_skipped: skipped,
        memories: None,
        timing: None,
        facts: UnitFacts::of::<U>(),
    })
}

/// Adds static timing to `r` (the unit's `verilog`) and, with
/// `baseline_verilog` (what it is, its Verilog), the baseline variant's
/// area and timing, at `target`'s clock. Skipped when Yosys or OpenSTA is
/// missing.
pub fn add_timing(
    r: &mut UnitReport,
    verilog: &str,
    baseline_verilog: Option<(&str, String)>,
    target: &ClockTarget,
) -> anyhow::Result<()> {
    if let Some(t) = timing_section(
        verilog,
        &r.unit,
        baseline_verilog,
        r.facts.latency_claim,
        r.facts.latencies,
        target,
    )? {
        r.timing = Some(t);
    }
    Ok(())
}

/// [`add_timing`] for unit `U` with parameters `p`: its Verilog, and the
/// variant it declares as its baseline (`cosim::CosimUnit::timing_baseline`).
pub fn add_unit_timing<U: CosimUnit>(
    r: &mut UnitReport,
    p: &U::Params,
    target: &ClockTarget,
) -> anyhow::Result<()> {
    let v = cosim::emit_verilog::<U>(p)?;
    let baseline = match U::timing_baseline(p) {
        Some((what, b)) => Some((what, cosim::emit_verilog::<U>(&b)?)),
        None => None,
    };
    add_timing(r, &v, baseline, target)
}

/// Adds the memory report to `r` (from the unit's Verilog).
pub fn add_memories(
    r: &mut UnitReport,
    verilog: &str,
    synth: bool,
    view: Option<MemoriesView>,
) -> anyhow::Result<()> {
    let ff_total = r.synth.as_ref().and_then(|s| s.area_um2);
    let synth = synth && r.synth.is_some();
    r.memories = Some(memories_report(
        verilog, &r.unit, &r.storage, ff_total, synth, view, &r.facts,
    )?);
    Ok(())
}

/// Text rendering of a report.
pub fn render_text(r: &UnitReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "== {} ==", r.unit);
    let params: Vec<String> = r.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(s, "parameters: {}", params.join(" "));
    let _ = writeln!(s, "\nstorage (flip-flops):");
    let tw = r
        .storage
        .fields
        .iter()
        .map(|f| f.table.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let fw = r
        .storage
        .fields
        .iter()
        .map(|f| f.field.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let _ = writeln!(
        s,
        "  {:<tw$} {:<fw$} {:>6} {:>7} {:>9}  {:<8} note",
        "table", "field", "bits", "count", "total", "in paper"
    );
    for f in &r.storage.fields {
        let _ = writeln!(
            s,
            "  {:<tw$} {:<fw$} {:>6} {:>7} {:>9}  {:<8} {}",
            f.table,
            f.field,
            f.bits,
            f.count,
            f.total(),
            if f.in_paper { "yes" } else { "no" },
            f.note
        );
    }
    let _ = writeln!(
        s,
        "  total {} bits ({:.1} B); paper fields {} bits; paper figure {} bits",
        r.storage.total_bits(),
        r.storage.total_bits() as f64 / 8.0,
        r.storage.paper_field_bits(),
        r.storage.paper_bits
    );
    let _ = writeln!(s, "  paper: {}", r.storage.paper_note);
    // Each table's share of the bits, in the order the tables appear.
    let total = r.storage.total_bits().max(1);
    let mut tables: Vec<(&str, u64)> = Vec::new();
    for f in &r.storage.fields {
        match tables.iter_mut().find(|(t, _)| *t == f.table) {
            Some((_, b)) => *b += f.total(),
            None => tables.push((&f.table, f.total())),
        }
    }
    let shares: Vec<String> = tables
        .iter()
        .map(|(t, b)| format!("{t} {b} ({:.1} %)", 100.0 * *b as f64 / total as f64))
        .collect();
    let _ = writeln!(s, "  share by table: {}", shares.join(", "));
    match (&r.synth, &r.synth_skipped) {
        (Some(y), _) => {
            let _ = writeln!(s, "\nsynthesis (Yosys, flattened):");
            let _ = writeln!(s, "  cells       {}", y.cells);
            let _ = writeln!(s, "  flip-flops  {}", y.flip_flops);
            let _ = writeln!(s, "  latches     {}", y.latches);
            if let Some(lp) = &y.longest_path {
                let _ = writeln!(
                    s,
                    "  longest path {} gates, {} -> {} (combinational, flip-flop to \
                     flip-flop or port)",
                    lp.gates, lp.from, lp.to
                );
            }
            match y.area_um2 {
                Some(a) => {
                    let _ = writeln!(
                        s,
                        "  area        {:.1} um^2 = {:.5} mm^2 [{}]",
                        a,
                        a / 1e6,
                        y.area_source
                    );
                }
                None => {
                    let _ = writeln!(s, "  area        unknown [{}]", y.area_source);
                }
            }
            let _ = writeln!(
                s,
                "  note: tables are mapped to flip-flops and gates, not SRAM macros"
            );
            if let (Some((mm2, how)), Some(a)) = (&r.storage.paper_area, y.area_um2) {
                let _ = writeln!(
                    s,
                    "  paper area  {mm2} mm^2; ours / paper = {:.2} ({how})",
                    a / 1e6 / mm2
                );
            }
            for n in &y.notes {
                let _ = writeln!(s, "  note: {n}");
            }
        }
        (None, Some(why)) => {
            let _ = writeln!(s, "\nsynthesis: skipped ({why})");
        }
        _ => {}
    }
    if let Some(m) = &r.memories {
        s.push_str(&render_memories_text(m));
    }
    if let Some(t) = &r.timing {
        s.push_str(&render_timing_text(
            t,
            r.synth.as_ref().and_then(|y| y.area_um2),
        ));
    }
    s
}

/// Path of a unit's checked-in Verilog.
pub fn verilog_out_path(root: &Path, unit: &str) -> PathBuf {
    root.join("verilog-out").join(format!("{unit}.v"))
}
