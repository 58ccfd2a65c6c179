//! The harness is deterministic for a seed.

use std::path::PathBuf;

use harness::{Harness, Kernel, MachineConfig};

fn json(name: &str, seed: u64, sets: &[(&str, &str)]) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../kernels")
        .join(name);
    let k = Kernel::from_file(&p, &[], seed).unwrap();
    let mut c = MachineConfig::fermi();
    c.seed = seed;
    for (a, b) in sets {
        c.set(a, b).unwrap();
    }
    let m = Harness::new(&k, &c).run().unwrap();
    serde_json::to_string_pretty(&m).unwrap()
}

#[test]
fn same_seed_gives_identical_metrics_json() {
    for sets in [
        vec![],
        vec![("prefetcher", "caps"), ("sched", "pas")],
        vec![("l1", "ba"), ("sched", "gto")],
    ] {
        let a = json("bfs.toml", 7, &sets);
        let b = json("bfs.toml", 7, &sets);
        assert_eq!(a, b, "{sets:?}");
    }
}

#[test]
fn another_seed_gives_another_graph() {
    let a = json("bfs.toml", 7, &[]);
    let b = json("bfs.toml", 8, &[]);
    assert_ne!(a, b);
    // Kernels without synthetic data dependence do not care.
    let a = json("vector_add.toml", 7, &[]);
    let b = json("vector_add.toml", 8, &[]);
    assert_eq!(a.replace("\"seed\": 7", ""), b.replace("\"seed\": 8", ""));
}
