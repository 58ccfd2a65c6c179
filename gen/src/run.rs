//! `warpgen run`: one kernel file on the golden SM harness, with the units'
//! golden models plugged in; a metrics table on stdout and, with `--json`,
//! the metrics as JSON. The harness benchmark is
//! [`crate::bench_harness`], the all-kernels comparison
//! [`crate::kernel_compare`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Context};
use harness::{Harness, Kernel, MachineConfig, Metrics};

use crate::commands::choose_backend;
use crate::origin::{config_error, run_error};
use crate::reuse::profile::write_profile;
pub use crate::run_args::{unit_parser, BackendArg, DecoupledArg, RunArgs, SchedArg, SmsArg};
use crate::unit_table::unit;

/// The machine configuration and kernel of a `run` (the first kernel of a
/// trace folder).
pub fn prepare(args: &RunArgs) -> anyhow::Result<(MachineConfig, Kernel)> {
    let (cfg, mut ks) = prepare_all(args)?;
    Ok((cfg, ks.remove(0)))
}

/// The machine configuration and every kernel of a `run`.
pub fn prepare_all(args: &RunArgs) -> anyhow::Result<(MachineConfig, Vec<Kernel>)> {
    if args.vcd.is_some() && args.cosim.is_none() {
        bail!("--vcd FILE writes the waveform of a lock-step run: add --cosim UNIT");
    }
    let mut cfg = MachineConfig::preset(&args.preset)
        .ok_or_else(|| anyhow!("unknown preset `{}`", args.preset))?;
    cfg.set("prefetcher", &args.prefetcher)?;
    cfg.set("expander", if args.dac { "dac" } else { &args.expander })?;
    if let Some(l1) = &args.l1 {
        cfg.set("l1", l1)?;
    }
    if let Some(d) = args.decoupled {
        cfg.set(
            "decoupled",
            match d {
                DecoupledArg::Auto => "auto",
                DecoupledArg::On => "on",
                DecoupledArg::Off => "off",
            },
        )?;
    }
    if let Some(s) = args.sched {
        cfg.set(
            "sched",
            match s {
                SchedArg::Lrr => "lrr",
                SchedArg::Gto => "gto",
                SchedArg::TwoLevel => "two-level",
                SchedArg::Pas => "pas",
            },
        )?;
    }
    if let Some(seed) = args.seed {
        cfg.seed = seed;
    }
    if let Some(s) = args.sms {
        cfg.set(
            "sms",
            match s {
                SmsArg::One => "one",
                SmsArg::All => "all",
            },
        )?;
    }
    if let Some(n) = args.cosim_sm {
        cfg.set("cosim_sm", &n.to_string())?;
    }
    if let Some(u) = &args.cosim {
        cfg.enable_unit(unit(u)?.name())?;
    }
    let mut params = Vec::new();
    for kv in &args.set {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow!("--set {kv}: expected KEY=VALUE"))?;
        if let Some(p) = k.strip_prefix("param.") {
            let x: i64 = parse_i64(v).ok_or_else(|| anyhow!("--set {kv}: not an integer"))?;
            params.push((p.to_string(), x));
        } else {
            cfg.set(k, v).map_err(|e| anyhow!("--set {kv}: {e}"))?;
        }
    }
    cfg.validate().map_err(|e| config_error(args, e))?;
    let kernels = load_kernels(&args.kernel, &params, cfg.seed, cfg.l1_line)?;
    // Every kernel of a trace list is checked against the machine before
    // any runs: a bad one loses no other's results.
    for k in &kernels {
        k.check_trace(&cfg)?;
    }
    Ok((cfg, kernels))
}

