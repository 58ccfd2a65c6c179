//! Metrics of a harness run (`sm_harness.md`, "Metrics"), their table and
//! the reuse-distance classifier.
//!
//! # Definitions used by every printed figure
//! - **L1 accesses** are demand *load* line requests that reached the L1
//!   (one per coalesced line; reservation fails are retried and counted
//!   only in `reservation_fails`). They split into `hits`, `misses`
//!   (tag absent; a line is allocated), `bypasses` and `pseudo_hits` (BA
//!   only) and `pending_hits` (the line was already in flight in an MSHR:
//!   the request merged). `miss_rate = 1 - hits / accesses`.
//! - **Stores** are counted apart (`store_lines`, `write_evicts`).
//! - **Miss bursts**: the demand misses sent to memory per window of
//!   [`BURST_WINDOW`] cycles: the most in one window (`burst_peak`) and
//!   the coefficient of variation over the run's windows (`burst_cv`, 0
//!   for perfectly even misses; over SMs, the mean of theirs).
//! - **Bandwidth utilisation** = requests accepted by the lower memory x
//!   `mem_interval` / cycles (1.0 = the memory accepted a request every
//!   time it could).
//! - **Prefetches**: `issued` = sent to memory (a prefetch whose line is
//!   present or in flight is `dropped`, not issued); `useful` = a demand
//!   access found the prefetched line present and not yet used; `late` = a
//!   demand access found it still in flight; `early_evicted` = evicted (or
//!   never installed: BA bypass, write-evict) before any demand used it;
//!   `unused_at_end` = neither used nor evicted when the kernel ended.
//!   `coverage = (useful + late) / L1 accesses` (demand line requests;
//!   the Snake paper's coverage, "correctly predicted / demand
//!   addresses"), `caps_coverage = offered / L1 accesses` (the CAPS
//!   paper's coverage, section VI-C, "the number of issued prefetch
//!   requests compared to the total demand fetch requests": every
//!   prefetch request the L1 took, dropped ones included), `accuracy =
//!   (useful + late) / issued` (the CAPS paper's accuracy, "correctly
//!   estimated prefetch requests that were actually consumed by the
//!   demand requests"), `timely_per_demand = useful / L1 accesses` (the
//!   Snake paper's accuracy, "correct and timely / demand addresses");
//!   the table names each by its paper;
//!   `avg_distance` = mean cycles from issue to the first demand access
//!   (useful and late prefetches).
//! - **Reuse distance** (BA-cache thesis): for each L1 demand access but
//!   pending hits, the number of distinct lines accessed since the
//!   previous access to the same line. Per set with associativity n
//!   (Table 1): `rd0` = [0, n) (would hit in LRU), `rd1` = [n, inf),
//!   `rd2` = first access. In one fully associative stack of the L1's
//!   capacity C (Figure 6): [0,C/16), ..., [C/2,C), [C, inf), inf (for
//!   16 KB, C = 128: [0,8), [8,16), [16,32), [32,64), [64,128), [128,
//!   inf), inf). Per load PC and over time; definitions, the thesis's
//!   wording and the data structure in [`super::reuse`].

use std::fmt::Write as _;

use serde::ser::SerializeMap;
use serde::Serialize;

/// The configuration a run used (echoed in the metrics).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunInfo {
    /// Kernel name.
    pub kernel: String,
    /// Kernel file.
    pub file: String,
    /// Machine preset.
    pub preset: String,
    /// Scheduler.
    pub sched: String,
    /// L1 tag array.
    pub l1: String,
    /// Prefetcher.
    pub prefetcher: String,
    /// Expansion unit (`none`, `dac`).
    pub expander: String,
    /// The L1 ran in decoupled mode (`decoupled`).
    pub decoupled: bool,
    /// Run seed.
    pub seed: u64,
    /// SMs modelled for the CTA distribution, and this SM's index.
    pub n_sm: u32,
    /// This SM.
    pub sm_id: u32,
    /// Grid and block of the kernel.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// CTAs resident at once on this SM.
    pub ctas_per_sm: u32,
    /// Every SM of `n_sm` was modelled (`sms = all`); else only SM
    /// `sm_id`.
    pub all_sms: bool,
}

