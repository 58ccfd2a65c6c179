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

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use serde::Serialize;

use crate::hash::FxBuild;

/// Where the previous access to a line is in an LRU stack capped at `C`
/// lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// The first access to the line (`+inf`).
    First,
    /// Exactly `d < C` distinct other lines were accessed since.
    Within(u32),
    /// At least `C` distinct other lines were accessed since.
    Beyond,
}

/// A slot not holding the line (never held, or dropped at distance `>=
/// C`).
const NO_SLOT: u32 = u32::MAX;
/// Fewest slots of a stack (one word of marks).
const MIN_SLOTS: usize = 64;

/// An LRU stack of line addresses giving exact distances below its cap
/// (module documentation): one mark bit per access slot, and a Fenwick
/// tree over the mark counts of the 64-slot words. The caller keeps each
/// line's slot and refreshes it when [`RecencyStack::compact`] moves
/// lines.
#[derive(Clone, Debug)]
pub struct RecencyStack {
    cap: u32,
    /// One bit per slot: the slot holds its line's latest access.
    bits: Vec<u64>,
    /// Fenwick tree of the words' mark counts, 1-based (`tree[0]`
    /// unused).
    tree: Vec<u32>,
    /// The line of each marked slot.
    line_at: Vec<u64>,
    /// The next free slot.
    next: u32,
    /// Marked slots (lines held).
    live: u32,
}

impl RecencyStack {
    /// An empty stack exact below `cap` lines.
    pub fn new(cap: u32) -> Self {
        RecencyStack {
            cap: cap.max(1),
            bits: vec![0; MIN_SLOTS / 64],
            tree: vec![0; MIN_SLOTS / 64 + 1],
            line_at: vec![0; MIN_SLOTS],
            next: 0,
            live: 0,
        }
    }

    /// No free slot is left: [`RecencyStack::compact`] before the next
    /// [`RecencyStack::touch`].
    #[inline]
    pub fn is_full(&self) -> bool {
        self.next as usize == self.line_at.len()
    }

    /// Slots allocated.
    pub fn slots(&self) -> usize {
        self.line_at.len()
    }

    /// Marks in slots `0..=slot`: the words before its own from the tree,
    /// then the bits of its word.
    #[inline]
    fn prefix(&self, slot: u32) -> u32 {
        let w = (slot / 64) as usize;
        let mut s = (self.bits[w] & (u64::MAX >> (63 - slot % 64))).count_ones();
        let mut i = w;
        while i > 0 {
            s += self.tree[i];
            i &= i - 1;
        }
        s
    }

    #[inline]
    fn mark(&mut self, slot: u32) {
        let w = (slot / 64) as usize;
        self.bits[w] |= 1 << (slot % 64);
        let mut i = w + 1;
        while i < self.tree.len() {
            self.tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }

    #[inline]
    fn unmark(&mut self, slot: u32) {
        let w = (slot / 64) as usize;
        self.bits[w] &= !(1 << (slot % 64));
        let mut i = w + 1;
        while i < self.tree.len() {
            self.tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
    }

    /// An access to `line`, whose latest access holds `slot` (`None`: not
    /// held). Returns its exact distance when it was held (possibly `>=
    /// cap` until the next compaction drops it) and the slot now holding
    /// it. The stack must not be full.
    #[inline]
    pub fn touch(&mut self, line: u64, slot: Option<u32>) -> (Option<u32>, u32) {
        debug_assert!(!self.is_full());
        let d = match slot {
            // Already on top: distance 0, nothing moves.
            Some(s) if s + 1 == self.next => return (Some(0), s),
            Some(s) => {
                let d = self.live - self.prefix(s);
                self.unmark(s);
                self.live -= 1;
                Some(d)
            }
            None => None,
        };
        let s = self.next;
        self.next += 1;
        self.mark(s);
        self.line_at[s as usize] = line;
        self.live += 1;
        (d, s)
    }

    /// Renumbers the held lines in recency order from slot 0 and drops
    /// those at distance `>= cap`; `moved(line, Some(slot))` is called for
    /// each line kept, `moved(line, None)` for each dropped. The stack
    /// then has `2 x` the lines kept in slots (whole words, at least 64).
    pub fn compact(&mut self, mut moved: impl FnMut(u64, Option<u32>)) {
        let mut n = 0;
        for w in 0..self.bits.len() {
            let mut m = self.bits[w];
            while m != 0 {
                let slot = w * 64 + m.trailing_zeros() as usize;
                self.line_at[n] = self.line_at[slot];
                n += 1;
                m &= m - 1;
            }
        }
        let drop = n.saturating_sub(self.cap as usize);
        for &l in &self.line_at[..drop] {
            moved(l, None);
        }
        self.line_at.copy_within(drop..n, 0);
        let k = n - drop;
        let slots = (2 * k).next_multiple_of(64).max(MIN_SLOTS);
        self.line_at.resize(slots, 0);
        for (i, &l) in self.line_at[..k].iter().enumerate() {
            moved(l, Some(i as u32));
        }
        let words = slots / 64;
        self.bits.clear();
        self.bits.resize(words, 0);
        self.tree.clear();
        self.tree.resize(words + 1, 0);
        for w in 0..words {
            let ones = k.saturating_sub(w * 64).min(64);
            self.bits[w] = if ones == 64 {
                u64::MAX
            } else {
                (1 << ones) - 1
            };
            self.tree[w + 1] += ones as u32;
            // The Fenwick tree built in place: each node adds into its
            // parent.
            let parent = (w + 1) + ((w + 1) & (w + 1).wrapping_neg());
            if parent <= words {
                self.tree[parent] += self.tree[w + 1];
            }
        }
        self.next = k as u32;
        self.live = k as u32;
    }
}

/// One access's classification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classified {
    /// Distance in the fully associative stack.
    pub full: Distance,
    /// Distance in the access's set.
    pub set: Distance,
}

/// Counts of one class of accesses (a load PC, a time window, the run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    rd: [u64; 3],
    set: [u64; 7],
    full: [u64; 7],
}

