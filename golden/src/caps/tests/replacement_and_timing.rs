//! Replacement in the PerCTA and DIST tables, and the generator's timing.

use super::bench::*;
use crate::caps::*;

// ----- replacement -----

#[test]
fn percta_least_recently_updated() {
    let params = CapsParams {
        PERCTA_ENTRIES: 2,
        ..defaults()
    };
    let (x, y, z, w) = (0x10, 0x20, 0x30, 0x40);
    let mut tb = Tb::new(&params, 8);
    tb.ld(x, 0, 0, &[BASE_A]);
    tb.ld(y, 0, 0, &[BASE_B]);
    assert_eq!(tb.applied().percta_entry(0, 0).unwrap().rank, 1);
    // Rule 2 rewrite of x counts as an update: y is now the oldest.
    tb.ld(x, 0, 0, &[BASE_A + 8]);
    assert_eq!(tb.applied().percta_entry(0, 0).unwrap().rank, 0);
    tb.ld(z, 0, 1, &[BASE_C]);
    let pcs = |tb: &Tb| {
        (0..2)
            .map(|e| tb.applied().percta_entry(0, e).map(|v| v.pc))
            .collect::<Vec<_>>()
    };
    assert_eq!(pcs(&tb), vec![Some(x), Some(z)]);
    // Look-ups by trailing warps (rule 4 waiting, rule 3 verifying) do
    // not count: x stays the oldest.
    tb.ld(x, 0, 3, &[BASE_A + 8 + 0x300]);
    assert_eq!(tb.applied().percta_entry(0, 0).unwrap().rank, 1);
    tb.ld(w, 0, 0, &[0x100]);
    assert_eq!(pcs(&tb), vec![Some(w), Some(z)]);
    // z (lead 1) trains; verifying z does not update it: z is replaced.
    tb.ld(z, 0, 2, &[BASE_C + 0x80]);
    tb.ld(z, 0, 3, &[BASE_C + 0x100]);
    tb.ld(x, 0, 5, &[BASE_A]);
    assert_eq!(pcs(&tb), vec![Some(w), Some(x)]);
    // Other slots have their own order.
    assert!(tb.applied().percta_entries(1).is_empty());
}

#[test]
fn percta_invalidation_keeps_order_of_others() {
    let params = CapsParams {
        PERCTA_ENTRIES: 3,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    for pc in [0x10, 0x20, 0x30] {
        tb.ld(pc, 0, 0, &[BASE_A + pc]);
    }
    // 0x20 is not a striding load: invalidated.
    tb.ld(0x20, 0, 2, &[BASE_A + 0x21]);
    assert_eq!(tb.applied().percta_entry(0, 1), None);
    assert_eq!(tb.applied().percta_entry(0, 0).unwrap().rank, 1);
    assert_eq!(tb.applied().percta_entry(0, 2).unwrap().rank, 0);
    // The free entry is taken first, then the oldest (0x10).
    tb.ld(0x40, 0, 0, &[BASE_A]);
    tb.ld(0x50, 0, 0, &[BASE_A]);
    let pcs: Vec<u64> = tb
        .applied()
        .percta_entries(0)
        .iter()
        .map(|v| v.pc)
        .collect();
    assert_eq!(pcs, vec![0x50, 0x40, 0x30]);
    let ranks: Vec<usize> = tb
        .applied()
        .percta_entries(0)
        .iter()
        .map(|v| v.rank)
        .collect();
    assert_eq!(ranks, vec![0, 1, 2]);
}

#[test]
fn dist_lru_on_allocation() {
    let params = CapsParams {
        DIST_ENTRIES: 2,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 8);
    let train = |tb: &mut Tb, pc: u64| {
        tb.ld(pc, 0, 0, &[BASE_A + pc]);
        tb.ld(pc, 0, 1, &[BASE_A + pc + 0x80]);
    };
    train(&mut tb, 0x10);
    train(&mut tb, 0x20);
    // Verifications and counter increments do not count as updates.
    tb.ld(0x10, 0, 2, &[BASE_A + 0x10 + 0x100]);
    tb.ld(0x10, 0, 3, &[0]);
    assert_eq!(tb.applied().dist_lookup(0x10).unwrap().cnt, 1);
    train(&mut tb, 0x30);
    let pcs: Vec<(usize, u64)> = tb
        .applied()
        .dist_entries()
        .iter()
        .map(|d| (d.index, d.pc))
        .collect();
    assert_eq!(pcs, vec![(0, 0x30), (1, 0x20)]);
    train(&mut tb, 0x40);
    let pcs: Vec<(usize, u64, usize)> = tb
        .applied()
        .dist_entries()
        .iter()
        .map(|d| (d.index, d.pc, d.rank))
        .collect();
    assert_eq!(pcs, vec![(0, 0x30, 1), (1, 0x40, 0)]);
    assert_eq!(tb.applied().stats().trainings, 4);
}

// ----- generator timing -----

#[test]
fn job_a_skips_scattered_slots_without_gaps() {
    let mut tb = Tb::new(&defaults(), 8);
    let base = |c: u64| 0x1000_0000 * (c + 1);
    for c in [1, 5, 7] {
        tb.ld(PC, c, 0, &[base(c)]);
    }
    tb.ld(PC, 3, 1, &[base(3)]); // lead 1: skipped for warp 1
    tb.ld(PC, 0, 0, &[base(0)]);
    let t = tb.ld(PC, 0, 1, &[base(0) + 0x80]);
    assert_eq!(tb.m.generator(), None);
    tb.ld(PC, 0, 2, &[base(0) + 0x100]);
    tb.idle(3); // edges t+2 .. t+4: the job is taken at t+4
    let g = tb.m.generator().unwrap();
    assert_eq!((g.pos, g.k), (0, 0));
    tb.idle(1); // edge t+5: first prefetch selected
    assert_eq!(tb.m.generator().unwrap().pos, 2);
    tb.idle(2); // edges t+6, t+7
    assert_eq!(tb.m.generator().unwrap().pos, 8);
    tb.idle(1); // edge t+8: job ends
    assert_eq!(tb.m.generator(), None);
    assert_eq!(tb.m.jobs_pending(), 1);
    tb.idle(1); // edge t+9: next job taken
    assert!(tb.m.generator().is_some());
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (base(1) + 0x80, 1, 1),
            (base(5) + 0x80, 5, 1),
            (base(7) + 0x80, 7, 1),
            (base(1) + 0x100, 1, 2),
            (base(3) + 0x80, 3, 2),
            (base(5) + 0x100, 5, 2),
            (base(7) + 0x100, 7, 2),
        ]
    );
    assert_eq!(
        tb.cycles(),
        vec![t + 9, t + 10, t + 11, t + 14, t + 15, t + 16, t + 17]
    );
}

