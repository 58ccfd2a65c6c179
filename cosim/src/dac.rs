//! `dac_expander` in the co-simulation framework: random stimulus shaped
//! like real kernels' affine tuples, and the spec's scenarios.

use ports::dac::{cmp, gran, kind, DacExpander, DacIn, DacOut, DacParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::stimulus::Stimulus;
use crate::unit::{CosimUnit, Latency, PaperArea};

/// The launch configuration of a kernel: `blockDim.x = 2^k`, threads and
/// warps per CTA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// `log2(blockDim.x)`.
    pub k: u64,
    /// Threads per CTA.
    pub threads: u64,
}

impl Shape {
    /// Warps per CTA.
    pub fn warps(&self) -> u64 {
        self.threads.div_ceil(32)
    }

    /// The inputs carrying this configuration (everything else idle).
    pub fn cfg(&self) -> DacIn {
        DacIn {
            cfg_bdx_log2: self.k,
            cfg_threads: self.threads,
            cfg_warps_per_cta: self.warps(),
            ..Default::default()
        }
    }
}

/// Random stimulus for DAC. Each *kernel* (started by a reset) draws a
/// block shape — 1-D blocks of any size (`blockDim.x` the next power of
/// two, partial last warps) or 2-D blocks with `blockDim.x` from 1 to 512
/// — and keeps it. CTAs with small and large indices launch into the slots
/// the harness would use (`(slot + 1) * warps <= N_WARPS`; now and then any
/// slot) and finish. Tuples look like array accesses: a base, an element
/// offset per `tid.x` of 1, 2, 4, 8 or 128 bytes, odd sizes, negative and
/// zero offsets, a row pitch per `tid.y` that is `blockDim.x` elements or
/// not, CTA offsets of a tile; all three access sizes; predicates with all
/// six comparisons against a scalar near the lane values (masks split
/// inside warps), uniform values, values near the signed boundary;
/// reserved tuples now and then. Guard masks (revision 2): a predicate is
/// now and then a guard (`enq_guard`), and the address tuples after it are
/// mostly guarded, so warps see full, partial, gapped and zero guard
/// masks; now and then any address tuple is guarded (after a reset, with
/// every mask zero). Enqueues come in bursts; the memory's
/// ready and the warps' dequeues change rate in phases, so queues fill
/// and empty. Dequeues mostly walk the warps and kinds in order, often
/// taking several records of one queue; now and then any warp of either
/// kind, ids past `N_WARPS` included.
pub struct DacRandom {
    seed: u64,
    rng: ChaCha8Rng,
    n_warps: u64,
    n_cta: u64,
    warp_ids: u64,
    shape: Shape,
    /// Per slot: active (as the stimulus launched it).
    active: Vec<bool>,
    enq_phase: bool,
    mem_phase: bool,
    deq_rate: f64,
    /// The next (warp, kind) of the in-order sweep of dequeues.
    sweep: u64,
    last_tuple: Option<DacIn>,
    /// Address tuples still to be guarded after the last guard.
    guarded_run: u32,
}

impl DacRandom {
    /// A generator for `p` with `seed`.
    pub fn new(p: &DacParams, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let shape = fitting_shape(&mut rng, p.N_WARPS);
        DacRandom {
            seed,
            rng,
            n_warps: p.N_WARPS,
            n_cta: p.N_CTA,
            warp_ids: 1 << p.warp_bits(),
            shape,
            active: vec![false; p.N_CTA as usize],
            enq_phase: true,
            mem_phase: true,
            deq_rate: 1.0,
            sweep: 0,
            last_tuple: None,
            guarded_run: 0,
        }
    }

    /// Slots the harness would use for this shape.
    fn usable_slots(&self) -> u64 {
        (self.n_warps / self.shape.warps().max(1)).min(self.n_cta)
    }

