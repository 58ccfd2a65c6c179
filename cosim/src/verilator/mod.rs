//! The Verilator back-end: the emitted Verilog text itself, Verilated to C++,
//! compiled into a shared library and driven from Rust through a small C ABI
//! (`cosim.md`, "Back-ends").
//!
//! # Build flow
//!
//! [`VerilatorModel::build`]:
//!
//! 1. hashes everything that determines the model (Verilog text, top module,
//!    port lists, Verilator version, C++ compiler, flags, wrapper version)
//!    and looks the hash up in the cache ([`default_cache_dir`]); on a hit it
//!    only `dlopen`s the cached library;
//! 2. otherwise writes the Verilog to a temporary directory inside the cache
//!    and runs `verilator --cc -O3 --x-assign unique --x-initial unique ...`
//!    on it (with `--trace` only when a waveform is wanted; no linting: that
//!    is done elsewhere);
//! 3. reads the Verilated class `V<top>` (its `V<top>.h`) to find each
//!    port's C++ member and type, and checks the given port lists against it;
//! 4. generates a C++ wrapper with an `extern "C"` interface and compiles the
//!    whole model as *one* translation unit (every generated `.cpp` plus the
//!    wrapper, `#include`d into one file) into a shared library, linked with
//!    the Verilator run-time library, which is itself compiled only once per
//!    Verilator version, compiler and flags and cached as a static archive;
//! 5. renames the temporary directory into place (so a crashed or concurrent
//!    build never leaves a half-written entry; builds of the same entry are
//!    also serialised with a lock file) and loads the library.
//!
//! # One cycle
//!
//! [`RtlBackend::cycle`](crate::RtlBackend::cycle) is one FFI call. In a
//! traced model, for cycle `n`, it drives `clock` low and every input,
//! evaluates, copies every output, dumps the VCD (if open) at
//! `n * CYCLE_TIME`, raises `clock`, evaluates and dumps at
//! `n * CYCLE_TIME + CYCLE_TIME / 2`. The falling edge is folded into the
//! next call (clock low and the new inputs are applied in the same
//! evaluation), so waveforms show the clock low at every `n * CYCLE_TIME`.
//! VCDs use a `1ns` timescale, so the timestamps are `#0`, `#5`, `#10`, ...
//! An untraced model takes one evaluation per cycle instead: it copies the
//! outputs (the units' outputs come from registers, so the previous
//! evaluation settled them), drives the inputs, raises `clock` after
//! clearing Verilator's record of its previous value, and evaluates once:
//! the input logic, the edge and the logic after it (`wrapper.rs`,
//! `prev_clock_member`; with an unknown Verilator it falls back to two
//! evaluations).
//!
//! # Power-up state
//!
//! With [`BuildOptions::random_init_seed`] every register, memory and input
//! starts from a pseudo-random value derived from the seed
//! (`Verilated::randReset(2)`), as `conventions.md` requires: a design must
//! behave the same from any power-up state followed by reset. Without it
//! everything starts at zero. The seed only affects the run, not the build:
//! every seed uses the same cached library.

mod build;
mod cache;
mod header;
mod model;
mod raw;
mod runtime;
mod tools;
mod wrapper;

pub use cache::default_cache_dir;
pub use model::VerilatorModel;
pub use raw::{fold_outputs, RawRun};
pub use tools::{verilator_available, verilator_version};

use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// Version of the generated C++ wrapper and of its C ABI. Part of every
/// cache key; bump it whenever the template or the ABI changes.
const WRAPPER_VERSION: u32 = 3;

/// Version of the run-time archive recipe (file list, flags). Part of the
/// run-time cache key.
const RUNTIME_VERSION: u32 = 1;

/// Arguments given to `verilator` before `--top-module`, `--Mdir` and the
/// source file (plus `--trace` for a model built with
/// [`BuildOptions::trace`]). `--default-language 1364-2005` makes SystemVerilog keywords
/// (`logic`, `bit`, `this`, ...) plain identifiers, as in Verilog-2005;
/// `--no-timing` ignores delays (the run is cycle based).
const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "-O3",
    "--x-assign",
    "unique",
    "--x-initial",
    "unique",
    "-Wno-fatal",
    "--default-language",
    "1364-2005",
    "--no-timing",
];

