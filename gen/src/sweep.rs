//! `warpgen sweep`: a list of independent harness runs (kernel × preset ×
//! settings), each writing one JSON file, run in parallel on the local
//! cores or as a Slurm job array, then merged.
//!
//! The list is a TOML or JSON file of runs:
//!
//! ```toml
//! [[run]]
//! id = "lps-caps"                 # names the result file: OUT/runs/lps-caps.json
//! kernel = "kernels/lps.toml"     # a kernel file or a kernel-N.traceg
//! preset = "caps-gtx480"          # default: fermi
//! set = ["prefetcher=caps", "sched=pas"]
//! catt = false                    # optional: warpgen run --catt
//! ```
//!
//! Each run's result is `OUT/runs/ID.json`: the run as listed, whether it
//! ran, its error if not (a machine that refuses a combination is a result,
//! not a failure of the sweep), the metrics, the seconds it took and the
//! warpgen version. A result whose recorded run equals the listed one is
//! kept when the sweep is run again (a sweep resumes); `--force` reruns.
//! The merge (`OUT/merged.json`) is every result in list order; it fails,
//! naming them, while some are missing.
//!
//! On a cluster, `--emit-slurm DIR` writes `DIR/sweep.sbatch` (a job array
//! of one task per run; task `i` runs `warpgen sweep --list L --out OUT
//! --task i` with the same binary), `DIR/merge.sbatch` (the merge, the
//! same command as locally) and `DIR/submit.sh`, which submits the array
//! and the merge after it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::run::{prepare, run_prepared, write_json};
use crate::run_args::RunArgs;

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// Unique name: letters, digits, `-`, `_` and `.` (the result file's
    /// name).
    pub id: String,
    /// Kernel file (`.toml`) or trace kernel (`kernel-N.traceg`).
    pub kernel: PathBuf,
    /// Machine preset.
    #[serde(default = "fermi")]
    pub preset: String,
    /// `KEY=VALUE` settings, as `warpgen run --set`.
    #[serde(default)]
    pub set: Vec<String>,
    /// Apply CATT's throttling (`warpgen run --catt`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub catt: bool,
}

/// The longest run id: it names the result file (`<id>.json`), and file
/// names are at most 255 bytes.
pub const MAX_ID_LEN: usize = 200;

fn fermi() -> String {
    "fermi".into()
}

/// A list of runs (the file's `[[run]]` tables).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunList {
    /// The runs, in order.
    #[serde(default, rename = "run")]
    pub runs: Vec<RunSpec>,
}

/// One run's result file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunResult {
    /// The run as listed.
    pub spec: RunSpec,
    /// Why it could not run (a refusal or an error), if it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The run's metrics (`warpgen run --json`), if it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<serde_json::Value>,
    /// Wall-clock seconds the run took.
    pub seconds: f64,
    /// The warpgen version that made it.
    pub version: String,
    /// SHA-256 of the kernel file's bytes when the run was made: a result
    /// of a kernel file changed since is not reused.
    #[serde(default)]
    pub kernel_sha256: String,
    /// SHA-256 of the result's JSON with this field empty: a result edited
    /// by hand (or cut short) is not reused.
    #[serde(default)]
    pub digest: String,
    /// The trace's warnings (unknown opcodes, unreadable registers:
    /// [`harness::trace::KernelTrace::warnings`]), printed again when the
    /// result is reused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl RunResult {
    /// A number in the metrics by its JSON path (`l1.miss_rate`).
    pub fn num(&self, path: &str) -> Option<f64> {
        let mut v = self.metrics.as_ref()?;
        for k in path.split('.') {
            v = v.get(k)?;
        }
        v.as_f64()
    }
}

