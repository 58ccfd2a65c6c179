//! Address arithmetic costs instructions (`sm_harness.md` revision 3,
//! "Address arithmetic is free"): the ALU instructions a kernel file's
//! address expressions cost, counted in the warp instructions, issued with
//! the ALU's timing, switched off by `address_arithmetic = false`; DAC's
//! affine warp takes a decoupled access's arithmetic off the other warps.

mod common;
use common::{kernel, load_ok, run};

/// vectorAdd: `A[i]`, `B[i]` and `C[i]` cost one instruction each (one
/// `IMAD.WIDE` per access in its SASS, `kernels/README.md`), and nothing
/// else changes.
#[test]
fn vector_add_pays_one_instruction_per_access() {
    let k = kernel("vector_add.toml", &[("N", 16384)]);
    let on = run(&k, &[]);
    let off = run(&k, &[("address_arithmetic", "false")]);
    assert_eq!(off.address_instructions, 0);
    // Every warp of the SM's CTAs passes `i < N` and makes three accesses.
    let warps = on.ctas * 8;
    assert_eq!(on.address_instructions, 3 * warps);
    assert_eq!(
        on.warp_instructions,
        off.warp_instructions + on.address_instructions
    );
    assert_eq!(on.mem_instructions, off.mem_instructions);
    assert_eq!(on.l1.accesses, off.l1.accesses);
}

/// With ALU latency, an address instruction delays its access: the run
/// with address arithmetic takes longer than the one without, and longer
/// again with a longer ALU latency.
#[test]
fn address_instructions_take_the_alus_timing() {
    let k = kernel("vector_add.toml", &[("N", 16384)]);
    let base = run(&k, &[("address_arithmetic", "false"), ("lat_alu", "8")]);
    let short = run(&k, &[("lat_alu", "1")]);
    let long = run(&k, &[("lat_alu", "8")]);
    assert_eq!(short.warp_instructions, long.warp_instructions);
    assert!(
        long.cycles > short.cycles,
        "{} {}",
        long.cycles,
        short.cycles
    );
    assert!(long.cycles > base.cycles, "{} {}", long.cycles, base.cycles);
}

/// A kernel whose accesses DAC decouples: their arithmetic moves to the
/// affine warp (once per batch), so DAC removes more instructions and its
/// instruction ratio falls; the non-affine warps issue none of it.
#[test]
fn dac_takes_the_address_arithmetic_of_decoupled_accesses() {
    let (_d, k) = load_ok(COLUMNS);
    let ratio = |sets: &[(&str, &str)]| {
        let mut with: Vec<(&str, &str)> = sets.to_vec();
        with.push(("expander", "dac"));
        let d = run(&k, &with);
        let b = run(&k, sets);
        let m = d.dac.as_ref().expect("DAC metrics");
        assert!(m.decoupled, "{}", m.reason);
        (
            d.warp_instructions as f64 / b.warp_instructions as f64,
            m.removed,
        )
    };
    let (r_on, removed_on) = ratio(&[]);
    let (r_off, removed_off) = ratio(&[("address_arithmetic", "false")]);
    // A[r * N + i]: 3 instructions; B[r * N + i]: 3, per iteration.
    let warps = run(&k, &[]).ctas * 8;
    assert_eq!(removed_on - removed_off, warps * 8 * 6);
    assert!(r_on < r_off, "{r_on} {r_off}");
    let d = run(&k, &[("expander", "dac")]);
    assert_eq!(d.address_instructions, 0);
}

/// `address_arithmetic = false` in a kernel file: its accesses cost
/// nothing whatever the machine says (the DAC example spells its address
/// instructions out as lets).
#[test]
fn a_kernel_file_can_say_its_lets_are_the_address_arithmetic() {
    let k = kernel("dac_example.toml", &[]);
    assert!(!k.address_arithmetic);
    let m = run(&k, &[("address_arithmetic", "true")]);
    assert_eq!(m.address_instructions, 0);
    let (_d, c) = load_ok(COLUMNS);
    assert!(c.address_arithmetic);
}

/// Every thread walks a column of A and writes B: `A[r * N + i]` is one
/// multiply, one add and the base (3 instructions).
const COLUMNS: &str = r#"name = "columns"
grid = ["N / 256"]
block = [256]
body = """
let i = ctaid.x * blockDim.x + tid.x
loop r 8 {
  load A[r * N + i] -> v
  store B[r * N + i] = v
}
"""

[params]
N = 8192

[arrays.A]
elem = 4
len = "8 * N"

[arrays.B]
elem = 4
len = "8 * N"
"#;
