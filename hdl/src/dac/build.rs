//! The compiled-in instantiations of `dac_expander` and its [`RtlDecl`].
//!
//! Its widths follow from `clog2(N_WARPS)`, `clog2(N_CTA)`,
//! `clog2(ATQ_DEPTH + 1)` and the per-warp queue depths; every other
//! parameter is a run-time value of the built block. To add a width
//! combination, add a line to the table in [`RtlDecl::build`] below and
//! rebuild.

use ports::dac::{DacExpander, DacParams};
use ports::{log2_exact, Params};

use super::top::DacExpanderRtl;
use crate::registry::{RtlDecl, Unsupported};
use crate::storage::StorageReport;
use crate::RtlUnit;

/// One line per (clog2(N_WARPS), clog2(N_CTA), clog2(ATQ_DEPTH + 1),
/// clog2(N_WARPS) + log2(PWAQ_DEPTH), clog2(N_WARPS) + log2(PWPQ_DEPTH)).
macro_rules! dac_table {
    ($p:expr, $( ($wb:literal, $sb:literal, $cb:literal, $aq:literal, $pq:literal) ),* $(,)?) => {{
        let p: &DacParams = $p;
        let key = (
            p.warp_bits(),
            p.slot_bits(),
            p.count_bits(),
            p.warp_bits() + log2_exact(p.PWAQ_DEPTH),
            p.warp_bits() + log2_exact(p.PWPQ_DEPTH),
        );
        match key {
            $( ($wb, $sb, $cb, $aq, $pq) => Some(Box::new(
                DacExpanderRtl::<$wb, $sb, $cb, $aq, $pq, { $aq - $wb + 1 }, { $pq - $wb + 1 }>::new(p),
            ) as Box<dyn RtlUnit>), )*
            _ => None,
        }
    }};
}

impl RtlDecl for DacExpander {
    /// The paper's widths and smaller or larger SMs.
    const SUPPORTED: &'static str = "ADDR_W = 32 and (N_WARPS, N_CTA, ATQ_DEPTH, PWAQ_DEPTH, \
         PWPQ_DEPTH) in {33..=64 x 5..=8 x 16..=31 x 4 x 4 (the paper's 48, 8, 24, 4, 4), \
         33..=64 x 9..=16 x 16..=31 x 4 x 4, 33..=64 x 5..=8 x 16..=31 x 2 x 2, 17..=32 x 5..=8 x \
         16..=31 x 4 x 4, 5..=8 x 5..=8 x 4..=7 x 2 x 2, 5..=8 x 3..=4 x 4..=7 x 2 x 2}";

    fn build(p: &DacParams) -> Result<Box<dyn RtlUnit>, Unsupported> {
        debug_assert!(p.validate().is_ok());
        // (clog2 N_WARPS, clog2 N_CTA, clog2(ATQ_DEPTH + 1), AQ, PQ)
        #[rustfmt::skip]
        let unit = dac_table!(p,
            (6, 3, 5, 8, 8), (6, 4, 5, 8, 8), (6, 3, 5, 7, 7), (5, 3, 5, 7, 7),
            (3, 3, 3, 4, 4), (3, 2, 3, 4, 4),
        );
        unit.ok_or_else(|| {
            Self::unsupported(
                format!(
                    "N_WARPS = {}, N_CTA = {}, ATQ_DEPTH = {}, PWAQ_DEPTH = {}, PWPQ_DEPTH = {}",
                    p.N_WARPS, p.N_CTA, p.ATQ_DEPTH, p.PWAQ_DEPTH, p.PWPQ_DEPTH
                ),
                file!(),
            )
        })
    }

    fn rtl_type(p: &DacParams) -> String {
        let wb = p.warp_bits() as u64;
        let aq = wb + log2_exact(p.PWAQ_DEPTH) as u64;
        let pq = wb + log2_exact(p.PWPQ_DEPTH) as u64;
        format!(
            "hdl::dac::DacExpanderRtl::<{wb}, {}, {}, {aq}, {pq}, {}, {}>",
            p.slot_bits(),
            p.count_bits(),
            aq - wb + 1,
            pq - wb + 1
        )
    }

    fn storage(p: &DacParams) -> StorageReport {
        super::storage::storage(p)
    }
}
