//! Tests of the `snake_prefetcher` golden model: the spec's Figure-15
//! scenario, the contract's timing, each training and prefetching rule on
//! its own, the throttle, and properties over random stimulus.

use proptest::prelude::*;

use super::*;

/// A prefetch as seen on the port: `(addr, warp, kind)`.
type Pf = (u64, u64, u64);

/// One transfer on `pf_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Transfer {
    /// Edge ending the first cycle in which the prefetch was on `pf_*`.
    offered: u64,
    /// Edge at which it was taken (`pf_valid` and `pf_ready`).
    taken: u64,
    /// The prefetch.
    pf: Pf,
}

/// Test bench: drives the model edge by edge, starting with one reset
/// edge (not counted), and records every prefetch transferred on `pf_*`.
///
/// Edges are numbered from 0 after the reset edge; "cycle e" is the cycle
/// that ends at edge e, whose inputs edge e applies. [`Tb::edge`] returns
/// the number of the edge it applies.
struct Tb {
    m: SnakeModel,
    next_edge: u64,
    pf_ready: bool,
    /// Edge ending the first cycle the current head of the output queue was
    /// offered in.
    offered: Option<u64>,
    got: Vec<Transfer>,
}

impl Tb {
    fn new(params: &SnakeParams) -> Tb {
        let mut m = SnakeModel::new(params);
        m.step(&SnakeIn {
            reset: true,
            ..SnakeIn::default()
        });
        Tb {
            m,
            next_edge: 0,
            pf_ready: true,
            offered: None,
            got: Vec::new(),
        }
    }

    /// One edge with `inputs` (`pf_ready` is the bench's); returns the edge
    /// number.
    fn edge(&mut self, inputs: SnakeIn) -> u64 {
        let inputs = SnakeIn {
            pf_ready: self.pf_ready,
            ..inputs
        };
        let out = self.m.outputs();
        let e = self.next_edge;
        if !out.pf_valid {
            assert_eq!(
                (out.pf_addr, out.pf_warp, out.pf_kind),
                (0, 0, 0),
                "pf_* are zero while pf_valid is 0"
            );
        }
        if out.pf_valid && self.offered.is_none() {
            self.offered = Some(e);
        }
        if inputs.reset {
            self.offered = None;
        } else if out.pf_valid && inputs.pf_ready {
            self.got.push(Transfer {
                offered: self.offered.take().expect("offered"),
                taken: e,
                pf: (out.pf_addr, out.pf_warp, out.pf_kind),
            });
        }
        self.m.step(&inputs);
        self.next_edge += 1;
        e
    }

    /// A uniform load of warp `w` at PC `pc`, address `addr`.
    fn ld(&mut self, w: u64, pc: u64, addr: u64) -> u64 {
        self.edge(load(w, pc, addr))
    }

    fn idle(&mut self, edges: usize) {
        for _ in 0..edges {
            self.edge(SnakeIn::default());
        }
    }

    /// Idle with `pf_ready = 1` until the walk queue and the output queue
    /// are empty (at most 1000 edges).
    fn drain(&mut self) {
        let ready = self.pf_ready;
        self.pf_ready = true;
        for _ in 0..1000 {
            if self.m.walk_queue().is_empty() && self.m.pfq_len() == 0 {
                self.pf_ready = ready;
                return;
            }
            self.idle(1);
        }
        panic!("the prefetcher does not drain");
    }

    /// The prefetches transferred so far, in order.
    fn seq(&self) -> Vec<Pf> {
        self.got.iter().map(|t| t.pf).collect()
    }

    /// The edges at which they were taken.
    fn taken(&self) -> Vec<u64> {
        self.got.iter().map(|t| t.taken).collect()
    }

    /// Forget the transfers recorded so far.
    fn forget(&mut self) {
        self.got.clear();
    }
}

fn load(w: u64, pc: u64, addr: u64) -> SnakeIn {
    SnakeIn {
        ld_valid: true,
        ld_warp: w,
        ld_pc: pc,
        ld_addr: addr,
        ld_uniform: true,
        ..SnakeIn::default()
    }
}

fn defaults() -> SnakeParams {
    SnakeParams::default()
}

/// Everything the model holds that the RTL holds.
type Snapshot = (
    Vec<HeadRow>,
    Vec<TailEntry>,
    Vec<usize>,
    Vec<WalkJob>,
    Walker,
    Vec<Prefetch>,
    u64,
    bool,
);

fn snapshot(m: &SnakeModel) -> Snapshot {
    (
        (0..m.params().N_WARPS).map(|w| m.head(w)).collect(),
        m.tail().to_vec(),
        m.recency().to_vec(),
        m.walk_queue(),
        m.walker(),
        m.pfq_entries(),
        m.throttle_count(),
        m.bw_halt(),
    )
}

fn valid_entries(m: &SnakeModel) -> Vec<(usize, TailEntry)> {
    m.tail()
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, e)| e.valid)
        .collect()
}

// ----- the Figure-15 scenario -----

const PC_A: u64 = 0x520;
const PC_B: u64 = 0x540;

/// Address of warp `w`'s load at `pc` in the Figure-15 scenario.
fn fig15(w: u64, pc: u64) -> u64 {
    if pc == PC_A {
        0x1000 + 0x100 * w
    } else {
        0x1064 + 0x100 * w
    }
}

/// The scenario's loads, in order.
const FIG15_LOADS: [(u64, u64); 7] = [
    (0, PC_A),
    (0, PC_B),
    (1, PC_A),
    (1, PC_B),
    (2, PC_A),
    (2, PC_B),
    (3, PC_A),
];

/// The scenario's prefetches, in order.
fn fig15_prefetches() -> Vec<Pf> {
    vec![
        (0x1364, 3, kind::CHAIN),
        (0x1400, 4, kind::INTER_WARP),
        (0x1500, 5, kind::INTER_WARP),
        (0x1600, 6, kind::INTER_WARP),
        (0x1700, 7, kind::INTER_WARP),
    ]
}

