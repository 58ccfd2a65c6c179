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
//!    and runs `verilator --cc --trace -O3 --x-assign unique --x-initial
//!    unique ...` on it (no linting: that is done elsewhere);
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
//! [`RtlBackend::cycle`] is one FFI call that, for cycle `n`: drives `clock`
//! low and every input, evaluates, copies every output, dumps the VCD (if
//! open) at `n * CYCLE_TIME`, raises `clock`, evaluates and dumps at
//! `n * CYCLE_TIME + CYCLE_TIME / 2`. The falling edge is folded into the
//! next call (clock low and the new inputs are applied in the same
//! evaluation), so waveforms show the clock low at every `n * CYCLE_TIME`.
//! VCDs use a `1ns` timescale, so the timestamps are `#0`, `#5`, `#10`, ...
//!
//! # Power-up state
//!
//! With [`BuildOptions::random_init_seed`] every register, memory and input
//! starts from a pseudo-random value derived from the seed
//! (`Verilated::randReset(2)`), as `conventions.md` requires: a design must
//! behave the same from any power-up state followed by reset. Without it
//! everything starts at zero. The seed only affects the run, not the build:
//! every seed uses the same cached library.

use crate::backend::{RtlBackend, CYCLE_TIME};
use ports::PortDesc;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CString};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

/// Version of the generated C++ wrapper and of its C ABI. Part of every
/// cache key; bump it whenever the template or the ABI changes.
const WRAPPER_VERSION: u32 = 1;

/// Version of the run-time archive recipe (file list, flags). Part of the
/// run-time cache key.
const RUNTIME_VERSION: u32 = 1;

/// Arguments given to `verilator` before `--top-module`, `--Mdir` and the
/// source file. `--default-language 1364-2005` makes SystemVerilog keywords
/// (`logic`, `bit`, `this`, ...) plain identifiers, as in Verilog-2005;
/// `--no-timing` ignores delays (the run is cycle based).
const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "--trace",
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

/// How much of a failing tool's log an error message carries.
const LOG_TAIL_LINES: usize = 40;
/// Cap on the characters of the log tail in an error message.
const LOG_TAIL_CHARS: usize = 6000;

/// Temporary build directories older than this are left-overs of crashed
/// builds and are removed.
const STALE_TMP_AGE: Duration = Duration::from_secs(6 * 3600);

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

// ---------------------------------------------------------------------------
// Tool discovery
// ---------------------------------------------------------------------------

const VERILATOR: &str = "verilator";

fn version_of(program: &str) -> std::result::Result<String, String> {
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("`{program} --version` exited with {}", out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("").trim().to_string();
    if line.is_empty() {
        return Err(format!("`{program} --version` printed nothing"));
    }
    Ok(line)
}

fn verilator_version_result() -> &'static std::result::Result<String, String> {
    static V: OnceLock<std::result::Result<String, String>> = OnceLock::new();
    V.get_or_init(|| version_of(VERILATOR))
}

/// The first line of `verilator --version` (e.g. `Verilator 5.006
/// 2023-01-22 rev (Debian 5.006-3)`), or `None` if it cannot be run. Cached
/// for the life of the process.
pub fn verilator_version() -> Option<String> {
    verilator_version_result().as_ref().ok().cloned()
}

/// Whether `verilator` can be run.
pub fn verilator_available() -> bool {
    verilator_version_result().is_ok()
}

fn require_verilator() -> Result<String> {
    verilator_version_result()
        .clone()
        .map_err(|detail| VerilatorError::NotInstalled {
            program: VERILATOR.to_string(),
            detail,
        })
}

/// Verilator's installation root (`verilator --getenv VERILATOR_ROOT`),
/// whose `include/` holds the run-time sources.
fn verilator_root() -> Result<PathBuf> {
    static R: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    R.get_or_init(|| {
        let out = Command::new(VERILATOR)
            .args(["--getenv", "VERILATOR_ROOT"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || root.is_empty() {
            return Err("`verilator --getenv VERILATOR_ROOT` gave no directory".to_string());
        }
        Ok(PathBuf::from(root))
    })
    .clone()
    .map_err(|detail| VerilatorError::NotInstalled {
        program: VERILATOR.to_string(),
        detail,
    })
}

/// The C++ compiler command: `$CXX` (which may carry arguments, e.g.
/// `ccache g++`) or `g++`.
fn cxx_command() -> Vec<String> {
    let words: Vec<String> = std::env::var("CXX")
        .ok()
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    if words.is_empty() {
        vec!["g++".to_string()]
    } else {
        words
    }
}

/// The compiler's `--version` line, cached per compiler command.
fn cxx_identity(cxx: &[String]) -> Result<String> {
    static IDS: OnceLock<Mutex<HashMap<Vec<String>, String>>> = OnceLock::new();
    let ids = IDS.get_or_init(Default::default);
    if let Some(id) = ids.lock().unwrap_or_else(|e| e.into_inner()).get(cxx) {
        return Ok(id.clone());
    }
    let out = Command::new(&cxx[0])
        .args(&cxx[1..])
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail: format!("`--version` exited with {}", out.status),
        });
    }
    let id = format!(
        "{}: {}",
        cxx.join(" "),
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
    );
    ids.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(cxx.to_vec(), id.clone());
    Ok(id)
}

// ---------------------------------------------------------------------------
// Cache directory
// ---------------------------------------------------------------------------

