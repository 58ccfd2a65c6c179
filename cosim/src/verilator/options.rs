//! The options of a model build, and how a model was obtained.

use std::path::PathBuf;
use std::time::Duration;

/// Options of [`VerilatorModel::build`](super::VerilatorModel::build).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// Cache directory; `None` means
    /// [`default_cache_dir`](super::default_cache_dir).
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

/// How a [`VerilatorModel`](super::VerilatorModel) was obtained.
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
    /// Total time of [`VerilatorModel::build`](super::VerilatorModel::build),
    /// loading included.
    pub total_time: Duration,
}
