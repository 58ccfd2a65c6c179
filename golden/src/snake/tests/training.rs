//! Training: links (mismatch clearing, hits, eviction, allocation) and the
//! inter-warp stride.

use super::bench::*;
use super::setups::*;

// ----- training: links -----

/// A mismatching link clears warp w's bit and t1, even for a promoted link
/// and a link at t1 = 01; other warps' bits and other PCs stay.
#[test]
fn mismatch_clears_bit_and_t1() {
    let mut tb = Tb::new(&defaults());
    let (a, b, c) = (0x100, 0x200, 0x300);
    for w in 0..3 {
        tb.ld(w, a, 0x1000 * (w + 1));
        tb.ld(w, b, 0x1000 * (w + 1) + 0x10);
    }
    tb.ld(3, c, 0x9000);
    tb.ld(3, b, 0x9040); // (c, b, 0x40), wv = {3}
    tb.ld(4, c, 0xA000);
    tb.ld(4, b, 0xA040); // t1 = 01
    let ab = tb.settled().find_link(a, b, 0x10).unwrap();
    let cb = tb.settled().find_link(c, b, 0x40).unwrap();
    assert_eq!(
        (tb.settled().tail()[ab].wv, tb.settled().tail()[ab].t1),
        (0b111, T1_PROMOTED)
    );
    assert_eq!(
        (tb.settled().tail()[cb].wv, tb.settled().tail()[cb].t1),
        (0b11000, T1_TWO_WARPS)
    );

    // Warp 1 goes a -> b with another stride: bit 1 cleared, t1 = 0 (still
    // two ones), and a new link with wv = {1}.
    tb.ld(1, a, 0x5000);
    tb.ld(1, b, 0x5020);
    let e = tb.settled().tail()[ab];
    assert_eq!((e.wv, e.t1), (0b101, T1_UNTRAINED));
    let new = tb.settled().find_link(a, b, 0x20).unwrap();
    assert_eq!(
        (tb.settled().tail()[new].wv, tb.settled().tail()[new].t1),
        (0b10, T1_UNTRAINED)
    );
    // Warp 4 goes c -> a (another pc2): bit 4 of (c, b) cleared.
    tb.ld(4, c, 0xB000);
    tb.ld(4, a, 0xB040);
    let e = tb.settled().tail()[cb];
    assert_eq!((e.wv, e.t1), (0b1000, T1_UNTRAINED));
    // Warp 0's hit on its own link clears nothing.
    tb.ld(0, a, 0x7000);
    tb.ld(0, b, 0x7010);
    assert_eq!(tb.settled().tail()[ab].wv, 0b101);
    // A hit with two ones again: t1 = 01; a third warp re-promotes.
    tb.ld(5, a, 0x8000);
    tb.ld(5, b, 0x8010);
    let e = tb.settled().tail()[ab];
    assert_eq!((e.wv, e.t1), (0b100101, T1_PROMOTED));
}