impl Counts {
    #[inline]
    fn add(&mut self, rd: usize, set: usize, full: usize) {
        self.rd[rd] += 1;
        self.set[set] += 1;
        self.full[full] += 1;
    }
}

/// The first window of the timeline, cycles.
const FIRST_WINDOW: u64 = 64;
/// The timeline's windows double in length to stay at most this many.
pub const MAX_WINDOWS: usize = 128;

/// The reuse-distance profiler of one L1 (module documentation).
pub(crate) struct ReuseTracker {
    sets: u64,
    ways: u32,
    cap: u32,
    bounds: [u32; 5],
    line_shift: u32,
    /// Per distinct line: its slot in the fully associative stack and in
    /// its set's (`NO_SLOT`: not held).
    lines: HashMap<u64, (u32, u32), FxBuild>,
    full: RecencyStack,
    per_set: Vec<RecencyStack>,
    total: Counts,
    pending: u64,
    pc_keys: Vec<u32>,
    pcs: Vec<Counts>,
    pc_index: HashMap<u32, usize, FxBuild>,
    /// The last PC seen and its index (a warp's lines come in a row).
    last_pc: Option<(u32, usize)>,
    window_shift: u32,
    windows: Vec<Counts>,
}

fn opt(slot: u32) -> Option<u32> {
    (slot != NO_SLOT).then_some(slot)
}

impl ReuseTracker {
    /// A profiler for an L1 of `sets` x `ways` lines of `line_bytes`.
    pub(crate) fn new(sets: usize, ways: usize, line_bytes: u32) -> Self {
        let cap = (sets * ways).max(1) as u32;
        ReuseTracker {
            sets: sets.max(1) as u64,
            ways: ways as u32,
            cap,
            bounds: bounds(cap),
            line_shift: line_bytes.trailing_zeros(),
            lines: HashMap::default(),
            full: RecencyStack::new(cap),
            per_set: vec![RecencyStack::new(cap); sets.max(1)],
            total: Counts::default(),
            pending: 0,
            pc_keys: Vec::new(),
            pcs: Vec::new(),
            pc_index: HashMap::default(),
            last_pc: None,
            window_shift: FIRST_WINDOW.trailing_zeros(),
            windows: Vec::new(),
        }
    }

    /// A demand request that merged into an MSHR: not profiled (thesis
    /// 3.1), only counted.
    #[inline]
    pub(crate) fn pending_hit(&mut self) {
        self.pending += 1;
    }