impl RunList {
    /// Read a list (`.toml`, else JSON), checking ids (unique, safe as
    /// file names) and that each kernel exists.
    pub fn read(path: &Path) -> anyhow::Result<RunList> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let list: RunList = if path.extension().is_some_and(|e| e == "toml") {
            toml::from_str(&text).map_err(|e| {
                anyhow::anyhow!(
                    "{}: {}",
                    path.display(),
                    ports::error::toml_error_line(&text, &e)
                )
            })?
        } else {
            serde_json::from_str(&text).map_err(|e| {
                anyhow::anyhow!("{}:{}:{}: {e}", path.display(), e.line(), e.column())
            })?
        };
        list.check()
            .map_err(|e| anyhow::anyhow!("{}: {e:#}", path.display()))?;
        Ok(list)
    }

    /// Ids unique and safe as file names; presets known; each kernel a
    /// readable file; at least one run.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.runs.is_empty() {
            bail!("the list has no runs; add `[[run]]` tables (id, kernel, preset, set)");
        }
        let mut seen = HashSet::new();
        for (i, r) in self.runs.iter().enumerate() {
            if r.id.len() > MAX_ID_LEN {
                bail!(
                    "run {} (id `{}...`): the id has {} characters; at most {MAX_ID_LEN} (it names \
                     the result file)",
                    i + 1,
                    r.id.chars().take(24).collect::<String>(),
                    r.id.len()
                );
            }
            match std::fs::metadata(&r.kernel) {
                Ok(m) if m.is_file() => {}
                Ok(_) => bail!(
                    "run {} (id `{}`): kernel {} is not a file",
                    i + 1,
                    r.id,
                    r.kernel.display()
                ),
                Err(e) => bail!(
                    "run {} (id `{}`): kernel {}: {e}",
                    i + 1,
                    r.id,
                    r.kernel.display()
                ),
            }
            let ok = !r.id.is_empty()
                && !r.id.starts_with('.')
                && r.id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if !ok {
                bail!(
                    "run {} (id `{}`): an id is letters, digits, `-`, `_` and `.`, not starting \
                     with `.`",
                    i + 1,
                    r.id
                );
            }
            if !seen.insert(r.id.as_str()) {
                bail!("run {} (id `{}`): the id is listed twice", i + 1, r.id);
            }
            if !harness::presets::names().contains(&r.preset.as_str()) {
                bail!(
                    "run {} (id `{}`): unknown preset `{}`; presets: {}",
                    i + 1,
                    r.id,
                    r.preset,
                    harness::presets::names().join(", ")
                );
            }
            for kv in &r.set {
                if !kv.contains('=') {
                    bail!("run {} (id `{}`): set `{kv}` is not KEY=VALUE", i + 1, r.id);
                }
            }
        }
        Ok(())
    }

    /// Write the list as JSON (the form the Slurm tasks read).
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        write_json(path, self)
    }
}

/// The result file of `spec` under `out`.
pub fn result_path(out: &Path, spec: &RunSpec) -> PathBuf {
    out.join("runs").join(format!("{}.json", spec.id))
}

/// Run one spec (never fails: an error is the result's).
pub fn run_spec(spec: &RunSpec) -> RunResult {
    let start = Instant::now();
    let args = run_args(spec);
    let mut warnings = Vec::new();
    let r = prepare(&args).and_then(|(cfg, k)| {
        warnings = k.trace_warnings().to_vec();
        run_prepared(&args, &cfg, &k)
    });
    let (metrics, error) = match r.and_then(|m| Ok(serde_json::to_value(&m)?)) {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(format!("{e:#}"))),
    };
    let mut r = RunResult {
        spec: spec.clone(),
        error,
        metrics,
        seconds: start.elapsed().as_secs_f64(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        kernel_sha256: file_sha256(&spec.kernel),
        digest: String::new(),
        warnings,
    };
    r.digest = result_digest(&r);
    r
}

/// The `warpgen run` arguments of `spec`.
fn run_args(spec: &RunSpec) -> RunArgs {
    let mut args = RunArgs::new(&spec.kernel);
    args.quiet = true;
    args.preset = spec.preset.clone();
    args.set = spec.set.clone();
    args.catt = spec.catt;
    args
}

/// Reads and checks every kernel file (any file but a `.traceg`) of `list` with its preset
/// and settings before anything runs, so that a broken kernel or a bad
/// setting is reported at once, not after the other runs. (Trace kernels
/// are checked when they run: reading a trace is a large part of its run.)
pub fn precheck(list: &RunList) -> anyhow::Result<()> {
    let mut bad = Vec::new();
    for (i, spec) in list.runs.iter().enumerate() {
        if spec.kernel.extension().is_none_or(|e| e != "traceg") {
            if let Err(e) = prepare(&run_args(spec)) {
                bad.push(format!("run {} (id `{}`): {e:#}", i + 1, spec.id));
            }
        }
    }
    match bad.len() {
        0 => Ok(()),
        1 => bail!("{}", bad[0]),
        n => bail!(
            "{n} of {} runs cannot run; nothing ran:\n  {}",
            list.runs.len(),
            bad.join("\n  ")
        ),
    }
}

/// SHA-256 of the file at `path` (hex), or empty when it cannot be read.
pub fn file_sha256(path: &Path) -> String {
    use sha2::{Digest, Sha256};
    match std::fs::read(path) {
        Ok(bytes) => Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        Err(_) => String::new(),
    }
}

