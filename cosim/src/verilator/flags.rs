//! Versions and flags of a build: the wrapper and run-time recipe versions
//! (parts of the cache keys), and the Verilator, compiler and linker flags.

/// Version of the generated C++ wrapper and of its C ABI. Part of every
/// cache key; bump it whenever the template or the ABI changes.
pub(super) const WRAPPER_VERSION: u32 = 3;

/// Version of the run-time archive recipe (file list, flags). Part of the
/// run-time cache key.
pub(super) const RUNTIME_VERSION: u32 = 1;

/// Arguments given to `verilator` before `--top-module`, `--Mdir` and the
/// source file (plus `--trace` for a model built with
/// [`BuildOptions::trace`](super::BuildOptions::trace)).
/// `--default-language 1364-2005` makes SystemVerilog keywords
/// (`logic`, `bit`, `this`, ...) plain identifiers, as in Verilog-2005;
/// `--no-timing` ignores delays (the run is cycle based).
pub(super) const VERILATOR_FLAGS: &[&str] = &[
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
pub(super) const CXX_COMMON_FLAGS: &[&str] = &[
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
pub(super) const RUNTIME_OPT: &str = "-O2";

/// Optimisation level of each model's translation unit. Measured on 2 cores
/// with the 2719-line `ba_tag_array`: `-O1` compiles in 15 s and runs
/// 0.136 M cycles/s, `-O2` needs 25 s for 0.133 M cycles/s; on a synthetic
/// 2800-line tag array `-O1` took ~10 s for ~0.40 M cycles/s, `-O2` 17-21 s
/// for 0.37-0.49 M cycles/s (`-Os`: 16 s, 0.38 M cycles/s). `-O2` would
/// only pay off after tens of millions of cycles, so `-O1` it is.
pub(super) const MODEL_OPT: &str = "-O1";

/// Run-time sources Verilator 5 needs for a single-threaded `--cc --trace`
/// model (`VM_GLOBAL_FAST` / `VM_GLOBAL_SLOW` of the generated makefile).
pub(super) const RUNTIME_SOURCES: &[&str] = &["verilated", "verilated_vcd_c", "verilated_threads"];

/// Flags for linking a model's shared library. The run-time library's
/// symbols stay local to each model (`--exclude-libs`, `-fvisibility`), so
/// several models, each with its own copy, coexist in one process.
pub(super) const LINK_FLAGS: &[&str] = &[
    "-shared",
    "-Wl,--exclude-libs,ALL",
    "-Wl,-z,defs",
    "-pthread",
    "-latomic",
];
