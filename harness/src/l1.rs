//! The harness's native L1 tag array (the `lru` choice of the L1 role),
//! with the port timing of [`L1Role`]: a request made in a cycle is decided
//! against the state at the start of the cycle, updates the state at the
//! edge, and its response is read during the next cycle.
//!
//! # Reservation (`sm_harness.md`, revision 3; GPGPU-Sim's Fermi L1)
//! - A load miss or a prefetch allocates its way at the miss and *reserves*
//!   it (a per-way flag) until the fill returns ([`L1Role::fill`], called
//!   by the SM when the memory's read fills its MSHR, `sm/l1_return.rs`).
//! - A reserved way is never a victim, nor are pinned lines (DAC's locks).
//!   The victim is the lowest invalid way, else the least recently used
//!   way neither reserved nor pinned.
//! - A miss whose set has no such way is a *reservation fail*
//!   ([`L1Plan::ReservationFail`] from [`L1Role::plan`]): the SM does not
//!   send it; a demand request is retried next cycle, a prefetch dropped.
//! - A store to a reserved line is a `WRITE_MISS` (the line holds no data
//!   yet: GPGPU-Sim's `HIT_RESERVED` write takes the no-write-allocate miss
//!   path); the line stays reserved and is installed by its fill.
//! - A hit on a reserved line cannot arise in a run: a load of a line in
//!   flight merges into its MSHR before the tag array is asked.

use std::collections::HashSet;

use super::roles::{L1Outcome, L1Plan, L1Response, L1Role};
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
    /// Reserved (allocated by a miss or prefetch still in flight) per way.
    resv: Vec<bool>,
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
            resv: vec![false; sets * ways],
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

    /// The way a miss in `set` allocates: the lowest invalid way, else the
    /// least recently used way neither reserved nor pinned; `None` is a
    /// reservation fail.
    #[inline]
    fn victim(&self, set: usize) -> Option<usize> {
        let base = set * self.ways;
        let tags = &self.tags[base..base + self.ways];
        if let Some(w) = tags.iter().position(|&t| t == 0) {
            return Some(w);
        }
        let locked = &self.locked;
        (0..self.ways)
            .filter(|&w| {
                !self.resv[base + w] && (locked.is_empty() || !locked.contains(&(tags[w] - 1)))
            })
            .min_by_key(|&w| self.stamp[base + w])
    }

    /// Whether a miss in `set` finds a way ([`Self::victim`] is `Some`),
    /// without ranking the ways.
    #[inline]
    fn has_victim(&self, set: usize) -> bool {
        let base = set * self.ways;
        let tags = &self.tags[base..base + self.ways];
        let resv = &self.resv[base..base + self.ways];
        let locked = &self.locked;
        tags.iter()
            .zip(resv)
            .any(|(&t, &r)| t == 0 || (!r && (locked.is_empty() || !locked.contains(&(t - 1)))))
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
                let Some(w) = self.victim(set) else {
                    // A reservation fail: the SM never sends one (it asks
                    // `plan` first); nothing changes.
                    return L1Response {
                        outcome: L1Outcome::Miss,
                        evicted: None,
                    };
                };
                let old = self.tags[base + w];
                let evict = (old != 0).then(|| (old - 1) << self.line_shift);
                self.tags[base + w] = ln + 1;
                self.stamp[base + w] = self.clock;
                self.resv[base + w] = true;
                L1Response {
                    outcome: L1Outcome::Miss,
                    evicted: evict,
                }
            }
            (true, Some(w)) if self.resv[base + w] => L1Response {
                outcome: L1Outcome::WriteMiss,
                evicted: None,
            },
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
    fn plan(&self, addr: u64, _prefetch: bool) -> L1Plan {
        match self.find(addr) {
            (_, Some(_)) => L1Plan::Hit,
            (set, None) if self.has_victim(set) => L1Plan::Allocate,
            (_, None) => L1Plan::ReservationFail,
        }
    }

    #[inline]
    fn fill(&mut self, addr: u64) {
        if let (set, Some(w)) = self.find(addr) {
            self.resv[set * self.ways + w] = false;
        }
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

    /// A load whose fill (if it missed) returns at once.
    fn access(t: &mut LruTags, addr: u64) -> L1Response {
        let r = miss_in_flight(t, addr);
        t.fill(addr);
        r
    }

    /// A load whose fill (if it missed) has not returned.
    fn miss_in_flight(t: &mut LruTags, addr: u64) -> L1Response {
        t.request(addr, false);
        t.step(false).unwrap();
        t.response().unwrap()
    }

    #[test]
    fn reserved_lines_are_never_victims_and_a_full_reserved_set_fails() {
        // Two sets of 2 ways; lines 0, 2, 4, ... map to set 0.
        let mut t = LruTags::new(2, 2, 128);
        let l = |n: u64| n * 128;
        assert_eq!(t.plan(l(0), false), L1Plan::Allocate);
        assert_eq!(miss_in_flight(&mut t, l(0)).evicted, None);
        // Line 2 fills at once; line 0 (older) is still in flight.
        access(&mut t, l(2));
        // The LRU way is line 0's, reserved: line 2 goes instead.
        assert_eq!(t.plan(l(4), false), L1Plan::Allocate);
        assert_eq!(miss_in_flight(&mut t, l(4)).evicted, Some(l(2)));
        // Both ways in flight: a reservation fail for a load and a
        // prefetch; set 1 is unaffected.
        assert_eq!(t.plan(l(6), false), L1Plan::ReservationFail);
        assert_eq!(t.plan(l(6), true), L1Plan::ReservationFail);
        assert_eq!(t.plan(l(1), false), L1Plan::Allocate);
        // A store to a reserved line leaves it in place.
        t.request(l(0), true);
        t.step(false).unwrap();
        assert_eq!(t.response().unwrap().outcome, L1Outcome::WriteMiss);
        assert!(t.holds_data(l(0)));
        // Line 0's fill releases its way, now the victim (LRU).
        t.fill(l(0));
        assert_eq!(t.plan(l(6), false), L1Plan::Allocate);
        assert_eq!(miss_in_flight(&mut t, l(6)).evicted, Some(l(0)));
        assert_eq!(t.plan(l(0), false), L1Plan::ReservationFail);
        // Once filled, a store evicts as before.
        t.fill(l(4));
        t.request(l(4), true);
        t.step(false).unwrap();
        assert_eq!(t.response().unwrap().outcome, L1Outcome::WriteEvict);
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

    proptest::proptest! {
        /// `plan`'s quick test for a free way agrees with the victim
        /// choice `apply` makes, whatever loads, stores, fills and locks
        /// came before.
        #[test]
        fn plan_finds_a_way_exactly_when_apply_has_a_victim(
            ops in proptest::collection::vec((0u8..4, 0u64..12), 1..80)
        ) {
            let mut t = LruTags::new(2, 3, 128);
            for (op, line) in ops {
                let a = line * 128;
                match op {
                    0 => { miss_in_flight(&mut t, a); }
                    1 => t.fill(a),
                    2 => { t.request(a, true); t.step(false).unwrap(); }
                    _ => t.set_locked(a, line % 2 == 0),
                }
                for set in 0..2 {
                    proptest::prop_assert_eq!(t.has_victim(set), t.victim(set).is_some());
                }
            }
        }
    }
}
