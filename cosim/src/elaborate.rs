//! On-demand elaboration: any valid configuration, not only the width
//! combinations compiled into warpgen (issue 31).
//!
//! rust-hdl widths are const generics, so a block exists only for widths
//! instantiated at build time (each unit's table, `hdl/src/<unit>/build.rs`).
//! For other widths this module builds, once per width set, the small
//! program `elab/` against the checkout's own `hdl` sources with exactly
//! that instance (`hdl::registry::RtlDecl::rtl_type`, passed to its
//! `build.rs`) in a target folder of its own (`target/elab`: the first
//! elaboration builds rust-hdl and `hdl` there, later ones only `elab/`),
//! keeps the binary in the cache directory under a hash of
//! the sources and the instance, and runs it as a child process that
//! emits the Verilog and simulates the block cycle by cycle over a pipe
//! ([`Remote`], the `rusthdl` back-end of such a configuration). A second
//! use of the same widths finds the binary and only starts it.
//!
//! Building needs the sources and `cargo`: a warpgen run away from its
//! checkout says which file is missing and how to point at a checkout
//! (`WARPGEN_SOURCE`).

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{anyhow, bail, Context};
use hdl::registry::{RtlDecl, Unsupported};
use sha2::{Digest, Sha256};

use crate::backend::RtlBackend;

/// The folders and files whose content decides the elaborated program.
const SOURCES: &[&str] = &[
    "Cargo.lock",
    "hdl/Cargo.toml",
    "hdl/src",
    "ports/Cargo.toml",
    "ports/src",
    "elab/Cargo.toml",
    "elab/build.rs",
    "elab/src",
];

/// The checkout whose sources are elaborated: `$WARPGEN_SOURCE`, else the
/// one this warpgen was built from.
pub fn source_root() -> PathBuf {
    match std::env::var_os("WARPGEN_SOURCE").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    }
}

/// A width set's elaboration program, built (or found in the cache).
#[derive(Clone, Debug)]
pub struct Elaborated {
    unit: &'static str,
    binary: PathBuf,
    params: String,
    n_out: usize,
    /// Seconds the first build took, when this call built it.
    pub built_in: Option<f64>,
}

/// Every file under `root`'s [`SOURCES`], sorted, as (relative path, bytes).
fn source_files(root: &Path) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        if dir.is_file() {
            out.push((rel.to_string(), fs::read(dir)?));
            return Ok(());
        }
        let mut entries: Vec<_> = fs::read_dir(dir)?.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().to_string();
            walk(&e.path(), &format!("{rel}/{name}"), out)?;
        }
        Ok(())
    }
    let mut out = Vec::new();
    for s in SOURCES {
        walk(&root.join(s), s, &mut out)
            .with_context(|| format!("reading {}", root.join(s).display()))?;
    }
    Ok(out)
}

