//! Tests of the `dac_expander` golden model: the spec's scenarios, the
//! contract's timing rule by rule (reset, slots, enqueue, start, records,
//! predicates, stalls, dequeue), and properties over random tuples, CTA
//! shapes and stimulus.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

// ----- test bench -----

/// Test bench: drives the model edge by edge, starting with one reset edge
/// (not counted), with fixed `cfg_*` inputs, and records every dequeue
/// response and every memory request transfer.
///
/// Edges are numbered from 0 after the reset edge; "cycle e" is the cycle
/// that ends at edge e, whose inputs edge e applies. [`Tb::edge`] returns
/// the number of the edge it applies.
struct Tb {
    m: DacModel,
    params: DacParams,
    /// `(cfg_bdx_log2, cfg_threads, cfg_warps_per_cta)` for every cycle.
    cfg: (u64, u64, u64),
    /// `mem_ready` for every cycle.
    mem_ready: bool,
    next_edge: u64,
    /// The dequeue of the previous cycle: `(warp, kind)`.
    pending: Option<(u64, u64)>,
    /// Address records received per warp, in order.
    got_addr: Vec<Vec<Record>>,
    /// Predicate masks received per warp, in order.
    got_pred: Vec<Vec<u32>>,
    /// Dequeues answered with a miss.
    misses: u64,
    /// Memory requests taken: `(edge, mem_addr)`.
    mem: Vec<(u64, u64)>,
}

impl Tb {
    /// A bench for `params` and the CTA shape `(k, T, W)`.
    fn new(params: &DacParams, k: u64, threads: u64, warps: u64) -> Tb {
        let mut m = DacModel::new(params);
        m.step(&DacIn {
            reset: true,
            ..DacIn::default()
        });
        Tb {
            m,
            params: params.clone(),
            cfg: (k, threads, warps),
            mem_ready: true,
            next_edge: 0,
            pending: None,
            got_addr: vec![Vec::new(); params.N_WARPS as usize],
            got_pred: vec![Vec::new(); params.N_WARPS as usize],
            misses: 0,
            mem: Vec::new(),
        }
    }

    /// A 1-D CTA of `threads` threads with the default parameters.
    fn one_d(threads: u64) -> Tb {
        Tb::with_1d(&DacParams::default(), threads)
    }

    /// A 1-D CTA of `threads` threads (`blockDim.x` the smallest power of
    /// two `>= threads`).
    fn with_1d(params: &DacParams, threads: u64) -> Tb {
        let k = threads.next_power_of_two().trailing_zeros() as u64;
        Tb::new(params, k, threads, threads.div_ceil(32))
    }

    /// One edge with `inputs` (`cfg_*` and `mem_ready` are the bench's);
    /// returns the edge number.
    fn edge(&mut self, inputs: DacIn) -> u64 {
        let (k, t, w) = self.cfg;
        let inputs = DacIn {
            cfg_bdx_log2: k,
            cfg_threads: t,
            cfg_warps_per_cta: w,
            mem_ready: self.mem_ready,
            ..inputs
        };
        let out = self.m.outputs();
        check_outputs(&self.params, &out);
        let e = self.next_edge;
        match self.pending.take() {
            Some((warp, kind)) => {
                assert!(out.rsp_valid, "rsp_valid one cycle after deq_valid");
                if out.rsp_hit {
                    if kind == DEQ_ADDR {
                        self.got_addr[warp as usize].push(Record {
                            addr: out.rsp_addr as u32,
                            mask: out.rsp_mask as u32,
                            gran: out.rsp_gran,
                            last: out.rsp_last,
                        });
                    } else {
                        self.got_pred[warp as usize].push(out.rsp_mask as u32);
                    }
                } else {
                    self.misses += 1;
                }
            }
            None => assert!(!out.rsp_valid, "rsp_valid without a dequeue"),
        }
        if !inputs.reset {
            if inputs.deq_valid {
                self.pending = Some((inputs.deq_warp, inputs.deq_kind));
            }
            if out.mem_valid && inputs.mem_ready {
                self.mem.push((e, out.mem_addr));
            }
        }
        self.m.step(&inputs);
        self.next_edge += 1;
        e
    }

    fn idle(&mut self, edges: usize) {
        for _ in 0..edges {
            self.edge(DacIn::default());
        }
    }

    /// Launch a CTA with index `(x, y)` into `slot` (one edge).
    fn launch(&mut self, slot: u64, x: u64, y: u64) -> u64 {
        self.edge(launch(slot, x, y))
    }

    /// Offer `t` for one edge; it must be accepted.
    fn enq(&mut self, t: &Tuple) -> u64 {
        assert!(self.m.outputs().enq_ready, "the ATQ can take a tuple");
        self.edge(enq(t))
    }

    /// Dequeue from `warp`'s queue of `kind` (one edge).
    fn deq(&mut self, warp: u64, kind: u64) -> u64 {
        self.edge(deq(warp, kind))
    }

    /// Run until the ATQ is empty, the expander idle and every queue
    /// drained, dequeuing one non-empty queue per cycle (round robin); at
    /// most `limit` edges.
    fn drain_within(&mut self, limit: usize) {
        let mut next = 0usize;
        let slots = 2 * self.params.N_WARPS as usize;
        for _ in 0..limit {
            let mem_busy = self.mem_ready && self.m.outputs().mem_valid;
            if self.m.idle() && self.m.queues_empty() && self.pending.is_none() && !mem_busy {
                return;
            }
            let pick = (0..slots)
                .map(|j| (next + j) % slots)
                .find(|&s| self.m.queue_len((s / 2) as u64, (s % 2) as u64) > 0);
            match pick {
                Some(s) => {
                    next = s + 1;
                    self.deq((s / 2) as u64, (s % 2) as u64);
                }
                None => self.idle(1),
            }
        }
        panic!("the expander does not drain in {limit} edges");
    }

    fn drain(&mut self) {
        self.drain_within(100_000);
    }

    /// Number of the next edge (the current cycle).
    fn now(&self) -> u64 {
        self.next_edge
    }

    fn out(&self) -> DacOut {
        self.m.outputs()
    }
}

/// Output rules that hold in every cycle.
fn check_outputs(p: &DacParams, out: &DacOut) {
    assert!(out.atq_count <= p.ATQ_DEPTH, "atq_count <= ATQ_DEPTH");
    assert_eq!(out.enq_ready, out.atq_count < p.ATQ_DEPTH, "enq_ready");
    assert_eq!(out.mem_addr & 0x7F, 0, "mem_addr is a line address");
    if !out.rsp_valid || !out.rsp_hit {
        assert_eq!(
            (
                out.rsp_hit,
                out.rsp_addr,
                out.rsp_mask,
                out.rsp_gran,
                out.rsp_last
            ),
            (false, 0, 0, 0, false),
            "rsp fields are 0 without a hit"
        );
    }
}

fn launch(slot: u64, x: u64, y: u64) -> DacIn {
    DacIn {
        cta_launch_valid: true,
        cta_launch_slot: slot,
        cta_launch_x: x,
        cta_launch_y: y,
        ..DacIn::default()
    }
}

fn done(slot: u64) -> DacIn {
    DacIn {
        cta_done_valid: true,
        cta_done_slot: slot,
        ..DacIn::default()
    }
}

fn enq(t: &Tuple) -> DacIn {
    DacIn {
        enq_valid: true,
        enq_kind: t.kind,
        enq_base: t.base as u64,
        enq_off_tx: t.off_tx as u64,
        enq_off_ty: t.off_ty as u64,
        enq_off_cx: t.off_cx as u64,
        enq_off_cy: t.off_cy as u64,
        enq_gran: t.gran,
        enq_cmp: t.cmp,
        enq_scalar: t.scalar as u64,
        ..DacIn::default()
    }
}

fn deq(warp: u64, kind: u64) -> DacIn {
    DacIn {
        deq_valid: true,
        deq_warp: warp,
        deq_kind: kind,
        ..DacIn::default()
    }
}

