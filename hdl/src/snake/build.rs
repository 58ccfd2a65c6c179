//! The compiled-in instantiations of `snake_prefetcher` and its [`RtlDecl`].
//!
//! Its widths follow from `ADDR_W`, `PC_W`, `N_WARPS` (the warp vector and
//! `clog2(N_WARPS)`) and `clog2(TAIL_ENTRIES)`; every other parameter is a
//! run-time value of the built block. To add a width combination, add a
//! line to the table in [`RtlDecl::build`] below and rebuild.

use ports::snake::{SnakeParams, SnakePrefetcher};
use ports::{clog2, Params};

use super::top::SnakePrefetcherRtl;
use crate::registry::{RtlDecl, Unsupported};
use crate::storage::StorageReport;
use crate::RtlUnit;

/// One line per (N_WARPS, clog2(N_WARPS), clog2(TAIL_ENTRIES)); `ADDR_W =
/// 32`, `PC_W = 32`. The derived widths are written out as literal
/// expressions; `SnakePrefetcherRtl::new` checks them.
macro_rules! snake_table {
    ($p:expr, $( ($nw:literal, $wb:literal, $rt:literal) ),* $(,)?) => {{
        let p: &SnakeParams = $p;
        let key = (p.ADDR_W, p.PC_W, p.N_WARPS, p.warp_bits(), clog2(p.TAIL_ENTRIES));
        match key {
            $( (32, 32, $nw, $wb, $rt) => Some(Box::new(
                SnakePrefetcherRtl::<
                    32, 32, $wb, { $wb + 1 }, $nw, $rt, { $wb + 32 }, { 32 + $wb + 2 + 12 },
                >::new(p),
            ) as Box<dyn RtlUnit>), )*
            _ => None,
        }
    }};
}

impl RtlDecl for SnakePrefetcher {
    /// The paper's widths (64 warps, up to 16 or 32 Tail entries) and
    /// smaller SMs.
    const SUPPORTED: &'static str = "ADDR_W = 32, PC_W = 32, and (N_WARPS, TAIL_ENTRIES) in \
         {64 x (9..=16 (the paper's 10), 17..=32), 32 x 9..=16, 16 x 5..=8, 8 x 3..=4}";

    fn build(p: &SnakeParams) -> Result<Box<dyn RtlUnit>, Unsupported> {
        debug_assert!(p.validate().is_ok());
        // (N_WARPS, clog2(N_WARPS), clog2(TAIL_ENTRIES))
        #[rustfmt::skip]
        let unit = snake_table!(p,
            (64, 6, 4), (64, 6, 5), (32, 5, 4), (16, 4, 3), (8, 3, 2),
        );
        unit.ok_or_else(|| {
            Self::unsupported(
                format!(
                    "ADDR_W = {}, PC_W = {}, N_WARPS = {}, TAIL_ENTRIES = {}",
                    p.ADDR_W, p.PC_W, p.N_WARPS, p.TAIL_ENTRIES
                ),
                file!(),
            )
        })
    }

    fn rtl_type(p: &SnakeParams) -> String {
        let (a, pc, wb) = (p.ADDR_W, p.PC_W, p.warp_bits() as u64);
        format!(
            "hdl::snake::SnakePrefetcherRtl::<{a}, {pc}, {wb}, {}, {}, {}, {}, {}>",
            wb + 1,
            p.N_WARPS,
            clog2(p.TAIL_ENTRIES),
            wb + pc,
            a + wb + 2 + 12
        )
    }

    fn storage(p: &SnakeParams) -> StorageReport {
        super::storage::storage(p)
    }
}
