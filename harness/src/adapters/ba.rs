//! `ba_tag_array` in the SM harness: the L1 role (`l1 = ba`, bypass-aware;
//! `l1 = ba-lru`, the same model as plain LRU with `BA_ENABLE = 0`).
//!
//! Every L1 line request of the harness is one `req_*` request; the
//! response of the next cycle gives the outcome and the displaced line.
//!
//! # Latency (issue 29)
//! The unit answers two cycles after a request (its document's "Latency":
//! two pipeline stages); the harness's L1 tag lookup stays one cycle. The
//! adapter reads the model's decision of the previous edge's request
//! ([`golden::ba::BaModel::decided`], the response one edge before it
//! reaches `rsp_*`) instead of the unit's outputs, so the SM, its plans and
//! the reservations see exactly what they saw before; the model's state is
//! updated at the request's edge as before (the unit forwards, so it is a
//! sequential machine), and the RTL in lock-step is compared with the
//! model's outputs at the ports, two cycles after each request.
//! Parameters: the L1 geometry (`SETS`, `WAYS`, `LINE_BYTES` from `l1_bytes`,
//! `l1_ways`, `l1_line`), 32-bit addresses, `BA_ENABLE` from the choice,
//! then the `ba.NAME` overrides.
//!
//! # Reservation and the bypass path (`sm_harness.md`, revision 3)
//! The adapter keeps the reserved ways: a `MISS` or `PSEUDO_HIT` response
//! (a load's or a prefetch's allocation) reserves its set's `rsp_way`
//! until the SM reports the line's fill ([`L1Role::fill`]). Each request
//! carries the reserved ways of its set (`req_resv`), so the unit never
//! chooses a reserved victim; `RESV_FAIL` ("must allocate but every way is
//! reserved: nothing changed") is the harness's reservation fail.
//! [`L1Role::plan`] reads the model's state (a hit, a pseudo-hit or a
//! miss that allocates, a `BYPASS` by rule 4, or a reservation fail) so
//! that the SM sends a bypass without an MSHR and never sends a request
//! that fails; the response is checked against the plan.

use ports::ba::{outcome, BaParams, BaTagArray};
use ports::Params;

use crate::config::{MachineConfig, MachineConfigError};
use crate::error::HarnessError;
use crate::registry::{with_overrides, Attached, HarnessUnit, UnitContext};
use crate::roles::{Choice, L1Outcome, L1Plan, L1Response, L1Role, Role, RoleObject};

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
        Ok(RoleObject::L1(Box::new(BaRole::new(unit))))
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
    /// Per set, the reserved ways (bit `w`: way `w` is in flight).
    resv: Vec<u32>,
    /// Per set and way, the line number + 1 a reserved way waits for.
    resv_line: Vec<u64>,
    ways: usize,
    /// The load or prefetch request made this cycle (its line number).
    sent: Option<u64>,
}

impl BaRole {
    fn new(unit: Attached<BaTagArray>) -> BaRole {
        let (sets, ways) = (unit.params.SETS as usize, unit.params.WAYS as usize);
        BaRole {
            unit,
            resv: vec![0; sets],
            resv_line: vec![0; sets * ways],
            ways,
            sent: None,
        }
    }

    /// The line number and set of `addr`.
    #[inline]
    fn line_set(&self, addr: u64) -> (u64, usize) {
        let p = &self.unit.params;
        let ln = (addr & 0xFFFF_FFFF) / p.LINE_BYTES;
        (ln, (ln % p.SETS) as usize)
    }

    /// Every way of `set` is reserved.
    #[inline]
    fn all_reserved(&self, set: usize) -> bool {
        self.resv[set].count_ones() as usize == self.ways
    }

    /// The previous edge's allocation (a `MISS` or `PSEUDO_HIT` of a load
    /// or prefetch) reserves its way.
    fn reserve_allocated(&mut self) {
        let Some(ln) = self.sent.take() else {
            return;
        };
        let o = self.unit.model.decided();
        if o.rsp_valid && matches!(o.rsp_outcome, outcome::MISS | outcome::PSEUDO_HIT) {
            let set = (ln % self.unit.params.SETS) as usize;
            let way = o.rsp_way as usize;
            self.resv[set] |= 1 << way;
            self.resv_line[set * self.ways + way] = ln + 1;
        }
    }
}

