//! `warpgen compare`: kernels (files or Accel-Sim trace folders) × machine
//! presets × mechanisms, run in parallel on the local cores, printed as one
//! Markdown table per preset. A combination a machine cannot run (BA's tag
//! array on a 256-way L1, say) is a table cell with the reason, not an
//! error of the whole command.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use harness::Metrics;
use indicatif::{ProgressBar, ProgressStyle};

use crate::run::{prepare, run_prepared};
use crate::run_args::RunArgs;

/// A mechanism: its label and its `--set` settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mechanism {
    /// Column label (`base`, `CAPS`, ...).
    pub label: String,
    /// `KEY=VALUE` settings.
    pub sets: Vec<String>,
}

impl Mechanism {
    /// Parse `LABEL=KEY=VALUE,KEY=VALUE` (or `LABEL` alone, no settings).
    pub fn parse(s: &str) -> anyhow::Result<Mechanism> {
        let (label, rest) = s.split_once('=').unwrap_or((s, ""));
        if label.is_empty() {
            anyhow::bail!("--mechanism {s}: expected LABEL or LABEL=KEY=VALUE[,KEY=VALUE...]");
        }
        let sets: Vec<String> = rest
            .split(',')
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect();
        for kv in &sets {
            if !kv.contains('=') {
                anyhow::bail!("--mechanism {s}: `{kv}` is not KEY=VALUE");
            }
        }
        Ok(Mechanism {
            label: label.to_string(),
            sets,
        })
    }

    /// The default mechanisms: none, CAPS with PAS, the BA L1.
    pub fn defaults() -> Vec<Mechanism> {
        ["base", "CAPS=prefetcher=caps,sched=pas", "BA=l1=ba"]
            .iter()
            .map(|s| Mechanism::parse(s).expect("valid default"))
            .collect()
    }
}

/// One run of the comparison.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Preset name.
    pub preset: String,
    /// Kernel file (a `.toml` or a `kernel-N.traceg`).
    pub kernel: PathBuf,
    /// Index into the mechanisms.
    pub mechanism: usize,
    /// The run's metrics, or why it could not run.
    pub result: Result<Metrics, String>,
}

/// The kernel files of `paths`: `.toml` and `.traceg` files as given, a
/// trace folder as the kernels its `kernelslist.g` lists, another folder
/// as its `.toml` files.
pub fn expand_kernels(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            if p.join("kernelslist.g").exists() {
                out.extend(harness::trace::read_kernelslist(p)?);
            } else {
                out.extend(crate::run::kernel_files(p)?);
            }
        } else if p.exists() {
            out.push(p.clone());
        } else {
            anyhow::bail!("{}: no such kernel file or folder", p.display());
        }
    }
    Ok(out)
}

