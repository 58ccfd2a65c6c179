//! Hostile inputs and environments (issue 30): a failing standard output,
//! ... Each case runs the real binary and checks its exit code and its one
//! `error:` line (or its quiet exit).

mod common;
use common::{kernel, warpgen};

use std::process::Output;

/// `warpgen ARGS` with standard output on `/dev/full`.
fn on_dev_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    warpgen().args(args).stdout(full).output().unwrap()
}

/// `warpgen ARGS` with standard output a pipe whose reader has gone.
fn on_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    warpgen().args(args).stdout(writer).output().unwrap()
}

fn commands() -> Vec<Vec<String>> {
    let k = kernel("vector_add.toml").to_string_lossy().into_owned();
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["configs"]),
        v(&["presets"]),
        v(&["run", "--kernel", &k, "--set", "param.N=4096"]),
        v(&[
            "catt",
            "--kernel",
            &k,
            "--set",
            "param.N=4096",
            "--format",
            "json",
        ]),
    ]
}

/// A full disk on standard output: one `error:` line and status 2, no
/// panic (`println!` panicked: "failed printing to stdout", status 101).
#[test]
fn full_stdout_is_one_error_line() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("SKIPPED: no /dev/full");
        return;
    }
    for args in commands() {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = on_dev_full(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{a:?}: {err}");
        let last = err.lines().last().unwrap_or("");
        assert_eq!(
            last, "error: cannot write to standard output: No space left on device (os error 28)",
            "{a:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{a:?}: {err}");
    }
}

/// A closed pipe (`warpgen configs | true`): a quiet exit, status 0.
#[test]
fn closed_pipe_is_a_quiet_exit() {
    for args in commands() {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = on_closed_pipe(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{a:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("error"),
            "{a:?}: {err}"
        );
    }
}

/// `warpgen sweep --list LIST --out OUT` with `list` written to a file.
fn sweep_with(dir: &std::path::Path, list: &str) -> Output {
    let l = dir.join("runs.toml");
    std::fs::write(&l, list).unwrap();
    warpgen()
        .args(["sweep", "--jobs", "1", "--list"])
        .arg(&l)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap()
}

fn last_error(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .rfind(|l| l.starts_with("error:"))
        .unwrap_or("")
        .to_string()
}

/// A sweep's list is checked whole before anything runs: an empty list, a
/// missing kernel, a file that is not a kernel, an id too long for a file
/// name; each is one error naming the run, status 2, and no result.
#[test]
fn sweep_lists_are_checked_before_the_runs() {
    let k = kernel("vector_add.toml");
    let long = "x".repeat(300);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "the list has no runs"),
        (
            "[[run]]\nid = \"a\"\nkernel = \"/no/such/kernel.toml\"\n".into(),
            "run 1 (id `a`): kernel /no/such/kernel.toml: No such file",
        ),
        (
            "[[run]]\nid = \"a\"\nkernel = \"/etc/passwd\"\n".into(),
            "run 1 (id `a`): ",
        ),
        (
            format!("[[run]]\nid = \"ok\"\nkernel = {k:?}\n\n[[run]]\nid = \"{long}\"\nkernel = {k:?}\n"),
            "run 2 (id `xxxxxxxxxxxxxxxxxxxxxxxx...`): the id has 300 characters; at most 200",
        ),
    ];
    for (list, want) in cases {
        let dir = tempfile::tempdir().unwrap();
        let o = sweep_with(dir.path(), &list);
        let err = last_error(&o);
        assert_eq!(o.status.code(), Some(2), "{list}: {err}");
        assert!(err.contains(want), "{list}: {err}");
        assert!(
            !dir.path().join("out/runs").exists()
                || std::fs::read_dir(dir.path().join("out/runs"))
                    .unwrap()
                    .next()
                    .is_none()
        );
    }
}

/// `merged.json` that is a folder fails before the runs, not after them.
#[test]
fn sweep_output_is_checked_before_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("out/merged.json")).unwrap();
    let k = kernel("vector_add.toml");
    let o = sweep_with(
        dir.path(),
        &format!("[[run]]\nid = \"a\"\nkernel = {k:?}\nset = [\"param.N=4096\"]\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        last_error(&o).contains("merged.json is a folder"),
        "{}",
        last_error(&o)
    );
    assert!(!dir.path().join("out/runs/a.json").exists(), "the run ran");
}

