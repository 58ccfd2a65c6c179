//! `warpgen report --memories sram|ff`: a unit's memories costed as
//! fakeram45 SRAM macros and as flip-flops, against the SM's L1.

use std::fmt::Write as _;

use eda::memories::{self as mems, FitError, MacroCost, MemoryModule, SramFit, FAKERAM45};
use hdl::storage::StorageReport;
use serde::Serialize;

use crate::report::facts::UnitFacts;
use crate::report::synth::synth_cached;

/// Which memory view `warpgen report --memories` prints (both without it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum MemoriesView {
    /// Memories that may be SRAM macros costed as fakeram45 macros.
    Sram,
    /// Every memory in flip-flops (the synthesized design as it is).
    Ff,
}

/// One memory module of a unit, costed both ways.
#[derive(Clone, Debug, Serialize)]
pub struct MemoryRow {
    /// The storage table it holds (or `?`).
    pub table: String,
    /// The memory as found in the Verilog (module, size, ports, taps,
    /// instance count).
    pub memory: MemoryModule,
    /// Flip-flop area of one instance (the module synthesized alone), µm².
    pub ff_each_um2: Option<f64>,
    /// Macro cost of one instance, unless it can never be a macro.
    pub macro_cost: Option<MacroCost>,
    /// Whether it is a macro in the SRAM view.
    pub sram: bool,
    /// Why (or why not).
    pub reason: String,
}

/// The SM's L1 as the reference for overheads: a 16 KB data array of
/// fakeram45 macros plus its tags as a macro.
#[derive(Clone, Debug, Serialize)]
pub struct L1Reference {
    /// What the data array is.
    pub data: String,
    /// Its area, µm².
    pub data_um2: f64,
    /// What the tag array is.
    pub tags: String,
    /// Its area, µm².
    pub tags_um2: f64,
}

impl L1Reference {
    /// Data plus tags, µm².
    pub fn total_um2(&self) -> f64 {
        self.data_um2 + self.tags_um2
    }
}

/// The L1 of `sm_harness.md` (16 KB, 128 B lines, 4-way): data as 4 ×
/// `fakeram45_512x64` (4 × 512 × 64 bits = 16 KB, one macro per way);
/// tags as one `fakeram45_64x96` read a set at a time: 32 sets × 4 ways ×
/// 23 bits (20-bit tag of a 32-bit address, valid, 2-bit LRU rank) = 32
/// words of 92 bits in a real 64 × 96 macro (the nearest real macro that
/// holds it; half its words unused), so neither part uses the fit.
pub fn l1_reference() -> L1Reference {
    let area = |n: &str| {
        FAKERAM45
            .iter()
            .find(|m| m.name == n)
            .map_or(0.0, |m| m.area_um2())
    };
    L1Reference {
        data: "16 KB data: 4 x fakeram45_512x64 (one per way)".into(),
        data_um2: 4.0 * area("fakeram45_512x64"),
        tags: "tags: 32 sets x 4 ways x 23 bits (tag 20, valid, LRU 2) in 1 x \
               fakeram45_64x96 (32 of 64 words, 92 of 96 bits used)"
            .into(),
        tags_um2: area("fakeram45_64x96"),
    }
}

/// A unit's memories, and its area with them in flip-flops and as macros.
#[derive(Clone, Debug, Serialize)]
pub struct MemoriesReport {
    /// The view asked for (`None`: both).
    pub view: Option<MemoriesView>,
    /// Every memory module, costed.
    pub memories: Vec<MemoryRow>,
    /// Paper tables that are not memory modules: (table, why flip-flops).
    pub other_tables: Vec<(String, String)>,
    /// Area with every memory in flip-flops (the synthesized unit), µm².
    pub ff_total_um2: Option<f64>,
    /// Area of the unit with the macro memories as blackboxes, µm².
    pub sram_logic_um2: Option<f64>,
    /// Sum of the macros (instances × copies × area), µm².
    pub sram_macros_um2: f64,
    /// `sram_logic_um2 + sram_macros_um2`.
    pub sram_total_um2: Option<f64>,
    /// The L1 the percentages are of.
    pub l1: L1Reference,
    /// The paper's area figure for the unit.
    pub paper: Option<String>,
    /// The paper's area per SM (mm²): the storage table's, else the
    /// paper's quoted figure (DAC: its SRAM components only).
    pub paper_area_mm2: Option<f64>,
    /// RMS relative error of the fit over the macros (in the fit).
    pub fit_rms: f64,
    /// RMS leave-one-out relative error of the fit.
    pub fit_loo_rms: f64,
    /// Caveats of the costing.
    pub notes: Vec<String>,
}

/// Caveats printed with every memory report.
pub const MEMORY_NOTES: &[&str] = &[
    "fakeram45 macros are single-port (1RW) with a synchronous read; our memories read \
     combinationally and write on another port in the same cycle. A memory is costed as \
     one single-port macro of its size per read port (copies written together); a true \
     two-port 1R1W macro would be larger, and using any macro moves each read a cycle \
     earlier (the RTL is not changed for that)",
    "memories shallower than 32 words are costed as 32-word macros (no smaller fakeram45 \
     exists; the fit is not extrapolated below the set)",
    "a memory stays in flip-flops when its macro(s) would be larger than its flip-flop \
     implementation (the module synthesized alone), or when it has taps (every entry read \
     in parallel: a CAM or register file)",
];