    /// Classifies the access to byte address `line` (any address in the
    /// line) and updates the stacks.
    pub(crate) fn classify(&mut self, line: u64) -> Classified {
        let ln = line >> self.line_shift;
        let set = (ln % self.sets) as usize;
        // Compaction moves the most recent lines: their entries are the
        // ones in cache.
        if self.full.is_full() {
            let lines = &mut self.lines;
            self.full.compact(|l, s| {
                if let Some(e) = lines.get_mut(&l) {
                    e.0 = s.unwrap_or(NO_SLOT);
                }
            });
        }
        if self.per_set[set].is_full() {
            let lines = &mut self.lines;
            self.per_set[set].compact(|l, s| {
                if let Some(e) = lines.get_mut(&l) {
                    e.1 = s.unwrap_or(NO_SLOT);
                }
            });
        }
        let cap = self.cap;
        let capped = |d: Option<u32>| match d {
            Some(d) if d < cap => Distance::Within(d),
            _ => Distance::Beyond,
        };
        match self.lines.entry(ln) {
            Entry::Occupied(mut e) => {
                let (a, b) = *e.get();
                let (da, na) = self.full.touch(ln, opt(a));
                let (db, nb) = self.per_set[set].touch(ln, opt(b));
                *e.get_mut() = (na, nb);
                Classified {
                    full: capped(da),
                    set: capped(db),
                }
            }
            Entry::Vacant(e) => {
                let (_, na) = self.full.touch(ln, None);
                let (_, nb) = self.per_set[set].touch(ln, None);
                e.insert((na, nb));
                Classified {
                    full: Distance::First,
                    set: Distance::First,
                }
            }
        }
    }

    /// A profiled demand access to `line` by the load at `pc` at cycle
    /// `now`.
    #[inline]
    pub(crate) fn access(&mut self, line: u64, pc: u32, now: u64) {
        let c = self.classify(line);
        let rd = match c.set {
            Distance::Within(d) if d < self.ways => 0,
            Distance::First => 2,
            _ => 1,
        };
        let si = interval(&self.bounds, c.set);
        let fi = interval(&self.bounds, c.full);
        self.total.add(rd, si, fi);
        let pi = match self.last_pc {
            Some((p, i)) if p == pc => i,
            _ => {
                let i = match self.pc_index.get(&pc) {
                    Some(&i) => i,
                    None => {
                        self.pc_keys.push(pc);
                        self.pcs.push(Counts::default());
                        self.pc_index.insert(pc, self.pcs.len() - 1);
                        self.pcs.len() - 1
                    }
                };
                self.last_pc = Some((pc, i));
                i
            }
        };
        self.pcs[pi].add(rd, si, fi);
        let mut w = (now >> self.window_shift) as usize;
        while w >= MAX_WINDOWS {
            coarsen(&mut self.windows);
            self.window_shift += 1;
            w = (now >> self.window_shift) as usize;
        }
        if w >= self.windows.len() {
            self.windows.resize(w + 1, Counts::default());
        }
        self.windows[w].add(rd, si, fi);
    }

    /// Map entries plus stack slots held: grows with the distinct lines,
    /// not with the accesses.
    #[cfg(test)]
    pub(crate) fn stored_entries(&self) -> usize {
        self.lines.len() + self.full.slots() + self.per_set.iter().map(|s| s.slots()).sum::<usize>()
    }

    /// The profile; `loads` names the load PCs (a kernel file's memory
    /// instructions; empty for a trace).
    pub(crate) fn finish(self, loads: &[super::kernel::MemInstrInfo]) -> ReuseMetrics {
        let t = &self.total;
        let mut per_pc: Vec<ReusePc> = self
            .pc_keys
            .iter()
            .zip(&self.pcs)
            .map(|(&pc, c)| ReusePc {
                pc,
                load: loads
                    .iter()
                    .find(|m| m.pc == pc)
                    .map(|m| format!("{} (line {})", m.array, m.line))
                    .unwrap_or_default(),
                accesses: c.rd.iter().sum(),
                rd0: c.rd[0],
                rd1: c.rd[1],
                rd2: c.rd[2],
                intervals: c.full,
                set_intervals: c.set,
            })
            .collect();
        per_pc.sort_by_key(|p| p.pc);
        ReuseMetrics {
            rd0: t.rd[0],
            rd1: t.rd[1],
            rd2: t.rd[2],
            intervals: t.full,
            set_intervals: t.set,
            profiled: t.rd.iter().sum(),
            pending_excluded: self.pending,
            sets: self.sets as u32,
            ways: self.ways,
            capacity: self.cap,
            bounds: self.bounds,
            per_pc,
            timeline: ReuseTimeline {
                window_cycles: 1 << self.window_shift,
                intervals: self.windows.iter().map(|w| w.full).collect(),
                rd: self.windows.iter().map(|w| w.rd).collect(),
            },
        }
    }
}

