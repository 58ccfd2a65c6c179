//! `dac_expander` in the SM harness: its declaration for the expander slot
//! ([`Role::Expander`](crate::harness::roles::Role::Expander), `expander = dac`).
//!
//! The harness does not model DAC's affine warp yet (the warp per SM that
//! executes the affine stream, enqueues tuples ahead of the other warps,
//! and the non-affine warps that dequeue records and skip the affine
//! instructions; `sm_harness.md`, "Units in the harness"). Until it does,
//! the machine cannot select the slot (`MachineConfig::enable_unit`
//! refuses `--cosim dac_expander` with that reason) and [`into_role`]
//! answers with the same reason; the unit is co-simulated, exported and
//! benchmarked on its own (`warpgen cosim`, `warpgen bench`).
//!
//! Parameters: the paper's, with `N_WARPS` the machine's warps per SM and
//! `N_CTA` its CTA slots (at most 16); then the `dac.NAME` overrides.
//!
//! [`into_role`]: crate::harness::units::HarnessUnit::into_role

use ports::dac::{DacExpander, DacParams};

use super::DacModel;
use crate::harness::roles::{Choice, Role, RoleObject};
use crate::harness::units::{Attached, HarnessUnit, UnitContext};
use crate::harness::HarnessError;

impl HarnessUnit for DacExpander {
    type Model = DacModel;
    const ROLE: Role = Role::Expander;
    const CHOICES: &'static [Choice] = &[Choice {
        name: "dac",
        help: "dac_expander's golden model: affine tuples expanded into per-warp records (the \
               harness's affine warp is not modelled yet)",
    }];
    const KEY: &'static str = "dac";

    fn params(ctx: &UnitContext<'_>) -> DacParams {
        DacParams {
            N_WARPS: ctx.machine.max_warps as u64,
            N_CTA: (ctx.machine.cta_slots as u64).min(16),
            ..DacParams::default()
        }
    }

    fn into_role(
        _unit: Attached<Self>,
        _ctx: &UnitContext<'_>,
    ) -> Result<RoleObject, HarnessError> {
        Err(HarnessError::Unsupported(
            "dac_expander: the harness does not model DAC's affine warp yet (warpgen cosim / \
             bench run the unit on its own)"
                .into(),
        ))
    }
}
