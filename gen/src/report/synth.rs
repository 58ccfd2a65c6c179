//! Yosys synthesis of a unit's Verilog, summarised and cached by content.

use eda::{AreaKind, SynthReport};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::output::write_atomic;

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
    write_atomic(&file, &serde_json::to_string_pretty(&s)?)?;
    Ok(s)
}
