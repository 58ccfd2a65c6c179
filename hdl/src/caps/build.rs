//! The compiled-in instantiations of `caps_prefetcher` and its [`RtlDecl`].
//!
//! Its widths follow from `ADDR_W`, `PC_W`, `WARP_IDX_W`, `clog2(N_CTA)`,
//! `clog2(PERCTA_ENTRIES)`, `clog2(DIST_ENTRIES)` and `CNT_W`;
//! `MAX_ADDRS`, `MISPRED_THRESHOLD` (within `1..2^CNT_W`), `JOBQ_DEPTH` and
//! `PFQ_DEPTH` are free. Each line of the table costs a few seconds of
//! compile time. To add a width combination, add a line to the table in
//! [`RtlDecl::build`] below and rebuild.

use ports::caps::{CapsParams, CapsPrefetcher};
use ports::{clog2, Params};

use super::top::CapsPrefetcherRtl;
use crate::registry::{RtlDecl, Unsupported};
use crate::storage::StorageReport;
use crate::RtlUnit;

/// One line per (clog2(N_CTA), clog2(PERCTA_ENTRIES), clog2(DIST_ENTRIES),
/// CNT_W); `ADDR_W = 32`, `PC_W = 32`, `WARP_IDX_W = 6`. The derived
/// widths `WD`, `CP`, `JW` (packed job header), `QW` (packed prefetch) and `NS`
/// (`2^C` slots) are
/// written out as literal expressions; `CapsPrefetcherRtl::new` checks them.
macro_rules! caps_table {
    ($p:expr, $( ($c:literal, $rp:literal, $rd:literal, $cw:literal) ),* $(,)?) => {{
        let p: &CapsParams = $p;
        let key = (
            p.ADDR_W,
            p.PC_W,
            p.WARP_IDX_W,
            p.cta_bits(),
            clog2(p.PERCTA_ENTRIES),
            clog2(p.DIST_ENTRIES),
            p.CNT_W,
        );
        match key {
            $( (32, 32, 6, $c, $rp, $rd, $cw) => Some(Box::new(
                CapsPrefetcherRtl::<
                    32, 32, 6, 7, $c, { $c + 1 }, $rp, $rd, $cw,
                    { 2 + 32 + $c + 6 }, { 32 + $c + 6 }, { 1 << $c },
                >::new(p),
            ) as Box<dyn RtlUnit>), )*
            _ => None,
        }
    }};
}

impl RtlDecl for CapsPrefetcher {
    /// The paper's widths with 8 CTAs, 2 CTAs with 1-2 entries, and 16
    /// CTAs (8 instantiations).
    const SUPPORTED: &'static str = "ADDR_W = 32, PC_W = 32, WARP_IDX_W = 6, and \
         (N_CTA, PERCTA_ENTRIES, DIST_ENTRIES, CNT_W) in {(8, 3..=4, 3..=4, 4..=8) (the paper's), \
         (2, 1..=2, 1..=2, 4 or 8), (16, 3..=4, 3..=4, 8)}";

    fn build(p: &CapsParams) -> Result<Box<dyn RtlUnit>, Unsupported> {
        debug_assert!(p.validate().is_ok());
        // (clog2(N_CTA), clog2(PERCTA_ENTRIES), clog2(DIST_ENTRIES), CNT_W)
        #[rustfmt::skip]
        let unit = caps_table!(p,
            (3, 2, 2, 4), (3, 2, 2, 5), (3, 2, 2, 6), (3, 2, 2, 7), (3, 2, 2, 8),
            (1, 1, 1, 4), (1, 1, 1, 8),
            (4, 2, 2, 8),
        );
        unit.ok_or_else(|| {
            Self::unsupported(
                format!(
                    "ADDR_W = {}, PC_W = {}, WARP_IDX_W = {}, N_CTA = {}, PERCTA_ENTRIES = {}, \
                     DIST_ENTRIES = {}, CNT_W = {}",
                    p.ADDR_W,
                    p.PC_W,
                    p.WARP_IDX_W,
                    p.N_CTA,
                    p.PERCTA_ENTRIES,
                    p.DIST_ENTRIES,
                    p.CNT_W
                ),
                file!(),
            )
        })
    }

    fn rtl_type(p: &CapsParams) -> String {
        let (a, pc, wi, c) = (p.ADDR_W, p.PC_W, p.WARP_IDX_W, p.cta_bits() as u64);
        format!(
            "hdl::caps::CapsPrefetcherRtl::<{a}, {pc}, {wi}, {}, {c}, {}, {}, {}, {}, {}, {}, {}>",
            wi + 1,
            c + 1,
            clog2(p.PERCTA_ENTRIES),
            clog2(p.DIST_ENTRIES),
            p.CNT_W,
            2 + pc + c + wi,
            a + c + wi,
            1u64 << c
        )
    }

    fn storage(p: &CapsParams) -> StorageReport {
        super::storage::storage(p)
    }
}