/// The scenario with three idle cycles after each load, checking the tables
/// after each load; then the exact prefetches and their cycles.
///
/// The gap is not needed for the outcome (no job before W3's 0x520 makes a
/// prefetch, and each ends in the cycle after its load, so the walk queue
/// never holds more than one job); it keeps each load's state on its own
/// and checks that every earlier job has ended (walk queue empty, walker in
/// its initial state) before the next load.
#[test]
fn scenario_figure15() {
    const GAP: usize = 3;
    let mut tb = Tb::new(&defaults());
    let mut t = 0;
    for (i, &(w, pc)) in FIG15_LOADS.iter().enumerate() {
        assert!(tb.m.walk_queue().is_empty(), "load {i}: earlier job ended");
        assert_eq!(tb.m.walker(), Walker::INITIAL);
        t = tb.ld(w, pc, fig15(w, pc));
        assert_eq!(t, (GAP as u64 + 1) * i as u64);
        assert_eq!(
            tb.m.head(w),
            HeadRow {
                valid: true,
                pc,
                addr: fig15(w, pc)
            }
        );
        let link = tb.m.find_link(PC_A, PC_B, 0x64);
        let a = tb.m.per_pc(PC_A);
        match i {
            0 => {
                // W0 0x520: Head only.
                assert!(valid_entries(&tb.m).is_empty());
            }
            1 => {
                // W0 0x540 allocates the link with wv = {0}, per-PC zero.
                assert_eq!(link, Some(0));
                assert_eq!(
                    tb.m.tail_entry(0),
                    Some(TailEntry {
                        valid: true,
                        pc1: PC_A,
                        pc2: PC_B,
                        stride: 0x64,
                        wv: 0b1,
                        t1: T1_UNTRAINED,
                        per_pc: PerPc::default(),
                    })
                );
                assert_eq!(tb.m.recency(), &[0]);
            }
            2 => {
                // W1 0x520 records the inter-warp history (warp 0 is not
                // part of it); no link (Head[1] was invalid).
                assert_eq!(valid_entries(&tb.m).len(), 1);
                assert_eq!(
                    a,
                    Some(PerPc {
                        iw_valid: true,
                        iw_warp: 1,
                        iw_addr: 0x1100,
                        ..PerPc::default()
                    })
                );
            }
            3 => {
                // W1 0x540 sets bit 1: t1 = 01.
                let e = tb.m.tail_entry(0).unwrap();
                assert_eq!((e.wv, e.t1), (0b11, T1_TWO_WARPS));
            }
            4 => {
                // W2 0x520: inter-warp candidate 0x100, iw_cnt = 1.
                let a = a.unwrap();
                assert_eq!(
                    (a.iw_warp, a.iw_addr, a.iw_stride, a.iw_cnt),
                    (2, 0x1200, 0x100, 1)
                );
            }
            5 => {
                // W2 0x540 sets bit 2 and promotes the link.
                let e = tb.m.tail_entry(0).unwrap();
                assert_eq!((e.wv, e.t1), (0b111, T1_PROMOTED));
            }
            _ => {
                // W3 0x520 confirms the inter-warp stride: iw_cnt = 2.
                let a = a.unwrap();
                assert_eq!(
                    (a.iw_warp, a.iw_addr, a.iw_stride, a.iw_cnt),
                    (3, 0x1300, 0x100, 2)
                );
                assert_eq!(valid_entries(&tb.m).len(), 1, "one entry in all");
                assert_eq!(tb.m.walk_queue().len(), 1);
            }
        }
        if i + 1 < FIG15_LOADS.len() {
            tb.idle(GAP);
        }
    }
    assert!(tb.got.is_empty(), "nothing before W3's 0x520");
    assert_eq!(t, 24);
    // During the cycle after edge t the walker works; nothing is offered.
    assert!(!tb.m.outputs().pf_valid);
    tb.idle(4);
    assert_eq!(tb.m.walk_queue().len(), 1, "job still there before t + 6");
    tb.idle(1); // edge t + 5
    tb.idle(1); // edge t + 6: takes 0x1700; the job ends
    assert!(tb.m.walk_queue().is_empty(), "the job ends at edge t + 6");
    assert_eq!(tb.seq(), fig15_prefetches());
    // Each is offered in the cycle it is taken: t + 2 .. t + 6.
    let expect: Vec<Transfer> = fig15_prefetches()
        .into_iter()
        .enumerate()
        .map(|(k, pf)| Transfer {
            offered: t + 2 + k as u64,
            taken: t + 2 + k as u64,
            pf,
        })
        .collect();
    assert_eq!(tb.got, expect);
    assert_eq!(tb.taken(), vec![26, 27, 28, 29, 30]);
    let s = tb.m.stats();
    assert_eq!((s.prefetches_chain, s.prefetches_inter), (1, 4));
    assert_eq!(
        (s.prefetches_intra, s.jobs_enqueued, s.jobs_completed),
        (0, 7, 7)
    );
    assert_eq!((s.link_allocations, s.link_hits, s.promotions), (1, 2, 1));
}

/// The same loads back to back give the same prefetches, two cycles after
/// the last load.
#[test]
fn scenario_figure15_back_to_back() {
    let mut tb = Tb::new(&defaults());
    let mut t = 0;
    for &(w, pc) in &FIG15_LOADS {
        t = tb.ld(w, pc, fig15(w, pc));
        assert!(tb.m.walk_queue().len() <= 1);
    }
    tb.drain();
    assert_eq!(t, 6);
    assert_eq!(tb.seq(), fig15_prefetches());
    assert_eq!(tb.taken(), vec![8, 9, 10, 11, 12]);
    assert_eq!(tb.m.stats().jobs_dropped, 0);
}

