//! Properties over random stimulus on small configurations.

use proptest::prelude::*;

use super::bench::*;

// ----- properties over random stimulus -----

/// One cycle of random stimulus.
#[derive(Clone, Debug)]
struct Cycle {
    reset: bool,
    /// The load of the cycle, if any.
    ld: Option<Ld>,
    cache_full: bool,
    bw_util: u8,
    pf_ready: bool,
}

/// A load: a warp executes its next PC.
#[derive(Clone, Debug)]
struct Ld {
    /// Below 200: the next warp in round-robin order; else `warp`.
    sel: u8,
    /// A random warp (240 and above: a port value beyond the warp ids).
    warp: u8,
    /// The warp jumps to this PC index first.
    jump: Option<u8>,
    /// XORed into the address.
    noise: Option<u16>,
    uniform: bool,
}

fn small_params() -> impl Strategy<Value = SnakeParams> {
    (
        (1u32..=4, 1u64..=6, 1u64..=4, 0u64..=6),
        (1u64..=4, 0u64..=4, 1u64..=3, 1u64..=4),
        (0u64..=6, 0usize..4, 0usize..3, any::<bool>()),
        (any::<bool>(), 0u64..=5, 0u64..=4, 0u64..8),
    )
        .prop_map(
            |(
                (n, tail, train, lru),
                (depth, deg, walkq, pfq),
                (thr, aw, pw, paper),
                (rev1, extra_hops, intra_deg, flags),
            )| {
                if paper {
                    return SnakeParams::default();
                }
                let n = 1u64 << n;
                let p = SnakeParams {
                    N_WARPS: n,
                    TAIL_ENTRIES: tail,
                    TRAIN_WARPS: train.min(n),
                    LRU_GROUP: 1 + lru % tail,
                    CHAIN_DEPTH: depth,
                    IW_DEGREE: deg,
                    WALKQ_DEPTH: walkq,
                    PFQ_DEPTH: pfq,
                    THROTTLE_CYCLES: thr,
                    BW_HIGH: 70,
                    BW_LOW: 50,
                    ADDR_W: [8, 16, 32, 64][aw],
                    PC_W: [4, 12, 32][pw],
                    OWN_LINKS: flags & 1,
                    LOOP_HOPS: depth + extra_hops,
                    INTRA_DEGREE: intra_deg,
                    IW_SAME_CTA: (flags >> 1) & 1,
                    SPAN: (flags >> 2) & 1,
                };
                if rev1 {
                    p.revision1()
                } else {
                    p
                }
            },
        )
}

fn cycles(max_len: usize) -> impl Strategy<Value = Vec<Cycle>> {
    let ld = (
        any::<u8>(),
        any::<u8>(),
        proptest::option::weighted(0.05, any::<u8>()),
        proptest::option::weighted(0.03, any::<u16>()),
        0u8..100,
    )
        .prop_map(|(sel, warp, jump, noise, u)| Ld {
            sel,
            warp,
            jump,
            noise,
            uniform: u >= 3,
        });
    let cycle = (
        0u16..1000,
        0u16..1000,
        0u8..100,
        0u8..100,
        proptest::option::weighted(0.6, ld),
    )
        .prop_map(|(r, c, bw, ready, ld)| Cycle {
            reset: r < 2,
            ld,
            cache_full: c < 3,
            bw_util: match bw {
                0 => 120,
                1 => 75,
                2..=5 => 60,
                _ => 10,
            },
            pf_ready: ready < 70,
        });
    proptest::collection::vec(cycle, 1..max_len)
}

/// Warps run loops over PCs `0x100 + 4 * i`: warps with bit 3 clear over
/// 3 PCs, the others over 4 (they share PCs 0..2, so PC 2 has two
/// successors). Warp `w`'s address at PC index `i`, iteration `n` is
/// `0x10000 * (i + 1) + 0x100 * w + 0x400 * n + 8 * i`: link strides do
/// not depend on the warp, so links repeat across warps, and loads of one
/// PC by neighbouring warps in the same iteration show an inter-warp
/// stride of 0x100. Warps mostly go round robin over the first 16.
struct Driver {
    /// Per warp: next PC index, iteration.
    pos: Vec<(u64, u64)>,
    /// The last warp that loaded.
    last: u64,
}

impl Driver {
    fn new() -> Driver {
        Driver {
            pos: vec![(0, 0); 256],
            last: 0,
        }
    }

