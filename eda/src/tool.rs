//! The external tools and where their programs are found on `PATH`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

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

    /// The arguments that make the program print its version.
    pub(crate) fn version_args(self) -> &'static [&'static str] {
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
