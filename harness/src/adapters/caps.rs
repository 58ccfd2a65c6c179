//! `caps_prefetcher` in the SM harness: the prefetcher role (`prefetcher =
//! caps`).
//!
//! The harness's loads feed `ld_*` (PC, CTA slot, warp index within the
//! CTA, the first `MAX_ADDRS` coalesced requests' addresses and their
//! count, the indirect hint), CTA launches feed `cta_launch_*`, `cfg_warps_per_cta` is
//! the kernel's, and the L1 drives `pf_ready` when it takes the offered
//! prefetch (`sm_harness.md`, "Units in the harness"). A request's
//! address is the lowest byte address the warp touches in its line
//! (revision 2: "CAPS sees byte addresses"), so strides below a line are
//! learnt; the prefetch targets the line of the address CAPS predicts.
//!
//! Parameters: the paper's, with `N_CTA` raised to the next power of two of
//! the machine's `cta_slots` (at least 8) and `WARP_IDX_W` widened when the
//! kernel has more warps per CTA than it can count; then the
//! `caps.NAME` overrides. A run whose resident CTAs exceed `N_CTA` is
//! refused.
//!
//! The unit owns one machine key, `caps_hint` (default true): show the
//! prefetcher the kernel's indirect-load classification (`ld_indirect`),
//! else every load is shown as direct. And its paper's coverage (section
//! VI-C, "the number of issued prefetch requests compared to the total
//! demand fetch requests": every prefetch request the L1 took, dropped
//! ones included, over the L1 accesses) is reported for every prefetcher
//! run as `caps_coverage`.

use ports::caps::{CapsParams, CapsPrefetcher, MAX_ADDR_PORTS};
use ports::clog2;

use crate::counts::UnitCounts;
use crate::error::HarnessError;
use crate::metrics::ratio;
use crate::registry::{Attached, HarnessUnit, PrefetchFigure, Switch, UnitContext};
use crate::roles::{Choice, LoadInfo, PrefetchOffer, PrefetcherRole, Role, RoleObject, WarpRef};

impl HarnessUnit for CapsPrefetcher {
    const ROLE: Role = Role::Prefetcher;
    const CHOICES: &'static [Choice] = &[Choice {
        name: "caps",
        help: "caps_prefetcher's golden model: CTA-aware prefetching (pair with --sched pas)",
    }];
    const KEY: &'static str = "caps";
    const SWITCHES: &'static [Switch] = &[Switch {
        key: "caps_hint",
        help: "show the prefetcher the kernel's indirect-load classification (else never indirect)",
        field: |c| &mut c.caps_hint,
    }];
    const PREFETCH_FIGURES: &'static [PrefetchFigure] = &[PrefetchFigure {
        label: "coverage, CAPS VI-C (prefetches / demand)",
        compute: |p, accesses| p.caps_coverage = ratio(p.offered, accesses),
        value: |p| p.caps_coverage,
    }];
    const LABEL: &'static str = "CAPS";
    /// The paper pairs CAPS with its prefetch-aware scheduler.
    const PAPER_SETTINGS: &'static [&'static str] = &["sched=pas"];
    const COMPARED_WITH: &'static [&'static str] = &["ba"];

    fn params(ctx: &UnitContext<'_>) -> CapsParams {
        let mut p = CapsParams {
            N_CTA: (ctx.machine.cta_slots as u64).next_power_of_two().max(8),
            ..CapsParams::default()
        };
        let need = clog2(ctx.warps_per_cta as u64 + 1) as u64;
        p.WARP_IDX_W = p.WARP_IDX_W.max(need);
        p
    }

    fn check_run(ctx: &UnitContext<'_>, p: &CapsParams) -> Result<(), String> {
        if p.N_CTA < ctx.ctas_per_sm as u64 {
            return Err(format!(
                "N_CTA = {} < {} resident CTAs",
                p.N_CTA, ctx.ctas_per_sm
            ));
        }
        Ok(())
    }

    fn into_role(unit: Attached<Self>, ctx: &UnitContext<'_>) -> Result<RoleObject, HarnessError> {
        Ok(RoleObject::Prefetcher(Box::new(CapsRole {
            unit,
            warps_per_cta: ctx.warps_per_cta as u64,
            loads: 0,
            indirect_loads: 0,
        })))
    }
}

/// The CAPS golden model as the harness's prefetcher.
pub(crate) struct CapsRole {
    unit: Attached<CapsPrefetcher>,
    warps_per_cta: u64,
    /// Loads presented to the prefetcher.
    loads: u64,
    /// Of which with `ld_indirect = 1`.
    indirect_loads: u64,
}

impl PrefetcherRole for CapsRole {
    fn cta_launch(&mut self, slot: u32) {
        let i = &mut self.unit.input;
        i.cta_launch_valid = true;
        i.cta_launch_slot = slot as u64;
    }

