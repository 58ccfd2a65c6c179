//! Yosys's generic cells: what each stores, and the per-cell areas of the
//! library-free area estimate.

use serde::{Deserialize, Serialize};

/// What a cell stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CellKind {
    /// No state.
    Combinational,
    /// An edge-triggered flip-flop (one bit).
    FlipFlop,
    /// A level-sensitive latch (one bit), which `conventions.md` forbids.
    Latch,
}

/// One row of the library-free area table [`ESTIMATE_AREAS`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EstimateEntry {
    /// Yosys generic cell type; each `?` matches one polarity character
    /// (`P`, `N`, `0`, `1`), e.g. `$_SDFF_???_` covers `$_SDFF_PP0_`.
    pub pattern: &'static str,
    /// Estimated area in square micrometres.
    pub area_um2: f64,
    /// What the cell stores.
    pub kind: CellKind,
    /// The NanGate45 X1 cells whose areas make up the figure.
    pub basis: &'static str,
}

const fn entry(
    pattern: &'static str,
    area_um2: f64,
    kind: CellKind,
    basis: &'static str,
) -> EstimateEntry {
    EstimateEntry {
        pattern,
        area_um2,
        kind,
        basis,
    }
}

use CellKind::{Combinational as C, FlipFlop as F, Latch as L};

/// Per-cell areas (µm²) for the library-free
/// [`AreaKind::Estimate`](crate::AreaKind::Estimate), taken from the
/// NanGate45 Open Cell Library's X1 cells (INV_X1 0.532, BUF_X1 /
/// NAND2_X1 / NOR2_X1 0.798, AND2_X1 / OR2_X1 / AOI21_X1 / OAI21_X1 1.064,
/// AOI22_X1 / OAI22_X1 1.330, XOR2_X1 / XNOR2_X1 1.596, MUX2_X1 1.862,
/// DFF_X1 4.522, DFFR_X1 / DFFS_X1 5.320, DFFRS_X1 6.384, DLH_X1 2.660,
/// TBUF_X1 2.128).
///
/// Cells without a direct NanGate45 counterpart are a sum of cells (the
/// `basis`): a synchronous-reset flip-flop is DFF_X1 plus an AND2_X1 for the
/// reset gating, an enable flip-flop is DFF_X1 plus a MUX2_X1 for the hold
/// path. Negative-polarity variants cost the same as positive ones.
/// Generic types not in the table count [`ESTIMATE_FALLBACK_AREA_UM2`] each,
/// with a note in the report.
pub const ESTIMATE_AREAS: &[EstimateEntry] = &[
    entry("$_BUF_", 0.798, C, "BUF_X1"),
    entry("$_NOT_", 0.532, C, "INV_X1"),
    entry("$_AND_", 1.064, C, "AND2_X1"),
    entry("$_NAND_", 0.798, C, "NAND2_X1"),
    entry("$_OR_", 1.064, C, "OR2_X1"),
    entry("$_NOR_", 0.798, C, "NOR2_X1"),
    entry("$_XOR_", 1.596, C, "XOR2_X1"),
    entry("$_XNOR_", 1.596, C, "XNOR2_X1"),
    entry("$_ANDNOT_", 1.330, C, "INV_X1 + NOR2_X1"),
    entry("$_ORNOT_", 1.330, C, "INV_X1 + NAND2_X1"),
    entry("$_MUX_", 1.862, C, "MUX2_X1"),
    entry("$_NMUX_", 2.394, C, "MUX2_X1 + INV_X1"),
    entry("$_AOI3_", 1.064, C, "AOI21_X1"),
    entry("$_OAI3_", 1.064, C, "OAI21_X1"),
    entry("$_AOI4_", 1.330, C, "AOI22_X1"),
    entry("$_OAI4_", 1.330, C, "OAI22_X1"),
    entry("$_MUX4_", 5.586, C, "3 x MUX2_X1"),
    entry("$_MUX8_", 13.034, C, "7 x MUX2_X1"),
    entry("$_MUX16_", 27.930, C, "15 x MUX2_X1"),
    entry("$_TBUF_", 2.128, C, "TBUF_X1"),
    entry("$_FF_", 4.522, F, "DFF_X1"),
    entry("$_DFF_?_", 4.522, F, "DFF_X1"),
    entry("$_DFF_???_", 5.320, F, "DFFR_X1 / DFFS_X1"),
    entry("$_DFFE_??_", 6.384, F, "DFF_X1 + MUX2_X1"),
    entry("$_DFFE_????_", 7.182, F, "DFFR_X1 + MUX2_X1"),
    entry("$_SDFF_???_", 5.586, F, "DFF_X1 + AND2_X1"),
    entry("$_SDFFE_????_", 7.448, F, "DFF_X1 + MUX2_X1 + AND2_X1"),
    entry("$_SDFFCE_????_", 7.448, F, "DFF_X1 + MUX2_X1 + AND2_X1"),
    entry("$_DFFSR_???_", 6.384, F, "DFFRS_X1"),
    entry("$_DFFSRE_????_", 8.246, F, "DFFRS_X1 + MUX2_X1"),
    entry("$_ALDFF_??_", 6.384, F, "DFFRS_X1"),
    entry("$_ALDFFE_???_", 8.246, F, "DFFRS_X1 + MUX2_X1"),
    entry("$_DLATCH_?_", 2.660, L, "DLH_X1"),
    entry("$_DLATCH_???_", 3.724, L, "DLH_X1 + AND2_X1"),
    entry("$_DLATCHSR_???_", 4.788, L, "DLH_X1 + 2 x AND2_X1"),
    entry("$_SR_??_", 1.596, L, "2 x NOR2_X1"),
];

