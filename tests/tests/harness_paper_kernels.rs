//! The bundled kernels at the papers' sizes and the BA thesis's remaining
//! benchmarks (issue 11, item 9): each file's launch is its source's at
//! the source's sizes, and its memory traffic is what the source's code
//! makes — counted here line by line from the source's own loop structure
//! at small sizes (`param.*` overrides, one SM of one where every CTA
//! must run).

mod common;
use common::{kernel, run};

use std::cell::RefCell;
use std::rc::Rc;

use golden::check::{Probe, ProbeError};
use harness::metrics::ArrayMetrics;
use harness::{unit_params, Class, Harness, Kernel, Metrics};
use ports::caps::{CapsIn, CapsParams, CapsPrefetcher};
use ports::UnitSpec;

fn array<'a>(m: &'a Metrics, name: &str) -> &'a ArrayMetrics {
    m.arrays
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("no array {name}"))
}

fn param(k: &Kernel, name: &str) -> i64 {
    *k.params
        .get(name)
        .unwrap_or_else(|| panic!("{}: no parameter {name}", k.name))
}

/// The load of `array` (the first in program order).
fn load_of<'a>(k: &'a Kernel, array: &str) -> &'a harness::MemInstrInfo {
    k.mem_instrs()
        .iter()
        .find(|m| !m.store && m.array == array)
        .unwrap_or_else(|| panic!("{}: no load of {array}", k.name))
}

// ---------------------------------------------------------------- LPS

/// Every load CAPS is shown.
struct Loads(CapsParams, Rc<RefCell<Vec<CapsIn>>>);

impl Probe for Loads {
    fn cycle(&mut self, inputs: &[u64], _golden: &[u64]) -> Result<(), ProbeError> {
        let i = CapsPrefetcher::in_from_values(&self.0, inputs);
        if i.ld_valid {
            self.1.borrow_mut().push(i);
        }
        Ok(())
    }
}

/// laplace3d.cu's defaults (100 x 100 x 100, GPGPU-Sim's unpadded pitch):
/// a 4 x 25 grid of 32 x 4 blocks, and on SM 0 of 15 the CTAs (y, x) =
/// (0, 0), (3, 3), (7, 2) whose first loads are 5,184 and 6,272 bytes
/// apart, the CAPS paper's figures (section IV). The addresses are the
/// ones the harness hands CAPS (the lowest byte each warp touches).
#[test]
fn lps_at_the_caps_papers_dimensions_gives_its_inter_cta_distances() {
    let k = kernel("lps.toml", &[]);
    assert_eq!(k.grid, [4, 25, 1]);
    assert_eq!(k.block, [32, 4, 1]);
    for (p, v) in [("NX", 100), ("NY", 100), ("NZ", 100), ("PITCH", 100)] {
        assert_eq!(param(&k, p), v, "{p}");
    }
    let c = common::config(&[("prefetcher", "caps"), ("sched", "pas")]);
    let params = unit_params::<CapsPrefetcher>(&c, &k).unwrap();
    let log = Rc::new(RefCell::new(Vec::new()));
    let m = Harness::new(&k, &c)
        .probe("caps_prefetcher", Box::new(Loads(params, log.clone())))
        .run()
        .unwrap();
    // 100 CTAs dealt to 15 SMs: SM 0 runs CTAs 0, 15, 30, ..., 90, all
    // resident at once, in slots 0, 1, 2, ... in launch order.
    assert_eq!(m.ctas, 7);
    let pc = load_of(&k, "d_u1").pc as u64; // u1[ind+KOFF] = d_u1[indg]
    let log = log.borrow();
    let first = |slot: u64| -> u64 {
        let ld = log
            .iter()
            .find(|l| l.ld_pc == pc && l.ld_cta == slot && l.ld_warp == 0)
            .unwrap_or_else(|| panic!("no first load in slot {slot}"));
        *ld.ld_addr[..ld.ld_count.min(4) as usize]
            .iter()
            .min()
            .unwrap()
    };
    let (a0, a1, a2) = (first(0), first(1), first(2));
    let base = k.array("d_u1").unwrap().base & 0xffff_ffff;
    // CTA (0, 0): i = tid.x, j = tid.y; (3, 3): 96 + 12 * 100; (7, 2):
    // 64 + 28 * 100 floats.
    assert_eq!(a0, base);
    assert_eq!(a1 - a0, 5184);
    assert_eq!(a2 - a1, 6272);
}

