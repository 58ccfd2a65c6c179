//! CATT's static analysis (`harness::catt`; Kim et al., ICPP
//! 2019, equations 1-9) against the paper's Table 3, and its throttling
//! applied in the harness (`warpgen run --catt`).

mod common;
use common::kernel;
use harness::catt::{analyze, CattMachine, CattReport};
use harness::{Harness, MachineConfig};

/// The paper's launch of ATAX kernel 1 (its Figure 5: `<<<80 * 4, 256>>>`)
/// is NX = 81,920 threads; the row length only sets the coefficient (the
/// paper's 40K x 40K matrix does not fit the harness's 32-bit addresses).
const ROWS: &[(&str, i64)] = &[("NX", 81920), ("NY", 128)];
/// The kernels whose grid follows NY (ATAX and BICG kernel 2 / 1) at the
/// same launch.
const COLS: &[(&str, i64)] = &[("NX", 128), ("NY", 81920)];

/// The same memory work (the throttled program adds its `if`s and
/// barriers, nothing else).
fn same_loads(x: &harness::Metrics, y: &harness::Metrics) {
    assert_eq!(x.mem_instructions, y.mem_instructions);
    assert_eq!(x.l1.accesses, y.l1.accesses);
    assert_eq!(x.l1.store_lines, y.l1.store_lines);
    assert_eq!(x.ctas, y.ctas);
}

fn titanv() -> MachineConfig {
    MachineConfig::preset("catt-titanv").unwrap()
}

fn catt(file: &str, params: &[(&str, i64)], l1_kb: Option<u32>) -> CattReport {
    let k = kernel(file, params);
    analyze(&k, &CattMachine::of(&titanv()), l1_kb.map(|x| x * 1024))
}

/// (warps per CTA, CTAs per SM) of the kernel's one outermost loop.
fn tlp(r: &CattReport) -> (u32, u32) {
    let l = r.loops.iter().find(|l| l.depth == 0).expect("a loop");
    (l.warps, l.ctas)
}

#[test]
fn atax_reproduces_table_3() {
    // Kernel 1: baseline (8, 4); CATT (4, 4) with the maximum L1 and
    // (1, 4) with a 32 KB L1.
    let max = catt("atax1.toml", ROWS, None);
    assert_eq!((max.warps_per_cta, max.tb_sm), (8, 4), "{max:#?}");
    assert_eq!(max.tb_grid, 4);
    assert_eq!(
        max.l1_bytes,
        128 << 10,
        "no shared memory: the whole array is L1"
    );
    assert_eq!(max.smem_config, 0);
    let l = &max.loops[0];
    assert!(l.analysed);
    // tmp[i] (1 line), A[i * NY + j] (32 lines), x[j] (1 line).
    assert_eq!(l.req_per_warp, 34, "{l:#?}");
    assert_eq!(l.footprint, 34 * 8 * 4 * 128);
    assert_eq!(tlp(&max), (4, 4));
    let small = catt("atax1.toml", ROWS, Some(32));
    assert_eq!(tlp(&small), (1, 4));
    assert_eq!(small.loops[0].n, 8);
    // Kernel 2: unthrottled at both sizes.
    for l1 in [None, Some(32)] {
        let r = catt("atax2.toml", COLS, l1);
        assert_eq!((r.warps_per_cta, r.tb_sm), (8, 4), "{r:#?}");
        assert_eq!(tlp(&r), (8, 4), "{l1:?}: {r:#?}");
    }
}

