//! The texture cache's state ([`TexCache`]): its sets, reserved ways and
//! texture MSHRs. The SM's texture path (`texture.rs`) drives it.

use std::collections::VecDeque;

/// Texture MSHRs: GPGPU-Sim's GTX480 `-gpgpu_tex_cache:l1 ...,F:128:4,...`
/// (128 entries, 4 requests merged each).
pub(super) const TEX_MSHRS: usize = 128;
/// Requests merged per texture MSHR (the first included).
pub(super) const TEX_MERGES: usize = 4;

/// A texture miss in flight.
pub(super) struct TexMshr {
    pub(super) line: u64,
    /// Cycle the request was sent (which of the L1's and the texture
    /// cache's requests for a line returns first).
    pub(super) sent: u64,
    /// (warp, load id) of each request waiting for the line.
    pub(super) waiters: Vec<(u16, u32)>,
}

/// One SM's texture cache.
pub(super) struct TexCache {
    pub(super) sets: u64,
    pub(super) ways: usize,
    pub(super) shift: u32,
    /// Per way: the line held or reserved (`u64::MAX`: invalid).
    pub(super) tags: Vec<u64>,
    /// Per way: reserved for a miss in flight.
    pub(super) reserved: Vec<bool>,
    /// Per way: the last access (LRU).
    pub(super) stamp: Vec<u64>,
    pub(super) clock: u64,
    pub(super) mshr: Vec<TexMshr>,
    /// Hits on their way: (cycle delivered, warp, load id).
    pub(super) hitq: VecDeque<(u64, u16, u32)>,
    pub(super) latency: u64,
}

impl TexCache {
    /// A cache of `bytes` in `line`-byte lines, `ways`-way (checked by the
    /// machine's validation), hits after `latency` cycles.
    pub(super) fn new(bytes: u32, line: u32, ways: u32, latency: u32) -> TexCache {
        let n = (bytes / line) as usize;
        TexCache {
            sets: (bytes / (line * ways)) as u64,
            ways: ways as usize,
            shift: line.trailing_zeros(),
            tags: vec![u64::MAX; n],
            reserved: vec![false; n],
            stamp: vec![0; n],
            clock: 0,
            mshr: Vec::new(),
            hitq: VecDeque::new(),
            latency: latency as u64,
        }
    }

    /// The ways of `line`'s set.
    pub(super) fn set(&self, line: u64) -> std::ops::Range<usize> {
        let s = ((line >> self.shift) % self.sets) as usize;
        s * self.ways..(s + 1) * self.ways
    }

    /// The way holding `line` with its data (not reserved).
    pub(super) fn find(&self, line: u64) -> Option<usize> {
        self.set(line)
            .find(|&i| self.tags[i] == line && !self.reserved[i])
    }

    /// The LRU way of `line`'s set that is not reserved.
    pub(super) fn victim(&self, line: u64) -> Option<usize> {
        self.set(line)
            .filter(|&i| !self.reserved[i])
            .min_by_key(|&i| (self.tags[i] != u64::MAX, self.stamp[i]))
    }

    pub(super) fn touch(&mut self, i: usize) {
        self.clock += 1;
        self.stamp[i] = self.clock;
    }

    /// The earliest cycle a queued hit is delivered.
    pub(super) fn next_hit(&self) -> Option<u64> {
        self.hitq.front().map(|&(t, _, _)| t)
    }

    /// The send cycle of the texture miss of `line` in flight, if any.
    pub(super) fn in_flight(&self, line: u64) -> Option<u64> {
        self.mshr.iter().find(|m| m.line == line).map(|m| m.sent)
    }
}