    fn tuple(&mut self, rng: &mut ChaCha8Rng) -> DacIn {
        let elem = [1u64, 2, 4, 4, 4, 4, 4, 8, 8, 128, 3, 12, 36, 0, 1, 2][rng.gen_range(0..16)];
        let neg = rng.gen_bool(0.12);
        let off_tx = if neg {
            0u64.wrapping_sub(elem) & 0xFFFF_FFFF
        } else {
            elem
        };
        let bdx = 1u64 << self.shape.k;
        let off_ty = match rng.gen_range(0..5) {
            0 | 1 => off_tx.wrapping_mul(bdx) & 0xFFFF_FFFF,
            2 => (rng.gen_range(1..4096u64) * elem.max(1)) & 0xFFFF_FFFF,
            3 => 0,
            _ => rng.gen::<u32>() as u64,
        };
        let off_cx = match rng.gen_range(0..4) {
            0 => off_tx.wrapping_mul(bdx) & 0xFFFF_FFFF,
            1 => 0,
            2 => rng.gen_range(0..1u64 << 16) * 4,
            _ => rng.gen::<u32>() as u64,
        };
        let off_cy = match rng.gen_range(0..3) {
            0 => 0,
            1 => rng.gen_range(0..1u64 << 20) * 4,
            _ => rng.gen::<u32>() as u64,
        };
        let base = match rng.gen_range(0..5) {
            0 => 0xC000_0000 + rng.gen_range(0..1u64 << 20) * 256,
            1 => 0x7FFF_FF00 + rng.gen_range(0..0x200u64),
            2 => rng.gen_range(0..0x400u64),
            3 => 0xFFFF_FF00 + rng.gen_range(0..0x100u64),
            _ => rng.gen::<u32>() as u64,
        } & 0xFFFF_FFFF;
        let mut t = DacIn {
            enq_valid: true,
            enq_base: base,
            enq_off_tx: off_tx,
            enq_off_ty: off_ty,
            enq_off_cx: off_cx,
            enq_off_cy: off_cy,
            ..Default::default()
        };
        let r = rng.gen_range(0..100);
        if r < 35 {
            t.enq_kind = kind::ADDR;
        } else if r < 65 {
            t.enq_kind = kind::DATA;
        } else if r < 96 {
            t.enq_kind = kind::PRED;
        } else {
            // Reserved: kind 3, gran 3 or cmp 6/7.
            match rng.gen_range(0..3) {
                0 => t.enq_kind = 3,
                1 => {
                    t.enq_kind = kind::ADDR;
                    t.enq_gran = 3;
                }
                _ => {
                    t.enq_kind = kind::PRED;
                    t.enq_cmp = rng.gen_range(6..8);
                }
            }
            t.enq_guard = rng.gen_bool(0.5);
            return t;
        }
        if t.enq_kind == kind::PRED {
            if rng.gen_bool(0.3) {
                t.enq_guard = true;
                self.guarded_run = rng.gen_range(1..=4);
                if rng.gen_bool(0.5) {
                    return guard_shaped(t, bdx, rng);
                }
            }
            t.enq_cmp = rng.gen_range(cmp::LT..=cmp::NE);
            // Near a lane value of some CTA, near zero, or anywhere.
            t.enq_scalar = match rng.gen_range(0..4) {
                0 => base.wrapping_add(off_tx.wrapping_mul(rng.gen_range(0..64))),
                1 => base.wrapping_add(rng.gen_range(0..256)),
                2 => rng.gen_range(0..64u64).wrapping_sub(32),
                _ => rng.gen::<u32>() as u64,
            } & 0xFFFF_FFFF;
            if rng.gen_bool(0.15) {
                // Uniform values: one comparison per CTA.
                t.enq_off_tx = 0;
                t.enq_off_ty = 0;
            }
            t.enq_gran = rng.gen_range(0..3);
        } else {
            t.enq_gran = match elem {
                1 | 3 => gran::BYTE,
                2 => gran::HALF,
                _ => gran::WORD,
            };
            if rng.gen_bool(0.2) {
                t.enq_gran = rng.gen_range(0..3);
            }
            if self.guarded_run > 0 {
                self.guarded_run -= 1;
                t.enq_guard = rng.gen_bool(0.9);
            } else {
                t.enq_guard = rng.gen_bool(0.05);
            }
        }
        t
    }
}

