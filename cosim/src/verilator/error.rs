//! Everything that can go wrong building or loading a Verilator model.

use std::io;
use std::path::PathBuf;

/// How to install Verilator.
pub fn install_hint() -> &'static str {
    "install it with: apt-get install verilator (Debian/Ubuntu), \
     dnf install verilator (Fedora), brew install verilator (macOS), \
     or from source (https://verilator.org/guide/latest/install.html); \
     without it, use the RustHDL back-end"
}

/// Everything that can go wrong building or loading a Verilator model.
#[derive(Debug, thiserror::Error)]
pub enum VerilatorError {
    /// The `verilator` program could not be run.
    #[error(
        "Verilator is not installed (could not run `{program}`: {detail}); {}",
        install_hint()
    )]
    NotInstalled {
        /// The program that was tried.
        program: String,
        /// Why it could not be run.
        detail: String,
    },
    /// The C++ compiler (`$CXX`, else `g++`) could not be run.
    #[error(
        "the C++ compiler `{program}` could not be run ({detail}); install one with: \
         apt-get install g++ (Debian/Ubuntu), or point $CXX at a C++17 compiler"
    )]
    CompilerNotFound {
        /// The compiler command that was tried.
        program: String,
        /// Why it could not be run.
        detail: String,
    },
    /// The top module or a port list is not usable (bad identifier, width
    /// out of 1..=64, duplicate, or not matching the Verilated design).
    #[error("cannot simulate `{top}` with Verilator: {message}")]
    Ports {
        /// Top module name.
        top: String,
        /// What is wrong, naming the port.
        message: String,
    },
    /// `verilator` rejected the design (syntax or elaboration error).
    #[error(
        "Verilator rejected the design `{top}`; fix the Verilog (full log: {}):\n{log}",
        log_path.display()
    )]
    Verilate {
        /// Top module name.
        top: String,
        /// The last lines of Verilator's output.
        log: String,
        /// Where the whole log was kept.
        log_path: PathBuf,
    },
    /// Compiling or linking the Verilated model failed.
    #[error(
        "compiling the Verilated model of `{top}` failed (full log: {}); check the C++ \
         toolchain ($CXX, Verilator's include files) and report the log:\n{log}",
        log_path.display()
    )]
    Compile {
        /// Top module name.
        top: String,
        /// The last lines of the compiler's output.
        log: String,
        /// Where the whole log was kept.
        log_path: PathBuf,
    },
    /// The shared library could not be loaded or does not fit.
    #[error(
        "cannot load the Verilator model library {}: {message}; delete that cache entry to \
         rebuild it",
        path.display()
    )]
    Load {
        /// The library.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A file-system operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, naming the path.
        context: String,
        /// The underlying error.
        source: io::Error,
    },
}

/// The result of the back-end's fallible steps.
pub(super) type Result<T> = std::result::Result<T, VerilatorError>;

/// Wraps an I/O error with what was being done.
pub(super) fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> VerilatorError {
    let context = context.into();
    move |source| VerilatorError::Io { context, source }
}