#[test]
fn bicg_and_mvt_follow_table_3() {
    // Table 3: BICG #1 (8, 4) at both sizes, #2 (1, 4) at 32 KB and
    // (4, 4) at the maximum; MVT #1 (1, 4) / (4, 4), #2 (8, 4).
    for (file, params, small, max) in [
        ("bicg1.toml", COLS, (8, 4), (8, 4)),
        ("bicg2.toml", ROWS, (1, 4), (4, 4)),
    ] {
        assert_eq!(tlp(&catt(file, params, Some(32))), small, "{file} at 32 KB");
        assert_eq!(
            tlp(&catt(file, params, None)),
            max,
            "{file} at the maximum L1"
        );
    }
    // MVT's N x N matrix: 8 K x 8 K on 8 SMs gives the paper's 4 CTAs per
    // SM (40 K x 40 K does not fit the harness's 32-bit addresses).
    let mut m = CattMachine::of(&titanv());
    m.n_sm = 8;
    for (file, small, max) in [("mvt1.toml", (1, 4), (4, 4)), ("mvt2.toml", (8, 4), (8, 4))] {
        let k = kernel(file, &[("N", 8192)]);
        assert_eq!(analyze(&k, &m, None).tb_sm, 4, "{file}");
        assert_eq!(
            tlp(&analyze(&k, &m, Some(32 << 10))),
            small,
            "{file} at 32 KB"
        );
        assert_eq!(tlp(&analyze(&k, &m, None)), max, "{file} at the maximum L1");
    }
}

#[test]
fn kmeans_and_bfs_follow_table_3() {
    // KM #1 (Rodinia kmeans invert_mapping): baseline (8, 8), CATT (2, 8)
    // with the maximum L1. At 32 KB the paper has (1, 8); there N = 8
    // makes the footprint exactly 32 KB, and the paper's rule ("until the
    // SIZE'_req is smaller than the L1D capacity") goes on to M = 1.
    let r = catt("kmeans_invert.toml", &[], None);
    assert_eq!((r.warps_per_cta, r.tb_sm), (8, 8));
    assert_eq!(tlp(&r), (2, 8), "{r:#?}");
    let r = catt("kmeans_invert.toml", &[], Some(32));
    assert_eq!(r.loops[0].n, 8);
    assert_eq!(tlp(&r), (1, 7));
    // BFS (graph128k: 256 CTAs of 512 threads): (16, 4) unthrottled, its
    // gathers irregular (one line per warp, no locality).
    for l1 in [None, Some(32)] {
        let r = catt("bfs.toml", &[("NODES", 131072)], l1);
        assert_eq!(tlp(&r), (16, 4), "{r:#?}");
        assert!(r.loops[0]
            .accesses
            .iter()
            .any(|a| a.c_tid.is_none() && a.req_warp == 1));
    }
}

/// The access lines per warp (`REQ_warp`) of a loop's loads, in program
/// order.
fn reqs(l: &harness::catt::CattLoop) -> Vec<u32> {
    l.accesses
        .iter()
        .filter(|a| !a.store)
        .map(|a| a.req_warp)
        .collect()
}

#[test]
fn gsmv_reproduces_table_3() {
    // GSMV #1: baseline (8, 2), CATT (1, 2) with a 32 KB L1 and (4, 2)
    // with the maximum. Table 2's 20K x 20K would be 80 CTAs of 256 rows,
    // one per SM of 80: the Table's 2 CTAs per SM take 81-160 CTAs (up to
    // 40 K rows), and 20 K alone is 3.2 GB of A and B, past the harness's
    // 1 GB. The footprint does not depend on N (a row of 32 floats or more
    // is a line per lane): the source's N = 4096 on 8 SMs, 16 CTAs, gives
    // the Table's 2 per SM.
    let mut m = CattMachine::of(&titanv());
    m.n_sm = 8;
    let k = kernel("gesummv.toml", &[("N", 4096)]);
    let max = analyze(&k, &m, None);
    assert_eq!(
        (max.warps_per_cta, max.tb_sm, max.tb_grid),
        (8, 2, 2),
        "{max:#?}"
    );
    assert_eq!(max.l1_bytes, 128 << 10);
    let l = &max.loops[0];
    assert!(l.analysed);
    // tmp[i], A[i * N + j] (lanes a row apart), x[j]; y[i], B[i * N + j],
    // x[j] again (line 116 reads it after line 115's store): 68 lines per
    // warp, 68 x 8 x 2 lines = 136 KB, over 128 KB by 8 KB.
    assert_eq!(reqs(l), [1, 32, 1, 1, 32, 1], "{l:#?}");
    assert_eq!(l.footprint, 68 * 8 * 2 * 128);
    // N = 2: 68 KB fits.
    assert_eq!(tlp(&max), (4, 2));
    assert_eq!(l.throttled_footprint, 68 * 4 * 2 * 128);
    // 32 KB: N = 2 (68 KB) and N = 4 (34 KB) do not fit, N = 8 (17 KB)
    // does: the paper's (1, 2).
    let small = analyze(&k, &m, Some(32 << 10));
    assert_eq!(tlp(&small), (1, 2));
    assert_eq!((small.loops[0].n, small.loops[0].m), (8, 0));
    assert_eq!(small.kernel_ctas, 2);
}

