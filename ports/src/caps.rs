//! `caps_prefetcher` — ports and parameters (spec `caps.md`).

use serde::{Deserialize, Serialize};

use crate::config::{check_pow2, check_range, ConfigError};
use crate::{clog2, Params, PortDesc, UnitSpec};

/// Most address ports a configuration can have (`MAX_ADDRS` <= 4).
pub const MAX_ADDR_PORTS: usize = 4;

/// Parameters of the CTA-aware prefetcher. Defaults: the paper's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct CapsParams {
    /// Concurrent CTA slots (one PerCTA table each); power of two.
    pub N_CTA: u64,
    /// Loads tracked per CTA.
    pub PERCTA_ENTRIES: u64,
    /// Loads tracked with a stride.
    pub DIST_ENTRIES: u64,
    /// Most coalesced requests a prefetchable load may have (1..=4).
    pub MAX_ADDRS: u64,
    /// Bits of a warp index within a CTA.
    pub WARP_IDX_W: u64,
    /// Misprediction counter bits.
    pub CNT_W: u64,
    /// Prefetching for a PC stops while its counter >= this.
    pub MISPRED_THRESHOLD: u64,
    /// 1 = the leading warp's next iteration of a load enqueues job B
    /// (rule 2; spec revision); 0 = the first spec's reading.
    pub LOOP_JOBS: u64,
    /// 1 = a correct verification decrements the counter (rule 3; spec
    /// revision); 0 = the paper's reading (it never decrements).
    pub CNT_DECAY: u64,
    /// Pending prefetch jobs.
    pub JOBQ_DEPTH: u64,
    /// Output prefetch queue depth.
    pub PFQ_DEPTH: u64,
    /// Address width.
    pub ADDR_W: u64,
    /// PC width.
    pub PC_W: u64,
}

impl Default for CapsParams {
    fn default() -> Self {
        CapsParams {
            N_CTA: 8,
            PERCTA_ENTRIES: 4,
            DIST_ENTRIES: 4,
            MAX_ADDRS: 4,
            WARP_IDX_W: 6,
            CNT_W: 8,
            MISPRED_THRESHOLD: 128,
            LOOP_JOBS: 1,
            CNT_DECAY: 0,
            JOBQ_DEPTH: 2,
            PFQ_DEPTH: 4,
            ADDR_W: 32,
            PC_W: 32,
        }
    }
}

impl CapsParams {
    /// Width of a CTA slot number: `clog2(N_CTA)`.
    pub fn cta_bits(&self) -> u32 {
        clog2(self.N_CTA)
    }
}

impl Params for CapsParams {
    fn validate(&self) -> Result<(), ConfigError> {
        check_pow2("N_CTA", self.N_CTA, 2, 64)?;
        check_range("PERCTA_ENTRIES", self.PERCTA_ENTRIES, 1, 64)?;
        check_range("DIST_ENTRIES", self.DIST_ENTRIES, 1, 64)?;
        check_range("MAX_ADDRS", self.MAX_ADDRS, 1, MAX_ADDR_PORTS as u64)?;
        check_range("WARP_IDX_W", self.WARP_IDX_W, 1, 10)?;
        check_range("CNT_W", self.CNT_W, 1, 16)?;
        check_range(
            "MISPRED_THRESHOLD",
            self.MISPRED_THRESHOLD,
            1,
            (1u64 << self.CNT_W) - 1,
        )?;
        check_range("LOOP_JOBS", self.LOOP_JOBS, 0, 1)?;
        check_range("CNT_DECAY", self.CNT_DECAY, 0, 1)?;
        check_range("JOBQ_DEPTH", self.JOBQ_DEPTH, 1, 64)?;
        check_range("PFQ_DEPTH", self.PFQ_DEPTH, 1, 64)?;
        check_range("ADDR_W", self.ADDR_W, 8, 64)?;
        check_range("PC_W", self.PC_W, 1, 64)?;
        Ok(())
    }

    fn list(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("N_CTA", self.N_CTA),
            ("PERCTA_ENTRIES", self.PERCTA_ENTRIES),
            ("DIST_ENTRIES", self.DIST_ENTRIES),
            ("MAX_ADDRS", self.MAX_ADDRS),
            ("WARP_IDX_W", self.WARP_IDX_W),
            ("CNT_W", self.CNT_W),
            ("MISPRED_THRESHOLD", self.MISPRED_THRESHOLD),
            ("LOOP_JOBS", self.LOOP_JOBS),
            ("CNT_DECAY", self.CNT_DECAY),
            ("JOBQ_DEPTH", self.JOBQ_DEPTH),
            ("PFQ_DEPTH", self.PFQ_DEPTH),
            ("ADDR_W", self.ADDR_W),
            ("PC_W", self.PC_W),
        ]
    }
}