/// Merge two input sets (`b`'s valid groups added to `a`).
fn with(a: DacIn, b: DacIn) -> DacIn {
    let mut x = a;
    if b.enq_valid {
        x = DacIn {
            enq_valid: true,
            enq_kind: b.enq_kind,
            enq_base: b.enq_base,
            enq_off_tx: b.enq_off_tx,
            enq_off_ty: b.enq_off_ty,
            enq_off_cx: b.enq_off_cx,
            enq_off_cy: b.enq_off_cy,
            enq_gran: b.enq_gran,
            enq_cmp: b.enq_cmp,
            enq_scalar: b.enq_scalar,
            ..x
        };
    }
    if b.deq_valid {
        x = DacIn {
            deq_valid: true,
            deq_warp: b.deq_warp,
            deq_kind: b.deq_kind,
            ..x
        };
    }
    if b.cta_launch_valid {
        x = DacIn {
            cta_launch_valid: true,
            cta_launch_slot: b.cta_launch_slot,
            cta_launch_x: b.cta_launch_x,
            cta_launch_y: b.cta_launch_y,
            ..x
        };
    }
    if b.cta_done_valid {
        x = DacIn {
            cta_done_valid: true,
            cta_done_slot: b.cta_done_slot,
            ..x
        };
    }
    x
}

/// An address tuple `(base, off_tx)` of `kind` and `gran`.
fn addr_tuple(kind: u64, base: u32, off_tx: u32, gran: u64) -> Tuple {
    Tuple {
        kind,
        base,
        off_tx,
        gran,
        ..Tuple::default()
    }
}

/// An ADDR tuple `(base, off_tx)` at word granularity.
fn word_tuple(base: u32, off_tx: u32) -> Tuple {
    addr_tuple(kind::ADDR, base, off_tx, gran::WORD)
}

/// A predicate tuple `(base, off_tx) CMP scalar`.
fn pred_tuple(base: u32, off_tx: u32, cmp: u64, scalar: u32) -> Tuple {
    Tuple {
        kind: kind::PRED,
        base,
        off_tx,
        cmp,
        scalar,
        ..Tuple::default()
    }
}

fn rec(addr: u32, mask: u32, gran: u64, last: bool) -> Record {
    Record {
        addr,
        mask,
        gran,
        last,
    }
}

/// A negative 32-bit offset.
fn neg(x: u32) -> u32 {
    x.wrapping_neg()
}

/// Expand `t` for a 1-D CTA of `threads` threads in slot 0 with index
/// `(0, 0)`, drain, and return the bench.
fn expand_1d(t: &Tuple, threads: u64) -> Tb {
    let mut tb = Tb::one_d(threads);
    tb.launch(0, 0, 0);
    tb.enq(t);
    tb.drain();
    tb
}

// ----- reset -----

/// Outputs of the reset state.
fn reset_outputs() -> DacOut {
    DacOut {
        enq_ready: true,
        ..DacOut::default()
    }
}

#[test]
fn a_new_model_is_in_its_reset_state() {
    let m = DacModel::new(&DacParams::default());
    assert_eq!(m.outputs(), reset_outputs());
    assert!(m.idle() && m.queues_empty() && !m.busy());
    assert_eq!(m.atq_len(), 0);
    assert_eq!((0..8).filter_map(|c| m.slot(c)).count(), 0);
}

#[test]
#[should_panic(expected = "invalid dac_expander configuration")]
fn an_impossible_configuration_is_refused() {
    let _ = DacModel::with_params(&DacParams {
        PWAQ_DEPTH: 3,
        ..DacParams::default()
    });
}

#[test]
fn reset_clears_every_slot_queue_counter_and_the_atq() {
    let p = DacParams::default();
    let mut tb = Tb::one_d(64);
    tb.launch(0, 1, 2);
    tb.launch(1, 3, 4);
    // Predicates (fast and slow), DATA with mem never ready, a queue left
    // full, a pending response.
    tb.mem_ready = false;
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0));
    tb.enq(&pred_tuple(0, 1, cmp::LT, 5));
    tb.enq(&addr_tuple(kind::DATA, 0, 128, gran::WORD));
    tb.enq(&word_tuple(0, 4));
    tb.idle(30);
    tb.deq(0, DEQ_PRED);
    let out = tb.out();
    assert!(out.mem_valid && out.rsp_hit);
    assert!(out.stat_pred_fast > 0 && out.stat_pred_slow > 0);
    assert!(tb.m.busy() && !tb.m.queues_empty() && tb.m.atq_len() > 0);

    // A reset edge with every other input active: nothing else happens.
    let e = DacIn {
        reset: true,
        ..with(
            with(launch(2, 5, 5), enq(&word_tuple(0, 4))),
            deq(1, DEQ_ADDR),
        )
    };
    tb.edge(e);
    assert_eq!(tb.out(), reset_outputs());
    assert!(tb.m.idle() && tb.m.queues_empty());
    assert_eq!((0..p.N_CTA).filter_map(|c| tb.m.slot(c)).count(), 0);
    assert_eq!(tb.m.response(), Response::default());

    // After reset: a tuple with no active slot produces nothing.
    tb.mem_ready = true;
    tb.enq(&word_tuple(0, 4));
    tb.idle(5);
    assert!(tb.m.idle() && tb.m.queues_empty());
    assert_eq!(tb.out(), reset_outputs());
}

#[test]
fn reset_held_for_several_edges_keeps_the_reset_state() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 4));
    for _ in 0..3 {
        tb.edge(DacIn {
            reset: true,
            ..enq(&word_tuple(0x100, 4))
        });
        assert_eq!(tb.out(), reset_outputs());
    }
}

// ----- the spec's scenarios -----

#[test]
fn scenario_figure_1_one_word_record() {
    let tb = expand_1d(&word_tuple(0x100, 4), 32);
    assert_eq!(
        tb.got_addr[0],
        vec![rec(0x100, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert!(tb.got_addr[1..].iter().all(Vec::is_empty));
}

#[test]
fn scenario_figure_5_two_warps() {
    let expect = |tb: &Tb| {
        assert_eq!(
            tb.got_addr[0],
            vec![rec(0x81000, 0xFFFF_FFFF, gran::WORD, true)]
        );
        assert_eq!(
            tb.got_addr[1],
            vec![rec(0x81080, 0xFFFF_FFFF, gran::WORD, true)]
        );
    };
    // The summed tuple (0x81000, 4).
    expect(&expand_1d(&word_tuple(0x81000, 4), 64));
    // The same, as (0x80000, off_tx = 4) with off_cx = 0x1000, CTA x = 1.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0x80000, 4)
    });
    tb.drain();
    expect(&tb);
}

#[test]
fn scenario_offset_8_two_half_masks() {
    let tb = expand_1d(&word_tuple(0x2000, 8), 32);
    assert_eq!(
        tb.got_addr[0],
        vec![
            rec(0x2000, 0x5555_5555, gran::WORD, false),
            rec(0x2080, 0x5555_5555, gran::WORD, true),
        ]
    );
}

// ----- address records -----

#[test]
fn byte_granularity_uses_32_byte_regions() {
    let t = addr_tuple(kind::ADDR, 0x1000, 1, gran::BYTE);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1000, 0xFFFF_FFFF, gran::BYTE, true)]
    );
    // Misaligned by 16: two regions.
    let t = addr_tuple(kind::ADDR, 0x1010, 1, gran::BYTE);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![
            rec(0x1000, 0xFFFF_0000, gran::BYTE, false),
            rec(0x1020, 0x0000_FFFF, gran::BYTE, true),
        ]
    );
    // Four bytes per thread: eight lanes per region, every fourth chunk.
    let t = addr_tuple(kind::ADDR, 0x1000, 4, gran::BYTE);
    let got = &expand_1d(&t, 32).got_addr[0];
    assert_eq!(got.len(), 4);
    for (i, r) in got.iter().enumerate() {
        assert_eq!(
            *r,
            rec(0x1000 + 32 * i as u32, 0x1111_1111, gran::BYTE, i == 3)
        );
    }
}

#[test]
fn half_word_granularity_uses_64_byte_regions() {
    let t = addr_tuple(kind::ADDR, 0x1000, 2, gran::HALF);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1000, 0xFFFF_FFFF, gran::HALF, true)]
    );
    let t = addr_tuple(kind::ADDR, 0x1000, 4, gran::HALF);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![
            rec(0x1000, 0x5555_5555, gran::HALF, false),
            rec(0x1040, 0x5555_5555, gran::HALF, true),
        ]
    );
    // Lanes in one region with repeated chunks: offset 1 at half-word
    // granularity (two lanes per chunk).
    let t = addr_tuple(kind::ADDR, 0x1000, 1, gran::HALF);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1000, 0x0000_FFFF, gran::HALF, true)]
    );
}