#[test]
fn syr2k_keeps_table_3s_ctas_with_fewer_warps() {
    // SYR2K #1 at the paper's 2K x 2K (LARGE_DATASET): a 64 x 256 grid of
    // 32 x 8 blocks, 205 CTAs per SM by the grid, 8 by the Titan V's 64
    // warps: the Table's baseline (8, 8).
    let k = kernel("syr2k.toml", &[("NI", 2048), ("NJ", 2048)]);
    let max = catt("syr2k.toml", &[("NI", 2048), ("NJ", 2048)], None);
    assert_eq!(
        (max.warps_per_cta, max.tb_sm, max.tb_grid),
        (8, 8, 205),
        "{max:#?}"
    );
    assert_eq!(k.block, [32, 8, 1]);
    let l = &max.loops[0];
    // Lane by lane over the 2-D block (the paper: "we examine every
    // address accessed by each thread in a warp"): a warp is one row of
    // the block (tid.y fixed), so c[i * NI + j] is one line, a[i * NJ + k]
    // and b[i * NJ + k] broadcasts, b[j * NJ + k] and a[j * NJ + k] a line
    // per lane.
    assert_eq!(reqs(l), [1, 1, 32, 1, 32], "{l:#?}");
    assert_eq!(l.footprint, 67 * 8 * 8 * 128);
    // Equation 9 with 67 lines per warp at 8 CTAs: N = 2 is 268 KB, N = 4
    // 134 KB (137,216 bytes > 131,072), N = 8 67 KB: (1, 8) with the 128
    // KB L1 where the paper has (4, 8). With 32 KB, N = 8 is still 67 KB;
    // then M = 5: 67 x 1 x 3 lines = 25.1 KB: (1, 3) where the paper has
    // (4, 3), the same CTAs. No line count gives both of the paper's
    // entries under its rule ("until the SIZE'_req is smaller than the
    // L1D capacity", N before M): (4, 8) fitting 128 KB when (8, 8) does
    // not takes 16 <= lines < 32, and then N = 8 fits 32 KB at (1, 8)
    // before any M; its (4, 3) would need N held at 2 (and 16 <= lines <=
    // 21). The analysis keeps the rule: ours are (1, 8) and (1, 3).
    assert_eq!(tlp(&max), (1, 8));
    assert_eq!((l.n, l.m), (8, 0));
    let small = catt("syr2k.toml", &[("NI", 2048), ("NJ", 2048)], Some(32));
    let l = &small.loops[0];
    assert_eq!(tlp(&small), (1, 3));
    assert_eq!((l.n, l.m), (8, 5));
    assert_eq!(l.throttled_footprint, 67 * 3 * 128);
    assert_eq!(small.kernel_ctas, 3);
}