/// The default cache directory: `$WARPGEN_CACHE` if set; else
/// `<target>/warpgen-cache`, where `<target>` is `$CARGO_TARGET_DIR` or the
/// first `target` directory (or directory holding Cargo's `CACHEDIR.TAG`)
/// above the running executable or the current directory; else
/// `~/.cache/warpgen` (`$XDG_CACHE_HOME/warpgen`); else one in the system
/// temporary directory.
pub fn default_cache_dir() -> PathBuf {
    let env_dir = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = env_dir("WARPGEN_CACHE") {
        return PathBuf::from(dir);
    }
    let cwd = std::env::current_dir().ok();
    if let Some(dir) = env_dir("CARGO_TARGET_DIR") {
        let dir = PathBuf::from(dir);
        let dir = match (&cwd, dir.is_relative()) {
            (Some(cwd), true) => cwd.join(dir),
            _ => dir,
        };
        return dir.join("warpgen-cache");
    }
    let is_target =
        |p: &Path| p.file_name().is_some_and(|n| n == "target") || p.join("CACHEDIR.TAG").is_file();
    if let Ok(exe) = std::env::current_exe() {
        if let Some(t) = exe.ancestors().skip(1).find(|p| is_target(p)) {
            return t.join("warpgen-cache");
        }
    }
    if let Some(cwd) = &cwd {
        for dir in cwd.ancestors() {
            if is_target(dir) {
                return dir.join("warpgen-cache");
            }
            let t = dir.join("target");
            if t.join("CACHEDIR.TAG").is_file() {
                return t.join("warpgen-cache");
            }
        }
    }
    if let Some(x) = env_dir("XDG_CACHE_HOME") {
        return PathBuf::from(x).join("warpgen");
    }
    if let Some(h) = env_dir("HOME") {
        return PathBuf::from(h).join(".cache").join("warpgen");
    }
    std::env::temp_dir().join("warpgen-cache")
}

/// A unique temporary directory name inside `parent`.
fn tmp_dir_in(parent: &Path, tag: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    parent.join(format!("tmp-{tag}-{}-{n}-{nanos}", std::process::id()))
}

/// Remove left-over temporary build directories of crashed builds.
fn remove_stale_tmp_dirs(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        if !e.file_name().to_string_lossy().starts_with("tmp-") {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_TMP_AGE);
        if old {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

/// An exclusive lock on `<path>` (a lock file), held until dropped. Builds
/// of the same cache entry, in this process or another, take turns; if the
/// file system cannot lock, the build goes ahead unlocked (the final rename
/// keeps the cache consistent anyway).
///
/// The lock file is deleted when the lock is released. A builder that was
/// waiting on the deleted file then finds the finished entry; at worst (a
/// failed build) two builders redo the same work, which is still safe.
struct BuildLock {
    file: Option<fs::File>,
    path: PathBuf,
}

impl BuildLock {
    fn acquire(path: &Path) -> Result<BuildLock> {
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(io_err(format!(
                "cannot create lock file {}",
                path.display()
            )))?;
        let file = file.lock().is_ok().then_some(file);
        Ok(BuildLock {
            file,
            path: path.to_path_buf(),
        })
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = fs::remove_file(&self.path);
        }
        // Closing the file releases the lock.
        self.file = None;
    }
}

/// Move a finished build directory into place. If another builder got
/// there first, its (identical) entry is kept and ours removed.
fn publish(tmp: &Path, dest: &Path) -> Result<()> {
    match fs::rename(tmp, dest) {
        Ok(()) => Ok(()),
        Err(_) if dest.is_dir() => {
            let _ = fs::remove_dir_all(tmp);
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_dir_all(tmp);
            Err(io_err(format!(
                "cannot move the build {} into the cache at {}",
                tmp.display(),
                dest.display()
            ))(e))
        }
    }
}

/// Keep a failed build for inspection at `<parent>/failed-<name>` and return
/// the path of `log` inside it.
fn keep_failed(tmp: &Path, parent: &Path, name: &str, log: &str) -> PathBuf {
    let dest = parent.join(format!("failed-{name}"));
    let _ = fs::remove_dir_all(&dest);
    if fs::rename(tmp, &dest).is_ok() {
        dest.join(log)
    } else {
        tmp.join(log)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn log_tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let start = lines.len().saturating_sub(LOG_TAIL_LINES);
    let mut tail = lines[start..].join("\n");
    if tail.len() > LOG_TAIL_CHARS {
        let mut cut = tail.len() - LOG_TAIL_CHARS;
        while !tail.is_char_boundary(cut) {
            cut += 1;
        }
        tail = format!("...{}", &tail[cut..]);
    }
    tail
}

/// Run a tool, capturing stdout and stderr into one log (also written to
/// `log_path`). Returns whether it succeeded and the log.
fn run_logged(
    cmd: &mut Command,
    log_path: &Path,
    not_found: impl FnOnce(String) -> VerilatorError,
) -> Result<(bool, String)> {
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            not_found(e.to_string())
        } else {
            io_err(format!("cannot run {cmd:?}"))(e)
        }
    })?;
    let mut log = format!("$ {cmd:?}\n");
    log.push_str(&String::from_utf8_lossy(&out.stdout));
    log.push_str(&String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        let _ = writeln!(log, "[{}]", out.status);
    }
    fs::write(log_path, &log).map_err(io_err(format!("cannot write {}", log_path.display())))?;
    Ok((out.status.success(), log))
}

// ---------------------------------------------------------------------------
// Run-time library
// ---------------------------------------------------------------------------

