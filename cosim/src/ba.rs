//! `ba_tag_array` in the co-simulation framework: random stimulus biased to
//! hits, full sets, bypasses, pseudo-hits, stores, flushes and resets; and
//! the spec scenario.

use ports::ba::{BaIn, BaOut, BaParams, BaTagArray};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::stimulus::Stimulus;
use crate::unit::{CosimUnit, Latency, PaperArea};

/// Random stimulus for the tag array. Each run picks a few "hot" sets and,
/// per hot set, a pool of `WAYS + 3` tags, so sets fill, lines get reused,
/// bypass tags get touched again (pseudo-hits) and victims are chosen among
/// mixed reuse bits. A small share of requests go to random addresses
/// (including bits above `ADDR_W`), about 15 % are stores, and flushes and
/// resets happen rarely in the middle of the run.
///
/// Reserved ways (`req_resv`, issue 27) come from a second generator, so
/// the requests themselves are the same as before the port existed: 40 %
/// of the requests reserve nothing, 20 % reserve every way (a load of an
/// absent tag then BYPASSes with nothing stored under BA, or answers
/// RESV_FAIL under LRU and for a prefetch fill), and 40 % a random mask
/// (each way with probability 1/2: reserved victims skipped, bypasses
/// beside reserved ways, the threshold over the ways left).
pub struct BaRandom {
    p: BaParams,
    seed: u64,
    rng: ChaCha8Rng,
    resv_rng: ChaCha8Rng,
    hot_sets: Vec<u64>,
    tags: Vec<Vec<u64>>,
    /// Probability of a request in a cycle.
    pub p_req: f64,
}

impl BaRandom {
    /// A generator for `p` with `seed`.
    pub fn new(p: &BaParams, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n_hot = rng.gen_range(1..=3.min(p.SETS as usize));
        let hot_sets: Vec<u64> = (0..n_hot).map(|_| rng.gen_range(0..p.SETS)).collect();
        let max_tag = 1u64 << p.tag_bits().min(63);
        let tags = hot_sets
            .iter()
            .map(|_| {
                (0..p.WAYS + 3)
                    .map(|_| rng.gen_range(0..max_tag))
                    .collect::<Vec<u64>>()
            })
            .collect();
        BaRandom {
            p: p.clone(),
            seed,
            rng,
            hot_sets,
            tags,
            resv_rng: ChaCha8Rng::seed_from_u64(seed ^ 0x7265_7376),
            p_req: 0.85,
        }
    }

    /// The reserved-way mask of the next cycle.
    fn resv(&mut self) -> u64 {
        let all = ports::mask(self.p.WAYS as u32);
        let r = &mut self.resv_rng;
        match r.gen_range(0..10) {
            0..=3 => 0,
            4..=5 => all,
            _ => r.gen::<u64>() & all,
        }
    }

    fn addr(&mut self) -> u64 {
        let p = &self.p;
        if self.rng.gen_bool(0.05) {
            // Anything, including bits above ADDR_W.
            return self.rng.gen();
        }
        let h = self.rng.gen_range(0..self.hot_sets.len());
        let pool = &self.tags[h];
        // Skewed choice: low-index tags are reused far more often.
        let i = {
            let a = self.rng.gen_range(0..pool.len());
            let b = self.rng.gen_range(0..pool.len());
            if self.rng.gen_bool(0.6) {
                a.min(b)
            } else {
                a
            }
        };
        let line = pool[i] * p.SETS + self.hot_sets[h];
        line * p.LINE_BYTES + self.rng.gen_range(0..p.LINE_BYTES)
    }
}

impl Stimulus<BaTagArray> for BaRandom {
    fn next(&mut self, _cycle: u64, _last: &BaOut) -> BaIn {
        let req_valid = self.rng.gen_bool(self.p_req);
        let req_addr = if req_valid { self.addr() } else { 0 };
        let req_write = req_valid && self.rng.gen_bool(0.15);
        BaIn {
            reset: self.rng.gen_bool(0.0005),
            req_valid,
            req_addr,
            req_write,
            // Prefetch fills among the loads (and, rarely, on a store, where
            // the bit must be ignored).
            req_prefetch: req_valid && self.rng.gen_bool(if req_write { 0.05 } else { 0.2 }),
            req_resv: self.resv(),
            flush: self.rng.gen_bool(0.002),
        }
    }
    fn describe(&self) -> String {
        format!("random(seed={})", self.seed)
    }
}

/// A load to `addr`.
pub fn load(addr: u64) -> BaIn {
    BaIn {
        req_valid: true,
        req_addr: addr,
        ..Default::default()
    }
}