/// A guard whose masks split warps: `tid CMP scalar` with the scalar
/// inside the block (one partial warp per CTA, or with EQ/NE one lane
/// apart), or an offset per thread of 2^28 .. 2^31 compared with 0, whose
/// values change sign every 8, 4, 2 or 1 lanes (masks with gaps in every
/// warp).
fn guard_shaped(mut t: DacIn, bdx: u64, rng: &mut ChaCha8Rng) -> DacIn {
    t.enq_cmp = rng.gen_range(cmp::LT..=cmp::NE);
    t.enq_off_cx = 0;
    t.enq_off_cy = 0;
    if rng.gen_bool(0.5) {
        t.enq_base = 0;
        t.enq_off_tx = 1;
        t.enq_off_ty = bdx;
        t.enq_scalar = rng.gen_range(0..1024);
    } else {
        t.enq_base = rng.gen_range(0..4) << 28;
        t.enq_off_tx = 1 << rng.gen_range(28..32);
        t.enq_off_ty = if rng.gen_bool(0.5) {
            t.enq_off_tx.wrapping_mul(bdx) & 0xFFFF_FFFF
        } else {
            rng.gen::<u32>() as u64
        };
        t.enq_scalar = 0;
    }
    t
}

/// A block shape whose CTA fits `n_warps` warps, mostly (one in ten may
/// not: its warps past `N_WARPS` are skipped).
fn fitting_shape(rng: &mut ChaCha8Rng, n_warps: u64) -> Shape {
    let any = rng.gen_bool(0.1);
    loop {
        let s = random_shape(rng);
        if any || s.warps() <= n_warps {
            return s;
        }
    }
}

/// A block shape: half 1-D (any size), half 2-D.
pub fn random_shape(rng: &mut ChaCha8Rng) -> Shape {
    if rng.gen_bool(0.5) {
        let threads = match rng.gen_range(0..4) {
            0 => 32 * rng.gen_range(1..=8u64),
            1 => rng.gen_range(1..=1024u64),
            2 => [128u64, 256, 512, 1024][rng.gen_range(0..4)],
            _ => rng.gen_range(1..=100u64),
        };
        let k = threads.next_power_of_two().trailing_zeros() as u64;
        Shape { k, threads }
    } else {
        let k = rng.gen_range(0..=9u64);
        let bdx = 1u64 << k;
        let bdy = rng.gen_range(1..=(1024 / bdx).min(32));
        Shape {
            k,
            threads: bdx * bdy,
        }
    }
}