/// Build (once, cached) the Verilator run-time static archive and return its
/// path.
fn ensure_runtime(
    cache: &Path,
    cxx: &[String],
    cxx_id: &str,
    vl_version: &str,
    include: &Path,
    quiet: bool,
) -> Result<PathBuf> {
    let mut h = Sha256::new();
    h.update(format!(
        "warpgen-verilator-runtime v{RUNTIME_VERSION}\0{vl_version}\0{cxx_id}\0{}\0{RUNTIME_OPT}\0{}\0{}",
        include.display(),
        CXX_COMMON_FLAGS.join(" "),
        RUNTIME_SOURCES.join(" ")
    ));
    let key = hex(&h.finalize()[..12]);
    let name = format!("runtime-{key}");
    let dest = cache.join(&name);
    let archive = dest.join("libverilated.a");
    if archive.is_file() {
        return Ok(archive);
    }
    let _lock = BuildLock::acquire(&cache.join(format!("{name}.lock")))?;
    if archive.is_file() {
        return Ok(archive);
    }
    let start = Instant::now();
    if !quiet {
        eprintln!(
            "warpgen: compiling the Verilator run-time library (once per Verilator version) \
             into {}",
            dest.display()
        );
    }
    let tmp = tmp_dir_in(cache, &name);
    fs::create_dir_all(&tmp).map_err(io_err(format!("cannot create {}", tmp.display())))?;
    let include_s = include.display().to_string();
    let vltstd = include.join("vltstd").display().to_string();
    // Compile the sources in parallel; they are independent.
    let mut children = Vec::new();
    for src in RUNTIME_SOURCES {
        let mut cmd = Command::new(&cxx[0]);
        cmd.args(&cxx[1..])
            .args(CXX_COMMON_FLAGS)
            .arg(RUNTIME_OPT)
            .arg(format!("-I{include_s}"))
            .arg(format!("-I{vltstd}"))
            .arg("-c")
            .arg(include.join(format!("{src}.cpp")))
            .arg("-o")
            .arg(tmp.join(format!("{src}.o")))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let desc = format!("{cmd:?}");
        let child = cmd.spawn().map_err(|e| VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail: e.to_string(),
        })?;
        children.push((desc, child));
    }
    let mut log = String::new();
    let mut ok = true;
    for (desc, child) in children {
        let out = child
            .wait_with_output()
            .map_err(io_err("waiting for the C++ compiler"))?;
        let _ = writeln!(log, "$ {desc}");
        log.push_str(&String::from_utf8_lossy(&out.stdout));
        log.push_str(&String::from_utf8_lossy(&out.stderr));
        if !out.status.success() {
            let _ = writeln!(log, "[{}]", out.status);
            ok = false;
        }
    }
    let log_path = tmp.join("compile.log");
    fs::write(&log_path, &log).map_err(io_err(format!("cannot write {}", log_path.display())))?;
    if ok {
        let mut ar = Command::new("ar");
        ar.arg("rcs").arg(tmp.join("libverilated.a"));
        for src in RUNTIME_SOURCES {
            ar.arg(tmp.join(format!("{src}.o")));
        }
        let (ar_ok, ar_log) = run_logged(&mut ar, &tmp.join("ar.log"), |detail| {
            VerilatorError::CompilerNotFound {
                program: "ar".to_string(),
                detail,
            }
        })?;
        log.push_str(&ar_log);
        ok = ar_ok;
    }
    if !ok {
        let log_path = keep_failed(&tmp, cache, &name, "compile.log");
        return Err(VerilatorError::Compile {
            top: "(Verilator run-time library)".to_string(),
            log: log_tail(&log),
            log_path,
        });
    }
    for src in RUNTIME_SOURCES {
        let _ = fs::remove_file(tmp.join(format!("{src}.o")));
    }
    publish(&tmp, &dest)?;
    if !quiet {
        eprintln!(
            "warpgen: Verilator run-time library built in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    Ok(archive)
}

// ---------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Direction of a port of the Verilated class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HDir {
    In,
    Out,
    InOut,
}

/// A port as declared in `V<top>.h` (`VL_IN16(&name,msb,lsb);`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct HeaderPort {
    /// C++ member name (may be escaped, e.g. `__SYM__int`, `a___05Fb`).
    member: String,
    /// The Verilog name it stands for.
    name: String,
    dir: HDir,
    /// C++ type (`CData`, `SData`, `IData`, `QData`), `None` for wide ports.
    ctype: Option<&'static str>,
    width: u32,
}

