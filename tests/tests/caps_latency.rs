//! `caps_prefetcher`'s latency table (`cosim::CosimUnit::LATENCIES`, the
//! document's "Latency" section) checked row by row on the golden model and
//! on the RTL (RustHDL back-end) with a directed stimulus: a stride trained
//! by CTA 0, a leading warp of CTA 1 whose job B prefetches warps 1 and 2,
//! and two back-to-back loads of CTA 2. The expected cycles are read from
//! the table, so a wrong row fails.

use cosim::{backend_factory, BackendKind, CosimUnit, Latency};
use golden::caps::CapsModel;
use golden::GoldenModel;
use ports::caps::{CapsIn, CapsOut, CapsParams, CapsPrefetcher};
use ports::UnitSpec;

const PC: u64 = 0x40;
const BASES: [u64; 3] = [0x1000_0000, 0x2000_0000, 0x3000_0000];
/// The edge that accepts CTA 1's leading warp (job B).
const T_LEAD: usize = 20;
/// The edge that accepts CTA 2's leading warp; its warp 1 follows after
/// the back-to-back row's cycles.
const T_B2B: usize = 40;

fn row(i: usize) -> Latency {
    <CapsPrefetcher as CosimUnit>::LATENCIES[i]
}

fn idle() -> CapsIn {
    CapsIn {
        cfg_warps_per_cta: 3,
        pf_ready: true,
        ..Default::default()
    }
}

fn load(c: u64, w: u64) -> CapsIn {
    let mut i = CapsIn {
        ld_valid: true,
        ld_pc: PC,
        ld_cta: c,
        ld_warp: w,
        ld_count: 1,
        ..idle()
    };
    i.ld_addr[0] = BASES[c as usize] + 0x100 * w;
    i
}

/// Reset, launch slots 0..2, train the stride (CTA 0 warps 0 and 1), CTA
/// 1's leading warp at `T_LEAD`, CTA 2's warps 0 and 1 at `T_B2B` and
/// `T_B2B + b2b`.
fn stimulus(b2b: usize) -> Vec<CapsIn> {
    let mut seq = vec![idle(); 70];
    seq[0].reset = true;
    seq[1].reset = true;
    for c in 0..3 {
        seq[2 + c].cta_launch_valid = true;
        seq[2 + c].cta_launch_slot = c as u64;
    }
    seq[6] = load(0, 0);
    seq[10] = load(0, 1);
    seq[T_LEAD] = load(1, 0);
    seq[T_B2B] = load(2, 0);
    seq[T_B2B + b2b] = load(2, 1);
    seq
}

/// Every valid prefetch as (cycle, addr, cta, warp).
fn prefetches(mut cycle: impl FnMut(&CapsIn) -> CapsOut, seq: &[CapsIn]) -> Vec<[u64; 4]> {
    let mut got = Vec::new();
    for (t, i) in seq.iter().enumerate() {
        let o = cycle(i);
        if !i.reset && o.pf_valid {
            got.push([t as u64, o.pf_addr, o.pf_cta, o.pf_warp]);
        }
    }
    got
}

fn on_golden(seq: &[CapsIn]) -> Vec<[u64; 4]> {
    let mut m = CapsModel::new(&CapsParams::default());
    prefetches(
        |i| {
            let o = m.outputs();
            m.step(i);
            o
        },
        seq,
    )
}

fn on_rtl(seq: &[CapsIn]) -> Vec<[u64; 4]> {
    let p = CapsParams::default();
    let factory =
        backend_factory::<CapsPrefetcher>(BackendKind::RustHdl, &p, Some(1), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut o = vec![0u64; 4];
    prefetches(
        |i| {
            rtl.cycle(&CapsPrefetcher::in_values(&p, i), &mut o);
            CapsPrefetcher::out_from_values(&p, &o)
        },
        seq,
    )
}

/// The rows, checked on one back-end's prefetch trace.
fn check(name: &str, run: fn(&[CapsIn]) -> Vec<[u64; 4]>) {
    let (first, next, b2b) = (row(0), row(1), row(2));
    assert!(first.claimed && !next.claimed && !b2b.claimed);
    let got = run(&stimulus(b2b.cycles as usize));
    let pf = |w: u64, c: u64| (BASES[c as usize] + 0x100 * w, c, w);
    let lead: Vec<_> = got.iter().filter(|p| p[2] == 1).collect();
    let b2b_pf: Vec<_> = got.iter().filter(|p| p[2] == 2).collect();
    // Nothing else: the training's job A finds no other CTA.
    assert_eq!(got.len(), lead.len() + b2b_pf.len(), "{name}: {got:x?}");
    // Row 0: job B's first prefetch, first valid in the cycle after edge
    // T_LEAD + cycles - 1.
    assert_eq!(lead.len(), 2, "{name}: {got:x?}");
    assert_eq!(
        (lead[0][1], lead[0][2], lead[0][3]),
        pf(1, 1),
        "{name}: {got:x?}"
    );
    assert_eq!(
        lead[0][0],
        (T_LEAD + first.cycles as usize) as u64,
        "{name}: row '{}'",
        first.what
    );
    // Row 1: the job's next prefetch.
    assert_eq!(
        (lead[1][1], lead[1][2], lead[1][3]),
        pf(2, 1),
        "{name}: {got:x?}"
    );
    assert_eq!(
        lead[1][0] - lead[0][0],
        next.cycles as u64,
        "{name}: row '{}'",
        next.what
    );
    // Row 2: warp 1 of CTA 2, `cycles` after its leading warp, sees the
    // leading warp's entry (rule 3, no job); a stale table would make it a
    // second leading warp (rule 1) whose job B adds prefetches.
    let want: Vec<_> = [pf(1, 2), pf(2, 2)].into_iter().collect();
    let have: Vec<_> = b2b_pf.iter().map(|p| (p[1], p[2], p[3])).collect();
    assert_eq!(have, want, "{name}: row '{}'", b2b.what);
    assert_eq!(
        b2b_pf[0][0],
        (T_B2B + first.cycles as usize) as u64,
        "{name}: {got:x?}"
    );
}

#[test]
fn latency_table_holds_on_the_golden_model() {
    check("golden", on_golden);
}

#[test]
fn latency_table_holds_on_the_rtl() {
    check("rtl (RustHDL)", on_rtl);
}

#[test]
fn golden_and_rtl_agree_on_the_latency_stimulus() {
    for gap in 1..4 {
        let seq = stimulus(gap);
        assert_eq!(on_golden(&seq), on_rtl(&seq), "gap {gap}");
    }
}