/// A stored result is reused only when it is this version's, of the
/// kernel file as it is, and unedited: a doctored `cycles = 1` is run
/// again, and so is a result whose kernel file changed.
#[test]
fn doctored_and_stale_results_are_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let k = dir.path().join("k.toml");
    std::fs::copy(kernel("vector_add.toml"), &k).unwrap();
    let list = format!("[[run]]\nid = \"a\"\nkernel = {k:?}\nset = [\"param.N=4096\"]\n");
    let o = sweep_with(dir.path(), &list);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let res = dir.path().join("out/runs/a.json");
    let text = std::fs::read_to_string(&res).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cycles = v["metrics"]["cycles"].as_u64().unwrap();
    assert!(cycles > 1);
    v["metrics"]["cycles"] = 1.into();
    std::fs::write(&res, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = sweep_with(dir.path(), &list);
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 1 of 1 runs"));
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&res).unwrap()).unwrap();
    assert_eq!(again["metrics"]["cycles"].as_u64(), Some(cycles));
    // Unchanged: reused.
    let o = sweep_with(dir.path(), &list);
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 0 of 1 runs"));
    // The kernel file changed (a comment): run again.
    let mut text = std::fs::read_to_string(&k).unwrap();
    text.push_str("\n# changed\n");
    std::fs::write(&k, text).unwrap();
    let o = sweep_with(dir.path(), &list);
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 1 of 1 runs"));
}