/// Area counted for a generic cell type missing from [`ESTIMATE_AREAS`]
/// (one 2-input gate, AND2_X1).
pub const ESTIMATE_FALLBACK_AREA_UM2: f64 = 1.064;

/// Word-level (pre-`techmap`) storage cells, as `proc` creates them.
const WORD_FLIP_FLOPS: &[&str] = &[
    "$ff", "$dff", "$dffe", "$adff", "$adffe", "$sdff", "$sdffe", "$sdffce", "$dffsr", "$dffsre",
    "$aldff", "$aldffe",
];
const WORD_LATCHES: &[&str] = &["$dlatch", "$adlatch", "$dlatchsr", "$sr"];

fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    p.len() == n.len()
        && p.iter().zip(n).all(|(&pc, &nc)| {
            if pc == b'?' {
                matches!(nc, b'P' | b'N' | b'0' | b'1')
            } else {
                pc == nc
            }
        })
}

fn estimate_entry(cell_type: &str) -> Option<&'static EstimateEntry> {
    ESTIMATE_AREAS
        .iter()
        .find(|e| glob_match(e.pattern, cell_type))
}

/// The [`ESTIMATE_AREAS`] area of a generic Yosys cell type, if it is in the table.
pub fn estimate_cell_area(cell_type: &str) -> Option<f64> {
    estimate_entry(cell_type).map(|e| e.area_um2)
}

/// What a Yosys internal cell type (`$_DFF_P_`, `$_AND_`, `$dlatch`, ...)
/// stores; `None` for names that are not Yosys internal cells (library cells,
/// user modules).
pub fn classify_generic_cell(cell_type: &str) -> Option<CellKind> {
    if let Some(e) = estimate_entry(cell_type) {
        return Some(e.kind);
    }
    if WORD_LATCHES.contains(&cell_type)
        || cell_type.starts_with("$_DLATCH")
        || cell_type.starts_with("$_SR_")
    {
        return Some(CellKind::Latch);
    }
    if WORD_FLIP_FLOPS.contains(&cell_type)
        || ["$_DFF", "$_SDFF", "$_ALDFF", "$_FF_"]
            .iter()
            .any(|p| cell_type.starts_with(p))
    {
        return Some(CellKind::FlipFlop);
    }
    cell_type
        .starts_with('$')
        .then_some(CellKind::Combinational)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_patterns() {
        assert_eq!(estimate_cell_area("$_SDFF_PP0_"), Some(5.586));
        assert_eq!(estimate_cell_area("$_DFF_P_"), Some(4.522));
        assert_eq!(estimate_cell_area("$_DFF_PN0_"), Some(5.320));
        assert_eq!(estimate_cell_area("$_DFFE_PP_"), Some(6.384));
        assert_eq!(estimate_cell_area("$_DFFE_PN0P_"), Some(7.182));
        assert_eq!(estimate_cell_area("$_XOR_"), Some(1.596));
        assert_eq!(estimate_cell_area("$_DFF_PX_"), None);
        assert_eq!(estimate_cell_area("DFF_X1"), None);
        for e in ESTIMATE_AREAS {
            assert!(e.area_um2 > 0.0 && !e.basis.is_empty(), "{e:?}");
        }
    }

    #[test]
    fn classification() {
        assert_eq!(
            classify_generic_cell("$_SDFFCE_PP0P_"),
            Some(CellKind::FlipFlop)
        );
        assert_eq!(
            classify_generic_cell("$_SDFFE_PN1N_"),
            Some(CellKind::FlipFlop)
        );
        assert_eq!(classify_generic_cell("$_DLATCH_P_"), Some(CellKind::Latch));
        assert_eq!(
            classify_generic_cell("$_DLATCH_NN1_"),
            Some(CellKind::Latch)
        );
        assert_eq!(classify_generic_cell("$dlatch"), Some(CellKind::Latch));
        assert_eq!(classify_generic_cell("$adff"), Some(CellKind::FlipFlop));
        assert_eq!(
            classify_generic_cell("$_AND_"),
            Some(CellKind::Combinational)
        );
        assert_eq!(classify_generic_cell("$add"), Some(CellKind::Combinational));
        assert_eq!(classify_generic_cell("DFF_X1"), None);
    }
}
