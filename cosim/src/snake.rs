//! `snake_prefetcher` in the co-simulation framework: random stimulus
//! shaped like warps running loops of strided loads, and the spec's
//! Figure 15 scenario.

use ports::snake::{SnakeIn, SnakeOut, SnakeParams, SnakePrefetcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::stimulus::Stimulus;
use crate::unit::{CosimUnit, Latency, LatencyClaim, PaperArea};

/// One load of the synthetic loop body.
#[derive(Clone, Copy, Debug)]
struct Body {
    pc: u64,
    /// Offset from the warp's base address.
    offset: u64,
    /// Address step per loop iteration.
    iter_stride: u64,
    /// Footprint of the load (`ld_span`).
    span: u64,
}

/// Random stimulus for Snake: a few warps (up to `N_WARPS`) each run a loop
/// whose body is a short sequence of load PCs at fixed offsets from a
/// per-warp base (`base + warp * warp_stride`), advancing by an iteration
/// stride every trip; so links repeat across warps and promote, chains
/// form, loops close into intra-warp observations, and warps of one PC are
/// a common stride apart (inter-warp training). Mixed in: noise loads
/// (random PCs and addresses), non-uniform loads, occasional changes of a
/// body's offsets (mismatch clearing), many PCs at times (eviction),
/// `cache_full` pulses, `bw_util` swinging across the thresholds, stretches
/// of back-pressure, and rare resets. Revision 2's inputs: warps are
/// grouped into CTAs of contiguous slots (`ld_cta_end`), each body load has
/// a footprint (`ld_span`, 0..=4095), and in some kernels every warp has
/// strides of its own (offsets and iteration strides scaled by the warp),
/// so links are trained by one warp's repeats and never promote, and loop
/// bodies of up to six loads close beyond `CHAIN_DEPTH` hops.
pub struct SnakeRandom {
    seed: u64,
    rng: ChaCha8Rng,
    n_warps: u64,
    body: Vec<Body>,
    warp_stride: u64,
    base: u64,
    /// Warps per CTA (a power of two).
    cta: u64,
    /// Every warp has its own strides (scaled by `1 + w % 4`).
    per_warp: bool,
    /// Per warp: loop trip and position in the body.
    trip: Vec<u64>,
    pos: Vec<usize>,
    active: Vec<u64>,
    ready_phase: bool,
    bw: u64,
    bw_dir: bool,
}

impl SnakeRandom {
    /// A generator for `p` with `seed`.
    pub fn new(p: &SnakeParams, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = SnakeRandom {
            seed,
            n_warps: p.N_WARPS,
            body: Vec::new(),
            warp_stride: 0,
            base: 0,
            cta: 1,
            per_warp: false,
            trip: vec![0; p.N_WARPS as usize],
            pos: vec![0; p.N_WARPS as usize],
            active: Vec::new(),
            ready_phase: true,
            bw: 20,
            bw_dir: true,
            rng: ChaCha8Rng::seed_from_u64(0),
        };
        s.new_kernel(&mut rng);
        s.rng = rng;
        s
    }

    /// A new loop body, strides and set of active warps.
    fn new_kernel(&mut self, rng: &mut ChaCha8Rng) {
        let len = rng.gen_range(1..=6usize);
        let strides = [0x80u64, 0x100, 0x200, 0x400, 0u64.wrapping_sub(0x80)];
        self.body = (0..len)
            .map(|i| Body {
                pc: 0x500 + 0x20 * i as u64,
                offset: rng.gen_range(0..64u64) * 0x40,
                iter_stride: strides[rng.gen_range(0..strides.len())],
                span: match rng.gen_range(0..4) {
                    0 => 0,
                    1 => 124,
                    2 => rng.gen_range(0..4096),
                    _ => 4095,
                },
            })
            .collect();
        self.warp_stride = [0x100u64, 0x1000, 0x80, 0u64.wrapping_sub(0x200)][rng.gen_range(0..4)];
        self.base = rng.gen_range(0..1u64 << 16) << 12;
        self.cta = 1 << rng.gen_range(1..=3u32);
        self.per_warp = rng.gen_bool(0.4);
        let n = rng.gen_range(2..=self.n_warps.min(12));
        let first = rng.gen_range(0..self.n_warps);
        self.active = (0..n)
            .map(|k| (first + k * rng.gen_range(1..=2)) % self.n_warps)
            .collect();
        self.active.sort_unstable();
        self.active.dedup();
        for w in 0..self.n_warps as usize {
            self.trip[w] = 0;
            self.pos[w] = 0;
        }
    }
}

impl Stimulus<SnakePrefetcher> for SnakeRandom {
    fn next(&mut self, _cycle: u64, _last: &SnakeOut) -> SnakeIn {
        let mut rng = std::mem::replace(&mut self.rng, ChaCha8Rng::seed_from_u64(0));
        let mut i = SnakeIn {
            reset: rng.gen_bool(0.0002),
            ..Default::default()
        };
        // Back-pressure in stretches.
        if rng.gen_bool(if self.ready_phase { 0.02 } else { 0.1 }) {
            self.ready_phase = !self.ready_phase;
        }
        i.pf_ready = if self.ready_phase {
            rng.gen_bool(0.95)
        } else {
            rng.gen_bool(0.05)
        };
        // Throttle inputs: rare cache-full pulses, bandwidth drifting up
        // and down across the thresholds.
        i.cache_full = rng.gen_bool(0.003);
        if rng.gen_bool(0.05) {
            if self.bw_dir {
                self.bw += rng.gen_range(0..8);
            } else {
                self.bw = self.bw.saturating_sub(rng.gen_range(0..8));
            }
            if self.bw >= 95 || rng.gen_bool(0.02) {
                self.bw_dir = false;
            }
            if self.bw <= 10 || rng.gen_bool(0.02) {
                self.bw_dir = true;
            }
            self.bw = self.bw.min(100);
        }
        i.bw_util = self.bw;
        // A new kernel now and then (eviction, relearning).
        if rng.gen_bool(0.0005) {
            self.new_kernel(&mut rng);
        }
        // One load in two cycles.
        if rng.gen_bool(0.5) {
            i.ld_valid = true;
            i.ld_uniform = !rng.gen_bool(0.03);
            if rng.gen_bool(0.08) {
                // Noise: another PC, any address, any warp.
                i.ld_warp = rng.gen_range(0..self.n_warps);
                i.ld_pc = 0x900 + 0x10 * rng.gen_range(0..16u64);
                i.ld_addr = rng.gen::<u32>() as u64;
                i.ld_cta_end = rng.gen_range(0..2 * self.n_warps);
                i.ld_span = rng.gen_range(0..4096);
            } else {
                // The next load of an active warp's loop.
                let w = self.active[rng.gen_range(0..self.active.len())];
                let wi = w as usize;
                let b = self.body[self.pos[wi]];
                let scale = if self.per_warp { 1 + w % 4 } else { 1 };
                let mut addr = self
                    .base
                    .wrapping_add(w.wrapping_mul(self.warp_stride))
                    .wrapping_add(b.offset * scale)
                    .wrapping_add(self.trip[wi].wrapping_mul(b.iter_stride.wrapping_mul(scale)));
                // Sometimes a body load is off (mismatch clearing).
                if rng.gen_bool(0.02) {
                    addr = addr.wrapping_add(0x40);
                }
                i.ld_warp = w;
                i.ld_cta_end = (w / self.cta + 1) * self.cta;
                i.ld_span = b.span;
                i.ld_pc = b.pc;
                i.ld_addr = addr & 0xffff_ffff;
                self.pos[wi] += 1;
                if self.pos[wi] == self.body.len() {
                    self.pos[wi] = 0;
                    self.trip[wi] += 1;
                }
            }
        }
        self.rng = rng;
        i
    }

    fn describe(&self) -> String {
        format!("random(seed={})", self.seed)
    }
}

/// The spec's scenario (paper Figure 15 style): warps 0..3 run PC 0x520
/// then PC 0x540 at `0x1000 + 0x100 * w` and `0x1064 + 0x100 * w`, in the
/// order W0 0x520, W0 0x540, W1 0x520, W1 0x540, W2 0x520, W2 0x540, W3
/// 0x520; loads are `gap` cycles apart (each walk job ends before the next
/// load), then idle cycles with `pf_ready = 1`. Run with the revision-1
/// values (spec: the revision-1 scenario keeps its expected output with
/// them).
pub fn figure15(gap: usize) -> (SnakeParams, Vec<SnakeIn>) {
    let p = SnakeParams::default().revision1();
    let idle = SnakeIn {
        pf_ready: true,
        ..Default::default()
    };
    let mut seq = vec![
        SnakeIn {
            reset: true,
            ..idle
        };
        2
    ];
    let order = [
        (0u64, 0x520u64),
        (0, 0x540),
        (1, 0x520),
        (1, 0x540),
        (2, 0x520),
        (2, 0x540),
        (3, 0x520),
    ];
    for (w, pc) in order {
        let addr = if pc == 0x520 { 0x1000 } else { 0x1064 } + 0x100 * w;
        seq.push(SnakeIn {
            ld_valid: true,
            ld_warp: w,
            ld_pc: pc,
            ld_addr: addr,
            ld_uniform: true,
            ..idle
        });
        for _ in 1..gap {
            seq.push(idle);
        }
    }
    seq.extend(std::iter::repeat_n(idle, 20));
    (p, seq)
}

/// The spec's revision-2 scenario with the defaults: warp 0 (`ld_cta_end
/// = 4`, `ld_span = 124`) runs PC 0x600 at `0x8000 + 0x200 i` then PC
/// 0x610 at `0x9000 + 0x200 i` for i = 0..=3; loads are `gap` cycles apart
/// (`gap >= 8` lets every walk end before the next load), then idle cycles
/// with `pf_ready = 1`. The expected prefetches are derived in the unit's
/// document ("The revision-2 scenario, derived by hand").
pub fn revision2_scenario(gap: usize) -> (SnakeParams, Vec<SnakeIn>) {
    let p = SnakeParams::default();
    let idle = SnakeIn {
        pf_ready: true,
        ..Default::default()
    };
    let mut seq = vec![
        SnakeIn {
            reset: true,
            ..idle
        };
        2
    ];
    for i in 0..4u64 {
        for (pc, addr) in [(0x600, 0x8000 + 0x200 * i), (0x610, 0x9000 + 0x200 * i)] {
            seq.push(SnakeIn {
                ld_valid: true,
                ld_warp: 0,
                ld_pc: pc,
                ld_addr: addr,
                ld_uniform: true,
                ld_cta_end: 4,
                ld_span: 124,
                ..idle
            });
            seq.extend(std::iter::repeat_n(idle, gap - 1));
        }
    }
    seq.extend(std::iter::repeat_n(idle, 20));
    (p, seq)
}

/// Cycles from a load accepted at edge t to its first prefetch on `pf_*`
/// (the unit document's "Latency" table, first row).
pub const LOAD_TO_FIRST_PREFETCH: u32 = 3;

impl CosimUnit for SnakePrefetcher {
    const SUMMARY: &'static str = "Snake prefetcher (Head, Tail, chain walker, throttle)";
    const SPEC: &'static str = "spec/snake.md";
    const DOC: &'static str = "docs/units/snake_prefetcher.md";
    const SUITE_SEEDS: (u64, u64) = (500, 600);
    fn random_stimulus(p: &SnakeParams, seed: u64) -> Box<dyn Stimulus<Self> + Send> {
        Box::new(SnakeRandom::new(p, seed))
    }
    fn scenarios() -> Vec<(String, SnakeParams, Vec<SnakeIn>)> {
        let (p, s) = figure15(6);
        let (p2, s2) = revision2_scenario(10);
        vec![
            (
                "snake.md scenario (Figure 15 style), revision-1 values".into(),
                p,
                s,
            ),
            ("snake.md revision-2 scenario".into(), p2, s2),
        ]
    }

    /// The paper's (revision 2), and the same with the revision-1 values; a
    /// small SM (8 warps, 4 Tail entries, depth-1 queues, short chains,
    /// loops of up to 5 hops, 2 iterations ahead, short throttle); 16 Tail
    /// entries with the whole table as the LRU group and promotion at two
    /// warps.
    fn suite() -> Vec<SnakeParams> {
        let d = SnakeParams::default();
        vec![
            d.clone(),
            d.revision1(),
            SnakeParams {
                N_WARPS: 8,
                TAIL_ENTRIES: 4,
                LRU_GROUP: 2,
                WALKQ_DEPTH: 1,
                PFQ_DEPTH: 1,
                CHAIN_DEPTH: 2,
                LOOP_HOPS: 5,
                INTRA_DEGREE: 2,
                IW_DEGREE: 2,
                THROTTLE_CYCLES: 5,
                ..d.clone()
            },
            SnakeParams {
                TAIL_ENTRIES: 16,
                LRU_GROUP: 16,
                TRAIN_WARPS: 2,
                ..d
            },
        ]
    }

    /// 1-induction closes.
    const INDUCTION_DEPTH: u32 = 1;

    const LATENCY_CLAIM: Option<LatencyClaim> = Some(LatencyClaim {
        claim: "Snake (paper 5.4, spec snake.md): \"The latency of Snake is two cycles\" (first prefetch \
                2 cycles after the load)",
        cycles: 2,
    });

    const LATENCIES: &'static [Latency] = &[
        Latency {
            what:
                "load accepted at edge t (walker idle, queues empty, not throttled, pf_ready = 1, \
                   its first hop emits) -> its first prefetch on pf_*",
            cycles: LOAD_TO_FIRST_PREFETCH,
            claimed: true,
        },
        Latency {
            what: "load accepted at edge t (as above, but its chain finds no entry; p's t2 = 3 or \
                   iw_cnt >= 2) -> its first intra- or inter-warp prefetch on pf_*",
            cycles: LOAD_TO_FIRST_PREFETCH + 1,
            claimed: false,
        },
        Latency {
            what: "later prefetches of one walk (pf_ready = 1, no silent hop between, a hop after \
                   a hop or an intra- or inter-warp prefetch after one) -> one per cycle",
            cycles: 1,
            claimed: false,
        },
        Latency {
            what: "a hop's prefetch -> the same walk's next, an intra- or inter-warp prefetch \
                   (pf_ready = 1)",
            cycles: 2,
            claimed: false,
        },
        Latency {
            what: "load accepted at edge t that allocates a Tail entry -> the walker sees the \
                   entry (hop choice, per-PC fields; it trains at edge t+1, the walker reads the \
                   table without the last edge's allocation)",
            cycles: 3,
            claimed: false,
        },
        Latency {
            what: "cache_full at edge t -> throttled",
            cycles: 1,
            claimed: false,
        },
        Latency {
            what: "bw_util >= BW_HIGH at edge t -> throttled",
            cycles: 1,
            claimed: false,
        },
    ];

    const PAPER_AREA: Option<PaperArea> = Some(PaperArea {
        mm2_per_sm: None,
        quote: "Snake paper: tables in CACTI 7 at 22 nm scaled to 12 nm; all SMs < 1 % of the \
                V100 die (815 mm^2); no per-SM figure",
    });

    const MEMORY_TABLES: &'static [(&'static str, &'static str)] = &[("head__", "Head")];

    const FLIP_FLOP_TABLES: &'static [(&'static str, &'static str)] = &[(
        "Tail",
        "a CAM: every entry's pc pair is compared each cycle (hdl/src/snake/entry.rs); \
         registers, not a memory module; stays flip-flops",
    )];
}
