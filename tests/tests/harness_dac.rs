//! DAC in the SM harness (issue items 5 and 6): the affine warp runs the
//! kernel's affine stream once per batch of CTAs, `dac_expander`'s golden
//! model expands its tuples, the non-affine warps dequeue records and
//! masks (each checked against what the warp computes) and skip the
//! removed instructions; DATA tuples' early requests prefetch and lock
//! lines. And the paper's claims as far as the harness can show them.

mod common;
use common::{config, kernel, root, run};

use sim_model::harness::{DacMetrics, Harness, HarnessError, Kernel, Metrics};

fn dac(m: &Metrics) -> &DacMetrics {
    m.dac.as_ref().expect("DAC ran")
}

fn with_dac(k: &Kernel, sets: &[(&str, &str)]) -> Metrics {
    let mut s = sets.to_vec();
    s.push(("expander", "dac"));
    run(k, &s)
}

#[test]
fn the_dac_example_decouples_every_address_and_its_loop() {
    let k = kernel("dac_example.toml", &[]);
    let base = run(&k, &[]);
    let m = with_dac(&k, &[]);
    eprintln!("{}", m.table());
    let d = dac(&m);
    assert!(d.decoupled, "{}", d.reason);
    // 16 CTAs of 8 warps on the SM, 6 resident: batches of 6, 6 and 4.
    assert_eq!(d.batches, 3);
    // Per batch: the prologue (4 lets), the loop start, and per iteration
    // 2 address updates plus 3 enqueues (A, B, the back edge).
    assert_eq!(d.affine_instructions, 3 * (4 + 1 + 16 * (2 + 3)));
    assert_eq!((d.tuples_data, d.tuples_addr, d.tuples_pred), (48, 48, 48));
    // Every warp skips the prologue and the two updates per iteration
    // (the paper's Figure 7: the non-affine stream keeps ld, add, st and
    // the branch).
    let warps = 16 * 8;
    assert_eq!(d.removed, warps * (4 + 2 * 16));
    assert_eq!(d.decoupled_mem_instructions, warps * 2 * 16);
    assert_eq!(d.decoupled_branches, warps * 16);
    // The warp instruction count falls by a third; what remains includes
    // the affine warp's few instructions.
    assert_eq!(
        m.warp_instructions,
        base.warp_instructions - d.removed + d.affine_instructions
    );
    assert!(m.warp_instructions * 10 < base.warp_instructions * 7);
    assert!(d.affine_instructions * 20 < m.warp_instructions);
    // A word offset of 4: each warp's access is one record with a full
    // mask (one line), so records = decoupled instructions, and every
    // DATA record made one early request.
    assert_eq!(d.records, d.decoupled_mem_instructions);
    assert_eq!(d.early_requests, d.records / 2);
    assert_eq!(m.l1.accesses, base.l1.accesses);
    // The loop predicate is scalar: every mask on the fast path.
    assert_eq!((d.pred_fast, d.pred_slow), (warps * 16, 0));
    assert_eq!(d.masks, warps * 16);
    // Early requests reached the L1 before the demand: no demand of a
    // decoupled load found its line absent... unless the early request
    // was still queued in the unit (counted).
    assert_eq!(
        d.decoupled_hits + d.decoupled_pending + d.decoupled_misses,
        m.l1.accesses
    );
    assert!(d.decoupled_pending > d.decoupled_misses, "{d:?}");
}

/// The DAC example streams: with the harness's flat 400-cycle memory
/// and 32 MSHRs both runs are bound by the MSHRs (at most 32 lines per
/// 400 cycles: 2048 lines take 25,600 cycles), and no early request can
/// beat that. With MSHRs that do not bind, the affine warp's run-ahead
/// shows: the blocking non-affine warps keep at most 48 loads in flight,
/// DAC's early requests fill the MSHRs.
#[test]
fn dac_hides_the_dac_examples_memory_latency_when_the_mshrs_do_not_bind() {
    let k = kernel("dac_example.toml", &[]);
    let bound = 2048 * 400 / 32;
    let base = run(&k, &[]);
    let m = with_dac(&k, &[]);
    for r in [&base, &m] {
        assert!(
            r.cycles >= bound && r.cycles < bound * 21 / 20,
            "{}",
            r.cycles
        );
    }
    let wide = [("mshr_entries", "128"), ("miss_queue", "32")];
    let base = run(&k, &wide);
    let m = with_dac(&k, &wide);
    eprintln!(
        "baseline {} cycles, {} idle; DAC {} cycles, {} idle",
        base.cycles, base.sched.idle_cycles, m.cycles, m.sched.idle_cycles
    );
    assert!(m.sched.idle_cycles * 2 < base.sched.idle_cycles);
    assert!(m.cycles * 10 < base.cycles * 7);
    let d = dac(&m);
    assert!(
        d.decoupled_hits + d.decoupled_pending > d.decoupled_misses * 4,
        "{d:?}"
    );
}

