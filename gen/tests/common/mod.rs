//! Shared helpers of the `warpgen` binary's tests (`cli_*.rs`): the
//! binary, the bundled kernels, runs on them. Each test file uses some of
//! them.
#![allow(dead_code)]

use std::process::Command;

/// The `warpgen` binary under test.
pub fn warpgen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warpgen"))
}

/// A bundled kernel file.
pub fn kernel(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../kernels")
        .join(name)
}

/// `warpgen ARGS --kernel kernels/NAME`.
pub fn on_kernel(args: &[&str], name: &str) -> std::process::Output {
    warpgen()
        .args(args)
        .arg("--kernel")
        .arg(kernel(name))
        .output()
        .unwrap()
}

/// [`on_kernel`], which must succeed: its output.
pub fn stdout_of(args: &[&str], name: &str) -> String {
    let out = on_kernel(args, name);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`on_kernel`], which must fail: its error output.
pub fn stderr_of_failure(args: &[&str], name: &str) -> String {
    let out = on_kernel(args, name);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A small kernel file in `dir` with `stmt` as its body's second line
/// (file line 6) and `extra` after `block`.
pub fn small_kernel(
    dir: &std::path::Path,
    name: &str,
    stmt: &str,
    extra: &str,
) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(
        &p,
        format!(
            "name = \"k\"\ngrid = [\"N / 32\"]\nblock = [32]{extra}\nbody = \"\"\"\nlet i = \
             ctaid.x * 32 + tid.x\n{stmt}\n\"\"\"\n[params]\nN = 64\n[arrays.A]\nelem = 4\nlen = \
             \"N\"\n"
        ),
    )
    .unwrap();
    p
}

/// `warpgen run --quiet --kernel K ARGS...`: the exit code and the first
/// line of the error output (which must not tell of a panic).
pub fn run_fails(k: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(k)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !err.contains("panicked") && !err.contains("overflowed its stack"),
        "{err}"
    );
    (
        out.status.code(),
        err.lines().next().unwrap_or("").to_string(),
    )
}
