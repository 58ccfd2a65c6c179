//! The L1 in Snake's decoupled mode (`sm_harness.md`, "Units in the
//! harness"; Snake paper §3.2): one unified storage whose lines carry a
//! prefetch flag, so that prefetched data and L1 data share the capacity
//! without prefetches displacing useful L1 data. It fills the L1 role with
//! the port timing of [`L1Role`] (decided at the edge against the state at
//! the start of the cycle, answered during the next cycle).
//!
//! # Rules
//! The storage keeps the L1's geometry (sets x ways, LRU stamps). Every
//! valid line is on one of two *sides*: **L1** (demand data) or
//! **prefetch** (a prefetched line no demand has used yet). `C` is the
//! number of lines.
//! - **Hit**: a load whose tag is present hits; on a prefetch-side line it
//!   flips the flag to the L1 side ("it is always permitted to transfer
//!   data that hits the prefetch space to the L1 data space ... through the
//!   alteration of the corresponding flag").
//! - **Allocation** (a load miss on the L1 side, a prefetch on the
//!   prefetch side), in this order:
//!   1. *Cap until trained*: until the prefetcher has offered its first
//!      prefetch, or `decoupled_cap_cycles` cycles have passed since the
//!      SM's first demand load, whichever is first (the SM then calls
//!      [`L1Role::prefetcher_trained`]), the L1 side holds at most `C / 2`
//!      lines: a load miss with the L1 side at its cap
//!      replaces the least recently used L1 line of its set, if the set has
//!      one ("Snake initially restricts the L1 cache to utilize only up to
//!      50% of the available decoupled space until the prefetcher is
//!      trained").
//!   2. *Free-up*: when no line of the whole storage is free, `cache_full`
//!      is raised (read during the next cycle) and `C / 4` lines are freed
//!      by LRU over the whole storage: L1-side lines if more than 80 % of
//!      the prefetched lines filled since the previous free-up were used
//!      (flipped), else prefetch-side lines; if the chosen side has fewer
//!      lines, the rest come from the other side, also by LRU. The window
//!      counters then restart ("we free up 25% of the unified cache space
//!      following the LRU policy. If more than 80% of the prefetched data
//!      has been transferred to the L1 data cache, we evict older L1 data
//!      cache entries ... Otherwise, we evict older prefetched data
//!      entries").
//!   3. The lowest free way of the set, if it has one.
//!   4. Otherwise the set is full while the storage is not (a conflict):
//!      a load replaces the least recently used L1-side line of the set,
//!      if the set has one; a prefetch, or a load into a set of prefetched
//!      lines only, replaces the set's least recently used line.
//! - **Store**: write-evict on a hit (either side), nothing on a miss.
//! - **Reservation** (`sm_harness.md`, revision 3, as in `l1.rs`): the way
//!   a load miss or a prefetch allocates is reserved until its fill
//!   returns ([`L1Role::fill`]). A reserved line is never displaced: not
//!   by the cap (rule 1), not by a free-up (rule 2: the quarter is taken
//!   from the other lines, and fewer are freed if fewer are not
//!   reserved), not by a conflict (rule 4). A miss into a set whose every
//!   way is reserved is a reservation fail ([`L1Plan::ReservationFail`]:
//!   not sent, retried; a prefetch dropped); a store to a reserved line
//!   is a `WRITE_MISS` and leaves it.
//!
//! # Choices where the spec is silent
//! - "Trained" is what the harness can see of any prefetcher: its first
//!   offered prefetch. Snake offers none before a link is trained or an
//!   inter-warp stride is confirmed, which is its training.
//! - *The cap's time limit* (`decoupled_cap_cycles`, machine key). A
//!   prefetcher that never trains (revision 1 of Snake on matrixMul and
//!   the convolutions, whose loads it ignored) held the L1 side at half
//!   the storage for the whole run (conv_rows 19 % slower). The paper
//!   bounds the wait: "The training process takes an average of 3 cycles
//!   (up to 10 cycles)", and on tiles larger than half the storage,
//!   "fetching these large tiles from lower memory levels demands more
//!   time than the designated 10-cycle period, which represents the
//!   maximum required time for training Snake". The default is that
//!   period, 10 cycles, counted from the SM's first demand load (no
//!   prefetcher trains before one; a kernel's prologue of arithmetic does
//!   not count). Measured with revision 2 of Snake, the harness's first
//!   offered prefetch comes 420-840 cycles after the first load where one
//!   warp's second load trains it (stream, reuse, vector_add, the DAC
//!   example, the convolutions on Fermi) and 1,200-15,700 cycles, or
//!   never, where it needs several warps or iterations: the paper's
//!   hardware trains within 10 cycles of the loads it sees, the harness's
//!   first prefetch waits for the loads themselves, so the 10-cycle period
//!   in practice lifts the cap before the first prefetch. 0 restores "only
//!   a prefetch lifts it"; 1000 (about two memory round trips) keeps the
//!   cap while one warp's second load can train the prefetcher.
//! - "Full" is the whole storage (the paper's "no free space left in the
//!   unified cache"), not one set: a set-associative storage then fills up
//!   by conflict replacements (rule 4) and frees a quarter of itself when
//!   the last free line is taken. A per-set reading would free one line of
//!   a 4-way set per miss and raise `cache_full` on every miss of a warm
//!   cache, halting the prefetcher for good.
//! - The 80 % ratio is over the prefetched lines filled since the previous
//!   free-up (two counters in hardware); with none filled, prefetch-side
//!   lines go first.
//! - Conflicts (rule 4) are not in the paper, whose storage fills as one
//!   pool. The rule keeps the paper's stated purpose ("without
//!   decoupling, Snake experiences a 50% loss in accuracy due to early
//!   eviction by normal data from the L1 data cache"): normal data does
//!   not displace an unused prefetch while it can displace normal data. A
//!   prefetch is not confined to its own side: lines that a hit moved to
//!   the L1 side are mostly dead in streaming kernels, and with "own side
//!   first" a prefetch displaced the previous, still unused prefetch
//!   instead (measured: `stream` on the Volta preset, 498 of 762
//!   prefetches evicted unused, against 0 without decoupling). Choosing
//!   the victim side by the 80 % rule was worse still: evicting unused
//!   prefetches lowers the ratio, which keeps evicting them.
//! - The paper also confines the L1 side to its half for up to 50 cycles
//!   while the prefetcher is throttled; `sm_harness.md` does not list that
//!   rule and it is not modelled.

