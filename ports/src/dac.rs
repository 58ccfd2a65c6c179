//! `dac_expander` — ports and parameters (spec `dac.md`).

use serde::{Deserialize, Serialize};

use crate::config::{check_pow2, check_range, ConfigError};
use crate::{clog2, Params, PortDesc, UnitSpec};

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

/// Parameters of the DAC expansion datapath. Defaults: the paper's (Fermi
/// SM).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct DacParams {
    /// Concurrent non-affine warps per SM (per-warp queues).
    pub N_WARPS: u64,
    /// CTA slots.
    pub N_CTA: u64,
    /// Affine tuple queue entries.
    pub ATQ_DEPTH: u64,
    /// Address records per warp.
    pub PWAQ_DEPTH: u64,
    /// Predicate masks per warp.
    pub PWPQ_DEPTH: u64,
    /// Address width (the tuple arithmetic is 32-bit: only 32).
    pub ADDR_W: u64,
}

impl Default for DacParams {
    fn default() -> Self {
        DacParams {
            N_WARPS: 48,
            N_CTA: 8,
            ATQ_DEPTH: 24,
            PWAQ_DEPTH: 4,
            PWPQ_DEPTH: 4,
            ADDR_W: 32,
        }
    }
}

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

impl Params for DacParams {
    fn validate(&self) -> Result<(), ConfigError> {
        check_range("N_WARPS", self.N_WARPS, 1, 64)?;
        check_range("N_CTA", self.N_CTA, 1, 16)?;
        check_range("ATQ_DEPTH", self.ATQ_DEPTH, 1, 64)?;
        // Per-warp queues live in one memory addressed {warp, pointer}.
        check_pow2("PWAQ_DEPTH", self.PWAQ_DEPTH, 1, 16)?;
        check_pow2("PWPQ_DEPTH", self.PWPQ_DEPTH, 1, 16)?;
        check_range("ADDR_W", self.ADDR_W, 32, 32)?;
        Ok(())
    }

    fn list(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("N_WARPS", self.N_WARPS),
            ("N_CTA", self.N_CTA),
            ("ATQ_DEPTH", self.ATQ_DEPTH),
            ("PWAQ_DEPTH", self.PWAQ_DEPTH),
            ("PWPQ_DEPTH", self.PWPQ_DEPTH),
            ("ADDR_W", self.ADDR_W),
        ]
    }
}

/// Inputs of `dac_expander` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DacIn {
    /// Synchronous reset.
    pub reset: bool,
    /// `blockDim.x = 2^k`, k = 0..=10.
    pub cfg_bdx_log2: u64,
    /// Threads per CTA (1..=1024).
    pub cfg_threads: u64,
    /// `ceil(cfg_threads / 32)`.
    pub cfg_warps_per_cta: u64,
    /// A CTA becomes active in a slot.
    pub cta_launch_valid: bool,
    /// The slot.
    pub cta_launch_slot: u64,
    /// Its CTA index x.
    pub cta_launch_x: u64,
    /// Its CTA index y.
    pub cta_launch_y: u64,
    /// A slot becomes inactive.
    pub cta_done_valid: bool,
    /// The slot.
    pub cta_done_slot: u64,
    /// A tuple is offered.
    pub enq_valid: bool,
    /// [`kind`]: 0 ADDR, 1 DATA, 2 PRED (3 reserved).
    pub enq_kind: u64,
    /// `base`.
    pub enq_base: u64,
    /// Offset per `tid.x`.
    pub enq_off_tx: u64,
    /// Offset per `tid.y`.
    pub enq_off_ty: u64,
    /// Offset per `ctaid.x`.
    pub enq_off_cx: u64,
    /// Offset per `ctaid.y`.
    pub enq_off_cy: u64,
    /// [`gran`]: 0 byte, 1 half-word, 2 word (3 reserved).
    pub enq_gran: u64,
    /// [`cmp`]: 0 LT, 1 LE, 2 GT, 3 GE, 4 EQ, 5 NE.
    pub enq_cmp: u64,
    /// The scalar a predicate compares with.
    pub enq_scalar: u64,
    /// The memory takes the offered early request.
    pub mem_ready: bool,
    /// A warp dequeues its next record.
    pub deq_valid: bool,
    /// The warp (SM warp id).
    pub deq_warp: u64,
    /// 0 address, 1 predicate.
    pub deq_kind: u64,
}

/// Outputs of `dac_expander` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DacOut {
    /// The ATQ can take a tuple.
    pub enq_ready: bool,
    /// An early memory request (DATA tuples) is offered.
    pub mem_valid: bool,
    /// Its line's byte address (low 7 bits zero).
    pub mem_addr: u64,
    /// The response to the previous cycle's dequeue.
    pub rsp_valid: bool,
    /// The queue was not empty (a record was popped).
    pub rsp_hit: bool,
    /// Region start (address records).
    pub rsp_addr: u64,
    /// Access mask (address records) or predicate mask.
    pub rsp_mask: u64,
    /// Access size of an address record.
    pub rsp_gran: u64,
    /// The warp's final record of its tuple.
    pub rsp_last: bool,
    /// Tuples in the ATQ, the one being expanded included.
    pub atq_count: u64,
    /// Warps whose predicate mask took the fast path.
    pub stat_pred_fast: u64,
    /// Warps whose predicate mask took the slow path.
    pub stat_pred_slow: u64,
}