/// Undo Verilator's name encoding of a C++ member: the `__SYM__` prefix of
/// names that are C++ keywords and the `__0XX` hex escapes (used, e.g., for
/// the second `_` of `__`).
fn decode_member(member: &str) -> String {
    let s = member.strip_prefix("__SYM__").unwrap_or(member);
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"__0") && i + 5 <= b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 3..i + 5], 16) {
                out.push(v as char);
                i += 5;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The ports of a Verilated class header.
fn parse_header_ports(header: &str) -> Vec<HeaderPort> {
    let mut ports = Vec::new();
    for line in header.lines() {
        let line = line.trim();
        let Some(open) = line.find('(') else {
            continue;
        };
        let mac = &line[..open];
        let (dir, rest) = if let Some(r) = mac.strip_prefix("VL_INOUT") {
            (HDir::InOut, r)
        } else if let Some(r) = mac.strip_prefix("VL_IN") {
            (HDir::In, r)
        } else if let Some(r) = mac.strip_prefix("VL_OUT") {
            (HDir::Out, r)
        } else {
            continue;
        };
        let ctype = match rest {
            "8" => Some("CData"),
            "16" => Some("SData"),
            "" => Some("IData"),
            "64" => Some("QData"),
            "W" => None,
            _ => continue,
        };
        let Some(close) = line.rfind(')') else {
            continue;
        };
        let args: Vec<&str> = line[open + 1..close].split(',').map(str::trim).collect();
        if args.len() < 3 {
            continue;
        }
        let member = args[0].trim_start_matches('&').to_string();
        let (Ok(msb), Ok(lsb)) = (args[1].parse::<i64>(), args[2].parse::<i64>()) else {
            continue;
        };
        let width = (msb - lsb).unsigned_abs() as u32 + 1;
        ports.push(HeaderPort {
            name: decode_member(&member),
            member,
            dir,
            ctype,
            width,
        });
    }
    ports
}

/// Check the top name and the port lists before anything is run.
fn check_port_lists(top: &str, inputs: &[PortDesc], outputs: &[PortDesc]) -> Result<()> {
    let bad = |message: String| VerilatorError::Ports {
        top: top.to_string(),
        message,
    };
    if !is_identifier(top) {
        return Err(bad(format!(
            "`{top}` is not a plain Verilog identifier ([A-Za-z_][A-Za-z0-9_]*)"
        )));
    }
    let mut seen = std::collections::HashSet::new();
    for (kind, list) in [("input", inputs), ("output", outputs)] {
        for p in list {
            if !is_identifier(&p.name) {
                return Err(bad(format!(
                    "{kind} port `{}` is not a plain Verilog identifier",
                    p.name
                )));
            }
            if !(1..=64).contains(&p.width) {
                return Err(bad(format!(
                    "{kind} port `{}` has width {}; widths must be 1..=64",
                    p.name, p.width
                )));
            }
            if p.name == "clock" {
                return Err(bad(format!(
                    "`clock` is listed as an {kind} port; it is implicit (driven by the back-end)"
                )));
            }
            if !seen.insert(p.name.as_str()) {
                return Err(bad(format!("port `{}` is listed twice", p.name)));
            }
        }
    }
    Ok(())
}

/// Match the port lists against the Verilated class; returns the header
/// port of each input and each output, in list order.
fn match_ports<'h>(
    top: &str,
    header: &'h [HeaderPort],
    inputs: &[PortDesc],
    outputs: &[PortDesc],
) -> Result<(Vec<&'h HeaderPort>, Vec<&'h HeaderPort>)> {
    let bad = |message: String| VerilatorError::Ports {
        top: top.to_string(),
        message,
    };
    let all = || {
        header
            .iter()
            .map(|p| format!("{} {}[{}]", dir_word(p.dir), p.name, p.width))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let find = |p: &PortDesc, dir: HDir| -> Result<&'h HeaderPort> {
        let h = header.iter().find(|h| h.name == p.name).ok_or_else(|| {
            bad(format!(
                "{} port `{}` is not a port of module `{top}` (its ports: {})",
                dir_word(dir),
                p.name,
                all()
            ))
        })?;
        if h.dir != dir {
            return Err(bad(format!(
                "`{}` is listed as an {} port but is an {} port of the design",
                p.name,
                dir_word(dir),
                dir_word(h.dir)
            )));
        }
        if h.width != p.width || h.ctype.is_none() {
            return Err(bad(format!(
                "{} port `{}` is {} bits wide in the port list but {} bits in the Verilog",
                dir_word(dir),
                p.name,
                p.width,
                h.width
            )));
        }
        Ok(h)
    };
    match header.iter().find(|h| h.name == "clock") {
        Some(c) if c.dir == HDir::In && c.width == 1 => {}
        _ => {
            return Err(bad(format!(
                "the design has no 1-bit input `clock` (its ports: {})",
                all()
            )))
        }
    }
    let ins = inputs
        .iter()
        .map(|p| find(p, HDir::In))
        .collect::<Result<Vec<_>>>()?;
    let outs = outputs
        .iter()
        .map(|p| find(p, HDir::Out))
        .collect::<Result<Vec<_>>>()?;
    for h in header {
        match h.dir {
            HDir::InOut => {
                return Err(bad(format!(
                    "inout port `{}` is not supported; units have only inputs and outputs",
                    h.name
                )))
            }
            HDir::In if h.name != "clock" && !inputs.iter().any(|p| p.name == h.name) => {
                return Err(bad(format!(
                    "input `{}` of the design is missing from the input port list (it would \
                     never be driven)",
                    h.name
                )))
            }
            _ => {}
        }
    }
    Ok((ins, outs))
}

fn dir_word(d: HDir) -> &'static str {
    match d {
        HDir::In => "input",
        HDir::Out => "output",
        HDir::InOut => "inout",
    }
}

// ---------------------------------------------------------------------------
// The C++ wrapper
// ---------------------------------------------------------------------------

/// The wrapper template; `@...@` fields are filled in by [`wrapper_source`].
const WRAPPER_TEMPLATE: &str = r#"// Generated by warpgen (cosim::verilator), wrapper version @ABI@. Do not edit.
#include "V@TOP@.h"
#include "verilated_vcd_c.h"
#include <cstdint>
#include <mutex>
#include <new>

#define WG_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct WgModel {
    VerilatedContext* ctx;
    V@TOP@* top;
    VerilatedVcdC* tfp;
    uint64_t n;
};
// Serialises construction: Verilator seeds its per-thread random generator
// from a process-wide epoch when a context's seed changes.
std::mutex g_create_mutex;

inline void wg_bind(WgModel* m) {
    if (VL_UNLIKELY(Verilated::threadContextp() != m->ctx)) Verilated::threadContextp(m->ctx);
}
}  // namespace

WG_EXPORT void warpgen_info(uint32_t* abi, uint32_t* n_in, uint32_t* n_out) noexcept {
    *abi = @ABI@;
    *n_in = @NIN@;
    *n_out = @NOUT@;
}

WG_EXPORT void* warpgen_create(uint32_t random_init, int32_t seed) noexcept {
    try {
        std::lock_guard<std::mutex> lock(g_create_mutex);
        WgModel* m = new WgModel();
        m->ctx = new VerilatedContext;
        Verilated::threadContextp(m->ctx);
        m->ctx->traceEverOn(true);
        m->ctx->randReset(random_init ? 2 : 0);
        m->ctx->randSeed(random_init ? seed : 0);
        m->top = new V@TOP@(m->ctx, "TOP");
        m->tfp = nullptr;
        m->n = 0;
        return m;
    } catch (...) {
        return nullptr;
    }
}

