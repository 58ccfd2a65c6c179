//! Process running: temporary work directories, output capture, time limits.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::EdaError;
use crate::tool::Tool;

/// Environment variable overriding the simulation time limit, in seconds.
pub const SIM_TIMEOUT_ENV: &str = "WARPGEN_SIM_TIMEOUT_SECS";

/// Default time limit for running a compiled test bench (`vvp`, or the
/// Verilator executable), in seconds. Tool runs that compile or synthesize
/// have no limit.
pub const SIM_TIMEOUT_SECS_DEFAULT: u64 = 1800;

/// The time limit for running a test bench: `$WARPGEN_SIM_TIMEOUT_SECS` if it
/// is set to a positive integer, else [`SIM_TIMEOUT_SECS_DEFAULT`].
pub fn sim_timeout() -> Duration {
    let secs = std::env::var(SIM_TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(SIM_TIMEOUT_SECS_DEFAULT);
    Duration::from_secs(secs)
}

/// What a finished process printed.
#[derive(Debug)]
pub(crate) struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// stdout then stderr, for error messages.
    pub fn combined(&self) -> String {
        combine(&self.stdout, &self.stderr)
    }
}

fn combine(stdout: &str, stderr: &str) -> String {
    let mut s = String::with_capacity(stdout.len() + stderr.len() + 1);
    s.push_str(stdout);
    if !stdout.is_empty() && !stdout.ends_with('\n') && !stderr.is_empty() {
        s.push('\n');
    }
    s.push_str(stderr);
    s
}

/// The environment variable that keeps the tools' working directories
/// (the mapped netlist, the Yosys and OpenSTA logs and scripts) for
/// inspection, e.g. to time a netlist's endpoints with OpenSTA by hand.
pub const KEEP_WORK_ENV: &str = "WARPGEN_KEEP_EDA_DIRS";

/// A fresh temporary working directory for one tool run. With
/// [`KEEP_WORK_ENV`] set (non-empty), the directory is not deleted and its
/// path is printed on stderr.
pub(crate) fn work_dir() -> Result<tempfile::TempDir, EdaError> {
    work_dir_kept(std::env::var_os(KEEP_WORK_ENV).is_some_and(|v| !v.is_empty()))
}

/// [`work_dir`] with the choice made: `keep` leaves the directory behind
/// (and says where).
fn work_dir_kept(keep: bool) -> Result<tempfile::TempDir, EdaError> {
    let dir = tempfile::Builder::new()
        .prefix("warpgen-eda-")
        .disable_cleanup(keep)
        .tempdir()
        .map_err(|e| EdaError::io("creating a temporary directory", e))?;
    if keep {
        eprintln!("{KEEP_WORK_ENV}: keeping {}", dir.path().display());
    }
    Ok(dir)
}

/// Resolves an input file to an absolute path (tools run with a temporary
/// directory as their working directory), checking that it exists.
pub(crate) fn input_file(path: &Path) -> Result<PathBuf, EdaError> {
    let abs = std::fs::canonicalize(path).map_err(|source| EdaError::Input {
        path: path.to_path_buf(),
        source,
    })?;
    if !abs.is_file() {
        return Err(EdaError::Input {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"),
        });
    }
    Ok(abs)
}

/// The command line as text, for error messages.
pub(crate) fn command_line(cmd: &Command) -> String {
    let mut parts = vec![quote(&cmd.get_program().to_string_lossy())];
    parts.extend(cmd.get_args().map(|a| quote(&a.to_string_lossy())));
    let mut s = parts.join(" ");
    if let Some(dir) = cmd.get_current_dir() {
        s = format!("(cd {} && {s})", quote(&dir.to_string_lossy()));
    }
    s
}

fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn reader<R: Read + Send + 'static>(r: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            // A read error just truncates the captured output.
            let _ = r.read_to_end(&mut buf);
        }
        buf
    })
}

