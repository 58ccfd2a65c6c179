//! Predicates: the comparisons, the fast paths and the slow path.

use super::bench::*;
use crate::dac::*;

// ----- predicates -----

/// Expand `t` for one 1-D CTA of `threads` threads; return the masks of
/// warps 0.. and the counters `(fast, slow)`.
fn pred_run(t: &Tuple, threads: u64) -> (Vec<u32>, u64, u64) {
    let tb = expand_1d(t, threads);
    let warps = threads.div_ceil(32) as usize;
    let masks = (0..warps)
        .map(|w| {
            assert_eq!(tb.got_pred[w].len(), 1, "one mask per warp");
            tb.got_pred[w][0]
        })
        .collect();
    let out = tb.out();
    (masks, out.stat_pred_fast, out.stat_pred_slow)
}

#[test]
fn each_comparison_on_a_ramp() {
    // v(l) = l, scalar 10: lanes 0 and 31 differ for every ordering (slow).
    let cases = [
        (cmp::LT, 0x0000_03FF),
        (cmp::LE, 0x0000_07FF),
        (cmp::GT, 0xFFFF_F800),
        (cmp::GE, 0xFFFF_FC00),
        (cmp::EQ, 0x0000_0400),
        (cmp::NE, 0xFFFF_FBFF),
    ];
    for (c, mask) in cases {
        assert_eq!(
            pred_run(&pred_tuple(0, 1, c, 10), 32),
            (vec![mask], 0, 1),
            "cmp {c}"
        );
    }
}

#[test]
fn comparisons_are_signed() {
    // v(l) = l - 16: lanes 0..15 negative.
    let t = pred_tuple(neg(16), 1, cmp::LT, 0);
    assert_eq!(pred_run(&t, 32).0, vec![0x0000_FFFF]);
    let t = pred_tuple(neg(16), 1, cmp::GE, 0);
    assert_eq!(pred_run(&t, 32).0, vec![0xFFFF_0000]);
    // Scalar negative: every value above it.
    let t = pred_tuple(0, 1, cmp::GT, neg(1));
    assert_eq!(pred_run(&t, 32), (vec![0xFFFF_FFFF], 1, 0));
    // 0x80000000 is the smallest value.
    let t = pred_tuple(0x8000_0000, 0, cmp::LE, 0x8000_0000);
    assert_eq!(pred_run(&t, 32), (vec![0xFFFF_FFFF], 1, 0));
}

#[test]
fn fast_path_a_uniform_values_for_every_comparison() {
    // off_tx = off_ty = 0, the CTA offsets do not matter.
    for c in [cmp::LT, cmp::LE, cmp::GT, cmp::GE, cmp::EQ, cmp::NE] {
        let t = Tuple {
            off_cx: 7,
            off_cy: 9,
            ..pred_tuple(5, 0, c, 5)
        };
        let expect = if matches!(c, cmp::LE | cmp::GE | cmp::EQ) {
            (vec![0xFFFF_FFFF, 0xFF], 2, 0)
        } else {
            (vec![0, 0], 2, 0)
        };
        assert_eq!(pred_run(&t, 40), expect, "cmp {c}");
    }
    // (a) with a non-power-of-two-x 2-D block (bdx < 32, off_ty = 0).
    let mut tb = Tb::new(&DacParams::default(), 2, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(3, 0, cmp::NE, 3));
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0]);
    assert_eq!(tb.out().stat_pred_fast, 1);
}

#[test]
fn fast_path_b_arithmetic_orderings() {
    // 1-D block (bdx >= 32), all lanes above the scalar.
    let t = pred_tuple(100, 3, cmp::GT, 0);
    assert_eq!(pred_run(&t, 64), (vec![0xFFFF_FFFF, 0xFFFF_FFFF], 2, 0));
    // All below, descending.
    let t = pred_tuple(100, neg(3), cmp::GE, 1000);
    assert_eq!(pred_run(&t, 64), (vec![0, 0], 2, 0));
    // bdx < 32 with off_ty = bdx * off_tx: one arithmetic sequence.
    let mut tb = Tb::new(&DacParams::default(), 3, 64, 2);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 16,
        ..pred_tuple(0, 2, cmp::LT, 1000)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
    assert_eq!(tb.got_pred[1], vec![0xFFFF_FFFF]);
    assert_eq!((tb.out().stat_pred_fast, tb.out().stat_pred_slow), (2, 0));
    // off_ty = bdx * off_tx modulo 2^32 (negative offsets).
    let mut tb = Tb::new(&DacParams::default(), 2, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: neg(20),
        ..pred_tuple(0, neg(5), cmp::LE, 0)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
    assert_eq!(tb.out().stat_pred_fast, 1);
    // Partial warp: lane n-1 is the last compared (warp 1: values 32..39).
    let t = pred_tuple(0, 1, cmp::LT, 40);
    assert_eq!(pred_run(&t, 40), (vec![0xFFFF_FFFF, 0xFF], 2, 0));
    let t = pred_tuple(0, 1, cmp::LT, 39);
    assert_eq!(pred_run(&t, 40), (vec![0xFFFF_FFFF, 0x7F], 1, 1));
}

#[test]
fn a_small_one_d_block_is_arithmetic_only_with_off_ty_set() {
    // 8 threads, 1-D: blockDim.x = 8 < 32, so (b) needs off_ty = 8 * off_tx
    // even though ty = 0 for every thread.
    let mut tb = Tb::one_d(8);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::LT, 100));
    tb.enq(&Tuple {
        off_ty: 8,
        ..pred_tuple(0, 1, cmp::LT, 100)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0xFF, 0xFF]);
    assert_eq!((tb.out().stat_pred_fast, tb.out().stat_pred_slow), (1, 1));
}

