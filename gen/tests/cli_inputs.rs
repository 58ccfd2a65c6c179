//! The `warpgen` binary on bad inputs (traces, kernel files, machine
//! settings): exit code 2 and a first line naming the file, the line and
//! the field, never a panic.

mod common;

use common::{kernel, run_fails, small_kernel, warpgen};

/// A valid Accel-Sim trace: `ctas` CTAs in a row, `warps` full warps each,
/// every warp a load (base+stride), a store (base+deltas) and an EXIT.
fn good_trace(ctas: u32, warps: u32) -> String {
    let mut s = format!(
        "-kernel name = _Z4testPf\n-kernel id = 1\n-grid dim = ({ctas},1,1)\n-block dim = \
         ({},1,1)\n-accelsim tracer version = 5\n-enable lineinfo = 0\n",
        warps * 32
    );
    for c in 0..ctas {
        s += &format!("\n#BEGIN_TB\nthread block = {c},0,0\n");
        for w in 0..warps {
            let a = 0x7f00_0000_0000u64 + (c * warps + w) as u64 * 128;
            s += &format!(
                "warp = {w}\ninsts = 3\n0010 ffffffff 1 R4 LDG.E 1 R2 4 1 {a:#x} 4 0\n0020 \
                 0000000f 0 STG.E 2 R2 R4 4 2 {a:#x} 4 4 4 0\n0030 ffffffff 0 EXIT 0 0 0\n"
            );
        }
        s += "#END_TB\n";
    }
    s
}

/// A bad trace of the CLI test: what it is, (its text, the error's line),
/// extra options, the error's field.
type BadTrace = (
    &'static str,
    (String, usize),
    &'static [&'static str],
    &'static str,
);

/// `warpgen run --kernel DIR` on trace folders with a bad kernel: exit
/// code 2, the error on stderr as ``FILE:LINE: field `FIELD`: ...``, no
/// panic, no result printed (with a kernel list, not even the good first
/// kernel's: every kernel is checked before any runs). With
/// `--nocapture` the message of each is printed.
#[test]
fn bad_traces_exit_2_with_file_line_and_field() {
    let g = good_trace(2, 2);
    // `g` with the first `from` replaced by `to`, and the line it is on.
    let sub = |from: &str, to: &str| {
        let at = g.find(from).unwrap_or_else(|| panic!("{from}"));
        (g.replacen(from, to, 1), g[..at].matches('\n').count() + 1)
    };
    let begin_line = |t: &str| t.lines().position(|l| l == "#BEGIN_TB").unwrap() + 1;
    let no_version = g.replacen("-accelsim tracer version = 5\n", "", 1);
    let g8 = good_trace(8, 1).replacen(
        "-grid dim = (8,1,1)",
        "-grid dim = (2147483647,2147483647,64)",
        1,
    );
    let header_end = g.find("\n#BEGIN_TB").unwrap() + 1;
    #[rustfmt::skip]
    let cases: Vec<BadTrace> = vec![
        ("block dimension of 0", sub("-block dim = (64,1,1)", "-block dim = (0,1,1)"), &[], "-block dim"),
        ("warp id 4,000,000,000", sub("warp = 1", "warp = 4000000000"), &[], "warp"),
        ("warp id past the block's warps", sub("warp = 1", "warp = 2"), &[], "warp"),
        ("thread block outside the grid", sub("thread block = 1,0,0", "thread block = 5,0,0"), &[], "thread block"),
        ("duplicate CTA id", sub("thread block = 1,0,0", "thread block = 0,0,0"), &[], "thread block"),
        ("missing header", (g[header_end..].to_string(), 1), &[], "header"),
        ("missing version line", (no_version.clone(), begin_line(&no_version)), &[], "-accelsim tracer version"),
        ("0-byte trace", (String::new(), 1), &[], "header"),
        ("active mask wider than 32 bits", sub("0010 ffffffff", "0010 1ffffffff"), &[], "mask"),
        ("access width 2^32-1", sub("R2 4 1", "R2 4294967295 1"), &[], "mem_width"),
        ("base+stride overflowing", sub("R2 4 1 0x7f0000000000 4", "R2 4 1 0xfffffffffffffff0 4"), &[], "stride"),
        ("base+deltas overflowing", sub("4 2 0x7f0000000000 4 4 4", "4 2 0xfffffffffffffff8 4 4 4"), &[], "delta"),
        ("grid (2^31-1, 2^31-1, 64), eight CTAs traced", (g8, 3), &[], "-grid dim"),
        ("block over CUDA's 1024 threads", sub("-block dim = (64,1,1)", "-block dim = (2048,1,1)"), &[], "-block dim"),
        ("block past the machine's warp slots", (good_trace(1, 32), 4), &["--set", "max_warps=16"], "-block dim"),
    ];
    for (what, (text, line), extra, field) in cases {
        let dir = tempfile::tempdir().unwrap();
        // A good first kernel, the bad one second.
        std::fs::write(dir.path().join("kernel-1.traceg"), good_trace(1, 1)).unwrap();
        std::fs::write(dir.path().join("kernel-2.traceg"), &text).unwrap();
        std::fs::write(
            dir.path().join("kernelslist.g"),
            "MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\nkernel-2.traceg\n",
        )
        .unwrap();
        let start = std::time::Instant::now();
        let out = warpgen()
            .args(["run", "--kernel"])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        let secs = start.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&out.stderr);
        let want = format!(
            "error: {}:{line}: field `{field}`: ",
            dir.path().join("kernel-2.traceg").display()
        );
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.starts_with(&want), "{what}: want {want}…, got {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}: printed a result");
        assert!(secs < 10.0, "{what}: {secs:.1} s");
        eprintln!("{what}: {}", err.lines().next().unwrap_or(""));
    }
}

