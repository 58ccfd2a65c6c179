//! Icarus Verilog elaboration and test-bench runs under Icarus and Verilator.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::EdaError;
use crate::installed::require_tool;
use crate::run::{input_file, run_checked, sim_timeout, work_dir};
use crate::tool::Tool;

/// The fixed seed passed as `+verilator+seed+N` to Verilator executables, so
/// that the random power-up state is reproducible from run to run.
pub const VERILATOR_SIM_SEED: u32 = 1;

fn input_files(files: &[&Path]) -> Result<Vec<PathBuf>, EdaError> {
    if files.is_empty() {
        return Err(EdaError::Input {
            path: PathBuf::new(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "no input files given"),
        });
    }
    files.iter().map(|f| input_file(f)).collect()
}

/// Compiles `verilog` with `iverilog -g2005 -s <top>` (into a temporary
/// directory) and reports success, or [`EdaError::ToolFailed`] carrying
/// Icarus's messages (which name file and line).
pub fn check_iverilog(verilog: &Path, top: &str) -> Result<(), EdaError> {
    crate::source::validate_top(top)?;
    require_tool(Tool::Iverilog)?;
    let file = input_file(verilog)?;
    let dir = work_dir()?;
    let mut cmd = Command::new("iverilog");
    cmd.current_dir(dir.path())
        .args(["-g2005", "-s", top, "-o"])
        .arg(dir.path().join("check.vvp"))
        .arg(&file);
    run_checked(Tool::Iverilog, &mut cmd, None)?;
    Ok(())
}

/// Compiles `files` with `iverilog -g2005 -s <top>`, runs the result with
/// `vvp -n` (working directory: a temporary directory, so `$dumpfile` and
/// other outputs land there) and returns what the simulation printed on
/// stdout.
///
/// A compile error, a non-zero exit (e.g. `$fatal`) or exceeding
/// [`sim_timeout`](crate::sim_timeout) is an error carrying the output.
/// Whether the test bench passed is for the caller to judge from the text.
pub fn run_iverilog_testbench(files: &[&Path], top: &str) -> Result<String, EdaError> {
    crate::source::validate_top(top)?;
    require_tool(Tool::Iverilog)?;
    let files = input_files(files)?;
    let dir = work_dir()?;
    let image = dir.path().join("sim.vvp");
    let mut compile = Command::new("iverilog");
    compile
        .current_dir(dir.path())
        .args(["-g2005", "-s", top, "-o"])
        .arg(&image)
        .args(&files);
    let built = run_checked(Tool::Iverilog, &mut compile, None)?;
    // A combinational block Icarus never runs (its reads all sit under
    // constant conditions) keeps X where Verilator computes a value: the
    // bench would report an RTL mismatch that is not one. Refused here,
    // naming the line.
    if built.stderr.contains("found no sensitivities") {
        return Err(EdaError::ToolFailed {
            tool: Tool::Iverilog,
            command: crate::run::command_line(&compile),
            status: "an `always @(*)` block with no sensitivity (it never runs under \
                     Icarus; read a signal in its conditions)"
                .to_string(),
            output: built.combined(),
        });
    }
    let mut sim = Command::new("vvp");
    sim.current_dir(dir.path()).arg("-n").arg(&image);
    let out = run_checked(Tool::Iverilog, &mut sim, Some(sim_timeout()))?;
    Ok(out.stdout)
}

/// Builds `files` with `verilator --binary -j 2 --top-module <top>` and runs
/// the produced executable, returning what it printed on stdout.
///
/// Build options: `-Wno-fatal` (lint is [`crate::lint_verilator`]'s job; a
/// test bench's own warnings must not stop it from running), and
/// `--x-assign unique --x-initial unique`; the executable is run with
/// `+verilator+rand+reset+2 +verilator+seed+`[`VERILATOR_SIM_SEED`], so
/// every register starts from a random (but reproducible) power-up value:
/// `conventions.md` requires identical behaviour from random power-up state
/// followed by reset. The build and run happen in a temporary directory.
///
/// A build error, a non-zero exit (`$fatal`, `$stop`, failed assertion) or
/// exceeding [`sim_timeout`](crate::sim_timeout) is an error carrying the
/// output.
pub fn run_verilator_binary(files: &[&Path], top: &str) -> Result<String, EdaError> {
    crate::source::validate_top(top)?;
    require_tool(Tool::Verilator)?;
    let files = input_files(files)?;
    let dir = work_dir()?;
    let mdir = dir.path().join("obj_dir");
    let exe_name = format!("V{top}");
    let mut build = Command::new("verilator");
    build
        .current_dir(dir.path())
        .args(["--binary", "-j", "2", "--top-module", top])
        .args([
            "-Wno-fatal",
            "--x-assign",
            "unique",
            "--x-initial",
            "unique",
        ])
        .arg("--Mdir")
        .arg(&mdir)
        .args(["-o", &exe_name])
        .args(&files);
    run_checked(Tool::Verilator, &mut build, None)?;
    let exe = mdir.join(&exe_name);
    if !exe.is_file() {
        return Err(EdaError::parse(
            "Verilator --binary build",
            format!("the build succeeded but {} was not produced", exe.display()),
        ));
    }
    let mut sim = Command::new(&exe);
    sim.current_dir(dir.path())
        .arg("+verilator+rand+reset+2")
        .arg(format!("+verilator+seed+{VERILATOR_SIM_SEED}"));
    let out = run_checked(Tool::Verilator, &mut sim, Some(sim_timeout()))?;
    Ok(out.stdout)
}
