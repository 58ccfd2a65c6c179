//! The metrics of an all-SM run from each SM's: counts summed, rates
//! recomputed.

use super::{ratio, ArrayMetrics, DacMetrics, L1Metrics, Metrics, PrefetchMetrics, SmSummary};
use crate::counts::UnitCounts;
use crate::interwarp::InterWarpMetrics;
use crate::memsys::LowerStats;
use crate::registry::prefetch_figures;
use crate::reuse::ReuseMetrics;

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

/// `a += b` for the L1 of one of `n` SMs (the burst variation averaged).
fn add_l1(a: &mut L1Metrics, b: &L1Metrics, n: usize) {
    a.accesses += b.accesses;
    a.hits += b.hits;
    a.misses += b.misses;
    a.pending_hits += b.pending_hits;
    a.bypasses += b.bypasses;
    a.pseudo_hits += b.pseudo_hits;
    a.reservation_fails += b.reservation_fails;
    a.mshr_stalls += b.mshr_stalls;
    a.mshr_peak = a.mshr_peak.max(b.mshr_peak);
    a.mshr_mean += b.mshr_mean / n as f64;
    a.store_lines += b.store_lines;
    a.write_evicts += b.write_evicts;
    a.evictions += b.evictions;
    a.burst_peak = a.burst_peak.max(b.burst_peak);
    a.burst_cv += b.burst_cv / n as f64;
    add_counts(&mut a.counts, &b.counts);
}

/// `q += p` for the prefetch counts; returns `p`'s issue-to-use distance
/// weighted by its used prefetches.
fn add_prefetch(q: &mut PrefetchMetrics, p: &PrefetchMetrics) -> f64 {
    q.offered += p.offered;
    q.issued += p.issued;
    q.dropped_present += p.dropped_present;
    q.dropped_in_flight += p.dropped_in_flight;
    q.dropped_reserved += p.dropped_reserved;
    q.useful += p.useful;
    q.late += p.late;
    q.early_evicted += p.early_evicted;
    q.early_evicted_demanded += p.early_evicted_demanded;
    q.early_evicted_never += p.early_evicted_never;
    q.unused_at_end += p.unused_at_end;
    q.stall_cycles += p.stall_cycles;
    q.eager_wakeups += p.eager_wakeups;
    q.cache_full_cycles += p.cache_full_cycles;
    q.span_offers += p.span_offers;
    q.span_capped += p.span_capped;
    q.cap_lifted_by_prefetch += p.cap_lifted_by_prefetch;
    q.cap_lifted_by_time += p.cap_lifted_by_time;
    q.cap_lift_cycle = q.cap_lift_cycle.max(p.cap_lift_cycle);
    add_counts(&mut q.counts, &p.counts);
    p.avg_distance * (p.useful + p.late) as f64
}

/// `e += d` for DAC's counts.
fn add_dac(e: &mut DacMetrics, d: &DacMetrics) {
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

/// `u += p` for the inter-warp probe's scores.
fn add_interwarp(u: &mut InterWarpMetrics, p: &InterWarpMetrics) {
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

impl Metrics {
    /// The figures of an all-SM run from each SM's (`per`, by SM index):
    /// counts summed, rates recomputed, `cycles` the last SM's end, the
    /// memory's counters `lower` (shared, counted once).
    pub(crate) fn total(per: Vec<Metrics>, lower: LowerStats) -> Metrics {
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
            t.address_instructions += m.address_instructions;
            t.thread_instructions += m.thread_instructions;
            t.ctas += m.ctas;
            t.mem_instructions += m.mem_instructions;
            t.out_of_bounds += m.out_of_bounds;
            add_l1(&mut t.l1, &m.l1, per.len());
            t.texture.add(&m.texture);
            t.memory.reads += m.memory.reads;
            t.memory.prefetch_reads += m.memory.prefetch_reads;
            t.memory.writes += m.memory.writes;
            bw += m.memory.bandwidth_utilisation;
            if let Some(p) = &m.prefetch {
                let q = t.prefetch.get_or_insert_with(PrefetchMetrics::default);
                distance_weighted += add_prefetch(q, p);
            }
            if let Some(d) = &m.dac {
                add_dac(t.dac.get_or_insert_with(DacMetrics::default), d);
            }
            if let Some(r) = &m.reuse {
                t.reuse.get_or_insert_with(ReuseMetrics::default).add(r);
            }
            if let Some(p) = &m.interwarp {
                add_interwarp(t.interwarp.get_or_insert_with(Default::default), p);
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
        t.rates(bw / per.len() as f64, lower, distance_weighted);
        t
    }

    /// The rates of summed counts: IPC, miss rates, the mean bandwidth
    /// utilisation `bw`, the prefetches' (with `distance_weighted`, the
    /// issue-to-use distances weighted by the used prefetches) and every
    /// unit's paper figures over them, DAC's fast predicates.
    fn rates(&mut self, bw: f64, lower: LowerStats, distance_weighted: f64) {
        self.ipc = ratio(self.warp_instructions, self.cycles);
        self.l1.set_miss_rates();
        self.memory.bandwidth_utilisation = bw;
        self.memory.l2_miss_rate = if lower.l2_reads == 0 {
            0.0
        } else {
            1.0 - ratio(lower.l2_read_hits, lower.l2_reads)
        };
        self.memory.lower = lower;
        let accesses = self.l1.accesses;
        if let Some(p) = self.prefetch.as_mut() {
            let used = p.useful + p.late;
            p.coverage = ratio(used, accesses);
            p.accuracy = ratio(used, p.issued);
            p.timely_per_demand = ratio(p.useful, accesses);
            p.issued_per_demand = ratio(p.issued, accesses);
            for f in prefetch_figures() {
                (f.compute)(p, accesses);
            }
            p.avg_distance = if used == 0 {
                0.0
            } else {
                distance_weighted / used as f64
            };
        }
        if let Some(d) = self.dac.as_mut() {
            d.fast_share = ratio(d.pred_fast, d.pred_fast + d.pred_slow);
        }
    }
}