/// Inputs of `caps_prefetcher` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CapsIn {
    /// Synchronous reset.
    pub reset: bool,
    /// Warps in each CTA of the running kernel.
    pub cfg_warps_per_cta: u64,
    /// A new CTA is placed in slot `cta_launch_slot`.
    pub cta_launch_valid: bool,
    /// Slot whose PerCTA table is cleared.
    pub cta_launch_slot: u64,
    /// A demand load issued this cycle.
    pub ld_valid: bool,
    /// Load PC.
    pub ld_pc: u64,
    /// CTA slot of the issuing warp.
    pub ld_cta: u64,
    /// Warp index within its CTA.
    pub ld_warp: u64,
    /// Number of coalesced requests (0..=32).
    pub ld_count: u64,
    /// First `min(ld_count, MAX_ADDRS)` request addresses; only the first
    /// `MAX_ADDRS` entries are ports.
    pub ld_addr: [u64; MAX_ADDR_PORTS],
    /// Address depends on loaded data: never prefetched.
    pub ld_indirect: bool,
    /// The consumer accepts a prefetch this cycle.
    pub pf_ready: bool,
}

/// Outputs of `caps_prefetcher` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CapsOut {
    /// A prefetch request is offered.
    pub pf_valid: bool,
    /// Address to prefetch.
    pub pf_addr: u64,
    /// CTA slot the prefetch is for.
    pub pf_cta: u64,
    /// Warp index the prefetch is for.
    pub pf_warp: u64,
}

/// Marker type for the unit.
pub struct CapsPrefetcher;

impl UnitSpec for CapsPrefetcher {
    const NAME: &'static str = "caps_prefetcher";
    type Params = CapsParams;
    type In = CapsIn;
    type Out = CapsOut;

    fn inputs(p: &CapsParams) -> Vec<PortDesc> {
        let mut v = vec![
            PortDesc::new("reset", 1),
            PortDesc::new("cfg_warps_per_cta", p.WARP_IDX_W as u32),
            PortDesc::new("cta_launch_valid", 1),
            PortDesc::new("cta_launch_slot", p.cta_bits()),
            PortDesc::new("ld_valid", 1),
            PortDesc::new("ld_pc", p.PC_W as u32),
            PortDesc::new("ld_cta", p.cta_bits()),
            PortDesc::new("ld_warp", p.WARP_IDX_W as u32),
            PortDesc::new("ld_count", 6),
        ];
        for k in 0..p.MAX_ADDRS {
            v.push(PortDesc::new(format!("ld_addr{k}"), p.ADDR_W as u32));
        }
        v.push(PortDesc::new("ld_indirect", 1));
        v.push(PortDesc::new("pf_ready", 1));
        v
    }

    fn outputs(p: &CapsParams) -> Vec<PortDesc> {
        vec![
            PortDesc::new("pf_valid", 1),
            PortDesc::new("pf_addr", p.ADDR_W as u32),
            PortDesc::new("pf_cta", p.cta_bits()),
            PortDesc::new("pf_warp", p.WARP_IDX_W as u32),
        ]
    }

    fn write_in_values(p: &CapsParams, v: &CapsIn, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.reset as u64,
            v.cfg_warps_per_cta,
            v.cta_launch_valid as u64,
            v.cta_launch_slot,
            v.ld_valid as u64,
            v.ld_pc,
            v.ld_cta,
            v.ld_warp,
            v.ld_count,
        ]);
        out.extend_from_slice(&v.ld_addr[..p.MAX_ADDRS as usize]);
        out.push(v.ld_indirect as u64);
        out.push(v.pf_ready as u64);
    }

    fn in_from_values(p: &CapsParams, v: &[u64]) -> CapsIn {
        let m = p.MAX_ADDRS as usize;
        let mut ld_addr = [0; MAX_ADDR_PORTS];
        ld_addr[..m].copy_from_slice(&v[9..9 + m]);
        CapsIn {
            reset: v[0] != 0,
            cfg_warps_per_cta: v[1],
            cta_launch_valid: v[2] != 0,
            cta_launch_slot: v[3],
            ld_valid: v[4] != 0,
            ld_pc: v[5],
            ld_cta: v[6],
            ld_warp: v[7],
            ld_count: v[8],
            ld_addr,
            ld_indirect: v[9 + m] != 0,
            pf_ready: v[10 + m] != 0,
        }
    }

    fn write_out_values(_p: &CapsParams, v: &CapsOut, out: &mut Vec<u64>) {
        out.extend_from_slice(&[v.pf_valid as u64, v.pf_addr, v.pf_cta, v.pf_warp]);
    }

    fn out_from_values(_p: &CapsParams, v: &[u64]) -> CapsOut {
        CapsOut {
            pf_valid: v[0] != 0,
            pf_addr: v[1],
            pf_cta: v[2],
            pf_warp: v[3],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_values() {
        let p = CapsParams {
            MAX_ADDRS: 2,
            ..Default::default()
        };
        let v = CapsIn {
            reset: false,
            cfg_warps_per_cta: 3,
            ld_valid: true,
            ld_pc: 0x40,
            ld_count: 2,
            ld_addr: [0x100, 0x180, 0, 0],
            pf_ready: true,
            ..Default::default()
        };
        let flat = CapsPrefetcher::in_values(&p, &v);
        assert_eq!(flat.len(), CapsPrefetcher::inputs(&p).len());
        assert_eq!(CapsPrefetcher::in_from_values(&p, &flat), v);
    }

    #[test]
    fn threshold_must_fit_counter() {
        let p = CapsParams {
            CNT_W: 4,
            ..Default::default()
        };
        let e = p.validate().unwrap_err().to_string();
        assert!(e.contains("MISPRED_THRESHOLD = 128"), "{e}");
    }
}
