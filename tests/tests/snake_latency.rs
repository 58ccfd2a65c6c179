//! `snake_prefetcher`'s latency table (`CosimUnit::LATENCIES`, the unit
//! document's "Latency" section) checked row by row, by directed stimulus,
//! on the golden model and on the RTL (RustHDL back-end, and Verilator when
//! installed). A wrong row fails here.

mod common;
use common::verilator;

use cosim::snake::figure15;
use cosim::{backend_factory, BackendKind, CosimUnit, Latency};
use golden::snake::SnakeModel;
use golden::GoldenModel;
use ports::snake::{SnakeIn, SnakeOut, SnakeParams, SnakePrefetcher};
use ports::UnitSpec;

/// The row whose description starts with `prefix`.
fn row(prefix: &str) -> Latency {
    let rows = <SnakePrefetcher as CosimUnit>::LATENCIES;
    *rows
        .iter()
        .find(|r| r.what.starts_with(prefix))
        .unwrap_or_else(|| panic!("no latency row starting {prefix:?}"))
}

/// The outputs of every cycle of `seq` on the golden model.
fn golden_outputs(p: &SnakeParams, seq: &[SnakeIn]) -> Vec<SnakeOut> {
    let mut m = SnakeModel::new(p);
    seq.iter()
        .map(|i| {
            let o = m.outputs();
            m.step(i);
            o
        })
        .collect()
}

/// The outputs of every cycle of `seq` on the RTL.
fn rtl_outputs(kind: BackendKind, p: &SnakeParams, seq: &[SnakeIn]) -> Vec<SnakeOut> {
    let factory = backend_factory::<SnakePrefetcher>(kind, p, Some(1), None, false).unwrap();
    let mut rtl = factory().unwrap();
    let mut o = vec![0u64; SnakePrefetcher::outputs(p).len()];
    seq.iter()
        .map(|i| {
            rtl.cycle(&SnakePrefetcher::in_values(p, i), &mut o);
            SnakePrefetcher::out_from_values(p, &o)
        })
        .collect()
}

/// Every back-end: the golden model, RustHDL, and Verilator if installed.
fn each_backend(p: &SnakeParams, seq: &[SnakeIn], check: impl Fn(&str, &[SnakeOut])) {
    check("golden", &golden_outputs(p, seq));
    check("rusthdl", &rtl_outputs(BackendKind::RustHdl, p, seq));
    if verilator() {
        check("verilator", &rtl_outputs(BackendKind::Verilator, p, seq));
    }
}

/// The first cycle index at or after `from` where `f` holds. (Every
/// sequence starts with two reset cycles, whose outputs are the power-up
/// state and are not checked.)
fn first(outs: &[SnakeOut], from: usize, f: impl Fn(&SnakeOut) -> bool) -> usize {
    (from..outs.len())
        .find(|&c| f(&outs[c]))
        .expect("the event happens")
}

/// The spec's scenario: W3's 0x520 (the last load, walker idle, queues
/// empty, not throttled, `pf_ready = 1`, its first hop emits) is presented
/// in cycle `t` (accepted at the edge ending it); a row of `n` cycles
/// means its first prefetch is on `pf_*` in cycle `t + n`, the next (an
/// inter-warp one, after the hop's) `n` cycles after it, and the next
/// inter-warp ones `n` cycles apart.
#[test]
fn load_to_first_prefetch_and_back_to_back() {
    let first_row = row("load accepted at edge t (walker idle");
    let first_iw_row = row("load accepted at edge t (as above, but its chain");
    let hop_iw_row = row("a hop's prefetch -> the same walk's next");
    let next_row = row("later prefetches of one walk");
    assert!(
        first_row.claimed,
        "the paper's claim is about the first prefetch"
    );
    let gap = 8;
    let (p, seq) = figure15(gap);
    let t = 2 + 6 * gap;
    each_backend(&p, &seq, |who, outs| {
        assert!(
            outs[2..=t].iter().all(|o| !o.pf_valid),
            "{who}: nothing before"
        );
        let f0 = first(outs, t, |o| o.pf_valid);
        assert_eq!(f0 - t, first_row.cycles as usize, "{who}: first prefetch");
        assert_eq!(outs[f0].pf_addr, 0x1364, "{who}");
        let f1 = first(outs, f0 + 1, |o| o.pf_valid);
        assert_eq!(outs[f1].pf_addr, 0x1400, "{who}");
        assert_eq!(f1 - f0, hop_iw_row.cycles as usize, "{who}: hop -> inter");
        let f2 = first(outs, f1 + 1, |o| o.pf_valid);
        assert_eq!(outs[f2].pf_addr, 0x1500, "{who}");
        assert_eq!(f2 - f1, next_row.cycles as usize, "{who}: next prefetch");
    });
    // Revision 1's values: PC 0x700 by warps 0..3 at `0x1000 + 0x100 w`
    // (its inter-warp stride 0x100, `iw_cnt = 2` after warp 3's), with one
    // link 0x700 -> 0x740 of warp 0 (an entry with `pc1 = 0x700`, not
    // promoted: no hop). Warp 3's load, in cycle `t`, has no hop: its first
    // prefetch is the inter-warp one for warp 4, in cycle `t + n`.
    let idle = seq[seq.len() - 1];
    let load = |w: u64, pc: u64, addr: u64| SnakeIn {
        ld_valid: true,
        ld_warp: w,
        ld_pc: pc,
        ld_addr: addr,
        ld_uniform: true,
        ..idle
    };
    let seq2 = gapped(
        &seq,
        &[
            load(0, 0x700, 0x1000),
            load(0, 0x740, 0x1040),
            load(1, 0x700, 0x1100),
            load(2, 0x700, 0x1200),
            load(3, 0x700, 0x1300),
        ],
        gap,
    );
    let t = 2 + 4 * gap;
    each_backend(&p, &seq2, |who, outs| {
        assert!(
            outs[2..=t].iter().all(|o| !o.pf_valid),
            "{who}: nothing before"
        );
        let g0 = first(outs, t, |o| o.pf_valid);
        assert_eq!((outs[g0].pf_addr, outs[g0].pf_warp), (0x1400, 4), "{who}");
        assert_eq!(g0 - t, first_iw_row.cycles as usize, "{who}: first inter");
    });
}

