//! The bypass-all L1 (`l1 = bypass`): the BA-cache thesis's other point of
//! comparison (Wang 2016, §5.5: "We compare with traditional cache design
//! which fully utilize L1 cache and simple bypassing which bypass all cache
//! requests"). A golden model only, without RTL: an
//! [`L1Baseline`](super::baselines::L1Baseline) entry of
//! [`L1_BASELINES`](super::baselines::L1_BASELINES), offered wherever the
//! L1 role's choices are.
//!
//! What the thesis measured with it: "Simple bypassing can improve the
//! performance for 6 out of 8 benchmarks with two exceptions: SPMV and SM,
//! whose performance hurts from simple bypassing. Simply bypassing all
//! memory accesses lay more burden on the interconnect which is a race
//! resources between all cores."
//!
//! Decisions, with the port timing of [`L1Role`] (a request made in a cycle
//! is answered during the next cycle; the edge in between counts it):
//!
//! - a load line request: `BYPASS`, never allocated; the SM fetches the
//!   line from memory for the waiting warps without installing it, so
//!   [`L1Role::holds_data`] is always false and no load hits;
//! - a store line request: `WRITE_MISS` (nothing to invalidate);
//! - a prefetch request: `BYPASS` as well (nothing allocated). The machine
//!   configuration refuses any prefetcher with this L1 ([`check_machine`]),
//!   since a prefetch could never be installed, so in a run none arrives;
//! - nothing is ever displaced, the cache is never full, no line can be
//!   pinned (DAC's locks: `expander = dac` needs `l1 = lru`).
//!
//! The bypass path (`sm_harness.md`, revision 3; the thesis, §5.1:
//! bypassed requests "go into memory, and detour cache"): the L1 policy
//! decides first ([`L1Role::plan`] is [`L1Plan::Bypass`] for every load),
//! so a bypassed load takes no MSHR and merges with nothing: each line
//! request is its own read to the interconnect (it waits while the memory
//! has no room for it), and its data returns to the warp directly
//! (`sm/l1_port.rs`). Nothing is allocated, so nothing is ever reserved
//! and a reservation fail cannot arise.
//!
//! Counters (`"bypass"` in the L1's JSON): the load, store and prefetch
//! line requests decided.

use crate::config::{MachineConfig, MachineConfigError};
use crate::counts::UnitCounts;
use crate::error::HarnessError;
use crate::roles::{L1Outcome, L1Plan, L1Response, L1Role, Role};
use crate::text::or_list;

/// The choice name (`l1 = bypass`).
pub const NAME: &str = "bypass";

/// A request made this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Load,
    Store,
    Prefetch,
}

/// The bypass-all tag array: holds no line, answers every load `BYPASS`
/// and every store `WRITE_MISS`.
#[derive(Debug, Default)]
pub struct BypassAll {
    pending: Option<Request>,
    rsp: Option<L1Response>,
    loads: u64,
    stores: u64,
    prefetches: u64,
}

impl BypassAll {
    /// A fresh instance for one SM (it has no geometry: nothing is stored).
    pub fn new() -> Self {
        Self::default()
    }
}

impl L1Role for BypassAll {
    /// Never: nothing is cached.
    #[inline]
    fn holds_data(&self, _addr: u64) -> bool {
        false
    }

    /// Every load bypasses.
    #[inline]
    fn plan(&self, _addr: u64, _prefetch: bool) -> L1Plan {
        L1Plan::Bypass
    }

    #[inline]
    fn request(&mut self, _addr: u64, write: bool) {
        self.pending = Some(if write { Request::Store } else { Request::Load });
    }

    /// Bypassed like a load: "bypass all cache requests".
    #[inline]
    fn request_prefetch(&mut self, _addr: u64) {
        self.pending = Some(Request::Prefetch);
    }

    #[inline]
    fn response(&self) -> Option<L1Response> {
        self.rsp
    }

    #[inline]
    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.rsp = match self.pending.take() {
            Some(r) if !reset => {
                let outcome = match r {
                    Request::Load => {
                        self.loads += 1;
                        L1Outcome::Bypass
                    }
                    Request::Prefetch => {
                        self.prefetches += 1;
                        L1Outcome::Bypass
                    }
                    Request::Store => {
                        self.stores += 1;
                        L1Outcome::WriteMiss
                    }
                };
                Some(L1Response {
                    outcome,
                    evicted: None,
                })
            }
            _ => None,
        };
        Ok(())
    }

    fn counts(&self) -> UnitCounts {
        UnitCounts {
            key: NAME,
            label: "bypass-all L1",
            counters: vec![
                ("loads", self.loads),
                ("stores", self.stores),
                ("prefetches", self.prefetches),
            ],
            summary: format!(
                "{} load, {} store and {} prefetch line requests, none cached",
                self.loads, self.stores, self.prefetches
            ),
        }
    }
}

