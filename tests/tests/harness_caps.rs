//! CAPS in the SM harness: the prefetcher sees the coalesced load stream
//! with the indirect hint from the classification, its prefetches enter the
//! L1 below demand priority, and PAS / eager wake-up schedule around it.

mod common;
use common::{config, counter, kernel, run, LPS_128, MM_160};

use std::cell::RefCell;
use std::rc::Rc;

use golden::check::{Probe, ProbeError};
use harness::{unit_params, Harness};
use ports::caps::{CapsIn, CapsOut, CapsParams, CapsPrefetcher};
use ports::UnitSpec;

/// A 48 KB L1 (64 sets x 6 ways: Fermi's large-L1 geometry), shared memory
/// left at 48 KB so that the CTAs per SM do not change: an L1 that holds a
/// few iterations of every resident CTA.
const L1_48K: [(&str, &str); 2] = [("l1_bytes", "49152"), ("l1_ways", "6")];

fn caps_pas(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut v = vec![("prefetcher", "caps"), ("sched", "pas")];
    v.extend_from_slice(extra);
    v
}

/// PAS with revision 2's marker, kept for the leading warp's life: the
/// tests of CAPS's predictions below were written with the leading warp
/// always ahead of its CTA (`pas_lifetime_marker`); revision 3's rule lets
/// the trailing warps catch up after the leading warp's first pass, which
/// `pas_marker_clears_after_the_first_pass` measures.
const LIFETIME_MARKER: (&str, &str) = ("pas_lifetime_marker", "true");

#[test]
fn caps_accuracy_is_high_on_matrix_mul() {
    let k = kernel("matrix_mul.toml", MM_160);
    let m = run(&k, &caps_pas(&[L1_48K[0], L1_48K[1], LIFETIME_MARKER]));
    let p = m.prefetch.as_ref().unwrap();
    eprintln!("{}", m.table());
    assert!(p.issued >= 100, "CAPS issued only {} prefetches", p.issued);
    assert!(
        p.accuracy > 0.9,
        "matrixMul CAPS accuracy {:.3}",
        p.accuracy
    );
    assert!(p.useful > 0 && p.late > 0);
    // The stride was learnt and the PerCTA bases were verified, with few
    // mispredictions relative to the loads presented.
    assert!(counter(p, "trainings") >= 2);
    eprintln!("{:?}", p.counts);
    assert!(counter(p, "mispredictions") * 4 < counter(p, "loads"));
}

/// The first spec's rule 2 (`LOOP_JOBS = 0`: the leading warp's next
/// iteration enqueues no job B), which the LPS tests below were written for;
/// `loop_jobs_prefetch_every_iteration` measures the revision.
const FIRST_RULE2: (&str, &str) = ("caps.LOOP_JOBS", "0");

#[test]
fn caps_accuracy_is_high_on_lps() {
    // A long march through the k-planes: the steady state of the loop.
    let k = kernel("lps.toml", &[("NX", 128), ("NY", 128), ("NZ", 128)]);
    let m = run(
        &k,
        &caps_pas(&[L1_48K[0], L1_48K[1], FIRST_RULE2, LIFETIME_MARKER]),
    );
    let p = m.prefetch.as_ref().unwrap();
    eprintln!("{}", m.table());
    assert!(p.issued >= 100, "CAPS issued only {} prefetches", p.issued);
    assert!(p.accuracy > 0.9, "LPS CAPS accuracy {:.3}", p.accuracy);
}