#[test]
fn job_b_skips_leading_warp_without_gap() {
    for lead in 0..4u64 {
        let mut tb = Tb::new(&defaults(), 4);
        tb.ld(PC, 0, 0, &[BASE_A]);
        tb.ld(PC, 0, 1, &[BASE_A + STRIDE]);
        tb.drain();
        let t = tb.ld(PC, 1, lead, &[BASE_B]);
        tb.drain();
        let expected: Vec<Pf> = (0..4)
            .filter(|&w| w != lead)
            .map(|w| ((BASE_B + w * STRIDE).wrapping_sub(lead * STRIDE), 1, w))
            .collect();
        assert_eq!(tb.seq(), expected, "lead {lead}");
        assert_eq!(tb.cycles(), vec![t + 9, t + 10, t + 11], "lead {lead}");
        // The job (taken at edge t + 4) ended at edge t + 8 at the latest,
        // its last prefetch was transferred at edge t + 11.
        assert_eq!(tb.cycle, t + 12);
    }
}

#[test]
fn job_b_reads_current_tables() {
    // The first spec's rule 2 (no job B when the leading warp rewrites):
    // the running job B reads the rewritten bases.
    let params = CapsParams {
        LOOP_JOBS: 0,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 4);
    let two = |base: u64, w: u64| [base + w * 0x80, base + 0x1000 + w * 0x80];
    tb.ld(PC, 0, 0, &two(BASE_A, 0));
    tb.ld(PC, 0, 1, &two(BASE_A, 1));
    tb.drain();
    let t = tb.ld(PC, 1, 0, &two(BASE_B, 0));
    tb.idle(3); // t+1 .. t+3: the load applied, its job in the FIFO
                // t+4: job B taken; the leading warp rewrites with one address,
                // applied at t+5, where (w1, k0) is selected from n = 2.
    let moved = BASE_B + 0x10;
    tb.ld(PC, 1, 0, &[moved]);
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((0, 0)));
    tb.idle(1);
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((1, 1)));
    // t+6: k = 1 >= n = 1: no prefetch, the cursor moves on.
    tb.idle(1);
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    tb.drain();
    assert_eq!(
        tb.seq(),
        vec![
            (BASE_B + 0x80, 1, 1),
            (moved + 2 * 0x80, 1, 2),
            (moved + 3 * 0x80, 1, 3)
        ]
    );
    assert_eq!(tb.cycles(), vec![t + 9, t + 11, t + 12]);
}

#[test]
fn job_b_skip_and_end_do_not_wait_for_the_queue() {
    let params = CapsParams {
        PFQ_DEPTH: 1,
        ..defaults()
    };
    let mut tb = Tb::new(&params, 3);
    let two = |base: u64, w: u64| [base + w * 0x80, base + 0x1000 + w * 0x80];
    tb.ld(PC, 0, 0, &two(BASE_A, 0));
    tb.ld(PC, 0, 1, &two(BASE_A, 1));
    tb.drain();
    tb.pf_ready = false;
    tb.ld(PC, 1, 0, &two(BASE_B, 0));
    tb.idle(3); // the load applied, its job in the FIFO
    tb.ld(PC, 1, 0, &[BASE_B]); // job taken; rewrite n = 1, applied next
    tb.idle(1); // first prefetch selected; the rewrite applied
    assert!(tb.m.prefetch_in_flight().is_some());
    assert_eq!(tb.m.pfq_len(), 0);
    tb.idle(1); // skip with a full queue (the stages' prefetch)
    assert_eq!((tb.m.pfq_len(), tb.m.prefetches_in_flight()), (0, 1));
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    tb.idle(3); // stall on (w2, k0)
    assert_eq!(tb.m.pfq_len(), 1);
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    // The CTA is relaunched: the job ends although the queue is full.
    tb.edge(launch(1));
    assert_eq!(tb.m.generator().map(|g| (g.pos, g.k)), Some((2, 0)));
    tb.idle(1);
    assert_eq!(tb.m.generator(), None);
    assert_eq!(tb.m.pfq_len(), 1);
    tb.pf_ready = true;
    tb.drain();
    assert_eq!(tb.seq(), vec![(BASE_B + 0x80, 1, 1)]);
}
