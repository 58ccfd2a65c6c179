//! `ba_tag_array` — ports and parameters (spec `ba_cache.md`).

use serde::{Deserialize, Serialize};

use crate::config::{check_pow2, check_range, ConfigError};
use crate::{clog2, log2_exact, Params, PortDesc, UnitSpec};

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
    /// Names, indexed by code.
    pub const NAMES: [&str; 6] = [
        "HIT",
        "MISS",
        "BYPASS",
        "PSEUDO_HIT",
        "WRITE_EVICT",
        "WRITE_MISS",
    ];
}

/// Parameters of the bypass-aware tag array. Defaults: the thesis' 16 KB
/// baseline (16 sets x 8 ways x 128 B).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct BaParams {
    /// Number of sets (power of two).
    pub SETS: u64,
    /// Associativity (power of two).
    pub WAYS: u64,
    /// Line size in bytes (power of two).
    pub LINE_BYTES: u64,
    /// Address width.
    pub ADDR_W: u64,
    /// 1 = bypass-aware policy, 0 = plain LRU.
    pub BA_ENABLE: u64,
    /// Victim-choice threshold on the number of `reuse = 0` ways.
    /// `None` in a file means the spec default `WAYS/2`.
    pub REUSE_THRESHOLD: Option<u64>,
    /// 0 = the spec's allocate-or-bypass rule ("free" = invalid); 1 = the
    /// second reading (a full set bypasses only when every line was
    /// reused; `docs/units/ba_tag_array.md`).
    pub BA_POLICY: u64,
}

impl Default for BaParams {
    fn default() -> Self {
        BaParams {
            SETS: 16,
            WAYS: 8,
            LINE_BYTES: 128,
            ADDR_W: 32,
            BA_ENABLE: 1,
            REUSE_THRESHOLD: None,
            BA_POLICY: 0,
        }
    }
}

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

impl Params for BaParams {
    fn validate(&self) -> Result<(), ConfigError> {
        check_range("ADDR_W", self.ADDR_W, 8, 64)?;
        check_pow2("LINE_BYTES", self.LINE_BYTES, 4, 4096)?;
        check_pow2("SETS", self.SETS, 1, 4096)?;
        check_pow2("WAYS", self.WAYS, 1, 32)?;
        check_range("BA_ENABLE", self.BA_ENABLE, 0, 1)?;
        check_range("BA_POLICY", self.BA_POLICY, 0, 1)?;
        if self.offset_bits() + self.set_bits() + 1 > self.ADDR_W as u32 {
            return Err(ConfigError::range(
                "SETS",
                self.SETS,
                format!(
                    "at most 2^{} with ADDR_W = {} and LINE_BYTES = {} (the tag needs at least one bit)",
                    self.ADDR_W as u32 - self.offset_bits() - 1,
                    self.ADDR_W,
                    self.LINE_BYTES
                ),
            ));
        }
        if let Some(t) = self.REUSE_THRESHOLD {
            check_range("REUSE_THRESHOLD", t, 0, self.WAYS)?;
        }
        Ok(())
    }

    fn list(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("SETS", self.SETS),
            ("WAYS", self.WAYS),
            ("LINE_BYTES", self.LINE_BYTES),
            ("ADDR_W", self.ADDR_W),
            ("BA_ENABLE", self.BA_ENABLE),
            ("REUSE_THRESHOLD", self.reuse_threshold()),
            ("BA_POLICY", self.BA_POLICY),
        ]
    }
}

/// Inputs of `ba_tag_array` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BaIn {
    /// Synchronous reset.
    pub reset: bool,
    /// A request this cycle.
    pub req_valid: bool,
    /// Byte address.
    pub req_addr: u64,
    /// 1 = store.
    pub req_write: bool,
    /// 1 = the load is a prefetch fill: it allocates even in a full set,
    /// never bypasses, and does not mark reuse (ignored for a store; rules
    /// in `docs/units/ba_tag_array.md`, "Prefetch fills").
    pub req_prefetch: bool,
    /// Invalidate every line.
    pub flush: bool,
}

/// Outputs of `ba_tag_array` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BaOut {
    /// Result of the request accepted in the previous cycle.
    pub rsp_valid: bool,
    /// Outcome code ([`outcome`]).
    pub rsp_outcome: u64,
    /// Way read, filled or written.
    pub rsp_way: u64,
    /// A line holding data was displaced.
    pub rsp_evict_valid: bool,
    /// Line address of that line.
    pub rsp_evict_addr: u64,
}

/// Marker type for the unit.
pub struct BaTagArray;

impl UnitSpec for BaTagArray {
    const NAME: &'static str = "ba_tag_array";
    type Params = BaParams;
    type In = BaIn;
    type Out = BaOut;

    fn inputs(p: &BaParams) -> Vec<PortDesc> {
        vec![
            PortDesc::new("reset", 1),
            PortDesc::new("req_valid", 1),
            PortDesc::new("req_addr", p.ADDR_W as u32),
            PortDesc::new("req_write", 1),
            PortDesc::new("req_prefetch", 1),
            PortDesc::new("flush", 1),
        ]
    }

    fn outputs(p: &BaParams) -> Vec<PortDesc> {
        vec![
            PortDesc::new("rsp_valid", 1),
            PortDesc::new("rsp_outcome", 3),
            PortDesc::new("rsp_way", p.way_bits()),
            PortDesc::new("rsp_evict_valid", 1),
            PortDesc::new("rsp_evict_addr", p.ADDR_W as u32),
        ]
    }

    fn write_in_values(_p: &BaParams, v: &BaIn, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.reset as u64,
            v.req_valid as u64,
            v.req_addr,
            v.req_write as u64,
            v.req_prefetch as u64,
            v.flush as u64,
        ]);
    }

    fn in_from_values(_p: &BaParams, v: &[u64]) -> BaIn {
        BaIn {
            reset: v[0] != 0,
            req_valid: v[1] != 0,
            req_addr: v[2],
            req_write: v[3] != 0,
            req_prefetch: v[4] != 0,
            flush: v[5] != 0,
        }
    }

    fn write_out_values(_p: &BaParams, v: &BaOut, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.rsp_valid as u64,
            v.rsp_outcome,
            v.rsp_way,
            v.rsp_evict_valid as u64,
            v.rsp_evict_addr,
        ]);
    }

    fn out_from_values(_p: &BaParams, v: &[u64]) -> BaOut {
        BaOut {
            rsp_valid: v[0] != 0,
            rsp_outcome: v[1],
            rsp_way: v[2],
            rsp_evict_valid: v[3] != 0,
            rsp_evict_addr: v[4],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ConfigFile;

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