/// L1 outcomes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct L1Metrics {
    /// Demand load line requests that reached the L1.
    pub accesses: u64,
    /// Tag present with data.
    pub hits: u64,
    /// Tag absent, line allocated.
    pub misses: u64,
    /// Line in flight: merged into its MSHR.
    pub pending_hits: u64,
    /// BA: set full, the request bypassed.
    pub bypasses: u64,
    /// BA: bypass tag found, the line is now fetched into the cache.
    pub pseudo_hits: u64,
    /// Requests (loads, stores, not prefetches) refused for lack of an MSHR,
    /// a merge slot or miss-queue room; retried.
    pub reservation_fails: u64,
    /// Store line requests.
    pub store_lines: u64,
    /// Stores that invalidated a line.
    pub write_evicts: u64,
    /// Lines holding data displaced by a fill decision (not by stores).
    pub evictions: u64,
    /// `1 - hits / accesses`.
    pub miss_rate: f64,
    /// Burstiness of the demand misses (the contention CAPS spreads):
    /// the most misses sent to memory in one window of
    /// [`BURST_WINDOW`] cycles, ...
    pub burst_peak: u64,
    /// ... and the coefficient of variation (standard deviation / mean)
    /// of the misses per window over the run's windows (0: perfectly
    /// even).
    pub burst_cv: f64,
    /// The tag array's own counters (the decoupled mode's free-ups and
    /// flag flips); in JSON one more field named by their key
    /// (`"decoupled": {...}`), absent when there are none.
    #[serde(flatten)]
    pub counts: UnitCounts,
}

/// The window of the miss-burstiness figures, cycles.
pub const BURST_WINDOW: u64 = 100;

/// Running per-window counts (memory flat in the cycles simulated).
#[derive(Clone, Debug, Default)]
pub(crate) struct BurstMeter {
    window: u64,
    count: u64,
    sum: f64,
    sum_sq: f64,
    peak: u64,
}

impl BurstMeter {
    /// One event at cycle `now`.
    pub(crate) fn event(&mut self, now: u64) {
        let w = now / BURST_WINDOW;
        if w != self.window {
            self.close();
            self.window = w;
        }
        self.count += 1;
    }

    fn close(&mut self) {
        let c = self.count as f64;
        self.sum += c;
        self.sum_sq += c * c;
        self.peak = self.peak.max(self.count);
        self.count = 0;
    }

    /// (peak, coefficient of variation) over the windows of `cycles`.
    pub(crate) fn finish(mut self, cycles: u64) -> (u64, f64) {
        self.close();
        let n = cycles.div_ceil(BURST_WINDOW).max(1) as f64;
        let mean = self.sum / n;
        if mean == 0.0 {
            return (self.peak, 0.0);
        }
        let var = (self.sum_sq / n - mean * mean).max(0.0);
        (self.peak, var.sqrt() / mean)
    }
}

/// Lower-memory traffic.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MemMetrics {
    /// Read requests (demand and prefetch).
    pub reads: u64,
    /// Of which prefetches.
    pub prefetch_reads: u64,
    /// Write requests.
    pub writes: u64,
    /// Requests accepted x the cycles each occupies the SM's link
    /// (`mem_interval`, or `icnt_interval` in the hierarchy) / cycles.
    pub bandwidth_utilisation: f64,
    /// The memory below the L1: L2 and DRAM counters (zero in the flat
    /// model but `accepted`).
    pub lower: super::memsys::LowerStats,
    /// `1 - L2 read hits / L2 reads` (hierarchy).
    pub l2_miss_rate: f64,
}

