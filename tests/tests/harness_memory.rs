//! The memory below the L1 in the SM harness (the harness-realism issue,
//! item 1): the flat model of the first harness and the hierarchy of
//! interconnect, L2 partitions and DRAM channels (`harness::memsys`, whose
//! unit tests check the timing rule by rule).

mod common;
use common::{config, kernel, run, LPS_128};

use harness::{Kernel, MachineConfig};

fn one_load() -> Kernel {
    Kernel::from_str(
        r#"
name = "one-load"
grid = [1]
block = [32]
body = """
load A[tid.x]
"""
[arrays.A]
elem = 4
len = 32
"#,
        "one.toml",
        &[],
        1,
    )
    .unwrap()
}

#[test]
fn one_load_takes_the_unloaded_latency_of_each_model() {
    let k = one_load();
    // Flat: the fixed latency.
    let m = run(&k, &[]);
    assert!((400..410).contains(&m.cycles), "{}", m.cycles);
    // Hierarchy, defaults: 40 to the partition, a DRAM access to a closed
    // row (36), the burst (6), the controller (200), 40 back.
    let m = run(&k, &[("mem_model", "hier")]);
    let path = 40 + 36 + 6 + 200 + 40;
    assert!(m.cycles >= path && m.cycles < path + 10, "{}", m.cycles);
    let lo = &m.memory.lower;
    assert_eq!((lo.l2_reads, lo.l2_read_hits, lo.dram_reads), (1, 0, 1));
    assert_eq!(lo.dram_row_misses, 1);
    // A shorter controller latency shortens the run by as much.
    let m2 = run(&k, &[("mem_model", "hier"), ("dram_latency", "100")]);
    assert_eq!(m.cycles - m2.cycles, 100);
}

#[test]
fn the_hierarchy_reports_l2_and_dram_figures_on_a_paper_kernel() {
    let k = kernel("lps.toml", LPS_128);
    let flat = run(&k, &[]);
    let m = run(&k, &[("mem_model", "hier")]);
    eprintln!("{}", m.table());
    let lo = &m.memory.lower;
    // Every L1 read miss reached the L2 (a warp waits for its data), and
    // every store but the last few still under way when the last CTA
    // finished; the DRAM read every L2 read miss that did not merge.
    assert_eq!(lo.l2_reads, m.memory.reads);
    assert!(lo.l2_writes <= m.memory.writes && m.memory.writes - lo.l2_writes <= 8 + 16);
    assert_eq!(
        lo.dram_reads,
        lo.l2_reads - lo.l2_read_hits - lo.l2_read_merges
    );
    // FR-FCFS finds open rows: LPS walks rows of its planes.
    assert!(lo.dram_row_hits > 0 && lo.dram_row_conflicts > 0, "{lo:?}");
    let t = m.table();
    assert!(t.contains("L2 reads") && t.contains("DRAM accesses"), "{t}");
    // The flat model prints none of it and its figures are unchanged.
    assert!(!flat.table().contains("L2 reads"));
    assert_eq!(flat.memory.lower.l2_reads, 0);
}

#[test]
fn hierarchy_keys_are_checked_with_the_fix() {
    let mut c = config(&[("mem_model", "hier"), ("dram_channels", "5")]);
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("dram_channels") && e.contains("divide"), "{e}");
    c.set("dram_channels", "6").unwrap();
    c.validate().unwrap();
    c.set("l2_bytes", "1000").unwrap();
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("l2_bytes"), "{e}");
    let e = MachineConfig::fermi()
        .set("mem_model", "deep")
        .unwrap_err()
        .to_string();
    assert!(e.contains("flat or hier"), "{e}");
}
