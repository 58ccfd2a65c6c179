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
//!   each writing `span`; inter-warp fields, intra-warp fields, rank). Its
//!   warp-vector counts ([`crate::util::PopCount`]) give the training and
//!   the eviction key; `m_cur_w` (the warp's own link, any `t1` with
//!   `OWN_LINKS`), `m_cur` (promoted) and `usable` give the hop choice.
//! - [`crate::rank::RankOrder`]: the recency ranks (a hit or an allocation
//!   into a valid victim is a "touch", an allocation into an invalid entry
//!   an "alloc").
//! - [`crate::arith::ExactDiv`]: the inter-warp candidate stride (a
//!   power-of-two warp distance, exact division); [`crate::arith::SignedMul`]:
//!   one multiplier, `k x intra` or `k x iw_stride` (operands muxed).
//! - The walk queue is three [`crate::queue::ShiftQueue`]s in lock-step (the
//!   job's `{pc, warp}`, its address, and `{end, span}` with the CTA end
//!   zero-extended to 8 bits: no payload wider than 64 bits); the output
//!   queue one, packed `{span, kind, warp, addr}`.
//! - [`SnakePrefetcherRtl`]: the throttle, the training selections (lowest
//!   matching entries by prefix chains, the victim by the smallest key in
//!   the least recently used group, the per-PC values of a new entry with
//!   this edge's updates forwarded), the walker (`phase` chain / intra /
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
mod storage;
mod top;

pub use entry::SnakeEntry;
pub use head::SnakeHead;
pub use top::SnakePrefetcherRtl;