/// Inputs are taken modulo their port widths: the scenario with PC and
/// warp bits above the port widths and 16-bit addresses that wrap.
#[test]
fn inputs_are_masked_and_arithmetic_wraps() {
    let p = SnakeParams {
        ADDR_W: 16,
        PC_W: 12,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for &(w, pc) in &FIG15_LOADS {
        // 0xFE00 + 0x100 * w wraps past 0xFFFF from warp 2 on.
        let addr = 0xABCD_0000 + 0xFE00 + 0x100 * w + if pc == PC_B { 0x64 } else { 0 };
        tb.ld(w + 64, pc | 0xF000, addr);
        tb.idle(2);
    }
    assert_eq!(
        tb.m.head(3),
        HeadRow {
            valid: true,
            pc: PC_A,
            addr: 0x0100
        }
    );
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x0164, 3, kind::CHAIN),
            (0x0200, 4, kind::INTER_WARP),
            (0x0300, 5, kind::INTER_WARP),
            (0x0400, 6, kind::INTER_WARP),
            (0x0500, 7, kind::INTER_WARP),
        ]
    );
    // A negative stride stored in 16 bits.
    let mut tb = Tb::new(&p);
    tb.ld(0, 0x10, 0x0010);
    tb.ld(0, 0x20, 0xFFF0);
    assert_eq!(tb.m.find_link(0x10, 0x20, 0xFFE0), Some(0));
    assert_eq!(tb.m.tail()[0].stride, 0xFFE0);
}

// ----- timing -----

/// PCs and offsets (from the warp's base) of a 4-link chain A -> B -> C ->
/// D -> E with strides 0x10, 0x20, 0x40, 0x80.
const CHAIN: [(u64, u64); 5] = [
    (0x100, 0x00),
    (0x200, 0x10),
    (0x300, 0x30),
    (0x400, 0x70),
    (0x500, 0xF0),
];

fn chain_base(w: u64) -> u64 {
    0x10000 * (w + 1)
}

/// Warps 0, 1, 2 each run the chain once (draining after each load): all
/// four links promoted; PC A's inter-warp stride 0x10000 at iw_cnt = 1.
fn train_chain(tb: &mut Tb) {
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
fn chain_prefetches(depth: usize) -> Vec<Pf> {
    let w = 4;
    let mut v: Vec<Pf> = CHAIN[1..=depth]
        .iter()
        .map(|&(_, off)| (chain_base(w) + off, w, kind::CHAIN))
        .collect();
    v.extend((1..=4).map(|k| (chain_base(w + k), w + k, kind::INTER_WARP)));
    v
}

/// The contract's latency: accepted at edge t, first prefetch taken at
/// edge t + 2, then one per edge; the job ends in its own cycle.
#[test]
fn latency_two_cycles_then_one_per_edge() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    let t = tb.ld(4, 0x100, chain_base(4));
    assert!(!tb.m.outputs().pf_valid, "cycle t + 1: nothing yet");
    assert_eq!(tb.m.walk_queue().len(), 1, "the job is at the head");
    tb.idle(1);
    assert!(tb.m.outputs().pf_valid, "cycle t + 2: offered");
    tb.drain();
    let expect = chain_prefetches(3);
    assert_eq!(tb.seq(), expect);
    let edges: Vec<u64> = (0..expect.len() as u64).map(|k| t + 2 + k).collect();
    assert_eq!(tb.taken(), edges);
    assert!(tb.got.iter().all(|x| x.offered == x.taken));
    // 7 prefetches pushed at t + 1 .. t + 7, the job ends at t + 8.
    assert_eq!(tb.next_edge, t + 9);
}

/// A job ends in a cycle of its own: the second of two back-to-back jobs
/// with one prefetch each is taken two edges after the first.
#[test]
fn job_end_takes_its_own_cycle() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    // Break the loop's second link so that each job has one prefetch:
    // warp 0 leaves B with another stride (clears bit 0 of B -> A).
    tb.ld(0, LB, loop_base(0) + 0x1040);
    tb.ld(0, LA, loop_base(0) + 0x3000);
    tb.drain();
    assert_ne!(tb.m.tail()[1].t1, T1_PROMOTED);
    // A's intra-warp stride is not trained (t2 = 1): one chain hop only.
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 1);
    tb.forget();
    let t = tb.ld(9, LA, loop_base(9));
    tb.ld(12, LA, loop_base(12));
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (loop_base(9) + 0x40, 9, kind::CHAIN),
            (loop_base(12) + 0x40, 12, kind::CHAIN)
        ]
    );
    // Job 1: push t + 1, end t + 2; job 2: push t + 3.
    assert_eq!(tb.taken(), vec![t + 2, t + 4]);
}

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
    let ab = tb.m.find_link(a, b, 0x10).unwrap();
    let cb = tb.m.find_link(c, b, 0x40).unwrap();
    assert_eq!(
        (tb.m.tail()[ab].wv, tb.m.tail()[ab].t1),
        (0b111, T1_PROMOTED)
    );
    assert_eq!(
        (tb.m.tail()[cb].wv, tb.m.tail()[cb].t1),
        (0b11000, T1_TWO_WARPS)
    );

    // Warp 1 goes a -> b with another stride: bit 1 cleared, t1 = 0 (still
    // two ones), and a new link with wv = {1}.
    tb.ld(1, a, 0x5000);
    tb.ld(1, b, 0x5020);
    let e = tb.m.tail()[ab];
    assert_eq!((e.wv, e.t1), (0b101, T1_UNTRAINED));
    let new = tb.m.find_link(a, b, 0x20).unwrap();
    assert_eq!(
        (tb.m.tail()[new].wv, tb.m.tail()[new].t1),
        (0b10, T1_UNTRAINED)
    );
    // Warp 4 goes c -> a (another pc2): bit 4 of (c, b) cleared.
    tb.ld(4, c, 0xB000);
    tb.ld(4, a, 0xB040);
    let e = tb.m.tail()[cb];
    assert_eq!((e.wv, e.t1), (0b1000, T1_UNTRAINED));
    // Warp 0's hit on its own link clears nothing.
    tb.ld(0, a, 0x7000);
    tb.ld(0, b, 0x7010);
    assert_eq!(tb.m.tail()[ab].wv, 0b101);
    // A hit with two ones again: t1 = 01; a third warp re-promotes.
    tb.ld(5, a, 0x8000);
    tb.ld(5, b, 0x8010);
    let e = tb.m.tail()[ab];
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
        let e = tb.m.tail()[0];
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
    tb.m.find_link(pc, pc, 0x10)
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
        assert_eq!(tb.m.rank(k as usize), Some(0));
    }
    assert_eq!(tb.m.recency(), &[3, 2, 1, 0]);
    assert_eq!(tb.m.stats().evictions, 0);
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
    assert_eq!(tb.m.recency(), &[3, 2, 1, 0]);
    assert_eq!(tb.m.tail()[0].wv.count_ones(), 2);
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
    assert_eq!(tb.m.recency(), &[1, 3, 2, 0]);
    assert_eq!(tb.m.stats().evictions, 1);
    // Group {0}: entry 0 in spite of its two ones.
    let mut tb = eviction_setup(1);
    self_link(&mut tb, 6, 6);
    assert_eq!(self_link_entry(&tb, 6), Some(0));
    assert_eq!(tb.m.recency(), &[0, 3, 2, 1]);
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
    assert_eq!(tb.m.recency(), &[0, 3, 2, 1]);
    // All have one bit: the least recently used, entry 1.
    self_link(&mut tb, 9, 9);
    assert_eq!(self_link_entry(&tb, 9), Some(1));
    // Now [1, 0, 3, 2]: entry 2.
    self_link(&mut tb, 10, 10);
    assert_eq!(self_link_entry(&tb, 10), Some(2));
    assert_eq!(tb.m.recency(), &[2, 1, 0, 3]);
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
    assert_eq!(tb.m.recency(), &[0, 3, 2, 1]);
    // Warp 0 again from P_0, stride 0x30: clears its bit in entry 0 (now no
    // ones; before the clearing all four tie and entry 1 would go).
    tb.ld(0, 0x100, 0x100000 + 0x50);
    assert_eq!(tb.m.find_link(0x100, 0x100, 0x30), Some(0));
    assert_eq!(tb.m.tail()[0].wv, 0b1);
    for k in 1..4 {
        assert_eq!(self_link_entry(&tb, k), Some(k as usize));
    }
    assert_eq!(tb.m.stats().bits_cleared, 1);
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
    assert_eq!(tb.m.tail()[0].per_pc, expect);
    assert_eq!(tb.m.find_link(a, c, 0x20), Some(1));
    assert_eq!(tb.m.tail()[1].per_pc, expect, "copied from entry 0");
    // One entry: the victim is the only entry with pc1 = a, so zero.
    let tb = run(&SnakeParams {
        TAIL_ENTRIES: 1,
        LRU_GROUP: 1,
        ..defaults()
    });
    let e = tb.m.tail()[0];
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
    let e = tb.m.find_link(a, a, 0x30).unwrap();
    assert_eq!(e, 1);
    assert_eq!(tb.m.tail()[1].per_pc.iw_addr, 0x1130);
    assert_eq!(tb.m.tail()[1].per_pc, tb.m.tail()[0].per_pc);
    assert_eq!(tb.m.tail()[0].per_pc.iw_warp, 1);
}

