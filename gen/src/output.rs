//! Output files of `warpgen`: checked before a long run, written so that
//! nothing but a regular file is ever replaced, and no temporary file is
//! left behind by an interrupted process.
//!
//! - A new or regular file is written to a temporary file in its folder,
//!   renamed into place: readers never see half a file. The result has the
//!   usual permissions: a new file `0666 & !umask`, a replaced one keeps
//!   its mode.
//! - A device (`/dev/null`, `/dev/full`, a terminal), a FIFO, or a symlink
//!   (`/dev/stdout`) is written through: opened and written, never
//!   replaced, write errors (`/dev/full`'s "no space left on device")
//!   reported. A FIFO needs its reader to be running when the output is
//!   checked ([`OutputFile::prepare`]), so that nothing waits for one.
//! - A folder, a socket, a missing or unwritable parent folder is refused.
//! - Temporary files are named `.<file>.<pid>[-<random>].warpgen-tmp`. On
//!   SIGINT, SIGTERM or SIGHUP the ones being written are removed before
//!   the process ends (by that signal); [`remove_stale_temps`] removes those
//!   of an earlier process that was killed outright.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use anyhow::{anyhow, bail, Context};

/// The suffix of every temporary file `warpgen` writes.
pub const TEMP_SUFFIX: &str = ".warpgen-tmp";

/// Temporary files being written, removed on a termination signal.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();
/// A termination signal arrived: no new temporary file is started.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// The registry of temporary files, the signal handler installed. Hold
/// the guard while a temporary file exists: a signal's cleanup waits for
/// it, so that no temporary file appears after the cleanup.
fn temps() -> MutexGuard<'static, Vec<PathBuf>> {
    HANDLER.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // Without a handler (no thread could be started) a signal ends the
        // process as before, and the next emission removes what is left.
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            std::thread::spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    STOPPING.store(true, Ordering::SeqCst);
                    let temps = TEMPS.lock().unwrap_or_else(PoisonError::into_inner);
                    for p in temps.iter() {
                        let _ = fs::remove_file(p);
                    }
                    // End as the signal would have (the guard is kept: no
                    // other temporary file is created meanwhile).
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            });
        }
    });
    let guard = TEMPS.lock().unwrap_or_else(PoisonError::into_inner);
    if STOPPING.load(Ordering::SeqCst) {
        // The signal's cleanup ends the process once it has the lock.
        drop(guard);
        loop {
            std::thread::park();
        }
    }
    guard
}

