//! The lanes of one warp for one tuple ([`WarpLanes`]): the tuple as held
//! in the ATQ ([`Tuple`]), the CTA shape ([`Geometry`]), lane values,
//! address records ([`Record`]) and predicate bits, straight from the
//! spec's and the contract's formulas.

use ports::dac::{cmp, gran, kind, DacIn};
use ports::mask;

/// Lanes (threads) per warp.
pub const WARP_LANES: u32 = 32;
/// Lanes the slow predicate path compares per cycle.
pub const SLOW_GROUP_LANES: u32 = 8;

/// Width of `cfg_bdx_log2`.
const BDX_LOG2_W: u32 = 4;
/// Width of `cfg_threads`.
const THREADS_W: u32 = 11;
/// Width of `cfg_warps_per_cta`.
const WARPS_PER_CTA_W: u32 = 6;
/// Width of `enq_kind`.
const KIND_W: u32 = 2;
/// Width of `enq_gran`.
const GRAN_W: u32 = 2;
/// Width of `enq_cmp`.
const CMP_W: u32 = 3;

/// A 32-bit port value.
fn word(v: u64) -> u32 {
    v as u32
}

/// One tuple as held in the ATQ (every field taken modulo its port width).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tuple {
    /// [`kind`]: 0 ADDR, 1 DATA, 2 PRED, 3 reserved.
    pub kind: u64,
    /// `base`.
    pub base: u32,
    /// Offset per `tid.x`.
    pub off_tx: u32,
    /// Offset per `tid.y`.
    pub off_ty: u32,
    /// Offset per `ctaid.x`.
    pub off_cx: u32,
    /// Offset per `ctaid.y`.
    pub off_cy: u32,
    /// [`gran`]: 0 byte, 1 half-word, 2 word, 3 reserved (ADDR/DATA).
    pub gran: u64,
    /// [`cmp`]: 0 LT .. 5 NE, 6 and 7 reserved (PRED).
    pub cmp: u64,
    /// The scalar a predicate compares with.
    pub scalar: u32,
    /// `enq_guard` (revision 2): a PRED tuple with it is a *guard*, an
    /// ADDR/DATA tuple with it is *guarded*.
    pub guard: bool,
}

impl Tuple {
    /// The tuple offered on `enq_*`, each field modulo its port width.
    pub fn from_inputs(i: &DacIn) -> Tuple {
        Tuple {
            kind: i.enq_kind & mask(KIND_W),
            base: word(i.enq_base),
            off_tx: word(i.enq_off_tx),
            off_ty: word(i.enq_off_ty),
            off_cx: word(i.enq_off_cx),
            off_cy: word(i.enq_off_cy),
            gran: i.enq_gran & mask(GRAN_W),
            cmp: i.enq_cmp & mask(CMP_W),
            scalar: word(i.enq_scalar),
            guard: i.enq_guard,
        }
    }

    /// A guard: a PRED tuple with `guard` set, whose masks are also written
    /// to the warps' guard masks `G[w]` (rule G1).
    pub fn is_guard(&self) -> bool {
        self.guard && self.kind == kind::PRED
    }

    /// A guarded tuple: an ADDR or DATA tuple with `guard` set, whose
    /// records cover only the lanes enabled by `G[w]` (rules G2, G3).
    pub fn is_guarded(&self) -> bool {
        self.guard && matches!(self.kind, kind::ADDR | kind::DATA)
    }

    /// The tuple uses a reserved encoding (kind 3; ADDR/DATA with gran 3;
    /// PRED with cmp 6 or 7): it leaves at its start edge, producing
    /// nothing.
    pub fn is_reserved(&self) -> bool {
        match self.kind {
            kind::ADDR | kind::DATA => self.gran > gran::WORD,
            kind::PRED => self.cmp > cmp::NE,
            _ => true,
        }
    }

    /// The value of thread `t` of a CTA with `blockDim.x = 2^bdx_log2` and
    /// CTA index `(cx, cy)`: `base + tx*off_tx + ty*off_ty + cx*off_cx +
    /// cy*off_cy` modulo 2^32, with `tx = t mod blockDim.x`, `ty = t div
    /// blockDim.x`.
    ///
    /// # Panics
    /// If `bdx_log2 >= 32` (the port holds 0..=15).
    pub fn value(&self, bdx_log2: u32, t: u32, cx: u32, cy: u32) -> u32 {
        let tx = t & ((1u32 << bdx_log2) - 1);
        let ty = t >> bdx_log2;
        self.base
            .wrapping_add(tx.wrapping_mul(self.off_tx))
            .wrapping_add(ty.wrapping_mul(self.off_ty))
            .wrapping_add(cx.wrapping_mul(self.off_cx))
            .wrapping_add(cy.wrapping_mul(self.off_cy))
    }
}