/// `verilog --out D` never replaces a symlink, a FIFO or a device at
/// `D/<unit>.v`: a symlink is written through, a FIFO without a reader is
/// an error, not a wait.
#[test]
fn verilog_outputs_are_never_renamed_over_special_files() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("v");
    std::fs::create_dir_all(&d).unwrap();
    let target = dir.path().join("target.v");
    std::os::unix::fs::symlink(&target, d.join("ba_tag_array.v")).unwrap();
    std::os::unix::fs::symlink("/dev/null", d.join("caps_prefetcher.v")).unwrap();
    let o = warpgen()
        .args(["verilog", "--out"])
        .arg(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::symlink_metadata(d.join("ba_tag_array.v"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("module ba_tag_array"));
    assert!(std::fs::symlink_metadata(d.join("caps_prefetcher.v"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A FIFO with no reader: an error naming it, at once.
    let f = d.join("snake_prefetcher.v");
    std::fs::remove_file(&f).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(&f)
        .status()
        .unwrap()
        .success());
    let o = warpgen()
        .args(["verilog", "--out"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        last_error(&o).contains("a FIFO with no reader"),
        "{}",
        last_error(&o)
    );
    assert!(std::fs::symlink_metadata(&f).unwrap().file_type().is_fifo());
}

/// A combination the machine refuses (BA on a 256-way L1) is reported
/// before anything runs, with every other bad run: status 2.
#[test]
fn refused_combinations_are_reported_before_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel("vector_add.toml");
    let o = sweep_with(
        dir.path(),
        &format!(
            "[[run]]\nid = \"ok\"\nkernel = {k:?}\nset = [\"param.N=4096\"]\n\n\
             [[run]]\nid = \"ba-volta\"\nkernel = {k:?}\npreset = \"snake-v100\"\n\
             set = [\"param.N=4096\", \"l1=ba\"]\n\n\
             [[run]]\nid = \"bad-set\"\nkernel = {k:?}\nset = [\"param.N=4096\", \"nope=1\"]\n"
        ),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("2 of 3 runs cannot run; nothing ran"), "{err}");
    assert!(
        err.contains("run 2 (id `ba-volta`)") && err.contains("l1_ways"),
        "{err}"
    );
    assert!(err.contains("run 3 (id `bad-set`)"), "{err}");
    assert!(!dir.path().join("out/runs/ok.json").exists(), "a run ran");
}

/// A run that fails while running (the kernel's own run-time error) fails
/// the sweep: status 1, the run and its reason named, the rest merged.
#[test]
fn a_failing_run_fails_the_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let bad = common::small_kernel(dir.path(), "div.toml", "let q = 1 / (tid.x - 3)", "");
    let k = kernel("vector_add.toml");
    let o = sweep_with(
        dir.path(),
        &format!(
            "[[run]]\nid = \"ok\"\nkernel = {k:?}\nset = [\"param.N=4096\"]\n\n\
             [[run]]\nid = \"div\"\nkernel = {bad:?}\nset = [\"param.N=64\"]\n"
        ),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: run `div` did not run: "), "{err}");
    assert!(dir.path().join("out/merged.json").exists());
}

/// `warpgen ARGS`, which must fail with status 2: its last `error:` line.
fn error_of(args: &[&str]) -> String {
    let o = warpgen().args(args).output().unwrap();
    let err = last_error(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    err
}

/// A negative number for an unsigned flag is the value's error naming the
/// flag, not clap's "unexpected argument"; `catt --l1-kb 0` is refused.
#[test]
fn numeric_flags_name_themselves() {
    let k = kernel("vector_add.toml");
    let k = k.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["cosim", "--unit", "ba_tag_array", "--seed", "-1"],
            "invalid value '-1' for '--seed <SEED>'",
        ),
        (
            &["cosim", "--unit", "ba_tag_array", "--cycles", "-5"],
            "invalid value '-5' for '--cycles <CYCLES>'",
        ),
        (
            &["catt", "--kernel", k, "--l1-kb", "0"],
            "invalid value '0' for '--l1-kb <N>'",
        ),
        (
            &["reuse", "--kernel", k, "--sizes", "-16"],
            "invalid value '-16' for '--sizes",
        ),
    ];
    for (args, want) in cases {
        let err = error_of(args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// TOML errors on one line with the file, line and column; a parameter of
/// the wrong type named with its line.
#[test]
fn configuration_errors_name_file_line_and_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "# a comment\n[ba_tag_array]\nSETS = 16\nWAYS = = 4\n").unwrap();
    let out = dir.path().join("v");
    let o = out.to_str().unwrap();
    let err = error_of(&["verilog", "--config", bad.to_str().unwrap(), "--out", o]);
    assert!(err.contains("bad.toml: line 4, column"), "{err}");
    std::fs::write(&bad, "[ba_tag_array]\nSETS = 16\nWAYS = \"four\"\n").unwrap();
    let err = error_of(&["verilog", "--config", bad.to_str().unwrap(), "--out", o]);
    assert!(
        err.contains("line 3: [ba_tag_array] WAYS = \"four\": invalid type"),
        "{err}"
    );
    let list = dir.path().join("runs.toml");
    std::fs::write(&list, "[[run]]\nid = \"a\"\nkernel = \n").unwrap();
    let err = error_of(&["sweep", "--list", list.to_str().unwrap(), "--out", o]);
    assert!(err.contains("runs.toml: line 3, column"), "{err}");
}

/// Kernel files: CUDA's limits on the block and the grid, a bounded
/// read of a regular file (not `/dev/zero`, not a FIFO), printable names,
/// a PC literal shown as written.
#[test]
fn kernel_files_keep_cuda_limits_and_are_read_with_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |k: &std::path::Path| error_of(&["run", "--quiet", "--kernel", k.to_str().unwrap()]);
    let with = |name: &str, grid: &str, block: &str, body: &str, extra: &str| {
        let p = d.join(name);
        std::fs::write(
            &p,
            format!(
                "name = \"k\"\ngrid = {grid}\nblock = {block}\nbody = \"\"\"\n{body}\n\"\"\"\n{extra}"
            ),
        )
        .unwrap();
        p
    };
    let cases = [
        (
            with("z.toml", "[1]", "[1, 1, 65]", "let i = tid.x", ""),
            "block",
        ),
        (
            with("t.toml", "[1]", "[2048]", "let i = tid.x", ""),
            "CUDA allows at most 1024 threads",
        ),
        (
            with("g.toml", "[1, 70000]", "[32]", "let i = tid.x", ""),
            "CUDA allows a grid of at most",
        ),
        (
            with(
                "pc.toml",
                "[1]",
                "[32]",
                "load A[tid.x] @0xFFFFFFFFFFFFFFFF",
                "[arrays.A]\nelem = 4\nlen = 32\n",
            ),
            "0xFFFFFFFFFFFFFFFF",
        ),
    ];
    for (k, want) in cases {
        let err = run(&k);
        assert!(err.contains(want), "{}: {err}", k.display());
    }
    let esc = d.join("esc.toml");
    std::fs::write(
        &esc,
        "name = \"a\\u001b[31mred\"\ngrid = [1]\nblock = [32]\nbody = \"let i = tid.x\"\n",
    )
    .unwrap();
    let err = run(&esc);
    assert!(err.contains("U+001B") && !err.contains('\u{1b}'), "{err}");
    if std::path::Path::new("/dev/zero").exists() {
        let err = run(std::path::Path::new("/dev/zero"));
        assert!(err.contains("not a regular file"), "{err}");
    }
    let fifo = d.join("k.toml");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let err = run(&fifo);
    assert!(err.contains("not a regular file"), "{err}");
}

/// A machine of 65,536 SMs is refused with the reason, not an abort on
/// allocation.
#[test]
fn machine_size_is_capped_with_a_reason() {
    let k = kernel("vector_add.toml");
    let err = error_of(&[
        "run",
        "--quiet",
        "--kernel",
        k.to_str().unwrap(),
        "--set",
        "n_sm=65536",
    ]);
    assert!(err.contains("n_sm") && err.contains("1..=1024"), "{err}");
}

/// A trace that begins with a byte-order mark runs as the same trace
/// without it (it was "no header").
#[test]
fn a_byte_order_mark_is_not_part_of_a_trace() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/traces/microgpusim/vectoradd-100-32-trace/kernel-1.traceg");
    let Ok(text) = std::fs::read(&src) else {
        eprintln!("SKIPPED: no {}", src.display());
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("kernel-1.traceg");
    std::fs::write(&plain, &text).unwrap();
    let bom = dir.path().join("bom").join("kernel-1.traceg");
    std::fs::create_dir_all(bom.parent().unwrap()).unwrap();
    let mut with_bom = "\u{feff}".as_bytes().to_vec();
    with_bom.extend_from_slice(&text);
    std::fs::write(&bom, with_bom).unwrap();
    let cycles = |k: &std::path::Path| {
        let o = warpgen()
            .args(["run", "--quiet", "--json", "/dev/stdout", "--kernel"])
            .arg(k)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v[0]["cycles"].as_u64().unwrap()
    };
    assert_eq!(cycles(&bom), cycles(&plain));
}

/// The simulators' waveforms reach `--vcd` through the checked writer, on
/// both back-ends: a symlink is written through (not replaced), and
/// `/dev/full` is one error line (Verilator's VCD writer hung on it,
/// rust-hdl's panicked).
#[test]
fn cosim_waveforms_go_through_the_checked_writer() {
    let backends: Vec<&str> = if eda::tool_available(eda::Tool::Verilator) {
        vec!["rusthdl", "verilator"]
    } else {
        vec!["rusthdl"]
    };
    for b in backends {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("wave.vcd");
        let link = dir.path().join("link.vcd");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let args = |vcd: &str| {
            vec![
                "cosim".to_string(),
                "--unit".into(),
                "ba_tag_array".into(),
                "--backend".into(),
                b.into(),
                "--cycles".into(),
                "50".into(),
                "--vcd".into(),
                vcd.into(),
                "--vcd-always".into(),
            ]
        };
        let o = warpgen()
            .args(args(link.to_str().unwrap()))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{b}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{b}"
        );
        assert!(
            std::fs::read_to_string(&target)
                .unwrap()
                .contains("$scope module"),
            "{b}"
        );
        if std::path::Path::new("/dev/full").exists() {
            let o = warpgen().args(args("/dev/full")).output().unwrap();
            assert_eq!(
                o.status.code(),
                Some(2),
                "{b}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(
                last_error(&o).contains("No space left on device"),
                "{b}: {}",
                last_error(&o)
            );
        }
    }
}

/// `run --record`: a FIFO with no reader is an error, not a wait; a run
/// that fails leaves an existing record untouched (it was truncated at the
/// start and left partial).
#[test]
fn records_are_delivered_only_by_a_run_that_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel("vector_add.toml");
    let rec = dir.path().join("ba.jsonl");
    std::fs::write(&rec, "earlier record\n").unwrap();
    let o = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(&k)
        .args([
            "--set",
            "param.N=4096",
            "--set",
            "l1=ba",
            "--set",
            "max_cycles=20",
        ])
        .args(["--record", "ba_tag_array"])
        .arg(&rec)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), "earlier record\n");
    let fifo = dir.path().join("fifo.jsonl");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let o = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(&k)
        .args([
            "--set",
            "param.N=4096",
            "--set",
            "l1=ba",
            "--record",
            "ba_tag_array",
        ])
        .arg(&fifo)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        last_error(&o).contains("a FIFO with no reader"),
        "{}",
        last_error(&o)
    );
    // A run that succeeds writes the record.
    let o = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(&k)
        .args([
            "--set",
            "param.N=4096",
            "--set",
            "l1=ba",
            "--record",
            "ba_tag_array",
        ])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&rec)
        .unwrap()
        .starts_with("{\"format\":\"warpgen-stimulus\""));
}