    fn inputs(&mut self, p: &SnakeParams, c: &Cycle) -> SnakeIn {
        let mut inputs = SnakeIn {
            reset: c.reset,
            cache_full: c.cache_full,
            bw_util: c.bw_util as u64,
            pf_ready: c.pf_ready,
            ..SnakeIn::default()
        };
        if let Some(ld) = &c.ld {
            let w = if ld.sel < 200 {
                (self.last + 1) % p.N_WARPS.min(16)
            } else if ld.warp < 240 {
                ld.warp as u64 % p.N_WARPS
            } else {
                ld.warp as u64
            };
            self.last = w & mask(p.warp_bits());
            let len = if w & 8 == 0 { 3 } else { 4 };
            let (i, n) = &mut self.pos[w as usize % 256];
            if let Some(j) = ld.jump {
                *i = j as u64 % len;
            }
            let mut addr = 0x10000 * (*i + 1) + 0x100 * w + 0x400 * *n + 8 * *i;
            if let Some(noise) = ld.noise {
                addr ^= noise as u64;
            }
            inputs.ld_valid = true;
            inputs.ld_uniform = ld.uniform;
            inputs.ld_warp = w;
            // CTAs of four warps; footprints 0 .. 0xFC by PC and warp.
            inputs.ld_cta_end = (w | 3) + 1;
            inputs.ld_span = (0x7C * (*i + w % 3)) % 0x100;
            inputs.ld_pc = 0x100 + 4 * *i;
            inputs.ld_addr = addr;
            *i += 1;
            if *i == len {
                *i = 0;
                *n += 1;
            }
        }
        inputs
    }
}

fn check_tables(m: &SnakeModel, ctx: &str) -> Result<(), TestCaseError> {
    let p = m.params();
    let warps = mask(p.N_WARPS as u32);
    let valid = valid_entries(m);
    // Entries are never invalidated: the valid ones are a prefix.
    prop_assert!(
        valid.iter().enumerate().all(|(i, (e, _))| i == *e),
        "{}",
        ctx
    );
    for (_, e) in m.tail().iter().enumerate().filter(|(_, e)| !e.valid) {
        prop_assert_eq!(*e, TailEntry::default(), "{}", ctx);
    }
    // The recency order is a permutation of the valid entries.
    let mut order = m.recency().to_vec();
    order.sort_unstable();
    prop_assert_eq!(order, (0..valid.len()).collect::<Vec<_>>(), "{}", ctx);
    for (i, (ei, e)) in valid.iter().enumerate() {
        let ones = e.wv.count_ones() as u64;
        prop_assert!(e.wv & !warps == 0, "{} entry {}", ctx, ei);
        prop_assert!(e.t1 <= T1_PROMOTED, "{}", ctx);
        if e.t1 == T1_PROMOTED {
            prop_assert!(ones >= p.TRAIN_WARPS, "{} entry {} {:?}", ctx, ei, e);
        }
        if e.t1 == T1_TWO_WARPS {
            // Revision 1: two warps; revision 2: any repeat.
            let least = if p.OWN_LINKS == 1 { 1 } else { 2 };
            prop_assert!(ones >= least && ones < p.TRAIN_WARPS, "{} {:?}", ctx, e);
        }
        prop_assert!(e.span < 1 << ports::snake::SPAN_W, "{}", ctx);
        prop_assert!(e.pc1 <= mask(p.PC_W as u32) && e.pc2 <= mask(p.PC_W as u32));
        prop_assert!(e.stride <= mask(p.ADDR_W as u32), "{}", ctx);
        let f = e.per_pc;
        prop_assert!(f.t2 <= 3 && f.iw_cnt <= 3, "{} {:?}", ctx, e);
        prop_assert!(f.iw_cnt == 0 || f.iw_valid, "{} {:?}", ctx, e);
        prop_assert!(f.iw_warp < p.N_WARPS, "{} {:?}", ctx, e);
        prop_assert!(f.intra <= mask(p.ADDR_W as u32));
        prop_assert!(f.iw_addr <= mask(p.ADDR_W as u32));
        prop_assert!(f.iw_stride <= mask(p.ADDR_W as u32));
        for (_, o) in &valid[i + 1..] {
            // At most one entry per link.
            prop_assert!(
                (o.pc1, o.pc2, o.stride) != (e.pc1, e.pc2, e.stride),
                "{} duplicate {:?}",
                ctx,
                e
            );
            // Per-PC fields identical for the same pc1.
            if o.pc1 == e.pc1 {
                prop_assert_eq!(o.per_pc, e.per_pc, "{}", ctx);
            }
        }
    }
    Ok(())
}