#[test]
fn a_zero_offset_is_one_record_with_one_chunk() {
    let t = addr_tuple(kind::ADDR, 0x1234, 0, gran::WORD);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1200, 1 << 13, gran::WORD, true)]
    );
}

#[test]
fn negative_offsets() {
    // Descending within one line.
    assert_eq!(
        expand_1d(&word_tuple(0x17C, neg(4)), 32).got_addr[0],
        vec![rec(0x100, 0xFFFF_FFFF, gran::WORD, true)]
    );
    // Lane 0 alone in its line, then the line below.
    assert_eq!(
        expand_1d(&word_tuple(0x100, neg(4)), 32).got_addr[0],
        vec![
            rec(0x100, 0x1, gran::WORD, false),
            rec(0x80, 0xFFFF_FFFE, gran::WORD, true),
        ]
    );
    // Wrapping below address 0.
    assert_eq!(
        expand_1d(&word_tuple(0x8, neg(4)), 32).got_addr[0],
        vec![
            rec(0, 0b111, gran::WORD, false),
            rec(0xFFFF_FF80, 0xFFFF_FFF8, gran::WORD, true),
        ]
    );
}

#[test]
fn a_region_revisited_later_is_a_new_record() {
    // Lanes alternate between two lines: no merging of non-adjacent runs.
    // 2-D block 2 x 16: tx alternates 0, 1; off_tx = 128, off_ty = 4.
    let mut tb = Tb::new(&DacParams::default(), 1, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 4,
        ..word_tuple(0x1000, 128)
    });
    tb.drain();
    let got = &tb.got_addr[0];
    assert_eq!(got.len(), 32);
    for (l, r) in got.iter().enumerate() {
        let (tx, ty) = (l as u32 % 2, l as u32 / 2);
        assert_eq!(*r, rec(0x1000 + 128 * tx, 1 << ty, gran::WORD, l == 31));
    }
}

#[test]
fn two_d_block_narrower_than_a_warp() {
    // blockDim = 8 x 8, row pitch 256 bytes.
    let mut tb = Tb::new(&DacParams::default(), 3, 64, 2);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 0x100,
        ..word_tuple(0x4000, 4)
    });
    tb.drain();
    for wi in 0..2u32 {
        let expect: Vec<Record> = (0..4u32)
            .map(|r| rec(0x4000 + 0x100 * (4 * wi + r), 0xFF, gran::WORD, r == 3))
            .collect();
        assert_eq!(tb.got_addr[wi as usize], expect, "warp {wi}");
    }
}

#[test]
fn two_d_block_wider_than_a_warp() {
    // blockDim = 64 x 2: warps 0, 1 are row 0, warps 2, 3 row 1.
    let mut tb = Tb::new(&DacParams::default(), 6, 128, 4);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 0x1000,
        ..word_tuple(0x10000, 4)
    });
    tb.drain();
    for (wi, addr) in [0x10000, 0x10080, 0x11000, 0x11080].into_iter().enumerate() {
        assert_eq!(
            tb.got_addr[wi],
            vec![rec(addr, 0xFFFF_FFFF, gran::WORD, true)],
            "warp {wi}"
        );
    }
}

#[test]
fn partial_last_warp() {
    let tb = expand_1d(&word_tuple(0x100, 4), 40);
    assert_eq!(
        tb.got_addr[0],
        vec![rec(0x100, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert_eq!(tb.got_addr[1], vec![rec(0x180, 0xFF, gran::WORD, true)]);
    // 40 threads with offset 8: the partial warp's 8 lanes fit one line.
    let tb = expand_1d(&word_tuple(0x0, 8), 40);
    assert_eq!(tb.got_addr[0].len(), 2);
    assert_eq!(tb.got_addr[1], vec![rec(0x100, 0x5555, gran::WORD, true)]);
}

#[test]
fn several_slots_and_cta_indices() {
    let p = DacParams::default();
    let mut tb = Tb::with_1d(&p, 64);
    tb.launch(0, 1, 0);
    tb.launch(2, 2, 3);
    tb.launch(5, 0xFFFF, 1);
    tb.enq(&Tuple {
        off_cx: 0x10000,
        off_cy: 0x100_0000,
        ..word_tuple(0x100, 4)
    });
    tb.drain();
    let base = |cx: u32, cy: u32| {
        0x100u32
            .wrapping_add(cx.wrapping_mul(0x10000))
            .wrapping_add(cy.wrapping_mul(0x100_0000))
    };
    for (slot, cx, cy) in [(0usize, 1, 0), (2, 2, 3), (5, 0xFFFF, 1)] {
        for wi in 0..2 {
            let a = base(cx, cy) + 0x80 * wi as u32;
            assert_eq!(
                tb.got_addr[slot * 2 + wi],
                vec![rec(a, 0xFFFF_FFFF, gran::WORD, true)],
                "slot {slot} warp {wi}"
            );
        }
    }
    // Inactive slots get nothing.
    for slot in [1usize, 3, 4, 6, 7] {
        assert!(tb.got_addr[2 * slot].is_empty() && tb.got_addr[2 * slot + 1].is_empty());
    }
}

#[test]
fn data_records_issue_one_line_request_each_in_order() {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0x2000, 8, gran::WORD));
    tb.drain();
    let lines: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    assert_eq!(lines, vec![0x2000, 0x2080, 0x2100, 0x2180]);
    assert_eq!(tb.got_addr[0].len(), 2);
    assert_eq!(tb.got_addr[1].len(), 2);
    // Byte regions: the request is for the line containing the region.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0x10A0, 1, gran::BYTE));
    tb.drain();
    assert_eq!(
        tb.got_addr[0],
        vec![rec(0x10A0, 0xFFFF_FFFF, gran::BYTE, true)]
    );
    assert_eq!(
        tb.mem.iter().map(|&(_, a)| a).collect::<Vec<_>>(),
        vec![0x1080]
    );
    assert_eq!(tb.m.stats().mem_requests, 1);
    assert_eq!(tb.m.stats().mem_taken, 1);
}

#[test]
fn addr_tuples_issue_no_memory_request() {
    let tb = expand_1d(&word_tuple(0x2000, 128), 64);
    assert!(tb.mem.is_empty());
    assert_eq!(tb.m.stats().records_pushed, 64);
}

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

// ----- timing -----

#[test]
fn latency_of_a_record() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    let t = tb.enq(&word_tuple(0x100, 4));
    // Cycle t+1: the start cycle.
    assert_eq!(tb.now(), t + 1);
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    tb.idle(1); // edge t+1
    assert!(tb.m.busy());
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 0);
    // Cycle t+2: a dequeue misses; the record is pushed at edge t+2.
    tb.deq(0, DEQ_ADDR);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    let out = tb.out();
    assert!(out.rsp_valid && !out.rsp_hit);
    // The tuple left at edge t+2 (its only warp was done).
    assert_eq!(out.atq_count, 0);
    assert!(!tb.m.busy());
    // Cycle t+3: the dequeue pops; shown in cycle t+4.
    let e = tb.deq(0, DEQ_ADDR);
    assert_eq!(e, t + 3);
    let out = tb.out();
    assert!(out.rsp_valid && out.rsp_hit);
    assert_eq!(
        (out.rsp_addr, out.rsp_mask, out.rsp_gran, out.rsp_last),
        (0x100, 0xFFFF_FFFF, gran::WORD, true)
    );
    // Cycle t+5: no dequeue in t+4, every rsp_* is 0.
    tb.idle(1);
    assert_eq!(tb.out(), reset_outputs());
}

#[test]
fn latency_of_a_memory_request() {
    let mut tb = Tb::one_d(32);
    tb.mem_ready = false;
    tb.launch(0, 0, 0);
    // One 32-byte region in line 0x1200.
    let t = tb.enq(&addr_tuple(kind::DATA, 0x1220, 1, gran::BYTE));
    tb.idle(1); // t+1
    assert!(!tb.out().mem_valid);
    tb.idle(1); // t+2: record and request
    let out = tb.out(); // cycle t+3
    assert!(out.mem_valid);
    assert_eq!(out.mem_addr, 0x1200);
    assert_eq!(tb.now(), t + 3);
    // Held until taken.
    tb.idle(3);
    assert!(tb.out().mem_valid && tb.out().mem_addr == 0x1200);
    tb.mem_ready = true;
    let e = tb.edge(DacIn::default());
    assert_eq!(tb.mem, vec![(e, 0x1200)]);
    assert!(!tb.out().mem_valid);
    // mem_addr keeps the last request (the contract's register).
    assert_eq!(tb.out().mem_addr, 0x1200);
}