/// Prefetcher outcomes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PrefetchMetrics {
    /// Prefetch requests offered by the prefetcher and taken by the L1.
    pub offered: u64,
    /// Sent to memory.
    pub issued: u64,
    /// Dropped: the line was present.
    pub dropped_present: u64,
    /// Dropped: the line was in flight.
    pub dropped_in_flight: u64,
    /// A demand found the line present.
    pub useful: u64,
    /// A demand found the line in flight.
    pub late: u64,
    /// Evicted (or not installed) before use.
    pub early_evicted: u64,
    /// Neither used nor evicted at the end.
    pub unused_at_end: u64,
    /// `(useful + late) / L1 accesses`.
    pub coverage: f64,
    /// `(useful + late) / issued` (CAPS's accuracy).
    pub accuracy: f64,
    /// `useful / L1 accesses` (Snake's accuracy: correct and timely).
    pub timely_per_demand: f64,
    /// `issued / L1 accesses`.
    pub issued_per_demand: f64,
    /// The CAPS paper's coverage (section VI-C: "the ratio of the number of
    /// issued prefetch requests compared to the total demand fetch
    /// requests"): prefetch requests the L1 took, dropped ones included
    /// (`offered`), over L1 accesses.
    pub caps_coverage: f64,
    /// Mean cycles from issue to first demand (useful and late).
    pub avg_distance: f64,
    /// Cycles the prefetcher offered a prefetch the L1 could not take.
    pub stall_cycles: u64,
    /// Warps promoted by eager wake-up.
    pub eager_wakeups: u64,
    /// Cycles the L1 reported `cache_full` to the prefetcher.
    pub cache_full_cycles: u64,
    /// The prefetcher's own event counters. In JSON they appear as one
    /// more field of this object, named by the prefetcher's key
    /// (`"caps": {"loads": ..., ...}`).
    #[serde(flatten)]
    pub counts: UnitCounts,
}

/// A unit's own event counters (in the unit's order) and the line the
/// metrics table prints for them; filled by the unit's role adapter.
///
/// Serialized as a map with one entry, the unit's key mapped to its
/// counters (nothing when `key` is empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// The unit's override key (`HarnessUnit::KEY`): the JSON field name.
    pub key: &'static str,
    /// The table row's label (`CAPS`).
    pub label: &'static str,
    /// The counters, by name, in the unit's order.
    pub counters: Vec<(&'static str, u64)>,
    /// The table row's text.
    pub summary: String,
}

impl UnitCounts {
    /// The counter `name`, if the unit has it.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.counters
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }
}

/// The counters as an ordered JSON object.
struct Ordered<'a>(&'a [(&'static str, u64)]);

impl Serialize for Ordered<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl Serialize for UnitCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let empty = self.key.is_empty();
        let mut m = s.serialize_map(Some(usize::from(!empty)))?;
        if !empty {
            m.serialize_entry(self.key, &Ordered(&self.counters))?;
        }
        m.end()
    }
}

pub use super::reuse::{ReuseMetrics, ReusePc, ReuseTimeline};

/// Per-array traffic.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ArrayMetrics {
    /// Array name.
    pub name: String,
    /// Base address.
    pub base: u64,
    /// Demand load line requests.
    pub load_lines: u64,
    /// Of which hits.
    pub hits: u64,
    /// Store line requests.
    pub store_lines: u64,
    /// Prefetches issued for lines of this array.
    pub prefetches: u64,
    /// Of which useful or late.
    pub prefetches_used: u64,
}

/// DAC's figures (`sm_harness.md`: "for DAC: affine instructions,
/// instructions removed, records, fast/slow predicate paths").
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DacMetrics {
    /// The kernel ran decoupled (else `reason` says why it ran without
    /// DAC and every other figure is 0).
    pub decoupled: bool,
    /// Why the kernel was not decoupled.
    pub reason: String,
    /// Batches of CTAs the affine warp ran for (one affine stream each).
    pub batches: u64,
    /// Instructions the affine warp issued (included in
    /// `warp_instructions`).
    pub affine_instructions: u64,
    /// Affine lets the non-affine warps did not issue (per warp).
    pub removed: u64,
    /// Tuples enqueued: DATA (loads), ADDR (stores), PRED (branches).
    pub tuples_data: u64,
    /// ADDR tuples.
    pub tuples_addr: u64,
    /// PRED tuples.
    pub tuples_pred: u64,
    /// Cycles the affine warp waited for room in the tuple queue.
    pub enq_stall_cycles: u64,
    /// Warp loads and stores whose addresses came from dequeued records.
    pub decoupled_mem_instructions: u64,
    /// Warp branches whose mask came from the predicate queue.
    pub decoupled_branches: u64,
    /// Address records dequeued.
    pub records: u64,
    /// Predicate masks dequeued.
    pub masks: u64,
    /// Dequeues that found the queue empty (retried).
    pub deq_misses: u64,
    /// Warps whose predicate mask took the unit's fast path.
    pub pred_fast: u64,
    /// Warps whose predicate mask took the slow path.
    pub pred_slow: u64,
    /// `pred_fast / (pred_fast + pred_slow)`.
    pub fast_share: f64,
    /// Early memory requests taken from the unit (one per DATA record).
    pub early_requests: u64,
    /// Of which found the line present.
    pub early_present: u64,
    /// Of which found the line in flight.
    pub early_in_flight: u64,
    /// Of which went to memory.
    pub early_misses: u64,
    /// Cycles an early request waited for an MSHR or miss-queue room.
    pub early_stall_cycles: u64,
    /// Early requests taken without a lock: their set already had `ways -
    /// 1` locked lines.
    pub unlocked_requests: u64,
    /// Most lines locked at once.
    pub max_locked_lines: u64,
    /// Demand line requests of decoupled loads: the line was present
    /// (latency hidden), in flight, or absent.
    pub decoupled_hits: u64,
    /// In flight.
    pub decoupled_pending: u64,
    /// Absent.
    pub decoupled_misses: u64,
    /// The unit's own event counters (JSON: one more field named by its
    /// key).
    #[serde(flatten)]
    pub counts: UnitCounts,
}

