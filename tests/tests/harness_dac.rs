//! DAC in the SM harness (issue items 5 and 6): the affine warp runs the
//! kernel's affine stream once per batch of CTAs, `dac_expander`'s golden
//! model expands its tuples, the non-affine warps dequeue records and
//! masks (each checked against what the warp computes) and skip the
//! removed instructions; DATA tuples' early requests prefetch and lock
//! lines. And the paper's claims as far as the harness can show them.

mod common;
use common::{config, earlier_sizes, kernel, root, run, LPS_128, MM_160};

use harness::{DacMetrics, Harness, HarnessError, Kernel, Metrics};

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
    let k = kernel("matrix_mul.toml", MM_160);
    let base = run(&k, &[]);
    let m = with_dac(&k, &[]);
    eprintln!("{}", m.table());
    let d = dac(&m);
    assert!(d.decoupled, "{}", d.reason);
    // The tile offsets a, b (per iteration) and c are removed; the loads
    // of A and B and the store of C are decoupled.
    assert!(d.removed > 0 && d.tuples_data > 0 && d.tuples_addr > 0);
    assert!(m.warp_instructions < base.warp_instructions);
    // Fewer stall cycles and fewer cycles on the Fermi preset (idle
    // cycles fall by 31 % since issue 29's setup cycle: 4,922 of 7,101;
    // by a third before it).
    assert!(
        m.sched.idle_cycles * 4 < base.sched.idle_cycles * 3,
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
    // Two ways: one lockable line per set. Early requests to a set full
    // of locks go unlocked, and the run completes.
    let m = with_dac(&k, &[("l1_ways", "2")]);
    let d = dac(&m);
    assert!(d.unlocked_requests > 0 && d.max_locked_lines <= 64, "{d:?}");
    assert_eq!(m.ctas, base.ctas);
}

/// On the DAC paper's own machine (`--preset dac-gtx480`: all 15 SMs, the
/// L2 and DRAM), DAC removes a third of the DAC example's instructions and
/// runs every CTA: SMs whose last batch the other SMs' dealing cut short
/// still start their affine warp.
#[test]
fn dac_runs_on_every_sm_of_the_papers_machine() {
    let k = kernel("dac_example.toml", &[]);
    let c = harness::MachineConfig::preset("dac-gtx480").unwrap();
    let base = Harness::new(&k, &c).run().unwrap();
    let mut cd = c.clone();
    cd.set("expander", "dac").unwrap();
    let m = Harness::new(&k, &cd).run().unwrap();
    let d = dac(&m);
    assert_eq!(m.ctas, k.total_ctas());
    assert_eq!(m.per_sm.len(), 15);
    assert!(m.warp_instructions * 10 < base.warp_instructions * 7);
    assert!(d.batches >= 15, "{d:?}");
    // Every SM's records and masks were checked; the locks balanced.
    assert_eq!(d.masks, d.decoupled_branches);
    eprintln!(
        "dac-gtx480: cycles {} -> {}, idle {} -> {}",
        base.cycles, m.cycles, base.sched.idle_cycles, m.sched.idle_cycles
    );
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
        let m = with_dac(&kernel(name, earlier_sizes(name)), &[]);
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
    let k = kernel("lps.toml", LPS_128);
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
        (vec![("l1_ways", "1"), ("l1_bytes", "4096")], "l1_ways"),
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
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    // An array of one metrics object per kernel.
    assert_eq!(all.as_array().map(Vec::len), Some(1), "{all}");
    let v = &all[0];
    assert_eq!(v["run"]["expander"], "dac");
    assert_eq!(v["dac"]["decoupled"], true);
    assert_eq!(v["dac"]["removed"], 4608);
    assert!(v["dac"]["dac"]["records_pushed"].as_u64().unwrap() > 0);
}

/// Random kernels (and, beside them, non-blocking loads against blocking
/// ones; one machine has instruction latencies): DAC runs each to the end (every record and mask equal
/// to the warp's own values, every lock released, no deadlock) on machines
/// that force several batches, few MSHRs and 2-way sets (one lockable way
/// per set), and changes nothing but the instruction count and the
/// timing: the same memory instructions, line requests and stores.
mod random_kernels {
    use super::*;
    use proptest::prelude::*;

