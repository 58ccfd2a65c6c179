//! `snake_prefetcher` — ports and parameters (spec `snake.md`).

use serde::{Deserialize, Serialize};

use crate::config::{check_pow2, check_range, ConfigError};
use crate::{clog2, Params, PortDesc, UnitSpec};

/// Prefetch kinds on `pf_kind`.
pub mod kind {
    /// Inter-thread chain (a hop through a promoted link).
    pub const CHAIN: u64 = 0;
    /// Inter-warp stride (a future warp's address).
    pub const INTER_WARP: u64 = 1;
    /// Intra-warp stride (the warp's next loop iteration).
    pub const INTRA_WARP: u64 = 2;
}

/// Parameters of the Snake prefetcher. Defaults: the paper's (Volta SM,
/// 64 warps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct SnakeParams {
    /// Warps per SM: Head rows and warp-vector bits.
    pub N_WARPS: u64,
    /// Tail table entries.
    pub TAIL_ENTRIES: u64,
    /// Distinct warps that promote a link.
    pub TRAIN_WARPS: u64,
    /// Eviction looks at this many least recently used entries.
    pub LRU_GROUP: u64,
    /// Most inter-thread hops per load.
    pub CHAIN_DEPTH: u64,
    /// Future warps prefetched with an inter-warp stride.
    pub IW_DEGREE: u64,
    /// Pending walk jobs.
    pub WALKQ_DEPTH: u64,
    /// Output prefetch queue depth.
    pub PFQ_DEPTH: u64,
    /// Pause (cycles) after the cache reports it is full.
    pub THROTTLE_CYCLES: u64,
    /// Bandwidth utilisation (percent) at or above which prefetching halts.
    pub BW_HIGH: u64,
    /// Bandwidth utilisation (percent) at or below which it resumes.
    pub BW_LOW: u64,
    /// Address width.
    pub ADDR_W: u64,
    /// PC width.
    pub PC_W: u64,
}

impl Default for SnakeParams {
    fn default() -> Self {
        SnakeParams {
            N_WARPS: 64,
            TAIL_ENTRIES: 10,
            TRAIN_WARPS: 3,
            LRU_GROUP: 4,
            CHAIN_DEPTH: 3,
            IW_DEGREE: 4,
            WALKQ_DEPTH: 2,
            PFQ_DEPTH: 4,
            THROTTLE_CYCLES: 50,
            BW_HIGH: 70,
            BW_LOW: 50,
            ADDR_W: 32,
            PC_W: 32,
        }
    }
}

impl SnakeParams {
    /// Width of a warp id: `clog2(N_WARPS)`.
    pub fn warp_bits(&self) -> u32 {
        clog2(self.N_WARPS)
    }
}

impl Params for SnakeParams {
    fn validate(&self) -> Result<(), ConfigError> {
        // The warp vector is one word of at most 64 bits, one bit per warp
        // id of `clog2(N_WARPS)` bits.
        check_pow2("N_WARPS", self.N_WARPS, 2, 64)?;
        check_range("TAIL_ENTRIES", self.TAIL_ENTRIES, 1, 32)?;
        check_range("TRAIN_WARPS", self.TRAIN_WARPS, 1, self.N_WARPS)?;
        check_range("LRU_GROUP", self.LRU_GROUP, 1, self.TAIL_ENTRIES)?;
        check_range("CHAIN_DEPTH", self.CHAIN_DEPTH, 1, 15)?;
        check_range("IW_DEGREE", self.IW_DEGREE, 0, 15)?;
        check_range("WALKQ_DEPTH", self.WALKQ_DEPTH, 1, 64)?;
        check_range("PFQ_DEPTH", self.PFQ_DEPTH, 1, 64)?;
        check_range("THROTTLE_CYCLES", self.THROTTLE_CYCLES, 0, 65535)?;
        check_range("BW_HIGH", self.BW_HIGH, 1, 100)?;
        check_range("BW_LOW", self.BW_LOW, 0, self.BW_HIGH - 1)?;
        check_range("ADDR_W", self.ADDR_W, 8, 64)?;
        check_range("PC_W", self.PC_W, 1, 64)?;
        Ok(())
    }

    fn list(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("N_WARPS", self.N_WARPS),
            ("TAIL_ENTRIES", self.TAIL_ENTRIES),
            ("TRAIN_WARPS", self.TRAIN_WARPS),
            ("LRU_GROUP", self.LRU_GROUP),
            ("CHAIN_DEPTH", self.CHAIN_DEPTH),
            ("IW_DEGREE", self.IW_DEGREE),
            ("WALKQ_DEPTH", self.WALKQ_DEPTH),
            ("PFQ_DEPTH", self.PFQ_DEPTH),
            ("THROTTLE_CYCLES", self.THROTTLE_CYCLES),
            ("BW_HIGH", self.BW_HIGH),
            ("BW_LOW", self.BW_LOW),
            ("ADDR_W", self.ADDR_W),
            ("PC_W", self.PC_W),
        ]
    }
}

