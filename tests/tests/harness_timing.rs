//! Instruction timing by class (the harness-realism issue, item 3):
//! `lat_*` is the cycles from an instruction's issue until one reading its
//! result may issue (a per-warp register scoreboard), `ii_*` the cycles the
//! SM's SFU / fp64 / tensor pipeline is busy per warp instruction. Traces
//! take the class from the opcode and the dependences from the traced
//! registers, and run with non-blocking loads under `loads = scoreboard`.

mod common;
use common::{earlier_sizes, kernel, run, same_work};

use std::path::PathBuf;

use harness::trace::{read_kernel_trace, trace_reg, TRACE_REGS};
use harness::{Harness, InstrClass, Kernel, MachineConfig};

/// A one-warp kernel with `body`.
fn k(body: &str, warps: u32) -> Kernel {
    let text = format!(
        "name = \"t\"\ngrid = [1]\nblock = [{}]\nbody = \"\"\"\n{body}\n\"\"\"\n\
         [arrays.A]\nelem = 4\nlen = 4096\n",
        32 * warps
    );
    Kernel::from_str(&text, "t.toml", &[], 1).unwrap()
}

fn cycles(k: &Kernel, sets: &[(&str, &str)]) -> u64 {
    let mut s = vec![("n_sm", "1")];
    s.extend_from_slice(sets);
    run(k, &s).cycles
}

#[test]
fn a_dependent_chain_waits_the_latency_and_independent_work_does_not() {
    // Three lets, each reading the previous one: two waits of lat_alu - 1.
    let chain = k("let a = tid.x\nlet b = a + 1\nlet c = b + 1", 1);
    // Three lets reading only the built-ins: no wait.
    let flat = k("let a = tid.x\nlet b = tid.x + 1\nlet c = tid.x + 2", 1);
    let base_chain = cycles(&chain, &[]);
    let base_flat = cycles(&flat, &[]);
    assert_eq!(base_chain, base_flat, "with latency 1 nothing waits");
    let lat = [("lat_alu", "10")];
    assert_eq!(cycles(&chain, &lat), base_chain + 2 * 9);
    assert_eq!(cycles(&flat, &lat), base_flat);
    // A load's address arithmetic waits for the let computing its index,
    // and the load for the address (two waits); with free addresses
    // (revision 2) the load waits for the let.
    let addr = k("let i = tid.x * 2\nload A[i]", 1);
    assert_eq!(cycles(&addr, &lat), cycles(&addr, &[]) + 2 * 9);
    let free = [("address_arithmetic", "false")];
    let free_lat = [("lat_alu", "10"), ("address_arithmetic", "false")];
    assert_eq!(cycles(&addr, &free_lat), cycles(&addr, &free) + 9);
    // An `if` waits for its condition.
    let cond = k("let i = tid.x\nif i < 4 {\n  compute 1\n}", 1);
    assert_eq!(cycles(&cond, &lat), cycles(&cond, &[]) + 9);
}

#[test]
fn other_warps_hide_the_latency() {
    // One warp: each dependent let waits; eight warps interleave.
    let body = "let a = tid.x\nlet b = a + 1\nlet c = b + 1\nlet d = c + 1";
    let lat = [("lat_alu", "8"), ("sched", "lrr")];
    let one = cycles(&k(body, 1), &lat) - cycles(&k(body, 1), &[("sched", "lrr")]);
    let eight = cycles(&k(body, 8), &lat) - cycles(&k(body, 8), &[("sched", "lrr")]);
    assert_eq!(one, 3 * 7);
    assert!(eight < one / 3, "one warp +{one}, eight warps +{eight}");
}

#[test]
fn the_sfu_pipeline_limits_its_instructions() {
    // Four warps of 8 SFU instructions with an initiation interval of 8:
    // 32 instructions one per 8 cycles; alu ones issue every cycle.
    let sfu = k("compute 8 sfu", 4);
    let alu = k("compute 8", 4);
    let ii = [("ii_sfu", "8")];
    let (s, a) = (cycles(&sfu, &ii), cycles(&alu, &ii));
    assert_eq!(a, cycles(&alu, &[]));
    assert!(s >= a + 31 * 7, "sfu {s}, alu {a}");
    assert!(s <= a + 31 * 8, "sfu {s}, alu {a}");
    let m = run(&sfu, &[("n_sm", "1"), ("ii_sfu", "8")]);
    assert!(m.sched.operand_wait_cycles >= 31 * 7, "{:?}", m.sched);
}