use super::roles::{L1Outcome, L1Plan, L1Response, L1Role};
use crate::counts::UnitCounts;
use crate::error::HarnessError;

#[derive(Clone, Copy, Default)]
struct Line {
    /// Line number + 1 (0 = invalid).
    tag: u64,
    /// On the prefetch side (prefetched, not used yet).
    pf: bool,
    /// Last-use stamp (larger = more recent).
    stamp: u64,
    /// Allocated by a miss or prefetch still in flight (never displaced).
    resv: bool,
}

/// Event counters of the decoupled storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecoupledStats {
    /// Free-ups (edges that found no free line: `cache_full` cycles).
    pub free_ups: u64,
    /// Free-ups that evicted L1-side lines first (> 80 % used).
    pub free_ups_l1: u64,
    /// Lines freed by free-ups.
    pub lines_freed: u64,
    /// Prefetched lines a demand hit moved to the L1 side.
    pub flips: u64,
    /// Load misses that replaced an L1 line because of the cap until
    /// trained.
    pub cap_replacements: u64,
    /// Allocations that replaced a line of a full set while the storage had
    /// free lines.
    pub conflict_replacements: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Req {
    Load,
    Store,
    Prefetch,
}

/// The decoupled L1 storage (module documentation).
pub(crate) struct DecoupledTags {
    sets: usize,
    ways: usize,
    line_shift: u32,
    lines: Vec<Line>,
    clock: u64,
    n_l1: usize,
    n_pf: usize,
    trained: bool,
    /// Prefetched lines filled / used (flipped) since the last free-up.
    window_filled: u64,
    window_used: u64,
    pending: Option<(u64, Req)>,
    rsp: Option<L1Response>,
    full: bool,
    freed: Vec<u64>,
    stats: DecoupledStats,
}