#[test]
fn thirty_two_records_in_thirty_two_cycles() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    let t = tb.enq(&word_tuple(0x1004, 128));
    tb.idle(2); // t+1 start, t+2 first record
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    for i in 1..32 {
        // Cycle t+2+i: dequeue one, push one.
        let e = tb.deq(0, DEQ_ADDR);
        assert_eq!(e, t + 2 + i);
        assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1, "record {i}");
        assert_eq!(tb.out().atq_count, u64::from(i < 31));
    }
    tb.drain();
    let got = &tb.got_addr[0];
    assert_eq!(got.len(), 32);
    for (i, r) in got.iter().enumerate() {
        assert_eq!(*r, rec(0x1000 + 128 * i as u32, 0b10, gran::WORD, i == 31));
    }
    assert_eq!(tb.m.stats().stall_cycles(), 0);
    assert_eq!(tb.m.stats().busy_cycles, 32);
}

#[test]
fn one_cycle_per_single_region_warp_and_the_next_tuple_follows() {
    // Two slots of 64 threads: 4 warps, one record each; a second tuple
    // enqueued at once starts the cycle after the first leaves.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    let t = tb.enq(&word_tuple(0x100, 4));
    tb.enq(&word_tuple(0x8000, 4)); // edge t+1 (the first's start)
    let pushed = |tb: &Tb| {
        (0..4)
            .map(|w| tb.m.queue_len(w, DEQ_ADDR))
            .collect::<Vec<_>>()
    };
    tb.idle(1); // t+2: warp 0
    assert_eq!(pushed(&tb), vec![1, 0, 0, 0]);
    tb.idle(1); // t+3: warp 1
    tb.idle(1); // t+4: warp 2
    assert_eq!(pushed(&tb), vec![1, 1, 1, 0]);
    assert_eq!(tb.out().atq_count, 2);
    tb.idle(1); // t+5: warp 3, the first tuple leaves
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    tb.idle(1); // t+6: start of the second
    assert!(tb.m.busy());
    assert_eq!(pushed(&tb), vec![1, 1, 1, 1]);
    let e = tb.edge(DacIn::default()); // t+7: its warp 0
    assert_eq!(e, t + 7);
    assert_eq!(pushed(&tb), vec![2, 1, 1, 1]);
}

#[test]
fn predicate_paths_take_one_cycle_or_g_cycles() {
    // Per warp of 32 lanes: fast one cycle, slow four cycles.
    let cycles = |t: &Tuple, threads: u64| {
        let mut tb = Tb::one_d(threads);
        tb.launch(0, 0, 0);
        tb.enq(t);
        tb.idle(1); // start
        let mut n = 0;
        while tb.m.busy() {
            tb.idle(1);
            n += 1;
        }
        n
    };
    assert_eq!(cycles(&pred_tuple(0, 0, cmp::EQ, 0), 32), 1);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 32), 4);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 64), 8);
    // Partial warps: G = ceil(n / 8).
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 40), 4 + 1);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 41), 4 + 2);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 8), 1);
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::EQ, 0), 9), 2);
    // Mixed: warp 0 slow (first/last differ), warp 1 fast.
    assert_eq!(cycles(&pred_tuple(0, 1, cmp::LT, 10), 64), 4 + 1);
}

#[test]
fn slow_path_groups_and_the_mask_push() {
    // Watch the cursor: groups 0..3, the mask pushed in group 3's cycle.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::NE, 12));
    tb.idle(1);
    let mut partials = Vec::new();
    for _ in 0..3 {
        tb.idle(1);
        let c = tb.m.cursor().expect("busy");
        partials.push((c.g, c.partial));
        assert_eq!(tb.m.queue_len(0, DEQ_PRED), 0);
        assert_eq!(tb.out().stat_pred_slow, 0);
    }
    assert_eq!(partials, vec![(1, 0xFF), (2, 0xEFFF), (3, 0xFF_EFFF)]);
    tb.idle(1);
    assert!(!tb.m.busy());
    assert_eq!(tb.m.pred_queue(0), vec![0xFFFF_EFFF]);
    assert_eq!(tb.out().stat_pred_slow, 1);
}

#[test]
fn warps_out_of_range_or_empty_take_one_cycle_and_produce_nothing() {
    // N_WARPS = 4, W = 2: slot 2's warps are 4 and 5.
    let p = DacParams {
        N_WARPS: 4,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 64);
    tb.launch(0, 0, 0);
    tb.launch(2, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::EQ, 3));
    tb.idle(1); // start
    let mut n = 0;
    while tb.m.busy() {
        tb.idle(1);
        n += 1;
    }
    // Slot 0: two slow warps (4 cycles each); slot 2: one cycle each.
    assert_eq!(n, 4 + 4 + 1 + 1);
    assert_eq!(tb.out().stat_pred_slow, 2);
    assert_eq!(tb.m.stats().warps_skipped, 2);
    // W = 3 with 64 threads: warp 2 has no active lane.
    let mut tb = Tb::new(&DacParams::default(), 6, 64, 3);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(1);
    let mut n = 0;
    while tb.m.busy() {
        tb.idle(1);
        n += 1;
    }
    assert_eq!(n, 3);
    assert_eq!(tb.m.queue_len(2, DEQ_ADDR), 0);
    assert_eq!(tb.m.stats().warps_skipped, 1);
    // Every warp empty (cfg_threads = 0): one cycle per warp.
    let mut tb = Tb::new(&DacParams::default(), 0, 0, 2);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(1);
    tb.idle(1);
    assert!(tb.m.busy());
    tb.idle(1);
    assert!(tb.m.idle() && tb.m.queues_empty());
}

#[test]
fn zero_warps_per_cta_reading() {
    // The contract's "at once when W = 0": one step per slot, on warp 0.
    // With cfg_threads = 0 (the consistent configuration) it produces
    // nothing.
    let mut tb = Tb::new(&DacParams::default(), 0, 0, 0);
    tb.launch(0, 0, 0);
    tb.launch(3, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(1); // start
    tb.idle(1); // slot 0
    assert!(tb.m.busy());
    tb.idle(1); // slot 3
    assert!(tb.m.idle() && tb.m.queues_empty());
    // The model's reading with cfg_threads > 0: warp id c * 0 + 0 = 0
    // receives lanes 0..n-1 of each slot.
    let mut tb = Tb::new(&DacParams::default(), 5, 32, 0);
    tb.launch(0, 0, 0);
    tb.launch(3, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 4)
    });
    tb.idle(3);
    assert!(tb.m.idle());
    assert_eq!(
        tb.m.addr_queue(0),
        vec![
            rec(0, 0xFFFF_FFFF, gran::WORD, true),
            rec(0x1000, 0xFFFF_FFFF, gran::WORD, true)
        ]
    );
}

// ----- stalls -----

#[test]
fn a_full_address_queue_stalls_the_record() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    let t = tb.enq(&word_tuple(0, 128));
    tb.idle(5); // t+1 start, t+2..t+5 four records
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    tb.idle(3); // t+6..t+8 stalled
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    assert_eq!(tb.m.cursor().expect("busy").p, 4);
    assert_eq!(tb.m.stats().stall_queue_cycles, 3);
    // A pop at edge t+9: the queue was full at the start of the cycle, so
    // the record waits one more cycle.
    let e = tb.deq(0, DEQ_ADDR);
    assert_eq!(e, t + 9);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 3);
    tb.idle(1); // t+10: the fifth record
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    assert_eq!(tb.m.stats().stall_queue_cycles, 4);
    tb.drain();
    let got = &tb.got_addr[0];
    assert_eq!(got.len(), 32);
    assert!(got
        .iter()
        .enumerate()
        .all(|(i, r)| r.addr == 128 * i as u32));
}

