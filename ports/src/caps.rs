//! `caps_prefetcher` — ports and parameters (spec `caps.md`).

use crate::bits::clog2;

/// Most address ports a configuration can have (`MAX_ADDRS` <= 4).
pub const MAX_ADDR_PORTS: usize = 4;

/// The declaration of `caps_prefetcher`'s parameters and ports
/// ([`crate::declare`]): `caps_prefetcher_ports!(path::to::m)` calls `m!`
/// with it.
#[macro_export]
macro_rules! caps_prefetcher_ports {
    ($($m:ident)::+) => {
        $($m)::+! {
            /// Marker type for the unit.
            unit CapsPrefetcher = "caps_prefetcher";
            params {
                /// Parameters of the CTA-aware prefetcher. Defaults: the paper's.
                struct CapsParams(p) {
                    /// Concurrent CTA slots (one PerCTA table each); power of two.
                    N_CTA: u64 = 8, check_pow2(2, 64);
                    /// Loads tracked per CTA.
                    PERCTA_ENTRIES: u64 = 4, check_range(1, 64);
                    /// Loads tracked with a stride.
                    DIST_ENTRIES: u64 = 4, check_range(1, 64);
                    /// Most coalesced requests a prefetchable load may have (1..=4).
                    MAX_ADDRS: u64 = 4, check_range(1, MAX_ADDR_PORTS as u64);
                    /// Bits of a warp index within a CTA.
                    WARP_IDX_W: u64 = 6, check_range(1, 10);
                    /// Misprediction counter bits.
                    CNT_W: u64 = 8, check_range(1, 16);
                    /// Prefetching for a PC stops while its counter >= this.
                    MISPRED_THRESHOLD: u64 = 128, check_range(1, (1u64 << p.CNT_W) - 1);
                    /// 1 = the leading warp's next iteration of a load enqueues job B
                    /// (rule 2; spec revision); 0 = the first spec's reading.
                    LOOP_JOBS: u64 = 1, check_range(0, 1);
                    /// 1 = a correct verification decrements the counter (rule 3; spec
                    /// revision); 0 = the paper's reading (it never decrements).
                    CNT_DECAY: u64 = 0, check_range(0, 1);
                    /// Pending prefetch jobs.
                    JOBQ_DEPTH: u64 = 2, check_range(1, 64);
                    /// Output prefetch queue depth.
                    PFQ_DEPTH: u64 = 4, check_range(1, 64);
                    /// Address width.
                    ADDR_W: u64 = 32, check_range(8, 64);
                    /// PC width.
                    PC_W: u64 = 32, check_range(1, 64);
                }
            }
            inputs {
                /// Inputs of `caps_prefetcher` for one cycle.
                struct CapsIn(p) {
                    /// Synchronous reset.
                    reset: bool = 1,
                    /// Warps in each CTA of the running kernel.
                    cfg_warps_per_cta: u64 = p.WARP_IDX_W as u32,
                    /// A new CTA is placed in slot `cta_launch_slot`.
                    cta_launch_valid: bool = 1,
                    /// Slot whose PerCTA table is cleared.
                    cta_launch_slot: u64 = p.cta_bits(),
                    /// A demand load issued this cycle.
                    ld_valid: bool = 1,
                    /// Load PC.
                    ld_pc: u64 = p.PC_W as u32,
                    /// CTA slot of the issuing warp.
                    ld_cta: u64 = p.cta_bits(),
                    /// Warp index within its CTA.
                    ld_warp: u64 = p.WARP_IDX_W as u32,
                    /// Number of coalesced requests (0..=32).
                    ld_count: u64 = 6,
                    /// First `min(ld_count, MAX_ADDRS)` request addresses; only the first
                    /// `MAX_ADDRS` entries are ports.
                    ld_addr: [u64; MAX_ADDR_PORTS] = p.ADDR_W as u32; count p.MAX_ADDRS as usize,
                    /// Address depends on loaded data: never prefetched.
                    ld_indirect: bool = 1,
                    /// The consumer accepts a prefetch this cycle.
                    pf_ready: bool = 1,
                }
            }
            outputs {
                /// Outputs of `caps_prefetcher` for one cycle.
                struct CapsOut(p) {
                    /// A prefetch request is offered.
                    pf_valid: bool = 1,
                    /// Address to prefetch.
                    pf_addr: u64 = p.ADDR_W as u32,
                    /// CTA slot the prefetch is for.
                    pf_cta: u64 = p.cta_bits(),
                    /// Warp index the prefetch is for.
                    pf_warp: u64 = p.WARP_IDX_W as u32,
                }
            }
        }
    };
}

caps_prefetcher_ports!(crate::declare_unit);

impl CapsParams {
    /// Width of a CTA slot number: `clog2(N_CTA)`.
    pub fn cta_bits(&self) -> u32 {
        clog2(self.N_CTA)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Params, UnitSpec};

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
