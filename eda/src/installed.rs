//! Whether the external tools are installed, and which versions.

use std::ffi::OsStr;
use std::process::Command;

use crate::error::EdaError;
use crate::run::{run_checked, work_dir};
use crate::tool::{which, Tool};

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
    let dir = work_dir()?;
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
