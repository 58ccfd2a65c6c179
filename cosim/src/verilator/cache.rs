//! The cache directory: temporary build directories, build locks and
//! publishing finished builds.

use super::error::{io_err, Result};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Temporary build directories older than this are left-overs of crashed
/// builds and are removed.
const STALE_TMP_AGE: Duration = Duration::from_secs(6 * 3600);

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
pub(super) fn tmp_dir_in(parent: &Path, tag: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    parent.join(format!("tmp-{tag}-{}-{n}-{nanos}", std::process::id()))
}

/// Remove left-over temporary build directories of crashed builds.
pub(super) fn remove_stale_tmp_dirs(parent: &Path) {
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
pub(super) struct BuildLock {
    file: Option<fs::File>,
    path: PathBuf,
}

impl BuildLock {
    pub(super) fn acquire(path: &Path) -> Result<BuildLock> {
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
pub(super) fn publish(tmp: &Path, dest: &Path) -> Result<()> {
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
pub(super) fn keep_failed(tmp: &Path, parent: &Path, name: &str, log: &str) -> PathBuf {
    let dest = parent.join(format!("failed-{name}"));
    let _ = fs::remove_dir_all(&dest);
    if fs::rename(tmp, &dest).is_ok() {
        dest.join(log)
    } else {
        tmp.join(log)
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The file written last into a finished cache entry: the entry's name and
/// its artefact's size and SHA-256. An entry whose seal is missing or does
/// not match (a truncated `model.so`, a library copied from another entry,
/// a build killed before the end) is rebuilt, never loaded.
pub(super) const SEAL: &str = "seal.txt";

/// The seal text of `artefact` in `dir` for entry `name`.
fn seal_text(dir: &Path, name: &str, artefact: &str) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    let bytes = fs::read(dir.join(artefact))?;
    Ok(format!(
        "entry {name}\nfile {artefact} {} {}\n",
        bytes.len(),
        hex(&Sha256::digest(&bytes))
    ))
}

/// Seal the finished build in `dir` (entry `name`, its `artefact`).
pub(super) fn write_seal(dir: &Path, name: &str, artefact: &str) -> Result<()> {
    let text = seal_text(dir, name, artefact).map_err(io_err(format!(
        "cannot read {} to seal it",
        dir.join(artefact).display()
    )))?;
    fs::write(dir.join(SEAL), text).map_err(io_err("cannot write the cache entry's seal"))
}

/// Whether `dir` is a finished, intact entry `name` with `artefact`: its
/// seal is there and the artefact's size and hash are the sealed ones.
pub(super) fn seal_ok(dir: &Path, name: &str, artefact: &str) -> bool {
    let Ok(sealed) = fs::read_to_string(dir.join(SEAL)) else {
        return false;
    };
    // Size first: a truncated file is found without hashing it.
    let size = fs::metadata(dir.join(artefact)).map(|m| m.len()).ok();
    let sealed_size = sealed
        .lines()
        .nth(1)
        .and_then(|l| l.split(' ').nth(2))
        .and_then(|s| s.parse::<u64>().ok());
    if size.is_none() || size != sealed_size {
        return false;
    }
    seal_text(dir, name, artefact).is_ok_and(|t| t == sealed)
}

/// Remove entry `dir` that failed its seal check ([`seal_ok`]), saying so
/// unless `quiet`: it is rebuilt.
pub(super) fn discard_broken(dir: &Path, what: &str, quiet: bool) -> Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    if !quiet {
        eprintln!(
            "warpgen: the cached {what} in {} is incomplete or does not match its seal \
             (truncated, replaced or from another build): rebuilding it",
            dir.display()
        );
    }
    fs::remove_dir_all(dir).map_err(io_err(format!(
        "cannot remove the broken cache entry {}",
        dir.display()
    )))
}
