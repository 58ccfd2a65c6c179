//! `caps_prefetcher` in the co-simulation framework: random stimulus biased
//! to real CAPS situations, and the spec's Figure 9 scenarios.

use ports::caps::{CapsIn, CapsOut, CapsParams, CapsPrefetcher, MAX_ADDR_PORTS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::stimulus::Stimulus;
use crate::unit::{CosimUnit, Latency, LatencyClaim, PaperArea};

/// How one load PC of the synthetic kernel behaves.
#[derive(Clone, Copy, Debug)]
enum PcKind {
    /// Base per CTA plus a per-warp stride: what CAPS is for.
    Strided,
    /// Strided, but 3 loads in 10 are off: mispredictions cross the threshold.
    Noisy,
    /// Every warp reads the same addresses (stride 0).
    Broadcast,
    /// Unrelated addresses.
    Random,
}

#[derive(Clone, Debug)]
struct Pc {
    pc: u64,
    kind: PcKind,
    stride: u64,
    n: u64,
    indirect: bool,
}

/// Random stimulus for CAPS: a synthetic kernel of a few load PCs (strided,
/// noisy, broadcast, random; some multi-address, one occasionally marked
/// indirect) run by `N_CTA` CTAs whose warps issue mostly in order with the
/// leading warp first, CTA relaunches with new bases, rare resets, and
/// `pf_ready` that alternates between long ready and stalled stretches.
pub struct CapsRandom {
    p: CapsParams,
    seed: u64,
    rng: ChaCha8Rng,
    warps: u64,
    pcs: Vec<Pc>,
    /// Per CTA slot: base address of the CTA.
    cta_base: Vec<u64>,
    /// Per CTA slot: next warp to issue per PC (in-order issue).
    next_warp: Vec<Vec<u64>>,
    ready_phase: bool,
    launch_pending: Vec<bool>,
}

impl CapsRandom {
    /// A generator for `p` with `seed`.
    pub fn new(p: &CapsParams, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let max_w = (1u64 << p.WARP_IDX_W) - 1;
        let warps = rng.gen_range(2.min(max_w)..=max_w.min(12)).max(1);
        let n_pcs = rng.gen_range(2..=4usize.min(p.DIST_ENTRIES as usize + 2).max(2));
        let kinds = [
            PcKind::Strided,
            PcKind::Noisy,
            PcKind::Broadcast,
            PcKind::Random,
        ];
        let pcs = (0..n_pcs)
            .map(|i| {
                let kind = if i == 0 {
                    PcKind::Strided
                } else if i == 1 {
                    PcKind::Noisy
                } else {
                    kinds[rng.gen_range(0..kinds.len())]
                };
                let strides = [0x80u64, 0x100, 0x200, 0x1000, 0u64.wrapping_sub(0x100)];
                Pc {
                    pc: 0x100 + 0x10 * i as u64,
                    kind,
                    stride: strides[rng.gen_range(0..strides.len())],
                    n: rng.gen_range(1..=p.MAX_ADDRS),
                    indirect: rng.gen_bool(0.1),
                }
            })
            .collect();
        let n = p.N_CTA as usize;
        let mut s = CapsRandom {
            p: p.clone(),
            seed,
            rng,
            warps,
            pcs,
            cta_base: vec![0; n],
            next_warp: vec![vec![0; 8]; n],
            ready_phase: true,
            launch_pending: vec![true; n],
        };
        for c in 0..n {
            s.new_cta(c);
        }
        s
    }

    fn new_cta(&mut self, c: usize) {
        self.cta_base[c] = self.rng.gen_range(0..1u64 << 20) << 12;
        self.next_warp[c] = vec![0; 8];
    }

    fn warp_for(&mut self, c: usize, pc_idx: usize) -> u64 {
        // Mostly in order, leading warp first; sometimes any warp.
        if self.rng.gen_bool(0.8) {
            let w = self.next_warp[c][pc_idx] % self.warps;
            self.next_warp[c][pc_idx] += 1;
            w
        } else {
            self.rng.gen_range(0..self.warps)
        }
    }
}

impl Stimulus<CapsPrefetcher> for CapsRandom {
    fn next(&mut self, _cycle: u64, _last: &CapsOut) -> CapsIn {
        let mut i = CapsIn {
            cfg_warps_per_cta: self.warps,
            reset: self.rng.gen_bool(0.0002),
            ..Default::default()
        };
        // Back-pressure in stretches.
        if self.rng.gen_bool(if self.ready_phase { 0.02 } else { 0.1 }) {
            self.ready_phase = !self.ready_phase;
        }
        i.pf_ready = if self.ready_phase {
            self.rng.gen_bool(0.95)
        } else {
            self.rng.gen_bool(0.05)
        };
        // CTA launches: at the start, then occasional relaunches.
        let n = self.p.N_CTA as usize;
        if let Some(c) = self.launch_pending.iter().position(|&b| b) {
            self.launch_pending[c] = false;
            i.cta_launch_valid = true;
            i.cta_launch_slot = c as u64;
        } else if self.rng.gen_bool(0.002) {
            let c = self.rng.gen_range(0..n);
            self.new_cta(c);
            i.cta_launch_valid = true;
            i.cta_launch_slot = c as u64;
        }
        if self.rng.gen_bool(0.5) {
            let c = self.rng.gen_range(0..n);
            let k = self.rng.gen_range(0..self.pcs.len());
            let w = self.warp_for(c, k);
            let pc = self.pcs[k].clone();
            let base = self.cta_base[c].wrapping_add(pc.pc << 16);
            let mut addrs = [0u64; MAX_ADDR_PORTS];
            for (j, a) in addrs.iter_mut().enumerate().take(pc.n as usize) {
                let line = (j as u64) * 128;
                *a = match pc.kind {
                    PcKind::Strided => base.wrapping_add(w.wrapping_mul(pc.stride)) + line,
                    PcKind::Noisy => {
                        let off = if self.rng.gen_bool(0.3) { 0x40 } else { 0 };
                        base.wrapping_add(w.wrapping_mul(pc.stride)) + line + off
                    }
                    PcKind::Broadcast => base + line,
                    PcKind::Random => self.rng.gen(),
                };
            }
            i.ld_valid = true;
            i.ld_pc = pc.pc;
            i.ld_cta = c as u64;
            i.ld_warp = w;
            i.ld_count = if self.rng.gen_bool(0.03) {
                self.rng.gen_range(0..=32)
            } else {
                pc.n
            };
            i.ld_addr = addrs;
            i.ld_indirect = pc.indirect && self.rng.gen_bool(0.5);
        }
        i
    }

    fn describe(&self) -> String {
        format!("random(seed={})", self.seed)
    }
}

/// The paper's Figure 9: three CTAs in slots 0, 1, 2, three warps each, one
/// load PC, one request per warp; warp i of CTA X reads `baseX + 0x100 * i`.
/// `order` lists (cta, warp) in issue order; loads are `gap` cycles apart.
pub fn figure9(order: &[(u64, u64)], gap: usize) -> (CapsParams, Vec<CapsIn>) {
    let p = CapsParams::default();
    let bases = [0x1000_0000u64, 0x2000_0000, 0x3000_0000];
    let idle = CapsIn {
        cfg_warps_per_cta: 3,
        pf_ready: true,
        ..Default::default()
    };
    let mut seq = vec![
        CapsIn {
            reset: true,
            ..idle
        };
        2
    ];
    for c in 0..3 {
        seq.push(CapsIn {
            cta_launch_valid: true,
            cta_launch_slot: c,
            ..idle
        });
    }
    for &(c, w) in order {
        let mut ld = CapsIn {
            ld_valid: true,
            ld_pc: 0x40,
            ld_cta: c,
            ld_warp: w,
            ld_count: 1,
            ..idle
        };
        ld.ld_addr[0] = bases[c as usize] + 0x100 * w;
        seq.push(ld);
        for _ in 1..gap {
            seq.push(idle);
        }
    }
    seq.extend(std::iter::repeat_n(idle, 20));
    (p, seq)
}

impl CosimUnit for CapsPrefetcher {
    const SUMMARY: &'static str = "CTA-aware prefetcher (PerCTA, DIST, generator)";
    const SPEC: &'static str = "spec/caps.md";
    const DOC: &'static str = "docs/units/caps_prefetcher.md";
    const SUITE_SEEDS: (u64, u64) = (300, 400);
    fn random_stimulus(p: &CapsParams, seed: u64) -> Box<dyn Stimulus<Self> + Send> {
        Box::new(CapsRandom::new(p, seed))
    }
    fn scenarios() -> Vec<(String, CapsParams, Vec<CapsIn>)> {
        let (pa, a) = figure9(&[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)], 8);
        let (pb, b) = figure9(&[(0, 0), (0, 1), (1, 0), (2, 0)], 8);
        vec![
            ("caps.md Figure 9 (a)".into(), pa, a),
            ("caps.md Figure 9 (b)".into(), pb, b),
        ]
    }

    /// The paper's; 2 CTAs x 2 PerCTA x 1 DIST with depth-1 queues; 16
    /// CTAs; a 4-bit counter with threshold 3 (mispredictions cross it
    /// quickly).
    fn suite() -> Vec<CapsParams> {
        let d = CapsParams::default();
        vec![
            d.clone(),
            CapsParams {
                N_CTA: 2,
                PERCTA_ENTRIES: 2,
                DIST_ENTRIES: 1,
                JOBQ_DEPTH: 1,
                PFQ_DEPTH: 1,
                MAX_ADDRS: 2,
                // The first spec's rule 2 (both values of LOOP_JOBS run).
                LOOP_JOBS: 0,
                ..d.clone()
            },
            CapsParams {
                N_CTA: 16,
                ..d.clone()
            },
            CapsParams {
                CNT_W: 4,
                MISPRED_THRESHOLD: 3,
                // Both values of CNT_DECAY run.
                CNT_DECAY: 1,
                ..d
            },
        ]
    }

    /// 1-induction closes.
    const INDUCTION_DEPTH: u32 = 1;

    const LATENCY_CLAIM: Option<LatencyClaim> = Some(LatencyClaim {
        claim:
            "CAPS (spec caps.md): a prefetch appears on pf_* no later than 3 cycles after its load",
        cycles: 3,
    });

    /// The document's "Latency" table; `tests/tests/caps_latency.rs`
    /// checks every row on the golden model and on the RTL.
    const LATENCIES: &'static [Latency] = &[
        Latency {
            what: "load accepted at edge t (a leading warp whose stride is known: job B; \
                   queues empty, pf_ready = 1) -> its first prefetch valid on pf_*",
            cycles: 9,
            claimed: true,
        },
        Latency {
            what: "a job's prefetch on pf_* -> the job's next prefetch on pf_* (pf_ready = 1)",
            cycles: 1,
            claimed: false,
        },
        Latency {
            what: "load accepted at edge t -> a load accepted at edge t + 1 sees its table \
                   update (back-to-back loads, always accepted)",
            cycles: 1,
            claimed: false,
        },
    ];

    const PAPER_AREA: Option<PaperArea> = Some(PaperArea {
        mm2_per_sm: Some(0.018),
        quote: "CAPS paper: 0.018 mm^2 (CACTI, 45 nm FreePDK, PerCTA as SRAM) = 0.08 % of one \
                GF100 SM (22 mm^2)",
    });

    const MEMORY_TABLES: &'static [(&'static str, &'static str)] = &[("cols__", "PerCTA")];

    const FLIP_FLOP_TABLES: &'static [(&'static str, &'static str)] = &[(
        "DIST",
        "looked up by pc (load and generator) in every entry at once (registers, \
         hdl/src/caps/dist.rs); stays flip-flops",
    )];
}
