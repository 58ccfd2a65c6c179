//! The Verilator back-end against hand-written designs: cycle-by-cycle
//! values, the build cache, VCD output, error reporting and random
//! power-up state. Every test prints a notice and passes if Verilator is not
//! installed.

use cosim::verilator::{
    default_cache_dir, install_hint, verilator_available, verilator_version, BuildOptions,
    VerilatorError, VerilatorModel,
};
use cosim::{RtlBackend, CYCLE_TIME};
use ports::PortDesc;
use std::path::PathBuf;
use std::time::Instant;

fn have_verilator(test: &str) -> bool {
    if verilator_available() {
        true
    } else {
        eprintln!(
            "NOTICE: skipping {test}: Verilator is not installed; {}",
            install_hint()
        );
        false
    }
}

/// A cache shared by these tests, kept between runs.
fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("verilator-backend-cache")
}

fn opts() -> BuildOptions {
    BuildOptions {
        cache_dir: Some(cache_dir()),
        random_init_seed: None,
        quiet: false,
        trace: true,
    }
}

/// A unique scratch directory for output files.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("verilator-backend-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// 8-bit counter with enable, a 40-bit accumulator (QData), a 1-bit and a
/// 12-bit output; a submodule for the increment so the VCD has a hierarchy.
const COUNTER_V: &str = r#"
module wg_counter__inc(input [7:0] a, output [7:0] y);
  assign y = a + 8'd1;
endmodule

module wg_counter(
  input clock,
  input reset,
  input en,
  input [39:0] add,
  input [2:0] sel,
  output [7:0] count,
  output [39:0] acc,
  output odd,
  output [11:0] mix
);
  reg [7:0] cnt_q;
  reg [39:0] acc_q;
  reg [11:0] mix_q;
  wire [7:0] cnt_next;
  wg_counter__inc inc(.a(cnt_q), .y(cnt_next));
  always @(posedge clock) begin
    if (reset) begin
      cnt_q <= 8'd0;
      acc_q <= 40'd0;
      mix_q <= 12'd0;
    end else begin
      if (en) cnt_q <= cnt_next;
      acc_q <= acc_q + add;
      mix_q <= {cnt_q[3:0], cnt_q} ^ acc_q[11:0] ^ {9'd0, sel};
    end
  end
  assign count = cnt_q;
  assign acc = acc_q;
  assign odd = cnt_q[0];
  assign mix = mix_q;
endmodule
"#;

fn counter_inputs() -> Vec<PortDesc> {
    vec![
        PortDesc::new("reset", 1),
        PortDesc::new("en", 1),
        PortDesc::new("add", 40),
        PortDesc::new("sel", 3),
    ]
}

fn counter_outputs() -> Vec<PortDesc> {
    vec![
        PortDesc::new("count", 8),
        PortDesc::new("acc", 40),
        PortDesc::new("odd", 1),
        PortDesc::new("mix", 12),
    ]
}

/// The expected behaviour of `wg_counter`, written independently.
#[derive(Default)]
struct CounterModel {
    cnt: u64,
    acc: u64,
    mix: u64,
}

impl CounterModel {
    fn outputs(&self) -> [u64; 4] {
        [self.cnt, self.acc, self.cnt & 1, self.mix]
    }
    fn edge(&mut self, i: &[u64; 4]) {
        let [reset, en, add, sel] = *i;
        if reset != 0 {
            *self = CounterModel::default();
            return;
        }
        let mix = (((self.cnt & 0xf) << 8) | self.cnt) ^ (self.acc & 0xfff) ^ sel;
        if en != 0 {
            self.cnt = (self.cnt + 1) & 0xff;
        }
        self.acc = (self.acc + add) & ((1 << 40) - 1);
        self.mix = mix & 0xfff;
    }
}

/// A small xorshift generator, so the stimulus is reproducible.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn counter_stimulus(rng: &mut Rng, n: u64) -> [u64; 4] {
    let r = rng.next();
    let reset = u64::from(n < 2 || r.is_multiple_of(97));
    // Inputs wider than the port are masked by the back-end: exercise that.
    [reset, (r >> 8) & 1, r >> 9, (r >> 3) & 0xff]
}