/// With the 16 KB L1 fewer of CAPS's prefetches find their line present
/// (the k-march streams more lines per plane than the L1 holds), so more
/// are issued, and more are evicted before use: the accuracy loss is the
/// early evictions. Every early-evicted line is one no warp asked for by
/// the end of the run (`early_evicted_demanded` 0): rule 3's mispredicted
/// jobs A, a wrong address, not a prefetch that came too early.
///
/// Measured (issued, early evicted, accuracy; 16 KB against 48 KB): with
/// load to first prefetch 6 cycles 119, 61, 0.479 against 66, 1, 0.955;
/// with 7 cycles (issue 29's second address stage) 125, 74, 0.400 against
/// 88, 31, 0.625. One cycle moves which mispredicted lines the 48 KB L1
/// already holds; the test asserts what both timings show. (It asked for
/// five times the early evictions and read them as timing losses before
/// the 7-cycle timing; the metric's split shows they never were.)
#[test]
fn small_l1_evicts_prefetches_before_use() {
    let k = kernel("lps.toml", &[("NX", 128), ("NY", 128), ("NZ", 128)]);
    let small = run(&k, &caps_pas(&[FIRST_RULE2]));
    let big = run(&k, &caps_pas(&[L1_48K[0], L1_48K[1], FIRST_RULE2]));
    let (ps, pb) = (small.prefetch.unwrap(), big.prefetch.unwrap());
    assert!(ps.issued > pb.issued, "{ps:?} {pb:?}");
    assert!(
        ps.early_evicted > 2 * pb.early_evicted.max(1),
        "{ps:?} {pb:?}"
    );
    assert!(ps.accuracy < pb.accuracy);
    assert!(ps.accuracy + ps.early_evicted as f64 / ps.issued as f64 > 0.9);
    assert_eq!(
        (ps.early_evicted_demanded, pb.early_evicted_demanded),
        (0, 0),
        "{ps:?} {pb:?}"
    );
}

/// The spec revision `LOOP_JOBS = 1`: the leading warp's every loop
/// iteration enqueues job B, so LPS's k-plane load is prefetched for its
/// trailing warps in every iteration, not the first only (6 jobs B in the
/// whole run before). Measured: ten times the used prefetches; the accuracy
/// falls (early evictions and the plane-behind predictions of rule 3's jobs
/// A), which the closing note of the issue reports.
#[test]
fn loop_jobs_prefetch_every_iteration() {
    let k = kernel("lps.toml", &[("NX", 128), ("NY", 128), ("NZ", 128)]);
    let before = run(
        &k,
        &caps_pas(&[L1_48K[0], L1_48K[1], FIRST_RULE2, LIFETIME_MARKER]),
    );
    let after = run(&k, &caps_pas(&[L1_48K[0], L1_48K[1], LIFETIME_MARKER]));
    let (b, a) = (before.prefetch.unwrap(), after.prefetch.unwrap());
    assert_eq!(counter(&b, "loop_jobs"), 0);
    assert!(counter(&b, "jobs_b") < 10, "{:?}", b.counts);
    assert!(counter(&a, "loop_jobs") > 1000, "{:?}", a.counts);
    assert!(
        counter(&a, "jobs_b") > 100 * counter(&b, "jobs_b"),
        "{:?}",
        a.counts
    );
    let used = |p: &harness::metrics::PrefetchMetrics| p.useful + p.late;
    assert!(used(&a) > 5 * used(&b), "{} vs {}", used(&a), used(&b));
}

/// Records every load CAPS sees and every prefetch the L1 takes.
#[derive(Default)]
struct Log {
    loads: Vec<CapsIn>,
    taken: Vec<CapsOut>,
}

/// A probe on CAPS: rebuilds the port structs from the flattened values.
struct Observer(CapsParams, Rc<RefCell<Log>>);

impl Probe for Observer {
    fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
        let i = CapsPrefetcher::in_from_values(&self.0, inputs);
        let o = CapsPrefetcher::out_from_values(&self.0, golden);
        let mut l = self.1.borrow_mut();
        if i.ld_valid {
            l.loads.push(i);
        }
        if o.pf_valid && i.pf_ready {
            l.taken.push(o);
        }
        Ok(())
    }
}

