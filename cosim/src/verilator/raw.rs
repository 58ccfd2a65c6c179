//! The raw benchmark: a cached model driven by a plain C++ loop on a
//! recorded stimulus, so `warpgen bench` can show what the Rust side (the
//! FFI call, the golden model, the checking) costs against the Verilated
//! model alone.
//!
//! The driver (`raw.cpp`) is compiled once per compiler into the cache and
//! loads a model's `model.so` through the same C ABI as the Rust back-end.

use super::cache::{hex, publish, tmp_dir_in, BuildLock};
use super::error::{io_err, Result, VerilatorError};
use super::model::VerilatorModel;
use super::tools::{cxx_command, cxx_identity, log_tail, run_logged};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Version of the driver recipe; part of its cache key.
const RAW_VERSION: u32 = 1;

const DRIVER_SOURCE: &str = include_str!("raw.cpp");

/// A run of the raw driver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RawRun {
    /// Cycles run.
    pub cycles: u64,
    /// Seconds spent in the loop (loading and reading the stimulus
    /// excluded).
    pub seconds: f64,
    /// [`fold_outputs`] over every cycle's outputs.
    pub checksum: u64,
}

/// The checksum the driver computes: every output of every cycle, in
/// order, folded by rotate-and-xor. Computing it over a Rust run of the
/// same model and stimulus must give the driver's value.
pub fn fold_outputs(sum: u64, outputs: &[u64]) -> u64 {
    outputs.iter().fold(sum, |s, &o| s.rotate_left(7) ^ o)
}

/// Compile the driver (once per compiler) into `cache` and return it.
fn ensure_driver(cache: &Path) -> Result<PathBuf> {
    let cxx = cxx_command();
    let id = cxx_identity(&cxx)?;
    let mut h = Sha256::new();
    h.update(format!("warpgen-raw v{RAW_VERSION}\0{id}\0{DRIVER_SOURCE}"));
    let name = format!("raw-driver-{}", hex(&h.finalize()[..12]));
    let dest = cache.join(&name);
    let exe = dest.join("warpgen_raw");
    if exe.is_file() {
        return Ok(exe);
    }
    fs::create_dir_all(cache).map_err(io_err(format!("cannot create {}", cache.display())))?;
    let _lock = BuildLock::acquire(&cache.join(format!("{name}.lock")))?;
    if exe.is_file() {
        return Ok(exe);
    }
    let tmp = tmp_dir_in(cache, &name);
    fs::create_dir_all(&tmp).map_err(io_err(format!("cannot create {}", tmp.display())))?;
    fs::write(tmp.join("raw.cpp"), DRIVER_SOURCE).map_err(io_err("cannot write raw.cpp"))?;
    let mut cmd = Command::new(&cxx[0]);
    cmd.current_dir(&tmp).args(&cxx[1..]).args([
        "-std=gnu++17",
        "-O2",
        "raw.cpp",
        "-o",
        "warpgen_raw",
        "-ldl",
    ]);
    let (ok, log) = run_logged(&mut cmd, &tmp.join("compile.log"), |detail| {
        VerilatorError::CompilerNotFound {
            program: cxx.join(" "),
            detail,
        }
    })?;
    if !ok {
        let _ = fs::remove_dir_all(&tmp);
        return Err(VerilatorError::Compile {
            top: "(raw benchmark driver)".into(),
            log: log_tail(&log),
            log_path: tmp.join("compile.log"),
        });
    }
    publish(&tmp, &dest)?;
    Ok(exe)
}

impl VerilatorModel {
    /// Run this model's library from the C++ driver on `inputs` (one
    /// vector of input values per cycle, in the model's input order), from
    /// the power-up state of `random_init_seed` as
    /// [`super::BuildOptions::random_init_seed`] says. The instance `self`
    /// is not used: the driver makes its own.
    pub fn run_raw(&self, inputs: &[Vec<u64>], random_init_seed: Option<u32>) -> Result<RawRun> {
        let info = self.build_info();
        let cache = info.dir.parent().unwrap_or(&info.dir).to_path_buf();
        let exe = ensure_driver(&cache)?;
        let n_in = self.inputs().len();
        let mut bytes = Vec::with_capacity(24 + inputs.len() * n_in * 8);
        bytes.extend_from_slice(b"WGRAW1\0\0");
        bytes.extend_from_slice(&(n_in as u64).to_le_bytes());
        bytes.extend_from_slice(&(inputs.len() as u64).to_le_bytes());
        for row in inputs {
            assert_eq!(row.len(), n_in, "one value per input port");
            for v in row {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
        let stim = tmp_dir_in(&cache, "raw-stimulus").with_extension("bin");
        fs::write(&stim, &bytes).map_err(io_err(format!("cannot write {}", stim.display())))?;
        let (random, seed) = super::model::power_up(random_init_seed);
        let out = Command::new(&exe)
            .arg(&info.library)
            .arg(&stim)
            .arg(random.to_string())
            .arg(seed.to_string())
            .output();
        let _ = fs::remove_file(&stim);
        let out = out.map_err(io_err(format!("cannot run {}", exe.display())))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let parsed = match fields.as_slice() {
            [c, s, k] if out.status.success() => {
                c.parse().ok().zip(s.parse().ok()).zip(k.parse().ok()).map(
                    |((cycles, seconds), checksum)| RawRun {
                        cycles,
                        seconds,
                        checksum,
                    },
                )
            }
            _ => None,
        };
        parsed.ok_or_else(|| VerilatorError::Load {
            path: exe.clone(),
            message: format!(
                "the raw driver failed ({}): {}{}",
                out.status,
                text.trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        })
    }
}
