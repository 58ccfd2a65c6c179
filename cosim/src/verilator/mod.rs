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
mod error;
mod flags;
mod header;
mod model;
mod options;
mod raw;
mod runtime;
mod tools;
mod wrapper;

pub use cache::default_cache_dir;
pub use error::{install_hint, VerilatorError};
pub use model::VerilatorModel;
pub use options::{BuildInfo, BuildOptions};
pub use raw::{fold_outputs, RawRun};
pub use tools::{verilator_available, verilator_version};