/// Signed 32-bit `v CMP scalar`; false for a reserved `cmp` (6, 7).
pub fn compare(op: u64, v: u32, scalar: u32) -> bool {
    let (a, b) = (v as i32, scalar as i32);
    match op {
        cmp::LT => a < b,
        cmp::LE => a <= b,
        cmp::GT => a > b,
        cmp::GE => a >= b,
        cmp::EQ => a == b,
        cmp::NE => a != b,
        _ => false,
    }
}

/// Active lanes of warp `wi` of a CTA of `threads` threads: `min(32,
/// threads - 32*wi)`, 0 when `32*wi >= threads`.
pub fn active_lanes(threads: u32, wi: u32) -> u32 {
    threads
        .saturating_sub(wi.saturating_mul(WARP_LANES))
        .min(WARP_LANES)
}

/// One address record, as held in a per-warp address queue and shown on
/// `rsp_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Region start (`32 * size`-aligned byte address).
    pub addr: u32,
    /// Bit `j` set iff some lane of the record accesses chunk `j`.
    pub mask: u32,
    /// Access size ([`gran`]).
    pub gran: u64,
    /// The warp's final record of its tuple.
    pub last: bool,
}

/// The kernel's CTA shape as read from the `cfg_*` inputs of a cycle
/// (modulo their port widths).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// `k`: `blockDim.x = 2^k` (0..=15).
    pub bdx_log2: u32,
    /// `T`: threads per CTA (0..=2047).
    pub threads: u32,
    /// `W`: warps per CTA (0..=63).
    pub warps_per_cta: u32,
}

impl Geometry {
    /// The shape on the `cfg_*` inputs.
    pub fn from_inputs(i: &DacIn) -> Geometry {
        Geometry {
            bdx_log2: (i.cfg_bdx_log2 & mask(BDX_LOG2_W)) as u32,
            threads: (i.cfg_threads & mask(THREADS_W)) as u32,
            warps_per_cta: (i.cfg_warps_per_cta & mask(WARPS_PER_CTA_W)) as u32,
        }
    }
}

/// The lanes of one warp of one CTA for one tuple: lane values, address
/// records and predicate bits, straight from the spec's formulas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpLanes {
    /// The tuple.
    pub tuple: Tuple,
    /// `k`: `blockDim.x = 2^k`.
    pub bdx_log2: u32,
    /// Warp index within the CTA.
    pub wi: u32,
    /// Active lanes: lanes `0 .. n-1`.
    pub n: u32,
    /// CTA index x.
    pub cx: u32,
    /// CTA index y.
    pub cy: u32,
    /// The lanes records are formed from (bit `l`): the active lanes, and
    /// of a guarded tuple only those whose bit of the warp's guard mask is
    /// set ([`WarpLanes::guarded_by`]). Predicates ignore it.
    pub enabled: u32,
}

