//! `ba_tag_array` — the Bypass-Aware L1 tag array (spec `ba_cache.md`).
//!
//! Files: `way.rs` ([`BaWay`]), `top.rs` ([`BaTagArrayRtl`] and its
//! [`crate::RtlUnit`] impl), `top/` (the sections of the top's kernel,
//! [`crate::section`]), `build.rs` (the compiled-in width table and the
//! [`crate::registry::RtlDecl`] of [`ports::ba::BaTagArray`]), `storage.rs`
//! (the storage table).
//!
//! Structure: one [`BaWay`] module per way holds that way of every set
//! (valid bits in a register with reset; tag, reuse, bypass and LRU rank
//! in memories, [`crate::mem::Mem`]) and reads the addressed set's line;
//! the top ([`BaTagArrayRtl`]) is two pipeline stages and a write buffer
//! (issue 29): stage 1 decodes the address, reads the set and compares
//! the tags, with the lines of stage 2 and of the write buffer forwarded
//! for the same set; stage 2 makes the decision on the registered row
//! (hit, victim, outcome, new ranks) and registers the answer as the
//! response (outputs come from registers only); the write buffer writes
//! the row back one edge later. Response latency 2. One decision datapath instead of one per set
//! is what a tag array built around SRAM rows looks like; it is also what
//! makes the Verilated model fast (one set's logic evaluated per cycle).
//!
//! Widths are const generics (`A` = `ADDR_W`, `T` = tag bits, `S` = set-index
//! bits (at least 1), `W` = `clog2(WAYS)`, `NS` = `SETS`, the width of a
//! way's valid-bit register); the numbers of sets and ways, the
//! shift amounts, `BA_ENABLE` and `REUSE_THRESHOLD` are fixed when the block
//! is built from a [`ports::ba::BaParams`]. See `docs/units/ba_tag_array.md`.

mod build;
mod storage;
mod top;
mod way;

pub use top::BaTagArrayRtl;
pub use way::BaWay;