/// What `l1 = bypass` requires of the machine: no prefetcher (a prefetch
/// into a cache that keeps nothing is never installed, and every prefetch
/// no demand merged into would count as evicted unused). `decoupled = on`
/// and `expander = dac` are refused by their own checks (both need
/// `l1 = lru`). `l1_choices` are the L1 role's choices, for the fix the
/// error names.
pub fn check_machine(cfg: &MachineConfig, l1_choices: &[&str]) -> Result<(), MachineConfigError> {
    let none = Role::Prefetcher.native().name;
    if cfg.prefetcher != none {
        let caching: Vec<&str> = l1_choices.iter().copied().filter(|&c| c != NAME).collect();
        return Err(MachineConfigError::new(
            Role::L1.key(),
            &cfg.l1,
            format!(
                "caches nothing, so prefetcher = {} could never install a prefetch; set \
                 prefetcher = {none}, or l1 = {}",
                cfg.prefetcher,
                or_list(&caching)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(t: &mut BypassAll, addr: u64, write: bool) -> L1Response {
        t.request(addr, write);
        t.step(false).unwrap();
        t.response().unwrap()
    }

    #[test]
    fn every_load_bypasses_and_nothing_is_held() {
        let mut t = BypassAll::new();
        for _ in 0..3 {
            for a in [0, 0x80, 0x1000_0000, 0xFFFF_FF80] {
                let r = access(&mut t, a, false);
                assert_eq!(r.outcome, L1Outcome::Bypass);
                assert_eq!(r.evicted, None);
                assert!(!t.holds_data(a));
            }
        }
        let r = access(&mut t, 0x80, true);
        assert_eq!(r.outcome, L1Outcome::WriteMiss);
        assert_eq!(r.evicted, None);
        t.request_prefetch(0x100);
        t.step(false).unwrap();
        assert_eq!(t.response().unwrap().outcome, L1Outcome::Bypass);
        assert!(!t.holds_data(0x100) && !t.cache_full() && !t.supports_locks());
        assert!(!t.needs_every_cycle());
        let c = t.counts();
        assert_eq!(c.key, "bypass");
        assert_eq!(
            (c.get("loads"), c.get("stores"), c.get("prefetches")),
            (Some(12), Some(1), Some(1))
        );
    }

    #[test]
    fn the_response_lasts_one_cycle_and_reset_drops_the_request() {
        let mut t = BypassAll::new();
        // Answered during the next cycle, after the edge.
        t.request(0x40, false);
        assert_eq!(t.response(), None);
        t.step(false).unwrap();
        assert_eq!(t.response().unwrap().outcome, L1Outcome::Bypass);
        // No request this cycle: no response during the next.
        t.step(false).unwrap();
        assert_eq!(t.response(), None);
        // A request during reset is not decided.
        t.request(0x40, false);
        t.step(true).unwrap();
        assert_eq!(t.response(), None);
        assert_eq!(t.counts().get("loads"), Some(1));
    }

    #[test]
    fn a_prefetcher_is_refused_with_the_fix() {
        let mut c = MachineConfig::fermi();
        c.set("l1", NAME).unwrap();
        c.validate().unwrap();
        for p in ["caps", "nlp", "intra"] {
            c.set("prefetcher", p).unwrap();
            let e = c.validate().unwrap_err();
            assert_eq!((e.key.as_str(), e.value.as_str()), ("l1", "bypass"), "{e}");
            assert!(
                e.reason.contains(&format!("prefetcher = {p}"))
                    && e.reason
                        .contains("set prefetcher = none, or l1 = lru, ba or ba-lru"),
                "{e}"
            );
        }
        // Snake turns the decoupled mode on: the prefetcher is named first.
        c.set("prefetcher", "snake").unwrap();
        assert!(c.validate().unwrap_err().reason.contains("caches nothing"));
        // The decoupled mode and DAC need the native array.
        c.set("prefetcher", "none").unwrap();
        c.set("decoupled", "on").unwrap();
        let e = c.validate().unwrap_err();
        assert!(e.key == "l1" && e.reason.contains("set l1 = lru"), "{e}");
        c.set("decoupled", "auto").unwrap();
        c.validate().unwrap();
        c.set("expander", "dac").unwrap();
        let e = c.validate().unwrap_err();
        assert!(e.key == "l1" && e.reason.contains("set l1 = lru"), "{e}");
    }
}