/// A kernel file, a `.traceg` trace, or a trace folder (`kernelslist.g`).
pub fn load_kernels(
    path: &Path,
    params: &[(String, i64)],
    seed: u64,
    line_bytes: u32,
) -> anyhow::Result<Vec<Kernel>> {
    use harness::trace::{read_kernel_trace, read_kernelslist};
    let trace = |p: &Path| -> anyhow::Result<Kernel> {
        if !params.is_empty() {
            bail!("--set param.NAME does not apply to a trace");
        }
        let k = Kernel::from_trace(&read_kernel_trace(p)?, line_bytes);
        warn_once(k.trace_warnings());
        Ok(k)
    };
    if path.is_dir() {
        let list = read_kernelslist(path)?;
        if list.is_empty() {
            bail!("{}: kernelslist.g lists no kernel", path.display());
        }
        list.iter().map(|p| trace(p)).collect()
    } else if path.extension().is_some_and(|e| e == "traceg") {
        Ok(vec![trace(path)?])
    } else {
        Ok(vec![Kernel::from_file(path, params, seed)?])
    }
}

/// Prints each of `warnings` (a trace's: unknown opcodes, unreadable
/// registers) as `warning: ...` on standard error, once per process: a
/// trace that `compare`, `sweep` or `reproduce` loads once per run warns
/// once. Neither standard output nor the exit status changes; a failing
/// standard error is ignored.
pub fn warn_once(warnings: &[String]) {
    use std::collections::HashSet;
    use std::io::Write;
    use std::sync::Mutex;
    static SHOWN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    if warnings.is_empty() {
        return;
    }
    let mut shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner());
    let shown = shown.get_or_insert_with(HashSet::new);
    let mut err = std::io::stderr().lock();
    for w in warnings {
        if shown.insert(w.clone()) {
            let _ = writeln!(err, "warning: {w}");
        }
    }
}