#[test]
fn a_full_queue_of_one_warp_does_not_block_earlier_progress() {
    // Warp 1's queue full before the tuple: warp 0 is served, then the
    // expander stalls on warp 1.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    for _ in 0..4 {
        tb.enq(&Tuple {
            base: 0x1000,
            ..word_tuple(0, 4)
        });
    }
    // Drain warp 0 only as it fills; warp 1 stays full after 4 tuples.
    tb.idle(20);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 4);
    assert_eq!(tb.m.queue_len(1, DEQ_ADDR), 4);
    tb.enq(&word_tuple(0x2000, 4));
    tb.idle(1); // start
    tb.idle(1); // warp 0: full too
    assert_eq!(tb.m.cursor().expect("busy").wi, 0);
    tb.deq(0, DEQ_ADDR); // pop (the push still waits: full at the start)
    tb.idle(1); // warp 0 pushed
    assert_eq!(tb.m.cursor().expect("busy").wi, 1);
    tb.idle(2); // warp 1 stalls
    assert_eq!(tb.m.cursor().expect("busy").wi, 1);
    tb.deq(1, DEQ_ADDR);
    tb.idle(1);
    assert!(!tb.m.busy());
    assert_eq!(tb.m.addr_queue(1).last().expect("record").addr, 0x2080);
}

#[test]
fn data_records_wait_for_the_memory_register() {
    let mut tb = Tb::one_d(32);
    tb.mem_ready = false;
    tb.launch(0, 0, 0);
    let t = tb.enq(&addr_tuple(kind::DATA, 0x3000, 256, gran::WORD));
    tb.idle(2); // t+1 start, t+2 first record and request
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    tb.idle(4); // t+3..t+6: the register is busy
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    assert_eq!(tb.m.stats().stall_mem_cycles, 4);
    assert_eq!(tb.out().mem_addr, 0x3000);
    // mem_ready in cycle t+7: taken and reloaded at the same edge.
    tb.mem_ready = true;
    let e = tb.edge(DacIn::default());
    assert_eq!(e, t + 7);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 2);
    assert!(tb.out().mem_valid);
    assert_eq!(tb.out().mem_addr, 0x3100);
    assert_eq!(tb.mem, vec![(t + 7, 0x3000)]);
    // With mem_ready every cycle and room: one record and request per cycle.
    tb.deq(0, DEQ_ADDR);
    tb.deq(0, DEQ_ADDR);
    assert_eq!(
        tb.mem,
        vec![(t + 7, 0x3000), (t + 8, 0x3100), (t + 9, 0x3200)]
    );
    tb.drain();
    let lines: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    let expect: Vec<u64> = (0..32).map(|i| 0x3000 + 256 * i).collect();
    assert_eq!(lines, expect);
}

#[test]
fn a_full_queue_beats_a_free_memory_register() {
    // ADDR/DATA: the queue full is a queue stall even when mem is busy.
    let p = DacParams {
        PWAQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.mem_ready = false;
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0, 128, gran::WORD));
    tb.idle(2);
    tb.idle(3);
    let s = tb.m.stats();
    assert_eq!((s.stall_queue_cycles, s.stall_mem_cycles), (3, 0));
    // Room, but the register still busy.
    tb.deq(0, DEQ_ADDR);
    tb.idle(2);
    let s = tb.m.stats();
    assert_eq!((s.stall_queue_cycles, s.stall_mem_cycles), (4, 2));
}

#[test]
fn a_fast_mask_waits_for_room_and_counts_at_its_push() {
    let p = DacParams {
        PWPQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0));
    tb.enq(&pred_tuple(0, 0, cmp::NE, 0));
    tb.idle(4);
    // First pushed; second started and stalled.
    assert_eq!(tb.out().stat_pred_fast, 1);
    assert!(tb.m.busy());
    tb.idle(3);
    assert_eq!(tb.out().stat_pred_fast, 1);
    tb.deq(0, DEQ_PRED);
    assert_eq!(tb.out().stat_pred_fast, 1);
    tb.idle(1);
    assert_eq!(tb.out().stat_pred_fast, 2);
    assert_eq!(tb.m.pred_queue(0), vec![0]);
    assert_eq!(tb.got_pred[0], vec![0xFFFF_FFFF]);
}

#[test]
fn a_slow_last_group_repeats_while_the_queue_is_full() {
    let p = DacParams {
        PWPQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0)); // fast, fills the queue
    let t = tb.enq(&pred_tuple(0, 1, cmp::LT, 20));
    // First tuple: start t, warp t+1 (pushes). Second: start t+2, groups
    // 0..2 at t+3..t+5 despite the full queue, group 3 stalls from t+6.
    tb.idle(4); // edges t+1..t+4
    tb.idle(1); // t+5
    let c = tb.m.cursor().expect("busy");
    assert_eq!((c.g, c.partial), (3, 0xF_FFFF));
    assert_eq!(tb.m.stats().stall_queue_cycles, 0);
    tb.idle(3); // t+6..t+8 stalled in group 3
    let c = tb.m.cursor().expect("busy");
    assert_eq!((c.g, c.partial), (3, 0xF_FFFF));
    assert_eq!(tb.m.stats().stall_queue_cycles, 3);
    assert_eq!(tb.out().stat_pred_slow, 0);
    tb.deq(0, DEQ_PRED); // t+9: still full at the start
    tb.idle(1); // t+10: pushed
    assert_eq!(tb.now(), t + 11);
    assert!(!tb.m.busy());
    assert_eq!(tb.out().stat_pred_slow, 1);
    assert_eq!(tb.m.pred_queue(0), vec![0x000F_FFFF]);
}

// ----- dequeue -----

#[test]
fn push_and_pop_of_one_queue_at_one_edge() {
    // Queue holding one record: pop the old head, keep the new record.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 128));
    tb.idle(2); // start, record 0
    tb.deq(0, DEQ_ADDR); // pops record 0, pushes record 1
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);
    assert_eq!(tb.out().rsp_addr, 0x100);
    assert_eq!(tb.m.addr_queue(0)[0].addr, 0x180);

    // Empty queue: the pop misses, the pushed record stays.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 4));
    tb.idle(1);
    tb.deq(0, DEQ_ADDR);
    let out = tb.out();
    assert!(out.rsp_valid && !out.rsp_hit);
    assert_eq!(tb.m.queue_len(0, DEQ_ADDR), 1);

    // Full queue: the pop takes effect, the push waits.
    let p = DacParams {
        PWPQ_DEPTH: 2,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    for s in [1, 2, 3] {
        tb.enq(&pred_tuple(0, 0, cmp::LT, s));
    }
    tb.idle(10);
    assert_eq!(tb.m.pred_queue(0), vec![0xFFFF_FFFF, 0xFFFF_FFFF]);
    tb.deq(0, DEQ_PRED);
    assert_eq!(tb.m.queue_len(0, DEQ_PRED), 1);
    tb.idle(1);
    assert_eq!(tb.m.queue_len(0, DEQ_PRED), 2);
}

#[test]
fn dequeue_responses() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&pred_tuple(0, 1, cmp::GE, 16));
    tb.enq(&addr_tuple(kind::ADDR, 0x40, 2, gran::HALF));
    tb.idle(10);
    // Predicate: rsp_mask alone.
    tb.deq(0, DEQ_PRED);
    assert_eq!(
        tb.out(),
        DacOut {
            enq_ready: true,
            rsp_valid: true,
            rsp_hit: true,
            rsp_mask: 0xFFFF_0000,
            stat_pred_slow: 1,
            ..DacOut::default()
        }
    );
    // Address record: every field.
    tb.deq(0, DEQ_ADDR);
    let out = tb.out();
    assert_eq!(
        (out.rsp_addr, out.rsp_mask, out.rsp_gran, out.rsp_last),
        (0x40, 0xFFFF_FFFF, gran::HALF, true)
    );
    // Empty queue, another warp, an out-of-range warp: misses.
    for (w, k) in [(0, DEQ_ADDR), (5, DEQ_PRED), (50, DEQ_ADDR), (63, DEQ_PRED)] {
        tb.deq(w, k);
        let out = tb.out();
        assert!(out.rsp_valid && !out.rsp_hit, "warp {w} kind {k}");
    }
    // deq_kind and deq_warp are taken modulo their widths.
    tb.enq(&word_tuple(0x100, 4));
    tb.idle(3);
    tb.deq(64, 2); // warp 0, kind 0
    assert!(tb.out().rsp_hit);
    assert_eq!(tb.out().rsp_addr, 0x100);
    assert_eq!(tb.m.stats().deq_hits, 3);
    assert_eq!(tb.m.stats().deq_misses, 4);
}

