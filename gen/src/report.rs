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
    /// Memories as SRAM macros and as flip-flops (`warpgen report`;
    /// [`add_memories`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memories: Option<MemoriesReport>,
    /// Static timing of the mapped netlist (`warpgen report`; [`add_timing`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<TimingSection>,
}

/// The static timing of a unit, with the papers' clock and latency claims
/// beside it.
#[derive(Clone, Debug, Serialize)]
pub struct TimingSection {
    /// OpenSTA's result.
    pub report: eda::TimingReport,
    /// For `ba_tag_array`: the same array with `BA_ENABLE = 0` (a plain LRU
    /// tag array), area and timing, for BA's overhead.
    pub baseline: Option<BaselineDelta>,
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

/// OpenSTA timing of `verilog` (top `top`) on the NanGate45 Liberty, mapped
/// with ABC's delay target and buffering at the CAPS paper's clock
/// ([`PAPER_CLOCK_MHZ`]), cached by content hash like [`synth_cached`].
pub fn timing_cached(verilog: &str, top: &str) -> anyhow::Result<eda::TimingReport> {
    let liberty = eda::find_liberty(&std::env::current_dir()?).ok_or_else(|| {
        anyhow::anyhow!(
            "static timing needs the NanGate45 Liberty (../shared/pdk/nangate45/nangate45_typ.lib \
             or ${})",
            eda::LIBERTY_ENV
        )
    })?;
    let mut opts = eda::TimingOptions::new("clock");
    opts.period_ns = 1000.0 / PAPER_CLOCK_MHZ;
    opts.abc_buffering = true;
    let mut h = Sha256::new();
    h.update(b"timing v1\0");
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
    crate::units::write_atomic(&file, &serde_json::to_string_pretty(&t)?)?;
    Ok(t)
}

/// Adds static timing to `r` (the unit's `verilog`); for `ba_tag_array`
/// also the `BA_ENABLE = 0` array's area and timing (`baseline_verilog`).
/// Skipped, with the reason in `synth_skipped`'s place, when Yosys or
/// OpenSTA is missing.
pub fn add_timing(
    r: &mut UnitReport,
    verilog: &str,
    baseline_verilog: Option<(&str, String)>,
) -> anyhow::Result<()> {
    if !eda::tool_available(Tool::Yosys) || !eda::tool_available(Tool::OpenSta) {
        return Ok(());
    }
    let report = timing_cached(verilog, &r.unit)?;
    let baseline = match baseline_verilog {
        Some((what, v)) => Some(BaselineDelta {
            what: what.to_string(),
            area_um2: synth_cached(&v, &r.unit)?.area_um2,
            timing: timing_cached(&v, &r.unit)?,
        }),
        None => None,
    };
    r.timing = Some(TimingSection { report, baseline });
    Ok(())
}

/// The papers' latency claims, per unit: (claim, cycles the specification
/// allows).
fn latency_claim(unit: &str) -> Option<(&'static str, u32)> {
    match unit {
        "caps_prefetcher" => Some((
            "CAPS (spec caps.md): a prefetch appears on pf_* no later than 3 cycles after its load",
            3,
        )),
        "snake_prefetcher" => Some((
            "Snake (paper 5.4, spec snake.md): \"The latency of Snake is two cycles\" (first prefetch \
             2 cycles after the load)",
            2,
        )),
        _ => None,
    }
}

/// Text of the timing section.
pub fn render_timing_text(t: &TimingSection, area_um2: Option<f64>) -> String {
    let mut s = String::new();
    let w = &t.report.worst;
    let _ = writeln!(
        s,
        "\nstatic timing (OpenSTA, NanGate45 typical, ABC mapped with buffering for {:.3} ns; \
         ports registered outside):",
        t.report.period_ns
    );
    let path = |p: &eda::TimingPath| {
        format!(
            "{} -> {}: {:.3} ns + setup {:.3} ns, {} logic levels; min period {:.3} ns = {}",
            p.start.display_name(),
            p.end.display_name(),
            p.delay_ns,
            p.setup_ns,
            p.levels,
            p.min_period_ns,
            p.fmax_mhz
                .map_or("-".to_string(), |f| format!("{f:.0} MHz"))
        )
    };
    let _ = writeln!(s, "  worst path         {}", path(w));
    if let Some(r2r) = &t.report.reg_to_reg {
        let _ = writeln!(s, "  worst reg-to-reg   {}", path(r2r));
    }
    if let Some(f) = t.report.fmax_mhz() {
        let verdict = if f >= PAPER_CLOCK_MHZ {
            "meets".to_string()
        } else {
            format!(
                "misses by {:.3} ns: a 1.4 GHz part would pipeline it into {} stages",
                w.min_period_ns - 1000.0 / PAPER_CLOCK_MHZ,
                (w.min_period_ns / (1000.0 / PAPER_CLOCK_MHZ)).ceil()
            )
        };
        let _ = writeln!(
            s,
            "  fmax               {f:.0} MHz; the CAPS configuration's 1400 MHz: {verdict}"
        );
        if let Some((claim, cycles)) = latency_claim(&t.report.top) {
            let _ = writeln!(
                s,
                "  latency claim      {claim}: {cycles} cycles = {:.2} ns at 1.4 GHz, {:.2} ns at our fmax",
                f64::from(cycles) * 1000.0 / PAPER_CLOCK_MHZ,
                f64::from(cycles) * 1000.0 / f
            );
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
        memories: None,
        timing: None,
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

/// [`add_timing`] for unit `u` under `cfg`: its Verilog, and for the BA tag
/// array the same configuration with `BA_ENABLE = 0` as the baseline.
pub fn add_unit_timing(
    r: &mut UnitReport,
    u: &dyn crate::units::UnitEntry,
    cfg: &ports::ConfigFile,
) -> anyhow::Result<()> {
    let v = u.emit(cfg)?;
    let baseline = if u.name() == "ba_tag_array" {
        let mut text = format!("[{}]\n", u.name());
        for (k, val) in &r.params {
            let val = if k == "BA_ENABLE" { 0 } else { *val };
            text.push_str(&format!("{k} = {val}\n"));
        }
        let base_cfg = ports::ConfigFile::parse(&text, None)
            .map_err(|e| anyhow::anyhow!("the BA_ENABLE = 0 baseline: {e}"))?;
        Some((
            "the same array with BA_ENABLE = 0 (LRU only)",
            u.emit(&base_cfg)?,
        ))
    } else {
        None
    };
    add_timing(r, &v, baseline)
}

/// Path of a unit's checked-in Verilog.
pub fn verilog_out_path(root: &Path, unit: &str) -> PathBuf {
    root.join("verilog-out").join(format!("{unit}.v"))
}

// ---------------------------------------------------------------------------
// `warpgen report --memories sram|ff`: memories as SRAM macros.
// ---------------------------------------------------------------------------

use eda::memories::{self as mems, FitError, MacroCost, MemoryModule, SramFit, FAKERAM45};

/// Which memory view `warpgen report --memories` prints (both without it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum MemoriesView {
    /// Memories that may be SRAM macros costed as fakeram45 macros.
    Sram,
    /// Every memory in flip-flops (the synthesized design as it is).
    Ff,
}

/// The storage table a memory module belongs to, by its name (the
/// generator names a module after its owner's field path).
const MEMORY_TABLES: &[(&str, &str)] = &[
    ("ba_tag_array__ways__", "line"),
    ("caps_prefetcher__cols__", "PerCTA"),
    // One module type holds the head and tail pointers of both queues.
    ("dac_expander__aq__heads", "PWAQ+PWPQ"),
    ("dac_expander__aq__", "PWAQ"),
    ("dac_expander__pq__", "PWPQ"),
    ("snake_prefetcher__head__", "Head"),
];

/// Tables the papers cost as SRAM (or that a reader would expect to be
/// SRAM) that the RTL does not emit as a memory module, with the reason
/// they stay in flip-flops.
const NON_MEMORY_TABLES: &[(&str, &str, &str)] = &[
    (
        "snake_prefetcher",
        "Tail",
        "a CAM: every entry's pc pair is compared each cycle (hdl/src/snake/entry.rs); \
         registers, not a memory module; stays flip-flops",
    ),
    (
        "dac_expander",
        "ATQ",
        "four hdl::queue::ShiftQueue lanes: a shift register (a pop moves every \
         entry, registers with reset), not a memory module; stays flip-flops",
    ),
    (
        "caps_prefetcher",
        "DIST",
        "looked up by pc (load and generator) in every entry at once (registers, \
         hdl/src/caps/dist.rs); stays flip-flops",
    ),
    (
        "ba_tag_array",
        "line",
        "valid bits: one register with reset per way (hdl/src/ba/mod.rs); the \
         other line fields are the memories above",
    ),
];

/// The papers' own area figures, by unit: (unit, per-SM area in mm² if
/// the paper gives one, quote).
const PAPER_AREA_QUOTES: &[(&str, Option<f64>, &str)] = &[
    (
        "caps_prefetcher",
        Some(0.018),
        "CAPS paper: 0.018 mm^2 (CACTI, 45 nm FreePDK, PerCTA as SRAM) = 0.08 % of one \
         GF100 SM (22 mm^2)",
    ),
    (
        "snake_prefetcher",
        None,
        "Snake paper: tables in CACTI 7 at 22 nm scaled to 12 nm; all SMs < 1 % of the \
         V100 die (815 mm^2); no per-SM figure",
    ),
    (
        "dac_expander",
        Some(0.21),
        "DAC paper: SRAM components 0.21 mm^2 per SM (CACTI) + 2 ALUs 0.16 mm^2; \
         1.06 % of the GTX 480 die (520 mm^2)",
    ),
    (
        "ba_tag_array",
        None,
        "BA thesis: 2 extra bits per line (256 bits at 16 KB); no area figure",
    ),
];

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

fn table_of(module: &str) -> String {
    MEMORY_TABLES
        .iter()
        .find(|(p, _)| module.starts_with(p))
        .map_or("?".to_string(), |(_, t)| (*t).to_string())
}

/// Costs the memories of `verilog` (top `unit`): the inventory, each
/// memory's flip-flop area alone and its macro, and, with `synth`, the
/// design synthesized with the macro memories as blackboxes. `ff_total`
/// is the unit's synthesized area (all flip-flops).
pub fn memories_report(
    verilog: &str,
    unit: &str,
    storage: &StorageReport,
    ff_total: Option<f64>,
    synth: bool,
    view: Option<MemoriesView>,
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
            table: table_of(&m.module),
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
        other_tables: NON_MEMORY_TABLES
            .iter()
            .filter(|(u, _, _)| *u == unit)
            .map(|(_, t, w)| ((*t).to_string(), (*w).to_string()))
            .collect(),
        ff_total_um2: ff_total,
        sram_logic_um2: sram_logic,
        sram_macros_um2: sram_macros,
        sram_total_um2: sram_logic.map(|l| l + sram_macros),
        l1: l1_reference(),
        paper: PAPER_AREA_QUOTES
            .iter()
            .find(|(u, _, _)| *u == unit)
            .map(|(_, _, q)| (*q).to_string()),
        paper_area_mm2: storage.paper_area.as_ref().map(|(a, _)| *a).or_else(|| {
            PAPER_AREA_QUOTES
                .iter()
                .find(|(u, _, _)| *u == unit)
                .and_then(|(_, a, _)| *a)
        }),
        fit_rms: mems::rms(&errors, |e| e.rel_error),
        fit_loo_rms: mems::rms(&errors, |e| e.loo_rel_error),
        notes: MEMORY_NOTES.iter().map(|n| (*n).to_string()).collect(),
    })
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
        verilog, &r.unit, &r.storage, ff_total, synth, view,
    )?);
    Ok(())
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