    /// An affine or scalar expression over the built-ins, `N` and `vars`.
    fn affine(vars: usize) -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("tid.x".to_string()),
            Just("tid.y".to_string()),
            Just("ctaid.x".to_string()),
            Just("ctaid.y".to_string()),
            Just("N".to_string()),
            (-40i64..200).prop_map(|k| k.to_string()),
            (0..vars.max(1)).prop_map(move |i| if vars == 0 {
                "tid.x".to_string()
            } else {
                format!("v{i}")
            }),
        ];
        leaf.prop_recursive(2, 6, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} - {b})")),
                (inner, -9i64..9).prop_map(|(a, k)| format!("({a} * {k})")),
            ]
        })
    }

    #[derive(Clone, Debug)]
    enum St {
        Let(String),
        NonAffineLet(String),
        Load(String),
        Store(String),
        Compute(u32),
        If(String, i64, Vec<St>),
        Loop(u32, Vec<St>),
        Barrier,
    }

    fn stmts(depth: u32) -> BoxedStrategy<Vec<St>> {
        let simple = prop_oneof![
            3 => affine(4).prop_map(St::Let),
            1 => affine(4).prop_map(St::NonAffineLet),
            3 => affine(4).prop_map(St::Load),
            2 => affine(4).prop_map(St::Store),
            1 => (1u32..4).prop_map(St::Compute),
        ];
        if depth == 0 {
            return prop::collection::vec(simple, 1..5).boxed();
        }
        let nested = prop_oneof![
            4 => simple,
            1 => (affine(4), -50i64..300, stmts(depth - 1))
                .prop_map(|(e, k, b)| St::If(e, k, b)),
            1 => (1u32..9, stmts(depth - 1)).prop_map(|(n, b)| St::Loop(n, b)),
            1 => Just(St::Barrier),
        ];
        prop::collection::vec(nested, 1..6).boxed()
    }

    /// The body: `v0..v3` declared first (affine), then the statements;
    /// barriers only outside `if`s (a barrier some threads skip hangs the
    /// baseline too).
    fn render(sts: &[St], out: &mut String, depth: usize, in_if: bool, loops: &mut u32) {
        let pad = "  ".repeat(depth);
        for s in sts {
            match s {
                St::Let(e) => out.push_str(&format!("{pad}v{} = {e}\n", e.len() % 4)),
                St::NonAffineLet(e) => {
                    out.push_str(&format!("{pad}v{} = {e} * tid.x\n", e.len() % 4))
                }
                St::Load(e) => out.push_str(&format!("{pad}load A[{e}]\n")),
                St::Store(e) => out.push_str(&format!("{pad}store B[{e}]\n")),
                // Some on the SFU (timed with `lat_*` / `ii_*` below).
                St::Compute(n) => out.push_str(&format!(
                    "{pad}compute {n}{}\n",
                    if n % 3 == 0 { " sfu" } else { "" }
                )),
                St::Barrier if !in_if => out.push_str(&format!("{pad}barrier\n")),
                St::Barrier => {}
                St::If(e, k, b) => {
                    out.push_str(&format!("{pad}if {e} < {k} {{\n"));
                    render(b, out, depth + 1, true, loops);
                    out.push_str(&format!("{pad}}}\n"));
                }
                St::Loop(n, b) => {
                    *loops += 1;
                    out.push_str(&format!("{pad}loop i{} {n} {{\n", *loops));
                    render(b, out, depth + 1, in_if, loops);
                    out.push_str(&format!("{pad}}}\n"));
                }
            }
        }
    }

    fn shape() -> impl Strategy<Value = (String, String)> {
        prop_oneof![
            (1u32..=256, 1u32..40).prop_map(|(b, g)| (format!("[{b}]"), format!("[{g}]"))),
            (
                prop::sample::select(vec![(8u32, 4u32), (16, 16), (32, 2), (4, 8)]),
                1u32..8,
                1u32..5
            )
                .prop_map(|((x, y), gx, gy)| (format!("[{x}, {y}]"), format!("[{gx}, {gy}]"))),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        fn dac_changes_only_instruction_counts_and_timing(
            sts in stmts(2),
            (block, grid) in shape(),
            machine in prop::sample::select(vec![
                vec![],
                vec![("max_warps", "16"), ("cta_slots", "3")],
                vec![("l1_ways", "2"), ("l1_bytes", "512"), ("mshr_entries", "4"), ("miss_queue", "2")],
                vec![("mem_model", "hier"), ("l2_partitions", "2"), ("dram_channels", "1")],
                vec![("sms", "all"), ("n_sm", "3"), ("cta_slots", "2")],
                vec![("loads", "scoreboard")],
                vec![("lat_alu", "4"), ("lat_sfu", "20"), ("ii_sfu", "8"), ("sched", "gto")],
            ]),
        ) {
            let mut body = String::from("let v0 = tid.x\nlet v1 = ctaid.x * 64\nlet v2 = tid.y\nlet v3 = N\n");
            let mut loops = 0;
            render(&sts, &mut body, 0, false, &mut loops);
            let text = format!(
                "name = \"random\"\ngrid = {grid}\nblock = {block}\nbody = \"\"\"\n{body}\"\"\"\n\
                 [params]\nN = 77\n[arrays.A]\nelem = 4\nlen = 4096\n[arrays.B]\nelem = 2\nlen = 4096\n"
            );
            let k = Kernel::from_str(&text, "random.toml", &[], 1).unwrap();
            let mut m: Vec<(&str, &str)> = machine.clone();
            m.push(("max_cycles", "20000000"));
            let base = run(&k, &m);
            // Non-blocking loads change only the timing too.
            let mut nb = m.clone();
            nb.push(("loads", "scoreboard"));
            let s = run(&k, &nb);
            prop_assert_eq!(s.warp_instructions, base.warp_instructions);
            prop_assert_eq!(s.mem_instructions, base.mem_instructions);
            prop_assert_eq!(s.l1.accesses, base.l1.accesses);
            prop_assert_eq!(s.l1.store_lines, base.l1.store_lines);
            let mut c = config(&m);
            c.set("expander", "dac").unwrap();
            let d = match Harness::new(&k, &c).run() {
                Ok(d) => d,
                // The unit's 32-bit values are not the harness's 64-bit
                // ones (a loop multiplying an index by 7 seven times):
                // the check stops the run, as it must.
                Err(HarnessError::Unsupported(e)) if e.contains("beyond 32 bits") => {
                    prop_assume!(false, "{}", e);
                    unreachable!()
                }
                Err(e) => panic!("{e}\n{text}"),
            };
            let x = d.dac.as_ref().unwrap();
            prop_assert_eq!(
                d.warp_instructions + x.removed,
                base.warp_instructions + x.affine_instructions,
                "{}", text
            );
            prop_assert_eq!(d.mem_instructions, base.mem_instructions);
            prop_assert_eq!(d.l1.accesses, base.l1.accesses);
            prop_assert_eq!(d.l1.store_lines, base.l1.store_lines);
            prop_assert_eq!(d.ctas, base.ctas);
            if x.decoupled {
                prop_assert_eq!(x.masks, x.decoupled_branches);
                prop_assert!(x.records >= x.decoupled_mem_instructions);
                // Every early request the unit saw taken was one the L1
                // took (the last may still wait when the kernel ends).
                prop_assert_eq!(x.early_requests, x.counts.get("mem_taken").unwrap());
                prop_assert!(x.counts.get("mem_requests").unwrap() - x.early_requests <= 1);
            }
        }
    }
}