/// Windows merged in pairs (the window length doubles).
fn coarsen(w: &mut Vec<Counts>) {
    let n = w.len().div_ceil(2);
    for i in 0..n {
        let mut c = w[2 * i];
        if let Some(b) = w.get(2 * i + 1) {
            for k in 0..3 {
                c.rd[k] += b.rd[k];
            }
            for k in 0..7 {
                c.set[k] += b.set[k];
                c.full[k] += b.full[k];
            }
        }
        w[i] = c;
    }
    w.truncate(n);
}

/// The interval bounds of a fully associative cache of `cap` lines:
/// `cap/16, cap/8, cap/4, cap/2, cap` (for 128 lines the thesis's 8, 16,
/// 32, 64, 128).
pub fn bounds(cap: u32) -> [u32; 5] {
    [cap / 16, cap / 8, cap / 4, cap / 2, cap]
}

/// The interval (0-6) of a distance: 0-4 below `bounds[4]`, 5 beyond it,
/// 6 a first access.
#[inline]
pub fn interval(bounds: &[u32; 5], d: Distance) -> usize {
    match d {
        Distance::Within(d) => {
            (d >= bounds[0]) as usize
                + (d >= bounds[1]) as usize
                + (d >= bounds[2]) as usize
                + (d >= bounds[3]) as usize
        }
        Distance::Beyond => 5,
        Distance::First => 6,
    }
}

/// The seven intervals' names for `bounds`: `[0,8)`, ..., `[128,inf)`,
/// `inf`.
pub fn interval_names(bounds: &[u32; 5]) -> [String; 7] {
    let b = bounds;
    [
        format!("[0,{})", b[0]),
        format!("[{},{})", b[0], b[1]),
        format!("[{},{})", b[1], b[2]),
        format!("[{},{})", b[2], b[3]),
        format!("[{},{})", b[3], b[4]),
        format!("[{},inf)", b[4]),
        "inf".to_string(),
    ]
}

/// Reuse-distance profile of a run's L1 demand loads (module
/// documentation).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReuseMetrics {
    /// Per set: distance below the associativity (hits under LRU).
    pub rd0: u64,
    /// Per set: distance at least the associativity.
    pub rd1: u64,
    /// First accesses.
    pub rd2: u64,
    /// Fully associative stack of `capacity` lines: the seven intervals
    /// `[0,b0) [b0,b1) [b1,b2) [b2,b3) [b3,b4) [b4,inf) inf` of `bounds`.
    pub intervals: [u64; 7],
    /// The per-set distances in the same seven intervals.
    pub set_intervals: [u64; 7],
    /// Accesses profiled (`rd0 + rd1 + rd2`).
    pub profiled: u64,
    /// Demand requests not profiled: they merged into an MSHR (pending
    /// hits; thesis 3.1).
    pub pending_excluded: u64,
    /// The L1's sets ...
    pub sets: u32,
    /// ... and ways (Table 1's `n`).
    pub ways: u32,
    /// Lines of the fully associative stack (`sets x ways`).
    pub capacity: u32,
    /// Interval bounds `capacity / 16, / 8, / 4, / 2, capacity`.
    pub bounds: [u32; 5],
    /// Per load PC (ascending), the same figures.
    pub per_pc: Vec<ReusePc>,
    /// The profile over time.
    pub timeline: ReuseTimeline,
}

/// The profile of one load PC.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReusePc {
    /// The load's PC.
    pub pc: u32,
    /// The load in a kernel file: `array (line N)` (empty for a trace).
    pub load: String,
    /// Accesses profiled.
    pub accesses: u64,
    /// Per set: distance below the associativity.
    pub rd0: u64,
    /// Per set: at least the associativity.
    pub rd1: u64,
    /// First accesses.
    pub rd2: u64,
    /// Fully associative intervals.
    pub intervals: [u64; 7],
    /// Per-set intervals.
    pub set_intervals: [u64; 7],
}

/// The profile over time (the thesis's Figure 13 plots each access's
/// fully associative distance against its time; here per window of
/// `window_cycles` cycles the count in each interval).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReuseTimeline {
    /// Cycles per window (64 doubled until the run fits in
    /// [`MAX_WINDOWS`] windows).
    pub window_cycles: u64,
    /// Per window from cycle 0: the fully associative intervals.
    pub intervals: Vec<[u64; 7]>,
    /// Per window: rd0, rd1, rd2.
    pub rd: Vec<[u64; 3]>,
}