WG_EXPORT void warpgen_trace_close(void* p) noexcept {
    WgModel* m = static_cast<WgModel*>(p);
    wg_bind(m);
    if (m->tfp) {
        m->tfp->close();
        delete m->tfp;
        m->tfp = nullptr;
    }
}

WG_EXPORT void warpgen_destroy(void* p) noexcept {
    WgModel* m = static_cast<WgModel*>(p);
    warpgen_trace_close(p);
    m->top->final();
    delete m->top;
    delete m->ctx;
    delete m;
}

WG_EXPORT int32_t warpgen_trace_open(void* p, const char* path) noexcept {
    WgModel* m = static_cast<WgModel*>(p);
    warpgen_trace_close(p);
    try {
        VerilatedVcdC* tfp = new VerilatedVcdC;
        m->top->trace(tfp, 99);
        tfp->set_time_unit("1ns");
        tfp->set_time_resolution("1ns");
        tfp->open(path);
        if (!tfp->isOpen()) {
            delete tfp;
            return -1;
        }
        m->tfp = tfp;
        return 0;
    } catch (...) {
        return -2;
    }
}

WG_EXPORT void warpgen_cycle(void* p, const uint64_t* in, uint64_t* out) noexcept {
    WgModel* m = static_cast<WgModel*>(p);
    V@TOP@* const top = m->top;
    wg_bind(m);
    const uint64_t cycle_time = @CYCLE@;
    const uint64_t t = m->n * cycle_time;
    const uint64_t t_rise = t + cycle_time / 2;
    m->ctx->time(t);
    top->clock = 0;
@SET_INPUTS@
    top->eval();
@GET_OUTPUTS@
    if (m->tfp) m->tfp->dump(t);
    m->ctx->time(t_rise);
    top->clock = 1;
    top->eval();
    if (m->tfp) m->tfp->dump(t_rise);
    m->n++;
}
"#;

fn wrapper_source(top: &str, ins: &[&HeaderPort], outs: &[&HeaderPort]) -> String {
    let mut set = String::new();
    for (i, h) in ins.iter().enumerate() {
        let ctype = h.ctype.unwrap_or("QData");
        let _ = writeln!(
            set,
            "    top->{} = static_cast<{ctype}>(in[{i}] & {:#x}ULL);",
            h.member,
            ports::mask(h.width)
        );
    }
    let mut get = String::new();
    for (i, h) in outs.iter().enumerate() {
        let _ = writeln!(
            get,
            "    out[{i}] = static_cast<uint64_t>(top->{});",
            h.member
        );
    }
    WRAPPER_TEMPLATE
        .replace("@TOP@", top)
        .replace("@ABI@", &WRAPPER_VERSION.to_string())
        .replace("@NIN@", &ins.len().to_string())
        .replace("@NOUT@", &outs.len().to_string())
        .replace("@CYCLE@", &CYCLE_TIME.to_string())
        .replace("@SET_INPUTS@\n", &set)
        .replace("@GET_OUTPUTS@\n", &get)
}

// ---------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------

type InfoFn = unsafe extern "C" fn(*mut u32, *mut u32, *mut u32);
type CreateFn = unsafe extern "C" fn(u32, i32) -> *mut c_void;
type DestroyFn = unsafe extern "C" fn(*mut c_void);
type CycleFn = unsafe extern "C" fn(*mut c_void, *const u64, *mut u64);
type TraceOpenFn = unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int;
type TraceCloseFn = unsafe extern "C" fn(*mut c_void);

/// A Verilated model of one design, loaded from a shared library, one
/// instance per value (each with its own Verilator context, so several
/// instances of the same or different designs may run side by side, also
/// on different threads).
pub struct VerilatorModel {
    handle: *mut c_void,
    cycle_fn: CycleFn,
    destroy_fn: DestroyFn,
    trace_open_fn: TraceOpenFn,
    trace_close_fn: TraceCloseFn,
    n_in: usize,
    n_out: usize,
    tracing: bool,
    cycles: u64,
    top: String,
    inputs: Vec<PortDesc>,
    outputs: Vec<PortDesc>,
    info: BuildInfo,
    // Declared last: dropped after `Drop::drop` destroyed the instance, so
    // the library outlives every pointer into it.
    _lib: libloading::Library,
}

// SAFETY: the instance is only reached through `&mut self`, and the
// wrapper re-binds Verilator's per-thread context on every call, so moving
// it to another thread is sound. It is not `Sync`.
unsafe impl Send for VerilatorModel {}

impl std::fmt::Debug for VerilatorModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerilatorModel")
            .field("top", &self.top)
            .field("cycles", &self.cycles)
            .field("tracing", &self.tracing)
            .field("library", &self.info.library)
            .finish_non_exhaustive()
    }
}