/// The grid is laplace3d.cu's `1 + (N-1)/BLOCK` in x and y: a partial
/// block where NX is not a multiple of 32, and the old 128 x 128 runs keep
/// their 4 x 32 grid and 128-float pitch.
#[test]
fn lps_grid_rounds_up_and_the_pitch_follows_nx() {
    let k = kernel("lps.toml", &[("NX", 129), ("NY", 6)]);
    assert_eq!(k.grid, [5, 2, 1]);
    let k = kernel("lps.toml", common::LPS_128);
    assert_eq!(k.grid, [4, 32, 1]);
    assert_eq!(param(&k, "PITCH"), 128);
    // A column of partial blocks: the lanes past NX load nothing.
    let k = kernel("lps.toml", &[("NZ", 2)]);
    let m = run(&k, &[("n_sm", "1")]);
    assert_eq!(m.ctas, 100);
    assert_eq!(m.out_of_bounds, 0);
}

// ---------------------------------------------------------- matrixMul

/// SDK 2.3's matrixMul: A 80 x 48, B 48 x 128, 16 x 16 tiles: an 8 x 5
/// grid, three tiles per CTA, and per warp (two rows of 16 floats) two
/// lines per load and per store.
#[test]
fn matrix_mul_at_sdk_2_3_sizes() {
    let k = kernel("matrix_mul.toml", &[]);
    for (p, v) in [("BS", 16), ("WA", 48), ("HA", 80), ("WB", 128)] {
        assert_eq!(param(&k, p), v, "{p}");
    }
    assert_eq!(k.grid, [8, 5, 1]);
    assert_eq!(k.block, [16, 16, 1]);
    let m = run(&k, &[]);
    // 40 CTAs over 15 SMs: SM 0 runs CTAs 0, 15 and 30.
    assert_eq!(m.ctas, 3);
    let (warps, tiles) = (8, 3);
    assert_eq!(m.mem_instructions, m.ctas * warps * (2 * tiles + 1));
    assert_eq!(array(&m, "A").load_lines, m.ctas * warps * tiles * 2);
    assert_eq!(array(&m, "B").load_lines, m.ctas * warps * tiles * 2);
    assert_eq!(array(&m, "C").store_lines, m.ctas * warps * 2);
    assert_eq!(m.sched.barriers, m.ctas * 2 * tiles);
}

// ------------------------------------------------------------- kmeans

/// invert_mapping: each warp load touches 32 lines (lanes 34 floats
/// apart), each store one; the lines of a lane are reused over the
/// feature loop, which GTO (the thesis's scheduler) keeps in the L1 better
/// than round robin does. At kdd_cup's size the grid is 44^2.
#[test]
fn kmeans_invert_mapping_is_uncoalesced_with_intra_lane_reuse() {
    let k = kernel("kmeans_invert.toml", &[]);
    assert_eq!(k.grid, [1936, 1, 1]);
    assert_eq!(k.block, [256, 1, 1]);
    // 7,680 points (a multiple of 32 floats: aligned feature rows), 36
    // CTAs of which 30 have points.
    let k = kernel(
        "kmeans_invert.toml",
        &[("NPOINTS", 7680), ("BLOCKS_PER_DIM", 6)],
    );
    let nf = param(&k, "NFEATURES") as u64;
    assert_eq!(nf, 34);
    let m = run(&k, &[("n_sm", "1")]);
    assert_eq!(m.ctas, 36);
    let warps = 7680 / 32;
    assert_eq!(array(&m, "input").load_lines, warps * nf * 32);
    assert_eq!(array(&m, "output").store_lines, warps * nf);
    assert_eq!(m.out_of_bounds, 0);
    let lrr = run(&k, &[("n_sm", "1"), ("sched", "lrr")]);
    let gto = run(&k, &[("n_sm", "1"), ("sched", "gto")]);
    assert!(
        gto.l1.hits > 2 * lrr.l1.hits.max(1),
        "GTO {} hits, LRR {}",
        gto.l1.hits,
        lrr.l1.hits
    );
    assert!(gto.reuse.as_ref().unwrap().rd1 > 0);
}

/// kmeansPoint: the feature-major reads are coalesced (one line per warp
/// per feature per cluster), affine, and re-read for every cluster; one
/// membership store per warp. The 2-D grid is linearised as the source
/// does (gridDim.x * blockIdx.y + blockIdx.x).
#[test]
fn kmeans_point_reads_features_coalesced_once_per_cluster() {
    let k = kernel("kmeans_point.toml", &[]);
    assert_eq!(k.grid, [44, 44, 1]);
    let k = kernel(
        "kmeans_point.toml",
        &[("NPOINTS", 7680), ("BLOCKS_PER_DIM", 6)],
    );
    let f = load_of(&k, "t_features");
    assert_eq!(f.class, Class::Affine);
    assert!(!f.indirect);
    let (nf, nc) = (param(&k, "NFEATURES") as u64, param(&k, "NCLUSTERS") as u64);
    assert_eq!((nf, nc), (34, 5));
    let m = run(&k, &[("n_sm", "1")]);
    let warps = 7680 / 32;
    // tex1Dfetch: every line request goes to the texture cache.
    assert_eq!(m.texture.accesses, warps * nc * nf);
    assert_eq!(m.l1.accesses, 0);
    assert_eq!(array(&m, "membership").store_lines, warps);
    assert_eq!(m.out_of_bounds, 0);
}

