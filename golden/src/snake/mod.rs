//! Golden model of `snake_prefetcher`, the chain-of-strides prefetcher of
//! Snake (spec `snake.md`, micro-architecture contract
//! `docs/units/snake_prefetcher.md`).
//!
//! The model is written from the specification and the contract only, as
//! plain Rust: a `Vec` of Head rows (one per warp), a `Vec` of Tail entries,
//! the recency order of the Tail entries as a list of entry indices (most
//! recently used first), a `VecDeque` for the walk queue and one for the
//! output prefetch queue, the walker's registers ([`Walker`]) and the
//! throttle (`count`, `bw_halt`). It is the reference the RTL is checked
//! against cycle for cycle.
//!
//! # Timing
//! Every decision of a cycle is taken from the registered state at the start
//! of the cycle and the inputs of the cycle; every update happens at the
//! edge ([`GoldenModel::step`]):
//! * *halted* = `count != 0 || bw_halt` at the start of the cycle (shown on
//!   `throttled`); at the edge `count` reloads with `THROTTLE_CYCLES` on a
//!   `cache_full` cycle and otherwise counts down, `bw_halt` follows the
//!   hysteresis on `bw_util`;
//! * **the load stage** (issue 29): a load with `ld_valid = 1` and
//!   `ld_uniform = 1` is accepted at the edge ending its cycle and waits
//!   in the load stage during the next cycle; everything below that a load
//!   does, it does at the edge ending that next cycle ("the staged load"),
//!   as if it had been presented then;
//! * the staged load trains the tables at the edge, halted or not;
//! * the staged load enters the walk queue at the edge if not halted and if
//!   the walk queue was not full at the start of the cycle (else it is
//!   dropped);
//! * the walker works on the head of the walk queue, from the tables at the
//!   start of the cycle ([`walk`]): it pushes one prefetch (unless the
//!   output queue was full at the start of the cycle: stall, nothing
//!   changes), takes one hop that emits nothing (revision 2: beyond
//!   `CHAIN_DEPTH` or through a link not usable for the warp; no room
//!   needed), or ends the job (the job leaves the queue; that cycle makes
//!   no prefetch);
//! * a halted cycle empties the walk queue and returns the walker to its
//!   initial state, the output queue stays;
//! * the oldest prefetch of the output queue is on `pf_*` (all zero while
//!   the queue is empty) and is popped at an edge with `pf_ready = 1`.
//!
//! A load accepted at edge *t* with the walker idle, both queues empty, not
//! halted and `pf_ready = 1` trains and enters the walk queue at edge
//! *t + 1*, has its first prefetch pushed at edge *t + 2* and taken at edge
//! *t + 3*; later prefetches of the same job follow one per edge. (Before
//! issue 29 the load trained at edge *t*: one cycle less.)
//!
//! # Revision 2
//! The spec's revision 2 (`snake.md`, "Revision 2") is the default; its
//! five parameters at the values of [`SnakeParams::revision1`] give
//! revision 1. Training: a link hit sets `t1 = 1` on any repeat with
//! `OWN_LINKS = 1` (else only when a second warp has the bit), and a hit
//! or an allocation writes the entry's `span` with the load's `ld_span`.
//! The walk ([`walk`]) follows the warp's own path up to `LOOP_HOPS` hops,
//! emits the first `CHAIN_DEPTH` of them that are usable for the warp,
//! closes loops into intra-warp observations, prefetches up to
//! `INTRA_DEGREE` iterations ahead and keeps inter-warp targets below the
//! job's `ld_cta_end` with `IW_SAME_CTA = 1`. A job holds its load's
//! `ld_span` and `ld_cta_end` (taken modulo their port widths).
//!
//! # Same-edge order
//! The walker's decision is taken first, from the start-of-cycle state. Its
//! intra-warp observation (a closing hop) is then written to the per-PC
//! fields `intra`, `t2` of the job's PC; the load's training follows (Head,
//! inter-warp fields `iw_*`, link fields `wv`, `t1`, allocation). The two
//! write disjoint fields, so the order only matters to a newly allocated
//! entry, which copies the per-PC fields of its source entry as they are
//! after both updates (contract, "Same-edge order"), and to the victim:
//! the updates go to the entries selected at the start of the cycle, and
//! the victim then takes its new contents (zero per-PC fields when it was
//! the only entry with `pc1 = q`, even if the observation or the load's
//! inter-warp update was for `q`).
//!
//! # Decisions where the spec and the contract are silent
//! These are the model's choices; the RTL must make the same ones:
//! * Every input is taken modulo its port width: `ld_warp` to
//!   `clog2(N_WARPS)` bits (`N_WARPS` is a power of two, so every warp id is
//!   in range), `ld_pc` to `PC_W`, `ld_addr` to `ADDR_W`, `bw_util` to 7
//!   bits (a value above 100 is compared as it is).
//! * Reset clears every field of the Head rows (not only `valid`), of the
//!   Tail entries, of the queues, of the walker and the load stage (a load
//!   accepted at the edge before a reset never trains). The statistics
//!   ([`SnakeStats`]) are not port-visible state and are not cleared by
//!   reset.
//! * A prefetch popped at a reset edge is not a transfer (nothing else
//!   happens at that edge).
//! * An allocation always sets `t1 = 0`, also with `TRAIN_WARPS = 1`: the
//!   link is promoted by its first hit.
//! * A job ends (leaves the walk queue) in a cycle with no next prefetch
//!   even when the output queue is full: only a prefetch needs room.
//! * A closing hop whose job PC no longer has an entry (`pc1 = p` evicted
//!   since the first hop) records its observation nowhere.

mod model;
mod state;
mod walk;

pub use model::SnakeModel;
pub use state::{
    HeadRow, PerPc, Phase, Prefetch, SnakeStats, TailEntry, WalkJob, Walker, T1_PROMOTED,
    T1_TWO_WARPS, T1_UNTRAINED,
};

#[cfg(test)]
mod tests;
