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