/// The copy sees the walker's intra-warp observation of the same edge.
#[test]
fn allocation_copies_this_edges_observation() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 1);
    let t = tb.ld(9, LA, loop_base(9));
    tb.idle(1);
    // Edge t + 2: the walker closes the loop (t2 -> 2) while warp 0 (Head
    // at A) allocates (A, 0x7C0, ..).
    assert_eq!(tb.ld(0, 0x7C0, 0x5555), t + 2);
    let e =
        tb.m.find_link(LA, 0x7C0, 0x5555u64.wrapping_sub(loop_base(0) + 0x1000));
    let e = tb.m.tail()[e.expect("allocated")];
    assert_eq!((e.per_pc.intra, e.per_pc.t2), (0x1000, 2));
    assert_eq!(Some(e.per_pc), tb.m.per_pc(LA));
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
    let e = tb.m.tail()[0];
    assert_eq!((e.stride, e.t1), (0x10, T1_PROMOTED));
    assert_eq!((e.per_pc.intra, e.per_pc.t2), (0x10, 1));
    assert!(e.per_pc.iw_valid);
    tb.forget();
    let t = tb.ld(1, pc, 0x2000);
    // Edge t + 1: warp 1's walk closes the loop (an observation for pc)
    // while warp 0 replaces the only entry with (pc, pc, 0x30).
    assert_eq!(tb.ld(0, pc, 0x1050), t + 1);
    assert_eq!(tb.m.stats().loops_closed, 2);
    assert_eq!(
        tb.m.tail()[0],
        TailEntry {
            valid: true,
            pc1: pc,
            pc2: pc,
            stride: 0x30,
            wv: 0b1,
            t1: T1_UNTRAINED,
            per_pc: PerPc::default(),
        }
    );
    tb.drain();
    assert_eq!(tb.seq(), vec![(0x2010, 1, kind::CHAIN)]);
}

// ----- training: inter-warp stride -----

/// An entry with pc1 = 0x100 (so that its per-PC fields exist).
fn iw_setup(p: &SnakeParams) -> Tb {
    let mut tb = Tb::new(p);
    tb.ld(0, 0x100, 0x1000);
    tb.ld(0, 0x200, 0x1010);
    tb
}

fn iw(tb: &Tb) -> (u64, u64, u64, u64) {
    let f = tb.m.per_pc(0x100).unwrap();
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
    assert_eq!(tb.m.per_pc(0x100), None);
    tb.ld(2, 0x200, 0x1210);
    // The new entry's per-PC fields are zero (nothing was recorded).
    assert_eq!(tb.m.per_pc(0x100), Some(PerPc::default()));
}

// ----- prefetching -----

/// The chain takes the lowest-numbered promoted entry with bit w set, else
/// the lowest-numbered promoted entry.
#[test]
fn chain_prefers_entry_with_own_bit() {
    let p = SnakeParams {
        TRAIN_WARPS: 2,
        ..defaults()
    };
    let (a, b) = (0x100, 0x200);
    let mut tb = Tb::new(&p);
    // (a, b, 0x10) by warps 0, 3; (a, b, 0x20) by warps 6, 9 (distances of
    // 3: no inter-warp stride).
    for (w, s) in [(0, 0x10), (3, 0x10), (6, 0x20), (9, 0x20)] {
        tb.ld(w, a, 0x10000 * w);
        tb.ld(w, b, 0x10000 * w + s);
        tb.drain();
    }
    assert_eq!(tb.m.find_link(a, b, 0x10), Some(0));
    assert_eq!(tb.m.find_link(a, b, 0x20), Some(1));
    assert!(tb.m.tail()[..2].iter().all(|e| e.t1 == T1_PROMOTED));
    let chain_of = |tb: &mut Tb, w: u64, addr: u64| {
        tb.forget();
        tb.ld(w, a, addr);
        tb.drain();
        tb.seq()
            .into_iter()
            .filter(|pf| pf.2 == kind::CHAIN)
            .collect::<Vec<_>>()
    };
    // Warp 6 has its bit in entry 1 only.
    assert_eq!(chain_of(&mut tb, 6, 0x7_0000), vec![(0x7_0020, 6, 0)]);
    // Warp 12 has no bit: the lowest-numbered, entry 0.
    assert_eq!(chain_of(&mut tb, 12, 0xC_0000), vec![(0xC_0010, 12, 0)]);
    // Warp 3 has its bit in entry 0.
    assert_eq!(chain_of(&mut tb, 3, 0xD_0000), vec![(0xD_0010, 3, 0)]);
}

