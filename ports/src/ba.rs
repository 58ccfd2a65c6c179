//! `ba_tag_array` — ports and parameters (spec `ba_cache.md`).

use crate::bits::{clog2, log2_exact};
use crate::error::ConfigError;

/// Response outcome codes (`rsp_outcome`).
pub mod outcome {
    /// Load, tag present with `bypass = 0`.
    pub const HIT: u64 = 0;
    /// Load, tag absent, an invalid way exists (or `BA_ENABLE = 0`).
    pub const MISS: u64 = 1;
    /// Load, tag absent, set full, `BA_ENABLE = 1`.
    pub const BYPASS: u64 = 2;
    /// Load, tag present with `bypass = 1`.
    pub const PSEUDO_HIT: u64 = 3;
    /// Store, tag present.
    pub const WRITE_EVICT: u64 = 4;
    /// Store, tag absent.
    pub const WRITE_MISS: u64 = 5;
    /// Load or prefetch fill, tag absent, the policy must allocate and every
    /// way of the set is reserved (`req_resv`): nothing changes, the
    /// requester retries (issue 27).
    pub const RESV_FAIL: u64 = 6;
    /// Names, indexed by code.
    pub const NAMES: [&str; 7] = [
        "HIT",
        "MISS",
        "BYPASS",
        "PSEUDO_HIT",
        "WRITE_EVICT",
        "WRITE_MISS",
        "RESV_FAIL",
    ];
}

/// The declaration of `ba_tag_array`'s parameters and ports
/// ([`crate::declare`]): `ba_tag_array_ports!(path::to::m)` calls `m!` with
/// it.
#[macro_export]
macro_rules! ba_tag_array_ports {
    ($($m:ident)::+) => {
        $($m)::+! {
            /// Marker type for the unit.
            unit BaTagArray = "ba_tag_array";
            params {
                /// Parameters of the bypass-aware tag array. Defaults: the thesis' 16 KB
                /// baseline (16 sets x 8 ways x 128 B).
                struct BaParams(p) {
                    /// Number of sets (power of two).
                    SETS: u64 = 16, check_pow2(1, 4096);
                    /// Associativity (power of two).
                    WAYS: u64 = 8, check_pow2(1, 32);
                    /// Line size in bytes (power of two).
                    LINE_BYTES: u64 = 128, check_pow2(4, 4096);
                    /// Address width.
                    ADDR_W: u64 = 32, check_range(8, 64);
                    /// 1 = bypass-aware policy, 0 = plain LRU.
                    BA_ENABLE: u64 = 1, check_range(0, 1);
                    /// Victim-choice threshold on the number of `reuse = 0` ways.
                    /// `None` in a file means the spec default `WAYS/2`.
                    REUSE_THRESHOLD: Option<u64> = None, check_range(0, p.WAYS),
                        listed p.reuse_threshold();
                    /// 0 = the spec's allocate-or-bypass rule ("free" = invalid); 1 = the
                    /// second reading (a full set bypasses only when every line was
                    /// reused; `docs/units/ba_tag_array.md`).
                    BA_POLICY: u64 = 0, check_range(0, 1);
                }
                // The address and geometry first: the tag needs at least
                // one bit, which only a power-of-two geometry can tell.
                validate {
                    for name in ["ADDR_W", "LINE_BYTES", "SETS", "WAYS", "BA_ENABLE", "BA_POLICY"] {
                        p.check_param(name)?;
                    }
                    if p.offset_bits() + p.set_bits() + 1 > p.ADDR_W as u32 {
                        return Err(ConfigError::range(
                            "SETS",
                            p.SETS,
                            format!(
                                "at most 2^{} with ADDR_W = {} and LINE_BYTES = {} (the tag needs at least one bit)",
                                p.ADDR_W as u32 - p.offset_bits() - 1,
                                p.ADDR_W,
                                p.LINE_BYTES
                            ),
                        ));
                    }
                    p.check_param("REUSE_THRESHOLD")
                }
            }
            inputs {
                /// Inputs of `ba_tag_array` for one cycle.
                struct BaIn(p) {
                    /// Synchronous reset.
                    reset: bool = 1,
                    /// A request this cycle.
                    req_valid: bool = 1,
                    /// Byte address.
                    req_addr: u64 = p.ADDR_W as u32,
                    /// 1 = store.
                    req_write: bool = 1,
                    /// 1 = the load is a prefetch fill: it allocates even in a full set,
                    /// never bypasses, and does not mark reuse (ignored for a store; rules
                    /// in `docs/units/ba_tag_array.md`, "Prefetch fills").
                    req_prefetch: bool = 1,
                    /// Reserved ways of the request's set: bit i = a miss that allocated
                    /// way i is in flight (the line already holds the new tag). A reserved
                    /// way is never chosen as a victim; a load or prefetch fill that must
                    /// allocate into a set with every way reserved answers `RESV_FAIL` and
                    /// changes nothing. Ignored for a store and for a load whose tag is
                    /// present (rules in `docs/units/ba_tag_array.md`, "Reservation").
                    req_resv: u64 = p.WAYS as u32,
                    /// Invalidate every line.
                    flush: bool = 1,
                }
            }
            outputs {
                /// Outputs of `ba_tag_array` for one cycle.
                struct BaOut(p) {
                    /// Result of the request accepted in the previous cycle.
                    rsp_valid: bool = 1,
                    /// Outcome code ([`outcome`]).
                    rsp_outcome: u64 = 3,
                    /// Way read, filled or written.
                    rsp_way: u64 = p.way_bits(),
                    /// A line holding data was displaced.
                    rsp_evict_valid: bool = 1,
                    /// Line address of that line.
                    rsp_evict_addr: u64 = p.ADDR_W as u32,
                }
            }
        }
    };
}

