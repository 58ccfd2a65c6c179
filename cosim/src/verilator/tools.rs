//! Finding and running the tools: Verilator and the C++ compiler.

use super::error::{io_err, Result, VerilatorError};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

pub(super) const VERILATOR: &str = "verilator";

fn version_of(program: &str) -> std::result::Result<String, String> {
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("`{program} --version` exited with {}", out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("").trim().to_string();
    if line.is_empty() {
        return Err(format!("`{program} --version` printed nothing"));
    }
    Ok(line)
}

fn verilator_version_result() -> &'static std::result::Result<String, String> {
    static V: OnceLock<std::result::Result<String, String>> = OnceLock::new();
    V.get_or_init(|| version_of(VERILATOR))
}

/// The first line of `verilator --version` (e.g. `Verilator 5.006
/// 2023-01-22 rev (Debian 5.006-3)`), or `None` if it cannot be run. Cached
/// for the life of the process.
pub fn verilator_version() -> Option<String> {
    verilator_version_result().as_ref().ok().cloned()
}

/// Whether `verilator` can be run.
pub fn verilator_available() -> bool {
    verilator_version_result().is_ok()
}

pub(super) fn require_verilator() -> Result<String> {
    verilator_version_result()
        .clone()
        .map_err(|detail| VerilatorError::NotInstalled {
            program: VERILATOR.to_string(),
            detail,
        })
}

/// Verilator's installation root (`verilator --getenv VERILATOR_ROOT`),
/// whose `include/` holds the run-time sources.
pub(super) fn verilator_root() -> Result<PathBuf> {
    static R: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    R.get_or_init(|| {
        let out = Command::new(VERILATOR)
            .args(["--getenv", "VERILATOR_ROOT"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || root.is_empty() {
            return Err("`verilator --getenv VERILATOR_ROOT` gave no directory".to_string());
        }
        Ok(PathBuf::from(root))
    })
    .clone()
    .map_err(|detail| VerilatorError::NotInstalled {
        program: VERILATOR.to_string(),
        detail,
    })
}

/// The C++ compiler command: `$CXX` (which may carry arguments, e.g.
/// `ccache g++`) or `g++`.
pub(super) fn cxx_command() -> Vec<String> {
    let words: Vec<String> = std::env::var("CXX")
        .ok()
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    if words.is_empty() {
        vec!["g++".to_string()]
    } else {
        words
    }
}

/// The compiler's `--version` line, cached per compiler command.
pub(super) fn cxx_identity(cxx: &[String]) -> Result<String> {
    static IDS: OnceLock<Mutex<HashMap<Vec<String>, String>>> = OnceLock::new();
    let ids = IDS.get_or_init(Default::default);
    if let Some(id) = ids.lock().unwrap_or_else(|e| e.into_inner()).get(cxx) {
        return Ok(id.clone());
    }
    let out = Command::new(&cxx[0])
        .args(&cxx[1..])
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail: format!("`--version` exited with {}", out.status),
        });
    }
    let id = format!(
        "{}: {}",
        cxx.join(" "),
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
    );
    ids.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(cxx.to_vec(), id.clone());
    Ok(id)
}

/// How much of a failing tool's log an error message carries.
const LOG_TAIL_LINES: usize = 40;
/// Cap on the characters of the log tail in an error message.
const LOG_TAIL_CHARS: usize = 6000;

pub(super) fn log_tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let start = lines.len().saturating_sub(LOG_TAIL_LINES);
    let mut tail = lines[start..].join("\n");
    if tail.len() > LOG_TAIL_CHARS {
        let mut cut = tail.len() - LOG_TAIL_CHARS;
        while !tail.is_char_boundary(cut) {
            cut += 1;
        }
        tail = format!("...{}", &tail[cut..]);
    }
    tail
}

/// Run a tool, capturing stdout and stderr into one log (also written to
/// `log_path`). Returns whether it succeeded and the log.
pub(super) fn run_logged(
    cmd: &mut Command,
    log_path: &Path,
    not_found: impl FnOnce(String) -> VerilatorError,
) -> Result<(bool, String)> {
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            not_found(e.to_string())
        } else {
            io_err(format!("cannot run {cmd:?}"))(e)
        }
    })?;
    let mut log = format!("$ {cmd:?}\n");
    log.push_str(&String::from_utf8_lossy(&out.stdout));
    log.push_str(&String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        let _ = writeln!(log, "[{}]", out.status);
    }
    fs::write(log_path, &log).map_err(io_err(format!("cannot write {}", log_path.display())))?;
    Ok((out.status.success(), log))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tool_message_says_how_to_install() {
        let e = VerilatorError::NotInstalled {
            program: "verilator".into(),
            detail: version_of("warpgen-no-such-program-xyz").unwrap_err(),
        };
        let msg = e.to_string();
        assert!(msg.contains("apt-get install verilator"), "{msg}");
        assert!(msg.contains("not installed"), "{msg}");
    }

    #[test]
    fn log_tail_keeps_the_end() {
        let log: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let t = log_tail(&log);
        assert!(t.starts_with("line 60"));
        assert!(t.ends_with("line 99"));
    }
}