#[test]
fn compute_classes_parse_and_unknown_words_are_errors() {
    for c in InstrClass::NAMES {
        k(&format!("compute 2 {c}"), 1);
    }
    let text = "name = \"t\"\ngrid = [1]\nblock = [32]\nbody = \"compute 2 sfx\"\n";
    let e = Kernel::from_str(text, "t.toml", &[], 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("t.toml"), "{e}");
}

/// Bundled kernels on the CAPS paper's latencies: the same instructions,
/// memory instructions, line requests and stores as with every latency 1;
/// only the timing differs.
#[test]
fn latencies_change_only_timing_on_the_bundled_kernels() {
    let lat = [
        ("lat_alu", "4"),
        ("lat_sfu", "39"),
        ("lat_dp", "8"),
        ("lat_smem", "26"),
        ("ii_dp", "8"),
    ];
    for name in [
        "lps.toml",
        "matrix_mul.toml",
        "conv_rows.toml",
        "bfs.toml",
        "dac_example.toml",
    ] {
        let kk = kernel(name, earlier_sizes(name));
        for loads in ["blocking", "scoreboard"] {
            let mut a = vec![("loads", loads)];
            let x = run(&kk, &a);
            a.extend_from_slice(&lat);
            let y = run(&kk, &a);
            same_work(&x, &y, name);
            // The timing does change (not always for the slower: another
            // interleaving of the warps changes what the L1 holds).
            eprintln!("{name} {loads}: {} -> {} cycles", x.cycles, y.cycles);
            assert_ne!(y.cycles, x.cycles, "{name} {loads}");
        }
    }
}

#[test]
fn traced_registers_are_numbered_by_file() {
    assert_eq!(trace_reg("R0"), Some(0));
    assert_eq!(trace_reg("R255"), Some(255));
    assert_eq!(trace_reg("P3"), Some(259));
    assert_eq!(trace_reg("UR4"), Some(268));
    assert_eq!(trace_reg("UP0"), Some(328));
    assert_eq!(trace_reg("B15"), Some(351));
    assert_eq!(TRACE_REGS, 352);
    for none in [
        "RZ", "URZ", "PT", "UPT", "SR_TID.X", "R256", "P8", "R", "X1", "",
    ] {
        assert_eq!(trace_reg(none), None, "{none}");
    }
    assert_eq!(InstrClass::of_sass("MUFU.RSQ"), InstrClass::Sfu);
    assert_eq!(InstrClass::of_sass("DFMA"), InstrClass::Dp);
    assert_eq!(InstrClass::of_sass("HMMA.884.F32.F32"), InstrClass::Tensor);
    assert_eq!(InstrClass::of_sass("LDS.U.128"), InstrClass::Smem);
    assert_eq!(InstrClass::of_sass("FFMA"), InstrClass::Alu);
}

/// The Accel-Sim traces (`WARPGEN_TRACES`, default `/work/shared/traces`).
fn traces() -> PathBuf {
    std::env::var_os("WARPGEN_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/traces"))
}

#[test]
fn traces_run_with_non_blocking_loads_and_latencies_on_all_sms() {
    let dir = traces().join("microgpusim/matrixmul-32-32-trace");
    if !dir.exists() {
        eprintln!("no traces at {}: skipped", dir.display());
        return;
    }
    let kt = read_kernel_trace(&dir.join("kernel-1.traceg")).unwrap();
    // The traced registers are read: LDG writes its destination.
    let ldg = kt.ctas[0].1[0]
        .iter()
        .find(|i| i.opcode.starts_with("LDG"))
        .unwrap();
    assert_eq!(ldg.dests.len(), 1);
    let k = Kernel::from_trace(&kt, 128);
    let go = |sets: &[(&str, &str)]| {
        let mut c = MachineConfig::fermi();
        c.set("sms", "all").unwrap();
        for (key, v) in sets {
            c.set(key, v).unwrap();
        }
        Harness::new(&k, &c).run().unwrap()
    };
    let blocking = go(&[]);
    let sb = go(&[("loads", "scoreboard")]);
    let timed = go(&[
        ("loads", "scoreboard"),
        ("lat_alu", "4"),
        ("lat_smem", "26"),
    ]);
    same_work(&blocking, &sb, "scoreboard");
    same_work(&sb, &timed, "latencies");
    eprintln!(
        "blocking {}, scoreboard {}, + latencies {}",
        blocking.cycles, sb.cycles, timed.cycles
    );
    // The trace's loads are followed by address arithmetic for the next
    // ones: going on after a load overlaps them.
    assert!(sb.cycles < blocking.cycles);
    assert!(timed.cycles > sb.cycles);
    assert!(timed.sched.operand_wait_cycles > 0);
}