impl ReuseTimeline {
    /// Windows merged in pairs until they are `cycles` long (a power of
    /// two times the current length).
    fn widen_to(&mut self, cycles: u64) {
        while self.window_cycles < cycles && self.window_cycles > 0 {
            let n = self.intervals.len().div_ceil(2);
            for i in 0..n {
                let (mut a, mut r) = (self.intervals[2 * i], self.rd[2 * i]);
                if let (Some(b), Some(q)) = (self.intervals.get(2 * i + 1), self.rd.get(2 * i + 1))
                {
                    for k in 0..7 {
                        a[k] += b[k];
                    }
                    for k in 0..3 {
                        r[k] += q[k];
                    }
                }
                self.intervals[i] = a;
                self.rd[i] = r;
            }
            self.intervals.truncate(n);
            self.rd.truncate(n);
            self.window_cycles *= 2;
        }
    }

    /// Add `other` window by window (both from cycle 0; the SMs of a run).
    pub fn add(&mut self, other: &ReuseTimeline) {
        if self.window_cycles == 0 {
            *self = other.clone();
            return;
        }
        if other.window_cycles == 0 {
            return;
        }
        let mut o = other.clone();
        let w = self.window_cycles.max(o.window_cycles);
        self.widen_to(w);
        o.widen_to(w);
        if o.intervals.len() > self.intervals.len() {
            self.intervals.resize(o.intervals.len(), [0; 7]);
            self.rd.resize(o.rd.len(), [0; 3]);
        }
        for (a, b) in self.intervals.iter_mut().zip(&o.intervals) {
            for k in 0..7 {
                a[k] += b[k];
            }
        }
        for (a, b) in self.rd.iter_mut().zip(&o.rd) {
            for k in 0..3 {
                a[k] += b[k];
            }
        }
    }

    /// Append `other`, which started at cycle `start` of this timeline
    /// (the next kernel of a trace, run after this one): its windows
    /// follow from the first window boundary at or after `start`.
    pub fn append(&mut self, other: &ReuseTimeline, start: u64) {
        if other.window_cycles == 0 {
            return;
        }
        let w = self.window_cycles.max(other.window_cycles);
        if self.window_cycles == 0 {
            self.window_cycles = w;
        }
        self.widen_to(w);
        let mut o = other.clone();
        o.widen_to(w);
        let offset = (start.div_ceil(w) as usize).max(self.intervals.len());
        self.intervals.resize(offset, [0; 7]);
        self.rd.resize(offset, [0; 3]);
        self.intervals.extend_from_slice(&o.intervals);
        self.rd.extend_from_slice(&o.rd);
        while self.intervals.len() > MAX_WINDOWS {
            let w = self.window_cycles * 2;
            self.widen_to(w);
        }
    }
}

impl ReuseMetrics {
    /// Add another L1's (or kernel's) profile: counts summed, per PC by
    /// PC, the timelines window by window (all from cycle 0).
    pub fn add(&mut self, r: &ReuseMetrics) {
        if self.capacity == 0 {
            self.sets = r.sets;
            self.ways = r.ways;
            self.capacity = r.capacity;
            self.bounds = r.bounds;
        }
        self.rd0 += r.rd0;
        self.rd1 += r.rd1;
        self.rd2 += r.rd2;
        for k in 0..7 {
            self.intervals[k] += r.intervals[k];
            self.set_intervals[k] += r.set_intervals[k];
        }
        self.profiled += r.profiled;
        self.pending_excluded += r.pending_excluded;
        for p in &r.per_pc {
            match self.per_pc.binary_search_by_key(&p.pc, |q| q.pc) {
                Ok(i) => {
                    let q = &mut self.per_pc[i];
                    q.accesses += p.accesses;
                    q.rd0 += p.rd0;
                    q.rd1 += p.rd1;
                    q.rd2 += p.rd2;
                    for k in 0..7 {
                        q.intervals[k] += p.intervals[k];
                        q.set_intervals[k] += p.set_intervals[k];
                    }
                    if q.load.is_empty() {
                        q.load = p.load.clone();
                    }
                }
                Err(i) => self.per_pc.insert(i, p.clone()),
            }
        }
        self.timeline.add(&r.timeline);
    }

    /// The seven intervals' names (`[0,8)` ... `inf`).
    pub fn interval_names(&self) -> [String; 7] {
        interval_names(&self.bounds)
    }

