//! Non-blocking loads with a per-warp scoreboard (the harness-realism
//! issue, item 3): `loads = scoreboard` lets a warp go on after a load and
//! wait at the first instruction that reads the value (`use`, `compute N
//! uses`, an expression, a store's value) or at its exit.

mod common;
use common::{earlier_sizes, kernel, run, same_work};

use harness::Kernel;

fn k(body: &str) -> Kernel {
    let text = format!(
        "name = \"sb\"\ngrid = [1]\nblock = [32]\nbody = \"\"\"\n{body}\n\"\"\"\n\
         [arrays.A]\nelem = 4\nlen = 4096\n[arrays.B]\nelem = 4\nlen = 4096\n"
    );
    Kernel::from_str(&text, "sb.toml", &[], 1).unwrap()
}

fn cycles(k: &Kernel, loads: &str) -> u64 {
    run(k, &[("loads", loads), ("n_sm", "1")]).cycles
}

#[test]
fn independent_work_overlaps_the_load() {
    // 400 cycles of memory and 200 of compute: in turn when blocking,
    // together when the value is used only after the compute.
    let kk = k("load A[tid.x] -> a\ncompute 200\nuse a");
    let (b, s) = (cycles(&kk, "blocking"), cycles(&kk, "scoreboard"));
    eprintln!("blocking {b}, scoreboard {s}");
    assert!(b >= 600 && (400..420).contains(&s), "{b} {s}");
    // Used at once: no difference.
    let kk = k("load A[tid.x] -> a\nuse a\ncompute 200");
    assert_eq!(cycles(&kk, "blocking"), cycles(&kk, "scoreboard"));
    let kk = k("let a = A[tid.x] + 1\ncompute 200");
    assert_eq!(cycles(&kk, "blocking"), cycles(&kk, "scoreboard"));
}

#[test]
fn independent_loads_are_in_flight_together() {
    let kk = k("load A[tid.x] -> a\nload B[tid.x] -> b\ncompute 4 uses a, b");
    let (b, s) = (cycles(&kk, "blocking"), cycles(&kk, "scoreboard"));
    assert!(b > 800 && s < 450, "{b} {s}");
}

#[test]
fn a_warp_exits_only_when_its_loads_are_back_and_stores_read_their_values() {
    // Nothing reads the value: the warp still waits at its exit.
    let kk = k("load A[tid.x]");
    assert!(cycles(&kk, "scoreboard") >= 400);
    // A store's value is a use.
    let kk = k("let v = A[tid.x]\ncompute 100\nstore B[tid.x] = v\ncompute 300");
    let s = cycles(&kk, "scoreboard");
    assert!((700..720).contains(&s), "{s}");
}

/// Every bundled kernel: the same instructions, memory instructions, line
/// requests and stores either way; only the timing differs.
#[test]
fn scoreboard_changes_only_timing_on_the_bundled_kernels() {
    for name in [
        "lps.toml",
        "matrix_mul.toml",
        "vector_add.toml",
        "conv_rows.toml",
        "bfs.toml",
        "reuse.toml",
        "dac_example.toml",
    ] {
        let kk = kernel(name, earlier_sizes(name));
        for extra in [vec![], vec![("prefetcher", "caps"), ("sched", "pas")]] {
            let mut a = extra.clone();
            a.push(("loads", "blocking"));
            let mut b = extra.clone();
            b.push(("loads", "scoreboard"));
            let (x, y) = (run(&kk, &a), run(&kk, &b));
            same_work(&x, &y, name);
        }
    }
}

/// DAC's decoupled loads hold their warp until the data is back (their
/// lines come with their records); the rest of the kernel is non-blocking.
#[test]
fn dac_runs_with_non_blocking_loads() {
    for name in ["dac_example.toml", "matrix_mul.toml", "vector_add.toml"] {
        let kk = kernel(name, earlier_sizes(name));
        let a = run(&kk, &[("expander", "dac")]);
        let b = run(&kk, &[("expander", "dac"), ("loads", "scoreboard")]);
        assert_eq!(a.warp_instructions, b.warp_instructions, "{name}");
        assert_eq!(a.l1.accesses, b.l1.accesses, "{name}");
        assert_eq!(a.dac.unwrap().records, b.dac.unwrap().records, "{name}");
    }
}