/// At most CHAIN_DEPTH hops.
#[test]
fn chain_depth_limit() {
    for depth in [1usize, 2, 3, 4] {
        let p = SnakeParams {
            CHAIN_DEPTH: depth as u64,
            ..defaults()
        };
        let mut tb = Tb::new(&p);
        train_chain(&mut tb);
        tb.ld(4, 0x100, chain_base(4));
        tb.drain();
        assert_eq!(tb.seq(), chain_prefetches(depth), "CHAIN_DEPTH = {depth}");
    }
}

/// Two-PC loop A -> B -> A (strides 0x40 and 0xFC0: one iteration is
/// 0x1000), trained by warps 0, 3, 6 (distances of 3: no inter-warp
/// stride).
const LA: u64 = 0x700;
const LB: u64 = 0x780;

fn loop_base(w: u64) -> u64 {
    0x100000 * (w + 1)
}

/// After it both links are promoted and warp 6's last load has closed the
/// loop once: A's `intra = 0x1000`, `t2 = 1`.
fn train_loop(tb: &mut Tb) {
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

/// A closed loop records the observation (t2 counts to 3) and makes no
/// intra-warp prefetch; once the loop is broken, a trained `t2 = 3` gives
/// the intra-warp prefetch after the chain.
#[test]
fn loop_closing_and_intra_warp() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    for (w, t2) in [(9, 2), (12, 3), (15, 3)] {
        tb.forget();
        tb.ld(w, LA, loop_base(w));
        tb.drain();
        let b = loop_base(w);
        assert_eq!(
            tb.seq(),
            vec![(b + 0x40, w, kind::CHAIN), (b + 0x1000, w, kind::CHAIN)],
            "no intra-warp prefetch on a closed loop"
        );
        let f = tb.m.per_pc(LA).unwrap();
        assert_eq!((f.intra, f.t2), (0x1000, t2));
        // Entry 1 (pc1 = B) holds B's fields, untouched.
        assert_eq!(tb.m.tail()[1].per_pc.t2, 0);
    }
    // Warp 0 leaves B with another stride: B -> A loses its promotion.
    tb.ld(0, LB, loop_base(0) + 0x1040);
    tb.drain();
    tb.forget();
    let t = tb.ld(0, LA, loop_base(0) + 0x3000);
    assert_eq!(tb.m.tail()[1].t1, T1_UNTRAINED);
    tb.drain();
    let b = loop_base(0) + 0x3000;
    assert_eq!(
        tb.seq(),
        vec![
            (b + 0x40, 0, kind::CHAIN),
            (b + 0x1000, 0, kind::INTRA_WARP)
        ]
    );
    assert_eq!(tb.taken(), vec![t + 2, t + 3]);
    assert_eq!(tb.m.stats().prefetches_intra, 1);
}

/// An observation different from `intra` restarts `t2` at 1.
#[test]
fn observation_mismatch_restarts_t2() {
    let p = 0x900;
    let mut tb = Tb::new(&defaults());
    // (p, p, 0x80) by warps 0, 3, 6; then (p, p, 0x100) by warps 9, 12, 15.
    let mut before_last = None;
    for (w, s) in [
        (0, 0x80),
        (3, 0x80),
        (6, 0x80),
        (9, 0x100),
        (12, 0x100),
        (15, 0x100),
    ] {
        tb.ld(w, p, 0x10000 * w);
        tb.drain();
        before_last = tb.m.per_pc(p);
        tb.ld(w, p, 0x10000 * w + s);
        tb.drain();
    }
    let f = before_last.unwrap();
    assert_eq!((f.intra, f.t2), (0x80, 3));
    // Warp 15's own bit is in the promoted (p, p, 0x100): observation 0x100.
    let f = tb.m.per_pc(p).unwrap();
    assert_eq!((f.intra, f.t2), (0x100, 1));
    assert_eq!(tb.m.tail()[0].per_pc, tb.m.tail()[1].per_pc);
}

/// IW_DEGREE future warps, and only warps below N_WARPS.
#[test]
fn inter_warp_degree_and_warp_bound() {
    let run = |p: &SnakeParams, warps: [u64; 3]| {
        let mut tb = iw_setup(p);
        for w in warps {
            tb.ld(w, 0x100, 0x1000 + 0x100 * w);
            tb.drain();
        }
        let last = warps[2];
        tb.seq()
            .into_iter()
            .filter(|pf| pf.2 == kind::INTER_WARP)
            .inspect(|pf| assert_eq!(pf.0, 0x1000 + 0x100 * pf.1))
            .map(|pf| pf.1 - last)
            .collect::<Vec<u64>>()
    };
    assert_eq!(run(&defaults(), [1, 2, 3]), vec![1, 2, 3, 4]);
    let deg = |d| SnakeParams {
        IW_DEGREE: d,
        ..defaults()
    };
    assert_eq!(run(&deg(2), [1, 2, 3]), vec![1, 2]);
    assert_eq!(run(&deg(0), [1, 2, 3]), Vec::<u64>::new());
    assert_eq!(run(&deg(15), [1, 2, 3]).len(), 15);
    // w + k < N_WARPS.
    assert_eq!(run(&defaults(), [60, 61, 62]), vec![1]);
    assert_eq!(run(&defaults(), [61, 62, 63]), Vec::<u64>::new());
    let small = SnakeParams {
        N_WARPS: 8,
        ..defaults()
    };
    assert_eq!(run(&small, [3, 4, 5]), vec![1, 2]);
}