/// `compare` with a bad setting or a kernel that does not load is an
/// error before anything runs (they were "refused" cells and status 0).
#[test]
fn compare_refuses_bad_settings_and_kernels_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let k = kernel("vector_add.toml");
    let err = error_of(&[
        "compare",
        "--preset",
        "caps-gtx480",
        "--kernel",
        k.to_str().unwrap(),
        "--set",
        "nope=1",
    ]);
    assert!(
        err.contains("1 of 1 kernel and preset pairs cannot run"),
        "{err}"
    );
    let bad = common::small_kernel(dir.path(), "bad.toml", "let q = ", "");
    let o = warpgen()
        .args(["compare", "--preset", "caps-gtx480", "--kernel"])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("nothing ran:\n  ") && err.contains("bad.toml"),
        "{err}"
    );
}

/// A trace with an opcode that is not SASS (on two lines) and a register
/// `R-1` runs, exit 0, with one `warning:` line for each on stderr naming
/// its first line; a sweep prints them again when it reuses the result
/// (the trace is not read again then).
#[test]
fn unknown_opcodes_and_registers_are_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("kernel-1.traceg");
    std::fs::write(
        &t,
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n\
         -accelsim tracer version = 4\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n\
         0000 ffffffff 1 R1 FOO.X 0 0\n0010 ffffffff 1 R-1 FOO.X 1 R1 0\n\
         0020 ffffffff 1 R2 IADD 2 RZ PT 0\n0030 ffffffff 0 EXIT 0 0\n#END_TB\n",
    )
    .unwrap();
    let warnings = |o: &Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .map(str::to_string)
            .collect()
    };
    let o = warpgen()
        .args(["run", "--kernel"])
        .arg(&t)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("cycles"));
    let w = warnings(&o);
    assert_eq!(w.len(), 2, "{w:#?}");
    let file = t.display();
    assert!(
        w[0].starts_with(&format!("warning: `FOO.X` ({file}:8): unknown SASS opcode")),
        "{}",
        w[0]
    );
    assert!(w[0].ends_with("2 lines have it"), "{}", w[0]);
    assert!(
        w[1].starts_with(&format!(
            "warning: `R-1` ({file}:9, reg_dests): not a register"
        )),
        "{}",
        w[1]
    );
    // A sweep: the run, then the reused result, warn alike (once each).
    let list = format!("[[run]]\nid = \"w\"\nkernel = {t:?}\npreset = \"volta\"\n");
    for ran in ["ran 1 of 1 runs", "ran 0 of 1 runs"] {
        let o = sweep_with(dir.path(), &list);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stderr).contains(ran));
        assert_eq!(warnings(&o), w, "{ran}");
    }
}

/// `cosim --export-tb D` checks both of its outputs before writing either:
/// a folder where the bench goes is an error, and the unit's Verilog is
/// not left behind alone; a symlink is written through.
#[test]
fn exported_benches_are_checked_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("tb");
    std::fs::create_dir_all(d.join("tb_ba_tag_array.v")).unwrap();
    let export = || {
        warpgen()
            .args([
                "cosim",
                "--unit",
                "ba_tag_array",
                "--cycles",
                "50",
                "--export-tb",
            ])
            .arg(&d)
            .output()
            .unwrap()
    };
    let o = export();
    assert_eq!(o.status.code(), Some(2));
    assert!(last_error(&o).contains("is a folder"), "{}", last_error(&o));
    assert!(
        !d.join("ba_tag_array.v").exists(),
        "half an export was written"
    );
    std::fs::remove_dir(d.join("tb_ba_tag_array.v")).unwrap();
    let target = dir.path().join("bench.v");
    std::os::unix::fs::symlink(&target, d.join("tb_ba_tag_array.v")).unwrap();
    let o = export();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("module tb_ba_tag_array"));
    assert!(d.join("ba_tag_array.v").is_file());
}
