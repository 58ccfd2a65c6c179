//! Texture loads (`load A[i] -> v texture`, `sm_harness.md` revision 3,
//! "Texture loads take the L1"): counted in the texture cache's metrics,
//! never in the L1's, its tag-array units' or the prefetcher's; a miss
//! then a hit; the `tex_*` keys' errors; kmeans_point's texture traffic
//! off the L1; the parser's errors for `texture` on a store.

mod common;
use common::{config, counter, kernel, load_ok, run};

use harness::{Harness, Kernel, MachineConfig};

/// One pass over A (N = 4096 floats: 128 lines), read as a texture or a
/// global load, then a store to B.
fn stream(texture: bool) -> String {
    let mark = if texture { " texture" } else { "" };
    format!(
        r#"name = "tex"
grid = ["N / 256"]
block = [256]
body = """
let i = ctaid.x * 256 + tid.x
load A[i] -> v{mark}
store B[i] = v
"""

[params]
N = 4096

[arrays.A]
elem = 4
len = "N"

[arrays.B]
elem = 4
len = "N"
"#
    )
}

#[test]
fn texture_loads_are_counted_in_the_texture_cache_only() {
    let (_d, tex) = load_ok(&stream(true));
    let (_e, glob) = load_ok(&stream(false));
    for l1 in ["lru", "ba", "bypass"] {
        let t = run(&tex, &[("l1", l1)]);
        let g = run(&glob, &[("l1", l1)]);
        // 16 CTAs of 8 warps, a line per warp load; one SM gets CTAs 0
        // and 15 (15 SMs): 16 lines.
        assert_eq!(t.texture.accesses, g.l1.accesses, "{l1}");
        assert!(t.texture.accesses > 0, "{l1}");
        assert_eq!(t.texture.misses, t.texture.accesses, "{l1}: streamed");
        assert_eq!(t.l1.accesses, 0, "{l1}");
        assert_eq!(t.l1.hits + t.l1.misses + t.l1.bypasses, 0, "{l1}");
        assert_eq!(g.texture.accesses, 0, "{l1}");
        // The stores still go through the L1's port.
        assert_eq!(t.l1.store_lines, g.l1.store_lines, "{l1}");
    }
    // The prefetcher is not shown texture loads.
    let t = run(&tex, &[("prefetcher", "caps")]);
    let g = run(&glob, &[("prefetcher", "caps")]);
    assert!(counter(g.prefetch.as_ref().unwrap(), "loads") > 0);
    assert_eq!(counter(t.prefetch.as_ref().unwrap(), "loads"), 0);
    // The table and the JSON carry the texture section.
    assert!(t.table().contains("texture accesses"), "{}", t.table());
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(
        json["texture"]["accesses"].as_u64(),
        Some(t.texture.accesses)
    );
}

/// One warp reads one line twice through the texture cache.
const TWICE: &str = r#"name = "tex2"
grid = [1]
block = [32]
body = """
load A[tid.x] -> a texture
use a
load A[tid.x] -> b texture
use b
"""

[arrays.A]
elem = 4
len = 32
"#;

#[test]
fn a_texture_miss_then_a_hit_after_tex_latency() {
    let (_d, k) = load_ok(TWICE);
    let fast = run(&k, &[("tex_latency", "1")]);
    let slow = run(&k, &[("tex_latency", "51")]);
    for m in [&fast, &slow] {
        assert_eq!(m.texture.accesses, 2);
        assert_eq!(m.texture.misses, 1);
        assert_eq!(m.texture.hits, 1);
        assert!((m.texture.miss_rate - 0.5).abs() < 1e-9);
        assert_eq!(m.l1.accesses, 0);
        assert_eq!(m.memory.reads, 1, "one miss to the memory below");
    }
    // The hit's data comes tex_latency cycles after the access.
    assert_eq!(slow.cycles - fast.cycles, 50);
    // The miss waits for the memory (400 cycles on the Fermi preset).
    assert!(fast.cycles > 400, "{}", fast.cycles);
    // With a one-line cache of one way the second read still hits.
    let tiny = run(&k, &[("tex_size", "128"), ("tex_ways", "1")]);
    assert_eq!(tiny.texture.hits, 1);
}

