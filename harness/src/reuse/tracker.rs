//! The classifier of a run's L1 demand load stream: per access, its
//! distances (fully associative and in its set), counted per load PC and
//! over time.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::profile::{ReuseMetrics, ReusePc, ReuseTimeline, MAX_WINDOWS};
use super::stack::{bounds, interval, Distance, RecencyStack, NO_SLOT};
use crate::hash::FxBuild;
use crate::kernel::MemInstrInfo;

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

/// The reuse-distance profiler of one L1 (module documentation).
pub(crate) struct ReuseTracker {
    sets: u64,
    ways: u32,
    cap: u32,
    pub(super) bounds: [u32; 5],
    line_shift: u32,
    /// Per distinct line: its slot in the fully associative stack and in
    /// its set's (`NO_SLOT`: not held).
    pub(super) lines: HashMap<u64, (u32, u32), FxBuild>,
    pub(super) full: RecencyStack,
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
    pub(crate) fn finish(self, loads: &[MemInstrInfo]) -> ReuseMetrics {
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
