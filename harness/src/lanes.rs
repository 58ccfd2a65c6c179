//! The shape of a warp's load across its active lanes, as Snake's load
//! ports take it (`snake.md`, "Revision 2"): whether the lanes are one
//! stride apart (`ld_uniform`) and the bytes from the first to the last
//! active lane's address (`ld_span`). Kernel files (`sm/coalesce.rs`) and
//! traces (`trace/prepare.rs`) feed the same [`LaneShape`].
//!
//! # `ld_uniform`, per row of the block
//! A *row* is the lanes of the warp with the same `threadIdx.y` and
//! `threadIdx.z`: thread `t = widx * 32 + lane` of a CTA is in row `t /
//! blockDim.x` ([`WarpRows`]). A load is uniform when the active lanes of
//! each row are one common stride per lane apart (`addr(l) = addr(l0) +
//! (l - l0) * s`, `l0` the row's lowest active lane, differences as signed
//! 32-bit values) and that stride `s` is the same in every row. So a warp
//! covering two rows of a 16-wide block (matrixMul, the convolutions),
//! whose rows start a matrix row apart, is uniform when both rows step by
//! the same per-lane stride; with a block 32 or more wide (a warp in one
//! row, or across the end of one row into the next) the rule asks the same
//! of each part.
//!
//! Choices where the spec leaves room:
//! - A row with one active lane has no stride and agrees with any: it
//!   neither sets nor contradicts the common stride. A warp in which no
//!   row has two active lanes (one active lane; a block one thread wide)
//!   is uniform, as a single active thread always was.
//! - `WarpRows::ONE_ROW` treats the whole warp as one row: the all-lanes
//!   rule of revision 1, for callers that do not know the block.
//!
//! # `ld_span`
//! The last active lane's address minus the first active lane's (lane
//! order, as `ld_addr` is the first active lane's address), as unsigned
//! 32-bit addresses: 0 with one active lane or when the last address is
//! below the first (a negative stride), saturating at [`SPAN_MAX`].

/// The largest `ld_span` (12 bits).
pub const SPAN_MAX: u32 = 4095;

/// Which row of the block each lane of a warp is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpRows {
    /// The CTA-linear thread index of lane 0 (`widx * 32`).
    pub first_thread: u32,
    /// `blockDim.x`; 0: the whole warp is one row.
    pub block_x: u32,
}

impl WarpRows {
    /// The whole warp as one row (the all-lanes rule).
    pub const ONE_ROW: WarpRows = WarpRows {
        first_thread: 0,
        block_x: 0,
    };

    /// The rows of warp `widx` of a CTA whose blocks are `block_x` wide.
    pub fn of_warp(widx: u32, block_x: u32) -> WarpRows {
        WarpRows {
            first_thread: widx * 32,
            block_x,
        }
    }

    /// The row of `lane`.
    #[inline]
    fn row(&self, lane: u32) -> u32 {
        match self.block_x {
            0 => 0,
            bx => (self.first_thread + lane) / bx,
        }
    }
}

/// The lanes of a load seen one by one in increasing lane order
/// ([`Self::lane`]), then read ([`Self::uniform`], [`Self::span`]).
#[derive(Clone, Copy, Debug)]
pub struct LaneShape {
    rows: WarpRows,
    /// The current row and its lowest active lane with its address.
    row: u32,
    row_first: (u32, u64),
    /// The common stride, once a row has two active lanes.
    stride: Option<i64>,
    uniform: bool,
    /// The lowest active lane and its address.
    first: Option<(u32, u64)>,
    /// The address of the last lane seen.
    last: u64,
}

impl LaneShape {
    /// No lane seen yet.
    pub fn new(rows: WarpRows) -> LaneShape {
        LaneShape {
            rows,
            row: 0,
            row_first: (0, 0),
            stride: None,
            uniform: true,
            first: None,
            last: 0,
        }
    }

    /// Active lane `lane` (above every lane seen so far) accesses `addr`
    /// (modulo 2^32).
    #[inline]
    pub fn lane(&mut self, lane: u32, addr: u64) {
        let addr = addr & 0xFFFF_FFFF;
        self.last = addr;
        let row = self.rows.row(lane);
        if self.first.is_none() || row != self.row {
            self.first.get_or_insert((lane, addr));
            self.row = row;
            self.row_first = (lane, addr);
            return;
        }
        if !self.uniform {
            return;
        }
        let (l0, a0) = self.row_first;
        let dl = lane as i64 - l0 as i64;
        let da = (addr.wrapping_sub(a0) & 0xFFFF_FFFF) as u32 as i32 as i64;
        if dl <= 0 || da % dl != 0 {
            self.uniform = false;
            return;
        }
        match self.stride {
            None => self.stride = Some(da / dl),
            Some(s) if s == da / dl => {}
            Some(_) => self.uniform = false,
        }
    }

    /// Every row's active lanes are one stride apart, the same stride in
    /// every row (module documentation). True with no lane.
    pub fn uniform(&self) -> bool {
        self.uniform
    }

    /// The lowest active lane and its address.
    pub fn first(&self) -> Option<(u32, u64)> {
        self.first
    }

    /// `ld_span`: last active address minus the first, 0 if below it,
    /// saturating at [`SPAN_MAX`].
    pub fn span(&self) -> u32 {
        match self.first {
            Some((_, a0)) if self.last > a0 => (self.last - a0).min(SPAN_MAX as u64) as u32,
            _ => 0,
        }
    }

    /// The shape of the given active lanes (lane order) with their
    /// addresses.
    pub fn of(rows: WarpRows, lanes_addrs: impl IntoIterator<Item = (u32, u64)>) -> LaneShape {
        let mut s = LaneShape::new(rows);
        for (l, a) in lanes_addrs {
            s.lane(l, a);
        }
        s
    }
}