#[test]
fn dac_hides_matrix_mul_latency_and_removes_its_index_arithmetic() {
    let k = kernel("matrix_mul.toml", &[]);
    let base = run(&k, &[]);
    let m = with_dac(&k, &[]);
    eprintln!("{}", m.table());
    let d = dac(&m);
    assert!(d.decoupled, "{}", d.reason);
    // The tile offsets a, b (per iteration) and c are removed; the loads
    // of A and B and the store of C are decoupled.
    assert!(d.removed > 0 && d.tuples_data > 0 && d.tuples_addr > 0);
    assert!(m.warp_instructions < base.warp_instructions);
    // Fewer stall cycles and fewer cycles on the Fermi preset.
    assert!(
        m.sched.idle_cycles * 2 < base.sched.idle_cycles,
        "idle {} vs {}",
        m.sched.idle_cycles,
        base.sched.idle_cycles
    );
    assert!(
        m.cycles * 10 < base.cycles * 9,
        "{} vs {}",
        m.cycles,
        base.cycles
    );
    // A 16 x 16 block: a warp is two rows of 16 words, two records.
    assert_eq!(d.records, 2 * d.decoupled_mem_instructions);
    // Every line that was locked was unlocked (checked at the end of the
    // run), and at most ways - 1 per set were locked at once.
    assert!(d.max_locked_lines > 0);
    assert!(d.max_locked_lines <= 32 * 3, "{d:?}");
}

/// The paper: "a convergent bit mask is generated for a warp with only 2
/// comparisons. This case constitutes of 93% of the decoupled predicate
/// computations, including the scalar case."
#[test]
fn the_fast_predicate_path_covers_most_warps_of_regular_kernels() {
    let mut fast = 0;
    let mut slow = 0;
    for name in [
        "dac_example.toml",
        "matrix_mul.toml",
        "vector_add.toml",
        "conv_rows.toml",
        "conv_cols.toml",
        "atax2.toml",
        "bfs.toml",
    ] {
        let m = with_dac(&kernel(name, &[]), &[]);
        let d = dac(&m);
        assert!(d.decoupled, "{name}: {}", d.reason);
        eprintln!(
            "{name}: {} fast, {} slow ({:.1} %)",
            d.pred_fast,
            d.pred_slow,
            100.0 * d.fast_share
        );
        fast += d.pred_fast;
        slow += d.pred_slow;
        assert_eq!(d.pred_fast + d.pred_slow, d.masks, "{name}");
    }
    // The convolutions' halo conditions on a 16-wide block are the slow
    // path (blockDim.x < 32 and no off_ty = blockDim.x * off_tx).
    assert!(slow > 0);
    let share = fast as f64 / (fast + slow) as f64;
    assert!(share > 0.9, "{share}");
}

#[test]
fn kernels_dac_cannot_decouple_run_without_it_and_say_why() {
    // LPS: every load and branch sits under a condition that is a
    // comparison's value (`if halo`, `if active`).
    let k = kernel("lps.toml", &[]);
    let base = run(&k, &[]);
    let m = with_dac(&k, &[]);
    let d = dac(&m);
    assert!(!d.decoupled);
    assert!(d.reason.contains("nothing to decouple"), "{}", d.reason);
    assert_eq!(m.cycles, base.cycles);
    assert_eq!(m.warp_instructions, base.warp_instructions);
    assert!(m.table().contains("not decoupled"));
    // A 2-D block whose x dimension is not a power of two.
    let k = Kernel::from_str(
        r#"
name = "odd"
grid = [4]
block = [12, 4]
body = """
load A[ctaid.x * 48 + tid.y * 12 + tid.x]
"""
[arrays.A]
elem = 4
len = 192
"#,
        "odd.toml",
        &[],
        1,
    )
    .unwrap();
    let d = with_dac(&k, &[]).dac.unwrap();
    assert!(d.reason.contains("power of two"), "{}", d.reason);
}

#[test]
fn dac_refuses_machines_it_cannot_run_on_with_the_fix() {
    for (sets, key) in [
        (vec![("l1", "ba")], "l1"),
        (vec![("prefetcher", "caps")], "prefetcher"),
        (vec![("decoupled", "on")], "decoupled"),
        (vec![("l1_line", "64")], "l1_line"),
    ] {
        let mut c = config(&sets);
        c.set("expander", "dac").unwrap();
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains(key) && e.contains("DAC") && e.contains("set "),
            "{e}"
        );
    }
}

/// A predicate whose scalar does not fit in 32 bits: the unit compares
/// signed 32-bit values, the warp 64-bit ones. The harness checks every
/// mask and record against the warp's own values and stops with the
/// reason instead of running on wrong masks.
#[test]
fn a_record_or_mask_that_differs_from_the_warps_values_stops_the_run() {
    let k = Kernel::from_str(
        r#"
name = "wide"
grid = [2]
block = [64]
body = """
let i = ctaid.x * 64 + tid.x
if i < 3000000000 {
  compute 1
}
store A[i]
"""
[arrays.A]
elem = 4
len = 128
"#,
        "wide.toml",
        &[],
        1,
    )
    .unwrap();
    let mut c = config(&[]);
    c.set("expander", "dac").unwrap();
    match Harness::new(&k, &c).run() {
        Err(HarnessError::Unsupported(e)) => {
            assert!(e.contains("mask") && e.contains("beyond 32 bits"), "{e}")
        }
        Err(e) => panic!("expected the mask check, got {e}"),
        Ok(_) => panic!("a wrong mask went unnoticed"),
    }
}

/// `warpgen run --dac` prints DAC's figures and writes them to the JSON.
#[test]
fn the_command_line_runs_dac_and_reports_it() {
    use gen::run::{run_command, RunArgs};
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let mut a = RunArgs::new(root().join("kernels").join("dac_example.toml"));
    a.dac = true;
    a.quiet = true;
    a.json = Some(json.clone());
    run_command(&a).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["run"]["expander"], "dac");
    assert_eq!(v["dac"]["decoupled"], true);
    assert_eq!(v["dac"]["removed"], 4608);
    assert!(v["dac"]["dac"]["records_pushed"].as_u64().unwrap() > 0);
}