impl VerilatorModel {
    /// Build (or load from the cache) a model of `verilog` (full Verilog-2005
    /// source of a design whose top module is `top`), with input ports
    /// `inputs` (excluding `clock`, which every design has) and outputs
    /// `outputs`; their order is the order of the values in
    /// [`RtlBackend::cycle`].
    ///
    /// Every input of the design other than `clock` must be listed; outputs
    /// not listed are ignored. Widths must match the Verilog exactly.
    pub fn build(
        verilog: &str,
        top: &str,
        inputs: &[PortDesc],
        outputs: &[PortDesc],
        opts: &BuildOptions,
    ) -> std::result::Result<Self, VerilatorError> {
        let start = Instant::now();
        check_port_lists(top, inputs, outputs)?;
        let vl_version = require_verilator()?;
        let cxx = cxx_command();
        let cxx_id = cxx_identity(&cxx)?;
        let mut cache = opts.cache_dir.clone().unwrap_or_else(default_cache_dir);
        if cache.is_relative() {
            // The tools run in the build directory: make every path absolute.
            let cwd = std::env::current_dir()
                .map_err(io_err("cannot resolve the relative cache directory"))?;
            cache = cwd.join(cache);
        }
        let vdir = cache.join("verilator");

        let mut h = Sha256::new();
        h.update(format!(
            "warpgen-verilator-model v{WRAPPER_VERSION}\0{vl_version}\0{cxx_id}\0{}\0{}\0{MODEL_OPT}\0{}\0{RUNTIME_VERSION}\0{CYCLE_TIME}\0{top}\0",
            VERILATOR_FLAGS.join(" "),
            CXX_COMMON_FLAGS.join(" "),
            LINK_FLAGS.join(" "),
        ));
        for (kind, list) in [("in", inputs), ("out", outputs)] {
            for p in list {
                h.update(format!("{kind} {} {}\0", p.name, p.width));
            }
        }
        h.update(verilog.as_bytes());
        let key = hex(&h.finalize()[..16]);
        let name = format!("{top}-{key}");
        let dir = vdir.join(&name);
        let library = dir.join("model.so");

        let mut info = BuildInfo {
            key: key.clone(),
            dir: dir.clone(),
            library: library.clone(),
            cache_hit: true,
            verilate_time: Duration::ZERO,
            compile_time: Duration::ZERO,
            total_time: Duration::ZERO,
        };
        if !library.is_file() {
            fs::create_dir_all(&vdir).map_err(io_err(format!(
                "cannot create the cache {}",
                vdir.display()
            )))?;
            let _lock = BuildLock::acquire(&vdir.join(format!("{name}.lock")))?;
            if !library.is_file() {
                remove_stale_tmp_dirs(&vdir);
                info.cache_hit = false;
                let root = verilator_root()?;
                let include = root.join("include");
                let runtime =
                    ensure_runtime(&vdir, &cxx, &cxx_id, &vl_version, &include, opts.quiet)?;
                let tmp = tmp_dir_in(&vdir, &name);
                let r = build_into(
                    &tmp, verilog, top, inputs, outputs, &cxx, &include, &runtime, &mut info,
                    opts.quiet,
                );
                match r {
                    Ok(()) => {
                        publish(&tmp, &dir)?;
                        let _ = fs::remove_dir_all(vdir.join(format!("failed-{name}")));
                    }
                    Err(e) => {
                        // `build_into` kept the logs of tool failures already.
                        let _ = fs::remove_dir_all(&tmp);
                        return Err(e);
                    }
                }
            }
        }
        let mut model = Self::load(&library, top, inputs, outputs, opts)?;
        info.total_time = start.elapsed();
        if !info.cache_hit && !opts.quiet {
            eprintln!(
                "warpgen: Verilator model of `{top}` ready in {:.2} s (verilate {:.2} s, \
                 compile {:.2} s): {}",
                info.total_time.as_secs_f64(),
                info.verilate_time.as_secs_f64(),
                info.compile_time.as_secs_f64(),
                dir.display()
            );
        }
        model.info = info;
        Ok(model)
    }

    fn load(
        library: &Path,
        top: &str,
        inputs: &[PortDesc],
        outputs: &[PortDesc],
        opts: &BuildOptions,
    ) -> Result<Self> {
        let load_err = |message: String| VerilatorError::Load {
            path: library.to_path_buf(),
            message,
        };
        // SAFETY: the library is one this module built; its initialisers
        // only set up Verilator's run-time statics.
        let lib = unsafe { open_library(library) }.map_err(|e| load_err(e.to_string()))?;
        // SAFETY: the symbol names and signatures are those of the wrapper
        // template of the version checked below (the version is part of the
        // cache key, so a library with this name has this ABI).
        let (info_fn, create_fn, destroy_fn, cycle_fn, trace_open_fn, trace_close_fn) = unsafe {
            let sym = |e: libloading::Error| load_err(e.to_string());
            (
                *lib.get::<InfoFn>(b"warpgen_info\0").map_err(sym)?,
                *lib.get::<CreateFn>(b"warpgen_create\0").map_err(sym)?,
                *lib.get::<DestroyFn>(b"warpgen_destroy\0").map_err(sym)?,
                *lib.get::<CycleFn>(b"warpgen_cycle\0").map_err(sym)?,
                *lib.get::<TraceOpenFn>(b"warpgen_trace_open\0")
                    .map_err(sym)?,
                *lib.get::<TraceCloseFn>(b"warpgen_trace_close\0")
                    .map_err(sym)?,
            )
        };
        let (mut abi, mut n_in, mut n_out) = (0u32, 0u32, 0u32);
        // SAFETY: writes three u32s through valid pointers.
        unsafe { info_fn(&mut abi, &mut n_in, &mut n_out) };
        if abi != WRAPPER_VERSION
            || n_in as usize != inputs.len()
            || n_out as usize != outputs.len()
        {
            return Err(load_err(format!(
                "library has wrapper version {abi} with {n_in} inputs and {n_out} outputs; \
                 expected version {WRAPPER_VERSION} with {} inputs and {} outputs",
                inputs.len(),
                outputs.len()
            )));
        }
        let (random, seed) = match opts.random_init_seed {
            None => (0, 0),
            Some(0) => (1, 0x9E37_79B9_u32 as i32),
            Some(s) => (1, s as i32),
        };
        // SAFETY: plain C call; returns null on failure.
        let handle = unsafe { create_fn(random, seed) };
        if handle.is_null() {
            return Err(load_err("creating the model instance failed".to_string()));
        }
        Ok(VerilatorModel {
            handle,
            cycle_fn,
            destroy_fn,
            trace_open_fn,
            trace_close_fn,
            n_in: inputs.len(),
            n_out: outputs.len(),
            tracing: false,
            cycles: 0,
            top: top.to_string(),
            inputs: inputs.to_vec(),
            outputs: outputs.to_vec(),
            info: BuildInfo {
                key: String::new(),
                dir: library.parent().unwrap_or(library).to_path_buf(),
                library: library.to_path_buf(),
                cache_hit: true,
                verilate_time: Duration::ZERO,
                compile_time: Duration::ZERO,
                total_time: Duration::ZERO,
            },
            _lib: lib,
        })
    }

