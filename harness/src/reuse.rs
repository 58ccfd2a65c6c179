//! The reuse-distance profile of the L1's demand load stream, as the BA
//! thesis defines and plots it (Wang, *A Reused Distance Based Analysis
//! and Optimization for GPU Cache*, 2016, chapters 3-5).
//!
//! # Definitions (thesis section 3.1)
//! - The **reuse distance** of an access is "the number of unique memory
//!   accesses between two accesses in a cache set which have the same tag
//!   part": the number of distinct *other* lines accessed since the
//!   previous access to the same line (its depth in an LRU stack, 0 for an
//!   immediate re-access); `+inf` for the first access to a line. Lines
//!   are compared by tag and index (the line address), and "if the access
//!   result of a cache request is reservation failed or hit pending, it
//!   does not change the status of any cache line, so we exclude it from
//!   the work set": a demand request that merges into an MSHR (a *pending
//!   hit*) is not profiled (counted in `pending_excluded`), and a
//!   reservation fail is profiled once, when its retry is accepted. Stores
//!   and prefetches are not part of the stream.
//! - **Per set** (Table 1): the distance counts the lines of the access's
//!   own set (set = line address mod `sets`, the L1's mapping). With
//!   associativity `n`: `rd0` = `[0, n)` (hits under LRU), `rd1` =
//!   `[n, +inf)` (misses of a line seen before), `rd2` = `+inf` (first
//!   access, streaming).
//! - **Fully associative** (Figure 6, "a 16KB fully associative cache",
//!   128 lines of 128 bytes): one stack over every line, classified into
//!   seven intervals [0,8), [8,16), [16,32), [32,64), [64,128),
//!   [128,+inf), +inf. The thesis fixes them for its 128-line cache; here
//!   the stack has the configured L1's capacity `C = sets x ways` lines
//!   and the bounds are `C/16, C/8, C/4, C/2, C` ([`ReuseMetrics::bounds`]):
//!   for the thesis's 16 KB L1 exactly its intervals, and at any size
//!   interval 5 stays "seen before but beyond the capacity" (the capacity
//!   misses the thesis reads from it, section 4.3) and intervals 0-4 the
//!   would-be hits. The per-set distances are classified into the same
//!   seven intervals (`set_intervals`): each set is a subset of the
//!   stream, so a per-set distance is at most the fully associative one
//!   (section 3.3).
//!
//! The profile is kept in total, per load PC, and over time (Figure 13:
//! the share of each interval per window of cycles; [`ReuseTimeline`]).
//! With every SM modelled, each SM profiles its own L1 and the run's
//! figures are their sums ("every distribution is the sum of all cores").
//!
//! Before this version the harness profiled pending hits too, kept the
//! fully associative stack at 128 lines whatever the L1's size, and found
//! distances by a linear scan of that list.
//!
//! # The stack distance structure ([`RecencyStack`])
//! Each access gets a timestamp (a *slot*); a line's latest access sets
//! its slot's mark bit, a Fenwick tree over the 64-slot words of marks
//! counts them, and a hash map holds each line's slots. The distance of a
//! re-access is the number of marked slots after the line's own: a prefix
//! sum over the words before its word (the tree) plus the marks of its
//! word up to it (one popcount). The access then unmarks the old slot and
//! marks a new one. When the slots run out the stack is compacted: the
//! held lines are renumbered in recency order from slot 0 and every line
//! at distance `>= C` is dropped (its distance can only grow until it is
//! accessed again, so it stays "beyond the capacity"; the map remembers
//! that it was seen, for `rd1` against `rd2`). The stack then has twice
//! as many slots as lines kept (whole words, at least 64).
//!
//! Cost per access: one hash-map look-up, and for the fully associative
//! stack and for the access's set each a popcount and `O(log(C/64))` steps
//! of the tree (3 for the thesis's 128 lines), amortized `O(1)` for
//! compaction (a compaction of `s` slots follows at least `s/2` accesses,
//! and its map updates are of the most recent lines, in cache). Memory:
//! per distinct line a map entry (16 bytes of key and slots); at most
//! `2C + 64` slots (8 bytes and a mark bit each) for the fully associative
//! stack and per set at most `2 min(C, lines of the set) + 64`: it grows
//! with the distinct lines, never with the accesses
//! (the test `memory_stays_bounded_by_the_distinct_lines` counts them). Distances are exact below `C` and
//! reported as "at least `C`" beyond.
//!
//! Files: `stack.rs` (the stack, its distances and intervals),
//! `tracker.rs` (the classifier of a run's stream), `profile.rs` (the
//! profile a run reports).

