//! Reset, and the spec's scenarios.

use super::bench::*;
use crate::dac::*;

// ----- reset -----

#[test]
fn a_new_model_is_in_its_reset_state() {
    let m = DacModel::new(&DacParams::default());
    assert_eq!(m.outputs(), reset_outputs());
    assert!(m.idle() && m.queues_empty() && !m.busy());
    assert_eq!(m.atq_len(), 0);
    assert_eq!((0..8).filter_map(|c| m.slot(c)).count(), 0);
}

#[test]
#[should_panic(expected = "invalid dac_expander configuration")]
fn an_impossible_configuration_is_refused() {
    let _ = DacModel::with_params(&DacParams {
        PWAQ_DEPTH: 3,
        ..DacParams::default()
    });
}

#[test]
fn reset_clears_every_slot_queue_counter_and_the_atq() {
    let p = DacParams::default();
    let mut tb = Tb::one_d(64);
    tb.launch(0, 1, 2);
    tb.launch(1, 3, 4);
    // Predicates (fast and slow), DATA with mem never ready, a queue left
    // full, a pending response.
    tb.mem_ready = false;
    tb.enq(&pred_tuple(0, 0, cmp::EQ, 0));
    tb.enq(&pred_tuple(0, 1, cmp::LT, 5));
    tb.enq(&addr_tuple(kind::DATA, 0, 128, gran::WORD));
    tb.enq(&word_tuple(0, 4));
    tb.idle(30);
    tb.deq(0, DEQ_PRED);
    let out = tb.out();
    assert!(out.mem_valid && out.rsp_hit);
    assert!(out.stat_pred_fast > 0 && out.stat_pred_slow > 0);
    assert!(tb.m.busy() && !tb.m.queues_empty() && tb.m.atq_len() > 0);

    // A reset edge with every other input active: nothing else happens.
    let e = DacIn {
        reset: true,
        ..with(
            with(launch(2, 5, 5), enq(&word_tuple(0, 4))),
            deq(1, DEQ_ADDR),
        )
    };
    tb.edge(e);
    assert_eq!(tb.out(), reset_outputs());
    assert!(tb.m.idle() && tb.m.queues_empty());
    assert_eq!((0..p.N_CTA).filter_map(|c| tb.m.slot(c)).count(), 0);
    assert_eq!(tb.m.response(), Response::default());

    // After reset: a tuple with no active slot produces nothing.
    tb.mem_ready = true;
    tb.enq(&word_tuple(0, 4));
    tb.idle(5);
    assert!(tb.m.idle() && tb.m.queues_empty());
    assert_eq!(tb.out(), reset_outputs());
}

#[test]
fn reset_held_for_several_edges_keeps_the_reset_state() {
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&word_tuple(0x100, 4));
    for _ in 0..3 {
        tb.edge(DacIn {
            reset: true,
            ..enq(&word_tuple(0x100, 4))
        });
        assert_eq!(tb.out(), reset_outputs());
    }
}

// ----- the spec's scenarios -----

#[test]
fn scenario_figure_1_one_word_record() {
    let tb = expand_1d(&word_tuple(0x100, 4), 32);
    assert_eq!(
        tb.got_addr[0],
        vec![rec(0x100, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert!(tb.got_addr[1..].iter().all(Vec::is_empty));
}

#[test]
fn scenario_figure_5_two_warps() {
    let expect = |tb: &Tb| {
        assert_eq!(
            tb.got_addr[0],
            vec![rec(0x81000, 0xFFFF_FFFF, gran::WORD, true)]
        );
        assert_eq!(
            tb.got_addr[1],
            vec![rec(0x81080, 0xFFFF_FFFF, gran::WORD, true)]
        );
    };
    // The summed tuple (0x81000, 4).
    expect(&expand_1d(&word_tuple(0x81000, 4), 64));
    // The same, as (0x80000, off_tx = 4) with off_cx = 0x1000, CTA x = 1.
    let mut tb = Tb::one_d(64);
    tb.launch(0, 1, 0);
    tb.enq(&Tuple {
        off_cx: 0x1000,
        ..word_tuple(0x80000, 4)
    });
    tb.drain();
    expect(&tb);
}

#[test]
fn scenario_offset_8_two_half_masks() {
    let tb = expand_1d(&word_tuple(0x2000, 8), 32);
    assert_eq!(
        tb.got_addr[0],
        vec![
            rec(0x2000, 0x5555_5555, gran::WORD, false),
            rec(0x2080, 0x5555_5555, gran::WORD, true),
        ]
    );
}