#[test]
fn caps_issues_nothing_for_bfs_indirect_loads() {
    let k = kernel("bfs.toml", &[]);
    let indirect_pcs: Vec<u64> = k
        .mem_instrs()
        .iter()
        .filter(|m| !m.store && m.indirect)
        .map(|m| m.pc as u64)
        .collect();
    let direct_pcs: Vec<u64> = k
        .mem_instrs()
        .iter()
        .filter(|m| !m.store && !m.indirect)
        .map(|m| m.pc as u64)
        .collect();
    // The classification: edges and visited are read through loaded values.
    for m in k.mem_instrs() {
        let indirect_array = matches!(m.array.as_str(), "g_graph_edges" | "g_graph_visited");
        if indirect_array {
            assert!(m.indirect, "{m:?}");
        }
    }
    assert_eq!(indirect_pcs.len(), 2);

    let log = Rc::new(RefCell::new(Log::default()));
    let c = config(&caps_pas(&[]));
    let params = unit_params::<CapsPrefetcher>(&c, &k).unwrap();
    let m = Harness::new(&k, &c)
        .probe("caps_prefetcher", Box::new(Observer(params, log.clone())))
        .run()
        .unwrap();
    let log = log.borrow();
    // Every indirect load reaches CAPS with ld_indirect = 1, the others with 0.
    let mut n_ind = 0;
    for ld in &log.loads {
        assert_eq!(ld.ld_indirect, indirect_pcs.contains(&ld.ld_pc), "{ld:?}");
        assert!(indirect_pcs.contains(&ld.ld_pc) || direct_pcs.contains(&ld.ld_pc));
        n_ind += ld.ld_indirect as u64;
    }
    assert!(n_ind > 1000, "only {n_ind} indirect loads");
    let p = m.prefetch.as_ref().unwrap();
    assert_eq!(counter(p, "indirect_loads"), n_ind);
    // No prefetch goes to the arrays only reached through indirect loads.
    for name in ["g_graph_edges", "g_graph_visited", "g_updating_graph_mask"] {
        let a = k.array(name).unwrap();
        let end = a.base + a.len * a.elem as u64;
        let hits = log
            .taken
            .iter()
            .filter(|o| (a.base..end).contains(&o.pf_addr))
            .count();
        assert_eq!(hits, 0, "{name}: {hits} prefetches");
        let am = m.arrays.iter().find(|x| x.name == name).unwrap();
        assert_eq!(am.prefetches, 0);
    }
    // CAPS did work on the strided loads of the same kernel.
    assert!(counter(p, "trainings") > 0);

    // Without the hint the indirect loads are offered to CAPS as ordinary
    // loads (and rejected by its own checks or mispredicted).
    let m2 = run(&k, &caps_pas(&[("caps_hint", "false")]));
    assert_eq!(counter(&m2.prefetch.unwrap(), "indirect_loads"), 0);
}

#[test]
fn pas_gives_a_larger_prefetch_distance_than_two_level() {
    for (name, params) in [("lps.toml", LPS_128), ("matrix_mul.toml", MM_160)] {
        let k = kernel(name, params);
        let two = run(&k, &[("prefetcher", "caps"), ("sched", "two-level")]);
        let pas = run(&k, &[("prefetcher", "caps"), ("sched", "pas")]);
        let (dt, dp) = (
            two.prefetch.unwrap().avg_distance,
            pas.prefetch.unwrap().avg_distance,
        );
        eprintln!("{name}: two-level {dt:.1} cycles, PAS {dp:.1} cycles");
        // PAS pushes the leading warps to the front of the ready queue
        // (CAPS section V-A): they run ahead. On LPS the distance doubles;
        // matrixMul's barriers hold the leading warps back, and its
        // distance grows by a few percent.
        let factor = if name == "lps.toml" { 1.5 } else { 1.02 };
        assert!(dp > dt * factor, "{name}: PAS {dp:.1} vs two-level {dt:.1}");
    }
}

#[test]
fn eager_wakeup_promotes_target_warps() {
    let k = kernel("matrix_mul.toml", MM_160);
    let on = run(&k, &[("prefetcher", "caps"), ("sched", "two-level")]);
    let off = run(
        &k,
        &[
            ("prefetcher", "caps"),
            ("sched", "two-level"),
            ("eager_wakeup", "false"),
        ],
    );
    assert!(on.prefetch.unwrap().eager_wakeups > 0);
    assert_eq!(off.prefetch.unwrap().eager_wakeups, 0);
}

