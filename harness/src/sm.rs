//! The cycle-level model of one SM: CTA distribution, warps with a SIMT
//! mask stack, the scheduler, the coalescer and the load/store unit, the L1
//! with its MSHRs, the lower memory, and the units in their role slots
//! (prefetcher, L1 tag array, expansion unit: `roles.rs`) driven every
//! cycle. The warp scheduler is `crate::sched`'s; the SM's side of the
//! expander slot is a type of `sm/expander.rs`'s trait (DAC's:
//! `sm/dac_side.rs`).
//!
//! # One cycle
//! After the reset cycles, every cycle does, in this order:
//! 1. the memory below the L1 (`memsys`) advances to this cycle, and the
//!    reads back by now fill their MSHRs (waking the warps waiting on
//!    them; a prefetch's return may eagerly wake its target warp);
//! 2. the L1 tag array's response to the previous cycle's request is
//!    processed (outcome counts, evictions, hit completions);
//! 3. hits whose latency has elapsed are delivered;
//! 4. (the memory took this SM's oldest queued request in step 1 if its
//!    bandwidth allowed);
//! 5. with DAC, a new batch of CTAs opens when the previous one is done;
//!    one CTA may launch into a free slot;
//! 6. with DAC: one finished CTA is reported to the expansion unit, the
//!    previous cycle's dequeue is answered and this cycle's sent
//!    (`sm/dac_side.rs`);
//! 7. the L1 port serves one line of the load/store unit's instruction
//!    (with DAC, taking the next warp whose records are complete when the
//!    unit is free), or, when the unit has none, DAC's early request, or
//!    the prefetcher's offered prefetch (demand first);
//! 8. DAC's affine warp issues if it can; else the scheduler issues at
//!    most one warp instruction; a memory instruction is coalesced into the
//!    load/store unit (one at a time) and a load is shown to the
//!    prefetcher;
//! 9. the units see this cycle's inputs: their probes (lock-step checkers,
//!    recorders) are called with exactly those inputs and the outputs
//!    sampled before the edge, then the golden models take the clock edge
//!    (the expansion unit, the prefetcher, then the L1).
//!
//! Loads block their warp until every line is back, or with `loads =
//! scoreboard` the warp goes on and waits at the first instruction that
//! reads the loaded register (a per-warp count of in-flight loads per
//! register; each demand request carries its load's id) or at its exit.
//!
//! Instruction timing (`lat_*`, `ii_*`; [`crate::config::Latencies`]): an
//! instruction's results are ready its class's latency after it issues; a
//! warp whose next instruction reads or writes a register not ready yet
//! waits for it (out of the ready set, woken when the cycle comes), and an
//! SFU, fp64 or tensor instruction waits while another warp's holds that
//! pipeline. With every value 1 (the `fermi` and `volta` machines) nothing
//! waits and the bookkeeping is skipped. Traces give each instruction its
//! registers and its class from the opcode.
//!
//! A load request that needs memory but finds no free MSHR (or merge slot)
//! or no miss-queue room is a *reservation fail*: nothing changes and the
//! line is retried next cycle. A prefetch that finds the line present or in
//! flight is dropped; one that finds no room waits (`pf_ready = 0`).
//!
//! # Files
//! The SM's state is `state` (`Sm`, generic over its side of the
//! expander slot, `expander`), built in `build`; its parts' types are
//! `warp` (warps, the SIMT stack, CTA slots), `ldst` (the load/store
//! unit), `l1_side` (tag array, MSHRs, hit queue), `prefetches` and
//! `memory`. The cycle is `cycle`; its steps: `l1_return` (steps 1-3),
//! `launch` (5), `l1_port` (7), `schedule`, `issue`, `coalesce` and
//! `trace_issue` (8), with `scoreboard` deciding when a warp may issue.
//! `run` runs one SM or all of them.

mod build;
mod coalesce;
mod cycle;
mod dac_dequeue;
mod dac_locks;
mod dac_side;
mod expander;
mod issue;
mod l1_port;
mod l1_return;
mod l1_side;
mod launch;
mod ldst;
mod memory;
mod prefetches;
mod run;
mod schedule;
mod scoreboard;
mod state;
mod tex_cache;
mod texture;
mod trace_issue;
mod warp;

pub(crate) use run::{run_all, run_one};
