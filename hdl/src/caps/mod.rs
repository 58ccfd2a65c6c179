//! `caps_prefetcher` — the CTA-aware prefetcher (spec `caps.md`,
//! micro-architecture `docs/units/caps_prefetcher.md`).
//!
//! Files: `column.rs`
//! ([`CapsColumn`]), `dist.rs` ([`CapsDist`]), `top.rs`
//! ([`CapsPrefetcherRtl`] and its [`crate::RtlUnit`] impl), `top/` (the
//! sections of the top's kernel, [`crate::section`]), `consts.rs`
//! ([`LANES`]), `build.rs` (the
//! compiled-in width table and the [`crate::registry::RtlDecl`] of
//! [`ports::caps::CapsPrefetcher`]), `storage.rs` (the storage table).
//!
//! Structure (registers are [`crate::reg::Reg`]s with synchronous reset;
//! table fields that are only read through a valid bit are
//! [`crate::mem`] memories without reset):
//!
//! - [`CapsColumn`], one per PerCTA entry index `e`: entry `e` of every CTA
//!   slot (valid bits in one register; `pc`, `lead`, `n`, `base0..3`,
//!   `rank` in memories indexed by the slot). A load port at the load's
//!   slot (read after this cycle's launch clearing; the entry's update is
//!   written back there), a scan of every slot for job A (per-slot "holds
//!   the job's pc" and "candidate" words, and per slot whether job A would
//!   stay at the entry, "more"), a generator port at a one-hot slot (job
//!   A's choice or job B's CTA) and job B's own port at its CTA (AND-ORs of
//!   the taps). Only the load's slot is read and updated
//!   per cycle, so that logic exists once rather than once per slot.
//! - [`crate::rank::RankOrder`]: the least-recently-updated ranks and the
//!   allocation choice, shared by PerCTA (allocate / rewrite / invalidate)
//!   and DIST (allocate).
//! - [`CapsDist`]: the DIST table (`valid`, `pc`, `stride`, `cnt`,
//!   `lead_cta`, `rank`), looked up by the load and by the generator;
//!   allocation and the saturating misprediction count.
//! - The job FIFO and the output queue: [`crate::queue::ShiftQueue`]s
//!   (entry 0 is the oldest; a pop shifts every entry down, a push fills the
//!   lowest free entry), so their depths are run-time values of the built
//!   block and `pf_*` come straight from entry 0's registers. The job FIFO
//!   is two queues in lock-step, the header `{stride sign, warp, cta, pc,
//!   kind}` (`kind` in bit 0, `JW` bits) and the stride's magnitude, so that no payload is
//!   wider than 64 bits (Verilator evaluates wider values word by word); a
//!   prefetch is packed as `{warp, cta, addr}` into `QW` bits.
//! - `fastarith.rs` (issue 29: depth, not behaviour): `CsaSum`, `b + (signed
//!   WARP_IDX_W+1-bit warp distance) x stride` modulo `2^ADDR_W` as one
//!   carry-save sum of the distance's partial products (the top bit has
//!   negative weight) and the addend (a Wallace tree of carry-save adders
//!   since session 46), left as a sum and a carry word (one
//!   instance for the load's verification with `b = 0`, compared by
//!   `SumNe` without an adder; one for the generator with `b` = the base,
//!   registered and added by a `crate::arith::PrefixAdd` in the second
//!   address stage);
//!   `ExactDivOh`, rule 4's `|delta|` power-of-two test (`delta` compared
//!   with `±2^m`), the divisibility test and `s = diff / delta`
//!   (arithmetic shift, negated for a negative delta) with the shifts
//!   selected one-hot; `SelOr`, a one-hot AND-OR selection used wherever a
//!   `for` loop of `if`s would build a priority chain (the load's and the
//!   generator's column, the generator's slot, the DIST look-ups).
//! - [`CapsPrefetcherRtl`]: the top; it applies the rules of the spec to
//!   the load, pushes the job, runs the generator FSM (`busy`, the current
//!   job, cursors `pos` and `k`) and drives the output queue.
//!
//! Rule 4 needs only `diff[0]`: when every `diff[k]` is divisible by
//! `delta = ±2^m`, the `s[k]` are equal exactly when the `diff[k]` are
//! equal (the exact division is injective) and `s = 0` exactly when
//! `diff[0] = 0`, so the RTL checks `diff[k] == diff[0]` for `k < n`, the
//! divisibility of `diff[0]` and computes one quotient.
//!
//! Widths are const generics: `A` = `ADDR_W`, `P` = `PC_W`, `WI` =
//! `WARP_IDX_W`, `WD` = `WI + 1`, `C` = `clog2(N_CTA)`, `CP` = `C + 1`,
//! `RP` = `clog2(PERCTA_ENTRIES)`, `RD` = `clog2(DIST_ENTRIES)`, `CW` =
//! `CNT_W`, `JW` = `2 + P + C + WI` (a packed job header), `QW` = `A + C + WI`
//! (a packed prefetch), `NS` = `2^C` = `N_CTA` (the width of a column's
//! per-slot words; `N_CTA` is a power of two). `N_CTA`, the entry counts, `MAX_ADDRS`, `MISPRED_THRESHOLD` and
//! the two queue depths are run-time values of the built block. Address
//! counts `n` and the address index `k` are 3 bits (`MAX_ADDRS <= 4`); the
//! four address lanes always exist inside, lanes `k >= MAX_ADDRS` carry
//! zeros (they have no port) and synthesis removes their registers.
//!
//! Ports: the address ports are a `Vec` field, which rust-hdl names
//! `ld_addr$<k>`; [`crate::RtlUnit::verilog`] renames them to the spec's
//! `ld_addr<k>` (calling `emit::emit_unit` directly leaves `ld_addr__<k>`).
//!
//! Timing as in the contract: a job is taken at the edge after its push,
//! the generator makes one decision per cycle from the registered tables
//! (neither that cycle's launch nor its load is visible to it), job A skips
//! non-matching slots without spending cycles (lowest candidate slot as a
//! one-hot word by a parallel-prefix OR; the next cursor per slot picked by
//! it), job B skips the leading warp without spending a cycle
//! but spends one cycle on a warp whose entry now has fewer addresses
//! (`k >= n`). Whether the job FIFO or the output queue is full is judged
//! at the start of the cycle. Multiplication: a carry-save sum of WARP_IDX_W+1
//! partial products and one adder rather than a sign extension and an
//! ADDR_W x ADDR_W multiplier.

mod build;
mod column;
mod consts;
mod dist;
mod fastarith;
mod memtaps;
mod storage;
mod top;

pub use column::CapsColumn;
pub use consts::LANES;
pub use dist::CapsDist;
pub use top::CapsPrefetcherRtl;