/// Costs the memories of `verilog` (top `unit`, its paper figures
/// `facts`): the inventory, each memory's flip-flop area alone and its
/// macro, and, with `synth`, the design synthesized with the macro memories
/// as blackboxes. `ff_total` is the unit's synthesized area (all
/// flip-flops).
pub fn memories_report(
    verilog: &str,
    unit: &str,
    storage: &StorageReport,
    ff_total: Option<f64>,
    synth: bool,
    view: Option<MemoriesView>,
    facts: &UnitFacts,
) -> anyhow::Result<MemoriesReport> {
    let errors = SramFit::errors(FAKERAM45);
    let mut rows = Vec::new();
    for m in mems::inventory(verilog, unit) {
        let ff_each = if synth {
            let text = mems::module_text(verilog, &m.module)
                .ok_or_else(|| anyhow::anyhow!("module {} not found", m.module))?;
            synth_cached(&text, &m.module)?.area_um2
        } else {
            None
        };
        let structural = m.structural_reason_not_sram();
        let cost = structural
            .is_none()
            .then(|| mems::macro_cost(m.words, m.bits, m.read_ports));
        let (sram, reason) = match (structural, &cost, ff_each) {
            (Some(why), _, _) => (false, why.to_string()),
            (None, Some(c), Some(ff)) if c.area_um2() < ff => (
                true,
                format!("macro {:.0} < flip-flops {:.0} um^2", c.area_um2(), ff),
            ),
            (None, Some(c), Some(ff)) => (
                false,
                format!(
                    "macro {:.0} >= flip-flops {:.0} um^2: a macro would be larger",
                    c.area_um2(),
                    ff
                ),
            ),
            _ => (
                true,
                "no taps (areas not compared: synthesis skipped)".to_string(),
            ),
        };
        rows.push(MemoryRow {
            table: facts.table_of(unit, &m.module),
            memory: m,
            ff_each_um2: ff_each,
            macro_cost: cost,
            sram,
            reason,
        });
    }
    let sram_macros: f64 = rows
        .iter()
        .filter(|r| r.sram)
        .filter_map(|r| Some(r.macro_cost.as_ref()?.area_um2() * r.memory.instances as f64))
        .sum();
    let sram_logic = if synth {
        let names: Vec<&str> = rows
            .iter()
            .filter(|r| r.sram)
            .map(|r| r.memory.module.as_str())
            .collect();
        if names.is_empty() {
            ff_total
        } else {
            synth_cached(&mems::blackbox_modules(verilog, &names), unit)?.area_um2
        }
    } else {
        None
    };
    Ok(MemoriesReport {
        view,
        memories: rows,
        other_tables: facts
            .flip_flop_tables
            .iter()
            .map(|(t, w)| ((*t).to_string(), (*w).to_string()))
            .collect(),
        ff_total_um2: ff_total,
        sram_logic_um2: sram_logic,
        sram_macros_um2: sram_macros,
        sram_total_um2: sram_logic.map(|l| l + sram_macros),
        l1: l1_reference(),
        paper: facts.paper_area.map(|a| a.quote.to_string()),
        paper_area_mm2: storage
            .paper_area
            .as_ref()
            .map(|(a, _)| *a)
            .or_else(|| facts.paper_area.and_then(|a| a.mm2_per_sm)),
        fit_rms: mems::rms(&errors, |e| e.rel_error),
        fit_loo_rms: mems::rms(&errors, |e| e.loo_rel_error),
        notes: MEMORY_NOTES.iter().map(|n| (*n).to_string()).collect(),
    })
}

fn fmt_um2(a: Option<f64>) -> String {
    a.map_or("-".to_string(), |a| format!("{a:.0}"))
}

fn pct(a: Option<f64>, of: f64) -> String {
    a.map_or("-".to_string(), |a| format!("{:.1} %", 100.0 * a / of))
}

