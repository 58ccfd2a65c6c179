//! The reuse-distance profile a run reports ([`ReuseMetrics`]): totals,
//! per load PC and over time, summed over SMs, and its table rows.

use serde::Serialize;

use super::stack::interval_names;

/// The timeline's windows double in length to stay at most this many.
pub const MAX_WINDOWS: usize = 128;

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