/// Guarded decoupling (`sm_harness.md` revision 3): vectorAdd's loads and
/// store sit under `if i < N`; the condition is a guard, so they are
/// decoupled under each warp's mask. With N = 4010 on one SM (16 CTAs of
/// 8 warps), warp 125 keeps 10 lanes, warps 126 and 127 none: the unit
/// gives those two no record for any of the three accesses, and every
/// record the others get matches their lanes (the harness checks each).
#[test]
fn guarded_accesses_are_decoupled_under_each_warps_mask() {
    let k = kernel("vector_add.toml", &[("N", 4010)]);
    let base = run(&k, &[("n_sm", "1")]);
    let m = with_dac(&k, &[("n_sm", "1")]);
    let d = dac(&m);
    assert!(d.decoupled, "{}", d.reason);
    let warps = 16 * 8;
    assert_eq!(d.decoupled_branches, warps);
    assert_eq!(d.decoupled_mem_instructions, 3 * (warps - 2));
    assert_eq!(d.records, 3 * (warps - 2));
    let counts = &d.counts;
    assert_eq!(counts.get("guard_writes"), Some(warps));
    assert_eq!(counts.get("guard_skips"), Some(3 * 2));
    // One warp's mask is partial: its predicate takes the slow path.
    assert_eq!((d.pred_fast, d.pred_slow), (warps - 1, 1));
    // Every access's address arithmetic and the index let are gone from
    // the non-affine warps.
    assert_eq!(m.address_instructions, 0);
    assert!(m.warp_instructions * 10 < base.warp_instructions * 6);
    assert_eq!(m.l1.accesses, base.l1.accesses);
}
