//! Metrics of a harness run (`sm_harness.md`, "Metrics"), their table and
//! the reuse-distance classifier.
//!
//! # Definitions used by every printed figure
//! - **L1 accesses** are demand *load* line requests that reached the L1
//!   (one per coalesced line; a line retried is counted once, when
//!   served: its retries are counted in `reservation_fails`, every way of
//!   its set reserved by a line in flight, or `mshr_stalls`, no MSHR,
//!   merge slot or miss-queue room). They split into `hits`, `misses`
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
//!
//! This file holds what a run measures; `total.rs` sums the SMs' metrics
//! and `table.rs` prints them.

use serde::Serialize;

pub use crate::counts::UnitCounts;
pub use crate::reuse::{ReuseMetrics, ReusePc, ReuseTimeline};

mod table;
mod total;

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

/// Texture cache outcomes (`texture` loads' lines; `sm/texture.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TextureMetrics {
    /// Line requests of texture loads.
    pub accesses: u64,
    /// Of which found in the cache.
    pub hits: u64,
    /// Of which sent to the memory below (a texture MSHR taken).
    pub misses: u64,
    /// Of which merged into a texture MSHR already in flight.
    pub pending_hits: u64,
    /// `1 - hits / accesses` (pending hits count as misses).
    pub miss_rate: f64,
    /// Cycles a line waited for a texture MSHR, a merge slot or miss-queue
    /// room (retried).
    pub stalls: u64,
}

impl TextureMetrics {
    /// `self += b` (the rate recomputed).
    pub(crate) fn add(&mut self, b: &TextureMetrics) {
        self.accesses += b.accesses;
        self.hits += b.hits;
        self.misses += b.misses;
        self.pending_hits += b.pending_hits;
        self.stalls += b.stalls;
        self.rate();
    }

    /// The miss rate of the counts.
    pub(crate) fn rate(&mut self) {
        self.miss_rate = if self.accesses == 0 {
            0.0
        } else {
            1.0 - ratio(self.hits, self.accesses)
        };
    }
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
    /// Reservation fails (`sm_harness.md`, revision 3): cycles a demand
    /// load line was refused because every way of its set was reserved
    /// (in flight) or pinned; retried next cycle.
    pub reservation_fails: u64,
    /// Cycles a demand line (load or store) was refused for lack of an
    /// MSHR, a merge slot or room in the memory's request queue; retried.
    /// (Before revision 3 these were counted as `reservation_fails`.)
    pub mshr_stalls: u64,
    /// The most MSHRs in use at once (bypassed reads hold none).
    pub mshr_peak: u64,
    /// MSHRs in use, averaged over the run's cycles.
    pub mshr_mean: f64,
    /// Store line requests.
    pub store_lines: u64,
    /// Stores that invalidated a line.
    pub write_evicts: u64,
    /// Lines holding data displaced by a fill decision (not by stores).
    pub evictions: u64,
    /// `1 - hits / accesses`: bypasses (and pseudo-hits) counted as
    /// misses.
    pub miss_rate: f64,
    /// `1 - hits / (accesses - bypasses)`: requests that skipped the L1
    /// left out, as GPGPU-Sim's statistics (and the BA thesis's Figure 19)
    /// count them.
    pub miss_rate_no_bypass: f64,
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

impl L1Metrics {
    /// Both miss rates from the counts: bypasses counted as misses
    /// ([`L1Metrics::miss_rate`]) and left out
    /// ([`L1Metrics::miss_rate_no_bypass`]); 0 without accesses.
    pub fn set_miss_rates(&mut self) {
        let rate = |hits: u64, n: u64| {
            if n == 0 {
                0.0
            } else {
                1.0 - hits as f64 / n as f64
            }
        };
        self.miss_rate = rate(self.hits, self.accesses);
        self.miss_rate_no_bypass = rate(self.hits, self.accesses - self.bypasses);
    }
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
    pub lower: crate::memsys::LowerStats,
    /// `1 - L2 read hits / L2 reads` (hierarchy).
    pub l2_miss_rate: f64,
}

/// Prefetcher outcomes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PrefetchMetrics {
    /// Prefetch requests offered by the prefetcher and taken by the L1
    /// (one per line of an offer's footprint).
    pub offered: u64,
    /// Sent to memory.
    pub issued: u64,
    /// Dropped: the line was present.
    pub dropped_present: u64,
    /// Dropped: the line was in flight.
    pub dropped_in_flight: u64,
    /// Dropped: every way of the line's set was reserved (in flight) or
    /// pinned (a prefetch's reservation fail).
    pub dropped_reserved: u64,
    /// A demand found the line present.
    pub useful: u64,
    /// A demand found the line in flight.
    pub late: u64,
    /// Evicted (or not installed) before use.
    pub early_evicted: u64,
    /// ... of which a demand asked for the line later (after its eviction):
    /// a timing loss.
    pub early_evicted_demanded: u64,
    /// ... of which no demand asked for the line by the end of the run: a
    /// wrong address (`early_evicted - early_evicted_demanded`).
    pub early_evicted_never: u64,
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
    /// Offers whose footprint (Snake's `pf_span`) covered more than one
    /// line, each line counted above as a prefetch request of its own.
    pub span_offers: u64,
    /// Offers whose footprint was wider than `snake_span_lines` lines:
    /// only their first line was prefetched.
    pub span_capped: u64,
    /// The decoupled L1's cap until trained was lifted by the
    /// prefetcher's first offered prefetch (SMs, 0 or 1 each).
    pub cap_lifted_by_prefetch: u64,
    /// ... by `decoupled_cap_cycles` passing since the SM's first load.
    pub cap_lifted_by_time: u64,
    /// The cycle the cap was lifted (the latest over the SMs; 0: never).
    pub cap_lift_cycle: u64,
    /// The prefetcher's own event counters. In JSON they appear as one
    /// more field of this object, named by the prefetcher's key
    /// (`"caps": {"loads": ..., ...}`).
    #[serde(flatten)]
    pub counts: UnitCounts,
}

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
    /// Of which address arithmetic (the ALU instructions a kernel file's
    /// address expressions cost, `address_arithmetic`).
    pub address_instructions: u64,
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
    /// The texture cache (loads marked `texture`; none of them is in `l1`).
    pub texture: TextureMetrics,
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
    pub interwarp: Option<crate::interwarp::InterWarpMetrics>,
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

/// `a / b`, 0 when `b` is 0.
pub(crate) fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

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