impl L1Role for BaRole {
    #[inline]
    fn holds_data(&self, addr: u64) -> bool {
        self.unit.model.holds_data(addr)
    }

    /// The model's decision without changing it (the module
    /// documentation): rule 1-2 (tag present), 3 (a free way), 4 (a full
    /// set: `BYPASS` with `BA_ENABLE = 1` unless `BA_POLICY = 1` finds a
    /// line never reused); a prefetch never bypasses (P1-P4).
    fn plan(&self, addr: u64, prefetch: bool) -> L1Plan {
        let m = &self.unit.model;
        let (set, _) = m.set_and_tag(addr);
        if let Some(w) = m.lookup(addr) {
            return if m.line(set, w).bypass {
                L1Plan::Allocate
            } else {
                L1Plan::Hit
            };
        }
        // The unit's rules over the ways `req_resv` leaves free
        // (`docs/units/ba_tag_array.md`, "Reservation"): a free invalid way
        // is allocated; else BA bypasses a demand load unless the second
        // reading finds a free line never reused; an allocation into a set
        // with every way reserved is RESV_FAIL (a bypass is not).
        let lines = m.set_lines(set);
        let resv = self.resv[set];
        let free_way = |w: usize| resv & (1 << w) == 0;
        if lines
            .iter()
            .enumerate()
            .any(|(w, l)| !l.valid && free_way(w))
        {
            return L1Plan::Allocate;
        }
        let p = &self.unit.params;
        let never_reused = lines
            .iter()
            .enumerate()
            .any(|(w, l)| free_way(w) && !l.reuse);
        let allocates = p.BA_ENABLE == 0 || prefetch || (p.BA_POLICY == 1 && never_reused);
        if !allocates {
            L1Plan::Bypass
        } else if self.all_reserved(set) {
            L1Plan::ReservationFail
        } else {
            L1Plan::Allocate
        }
    }

    /// Releases the way the line's miss reserved.
    fn fill(&mut self, addr: u64) {
        let (ln, set) = self.line_set(addr);
        let base = set * self.ways;
        if let Some(w) = self.resv_line[base..base + self.ways]
            .iter()
            .position(|&l| l == ln + 1)
        {
            self.resv_line[base + w] = 0;
            self.resv[set] &= !(1 << w);
        }
    }

    #[inline]
    fn request(&mut self, addr: u64, write: bool) {
        let (ln, set) = self.line_set(addr);
        self.sent = (!write).then_some(ln);
        let i = &mut self.unit.input;
        i.req_valid = true;
        i.req_addr = addr & 0xFFFF_FFFF;
        i.req_write = write;
        i.req_prefetch = false;
        i.req_resv = self.resv[set] as u64;
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
        let o = self.unit.model.decided();
        if !o.rsp_valid {
            return None;
        }
        let outcome = match o.rsp_outcome {
            outcome::HIT => L1Outcome::Hit,
            outcome::MISS => L1Outcome::Miss,
            outcome::BYPASS => L1Outcome::Bypass,
            outcome::PSEUDO_HIT => L1Outcome::PseudoHit,
            outcome::WRITE_EVICT => L1Outcome::WriteEvict,
            // RESV_FAIL is planned (`plan`) and never requested: were it
            // answered, the SM's check of the response against the plan
            // stops the run.
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
        self.unit.step()?;
        self.reserve_allocated();
        Ok(())
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
        let mut b: Box<dyn L1Role> = Box::new(BaRole::new(Attached::new(p, Vec::new())));
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
            assert_eq!(a.plan(addr, false), b.plan(addr, false));
            a.step(false).unwrap();
            b.step(false).unwrap();
            assert_eq!(a.response(), b.response());
            assert!(a.response().is_some());
            // The fill returns at once (no reservation in this test).
            a.fill(addr);
            b.fill(addr);
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
