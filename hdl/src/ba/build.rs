//! The compiled-in instantiations of `ba_tag_array` and its [`RtlDecl`].
//!
//! Its widths follow from `ADDR_W`, `LINE_BYTES`, `SETS` and `WAYS` (tag
//! bits, set-index bits, way bits); `BA_ENABLE` and `REUSE_THRESHOLD` are
//! run-time constants of the built block. To add a width combination, add a
//! line to the table in [`RtlDecl::build`] below and rebuild.

use ports::ba::{BaParams, BaTagArray};
use ports::Params;

use super::top::BaTagArrayRtl;
use crate::registry::{RtlDecl, Unsupported};
use crate::storage::StorageReport;
use crate::RtlUnit;

/// One line per (tag bits, set-index bits, way bits, sets, ways); `ADDR_W =
/// 32` and `LINE_BYTES = 128`.
macro_rules! ba_table {
    ($p:expr, $( ($t:literal, $s:literal, $w:literal, $ns:literal, $nw:literal) ),* $(,)?) => {{
        let p: &BaParams = $p;
        let key = (p.ADDR_W, p.LINE_BYTES, p.tag_bits(), p.set_bits().max(1), p.way_bits(), p.SETS, p.WAYS);
        match key {
            $( (32, 128, $t, $s, $w, $ns, $nw) => Some(Box::new(BaTagArrayRtl::<32, $t, $s, $w, $ns, $nw>::new(p)) as Box<dyn RtlUnit>), )*
            _ => None,
        }
    }};
}

impl RtlDecl for BaTagArray {
    /// `ADDR_W = 32`, `LINE_BYTES = 128`, every power-of-two `SETS` in
    /// 1..=256 and every power-of-two `WAYS` in 1..=16 (45 instantiations: `WAYS` 1 and 2
    /// share their way bits but not the width of `req_resv`).
    const SUPPORTED: &'static str =
        "ADDR_W = 32, LINE_BYTES = 128, SETS in {1, 2, 4, ..., 256}, WAYS in {1, 2, 4, 8, 16}";

    fn build(p: &BaParams) -> Result<Box<dyn RtlUnit>, Unsupported> {
        debug_assert!(p.validate().is_ok());
        #[rustfmt::skip]
        let unit = ba_table!(p,
            (25, 1, 1, 1, 1), (25, 1, 1, 1, 2), (25, 1, 2, 1, 4), (25, 1, 3, 1, 8), (25, 1, 4, 1, 16),
            (24, 1, 1, 2, 1), (24, 1, 1, 2, 2), (24, 1, 2, 2, 4), (24, 1, 3, 2, 8), (24, 1, 4, 2, 16),
            (23, 2, 1, 4, 1), (23, 2, 1, 4, 2), (23, 2, 2, 4, 4), (23, 2, 3, 4, 8), (23, 2, 4, 4, 16),
            (22, 3, 1, 8, 1), (22, 3, 1, 8, 2), (22, 3, 2, 8, 4), (22, 3, 3, 8, 8), (22, 3, 4, 8, 16),
            (21, 4, 1, 16, 1), (21, 4, 1, 16, 2), (21, 4, 2, 16, 4), (21, 4, 3, 16, 8), (21, 4, 4, 16, 16),
            (20, 5, 1, 32, 1), (20, 5, 1, 32, 2), (20, 5, 2, 32, 4), (20, 5, 3, 32, 8), (20, 5, 4, 32, 16),
            (19, 6, 1, 64, 1), (19, 6, 1, 64, 2), (19, 6, 2, 64, 4), (19, 6, 3, 64, 8), (19, 6, 4, 64, 16),
            (18, 7, 1, 128, 1), (18, 7, 1, 128, 2), (18, 7, 2, 128, 4), (18, 7, 3, 128, 8), (18, 7, 4, 128, 16),
            (17, 8, 1, 256, 1), (17, 8, 1, 256, 2), (17, 8, 2, 256, 4), (17, 8, 3, 256, 8), (17, 8, 4, 256, 16),
        );
        unit.ok_or_else(|| {
            Self::unsupported(
                format!(
                    "ADDR_W = {}, LINE_BYTES = {}, SETS = {}, WAYS = {}",
                    p.ADDR_W, p.LINE_BYTES, p.SETS, p.WAYS
                ),
                file!(),
            )
        })
    }

    fn rtl_type(p: &BaParams) -> String {
        format!(
            "hdl::ba::BaTagArrayRtl::<{}, {}, {}, {}, {}, {}>",
            p.ADDR_W,
            p.tag_bits(),
            p.set_bits().max(1),
            p.way_bits(),
            p.SETS,
            p.WAYS
        )
    }

    fn storage(p: &BaParams) -> StorageReport {
        super::storage::storage(p)
    }
}