// ----- enqueue, ATQ, start -----

#[test]
fn enq_ready_falls_when_the_atq_is_full() {
    let p = DacParams {
        ATQ_DEPTH: 3,
        PWAQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    // The first tuple stalls after one record (queue of one).
    tb.enq(&word_tuple(0, 128));
    tb.enq(&word_tuple(0x10000, 4));
    assert_eq!(tb.out().atq_count, 2);
    assert!(tb.out().enq_ready);
    tb.enq(&word_tuple(0x20000, 4));
    assert_eq!(tb.out().atq_count, 3);
    assert!(!tb.out().enq_ready);
    // A tuple offered while full is not taken.
    tb.edge(enq(&word_tuple(0x30000, 4)));
    tb.edge(enq(&word_tuple(0x30000, 4)));
    assert_eq!(tb.out().atq_count, 3);
    assert_eq!(tb.m.stats().enq_refused_cycles, 2);
    assert_eq!(tb.m.atq()[2].base, 0x20000);
    tb.drain();
    assert_eq!(tb.m.stats().tuples_enqueued, 3);
    assert_eq!(tb.got_addr[0].len(), 34);
}

#[test]
fn a_tuple_leaving_and_one_arriving_at_one_edge() {
    let p = DacParams {
        ATQ_DEPTH: 1,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    // Full: refused in the start cycle and the warp's cycle.
    assert!(!tb.out().enq_ready);
    tb.idle(1);
    assert!(!tb.out().enq_ready);
    tb.idle(1); // the tuple leaves
    assert!(tb.out().enq_ready);
    assert_eq!(tb.out().atq_count, 0);
    // Depth 2: the tuple leaves and one arrives at the same edge.
    let p = DacParams {
        ATQ_DEPTH: 2,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    tb.idle(1); // start
    tb.enq(&word_tuple(0x100, 4)); // the first leaves, the second arrives
    assert_eq!(tb.out().atq_count, 1);
    assert!(!tb.m.busy());
    assert_eq!(tb.m.atq()[0].base, 0x100);
    // Full (2 of 2) in the cycle the current tuple leaves: refused.
    tb.enq(&word_tuple(0x200, 4)); // start of 0x100
    assert_eq!(tb.out().atq_count, 2);
    tb.edge(enq(&word_tuple(0x300, 4))); // 0x100 leaves, 0x300 refused
    assert_eq!(
        tb.m.atq().iter().map(|t| t.base).collect::<Vec<_>>(),
        vec![0x200]
    );
}

#[test]
fn atq_count_includes_the_tuple_being_expanded() {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0, 4));
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(1); // start
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(1); // warp 0
    assert_eq!(tb.out().atq_count, 1);
    tb.idle(1); // warp 1: leaves
    assert_eq!(tb.out().atq_count, 0);
}

#[test]
fn reserved_tuples_leave_at_their_start_edge() {
    let reserved = [
        Tuple {
            kind: 3,
            ..word_tuple(0, 4)
        },
        addr_tuple(kind::ADDR, 0, 4, 3),
        addr_tuple(kind::DATA, 0, 4, 3),
        pred_tuple(0, 0, 6, 0),
        pred_tuple(0, 0, 7, 0),
    ];
    for t in reserved {
        let mut tb = Tb::one_d(32);
        tb.launch(0, 0, 0);
        let e = tb.enq(&t);
        assert_eq!(tb.out().atq_count, 1);
        tb.idle(1); // start edge e+1: leaves
        assert_eq!(tb.out().atq_count, 0, "{t:?}");
        assert!(tb.m.idle());
        // The next tuple starts in the next cycle.
        let e2 = tb.enq(&word_tuple(0x100, 4));
        assert_eq!(e2, e + 2);
        tb.idle(1);
        assert!(tb.m.busy());
        tb.drain();
        assert_eq!(tb.got_addr[0], vec![rec(0x100, !0, gran::WORD, true)]);
        assert!(tb.mem.is_empty() && tb.got_pred[0].is_empty());
        assert_eq!(tb.m.stats().tuples_reserved, 1);
    }
    // gran 3 does not matter to a predicate, cmp 7 not to an address.
    let t = Tuple {
        gran: 3,
        ..pred_tuple(0, 0, cmp::EQ, 0)
    };
    assert_eq!(expand_1d(&t, 32).got_pred[0], vec![0xFFFF_FFFF]);
    let t = Tuple {
        cmp: 7,
        ..word_tuple(0x100, 4)
    };
    assert_eq!(expand_1d(&t, 32).got_addr[0].len(), 1);
}

#[test]
fn a_tuple_with_no_active_slot_leaves_at_its_start_edge() {
    let mut tb = Tb::one_d(32);
    tb.enq(&word_tuple(0x100, 4));
    // A launch in the start cycle is too late for this tuple.
    tb.launch(0, 0, 0);
    assert_eq!(tb.out().atq_count, 0);
    assert!(tb.m.idle());
    assert_eq!(tb.m.stats().tuples_without_slots, 1);
    tb.drain();
    assert!(tb.got_addr[0].is_empty());
}

#[test]
fn the_slot_set_is_sampled_at_the_start_cycle() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 4)
    });
    // Start cycle: slot 1 done and slot 2 launched at the start edge.
    tb.edge(with(done(1), launch(2, 2, 0)));
    assert_eq!(tb.m.cursor().expect("busy").todo, 0b011);
    tb.drain();
    assert_eq!(tb.got_addr[0], vec![rec(0, !0, gran::WORD, true)]);
    // Slot 1, done, is still expanded with its index.
    assert_eq!(tb.got_addr[1], vec![rec(0x1000, !0, gran::WORD, true)]);
    // Slot 2, launched during the start cycle, is not.
    assert!(tb.got_addr[2].is_empty());
    // The next tuple sees slots 0 and 2.
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 4)
    });
    tb.drain();
    assert_eq!(tb.got_addr[1].len(), 1);
    assert_eq!(tb.got_addr[2], vec![rec(0x2000, !0, gran::WORD, true)]);
}

#[test]
fn cta_indices_are_read_when_the_slot_is_expanded() {
    // Slot 1 is relaunched (done + launch at one edge) while slot 0 is
    // being expanded: its warps use the new index.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.launch(1, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0, 128)
    });
    tb.idle(2); // start, slot 0 record 0
    tb.edge(with(done(1), launch(1, 5, 0)));
    assert_eq!(tb.m.slot(1), Some((5, 0)));
    tb.drain();
    assert_eq!(tb.got_addr[1][0].addr, 0x5000);
}

#[test]
fn slot_updates() {
    let p = DacParams {
        N_CTA: 3,
        ..DacParams::default()
    };
    let mut tb = Tb::with_1d(&p, 32);
    // Slot numbers >= N_CTA are ignored (2 slot bits).
    tb.launch(3, 1, 1);
    assert_eq!((0..4).filter_map(|c| tb.m.slot(c)).count(), 0);
    // Slot numbers and indices are taken modulo their widths.
    tb.launch(4 + 2, 0x1_0007, 0x2_0008);
    assert_eq!(tb.m.slot(2), Some((7, 8)));
    // Done then launch of one slot: active with the new index.
    tb.edge(with(done(2), launch(2, 9, 9)));
    assert_eq!(tb.m.slot(2), Some((9, 9)));
    tb.edge(done(2));
    assert_eq!(tb.m.slot(2), None);
    tb.edge(done(3)); // ignored
}

#[test]
fn inputs_are_taken_modulo_their_widths() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.edge(DacIn {
        enq_valid: true,
        enq_kind: 4 + kind::ADDR,
        enq_base: 0x1_0000_0100,
        enq_off_tx: 0xF_0000_0004,
        enq_off_ty: 0x1_0000_0000,
        enq_off_cx: 0x1_0000_0000,
        enq_off_cy: 0x1_0000_0000,
        enq_gran: 4 + gran::WORD,
        enq_cmp: 8,
        enq_scalar: 0x1_0000_0000,
        ..DacIn::default()
    });
    assert_eq!(tb.m.atq()[0], word_tuple(0x100, 4));
    tb.drain();
    assert_eq!(tb.got_addr[0], vec![rec(0x100, !0, gran::WORD, true)]);
    // cfg_* too: 32 threads, k = 5 and W = 1 with high bits set.
    let mut tb = Tb::new(&DacParams::default(), 16 + 5, (1 << 11) + 32, (1 << 6) + 1);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 4));
    tb.drain();
    assert_eq!(tb.got_addr[0], vec![rec(0x100, !0, gran::WORD, true)]);
}