impl Stimulus<DacExpander> for DacRandom {
    fn next(&mut self, _cycle: u64, last: &DacOut) -> DacIn {
        let mut rng = std::mem::replace(&mut self.rng, ChaCha8Rng::seed_from_u64(0));
        let mut i = self.shape.cfg();
        // A new kernel now and then, with the reset that starts it.
        if rng.gen_bool(0.0004) {
            self.shape = fitting_shape(&mut rng, self.n_warps);
            self.active.iter_mut().for_each(|a| *a = false);
            self.last_tuple = None;
            self.sweep = 0;
            self.guarded_run = 0;
            let mut r = self.shape.cfg();
            r.reset = true;
            self.rng = rng;
            return r;
        }
        // CTAs come and go.
        let usable = self.usable_slots();
        if rng.gen_bool(0.03) {
            let any = rng.gen_bool(0.03);
            let lim = if any || usable == 0 {
                self.n_cta
            } else {
                usable
            };
            let s = rng.gen_range(0..lim);
            if !self.active[s as usize] || any {
                i.cta_launch_valid = true;
                i.cta_launch_slot = s;
                i.cta_launch_x = if rng.gen_bool(0.1) {
                    rng.gen_range(0..=0xFFFFu64)
                } else {
                    rng.gen_range(0..64)
                };
                i.cta_launch_y = if rng.gen_bool(0.1) {
                    rng.gen_range(0..=0xFFFFu64)
                } else {
                    rng.gen_range(0..16)
                };
                self.active[s as usize] = true;
            }
        }
        if rng.gen_bool(0.01) {
            let s = rng.gen_range(0..self.n_cta);
            i.cta_done_valid = true;
            i.cta_done_slot = s;
            self.active[s as usize] = false;
        }
        // Tuples in bursts; the same tuple is held while the ATQ is full.
        if rng.gen_bool(if self.enq_phase { 0.03 } else { 0.08 }) {
            self.enq_phase = !self.enq_phase;
        }
        if let Some(t) = self.last_tuple.filter(|_| !last.enq_ready) {
            copy_tuple(&mut i, &t);
        } else if self.enq_phase && rng.gen_bool(0.1) {
            let t = self.tuple(&mut rng);
            copy_tuple(&mut i, &t);
            self.last_tuple = Some(t);
        } else {
            self.last_tuple = None;
        }
        // Memory back-pressure in stretches.
        if rng.gen_bool(if self.mem_phase { 0.02 } else { 0.1 }) {
            self.mem_phase = !self.mem_phase;
        }
        i.mem_ready = rng.gen_bool(if self.mem_phase { 0.9 } else { 0.1 });
        // Dequeues: the rate changes in phases.
        if rng.gen_bool(0.005) {
            self.deq_rate = [0.1, 0.6, 0.9, 1.0, 1.0][rng.gen_range(0..5)];
        }
        if rng.gen_bool(self.deq_rate) {
            // Mostly the warps in order, both kinds (as warps progress
            // through their instructions); now and then any warp.
            i.deq_valid = true;
            let w = (self.shape.warps().max(1) * usable.max(1)).min(self.warp_ids);
            if rng.gen_bool(0.05) {
                i.deq_kind = rng.gen_range(0..2);
                i.deq_warp = if rng.gen_bool(0.3) {
                    rng.gen_range(0..self.warp_ids)
                } else {
                    rng.gen_range(0..w)
                };
            } else {
                // The next (warp, kind) after a miss; after a hit, often the
                // same again (a warp taking several records).
                if !(last.rsp_valid && last.rsp_hit) || rng.gen_bool(0.5) {
                    self.sweep = (self.sweep + 1) % (2 * w);
                }
                i.deq_warp = (self.sweep / 2) % w;
                i.deq_kind = self.sweep % 2;
            }
        }
        self.rng = rng;
        i
    }

    fn describe(&self) -> String {
        format!("random(seed={})", self.seed)
    }
}

fn copy_tuple(i: &mut DacIn, t: &DacIn) {
    i.enq_valid = true;
    i.enq_kind = t.enq_kind;
    i.enq_base = t.enq_base;
    i.enq_off_tx = t.enq_off_tx;
    i.enq_off_ty = t.enq_off_ty;
    i.enq_off_cx = t.enq_off_cx;
    i.enq_off_cy = t.enq_off_cy;
    i.enq_gran = t.enq_gran;
    i.enq_cmp = t.enq_cmp;
    i.enq_scalar = t.enq_scalar;
    i.enq_guard = t.enq_guard;
}

/// A spec scenario: after reset, one CTA (index 0, slot 0) of `shape`, one
/// word-granularity ADDR tuple `(base, off_tx)`, idle cycles, then warp 0,
/// 1, ... dequeue their address records one per two cycles until each has
/// taken `records[w]` of them. Returns the inputs; the responses appear on
/// `rsp_*` the cycle after each dequeue.
pub fn scenario(shape: Shape, base: u64, off_tx: u64, records: &[u64]) -> Vec<DacIn> {
    let cfg = shape.cfg();
    let mut seq = vec![DacIn { reset: true, ..cfg }; 2];
    seq.push(DacIn {
        cta_launch_valid: true,
        ..cfg
    });
    seq.push(DacIn {
        enq_valid: true,
        enq_kind: kind::ADDR,
        enq_base: base,
        enq_off_tx: off_tx,
        enq_gran: gran::WORD,
        ..cfg
    });
    seq.extend(std::iter::repeat_n(cfg, 40));
    for (w, &n) in records.iter().enumerate() {
        for _ in 0..n {
            seq.push(DacIn {
                deq_valid: true,
                deq_warp: w as u64,
                ..cfg
            });
            seq.push(cfg);
        }
    }
    seq.extend(std::iter::repeat_n(cfg, 4));
    seq
}

/// A record as a dequeue returns it: `(warp, addr, mask, last)`.
pub type Rec = (u64, u64, u64, bool);

