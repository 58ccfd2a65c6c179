//! Multi-address and ineligible loads, and CTA launch.

use super::bench::*;
use crate::caps::*;

// ----- multi-address and ineligible loads -----

#[test]
fn multi_address_job_a() {
    for n in 2..=4u64 {
        let mut tb = Tb::new(&defaults(), 4);
        let addrs = |base: u64, w: u64| -> Vec<u64> {
            (0..n).map(|k| base + k * 0x1000 + w * 0x80).collect()
        };
        tb.ld(PC, 1, 0, &addrs(BASE_B, 0));
        tb.ld(PC, 2, 1, &addrs(BASE_C, 1));
        tb.ld(PC, 0, 0, &addrs(BASE_A, 0));
        let t = tb.ld(PC, 0, 2, &addrs(BASE_A, 2));
        tb.drain();
        let mut expected = addrs(BASE_B, 2)
            .into_iter()
            .map(|a| (a, 1, 2))
            .collect::<Vec<_>>();
        expected.extend(addrs(BASE_C, 2).into_iter().map(|a| (a, 2, 2)));
        assert_eq!(tb.seq(), expected, "n = {n}");
        let cycles: Vec<u64> = (t + 9..t + 9 + 2 * n).collect();
        assert_eq!(tb.cycles(), cycles, "n = {n}");
    }
}

#[test]
fn multi_address_job_b() {
    let mut tb = Tb::new(&defaults(), 3);
    let addrs =
        |base: u64, w: u64| -> Vec<u64> { (0..3).map(|k| base + k * 0x1000 + w * 0x80).collect() };
    tb.ld(PC, 0, 0, &addrs(BASE_A, 0));
    tb.ld(PC, 0, 1, &addrs(BASE_A, 1));
    tb.drain();
    let t = tb.ld(PC, 1, 1, &addrs(BASE_B, 1));
    tb.drain();
    let mut expected = Vec::new();
    for w in [0, 2] {
        expected.extend(addrs(BASE_B, w).into_iter().map(|a| (a, 1, w)));
    }
    assert_eq!(tb.seq(), expected);
    let cycles: Vec<u64> = (t + 9..t + 15).collect();
    assert_eq!(tb.cycles(), cycles);
}

#[test]
fn ineligible_loads_change_nothing() {
    let params = CapsParams {
        MAX_ADDRS: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    // Too many requests, none, indirect: no entry is allocated.
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x80, BASE_A + 0x100]);
    tb.edge(CapsIn {
        ld_count: 0,
        ..load(PC, 0, 0, &[BASE_A])
    });
    tb.edge(CapsIn {
        ld_indirect: true,
        ..load(PC, 0, 0, &[BASE_A])
    });
    tb.edge(CapsIn {
        ld_count: 40,
        ..load(PC, 0, 0, &[BASE_A])
    });
    assert!(tb.applied().percta_entries(0).is_empty());
    // Registered, then ineligible trailing loads neither train nor
    // invalidate, and an ineligible leading load does not rewrite.
    tb.ld(PC, 0, 0, &[BASE_A, BASE_A + 0x1000]);
    let before = tb.applied().percta_entries(0);
    tb.ld(PC, 0, 1, &[BASE_A + 0x80, BASE_A + 0x1080, BASE_A + 0x2080]);
    tb.edge(CapsIn {
        ld_indirect: true,
        ..load(PC, 0, 1, &[BASE_A + 0x80, BASE_A + 0x1080])
    });
    tb.edge(CapsIn {
        ld_indirect: true,
        ..load(PC, 0, 0, &[BASE_A + 8])
    });
    assert_eq!(tb.applied().percta_entries(0), before);
    assert!(tb.applied().dist_entries().is_empty());
    assert_eq!(tb.applied().stats(), CapsStats::default());

    // With MAX_ADDRS = 4, five requests are too many.
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 0, 0, &[BASE_A; 4]);
    tb.edge(CapsIn {
        ld_count: 5,
        ..load(PC, 0, 1, &[BASE_A + 0x80; 4])
    });
    assert!(tb.applied().dist_entries().is_empty());
    assert_eq!(tb.applied().percta_lookup(0, PC).unwrap().bases.len(), 4);
}

// ----- CTA launch -----

#[test]
fn cta_launch_clears_slot() {
    let mut tb = Tb::new(&defaults(), 4);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC + 4, 1, 2, &[BASE_B + 0x40]);
    tb.ld(PC, 0, 0, &[BASE_A]);
    assert_eq!(tb.applied().percta_entries(1).len(), 2);
    tb.edge(launch(1));
    assert!(tb.applied().percta_entries(1).is_empty());
    assert_eq!(tb.applied().percta_entries(0).len(), 1);
    // Job A no longer finds CTA 1.
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.drain();
    assert!(tb.seq().is_empty());
    assert_eq!(tb.applied().stats().trainings, 1);
}

#[test]
fn launch_and_load_same_slot_same_cycle() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC + 4, 1, 1, &[BASE_C]);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.drain();
    let already = tb.seq().len();
    // Without the launch this would be rule 3 for warp 2 of CTA 1; with
    // it, warp 2 leads the new CTA in entry 0: job B for warps 0, 1.
    let new_base = 0x5000_0000;
    let t = tb.edge(CapsIn {
        cta_launch_valid: true,
        cta_launch_slot: 1,
        ..load(PC, 1, 2, &[new_base])
    });
    let views = tb.applied().percta_entries(1);
    assert_eq!(views.len(), 1);
    assert_eq!((views[0].index, views[0].lead), (0, 2));
    tb.drain();
    assert_eq!(
        tb.seq()[already..].to_vec(),
        vec![(new_base - 2 * STRIDE, 1, 0), (new_base - STRIDE, 1, 1)]
    );
    assert_eq!(tb.cycles()[already], t + 9);
}