/// The mask of lanes `0 .. n-1`.
fn lanes_below(n: u32) -> u32 {
    if n >= WARP_LANES {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

impl WarpLanes {
    /// Warp `wi` of a CTA of shape `geom` with index `(cx, cy)`.
    pub fn new(tuple: Tuple, geom: &Geometry, wi: u32, cx: u32, cy: u32) -> WarpLanes {
        WarpLanes {
            tuple,
            bdx_log2: geom.bdx_log2,
            wi,
            n: active_lanes(geom.threads, wi),
            cx,
            cy,
            enabled: lanes_below(active_lanes(geom.threads, wi)),
        }
    }

    /// The same warp with its records restricted to the active lanes whose
    /// bit of the guard mask `g` is set (a guarded tuple, rule G3).
    pub fn guarded_by(self, g: u32) -> WarpLanes {
        WarpLanes {
            enabled: lanes_below(self.n) & g,
            ..self
        }
    }

    /// Lane `l` is enabled (see [`WarpLanes::enabled`]).
    pub fn is_enabled(&self, l: u32) -> bool {
        l < WARP_LANES && self.enabled & (1 << l) != 0
    }

    /// The lowest enabled lane `>= p`, if any.
    pub fn next_enabled(&self, p: u32) -> Option<u32> {
        (p..WARP_LANES).find(|&l| self.is_enabled(l))
    }

    /// Value of lane `l` (thread `32*wi + l`), modulo 2^32.
    pub fn value(&self, l: u32) -> u32 {
        let t = self.wi * WARP_LANES + l;
        self.tuple.value(self.bdx_log2, t, self.cx, self.cy)
    }

    /// Bytes of a region: `32 * size` (ADDR/DATA, gran 0..=2).
    pub fn region_bytes(&self) -> u32 {
        WARP_LANES << self.tuple.gran
    }

    /// The record at lane `p`, and `e`, the lane after it: it starts at
    /// `s`, the lowest enabled lane `>= p`, and covers lanes `s .. e-1`,
    /// where `e` is the first lane above `s` that is not enabled or whose
    /// region differs from lane `e-1`'s, or 32; it is the warp's last
    /// record when no lane `>= e` is enabled. Without a guard the enabled
    /// lanes are `0 .. n-1`, so `s = p` and the run ends at a region
    /// boundary or at `n`.
    ///
    /// # Panics
    /// If no lane `>= p` is enabled.
    pub fn record_at(&self, p: u32) -> (Record, u32) {
        let s = self
            .next_enabled(p)
            .expect("a record needs an enabled lane at or above p");
        let shift = self.tuple.gran as u32;
        let region_mask = !(self.region_bytes() - 1);
        let first = self.value(s);
        let region = first & region_mask;
        let chunk = |v: u32| ((v & !region_mask) >> shift) & (WARP_LANES - 1);
        let mut bits = 1u32 << chunk(first);
        let mut e = s + 1;
        while self.is_enabled(e) {
            let v = self.value(e);
            if v & region_mask != region {
                break;
            }
            bits |= 1u32 << chunk(v);
            e += 1;
        }
        let record = Record {
            addr: region,
            mask: bits,
            gran: self.tuple.gran,
            last: self.next_enabled(e).is_none(),
        };
        (record, e)
    }

    /// Every record of the warp, in order (empty when no lane is enabled).
    pub fn records(&self) -> Vec<Record> {
        let mut out = Vec::new();
        let mut p = 0;
        while self.next_enabled(p).is_some() {
            let (r, e) = self.record_at(p);
            out.push(r);
            p = e;
        }
        out
    }

    /// Predicate bit of lane `l`: `l < n` and `v(l) CMP scalar` (signed).
    pub fn pred_bit(&self, l: u32) -> bool {
        l < self.n && compare(self.tuple.cmp, self.value(l), self.tuple.scalar)
    }

    /// The predicate bits of lanes `8g .. 8g+7` (at their lane positions).
    pub fn pred_group(&self, g: u32) -> u32 {
        let lo = g * SLOW_GROUP_LANES;
        (lo..(lo + SLOW_GROUP_LANES).min(WARP_LANES))
            .filter(|&l| self.pred_bit(l))
            .fold(0, |m, l| m | (1u32 << l))
    }

    /// The warp's exact predicate mask.
    pub fn pred_mask(&self) -> u32 {
        (0..WARP_LANES)
            .filter(|&l| self.pred_bit(l))
            .fold(0, |m, l| m | (1u32 << l))
    }

    /// Slow-path group cycles: `G = ceil(n / 8)`.
    pub fn groups(&self) -> u32 {
        self.n.div_ceil(SLOW_GROUP_LANES)
    }

    /// The fast-path condition: (a) `off_tx = off_ty = 0`; or (b) the
    /// active lanes form an arithmetic sequence by definition (`blockDim.x
    /// >= 32` or `off_ty = blockDim.x * off_tx` mod 2^32), `cmp` is an
    /// ordering, `v(0) + (n-1) * off_tx` (signed, exact) stays within the
    /// signed 32-bit range, and lanes 0 and `n-1` give the same result.
    /// Meaningful for `n >= 1`.
    pub fn fast_path(&self) -> bool {
        let t = &self.tuple;
        if t.off_tx == 0 && t.off_ty == 0 {
            return true;
        }
        let arithmetic =
            self.bdx_log2 >= 5 || t.off_ty == t.off_tx.wrapping_mul(1u32 << self.bdx_log2);
        let ordering = matches!(t.cmp, cmp::LT | cmp::LE | cmp::GT | cmp::GE);
        if !arithmetic || !ordering || self.n == 0 {
            return false;
        }
        let first = self.value(0) as i32 as i64;
        let step = t.off_tx as i32 as i64;
        let end = first + (self.n as i64 - 1) * step;
        if end < i32::MIN as i64 || end > i32::MAX as i64 {
            return false;
        }
        self.pred_bit(0) == self.pred_bit(self.n - 1)
    }
}
