//! `dac_expander` — ports and parameters (spec `dac.md`).

use crate::bits::clog2;

/// Tuple kinds on `enq_kind`.
pub mod kind {
    /// An address for a store or a non-prefetched access.
    pub const ADDR: u64 = 0;
    /// A load's address, with an early memory request per record.
    pub const DATA: u64 = 1;
    /// A predicate (`v CMP scalar`).
    pub const PRED: u64 = 2;
}

/// Access sizes on `enq_gran` / `rsp_gran`.
pub mod gran {
    /// 1 byte (32-byte regions).
    pub const BYTE: u64 = 0;
    /// 2 bytes (64-byte regions).
    pub const HALF: u64 = 1;
    /// 4 bytes (128-byte regions: one line).
    pub const WORD: u64 = 2;
}

/// Comparisons on `enq_cmp` (signed 32-bit `v CMP scalar`).
pub mod cmp {
    /// `<`
    pub const LT: u64 = 0;
    /// `<=`
    pub const LE: u64 = 1;
    /// `>`
    pub const GT: u64 = 2;
    /// `>=`
    pub const GE: u64 = 3;
    /// `==`
    pub const EQ: u64 = 4;
    /// `!=`
    pub const NE: u64 = 5;
}

/// The declaration of `dac_expander`'s parameters and ports
/// ([`crate::declare`]): `dac_expander_ports!(path::to::m)` calls `m!` with
/// it.
#[macro_export]
macro_rules! dac_expander_ports {
    ($($m:ident)::+) => {
        $($m)::+! {
            /// Marker type for the unit.
            unit DacExpander = "dac_expander";
            params {
                /// Parameters of the DAC expansion datapath. Defaults: the paper's (Fermi
                /// SM).
                struct DacParams(p) {
                    /// Concurrent non-affine warps per SM (per-warp queues).
                    N_WARPS: u64 = 48, check_range(1, 64);
                    /// CTA slots.
                    N_CTA: u64 = 8, check_range(1, 16);
                    /// Affine tuple queue entries.
                    ATQ_DEPTH: u64 = 24, check_range(1, 64);
                    /// Address records per warp.
                    // Per-warp queues live in one memory addressed {warp, pointer}.
                    PWAQ_DEPTH: u64 = 4, check_pow2(1, 16);
                    /// Predicate masks per warp.
                    PWPQ_DEPTH: u64 = 4, check_pow2(1, 16);
                    /// Address width (the tuple arithmetic is 32-bit: only 32).
                    ADDR_W: u64 = 32, check_range(32, 32);
                }
            }
            inputs {
                /// Inputs of `dac_expander` for one cycle.
                struct DacIn(p) {
                    /// Synchronous reset.
                    reset: bool = 1,
                    /// `blockDim.x = 2^k`, k = 0..=10.
                    cfg_bdx_log2: u64 = 4,
                    /// Threads per CTA (1..=1024).
                    cfg_threads: u64 = 11,
                    /// `ceil(cfg_threads / 32)`.
                    cfg_warps_per_cta: u64 = 6,
                    /// A CTA becomes active in a slot.
                    cta_launch_valid: bool = 1,
                    /// The slot.
                    cta_launch_slot: u64 = p.slot_bits(),
                    /// Its CTA index x.
                    cta_launch_x: u64 = 16,
                    /// Its CTA index y.
                    cta_launch_y: u64 = 16,
                    /// A slot becomes inactive.
                    cta_done_valid: bool = 1,
                    /// The slot.
                    cta_done_slot: u64 = p.slot_bits(),
                    /// A tuple is offered.
                    enq_valid: bool = 1,
                    /// [`kind`]: 0 ADDR, 1 DATA, 2 PRED (3 reserved).
                    enq_kind: u64 = 2,
                    /// `base`.
                    enq_base: u64 = p.ADDR_W as u32,
                    /// Offset per `tid.x`.
                    enq_off_tx: u64 = p.ADDR_W as u32,
                    /// Offset per `tid.y`.
                    enq_off_ty: u64 = p.ADDR_W as u32,
                    /// Offset per `ctaid.x`.
                    enq_off_cx: u64 = p.ADDR_W as u32,
                    /// Offset per `ctaid.y`.
                    enq_off_cy: u64 = p.ADDR_W as u32,
                    /// [`gran`]: 0 byte, 1 half-word, 2 word (3 reserved).
                    enq_gran: u64 = 2,
                    /// [`cmp`]: 0 LT, 1 LE, 2 GT, 3 GE, 4 EQ, 5 NE.
                    enq_cmp: u64 = 3,
                    /// The scalar a predicate compares with.
                    enq_scalar: u64 = 32,
                    /// Guard bit (revision 2, `docs/units/dac_expander.md`,
                    /// "Guard masks"): a PRED tuple with it set is a *guard*
                    /// (its masks are also written to the per-warp guard masks
                    /// `G[w]`); an ADDR or DATA tuple with it set is *guarded*
                    /// (only lanes whose bit of `G[w]` is set are active). 0:
                    /// the tuple behaves as in revision 1.
                    enq_guard: bool = 1,
                    /// The memory takes the offered early request.
                    mem_ready: bool = 1,
                    /// A warp dequeues its next record.
                    deq_valid: bool = 1,
                    /// The warp (SM warp id).
                    deq_warp: u64 = p.warp_bits(),
                    /// 0 address, 1 predicate.
                    deq_kind: u64 = 1,
                }
            }
            outputs {
                /// Outputs of `dac_expander` for one cycle.
                struct DacOut(p) {
                    /// The ATQ can take a tuple.
                    enq_ready: bool = 1,
                    /// An early memory request (DATA tuples) is offered.
                    mem_valid: bool = 1,
                    /// Its line's byte address (low 7 bits zero).
                    mem_addr: u64 = p.ADDR_W as u32,
                    /// The response to the previous cycle's dequeue.
                    rsp_valid: bool = 1,
                    /// The queue was not empty (a record was popped).
                    rsp_hit: bool = 1,
                    /// Region start (address records).
                    rsp_addr: u64 = p.ADDR_W as u32,
                    /// Access mask (address records) or predicate mask.
                    rsp_mask: u64 = 32,
                    /// Access size of an address record.
                    rsp_gran: u64 = 2,
                    /// The warp's final record of its tuple.
                    rsp_last: bool = 1,
                    /// Tuples in the ATQ, the one being expanded included.
                    atq_count: u64 = p.count_bits(),
                    /// Warps whose predicate mask took the fast path.
                    stat_pred_fast: u64 = 32,
                    /// Warps whose predicate mask took the slow path.
                    stat_pred_slow: u64 = 32,
                    /// Warps a guarded ADDR/DATA tuple skipped because no lane
                    /// was active under the warp's guard mask (wrapping).
                    stat_guard_skips: u64 = 32,
                }
            }
        }
    };
}

