//! The harness's native L1 tag array (the `lru` choice of the L1 role),
//! with the port timing of [`L1Role`]: a request made in a cycle is decided
//! against the state at the start of the cycle, updates the state at the
//! edge, and its response is read during the next cycle.

use super::roles::{L1Outcome, L1Response, L1Role};
use super::HarnessError;

/// The harness's own LRU tag array: allocate on a load miss (lowest invalid
/// way, else the least recently used), write-evict on a store hit. Its
/// decisions are those of `ba_tag_array` with `BA_ENABLE = 0` (checked by
/// a test in `sim-model/src/ba/role.rs`).
pub(crate) struct LruTags {
    sets: usize,
    ways: usize,
    line_shift: u32,
    /// `tags[set * ways + way]`: line number + 1 (0 = invalid).
    tags: Vec<u64>,
    /// Last-use stamp per way (larger = more recent).
    stamp: Vec<u64>,
    clock: u64,
    pending: Option<(u64, bool)>,
    rsp: Option<L1Response>,
}

impl LruTags {
    pub(crate) fn new(sets: usize, ways: usize, line_bytes: u32) -> Self {
        LruTags {
            sets,
            ways,
            line_shift: line_bytes.trailing_zeros(),
            tags: vec![0; sets * ways],
            stamp: vec![0; sets * ways],
            clock: 0,
            pending: None,
            rsp: None,
        }
    }

    #[inline]
    fn find(&self, addr: u64) -> (usize, Option<usize>) {
        let ln = (addr & 0xFFFF_FFFF) >> self.line_shift;
        let set = (ln % self.sets as u64) as usize;
        let base = set * self.ways;
        let key = ln + 1;
        let way = self.tags[base..base + self.ways]
            .iter()
            .position(|&t| t == key);
        (set, way)
    }

    fn apply(&mut self, addr: u64, write: bool) -> L1Response {
        let (set, way) = self.find(addr);
        let base = set * self.ways;
        let ln = (addr & 0xFFFF_FFFF) >> self.line_shift;
        self.clock += 1;
        match (write, way) {
            (false, Some(w)) => {
                self.stamp[base + w] = self.clock;
                L1Response {
                    outcome: L1Outcome::Hit,
                    evicted: None,
                }
            }
            (false, None) => {
                let slots = &self.tags[base..base + self.ways];
                let (w, evict) = match slots.iter().position(|&t| t == 0) {
                    Some(w) => (w, None),
                    None => {
                        let w = (0..self.ways)
                            .min_by_key(|&w| self.stamp[base + w])
                            .unwrap_or(0);
                        (w, Some((self.tags[base + w] - 1) << self.line_shift))
                    }
                };
                self.tags[base + w] = ln + 1;
                self.stamp[base + w] = self.clock;
                L1Response {
                    outcome: L1Outcome::Miss,
                    evicted: evict,
                }
            }
            (true, Some(w)) => {
                let old = self.tags[base + w];
                self.tags[base + w] = 0;
                self.stamp[base + w] = 0;
                L1Response {
                    outcome: L1Outcome::WriteEvict,
                    evicted: Some((old - 1) << self.line_shift),
                }
            }
            (true, None) => L1Response {
                outcome: L1Outcome::WriteMiss,
                evicted: None,
            },
        }
    }
}

impl L1Role for LruTags {
    #[inline]
    fn holds_data(&self, addr: u64) -> bool {
        self.find(addr).1.is_some()
    }

    #[inline]
    fn request(&mut self, addr: u64, write: bool) {
        self.pending = Some((addr, write));
    }

    #[inline]
    fn response(&self) -> Option<L1Response> {
        self.rsp
    }

    #[inline]
    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.rsp = match self.pending.take() {
            Some((a, w)) if !reset => Some(self.apply(a, w)),
            _ => None,
        };
        Ok(())
    }

    fn needs_every_cycle(&self) -> bool {
        false
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        Ok(())
    }
}
