//! `ba_tag_array` in the SM harness: the L1 role (`l1 = ba`, bypass-aware;
//! `l1 = ba-lru`, the same model as plain LRU with `BA_ENABLE = 0`).
//!
//! Every L1 line request of the harness is one `req_*` request; the
//! response of the next cycle gives the outcome and the displaced line.
//! Parameters: the L1 geometry (`SETS`, `WAYS`, `LINE_BYTES` from `l1_bytes`,
//! `l1_ways`, `l1_line`), 32-bit addresses, `BA_ENABLE` from the choice,
//! then the `ba.NAME` overrides.

use ports::ba::{outcome, BaParams, BaTagArray};
use ports::Params;

use crate::config::{MachineConfig, MachineConfigError};
use crate::error::HarnessError;
use crate::registry::{with_overrides, Attached, HarnessUnit, UnitContext};
use crate::roles::{Choice, L1Outcome, L1Response, L1Role, Role, RoleObject};

/// The choice with the bypass-aware policy.
const BA: &str = "ba";

impl HarnessUnit for BaTagArray {
    const ROLE: Role = Role::L1;
    const CHOICES: &'static [Choice] = &[
        Choice {
            name: BA,
            help: "ba_tag_array's golden model, bypass-aware (BA_ENABLE = 1)",
        },
        Choice {
            name: "ba-lru",
            help: "ba_tag_array's golden model as plain LRU (BA_ENABLE = 0): decides like lru",
        },
    ];
    const KEY: &'static str = "ba";
    const LABEL: &'static str = "BA";

    fn params(ctx: &UnitContext<'_>) -> BaParams {
        derived(ctx.machine, ctx.choice)
    }

    fn check_machine(cfg: &MachineConfig, choice: &str) -> Result<(), MachineConfigError> {
        let pow2 = |k: &str, v: u64| {
            if v.is_power_of_two() {
                Ok(())
            } else {
                Err(MachineConfigError::new(k, v, "must be a power of two"))
            }
        };
        pow2("l1_ways (with the BA tag array)", cfg.l1_ways as u64)?;
        if cfg.l1_ways > 32 {
            return Err(MachineConfigError::new(
                "l1_ways (with the BA tag array)",
                cfg.l1_ways,
                "at most 32 (ba_tag_array's WAYS): set l1_ways to a power of two up to 32 \
                 (the sets follow from l1_bytes)",
            ));
        }
        pow2(
            "l1_bytes / (l1_line * l1_ways) (sets, with the BA tag array)",
            cfg.l1_sets() as u64,
        )?;
        with_overrides::<Self>(cfg, derived(cfg, choice))
            .and_then(|p| p.validate().map_err(|e| e.to_string()))
            .map_err(|e| MachineConfigError::new(Self::KEY, "", e))
    }

    fn into_role(unit: Attached<Self>, _ctx: &UnitContext<'_>) -> Result<RoleObject, HarnessError> {
        Ok(RoleObject::L1(Box::new(BaRole { unit })))
    }
}

/// The parameters before the overrides (they need no kernel).
fn derived(cfg: &MachineConfig, choice: &str) -> BaParams {
    BaParams {
        SETS: cfg.l1_sets() as u64,
        WAYS: cfg.l1_ways as u64,
        LINE_BYTES: cfg.l1_line as u64,
        ADDR_W: 32,
        BA_ENABLE: (choice == BA) as u64,
        REUSE_THRESHOLD: None,
        BA_POLICY: 0,
    }
}

/// The BA golden model as the harness's L1 tag array.
pub(crate) struct BaRole {
    unit: Attached<BaTagArray>,
}

impl L1Role for BaRole {
    #[inline]
    fn holds_data(&self, addr: u64) -> bool {
        self.unit.model.holds_data(addr)
    }

    #[inline]
    fn request(&mut self, addr: u64, write: bool) {
        let i = &mut self.unit.input;
        i.req_valid = true;
        i.req_addr = addr & 0xFFFF_FFFF;
        i.req_write = write;
        i.req_prefetch = false;
        // No way reserved yet (issue 27: the harness's reservation will
        // feed `req_resv`; with 0 the unit never answers RESV_FAIL).
        i.req_resv = 0;
    }

    /// A prefetch fill (`req_prefetch`): it allocates even in a full set and
    /// does not mark reuse, so prefetched lines are installed under BA too.
    #[inline]
    fn request_prefetch(&mut self, addr: u64) {
        self.request(addr, false);
        self.unit.input.req_prefetch = true;
    }

    #[inline]
    fn response(&self) -> Option<L1Response> {
        let o = &self.unit.out;
        if !o.rsp_valid {
            return None;
        }
        let outcome = match o.rsp_outcome {
            outcome::HIT => L1Outcome::Hit,
            outcome::MISS => L1Outcome::Miss,
            outcome::BYPASS => L1Outcome::Bypass,
            outcome::PSEUDO_HIT => L1Outcome::PseudoHit,
            outcome::WRITE_EVICT => L1Outcome::WriteEvict,
            _ => L1Outcome::WriteMiss,
        };
        Some(L1Response {
            outcome,
            evicted: o.rsp_evict_valid.then_some(o.rsp_evict_addr),
        })
    }

    #[inline]
    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.unit.input.reset = reset;
        self.unit.step()
    }

    fn needs_every_cycle(&self) -> bool {
        true
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        self.unit.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l1::LruTags;

    /// The native LRU array decides exactly like the BA model with
    /// `BA_ENABLE = 0`.
    #[test]
    fn lru_matches_ba_model_without_bypass() {
        let p = BaParams {
            SETS: 4,
            WAYS: 2,
            BA_ENABLE: 0,
            ..BaParams::default()
        };
        let mut a: Box<dyn L1Role> = Box::new(LruTags::new(4, 2, 128));
        let mut b: Box<dyn L1Role> = Box::new(BaRole {
            unit: Attached::new(p, Vec::new()),
        });
        let mut x = 12345u64;
        for _ in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let addr = 0xC000_0000 + ((x >> 33) % 24) * 128;
            let write = (x >> 20).is_multiple_of(5);
            assert_eq!(a.holds_data(addr), b.holds_data(addr));
            a.request(addr, write);
            b.request(addr, write);
            a.step(false).unwrap();
            b.step(false).unwrap();
            assert_eq!(a.response(), b.response());
            assert!(a.response().is_some());
        }
    }

    #[test]
    fn machine_checks_keep_their_messages() {
        let mut c = MachineConfig::fermi();
        c.set("l1", "ba").unwrap();
        c.set("ba.WAYS", "3").unwrap();
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "configuration `ba` = : parameter WAYS = 3 is out of range: allowed a power of \
             two in 1..=32"
        );
        let mut c = MachineConfig::fermi();
        c.set("l1", "ba-lru").unwrap();
        c.set("l1_ways", "3").unwrap();
        c.set("l1_bytes", "12288").unwrap();
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("l1_ways (with the BA"));
    }
}
