//! Allocate-on-miss reservation and the bypass path (`sm_harness.md`,
//! revision 3, items 1 and 2): a set whose ways are all in flight refuses
//! a miss (a reservation fail, counted and retried) and a prefetch (dropped
//! and counted); a bypassed load takes no MSHR and merges with nothing, so
//! bypass-all beats LRU where warps thrash one set.
//! The unit tests of each tag array (`harness/src/l1.rs`,
//! `harness/src/decoupled.rs`) check that a reserved line is never a
//! victim.

mod common;
use common::{kernel, same_work};

use harness::{Harness, Kernel, MachineConfig, Metrics};

/// bicg2 at 256 x 64: each warp's 32 lines of A fall in one set of the
/// thesis machine's 16 KB 8-way L1.
fn bicg2() -> Kernel {
    kernel("bicg2.toml", &[("NX", 256), ("NY", 64)])
}

fn run_on(preset: &str, k: &Kernel, sets: &[(&str, &str)]) -> Metrics {
    let mut c = MachineConfig::preset(preset).unwrap();
    for (key, v) in sets {
        c.set(key, v).unwrap();
    }
    Harness::new(k, &c)
        .run()
        .unwrap_or_else(|e| panic!("{}: {e}", k.name))
}

#[test]
fn a_set_of_lines_in_flight_is_a_reservation_fail_counted_and_retried() {
    let k = bicg2();
    let lru = run_on("ba-thesis", &k, &[("l1", "lru")]);
    assert!(lru.l1.reservation_fails > 0, "{:?}", lru.l1);
    // Retried, not lost: every load line was served once, each miss sent
    // to memory once.
    let ba = run_on("ba-thesis", &k, &[("l1", "ba-lru")]);
    same_work(&lru, &ba, "lru and ba-lru");
    assert_eq!(lru.memory.reads, lru.l1.misses);
    // A set never fails where the ways outnumber the MSHRs.
    let wide = run_on("ba-thesis", &k, &[("l1", "lru"), ("mshr_entries", "4")]);
    assert_eq!(wide.l1.reservation_fails, 0, "{:?}", wide.l1);
    assert!(wide.l1.mshr_stalls > 0 && wide.l1.mshr_peak == 4);
}

#[test]
fn bypass_all_beats_lru_where_warps_thrash_one_set() {
    let k = bicg2();
    let lru = run_on("ba-thesis", &k, &[("l1", "lru")]);
    let byp = run_on("ba-thesis", &k, &[("l1", "bypass")]);
    same_work(&lru, &byp, "lru and bypass");
    assert!(
        byp.cycles * 2 < lru.cycles,
        "bypass {} cycles, lru {}",
        byp.cycles,
        lru.cycles
    );
}

#[test]
fn a_bypass_takes_no_mshr_and_merges_with_nothing() {
    let k = bicg2();
    let byp = run_on("ba-thesis", &k, &[("l1", "bypass")]);
    assert_eq!((byp.l1.mshr_peak, byp.l1.mshr_mean), (0, 0.0));
    assert_eq!(byp.l1.pending_hits, 0);
    assert_eq!(byp.l1.reservation_fails, 0);
    // Every load line is its own read.
    assert_eq!(byp.memory.reads, byp.l1.accesses);
    assert_eq!(byp.l1.bypasses, byp.l1.accesses);
    let lru = run_on("ba-thesis", &k, &[("l1", "lru")]);
    assert!(lru.l1.mshr_peak > 0 && lru.l1.mshr_mean > 0.0);
}

#[test]
fn a_prefetch_into_a_fully_reserved_set_is_dropped_and_counted() {
    let k = kernel("conv_cols.toml", &[]);
    let m = run_on(
        "caps-gtx480",
        &k,
        &[("prefetcher", "caps"), ("sched", "pas")],
    );
    let p = m.prefetch.as_ref().unwrap();
    assert!(p.dropped_reserved > 0, "{p:?}");
    assert!(m.l1.reservation_fails > 0);
    // Dropped requests were taken by the L1 but not sent.
    assert_eq!(m.memory.prefetch_reads, p.issued);
    assert!(p.offered >= p.issued + p.dropped_reserved);
}