#[test]
fn prefetches_stay_below_demand_and_are_dropped_when_present() {
    let k = kernel("vector_add.toml", &[("N", 1 << 18)]);
    let m = run(&k, &caps_pas(&[]));
    let p = m.prefetch.unwrap();
    // vectorAdd: job B of each new CTA's leading warp covers the other warps,
    // which issue right behind it: prefetches merge or are late, never wrong.
    assert!(p.issued > 0);
    assert_eq!(p.accuracy, 1.0, "{p:?}");
    assert!(p.dropped_in_flight + p.dropped_present > 0);
    assert_eq!(
        p.offered,
        p.issued + p.dropped_in_flight + p.dropped_present,
        "every prefetch taken is issued or dropped"
    );
    assert_eq!(m.memory.prefetch_reads, p.issued);
}

#[test]
fn caps_counters_keep_their_table_line_and_json_shape() {
    let k = kernel("matrix_mul.toml", MM_160);
    let m = run(&k, &caps_pas(&[]));
    let p = m.prefetch.as_ref().unwrap();
    let line = format!(
        "{} loads ({} indirect), jobs A {} B {} dropped {}, {} mispredictions; loop jobs B {}, \
         counter decays {}",
        counter(p, "loads"),
        counter(p, "indirect_loads"),
        counter(p, "jobs_a"),
        counter(p, "jobs_b"),
        counter(p, "jobs_dropped"),
        counter(p, "mispredictions"),
        counter(p, "loop_jobs"),
        counter(p, "decays")
    );
    let table = m.table();
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("  CAPS ") && l.ends_with(&format!("  {line}"))),
        "{table}"
    );
    // JSON: `prefetch.caps` holds the counters, in the model's order.
    let v = serde_json::to_value(&m).unwrap();
    let caps = v["prefetch"]["caps"].as_object().unwrap();
    let names: Vec<&str> = caps.keys().map(|s| s.as_str()).collect();
    let mut want = vec![
        "loads",
        "indirect_loads",
        "jobs_a",
        "jobs_b",
        "jobs_dropped",
        "prefetches",
        "mispredictions",
        "trainings",
        "invalidations",
        "loop_jobs",
        "decays",
    ];
    want.sort();
    let mut got = names.clone();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(caps["trainings"].as_u64(), Some(counter(p, "trainings")));
    // Without a prefetcher there is no prefetch section.
    assert!(run(&k, &[]).prefetch.is_none());
}

/// The harness feeds CAPS, per coalesced request, the lowest byte address
/// the warp touches in it (`sm_harness.md`, revision 2), so a stride below
/// a line is learnt: warps 32 bytes apart (1-byte elements) train a
/// 32-byte stride and every verification holds. With line addresses four
/// consecutive warps would share one address and the stride would not
/// divide evenly.
#[test]
fn caps_learns_sub_line_strides_from_byte_addresses() {
    let k = harness::Kernel::from_str(
        r#"
name = "bytes"
grid = [8]
block = [256]
body = """
loop i 4 {
  load M[i * 2048 + ctaid.x * 256 + tid.x]
}
"""
[arrays.M]
elem = 1
len = 8192
"#,
        "bytes.toml",
        &[],
        1,
    )
    .unwrap();
    // All eight CTAs on the modelled SM.
    let m = run(&k, &caps_pas(&[("n_sm", "1")]));
    let p = m.prefetch.unwrap();
    eprintln!("{:?}", p.counts);
    assert!(counter(&p, "trainings") > 0, "{:?}", p.counts);
    assert_eq!(counter(&p, "mispredictions"), 0, "{:?}", p.counts);
    assert!(p.issued + p.dropped_present + p.dropped_in_flight > 0);
}

