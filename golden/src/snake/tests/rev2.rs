//! Revision 2 (spec `snake.md`, "Revision 2"; contract
//! `docs/units/snake_prefetcher.md`, "Revision 2"): the spec's scenario as
//! an exact prefetch list, and each new rule on its own (own-link training,
//! loops closed through untrained links, hops that emit nothing, intra-warp
//! prefetches several iterations ahead, inter-warp targets cut at the CTA's
//! end, footprints).

use super::bench::*;

/// The paper's configuration with revision 2's rules.
fn rev2() -> SnakeParams {
    SnakeParams::default()
}

/// A uniform load with its CTA end and footprint.
fn ld2(w: u64, pc: u64, addr: u64, end: u64, span: u64) -> SnakeIn {
    SnakeIn {
        ld_cta_end: end,
        ld_span: span,
        ..load(w, pc, addr)
    }
}

const PA: u64 = 0x600;
const PB: u64 = 0x610;

/// The spec's revision-2 scenario: warp 0 (`ld_cta_end = 4`, `ld_span =
/// 124`) runs PC 0x600 at `0x8000 + 0x200 i` then PC 0x610 at `0x9000 +
/// 0x200 i` for i = 0..=3, each load after the previous one's walk is
/// done. The list is derived by hand in the unit's document ("The
/// revision-2 scenario").
pub(super) fn rev2_scenario_loads() -> Vec<(u64, u64)> {
    (0..4u64)
        .flat_map(|i| [(PA, 0x8000 + 0x200 * i), (PB, 0x9000 + 0x200 * i)])
        .collect()
}

/// The scenario's prefetches: `(addr, warp, kind)`, every one with span
/// 124, and the load (index into [`rev2_scenario_loads`]) whose walk made
/// it.
pub(super) fn rev2_scenario_prefetches() -> Vec<(usize, Pf)> {
    use kind::{CHAIN as C, INTRA_WARP as I};
    vec![
        (3, (0x9400, 0, C)), // B1: silent hop B->A, then A->B (t1 = 1) closes
        (4, (0x9400, 0, C)), // A2: A->B, B->A close (t2 of A = 2)
        (4, (0x8600, 0, C)),
        (5, (0x8600, 0, C)), // B2: B->A, A->B close (t2 of B = 2)
        (5, (0x9600, 0, C)),
        (6, (0x9600, 0, C)), // A3: A->B, B->A close (t2 of A = 3) ...
        (6, (0x8800, 0, C)),
        (6, (0x8A00, 0, I)), // ... intra from k = 2: 0x8600 + 2 x 0x200
        (6, (0x8C00, 0, I)),
        (6, (0x8E00, 0, I)),
        (7, (0x8800, 0, C)), // B3: B->A, A->B close (t2 of B = 3) ...
        (7, (0x9800, 0, C)),
        (7, (0x9A00, 0, I)), // ... intra from k = 2
        (7, (0x9C00, 0, I)),
        (7, (0x9E00, 0, I)),
    ]
}

#[test]
fn scenario_revision2_exact_prefetch_list() {
    let mut tb = Tb::new(&rev2());
    let mut got = Vec::new();
    for (i, &(pc, addr)) in rev2_scenario_loads().iter().enumerate() {
        tb.forget();
        let t = tb.edge(ld2(0, pc, addr, 4, 124));
        tb.drain();
        got.extend(tb.seq().into_iter().map(|pf| (i, pf)));
        assert!(tb.spans.iter().all(|&s| s == 124), "spans {:?}", tb.spans);
        // The first prefetch of a load whose first hop emits: taken at t + 3
        // (the load stage's edge, the push, the transfer).
        if let Some(first) = tb.got.first() {
            if i >= 4 {
                assert_eq!(first.taken, t + 3, "load {i}");
            }
        }
        let f = |pc| tb.m.per_pc(pc).map(|f| (f.intra, f.t2));
        match i {
            // A1 closes the loop through two untrained links (silent hops).
            2 => {
                assert_eq!(tb.m.stats().silent_hops, 2);
                assert_eq!(f(PA), Some((0x200, 1)));
                let e = tb.m.tail()[0];
                assert_eq!((e.pc1, e.pc2, e.stride, e.t1), (PA, PB, 0x1000, 0));
            }
            // B1: the link A -> B repeated (t1 = 1), B's first observation.
            3 => {
                assert_eq!(tb.m.tail()[0].t1, T1_TWO_WARPS);
                assert_eq!(tb.m.tail()[1].t1, T1_UNTRAINED);
                assert_eq!(f(PB), Some((0x200, 1)));
            }
            6 => assert_eq!(f(PA), Some((0x200, 3))),
            7 => assert_eq!(f(PB), Some((0x200, 3))),
            _ => {}
        }
    }
    assert_eq!(got, rev2_scenario_prefetches());
    let s = tb.m.stats();
    // No promotion (one warp), no inter-warp stride (one warp).
    assert_eq!(
        (s.promotions, s.links_trained, s.prefetches_inter),
        (0, 2, 0)
    );
    assert_eq!((s.loops_closed, s.silent_hops), (6, 3));
}