// --------------------------------------------------------------- SPMV

/// spmv_jds at Dubcova3's dimensions launches as compute_active_thread
/// decides (765 blocks of 192); at a small size (one warp per block) every
/// warp reads `bound` coalesced lines of d_data and of d_index and
/// gathers `bound` times from x, indirect and scattered.
#[test]
fn spmv_jds_streams_the_diagonals_and_gathers_x() {
    let k = kernel("spmv.toml", &[]);
    assert_eq!(param(&k, "DIM"), 146_689);
    assert_eq!(k.grid, [765, 1, 1]);
    assert_eq!(k.block, [192, 1, 1]);

    let k = kernel("spmv.toml", &[("DIM", 4096)]);
    assert_eq!(k.block, [32, 1, 1]); // 4,096 threads fit: pad x nzcnt_len
    assert_eq!(k.grid, [128, 1, 1]);
    let x = load_of(&k, "x_vec");
    assert!(x.indirect && x.class == Class::NonAffine);
    assert!(!load_of(&k, "d_data").indirect);
    let m = run(&k, &[("n_sm", "1")]);
    let (nwarps, hi, lo) = (
        param(&k, "NWARPS"),
        param(&k, "NZ_MAX"),
        param(&k, "NZ_MIN"),
    );
    // sh_zcnt_int[warp_id]: the synthetic lengths, longest first.
    let bounds: u64 = (0..nwarps)
        .map(|w| (hi - w * (hi - lo) / (nwarps - 1)) as u64)
        .sum();
    assert_eq!(array(&m, "d_data").load_lines, bounds);
    assert_eq!(array(&m, "d_index").load_lines, bounds);
    assert_eq!(array(&m, "d_perm").load_lines, nwarps as u64);
    // Random columns over 128 lines of x: about 28 lines per gather.
    let xl = array(&m, "x_vec").load_lines;
    assert!(xl > 20 * bounds && xl <= 32 * bounds, "{xl} vs {bounds}");
    assert!(array(&m, "dst_vector").store_lines > 20 * nwarps as u64);
    assert_eq!(m.out_of_bounds, 0);
    // x at 4,096 rows is 16 KB, the L1's size: its lines come back soon
    // enough (rd0). At Dubcova3's 146,689 rows (573 KB) x's reuse is
    // long-distance: mostly rd1, the thesis's category for SPMV.
    let r = m.reuse.as_ref().unwrap();
    assert!(r.rd0 > r.rd1, "{r:?}");
    let m = run(&kernel("spmv.toml", &[]), &[]);
    let r = m.reuse.as_ref().unwrap();
    assert!(r.rd1 > 4 * (r.rd0 + r.rd2), "{r:?}");
    assert!(m.l1.miss_rate > 0.9);
}

// ----------------------------------------------------------------- SS

/// SimilarityScore at the run script's size makes 523,776 records, 2,046
/// CTAs. At 64 documents: per warp and iteration, one line of a[i] per
/// distinct doc1 among its 32 records (a broadcast) and 32 lines of b[i]
/// (rows COL floats apart); the float4 records and the emitted bytes are
/// coalesced as their strides say.
#[test]
fn similarity_score_reads_a_broadcast_row_and_a_row_per_lane() {
    let k = kernel("similarity_score.toml", &[]);
    assert_eq!(param(&k, "RECORDS"), 523_776);
    assert_eq!(k.grid, [2046, 1, 1]);
    let k = kernel("similarity_score.toml", &[("DOCS", 64)]);
    let (docs, col) = (param(&k, "DOCS"), param(&k, "COL"));
    assert_eq!(col, 256);
    let records = docs * (docs - 1) / 2; // 2,016: 63 full warps
    assert_eq!(k.grid, [8, 1, 1]);
    let b = k
        .mem_instrs()
        .iter()
        .filter(|m| !m.store && m.array == "matrix")
        .nth(1)
        .unwrap();
    assert!(b.indirect, "b depends on the loaded doc2");
    let m = run(&k, &[("n_sm", "1")]);
    let warps = (records / 32) as u64;
    let iters = (col / 4) as u64;
    let a_lines: u64 = (0..records / 32)
        .map(|w| {
            let mut d: Vec<i64> = (32 * w..32 * w + 32).map(|r| r / (docs - 1)).collect();
            d.dedup();
            d.len() as u64
        })
        .sum();
    assert_eq!(
        array(&m, "matrix").load_lines,
        iters * (32 * warps + a_lines)
    );
    assert_eq!(array(&m, "inputOffsetSizes").load_lines, warps * 4); // int4
    assert_eq!(array(&m, "interKeys").store_lines, warps * 4); // 4 bytes, lanes 4 apart
    assert_eq!(array(&m, "interVals").store_lines, warps * 8 * 2); // 8 bytes, 8 apart
    assert_eq!(m.sched.barriers, m.ctas); // one emit per record
    assert_eq!(m.out_of_bounds, 0);
    // The b lines are reused over 8 iterations by 8 warps' worth of
    // lines: long reuse distances, the thrashing BA bypasses.
    let r = m.reuse.as_ref().unwrap();
    assert!(r.rd1 > m.l1.accesses / 2, "{r:?}");
}

