//! Reset, address and PC widths, and parameter checks.

use super::bench::*;
use crate::caps::*;

// ----- reset and widths -----

#[test]
fn reset_clears_everything() {
    let mut tb = Tb::new(&defaults(), 3);
    tb.pf_ready = false;
    tb.ld(PC, 0, 0, &[BASE_A]);
    tb.ld(PC, 1, 0, &[BASE_B]);
    tb.ld(PC, 2, 0, &[BASE_C]);
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    tb.ld(PC, 0, 2, &[BASE_A + 2 * STRIDE]);
    tb.ld(PC, 1, 1, &[BASE_B + STRIDE]);
    tb.idle(6);
    assert!(tb.m.outputs().pf_valid);
    // Every load is applied and its job pushed by now.
    assert!(!tb.m.load_in_flight());
    let stats = tb.m.stats();
    // A reset with a launch and a load: both ignored.
    tb.edge(CapsIn {
        reset: true,
        cta_launch_valid: true,
        cta_launch_slot: 2,
        ..load(PC, 2, 1, &[BASE_C + STRIDE])
    });
    assert_eq!(tb.m.outputs(), CapsOut::default());
    assert_eq!(tb.m.pfq_len(), 0);
    assert_eq!(tb.m.jobs_pending(), 0);
    assert_eq!(tb.m.generator(), None);
    assert!(tb.applied().dist_entries().is_empty());
    for c in 0..8 {
        assert!(tb.applied().percta_entries(c).is_empty());
    }
    assert_eq!(tb.applied().stats(), stats, "statistics survive reset");
    // Everything starts again from empty.
    tb.pf_ready = true;
    tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
    assert_eq!(tb.applied().percta_lookup(0, PC).unwrap().lead, 1);
}

#[test]
fn narrow_addresses_and_pcs_wrap() {
    let params = CapsParams {
        ADDR_W: 8,
        PC_W: 4,
        WARP_IDX_W: 3,
        N_CTA: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    // PC 0x13 and 0x3 are the same load; addresses wrap at 256.
    tb.ld(0x13, 0, 0, &[0xf0]);
    tb.ld(0x3, 0, 1, &[0x110]);
    let d = tb.applied().dist_lookup(0x3).unwrap();
    assert_eq!((d.pc, d.stride), (0x3, 0x20));
    tb.drain();
    // Slot bits above clog2(N_CTA) and warp bits above WARP_IDX_W are
    // dropped: CTA 3 is slot 1, warp 8 is warp 0.
    let t = tb.ld(0x3, 3, 8, &[0x1e0]);
    assert_eq!(tb.applied().percta_lookup(1, 3).unwrap().lead, 0);
    tb.drain();
    assert_eq!(tb.seq(), vec![(0x00, 1, 1), (0x20, 1, 2), (0x40, 1, 3)]);
    assert_eq!(tb.cycles()[0], t + 9);
    // A negative stride of 8 bits: -0x10 = 0xf0.
    tb.ld(0x5, 0, 2, &[0x08]);
    tb.ld(0x5, 0, 0, &[0x28]);
    assert_eq!(tb.applied().dist_lookup(0x5).unwrap().stride, 0xf0);
}

#[test]
fn full_width_addresses() {
    let params = CapsParams {
        ADDR_W: 64,
        PC_W: 64,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 3);
    let top = 0xffff_ffff_ffff_ff00;
    tb.ld(u64::MAX, 0, 0, &[top]);
    tb.ld(u64::MAX, 0, 2, &[top + 0x40]);
    assert_eq!(tb.applied().dist_lookup(u64::MAX).unwrap().stride, 0x20);
    tb.ld(u64::MAX, 1, 2, &[0x10]);
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (0x10u64.wrapping_sub(0x40), 1, 0),
            (0x10u64.wrapping_sub(0x20), 1, 1)
        ]
    );
}

#[test]
#[should_panic(expected = "N_CTA")]
fn rejects_invalid_params() {
    let _ = CapsModel::new(&CapsParams {
        N_CTA: 6,
        ..defaults()
    });
}