#[test]
fn statistics_count_events() {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0, 8, gran::WORD));
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0));
    tb.enq(&pred_tuple(0, 1, cmp::EQ, 0));
    tb.enq(&Tuple {
        kind: 3,
        ..Tuple::default()
    });
    tb.drain();
    let s = tb.m.stats();
    assert_eq!(s.tuples_enqueued, 4);
    assert_eq!(s.tuples_started, 3);
    assert_eq!(s.tuples_expanded, 3);
    assert_eq!(s.tuples_reserved, 1);
    assert_eq!(s.records_pushed, 4);
    assert_eq!((s.mem_requests, s.mem_taken), (4, 4));
    assert_eq!(s.masks_pushed, 4);
    assert_eq!((s.pred_fast, s.pred_slow), (2, 2));
    assert_eq!(s.slow_groups, 6);
    assert_eq!(s.warps_expanded, 6);
    assert_eq!(s.deq_hits, 8);
    // Busy cycles: 4 records + 2 fast + 8 slow group cycles + stalls.
    assert_eq!(s.busy_cycles, 4 + 2 + 8 + s.stall_cycles());
}

// ----- properties -----

/// A lane value computed directly with exact integers: the tuple evaluated
/// at `(tx, ty, cx, cy)` with the offsets read as signed, reduced modulo
/// 2^32.
fn direct_value(t: &Tuple, k: u32, thread: u32, cx: u32, cy: u32) -> u32 {
    let bdx = 1i128 << k;
    let (tx, ty) = (thread as i128 % bdx, thread as i128 / bdx);
    let s = |x: u32| x as i32 as i128;
    let v = s(t.base)
        + tx * s(t.off_tx)
        + ty * s(t.off_ty)
        + cx as i128 * s(t.off_cx)
        + cy as i128 * s(t.off_cy);
    v.rem_euclid(1i128 << 32) as u32
}

/// The spec's predicate of one value.
fn direct_pred(t: &Tuple, v: u32) -> bool {
    let (a, b) = (v as i32, t.scalar as i32);
    [a < b, a <= b, a > b, a >= b, a == b, a != b][t.cmp as usize]
}

/// The spec's fast-path condition, evaluated with exact integers.
fn direct_fast(t: &Tuple, k: u32, values: &[u32]) -> bool {
    let n = values.len() as i128;
    if t.off_tx == 0 && t.off_ty == 0 {
        return true;
    }
    let bdx = 1u64 << k;
    let arithmetic = bdx >= 32 || t.off_ty as u64 == (bdx * t.off_tx as u64) % (1 << 32);
    let end = values[0] as i32 as i128 + (n - 1) * (t.off_tx as i32 as i128);
    arithmetic
        && t.cmp <= cmp::GE
        && (i32::MIN as i128..=i32::MAX as i128).contains(&end)
        && direct_pred(t, values[0]) == direct_pred(t, values[values.len() - 1])
}

/// Check that `records`, concatenated, reproduce exactly the regions and
/// chunks of the lanes `values` (in order, one record per maximal run of
/// lanes in one region), and nothing else.
fn check_records(records: &[Record], values: &[u32], g: u64) -> Result<(), TestCaseError> {
    if values.is_empty() {
        prop_assert!(records.is_empty());
        return Ok(());
    }
    let size = 1u64 << g;
    let region = 32 * size;
    let mut masks = vec![0u32];
    let mut addrs = vec![];
    for (l, &v) in values.iter().enumerate() {
        let v = v as u64;
        let start = v - v % region;
        if l == 0 || addrs.last() != Some(&start) {
            if l > 0 {
                masks.push(0);
            }
            addrs.push(start);
        }
        *masks.last_mut().unwrap() |= 1 << ((v % region) / size);
    }
    prop_assert_eq!(records.len(), addrs.len(), "records {:x?}", records);
    for (i, r) in records.iter().enumerate() {
        prop_assert_eq!(r.addr as u64, addrs[i]);
        prop_assert_eq!(r.mask, masks[i]);
        prop_assert_eq!(r.gran, g);
        prop_assert_eq!(r.last, i + 1 == records.len());
    }
    Ok(())
}

/// A CTA shape `(k, T)`: 1-D blocks, 2-D blocks, or any `k` with any `T`.
fn shape() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        (1u32..=1024).prop_map(|t| (t.next_power_of_two().trailing_zeros(), t)),
        (0u32..=10)
            .prop_flat_map(|k| (Just(k), 1u32..=(1024 >> k)))
            .prop_map(|(k, bdy)| (k, bdy << k)),
        (0u32..=15, 1u32..=1024),
    ]
}

/// A 32-bit offset: zero, small multiples of access sizes, or anything.
fn offset() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        (
            -40i32..=40,
            prop::sample::select(vec![1i32, 2, 4, 8, 12, 128, 4096])
        )
            .prop_map(|(a, b)| a.wrapping_mul(b) as u32),
        any::<u32>(),
    ]
}

/// A base: anywhere, or near the ends of the signed and unsigned ranges.
fn base() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (-2048i64..2048).prop_map(|d| (0x8000_0000i64 + d) as u32),
        (-2048i64..2048).prop_map(|d| d as u32),
        (0u32..0x1_0000),
    ]
}

fn tuple() -> impl Strategy<Value = Tuple> {
    (
        0u64..3,
        base(),
        (offset(), offset(), offset(), offset()),
        0u64..3,
        0u64..6,
        prop_oneof![any::<u32>(), (-64i32..64).prop_map(|x| x as u32)],
        any::<bool>(),
    )
        .prop_map(|(kind, base, (tx, ty, cx, cy), gran, cmp, scalar, rel)| {
            Tuple {
                kind,
                base,
                off_tx: tx,
                off_ty: ty,
                off_cx: cx,
                off_cy: cy,
                gran,
                cmp,
                // Often near the base, so that lanes fall on both sides.
                scalar: if rel {
                    base.wrapping_add(scalar)
                } else {
                    scalar
                },
            }
        })
}

/// One expansion case: params, shape, slots with CTA indices, tuple,
/// stimulus seed.
#[derive(Clone, Debug)]
struct Case {
    params: DacParams,
    k: u32,
    threads: u32,
    slots: Vec<(u64, u32, u32)>,
    tuples: Vec<Tuple>,
    seed: u64,
    mem_ready_pct: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (
        shape(),
        prop::sample::select(vec![1u64, 2, 4, 16]),
        prop::sample::select(vec![1u64, 4]),
        prop::collection::vec((any::<bool>(), any::<u16>(), any::<u16>()), 8),
        prop::collection::vec(tuple(), 1..4),
        any::<u64>(),
        prop::sample::select(vec![100u32, 60, 20]),
    )
        .prop_map(|((k, threads), pwaq, pwpq, slot_bits, tuples, seed, pct)| {
            let params = DacParams {
                N_WARPS: 64,
                PWAQ_DEPTH: pwaq,
                PWPQ_DEPTH: pwpq,
                ..DacParams::default()
            };
            let w = threads.div_ceil(32) as u64;
            let mut slots: Vec<(u64, u32, u32)> = slot_bits
                .iter()
                .enumerate()
                .filter(|(c, &(on, _, _))| on && (*c as u64 + 1) * w <= 64)
                .map(|(c, &(_, x, y))| (c as u64, x as u32, y as u32))
                .collect();
            if slots.is_empty() {
                slots.push((0, slot_bits[0].1 as u32, slot_bits[0].2 as u32));
            }
            Case {
                params,
                k,
                threads,
                slots,
                tuples,
                seed,
                mem_ready_pct: pct,
            }
        })
}

