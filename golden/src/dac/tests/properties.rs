//! Properties over random tuples, CTA shapes and stimulus.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bench::*;
use crate::dac::*;

// ----- properties -----

/// A lane value computed directly with exact integers: the tuple evaluated
/// at `(tx, ty, cx, cy)` with the offsets read as signed, reduced modulo
/// 2^32.
fn direct_value(t: &Tuple, k: u32, thread: u32, cx: u32, cy: u32) -> u32 {
    let bdx = 1i128 << k;
    let (tx, ty) = (thread as i128 % bdx, thread as i128 / bdx);
    let s = |x: u32| x as i32 as i128;
    let v = s(t.base)
        + tx * s(t.off_tx)
        + ty * s(t.off_ty)
        + cx as i128 * s(t.off_cx)
        + cy as i128 * s(t.off_cy);
    v.rem_euclid(1i128 << 32) as u32
}

/// The spec's predicate of one value.
fn direct_pred(t: &Tuple, v: u32) -> bool {
    let (a, b) = (v as i32, t.scalar as i32);
    [a < b, a <= b, a > b, a >= b, a == b, a != b][t.cmp as usize]
}

/// The spec's fast-path condition, evaluated with exact integers.
fn direct_fast(t: &Tuple, k: u32, values: &[u32]) -> bool {
    let n = values.len() as i128;
    if t.off_tx == 0 && t.off_ty == 0 {
        return true;
    }
    let bdx = 1u64 << k;
    let arithmetic = bdx >= 32 || t.off_ty as u64 == (bdx * t.off_tx as u64) % (1 << 32);
    let end = values[0] as i32 as i128 + (n - 1) * (t.off_tx as i32 as i128);
    arithmetic
        && t.cmp <= cmp::GE
        && (i32::MIN as i128..=i32::MAX as i128).contains(&end)
        && direct_pred(t, values[0]) == direct_pred(t, values[values.len() - 1])
}

/// Check that `records`, concatenated, reproduce exactly the regions and
/// chunks of the enabled lanes `lanes` (`(lane, value)` in ascending lane
/// order; one record per maximal run of consecutive lanes in one region),
/// and nothing else.
fn check_records(records: &[Record], lanes: &[(u32, u32)], g: u64) -> Result<(), TestCaseError> {
    if lanes.is_empty() {
        prop_assert!(records.is_empty());
        return Ok(());
    }
    let size = 1u64 << g;
    let region = 32 * size;
    let mut masks = vec![];
    let mut addrs = vec![];
    let mut prev: Option<u32> = None;
    for &(l, v) in lanes {
        let v = v as u64;
        let start = v - v % region;
        if prev != l.checked_sub(1) || addrs.last() != Some(&start) {
            masks.push(0);
            addrs.push(start);
        }
        prev = Some(l);
        *masks.last_mut().unwrap() |= 1 << ((v % region) / size);
    }
    prop_assert_eq!(records.len(), addrs.len(), "records {:x?}", records);
    for (i, r) in records.iter().enumerate() {
        prop_assert_eq!(r.addr as u64, addrs[i]);
        prop_assert_eq!(r.mask, masks[i]);
        prop_assert_eq!(r.gran, g);
        prop_assert_eq!(r.last, i + 1 == records.len());
    }
    Ok(())
}

/// A CTA shape `(k, T)`: 1-D blocks, 2-D blocks, or any `k` with any `T`.
fn shape() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        (1u32..=1024).prop_map(|t| (t.next_power_of_two().trailing_zeros(), t)),
        (0u32..=10)
            .prop_flat_map(|k| (Just(k), 1u32..=(1024 >> k)))
            .prop_map(|(k, bdy)| (k, bdy << k)),
        (0u32..=15, 1u32..=1024),
    ]
}

/// A 32-bit offset: zero, small multiples of access sizes, or anything.
fn offset() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        (
            -40i32..=40,
            prop::sample::select(vec![1i32, 2, 4, 8, 12, 128, 4096])
        )
            .prop_map(|(a, b)| a.wrapping_mul(b) as u32),
        any::<u32>(),
    ]
}

/// A base: anywhere, or near the ends of the signed and unsigned ranges.
fn base() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (-2048i64..2048).prop_map(|d| (0x8000_0000i64 + d) as u32),
        (-2048i64..2048).prop_map(|d| d as u32),
        (0u32..0x1_0000),
    ]
}