#[test]
fn corr_follows_table_3_where_the_equations_do() {
    // CORR at the paper's 2K x 2K (STANDARD_DATASET M = N = 2048).
    let p: &[(&str, i64)] = &[("M", 2048), ("N", 2048)];
    // #1 (mean_kernel) and #2 (std_kernel): 8 CTAs of 256 columns, one
    // per SM, as Table 3's (8, 1). Their column walks have loops (the
    // Table lists none: "-"): mean[j] / std[j] re-read every iteration
    // (C_i = 0) make them analysed, and 2 or 3 lines per warp fit at both
    // sizes.
    for (file, lines) in [("corr1.toml", 2), ("corr2.toml", 3)] {
        for l1 in [None, Some(32)] {
            let r = catt(file, p, l1);
            assert_eq!((r.warps_per_cta, r.tb_sm, r.tb_grid), (8, 1, 1), "{file}");
            assert!(r.loops[0].analysed, "{file}");
            assert_eq!(r.loops[0].req_per_warp, lines, "{file}");
            assert_eq!(tlp(&r), (8, 1), "{file} {l1:?}: {r:#?}");
        }
    }
    // #3 (reduce_kernel): no loop, nothing to throttle. Its grid is
    // (M / 32) x (N / 8) = 64 x 256 blocks of 32 x 8 (correlation.cu line
    // 249): equation 3 gives 8 CTAs per SM (64 warps / 8), not the
    // Table's 1 (the Table gives CORR (8, 1) throughout).
    let r = catt("corr3.toml", p, None);
    assert!(r.loops.is_empty());
    assert_eq!((r.warps_per_cta, r.tb_sm, r.tb_grid), (8, 8, 205), "{r:#?}");
    // #4 (corr_kernel): one CTA per SM, its j2 loop the Table's loop 1
    // (depth 0), the i loop inside it. Per warp: symmat[j1 * M + j2]
    // (lanes 4 (M + 1) bytes apart: 32 lines), data[i * M + j1] (1),
    // data[i * M + j2] (j2 = j1 + 1 + ...: 32 floats 4 bytes into a line,
    // 2 lines), and in the j2 loop symmat read back at line 218 (32).
    let max = catt("corr4.toml", p, None);
    assert_eq!(
        (max.warps_per_cta, max.tb_sm, max.tb_grid),
        (8, 1, 1),
        "{max:#?}"
    );
    let (outer, inner) = (&max.loops[0], &max.loops[1]);
    assert_eq!((outer.depth, inner.depth), (0, 1));
    assert_eq!(reqs(outer), [32, 1, 2, 32], "{outer:#?}");
    assert_eq!(reqs(inner), [32, 1, 2], "{inner:#?}");
    assert!(outer.analysed && inner.analysed);
    // 128 KB: 67 x 8 lines (67 KB) and 35 x 8 (35 KB) fit: (8, 1) as in
    // the Table.
    assert_eq!(outer.footprint, 67 * 8 * 128);
    assert_eq!(inner.footprint, 35 * 8 * 128);
    assert_eq!(tlp(&max), (8, 1));
    assert_eq!((inner.warps, inner.ctas), (8, 1));
    // 32 KB: both are over it, and both fit once throttled: the j2 loop at
    // N = 4 (67 x 2 lines, 16.8 KB; N = 2 is 33.5 KB), the i loop at N =
    // 2 (17.5 KB). The paper keeps (8, 1) because "the L1D footprint
    // cannot be reduced to fit the L1D capacity even with the minimum
    // degree of TLP"; by equation 9 the minimum, one warp of one CTA, is
    // 67 lines (8.4 KB), which fits: ours are (2, 1) and (4, 1).
    let small = catt("corr4.toml", p, Some(32));
    let (outer, inner) = (&small.loops[0], &small.loops[1]);
    assert!(!outer.unresolved && !inner.unresolved);
    assert_eq!(tlp(&small), (2, 1));
    assert_eq!(outer.throttled_footprint, 67 * 2 * 128);
    assert_eq!((inner.warps, inner.ctas), (4, 1));
    assert_eq!(small.kernel_ctas, 1);
}

