//! The inter-warp stride probe: the measurement behind the CAPS paper's
//! Figure 1 ("Accuracy with stride-based inter-warp prefetch and cycle gaps
//! by distances of warps", on matrixMul). Machine key `interwarp_probe = D`
//! records every warp-level load of the SM and, when the run ends, scores
//! two address predictions for each pair of executions of one load by a
//! *baseline* warp and the warp `d` warp ids after it, for `d` in `1..=D`:
//!
//! - **inter-warp stride** (the paper's §III-B, "issues prefetches for
//!   future warps from a current warp using the base address and warp-id
//!   differences", "regardless what CTA each warp belongs to"): the stride
//!   is the difference of the load's address between the baseline warp and
//!   the warp id just before it; the target's addresses are predicted as
//!   the baseline's plus `d` strides;
//! - **CTA-aware** (CAPS's rule, §IV-V): the target's addresses are its own
//!   CTA's leading warp's plus the stride per warp (learnt once per load,
//!   from the first two warps of the first CTA that executes it) times the
//!   warp-index difference inside the CTA. The leading warp itself is not
//!   predicted (CAPS learns from it).
//!
//! Accuracy is "the fraction of demand fetches that were correctly
//! targeted" (§III): of the lines predicted for the target, the share the
//! target then touches. The *cycle gap* is the paper's line plot, "the
//! difference of clock cycles between load execution by the baseline warp
//! and the target warp".
//!
//! Pairs are executions of the same load PC for the same dynamic instance
//! (the n-th execution of that PC by each warp, which separates loop
//! iterations): the baseline is an execution by warp id `w` of the SM, the
//! stride source the latest execution by warp `w - 1` not after it, the
//! target the first execution by warp `w + d` not before it (the warp that
//! a prefetch issued then would serve). Records are bounded by
//! [`MAX_RECORDS`] (a run past it scores the loads before it, and says so).

use std::collections::HashMap;

use serde::Serialize;

use super::roles::LoadInfo;

/// Most load executions recorded per SM.
pub const MAX_RECORDS: usize = 4_000_000;

/// One warp-level load execution.
#[derive(Clone, Debug)]
struct Exec {
    t: u64,
    pc: u64,
    warp: u32,
    cta: u64,
    widx: u32,
    inst: u32,
    first: u64,
    /// Lowest byte address per line touched (the prediction's base).
    firsts: Vec<u64>,
    /// The lines touched.
    lines: Vec<u64>,
}

/// The probe of one SM.
#[derive(Clone, Debug)]
pub struct InterWarpProbe {
    max_d: u32,
    line_shift: u32,
    /// CTA id per CTA slot.
    slot_cta: Vec<u64>,
    /// Executions so far per (pc, cta, warp index).
    counts: HashMap<(u64, u64, u32), u32>,
    execs: Vec<Exec>,
    truncated: bool,
}

/// One warp distance's scores (counts, so SMs add up).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct InterWarpRow {
    /// Warp-id distance from the baseline warp to the target.
    pub distance: u32,
    /// Pairs scored.
    pub pairs: u64,
    /// Lines the inter-warp stride predicted.
    pub inter_predicted: u64,
    /// Of those, lines the target touched.
    pub inter_correct: u64,
    /// Pairs whose baseline and target warps are in different CTAs.
    pub cross_cta: u64,
    /// Lines the CTA-aware rule predicted for the same targets.
    pub cta_predicted: u64,
    /// Of those, lines the target touched.
    pub cta_correct: u64,
    /// Sum over pairs of (target cycle − baseline cycle).
    pub gap_sum: u64,
    /// `inter_correct / inter_predicted`.
    pub inter_accuracy: f64,
    /// `cta_correct / cta_predicted`.
    pub cta_accuracy: f64,
    /// `gap_sum / pairs`: the mean cycle gap.
    pub mean_gap: f64,
}

impl InterWarpRow {
    /// Recompute the ratios from the counts.
    pub fn finish(&mut self) {
        let r = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        self.inter_accuracy = r(self.inter_correct, self.inter_predicted);
        self.cta_accuracy = r(self.cta_correct, self.cta_predicted);
        self.mean_gap = r(self.gap_sum, self.pairs);
    }

    /// Add another SM's counts (ratios are recomputed by [`Self::finish`]).
    pub fn add(&mut self, o: &InterWarpRow) {
        self.pairs += o.pairs;
        self.inter_predicted += o.inter_predicted;
        self.inter_correct += o.inter_correct;
        self.cross_cta += o.cross_cta;
        self.cta_predicted += o.cta_predicted;
        self.cta_correct += o.cta_correct;
        self.gap_sum += o.gap_sum;
    }
}

/// The probe's result: one row per distance.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct InterWarpMetrics {
    /// Distances `1..=D`.
    pub rows: Vec<InterWarpRow>,
    /// Load executions recorded.
    pub records: u64,
    /// The run had more than [`MAX_RECORDS`] load executions on an SM; the
    /// later ones were not scored.
    pub truncated: bool,
}

