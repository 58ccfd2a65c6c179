//! Accel-Sim trace replay: the parser reproduces the tracer's own
//! instruction totals, and traced memory instructions drive the harness
//! like kernel files do.

use std::path::{Path, PathBuf};

use sim_model::harness::trace::{read_kernel_trace, read_kernelslist, TraceOp};
use sim_model::harness::{Harness, Kernel, MachineConfig};

/// The Accel-Sim traces (`WARPGEN_TRACES`, default `/work/shared/traces`);
/// the tests are skipped when they are absent.
fn traces() -> PathBuf {
    std::env::var_os("WARPGEN_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/traces"))
}

/// `stats.csv`: (kernel file stem, #blocks, total_insts).
fn stats(dir: &Path) -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            (
                f[0].trim_end_matches(".trace").to_string(),
                f[5].parse().unwrap(),
                f[10].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn parser_reproduces_the_tracer_totals() {
    let root = traces();
    if !root.exists() {
        eprintln!("no traces at {}: skipped", root.display());
        return;
    }
    // (folder, warp instructions, memory instructions) from the README.
    for (dir, insts, mems) in [
        ("microgpusim/matrixmul-32-32-trace", 4416, 1440),
        ("microgpusim/vectoradd-100-32-trace", 344, 12),
        ("mgpusim/simple-trace-example", 26601, 4689),
    ] {
        let d = root.join(dir);
        let kernels = read_kernelslist(&d).unwrap();
        assert_eq!(kernels.len(), 1, "{dir}");
        let kt = read_kernel_trace(&kernels[0]).unwrap();
        assert_eq!(kt.instructions(), insts, "{dir}");
        assert_eq!(kt.mem_instructions(), mems, "{dir}");
        if d.join("stats.csv").exists() {
            let st = stats(&d);
            let stem = kernels[0]
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .to_string();
            let row = st.iter().find(|r| r.0 == stem).unwrap();
            assert_eq!(kt.instructions(), row.2, "{dir}: stats.csv total_insts");
            assert_eq!(kt.ctas.len() as u64, row.1, "{dir}: stats.csv #blocks");
        }
        // Every global access has one address per active thread.
        for (_, warps) in &kt.ctas {
            for i in warps.iter().flatten() {
                if i.op != TraceOp::Compute {
                    assert_eq!(i.addrs.len() as u32, i.mask.count_ones(), "{dir} {i:?}");
                }
            }
        }
    }
}

#[test]
fn traces_replay_on_the_harness() {
    let root = traces();
    if !root.exists() {
        return;
    }
    for dir in [
        "microgpusim/matrixmul-32-32-trace",
        "microgpusim/vectoradd-100-32-trace",
        "mgpusim/simple-trace-example",
    ] {
        let kt = read_kernel_trace(&read_kernelslist(&root.join(dir)).unwrap()[0]).unwrap();
        let k = Kernel::from_trace(&kt, 128);
        assert!(k.is_trace());
        let globals: u64 = kt
            .ctas
            .iter()
            .flat_map(|(_, w)| w.iter().flatten())
            .filter(|i| i.op != TraceOp::Compute)
            .count() as u64;
        for sets in [
            vec![("n_sm", "1")],
            vec![("n_sm", "1"), ("prefetcher", "caps"), ("sched", "pas")],
            vec![("n_sm", "1"), ("l1", "ba")],
        ] {
            let mut c = MachineConfig::fermi();
            c.set("max_warps", "64").unwrap();
            for (a, b) in &sets {
                c.set(a, b).unwrap();
            }
            let m = Harness::new(&k, &c)
                .run()
                .unwrap_or_else(|e| panic!("{dir}: {e}"));
            // Every traced instruction issues once; global ones reach the L1.
            assert_eq!(m.warp_instructions, kt.instructions(), "{dir} {sets:?}");
            assert_eq!(m.mem_instructions, globals, "{dir} {sets:?}");
            assert_eq!(m.ctas, kt.ctas.len() as u64);
            assert!(m.l1.accesses > 0 && m.memory.reads > 0);
            if let Some(p) = &m.prefetch {
                assert_eq!(p.counts.get("indirect_loads"), Some(0));
                assert!(p.counts.get("loads").unwrap() > 0);
            }
        }
    }
}