#[test]
fn texture_keys_name_what_would_be_accepted() {
    let bad = |k: &str, v: &str| {
        let mut c = MachineConfig::fermi();
        c.set(k, v).unwrap();
        c.validate().unwrap_err()
    };
    let e = bad("tex_line", "64");
    assert_eq!(e.key, "tex_line");
    assert!(e.reason.contains("must equal l1_line = 128"), "{e}");
    let e = bad("tex_size", "1000");
    assert_eq!(e.key, "tex_size");
    assert!(
        e.reason.contains("multiple of tex_line * tex_ways = 3072"),
        "{e}"
    );
    let e = bad("tex_ways", "0");
    assert_eq!(e.key, "tex_ways");
    assert!(e.reason.contains("allowed 1..=256"), "{e}");
    let e = bad("tex_latency", "0");
    assert_eq!(e.key, "tex_latency");
    let mut c = MachineConfig::fermi();
    assert!(c.set("tex_size", "x").is_err());
    // The defaults: GPGPU-Sim's GTX480 texture cache.
    let c = MachineConfig::fermi();
    assert_eq!((c.tex_size, c.tex_line, c.tex_ways), (12288, 128, 24));
    assert_eq!(c.tex_sets(), 4);
    c.validate().unwrap();
    for p in [
        "ba-thesis",
        "caps-gtx480",
        "dac-gtx480",
        "snake-v100",
        "catt-titanv",
    ] {
        let c = MachineConfig::preset(p).unwrap_or_else(|| panic!("{p}"));
        c.validate().unwrap();
        assert!(c.tex_size > 0, "{p}");
    }
}

#[test]
fn kmeans_point_texture_traffic_is_off_the_l1() {
    let params = [("NPOINTS", 2048), ("BLOCKS_PER_DIM", 3)];
    let marked = kernel("kmeans_point.toml", &params);
    assert!(marked.mem_instrs().iter().any(|m| m.texture));
    // The file with its `texture` marks removed: the loads take the L1.
    let text = std::fs::read_to_string(common::kernels_dir().join("kmeans_point.toml")).unwrap();
    assert!(text.contains("-> f texture"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kmeans_point.toml");
    std::fs::write(&path, text.replace("-> f texture", "-> f")).unwrap();
    let ps: Vec<(String, i64)> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let unmarked = Kernel::from_file(&path, &ps, 1).unwrap();
    let sets = [("l1", "bypass"), ("n_sm", "1")];
    let before = run(&unmarked, &sets);
    let after = run(&marked, &sets);
    assert!(before.l1.accesses > 0);
    assert_eq!(before.texture.accesses, 0);
    assert_eq!(after.l1.accesses, 0, "only the membership stores remain");
    assert_eq!(after.texture.accesses, before.l1.accesses);
    assert_eq!(after.l1.bypasses, 0);
    assert_eq!(after.warp_instructions, before.warp_instructions);
    // invert_mapping reads global memory: nothing marked.
    let inv = kernel("kmeans_invert.toml", &[]);
    assert!(inv.mem_instrs().iter().all(|m| !m.texture));
}

fn load_err(body: &str) -> harness::KernelError {
    let text = stream(false).replace("load A[i] -> v\nstore B[i] = v\n", body);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad_kernel.toml");
    std::fs::write(&path, text).unwrap();
    Kernel::from_file(&path, &[], 1).unwrap_err()
}

#[test]
fn texture_on_a_store_names_file_line_and_field() {
    let e = load_err("load A[i] -> v\nstore B[i] = v texture\n");
    assert_eq!(e.line, Some(7), "{e}");
    assert_eq!(e.field, "body");
    assert!(e.msg.contains("`texture` on a store to `B`"), "{e}");
    assert!(
        e.to_string().contains("bad_kernel.toml:7: field `body`"),
        "{e}"
    );
    // A store to an array a texture load reads, either order.
    let e = load_err("load A[i] -> v texture\nstore A[i] = v\n");
    assert_eq!(e.line, Some(7), "{e}");
    assert!(
        e.msg
            .contains("a store to `A`, which a `texture` load reads"),
        "{e}"
    );
    let e = load_err("store A[i]\nload A[i] -> v texture\n");
    assert_eq!(e.line, Some(7), "{e}");
    assert!(
        e.msg
            .contains("a `texture` load of `A`, which a store writes"),
        "{e}"
    );
    // Unmarked loads and stores of other arrays are fine.
    let (_d, k) = load_ok(&stream(true));
    assert!(k.mem_instrs().iter().any(|m| m.texture && m.array == "A"));
    let _ = config(&[]);
    let _ = Harness::new(&k, &config(&[])).run().unwrap();
}