/// SHA-256 of `r`'s JSON with its digest empty (hex).
pub fn result_digest(r: &RunResult) -> String {
    use sha2::{Digest, Sha256};
    let mut blank = r.clone();
    blank.digest.clear();
    let text = serde_json::to_string(&blank).unwrap_or_default();
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `v` has every field of `schema` (recursively, objects by key)
/// with the same JSON kind: a stored result's metrics against this
/// version's `Metrics::default()`.
fn same_shape(schema: &serde_json::Value, v: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (schema, v) {
        (Object(s), Object(o)) => s
            .iter()
            .all(|(k, sv)| o.get(k).is_some_and(|ov| same_shape(sv, ov))),
        (Number(_), Number(_) | Null) | (Bool(_), Bool(_)) | (String(_), String(_)) => true,
        (Array(_), Array(_)) => true,
        // An optional field: absent (null) in the default, either here.
        (Null, _) => true,
        _ => false,
    }
}

/// Why a stored result is not reused, or `None` when it is: it must be of
/// the same run, made by this version from the kernel file as it is now,
/// unedited (its digest), and its metrics must have this version's fields.
pub fn stale_reason(r: &RunResult, spec: &RunSpec) -> Option<&'static str> {
    if r.spec != *spec {
        return Some("another run's result");
    }
    if r.version != env!("CARGO_PKG_VERSION") {
        return Some("made by another warpgen version");
    }
    if r.kernel_sha256 != file_sha256(&spec.kernel) {
        return Some("its kernel file has changed since");
    }
    if r.digest != result_digest(r) {
        return Some("edited since it was written (its digest does not match)");
    }
    if let Some(m) = &r.metrics {
        let schema = serde_json::to_value(harness::Metrics::default()).unwrap_or_default();
        if !same_shape(&schema, m) {
            return Some("its metrics lack fields of this version's");
        }
    }
    if r.metrics.is_none() && r.error.is_none() {
        return Some("neither metrics nor an error");
    }
    None
}

/// The stored result of `spec`, if it is there and may be reused
/// ([`stale_reason`]).
pub fn stored(out: &Path, spec: &RunSpec) -> Option<RunResult> {
    stored_or_why(out, spec).ok()
}

/// The stored result of `spec`, or why there is none to reuse.
pub fn stored_or_why(out: &Path, spec: &RunSpec) -> Result<RunResult, String> {
    let text =
        std::fs::read_to_string(result_path(out, spec)).map_err(|_| "missing".to_string())?;
    let r: RunResult = serde_json::from_str(&text).map_err(|e| format!("unreadable ({e})"))?;
    match stale_reason(&r, spec) {
        None => Ok(r),
        Some(why) => Err(why.to_string()),
    }
}

/// Run task `index` of the list and write its result.
pub fn run_task(list: &RunList, out: &Path, index: usize) -> anyhow::Result<RunResult> {
    let Some(spec) = list.runs.get(index) else {
        bail!(
            "task {index}: the list has {} runs (tasks 0..={})",
            list.runs.len(),
            list.runs.len().saturating_sub(1)
        );
    };
    std::fs::create_dir_all(out.join("runs"))
        .with_context(|| format!("creating {}", out.join("runs").display()))?;
    let r = run_spec(spec);
    write_json(&result_path(out, spec), &r)?;
    Ok(r)
}

/// Run every listed run whose result is missing (every run with `force`)
/// on `jobs` threads, writing each result as it finishes; a progress bar
/// shows on a terminal. Returns how many ran.
pub fn run_missing(list: &RunList, out: &Path, jobs: usize, force: bool) -> anyhow::Result<usize> {
    std::fs::create_dir_all(out.join("runs"))
        .with_context(|| format!("creating {}", out.join("runs").display()))?;
    let todo: Vec<&RunSpec> = list
        .runs
        .iter()
        .filter(|s| force || stored(out, s).is_none())
        .collect();
    if todo.is_empty() {
        return Ok(0);
    }
    let bar = ProgressBar::with_draw_target(Some(todo.len() as u64), ProgressDrawTarget::stderr());
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed} ({eta} left) {msg}")
            .expect("valid template"),
    );
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(todo.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(spec) = todo.get(i) else { break };
                let r = run_spec(spec);
                if let Err(e) = write_json(&result_path(out, spec), &r) {
                    failure
                        .lock()
                        .expect("no panic holds the lock")
                        .get_or_insert(e);
                }
                bar.set_message(spec.id.clone());
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().expect("no panic holds the lock") {
        return Err(e);
    }
    Ok(todo.len())
}