    fn load(&mut self, ld: &LoadInfo<'_>) {
        let i = &mut self.unit.input;
        let n = ld.lines.len();
        // Byte addresses (`sm_harness.md`, revision 2: "per coalesced
        // request, the lowest byte address the warp touches in it").
        let mut addr = [0u64; MAX_ADDR_PORTS];
        for (slot, &a) in addr.iter_mut().zip(ld.firsts) {
            *slot = a;
        }
        i.ld_valid = true;
        i.ld_pc = ld.pc;
        i.ld_cta = ld.cta_slot as u64;
        i.ld_warp = ld.warp as u64;
        i.ld_count = n as u64;
        i.ld_addr = addr;
        i.ld_indirect = ld.indirect;
        self.loads += 1;
        if ld.indirect {
            self.indirect_loads += 1;
        }
    }

    fn offer(&self) -> Option<PrefetchOffer> {
        let o = &self.unit.out;
        o.pf_valid.then_some(PrefetchOffer {
            addr: o.pf_addr,
            warp: WarpRef::InCta {
                cta_slot: o.pf_cta,
                warp: o.pf_warp,
            },
            span: 0,
        })
    }

    fn accept(&mut self) {
        self.unit.input.pf_ready = true;
    }

    fn busy(&self) -> bool {
        let m = &self.unit.model;
        self.unit.out.pf_valid
            || m.load_in_flight()
            || m.jobs_pending() > 0
            || m.generator().is_some()
            || m.prefetches_in_flight() > 0
    }

    fn needs_every_cycle(&self) -> bool {
        true
    }

    /// CAPS's leading warp is warp 0 of each CTA: its loads fill the
    /// PerCTA table the other warps' prefetches are computed from.
    fn leading_warp(&self, warp: u32) -> bool {
        warp == 0
    }

    /// A leading warp's loads fill at most `PERCTA_ENTRIES` PerCTA
    /// entries: with that many distinct PCs issued, every base address
    /// CAPS can keep is computed.
    fn leading_loads(&self) -> Option<u32> {
        Some(self.unit.model.params().PERCTA_ENTRIES as u32)
    }

    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.unit.input.reset = reset;
        self.unit.input.cfg_warps_per_cta = self.warps_per_cta;
        self.unit.step()
    }

    fn counts(&self) -> UnitCounts {
        let s = self.unit.model.stats();
        UnitCounts {
            key: CapsPrefetcher::KEY,
            label: "CAPS",
            counters: vec![
                ("loads", self.loads),
                ("indirect_loads", self.indirect_loads),
                ("jobs_a", s.jobs_a),
                ("jobs_b", s.jobs_b),
                ("jobs_dropped", s.jobs_dropped),
                ("prefetches", s.prefetches),
                ("mispredictions", s.mispredictions),
                ("trainings", s.trainings),
                ("invalidations", s.invalidations),
                ("loop_jobs", s.loop_jobs),
                ("decays", s.decays),
            ],
            summary: format!(
                "{} loads ({} indirect), jobs A {} B {} dropped {}, {} mispredictions; \
                 loop jobs B {}, counter decays {}",
                self.loads,
                self.indirect_loads,
                s.jobs_a,
                s.jobs_b,
                s.jobs_dropped,
                s.mispredictions,
                s.loop_jobs,
                s.decays
            ),
        }
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        self.unit.finish()
    }
}

#[cfg(test)]
mod tests {
    use ports::Params;

    use crate::config::MachineConfig;
    use crate::kernel::Kernel;
    use crate::registry::unit_params;

    use super::*;

    fn kernel(name: &str) -> Kernel {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../kernels")
            .join(name);
        Kernel::from_file(&p, &[], 1).unwrap()
    }

    #[test]
    fn params_follow_machine_and_kernel() {
        let k = kernel("matrix_mul.toml");
        let mut c = MachineConfig::volta();
        c.set("prefetcher", "caps").unwrap();
        let p = unit_params::<CapsPrefetcher>(&c, &k).unwrap();
        assert_eq!(p.N_CTA, 32);
        p.validate().unwrap();
        c.set("caps.MISPRED_THRESHOLD", "64").unwrap();
        let q = unit_params::<CapsPrefetcher>(&c, &k).unwrap();
        assert_eq!(q.MISPRED_THRESHOLD, 64);
        assert_eq!(q.N_CTA, 32);
        // Not part of the run.
        c.set("prefetcher", "none").unwrap();
        let e = unit_params::<CapsPrefetcher>(&c, &k).unwrap_err();
        assert_eq!(
            e.to_string(),
            "caps_prefetcher lock-step or recording needs --prefetcher caps"
        );
    }

    #[test]
    fn warp_index_widens_for_large_ctas() {
        let k = kernel("matrix_mul.toml");
        let c = MachineConfig::volta();
        let ctx = UnitContext {
            machine: &c,
            kernel: &k,
            choice: "caps",
            warps_per_cta: 40,
            ctas_per_sm: 1,
        };
        let p = <CapsPrefetcher as HarnessUnit>::params(&ctx);
        assert_eq!(p.N_CTA, 32);
        assert_eq!(p.WARP_IDX_W, 6);
        let p = <CapsPrefetcher as HarnessUnit>::params(&UnitContext {
            warps_per_cta: 64,
            ..ctx
        });
        assert_eq!(p.WARP_IDX_W, 7);
        p.validate().unwrap();
    }
}
