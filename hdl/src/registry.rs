//! Compiled-in instantiations of the units.
//!
//! rust-hdl widths are const generics, so a configuration read at run time
//! can only reach RTL whose widths were instantiated when warpgen was built.
//! Each unit's widths follow from a few parameters (for `ba_tag_array`:
//! `ADDR_W`, `LINE_BYTES`, `SETS`, `WAYS`); every other parameter (entry
//! counts, `BA_ENABLE`, `REUSE_THRESHOLD`, ...) is a run-time constant of
//! the built block. This module lists the width combinations compiled in,
//! builds the block for a configuration, and otherwise answers with
//! [`Unsupported`], which lists what can be built.
//!
//! To add a combination, add a line to the unit's table below and rebuild.

use ports::ba::BaParams;
use ports::Params;

use crate::ba_tag_array::BaTagArrayRtl;
use crate::RtlUnit;

/// A valid configuration whose widths are not compiled in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{unit}: configuration ({given}) is valid but its RTL widths are not compiled into warpgen.\n\
     Configurations that can be built:\n  {supported}\n\
     (other parameters are free within their ranges; to add a width combination, \
     extend the table in hdl/src/registry.rs and rebuild)"
)]
pub struct Unsupported {
    /// Unit name.
    pub unit: &'static str,
    /// The width-determining parameters given.
    pub given: String,
    /// Human-readable list of what is supported.
    pub supported: String,
}

/// Width-determining parameters of `ba_tag_array` that are compiled in:
/// `ADDR_W = 32`, `LINE_BYTES = 128`, every power-of-two `SETS` in
/// 1..=256 and every power-of-two `WAYS` in 1..=16.
pub const BA_SUPPORTED: &str =
    "ADDR_W = 32, LINE_BYTES = 128, SETS in {1, 2, 4, ..., 256}, WAYS in {1, 2, 4, 8, 16}";

macro_rules! ba_table {
    ($p:expr, $( ($t:literal, $s:literal, $w:literal) ),* $(,)?) => {{
        let p: &BaParams = $p;
        let key = (p.ADDR_W, p.LINE_BYTES, p.tag_bits(), p.set_bits().max(1), p.way_bits());
        match key {
            $( (32, 128, $t, $s, $w) => Some(Box::new(BaTagArrayRtl::<32, $t, $s, $w>::new(p)) as Box<dyn RtlUnit>), )*
            _ => None,
        }
    }};
}

/// Build `ba_tag_array` for `p` (which must be valid).
pub fn build_ba(p: &BaParams) -> Result<Box<dyn RtlUnit>, Unsupported> {
    debug_assert!(p.validate().is_ok());
    #[rustfmt::skip]
    let unit = ba_table!(p,
        (25, 1, 1), (25, 1, 2), (25, 1, 3), (25, 1, 4),
        (24, 1, 1), (24, 1, 2), (24, 1, 3), (24, 1, 4),
        (23, 2, 1), (23, 2, 2), (23, 2, 3), (23, 2, 4),
        (22, 3, 1), (22, 3, 2), (22, 3, 3), (22, 3, 4),
        (21, 4, 1), (21, 4, 2), (21, 4, 3), (21, 4, 4),
        (20, 5, 1), (20, 5, 2), (20, 5, 3), (20, 5, 4),
        (19, 6, 1), (19, 6, 2), (19, 6, 3), (19, 6, 4),
        (18, 7, 1), (18, 7, 2), (18, 7, 3), (18, 7, 4),
        (17, 8, 1), (17, 8, 2), (17, 8, 3), (17, 8, 4),
    );
    unit.ok_or_else(|| Unsupported {
        unit: "ba_tag_array",
        given: format!(
            "ADDR_W = {}, LINE_BYTES = {}, SETS = {}, WAYS = {}",
            p.ADDR_W, p.LINE_BYTES, p.SETS, p.WAYS
        ),
        supported: BA_SUPPORTED.into(),
    })
}

// ---------------------------------------------------------------------------
// caps_prefetcher

use ports::caps::CapsParams;
use ports::clog2;

use crate::caps_prefetcher::CapsPrefetcherRtl;