/// Coverage and accuracy as each paper defines them, printed under a name
/// that says whose: CAPS section VI-C's coverage counts every prefetch
/// request the L1 took (dropped ones too) over demand requests; Snake's
/// counts the used ones.
#[test]
fn coverage_and_accuracy_are_named_by_their_papers() {
    let k = kernel("lps.toml", LPS_128);
    let m = run(&k, &caps_pas(&[]));
    let p = m.prefetch.as_ref().unwrap();
    let demand = m.l1.accesses as f64;
    assert!((p.caps_coverage - p.offered as f64 / demand).abs() < 1e-12);
    assert!(p.offered >= p.issued + p.dropped_present + p.dropped_in_flight);
    assert!((p.coverage - (p.useful + p.late) as f64 / demand).abs() < 1e-12);
    assert!((p.accuracy - (p.useful + p.late) as f64 / p.issued as f64).abs() < 1e-12);
    let t = m.table();
    for name in [
        "coverage, CAPS VI-C (prefetches / demand)",
        "coverage, Snake VI (used / demand)",
        "accuracy, CAPS VI-C (used / issued)",
        "accuracy, Snake VI (timely / demand)",
    ] {
        assert!(t.contains(name), "{name}\n{t}");
    }
}

/// Issue 27, item 5: an early-evicted prefetch is split into one a demand
/// asked for later (timing) and one never demanded (address), and the two
/// add up; the L1 miss rate is printed both ways.
#[test]
fn early_evictions_split_into_timing_and_address() {
    let k = kernel("conv_cols.toml", &[]);
    let m = run(&k, &caps_pas(&[]));
    let p = m.prefetch.as_ref().unwrap();
    assert!(p.early_evicted > 0, "{p:?}");
    assert_eq!(
        p.early_evicted,
        p.early_evicted_demanded + p.early_evicted_never
    );
    assert!(
        p.early_evicted_demanded > 0 && p.early_evicted_never > 0,
        "{p:?}"
    );
    let t = m.table();
    assert!(t.contains("demanded later: timing") && t.contains("never demanded: address"));
    // Without bypasses both miss rates agree.
    assert_eq!(m.l1.bypasses, 0);
    assert_eq!(m.l1.miss_rate, m.l1.miss_rate_no_bypass);
    assert!(t.contains("miss rate, bypasses left out (GPGPU-Sim)"));
}

/// Issue 27, item 4 (`sm_harness.md` revision 3): PAS gives leading warps
/// priority "until they compute the base address" (CAPS §V-A). With the
/// marker kept for the warp's life LPS ran at 0.70 of the two-level
/// scheduler under CAPS + PAS; with the marker cleared after the leading
/// warp's first pass it runs within a few percent of it (the CAPS paper's
/// machine and LPS's own sizes). Measured with free address arithmetic
/// (the harness of issue 27): two-level 77,202 cycles, lifetime marker
/// 106,208 (0.73), first pass 77,269. With address arithmetic charged
/// (issue 28) the leading warps' address instructions spread their loads
/// and the lifetime marker costs little (83,468 / 85,689 / 82,187: 0.97
/// and 1.02); the first-pass rule is still the faster of the two.
#[test]
fn pas_marker_clears_after_the_first_pass() {
    let k = kernel("lps.toml", &[]);
    let gtx = |addresses: bool, sets: &[(&str, &str)]| {
        let mut c = harness::MachineConfig::preset("caps-gtx480").unwrap();
        c.set(
            "address_arithmetic",
            if addresses { "true" } else { "false" },
        )
        .unwrap();
        for (key, v) in sets {
            c.set(key, v).unwrap();
        }
        Harness::new(&k, &c).run().unwrap().cycles as f64
    };
    let life_charged = gtx(true, &caps_pas(&[LIFETIME_MARKER]));
    let first_charged = gtx(true, &caps_pas(&[]));
    assert!(
        first_charged < life_charged,
        "{first_charged} {life_charged}"
    );
    let base = gtx(false, &[("sched", "two-level")]);
    let life = gtx(false, &caps_pas(&[LIFETIME_MARKER]));
    let first_pass = gtx(false, &caps_pas(&[]));
    eprintln!("two-level {base}, CAPS + PAS lifetime {life}, first pass {first_pass}");
    assert!(
        base / life < 0.8,
        "the lifetime marker slows LPS: {}",
        base / life
    );
    assert!(base / first_pass > 0.95, "{}", base / first_pass);
}
