//! The crate's error type.

use std::path::PathBuf;

use crate::tool::Tool;

/// Everything that can go wrong while running an EDA tool.
#[derive(Debug, thiserror::Error)]
pub enum EdaError {
    /// The tool's program is not on `PATH`.
    #[error(
        "{tool} is not installed (`{program}` not found on PATH); \
         install it with `apt-get install {package}`"
    )]
    NotInstalled {
        /// The tool that is missing.
        tool: Tool,
        /// The program that was looked for (`verilator`, `yosys`, `iverilog`, `vvp`).
        program: &'static str,
        /// The Debian/Ubuntu package that provides it.
        package: &'static str,
    },

    /// A lint waiver that the project conventions forbid.
    #[error("Verilator waiver `{category}` refused: {why}")]
    WaiverRefused {
        /// The category that was asked to be waived.
        category: String,
        /// Why it is refused.
        why: String,
    },

    /// The top-module name is not a plain Verilog identifier.
    #[error(
        "invalid top-module name `{0}`: expected a plain Verilog identifier [A-Za-z_][A-Za-z0-9_]*"
    )]
    InvalidTop(String),

    /// An input file does not exist or cannot be resolved.
    #[error("input file {path} cannot be used: {source}")]
    Input {
        /// The path as given.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },

    /// The tool ran and reported failure (syntax error, elaboration error,
    /// failing test bench, ...). `output` holds its stdout and stderr.
    #[error("{tool} failed ({status}) running `{command}`:\n{output}")]
    ToolFailed {
        /// The tool that failed.
        tool: Tool,
        /// The command line, for reproducing by hand.
        command: String,
        /// Exit status (or signal) as text.
        status: String,
        /// Captured stdout followed by stderr.
        output: String,
    },

    /// A simulation ran longer than its time limit (see [`crate::sim_timeout`])
    /// and was killed.
    #[error("{tool} timed out after {seconds} s running `{command}`:\n{output}")]
    Timeout {
        /// The tool whose run was killed.
        tool: Tool,
        /// The command line.
        command: String,
        /// The limit that was exceeded, in seconds.
        seconds: u64,
        /// Whatever the process printed before it was killed.
        output: String,
    },

    /// An I/O error outside the tools themselves (temporary files, spawning).
    #[error("I/O error while {context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },

    /// A tool's report could not be understood.
    #[error("could not parse {what}: {detail}")]
    Parse {
        /// Which report.
        what: String,
        /// What was wrong with it.
        detail: String,
    },
}

impl EdaError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        EdaError::Io {
            context: context.into(),
            source,
        }
    }

    pub(crate) fn parse(what: impl Into<String>, detail: impl Into<String>) -> Self {
        EdaError::Parse {
            what: what.into(),
            detail: detail.into(),
        }
    }

    /// The tool output carried by the error ([`EdaError::ToolFailed`] and
    /// [`EdaError::Timeout`]), if any.
    pub fn tool_output(&self) -> Option<&str> {
        match self {
            EdaError::ToolFailed { output, .. } | EdaError::Timeout { output, .. } => Some(output),
            _ => None,
        }
    }
}
