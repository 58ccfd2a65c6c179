//! `dac_expander`'s latency table (`CosimUnit::LATENCIES`, the document's
//! "Latency" section): every row measured by a directed stimulus on the
//! golden model and on the RTL (RustHDL, and Verilator when installed).
//! A row whose cycles are wrong fails here.

mod common;
use common::verilator;

use cosim::{backend_factory, BackendKind, CosimUnit, Latency};
use golden::dac::DacModel;
use golden::GoldenModel;
use ports::dac::{kind, DacExpander, DacIn, DacOut, DacParams};
use ports::UnitSpec;

/// The latency row whose description starts with `prefix`.
fn row(prefix: &str) -> Latency {
    let rows: Vec<Latency> = <DacExpander as CosimUnit>::LATENCIES
        .iter()
        .copied()
        .filter(|r| r.what.starts_with(prefix))
        .collect();
    assert_eq!(rows.len(), 1, "one row starting with {prefix:?}");
    rows[0]
}

/// Outputs of every cycle (`outs[i]` during the cycle that ends at edge
/// `i`, whose inputs are `seq[i]`), on the model (`None`) or an RTL.
fn run(kind: Option<BackendKind>, seq: &[DacIn]) -> Vec<DacOut> {
    let p = DacParams::default();
    match kind {
        None => {
            let mut m = DacModel::new(&p);
            seq.iter()
                .map(|i| {
                    let o = m.outputs();
                    m.step(i);
                    o
                })
                .collect()
        }
        Some(k) => {
            let factory = backend_factory::<DacExpander>(k, &p, Some(1), None, false).unwrap();
            let mut rtl = factory().unwrap();
            let mut o = vec![0u64; DacExpander::outputs(&p).len()];
            seq.iter()
                .map(|i| {
                    rtl.cycle(&DacExpander::in_values(&p, i), &mut o);
                    DacExpander::out_from_values(&p, &o)
                })
                .collect()
        }
    }
}

/// One CTA of 32 threads (one warp) in slot 0, word accesses.
fn cfg() -> DacIn {
    DacIn {
        cfg_bdx_log2: 5,
        cfg_threads: 32,
        cfg_warps_per_cta: 1,
        ..Default::default()
    }
}

/// An ADDR (or DATA) tuple with `off_tx` bytes per thread from `base`.
fn tuple(k: u64, base: u64, off_tx: u64) -> DacIn {
    DacIn {
        enq_valid: true,
        enq_kind: k,
        enq_base: base,
        enq_off_tx: off_tx,
        enq_gran: 2,
        ..cfg()
    }
}

/// Reset, launch the CTA, one idle cycle: the edge of the next input is
/// `T` (the returned length).
fn prologue() -> Vec<DacIn> {
    vec![
        DacIn {
            reset: true,
            ..cfg()
        },
        DacIn {
            cta_launch_valid: true,
            ..cfg()
        },
        cfg(),
    ]
}

/// `tuples` accepted at consecutive edges from `t`, then `n` cycles that
/// dequeue warp 0's address queue at every edge; the output indices whose
/// response hit.
fn hits(kind: Option<BackendKind>, tuples: &[DacIn], n: usize) -> (usize, Vec<usize>) {
    let mut seq = prologue();
    let t = seq.len();
    seq.extend_from_slice(tuples);
    for _ in 0..n {
        seq.push(DacIn {
            deq_valid: true,
            deq_warp: 0,
            ..cfg()
        });
    }
    seq.push(cfg());
    let outs = run(kind, &seq);
    assert!(outs[t].enq_ready, "the ATQ takes the tuple at edge {t}");
    let hit: Vec<usize> = (t..outs.len()).filter(|&i| outs[i].rsp_hit).collect();
    (t, hit)
}

fn dequeue_response(kind: Option<BackendKind>) {
    let r = row("deq_valid at edge t");
    let mut seq = prologue();
    let d = seq.len();
    seq.push(DacIn {
        deq_valid: true,
        ..cfg()
    });
    seq.extend([cfg(), cfg()]);
    let outs = run(kind, &seq);
    let first = (d..outs.len()).find(|&i| outs[i].rsp_valid).unwrap();
    assert_eq!(first - d, r.cycles as usize, "{kind:?}");
    assert!(
        !outs[first].rsp_hit,
        "{kind:?}: an empty queue answers a miss"
    );
}

fn first_record(kind: Option<BackendKind>) {
    let r = row("tuple accepted at edge t");
    // (0x100, 4): the spec's figure 1, one record.
    let (t, hit) = hits(kind, &[tuple(kind::ADDR, 0x100, 4)], 10);
    assert_eq!(hit.len(), 1, "{kind:?}");
    assert_eq!(hit[0] - t, r.cycles as usize, "{kind:?}");
}

fn first_memory_request(kind: Option<BackendKind>) {
    let r = row("DATA tuple accepted at edge t");
    let mut seq = prologue();
    let t = seq.len();
    seq.push(tuple(kind::DATA, 0x4000, 4));
    seq.extend((0..8).map(|_| cfg()));
    let outs = run(kind, &seq);
    let first = (t..outs.len()).find(|&i| outs[i].mem_valid).unwrap();
    assert_eq!(first - t, r.cycles as usize, "{kind:?}");
    assert_eq!(outs[first].mem_addr, 0x4000, "{kind:?}");
}

fn records_back_to_back(kind: Option<BackendKind>) {
    let r = row("records of one warp back to back");
    // Offset 8, word accesses: two records (the spec's third scenario).
    let (_, hit) = hits(kind, &[tuple(kind::ADDR, 0x2000, 8)], 10);
    assert_eq!(hit.len(), 2, "{kind:?}");
    assert_eq!(hit[1] - hit[0], r.cycles as usize, "{kind:?}");
}

fn next_tuple(kind: Option<BackendKind>) {
    let r = row("a tuple's last record pushed at edge t");
    let (_, hit) = hits(
        kind,
        &[tuple(kind::ADDR, 0x100, 4), tuple(kind::ADDR, 0x900, 4)],
        12,
    );
    assert_eq!(hit.len(), 2, "{kind:?}");
    assert_eq!(hit[1] - hit[0], r.cycles as usize, "{kind:?}");
}

fn every_row(kind: Option<BackendKind>) {
    assert_eq!(<DacExpander as CosimUnit>::LATENCIES.len(), 5);
    dequeue_response(kind);
    first_record(kind);
    first_memory_request(kind);
    records_back_to_back(kind);
    next_tuple(kind);
}

#[test]
fn latencies_on_the_golden_model() {
    every_row(None);
}

#[test]
fn latencies_on_rusthdl() {
    every_row(Some(BackendKind::RustHdl));
}

#[test]
fn latencies_on_verilator() {
    if verilator() {
        every_row(Some(BackendKind::Verilator));
    }
}