// ----- queues -----

/// A load finding the walk queue full at the start of the cycle is dropped,
/// even when the walker ends a job at that edge.
#[test]
fn walk_queue_full_drops_job() {
    // WALKQ_DEPTH = 1, jobs with nothing to do: every other load dropped.
    let p = SnakeParams {
        WALKQ_DEPTH: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    for i in 0..6 {
        tb.ld(i, 0x100 + 4 * i, 0x1000);
        let s = tb.m.stats();
        assert_eq!(
            (s.jobs_enqueued, s.jobs_dropped),
            (i / 2 + 1, i.div_ceil(2))
        );
    }
    // WALKQ_DEPTH = 2, a stalled job at the head.
    let p = SnakeParams {
        PFQ_DEPTH: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.ld(20, 0x900, 0x1); // second job
    tb.ld(21, 0x900, 0x2); // dropped
    tb.idle(5);
    assert_eq!(tb.m.walk_queue().len(), 2);
    assert_eq!(tb.m.walk_queue()[1].warp, 20);
    assert_eq!(tb.m.stats().jobs_dropped, 1);
    tb.pf_ready = true;
    tb.drain();
    assert_eq!(tb.seq(), chain_prefetches(3));
}

/// A full output queue stalls the walker; nothing is lost and the order
/// stays, whatever the consumer's pattern.
#[test]
fn output_queue_full_stalls() {
    let p = SnakeParams {
        PFQ_DEPTH: 2,
        ..defaults()
    };
    for pattern in [0b1u32, 0b10, 0b100, 0b1101] {
        let mut tb = Tb::new(&p);
        train_chain(&mut tb);
        tb.pf_ready = false;
        tb.ld(4, 0x100, chain_base(4));
        tb.idle(6);
        assert_eq!(tb.m.pfq_len(), 2);
        let walker = tb.m.walker();
        assert_eq!(walker.hop, 2, "two hops pushed, the third stalls");
        tb.idle(1);
        assert_eq!(tb.m.walker(), walker, "nothing changes in a stall");
        assert!(tb.m.stats().stall_cycles >= 5);
        for i in 0..40 {
            tb.pf_ready = pattern & (1 << (i % 4)) != 0;
            tb.idle(1);
        }
        tb.drain();
        assert_eq!(tb.seq(), chain_prefetches(3), "pattern {pattern:b}");
        let s = tb.m.stats();
        assert_eq!(s.prefetches(), s.prefetches_taken);
    }
}

/// A stall re-decides from the current phase against the current tables:
/// a link promoted during the stall extends the chain.
#[test]
fn stall_redecides_against_current_tables() {
    let p = SnakeParams {
        TRAIN_WARPS: 2,
        PFQ_DEPTH: 1,
        ..defaults()
    };
    let (a, b, c) = (0x100, 0x200, 0x300);
    let mut tb = Tb::new(&p);
    for (w, pc, addr) in [
        (0, a, 0x1000),
        (0, b, 0x1010),
        (1, a, 0x1100),
        (1, b, 0x1110), // (a, b, 0x10) promoted
        (2, a, 0x1200), // a: iw_cnt 1
        (2, b, 0x1210),
        (2, c, 0x1230), // (b, c, 0x20), wv = {2}
    ] {
        tb.ld(w, pc, addr);
        tb.drain();
    }
    tb.forget();
    tb.pf_ready = false;
    let t = tb.ld(3, a, 0x1300); // a: iw_cnt 2
    tb.idle(1); // t + 1: push the hop to b
    assert_eq!(tb.m.pfq_len(), 1);
    // t + 2: chain over at b, the inter-warp prefetch stalls; warp 5's
    // load of b enters the walk queue.
    tb.ld(5, b, 0x5010);
    assert_eq!(tb.m.walker().phase, Phase::Chain);
    // t + 3: warp 5 promotes (b, c); its job is dropped (queue full).
    assert_eq!(tb.ld(5, c, 0x5030), t + 3);
    assert_eq!(tb.m.tail()[1].t1, T1_PROMOTED);
    assert_eq!(tb.m.stats().jobs_dropped, 1);
    tb.pf_ready = true;
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x1310, 3, kind::CHAIN),
            (0x1330, 3, kind::CHAIN),
            (0x1400, 4, kind::INTER_WARP),
            (0x1500, 5, kind::INTER_WARP),
            (0x1600, 6, kind::INTER_WARP),
            (0x1700, 7, kind::INTER_WARP),
            (0x5030, 5, kind::CHAIN),
        ]
    );
}

/// The walker decides from the tables at the start of the cycle: a link
/// promoted at the same edge does not extend the chain, and once the walk
/// has moved to the inter phase the chain is not retried.
#[test]
fn walker_decides_from_start_of_cycle_tables() {
    let p = SnakeParams {
        TRAIN_WARPS: 2,
        ..defaults()
    };
    let (a, b, c) = (0x100, 0x200, 0x300);
    let mut tb = Tb::new(&p);
    for (w, pc, addr) in [
        (0, a, 0x1000),
        (0, b, 0x1010),
        (1, a, 0x1100),
        (1, b, 0x1110), // (a, b, 0x10) promoted
        (2, a, 0x1200), // a: iw_cnt 1
        (2, b, 0x1210),
        (2, c, 0x1230), // (b, c, 0x20), wv = {2}
        (5, b, 0x5010), // warp 5's Head at b
    ] {
        tb.ld(w, pc, addr);
        tb.drain();
    }
    tb.forget();
    let t = tb.ld(3, a, 0x1300); // a: iw_cnt 2
    tb.idle(1); // t + 1: the hop to b
                // t + 2: warp 5 promotes (b, c); the walker, at b, sees it unpromoted
                // and goes on with the inter-warp prefetches.
    tb.ld(5, c, 0x5030);
    assert_eq!(tb.m.tail()[1].t1, T1_PROMOTED);
    assert_eq!(tb.m.walker().phase, Phase::Inter);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x1310, 3, kind::CHAIN),
            (0x1400, 4, kind::INTER_WARP),
            (0x1500, 5, kind::INTER_WARP),
            (0x1600, 6, kind::INTER_WARP),
            (0x1700, 7, kind::INTER_WARP),
        ]
    );
    assert_eq!(tb.taken(), (t + 2..t + 7).collect::<Vec<_>>());
}