// ----------------------------------------------------------------- SM

/// Mars's StringMatch map function, transliterated from map.cu over the
/// kernel's own contents: the bytes it loads from the file and the matches
/// it emits for record `r`.
fn string_match_map(k: &Kernel, r: i64) -> (u64, u64) {
    let file = k.array("file").unwrap();
    let vals = k.array("inputVals").unwrap();
    let keyword = k.array("keyword").unwrap();
    let phases = param(k, "PHASES");
    let keyword_size = vals.value(4 * r);
    let buf_offset = 1024 * (r + r / phases) + vals.value(4 * r + 1);
    let buf_size = vals.value(4 * r + 2);
    let (mut p, mut cur, mut start) = (buf_offset, 0, buf_offset);
    let (mut loads, mut emits) = (0, 0);
    loop {
        // for (; *p != '\n'; ++p, ++cur);
        loop {
            loads += 1;
            if file.value(p) == 10 {
                break;
            }
            p += 1;
            cur += 1;
        }
        p += 1;
        let word_size = p - start;
        if cur >= buf_size {
            break;
        }
        if word_size == keyword_size {
            // for (; *s == *k && *k != '\0'; s++, k++);
            let (mut s, mut kk) = (start, 0);
            loop {
                loads += 1;
                let (sc, kc) = (file.value(s), keyword.value(kk));
                if !(sc == kc && kc != 0) {
                    break;
                }
                s += 1;
                kk += 1;
            }
            loads += 1; // if (*s == '\n')
            if file.value(s) == 10 {
                emits += 1;
            }
        }
        start = p;
    }
    (loads, emits)
}

/// StringMatch at the run script's size: 1,018 records, 4 CTAs. Record 0
/// alone: every byte it scans and compares is one load of one lane (one
/// line), and each of its 15 matches is a barrier and 4 + 4 byte stores.
/// A warp of records: the lanes are a kilobyte apart, so the file loads
/// are as many lines as the lanes' loads together.
#[test]
fn string_match_scans_and_matches_as_the_mars_map_does() {
    let k = kernel("string_match.toml", &[]);
    assert_eq!(param(&k, "RECORDS"), 1018);
    assert_eq!(k.grid, [4, 1, 1]);
    assert_eq!(k.array("file").unwrap().len, 1_048_576 + 512);
    // The record layout: record 1 starts after record 0's 1,028 bytes.
    let vals = k.array("inputVals").unwrap();
    assert_eq!(vals.value(1) + vals.value(2), 1024 + vals.value(5));

    let k1 = kernel("string_match.toml", &[("RECORDS", 1)]);
    let (loads, emits) = string_match_map(&k1, 0);
    assert_eq!(emits, 15);
    let m = run(&k1, &[("n_sm", "1")]);
    assert_eq!(array(&m, "file").load_lines, loads);
    assert_eq!(array(&m, "interKeys").store_lines, 4 * emits);
    assert_eq!(array(&m, "interVals").store_lines, 4 * emits);
    assert_eq!(array(&m, "curIndex").store_lines, emits);
    assert_eq!(m.sched.barriers, emits);

    let k32 = kernel("string_match.toml", &[("RECORDS", 32)]);
    let want: u64 = (0..32).map(|r| string_match_map(&k32, r).0).sum();
    let m = run(&k32, &[("n_sm", "1")]);
    assert_eq!(array(&m, "file").load_lines, want);
    assert_eq!(m.out_of_bounds, 0);
}

/// The full-size runs stay inside their arrays (SM's last record runs past
/// the file into the slack; thread 0's interOffsetSizes[-1] is clamped).
#[test]
fn the_new_kernels_stay_inside_their_arrays() {
    for (name, params) in [
        ("string_match.toml", vec![]),
        ("spmv.toml", vec![]),
        ("similarity_score.toml", vec![("DOCS", 128)]),
        (
            "kmeans_point.toml",
            vec![("NPOINTS", 15 * 256 * 3 + 100), ("BLOCKS_PER_DIM", 7)],
        ),
    ] {
        let k = kernel(name, &params);
        let m = run(&k, &[("n_sm", "1")]);
        assert_eq!(m.ctas, k.total_ctas(), "{name}");
        assert_eq!(m.out_of_bounds, 0, "{name}");
    }
}