/// Inputs of `snake_prefetcher` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnakeIn {
    /// Synchronous reset.
    pub reset: bool,
    /// A demand load this cycle (always accepted).
    pub ld_valid: bool,
    /// Warp id within the SM.
    pub ld_warp: u64,
    /// Load PC.
    pub ld_pc: u64,
    /// Address of the warp's first active thread.
    pub ld_addr: u64,
    /// All active threads are separated by one common stride; a load
    /// without it is ignored entirely.
    pub ld_uniform: bool,
    /// The unified cache has no free space this cycle.
    pub cache_full: bool,
    /// Measured memory bandwidth utilisation, percent (0..=100).
    pub bw_util: u64,
    /// The consumer takes the offered prefetch.
    pub pf_ready: bool,
}

/// Outputs of `snake_prefetcher` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnakeOut {
    /// A prefetch is offered.
    pub pf_valid: bool,
    /// Address to prefetch.
    pub pf_addr: u64,
    /// Warp the prefetch is for.
    pub pf_warp: u64,
    /// [`kind`]: 0 chain, 1 inter-warp, 2 intra-warp.
    pub pf_kind: u64,
    /// Prefetching is halted.
    pub throttled: bool,
}

/// Marker type for the unit.
pub struct SnakePrefetcher;

impl UnitSpec for SnakePrefetcher {
    const NAME: &'static str = "snake_prefetcher";
    type Params = SnakeParams;
    type In = SnakeIn;
    type Out = SnakeOut;

    fn inputs(p: &SnakeParams) -> Vec<PortDesc> {
        vec![
            PortDesc::new("reset", 1),
            PortDesc::new("ld_valid", 1),
            PortDesc::new("ld_warp", p.warp_bits()),
            PortDesc::new("ld_pc", p.PC_W as u32),
            PortDesc::new("ld_addr", p.ADDR_W as u32),
            PortDesc::new("ld_uniform", 1),
            PortDesc::new("cache_full", 1),
            PortDesc::new("bw_util", 7),
            PortDesc::new("pf_ready", 1),
        ]
    }

    fn outputs(p: &SnakeParams) -> Vec<PortDesc> {
        vec![
            PortDesc::new("pf_valid", 1),
            PortDesc::new("pf_addr", p.ADDR_W as u32),
            PortDesc::new("pf_warp", p.warp_bits()),
            PortDesc::new("pf_kind", 2),
            PortDesc::new("throttled", 1),
        ]
    }

    fn write_in_values(_p: &SnakeParams, v: &SnakeIn, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.reset as u64,
            v.ld_valid as u64,
            v.ld_warp,
            v.ld_pc,
            v.ld_addr,
            v.ld_uniform as u64,
            v.cache_full as u64,
            v.bw_util,
            v.pf_ready as u64,
        ]);
    }

    fn in_from_values(_p: &SnakeParams, v: &[u64]) -> SnakeIn {
        SnakeIn {
            reset: v[0] != 0,
            ld_valid: v[1] != 0,
            ld_warp: v[2],
            ld_pc: v[3],
            ld_addr: v[4],
            ld_uniform: v[5] != 0,
            cache_full: v[6] != 0,
            bw_util: v[7],
            pf_ready: v[8] != 0,
        }
    }

    fn write_out_values(_p: &SnakeParams, v: &SnakeOut, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.pf_valid as u64,
            v.pf_addr,
            v.pf_warp,
            v.pf_kind,
            v.throttled as u64,
        ]);
    }

    fn out_from_values(_p: &SnakeParams, v: &[u64]) -> SnakeOut {
        SnakeOut {
            pf_valid: v[0] != 0,
            pf_addr: v[1],
            pf_warp: v[2],
            pf_kind: v[3],
            throttled: v[4] != 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_values() {
        let p = SnakeParams::default();
        let v = SnakeIn {
            ld_valid: true,
            ld_warp: 63,
            ld_pc: 0x520,
            ld_addr: 0x1300,
            ld_uniform: true,
            bw_util: 71,
            pf_ready: true,
            ..Default::default()
        };
        let flat = SnakePrefetcher::in_values(&p, &v);
        assert_eq!(flat.len(), SnakePrefetcher::inputs(&p).len());
        assert_eq!(SnakePrefetcher::in_from_values(&p, &flat), v);
        let o = SnakeOut {
            pf_valid: true,
            pf_addr: 0x1364,
            pf_warp: 3,
            pf_kind: kind::INTER_WARP,
            throttled: true,
        };
        let flat = SnakePrefetcher::out_values(&p, &o);
        assert_eq!(SnakePrefetcher::out_from_values(&p, &flat), o);
        assert_eq!(p.warp_bits(), 6);
    }

    #[test]
    fn impossible_configurations_name_the_parameter() {
        let bad = |f: fn(&mut SnakeParams)| {
            let mut p = SnakeParams::default();
            f(&mut p);
            p.validate().unwrap_err().to_string()
        };
        assert!(bad(|p| p.N_WARPS = 65).contains("N_WARPS = 65"));
        assert!(bad(|p| p.N_WARPS = 48).contains("N_WARPS = 48"));
        assert!(bad(|p| p.LRU_GROUP = 11).contains("LRU_GROUP = 11"));
        assert!(bad(|p| p.BW_LOW = 70).contains("BW_LOW = 70"));
        assert!(bad(|p| p.TRAIN_WARPS = 0).contains("TRAIN_WARPS = 0"));
        assert!(SnakeParams::default().validate().is_ok());
    }
}