    /// The top module's name.
    pub fn top(&self) -> &str {
        &self.top
    }

    /// The input ports, in the order of [`RtlBackend::cycle`]'s `inputs`.
    pub fn inputs(&self) -> &[PortDesc] {
        &self.inputs
    }

    /// The output ports, in the order of [`RtlBackend::cycle`]'s `outputs`.
    pub fn outputs(&self) -> &[PortDesc] {
        &self.outputs
    }

    /// Number of cycles run so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// How this model was built or found in the cache.
    pub fn build_info(&self) -> &BuildInfo {
        &self.info
    }
}

/// `dlopen` with `RTLD_NOW | RTLD_LOCAL`: unresolved symbols show up here
/// rather than mid-run, and every model keeps its own copy of Verilator's
/// run-time statics.
///
/// # Safety
/// Runs the library's initialisers.
unsafe fn open_library(path: &Path) -> std::result::Result<libloading::Library, libloading::Error> {
    #[cfg(unix)]
    {
        use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
        Library::open(Some(path), RTLD_NOW | RTLD_LOCAL).map(Into::into)
    }
    #[cfg(not(unix))]
    {
        libloading::Library::new(path)
    }
}

/// Verilate and compile into `tmp` (which becomes the cache entry).
#[allow(clippy::too_many_arguments)]
fn build_into(
    tmp: &Path,
    verilog: &str,
    top: &str,
    inputs: &[PortDesc],
    outputs: &[PortDesc],
    cxx: &[String],
    include: &Path,
    runtime: &Path,
    info: &mut BuildInfo,
    quiet: bool,
) -> Result<()> {
    let vdir = tmp.parent().unwrap_or(tmp);
    let name = info
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !quiet {
        eprintln!("warpgen: building the Verilator model of `{top}` (not in the cache)");
    }
    let obj = tmp.join("obj");
    fs::create_dir_all(&obj).map_err(io_err(format!("cannot create {}", obj.display())))?;
    let src = tmp.join(format!("{top}.v"));
    fs::write(&src, verilog).map_err(io_err(format!("cannot write {}", src.display())))?;

    // Verilate.
    let t0 = Instant::now();
    let mut cmd = Command::new(VERILATOR);
    // Run inside the build directory with relative paths, so messages
    // read `<top>.v:LINE:COL` rather than naming the temporary directory.
    cmd.current_dir(tmp)
        .args(VERILATOR_FLAGS)
        .arg("--top-module")
        .arg(top)
        .arg("--Mdir")
        .arg("obj")
        .arg(format!("{top}.v"));
    let (ok, log) = run_logged(&mut cmd, &tmp.join("verilate.log"), |detail| {
        VerilatorError::NotInstalled {
            program: VERILATOR.to_string(),
            detail,
        }
    })?;
    info.verilate_time = t0.elapsed();
    if !ok {
        let log_path = keep_failed(tmp, vdir, &name, "verilate.log");
        return Err(VerilatorError::Verilate {
            top: top.to_string(),
            log: log_tail(&log),
            log_path,
        });
    }

    // Match the ports against the Verilated class.
    let header_path = obj.join(format!("V{top}.h"));
    let header = fs::read_to_string(&header_path).map_err(io_err(format!(
        "Verilator did not write {} (is `{top}` the top module?)",
        header_path.display()
    )))?;
    let hports = parse_header_ports(&header);
    let (ins, outs) = match_ports(top, &hports, inputs, outputs)?;

    // One translation unit: every generated .cpp plus the wrapper.
    fs::write(
        obj.join("warpgen_wrapper.cpp"),
        wrapper_source(top, &ins, &outs),
    )
    .map_err(io_err("cannot write the C++ wrapper"))?;
    let mut sources: Vec<String> = fs::read_dir(&obj)
        .map_err(io_err(format!("cannot list {}", obj.display())))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cpp") && n != "warpgen_wrapper.cpp" && n != "warpgen_all.cpp")
        .collect();
    sources.sort();
    let mut unity =
        String::from("// Generated by warpgen: the whole model as one translation unit.\n");
    for s in &sources {
        let _ = writeln!(unity, "#include \"{s}\"");
    }
    unity.push_str("#include \"warpgen_wrapper.cpp\"\n");
    let unity_path = obj.join("warpgen_all.cpp");
    fs::write(&unity_path, unity).map_err(io_err("cannot write the unity source"))?;

    // Compile and link.
    let t1 = Instant::now();
    let mut cmd = Command::new(&cxx[0]);
    cmd.current_dir(&obj)
        .args(&cxx[1..])
        .args(CXX_COMMON_FLAGS)
        .arg(MODEL_OPT)
        .arg("-I.")
        .arg(format!("-I{}", include.display()))
        .arg(format!("-I{}", include.join("vltstd").display()))
        .arg("warpgen_all.cpp")
        .arg(runtime)
        .arg("-o")
        .arg("../model.so")
        .args(LINK_FLAGS);
    let (ok, log) = run_logged(&mut cmd, &tmp.join("compile.log"), |detail| {
        VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail,
        }
    })?;
    info.compile_time = t1.elapsed();
    if !ok {
        let log_path = keep_failed(tmp, vdir, &name, "compile.log");
        return Err(VerilatorError::Compile {
            top: top.to_string(),
            log: log_tail(&log),
            log_path,
        });
    }
    let mut manifest = format!(
        "top: {top}\nverilator: {}\nverilator flags: {}\ncxx flags: {} {MODEL_OPT}\n",
        verilator_version().unwrap_or_default(),
        VERILATOR_FLAGS.join(" "),
        CXX_COMMON_FLAGS.join(" ")
    );
    for (kind, list) in [("input", inputs), ("output", outputs)] {
        for p in list {
            let _ = writeln!(manifest, "{kind} {} {}", p.name, p.width);
        }
    }
    fs::write(tmp.join("manifest.txt"), manifest).map_err(io_err("cannot write the manifest"))?;
    Ok(())
}