fn parse_i64(s: &str) -> Option<i64> {
    let s = s.trim().replace('_', "");
    if let Some(h) = s.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// Run a prepared kernel with the options of `args`: the lock-step checker
/// of `--cosim`, the recorders of `--record`, progress on a terminal.
pub fn run_prepared(
    args: &RunArgs,
    cfg: &MachineConfig,
    kernel: &Kernel,
) -> anyhow::Result<Metrics> {
    let throttled;
    let (cfg, kernel) = if args.catt {
        let (c, k, _) = crate::catt::apply(cfg, kernel)?;
        throttled = (c, k);
        (&throttled.0, &throttled.1)
    } else {
        (cfg, kernel)
    };
    let mut h = Harness::new(kernel, cfg);
    // The waveform and the stimulus records are written into a private
    // temporary folder and delivered through the checked writer once the
    // run has succeeded: a failing run leaves no partial file and truncates
    // no earlier one, and a FIFO, symlink or device is written through
    // (a FIFO with no reader is an error, not a wait).
    let scratch = tempfile::tempdir()?;
    let mut deliveries: Vec<(PathBuf, PathBuf, &str)> = Vec::new();
    if let Some(name) = &args.cosim {
        let u = unit(name)?;
        let backend = choose_backend(args.backend.map(Into::into))?;
        let vcd = args.vcd.as_ref().map(|dest| {
            let private = scratch.path().join("lockstep.vcd");
            deliveries.push((private.clone(), dest.clone(), "--vcd"));
            private
        });
        h = h.probe(u.name(), u.harness_checker(backend, cfg, kernel, vcd)?);
    }
    for (i, (unit, path)) in args.records()?.into_iter().enumerate() {
        crate::output::check_output(&path, "--record")?;
        let private = scratch.path().join(format!("record-{i}.jsonl"));
        h = h.record(unit, &private);
        deliveries.push((private, path, "--record"));
    }
    // A progress bar on a terminal (indicatif draws nothing otherwise),
    // shown once a run takes longer than half a second.
    let show = !args.quiet && std::io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::hidden();
    if show {
        let start = Instant::now();
        let b = bar.clone();
        let style = indicatif::ProgressStyle::with_template(
            "{prefix}: {bar:30} {pos}/{len} CTAs, cycle {msg} ({elapsed})",
        )
        .expect("a valid template");
        b.set_style(style);
        b.set_prefix(kernel.name.clone());
        h = h.progress(1 << 16, move |p| {
            if b.is_hidden() && start.elapsed().as_millis() >= 500 {
                b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            b.set_length(p.ctas);
            b.set_position(p.ctas_done);
            b.set_message(p.cycle.to_string());
        });
    }
    let r = h.run();
    bar.finish_and_clear();
    // The waveform is delivered whatever the outcome (it shows a lock-step
    // difference); the records only after a run that succeeded.
    let mut shown = Vec::new();
    for (private, dest, what) in &deliveries {
        if (*what == "--vcd" || r.is_ok()) && private.is_file() {
            if *what == "--vcd" {
                crate::output::deliver_waveform(private, dest, what)?;
            } else {
                crate::output::OutputFile::prepare(dest, what)?.write_from_file(private)?;
            }
            shown.push((private.display().to_string(), dest.display().to_string()));
        }
    }
    r.map_err(|e| {
        // The report names the file the user asked for, not the private one.
        let mut text = format!("{:#}", run_error(args, e));
        for (private, dest) in &shown {
            text = text.replace(private.as_str(), dest);
        }
        anyhow!(text)
    })
}

/// `warpgen run`.
pub fn run_command(args: &RunArgs) -> anyhow::Result<()> {
    let (cfg, kernels) = prepare_all(args)?;
    // The output files are checked before the runs, not after.
    let reuse_svg = match &args.reuse_distance {
        Some(_) if !cfg.reuse_analysis => {
            bail!("--reuse-distance needs the profile: drop --set reuse_analysis=false")
        }
        Some(p) => Some(crate::output::OutputFile::prepare(p, "--reuse-distance")?),
        None => None,
    };
    let json = args
        .json
        .as_deref()
        .map(|p| crate::output::OutputFile::prepare(p, "--json"))
        .transpose()?;
    if let Some(v) = &args.vcd {
        crate::output::OutputFile::prepare(v, "--vcd")?;
    }
    let mut all = Vec::new();
    for kernel in &kernels {
        let m = run_prepared(args, &cfg, kernel)?;
        if !args.quiet {
            if kernels.len() > 1 {
                outln!();
            }
            if args.catt {
                let (_, _, r) = crate::catt::apply(&cfg, kernel)?;
                let loops: Vec<String> = r
                    .loops
                    .iter()
                    .map(|l| format!("loop at line {}: ({}, {})", l.line, l.warps, l.ctas))
                    .collect();
                outln!(
                    "CATT throttling (L1 {} KB): {}; {} CTAs per SM",
                    r.l1_bytes / 1024,
                    if loops.is_empty() {
                        "no loops".to_string()
                    } else {
                        loops.join(", ")
                    },
                    r.kernel_ctas
                );
            }
            out!("{}", m.table());
            if let Some(unit) = &args.cosim {
                // All-SM runs: the checked SM's own cycles.
                let (cycles, on) = match m.per_sm.get(cfg.cosim_sm as usize) {
                    Some(s) if m.run.all_sms => (s.cycles, format!(" of SM {}", cfg.cosim_sm)),
                    _ => (m.cycles, String::new()),
                };
                outln!(
                    "lock-step: the {unit} RTL equalled its golden model at every port on all \
                     {cycles} cycles{on}"
                );
            }
        }
        all.push(m);
    }
    // One shape for one kernel and for a trace folder's several: an array
    // of metrics, one per kernel in the order run.
    if let Some(out) = json {
        out.write_json(&all)?;
    }
    // The kernels' profiles summed, as the BA thesis does.
    if let Some(out) = reuse_svg {
        write_profile(out, &all)?;
    }
    Ok(())
}

/// Write `value` as pretty JSON to `path`: a regular file through a
/// temporary file in the same folder, renamed into place (permissions
/// `0666 & !umask`, or the replaced file's); a device, FIFO or symlink
/// written through, never replaced ([`crate::output`]).
pub fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    crate::output::write_json(path, value)
}

/// The bundled kernel files of a folder (`*.toml`, sorted).
pub fn kernel_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    Ok(v)
}