fn tuple() -> impl Strategy<Value = Tuple> {
    (
        0u64..3,
        base(),
        (offset(), offset(), offset(), offset()),
        0u64..3,
        0u64..6,
        prop_oneof![any::<u32>(), (-64i32..64).prop_map(|x| x as u32)],
        any::<bool>(),
        prop::bool::weighted(0.4),
    )
        .prop_map(
            |(kind, base, (tx, ty, cx, cy), gran, cmp, scalar, rel, guard)| {
                Tuple {
                    kind,
                    base,
                    off_tx: tx,
                    off_ty: ty,
                    off_cx: cx,
                    off_cy: cy,
                    gran,
                    cmp,
                    // Often near the base, so that lanes fall on both sides.
                    scalar: if rel {
                        base.wrapping_add(scalar)
                    } else {
                        scalar
                    },
                    guard,
                }
            },
        )
}

/// One expansion case: params, shape, slots with CTA indices, tuple,
/// stimulus seed.
#[derive(Clone, Debug)]
struct Case {
    params: DacParams,
    k: u32,
    threads: u32,
    slots: Vec<(u64, u32, u32)>,
    tuples: Vec<Tuple>,
    seed: u64,
    mem_ready_pct: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (
        shape(),
        prop::sample::select(vec![1u64, 2, 4, 16]),
        prop::sample::select(vec![1u64, 4]),
        prop::collection::vec((any::<bool>(), any::<u16>(), any::<u16>()), 8),
        prop::collection::vec(tuple(), 1..5),
        any::<u64>(),
        prop::sample::select(vec![100u32, 60, 20]),
    )
        .prop_map(|((k, threads), pwaq, pwpq, slot_bits, tuples, seed, pct)| {
            let params = DacParams {
                N_WARPS: 64,
                PWAQ_DEPTH: pwaq,
                PWPQ_DEPTH: pwpq,
                ..DacParams::default()
            };
            let w = threads.div_ceil(32) as u64;
            let mut slots: Vec<(u64, u32, u32)> = slot_bits
                .iter()
                .enumerate()
                .filter(|(c, &(on, _, _))| on && (*c as u64 + 1) * w <= 64)
                .map(|(c, &(_, x, y))| (c as u64, x as u32, y as u32))
                .collect();
            if slots.is_empty() {
                slots.push((0, slot_bits[0].1 as u32, slot_bits[0].2 as u32));
            }
            Case {
                params,
                k,
                threads,
                slots,
                tuples,
                seed,
                mem_ready_pct: pct,
            }
        })
}

/// What a case must produce, from a direct per-lane evaluation.
struct Expected {
    addr: Vec<Vec<Record>>,
    pred: Vec<Vec<u32>>,
    mem: Vec<u64>,
    fast: u64,
    slow: u64,
    guard_skips: u64,
    /// Busy cycles without stalls: one per record, fast mask, slow group
    /// or guard-skipped warp.
    base_cycles: u64,
}

/// The direct evaluation of a case's tuples in order, with the guard masks
/// `G[w]` (0 after reset) that its guards write: every warp's records
/// (checked against the enabled lanes' regions and chunks) and masks.
fn expected(c: &Case) -> Result<Expected, TestCaseError> {
    let w = c.threads.div_ceil(32);
    let mut x = Expected {
        addr: vec![Vec::new(); 64],
        pred: vec![Vec::new(); 64],
        mem: Vec::new(),
        fast: 0,
        slow: 0,
        guard_skips: 0,
        base_cycles: 0,
    };
    let mut g = [0u32; 64];
    let geom = Geometry {
        bdx_log2: c.k,
        threads: c.threads,
        warps_per_cta: w,
    };
    for t in &c.tuples {
        for &(slot, cx, cy) in &c.slots {
            for wi in 0..w {
                let warp = (slot as u32 * w + wi) as usize;
                let n = (c.threads - 32 * wi).min(32);
                let values: Vec<u32> = (0..n)
                    .map(|l| direct_value(t, c.k, 32 * wi + l, cx, cy))
                    .collect();
                if t.kind == kind::PRED {
                    let mask = values
                        .iter()
                        .enumerate()
                        .filter(|&(_, &v)| direct_pred(t, v))
                        .fold(0u32, |m, (l, _)| m | 1 << l);
                    x.pred[warp].push(mask);
                    if t.guard {
                        g[warp] = mask;
                    }
                    if direct_fast(t, c.k, &values) {
                        x.fast += 1;
                        x.base_cycles += 1;
                    } else {
                        x.slow += 1;
                        x.base_cycles += n.div_ceil(8) as u64;
                    }
                    continue;
                }
                let enabled: Vec<(u32, u32)> = (0..n)
                    .filter(|&l| !t.guard || g[warp] & (1 << l) != 0)
                    .map(|l| (l, values[l as usize]))
                    .collect();
                if enabled.is_empty() {
                    x.guard_skips += 1;
                    x.base_cycles += 1;
                    continue;
                }
                let mut lanes = WarpLanes::new(*t, &geom, wi, cx, cy);
                if t.guard {
                    lanes = lanes.guarded_by(g[warp]);
                }
                let records = lanes.records();
                check_records(&records, &enabled, t.gran)?;
                x.base_cycles += records.len() as u64;
                if t.kind == kind::DATA {
                    x.mem
                        .extend(records.iter().map(|r| (r.addr & !0x7F) as u64));
                }
                x.addr[warp].extend(records);
            }
        }
    }
    Ok(x)
}

