//! `snake_prefetcher` in the SM harness: the prefetcher role (`prefetcher =
//! snake`).
//!
//! What the harness gives Snake (`sm_harness.md`, "Units in the harness"):
//! - `ld_*` from every demand load: the warp's SM slot (`ld_warp`), the
//!   first active lane's address (`ld_addr`), whether each row of the
//!   block the warp covers is one stride per lane apart, the same stride in
//!   every row (`ld_uniform`), the first-to-last lane footprint
//!   (`ld_span`; both rules in `harness/src/lanes.rs`) and one past the
//!   CTA's contiguous warp slots (`ld_cta_end`; `harness/src/sm/launch.rs`),
//!   from kernel files and traces alike ([`LoadInfo`](crate::roles::LoadInfo));
//! - `cache_full` from the L1, which runs in decoupled mode
//!   (`decoupled = auto` turns it on for Snake: [`HarnessUnit::DECOUPLED_L1`](crate::registry::HarnessUnit::DECOUPLED_L1);
//!   the rules are in `harness/src/decoupled.rs`), and `bw_util`
//!   from the lower memory over the machine's `bw_window` ([`Pressure`](crate::roles::Pressure));
//! - `pf_ready` when the L1 has taken every line of the prefetch's
//!   footprint `[pf_addr, pf_addr + pf_span]` (one request per line, each
//!   issued or dropped because the line is present or in flight; at most
//!   the machine's `snake_span_lines`, else the first line only:
//!   `harness/src/sm/prefetches.rs`); eager wake-up finds the target by
//!   its SM slot (`pf_warp`).
//!
//! Parameters: the paper's, with `N_WARPS` the machine's warps per SM
//! rounded up to a power of two (2..=64); then the `snake.NAME` overrides.

use ports::snake::{SnakeParams, SnakePrefetcher};

use crate::counts::UnitCounts;
use crate::error::HarnessError;
use crate::registry::{Attached, HarnessUnit, UnitContext};
use crate::roles::{
    Choice, LoadInfo, PrefetchOffer, PrefetcherRole, Pressure, Role, RoleObject, WarpRef,
};

impl HarnessUnit for SnakePrefetcher {
    const ROLE: Role = Role::Prefetcher;
    const CHOICES: &'static [Choice] = &[Choice {
        name: "snake",
        help: "snake_prefetcher's golden model: chains of strides, with the L1 in decoupled \
               mode",
    }];
    const KEY: &'static str = "snake";
    const LABEL: &'static str = "Snake";
    const DECOUPLED_L1: bool = true;

    fn params(ctx: &UnitContext<'_>) -> SnakeParams {
        SnakeParams {
            N_WARPS: (ctx.machine.max_warps as u64)
                .next_power_of_two()
                .clamp(2, 64),
            ..SnakeParams::default()
        }
    }

    fn into_role(unit: Attached<Self>, _ctx: &UnitContext<'_>) -> Result<RoleObject, HarnessError> {
        Ok(RoleObject::Prefetcher(Box::new(SnakeRole {
            unit,
            throttled_cycles: 0,
        })))
    }
}

/// The Snake golden model as the harness's prefetcher.
pub(crate) struct SnakeRole {
    unit: Attached<SnakePrefetcher>,
    /// Cycles `throttled` was 1.
    throttled_cycles: u64,
}

impl PrefetcherRole for SnakeRole {
    fn cta_launch(&mut self, _slot: u32) {}

    fn load(&mut self, ld: &LoadInfo<'_>) {
        let i = &mut self.unit.input;
        i.ld_valid = true;
        i.ld_pc = ld.pc;
        i.ld_warp = ld.sm_warp as u64;
        i.ld_addr = ld.first_addr;
        i.ld_uniform = ld.uniform;
        i.ld_span = ld.span as u64;
        i.ld_cta_end = ld.cta_end as u64;
    }

    fn offer(&self) -> Option<PrefetchOffer> {
        let o = &self.unit.out;
        o.pf_valid.then_some(PrefetchOffer {
            addr: o.pf_addr,
            warp: WarpRef::Sm(o.pf_warp),
            span: o.pf_span as u32,
        })
    }

    fn accept(&mut self) {
        self.unit.input.pf_ready = true;
    }

    fn busy(&self) -> bool {
        let m = &self.unit.model;
        self.unit.out.pf_valid || !m.walk_queue().is_empty()
    }

    fn needs_every_cycle(&self) -> bool {
        true
    }

    fn pressure(&mut self, p: Pressure) {
        let i = &mut self.unit.input;
        i.cache_full = p.cache_full;
        i.bw_util = p.bw_util.min(100) as u64;
    }

    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.unit.input.reset = reset;
        if self.unit.out.throttled {
            self.throttled_cycles += 1;
        }
        self.unit.step()
    }

    fn counts(&self) -> UnitCounts {
        let s = self.unit.model.stats();
        UnitCounts {
            key: SnakePrefetcher::KEY,
            label: "Snake",
            counters: vec![
                ("loads_trained", s.loads_trained),
                ("loads_ignored", s.loads_ignored),
                ("link_allocations", s.link_allocations),
                ("promotions", s.promotions),
                ("evictions", s.evictions),
                ("bits_cleared", s.bits_cleared),
                ("loops_closed", s.loops_closed),
                ("jobs_enqueued", s.jobs_enqueued),
                ("jobs_dropped", s.jobs_dropped),
                ("prefetches", s.prefetches()),
                ("prefetches_chain", s.prefetches_chain),
                ("prefetches_inter", s.prefetches_inter),
                ("prefetches_intra", s.prefetches_intra),
                ("throttled_cycles", self.throttled_cycles),
            ],
            summary: format!(
                "{} prefetches ({} chain, {} inter-warp, {} intra-warp), {} promotions, {} \
                 loops closed, throttled {} cycles",
                s.prefetches(),
                s.prefetches_chain,
                s.prefetches_inter,
                s.prefetches_intra,
                s.promotions,
                s.loops_closed,
                self.throttled_cycles
            ),
        }
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        self.unit.finish()
    }
}