/// The same scenario with the revision-1 values trains nothing and
/// prefetches nothing: one warp never promotes a link.
#[test]
fn scenario_revision2_with_revision1_values_prefetches_nothing() {
    let mut tb = Tb::new(&rev2().revision1());
    for &(pc, addr) in &rev2_scenario_loads() {
        tb.edge(ld2(0, pc, addr, 4, 124));
        tb.drain();
    }
    assert!(tb.seq().is_empty());
    assert_eq!(tb.m.stats().loops_closed, 0);
}

/// `OWN_LINKS`: a link repeated by one warp is usable for that warp only,
/// until it is promoted.
#[test]
fn own_link_is_usable_for_the_warps_that_observed_it() {
    let mut tb = Tb::new(&rev2());
    for w in [5, 5] {
        tb.ld(w, 0x100, 0x1000 * (w + 1));
        tb.ld(w, 0x200, 0x1000 * (w + 1) + 0x40);
    }
    tb.drain();
    assert_eq!(tb.m.tail()[0].t1, T1_TWO_WARPS);
    assert_eq!(tb.m.tail()[0].wv, 1 << 5);
    tb.forget();
    tb.ld(5, 0x100, 0x9000);
    tb.ld(7, 0x100, 0xA000);
    tb.drain();
    // Warp 5 hops through its own trained link; warp 7 has no link to use.
    assert_eq!(tb.seq(), vec![(0x9040, 5, kind::CHAIN)]);
    // With OWN_LINKS = 0 the repeat by one warp trains nothing.
    let mut tb = Tb::new(&SnakeParams {
        OWN_LINKS: 0,
        ..rev2()
    });
    for _ in 0..2 {
        tb.ld(5, 0x100, 0x6000);
        tb.ld(5, 0x200, 0x6040);
    }
    tb.drain();
    assert_eq!(tb.m.tail()[0].t1, T1_UNTRAINED);
    tb.forget();
    tb.ld(5, 0x100, 0x9000);
    tb.drain();
    assert!(tb.seq().is_empty());
}

/// Warp 0 runs a loop of `pcs` (offsets `0x40 * i` from `0x10000 + 0x400
/// * n`) for `trips` iterations, each load after the previous walk.
fn run_loop(tb: &mut Tb, pcs: &[u64], trips: u64) {
    for n in 0..trips {
        for (i, &pc) in pcs.iter().enumerate() {
            tb.ld(0, pc, 0x10000 + 0x400 * n + 0x40 * i as u64);
            tb.drain();
        }
    }
}

/// A hop beyond `CHAIN_DEPTH` emits nothing but takes its cycle and closes
/// the loop; the intra-warp prefetches then start at k = 1.
#[test]
fn silent_hops_beyond_chain_depth_close_the_loop() {
    let pcs = [0x100, 0x110, 0x120, 0x130];
    let p = SnakeParams {
        CHAIN_DEPTH: 2,
        INTRA_DEGREE: 2,
        ..rev2()
    };
    let mut tb = Tb::new(&p);
    run_loop(&mut tb, &pcs, 5);
    assert_eq!(
        tb.m.per_pc(0x100).map(|f| (f.intra, f.t2)),
        Some((0x400, 3))
    );
    tb.forget();
    let silent = tb.m.stats().silent_hops;
    // Trip 5's first load.
    let t = tb.ld(0, 0x100, 0x11400);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x11440, 0, kind::CHAIN),
            (0x11480, 0, kind::CHAIN),
            (0x11800, 0, kind::INTRA_WARP),
            (0x11C00, 0, kind::INTRA_WARP),
        ]
    );
    // Hops 3 and 4 are silent: one cycle each, between the chain and the
    // intra-warp prefetches, which wait one edge in the output stage.
    assert_eq!(tb.m.stats().silent_hops - silent, 2);
    assert_eq!(tb.taken(), vec![t + 3, t + 4, t + 8, t + 9]);
    // With LOOP_HOPS = CHAIN_DEPTH the 4-PC loop never closes.
    let mut tb = Tb::new(&SnakeParams { LOOP_HOPS: 2, ..p });
    run_loop(&mut tb, &pcs, 5);
    assert_eq!(tb.m.stats().loops_closed, 0);
}