/// Run one case: launch the slots, enqueue the tuples, drain with random
/// `mem_ready` and random dequeue gaps; check every warp's records or mask
/// against a direct per-lane evaluation, the memory requests, the counters
/// and the cycle accounting.
fn run_case(c: &Case) -> Result<(), TestCaseError> {
    let w = c.threads.div_ceil(32);
    let mut tb = Tb::new(&c.params, c.k as u64, c.threads as u64, w as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(c.seed);
    for &(slot, x, y) in &c.slots {
        tb.launch(slot, x as u64, y as u64);
    }
    for t in &c.tuples {
        tb.enq(t);
    }
    let mut next = 0usize;
    for _ in 0..200_000 {
        if tb.m.idle() && tb.m.queues_empty() && tb.pending.is_none() && !tb.out().mem_valid {
            break;
        }
        tb.mem_ready = rng.gen_range(0..100) < c.mem_ready_pct;
        let pick = if rng.gen_range(0..100) < 70 {
            (0..128)
                .map(|j| (next + j) % 128)
                .find(|&s| tb.m.queue_len((s / 2) as u64, (s % 2) as u64) > 0)
        } else {
            None
        };
        match pick {
            Some(s) => {
                next = s + 1;
                tb.deq((s / 2) as u64, (s % 2) as u64);
            }
            None => tb.idle(1),
        }
    }
    prop_assert!(tb.m.idle() && tb.m.queues_empty(), "drained");

    let want = expected(c)?;
    // The records received, warp by warp, concatenated over the tuples in
    // order: each tuple's part checked against the lanes above.
    for warp in 0..64 {
        prop_assert_eq!(&tb.got_addr[warp], &want.addr[warp], "warp {}", warp);
        prop_assert_eq!(&tb.got_pred[warp], &want.pred[warp], "warp {}", warp);
    }
    let mem: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    prop_assert_eq!(mem, want.mem);
    let out = tb.out();
    prop_assert_eq!(
        (out.stat_pred_fast, out.stat_pred_slow, out.stat_guard_skips),
        (want.fast, want.slow, want.guard_skips)
    );
    let s = tb.m.stats();
    // Two setup cycles per tuple that made the expander busy (issue 29).
    prop_assert_eq!(
        s.busy_cycles,
        want.base_cycles + 2 * s.tuples_started + s.stall_cycles()
    );
    prop_assert_eq!(s.tuples_expanded, c.tuples.len() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Records reproduce each active lane's region and chunk, masks equal a
    /// per-lane evaluation, regardless of path and of back-pressure.
    #[test]
    fn expansion_matches_a_direct_per_lane_evaluation(c in case()) {
        run_case(&c)?;
    }

    /// The model's helpers agree with the direct evaluation for any shape,
    /// warp and CTA index (no timing involved).
    #[test]
    fn warp_lanes_match_the_direct_evaluation(
        t in tuple(),
        (k, threads) in shape(),
        wi in 0u32..32,
        cx in any::<u16>(),
        cy in any::<u16>(),
        g in prop_oneof![any::<u32>(), Just(u32::MAX), Just(0u32), Just(0xFFFF_FFFDu32)],
    ) {
        let geom = Geometry { bdx_log2: k, threads, warps_per_cta: 32 };
        let lanes = WarpLanes::new(t, &geom, wi, cx as u32, cy as u32);
        let n = threads.saturating_sub(32 * wi).min(32);
        prop_assert_eq!(lanes.n, n);
        let values: Vec<u32> = (0..n)
            .map(|l| direct_value(&t, k, 32 * wi + l, cx as u32, cy as u32))
            .collect();
        for (l, &v) in values.iter().enumerate() {
            prop_assert_eq!(lanes.value(l as u32), v);
        }
        let pred = Tuple { kind: kind::PRED, ..t };
        let mask = values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| direct_pred(&pred, v))
            .fold(0u32, |m, (l, _)| m | 1 << l);
        prop_assert_eq!(lanes.pred_mask(), mask);
        let groups = (0..lanes.groups()).fold(0, |m, g| m | lanes.pred_group(g));
        prop_assert_eq!(groups, mask);
        if n > 0 {
            prop_assert_eq!(lanes.fast_path(), direct_fast(&t, k, &values));
            if lanes.fast_path() {
                // The fast path's single comparison gives the exact mask.
                let all = if n == 32 { !0 } else { (1u32 << n) - 1 };
                prop_assert!(mask == 0 || mask == all);
            }
        }
        let addr = Tuple { kind: kind::ADDR, ..t };
        let lanes = WarpLanes { tuple: addr, ..lanes };
        let all: Vec<(u32, u32)> = values.iter().enumerate().map(|(l, &v)| (l as u32, v)).collect();
        check_records(&lanes.records(), &all, t.gran)?;
        // Guarded: only the lanes whose bit of `g` is set.
        let on: Vec<(u32, u32)> = all.iter().copied().filter(|&(l, _)| g & (1 << l) != 0).collect();
        check_records(&lanes.guarded_by(g).records(), &on, t.gran)?;
    }

    /// Random stimulus on every port (reset included): the per-cycle output
    /// rules hold, the queues and the ATQ stay within their depths, and a
    /// reset edge always returns the reset outputs.
    #[test]
    fn random_stimulus_keeps_the_invariants(seed in any::<u64>(), len in 1usize..600) {
        let p = DacParams {
            N_WARPS: 12,
            N_CTA: 3,
            ATQ_DEPTH: 3,
            PWAQ_DEPTH: 2,
            PWPQ_DEPTH: 1,
            ..DacParams::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut m = DacModel::new(&p);
        let mut pending = false;
        for _ in 0..len {
            let out = m.outputs();
            check_outputs(&p, &out);
            prop_assert_eq!(out.rsp_valid, pending);
            prop_assert_eq!(out.atq_count, m.atq_len() as u64);
            let i = DacIn {
                reset: rng.gen_range(0..100) < 2,
                cfg_bdx_log2: 3,
                cfg_threads: 24,
                cfg_warps_per_cta: 1,
                cta_launch_valid: rng.gen_range(0..100) < 10,
                cta_launch_slot: rng.gen_range(0..4),
                cta_launch_x: rng.gen(),
                cta_launch_y: rng.gen(),
                cta_done_valid: rng.gen_range(0..100) < 5,
                cta_done_slot: rng.gen_range(0..4),
                enq_valid: rng.gen_range(0..100) < 30,
                enq_kind: rng.gen_range(0..4),
                enq_base: rng.gen(),
                enq_off_tx: rng.gen_range(0..300),
                enq_off_ty: rng.gen_range(0..300),
                enq_off_cx: rng.gen(),
                enq_off_cy: rng.gen(),
                enq_gran: rng.gen_range(0..4),
                enq_cmp: rng.gen_range(0..8),
                enq_scalar: rng.gen(),
                enq_guard: rng.gen(),
                mem_ready: rng.gen(),
                deq_valid: rng.gen_range(0..100) < 60,
                deq_warp: rng.gen_range(0..16),
                deq_kind: rng.gen_range(0..2),
            };
            pending = i.deq_valid && !i.reset;
            m.step(&i);
            if i.reset {
                prop_assert_eq!(m.outputs(), reset_outputs());
                prop_assert!(m.idle() && m.queues_empty());
            }
            prop_assert!(m.atq_len() <= 3);
            for w in 0..12 {
                prop_assert!(m.queue_len(w, DEQ_ADDR) <= 2);
                prop_assert!(m.queue_len(w, DEQ_PRED) <= 1);
            }
        }
    }
}
