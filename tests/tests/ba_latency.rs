//! `ba_tag_array`'s latency table (`CosimUnit::LATENCIES`, the unit
//! document's "Latency"): every row measured by a directed stimulus on the
//! golden model and on the RTL (RustHDL simulator, and Verilator when it is
//! installed). The test fails if a row of the table is wrong.

mod common;
use common::verilator;

use cosim::ba::load;
use cosim::{backend_factory, BackendKind, CosimUnit};
use golden::ba::BaModel;
use golden::GoldenModel;
use ports::ba::{outcome, BaIn, BaOut, BaParams, BaTagArray};
use ports::UnitSpec;

/// Where the outputs of a sequence come from.
#[derive(Clone, Copy, Debug)]
enum On {
    Model,
    Rtl(BackendKind),
}

/// The outputs during each cycle of `seq` (before its edge).
fn run(on: On, p: &BaParams, seq: &[BaIn]) -> Vec<BaOut> {
    match on {
        On::Model => {
            let mut m = BaModel::new(p);
            seq.iter()
                .map(|i| {
                    let o = m.outputs();
                    m.step(i);
                    o
                })
                .collect()
        }
        On::Rtl(kind) => {
            let factory = backend_factory::<BaTagArray>(kind, p, Some(7), None, false).unwrap();
            let mut rtl = factory().unwrap();
            let mut o = vec![0u64; 5];
            seq.iter()
                .map(|i| {
                    rtl.cycle(&BaTagArray::in_values(p, i), &mut o);
                    BaTagArray::out_from_values(p, &o)
                })
                .collect()
        }
    }
}

fn reset() -> BaIn {
    BaIn {
        reset: true,
        ..Default::default()
    }
}

fn idle() -> BaIn {
    BaIn::default()
}

/// Two reset cycles, then `body`, then idle cycles.
fn framed(body: Vec<BaIn>) -> Vec<BaIn> {
    let mut v = vec![reset(), reset()];
    v.extend(body);
    v.extend(std::iter::repeat_n(idle(), 6));
    v
}

fn row(prefix: &str) -> u32 {
    BaTagArray::LATENCIES
        .iter()
        .find(|l| l.what.starts_with(prefix))
        .unwrap_or_else(|| panic!("no latency row {prefix:?}"))
        .cycles
}

const A: u64 = 0x1000;

/// Cycles from the request's edge to the first cycle its response is on
/// the outputs ("the cycle after edge t" is 1).
fn response_latency(on: On, p: &BaParams) -> u32 {
    let outs = run(on, p, &framed(vec![load(A)]));
    // The request is in cycle 2, accepted at that cycle's edge.
    let first = (3..outs.len())
        .find(|&c| outs[c].rsp_valid)
        .expect("a response");
    assert_eq!(outs[first].rsp_outcome, outcome::MISS);
    assert!(
        outs[first + 1..].iter().all(|o| !o.rsp_valid),
        "one response"
    );
    (first - 2) as u32
}

/// The smallest distance in edges from a load of A to a second load of A
/// that hits (sees the first one's fill).
fn update_seen_after(on: On, p: &BaParams, lat: usize) -> u32 {
    (1..4)
        .find(|&k| {
            let mut body = vec![load(A)];
            body.extend(std::iter::repeat_n(idle(), k - 1));
            body.push(load(A));
            let outs = run(on, p, &framed(body));
            outs[2 + k + lat].rsp_outcome == outcome::HIT && outs[2 + k + lat].rsp_valid
        })
        .expect("the second load hits") as u32
}

/// The smallest distance in edges from a flush to a load of a line filled
/// before the flush that misses (sees the array empty).
fn flush_seen_after(on: On, p: &BaParams, lat: usize) -> u32 {
    (0..3)
        .find(|&k| {
            let mut body = vec![load(A), idle()];
            body.push(BaIn {
                flush: true,
                ..Default::default()
            });
            body.extend(std::iter::repeat_n(idle(), k));
            // A flush and a request in one cycle (k = 0): one input.
            if k == 0 {
                body.pop();
                body.push(BaIn {
                    flush: true,
                    ..load(A)
                });
            } else {
                body.pop();
                body.push(load(A));
            }
            let outs = run(on, p, &framed(body));
            let at = 2 + 2 + k;
            outs[at + lat].rsp_valid && outs[at + lat].rsp_outcome == outcome::MISS
        })
        .expect("a load after the flush misses") as u32
}

fn check(on: On) {
    for (sets, ways) in [(16, 8), (1, 2)] {
        let p = BaParams {
            SETS: sets,
            WAYS: ways,
            ..Default::default()
        };
        let ctx = format!("{on:?}, {sets} x {ways}");
        let lat = response_latency(on, &p);
        assert_eq!(
            lat,
            row("request accepted at edge t -> its response"),
            "{ctx}"
        );
        let seen = update_seen_after(on, &p, lat as usize);
        assert_eq!(
            seen,
            row("request accepted at edge t -> a request at edge t + 1"),
            "{ctx}"
        );
        let flush = flush_seen_after(on, &p, lat as usize);
        assert_eq!(flush, row("flush at edge t"), "{ctx}");
    }
}

#[test]
fn latency_table_has_the_rows_checked_here() {
    assert_eq!(BaTagArray::LATENCIES.len(), 3);
}

#[test]
fn latency_table_holds_on_the_golden_model() {
    check(On::Model);
}

#[test]
fn latency_table_holds_on_rusthdl() {
    check(On::Rtl(BackendKind::RustHdl));
}

#[test]
fn latency_table_holds_on_verilator() {
    if verilator() {
        check(On::Rtl(BackendKind::Verilator));
    }
}