impl ArrayMetrics {
    /// No traffic yet for array `name` at `base`.
    pub(crate) fn empty(name: &str, base: u64) -> Self {
        ArrayMetrics {
            name: name.to_string(),
            base,
            ..Default::default()
        }
    }
}

/// Scheduler figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SchedMetrics {
    /// Cycles in which no warp issued.
    pub idle_cycles: u64,
    /// Cycles in which a warp with a memory instruction waited for the
    /// load/store unit.
    pub ldst_stall_cycles: u64,
    /// Barriers completed (per CTA).
    pub barriers: u64,
    /// Of the idle cycles, those in which a warp waited only for an
    /// operand's latency (`lat_*`) or a busy pipeline (`ii_*`).
    #[serde(default)]
    pub operand_wait_cycles: u64,
}

/// Everything measured in one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// The run's configuration.
    pub run: RunInfo,
    /// Cycles until the last CTA of this SM finished.
    pub cycles: u64,
    /// Warp instructions issued.
    pub warp_instructions: u64,
    /// Thread instructions (active lanes of issued warp instructions).
    pub thread_instructions: u64,
    /// Warp instructions per cycle.
    pub ipc: f64,
    /// CTAs run on this SM.
    pub ctas: u64,
    /// Memory instructions (warp level).
    pub mem_instructions: u64,
    /// Lanes whose index was outside their array.
    pub out_of_bounds: u64,
    /// L1.
    pub l1: L1Metrics,
    /// Lower memory.
    pub memory: MemMetrics,
    /// Prefetcher (absent without one).
    pub prefetch: Option<PrefetchMetrics>,
    /// DAC (absent without an expansion unit).
    pub dac: Option<DacMetrics>,
    /// Reuse distances (absent when disabled).
    pub reuse: Option<ReuseMetrics>,
    /// The inter-warp stride probe's scores (absent unless
    /// `interwarp_probe` is set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interwarp: Option<super::interwarp::InterWarpMetrics>,
    /// Scheduler.
    pub sched: SchedMetrics,
    /// Per array.
    pub arrays: Vec<ArrayMetrics>,
    /// All-SM runs: each SM's main figures (empty for a one-SM run, whose
    /// figures are the SM's).
    pub per_sm: Vec<SmSummary>,
}

/// One SM's main figures in an all-SM run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SmSummary {
    /// The SM.
    pub sm: u32,
    /// Cycles until its last CTA finished.
    pub cycles: u64,
    /// CTAs it ran.
    pub ctas: u64,
    /// Warp instructions it issued.
    pub warp_instructions: u64,
    /// Its L1's demand line requests, hits and reservation fails.
    pub l1_accesses: u64,
    /// Hits.
    pub l1_hits: u64,
    /// Reservation fails.
    pub reservation_fails: u64,
}

/// `a += b` for unit counters, by name (the first's order).
fn add_counts(a: &mut UnitCounts, b: &UnitCounts) {
    if a.key.is_empty() {
        *a = b.clone();
        return;
    }
    for (name, v) in &b.counters {
        match a.counters.iter_mut().find(|(n, _)| n == name) {
            Some((_, x)) => *x += v,
            None => a.counters.push((name, *v)),
        }
    }
    // The unit's own summary line is one SM's: list the sums instead.
    let sums: Vec<String> = a
        .counters
        .iter()
        .map(|(n, v)| format!("{} {v}", n.replace('_', " ")))
        .collect();
    a.summary = format!("summed over SMs: {}", sums.join(", "));
}

