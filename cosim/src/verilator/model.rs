//! The loaded model: building or finding it in the cache, loading the
//! shared library and driving it through the wrapper's C ABI.

use super::build::build_into;
use super::cache::{
    default_cache_dir, discard_broken, hex, publish, remove_stale_tmp_dirs, seal_ok, tmp_dir_in,
    write_seal, BuildLock,
};
use super::error::{io_err, Result, VerilatorError};
use super::flags::{
    CXX_COMMON_FLAGS, LINK_FLAGS, MODEL_OPT, RUNTIME_VERSION, VERILATOR_FLAGS, WRAPPER_VERSION,
};
use super::header::check_port_lists;
use super::options::{BuildInfo, BuildOptions};
use super::runtime::ensure_runtime;
use super::tools::{cxx_command, cxx_identity, require_verilator, verilator_root};
use crate::backend::{RtlBackend, CYCLE_TIME};
use ports::PortDesc;
use sha2::{Digest, Sha256};
use std::ffi::{c_char, c_int, c_void, CString};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

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
            "warpgen-verilator-model v{WRAPPER_VERSION}\0{vl_version}\0{cxx_id}\0{}\0trace={}\0{}\0{MODEL_OPT}\0{}\0{RUNTIME_VERSION}\0{CYCLE_TIME}\0{top}\0",
            VERILATOR_FLAGS.join(" "),
            opts.trace,
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
        let name = if opts.trace {
            format!("{top}-trace-{key}")
        } else {
            format!("{top}-{key}")
        };
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
        if !seal_ok(&dir, &name, "model.so") {
            fs::create_dir_all(&vdir).map_err(io_err(format!(
                "cannot create the cache {}",
                vdir.display()
            )))?;
            let _lock = BuildLock::acquire(&vdir.join(format!("{name}.lock")))?;
            if !seal_ok(&dir, &name, "model.so") {
                discard_broken(&dir, &format!("Verilator model of `{top}`"), opts.quiet)?;
                remove_stale_tmp_dirs(&vdir);
                info.cache_hit = false;
                let root = verilator_root()?;
                let include = root.join("include");
                let runtime =
                    ensure_runtime(&vdir, &cxx, &cxx_id, &vl_version, &include, opts.quiet)?;
                let tmp = tmp_dir_in(&vdir, &name);
                let r = build_into(
                    &tmp, verilog, top, inputs, outputs, &cxx, &include, &runtime, &mut info,
                    opts.quiet, opts.trace,
                );
                match r.and_then(|()| write_seal(&tmp, &name, "model.so")) {
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
        let (random, seed) = power_up(opts.random_init_seed);
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
        if r == -3 {
            anyhow::bail!(
                "this Verilator model of `{}` was built without tracing; build it with \
                 `BuildOptions::trace` (`warpgen` does when a VCD file is asked for)",
                self.top
            );
        }
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

/// The `warpgen_create` arguments (random power-up on/off, seed) for
/// [`super::BuildOptions::random_init_seed`]: Verilator reads seed 0 as
/// "from the clock", so 0 becomes a fixed seed.
pub(super) fn power_up(random_init_seed: Option<u32>) -> (u32, i32) {
    match random_init_seed {
        None => (0, 0),
        Some(0) => (1, 0x9E37_79B9_u32 as i32),
        Some(s) => (1, s as i32),
    }
}
