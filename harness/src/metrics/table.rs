//! The run's metrics as a printable table (two columns: metric, value),
//! section by section.

use std::fmt::Write as _;

use super::{ratio, DacMetrics, Metrics, PrefetchMetrics, SmSummary, BURST_WINDOW};
use crate::registry::prefetch_figures;

/// Loads listed in the printed reuse table (the most accessed; all are in
/// the JSON).
const MAX_PC_ROWS: usize = 20;

/// The table's rows, in order.
#[derive(Default)]
struct Rows(Vec<(String, String)>);

impl Rows {
    /// One row.
    fn r(&mut self, k: &str, v: String) {
        self.0.push((k.to_string(), v));
    }
}

/// A fraction as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

impl Metrics {
    /// A printable table (two columns: metric, value).
    pub fn table(&self) -> String {
        let mut t = Rows::default();
        self.run_rows(&mut t);
        self.issue_rows(&mut t);
        self.l1_rows(&mut t);
        self.texture_rows(&mut t);
        self.memory_rows(&mut t);
        if let Some(p) = &self.prefetch {
            self.prefetch_rows(&mut t, p);
        }
        if let Some(d) = &self.dac {
            self.dac_rows(&mut t, d);
        }
        self.analysis_rows(&mut t);
        let rows = t.0;
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

    /// The kernel, the machine and the CTAs.
    fn run_rows(&self, t: &mut Rows) {
        t.r("kernel", format!("{} ({})", self.run.kernel, self.run.file));
        t.r(
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
            t.r(
                "CTAs",
                format!(
                    "{} of grid {:?} on all {} SMs ({} resident per SM)",
                    self.ctas, self.run.grid, self.run.n_sm, self.run.ctas_per_sm
                ),
            );
        } else {
            t.r(
                "CTAs on SM",
                format!(
                    "{} of grid {:?} (SM {} of {}, {} resident)",
                    self.ctas, self.run.grid, self.run.sm_id, self.run.n_sm, self.run.ctas_per_sm
                ),
            );
        }
    }

    /// Cycles, instructions and the cycles without issue.
    fn issue_rows(&self, t: &mut Rows) {
        t.r("cycles", self.cycles.to_string());
        t.r("warp instructions", self.warp_instructions.to_string());
        if self.address_instructions > 0 {
            t.r(
                "  address arithmetic",
                format!(
                    "{} ({} of warp instructions)",
                    self.address_instructions,
                    pct(ratio(self.address_instructions, self.warp_instructions))
                ),
            );
        }
        t.r("IPC", format!("{:.3}", self.ipc));
        let sc = &self.sched;
        // Per SM until its last CTA finished (summed over the SMs).
        let sm_cycles = if self.per_sm.is_empty() {
            self.cycles
        } else {
            self.per_sm.iter().map(|s| s.cycles).sum()
        };
        t.r(
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
    }

    /// The memory instructions and the L1.
    fn l1_rows(&self, t: &mut Rows) {
        t.r("memory instructions", self.mem_instructions.to_string());
        let l = &self.l1;
        t.r("L1 accesses", l.accesses.to_string());
        t.r(
            "  hits",
            format!("{} ({})", l.hits, pct(ratio(l.hits, l.accesses))),
        );
        t.r("  misses", l.misses.to_string());
        t.r("  pending hits", l.pending_hits.to_string());
        t.r("  bypasses", l.bypasses.to_string());
        t.r("  pseudo-hits", l.pseudo_hits.to_string());
        t.r("  miss rate, bypasses as misses", pct(l.miss_rate));
        t.r(
            "  miss rate, bypasses left out (GPGPU-Sim)",
            pct(l.miss_rate_no_bypass),
        );
        t.r(
            "  miss bursts",
            format!(
                "at most {} per {} cycles; variation {:.2} (std / mean per window)",
                l.burst_peak, BURST_WINDOW, l.burst_cv
            ),
        );
        if !l.counts.label.is_empty() {
            t.r(&format!("  {}", l.counts.label), l.counts.summary.clone());
        }
        t.r("reservation fails", l.reservation_fails.to_string());
        t.r(
            "MSHRs",
            format!(
                "at most {} in use, {:.2} on average; {} stall cycles (no MSHR, merge slot or \
                 queue room)",
                l.mshr_peak, l.mshr_mean, l.mshr_stalls
            ),
        );
        t.r(
            "store lines",
            format!("{} ({} write-evicts)", l.store_lines, l.write_evicts),
        );
    }

    /// The texture cache (only when a load used it).
    fn texture_rows(&self, t: &mut Rows) {
        let x = &self.texture;
        if x.accesses == 0 {
            return;
        }
        t.r("texture accesses", x.accesses.to_string());
        t.r(
            "  hits",
            format!("{} ({})", x.hits, pct(ratio(x.hits, x.accesses))),
        );
        t.r("  misses", x.misses.to_string());
        t.r("  pending hits", x.pending_hits.to_string());
        t.r("  miss rate", pct(x.miss_rate));
        t.r("  stall cycles", x.stalls.to_string());
    }

    /// The memory below the L1.
    fn memory_rows(&self, t: &mut Rows) {
        let m = &self.memory;
        t.r(
            "memory requests",
            format!(
                "{} reads ({} prefetch), {} writes",
                m.reads, m.prefetch_reads, m.writes
            ),
        );
        t.r("bandwidth utilisation", pct(m.bandwidth_utilisation));
        let lo = &m.lower;
        if lo.l2_reads + lo.l2_writes > 0 {
            t.r(
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
            t.r(
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
    }

    /// The prefetches, with every unit's paper figures over them.
    fn prefetch_rows(&self, t: &mut Rows, p: &PrefetchMetrics) {
        t.r(
            "prefetches issued",
            format!(
                "{} (dropped {} present, {} in flight, {} set reserved)",
                p.issued, p.dropped_present, p.dropped_in_flight, p.dropped_reserved
            ),
        );
        t.r("  useful / late", format!("{} / {}", p.useful, p.late));
        t.r(
            "  early-evicted / unused",
            format!(
                "{} ({} demanded later: timing; {} never demanded: address) / {}",
                p.early_evicted, p.early_evicted_demanded, p.early_evicted_never, p.unused_at_end
            ),
        );
        for f in prefetch_figures() {
            t.r(&format!("  {}", f.label), pct((f.value)(p)));
        }
        t.r("  coverage, Snake VI (used / demand)", pct(p.coverage));
        t.r("  accuracy, CAPS VI-C (used / issued)", pct(p.accuracy));
        t.r(
            "  accuracy, Snake VI (timely / demand)",
            pct(p.timely_per_demand),
        );
        t.r("  avg distance", format!("{:.1} cycles", p.avg_distance));
        t.r("  eager wake-ups", p.eager_wakeups.to_string());
        if p.span_offers + p.span_capped > 0 {
            t.r(
                "  footprints",
                format!(
                    "{} offers of several lines, {} over snake_span_lines (first line only)",
                    p.span_offers, p.span_capped
                ),
            );
        }
        if self.run.decoupled {
            t.r("  cache-full cycles", p.cache_full_cycles.to_string());
            let by = match (p.cap_lifted_by_prefetch, p.cap_lifted_by_time) {
                (0, 0) => "never".to_string(),
                (a, 0) if a > 0 => format!("by the first prefetch, cycle {}", p.cap_lift_cycle),
                (0, b) if b > 0 => format!("by decoupled_cap_cycles, cycle {}", p.cap_lift_cycle),
                (a, b) => format!("{a} SMs by the first prefetch, {b} by time"),
            };
            t.r("  L1 cap lifted", by);
        }
        if !p.counts.label.is_empty() {
            t.r(&format!("  {}", p.counts.label), p.counts.summary.clone());
        }
    }

    /// DAC's decoupling and affine warp.
    fn dac_rows(&self, t: &mut Rows, d: &DacMetrics) {
        if !d.decoupled {
            t.r("DAC", format!("not decoupled: {}", d.reason));
        } else {
            t.r(
                "DAC affine instructions",
                format!(
                    "{} ({} of all; {} batches)",
                    d.affine_instructions,
                    pct(ratio(d.affine_instructions, self.warp_instructions)),
                    d.batches
                ),
            );
            t.r("  instructions removed", d.removed.to_string());
            t.r(
                "  tuples data / addr / pred",
                format!("{} / {} / {}", d.tuples_data, d.tuples_addr, d.tuples_pred),
            );
            t.r(
                "  records / masks dequeued",
                format!(
                    "{} / {} ({} empty-queue retries)",
                    d.records, d.masks, d.deq_misses
                ),
            );
            t.r(
                "  predicate fast / slow",
                format!(
                    "{} / {} ({} fast)",
                    d.pred_fast,
                    d.pred_slow,
                    pct(d.fast_share)
                ),
            );
            t.r(
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
            t.r(
                "  decoupled load lines",
                format!(
                    "{} present, {} in flight, {} absent at the demand access",
                    d.decoupled_hits, d.decoupled_pending, d.decoupled_misses
                ),
            );
            if !d.counts.label.is_empty() {
                t.r(&format!("  {}", d.counts.label), d.counts.summary.clone());
            }
        }
    }

    /// The reuse profile, the inter-warp probe, out-of-bounds lanes and the
    /// SMs.
    fn analysis_rows(&self, t: &mut Rows) {
        if let Some(u) = &self.reuse {
            for (k, v) in u.rows() {
                t.r(&k, v);
            }
        }
        if let Some(p) = &self.interwarp {
            t.r(
                "inter-warp probe (CAPS Fig. 1)",
                format!(
                    "{} load executions{}; per warp distance: accuracy inter-warp stride / CTA-aware, mean cycle gap",
                    p.records,
                    if p.truncated { " (truncated)" } else { "" }
                ),
            );
            for row in &p.rows {
                t.r(
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
            t.r("out-of-bounds lanes", self.out_of_bounds.to_string());
        }
        if !self.per_sm.is_empty() {
            let busy: Vec<&SmSummary> = self.per_sm.iter().filter(|s| s.ctas > 0).collect();
            let lo = busy.iter().map(|s| s.cycles).min().unwrap_or(0);
            t.r(
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
    }
}