impl Metrics {
    /// The figures of an all-SM run from each SM's (`per`, by SM index):
    /// counts summed, rates recomputed, `cycles` the last SM's end, the
    /// memory's counters `lower` (shared, counted once).
    pub(crate) fn total(per: Vec<Metrics>, lower: super::memsys::LowerStats) -> Metrics {
        let mut t = Metrics::default();
        let Some(first) = per.first() else {
            return t;
        };
        t.run = first.run.clone();
        t.run.sm_id = 0;
        t.arrays = first
            .arrays
            .iter()
            .map(|a| ArrayMetrics::empty(&a.name, a.base))
            .collect();
        let mut distance_weighted = 0.0;
        let mut bw = 0.0;
        for (i, m) in per.iter().enumerate() {
            t.per_sm.push(SmSummary {
                sm: i as u32,
                cycles: m.cycles,
                ctas: m.ctas,
                warp_instructions: m.warp_instructions,
                l1_accesses: m.l1.accesses,
                l1_hits: m.l1.hits,
                reservation_fails: m.l1.reservation_fails,
            });
            t.cycles = t.cycles.max(m.cycles);
            t.warp_instructions += m.warp_instructions;
            t.thread_instructions += m.thread_instructions;
            t.ctas += m.ctas;
            t.mem_instructions += m.mem_instructions;
            t.out_of_bounds += m.out_of_bounds;
            let (a, b) = (&mut t.l1, &m.l1);
            a.accesses += b.accesses;
            a.hits += b.hits;
            a.misses += b.misses;
            a.pending_hits += b.pending_hits;
            a.bypasses += b.bypasses;
            a.pseudo_hits += b.pseudo_hits;
            a.reservation_fails += b.reservation_fails;
            a.store_lines += b.store_lines;
            a.write_evicts += b.write_evicts;
            a.evictions += b.evictions;
            a.burst_peak = a.burst_peak.max(b.burst_peak);
            a.burst_cv += b.burst_cv / per.len() as f64;
            add_counts(&mut a.counts, &b.counts);
            t.memory.reads += m.memory.reads;
            t.memory.prefetch_reads += m.memory.prefetch_reads;
            t.memory.writes += m.memory.writes;
            bw += m.memory.bandwidth_utilisation;
            if let Some(p) = &m.prefetch {
                let q = t.prefetch.get_or_insert_with(PrefetchMetrics::default);
                q.offered += p.offered;
                q.issued += p.issued;
                q.dropped_present += p.dropped_present;
                q.dropped_in_flight += p.dropped_in_flight;
                q.useful += p.useful;
                q.late += p.late;
                q.early_evicted += p.early_evicted;
                q.unused_at_end += p.unused_at_end;
                q.stall_cycles += p.stall_cycles;
                q.eager_wakeups += p.eager_wakeups;
                q.cache_full_cycles += p.cache_full_cycles;
                distance_weighted += p.avg_distance * (p.useful + p.late) as f64;
                add_counts(&mut q.counts, &p.counts);
            }
            if let Some(d) = &m.dac {
                let e = t.dac.get_or_insert_with(DacMetrics::default);
                e.decoupled = d.decoupled;
                e.reason = d.reason.clone();
                e.batches += d.batches;
                e.affine_instructions += d.affine_instructions;
                e.removed += d.removed;
                e.tuples_data += d.tuples_data;
                e.tuples_addr += d.tuples_addr;
                e.tuples_pred += d.tuples_pred;
                e.enq_stall_cycles += d.enq_stall_cycles;
                e.decoupled_mem_instructions += d.decoupled_mem_instructions;
                e.decoupled_branches += d.decoupled_branches;
                e.records += d.records;
                e.masks += d.masks;
                e.deq_misses += d.deq_misses;
                e.pred_fast += d.pred_fast;
                e.pred_slow += d.pred_slow;
                e.early_requests += d.early_requests;
                e.early_present += d.early_present;
                e.early_in_flight += d.early_in_flight;
                e.early_misses += d.early_misses;
                e.early_stall_cycles += d.early_stall_cycles;
                e.unlocked_requests += d.unlocked_requests;
                e.max_locked_lines = e.max_locked_lines.max(d.max_locked_lines);
                e.decoupled_hits += d.decoupled_hits;
                e.decoupled_pending += d.decoupled_pending;
                e.decoupled_misses += d.decoupled_misses;
                add_counts(&mut e.counts, &d.counts);
            }
            if let Some(r) = &m.reuse {
                t.reuse.get_or_insert_with(ReuseMetrics::default).add(r);
            }
            if let Some(p) = &m.interwarp {
                let u = t.interwarp.get_or_insert_with(Default::default);
                if u.rows.is_empty() {
                    u.rows = p.rows.clone();
                } else {
                    for (a, b) in u.rows.iter_mut().zip(&p.rows) {
                        a.add(b);
                        a.finish();
                    }
                }
                u.records += p.records;
                u.truncated |= p.truncated;
            }
            t.sched.idle_cycles += m.sched.idle_cycles;
            t.sched.ldst_stall_cycles += m.sched.ldst_stall_cycles;
            t.sched.barriers += m.sched.barriers;
            t.sched.operand_wait_cycles += m.sched.operand_wait_cycles;
            for (a, b) in t.arrays.iter_mut().zip(&m.arrays) {
                a.load_lines += b.load_lines;
                a.hits += b.hits;
                a.store_lines += b.store_lines;
                a.prefetches += b.prefetches;
                a.prefetches_used += b.prefetches_used;
            }
        }
        t.ipc = ratio(t.warp_instructions, t.cycles);
        let l = &mut t.l1;
        l.miss_rate = if l.accesses == 0 {
            0.0
        } else {
            1.0 - ratio(l.hits, l.accesses)
        };
        t.memory.bandwidth_utilisation = bw / per.len() as f64;
        t.memory.l2_miss_rate = if lower.l2_reads == 0 {
            0.0
        } else {
            1.0 - ratio(lower.l2_read_hits, lower.l2_reads)
        };
        t.memory.lower = lower;
        let accesses = t.l1.accesses;
        if let Some(p) = t.prefetch.as_mut() {
            let used = p.useful + p.late;
            p.coverage = ratio(used, accesses);
            p.accuracy = ratio(used, p.issued);
            p.timely_per_demand = ratio(p.useful, accesses);
            p.issued_per_demand = ratio(p.issued, accesses);
            p.caps_coverage = ratio(p.offered, accesses);
            p.avg_distance = if used == 0 {
                0.0
            } else {
                distance_weighted / used as f64
            };
        }
        if let Some(d) = t.dac.as_mut() {
            d.fast_share = ratio(d.pred_fast, d.pred_fast + d.pred_slow);
        }
        t
    }
}