/// Flags used for every C++ compilation (run time and model), besides the
/// optimisation level and include paths. The warning switches are those of
/// Verilator's own `verilated.mk`.
const CXX_COMMON_FLAGS: &[&str] = &[
    "-std=gnu++17",
    "-fPIC",
    "-fvisibility=hidden",
    "-DVM_COVERAGE=0",
    "-DVM_SC=0",
    "-DVM_TRACE=1",
    "-DVM_TRACE_FST=0",
    "-DVM_TRACE_VCD=1",
    "-faligned-new",
    "-fcf-protection=none",
    "-Wno-bool-operation",
    "-Wno-sign-compare",
    "-Wno-uninitialized",
    "-Wno-unused-but-set-variable",
    "-Wno-unused-parameter",
    "-Wno-unused-variable",
    "-Wno-shadow",
];

/// Optimisation level of the Verilator run-time library.
const RUNTIME_OPT: &str = "-O2";

/// Optimisation level of each model's translation unit. Measured on 2 cores
/// with the 2719-line `ba_tag_array`: `-O1` compiles in 15 s and runs
/// 0.136 M cycles/s, `-O2` needs 25 s for 0.133 M cycles/s; on a synthetic
/// 2800-line tag array `-O1` took ~10 s for ~0.40 M cycles/s, `-O2` 17-21 s
/// for 0.37-0.49 M cycles/s (`-Os`: 16 s, 0.38 M cycles/s). `-O2` would
/// only pay off after tens of millions of cycles, so `-O1` it is.
const MODEL_OPT: &str = "-O1";

/// Run-time sources Verilator 5 needs for a single-threaded `--cc --trace`
/// model (`VM_GLOBAL_FAST` / `VM_GLOBAL_SLOW` of the generated makefile).
const RUNTIME_SOURCES: &[&str] = &["verilated", "verilated_vcd_c", "verilated_threads"];

/// Flags for linking a model's shared library. The run-time library's
/// symbols stay local to each model (`--exclude-libs`, `-fvisibility`), so
/// several models, each with its own copy, coexist in one process.
const LINK_FLAGS: &[&str] = &[
    "-shared",
    "-Wl,--exclude-libs,ALL",
    "-Wl,-z,defs",
    "-pthread",
    "-latomic",
];

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

type Result<T> = std::result::Result<T, VerilatorError>;

fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> VerilatorError {
    let context = context.into();
    move |source| VerilatorError::Io { context, source }
}

/// Options of [`VerilatorModel::build`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// Cache directory; `None` means [`default_cache_dir`].
    pub cache_dir: Option<PathBuf>,
    /// Start from a pseudo-random power-up state derived from this seed
    /// (`Verilated::randReset(2)`); `None` starts from all zeros. Verilator
    /// reads a seed of 0 as "seed from the clock", so seed 0 is replaced by
    /// the fixed seed `0x9E37_79B9` (the two give the same state).
    pub random_init_seed: Option<u32>,
    /// Do not report cache misses (Verilating and compiling) on stderr.
    pub quiet: bool,
    /// Compile VCD tracing in (`--trace`). A model without it cannot write
    /// a waveform ([`crate::RtlBackend::start_vcd`] fails) but runs faster:
    /// Verilator's trace support keeps change flags every cycle even when
    /// no file is open. Traced and untraced models are separate cache
    /// entries.
    pub trace: bool,
}

/// How a [`VerilatorModel`] was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildInfo {
    /// Cache key (hex SHA-256 prefix).
    pub key: String,
    /// Cache entry directory: the Verilog, the generated C++, the logs and
    /// the shared library.
    pub dir: PathBuf,
    /// The shared library that was loaded.
    pub library: PathBuf,
    /// Whether the library came from the cache (no Verilator or compiler
    /// run).
    pub cache_hit: bool,
    /// Time spent running Verilator (zero on a hit).
    pub verilate_time: Duration,
    /// Time spent compiling the model (zero on a hit; excludes the one-off
    /// run-time library build).
    pub compile_time: Duration,
    /// Total time of [`VerilatorModel::build`], loading included.
    pub total_time: Duration,
}
