//! `snake_prefetcher` — ports and parameters (spec `snake.md`).

use crate::bits::clog2;

/// Prefetch kinds on `pf_kind`.
pub mod kind {
    /// Inter-thread chain (a hop through a promoted link).
    pub const CHAIN: u64 = 0;
    /// Inter-warp stride (a future warp's address).
    pub const INTER_WARP: u64 = 1;
    /// Intra-warp stride (the warp's next loop iteration).
    pub const INTRA_WARP: u64 = 2;
}

/// The declaration of `snake_prefetcher`'s parameters and ports
/// ([`crate::declare`]): `snake_prefetcher_ports!(path::to::m)` calls `m!`
/// with it.
#[macro_export]
macro_rules! snake_prefetcher_ports {
    ($($m:ident)::+) => {
        $($m)::+! {
            /// Marker type for the unit.
            unit SnakePrefetcher = "snake_prefetcher";
            params {
                /// Parameters of the Snake prefetcher. Defaults: the paper's (Volta SM,
                /// 64 warps).
                struct SnakeParams(p) {
                    /// Warps per SM: Head rows and warp-vector bits.
                    // The warp vector is one word of at most 64 bits, one bit per warp
                    // id of `clog2(N_WARPS)` bits.
                    N_WARPS: u64 = 64, check_pow2(2, 64);
                    /// Tail table entries.
                    TAIL_ENTRIES: u64 = 10, check_range(1, 32);
                    /// Distinct warps that promote a link.
                    TRAIN_WARPS: u64 = 3, check_range(1, p.N_WARPS);
                    /// Eviction looks at this many least recently used entries.
                    LRU_GROUP: u64 = 4, check_range(1, p.TAIL_ENTRIES);
                    /// Most inter-thread hops per load.
                    CHAIN_DEPTH: u64 = 3, check_range(1, 15);
                    /// Future warps prefetched with an inter-warp stride.
                    IW_DEGREE: u64 = 4, check_range(0, 15);
                    /// Revision 2: a link is trained for the warps that observed it once
                    /// it repeats (1), or only by two distinct warps (0, revision 1).
                    OWN_LINKS: u64 = 1, check_range(0, 1);
                    /// Revision 2: most hops the walk follows to close a loop
                    /// (`CHAIN_DEPTH` reproduces revision 1).
                    LOOP_HOPS: u64 = 8, check_range(p.CHAIN_DEPTH, 15);
                    /// Revision 2: loop iterations ahead prefetched with a trained
                    /// intra-warp stride (1 reproduces revision 1; 0 prefetches none).
                    INTRA_DEGREE: u64 = 4, check_range(0, 15);
                    /// Revision 2: inter-warp targets stay below `ld_cta_end`, inside the
                    /// issuing warp's CTA (1), or below `N_WARPS` (0, revision 1).
                    IW_SAME_CTA: u64 = 1, check_range(0, 1);
                    /// Revision 2: prefetches carry the footprint of the load they
                    /// predict on `pf_span` (1), or `pf_span = 0` (0, revision 1).
                    SPAN: u64 = 1, check_range(0, 1);
                    /// Pending walk jobs.
                    WALKQ_DEPTH: u64 = 2, check_range(1, 64);
                    /// Output prefetch queue depth.
                    PFQ_DEPTH: u64 = 4, check_range(1, 64);
                    /// Pause (cycles) after the cache reports it is full.
                    THROTTLE_CYCLES: u64 = 50, check_range(0, 65535);
                    /// Bandwidth utilisation (percent) at or above which prefetching halts.
                    BW_HIGH: u64 = 70, check_range(1, 100);
                    /// Bandwidth utilisation (percent) at or below which it resumes.
                    BW_LOW: u64 = 50, check_range(0, p.BW_HIGH - 1);
                    /// Address width.
                    ADDR_W: u64 = 32, check_range(8, 64);
                    /// PC width.
                    PC_W: u64 = 32, check_range(1, 64);
                }
            }
            inputs {
                /// Inputs of `snake_prefetcher` for one cycle.
                struct SnakeIn(p) {
                    /// Synchronous reset.
                    reset: bool = 1,
                    /// A demand load this cycle (always accepted).
                    ld_valid: bool = 1,
                    /// Warp id within the SM.
                    ld_warp: u64 = p.warp_bits(),
                    /// Load PC.
                    ld_pc: u64 = p.PC_W as u32,
                    /// Address of the warp's first active thread.
                    ld_addr: u64 = p.ADDR_W as u32,
                    /// All active threads are separated by one common stride; a load
                    /// without it is ignored entirely.
                    ld_uniform: bool = 1,
                    /// One past the last warp slot of the issuing warp's CTA (the
                    /// harness gives a CTA contiguous warp slots).
                    ld_cta_end: u64 = p.warp_bits() + 1,
                    /// Bytes from the first to the last active thread's address of this
                    /// load (0 with one active thread), saturating at 4095.
                    ld_span: u64 = SPAN_W,
                    /// The unified cache has no free space this cycle.
                    cache_full: bool = 1,
                    /// Measured memory bandwidth utilisation, percent (0..=100).
                    bw_util: u64 = 7,
                    /// The consumer takes the offered prefetch.
                    pf_ready: bool = 1,
                }
            }
            outputs {
                /// Outputs of `snake_prefetcher` for one cycle.
                struct SnakeOut(p) {
                    /// A prefetch is offered.
                    pf_valid: bool = 1,
                    /// Address to prefetch.
                    pf_addr: u64 = p.ADDR_W as u32,
                    /// Warp the prefetch is for.
                    pf_warp: u64 = p.warp_bits(),
                    /// [`kind`]: 0 chain, 1 inter-warp, 2 intra-warp.
                    pf_kind: u64 = 2,
                    /// Footprint of the predicted load (as `ld_span`); 0 when `SPAN = 0`.
                    pf_span: u64 = SPAN_W,
                    /// Prefetching is halted.
                    throttled: bool = 1,
                }
            }
        }
    };
}