fn wait_with_timeout(
    child: &mut Child,
    timeout: Option<Duration>,
) -> std::io::Result<Option<ExitStatus>> {
    let Some(limit) = timeout else {
        return child.wait().map(Some);
    };
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if start.elapsed() >= limit {
            // Kill only the process we started; it is reaped just below.
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Runs `cmd` with stdin closed and stdout/stderr captured, without judging
/// its exit status. A missing program becomes [`EdaError::NotInstalled`].
pub(crate) fn run(
    tool: Tool,
    cmd: &mut Command,
    timeout: Option<Duration>,
) -> Result<Output, EdaError> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            let program = cmd.get_program().to_string_lossy().to_string();
            let program = tool
                .programs()
                .iter()
                .copied()
                .find(|p| *p == program)
                .unwrap_or(tool.program());
            EdaError::NotInstalled {
                tool,
                program,
                package: tool.package(),
            }
        } else {
            EdaError::io(format!("starting `{}`", command_line(cmd)), e)
        }
    })?;
    let out_reader = reader(child.stdout.take());
    let err_reader = reader(child.stderr.take());
    let status = wait_with_timeout(&mut child, timeout)
        .map_err(|e| EdaError::io(format!("waiting for `{}`", command_line(cmd)), e))?;
    let stdout = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    match status {
        Some(status) => Ok(Output {
            status,
            stdout,
            stderr,
        }),
        None => Err(EdaError::Timeout {
            tool,
            command: command_line(cmd),
            seconds: timeout.map(|t| t.as_secs()).unwrap_or_default(),
            output: combine(&stdout, &stderr),
        }),
    }
}

/// Like [`run`], but a non-zero exit status becomes [`EdaError::ToolFailed`].
pub(crate) fn run_checked(
    tool: Tool,
    cmd: &mut Command,
    timeout: Option<Duration>,
) -> Result<Output, EdaError> {
    let out = run(tool, cmd, timeout)?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(failed(tool, cmd, &out))
    }
}

/// The [`EdaError::ToolFailed`] for a finished run.
pub(crate) fn failed(tool: Tool, cmd: &Command, out: &Output) -> EdaError {
    EdaError::ToolFailed {
        tool,
        command: command_line(cmd),
        status: out.status.to_string(),
        output: out.combined(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept working directory outlives its handle; a plain one does not.
    #[test]
    fn work_directories_are_kept_only_when_asked() {
        let kept = work_dir_kept(true).unwrap();
        let kept_path = kept.path().to_path_buf();
        std::fs::write(kept_path.join("netlist.v"), "module m; endmodule\n").unwrap();
        drop(kept);
        assert!(
            kept_path.join("netlist.v").is_file(),
            "{}",
            kept_path.display()
        );
        std::fs::remove_dir_all(&kept_path).unwrap();

        let plain = work_dir_kept(false).unwrap();
        let plain_path = plain.path().to_path_buf();
        drop(plain);
        assert!(!plain_path.exists(), "{}", plain_path.display());
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("abc/d.v"), "abc/d.v");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[cfg(unix)]
    #[test]
    fn timeout_kills() {
        let mut cmd = Command::new("sleep");
        cmd.arg("5");
        let t0 = Instant::now();
        let err = run(Tool::Iverilog, &mut cmd, Some(Duration::from_millis(200))).unwrap_err();
        assert!(matches!(err, EdaError::Timeout { .. }), "{err}");
        assert!(t0.elapsed() < Duration::from_secs(4));
    }

    #[cfg(unix)]
    #[test]
    fn failure_carries_output() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let err = run_checked(Tool::Yosys, &mut cmd, None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("out") && text.contains("err"), "{text}");
        assert_eq!(err.tool_output().unwrap(), "out\nerr\n");
    }

    #[test]
    fn missing_program_is_not_installed() {
        let mut cmd = Command::new("warpgen-no-such-program-xyz");
        let err = run(Tool::Yosys, &mut cmd, None).unwrap_err();
        assert!(err.to_string().contains("apt-get install yosys"), "{err}");
    }
}