/// Marker type for the unit.
pub struct DacExpander;

impl UnitSpec for DacExpander {
    const NAME: &'static str = "dac_expander";
    type Params = DacParams;
    type In = DacIn;
    type Out = DacOut;

    fn inputs(p: &DacParams) -> Vec<PortDesc> {
        let a = p.ADDR_W as u32;
        vec![
            PortDesc::new("reset", 1),
            PortDesc::new("cfg_bdx_log2", 4),
            PortDesc::new("cfg_threads", 11),
            PortDesc::new("cfg_warps_per_cta", 6),
            PortDesc::new("cta_launch_valid", 1),
            PortDesc::new("cta_launch_slot", p.slot_bits()),
            PortDesc::new("cta_launch_x", 16),
            PortDesc::new("cta_launch_y", 16),
            PortDesc::new("cta_done_valid", 1),
            PortDesc::new("cta_done_slot", p.slot_bits()),
            PortDesc::new("enq_valid", 1),
            PortDesc::new("enq_kind", 2),
            PortDesc::new("enq_base", a),
            PortDesc::new("enq_off_tx", a),
            PortDesc::new("enq_off_ty", a),
            PortDesc::new("enq_off_cx", a),
            PortDesc::new("enq_off_cy", a),
            PortDesc::new("enq_gran", 2),
            PortDesc::new("enq_cmp", 3),
            PortDesc::new("enq_scalar", 32),
            PortDesc::new("mem_ready", 1),
            PortDesc::new("deq_valid", 1),
            PortDesc::new("deq_warp", p.warp_bits()),
            PortDesc::new("deq_kind", 1),
        ]
    }

    fn outputs(p: &DacParams) -> Vec<PortDesc> {
        let a = p.ADDR_W as u32;
        vec![
            PortDesc::new("enq_ready", 1),
            PortDesc::new("mem_valid", 1),
            PortDesc::new("mem_addr", a),
            PortDesc::new("rsp_valid", 1),
            PortDesc::new("rsp_hit", 1),
            PortDesc::new("rsp_addr", a),
            PortDesc::new("rsp_mask", 32),
            PortDesc::new("rsp_gran", 2),
            PortDesc::new("rsp_last", 1),
            PortDesc::new("atq_count", p.count_bits()),
            PortDesc::new("stat_pred_fast", 32),
            PortDesc::new("stat_pred_slow", 32),
        ]
    }

    fn write_in_values(_p: &DacParams, v: &DacIn, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.reset as u64,
            v.cfg_bdx_log2,
            v.cfg_threads,
            v.cfg_warps_per_cta,
            v.cta_launch_valid as u64,
            v.cta_launch_slot,
            v.cta_launch_x,
            v.cta_launch_y,
            v.cta_done_valid as u64,
            v.cta_done_slot,
            v.enq_valid as u64,
            v.enq_kind,
            v.enq_base,
            v.enq_off_tx,
            v.enq_off_ty,
            v.enq_off_cx,
            v.enq_off_cy,
            v.enq_gran,
            v.enq_cmp,
            v.enq_scalar,
            v.mem_ready as u64,
            v.deq_valid as u64,
            v.deq_warp,
            v.deq_kind,
        ]);
    }

    fn in_from_values(_p: &DacParams, v: &[u64]) -> DacIn {
        DacIn {
            reset: v[0] != 0,
            cfg_bdx_log2: v[1],
            cfg_threads: v[2],
            cfg_warps_per_cta: v[3],
            cta_launch_valid: v[4] != 0,
            cta_launch_slot: v[5],
            cta_launch_x: v[6],
            cta_launch_y: v[7],
            cta_done_valid: v[8] != 0,
            cta_done_slot: v[9],
            enq_valid: v[10] != 0,
            enq_kind: v[11],
            enq_base: v[12],
            enq_off_tx: v[13],
            enq_off_ty: v[14],
            enq_off_cx: v[15],
            enq_off_cy: v[16],
            enq_gran: v[17],
            enq_cmp: v[18],
            enq_scalar: v[19],
            mem_ready: v[20] != 0,
            deq_valid: v[21] != 0,
            deq_warp: v[22],
            deq_kind: v[23],
        }
    }

    fn write_out_values(_p: &DacParams, v: &DacOut, out: &mut Vec<u64>) {
        out.extend_from_slice(&[
            v.enq_ready as u64,
            v.mem_valid as u64,
            v.mem_addr,
            v.rsp_valid as u64,
            v.rsp_hit as u64,
            v.rsp_addr,
            v.rsp_mask,
            v.rsp_gran,
            v.rsp_last as u64,
            v.atq_count,
            v.stat_pred_fast,
            v.stat_pred_slow,
        ]);
    }

    fn out_from_values(_p: &DacParams, v: &[u64]) -> DacOut {
        DacOut {
            enq_ready: v[0] != 0,
            mem_valid: v[1] != 0,
            mem_addr: v[2],
            rsp_valid: v[3] != 0,
            rsp_hit: v[4] != 0,
            rsp_addr: v[5],
            rsp_mask: v[6],
            rsp_gran: v[7],
            rsp_last: v[8] != 0,
            atq_count: v[9],
            stat_pred_fast: v[10],
            stat_pred_slow: v[11],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