#[test]
fn limits_follow_equations_1_to_4() {
    // Registers (equation 2): 64 per thread x 256 threads = 16 K of the
    // Titan V's 64 K: 4 CTAs.
    let mut k = kernel("atax1.toml", ROWS);
    k.regs = 64;
    let mut m = CattMachine::of(&titanv());
    let r = analyze(&k, &m, None);
    assert_eq!(r.tb_reg, Some(4));
    k.regs = 128;
    assert_eq!(analyze(&k, &m, None).tb_sm, 2);
    // Shared memory (equations 1 and 4): 20 KB per CTA, 4 CTAs by
    // the grid: 80 KB used, the 96 KB carve-out, a 32 KB L1.
    k.regs = 0;
    k.smem_bytes = 20 << 10;
    let r = analyze(&k, &m, None);
    assert_eq!(r.tb_shm, Some(4));
    assert_eq!(r.smem_config, 96 << 10);
    assert_eq!(r.l1_bytes, 32 << 10);
    // Hardware: 64 warps of 8-warp CTAs.
    m.n_sm = 1;
    k.smem_bytes = 0;
    assert_eq!(analyze(&k, &m, None).tb_sm, 8);
}

#[test]
fn throttled_atax_hits_more_and_runs_faster() {
    // A tenth of the Titan V (8 SMs, a tenth of its L2 partitions and
    // DRAM channels) at the paper's 4 CTAs per SM, the 32 KB L1: CATT's
    // (1, 4) against the unthrottled (8, 4). (With the 128 KB L1 the
    // footprint, 136 KB, barely exceeds it and both run alike.)
    let k = kernel("atax1.toml", &[("NX", 8192), ("NY", 128)]);
    let mut cfg = titanv();
    for (key, v) in [
        ("n_sm", "8"),
        ("l2_partitions", "8"),
        ("dram_channels", "4"),
        ("l1_bytes", "32768"),
    ] {
        cfg.set(key, v).unwrap();
    }
    let r = analyze(&k, &CattMachine::of(&cfg), Some(cfg.l1_bytes));
    assert_eq!(tlp(&r), (1, 4), "{r:#?}");
    let base = Harness::new(&k, &cfg).run().unwrap();
    let throttled_k = k.catt_throttled(&r);
    let mut tcfg = cfg.clone();
    tcfg.cta_slots = r.kernel_ctas;
    let t = Harness::new(&throttled_k, &tcfg).run().unwrap();
    same_loads(&base, &t);
    eprintln!(
        "hit rate {:.3} -> {:.3}, cycles {} -> {}",
        1.0 - base.l1.miss_rate,
        1.0 - t.l1.miss_rate,
        base.cycles,
        t.cycles
    );
    assert!(
        t.l1.miss_rate + 0.1 < base.l1.miss_rate,
        "{} {}",
        t.l1.miss_rate,
        base.l1.miss_rate
    );
    assert!(t.cycles < base.cycles, "{} {}", t.cycles, base.cycles);
}

#[test]
fn the_throttled_program_runs_each_warp_group_in_turn() {
    // 8 warps, N = 2: two copies of the loop, each under an `if` on the
    // warp group and followed by a barrier; the same loads in all.
    let k = kernel("atax1.toml", &[("NX", 512), ("NY", 16)]);
    let mut cfg = titanv();
    cfg.set("sms", "one").unwrap();
    cfg.set("n_sm", "1").unwrap();
    let mut r = analyze(&k, &CattMachine::of(&cfg), None);
    r.loops[0].n = 2;
    let t = k.catt_throttled(&r);
    let base = Harness::new(&k, &cfg).run().unwrap();
    let m = Harness::new(&t, &cfg).run().unwrap();
    same_loads(&base, &m);
    // Two barriers per CTA (one after each group's turn).
    assert_eq!(
        m.sched.barriers,
        base.sched.barriers + 2 * m.ctas,
        "{:?}",
        m.sched
    );
}