fn check_invariants(p: &SnakeParams, stimulus: &[Cycle]) -> Result<SnakeStats, TestCaseError> {
    let mut m = SnakeModel::new(p);
    m.step(&SnakeIn {
        reset: true,
        ..SnakeIn::default()
    });
    prop_assert_eq!(m.outputs(), SnakeOut::default());
    let mut driver = Driver::new();
    let amask = mask(p.ADDR_W as u32);
    let (mut taken, mut discarded) = (0u64, 0u64);
    let mut previous: Option<(SnakeOut, SnakeIn)> = None;
    let drain = std::iter::repeat_n(
        Cycle {
            reset: false,
            ld: None,
            cache_full: false,
            bw_util: 0,
            pf_ready: true,
        },
        300,
    );
    for (cycle, c) in stimulus.iter().cloned().chain(drain).enumerate() {
        let inputs = driver.inputs(p, &c);
        let out = m.outputs();
        let ctx = format!("cycle {cycle}, inputs {inputs:?}, outputs {out:?}");

        // Outputs: the head of the output queue, or zero.
        prop_assert_eq!(out.pf_valid, m.pfq_len() > 0, "{}", ctx);
        prop_assert_eq!(out.throttled, m.halted(), "{}", ctx);
        if !out.pf_valid {
            prop_assert_eq!(
                (out.pf_addr, out.pf_warp, out.pf_kind),
                (0, 0, 0),
                "{}",
                ctx
            );
        }
        prop_assert!(out.pf_warp < p.N_WARPS && out.pf_addr <= amask, "{}", ctx);
        prop_assert!(out.pf_kind <= 2, "{}", ctx);
        // A refused prefetch stays on the port.
        if let Some((prev_out, prev_in)) = &previous {
            if prev_out.pf_valid && !prev_in.pf_ready && !prev_in.reset {
                prop_assert_eq!(
                    (out.pf_valid, out.pf_addr, out.pf_warp, out.pf_kind),
                    (true, prev_out.pf_addr, prev_out.pf_warp, prev_out.pf_kind),
                    "{}",
                    ctx
                );
            }
        }
        // The output stage counts as taken room.
        let staged_pf = usize::from(m.out_stage().is_some());
        prop_assert!(m.pfq_len() + staged_pf <= p.PFQ_DEPTH as usize, "{}", ctx);
        prop_assert!(m.walk_queue().len() <= p.WALKQ_DEPTH as usize, "{}", ctx);
        let walker = m.walker();
        if m.walk_queue().is_empty() {
            prop_assert_eq!(walker, Walker::INITIAL, "{}", ctx);
        }
        prop_assert!(walker.hop <= p.LOOP_HOPS, "{}", ctx);
        let k_max = p.IW_DEGREE.max(p.INTRA_DEGREE).max(1) + 1;
        prop_assert!(walker.k >= 1 && walker.k <= k_max, "{}", ctx);
        check_tables(&m, &ctx)?;

        let job = m.walk_queue().first().copied();
        let staged = m.staged_load();
        let halted = m.halted();
        let pushed_before = m.stats().prefetches();
        let pfq_before = m.pfq_len() + staged_pf;
        if out.pf_valid && inputs.pf_ready && !inputs.reset {
            taken += 1;
        }
        m.step(&inputs);

        if inputs.reset {
            discarded += pfq_before as u64;
            prop_assert_eq!(m.outputs(), SnakeOut::default(), "{}", ctx);
            prop_assert!(valid_entries(&m).is_empty());
            prop_assert!(m.walk_queue().is_empty() && m.pfq_len() == 0);
            prop_assert!(m.out_stage().is_none());
            prop_assert!(m.staged_load().is_none());
            prop_assert!((0..p.N_WARPS).all(|w| !m.head(w).valid));
        } else {
            // The load stage: an accepted load waits one edge, then is the
            // warp's Head.
            let w = inputs.ld_warp & mask(p.warp_bits());
            let now = m.staged_load().map(|l| (l.warp, l.pc, l.addr));
            if inputs.ld_valid && inputs.ld_uniform && w < p.N_WARPS {
                let ld = (
                    w,
                    inputs.ld_pc & mask(p.PC_W as u32),
                    inputs.ld_addr & amask,
                );
                prop_assert_eq!(now, Some(ld), "{}", ctx);
            } else {
                prop_assert_eq!(now, None, "{}", ctx);
            }
            if let Some(ld) = staged {
                let h = m.head(ld.warp);
                prop_assert_eq!((h.valid, h.pc, h.addr), (true, ld.pc, ld.addr), "{}", ctx);
            }
            if halted {
                prop_assert!(m.walk_queue().is_empty(), "{}", ctx);
                prop_assert_eq!(m.stats().prefetches(), pushed_before, "{}", ctx);
            }
            if m.stats().prefetches() > pushed_before {
                // The prefetch just pushed belongs to the head job: an
                // intra- or inter-warp one is in the output stage, a hop's
                // at the queue's tail (never both at one edge).
                let pf = m
                    .out_stage()
                    .unwrap_or_else(|| *m.pfq_entries().last().unwrap());
                let job = job.expect("a push needs a job");
                if pf.kind == kind::INTER_WARP {
                    prop_assert!(
                        pf.warp > job.warp && pf.warp <= job.warp + p.IW_DEGREE,
                        "{} {:?}",
                        ctx,
                        pf
                    );
                    // Revision 2: inside the CTA.
                    if p.IW_SAME_CTA == 1 {
                        prop_assert!(pf.warp < job.end, "{} {:?}", ctx, pf);
                    }
                } else {
                    prop_assert_eq!(pf.warp, job.warp, "{}", ctx);
                }
                if pf.kind != kind::CHAIN {
                    let span = if p.SPAN == 1 { job.span } else { 0 };
                    prop_assert_eq!(pf.span, span, "{}", ctx);
                } else if p.SPAN == 0 {
                    prop_assert_eq!(pf.span, 0, "{}", ctx);
                }
            }
        }
        // Nothing is lost.
        prop_assert_eq!(
            m.stats().prefetches(),
            taken + discarded + m.pfq_len() as u64 + u64::from(m.out_stage().is_some()),
            "{}",
            ctx
        );
        previous = Some((out, inputs));
    }
    // After the drain every prefetch was taken (or discarded by a reset).
    prop_assert_eq!(m.pfq_len(), 0);
    prop_assert!(m.out_stage().is_none());
    prop_assert!(m.walk_queue().is_empty());
    prop_assert_eq!(m.stats().prefetches_taken, taken);
    Ok(m.stats())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Table invariants (per-PC fields shared, one entry per link, t1
    /// against the warp vector, the recency order a permutation), outputs
    /// zero while `pf_valid` is 0, a refused prefetch holds, queues within
    /// their depths, halted cycles make no prefetch, nothing is lost, and
    /// everything offered is taken once `pf_ready` stays 1.
    #[test]
    fn invariants_hold_on_random_stimulus(
        p in small_params(),
        stimulus in cycles(600),
    ) {
        check_invariants(&p, &stimulus)?;
    }
}

/// The random stimulus does exercise the interesting paths (paper
/// configuration, and a chain depth of 2 so that loops of 3 PCs also end
/// their chains unclosed).
#[test]
fn random_stimulus_reaches_every_path() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut t = [0u64; 12];
    for run in 0..48 {
        let stimulus = cycles(800).new_tree(&mut runner).unwrap().current();
        let p = SnakeParams {
            CHAIN_DEPTH: if run % 2 == 0 { 3 } else { 2 },
            LOOP_HOPS: if run % 2 == 0 { 3 } else { 2 },
            ..defaults()
        };
        let s = check_invariants(&p, &stimulus).unwrap();
        let v = [
            s.prefetches_chain,
            s.prefetches_inter,
            s.prefetches_intra,
            s.loops_closed,
            s.promotions,
            s.evictions,
            s.bits_cleared,
            s.jobs_dropped,
            s.jobs_discarded,
            s.jobs_suppressed,
            s.stall_cycles,
            s.loads_ignored,
        ];
        for (a, b) in t.iter_mut().zip(v) {
            *a += b;
        }
    }
    let names = [
        "chain",
        "inter",
        "intra",
        "loops",
        "promotions",
        "evictions",
        "cleared",
        "dropped",
        "discarded",
        "suppressed",
        "stalls",
        "ignored",
    ];
    let report: Vec<String> = names
        .iter()
        .zip(t)
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    println!("{}", report.join(", "));
    for (n, v) in names.iter().zip(t) {
        let min = if *n == "chain" || *n == "inter" {
            100
        } else {
            1
        };
        assert!(v >= min, "{n}: {}", report.join(", "));
    }
}

