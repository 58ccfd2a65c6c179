//! The BA thesis's reuse-distance profile in whole runs: every profiled
//! access is a demand access that did not merge into an MSHR, the per-load
//! split adds up to the totals, each load's PC is the one the kernel gives
//! it (kernel files, DAC's decoupled loads, traces), and a set's distance
//! never exceeds the fully associative one.

mod common;
use common::{kernel, run};

use harness::metrics::ReuseMetrics;
use harness::{Harness, Kernel, MachineConfig, Metrics};

/// The profile's own sums, and its link to the L1's counts.
fn consistent(m: &Metrics, what: &str) -> ReuseMetrics {
    let r = m.reuse.clone().expect("profile on by default");
    assert_eq!(r.profiled, r.rd0 + r.rd1 + r.rd2, "{what}");
    assert_eq!(r.profiled + r.pending_excluded, m.l1.accesses, "{what}");
    assert_eq!(r.pending_excluded, m.l1.pending_hits, "{what}");
    assert_eq!(r.intervals.iter().sum::<u64>(), r.profiled, "{what}");
    assert_eq!(r.set_intervals.iter().sum::<u64>(), r.profiled, "{what}");
    // First accesses are first accesses in both stacks.
    assert_eq!(r.intervals[6], r.rd2, "{what}");
    assert_eq!(r.set_intervals[6], r.rd2, "{what}");
    let sum = |f: &dyn Fn(&harness::metrics::ReusePc) -> u64| r.per_pc.iter().map(f).sum::<u64>();
    assert_eq!(sum(&|p| p.accesses), r.profiled, "{what}");
    assert_eq!(sum(&|p| p.rd0), r.rd0, "{what}");
    assert_eq!(sum(&|p| p.rd1), r.rd1, "{what}");
    assert_eq!(sum(&|p| p.rd2), r.rd2, "{what}");
    for k in 0..7 {
        assert_eq!(sum(&|p| p.intervals[k]), r.intervals[k], "{what} {k}");
        assert_eq!(
            sum(&|p| p.set_intervals[k]),
            r.set_intervals[k],
            "{what} {k}"
        );
        let t: u64 = r.timeline.intervals.iter().map(|w| w[k]).sum();
        assert_eq!(t, r.intervals[k], "{what}: timeline, interval {k}");
    }
    // Per access the set's distance is at most the fully associative one,
    // so its distribution is shifted left: at every bound at least as
    // many accesses below it.
    let (mut s, mut f) = (0, 0);
    for k in 0..7 {
        s += r.set_intervals[k];
        f += r.intervals[k];
        assert!(s >= f, "{what}: interval {k}: set {s} < full {f}");
    }
    assert!(r.per_pc.windows(2).all(|w| w[0].pc < w[1].pc), "{what}");
    r
}

/// The load PCs of a kernel file.
fn load_pcs(k: &Kernel) -> Vec<u32> {
    k.mem_instrs()
        .iter()
        .filter(|m| !m.store)
        .map(|m| m.pc)
        .collect()
}

#[test]
fn each_load_is_profiled_under_its_own_pc() {
    for (name, sets) in [
        ("reuse.toml", vec![]),
        ("bfs.toml", vec![]),
        ("matrix_mul.toml", vec![("expander", "dac")]),
        ("lps.toml", vec![("prefetcher", "caps"), ("sched", "pas")]),
        ("reuse.toml", vec![("l1", "ba")]),
        ("reuse.toml", vec![("sms", "all"), ("mem_model", "hier")]),
    ] {
        let k = kernel(name, common::earlier_sizes(name));
        let m = run(&k, &sets);
        let what = format!("{name} {sets:?}");
        let r = consistent(&m, &what);
        let pcs = load_pcs(&k);
        for p in &r.per_pc {
            assert!(pcs.contains(&p.pc), "{what}: PC {:#x} is no load", p.pc);
            let info = k.mem_instrs().iter().find(|x| x.pc == p.pc).unwrap();
            assert_eq!(p.load, format!("{} (line {})", info.array, info.line));
        }
        if sets.contains(&("expander", "dac")) {
            assert!(m.dac.as_ref().unwrap().decoupled, "{what}");
        }
    }
}

#[test]
fn the_profile_follows_the_l1_geometry() {
    let k = kernel("reuse.toml", &[]);
    for (bytes, ways, bounds) in [
        ("16384", "4", [8, 16, 32, 64, 128]),
        ("16384", "8", [8, 16, 32, 64, 128]),
        ("49152", "8", [24, 48, 96, 192, 384]),
    ] {
        let m = run(&k, &[("l1_bytes", bytes), ("l1_ways", ways)]);
        let r = consistent(&m, bytes);
        assert_eq!(r.bounds, bounds);
        assert_eq!(r.capacity, r.sets * r.ways);
        assert_eq!(r.ways.to_string(), ways);
    }
    // Off: no profile.
    assert!(run(&k, &[("reuse_analysis", "false")]).reuse.is_none());
}

#[test]
fn a_trace_is_profiled_per_traced_pc() {
    let root = std::path::PathBuf::from(
        std::env::var("WARPGEN_TRACES").unwrap_or_else(|_| "/work/shared/traces".into()),
    );
    let dir = root.join("microgpusim").join("vectoradd-100-32-trace");
    if !dir.exists() {
        eprintln!("no trace at {}: skipped", dir.display());
        return;
    }
    let mut cfg = MachineConfig::fermi();
    cfg.set("n_sm", "1").unwrap();
    let ks = gen::run::load_kernels(&dir, &[], 1, cfg.l1_line).unwrap();
    for k in &ks {
        let m = Harness::new(k, &cfg).run().unwrap();
        let r = consistent(&m, &k.name);
        assert!(!r.per_pc.is_empty());
        // A trace's loads have no kernel-file name.
        assert!(r.per_pc.iter().all(|p| p.load.is_empty()));
        // vectorAdd's two loads, LDG.E at 0x98 and 0xb0 in the trace.
        let pcs: Vec<u32> = r.per_pc.iter().map(|p| p.pc).collect();
        assert_eq!(pcs, [0x98, 0xb0], "{}", k.name);
    }
}
