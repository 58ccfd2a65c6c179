//! The `dac_expander` test bench ([`Tb`]), and the inputs, tuples and records
//! the tests share.

use crate::dac::*;
pub(super) use ports::dac::{cmp, gran};

/// Test bench: drives the model edge by edge, starting with one reset edge
/// (not counted), with fixed `cfg_*` inputs, and records every dequeue
/// response and every memory request transfer.
///
/// Edges are numbered from 0 after the reset edge; "cycle e" is the cycle
/// that ends at edge e, whose inputs edge e applies. [`Tb::edge`] returns
/// the number of the edge it applies.
pub(super) struct Tb {
    pub(super) m: DacModel,
    pub(super) params: DacParams,
    /// `(cfg_bdx_log2, cfg_threads, cfg_warps_per_cta)` for every cycle.
    pub(super) cfg: (u64, u64, u64),
    /// `mem_ready` for every cycle.
    pub(super) mem_ready: bool,
    pub(super) next_edge: u64,
    /// The dequeue of the previous cycle: `(warp, kind)`.
    pub(super) pending: Option<(u64, u64)>,
    /// Address records received per warp, in order.
    pub(super) got_addr: Vec<Vec<Record>>,
    /// Predicate masks received per warp, in order.
    pub(super) got_pred: Vec<Vec<u32>>,
    /// Dequeues answered with a miss.
    pub(super) misses: u64,
    /// Memory requests taken: `(edge, mem_addr)`.
    pub(super) mem: Vec<(u64, u64)>,
}

impl Tb {
    /// A bench for `params` and the CTA shape `(k, T, W)`.
    pub(super) fn new(params: &DacParams, k: u64, threads: u64, warps: u64) -> Tb {
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
    pub(super) fn one_d(threads: u64) -> Tb {
        Tb::with_1d(&DacParams::default(), threads)
    }

    /// A 1-D CTA of `threads` threads (`blockDim.x` the smallest power of
    /// two `>= threads`).
    pub(super) fn with_1d(params: &DacParams, threads: u64) -> Tb {
        let k = threads.next_power_of_two().trailing_zeros() as u64;
        Tb::new(params, k, threads, threads.div_ceil(32))
    }

    /// One edge with `inputs` (`cfg_*` and `mem_ready` are the bench's);
    /// returns the edge number.
    pub(super) fn edge(&mut self, inputs: DacIn) -> u64 {
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

    pub(super) fn idle(&mut self, edges: usize) {
        for _ in 0..edges {
            self.edge(DacIn::default());
        }
    }

    /// Launch a CTA with index `(x, y)` into `slot` (one edge).
    pub(super) fn launch(&mut self, slot: u64, x: u64, y: u64) -> u64 {
        self.edge(launch(slot, x, y))
    }

    /// Offer `t` for one edge; it must be accepted.
    pub(super) fn enq(&mut self, t: &Tuple) -> u64 {
        assert!(self.m.outputs().enq_ready, "the ATQ can take a tuple");
        self.edge(enq(t))
    }

    /// Dequeue from `warp`'s queue of `kind` (one edge).
    pub(super) fn deq(&mut self, warp: u64, kind: u64) -> u64 {
        self.edge(deq(warp, kind))
    }

    /// Run until the ATQ is empty, the expander idle and every queue
    /// drained, dequeuing one non-empty queue per cycle (round robin); at
    /// most `limit` edges.
    pub(super) fn drain_within(&mut self, limit: usize) {
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

    pub(super) fn drain(&mut self) {
        self.drain_within(100_000);
    }

    /// Number of the next edge (the current cycle).
    pub(super) fn now(&self) -> u64 {
        self.next_edge
    }

    pub(super) fn out(&self) -> DacOut {
        self.m.outputs()
    }
}

/// Output rules that hold in every cycle.
pub(super) fn check_outputs(p: &DacParams, out: &DacOut) {
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

pub(super) fn launch(slot: u64, x: u64, y: u64) -> DacIn {
    DacIn {
        cta_launch_valid: true,
        cta_launch_slot: slot,
        cta_launch_x: x,
        cta_launch_y: y,
        ..DacIn::default()
    }
}

pub(super) fn done(slot: u64) -> DacIn {
    DacIn {
        cta_done_valid: true,
        cta_done_slot: slot,
        ..DacIn::default()
    }
}

pub(super) fn enq(t: &Tuple) -> DacIn {
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
        enq_guard: t.guard,
        ..DacIn::default()
    }
}

pub(super) fn deq(warp: u64, kind: u64) -> DacIn {
    DacIn {
        deq_valid: true,
        deq_warp: warp,
        deq_kind: kind,
        ..DacIn::default()
    }
}

/// Merge two input sets (`b`'s valid groups added to `a`).
pub(super) fn with(a: DacIn, b: DacIn) -> DacIn {
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
            enq_guard: b.enq_guard,
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
pub(super) fn addr_tuple(kind: u64, base: u32, off_tx: u32, gran: u64) -> Tuple {
    Tuple {
        kind,
        base,
        off_tx,
        gran,
        ..Tuple::default()
    }
}

/// An ADDR tuple `(base, off_tx)` at word granularity.
pub(super) fn word_tuple(base: u32, off_tx: u32) -> Tuple {
    addr_tuple(kind::ADDR, base, off_tx, gran::WORD)
}

/// A predicate tuple `(base, off_tx) CMP scalar`.
pub(super) fn pred_tuple(base: u32, off_tx: u32, cmp: u64, scalar: u32) -> Tuple {
    Tuple {
        kind: kind::PRED,
        base,
        off_tx,
        cmp,
        scalar,
        ..Tuple::default()
    }
}

pub(super) fn rec(addr: u32, mask: u32, gran: u64, last: bool) -> Record {
    Record {
        addr,
        mask,
        gran,
        last,
    }
}

/// A negative 32-bit offset.
pub(super) fn neg(x: u32) -> u32 {
    x.wrapping_neg()
}

/// Expand `t` for a 1-D CTA of `threads` threads in slot 0 with index
/// `(0, 0)`, drain, and return the bench.
pub(super) fn expand_1d(t: &Tuple, threads: u64) -> Tb {
    let mut tb = Tb::one_d(threads);
    tb.launch(0, 0, 0);
    tb.enq(t);
    tb.drain();
    tb
}

/// Outputs of the reset state.
pub(super) fn reset_outputs() -> DacOut {
    DacOut {
        enq_ready: true,
        ..DacOut::default()
    }
}
