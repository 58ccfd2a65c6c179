//! The harness's native L1 tag array (the `lru` choice of the L1 role),
//! with the port timing of [`L1Role`]: a request made in a cycle is decided
//! against the state at the start of the cycle, updates the state at the
//! edge, and its response is read during the next cycle.

use std::collections::HashSet;

use super::roles::{L1Outcome, L1Response, L1Role};
use crate::error::HarnessError;
use crate::hash::FxBuild;

/// The harness's own LRU tag array: allocate on a load miss (lowest invalid
/// way, else the least recently used), write-evict on a store hit. Its
/// decisions are those of `ba_tag_array` with `BA_ENABLE = 0` (checked by
/// a test in `harness/src/adapters/ba.rs`). Pinned lines (DAC's locks,
/// [`L1Role::set_locked`]) are skipped when a victim is chosen.
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
    /// Pinned line numbers.
    locked: HashSet<u64, FxBuild>,
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
            locked: HashSet::default(),
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
                        let locked = &self.locked;
                        let tags = &self.tags;
                        let w = (0..self.ways)
                            .filter(|&w| {
                                locked.is_empty() || !locked.contains(&(tags[base + w] - 1))
                            })
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

    fn supports_locks(&self) -> bool {
        true
    }

    fn set_locked(&mut self, addr: u64, locked: bool) {
        let ln = (addr & 0xFFFF_FFFF) >> self.line_shift;
        if locked {
            self.locked.insert(ln);
        } else {
            self.locked.remove(&ln);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(t: &mut LruTags, addr: u64) -> L1Response {
        t.request(addr, false);
        t.step(false).unwrap();
        t.response().unwrap()
    }

    #[test]
    fn pinned_lines_are_never_victims() {
        // One set of 4 ways, 128-byte lines.
        let mut t = LruTags::new(1, 4, 128);
        for i in 0..4 {
            assert_eq!(access(&mut t, i * 128).outcome, L1Outcome::Miss);
        }
        // Line 0 is the LRU; pinned, line 1 goes instead.
        t.set_locked(0, true);
        t.set_locked(2 * 128, true);
        let r = access(&mut t, 4 * 128);
        assert_eq!(r.evicted, Some(128));
        let r = access(&mut t, 5 * 128);
        assert_eq!(r.evicted, Some(3 * 128));
        assert!(t.holds_data(0) && t.holds_data(2 * 128));
        // Unpinned, line 0 is the LRU again.
        t.set_locked(0, false);
        assert_eq!(access(&mut t, 6 * 128).evicted, Some(0));
        // Pinning a line before it is allocated protects it from then on.
        t.set_locked(7 * 128, true);
        access(&mut t, 7 * 128);
        for i in 8..12 {
            access(&mut t, i * 128);
        }
        assert!(t.holds_data(7 * 128) && t.holds_data(2 * 128));
    }
}