/// Every listed run's result, in list order; an error naming the missing
/// ones (and the command that makes them) if any is. The results' trace
/// warnings are printed on standard error ([`crate::run::warn_once`]).
pub fn collect(list: &RunList, out: &Path) -> anyhow::Result<Vec<RunResult>> {
    let mut got = Vec::new();
    let mut missing = Vec::new();
    for (i, s) in list.runs.iter().enumerate() {
        match stored_or_why(out, s) {
            Ok(r) => {
                // A reused result's trace was not read again: its warnings
                // are shown from the result (once per process).
                crate::run::warn_once(&r.warnings);
                got.push(r)
            }
            Err(why) if why == "missing" => missing.push(format!("{} (task {i})", s.id)),
            Err(why) => missing.push(format!("{} (task {i}: {why})", s.id)),
        }
    }
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
        bail!(
            "{} of {} runs have no result in {}: {}{}; run them with `warpgen sweep --list LIST \
             --out {}` (or `--task N` each)",
            missing.len(),
            list.runs.len(),
            out.join("runs").display(),
            shown.join(", "),
            if missing.len() > shown.len() {
                ", ..."
            } else {
                ""
            },
            out.display()
        );
    }
    Ok(got)
}

/// Merge the results into `OUT/merged.json` (list order).
pub fn merge(list: &RunList, out: &Path) -> anyhow::Result<Vec<RunResult>> {
    let all = collect(list, out)?;
    write_json(&out.join("merged.json"), &all)?;
    Ok(all)
}

/// Shell-quote `s` for a POSIX shell.
fn sh_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=:+,@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A Slurm job array and its merge (`warpgen sweep`, `reproduce` and
/// `explore` emit one).
pub struct SlurmJob<'a> {
    /// The command's name: the array script is `NAME.sbatch`, the job
    /// `warpgen-NAME`.
    pub name: &'a str,
    /// The warpgen to run.
    pub binary: &'a Path,
    /// The folder relative paths are taken from.
    pub workdir: &'a Path,
    /// The folder of the tasks' logs.
    pub logs: &'a Path,
    /// Array tasks.
    pub tasks: usize,
    /// Memory of one task, GB.
    pub mem_gb: u32,
    /// The arguments of task `i`, before `--task i`.
    pub task_args: &'a [String],
    /// The arguments of the merge.
    pub merge_args: &'a [String],
}

/// The Slurm scripts of `job`: `(file name, contents)`: the array (task
/// `i` runs the task arguments and `--task i`), the merge, and
/// `submit.sh`, which queues the merge after every task succeeded.
pub fn slurm_scripts(job: &SlurmJob<'_>) -> Vec<(String, String)> {
    let bin = sh_quote(&job.binary.display().to_string());
    let wd = sh_quote(&job.workdir.display().to_string());
    let logs = sh_quote(&job.logs.display().to_string());
    let quoted = |a: &[String]| a.iter().map(|x| sh_quote(x)).collect::<Vec<_>>().join(" ");
    let (name, n, mem) = (job.name, job.tasks, job.mem_gb);
    let array = format!(
        "#!/bin/bash\n\
         # A warpgen {name} as a Slurm job array: task i runs item i.\n\
         # Submit with ./submit.sh (it also queues the merge after the array).\n\
         #SBATCH --job-name=warpgen-{name}\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --mem={mem}G\n\
         #SBATCH --chdir={wd}\n\
         #SBATCH --output={logs}/task-%a.log\n\
         set -euo pipefail\n\
         exec {bin} {} --task \"$SLURM_ARRAY_TASK_ID\"\n",
        quoted(job.task_args),
        last = n.saturating_sub(1),
    );
    let merge = format!(
        "#!/bin/bash\n\
         # Merges the {name}'s results once every array task has finished.\n\
         #SBATCH --job-name=warpgen-merge\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --mem={mem}G\n\
         #SBATCH --chdir={wd}\n\
         #SBATCH --output={logs}/merge.log\n\
         set -euo pipefail\n\
         exec {bin} {}\n",
        quoted(job.merge_args)
    );
    let submit = format!(
        "#!/bin/bash\n\
         # Submit the {name}'s job array, then its merge after every task succeeded.\n\
         set -euo pipefail\n\
         cd \"$(dirname \"$0\")\"\n\
         mkdir -p {logs}\n\
         array=$(sbatch --parsable {name}.sbatch)\n\
         sbatch --dependency=afterok:\"${{array%%;*}}\" merge.sbatch\n\
         echo \"submitted job array $array ({n} tasks) and its merge\"\n"
    );
    vec![
        (format!("{name}.sbatch"), array),
        ("merge.sbatch".into(), merge),
        ("submit.sh".into(), submit),
    ]
}