/// The file name of `path`, or an error naming `what`.
fn file_name(path: &Path, what: &str) -> anyhow::Result<String> {
    match path.file_name() {
        Some(n) => Ok(n.to_string_lossy().into_owned()),
        None => bail!("{what} {}: not a file name", path.display()),
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Check that files can be created in folder `dir` (it exists, is a
/// folder, and a file can be created and removed there).
fn check_folder(dir: &Path, path: &Path, what: &str) -> anyhow::Result<()> {
    let shown = || format!("{what} {}", path.display());
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!("{}: {} is not a folder", shown(), dir.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("{}: the folder {} does not exist", shown(), dir.display())
        }
        Err(e) => bail!("{}: cannot use the folder {}: {e}", shown(), dir.display()),
    }
    tempfile::Builder::new()
        .prefix(&format!(".warpgen-probe.{}-", std::process::id()))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| {
            anyhow!(
                "{}: cannot write in the folder {}: {e}",
                shown(),
                dir.display()
            )
        })
}

/// How an output is written.
#[derive(Debug)]
enum Target {
    /// A temporary file in `dir`, renamed to the path; `mode`: the
    /// permissions of the file it replaces.
    Replace { dir: PathBuf, mode: Option<u32> },
    /// Opened and written (a device, a symlink); `fifo`: the FIFO opened
    /// when checked, kept open so that its reader does not see the end.
    Through { fifo: Option<File> },
}

/// An output file, checked ([`OutputFile::prepare`]) before the work that
/// produces it, written at the end.
#[derive(Debug)]
pub struct OutputFile {
    path: PathBuf,
    what: String,
    target: Target,
}

impl OutputFile {
    /// Check `path` as an output (`what` names it in errors: `--json`):
    /// a new file in an existing, writable folder; a regular file there;
    /// a device, FIFO (with a reader) or symlink to write through. A
    /// folder, a socket, a FIFO without a reader, a missing or read-only
    /// folder is an error now, not after the run.
    pub fn prepare(path: &Path, what: &str) -> anyhow::Result<OutputFile> {
        let shown = || format!("{what} {}", path.display());
        let out = |target| OutputFile {
            path: path.to_path_buf(),
            what: what.to_string(),
            target,
        };
        let replace = |mode: Option<u32>| -> anyhow::Result<OutputFile> {
            file_name(path, what)?;
            let dir = folder_of(path);
            check_folder(&dir, path, what)?;
            Ok(out(Target::Replace { dir, mode }))
        };
        let link = match fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return replace(None),
            Err(e) => bail!("{}: {e}", shown()),
            Ok(m) => m,
        };
        if link.is_dir() {
            bail!("{} is a folder; give a file name", shown());
        }
        if link.is_file() {
            return replace(Some(link.permissions().mode()));
        }
        // A symlink (followed) or a special file: written through.
        let meta = match fs::metadata(path) {
            // A symlink to a missing file: the file is created there.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => bail!("{}: {e}", shown()),
            Ok(m) => Some(m),
        };
        let kind = meta.as_ref().map(|m| m.file_type());
        if kind.is_some_and(|k| k.is_dir()) {
            bail!("{} is a symlink to a folder; give a file name", shown());
        }
        if kind.is_some_and(|k| k.is_socket()) {
            bail!(
                "{} is a socket; warpgen writes files, devices and FIFOs",
                shown()
            );
        }
        if kind.is_some_and(|k| k.is_fifo()) {
            return Ok(out(Target::Through {
                fifo: Some(open_fifo(path).with_context(shown)?),
            }));
        }
        // Opened now to check the permission, written at the end (not
        // truncated before the work is done).
        OpenOptions::new()
            .write(true)
            .create(meta.is_none())
            .truncate(false)
            .open(path)
            .map_err(|e| anyhow!("{}: cannot open it for writing: {e}", shown()))?;
        Ok(out(Target::Through { fifo: None }))
    }

    /// Write `value` as pretty JSON (and a newline).
    pub fn write_json<T: serde::Serialize>(self, value: &T) -> anyhow::Result<()> {
        self.write_with(|w| {
            serde_json::to_writer_pretty(&mut *w, value)?;
            w.write_all(b"\n")?;
            Ok(())
        })
    }

    /// Write `bytes`.
    pub fn write_bytes(self, bytes: &[u8]) -> anyhow::Result<()> {
        self.write_with(|w| Ok(w.write_all(bytes)?))
    }

    /// Write the contents of file `src` (streamed, not held in memory):
    /// how an output a tool wrote into a private temporary folder (a
    /// simulator's VCD) reaches its destination through the checks here.
    pub fn write_from_file(self, src: &Path) -> anyhow::Result<()> {
        let mut f = File::open(src).with_context(|| format!("reading {}", src.display()))?;
        self.write_with(|w| {
            std::io::copy(&mut f, w)?;
            Ok(())
        })
    }

    fn write_with(
        self,
        fill: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let shown = format!("{} {}", self.what, self.path.display());
        match self.target {
            Target::Through { fifo } => {
                let f = match fifo {
                    Some(f) => f,
                    None => OpenOptions::new()
                        .write(true)
                        .create(true)
                        .truncate(true)
                        .open(&self.path)
                        .map_err(|e| anyhow!("{shown}: cannot open it for writing: {e}"))?,
                };
                let mut w = BufWriter::new(f);
                fill(&mut w).with_context(|| format!("writing {shown}"))?;
                w.flush().with_context(|| format!("writing {shown}"))?;
                Ok(())
            }
            Target::Replace { dir, mode } => {
                let name = file_name(&self.path, &self.what)?;
                let mut reg = temps();
                let mut tmp = tempfile::Builder::new()
                    .prefix(&format!(".{name}.{}-", std::process::id()))
                    .suffix(TEMP_SUFFIX)
                    .permissions(fs::Permissions::from_mode(0o666))
                    .tempfile_in(&dir)
                    .map_err(|e| {
                        anyhow!("{shown}: cannot create a file in {}: {e}", dir.display())
                    })?;
                reg.push(tmp.path().to_path_buf());
                let result = (|| -> anyhow::Result<()> {
                    if let Some(mode) = mode {
                        tmp.as_file()
                            .set_permissions(fs::Permissions::from_mode(mode & 0o7777))?;
                    }
                    let mut w = BufWriter::new(tmp.as_file_mut());
                    fill(&mut w)?;
                    w.flush()?;
                    drop(w);
                    Ok(())
                })()
                .with_context(|| format!("writing {shown}"));
                let tmp_path = tmp.path().to_path_buf();
                // On an error the temporary file is removed (dropped).
                let result = result.and_then(|()| {
                    tmp.persist(&self.path)
                        .map(drop)
                        .map_err(|e| anyhow!("writing {shown}: {}", e.error))
                });
                reg.retain(|p| *p != tmp_path);
                result
            }
        }
    }
}