/// The walker reads the Tail table without the last edge's allocation
/// (issue 29 step 15). Warp 3's second load of PC 0x700 (cycle `t`, after
/// the first test's setup: an entry with `pc1 = 0x700` of warp 0, not
/// promoted, `iw_cnt = 2`) allocates the self-link `0x700 -> 0x700` of warp
/// 3 (`t1 = 0`) at edge t+1. In the job's first walker cycle (the cycle
/// after edge t+1) a row of 3 cycles means the walker does not see it yet:
/// the chain is over at once and the first inter-warp prefetch comes after
/// the row "chain finds no entry"'s cycles; a row of 2 would see it, hop
/// silently through it (its own link, with `OWN_LINKS = 1`) and come one
/// cycle later.
#[test]
fn walker_sees_an_allocation_one_edge_later() {
    let seen_row = row("load accepted at edge t that allocates a Tail entry");
    let first_iw_row = row("load accepted at edge t (as above, but its chain");
    let first_row = row("load accepted at edge t (walker idle");
    let gap = 8;
    let (_, seq) = figure15(gap);
    let p = SnakeParams::default();
    assert_eq!(p.OWN_LINKS, 1, "the paper configuration has own links");
    let idle = seq[seq.len() - 1];
    let load = |w: u64, pc: u64, addr: u64| SnakeIn {
        ld_valid: true,
        ld_warp: w,
        ld_pc: pc,
        ld_addr: addr,
        ld_uniform: true,
        ld_cta_end: p.N_WARPS,
        ..idle
    };
    let seq2 = gapped(
        &seq,
        &[
            load(0, 0x700, 0x1000),
            load(0, 0x740, 0x1040),
            load(1, 0x700, 0x1100),
            load(2, 0x700, 0x1200),
            load(3, 0x700, 0x1300),
            load(3, 0x700, 0x1340),
            load(0, 0x740, 0x1080),
        ],
        gap,
    );
    let t = 2 + 5 * gap;
    let expect = first_iw_row.cycles as usize + usize::from(seen_row.cycles <= 2);
    each_backend(&p, &seq2, |who, outs| {
        let g0 = first(outs, t, |o| o.pf_valid);
        assert_eq!((outs[g0].pf_addr, outs[g0].pf_warp), (0x1440, 4), "{who}");
        assert_eq!(g0 - t, expect, "{who}: the new self-link not seen");
    });
    // Only the allocation is hidden: warp 3's next load at 0x1380 hits the
    // self-link (stride 0x40; `t1 = 1`, usable by warp 3) at edge t+1, and
    // its walk hops through it at once, its first prefetch after the
    // first row's cycles.
    let mut seq3 = seq2[..2 + 6 * gap].to_vec();
    seq3.push(load(3, 0x700, 0x1380));
    seq3.extend(std::iter::repeat_n(idle, 12));
    let t = 2 + 6 * gap;
    each_backend(&p, &seq3, |who, outs| {
        let g0 = first(outs, t, |o| o.pf_valid);
        assert_eq!((outs[g0].pf_addr, outs[g0].pf_warp), (0x13c0, 3), "{who}");
        assert_eq!(
            g0 - t,
            first_row.cycles as usize,
            "{who}: a hit is seen at once"
        );
    });
}

/// `cache_full` in cycle `c` and `bw_util >= BW_HIGH` in cycle `c`: a row
/// of `n` cycles means `throttled` is 1 from cycle `c + n`.
#[test]
fn throttle_inputs_to_throttled() {
    let p = SnakeParams::default();
    let idle = SnakeIn {
        pf_ready: true,
        ..Default::default()
    };
    let reset = SnakeIn {
        reset: true,
        ..idle
    };
    let c = 5;
    for (name, hot) in [
        (
            "cache_full at edge t",
            SnakeIn {
                cache_full: true,
                ..idle
            },
        ),
        (
            "bw_util >= BW_HIGH at edge t",
            SnakeIn {
                bw_util: p.BW_HIGH,
                ..idle
            },
        ),
    ] {
        let r = row(name);
        let mut seq = vec![reset, reset, idle, idle, idle, hot];
        seq.extend(std::iter::repeat_n(idle, 5));
        each_backend(&p, &seq, |who, outs| {
            assert!(outs[2..=c].iter().all(|o| !o.throttled), "{who}: {name}");
            let f = first(outs, c, |o| o.throttled);
            assert_eq!(f - c, r.cycles as usize, "{who}: {name}");
        });
    }
}

/// `seq`'s first two cycles (its two reset cycles), then each of
/// `loads` followed by `gap - 1` idle cycles (`seq`'s last input), then 12
/// idle cycles to drain.
fn gapped(seq: &[SnakeIn], loads: &[SnakeIn], gap: usize) -> Vec<SnakeIn> {
    let idle = seq[seq.len() - 1];
    let mut out = seq[..2].to_vec();
    for &ld in loads {
        out.push(ld);
        out.extend(std::iter::repeat_n(idle, gap - 1));
    }
    out.extend(std::iter::repeat_n(idle, 12));
    out
}
