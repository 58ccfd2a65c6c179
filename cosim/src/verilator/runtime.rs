//! The Verilator run-time library, compiled once per Verilator version,
//! compiler and flags and cached as a static archive.

use super::cache::{
    discard_broken, hex, keep_failed, publish, seal_ok, tmp_dir_in, write_seal, BuildLock,
};
use super::error::{io_err, Result, VerilatorError};
use super::flags::{CXX_COMMON_FLAGS, RUNTIME_OPT, RUNTIME_SOURCES, RUNTIME_VERSION};
use super::tools::{log_tail, run_logged};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Build (once, cached) the Verilator run-time static archive and return its
/// path.
pub(super) fn ensure_runtime(
    cache: &Path,
    cxx: &[String],
    cxx_id: &str,
    vl_version: &str,
    include: &Path,
    quiet: bool,
) -> Result<PathBuf> {
    let mut h = Sha256::new();
    h.update(format!(
        "warpgen-verilator-runtime v{RUNTIME_VERSION}\0{vl_version}\0{cxx_id}\0{}\0{RUNTIME_OPT}\0{}\0{}",
        include.display(),
        CXX_COMMON_FLAGS.join(" "),
        RUNTIME_SOURCES.join(" ")
    ));
    let key = hex(&h.finalize()[..12]);
    let name = format!("runtime-{key}");
    let dest = cache.join(&name);
    let archive = dest.join("libverilated.a");
    if seal_ok(&dest, &name, "libverilated.a") {
        return Ok(archive);
    }
    let _lock = BuildLock::acquire(&cache.join(format!("{name}.lock")))?;
    if seal_ok(&dest, &name, "libverilated.a") {
        return Ok(archive);
    }
    discard_broken(&dest, "Verilator run-time library", quiet)?;
    let start = Instant::now();
    if !quiet {
        eprintln!(
            "warpgen: compiling the Verilator run-time library (once per Verilator version) \
             into {}",
            dest.display()
        );
    }
    let tmp = tmp_dir_in(cache, &name);
    fs::create_dir_all(&tmp).map_err(io_err(format!("cannot create {}", tmp.display())))?;
    let include_s = include.display().to_string();
    let vltstd = include.join("vltstd").display().to_string();
    // Compile the sources in parallel; they are independent.
    let mut children = Vec::new();
    for src in RUNTIME_SOURCES {
        let mut cmd = Command::new(&cxx[0]);
        cmd.args(&cxx[1..])
            .args(CXX_COMMON_FLAGS)
            .arg(RUNTIME_OPT)
            .arg(format!("-I{include_s}"))
            .arg(format!("-I{vltstd}"))
            .arg("-c")
            .arg(include.join(format!("{src}.cpp")))
            .arg("-o")
            .arg(tmp.join(format!("{src}.o")))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let desc = format!("{cmd:?}");
        let child = cmd.spawn().map_err(|e| VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail: e.to_string(),
        })?;
        children.push((desc, child));
    }
    let mut log = String::new();
    let mut ok = true;
    for (desc, child) in children {
        let out = child
            .wait_with_output()
            .map_err(io_err("waiting for the C++ compiler"))?;
        let _ = writeln!(log, "$ {desc}");
        log.push_str(&String::from_utf8_lossy(&out.stdout));
        log.push_str(&String::from_utf8_lossy(&out.stderr));
        if !out.status.success() {
            let _ = writeln!(log, "[{}]", out.status);
            ok = false;
        }
    }
    let log_path = tmp.join("compile.log");
    fs::write(&log_path, &log).map_err(io_err(format!("cannot write {}", log_path.display())))?;
    if ok {
        let mut ar = Command::new("ar");
        ar.arg("rcs").arg(tmp.join("libverilated.a"));
        for src in RUNTIME_SOURCES {
            ar.arg(tmp.join(format!("{src}.o")));
        }
        let (ar_ok, ar_log) = run_logged(&mut ar, &tmp.join("ar.log"), |detail| {
            VerilatorError::CompilerNotFound {
                program: "ar".to_string(),
                detail,
            }
        })?;
        log.push_str(&ar_log);
        ok = ar_ok;
    }
    if !ok {
        let log_path = keep_failed(&tmp, cache, &name, "compile.log");
        return Err(VerilatorError::Compile {
            top: "(Verilator run-time library)".to_string(),
            log: log_tail(&log),
            log_path,
        });
    }
    for src in RUNTIME_SOURCES {
        let _ = fs::remove_file(tmp.join(format!("{src}.o")));
    }
    write_seal(&tmp, &name, "libverilated.a")?;
    publish(&tmp, &dest)?;
    if !quiet {
        eprintln!(
            "warpgen: Verilator run-time library built in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    Ok(archive)
}