fn build_counter(o: &BuildOptions) -> VerilatorModel {
    VerilatorModel::build(
        COUNTER_V,
        "wg_counter",
        &counter_inputs(),
        &counter_outputs(),
        o,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn counter_matches_expected_values_cycle_by_cycle() {
    if !have_verilator("counter_matches_expected_values_cycle_by_cycle") {
        return;
    }
    let mut m = build_counter(&opts());
    assert_eq!(m.name(), "verilator");
    assert_eq!(m.top(), "wg_counter");
    let mut golden = CounterModel::default();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut out = [0u64; 4];
    let mut saw_acc_above_32_bits = false;
    for n in 0..20_000u64 {
        let mut i = counter_stimulus(&mut rng, n);
        m.cycle(&i, &mut out);
        if n >= 2 {
            assert_eq!(out, golden.outputs(), "cycle {n}, inputs {i:x?}");
        }
        saw_acc_above_32_bits |= out[1] >> 32 != 0;
        i[2] &= (1 << 40) - 1;
        i[3] &= 7;
        golden.edge(&i);
    }
    assert!(
        saw_acc_above_32_bits,
        "the 40-bit output never used its top bits"
    );
    assert_eq!(m.cycles(), 20_000);
}

#[test]
fn second_build_is_a_cache_hit_and_fast() {
    if !have_verilator("second_build_is_a_cache_hit_and_fast") {
        return;
    }
    // A design no earlier run has built: the first build is cold.
    let nonce = format!(
        "// nonce {} {:?}\n",
        std::process::id(),
        std::time::SystemTime::now()
    );
    let src = format!("{nonce}{COUNTER_V}");
    let build = || {
        VerilatorModel::build(
            &src,
            "wg_counter",
            &counter_inputs(),
            &counter_outputs(),
            &opts(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let t = Instant::now();
    let first = build();
    let cold = t.elapsed();
    assert!(!first.build_info().cache_hit);
    let t = Instant::now();
    let mut second = build();
    let warm = t.elapsed();
    let info = second.build_info().clone();
    assert!(info.cache_hit);
    assert_eq!(info.dir, first.build_info().dir);
    assert!(info.library.is_file());
    eprintln!(
        "cold build {:.2} s (verilate {:.2} s, compile {:.2} s), warm build {:.1} ms",
        cold.as_secs_f64(),
        first.build_info().verilate_time.as_secs_f64(),
        first.build_info().compile_time.as_secs_f64(),
        warm.as_secs_f64() * 1e3
    );
    // Both instances work independently.
    let mut first = first;
    let mut out = [0u64; 4];
    let i = [1, 0, 0, 0];
    first.cycle(&i, &mut out);
    second.cycle(&i, &mut out);
    for _ in 0..5 {
        first.cycle(&[0, 1, 1, 0], &mut out);
    }
    assert_eq!(out[0], 4);
    second.cycle(&[0, 1, 1, 0], &mut out);
    assert_eq!(out[0], 0);
    drop(first);
    drop(second);
    let _ = std::fs::remove_dir_all(&info.dir);
}

#[test]
fn vcd_has_internal_signals_and_cycle_timestamps() {
    if !have_verilator("vcd_has_internal_signals_and_cycle_timestamps") {
        return;
    }
    let dir = scratch("vcd");
    let path = dir.join("counter.vcd");
    let mut m = build_counter(&opts());
    let mut out = [0u64; 4];
    m.start_vcd(&path).unwrap();
    for n in 0..8u64 {
        m.cycle(&[u64::from(n < 2), 1, 3, 1], &mut out);
    }
    m.finish_vcd().unwrap();
    m.finish_vcd().unwrap(); // closing twice is harmless
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.contains("$timescale 1ns $end"), "{vcd}");
    for signal in [
        "cnt_q", "acc_q", "mix_q", "cnt_next", "clock", "count", " inc ",
    ] {
        assert!(vcd.contains(signal), "`{signal}` not in the VCD:\n{vcd}");
    }
    let stamps: Vec<u64> = vcd
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    let half = CYCLE_TIME / 2;
    let expected: Vec<u64> = (0..16).map(|k| k * half).collect();
    assert_eq!(stamps, expected);
    assert!(vcd.contains("#5\n") && vcd.contains("#10\n"));

    // A second VCD, opened mid-run, continues the time line.
    let path2 = dir.join("counter2.vcd");
    m.start_vcd(&path2).unwrap();
    m.cycle(&[0, 1, 3, 1], &mut out);
    drop(m); // dropping closes it
    let vcd2 = std::fs::read_to_string(&path2).unwrap();
    assert!(vcd2.contains("#80\n") && vcd2.contains("#85\n"), "{vcd2}");
    if std::env::var_os("KEEP_VCD").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn untraced_model_is_its_own_cache_entry_and_refuses_a_vcd() {
    if !have_verilator("untraced_model_is_its_own_cache_entry_and_refuses_a_vcd") {
        return;
    }
    let traced = build_counter(&opts());
    let mut plain = build_counter(&BuildOptions {
        trace: false,
        ..opts()
    });
    assert_ne!(traced.build_info().key, plain.build_info().key);
    assert_ne!(traced.build_info().dir, plain.build_info().dir);
    // Same behaviour, cycle by cycle.
    let mut traced = traced;
    let (mut a, mut b) = ([0u64; 4], [0u64; 4]);
    for n in 0..20u64 {
        let i = [u64::from(n < 2), n & 1, n % 5, 1];
        traced.cycle(&i, &mut a);
        plain.cycle(&i, &mut b);
        assert_eq!(a, b, "cycle {n}");
    }
    let dir = scratch("untraced");
    let e = plain.start_vcd(&dir.join("x.vcd")).unwrap_err().to_string();
    assert!(e.contains("built without tracing"), "{e}");
    assert!(!dir.join("x.vcd").exists());
    plain.finish_vcd().unwrap();
}

#[test]
fn syntax_error_is_a_verilate_error_with_the_message() {
    if !have_verilator("syntax_error_is_a_verilate_error_with_the_message") {
        return;
    }
    let bad = "module wg_bad(input clock, input reset, output [3:0] q);\n  reg [3:0] r\n  \
               always @(posedge clock) r <= r + 1;\n  assign q = r;\nendmodule\n";
    let e = VerilatorModel::build(bad, "wg_bad", &[PortDesc::new("reset", 1)], &[], &opts())
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, VerilatorError::Verilate { .. }), "{msg}");
    assert!(msg.contains("%Error"), "{msg}");
    assert!(msg.contains("syntax error"), "{msg}");
    assert!(msg.contains("wg_bad.v:3"), "{msg}");
    eprintln!("{msg}");
    if let VerilatorError::Verilate { log_path, .. } = &e {
        assert!(log_path.is_file(), "{}", log_path.display());
    }
}

#[test]
fn port_list_mismatches_are_reported() {
    if !have_verilator("port_list_mismatches_are_reported") {
        return;
    }
    let build = |ins: &[PortDesc], outs: &[PortDesc]| {
        VerilatorModel::build(COUNTER_V, "wg_counter", ins, outs, &opts()).unwrap_err()
    };
    let mut ins = counter_inputs();
    ins[2].width = 32;
    let e = build(&ins, &counter_outputs());
    assert!(matches!(e, VerilatorError::Ports { .. }), "{e}");
    assert!(e.to_string().contains("`add`"), "{e}");
    assert!(e.to_string().contains("40 bits in the Verilog"), "{e}");

    let e = build(&counter_inputs()[..3], &counter_outputs());
    assert!(e.to_string().contains("`sel`"), "{e}");
    assert!(e.to_string().contains("missing"), "{e}");

    let mut outs = counter_outputs();
    outs.push(PortDesc::new("nope", 1));
    let e = build(&counter_inputs(), &outs);
    assert!(e.to_string().contains("`nope` is not a port"), "{e}");

    let e = VerilatorModel::build(
        COUNTER_V,
        "wg_counter",
        &[PortDesc::new("clock", 1)],
        &[],
        &opts(),
    )
    .unwrap_err();
    assert!(matches!(e, VerilatorError::Ports { .. }), "{e}");
}

/// `r_q` is reset, `s_q` never is.
const UNINIT_V: &str = r#"
module wg_uninit(
  input clock,
  input reset,
  input [7:0] d,
  output [31:0] q,
  output [31:0] scratch
);
  reg [31:0] r_q;
  reg [31:0] s_q;
  always @(posedge clock) begin
    if (reset) r_q <= 32'd0;
    else r_q <= r_q + {24'd0, d};
    s_q <= s_q + 32'd1;
  end
  assign q = r_q;
  assign scratch = s_q;
endmodule
"#;

fn run_uninit(seed: Option<u32>) -> Vec<[u64; 2]> {
    let o = BuildOptions {
        random_init_seed: seed,
        ..opts()
    };
    let mut m = VerilatorModel::build(
        UNINIT_V,
        "wg_uninit",
        &[PortDesc::new("reset", 1), PortDesc::new("d", 8)],
        &[PortDesc::new("q", 32), PortDesc::new("scratch", 32)],
        &o,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut trace = Vec::new();
    let mut out = [0u64; 2];
    for n in 0..10u64 {
        m.cycle(&[u64::from((2..4).contains(&n)), n], &mut out);
        trace.push(out);
    }
    trace
}

#[test]
fn random_init_seed_randomises_power_up_state_until_reset() {
    if !have_verilator("random_init_seed_randomises_power_up_state_until_reset") {
        return;
    }
    let a = run_uninit(Some(1));
    let b = run_uninit(Some(2));
    let a_again = run_uninit(Some(1));
    let zero = run_uninit(None);
    // Reproducible per seed.
    assert_eq!(a, a_again);
    // Before reset (cycles 0..=2 sample the power-up state) the seeds differ.
    assert_ne!(a[0][0], b[0][0], "{a:x?} vs {b:x?}");
    assert_ne!(a[0][1], b[0][1]);
    // After reset (edges at cycles 2 and 3), the reset register agrees.
    for n in 4..10 {
        assert_eq!(a[n][0], b[n][0], "cycle {n}");
        assert_eq!(a[n][0], zero[n][0], "cycle {n}");
    }
    assert_eq!(a[9][0], 4 + 5 + 6 + 7 + 8);
    // The never-reset register keeps its random offset.
    assert_ne!(a[9][1], b[9][1]);
    assert_eq!(a[9][1].wrapping_sub(a[0][1]) & 0xffff_ffff, 9);
    // Without a seed everything starts at zero.
    assert_eq!(zero[0], [0, 0]);
}

#[test]
fn models_are_send_and_independent_across_threads() {
    if !have_verilator("models_are_send_and_independent_across_threads") {
        return;
    }
    let run = |m: &mut VerilatorModel| {
        let mut rng = Rng(42);
        let mut out = [0u64; 4];
        let mut sum = 0u64;
        for n in 0..50_000 {
            let i = counter_stimulus(&mut rng, n);
            m.cycle(&i, &mut out);
            sum = sum.wrapping_mul(31).wrapping_add(out.iter().sum::<u64>());
        }
        sum
    };
    let models: Vec<VerilatorModel> = (0..3).map(|_| build_counter(&opts())).collect();
    let sums: Vec<u64> = models
        .into_iter()
        .map(|mut m| std::thread::spawn(move || run(&mut m)))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:x?}");
}

#[test]
fn throughput_of_one_ffi_call_per_cycle() {
    if !have_verilator("throughput_of_one_ffi_call_per_cycle") {
        return;
    }
    let mut m = build_counter(&opts());
    let mut out = [0u64; 4];
    let inputs = [[0u64, 1, 5, 3], [0, 0, 7, 1]];
    m.cycle(&[1, 0, 0, 0], &mut out);
    let n = 2_000_000u64;
    let t = Instant::now();
    for k in 0..n {
        m.cycle(&inputs[(k & 1) as usize], &mut out);
    }
    let dt = t.elapsed();
    std::hint::black_box(out);
    eprintln!(
        "{}: {n} cycles in {:.3} s = {:.2} M cycles/s",
        verilator_version().unwrap_or_default(),
        dt.as_secs_f64(),
        n as f64 / dt.as_secs_f64() / 1e6
    );
    assert_eq!(out[0], (n / 2) & 0xff);
}

#[test]
fn default_cache_dir_is_under_the_target_dir() {
    if std::env::var_os("WARPGEN_CACHE").is_some() || std::env::var_os("CARGO_TARGET_DIR").is_some()
    {
        return;
    }
    let d = default_cache_dir();
    assert!(d.ends_with("target/warpgen-cache"), "{}", d.display());
}

/// A cache entry is loaded only when it matches its seal (issue 30): a
/// truncated `model.so` (it crashed every later run with SIGBUS), a
/// missing one, or another entry's library copied over it is rebuilt, and
/// the rebuilt model works.
#[test]
fn broken_cache_entries_are_rebuilt_not_loaded() {
    if !have_verilator("broken_cache_entries_are_rebuilt_not_loaded") {
        return;
    }
    let cache = scratch("seal");
    let o = BuildOptions {
        cache_dir: Some(cache.clone()),
        random_init_seed: None,
        quiet: true,
        trace: false,
    };
    let build = |src: &str| {
        VerilatorModel::build(src, "wg_counter", &counter_inputs(), &counter_outputs(), &o)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let a_src = format!("// a\n{COUNTER_V}");
    // Another design (counting by 2), so another library.
    let b_src = format!("// b\n{}", COUNTER_V.replace("8'd1", "8'd2"));
    let a = build(&a_src);
    let lib = a.build_info().library.clone();
    drop(a);
    let b_lib = build(&b_src).build_info().library.clone();
    type Damage<'a> = Box<dyn Fn() + 'a>;
    let damage: Vec<(&str, Damage)> = vec![
        (
            "truncated",
            Box::new(|| {
                let len = std::fs::metadata(&lib).unwrap().len();
                let f = std::fs::OpenOptions::new().write(true).open(&lib).unwrap();
                f.set_len(len / 2).unwrap();
            }),
        ),
        ("missing", Box::new(|| std::fs::remove_file(&lib).unwrap())),
        (
            "another entry's",
            Box::new(|| {
                std::fs::copy(&b_lib, &lib).unwrap();
            }),
        ),
    ];
    for (what, hurt) in damage {
        hurt();
        let mut m = build(&a_src);
        assert!(
            !m.build_info().cache_hit,
            "{what}: the broken entry was loaded"
        );
        let mut out = [0u64; 4];
        m.cycle(&[1, 0, 0, 0], &mut out);
        for _ in 0..4 {
            m.cycle(&[0, 1, 1, 0], &mut out);
        }
        assert_eq!(out[0], 3, "{what}: the rebuilt model counts");
        assert_eq!(m.build_info().library, lib);
        // Intact again: the next build is a cache hit.
        assert!(build(&a_src).build_info().cache_hit, "{what}");
    }
    let _ = std::fs::remove_dir_all(&cache);
}
