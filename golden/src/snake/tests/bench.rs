//! The `snake_prefetcher` test bench ([`Tb`]), the model snapshot, and the
//! inputs the tests share.

pub(super) use crate::model::GoldenModel;
pub(super) use crate::snake::*;
pub(super) use ports::mask;
pub(super) use ports::snake::{kind, SnakeIn, SnakeOut, SnakeParams};

/// A prefetch as seen on the port: `(addr, warp, kind)`.
pub(super) type Pf = (u64, u64, u64);

/// One transfer on `pf_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Transfer {
    /// Edge ending the first cycle in which the prefetch was on `pf_*`.
    pub(super) offered: u64,
    /// Edge at which it was taken (`pf_valid` and `pf_ready`).
    pub(super) taken: u64,
    /// The prefetch.
    pub(super) pf: Pf,
}

/// Test bench: drives the model edge by edge, starting with one reset
/// edge (not counted), and records every prefetch transferred on `pf_*`.
///
/// Edges are numbered from 0 after the reset edge; "cycle e" is the cycle
/// that ends at edge e, whose inputs edge e applies. [`Tb::edge`] returns
/// the number of the edge it applies.
pub(super) struct Tb {
    pub(super) m: SnakeModel,
    pub(super) next_edge: u64,
    pub(super) pf_ready: bool,
    /// Edge ending the first cycle the current head of the output queue was
    /// offered in.
    pub(super) offered: Option<u64>,
    pub(super) got: Vec<Transfer>,
    /// `pf_span` of each transfer in `got`.
    pub(super) spans: Vec<u64>,
}

impl Tb {
    pub(super) fn new(params: &SnakeParams) -> Tb {
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
            spans: Vec::new(),
        }
    }

    /// One edge with `inputs` (`pf_ready` is the bench's); returns the edge
    /// number.
    pub(super) fn edge(&mut self, inputs: SnakeIn) -> u64 {
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
            self.spans.push(out.pf_span);
        }
        self.m.step(&inputs);
        self.next_edge += 1;
        e
    }

    /// A uniform load of warp `w` at PC `pc`, address `addr`.
    pub(super) fn ld(&mut self, w: u64, pc: u64, addr: u64) -> u64 {
        self.edge(load(w, pc, addr))
    }

    pub(super) fn idle(&mut self, edges: usize) {
        for _ in 0..edges {
            self.edge(SnakeIn::default());
        }
    }

    /// Idle with `pf_ready = 1` until the load stage, the walk queue and
    /// the output queue are empty (at most 1000 edges).
    pub(super) fn drain(&mut self) {
        let ready = self.pf_ready;
        self.pf_ready = true;
        for _ in 0..1000 {
            if self.m.staged_load().is_none()
                && self.m.walk_queue().is_empty()
                && self.m.pfq_len() == 0
            {
                self.pf_ready = ready;
                return;
            }
            self.idle(1);
        }
        panic!("the prefetcher does not drain");
    }

    /// The model as it is once the load accepted at the last edge has
    /// left the load stage: a copy stepped one idle edge (the bench's
    /// `pf_ready`). Checks of the tables after a load read this; the bench
    /// itself does not advance.
    pub(super) fn settled(&self) -> SnakeModel {
        let mut m = self.m.clone();
        m.step(&SnakeIn {
            pf_ready: self.pf_ready,
            ..SnakeIn::default()
        });
        m
    }

    /// The prefetches transferred so far, in order.
    pub(super) fn seq(&self) -> Vec<Pf> {
        self.got.iter().map(|t| t.pf).collect()
    }

    /// The edges at which they were taken.
    pub(super) fn taken(&self) -> Vec<u64> {
        self.got.iter().map(|t| t.taken).collect()
    }

    /// Forget the transfers recorded so far.
    pub(super) fn forget(&mut self) {
        self.got.clear();
        self.spans.clear();
    }
}

pub(super) fn load(w: u64, pc: u64, addr: u64) -> SnakeIn {
    SnakeIn {
        ld_valid: true,
        ld_warp: w,
        ld_pc: pc,
        ld_addr: addr,
        ld_uniform: true,
        ..SnakeIn::default()
    }
}

/// The paper's configuration with revision 1's rules (the rule-by-rule
/// tests of revision 1 run on it; `rev2.rs` tests revision 2).
pub(super) fn defaults() -> SnakeParams {
    SnakeParams::default().revision1()
}

/// Everything the model holds that the RTL holds.
pub(super) type Snapshot = (
    Option<WalkJob>,
    Vec<HeadRow>,
    Vec<TailEntry>,
    Vec<usize>,
    Vec<WalkJob>,
    Walker,
    Vec<Prefetch>,
    u64,
    bool,
);

pub(super) fn snapshot(m: &SnakeModel) -> Snapshot {
    (
        m.staged_load(),
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

pub(super) fn valid_entries(m: &SnakeModel) -> Vec<(usize, TailEntry)> {
    m.tail()
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, e)| e.valid)
        .collect()
}