/// Width of `ld_span` and `pf_span` (a footprint of 0..=4095 bytes).
pub const SPAN_W: u32 = 12;

snake_prefetcher_ports!(crate::declare_unit);

impl SnakeParams {
    /// Width of a warp id: `clog2(N_WARPS)`.
    pub fn warp_bits(&self) -> u32 {
        clog2(self.N_WARPS)
    }

    /// The same configuration with revision 2's parameters at the values
    /// that reproduce revision 1 (spec `snake.md`, "Revision 2": `OWN_LINKS
    /// = 0`, `LOOP_HOPS = CHAIN_DEPTH`, `INTRA_DEGREE = 1`, `IW_SAME_CTA =
    /// 0`, `SPAN = 0`).
    pub fn revision1(&self) -> SnakeParams {
        SnakeParams {
            OWN_LINKS: 0,
            LOOP_HOPS: self.CHAIN_DEPTH,
            INTRA_DEGREE: 1,
            IW_SAME_CTA: 0,
            SPAN: 0,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Params, UnitSpec};

    #[test]
    fn round_trip_values() {
        let p = SnakeParams::default();
        let v = SnakeIn {
            ld_valid: true,
            ld_warp: 63,
            ld_pc: 0x520,
            ld_addr: 0x1300,
            ld_uniform: true,
            ld_cta_end: 64,
            ld_span: 124,
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
            pf_span: 4095,
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
        assert!(bad(|p| p.LOOP_HOPS = 2).contains("LOOP_HOPS = 2"));
        assert!(bad(|p| p.OWN_LINKS = 2).contains("OWN_LINKS = 2"));
        assert!(SnakeParams::default().revision1().validate().is_ok());
        assert!(SnakeParams::default().validate().is_ok());
    }
}