impl InterWarpProbe {
    /// A probe scoring distances `1..=max_distance` for lines of
    /// `line_bytes`, on an SM of `cta_slots` CTA slots.
    pub fn new(max_distance: u32, line_bytes: u32, cta_slots: usize) -> Self {
        InterWarpProbe {
            max_d: max_distance,
            line_shift: line_bytes.trailing_zeros(),
            slot_cta: vec![u64::MAX; cta_slots],
            counts: HashMap::new(),
            execs: Vec::new(),
            truncated: false,
        }
    }

    /// CTA `cta` starts in slot `slot`.
    pub fn launch(&mut self, slot: usize, cta: u64) {
        if let Some(s) = self.slot_cta.get_mut(slot) {
            *s = cta;
        }
    }

    /// A load executes in cycle `t` (its warp's SM slot, CTA slot, index
    /// in the CTA, lowest active address and per line its lowest byte
    /// address).
    pub fn load(&mut self, t: u64, ld: &LoadInfo<'_>) {
        if self.execs.len() >= MAX_RECORDS {
            self.truncated = true;
            return;
        }
        let (pc, warp, widx, first, firsts) =
            (ld.pc, ld.sm_warp, ld.warp, ld.first_addr, ld.firsts);
        let cta = self
            .slot_cta
            .get(ld.cta_slot as usize)
            .copied()
            .unwrap_or(u64::MAX);
        let n = self.counts.entry((pc, cta, widx)).or_insert(0);
        let inst = *n;
        *n += 1;
        let lines = firsts.iter().map(|&a| a >> self.line_shift).collect();
        self.execs.push(Exec {
            t,
            pc,
            warp,
            cta,
            widx,
            inst,
            first,
            firsts: firsts.to_vec(),
            lines,
        });
    }

    /// Score every pair (see the module's documentation).
    pub fn finish(self) -> InterWarpMetrics {
        let mut rows: Vec<InterWarpRow> = (1..=self.max_d)
            .map(|d| InterWarpRow {
                distance: d,
                ..Default::default()
            })
            .collect();
        // (pc, instance, warp) -> executions in time order.
        let mut by: HashMap<(u64, u32, u32), Vec<usize>> = HashMap::new();
        for (i, e) in self.execs.iter().enumerate() {
            by.entry((e.pc, e.inst, e.warp)).or_default().push(i);
        }
        // CTA-aware: per (pc, instance, cta) its leading execution; per pc
        // the stride of its first two warps in the first CTA.
        let mut lead: HashMap<(u64, u32, u64), usize> = HashMap::new();
        let mut first_cta: HashMap<u64, (u64, u32)> = HashMap::new();
        let mut stride: HashMap<u64, Option<i64>> = HashMap::new();
        for (i, e) in self.execs.iter().enumerate() {
            lead.entry((e.pc, e.inst, e.cta)).or_insert(i);
            let (c0, inst0) = *first_cta.entry(e.pc).or_insert((e.cta, e.inst));
            if e.cta == c0 && e.inst == inst0 && !stride.contains_key(&e.pc) {
                let l = &self.execs[lead[&(e.pc, e.inst, e.cta)]];
                if l.widx != e.widx {
                    let s = diff(e.first, l.first) / (e.widx as i64 - l.widx as i64);
                    stride.insert(e.pc, Some(s));
                }
            }
        }
        let shift = self.line_shift;
        let predict = |base: &[u64], s: i64| -> Vec<u64> {
            let mut v: Vec<u64> = base
                .iter()
                .map(|&a| (a as i64).wrapping_add(s) as u64 >> shift)
                .collect();
            v.dedup();
            v
        };
        let score = |pred: &[u64], target: &Exec| -> (u64, u64) {
            let ok = pred.iter().filter(|l| target.lines.contains(l)).count();
            (pred.len() as u64, ok as u64)
        };
        for b in &self.execs {
            if b.warp == 0 {
                continue;
            }
            let Some(prev) = latest_not_after(&by, &self.execs, (b.pc, b.inst, b.warp - 1), b.t)
            else {
                continue;
            };
            let s = diff(b.first, self.execs[prev].first);
            for row in rows.iter_mut() {
                let d = row.distance;
                let Some(ti) = first_not_before(&by, &self.execs, (b.pc, b.inst, b.warp + d), b.t)
                else {
                    continue;
                };
                let tg = &self.execs[ti];
                row.pairs += 1;
                row.gap_sum += tg.t - b.t;
                if tg.cta != b.cta {
                    row.cross_cta += 1;
                }
                let (p, ok) = score(&predict(&b.firsts, s.wrapping_mul(d as i64)), tg);
                row.inter_predicted += p;
                row.inter_correct += ok;
                let li = lead[&(tg.pc, tg.inst, tg.cta)];
                let l = &self.execs[li];
                if li != ti {
                    if let Some(Some(sd)) = stride.get(&tg.pc) {
                        let k = tg.widx as i64 - l.widx as i64;
                        let (p, ok) = score(&predict(&l.firsts, sd.wrapping_mul(k)), tg);
                        row.cta_predicted += p;
                        row.cta_correct += ok;
                    }
                }
            }
        }
        for r in &mut rows {
            r.finish();
        }
        InterWarpMetrics {
            rows,
            records: self.execs.len() as u64,
            truncated: self.truncated,
        }
    }
}