/// `INTRA_DEGREE`: iterations k0 ..= INTRA_DEGREE, k0 = 2 after a closing
/// hop that emitted, 1 when the chain ends without closing.
#[test]
fn intra_prefetches_reach_intra_degree_iterations() {
    for degree in 0..=5u64 {
        let p = SnakeParams {
            INTRA_DEGREE: degree,
            ..rev2()
        };
        let mut tb = Tb::new(&p);
        // A one-load loop: the link (A -> A, 0x80) closes at its first hop.
        for n in 0..6 {
            tb.ld(0, 0x300, 0x5000 + 0x80 * n);
            tb.drain();
        }
        tb.forget();
        tb.ld(0, 0x300, 0x5300);
        tb.drain();
        let mut want = vec![(0x5380, 0, kind::CHAIN)];
        want.extend((2..=degree).map(|k| (0x5300 + 0x80 * k, 0, kind::INTRA_WARP)));
        assert_eq!(tb.seq(), want, "INTRA_DEGREE = {degree}");
    }
}

/// `IW_SAME_CTA`: inter-warp targets stop at `ld_cta_end`; the training
/// still takes its history from any warp.
#[test]
fn inter_warp_targets_stay_in_the_cta() {
    // Each warp of `ws` loads PC 0x400 at `0x100 w` from `base`, then
    // 0x410 at a stride of its own (an entry with pc1 = 0x400 for the
    // inter-warp fields, no link common to two warps).
    let history = |tb: &mut Tb, base: u64, ws: &[u64]| {
        for (i, &w) in ws.iter().enumerate() {
            tb.edge(ld2(w, 0x400, base + 0x100 * w, 4, 0));
            tb.edge(ld2(
                w,
                0x410,
                base + 0x100 * w + 0x40 * (i as u64 + 1),
                4,
                0,
            ));
            tb.drain();
        }
        tb.forget();
    };
    let run = |same_cta: u64, end: u64| {
        let mut tb = Tb::new(&SnakeParams {
            IW_SAME_CTA: same_cta,
            ..rev2()
        });
        // Warps 0, 1, 2 (another CTA), then warp 10 of the CTA [8, 12)
        // confirms the stride 0x100 (a distance of 8 warps).
        history(&mut tb, 0x4000, &[0, 1, 2]);
        tb.edge(ld2(10, 0x400, 0x4A00, end, 0));
        tb.drain();
        tb.seq()
    };
    let inter = |ws: &[u64]| -> Vec<Pf> {
        ws.iter()
            .map(|&w| (0x4000 + 0x100 * w, w, kind::INTER_WARP))
            .collect()
    };
    assert_eq!(run(1, 12), inter(&[11]));
    assert_eq!(run(1, 11), inter(&[]));
    assert_eq!(run(1, 3), inter(&[]));
    assert_eq!(run(0, 12), inter(&[11, 12, 13, 14]));
    // An end beyond N_WARPS: the targets still stop below N_WARPS.
    let mut tb = Tb::new(&rev2());
    history(&mut tb, 0, &[58, 59, 60]);
    tb.edge(ld2(62, 0x400, 0x100 * 62, 127, 0));
    tb.drain();
    assert_eq!(tb.seq(), vec![(0x100 * 63, 63, kind::INTER_WARP)]);
}

/// `SPAN`: a chain hop carries its link's span (the span of the link's
/// `pc2` as last trained), intra- and inter-warp prefetches the job's; all
/// 0 with `SPAN = 0`. Spans are taken modulo 12 bits.
#[test]
fn prefetches_carry_the_predicted_loads_footprint() {
    for span_on in [1, 0] {
        let mut tb = Tb::new(&SnakeParams {
            SPAN: span_on,
            ..rev2()
        });
        // A -> B trained by warps 0, 1, 2 (B's span 0x17C), A's inter-warp
        // stride confirmed; A's own span 0x3C.
        for w in 0..3 {
            tb.edge(ld2(w, 0xA0, 0x100 * w, 64, 0x3C));
            tb.edge(ld2(w, 0xB0, 0x100 * w + 0x2000, 64, 0x1000 + 0x17C));
        }
        tb.drain();
        tb.forget();
        tb.edge(ld2(3, 0xA0, 0x300, 64, 0x3C));
        tb.drain();
        let mut want = vec![(0x2300, 3, kind::CHAIN)];
        want.extend((4..8).map(|w| (0x100 * w, w, kind::INTER_WARP)));
        assert_eq!(tb.seq(), want);
        let spans = if span_on == 1 {
            vec![0x17C, 0x3C, 0x3C, 0x3C, 0x3C]
        } else {
            vec![0; 5]
        };
        assert_eq!(tb.spans, spans, "SPAN = {span_on}");
        assert_eq!(tb.m.tail()[0].span, 0x17C);
    }
}