/// The same stimulus with revision 2's rules (the paper's configuration
/// and a small one) reaches the new paths: links trained by one warp's
/// repeat, silent hops, loops closed, intra-warp prefetches beyond the
/// next iteration, inter-warp prefetches inside the CTA.
#[test]
fn random_stimulus_reaches_revision2_paths() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut trained, mut silent, mut loops, mut intra, mut inter) = (0, 0, 0, 0, 0);
    for run in 0..24 {
        let stimulus = cycles(800).new_tree(&mut runner).unwrap().current();
        let p = if run % 2 == 0 {
            SnakeParams::default()
        } else {
            SnakeParams {
                N_WARPS: 16,
                TAIL_ENTRIES: 6,
                CHAIN_DEPTH: 1,
                LOOP_HOPS: 5,
                INTRA_DEGREE: 3,
                ..SnakeParams::default()
            }
        };
        let s = check_invariants(&p, &stimulus).unwrap();
        trained += s.links_trained;
        silent += s.silent_hops;
        loops += s.loops_closed;
        intra += s.prefetches_intra;
        inter += s.prefetches_inter;
    }
    println!("trained {trained}, silent {silent}, loops {loops}, intra {intra}, inter {inter}");
    for (name, v) in [
        ("trained", trained),
        ("silent", silent),
        ("loops", loops),
        ("intra", intra),
        ("inter", inter),
    ] {
        assert!(v >= 10, "{name}: {v}");
    }
}
