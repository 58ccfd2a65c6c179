//! `warpgen all`'s kernel comparison: every bundled kernel under every
//! combination of [`combinations`] (no unit, each unit, the pairs units ask
//! for), run in parallel and cached by content, as one table.

use std::path::{Path, PathBuf};

use anyhow::Context;
use harness::Metrics;

use crate::combos::{compare_combos, Combination};
use crate::output::write_atomic;
use crate::run::{prepare, run_prepared};
use crate::run_args::RunArgs;
use crate::unit_table;

/// The combinations `warpgen all` runs every kernel under: a label and
/// the machine settings (from the units' declarations,
/// [`crate::combos::compare_combos`]).
pub fn combinations() -> Vec<Combination> {
    compare_combos(&unit_table::combinations())
}

/// One kernel under every combination of [`combinations`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct CompareRow {
    /// Kernel name.
    pub kernel: String,
    /// One cell per combination, in [`combinations`] order.
    pub runs: Vec<CompareCell>,
}

/// What the comparison table shows of one run (a summary of its
/// [`Metrics`], small enough to cache).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareCell {
    /// Cycles.
    pub cycles: u64,
    /// L1 miss rate, 0-1.
    pub miss_rate: f64,
    /// Prefetch accuracy and coverage, 0-1, when a prefetcher ran.
    pub prefetch: Option<(f64, f64)>,
    /// Warp instructions executed.
    pub warp_instructions: u64,
    /// Whether DAC decoupled the kernel (`None` without DAC).
    pub dac_decoupled: Option<bool>,
}

impl From<&Metrics> for CompareCell {
    fn from(m: &Metrics) -> Self {
        CompareCell {
            cycles: m.cycles,
            miss_rate: m.l1.miss_rate,
            prefetch: m.prefetch.as_ref().map(|p| (p.accuracy, p.coverage)),
            warp_instructions: m.warp_instructions,
            dac_decoupled: m.dac.as_ref().map(|d| d.decoupled),
        }
    }
}

/// SHA-256 of the running `warpgen` executable, computed once: the part
/// of a harness result's cache key that changes whenever the models do.
fn exe_hash() -> anyhow::Result<&'static str> {
    use sha2::{Digest, Sha256};
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Some(h) = HASH.get() {
        return Ok(h);
    }
    let exe = std::env::current_exe().context("locating the warpgen executable")?;
    let bytes =
        std::fs::read(&exe).with_context(|| format!("reading {} to hash it", exe.display()))?;
    let h: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(HASH.get_or_init(|| h))
}

/// The folder of cached comparison cells: `compare/` in the cache folder
/// of the Verilator builds (`$WARPGEN_CACHE`).
pub fn compare_cache_dir() -> PathBuf {
    cosim::verilator::default_cache_dir().join("compare")
}

/// One run of the comparison, from the cache when the same executable has
/// run the same machine and kernel (the key hashes the executable, and the
/// prepared configuration and kernel in full) before.
fn compare_cell(path: &Path, sets: &[String]) -> anyhow::Result<(String, CompareCell)> {
    use sha2::{Digest, Sha256};
    let mut args = RunArgs::new(path);
    args.quiet = true;
    args.set = sets.to_vec();
    let (cfg, kernel) = prepare(&args)?;
    // A kernel file is self-contained: its text, the run's settings, the
    // machine they give and the executable decide the result. Traced
    // kernels read other files and are not cached.
    let file = if kernel.is_traced() {
        None
    } else {
        let text = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let mut h = Sha256::new();
        for part in [
            b"compare-cell v1".as_slice(),
            exe_hash()?.as_bytes(),
            &text,
            format!("{:?}", args.set).as_bytes(),
            serde_json::to_string(&cfg)?.as_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        let key: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        Some(compare_cache_dir().join(format!("{}.json", &key[..32])))
    };
    if let Some(cell) = file
        .as_ref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|t| serde_json::from_str::<CompareCell>(&t).ok())
    {
        return Ok((kernel.name, cell));
    }
    let cell = CompareCell::from(&run_prepared(&args, &cfg, &kernel)?);
    // A cache that cannot be written costs time, not correctness.
    if let Some(f) = &file {
        if std::fs::create_dir_all(compare_cache_dir()).is_ok() {
            let _ = write_atomic(f, &serde_json::to_string(&cell)?);
        }
    }
    Ok((kernel.name, cell))
}