#[test]
fn slow_path_for_a_non_arithmetic_warp() {
    // bdx = 8 with off_ty != 8 * off_tx: slow even though all lanes agree.
    let mut tb = Tb::new(&DacParams::default(), 3, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 17,
        ..pred_tuple(0, 2, cmp::GE, 0)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
    assert_eq!((tb.out().stat_pred_fast, tb.out().stat_pred_slow), (0, 1));
    // Evenly spaced by coincidence does not count: bdx = 1, ty = t,
    // v = 3t (off_tx = 5 is never used, off_ty != 1 * off_tx).
    let mut tb = Tb::new(&DacParams::default(), 0, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 3,
        ..pred_tuple(0, 5, cmp::LT, 1000)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
    assert_eq!((tb.out().stat_pred_fast, tb.out().stat_pred_slow), (0, 1));
    // off_tx = 0 but off_ty != 0 with bdx < 32: not (a), and off_ty !=
    // bdx * 0, so not (b).
    let mut tb = Tb::new(&DacParams::default(), 4, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 1,
        ..pred_tuple(0, 0, cmp::EQ, 0)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0x0000_FFFF]);
    assert_eq!(tb.out().stat_pred_slow, 1);
}

#[test]
fn slow_path_for_eq_and_ne_with_an_offset() {
    // Nothing equals the scalar: every lane gives the same result, but EQ
    // and NE are not orderings.
    assert_eq!(
        pred_run(&pred_tuple(100, 1, cmp::EQ, 0), 32),
        (vec![0], 0, 1)
    );
    assert_eq!(
        pred_run(&pred_tuple(100, 1, cmp::NE, 0), 32),
        (vec![0xFFFF_FFFF], 0, 1)
    );
}

#[test]
fn slow_path_when_the_sequence_crosses_the_signed_boundary() {
    // Lanes 0 and 31 both positive (> 0), the middle wraps negative.
    let t = pred_tuple(0x1000_0000, 0x0800_0000, cmp::GT, 0);
    assert_eq!(pred_run(&t, 32), (vec![0x8000_3FFF], 0, 1));
    // The exact boundary: last value i32::MAX is fast, one more is slow.
    let t = pred_tuple(0x7FFF_FFE0, 1, cmp::GT, 0);
    assert_eq!(pred_run(&t, 32), (vec![0xFFFF_FFFF], 1, 0));
    let t = pred_tuple(0x7FFF_FFE1, 1, cmp::GT, 0);
    assert_eq!(pred_run(&t, 32), (vec![0x7FFF_FFFF], 0, 1));
    // Downwards: last value i32::MIN is fast, one less is slow.
    let t = pred_tuple(0x8000_001F, neg(1), cmp::LT, 0);
    assert_eq!(pred_run(&t, 32), (vec![0xFFFF_FFFF], 1, 0));
    let t = pred_tuple(0x8000_001E, neg(1), cmp::LT, 0);
    assert_eq!(pred_run(&t, 32), (vec![0x7FFF_FFFF], 0, 1));
    // A partial warp checks its own last active lane: 40 threads, warp 1
    // has 8 lanes from i32::MAX - 7 (in range), warp 0 ends at
    // i32::MAX - 8.
    let t = pred_tuple(0x7FFF_FFD8, 1, cmp::GT, 0);
    assert_eq!(pred_run(&t, 40), (vec![!0, 0xFF], 2, 0));
    let t = pred_tuple(0x7FFF_FFD9, 1, cmp::GT, 0);
    assert_eq!(pred_run(&t, 40), (vec![!0, 0x7F], 1, 1));
}

#[test]
fn slow_path_when_first_and_last_differ() {
    let t = pred_tuple(0, 1, cmp::LT, 31);
    assert_eq!(pred_run(&t, 32), (vec![0x7FFF_FFFF], 0, 1));
    let t = pred_tuple(0, 1, cmp::LT, 32);
    assert_eq!(pred_run(&t, 32), (vec![0xFFFF_FFFF], 1, 0));
}

#[test]
fn the_fast_condition_reads_the_cta_index() {
    // v(0) = base + cx * off_cx: the CTA index moves the sequence.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x7FFF_FFF0,
        ..pred_tuple(0, 1, cmp::GE, 0)
    });
    tb.drain();
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
    assert_eq!(tb.got_pred[1], vec![0x0000_FFFF]);
    assert_eq!((tb.out().stat_pred_fast, tb.out().stat_pred_slow), (1, 1));
}