impl DecoupledTags {
    pub(crate) fn new(sets: usize, ways: usize, line_bytes: u32) -> Self {
        DecoupledTags {
            sets,
            ways,
            line_shift: line_bytes.trailing_zeros(),
            lines: vec![Line::default(); sets * ways],
            clock: 0,
            n_l1: 0,
            n_pf: 0,
            trained: false,
            window_filled: 0,
            window_used: 0,
            pending: None,
            rsp: None,
            full: false,
            freed: Vec::new(),
            stats: DecoupledStats::default(),
        }
    }

    /// The counters so far.
    pub(crate) fn stats(&self) -> DecoupledStats {
        self.stats
    }

    /// Valid lines on the L1 side and on the prefetch side.
    #[cfg(test)]
    fn occupancy(&self) -> (usize, usize) {
        (self.n_l1, self.n_pf)
    }

    fn capacity(&self) -> usize {
        self.lines.len()
    }

    #[inline]
    fn line_no(&self, addr: u64) -> u64 {
        (addr & 0xFFFF_FFFF) >> self.line_shift
    }

    #[inline]
    fn find(&self, addr: u64) -> (usize, Option<usize>) {
        let ln = self.line_no(addr);
        let set = (ln % self.sets as u64) as usize;
        let base = set * self.ways;
        let way = self.lines[base..base + self.ways]
            .iter()
            .position(|l| l.tag == ln + 1);
        (set, way)
    }

    fn addr_of(&self, i: usize) -> u64 {
        (self.lines[i].tag - 1) << self.line_shift
    }

    /// Invalidate line `i` (valid), keeping the side counts.
    fn drop_line(&mut self, i: usize) {
        if self.lines[i].pf {
            self.n_pf -= 1;
        } else {
            self.n_l1 -= 1;
        }
        self.lines[i] = Line::default();
    }

    /// The least recently used valid line of set `set` satisfying `pick`.
    fn set_lru(&self, set: usize, pick: impl Fn(&Line) -> bool) -> Option<usize> {
        let base = set * self.ways;
        (base..base + self.ways)
            .filter(|&i| {
                let l = &self.lines[i];
                l.tag != 0 && !l.resv && pick(l)
            })
            .min_by_key(|&i| self.lines[i].stamp)
    }

    /// More than 80 % of the prefetched lines filled since the last free-up
    /// were used: L1-side lines are evicted first.
    fn l1_first(&self) -> bool {
        self.window_used * 5 > self.window_filled * 4
    }

    /// Free a quarter of the storage by LRU (rule 2).
    fn free_up(&mut self) {
        self.full = true;
        self.stats.free_ups += 1;
        let l1_first = self.l1_first();
        if l1_first {
            self.stats.free_ups_l1 += 1;
        }
        self.window_used = 0;
        self.window_filled = 0;
        let quota = (self.capacity() / 4).max(1);
        // Chosen side first, each side oldest first.
        let mut order: Vec<usize> = (0..self.capacity())
            .filter(|&i| self.lines[i].tag != 0 && !self.lines[i].resv)
            .collect();
        order.sort_by_key(|&i| {
            let l = &self.lines[i];
            let chosen = l.pf != l1_first;
            (!chosen, l.stamp)
        });
        for &i in order.iter().take(quota) {
            self.freed.push(self.addr_of(i));
            self.drop_line(i);
            self.stats.lines_freed += 1;
        }
    }

    /// The way line `ln` of set `set` goes to, and the line it displaces
    /// (rules 1, 3, 4; rule 2 has run).
    fn place(&mut self, set: usize, pf: bool) -> (usize, Option<u64>) {
        let base = set * self.ways;
        let at_cap = !pf && !self.trained && self.n_l1 >= self.capacity() / 2;
        if at_cap {
            if let Some(i) = self.set_lru(set, |l| !l.pf) {
                self.stats.cap_replacements += 1;
                let a = self.addr_of(i);
                self.drop_line(i);
                return (i, Some(a));
            }
        }
        if let Some(w) = self.lines[base..base + self.ways]
            .iter()
            .position(|l| l.tag == 0)
        {
            return (base + w, None);
        }
        // A load does not displace a prefetched line while the set has an
        // L1 line; a prefetch takes the set's least recently used line.
        let i = (!pf)
            .then(|| self.set_lru(set, |l| !l.pf))
            .flatten()
            .or_else(|| self.set_lru(set, |_| true))
            .expect("a full set has a valid line");
        self.stats.conflict_replacements += 1;
        let a = self.addr_of(i);
        self.drop_line(i);
        (i, Some(a))
    }