/// Run every kernel × preset × mechanism on `jobs` threads (`sets` apply
/// to every run). A progress bar shows on a terminal.
pub fn compare(
    presets: &[String],
    kernels: &[PathBuf],
    mechanisms: &[Mechanism],
    sets: &[String],
    jobs: usize,
) -> Vec<Cell> {
    let mut todo = Vec::new();
    for p in presets {
        for k in kernels {
            for m in 0..mechanisms.len() {
                todo.push((p.clone(), k.clone(), m));
            }
        }
    }
    let bar = ProgressBar::new(todo.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed} ({eta} left) {msg}")
            .expect("valid template"),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Metrics, String>>>> = Mutex::new(vec![None; todo.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(todo.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((preset, kernel, m)) = todo.get(i) else {
                    break;
                };
                let r = run_one(preset, kernel, &mechanisms[*m], sets);
                results.lock().expect("no panic holds the lock")[i] = Some(r);
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().expect("no panic holds the lock");
    todo.into_iter()
        .zip(results)
        .map(|((preset, kernel, mechanism), r)| Cell {
            preset,
            kernel,
            mechanism,
            result: r.expect("every run done"),
        })
        .collect()
}

fn run_one(
    preset: &str,
    kernel: &Path,
    mech: &Mechanism,
    sets: &[String],
) -> Result<Metrics, String> {
    let mut args = RunArgs::new(kernel);
    args.quiet = true;
    args.preset = preset.to_string();
    args.set = sets.to_vec();
    args.set.extend(mech.sets.iter().cloned());
    // The table names the kernel, the preset and the mechanism.
    let (cfg, k) = prepare(&args).map_err(|e| format!("{e:#}"))?;
    run_prepared(&args, &cfg, &k).map_err(|e| format!("{e:#}"))
}

/// The comparison as Markdown: per preset a table with a row per kernel;
/// per mechanism cycles (and the speedup over the first mechanism), L1
/// and L2 miss rates; for a prefetcher its accuracy and coverage (CAPS
/// §VI-C). Runs that could not be made are listed under the table with
/// their reason.
pub fn table(cells: &[Cell], mechanisms: &[Mechanism]) -> String {
    let mut presets: Vec<&str> = Vec::new();
    for c in cells {
        if !presets.contains(&c.preset.as_str()) {
            presets.push(&c.preset);
        }
    }
    let mut s = String::new();
    for p in presets {
        s += &format!("### {p}\n\n| kernel |");
        for m in mechanisms {
            s += &format!(" {} cycles | L1 / L2 miss |", m.label);
            if is_prefetcher(m) {
                s += &format!(" {} acc / cov |", m.label);
            }
        }
        s += "\n|---|";
        for m in mechanisms {
            s += "---:|---:|";
            if is_prefetcher(m) {
                s += "---:|";
            }
        }
        s.push('\n');
        let mut kernels: Vec<&Path> = Vec::new();
        for c in cells.iter().filter(|c| c.preset == p) {
            if !kernels.contains(&c.kernel.as_path()) {
                kernels.push(&c.kernel);
            }
        }
        let n_kernels = kernels.len();
        // (mechanism, reason) -> the kernels it refused.
        let mut refused: Vec<(String, String, Vec<String>)> = Vec::new();
        for k in kernels {
            let row: Vec<&Cell> = cells
                .iter()
                .filter(|c| c.preset == p && c.kernel == k)
                .collect();
            let name = row
                .iter()
                .find_map(|c| c.result.as_ref().ok().map(|m| m.run.kernel.clone()))
                .unwrap_or_else(|| k.display().to_string());
            s += &format!("| {name} |");
            let base = row
                .iter()
                .find(|c| c.mechanism == 0)
                .and_then(|c| c.result.as_ref().ok());
            for (i, m) in mechanisms.iter().enumerate() {
                let cell = row.iter().find(|c| c.mechanism == i);
                match cell.map(|c| &c.result) {
                    Some(Ok(x)) => {
                        let speed = match base {
                            Some(b) if i > 0 => {
                                format!(" ({:.2}x)", b.cycles as f64 / x.cycles.max(1) as f64)
                            }
                            _ => String::new(),
                        };
                        s += &format!(
                            " {}{speed} | {:.1} / {:.1} % |",
                            x.cycles,
                            100.0 * x.l1.miss_rate,
                            100.0 * x.memory.l2_miss_rate
                        );
                        if is_prefetcher(m) {
                            match &x.prefetch {
                                Some(pf) => {
                                    s += &format!(
                                        " {:.0} / {:.0} % |",
                                        100.0 * pf.accuracy,
                                        100.0 * pf.caps_coverage
                                    )
                                }
                                None => s += " - |",
                            }
                        }
                    }
                    Some(Err(e)) => {
                        s += " refused | - |";
                        if is_prefetcher(m) {
                            s += " - |";
                        }
                        let reason = e.replace('\n', " ");
                        match refused
                            .iter_mut()
                            .find(|(l, r, _)| *l == m.label && *r == reason)
                        {
                            Some((_, _, ks)) => ks.push(name.clone()),
                            None => refused.push((m.label.clone(), reason, vec![name.clone()])),
                        }
                    }
                    None => s += " | |",
                }
            }
            s.push('\n');
        }
        if !refused.is_empty() {
            s += "\nNot run:\n";
            for (label, reason, ks) in refused {
                let which = if ks.len() > 1 && ks.len() == n_kernels {
                    format!("every kernel ({})", ks.len())
                } else {
                    ks.join(", ")
                };
                s += &format!("- {label} on {which}: {reason}\n");
            }
        }
        s.push('\n');
    }
    s
}

fn is_prefetcher(m: &Mechanism) -> bool {
    m.sets.iter().any(|x| x.starts_with("prefetcher="))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mechanisms_parse_with_their_settings() {
        let m = Mechanism::parse("CAPS=prefetcher=caps,sched=pas").unwrap();
        assert_eq!(m.label, "CAPS");
        assert_eq!(m.sets, ["prefetcher=caps", "sched=pas"]);
        assert_eq!(Mechanism::parse("base").unwrap().sets.len(), 0);
        assert!(Mechanism::parse("X=prefetcher").is_err());
        assert!(Mechanism::parse("=a=b").is_err());
        assert_eq!(Mechanism::defaults().len(), 3);
    }
}
