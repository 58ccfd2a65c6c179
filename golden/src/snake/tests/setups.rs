//! Sequences several sections train the model with: the Figure-15 loads
//! and prefetches, a 4-link chain, a two-PC loop, and an entry for the
//! inter-warp stride.

use super::bench::*;

/// The Figure-15 scenario's two load PCs.
pub(super) const PC_A: u64 = 0x520;
pub(super) const PC_B: u64 = 0x540;

/// Address of warp `w`'s load at `pc` in the Figure-15 scenario.
pub(super) fn fig15(w: u64, pc: u64) -> u64 {
    if pc == PC_A {
        0x1000 + 0x100 * w
    } else {
        0x1064 + 0x100 * w
    }
}

/// The scenario's loads, in order.
pub(super) const FIG15_LOADS: [(u64, u64); 7] = [
    (0, PC_A),
    (0, PC_B),
    (1, PC_A),
    (1, PC_B),
    (2, PC_A),
    (2, PC_B),
    (3, PC_A),
];

/// The scenario's prefetches, in order.
pub(super) fn fig15_prefetches() -> Vec<Pf> {
    vec![
        (0x1364, 3, kind::CHAIN),
        (0x1400, 4, kind::INTER_WARP),
        (0x1500, 5, kind::INTER_WARP),
        (0x1600, 6, kind::INTER_WARP),
        (0x1700, 7, kind::INTER_WARP),
    ]
}

/// PCs and offsets (from the warp's base) of a 4-link chain A -> B -> C ->
/// D -> E with strides 0x10, 0x20, 0x40, 0x80.
pub(super) const CHAIN: [(u64, u64); 5] = [
    (0x100, 0x00),
    (0x200, 0x10),
    (0x300, 0x30),
    (0x400, 0x70),
    (0x500, 0xF0),
];

pub(super) fn chain_base(w: u64) -> u64 {
    0x10000 * (w + 1)
}

/// Warps 0, 1, 2 each run the chain once (draining after each load): all
/// four links promoted; PC A's inter-warp stride 0x10000 at iw_cnt = 1.
pub(super) fn train_chain(tb: &mut Tb) {
    for w in 0..3 {
        for &(pc, off) in &CHAIN {
            tb.ld(w, pc, chain_base(w) + off);
            tb.drain();
        }
    }
    for (pc, _) in &CHAIN[..4] {
        let e =
            tb.m.tail()
                .iter()
                .find(|e| e.valid && e.pc1 == *pc)
                .unwrap();
        assert_eq!((e.wv, e.t1), (0b111, T1_PROMOTED));
    }
    let a = tb.m.per_pc(CHAIN[0].0).unwrap();
    assert_eq!((a.iw_warp, a.iw_stride, a.iw_cnt), (2, 0x10000, 1));
    tb.forget();
}

/// The prefetches of warp 4's load of A after [`train_chain`]:
/// `depth` chain hops, then 4 inter-warp ones.
pub(super) fn chain_prefetches(depth: usize) -> Vec<Pf> {
    let w = 4;
    let mut v: Vec<Pf> = CHAIN[1..=depth]
        .iter()
        .map(|&(_, off)| (chain_base(w) + off, w, kind::CHAIN))
        .collect();
    v.extend((1..=4).map(|k| (chain_base(w + k), w + k, kind::INTER_WARP)));
    v
}

/// Two-PC loop A -> B -> A (strides 0x40 and 0xFC0: one iteration is
/// 0x1000), trained by warps 0, 3, 6 (distances of 3: no inter-warp
/// stride).
pub(super) const LA: u64 = 0x700;
pub(super) const LB: u64 = 0x780;

pub(super) fn loop_base(w: u64) -> u64 {
    0x100000 * (w + 1)
}

/// After it both links are promoted and warp 6's last load has closed the
/// loop once: A's `intra = 0x1000`, `t2 = 1`.
pub(super) fn train_loop(tb: &mut Tb) {
    for w in [0, 3, 6] {
        let b = loop_base(w);
        for (pc, addr) in [(LA, b), (LB, b + 0x40), (LA, b + 0x1000)] {
            tb.ld(w, pc, addr);
            tb.drain();
        }
    }
    assert_eq!(tb.m.find_link(LA, LB, 0x40), Some(0));
    assert_eq!(tb.m.find_link(LB, LA, 0xFC0), Some(1));
    assert!(tb.m.tail()[..2].iter().all(|e| e.t1 == T1_PROMOTED));
    let f = tb.m.per_pc(LA).unwrap();
    assert_eq!((f.intra, f.t2, f.iw_cnt), (0x1000, 1, 0));
    assert_eq!(tb.m.stats().loops_closed, 1);
    tb.forget();
}

/// An entry with pc1 = 0x100 (so that its per-PC fields exist).
pub(super) fn iw_setup(p: &SnakeParams) -> Tb {
    let mut tb = Tb::new(p);
    tb.ld(0, 0x100, 0x1000);
    tb.ld(0, 0x200, 0x1010);
    tb
}