    /// Set `set` has a way that is not reserved (free, or a victim after
    /// the rules above): a miss into it can allocate.
    #[inline]
    fn allocatable(&self, set: usize) -> bool {
        let base = set * self.ways;
        self.lines[base..base + self.ways].iter().any(|l| !l.resv)
    }

    fn apply(&mut self, addr: u64, req: Req) -> L1Response {
        let (set, way) = self.find(addr);
        self.clock += 1;
        let ln = self.line_no(addr);
        let hit = |outcome| L1Response {
            outcome,
            evicted: None,
        };
        match (req, way) {
            (Req::Load | Req::Prefetch, Some(w)) => {
                let i = set * self.ways + w;
                self.lines[i].stamp = self.clock;
                if req == Req::Load && self.lines[i].pf {
                    self.lines[i].pf = false;
                    self.n_pf -= 1;
                    self.n_l1 += 1;
                    self.stats.flips += 1;
                    self.window_used += 1;
                }
                hit(L1Outcome::Hit)
            }
            (Req::Load | Req::Prefetch, None) if !self.allocatable(set) => {
                // A reservation fail: never sent (`plan`); nothing changes.
                hit(L1Outcome::Miss)
            }
            (Req::Load | Req::Prefetch, None) => {
                let pf = req == Req::Prefetch;
                let at_cap = !pf && !self.trained && self.n_l1 >= self.capacity() / 2;
                let cap_applies = at_cap && self.set_lru(set, |l| !l.pf).is_some();
                if !cap_applies && self.n_l1 + self.n_pf == self.capacity() {
                    self.free_up();
                }
                let (i, evicted) = self.place(set, pf);
                self.lines[i] = Line {
                    tag: ln + 1,
                    pf,
                    stamp: self.clock,
                    resv: true,
                };
                if pf {
                    self.n_pf += 1;
                    self.window_filled += 1;
                } else {
                    self.n_l1 += 1;
                }
                L1Response {
                    outcome: L1Outcome::Miss,
                    evicted,
                }
            }
            (Req::Store, Some(w)) if self.lines[set * self.ways + w].resv => {
                hit(L1Outcome::WriteMiss)
            }
            (Req::Store, Some(w)) => {
                let i = set * self.ways + w;
                let a = self.addr_of(i);
                self.drop_line(i);
                L1Response {
                    outcome: L1Outcome::WriteEvict,
                    evicted: Some(a),
                }
            }
            (Req::Store, None) => hit(L1Outcome::WriteMiss),
        }
    }
}

impl L1Role for DecoupledTags {
    #[inline]
    fn holds_data(&self, addr: u64) -> bool {
        self.find(addr).1.is_some()
    }

    #[inline]
    fn plan(&self, addr: u64, _prefetch: bool) -> L1Plan {
        match self.find(addr) {
            (_, Some(_)) => L1Plan::Hit,
            (set, None) if self.allocatable(set) => L1Plan::Allocate,
            _ => L1Plan::ReservationFail,
        }
    }

    fn fill(&mut self, addr: u64) {
        if let (set, Some(w)) = self.find(addr) {
            self.lines[set * self.ways + w].resv = false;
        }
    }

    fn request(&mut self, addr: u64, write: bool) {
        self.pending = Some((addr, if write { Req::Store } else { Req::Load }));
    }

    fn request_prefetch(&mut self, addr: u64) {
        self.pending = Some((addr, Req::Prefetch));
    }