impl RtlBackend for VerilatorModel {
    fn name(&self) -> &'static str {
        "verilator"
    }

    /// One clock cycle in one FFI call.
    ///
    /// # Panics
    /// If `inputs` does not have one value per input port or `outputs`
    /// one slot per output port.
    fn cycle(&mut self, inputs: &[u64], outputs: &mut [u64]) {
        assert_eq!(
            inputs.len(),
            self.n_in,
            "`{}` has {} input ports",
            self.top,
            self.n_in
        );
        assert_eq!(
            outputs.len(),
            self.n_out,
            "`{}` has {} output ports",
            self.top,
            self.n_out
        );
        // SAFETY: `handle` is live (freed only in Drop) and the slices have
        // exactly the lengths the wrapper reads and writes.
        unsafe { (self.cycle_fn)(self.handle, inputs.as_ptr(), outputs.as_mut_ptr()) };
        self.cycles += 1;
    }

    fn start_vcd(&mut self, path: &Path) -> anyhow::Result<()> {
        let c_path = path_to_cstring(path)?;
        // SAFETY: live handle, NUL-terminated path.
        let r = unsafe { (self.trace_open_fn)(self.handle, c_path.as_ptr()) };
        self.tracing = r == 0;
        if r != 0 {
            anyhow::bail!(
                "Verilator could not open the VCD file {} (does its directory exist and is it \
                 writable?)",
                path.display()
            );
        }
        Ok(())
    }

    fn finish_vcd(&mut self) -> anyhow::Result<()> {
        if self.tracing {
            // SAFETY: live handle.
            unsafe { (self.trace_close_fn)(self.handle) };
            self.tracing = false;
        }
        Ok(())
    }
}

fn path_to_cstring(path: &Path) -> anyhow::Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    CString::new(bytes)
        .map_err(|_| anyhow::anyhow!("VCD path {} contains a NUL byte", path.display()))
}

impl Drop for VerilatorModel {
    fn drop(&mut self) {
        // SAFETY: the handle is live and freed exactly once; `_lib` is still
        // loaded (fields drop after this).
        unsafe { (self.destroy_fn)(self.handle) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_verilator_member_names() {
        assert_eq!(decode_member("__SYM__int"), "int");
        assert_eq!(decode_member("a___05Fb"), "a__b");
        assert_eq!(decode_member("x_"), "x_");
        assert_eq!(decode_member("_x"), "_x");
        assert_eq!(decode_member("req_addr0"), "req_addr0");
    }

    #[test]
    fn parses_header_ports() {
        let h = "    VL_IN8(&clock,0,0);\n    VL_IN8(&__SYM__int,3,0);\n    VL_OUT16(&w12,11,0);\n\
                 VL_IN(&a,31,0);\n VL_OUT64(&acc,39,0);\n VL_INW(&wide,99,0,4);\n\
                 VL_IN8(&off,8,1);\n  // VL_IN8 comment\n";
        let p = parse_header_ports(h);
        let names: Vec<_> = p
            .iter()
            .map(|p| (p.name.as_str(), p.width, p.ctype))
            .collect();
        assert_eq!(
            names,
            vec![
                ("clock", 1, Some("CData")),
                ("int", 4, Some("CData")),
                ("w12", 12, Some("SData")),
                ("a", 32, Some("IData")),
                ("acc", 40, Some("QData")),
                ("wide", 100, None),
                ("off", 8, Some("CData")),
            ]
        );
        assert_eq!(p[1].member, "__SYM__int");
        assert_eq!(p[2].dir, HDir::Out);
    }

    #[test]
    fn rejects_bad_port_lists() {
        let ok = [PortDesc::new("reset", 1)];
        assert!(check_port_lists("t", &ok, &[]).is_ok());
        assert!(check_port_lists("t$x", &ok, &[]).is_err());
        let e = check_port_lists("t", &[PortDesc::new("clock", 1)], &[]).unwrap_err();
        assert!(e.to_string().contains("clock"), "{e}");
        assert!(check_port_lists("t", &[PortDesc::new("a", 65)], &[]).is_err());
        assert!(check_port_lists("t", &[PortDesc::new("a", 0)], &[]).is_err());
        assert!(check_port_lists("t", &ok, &[PortDesc::new("reset", 1)]).is_err());
        assert!(check_port_lists("t", &[PortDesc::new("a.b", 1)], &[]).is_err());
    }

    #[test]
    fn missing_tool_message_says_how_to_install() {
        let e = VerilatorError::NotInstalled {
            program: "verilator".into(),
            detail: version_of("warpgen-no-such-program-xyz").unwrap_err(),
        };
        let msg = e.to_string();
        assert!(msg.contains("apt-get install verilator"), "{msg}");
        assert!(msg.contains("not installed"), "{msg}");
    }

    #[test]
    fn log_tail_keeps_the_end() {
        let log: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let t = log_tail(&log);
        assert!(t.starts_with("line 60"));
        assert!(t.ends_with("line 99"));
    }
}