/// The spec's three scenarios (paper Figures 1, 5 and the 8-byte offset):
/// name, inputs, and the records the dequeues must return, in order.
pub fn spec_scenarios() -> Vec<(&'static str, Vec<DacIn>, Vec<Rec>)> {
    let one = Shape { k: 5, threads: 32 };
    let two = Shape { k: 6, threads: 64 };
    vec![
        (
            "dac.md scenario 1 (Figure 1, operand A)",
            scenario(one, 0x100, 4, &[1]),
            vec![(0, 0x100, 0xFFFF_FFFF, true)],
        ),
        (
            "dac.md scenario 2 (Figure 5)",
            scenario(two, 0x81000, 4, &[1, 1]),
            vec![
                (0, 0x81000, 0xFFFF_FFFF, true),
                (1, 0x81080, 0xFFFF_FFFF, true),
            ],
        ),
        (
            "dac.md scenario 3 (offset 8)",
            scenario(one, 0x2000, 8, &[2]),
            vec![
                (0, 0x2000, 0x5555_5555, false),
                (0, 0x2080, 0x5555_5555, true),
            ],
        ),
    ]
}

/// The contract's guard scenario ("Guard masks (revision 2)"): a 64-thread
/// CTA, memory always ready; guard `tid.x < 40`, guarded DATA (0x1000, 4),
/// guard `tid.x < 32`, guarded ADDR (0x2000, 4), guard `tid.x != 1`,
/// guarded ADDR (0x3000, 4); then warp 0 dequeues its four address
/// records, warp 1 its two and its three predicate masks. Returns the
/// name, the inputs and the responses the dequeues must return (a
/// predicate shows as `(warp, 0, mask, false)`); `stat_guard_skips` ends at
/// 1.
pub fn guard_scenario() -> (&'static str, Vec<DacIn>, Vec<Rec>) {
    let cfg = DacIn {
        mem_ready: true,
        ..Shape { k: 6, threads: 64 }.cfg()
    };
    let tuple = |kind: u64, base: u64, off_tx: u64, cmp: u64, scalar: u64| DacIn {
        enq_valid: true,
        enq_kind: kind,
        enq_base: base,
        enq_off_tx: off_tx,
        enq_gran: gran::WORD,
        enq_cmp: cmp,
        enq_scalar: scalar,
        enq_guard: true,
        ..cfg
    };
    let mut seq = vec![DacIn { reset: true, ..cfg }; 2];
    seq.push(DacIn {
        cta_launch_valid: true,
        ..cfg
    });
    for t in [
        tuple(kind::PRED, 0, 1, cmp::LT, 40),
        tuple(kind::DATA, 0x1000, 4, 0, 0),
        tuple(kind::PRED, 0, 1, cmp::LT, 32),
        tuple(kind::ADDR, 0x2000, 4, 0, 0),
        tuple(kind::PRED, 0, 1, cmp::NE, 1),
        tuple(kind::ADDR, 0x3000, 4, 0, 0),
    ] {
        seq.push(t);
    }
    seq.extend(std::iter::repeat_n(cfg, 60));
    for (warp, kind, n) in [(0, 0, 4), (1, 0, 2), (1, 1, 3)] {
        for _ in 0..n {
            seq.push(DacIn {
                deq_valid: true,
                deq_warp: warp,
                deq_kind: kind,
                ..cfg
            });
            seq.push(cfg);
        }
    }
    seq.extend(std::iter::repeat_n(cfg, 4));
    let want = vec![
        (0, 0x1000, 0xFFFF_FFFF, true),
        (0, 0x2000, 0xFFFF_FFFF, true),
        (0, 0x3000, 0x0000_0001, false),
        (0, 0x3000, 0xFFFF_FFFC, true),
        (1, 0x1080, 0x0000_00FF, true),
        (1, 0x3080, 0xFFFF_FFFF, true),
        (1, 0, 0x0000_00FF, false),
        (1, 0, 0, false),
        (1, 0, 0xFFFF_FFFF, false),
    ];
    ("dac_expander.md guard scenario (revision 2)", seq, want)
}