/// Deliver a lock-step waveform: the VCD at `private` to `dest` through the
/// checked writer, then the GTKWave save file the checker wrote beside
/// `private` (if any) beside `dest`, naming the delivered files. The save
/// file goes only beside a regular file (a new one or one replaced): a
/// waveform written through to a device or a FIFO has no folder of its own.
pub fn deliver_waveform(private: &Path, dest: &Path, what: &str) -> anyhow::Result<()> {
    OutputFile::prepare(dest, what)?.write_from_file(private)?;
    let save = cosim::gtkw::beside(private);
    let target = cosim::gtkw::beside(dest);
    let regular = fs::symlink_metadata(dest).is_ok_and(|m| m.is_file());
    if regular && save.is_file() && target != dest {
        let text =
            fs::read_to_string(&save).with_context(|| format!("reading {}", save.display()))?;
        let vcd = std::path::absolute(dest).unwrap_or_else(|_| dest.to_path_buf());
        let gtkw = std::path::absolute(&target).unwrap_or_else(|_| target.clone());
        write_atomic(&target, &cosim::gtkw::retarget(&text, &vcd, &gtkw))?;
    }
    Ok(())
}

/// Check `path` as an output before the work that produces it, without
/// keeping it open: what [`OutputFile::prepare`] refuses (a folder, a
/// socket, a missing or read-only folder, a symlink to a folder) is an
/// error now. A FIFO is only checked to be one: its reader is needed when
/// the file is written, and opening it now would end the reader's input.
pub fn check_output(path: &Path, what: &str) -> anyhow::Result<()> {
    if fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
        return Ok(());
    }
    OutputFile::prepare(path, what).map(drop)
}

/// Open FIFO `path` for writing if a reader has it open (else an error,
/// not a wait), in blocking mode.
fn open_fifo(path: &Path) -> anyhow::Result<File> {
    use rustix::fs::{fcntl_getfl, fcntl_setfl, Mode, OFlags};
    let fd = rustix::fs::open(
        path,
        OFlags::WRONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| {
        if e == rustix::io::Errno::NXIO {
            anyhow!("a FIFO with no reader: start the reader first")
        } else {
            anyhow!("cannot open it for writing: {e}")
        }
    })?;
    let flags = fcntl_getfl(&fd)?;
    fcntl_setfl(&fd, flags - OFlags::NONBLOCK)?;
    Ok(File::from(fd))
}

/// Write `value` as pretty JSON to `path` ([`OutputFile`]: a regular file
/// replaced atomically, a device, FIFO or symlink written through).
pub fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    OutputFile::prepare(path, "writing")?.write_json(value)
}

/// Write `text` to `path` through a temporary file in the same folder
/// (created if missing), renamed into place; the temporary file is
/// removed if the process is interrupted by a signal. A path that exists
/// and is not a regular file (a symlink, a FIFO, a device) is never
/// replaced: it is written through as [`OutputFile`] does (a FIFO needs its
/// reader; a folder or a socket is an error).
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(d) = dir {
        fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    if fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return OutputFile::prepare(path, "writing")?.write_bytes(text.as_bytes());
    }
    let name = file_name(path, "writing")?;
    let tmp = folder_of(path).join(format!(".{name}.{}{TEMP_SUFFIX}", std::process::id()));
    let mut reg = temps();
    reg.push(tmp.clone());
    let r = fs::write(&tmp, text)
        .with_context(|| format!("writing {}", tmp.display()))
        .and_then(|()| {
            fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))
        });
    if r.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    reg.retain(|p| *p != tmp);
    r
}