    /// Rows of the metrics table.
    pub(crate) fn rows(&self) -> Vec<(String, String)> {
        let n = self.profiled.max(1) as f64;
        let pct = |x: u64| format!("{:.1}", 100.0 * x as f64 / n);
        let names = self.interval_names();
        let seven = |v: &[u64; 7]| {
            names
                .iter()
                .zip(v)
                .map(|(name, &x)| format!("{name} {}", pct(x)))
                .collect::<Vec<_>>()
                .join("  ")
                + " %"
        };
        let below: u64 = self.intervals[..5].iter().sum();
        vec![
            (
                "reuse distance (BA thesis)".into(),
                format!(
                    "{} demand line accesses profiled ({} pending hits excluded, thesis 3.1)",
                    self.profiled, self.pending_excluded
                ),
            ),
            (
                format!("  per set, {} x {}-way", self.sets, self.ways),
                format!(
                    "rd0 {} / rd1 {} / rd2 {} %  (Table 1: d < {}, d >= {}, first access)",
                    pct(self.rd0),
                    pct(self.rd1),
                    pct(self.rd2),
                    self.ways,
                    self.ways
                ),
            ),
            ("    intervals".into(), seven(&self.set_intervals)),
            (
                format!("  fully associative, {} lines", self.capacity),
                format!(
                    "d < {} {} / d >= {} {} / first {} %",
                    self.capacity,
                    pct(below),
                    self.capacity,
                    pct(self.intervals[5]),
                    pct(self.intervals[6])
                ),
            ),
            ("    intervals (Fig. 6)".into(), seven(&self.intervals)),
        ]
    }

    /// The per-load table: one row per load PC (the `max_rows` with the
    /// most accesses, in PC order), percentages of that load's accesses.
    pub fn pc_table(&self, max_rows: usize) -> String {
        use std::fmt::Write as _;
        let names = self.interval_names();
        let mut rows: Vec<&ReusePc> = self.per_pc.iter().collect();
        let hidden = rows.len().saturating_sub(max_rows);
        if hidden > 0 {
            rows.sort_by(|a, b| b.accesses.cmp(&a.accesses).then(a.pc.cmp(&b.pc)));
            rows.truncate(max_rows);
            rows.sort_by_key(|p| p.pc);
        }
        let lw = rows
            .iter()
            .map(|p| p.load.chars().count())
            .max()
            .unwrap_or(0)
            .clamp(4, 40);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "reuse distance per load: % of each load's accesses; rd per set ({} x {}-way), \
             intervals fully associative ({} lines)",
            self.sets, self.ways, self.capacity
        );
        let _ = write!(
            s,
            "{:<8}  {:<lw$}  {:>9}  {:>5} {:>5} {:>5}  |",
            "PC", "load", "accesses", "rd0", "rd1", "rd2"
        );
        for n in &names {
            let _ = write!(s, " {:>w$}", n, w = n.len().max(5));
        }
        s.push('\n');
        let line =
            |s: &mut String, pc: String, load: &str, acc: u64, rd: [u64; 3], iv: &[u64; 7]| {
                let n = acc.max(1) as f64;
                let p = |x: u64| format!("{:.1}", 100.0 * x as f64 / n);
                let load: String = load.chars().take(lw).collect();
                let _ = write!(
                    s,
                    "{pc:<8}  {load:<lw$}  {acc:>9}  {:>5} {:>5} {:>5}  |",
                    p(rd[0]),
                    p(rd[1]),
                    p(rd[2])
                );
                for (name, &x) in names.iter().zip(iv) {
                    let _ = write!(s, " {:>w$}", p(x), w = name.len().max(5));
                }
                s.push('\n');
            };
        for r in &rows {
            line(
                &mut s,
                format!("{:#x}", r.pc),
                if r.load.is_empty() { "-" } else { &r.load },
                r.accesses,
                [r.rd0, r.rd1, r.rd2],
                &r.intervals,
            );
        }
        line(
            &mut s,
            "all".into(),
            "",
            self.profiled,
            [self.rd0, self.rd1, self.rd2],
            &self.intervals,
        );
        if hidden > 0 {
            let shown: u64 = rows.iter().map(|p| p.accesses).sum();
            let _ = writeln!(
                s,
                "({hidden} more loads with {} accesses not shown; every load is in the JSON's \
                 reuse.per_pc)",
                self.profiled - shown
            );
        }
        s
    }
}

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