/// Text rendering of a memory report.
pub fn render_memories_text(m: &MemoriesReport) -> String {
    let mut s = String::new();
    let show_ff = m.view != Some(MemoriesView::Sram);
    let show_sram = m.view != Some(MemoriesView::Ff);
    let _ = writeln!(s, "\nmemories (fakeram45 SRAM macros vs flip-flops):");
    let mw = m
        .memories
        .iter()
        .map(|r| r.memory.module.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let tw = m
        .memories
        .iter()
        .map(|r| r.table.len())
        .chain(m.other_tables.iter().map(|(t, _)| t.len()))
        .max()
        .unwrap_or(0)
        .max(5);
    let _ = writeln!(
        s,
        "  {:<tw$} {:<mw$} {:>9} {:>5} {:>4} {:>4} {:>10} {:>10}  {:<5} {:<32} why",
        "table",
        "module",
        "words x b",
        "ports",
        "taps",
        "inst",
        "ff each",
        "macro each",
        "sram",
        "macro"
    );
    for r in &m.memories {
        let me = &r.memory;
        let _ = writeln!(
            s,
            "  {:<tw$} {:<mw$} {:>9} {:>5} {:>4} {:>4} {:>10} {:>10}  {:<5} {:<32} {}",
            r.table,
            me.module,
            format!("{}x{}", me.words, me.bits),
            format!("{}R{}W", me.read_ports, me.write_ports),
            if me.taps { "yes" } else { "no" },
            me.instances,
            fmt_um2(r.ff_each_um2),
            fmt_um2(r.macro_cost.as_ref().map(|c| c.area_um2())),
            if r.sram { "yes" } else { "no" },
            r.macro_cost.as_ref().map_or("-".to_string(), |c| c.label()),
            r.reason
        );
        let _ = writeln!(
            s,
            "  {:<tw$} {:<mw$}   instances: {}{}",
            "",
            "",
            me.example_paths.join(", "),
            if me.instances > me.example_paths.len() as u64 {
                ", ..."
            } else {
                ""
            }
        );
    }
    if m.memories.is_empty() {
        let _ = writeln!(s, "  (no memory modules)");
    }
    for (t, why) in &m.other_tables {
        let _ = writeln!(s, "  {t:<tw$} (not a memory module) flip-flops: {why}");
    }
    let l1 = m.l1.total_um2();
    if show_ff {
        let _ = writeln!(
            s,
            "  FF total    {:>9} um^2  ({} of the L1)  every memory in flip-flops",
            fmt_um2(m.ff_total_um2),
            pct(m.ff_total_um2, l1)
        );
    }
    if show_sram {
        let _ = writeln!(
            s,
            "  SRAM total  {:>9} um^2  ({} of the L1)  = logic {} (macro memories \
             blackboxed) + macros {:.0}",
            fmt_um2(m.sram_total_um2),
            pct(m.sram_total_um2, l1),
            fmt_um2(m.sram_logic_um2),
            m.sram_macros_um2
        );
    }
    let _ = writeln!(
        s,
        "  L1 reference {:.0} um^2 = {} ({:.0}) + {} ({:.0})",
        l1, m.l1.data, m.l1.data_um2, m.l1.tags, m.l1.tags_um2
    );
    if let Some(p) = &m.paper {
        let _ = writeln!(s, "  paper: {p}");
    }
    if let Some(a) = m.paper_area_mm2 {
        let _ = writeln!(
            s,
            "  paper area {a} mm^2 = {:.1} % of this L1; ours / paper: FF {}, SRAM {}",
            100.0 * a * 1e6 / l1,
            m.ff_total_um2
                .map_or("-".into(), |f| format!("{:.2}", f / 1e6 / a)),
            m.sram_total_um2
                .map_or("-".into(), |f| format!("{:.2}", f / 1e6 / a)),
        );
    }
    let _ = writeln!(
        s,
        "  fit of the fakeram45 areas: rms error {:.0} %, leave-one-out {:.0} % \
         (`warpgen report` prints the table at the end)",
        100.0 * m.fit_rms,
        100.0 * m.fit_loo_rms
    );
    for n in &m.notes {
        let _ = writeln!(s, "  note: {n}");
    }
    s
}

/// The fakeram45 table with the fit's error on each macro (printed once
/// after the units' reports).
pub fn render_fit_table() -> String {
    let mut s = String::new();
    let f = SramFit::fakeram45();
    let errors: Vec<FitError> = SramFit::errors(FAKERAM45);
    let _ = writeln!(
        s,
        "\n== fakeram45 macros ({}) ==\nsource: {} @ {}\nlicence: {}",
        FAKERAM45.len(),
        mems::FAKERAM45_SOURCE,
        mems::FAKERAM45_SOURCE_COMMIT,
        mems::FAKERAM45_LICENCE
    );
    let _ = writeln!(
        s,
        "fit (least squares, residuals relative): area = {:.1} + {:.4}*words*bits + \
         {:.2}*bits + {:.3}*words um^2",
        f.coef[0], f.coef[1], f.coef[2], f.coef[3]
    );
    let _ = writeln!(
        s,
        "  {:<20} {:>5} {:>4} {:>8} {:>8} {:>8} {:>7} {:>7}",
        "macro", "words", "bits", "w um", "h um", "area", "fit", "loo"
    );
    for (m, e) in FAKERAM45.iter().zip(&errors) {
        let _ = writeln!(
            s,
            "  {:<20} {:>5} {:>4} {:>8.3} {:>8.3} {:>8.0} {:>+6.1}% {:>+6.1}%",
            m.name,
            m.words,
            m.bits,
            m.width_um,
            m.height_um,
            m.area_um2(),
            100.0 * e.rel_error,
            100.0 * e.loo_rel_error
        );
    }
    let _ = writeln!(
        s,
        "  rms error {:.1} %, leave-one-out rms {:.1} %; the fit is used only for sizes \
         that are not a macro",
        100.0 * mems::rms(&errors, |e| e.rel_error),
        100.0 * mems::rms(&errors, |e| e.loo_rel_error)
    );
    s
}