    fn response(&self) -> Option<L1Response> {
        self.rsp
    }

    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        // What the previous edge freed and reported has been read.
        self.full = false;
        self.freed.clear();
        self.rsp = match self.pending.take() {
            Some((a, r)) if !reset => Some(self.apply(a, r)),
            _ => None,
        };
        Ok(())
    }

    fn take_freed(&mut self, out: &mut Vec<u64>) {
        out.append(&mut self.freed);
    }

    fn cache_full(&self) -> bool {
        self.full
    }

    fn prefetcher_trained(&mut self) {
        self.trained = true;
    }

    fn counts(&self) -> UnitCounts {
        let s = self.stats();
        UnitCounts {
            key: "decoupled",
            label: "decoupled L1",
            counters: vec![
                ("free_ups", s.free_ups),
                ("free_ups_l1", s.free_ups_l1),
                ("lines_freed", s.lines_freed),
                ("flips", s.flips),
                ("cap_replacements", s.cap_replacements),
                ("conflict_replacements", s.conflict_replacements),
            ],
            summary: format!(
                "{} free-ups ({} of L1 lines, {} lines freed), {} prefetched lines moved to \
                 the L1 side, {} cap replacements",
                s.free_ups, s.free_ups_l1, s.lines_freed, s.flips, s.cap_replacements
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: u64 = 128;

    /// 2 sets x 4 ways = 8 lines.
    fn tags() -> DecoupledTags {
        DecoupledTags::new(2, 4, LINE as u32)
    }

    /// Address of line `n` (set `n % 2`).
    fn a(n: u64) -> u64 {
        n * LINE
    }

    /// A request whose fill (if it allocated) returns at once.
    fn go(t: &mut DecoupledTags, addr: u64, req: Req) -> L1Response {
        let r = in_flight(t, addr, req);
        if req != Req::Store {
            t.fill(addr);
        }
        r
    }

    /// A request whose fill (if it allocated) has not returned.
    fn in_flight(t: &mut DecoupledTags, addr: u64, req: Req) -> L1Response {
        match req {
            Req::Load => t.request(addr, false),
            Req::Store => t.request(addr, true),
            Req::Prefetch => t.request_prefetch(addr),
        }
        t.step(false).unwrap();
        t.response().unwrap()
    }

    #[test]
    fn reserved_lines_are_never_displaced() {
        let mut t = tags();
        t.prefetcher_trained();
        // Set 0 (even lines): lines 0 and 2 in flight, 4 and 6 filled.
        in_flight(&mut t, a(0), Req::Load);
        in_flight(&mut t, a(2), Req::Prefetch);
        go(&mut t, a(4), Req::Load);
        go(&mut t, a(6), Req::Load);
        // A conflict takes the LRU line that is not reserved (4, not 0).
        assert_eq!(in_flight(&mut t, a(8), Req::Load).evicted, Some(a(4)));
        assert_eq!(in_flight(&mut t, a(10), Req::Prefetch).evicted, Some(a(6)));
        // Every way of set 0 in flight: a reservation fail; set 1 is free.
        assert_eq!(t.plan(a(12), false), L1Plan::ReservationFail);
        assert_eq!(t.plan(a(12), true), L1Plan::ReservationFail);
        assert_eq!(t.plan(a(1), false), L1Plan::Allocate);
        // Set 1 full of filled lines: the whole storage is full, and the
        // free-up takes only lines that are not reserved (all of set 1's).
        for n in [1, 3, 5, 7] {
            go(&mut t, a(n), Req::Load);
        }
        go(&mut t, a(9), Req::Load);
        let f = freed(&mut t);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f.iter().all(|&x| (x / LINE) % 2 == 1), "{f:?}");
        // A store to a line in flight leaves it; its fill releases it.
        assert_eq!(
            in_flight(&mut t, a(0), Req::Store).outcome,
            L1Outcome::WriteMiss
        );
        assert!(t.holds_data(a(0)));
        t.fill(a(0));
        assert_eq!(t.plan(a(12), false), L1Plan::Allocate);
        assert_eq!(in_flight(&mut t, a(12), Req::Load).evicted, Some(a(0)));
    }

    fn freed(t: &mut DecoupledTags) -> Vec<u64> {
        let mut v = Vec::new();
        t.take_freed(&mut v);
        v
    }

    #[test]
    fn the_l1_side_is_capped_at_half_until_trained() {
        let mut t = tags();
        // Four loads fill half the storage (two per set).
        for n in 0..4 {
            assert_eq!(go(&mut t, a(n), Req::Load).evicted, None);
        }
        assert_eq!(t.occupancy(), (4, 0));
        // A fifth load replaces the LRU L1 line of its set (line 0, set 0)
        // although set 0 has free ways.
        let r = go(&mut t, a(4), Req::Load);
        assert_eq!((r.outcome, r.evicted), (L1Outcome::Miss, Some(a(0))));
        assert_eq!(t.occupancy(), (4, 0));
        assert_eq!(t.stats().cap_replacements, 1);
        assert!(!t.cache_full());
        // Trained: the L1 side may grow.
        t.prefetcher_trained();
        assert_eq!(go(&mut t, a(6), Req::Load).evicted, None);
        assert_eq!(t.occupancy(), (5, 0));
    }

    #[test]
    fn a_hit_moves_a_prefetched_line_to_the_l1_side() {
        let mut t = tags();
        t.prefetcher_trained();
        go(&mut t, a(3), Req::Prefetch);
        assert_eq!(t.occupancy(), (0, 1));
        assert!(t.holds_data(a(3)));
        assert_eq!(go(&mut t, a(3) + 4, Req::Load).outcome, L1Outcome::Hit);
        assert_eq!(t.occupancy(), (1, 0));
        assert_eq!(t.stats().flips, 1);
        // A second hit changes nothing.
        go(&mut t, a(3), Req::Load);
        assert_eq!((t.occupancy(), t.stats().flips), ((1, 0), 1));
    }

    #[test]
    fn a_full_storage_frees_a_quarter_of_the_prefetched_lines_by_lru() {
        let mut t = tags();
        t.prefetcher_trained();
        // Lines 0..4 on the L1 side, 4..8 prefetched (none used).
        for n in 0..4 {
            go(&mut t, a(n), Req::Load);
        }
        for n in 4..8 {
            go(&mut t, a(n), Req::Prefetch);
        }
        assert_eq!(t.occupancy(), (4, 4));
        assert!(freed(&mut t).is_empty());
        // Line 8 finds no free line: two prefetched lines (the oldest, 4
        // and 5) are freed, then line 8 takes a free way of set 0.
        let r = go(&mut t, a(8), Req::Load);
        assert_eq!((r.outcome, r.evicted), (L1Outcome::Miss, None));
        assert!(t.cache_full());
        assert_eq!(freed(&mut t), vec![a(4), a(5)]);
        assert_eq!(t.occupancy(), (5, 2));
        // cache_full lasts one cycle.
        go(&mut t, a(8), Req::Load);
        assert!(!t.cache_full() && freed(&mut t).is_empty());
    }

    #[test]
    fn well_used_prefetches_free_l1_lines_instead() {
        let mut t = tags();
        t.prefetcher_trained();
        for n in 0..3 {
            go(&mut t, a(n), Req::Load);
        }
        for n in 3..8 {
            go(&mut t, a(n), Req::Prefetch);
        }
        // Five prefetched lines filled, all five used: 100 % > 80 %.
        for n in 3..8 {
            go(&mut t, a(n), Req::Load);
        }
        assert_eq!(t.occupancy(), (8, 0));
        go(&mut t, a(9), Req::Load);
        // The two oldest L1 lines are 0 and 1.
        assert_eq!(freed(&mut t), vec![a(0), a(1)]);
        assert_eq!(t.stats().free_ups_l1, 1);
        // The window restarted: the next free-up, with no prefetch filled
        // since, frees prefetched lines first (none: then the L1's oldest).
        go(&mut t, a(10), Req::Load);
        go(&mut t, a(12), Req::Load);
        assert_eq!(t.stats().free_ups, 2);
        assert_eq!(t.stats().free_ups_l1, 1);
        assert_eq!(freed(&mut t), vec![a(2), a(3)]);
    }

    #[test]
    fn four_of_five_used_is_not_more_than_eighty_percent() {
        let mut t = tags();
        t.prefetcher_trained();
        for n in 0..3 {
            go(&mut t, a(n), Req::Load);
        }
        for n in 3..8 {
            go(&mut t, a(n), Req::Prefetch);
        }
        for n in 3..7 {
            go(&mut t, a(n), Req::Load);
        }
        go(&mut t, a(9), Req::Load);
        // Only line 7 is still on the prefetch side: it goes, then the
        // oldest L1 line.
        assert_eq!(freed(&mut t), vec![a(7), a(0)]);
        assert_eq!(t.stats().free_ups_l1, 0);
    }

    #[test]
    fn in_a_full_set_loads_spare_unused_prefetches() {
        // 4 sets x 4 ways: set = line % 4.
        let mut t = DecoupledTags::new(4, 4, LINE as u32);
        t.prefetcher_trained();
        go(&mut t, a(0), Req::Load);
        go(&mut t, a(4), Req::Prefetch);
        go(&mut t, a(8), Req::Load);
        go(&mut t, a(12), Req::Prefetch);
        // A prefetch into the full set takes the set's LRU line (an L1
        // line here).
        assert_eq!(go(&mut t, a(16), Req::Prefetch).evicted, Some(a(0)));
        // A load takes the LRU L1 line, not the older unused prefetch 4.
        assert_eq!(go(&mut t, a(20), Req::Load).evicted, Some(a(8)));
        // A set of prefetched lines only: the load takes the LRU one.
        for n in [1, 5, 9, 13] {
            go(&mut t, a(n), Req::Prefetch);
        }
        assert_eq!(go(&mut t, a(17), Req::Load).evicted, Some(a(1)));
        assert!(!t.cache_full());
        assert_eq!(t.stats().conflict_replacements, 3);
        assert_eq!(t.occupancy(), (2, 6));
        // Stores write-evict on either side.
        let r = go(&mut t, a(16), Req::Store);
        assert_eq!((r.outcome, r.evicted), (L1Outcome::WriteEvict, Some(a(16))));
        assert_eq!(go(&mut t, a(16), Req::Store).outcome, L1Outcome::WriteMiss);
        assert_eq!(t.occupancy(), (2, 5));
    }

    #[test]
    fn reset_cycles_decide_nothing() {
        let mut t = tags();
        t.request(a(1), false);
        t.step(true).unwrap();
        assert_eq!(t.response(), None);
        assert!(!t.holds_data(a(1)));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Random loads, prefetches and stores over a few dozen lines of a
        /// 4 x 4 storage, training at a random point: the side counts match
        /// the flags, a request hits exactly when its line was present, a
        /// loaded or prefetched line is present afterwards and a stored one
        /// is not, `cache_full` comes exactly with a free-up of a quarter
        /// of a full storage, and displaced lines are gone.
        #[test]
        fn decoupled_storage_invariants(
            ops in proptest::collection::vec((0u8..3, 0u64..40), 1..400),
            train_at in 0usize..400,
        ) {
            let mut t = DecoupledTags::new(4, 4, LINE as u32);
            for (i, &(op, n)) in ops.iter().enumerate() {
                if i == train_at {
                    t.prefetcher_trained();
                }
                let req = [Req::Load, Req::Prefetch, Req::Store][op as usize];
                let was = t.holds_data(a(n));
                let valid_before = t.lines.iter().filter(|l| l.tag != 0).count();
                let r = go(&mut t, a(n), req);
                let (n_l1, n_pf) = t.occupancy();
                let l1 = t.lines.iter().filter(|l| l.tag != 0 && !l.pf).count();
                let pf = t.lines.iter().filter(|l| l.tag != 0 && l.pf).count();
                proptest::prop_assert_eq!((n_l1, n_pf), (l1, pf));
                match req {
                    Req::Store => {
                        proptest::prop_assert!(!t.holds_data(a(n)));
                        proptest::prop_assert_eq!(r.outcome == L1Outcome::WriteEvict, was);
                    }
                    _ => {
                        proptest::prop_assert!(t.holds_data(a(n)));
                        proptest::prop_assert_eq!(r.outcome == L1Outcome::Hit, was);
                    }
                }
                let freed = freed(&mut t);
                proptest::prop_assert_eq!(t.cache_full(), !freed.is_empty());
                if t.cache_full() {
                    proptest::prop_assert_eq!(valid_before, 16);
                    proptest::prop_assert_eq!(freed.len(), 4);
                }
                for f in freed.iter().chain(r.evicted.iter()) {
                    proptest::prop_assert!(!t.holds_data(*f));
                    // Only a store displaces its own line.
                    proptest::prop_assert_eq!(*f == a(n), req == Req::Store);
                }
            }
        }
    }
}