/// `a - b` as a signed 32-bit address difference (addresses are modulo
/// 2^32 in the harness).
fn diff(a: u64, b: u64) -> i64 {
    (a.wrapping_sub(b) & 0xFFFF_FFFF) as u32 as i32 as i64
}

fn latest_not_after(
    by: &HashMap<(u64, u32, u32), Vec<usize>>,
    execs: &[Exec],
    key: (u64, u32, u32),
    t: u64,
) -> Option<usize> {
    let v = by.get(&key)?;
    let n = v.partition_point(|&i| execs[i].t <= t);
    n.checked_sub(1).map(|k| v[k])
}

fn first_not_before(
    by: &HashMap<(u64, u32, u32), Vec<usize>>,
    execs: &[Exec],
    key: (u64, u32, u32),
    t: u64,
) -> Option<usize> {
    let v = by.get(&key)?;
    let n = v.partition_point(|&i| execs[i].t < t);
    v.get(n).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A load of one line per execution at `a`.
    fn ld(p: &mut InterWarpProbe, t: u64, warp: u32, slot: u32, widx: u32, a: u64) {
        let firsts = [a];
        let lines = [a & !127];
        p.load(
            t,
            &LoadInfo {
                pc: 0x40,
                cta_slot: slot,
                warp: widx,
                sm_warp: warp,
                lines: &lines,
                firsts: &firsts,
                first_addr: a,
                uniform: true,
                span: 0,
                cta_end: (slot + 1) * 4,
                indirect: false,
            },
        );
    }

    /// Two CTAs of 4 warps in slots 0 and 1 (warp ids 0-3 and 4-7), one load
    /// at stride 128 B per warp, CTA bases 4096 apart: the inter-warp stride
    /// is exact inside a CTA and wrong across, the CTA-aware rule always
    /// exact.
    #[test]
    fn cta_boundary_breaks_the_inter_warp_stride_only() {
        let mut p = InterWarpProbe::new(4, 128, 2);
        p.launch(0, 0);
        p.launch(1, 5);
        let mut t = 0;
        for (slot, base) in [(0usize, 0u64), (1, 4096)] {
            for w in 0..4u32 {
                let a = base + 128 * w as u64;
                t += 10;
                ld(&mut p, t, slot as u32 * 4 + w, slot as u32, w, a);
            }
        }
        let m = p.finish();
        assert_eq!(m.records, 8);
        // d = 1: baselines 1..6 (warp 0 has no predecessor); targets 2..7.
        let r1 = &m.rows[0];
        assert_eq!(r1.pairs, 6);
        // Baseline 3 -> target 4 crosses; baseline 4 (stride from warp 3,
        // across the boundary) -> target 5 mispredicts too.
        assert_eq!(r1.cross_cta, 1);
        assert_eq!((r1.inter_predicted, r1.inter_correct), (6, 4));
        // CTA-aware: targets 2, 3, 5, 6, 7 (4 is a leading warp).
        assert_eq!((r1.cta_predicted, r1.cta_correct), (5, 5));
        assert_eq!(r1.mean_gap, 10.0);
        // d = 4: baselines 1..3 -> targets 5..7, all across.
        let r4 = &m.rows[3];
        assert_eq!(r4.pairs, 3);
        assert_eq!(r4.cross_cta, 3);
        assert_eq!(r4.inter_correct, 0);
        assert_eq!(r4.cta_correct, r4.cta_predicted);
        assert_eq!(r4.mean_gap, 40.0);
    }

    #[test]
    fn instances_pair_loop_iterations_not_neighbours_in_time() {
        // One CTA of 2 warps, two iterations each, 64 KB per iteration.
        let mut p = InterWarpProbe::new(1, 128, 1);
        p.launch(0, 0);
        ld(&mut p, 1, 0, 0, 0, 0);
        ld(&mut p, 2, 0, 0, 0, 65536);
        ld(&mut p, 3, 1, 0, 1, 256);
        ld(&mut p, 4, 1, 0, 1, 65536 + 256);
        let m = p.finish();
        // Warp 1 is a baseline (its predecessor is warp 0) with no target.
        assert_eq!(m.rows[0].pairs, 0);
        let mut p = InterWarpProbe::new(1, 128, 1);
        p.launch(0, 0);
        for (t, w, a) in [(1, 0, 0u64), (2, 1, 256), (3, 2, 512)] {
            ld(&mut p, t, w, 0, w, a);
        }
        let m = p.finish();
        assert_eq!(m.rows[0].pairs, 1);
        assert_eq!(m.rows[0].inter_correct, 1);
    }
}
