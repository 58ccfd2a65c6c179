//! `snake_prefetcher` in the SM harness: the prefetcher role (`prefetcher =
//! snake`).
//!
//! Snake needs more of the harness than the other prefetchers
//! (`sm_harness.md`, "Units in the harness"): the L1 in decoupled mode
//! (per-line prefetch flag, the half-capacity cap until trained, the 25 %
//! LRU free-up with the 80 % rule, the flag flip on a hit), `cache_full`
//! and `bw_util` from the cache and the memory model. Loads already carry
//! what `ld_*` needs (the warp's SM slot, the lowest active thread's
//! address, uniformity: `LoadInfo`). Until the harness models the rest, choosing `prefetcher = snake` is refused with that reason
//! ([`HarnessUnit::check_machine`]); the unit is co-simulated and
//! benchmarked on its own (`warpgen cosim`, `warpgen bench`).
//!
//! Parameters: the paper's, with `N_WARPS` the machine's warps per SM
//! rounded up to a power of two (2..=64); then the `snake.NAME` overrides.

use ports::snake::{SnakeParams, SnakePrefetcher};

use super::SnakeModel;
use crate::harness::config::{MachineConfig, MachineConfigError};
use crate::harness::metrics::UnitCounts;
use crate::harness::roles::{Choice, LoadInfo, PrefetchOffer, PrefetcherRole, Role, RoleObject};
use crate::harness::units::{Attached, HarnessUnit, UnitContext};
use crate::harness::HarnessError;

impl HarnessUnit for SnakePrefetcher {
    type Model = SnakeModel;
    const ROLE: Role = Role::Prefetcher;
    const CHOICES: &'static [Choice] = &[Choice {
        name: "snake",
        help: "snake_prefetcher's golden model: chains of strides (needs the L1's decoupled \
               mode, not modelled yet)",
    }];
    const KEY: &'static str = "snake";

    fn params(ctx: &UnitContext<'_>) -> SnakeParams {
        SnakeParams {
            N_WARPS: (ctx.machine.max_warps as u64)
                .next_power_of_two()
                .clamp(2, 64),
            ..SnakeParams::default()
        }
    }

    fn check_machine(_cfg: &MachineConfig, choice: &str) -> Result<(), MachineConfigError> {
        Err(MachineConfigError::new(
            "prefetcher",
            choice,
            "Snake needs the L1's decoupled prefetch storage and the cache-full and \
             bandwidth signals, which the harness does not model yet (warpgen cosim / bench \
             run the unit on its own)",
        ))
    }

    fn into_role(unit: Attached<Self>, ctx: &UnitContext<'_>) -> RoleObject {
        RoleObject::Prefetcher(Box::new(SnakeRole {
            unit,
            warps_per_cta: ctx.warps_per_cta as u64,
        }))
    }
}

/// The Snake golden model as the harness's prefetcher (reached only once
/// the harness models what [`HarnessUnit::check_machine`] asks for).
pub(crate) struct SnakeRole {
    unit: Attached<SnakePrefetcher>,
    warps_per_cta: u64,
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
    }

    fn offer(&self) -> Option<PrefetchOffer> {
        let o = &self.unit.out;
        o.pf_valid.then_some(PrefetchOffer {
            addr: o.pf_addr,
            cta_slot: o.pf_warp / self.warps_per_cta.max(1),
            warp: o.pf_warp % self.warps_per_cta.max(1),
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

    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.unit.input.reset = reset;
        self.unit.step()
    }

    fn counts(&self) -> UnitCounts {
        let s = self.unit.model.stats();
        UnitCounts {
            key: SnakePrefetcher::KEY,
            label: "Snake",
            counters: vec![("prefetches", s.prefetches())],
            summary: format!("{} prefetches", s.prefetches()),
        }
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        self.unit.finish()
    }
}