// ----- throttle -----

/// A `cache_full` cycle halts exactly the THROTTLE_CYCLES cycles after it;
/// a load in that cycle enters the walk queue and is discarded by the
/// first halted cycle; loads in halted cycles train but make no job.
#[test]
fn cache_full_halts_throttle_cycles() {
    let p = SnakeParams {
        THROTTLE_CYCLES: 5,
        ..defaults()
    };
    let mut tb = Tb::new(&p);
    train_chain(&mut tb);
    assert!(!tb.m.outputs().throttled);
    let t = tb.edge(SnakeIn {
        cache_full: true,
        ..load(4, 0x100, chain_base(4))
    });
    assert_eq!(tb.m.walk_queue().len(), 1);
    let mut throttled = Vec::new();
    for i in 0..7 {
        throttled.push(tb.m.outputs().throttled);
        if i == 1 {
            // A load while halted trains (Head, link) but makes no job.
            tb.ld(30, 0x900, 0x9000);
            assert_eq!(tb.m.head(30).pc, 0x900);
            assert!(tb.m.walk_queue().is_empty());
        } else {
            tb.idle(1);
        }
        assert!(tb.m.walk_queue().is_empty());
    }
    // Cycles t + 1 .. t + 5 halted.
    assert_eq!(throttled, [true, true, true, true, true, false, false]);
    assert!(tb.got.is_empty(), "the job was discarded");
    let s = tb.m.stats();
    assert_eq!(
        (s.jobs_discarded, s.jobs_suppressed, s.halted_cycles),
        (1, 1, 5)
    );
    assert_eq!(tb.next_edge, t + 8);
    // Back to work.
    tb.ld(4, 0x100, chain_base(4));
    tb.drain();
    assert_eq!(tb.seq().len(), 7);
    // THROTTLE_CYCLES = 0: cache_full never halts.
    let mut tb = Tb::new(&SnakeParams {
        THROTTLE_CYCLES: 0,
        ..defaults()
    });
    for _ in 0..3 {
        tb.edge(SnakeIn {
            cache_full: true,
            ..SnakeIn::default()
        });
        assert!(!tb.m.outputs().throttled);
    }
    // A cache_full cycle while counting reloads the counter.
    let mut tb = Tb::new(&p);
    let full = SnakeIn {
        cache_full: true,
        ..SnakeIn::default()
    };
    tb.edge(full);
    tb.idle(3);
    assert_eq!(tb.m.throttle_count(), 2);
    tb.edge(full);
    assert_eq!(tb.m.throttle_count(), 5);
    tb.idle(4);
    assert!(tb.m.outputs().throttled);
    tb.idle(1);
    assert!(!tb.m.outputs().throttled);
}

/// `bw_util >= BW_HIGH` halts, `<= BW_LOW` resumes, between keeps;
/// `bw_util` is 7 bits, above 100 used as given.
#[test]
fn bandwidth_hysteresis() {
    let mut tb = Tb::new(&defaults());
    let steps = [
        (69, false),
        (70, true),
        (60, true),
        (51, true),
        (50, false),
        (60, false),
        (69, false),
        (100, true),
        (0, false),
        (127, true),
        (0x80 + 10, false), // 10 after masking to 7 bits
        (0x80 + 75, true),  // 75 after masking
        (0x80 + 60, true),  // 60: keeps
        (0x80 + 50, false), // 50: clears
    ];
    for &(bw, halted) in &steps {
        tb.edge(SnakeIn {
            bw_util: bw,
            ..SnakeIn::default()
        });
        assert_eq!(tb.m.outputs().throttled, halted, "bw_util {bw}");
        assert_eq!(tb.m.bw_halt(), halted);
    }
}

/// A halted cycle empties the walk queue and the walker; the output queue
/// keeps its prefetches.
#[test]
fn halted_cycle_discards_walk_keeps_output_queue() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.ld(20, 0x900, 0x1);
    tb.idle(6);
    assert_eq!(tb.m.pfq_len(), 4);
    assert_eq!(tb.m.walk_queue().len(), 2);
    let queued = tb.m.pfq_entries();
    tb.edge(SnakeIn {
        bw_util: 90,
        ..SnakeIn::default()
    });
    assert!(tb.m.outputs().throttled);
    assert_eq!(tb.m.walk_queue().len(), 2, "the halt starts next cycle");
    tb.edge(SnakeIn::default()); // halted cycle; bw_util 0 clears the halt
    assert!(tb.m.walk_queue().is_empty());
    assert_eq!(tb.m.walker(), Walker::INITIAL);
    assert_eq!(tb.m.pfq_entries(), queued);
    assert!(!tb.m.outputs().throttled);
    // A refused prefetch is offered even while halted; draining gives the
    // four queued prefetches and nothing else.
    tb.pf_ready = true;
    tb.drain();
    let expect: Vec<Pf> = queued.iter().map(|p| (p.addr, p.warp, p.kind)).collect();
    assert_eq!(tb.seq(), expect);
    assert_eq!(tb.seq(), chain_prefetches(3)[..4].to_vec());
    assert_eq!(tb.m.stats().jobs_discarded, 2);
}

/// Prefetches in the output queue are offered and taken while halted.
#[test]
fn output_queue_drains_while_halted() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.idle(5);
    tb.edge(SnakeIn {
        bw_util: 70,
        ..SnakeIn::default()
    });
    tb.pf_ready = true;
    for _ in 0..6 {
        tb.edge(SnakeIn {
            bw_util: 60,
            ..SnakeIn::default()
        });
        assert!(tb.m.outputs().throttled);
    }
    assert_eq!(tb.seq(), chain_prefetches(3)[..4].to_vec());
}