/// Run every kernel file under every combination of [`combinations`]
/// (`warpgen all`'s comparison); `sets` apply to every run. The runs go
/// in parallel, one per core, and each result is cached (see
/// [`compare_cache_dir`]): a second `warpgen all` with the same binary
/// and kernels reads them back.
pub fn compare_kernels(kernels: &[PathBuf], sets: &[String]) -> anyhow::Result<Vec<CompareRow>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let combos = combinations();
    let tasks: Vec<(usize, usize)> = (0..kernels.len())
        .flat_map(|k| (0..combos.len()).map(move |c| (k, c)))
        .collect();
    type Slot = Option<anyhow::Result<(String, CompareCell)>>;
    let results: Mutex<Vec<Slot>> = Mutex::new((0..tasks.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..jobs.min(tasks.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(k, c)) = tasks.get(i) else { break };
                let mut set = sets.to_vec();
                set.extend(combos[c].settings.iter().cloned());
                let r = compare_cell(&kernels[k], &set)
                    .with_context(|| format!("{} ({})", kernels[k].display(), combos[c].label));
                results.lock().expect("no panic holds the lock")[i] = Some(r);
            });
        }
    });
    let mut results = results
        .into_inner()
        .expect("no panic holds the lock")
        .into_iter();
    let mut out = Vec::new();
    for _ in kernels {
        let mut runs = Vec::new();
        let mut name = String::new();
        for _ in &combos {
            let (n, cell) = results.next().flatten().expect("every task ran")?;
            name = n;
            runs.push(cell);
        }
        out.push(CompareRow { kernel: name, runs });
    }
    Ok(out)
}

/// The comparison as a table: per combination, cycles and L1 miss rate,
/// for a prefetcher its accuracy (used / issued) and coverage (used /
/// demand), for DAC its warp instructions against the baseline's (`-`:
/// the kernel was not decoupled).
pub fn compare_table(rows: &[CompareRow]) -> String {
    let combos = combinations();
    let mut s = format!("{:<20}", "kernel");
    for Combination {
        label,
        settings: sets,
    } in &combos
    {
        s += &format!(" | {:>11} {:>6}", format!("{label} cyc"), "miss%");
        if sets.iter().any(|x| x.starts_with("prefetcher=")) {
            s += &format!(" {:>5} {:>5}", "acc%", "cov%");
        }
        if sets.iter().any(|x| x.starts_with("expander=")) {
            s += &format!(" {:>6}", "instr");
        }
    }
    s.push('\n');
    for r in rows {
        s += &format!("{:<20}", r.kernel);
        for (m, sets) in r.runs.iter().zip(combos.iter().map(|c| &c.settings)) {
            s += &format!(" | {:>11} {:>6.1}", m.cycles, 100.0 * m.miss_rate);
            if sets.iter().any(|x| x.starts_with("prefetcher=")) {
                let (acc, cov) = m.prefetch.unwrap_or((0.0, 0.0));
                s += &format!(" {:>5.1} {:>5.1}", 100.0 * acc, 100.0 * cov);
            }
            if sets.iter().any(|x| x.starts_with("expander=")) {
                match (m.dac_decoupled, r.runs.first()) {
                    (Some(true), Some(base)) => {
                        s += &format!(
                            " {:>5.2}x",
                            m.warp_instructions as f64 / base.warp_instructions.max(1) as f64
                        )
                    }
                    _ => s += &format!(" {:>6}", "-"),
                }
            }
        }
        s.push('\n');
    }
    s
}