/// Run one case: launch the slots, enqueue the tuples, drain with random
/// `mem_ready` and random dequeue gaps; check every warp's records or mask
/// against a direct per-lane evaluation, the memory requests, the counters
/// and the cycle accounting.
fn run_case(c: &Case) -> Result<(), TestCaseError> {
    let w = c.threads.div_ceil(32);
    let mut tb = Tb::new(&c.params, c.k as u64, c.threads as u64, w as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(c.seed);
    for &(slot, x, y) in &c.slots {
        tb.launch(slot, x as u64, y as u64);
    }
    for t in &c.tuples {
        tb.enq(t);
    }
    let mut next = 0usize;
    for _ in 0..200_000 {
        if tb.m.idle() && tb.m.queues_empty() && tb.pending.is_none() && !tb.out().mem_valid {
            break;
        }
        tb.mem_ready = rng.gen_range(0..100) < c.mem_ready_pct;
        let pick = if rng.gen_range(0..100) < 70 {
            (0..128)
                .map(|j| (next + j) % 128)
                .find(|&s| tb.m.queue_len((s / 2) as u64, (s % 2) as u64) > 0)
        } else {
            None
        };
        match pick {
            Some(s) => {
                next = s + 1;
                tb.deq((s / 2) as u64, (s % 2) as u64);
            }
            None => tb.idle(1),
        }
    }
    prop_assert!(tb.m.idle() && tb.m.queues_empty(), "drained");

    let mut want_addr: Vec<Vec<Record>> = vec![Vec::new(); 64];
    let mut want_pred: Vec<Vec<u32>> = vec![Vec::new(); 64];
    let mut want_mem = Vec::new();
    let (mut fast, mut slow, mut base_cycles) = (0u64, 0u64, 0u64);
    for t in &c.tuples {
        for &(slot, cx, cy) in &c.slots {
            for wi in 0..w {
                let warp = (slot as u32 * w + wi) as usize;
                let n = (c.threads - 32 * wi).min(32);
                let values: Vec<u32> = (0..n)
                    .map(|l| direct_value(t, c.k, 32 * wi + l, cx, cy))
                    .collect();
                let lanes = WarpLanes::new(
                    *t,
                    &Geometry {
                        bdx_log2: c.k,
                        threads: c.threads,
                        warps_per_cta: w,
                    },
                    wi,
                    cx,
                    cy,
                );
                if t.kind == kind::PRED {
                    let mask = values
                        .iter()
                        .enumerate()
                        .filter(|&(_, &v)| direct_pred(t, v))
                        .fold(0u32, |m, (l, _)| m | 1 << l);
                    want_pred[warp].push(mask);
                    if direct_fast(t, c.k, &values) {
                        fast += 1;
                        base_cycles += 1;
                    } else {
                        slow += 1;
                        base_cycles += n.div_ceil(8) as u64;
                    }
                } else {
                    let records = lanes.records();
                    check_records(&records, &values, t.gran)?;
                    base_cycles += records.len() as u64;
                    if t.kind == kind::DATA {
                        want_mem.extend(records.iter().map(|r| (r.addr & !0x7F) as u64));
                    }
                    want_addr[warp].extend(records);
                }
            }
        }
    }
    // The records received, warp by warp, concatenated over the tuples in
    // order: each tuple's part checked against the lanes above.
    for warp in 0..64 {
        prop_assert_eq!(&tb.got_addr[warp], &want_addr[warp], "warp {}", warp);
        prop_assert_eq!(&tb.got_pred[warp], &want_pred[warp], "warp {}", warp);
    }
    let mem: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    prop_assert_eq!(mem, want_mem);
    let out = tb.out();
    prop_assert_eq!((out.stat_pred_fast, out.stat_pred_slow), (fast, slow));
    let s = tb.m.stats();
    prop_assert_eq!(s.busy_cycles, base_cycles + s.stall_cycles());
    prop_assert_eq!(s.tuples_expanded, c.tuples.len() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Records reproduce each active lane's region and chunk, masks equal a
    /// per-lane evaluation, regardless of path and of back-pressure.
    #[test]
    fn expansion_matches_a_direct_per_lane_evaluation(c in case()) {
        run_case(&c)?;
    }

    /// The model's helpers agree with the direct evaluation for any shape,
    /// warp and CTA index (no timing involved).
    #[test]
    fn warp_lanes_match_the_direct_evaluation(
        t in tuple(),
        (k, threads) in shape(),
        wi in 0u32..32,
        cx in any::<u16>(),
        cy in any::<u16>(),
    ) {
        let geom = Geometry { bdx_log2: k, threads, warps_per_cta: 32 };
        let lanes = WarpLanes::new(t, &geom, wi, cx as u32, cy as u32);
        let n = threads.saturating_sub(32 * wi).min(32);
        prop_assert_eq!(lanes.n, n);
        let values: Vec<u32> = (0..n)
            .map(|l| direct_value(&t, k, 32 * wi + l, cx as u32, cy as u32))
            .collect();
        for (l, &v) in values.iter().enumerate() {
            prop_assert_eq!(lanes.value(l as u32), v);
        }
        let pred = Tuple { kind: kind::PRED, ..t };
        let mask = values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| direct_pred(&pred, v))
            .fold(0u32, |m, (l, _)| m | 1 << l);
        prop_assert_eq!(lanes.pred_mask(), mask);
        let groups = (0..lanes.groups()).fold(0, |m, g| m | lanes.pred_group(g));
        prop_assert_eq!(groups, mask);
        if n > 0 {
            prop_assert_eq!(lanes.fast_path(), direct_fast(&t, k, &values));
            if lanes.fast_path() {
                // The fast path's single comparison gives the exact mask.
                let all = if n == 32 { !0 } else { (1u32 << n) - 1 };
                prop_assert!(mask == 0 || mask == all);
            }
        }
        let addr = Tuple { kind: kind::ADDR, ..t };
        let lanes = WarpLanes { tuple: addr, ..lanes };
        check_records(&lanes.records(), &values, t.gran)?;
    }

    /// Random stimulus on every port (reset included): the per-cycle output
    /// rules hold, the queues and the ATQ stay within their depths, and a
    /// reset edge always returns the reset outputs.
    #[test]
    fn random_stimulus_keeps_the_invariants(seed in any::<u64>(), len in 1usize..600) {
        let p = DacParams {
            N_WARPS: 12,
            N_CTA: 3,
            ATQ_DEPTH: 3,
            PWAQ_DEPTH: 2,
            PWPQ_DEPTH: 1,
            ..DacParams::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut m = DacModel::new(&p);
        let mut pending = false;
        for _ in 0..len {
            let out = m.outputs();
            check_outputs(&p, &out);
            prop_assert_eq!(out.rsp_valid, pending);
            prop_assert_eq!(out.atq_count, m.atq_len() as u64);
            let i = DacIn {
                reset: rng.gen_range(0..100) < 2,
                cfg_bdx_log2: 3,
                cfg_threads: 24,
                cfg_warps_per_cta: 1,
                cta_launch_valid: rng.gen_range(0..100) < 10,
                cta_launch_slot: rng.gen_range(0..4),
                cta_launch_x: rng.gen(),
                cta_launch_y: rng.gen(),
                cta_done_valid: rng.gen_range(0..100) < 5,
                cta_done_slot: rng.gen_range(0..4),
                enq_valid: rng.gen_range(0..100) < 30,
                enq_kind: rng.gen_range(0..4),
                enq_base: rng.gen(),
                enq_off_tx: rng.gen_range(0..300),
                enq_off_ty: rng.gen_range(0..300),
                enq_off_cx: rng.gen(),
                enq_off_cy: rng.gen(),
                enq_gran: rng.gen_range(0..4),
                enq_cmp: rng.gen_range(0..8),
                enq_scalar: rng.gen(),
                mem_ready: rng.gen(),
                deq_valid: rng.gen_range(0..100) < 60,
                deq_warp: rng.gen_range(0..16),
                deq_kind: rng.gen_range(0..2),
            };
            pending = i.deq_valid && !i.reset;
            m.step(&i);
            if i.reset {
                prop_assert_eq!(m.outputs(), reset_outputs());
                prop_assert!(m.idle() && m.queues_empty());
            }
            prop_assert!(m.atq_len() <= 3);
            for w in 0..12 {
                prop_assert!(m.queue_len(w, DEQ_ADDR) <= 2);
                prop_assert!(m.queue_len(w, DEQ_PRED) <= 1);
            }
        }
    }
}