/// An observation recorded before a halt stays; one not reached is lost.
#[test]
fn halt_and_intra_warp_observation() {
    let mut tb = Tb::new(&defaults());
    train_loop(&mut tb);
    let halt_at = |tb: &mut Tb, edge: u64| {
        while tb.next_edge < edge {
            tb.idle(1);
        }
        tb.edge(SnakeIn {
            bw_util: 70,
            ..SnakeIn::default()
        });
        tb.edge(SnakeIn::default()); // halted; clears the halt
        tb.drain();
    };
    // Closing hop at edge t + 2, halted from cycle t + 3: recorded.
    let t = tb.ld(9, LA, loop_base(9));
    halt_at(&mut tb, t + 2);
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 2);
    assert_eq!(tb.seq().len(), 2);
    // Halted from cycle t + 2: the closing hop is not taken, lost.
    tb.forget();
    let t = tb.ld(12, LA, loop_base(12));
    halt_at(&mut tb, t + 1);
    assert_eq!(tb.m.per_pc(LA).unwrap().t2, 2);
    assert_eq!(tb.seq(), vec![(loop_base(12) + 0x40, 12, kind::CHAIN)]);
}

// ----- ignored loads, reset -----

/// A load with `ld_uniform = 0` changes nothing, not even Head.
#[test]
fn non_uniform_load_is_ignored() {
    let mut tb = Tb::new(&defaults());
    train_chain(&mut tb);
    let before = snapshot(&tb.m);
    for (w, pc, addr) in [(4, 0x100, chain_base(4)), (0, 0x200, 0x1), (1, 0x100, 0x2)] {
        tb.edge(SnakeIn {
            ld_uniform: false,
            ..load(w, pc, addr)
        });
    }
    assert_eq!(snapshot(&tb.m), before);
    assert!(tb.got.is_empty());
    assert_eq!(tb.m.stats().loads_ignored, 3);
}

/// Reset clears every table, queue, the walker and the throttle; nothing
/// else happens at that edge (no load, no transfer).
#[test]
fn reset_clears_everything() {
    let mut tb = Tb::new(&defaults());
    let empty = snapshot(&tb.m);
    assert_eq!(tb.m.outputs(), SnakeOut::default());
    train_chain(&mut tb);
    tb.pf_ready = false;
    tb.ld(4, 0x100, chain_base(4));
    tb.ld(5, 0x100, chain_base(5));
    tb.idle(3);
    tb.edge(SnakeIn {
        cache_full: true,
        bw_util: 100,
        ..SnakeIn::default()
    });
    assert!(tb.m.pfq_len() > 0 && tb.m.outputs().throttled);
    let taken = tb.m.stats().prefetches_taken;
    tb.pf_ready = true;
    tb.edge(SnakeIn {
        reset: true,
        ..load(6, 0x100, 0x1234)
    });
    assert_eq!(snapshot(&tb.m), empty);
    assert_eq!(tb.m.outputs(), SnakeOut::default());
    assert_eq!(tb.m.stats().prefetches_taken, taken);
    assert!(tb.got.is_empty());
    // Trains again from scratch like a new model.
    for &(w, pc) in &FIG15_LOADS {
        tb.ld(w, pc, fig15(w, pc));
    }
    tb.drain();
    assert_eq!(tb.seq(), fig15_prefetches());
}

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
    )
        .prop_map(
            |((n, tail, train, lru), (depth, deg, walkq, pfq), (thr, aw, pw, paper))| {
                if paper {
                    return SnakeParams::default();
                }
                let n = 1u64 << n;
                SnakeParams {
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
            prop_assert!(ones >= 2 && ones < p.TRAIN_WARPS, "{} {:?}", ctx, e);
        }
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
        prop_assert!(m.pfq_len() <= p.PFQ_DEPTH as usize, "{}", ctx);
        prop_assert!(m.walk_queue().len() <= p.WALKQ_DEPTH as usize, "{}", ctx);
        let walker = m.walker();
        if m.walk_queue().is_empty() {
            prop_assert_eq!(walker, Walker::INITIAL, "{}", ctx);
        }
        prop_assert!(walker.hop <= p.CHAIN_DEPTH, "{}", ctx);
        prop_assert!(walker.k >= 1 && walker.k <= p.IW_DEGREE + 1, "{}", ctx);
        check_tables(&m, &ctx)?;

        let job = m.walk_queue().first().copied();
        let halted = m.halted();
        let pushed_before = m.stats().prefetches();
        let pfq_before = m.pfq_len();
        if out.pf_valid && inputs.pf_ready && !inputs.reset {
            taken += 1;
        }
        m.step(&inputs);

        if inputs.reset {
            discarded += pfq_before as u64;
            prop_assert_eq!(m.outputs(), SnakeOut::default(), "{}", ctx);
            prop_assert!(valid_entries(&m).is_empty());
            prop_assert!(m.walk_queue().is_empty() && m.pfq_len() == 0);
            prop_assert!((0..p.N_WARPS).all(|w| !m.head(w).valid));
        } else {
            let w = inputs.ld_warp & mask(p.warp_bits());
            if inputs.ld_valid && inputs.ld_uniform && w < p.N_WARPS {
                let h = m.head(w);
                prop_assert_eq!(
                    (h.valid, h.pc, h.addr),
                    (
                        true,
                        inputs.ld_pc & mask(p.PC_W as u32),
                        inputs.ld_addr & amask
                    ),
                    "{}",
                    ctx
                );
            }
            if halted {
                prop_assert!(m.walk_queue().is_empty(), "{}", ctx);
                prop_assert_eq!(m.stats().prefetches(), pushed_before, "{}", ctx);
            }
            if m.stats().prefetches() > pushed_before {
                // The prefetch just pushed belongs to the head job.
                let pf = *m.pfq_entries().last().unwrap();
                let job = job.expect("a push needs a job");
                if pf.kind == kind::INTER_WARP {
                    prop_assert!(
                        pf.warp > job.warp && pf.warp <= job.warp + p.IW_DEGREE,
                        "{} {:?}",
                        ctx,
                        pf
                    );
                } else {
                    prop_assert_eq!(pf.warp, job.warp, "{}", ctx);
                }
            }
        }
        // Nothing is lost.
        prop_assert_eq!(
            m.stats().prefetches(),
            taken + discarded + m.pfq_len() as u64,
            "{}",
            ctx
        );
        previous = Some((out, inputs));
    }
    // After the drain every prefetch was taken (or discarded by a reset).
    prop_assert_eq!(m.pfq_len(), 0);
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