dac_expander_ports!(crate::declare_unit);

impl DacParams {
    /// Width of a warp id (`deq_warp`): `clog2(N_WARPS)`.
    pub fn warp_bits(&self) -> u32 {
        clog2(self.N_WARPS)
    }

    /// Width of a CTA slot (`cta_launch_slot`, `cta_done_slot`):
    /// `clog2(N_CTA)`.
    pub fn slot_bits(&self) -> u32 {
        clog2(self.N_CTA)
    }

    /// Width of `atq_count`: `clog2(ATQ_DEPTH + 1)`.
    pub fn count_bits(&self) -> u32 {
        clog2(self.ATQ_DEPTH + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Params, UnitSpec};

    #[test]
    fn round_trip_values() {
        let p = DacParams::default();
        let v = DacIn {
            cfg_bdx_log2: 5,
            cfg_threads: 1024,
            cfg_warps_per_cta: 32,
            cta_launch_valid: true,
            cta_launch_slot: 7,
            cta_launch_x: 0xFFFF,
            cta_launch_y: 3,
            enq_valid: true,
            enq_kind: kind::PRED,
            enq_base: 0x8000_0000,
            enq_off_tx: 4,
            enq_off_ty: 0xFFFF_FFFC,
            enq_off_cx: 128,
            enq_off_cy: 4096,
            enq_gran: gran::WORD,
            enq_cmp: cmp::NE,
            enq_scalar: 17,
            enq_guard: true,
            mem_ready: true,
            deq_valid: true,
            deq_warp: 47,
            deq_kind: 1,
            ..Default::default()
        };
        let flat = DacExpander::in_values(&p, &v);
        assert_eq!(flat.len(), DacExpander::inputs(&p).len());
        assert_eq!(DacExpander::in_from_values(&p, &flat), v);
        let o = DacOut {
            enq_ready: true,
            mem_valid: true,
            mem_addr: 0x1080,
            rsp_valid: true,
            rsp_hit: true,
            rsp_addr: 0x81000,
            rsp_mask: 0xFFFF_FFFF,
            rsp_gran: gran::WORD,
            rsp_last: true,
            atq_count: 24,
            stat_pred_fast: 9,
            stat_pred_slow: 1,
            stat_guard_skips: 5,
        };
        let flat = DacExpander::out_values(&p, &o);
        assert_eq!(flat.len(), DacExpander::outputs(&p).len());
        assert_eq!(DacExpander::out_from_values(&p, &flat), o);
        assert_eq!((p.warp_bits(), p.slot_bits(), p.count_bits()), (6, 3, 5));
    }

    #[test]
    fn impossible_configurations_name_the_parameter() {
        let bad = |f: fn(&mut DacParams)| {
            let mut p = DacParams::default();
            f(&mut p);
            p.validate().unwrap_err().to_string()
        };
        assert!(bad(|p| p.N_WARPS = 0).contains("N_WARPS = 0"));
        assert!(bad(|p| p.N_WARPS = 65).contains("N_WARPS = 65"));
        assert!(bad(|p| p.PWAQ_DEPTH = 3).contains("PWAQ_DEPTH = 3"));
        assert!(bad(|p| p.PWPQ_DEPTH = 32).contains("PWPQ_DEPTH = 32"));
        assert!(bad(|p| p.ATQ_DEPTH = 0).contains("ATQ_DEPTH = 0"));
        assert!(bad(|p| p.ADDR_W = 48).contains("ADDR_W = 48"));
        assert!(DacParams::default().validate().is_ok());
    }
}
