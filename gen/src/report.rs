//! `warpgen report`: storage tables, Yosys cell and flip-flop counts, area.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use eda::{AreaKind, SynthReport, Tool, Waiver};
use hdl::storage::StorageReport;
use serde::Serialize;
use sha2::{Digest, Sha256};

use cosim::CosimUnit;

/// Verilator lint categories waived for every unit, each with its reason
/// (`conventions.md`: any waiver is a named category with a reason; WIDTH is
/// never waived). `UNOPTFLAT` is not waived: emission splits combinational
/// blocks ([`hdl::comb_split`]) so no block-level loop remains.
pub const LINT_WAIVERS: &[Waiver] = &[Waiver {
    category: "DECLFILENAME",
    reason: "one file per unit holds the unit and its submodules (conventions.md); \
                 only the top module can match the file name",
}];

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
}

/// The parts of a Yosys report that are printed.
#[derive(Clone, Debug, Serialize, serde::Deserialize, PartialEq)]
pub struct SynthSummary {
    /// Cells after mapping.
    pub cells: u64,
    /// Flip-flop bits.
    pub flip_flops: u64,
    /// Latches (must be 0).
    pub latches: u64,
    /// Area in µm².
    pub area_um2: Option<f64>,
    /// `liberty:<file>` or `estimate`.
    pub area_source: String,
    /// The longest combinational path, in cells (`ltp -noff`).
    pub longest_path: Option<eda::LongestPath>,
    /// Caveats.
    pub notes: Vec<String>,
}

impl From<&SynthReport> for SynthSummary {
    fn from(r: &SynthReport) -> Self {
        SynthSummary {
            cells: r.cells,
            flip_flops: r.flip_flops,
            latches: r.latches,
            area_um2: r.area_um2,
            area_source: match r.area_kind {
                AreaKind::Liberty => format!(
                    "NanGate45 Liberty ({})",
                    r.liberty
                        .as_ref()
                        .and_then(|p| p.file_name())
                        .map(|n| n.to_string_lossy().to_string())
                        .unwrap_or_default()
                ),
                _ => "library-free ESTIMATE (no Liberty file found under ../shared/pdk/)".into(),
            },
            longest_path: r.longest_path.clone(),
            notes: r.notes.clone(),
        }
    }
}

/// Synthesize Verilog text with Yosys, caching the summary by content hash
/// (Verilog, Liberty path and size) in the warpgen cache.
pub fn synth_cached(verilog: &str, top: &str) -> anyhow::Result<SynthSummary> {
    let liberty = eda::find_liberty(&std::env::current_dir()?);
    let mut h = Sha256::new();
    // Bumped when the summary gains a field, so older entries are redone.
    h.update(b"synth-summary v3\0");
    h.update(verilog.as_bytes());
    h.update(top.as_bytes());
    if let Some(l) = &liberty {
        h.update(l.to_string_lossy().as_bytes());
        h.update(
            std::fs::metadata(l)
                .map(|m| m.len())
                .unwrap_or(0)
                .to_le_bytes(),
        );
    }
    let key: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let dir = cosim::verilator::default_cache_dir().join("synth");
    let file = dir.join(format!("{top}-{}.json", &key[..16]));
    if let Ok(text) = std::fs::read_to_string(&file) {
        if let Ok(s) = serde_json::from_str(&text) {
            return Ok(s);
        }
    }
    let tmp = tempfile::tempdir()?;
    let v = tmp.path().join(format!("{top}.v"));
    std::fs::write(&v, verilog)?;
    let r = eda::synth_yosys(&v, top, liberty.as_deref())?;
    let s = SynthSummary::from(&r);
    std::fs::create_dir_all(&dir)?;
    crate::units::write_atomic(&file, &serde_json::to_string_pretty(&s)?)?;
    Ok(s)
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
    })
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
    s
}

/// Path of a unit's checked-in Verilog.
pub fn verilog_out_path(root: &Path, unit: &str) -> PathBuf {
    root.join("verilog-out").join(format!("{unit}.v"))
}
