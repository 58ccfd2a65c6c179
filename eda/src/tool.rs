//! The external tools, their discovery on `PATH` and their versions.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::error::EdaError;
use crate::run::run_checked;

/// An external EDA tool this crate drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tool {
    /// Verilator (lint, and `--binary` simulation).
    Verilator,
    /// Yosys (synthesis and area).
    Yosys,
    /// Icarus Verilog (`iverilog` compiler plus the `vvp` runtime).
    Iverilog,
    /// OpenSTA static timing analysis (`sta`, Debian package `opensta`).
    OpenSta,
}

impl Tool {
    /// All tools, in a fixed order.
    pub const ALL: [Tool; 4] = [Tool::Verilator, Tool::Yosys, Tool::Iverilog, Tool::OpenSta];

    /// The main program name.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Verilator => "verilator",
            Tool::Yosys => "yosys",
            Tool::Iverilog => "iverilog",
            Tool::OpenSta => "sta",
        }
    }

    /// Every program the tool needs on `PATH` (Icarus also needs `vvp`).
    pub fn programs(self) -> &'static [&'static str] {
        match self {
            Tool::Verilator => &["verilator"],
            Tool::Yosys => &["yosys"],
            Tool::Iverilog => &["iverilog", "vvp"],
            Tool::OpenSta => &["sta"],
        }
    }

    /// The Debian/Ubuntu package that provides it.
    pub fn package(self) -> &'static str {
        match self {
            Tool::Verilator => "verilator",
            Tool::Yosys => "yosys",
            Tool::Iverilog => "iverilog",
            Tool::OpenSta => "opensta",
        }
    }

    fn version_args(self) -> &'static [&'static str] {
        match self {
            Tool::Verilator => &["--version"],
            Tool::Yosys => &["-V"],
            Tool::Iverilog => &["-V"],
            Tool::OpenSta => &["-version"],
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tool::Verilator => "Verilator",
            Tool::Yosys => "Yosys",
            Tool::Iverilog => "Icarus Verilog",
            Tool::OpenSta => "OpenSTA",
        })
    }
}

/// Finds an executable called `program` in the directories of `$PATH`.
pub(crate) fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file() || path.with_extension("exe").is_file()
}

/// Whether every program of `tool` is on `PATH`.
pub fn tool_available(tool: Tool) -> bool {
    tool.programs().iter().all(|p| which(p).is_some())
}

/// Returns `Ok(())` if `tool` is available, else [`EdaError::NotInstalled`]
/// naming the missing program and the `apt-get install` package.
pub fn require_tool(tool: Tool) -> Result<(), EdaError> {
    for program in tool.programs() {
        if which(program).is_none() {
            return Err(EdaError::NotInstalled {
                tool,
                program,
                package: tool.package(),
            });
        }
    }
    Ok(())
}

/// The tool's version line, e.g. `Verilator 5.006 2023-01-22 rev (Debian 5.006-3)`,
/// `Yosys 0.23 (git sha1 7ce5011c24b)` or `Icarus Verilog version 11.0 (stable) ()`.
pub fn tool_version(tool: Tool) -> Result<String, EdaError> {
    require_tool(tool)?;
    let dir = crate::run::work_dir()?;
    let mut cmd = Command::new(tool.program());
    cmd.args(tool.version_args().iter().map(OsStr::new))
        .current_dir(dir.path());
    let out = run_checked(tool, &mut cmd, None)?;
    out.stdout
        .lines()
        .chain(out.stderr.lines())
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
        .ok_or_else(|| {
            EdaError::parse(format!("{tool} version output"), "the tool printed nothing")
        })
}
