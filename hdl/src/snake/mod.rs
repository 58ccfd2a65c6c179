//! `snake_prefetcher` — the chain-of-strides prefetcher (spec `snake.md`,
//! micro-architecture `docs/units/snake_prefetcher.md`).
//!
//! Files: `head.rs` ([`SnakeHead`]), `entry.rs` ([`SnakeEntry`]), `top.rs`
//! ([`SnakePrefetcherRtl`] and its [`crate::RtlUnit`] impl), `top/` (the
//! sections of the top's kernel, [`crate::section`]), `build.rs`
//! (the compiled-in width table and the [`crate::registry::RtlDecl`] of
//! [`ports::snake::SnakePrefetcher`]), `storage.rs` (the storage table).
//!
//! Structure:
//!
//! - [`SnakeHead`]: each warp's last load; valid bits in one register,
//!   `pc` and `addr` in warp-indexed memories ([`crate::mem::Mem`]), read
//!   and written at the load's warp.
//! - [`SnakeEntry`], one per Tail entry (registers with synchronous reset):
//!   the entry compares itself with this cycle's keys (the load's link
//!   `(q, p, s)` and warp, the walker's `cur`, job warp and job pc) and
//!   applies the updates the top selects (link clear / hit / allocation,
//!   each writing `span`; inter-warp fields, intra-warp fields, rank). The
//!   ones of its warp vector are kept in a register beside it (the
//!   training test and the eviction key without a bit count); `m_cur_w`
//!   (the warp's own link, any `t1` with `OWN_LINKS`), `m_cur` (promoted)
//!   and `usable` give the hop choice; its per-PC fields masked by each
//!   pc match (`p_*`, `j_*`, `q_*`) let the top OR them instead of
//!   picking the lowest-numbered match (the fields are the same in every
//!   entry with one `pc1`).
//! - `prim.rs`: [`prim::FirstOne`] (the lowest set bit, one reduction per
//!   bit) and [`prim::IwDiv`] (the inter-warp candidate stride, both
//!   differences formed in parallel, no negation after the shift).
//! - The recency ranks (in the top: every pair of ranks compared at once,
//!   the rules of [`crate::rank::RankOrder`]).
//! - `a + k x stride` for the intra- and inter-warp prefetches: one
//!   five-operand addition (a carry-save tree in synthesis).
//! - The walk queue is three shift queues in lock-step (the job's `{pc,
//!   warp}`, a [`walkq::PeekQueue`], its address, and `{end, span}` with
//!   the CTA end zero-extended to 8 bits, [`walkq::LaneQueue`]s: no payload
//!   wider than 64 bits; their heads not gated by the valid bit, issue 29
//!   step 10); the output queue a [`crate::queue::ShiftQueue`], packed
//!   `{span, kind, warp, addr}`.
//! - [`SnakePrefetcherRtl`]: the throttle, the training selections (ORs of
//!   masked views, the victim as the group member whose key is at most
//!   every other's, all pairs compared at once, the per-PC values of a new
//!   entry with this edge's updates forwarded), the walker (`phase` chain / intra /
//!   inter, `hop`, one `k` register for both distance phases, the chain
//!   registers; one cycle per hop, emitting or not) and the queues.
//!
//! Widths are const generics: `A` = `ADDR_W`, `P` = `PC_W`, `WB` =
//! `clog2(N_WARPS)`, `WD` = `WB + 1`, `NW` = `N_WARPS`, `RT` =
//! `clog2(TAIL_ENTRIES)`, `JW` = `WB + P`, `QW` = `A + WB + 2 + 12`. Entry
//! counts, thresholds, depths, the throttle settings and revision 2's
//! parameters (`OWN_LINKS`, `LOOP_HOPS`, `INTRA_DEGREE`, `IW_SAME_CTA`,
//! `SPAN`) are run-time values of the built block. The walker's `hop` and
//! `k` are 5 bits (`LOOP_HOPS`, `INTRA_DEGREE`, `IW_DEGREE` <= 15), the
//! throttle counter 16 bits.

mod build;
mod entry;
mod head;
mod outq;
pub mod prim;
mod storage;
mod top;
mod walkq;

pub use entry::SnakeEntry;
pub use head::SnakeHead;
pub use top::SnakePrefetcherRtl;