/// The records returned by the dequeues of a run: `(warp, addr, mask,
/// last)` for every response with `rsp_hit`, given the inputs and the
/// outputs of each cycle.
pub fn responses(ins: &[DacIn], outs: &[DacOut]) -> Vec<Rec> {
    let mut v = Vec::new();
    for c in 1..ins.len().min(outs.len()) {
        let o = &outs[c];
        if o.rsp_valid && o.rsp_hit {
            v.push((ins[c - 1].deq_warp, o.rsp_addr, o.rsp_mask, o.rsp_last));
        }
    }
    v
}

impl CosimUnit for DacExpander {
    const SUMMARY: &'static str =
        "DAC expansion datapath (tuple queue, address and predicate expansion, per-warp queues)";
    const SPEC: &'static str = "spec/dac.md";
    const DOC: &'static str = "docs/units/dac_expander.md";
    const SUITE_SEEDS: (u64, u64) = (700, 710);
    /// The document's "Latency" table (`tests/tests/dac_latency.rs` checks
    /// every row on the golden model and on both RTL back-ends). The paper
    /// makes no latency claim for the expander.
    const LATENCIES: &'static [Latency] = &[
        Latency {
            what: "deq_valid at edge t -> rsp_* (hit or miss) in the cycle after t",
            cycles: 1,
            claimed: false,
        },
        Latency {
            what: "tuple accepted at edge t (expander idle, a CTA active, queue empty) -> \
                   its first record on rsp_* (a dequeue at edge t+5 hits, one at t+4 misses)",
            cycles: 6,
            claimed: false,
        },
        Latency {
            what: "DATA tuple accepted at edge t (expander idle, mem_valid 0) -> its first \
                   line on mem_valid/mem_addr",
            cycles: 5,
            claimed: false,
        },
        Latency {
            what: "records of one warp back to back: record k+1 pushed one edge after \
                   record k (no stall)",
            cycles: 1,
            claimed: false,
        },
        Latency {
            what: "a tuple's last record pushed at edge t -> the next queued tuple's first \
                   record pushed at edge t+5 (the finished tuple's leave cycle, the next \
                   one's start and two setup cycles between)",
            cycles: 5,
            claimed: false,
        },
    ];
    fn random_stimulus(p: &DacParams, seed: u64) -> Box<dyn Stimulus<Self> + Send> {
        Box::new(DacRandom::new(p, seed))
    }
    fn scenarios() -> Vec<(String, DacParams, Vec<DacIn>)> {
        spec_scenarios()
            .into_iter()
            .chain([guard_scenario()])
            .map(|(name, seq, _)| (name.to_string(), DacParams::default(), seq))
            .collect()
    }

    /// The paper's; a small SM (8 warps, a 4-entry ATQ, per-warp queues of
    /// 2); 64 warps.
    fn suite() -> Vec<DacParams> {
        let d = DacParams::default();
        vec![
            d.clone(),
            DacParams {
                N_WARPS: 8,
                ATQ_DEPTH: 4,
                PWAQ_DEPTH: 2,
                PWPQ_DEPTH: 2,
                ..d.clone()
            },
            DacParams { N_WARPS: 64, ..d },
        ]
    }

    /// Induction does not close (a counterexample to induction on
    /// `enq_ready_count` from an unreachable state): BMC only.
    const INDUCTION_DEPTH: u32 = 0;

    const PAPER_AREA: Option<PaperArea> = Some(PaperArea {
        mm2_per_sm: Some(0.21),
        quote: "DAC paper: SRAM components 0.21 mm^2 per SM (CACTI) + 2 ALUs 0.16 mm^2; \
                1.06 % of the GTX 480 die (520 mm^2)",
    });

    const MEMORY_TABLES: &'static [(&'static str, &'static str)] = &[
        // One module type holds the head and tail pointers of both queues.
        ("aq__heads", "PWAQ+PWPQ"),
        ("aq__", "PWAQ"),
        ("pq__", "PWPQ"),
        ("gmem", "guard masks"),
    ];

    const FLIP_FLOP_TABLES: &'static [(&'static str, &'static str)] = &[(
        "ATQ",
        "four hdl::queue::ShiftQueue lanes: a shift register (a pop moves every \
         entry, registers with reset), not a memory module; stays flip-flops",
    )];
}