/// A hit by a warp already in `wv` leaves t1 alone; `t1` goes to 01 at two
/// ones and to 10 at TRAIN_WARPS.
#[test]
fn hit_trains_t1() {
    let p = SnakeParams {
        TRAIN_WARPS: 4,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    let link = |tb: &mut Tb, w: u64| {
        tb.ld(w, 0x100, 0x1000 * (w + 1));
        tb.ld(w, 0x200, 0x1000 * (w + 1) + 8);
        let e = tb.settled().tail()[0];
        (e.wv.count_ones(), e.t1)
    };
    assert_eq!(link(&mut tb, 0), (1, 0));
    assert_eq!(link(&mut tb, 0), (1, 0));
    assert_eq!(link(&mut tb, 1), (2, 1));
    assert_eq!(link(&mut tb, 2), (3, 1));
    assert_eq!(link(&mut tb, 2), (3, 1));
    assert_eq!(link(&mut tb, 3), (4, 2));
    assert_eq!(link(&mut tb, 4), (5, 2));
    // TRAIN_WARPS = 1: the allocation leaves t1 = 0, the next hit promotes.
    let mut tb = Tb::new(&SnakeParams {
        TRAIN_WARPS: 1,
        ..defaults()
    });
    assert_eq!(link(&mut tb, 0), (1, 0));
    assert_eq!(link(&mut tb, 0), (1, 2));
}

/// One-load loop links `(P_k, P_k, 0x10)` by warp `k` (two loads of a fresh
/// warp), `k` also picking the PC.
fn self_link(tb: &mut Tb, w: u64, k: u64) {
    let pc = 0x100 * (k + 1);
    let base = 0x100000 * (w + 1);
    tb.ld(w, pc, base);
    tb.ld(w, pc, base + 0x10);
}

fn self_link_entry(tb: &Tb, k: u64) -> Option<usize> {
    let pc = 0x100 * (k + 1);
    tb.settled().find_link(pc, pc, 0x10)
}

/// Allocation takes the lowest-numbered invalid entry; each allocation is
/// the most recently used.
#[test]
fn eviction_takes_invalid_entries_first() {
    let p = SnakeParams {
        TAIL_ENTRIES: 4,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for k in 0..4 {
        self_link(&mut tb, k, k);
        assert_eq!(self_link_entry(&tb, k), Some(k as usize));
        assert_eq!(tb.settled().rank(k as usize), Some(0));
    }
    assert_eq!(tb.settled().recency(), &[3, 2, 1, 0]);
    assert_eq!(tb.settled().stats().evictions, 0);
}

/// Entries 0..3 hold self links; entry 0 has two ones (warps 0 and 5) and
/// is the least recently used: recency [3, 2, 1, 0].
fn eviction_setup(lru_group: u64) -> Tb {
    let p = SnakeParams {
        TAIL_ENTRIES: 4,
        LRU_GROUP: lru_group,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    self_link(&mut tb, 0, 0);
    self_link(&mut tb, 5, 0);
    for k in 1..4 {
        self_link(&mut tb, k, k);
    }
    assert_eq!(tb.settled().recency(), &[3, 2, 1, 0]);
    assert_eq!(tb.settled().tail()[0].wv.count_ones(), 2);
    tb
}

/// The victim is the entry with the fewest ones among the LRU_GROUP least
/// recently used; an entry outside the group is not looked at.
#[test]
fn eviction_fewest_ones_in_lru_group() {
    // Group {0 (2 ones), 1 (1 one)}: entry 1.
    let mut tb = eviction_setup(2);
    self_link(&mut tb, 6, 6);
    assert_eq!(self_link_entry(&tb, 6), Some(1));
    assert_eq!(self_link_entry(&tb, 1), None);
    assert_eq!(tb.settled().recency(), &[1, 3, 2, 0]);
    assert_eq!(tb.settled().stats().evictions, 1);
    // Group {0}: entry 0 in spite of its two ones.
    let mut tb = eviction_setup(1);
    self_link(&mut tb, 6, 6);
    assert_eq!(self_link_entry(&tb, 6), Some(0));
    assert_eq!(tb.settled().recency(), &[0, 3, 2, 1]);
}

/// A tie goes to the less recently used entry (not to the lowest-numbered
/// one).
#[test]
fn eviction_tie_goes_to_less_recently_used() {
    let p = SnakeParams {
        TAIL_ENTRIES: 4,
        LRU_GROUP: 4,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for k in 0..4 {
        self_link(&mut tb, k, k);
    }
    // Warp 0 follows its self link again: a hit, entry 0 most recent.
    tb.ld(0, 0x100, 0x100000 + 0x20);
    assert_eq!(tb.settled().recency(), &[0, 3, 2, 1]);
    // All have one bit: the least recently used, entry 1.
    self_link(&mut tb, 9, 9);
    assert_eq!(self_link_entry(&tb, 9), Some(1));
    // Now [1, 0, 3, 2]: entry 2.
    self_link(&mut tb, 10, 10);
    assert_eq!(self_link_entry(&tb, 10), Some(2));
    assert_eq!(tb.settled().recency(), &[2, 1, 0, 3]);
}

/// The ones are counted after this load's clearing: the most recently used
/// entry, emptied by the load, is the victim.
#[test]
fn eviction_counts_ones_after_clearing() {
    let p = SnakeParams {
        TAIL_ENTRIES: 4,
        LRU_GROUP: 4,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for k in 0..4 {
        self_link(&mut tb, k, k);
    }
    tb.ld(0, 0x100, 0x100000 + 0x20); // hit: entry 0 most recent
    assert_eq!(tb.settled().recency(), &[0, 3, 2, 1]);
    // Warp 0 again from P_0, stride 0x30: clears its bit in entry 0 (now no
    // ones; before the clearing all four tie and entry 1 would go).
    tb.ld(0, 0x100, 0x100000 + 0x50);
    assert_eq!(tb.settled().find_link(0x100, 0x100, 0x30), Some(0));
    assert_eq!(tb.settled().tail()[0].wv, 0b1);
    for k in 1..4 {
        assert_eq!(self_link_entry(&tb, k), Some(k as usize));
    }
    assert_eq!(tb.settled().stats().bits_cleared, 1);
}

/// A new entry copies the per-PC fields from another valid entry with
/// `pc1 = q`; none (or only the victim itself): zero.
#[test]
fn allocation_copies_per_pc_fields() {
    let (a, b, c) = (0x100, 0x200, 0x300);
    let run = |p: &SnakeParams| {
        let mut tb = Tb::new(p);
        tb.ld(0, a, 0x1000);
        tb.ld(0, b, 0x1010); // (a, b, 0x10), per-PC zero
        tb.ld(1, a, 0x1100); // a's history: warp 1
        tb.ld(2, a, 0x1200); // candidate 0x100, iw_cnt 1
        tb.ld(2, c, 0x1220); // (a, c, 0x20)
        tb
    };
    let expect = PerPc {
        iw_valid: true,
        iw_warp: 2,
        iw_addr: 0x1200,
        iw_stride: 0x100,
        iw_cnt: 1,
        ..PerPc::default()
    };
    let tb = run(&defaults());
    assert_eq!(tb.settled().tail()[0].per_pc, expect);
    assert_eq!(tb.settled().find_link(a, c, 0x20), Some(1));
    assert_eq!(tb.settled().tail()[1].per_pc, expect, "copied from entry 0");
    // One entry: the victim is the only entry with pc1 = a, so zero.
    let tb = run(&SnakeParams {
        TAIL_ENTRIES: 1,
        LRU_GROUP: 1,
        ..defaults()
    });
    let e = tb.settled().tail()[0];
    assert_eq!((e.pc1, e.pc2, e.stride, e.wv), (a, c, 0x20, 0b100));
    assert_eq!(e.per_pc, PerPc::default());
}

/// The copy sees this edge's inter-warp update (a one-load loop, q = p).
#[test]
fn allocation_copies_this_edges_inter_warp_update() {
    let a = 0x100;
    let mut tb = Tb::new(&defaults());
    tb.ld(0, a, 0x1000);
    tb.ld(0, a, 0x1010); // (a, a, 0x10)
    tb.ld(1, a, 0x1100); // history: warp 1 at 0x1100
    tb.ld(1, a, 0x1130); // same warp: iw_addr 0x1130; (a, a, 0x30)
    let e = tb.settled().find_link(a, a, 0x30).unwrap();
    assert_eq!(e, 1);
    assert_eq!(tb.settled().tail()[1].per_pc.iw_addr, 0x1130);
    assert_eq!(tb.settled().tail()[1].per_pc, tb.settled().tail()[0].per_pc);
    assert_eq!(tb.settled().tail()[0].per_pc.iw_warp, 1);
}

/// The copy sees the walker's intra-warp observation of the same edge.
#[test]
fn allocation_copies_this_edges_observation() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    assert_eq!(tb.settled().per_pc(LA).unwrap().t2, 1);
    let t = tb.ld(9, LA, loop_base(9));
    tb.idle(1);
    // Edge t + 2: the walker closes the loop (t2 -> 2) while warp 0 (Head
    // at A) allocates (A, 0x7C0, ..).
    assert_eq!(tb.ld(0, 0x7C0, 0x5555), t + 2);
    let e = tb
        .settled()
        .find_link(LA, 0x7C0, 0x5555u64.wrapping_sub(loop_base(0) + 0x1000));
    let e = tb.settled().tail()[e.expect("allocated")];
    assert_eq!((e.per_pc.intra, e.per_pc.t2), (0x1000, 2));
    assert_eq!(Some(e.per_pc), tb.settled().per_pc(LA));
}

/// The victim of an edge takes its new contents, not that edge's per-PC
/// updates: with one entry, a self link replaced at the edge where the
/// walker closes its loop (and the load updates its inter-warp fields)
/// starts with zero per-PC fields (no other entry with `pc1 = q`).
#[test]
fn victim_takes_new_contents_over_same_edge_updates() {
    let p = SnakeParams {
        TAIL_ENTRIES: 1,
        LRU_GROUP: 1,
        TRAIN_WARPS: 1,
        ..defaults()
    };
    let pc = 0x600;
    let mut tb = Tb::new(&p);
    for addr in [0x1000, 0x1010, 0x1020] {
        tb.ld(0, pc, addr); // (pc, pc, 0x10), promoted by its second hit
        tb.drain();
    }
    let e = tb.settled().tail()[0];
    assert_eq!((e.stride, e.t1), (0x10, T1_PROMOTED));
    assert_eq!((e.per_pc.intra, e.per_pc.t2), (0x10, 1));
    assert!(e.per_pc.iw_valid);
    tb.forget();
    let t = tb.ld(1, pc, 0x2000);
    // Edge t + 1: warp 1's walk closes the loop (an observation for pc)
    // while warp 0 replaces the only entry with (pc, pc, 0x30).
    assert_eq!(tb.ld(0, pc, 0x1050), t + 1);
    assert_eq!(tb.settled().stats().loops_closed, 2);
    assert_eq!(
        tb.settled().tail()[0],
        TailEntry {
            valid: true,
            pc1: pc,
            pc2: pc,
            stride: 0x30,
            wv: 0b1,
            t1: T1_UNTRAINED,
            per_pc: PerPc::default(),
            span: 0,
        }
    );
    tb.drain();
    assert_eq!(tb.seq(), vec![(0x2010, 1, kind::CHAIN)]);
}

// ----- training: inter-warp stride -----

fn iw(tb: &Tb) -> (u64, u64, u64, u64) {
    let f = tb.settled().per_pc(0x100).unwrap();
    assert!(f.iw_valid);
    (f.iw_warp, f.iw_addr, f.iw_stride, f.iw_cnt)
}

/// Power-of-two warp distances, positive and negative, confirm the stride;
/// `iw_cnt` saturates at 3.
#[test]
fn inter_warp_power_of_two_deltas() {
    let mut tb = iw_setup(&defaults());
    let a = |w: u64| 0x1000 + 0x100 * w;
    tb.ld(1, 0x100, a(1));
    assert_eq!(iw(&tb), (1, a(1), 0, 0));
    tb.ld(3, 0x100, a(3)); // delta 2
    assert_eq!(iw(&tb), (3, a(3), 0x100, 1));
    tb.ld(7, 0x100, a(7)); // delta 4
    assert_eq!(iw(&tb), (7, a(7), 0x100, 2));
    tb.ld(6, 0x100, a(6)); // delta -1
    assert_eq!(iw(&tb), (6, a(6), 0x100, 3));
    tb.ld(4, 0x100, a(4)); // delta -2
    assert_eq!(iw(&tb), (4, a(4), 0x100, 3));
    // Negative strides, negative deltas.
    let mut tb = iw_setup(&defaults());
    let b = |w: u64| 0x9000 - 0x40 * w;
    tb.ld(4, 0x100, b(4));
    tb.ld(0, 0x100, b(0)); // delta -4: diff +0x100, cand -0x40
    assert_eq!(iw(&tb), (0, b(0), 0xFFFF_FFC0, 1));
    tb.ld(8, 0x100, b(8)); // delta 8
    assert_eq!(iw(&tb), (8, b(8), 0xFFFF_FFC0, 2));
    // It is used: warp 9 confirms (cnt 3) and prefetches warps 10..13.
    tb.drain();
    tb.forget();
    tb.ld(9, 0x100, b(9));
    tb.drain();
    let expect: Vec<Pf> = (1..=4)
        .map(|k| (b(9 + k) & 0xFFFF_FFFF, 9 + k, kind::INTER_WARP))
        .collect();
    assert_eq!(tb.seq(), expect);
}

/// A non-divisible difference or a non-power-of-two distance resets
/// `iw_cnt` (the stride stays); a different candidate restarts at 1; the
/// same warp only moves the history.
#[test]
fn inter_warp_resets_and_restarts() {
    let mut tb = iw_setup(&defaults());
    tb.ld(1, 0x100, 0x1100);
    tb.ld(2, 0x100, 0x1200);
    tb.ld(3, 0x100, 0x1300);
    assert_eq!(iw(&tb), (3, 0x1300, 0x100, 2));
    tb.ld(5, 0x100, 0x1501); // delta 2, diff 0x201: not divisible
    assert_eq!(iw(&tb), (5, 0x1501, 0x100, 0));
    tb.ld(6, 0x100, 0x1601); // 0x100, but iw_cnt was 0: restart at 1
    assert_eq!(iw(&tb), (6, 0x1601, 0x100, 1));
    tb.ld(9, 0x100, 0x1901); // delta 3: not a power of two
    assert_eq!(iw(&tb), (9, 0x1901, 0x100, 0));
    tb.ld(10, 0x100, 0x1A01);
    tb.ld(11, 0x100, 0x1B01);
    assert_eq!(iw(&tb), (11, 0x1B01, 0x100, 2));
    tb.ld(12, 0x100, 0x1B81); // candidate 0x80: restart at 1
    assert_eq!(iw(&tb), (12, 0x1B81, 0x80, 1));
    tb.ld(12, 0x100, 0x7777); // same warp: history only
    assert_eq!(iw(&tb), (12, 0x7777, 0x80, 1));
    // Odd difference with an odd distance (delta 1 divides everything).
    tb.ld(13, 0x100, 0x7778);
    assert_eq!(iw(&tb), (13, 0x7778, 1, 1));
}

/// A PC without an entry records no inter-warp history.
#[test]
fn inter_warp_needs_an_entry() {
    let mut tb = Tb::new(&defaults());
    tb.ld(1, 0x100, 0x1100);
    tb.ld(2, 0x100, 0x1200);
    assert_eq!(tb.settled().per_pc(0x100), None);
    tb.ld(2, 0x200, 0x1210);
    // The new entry's per-PC fields are zero (nothing was recorded).
    assert_eq!(tb.settled().per_pc(0x100), Some(PerPc::default()));
}