ba_tag_array_ports!(crate::declare_unit);

impl BaParams {
    /// `REUSE_THRESHOLD`, with its default `WAYS/2` applied.
    pub fn reuse_threshold(&self) -> u64 {
        self.REUSE_THRESHOLD.unwrap_or(self.WAYS / 2)
    }
    /// Bits of the byte offset within a line.
    pub fn offset_bits(&self) -> u32 {
        log2_exact(self.LINE_BYTES)
    }
    /// Bits of the set index (0 for a single set).
    pub fn set_bits(&self) -> u32 {
        log2_exact(self.SETS)
    }
    /// Width of a stored tag: `ADDR_W - log2(LINE_BYTES) - log2(SETS)`.
    pub fn tag_bits(&self) -> u32 {
        self.ADDR_W as u32 - self.offset_bits() - self.set_bits()
    }
    /// Width of `rsp_way` and of an LRU rank: `clog2(WAYS)`.
    pub fn way_bits(&self) -> u32 {
        clog2(self.WAYS)
    }
    /// Number of lines (`SETS * WAYS`).
    pub fn lines(&self) -> u64 {
        self.SETS * self.WAYS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigFile;
    use crate::spec::Params;

    #[test]
    fn paper_widths() {
        let p = BaParams::default();
        p.validate().unwrap();
        assert_eq!(p.tag_bits(), 21);
        assert_eq!(p.way_bits(), 3);
        assert_eq!(p.reuse_threshold(), 4);
        assert_eq!(p.lines(), 128);
    }

    #[test]
    fn rejects_non_power_of_two_ways() {
        // The whole file is checked when it is read.
        let e = ConfigFile::parse("[ba_tag_array]\nWAYS = 6\n", None).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("[ba_tag_array]"), "{msg}");
        assert!(msg.contains("WAYS = 6"), "{msg}");
        assert!(msg.contains("power of two"), "{msg}");
    }

    #[test]
    fn rejects_unknown_parameter() {
        let e = ConfigFile::parse("[ba_tag_array]\nWAYZ = 4\n", None).unwrap_err();
        assert!(e.to_string().contains("WAYZ"), "{e}");
    }
}