/// Whether the addresses of a warp's active threads, given in lane order
/// with their lanes, are one common stride apart per lane over the whole
/// warp: `addr(l) = addr(l0) + (l - l0) * s` (modulo 2^32) for one `s` and
/// every active lane `l` (`l0` the lowest). A single active thread is
/// uniform. (Revision 1's rule; [`LaneShape`] with [`WarpRows::ONE_ROW`].)
pub fn uniform_stride(lanes_addrs: impl IntoIterator<Item = (u32, u64)>) -> bool {
    LaneShape::of(WarpRows::ONE_ROW, lanes_addrs).uniform()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stride_per_lane_is_uniform() {
        let lanes = |v: &[(u32, u64)]| uniform_stride(v.iter().copied());
        assert!(lanes(&[]));
        assert!(lanes(&[(5, 0x100)]));
        assert!(lanes(&[(0, 0x100), (1, 0x104), (2, 0x108)]));
        // Inactive lanes in between: still one stride per lane.
        assert!(lanes(&[(0, 0x100), (3, 0x10c), (4, 0x110)]));
        // Negative stride, across the 2^32 wrap.
        assert!(lanes(&[(0, 0x4), (1, 0x0), (2, 0xFFFF_FFFC)]));
        // Broadcast (stride 0).
        assert!(lanes(&[(0, 0x40), (1, 0x40), (7, 0x40)]));
        assert!(!lanes(&[(0, 0x100), (1, 0x104), (2, 0x10c)]));
        assert!(!lanes(&[(0, 0x100), (2, 0x105)]));
    }

    /// A warp of a 16-wide block: lanes 0..16 are row 2w, 16..32 row
    /// 2w+1, `width` bytes apart (a matrix row); 4-byte elements.
    fn two_rows(widx: u32, width: u64, stride: u64, second: u64) -> LaneShape {
        let rows = WarpRows::of_warp(widx, 16);
        LaneShape::of(
            rows,
            (0..32u32).map(|l| {
                let (r, x) = ((l / 16) as u64, (l % 16) as u64);
                let s = if r == 0 { stride } else { second };
                (l, 0x1000 + r * width + x * s)
            }),
        )
    }

    #[test]
    fn each_row_of_a_16_wide_block_with_one_stride_is_uniform() {
        let s = two_rows(3, 0x400, 4, 4);
        assert!(s.uniform());
        assert!(!uniform_stride((0..32u32).map(|l| {
            let (r, x) = ((l / 16) as u64, (l % 16) as u64);
            (l, 0x1000 + r * 0x400 + x * 4)
        })));
        // The rows disagree on the stride.
        assert!(!two_rows(3, 0x400, 4, 8).uniform());
        // Within a row, not one stride.
        let rows = WarpRows::of_warp(0, 16);
        assert!(!LaneShape::of(rows, [(0, 0x0), (1, 0x4), (2, 0xC)]).uniform());
        // A block 48 wide: warp 1 is tid.x 32..48 of row 0 then 0..16 of
        // row 1.
        let rows = WarpRows::of_warp(1, 48);
        let s = LaneShape::of(
            rows,
            (0..32u32).map(|l| {
                let t = 32 + l;
                (l, ((t / 48) * 0x1000 + (t % 48) * 8) as u64)
            }),
        );
        assert!(s.uniform());
    }

    #[test]
    fn a_row_of_one_lane_agrees_with_any_stride() {
        // Rows of one active lane each (a block one thread wide).
        let rows = WarpRows::of_warp(0, 1);
        assert!(LaneShape::of(rows, [(0, 0x0), (1, 0x44), (2, 0x4)]).uniform());
        // A 16-wide block with one active lane in row 1: row 0 sets the
        // stride, row 1's lone lane does not contradict it.
        let rows = WarpRows::of_warp(0, 16);
        assert!(LaneShape::of(rows, [(0, 0x0), (1, 0x8), (20, 0x900)]).uniform());
        assert!(!LaneShape::of(rows, [(0, 0x0), (1, 0x8), (20, 0x900), (21, 0x904)]).uniform());
    }

    #[test]
    fn the_span_is_last_minus_first_saturating() {
        let one = WarpRows::ONE_ROW;
        assert_eq!(LaneShape::of(one, []).span(), 0);
        assert_eq!(LaneShape::of(one, [(4, 0x100)]).span(), 0);
        // 32 lanes of 4 bytes: 124.
        assert_eq!(
            LaneShape::of(one, (0..32).map(|l| (l, 0x100 + 4 * l as u64))).span(),
            124
        );
        // Lane order, not address order: a negative stride is 0.
        assert_eq!(LaneShape::of(one, [(0, 0x200), (1, 0x100)]).span(), 0);
        // Non-uniform lanes have a span too.
        assert_eq!(
            LaneShape::of(one, [(0, 0x200), (1, 0x100), (2, 0x280)]).span(),
            0x80
        );
        // 32 lanes of 8 KB rows: saturates.
        assert_eq!(
            LaneShape::of(one, (0..32).map(|l| (l, 0x2000 * l as u64))).span(),
            SPAN_MAX
        );
        assert_eq!(
            LaneShape::of(one, [(0, 0x10), (31, 0x10 + 4095)]).span(),
            4095
        );
        assert_eq!(
            LaneShape::of(one, [(0, 0x10), (31, 0x10 + 4096)]).span(),
            4095
        );
        assert_eq!(
            LaneShape::of(one, [(3, 0x10), (31, 0x10)]).first(),
            Some((3, 0x10))
        );
    }
}