/// The spec scenario: one set, WAYS = 2, REUSE_THRESHOLD = 1; lines A, B,
/// C, D: A MISS, B MISS, A HIT, C BYPASS, C PSEUDO_HIT, D BYPASS, C HIT.
/// Returns the parameters, the inputs (two reset cycles first) and the
/// line addresses A..D.
pub fn spec_scenario() -> (BaParams, Vec<BaIn>, [u64; 4]) {
    let p = BaParams {
        SETS: 1,
        WAYS: 2,
        REUSE_THRESHOLD: Some(1),
        ..Default::default()
    };
    let lines = [0x1000u64, 0x2000, 0x3000, 0x4000];
    let [a, b, c, d] = lines;
    let reset = BaIn {
        reset: true,
        ..Default::default()
    };
    let mut seq = vec![reset, reset];
    for addr in [a, b, a, c, c, d, c] {
        seq.push(load(addr));
    }
    // Two idle cycles: the last response is on the outputs after the
    // second edge after its request.
    seq.push(BaIn::default());
    seq.push(BaIn::default());
    (p, seq, lines)
}

impl CosimUnit for BaTagArray {
    const SUMMARY: &'static str = "Bypass-Aware L1 tag array (reuse + bypass bit per line)";
    const SPEC: &'static str = "spec/ba_cache.md";
    const DOC: &'static str = "docs/units/ba_tag_array.md";
    const SUITE_SEEDS: (u64, u64) = (100, 200);

    /// `docs/units/ba_tag_array.md`, "Latency" (issue 29: two pipeline
    /// stages, the second stage's write forwarded to the first).
    const LATENCIES: &'static [Latency] = &[
        Latency {
            what: "request accepted at edge t -> its response on rsp_*",
            cycles: 2,
            claimed: false,
        },
        Latency {
            what:
                "request accepted at edge t -> a request at edge t + 1 (same set) sees its update",
            cycles: 1,
            claimed: false,
        },
        Latency {
            what: "flush at edge t -> the request accepted at edge t sees the array empty",
            cycles: 0,
            claimed: false,
        },
    ];
    fn random_stimulus(p: &BaParams, seed: u64) -> Box<dyn Stimulus<Self> + Send> {
        Box::new(BaRandom::new(p, seed))
    }
    fn scenarios() -> Vec<(String, BaParams, Vec<BaIn>)> {
        let (p, seq, _) = spec_scenario();
        vec![("ba_cache.md scenario".into(), p, seq)]
    }

    /// The paper's 16 x 8, 32 x 4 and 1 x 2, each with the bypass-aware
    /// policy on and off; then each with the second reading
    /// (`BA_POLICY = 1`).
    fn suite() -> Vec<BaParams> {
        let mut v = Vec::new();
        let geometries = [(16, 8), (32, 4), (1, 2)];
        for (sets, ways) in geometries {
            for ba in [1, 0] {
                v.push(BaParams {
                    SETS: sets,
                    WAYS: ways,
                    BA_ENABLE: ba,
                    ..Default::default()
                });
            }
        }
        for (sets, ways) in geometries {
            v.push(BaParams {
                SETS: sets,
                WAYS: ways,
                BA_POLICY: 1,
                ..Default::default()
            });
        }
        v
    }

    /// Induction does not close (the ranks of 16 sets x 8 ways in
    /// memories; not finished in minutes): BMC only.
    const INDUCTION_DEPTH: u32 = 0;

    /// BMC to depth 3: with `req_resv` a free input of eight bits per step
    /// (issue 27), z3 did not finish step 3 of the 16 x 8 array within the
    /// 10-minute limit; steps 0-2 take about half a minute. With the two
    /// pipeline stages (issue 29) that covers little beyond the reset; the
    /// small configuration in `hdl/formal/small/` is checked to depth 6
    /// (`gen::formal::small_settings`).
    const BMC_DEPTH: u32 = 3;

    const PAPER_AREA: Option<PaperArea> = Some(PaperArea {
        mm2_per_sm: None,
        quote: "BA thesis: 2 extra bits per line (256 bits at 16 KB); no area figure",
    });

    const MEMORY_TABLES: &'static [(&'static str, &'static str)] = &[("ways__", "line")];

    const FLIP_FLOP_TABLES: &'static [(&'static str, &'static str)] = &[(
        "line",
        "valid bits: one register with reset per way (hdl/src/ba/mod.rs); the \
         other line fields are the memories above",
    )];

    /// The same array with `BA_ENABLE = 0` (a plain LRU tag array), for
    /// BA's overhead.
    fn timing_baseline(p: &BaParams) -> Option<(&'static str, BaParams)> {
        Some((
            "the same array with BA_ENABLE = 0 (LRU only)",
            BaParams {
                BA_ENABLE: 0,
                ..p.clone()
            },
        ))
    }
}