/// The process id of a temporary file of `warpgen`, from its name:
/// `.<file>.<pid>[-<random>].warpgen-tmp`, or the earlier releases'
/// `<unit>.v.tmp<pid>`; `None` for any other name.
pub fn temp_owner(name: &str) -> Option<u32> {
    let digits = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    if let Some(stem) = name
        .strip_suffix(TEMP_SUFFIX)
        .and_then(|s| s.strip_prefix('.'))
    {
        let (_, last) = stem.rsplit_once('.')?;
        return digits(last.split('-').next().unwrap_or(""));
    }
    let (base, pid) = name.rsplit_once(".tmp")?;
    if !base.ends_with(".v") || base.len() <= 2 {
        return None;
    }
    digits(pid)
}

/// Remove the temporary files of `warpgen` processes that no longer run
/// (killed before they could clean up) from folder `dir`; returns them.
pub fn remove_stale_temps(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = temp_owner(&name) else {
            continue;
        };
        // A running process's file is its own business (pids are visible
        // in /proc on Linux; elsewhere, nothing is removed).
        let alive = pid == me || !Path::new("/proc/self").exists() || {
            Path::new("/proc").join(pid.to_string()).exists()
        };
        if !alive && e.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(e.path()).is_ok() {
            removed.push(e.path());
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_file_names_are_recognised() {
        assert_eq!(temp_owner(".some_unit.v.1234.warpgen-tmp"), Some(1234));
        assert_eq!(temp_owner(".m.json.77-AbC12x.warpgen-tmp"), Some(77));
        assert_eq!(temp_owner(".m.json.77-123456.warpgen-tmp"), Some(77));
        assert_eq!(temp_owner("some_unit.v.tmp4242"), Some(4242));
        for other in [
            "some_unit.v",
            "notes.tmp12",
            ".v.tmp12",
            "x.v.tmp",
            "x.v.tmp12a",
            ".x.warpgen-tmp",
            ".x.abc.warpgen-tmp",
            "x.1.warpgen-tmp",
        ] {
            assert_eq!(temp_owner(other), None, "{other}");
        }
    }

    #[test]
    fn json_files_get_the_usual_permissions_and_keep_a_replaced_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        write_json(&p, &[1, 2]).unwrap();
        let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        // 0666 less the umask: at least the owner's read and write, and
        // never the execute bits.
        assert_eq!(mode & 0o600, 0o600, "{mode:o}");
        assert_eq!(mode & 0o111, 0, "{mode:o}");
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_json(&p, &[3]).unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(fs::read_to_string(&p).unwrap(), "[\n  3\n]\n");
        // Nothing else is left in the folder.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn symlinks_and_devices_are_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.json");
        fs::write(&target, "old contents, longer than the new ones").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_json(&link, &1).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "1\n");
        write_json(Path::new("/dev/null"), &1).unwrap();
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        if Path::new("/dev/full").exists() {
            let e = write_json(Path::new("/dev/full"), &1).unwrap_err();
            assert!(format!("{e:#}").contains("/dev/full"), "{e:#}");
            assert!(fs::metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device());
        }
    }

    #[test]
    fn bad_outputs_are_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let e = OutputFile::prepare(dir.path(), "--json").unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e = OutputFile::prepare(&dir.path().join("no/such/m.json"), "--json").unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        // A FIFO with no reader: an error, not a wait.
        let fifo = dir.path().join("f");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let e = OutputFile::prepare(&fifo, "--json").unwrap_err();
        assert!(format!("{e:#}").contains("no reader"), "{e:#}");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn stale_temporary_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A pid that cannot be running (above Linux's pid_max limit).
        let dead = 4_194_305 + 7;
        let mine = std::process::id();
        for n in [
            format!(".a.v.{dead}.warpgen-tmp"),
            format!("b.v.tmp{dead}"),
            format!(".c.v.{mine}.warpgen-tmp"),
            "d.v".to_string(),
            "e.txt.tmp1".to_string(),
        ] {
            fs::write(dir.path().join(n), "x").unwrap();
        }
        let removed = remove_stale_temps(dir.path());
        assert_eq!(removed.len(), 2, "{removed:?}");
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                format!(".c.v.{mine}.warpgen-tmp"),
                "d.v".into(),
                "e.txt.tmp1".into()
            ]
        );
    }
}
