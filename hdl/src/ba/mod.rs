//! `ba_tag_array` — the Bypass-Aware L1 tag array (spec `ba_cache.md`).
//!
//! Files: `set.rs` ([`BaSet`]), `top.rs` ([`BaTagArrayRtl`] and its
//! [`crate::RtlUnit`] impl), `build.rs` (the compiled-in width table and the
//! [`crate::registry::RtlDecl`] of [`ports::ba::BaTagArray`]), `storage.rs`
//! (the storage table).
//!
//! Structure: one [`BaSet`] module per set, holding per-way registers
//! (`valid`, `tag`, `reuse`, `bypass`, LRU `rank`) and the decision logic of
//! one set; the top ([`BaTagArrayRtl`]) decodes the address, broadcasts the
//! request to the selected set, and registers that set's answer as the
//! response (outputs come from registers only).
//!
//! Widths are const generics (`A` = `ADDR_W`, `T` = tag bits, `S` = set-index
//! bits (at least 1), `W` = `clog2(WAYS)`); the numbers of sets and ways, the
//! shift amounts, `BA_ENABLE` and `REUSE_THRESHOLD` are fixed when the block
//! is built from a [`ports::ba::BaParams`]. See `docs/units/ba_tag_array.md`.

mod build;
mod set;
mod storage;
mod top;

pub use set::BaSet;
pub use top::BaTagArrayRtl;