// ------------------------------------------------------------ issue 13 item 3

/// Every bad kernel input of the issue: exit code 2 and a first line that
/// names the file, the line and the field.
#[test]
fn bad_kernel_inputs_exit_2_naming_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deep = format!("load A[{}i{}]", "(".repeat(20_000), ")".repeat(20_000));
    let minus = format!("load A[{}i]", "-".repeat(100_000));
    let cases: Vec<(String, &str, &str)> = vec![
        (
            deep,
            "",
            ":6: field `body`: expression nested more than 128 levels deep",
        ),
        (
            minus,
            "",
            ":6: field `body`: expression nested more than 128 levels deep",
        ),
        (
            "load A[i / 0]".into(),
            "",
            ":6: field `body`: division by zero",
        ),
        (
            "load A[i % 0]".into(),
            "",
            ":6: field `body`: division by zero",
        ),
        (
            "let d = tid.x - 3\nload A[i / d]".into(),
            "",
            ":7: field `body`: division by zero at run time",
        ),
        (
            "loop q -5 {\n}".into(),
            "",
            ":6: field `body`: `loop` count -5 is negative",
        ),
        (
            "loop q tid.x {\n}".into(),
            "",
            ":6: field `body`: the count of `loop VAR COUNT` must be scalar",
        ),
        (
            "load A[i]".into(),
            "\nsmem_bytes = 65536",
            ": field `smem_bytes`: kernel k: a CTA needs 65536 bytes",
        ),
    ];
    for (i, (stmt, extra, want)) in cases.iter().enumerate() {
        let k = small_kernel(d, &format!("k{i}.toml"), stmt, extra);
        let (code, first) = run_fails(&k, &[]);
        assert_eq!(code, Some(2), "{first}");
        let prefix = format!("error: {}{want}", k.display());
        assert!(first.starts_with(&prefix), "want {prefix}\n got {first}");
    }
    // A parameter too big: the wrapped value no more, the parameter named.
    let k = small_kernel(d, "big.toml", "load A[i]", "");
    let (code, first) = run_fails(&k, &["--set", "param.N=9223372036854775807"]);
    assert_eq!(code, Some(2));
    assert!(
        first.starts_with(&format!("error: {}:2: field `grid[0]`", k.display()))
            && first.contains("with N = 9223372036854775807"),
        "{first}"
    );
    let text = std::fs::read_to_string(&k)
        .unwrap()
        .replace("N = 64", "N = 9223372036854775807")
        .replace("len = \"N\"", "len = \"N * 4\"")
        .replace("grid = [\"N / 32\"]", "grid = [1]");
    std::fs::write(&k, text).unwrap();
    let (code, first) = run_fails(&k, &[]);
    assert_eq!(code, Some(2));
    assert!(
        first.starts_with(&format!(
            "error: {}:12: field `arrays.A.len`: `N * 4`: ",
            k.display()
        )) && first.contains("overflows")
            && first.contains("with N = 9223372036854775807"),
        "{first}"
    );
}

/// The machine's limits and ranges name where the value was set.
#[test]
fn machine_errors_exit_2_naming_the_file_or_option_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let k = small_kernel(dir.path(), "k.toml", "load A[i]", "\nsmem_bytes = 65536");
    let (code, first) = run_fails(&k, &["--preset", "caps-gtx480"]);
    assert_eq!(code, Some(2));
    assert!(
        first.contains("k.toml: field `smem_bytes`")
            && first.contains("`shared_mem_bytes` comes from presets/caps-gtx480.toml:")
            && first.ends_with("field `machine.shared_mem_bytes`"),
        "{first}"
    );
    let k = kernel("vector_add.toml");
    let (code, first) = run_fails(&k, &["--set", "max_cycles=1000"]);
    assert_eq!(code, Some(2));
    assert!(
        first.contains("vector_add.toml: the kernel did not finish within 1000 cycles")
            && first.ends_with("`max_cycles` comes from --set max_cycles=1000"),
        "{first}"
    );
    for (args, want) in [
        (
            vec!["--set", "l1_ways=300"],
            "error: --set l1_ways=300: configuration `l1_ways` = 300: allowed 1..=256",
        ),
        (
            vec!["--set", "mem_latency=x"],
            "error: --set mem_latency=x: configuration `mem_latency` = x: expected an integer",
        ),
        (
            vec!["--preset", "snake-v100", "--l1", "ba"],
            "error: presets/snake-v100.toml:",
        ),
    ] {
        let (code, first) = run_fails(&k, &args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(first.starts_with(want), "{args:?}: {first}");
    }
}