mod profile;
mod stack;
mod tracker;

pub use profile::{ReuseMetrics, ReusePc, ReuseTimeline, MAX_WINDOWS};
pub use stack::{bounds, interval, interval_names, Distance, RecencyStack};
pub use tracker::Classified;
pub(crate) use tracker::ReuseTracker;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, literally: LRU stacks as lists, most recent first.
    struct Naive {
        sets: u64,
        cap: usize,
        full: Vec<u64>,
        per_set: Vec<Vec<u64>>,
        seen: std::collections::HashSet<u64>,
    }

    impl Naive {
        fn new(sets: usize, ways: usize) -> Self {
            Naive {
                sets: sets as u64,
                cap: sets * ways,
                full: Vec::new(),
                per_set: vec![Vec::new(); sets],
                seen: Default::default(),
            }
        }
        fn classify(&mut self, ln: u64) -> Classified {
            let first = self.seen.insert(ln);
            let cap = self.cap;
            let find = |st: &mut Vec<u64>| {
                let d = st.iter().position(|&x| x == ln);
                if let Some(p) = d {
                    st.remove(p);
                }
                st.insert(0, ln);
                match d {
                    _ if first => Distance::First,
                    Some(p) if p < cap => Distance::Within(p as u32),
                    _ => Distance::Beyond,
                }
            };
            let full = find(&mut self.full);
            let set = find(&mut self.per_set[(ln % self.sets) as usize]);
            Classified { full, set }
        }
    }

    fn stream() -> impl Strategy<Value = (usize, usize, Vec<u64>)> {
        (
            prop_oneof![Just(1usize), Just(2), Just(3), Just(4)],
            1usize..5,
            // Mostly few lines (short distances), sometimes many.
            prop_oneof![
                prop::collection::vec(0u64..12, 0..400),
                prop::collection::vec(0u64..200, 0..600),
            ],
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Per access, the Fenwick stacks give the naive lists' distances
        /// (exact below the capacity, "beyond" at or above it).
        #[test]
        fn stack_distance_matches_the_naive_lru_stack((sets, ways, lines) in stream()) {
            let mut t = ReuseTracker::new(sets, ways, 128);
            let mut n = Naive::new(sets, ways);
            for (i, &l) in lines.iter().enumerate() {
                let got = t.classify(l * 128 + (i as u64 % 128));
                let want = n.classify(l);
                prop_assert_eq!(got, want, "access {} (line {})", i, l);
                // A set is a subset of the stream: its distance is never
                // longer (thesis 3.3).
                if let (Distance::Within(s), Distance::Within(f)) = (got.set, got.full) {
                    prop_assert!(s <= f);
                }
                prop_assert!(!(got.set == Distance::Beyond && matches!(got.full, Distance::Within(_))));
            }
        }
    }

    #[test]
    fn table_1_and_figure_6_classes() {
        // One set, 2 ways: A B A C B -> rd2 rd2 rd0 rd2 rd1.
        let mut t = ReuseTracker::new(1, 2, 128);
        for l in [0u64, 1, 0, 2, 1] {
            t.access(l * 128, 0x10, 0);
        }
        let m = t.finish(&[]);
        assert_eq!((m.rd0, m.rd1, m.rd2), (1, 1, 3));
        // Capacity 2: bounds 0,0,0,1,2; distance 1 (A) is interval 4,
        // distance 2 (B) interval 5.
        assert_eq!(m.bounds, [0, 0, 0, 1, 2]);
        assert_eq!(m.intervals, [0, 0, 0, 0, 1, 1, 3]);
        // The thesis's 16 KB L1: 16 sets x 8 ways = 128 lines, its bounds.
        let mut t = ReuseTracker::new(16, 8, 128);
        assert_eq!(t.bounds, [8, 16, 32, 64, 128]);
        for l in 0..200u64 {
            t.access(l * 128, 0, 0);
        }
        t.access(0, 0, 0); // 199 lines since: [128, inf)
        t.access(190 * 128, 0, 0); // 10 lines since (9 + line 0): [8, 16)
        let m = t.finish(&[]);
        assert_eq!(m.intervals[5], 1);
        assert_eq!(m.intervals[1], 1);
        assert_eq!(m.intervals[6], 200);
    }

    #[test]
    fn the_per_pc_split_sums_to_the_totals() {
        let mut t = ReuseTracker::new(4, 2, 128);
        let mut x = 12345u64;
        for i in 0..5000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pc = [0x10u32, 0x20, 0x38][(x >> 60) as usize % 3];
            t.access((x >> 40) % 64 * 128, pc, i * 3);
        }
        let m = t.finish(&[]);
        assert_eq!(m.per_pc.len(), 3);
        assert_eq!(m.profiled, 5000);
        let sum = |f: &dyn Fn(&ReusePc) -> u64| m.per_pc.iter().map(f).sum::<u64>();
        assert_eq!(sum(&|p| p.rd0), m.rd0);
        assert_eq!(sum(&|p| p.rd1), m.rd1);
        assert_eq!(sum(&|p| p.rd2), m.rd2);
        assert_eq!(sum(&|p| p.accesses), m.profiled);
        for k in 0..7 {
            assert_eq!(sum(&|p| p.intervals[k]), m.intervals[k]);
            assert_eq!(sum(&|p| p.set_intervals[k]), m.set_intervals[k]);
            let tl: u64 = m.timeline.intervals.iter().map(|w| w[k]).sum();
            assert_eq!(tl, m.intervals[k]);
        }
        assert!(m.timeline.intervals.len() <= MAX_WINDOWS);
        assert_eq!(m.timeline.window_cycles, 128);
        // Two L1s' profiles add up, per PC and per window.
        let mut two = m.clone();
        two.add(&m);
        assert_eq!(two.profiled, 10000);
        assert_eq!(two.per_pc.len(), 3);
        assert_eq!(two.per_pc[1].rd1, 2 * m.per_pc[1].rd1);
        assert_eq!(two.timeline.intervals[3][2], 2 * m.timeline.intervals[3][2]);
    }

    #[test]
    fn memory_stays_bounded_by_the_distinct_lines() {
        // 1,000,000 accesses cycling over 3,000 lines, then a stream of
        // 100,000 new lines: entries grow with distinct lines only.
        let (sets, ways) = (16, 8);
        let mut t = ReuseTracker::new(sets, ways, 128);
        for i in 0..1_000_000u64 {
            t.access((i % 3000) * 128, 0, i);
        }
        let slots_bound = |distinct: usize| {
            // Map + fully associative tree + per-set trees.
            distinct + (2 * 128 + 64) + sets * (2 * 128 + 64)
        };
        assert!(
            t.stored_entries() <= slots_bound(3000),
            "{}",
            t.stored_entries()
        );
        let m = t.finish(&[]);
        assert_eq!(m.rd2, 3000);
        assert_eq!(m.intervals[5], 1_000_000 - 3000);
        let mut t = ReuseTracker::new(sets, ways, 128);
        for i in 0..100_000u64 {
            t.access(i * 128, 0, i);
        }
        assert!(t.stored_entries() <= slots_bound(100_000));
        assert_eq!(t.lines.len(), 100_000);
        assert!(t.full.slots() <= 2 * 128 + 64);
    }

    #[test]
    fn timelines_add_and_append() {
        let tl = |w: u64, n: usize| ReuseTimeline {
            window_cycles: w,
            intervals: (0..n).map(|i| [i as u64; 7]).collect(),
            rd: (0..n).map(|i| [i as u64; 3]).collect(),
        };
        let mut a = tl(64, 4);
        a.add(&tl(128, 3));
        assert_eq!(a.window_cycles, 128);
        // a's windows 0+1, 2+3 then b's 0, 1, 2.
        assert_eq!(
            a.intervals.iter().map(|w| w[0]).collect::<Vec<_>>(),
            [1, 6, 2]
        );
        let mut a = tl(64, 2);
        a.append(&tl(64, 2), 128);
        assert_eq!(
            a.intervals.iter().map(|w| w[0]).collect::<Vec<_>>(),
            [0, 1, 0, 1]
        );
        let total: u64 = a.rd.iter().map(|w| w[2]).sum();
        assert_eq!(total, 2);
    }
}