/// The cache key of an instance: the sources' content and the instance.
fn key(root: &Path, spec: &str, ty: &str) -> anyhow::Result<String> {
    static KEYS: Mutex<BTreeMap<(PathBuf, String, String), String>> = Mutex::new(BTreeMap::new());
    let k = (root.to_path_buf(), spec.to_string(), ty.to_string());
    if let Some(v) = KEYS.lock().ok().and_then(|m| m.get(&k).cloned()) {
        return Ok(v);
    }
    let mut h = Sha256::new();
    h.update(b"warpgen-elab v1\0");
    h.update(spec.as_bytes());
    h.update(b"\0");
    h.update(ty.as_bytes());
    for (name, bytes) in source_files(root)? {
        h.update(name.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    let v: String = h.finalize()[..10]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if let Ok(mut m) = KEYS.lock() {
        m.insert(k, v.clone());
    }
    Ok(v)
}

/// The elaboration program of `U` for `p`'s widths (which the unit's table
/// does not have: `unsupported` is its answer), built once and cached.
pub fn elaborate<U: RtlDecl>(
    p: &U::Params,
    unsupported: &Unsupported,
) -> anyhow::Result<Elaborated> {
    let root = source_root();
    let manifest = root.join("elab").join("Cargo.toml");
    if !manifest.is_file() || !root.join("hdl").join("src").is_dir() {
        bail!(
            "{}: the widths of this configuration ({}) are not compiled into this warpgen, and \
             elaborating them on demand needs warpgen's sources: {} is missing. Run warpgen from \
             its checkout, or point WARPGEN_SOURCE at one (compiled in: {})",
            U::NAME,
            unsupported.given,
            manifest.display(),
            unsupported.supported
        );
    }
    let spec = std::any::type_name::<U>();
    let ty = U::rtl_type(p);
    let dir = crate::verilator::default_cache_dir()
        .join("elab")
        .join(format!("{}-{}", U::NAME, key(&root, spec, &ty)?));
    let binary = dir.join("warpgen-elab");
    let params = serde_json::to_string(p)?;
    let n_out = U::outputs(p).len();
    let mut found = Elaborated {
        unit: U::NAME,
        binary: binary.clone(),
        params,
        n_out,
        built_in: None,
    };
    if binary.is_file() {
        return Ok(found);
    }
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    // One build at a time: the builds share one target folder, whose
    // binary each build overwrites.
    let lock_path = dir.parent().unwrap_or(&dir).join("build.lock");
    let lock = fs::File::create(&lock_path)
        .with_context(|| format!("creating {}", lock_path.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", lock_path.display()))?;
    if binary.is_file() {
        return Ok(found);
    }
    // A target folder of its own (`target/elab`): building `-p
    // warpgen-elab` alone unifies the dependencies' features differently
    // from a workspace build, and its artefacts beside the workspace's
    // would make rustdoc's doctests find two candidates of one crate
    // (E0460). The first elaboration builds rust-hdl and `hdl` there once
    // (minutes); later width sets compile only `elab/`.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("elab");
    eprintln!(
        "{}: elaborating on demand for {} (widths not compiled in; built once into {}: a minute, several the first time)",
        U::NAME,
        unsupported.given,
        dir.display()
    );
    let start = Instant::now();
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "warpgen-elab",
            "--manifest-path",
        ])
        .arg(root.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env("WARPGEN_ELAB_SPEC", spec)
        .env("WARPGEN_ELAB_TYPE", &ty)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            anyhow!(
                "{}: running cargo to elaborate {ty}: {e} (is cargo installed?)",
                U::NAME
            )
        })?;
    if !out.status.success() {
        let log = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = log.lines().rev().take(30).collect();
        bail!(
            "{}: elaborating {ty} failed (cargo {}):\n{}",
            U::NAME,
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    let built = target.join("release").join("warpgen-elab");
    let tmp = dir.join(format!("warpgen-elab.tmp{}", std::process::id()));
    fs::copy(&built, &tmp).with_context(|| format!("copying {}", built.display()))?;
    fs::rename(&tmp, &binary).with_context(|| format!("renaming to {}", binary.display()))?;
    let secs = start.elapsed().as_secs_f64();
    let _ = fs::write(
        dir.join("instance.txt"),
        format!("{spec}\n{ty}\nbuilt in {secs:.1} s\n"),
    );
    eprintln!("{}: elaborated in {secs:.1} s", U::NAME);
    found.built_in = Some(secs);
    drop(lock);
    Ok(found)
}

impl Elaborated {
    /// Start the program: a fresh instance in its power-up state.
    pub fn spawn(&self) -> anyhow::Result<Remote> {
        let mut child = Command::new(&self.binary)
            .arg(&self.params)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", self.binary.display()))?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(Remote {
            unit: self.unit,
            child,
            stdin,
            stdout,
            line: String::new(),
            n_out: self.n_out,
            text: String::new(),
        })
    }
}

/// A running elaboration program: the `rusthdl` back-end of a width set
/// that is not compiled in, and its Verilog.
pub struct Remote {
    unit: &'static str,
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
    n_out: usize,
    text: String,
}

impl Remote {
    /// Send one request and read its one-line answer.
    fn ask(&mut self, request: &str) -> anyhow::Result<&str> {
        let sent = writeln!(self.stdin, "{request}").and_then(|()| self.stdin.flush());
        self.line.clear();
        let got = sent.and_then(|()| self.stdout.read_line(&mut self.line));
        if matches!(got, Ok(0) | Err(_)) {
            let mut err = String::new();
            if let Some(e) = self.child.stderr.as_mut() {
                let _ = e.read_to_string(&mut err);
            }
            bail!(
                "{}: the elaboration program stopped: {}",
                self.unit,
                err.trim()
            );
        }
        let l = self.line.trim_end();
        if let Some(e) = l.strip_prefix("err ") {
            bail!("{}: {e}", self.unit);
        }
        Ok(l)
    }

    /// The block's Verilog, with `header` as its leading comment.
    pub fn verilog(&mut self, header: &[String]) -> anyhow::Result<String> {
        let mut req = format!("verilog {}", header.len());
        for h in header {
            req.push('\n');
            req.push_str(&h.replace('\n', " "));
        }
        let len: usize = self
            .ask(&req)?
            .strip_prefix("ok ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| anyhow!("{}: a malformed answer to `verilog`", self.unit))?;
        let mut buf = vec![0u8; len];
        self.stdout.read_exact(&mut buf)?;
        Ok(String::from_utf8(buf)?)
    }
}

impl RtlBackend for Remote {
    fn name(&self) -> &'static str {
        "rusthdl"
    }

    fn cycle(&mut self, inputs: &[u64], outputs: &mut [u64]) {
        use std::fmt::Write as _;
        let mut req = std::mem::take(&mut self.text);
        req.clear();
        req.push_str("cycle");
        for v in inputs {
            let _ = write!(req, " {v}");
        }
        let n_out = self.n_out;
        let answer = self.ask(&req).map(|l| {
            l.split_whitespace()
                .map(|v| v.parse::<u64>().unwrap_or(0))
                .collect::<Vec<_>>()
        });
        self.text = req;
        match answer {
            Ok(v) if v.len() == n_out && v.len() == outputs.len() => outputs.copy_from_slice(&v),
            // The embedded back-end panics the same way on logic that does
            // not settle; the program's message is the reason.
            Ok(v) => panic!("{}: {} output values, expected {n_out}", self.unit, v.len()),
            Err(e) => panic!("{e:#}"),
        }
    }

    fn start_vcd(&mut self, path: &Path) -> anyhow::Result<()> {
        let abs = std::path::absolute(path)?;
        self.ask(&format!("vcd {}", abs.display()))?;
        Ok(())
    }

    fn finish_vcd(&mut self) -> anyhow::Result<()> {
        self.ask("endvcd")?;
        Ok(())
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let _ = self.child.wait();
    }
}