pub(crate) fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

impl Metrics {
    /// A printable table (two columns: metric, value).
    pub fn table(&self) -> String {
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut r = |k: &str, v: String| rows.push((k.to_string(), v));
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        r("kernel", format!("{} ({})", self.run.kernel, self.run.file));
        r(
            "machine",
            format!(
                "{}, sched {}, L1 {}{}, prefetcher {}{}, seed {}",
                self.run.preset,
                self.run.sched,
                self.run.l1,
                if self.run.decoupled {
                    " (decoupled)"
                } else {
                    ""
                },
                self.run.prefetcher,
                if self.run.expander.is_empty() || self.run.expander == "none" {
                    String::new()
                } else {
                    format!(", expander {}", self.run.expander)
                },
                self.run.seed
            ),
        );
        if self.run.all_sms {
            r(
                "CTAs",
                format!(
                    "{} of grid {:?} on all {} SMs ({} resident per SM)",
                    self.ctas, self.run.grid, self.run.n_sm, self.run.ctas_per_sm
                ),
            );
        } else {
            r(
                "CTAs on SM",
                format!(
                    "{} of grid {:?} (SM {} of {}, {} resident)",
                    self.ctas, self.run.grid, self.run.sm_id, self.run.n_sm, self.run.ctas_per_sm
                ),
            );
        }
        r("cycles", self.cycles.to_string());
        r("warp instructions", self.warp_instructions.to_string());
        r("IPC", format!("{:.3}", self.ipc));
        let sc = &self.sched;
        // Per SM until its last CTA finished (summed over the SMs).
        let sm_cycles = if self.per_sm.is_empty() {
            self.cycles
        } else {
            self.per_sm.iter().map(|s| s.cycles).sum()
        };
        r(
            "cycles without issue",
            format!(
                "{} ({} of SM-cycles); a warp waiting on a latency or pipeline in {}, on the \
                 ld/st unit in {}",
                sc.idle_cycles,
                pct(ratio(sc.idle_cycles, sm_cycles)),
                sc.operand_wait_cycles,
                sc.ldst_stall_cycles
            ),
        );
        r("memory instructions", self.mem_instructions.to_string());
        let l = &self.l1;
        r("L1 accesses", l.accesses.to_string());
        r(
            "  hits",
            format!("{} ({})", l.hits, pct(ratio(l.hits, l.accesses))),
        );
        r("  misses", l.misses.to_string());
        r("  pending hits", l.pending_hits.to_string());
        r("  bypasses", l.bypasses.to_string());
        r("  pseudo-hits", l.pseudo_hits.to_string());
        r("  miss rate", pct(l.miss_rate));
        r(
            "  miss bursts",
            format!(
                "at most {} per {} cycles; variation {:.2} (std / mean per window)",
                l.burst_peak, BURST_WINDOW, l.burst_cv
            ),
        );
        if !l.counts.label.is_empty() {
            r(&format!("  {}", l.counts.label), l.counts.summary.clone());
        }
        r("reservation fails", l.reservation_fails.to_string());
        r(
            "store lines",
            format!("{} ({} write-evicts)", l.store_lines, l.write_evicts),
        );
        let m = &self.memory;
        r(
            "memory requests",
            format!(
                "{} reads ({} prefetch), {} writes",
                m.reads, m.prefetch_reads, m.writes
            ),
        );
        r("bandwidth utilisation", pct(m.bandwidth_utilisation));
        let lo = &m.lower;
        if lo.l2_reads + lo.l2_writes > 0 {
            r(
                "L2 reads",
                format!(
                    "{} ({} hits, {} merged; miss rate {}), {} writes, {} stall cycles",
                    lo.l2_reads,
                    lo.l2_read_hits,
                    lo.l2_read_merges,
                    pct(m.l2_miss_rate),
                    lo.l2_writes,
                    lo.l2_stall_cycles
                ),
            );
            let acc = lo.dram_row_hits + lo.dram_row_misses + lo.dram_row_conflicts;
            r(
                "DRAM accesses",
                format!(
                    "{} reads, {} writes; rows {} hit / {} closed / {} conflict ({} hits); mean \
                     queue {:.2}",
                    lo.dram_reads,
                    lo.dram_writes,
                    lo.dram_row_hits,
                    lo.dram_row_misses,
                    lo.dram_row_conflicts,
                    pct(ratio(lo.dram_row_hits, acc)),
                    ratio(lo.dram_queue_sum, self.cycles)
                ),
            );
        }
        if let Some(p) = &self.prefetch {
            r(
                "prefetches issued",
                format!(
                    "{} (dropped {} present, {} in flight)",
                    p.issued, p.dropped_present, p.dropped_in_flight
                ),
            );
            r("  useful / late", format!("{} / {}", p.useful, p.late));
            r(
                "  early-evicted / unused",
                format!("{} / {}", p.early_evicted, p.unused_at_end),
            );
            r(
                "  coverage, CAPS VI-C (prefetches / demand)",
                pct(p.caps_coverage),
            );
            r("  coverage, Snake VI (used / demand)", pct(p.coverage));
            r("  accuracy, CAPS VI-C (used / issued)", pct(p.accuracy));
            r(
                "  accuracy, Snake VI (timely / demand)",
                pct(p.timely_per_demand),
            );
            r("  avg distance", format!("{:.1} cycles", p.avg_distance));
            r("  eager wake-ups", p.eager_wakeups.to_string());
            if self.run.decoupled {
                r("  cache-full cycles", p.cache_full_cycles.to_string());
            }
            if !p.counts.label.is_empty() {
                r(&format!("  {}", p.counts.label), p.counts.summary.clone());
            }
        }
        if let Some(d) = &self.dac {
            if !d.decoupled {
                r("DAC", format!("not decoupled: {}", d.reason));
            } else {
                r(
                    "DAC affine instructions",
                    format!(
                        "{} ({} of all; {} batches)",
                        d.affine_instructions,
                        pct(ratio(d.affine_instructions, self.warp_instructions)),
                        d.batches
                    ),
                );
                r("  instructions removed", d.removed.to_string());
                r(
                    "  tuples data / addr / pred",
                    format!("{} / {} / {}", d.tuples_data, d.tuples_addr, d.tuples_pred),
                );
                r(
                    "  records / masks dequeued",
                    format!(
                        "{} / {} ({} empty-queue retries)",
                        d.records, d.masks, d.deq_misses
                    ),
                );
                r(
                    "  predicate fast / slow",
                    format!(
                        "{} / {} ({} fast)",
                        d.pred_fast,
                        d.pred_slow,
                        pct(d.fast_share)
                    ),
                );
                r(
                    "  early requests",
                    format!(
                        "{} ({} present, {} in flight, {} to memory; {} stall cycles; {} \
                         unlocked, their set full of locks; at most {} lines locked)",
                        d.early_requests,
                        d.early_present,
                        d.early_in_flight,
                        d.early_misses,
                        d.early_stall_cycles,
                        d.unlocked_requests,
                        d.max_locked_lines
                    ),
                );
                r(
                    "  decoupled load lines",
                    format!(
                        "{} present, {} in flight, {} absent at the demand access",
                        d.decoupled_hits, d.decoupled_pending, d.decoupled_misses
                    ),
                );
                if !d.counts.label.is_empty() {
                    r(&format!("  {}", d.counts.label), d.counts.summary.clone());
                }
            }
        }
        if let Some(u) = &self.reuse {
            for (k, v) in u.rows() {
                r(&k, v);
            }
        }
        if let Some(p) = &self.interwarp {
            r(
                "inter-warp probe (CAPS Fig. 1)",
                format!(
                    "{} load executions{}; per warp distance: accuracy inter-warp stride / CTA-aware, mean cycle gap",
                    p.records,
                    if p.truncated { " (truncated)" } else { "" }
                ),
            );
            for row in &p.rows {
                r(
                    &format!("  distance {}", row.distance),
                    format!(
                        "{:.1} / {:.1} %, {:.0} cycles ({} pairs, {} across CTAs)",
                        100.0 * row.inter_accuracy,
                        100.0 * row.cta_accuracy,
                        row.mean_gap,
                        row.pairs,
                        row.cross_cta
                    ),
                );
            }
        }
        if self.out_of_bounds > 0 {
            r("out-of-bounds lanes", self.out_of_bounds.to_string());
        }
        if !self.per_sm.is_empty() {
            let busy: Vec<&SmSummary> = self.per_sm.iter().filter(|s| s.ctas > 0).collect();
            let lo = busy.iter().map(|s| s.cycles).min().unwrap_or(0);
            r(
                "per SM",
                format!(
                    "{} SMs ran CTAs ({} to {} each), finishing between cycle {} and {}",
                    busy.len(),
                    busy.iter().map(|s| s.ctas).min().unwrap_or(0),
                    busy.iter().map(|s| s.ctas).max().unwrap_or(0),
                    lo,
                    self.cycles
                ),
            );
        }
        let w = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        let mut s = String::new();
        for (k, v) in rows {
            let _ = writeln!(s, "{k:<w$}  {v}");
        }
        // The reuse profile per load, as its own table.
        if let Some(u) = self.reuse.as_ref().filter(|u| !u.per_pc.is_empty()) {
            s.push('\n');
            s += &u.pc_table(MAX_PC_ROWS);
        }
        s
    }
}

/// Loads listed in the printed reuse table (the most accessed; all are in
/// the JSON).
const MAX_PC_ROWS: usize = 20;

#[cfg(test)]
mod burst_tests {
    use super::*;

    #[test]
    fn even_misses_have_no_variation_and_one_burst_has_much() {
        let mut even = BurstMeter::default();
        for t in (0..1000).step_by(10) {
            even.event(t);
        }
        assert_eq!(even.finish(1000), (10, 0.0));
        let mut burst = BurstMeter::default();
        for _ in 0..100 {
            burst.event(500);
        }
        let (peak, cv) = burst.finish(1000);
        assert_eq!(peak, 100);
        // One window of ten holds everything: std / mean = 3.
        assert!((cv - 3.0).abs() < 1e-9, "{cv}");
        assert_eq!(BurstMeter::default().finish(1000), (0, 0.0));
    }
}