/// Write `job`'s scripts into `dir` (executable); returns the paths.
pub fn write_slurm(dir: &Path, job: &SlurmJob<'_>) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut written = Vec::new();
    for (name, text) in slurm_scripts(job) {
        let p = dir.join(name);
        crate::output::write_atomic(&p, &text)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
                .with_context(|| format!("making {} executable", p.display()))?;
        }
        written.push(p);
    }
    Ok(written)
}

/// `p` made absolute against the current folder.
pub fn absolute(p: &Path) -> anyhow::Result<PathBuf> {
    Ok(if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .context("reading the current folder")?
            .join(p)
    })
}

/// Write the Slurm scripts of a run list into `dir` (executable), the list
/// beside them as `runs.json`; returns the paths written. `merge_args`
/// gives the merge's arguments from the list's and the results' paths.
pub fn emit_slurm(
    dir: &Path,
    list: &RunList,
    out: &Path,
    merge_args: impl FnOnce(&Path, &Path) -> Vec<String>,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let dir = absolute(dir)?;
    let out = absolute(out)?;
    let list_path = dir.join("runs.json");
    list.write(&list_path)?;
    let binary = std::env::current_exe().context("locating the warpgen binary")?;
    let workdir = std::env::current_dir()?;
    let margs = merge_args(&list_path, &out);
    let task_args = vec![
        "sweep".to_string(),
        "--list".into(),
        list_path.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ];
    let job = SlurmJob {
        name: "sweep",
        binary: &binary,
        workdir: &workdir,
        logs: &out.join("slurm-logs"),
        tasks: list.runs.len(),
        mem_gb: 4,
        task_args: &task_args,
        merge_args: &margs,
    };
    let mut written = vec![list_path.clone()];
    written.extend(write_slurm(&dir, &job)?);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_check() {
        let k = concat!(env!("CARGO_MANIFEST_DIR"), "/../kernels/vector_add.toml");
        let l: RunList = toml::from_str(&format!(
            "[[run]]\nid = \"a\"\nkernel = {k:?}\n[[run]]\nid = \"b.1\"\nkernel = {k:?}\n\
             preset = \"ba-thesis\"\nset = [\"l1=ba\"]\n",
        ))
        .unwrap();
        assert_eq!(l.runs.len(), 2);
        assert_eq!(l.runs[0].preset, "fermi");
        l.check().unwrap();
        let mut d = l.clone();
        d.runs[1].id = "a".into();
        assert!(format!("{:#}", d.check().unwrap_err()).contains("listed twice"));
        d.runs[1].id = "../x".into();
        assert!(d.check().is_err());
        d.runs[1].id = "x".into();
        d.runs[1].preset = "nope".into();
        assert!(format!("{:#}", d.check().unwrap_err()).contains("unknown preset"));
        d.runs[1].preset = "fermi".into();
        d.runs[1].kernel = "no-such-kernel.toml".into();
        assert!(format!("{:#}", d.check().unwrap_err()).contains("kernel no-such-kernel.toml"));
        assert!(format!("{:#}", RunList::default().check().unwrap_err()).contains("no runs"));
        assert!(
            toml::from_str::<RunList>("[[run]]\nid = \"a\"\nkernel = \"k\"\nsets = []\n").is_err()
        );
    }

    #[test]
    fn slurm_array_covers_the_list_and_quotes_paths() {
        let task: Vec<String> = ["sweep", "--list", "/w/runs.json", "--out", "/w/out"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let s = slurm_scripts(&SlurmJob {
            name: "sweep",
            binary: Path::new("/opt/warp gen"),
            workdir: Path::new("/w"),
            logs: Path::new("/w/out/slurm-logs"),
            tasks: 7,
            mem_gb: 4,
            task_args: &task,
            merge_args: &["sweep".into(), "--merge".into()],
        });
        assert_eq!(s[0].0, "sweep.sbatch");
        let array = &s[0].1;
        assert!(array.contains("#SBATCH --array=0-6\n"));
        assert!(array.contains("exec '/opt/warp gen' sweep --list /w/runs.json --out /w/out --task \"$SLURM_ARRAY_TASK_ID\""));
        assert!(s[1].1.contains("exec '/opt/warp gen' sweep --merge"));
        assert!(s[2].1.contains("--dependency=afterok"));
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
    }
}