/// Width-determining parameters of `caps_prefetcher` that are compiled in.
/// Its widths follow from `ADDR_W`, `PC_W`, `WARP_IDX_W`, `clog2(N_CTA)`,
/// `clog2(PERCTA_ENTRIES)`, `clog2(DIST_ENTRIES)` and `CNT_W`; `MAX_ADDRS`,
/// `MISPRED_THRESHOLD` (within `1..2^CNT_W`), `JOBQ_DEPTH` and `PFQ_DEPTH`
/// are free. Each line of the table costs a few seconds of compile time.
pub const CAPS_SUPPORTED: &str = "ADDR_W = 32, PC_W = 32, WARP_IDX_W = 6, and \
     (N_CTA, PERCTA_ENTRIES, DIST_ENTRIES, CNT_W) in {(8, 3..=4, 3..=4, 4..=8) (the paper's), \
     (2, 1..=2, 1..=2, 4 or 8), (16, 3..=4, 3..=4, 8)}";

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
                CapsPrefetcherRtl::<32, 32, 6, 7, $c, { $c + 1 }, $rp, $rd, $cw>::new(p),
            ) as Box<dyn RtlUnit>), )*
            _ => None,
        }
    }};
}

/// Build `caps_prefetcher` for `p` (which must be valid).
pub fn build_caps(p: &CapsParams) -> Result<Box<dyn RtlUnit>, Unsupported> {
    debug_assert!(p.validate().is_ok());
    // (clog2(N_CTA), clog2(PERCTA_ENTRIES), clog2(DIST_ENTRIES), CNT_W)
    #[rustfmt::skip]
    let unit = caps_table!(p,
        (3, 2, 2, 4), (3, 2, 2, 5), (3, 2, 2, 6), (3, 2, 2, 7), (3, 2, 2, 8),
        (1, 1, 1, 4), (1, 1, 1, 8),
        (4, 2, 2, 8),
    );
    unit.ok_or_else(|| Unsupported {
        unit: "caps_prefetcher",
        given: format!(
            "ADDR_W = {}, PC_W = {}, WARP_IDX_W = {}, N_CTA = {}, PERCTA_ENTRIES = {}, \
             DIST_ENTRIES = {}, CNT_W = {}",
            p.ADDR_W, p.PC_W, p.WARP_IDX_W, p.N_CTA, p.PERCTA_ENTRIES, p.DIST_ENTRIES, p.CNT_W
        ),
        supported: CAPS_SUPPORTED.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_ba_geometry_builds() {
        for sets in [1u64, 2, 4, 8, 16, 32, 64, 128, 256] {
            for ways in [1u64, 2, 4, 8, 16] {
                let p = BaParams {
                    SETS: sets,
                    WAYS: ways,
                    ..Default::default()
                };
                p.validate().unwrap();
                assert!(build_ba(&p).is_ok(), "SETS={sets} WAYS={ways}");
            }
        }
    }

    #[test]
    fn unsupported_geometry_lists_what_is_supported() {
        let p = BaParams {
            LINE_BYTES: 64,
            ..Default::default()
        };
        let e = build_ba(&p).err().unwrap().to_string();
        assert!(e.contains("LINE_BYTES = 64"), "{e}");
        assert!(e.contains(BA_SUPPORTED), "{e}");
    }
}

#[cfg(test)]
mod caps_tests {
    use super::*;

    #[test]
    fn every_listed_caps_configuration_builds() {
        for (n_cta, entries, cnt_ws) in [
            (8u64, [3u64, 4], &[4u64, 5, 6, 7, 8][..]),
            (2, [1, 2], &[4, 8][..]),
            (16, [3, 4], &[8][..]),
        ] {
            for &cnt_w in cnt_ws {
                for pe in entries {
                    for de in entries {
                        let p = CapsParams {
                            N_CTA: n_cta,
                            PERCTA_ENTRIES: pe,
                            DIST_ENTRIES: de,
                            CNT_W: cnt_w,
                            MISPRED_THRESHOLD: (1 << cnt_w) / 2,
                            ..Default::default()
                        };
                        p.validate().unwrap();
                        assert!(build_caps(&p).is_ok(), "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn unsupported_caps_configuration_lists_what_is_supported() {
        let p = CapsParams {
            N_CTA: 4,
            ..Default::default()
        };
        let e = build_caps(&p).err().unwrap().to_string();
        assert!(e.contains("N_CTA = 4"), "{e}");
        assert!(e.contains(CAPS_SUPPORTED), "{e}");
    }
}
