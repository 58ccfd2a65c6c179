//! `warpgen run`: one kernel file on the golden SM harness, with the units'
//! golden models plugged in; a metrics table on stdout and, with `--json`,
//! the metrics as JSON. Also the harness benchmark ([`bench_harness`]) and
//! the all-kernels comparison ([`compare_kernels`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Context};
use clap::builder::{PossibleValue, PossibleValuesParser};
use cosim::BackendKind;
use harness::{role_choices, Harness, Kernel, MachineConfig, Metrics, Role};

/// The choices of a harness role (`--prefetcher`, `--l1`), from the unit
/// table, each with its help line.
fn role_parser(role: Role) -> PossibleValuesParser {
    PossibleValuesParser::new(
        role_choices(role)
            .into_iter()
            .map(|(name, help)| PossibleValue::new(name).help(help)),
    )
}

/// `--unit`, `--cosim`, `--record`: every unit's name.
pub fn unit_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::units::UNITS
            .iter()
            .map(|u| PossibleValue::new(u.name()).help(u.summary())),
    )
}

/// `--sched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchedArg {
    /// Loose round robin.
    Lrr,
    /// Greedy then oldest.
    Gto,
    /// Two-level (ready queue of 8).
    TwoLevel,
    /// Prefetch-aware scheduler (CAPS): two-level, leading warps first.
    Pas,
}

/// `warpgen presets [NAME]`: the list, or one paper preset's table.
pub fn presets_text(name: Option<&str>) -> anyhow::Result<String> {
    use harness::presets;
    let mut s = String::new();
    match name {
        None => {
            s += "fermi        the first harness's Fermi-like machine (one SM, flat memory)\n";
            s += "volta        the first harness's Volta-like machine (one SM, flat memory)\n";
            for n in presets::names().into_iter().skip(2) {
                let f = presets::file(n).expect("listed").map_err(|e| anyhow!(e))?;
                s += &format!("{n:<12} {}, {}\n", f.paper, f.table);
            }
        }
        Some(n) => match presets::file(n) {
            None => s += &format!("{n}: the first harness's preset (no paper table)\n"),
            Some(f) => {
                let f = f.map_err(|e| anyhow!(e))?;
                s += &format!("{}: {}\n{}\n\n", f.name, f.paper, f.table);
                let w = f.quote.iter().map(|q| q.field.len()).max().unwrap_or(0);
                for q in &f.quote {
                    s += &format!(
                        "{:<w$}  {}\n{:<w$}    -> {}\n",
                        q.field, q.paper, "", q.sets
                    );
                }
                s += &format!("\n{}\n", f.note);
            }
        },
    }
    Ok(s)
}

/// `--backend`: the RTL simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// Verilator on the emitted Verilog (the reference).
    Verilator,
    /// The rust-hdl block driven directly (no tool needed).
    Rusthdl,
}

impl From<BackendArg> for BackendKind {
    fn from(b: BackendArg) -> Self {
        match b {
            BackendArg::Verilator => BackendKind::Verilator,
            BackendArg::Rusthdl => BackendKind::RustHdl,
        }
    }
}

/// `--decoupled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DecoupledArg {
    /// On for a prefetcher that asks for it (snake), else off.
    Auto,
    /// Always on: prefetched lines flagged, the L1 side capped until the
    /// prefetcher trains, a quarter freed when full.
    On,
    /// Always off: prefetches are allocated as load misses.
    Off,
}

/// `--sms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SmsArg {
    /// SM `sm_id` alone, with the CTAs it gets when the grid is dealt in
    /// turn (the first harness).
    One,
    /// Every SM of `n_sm`, sharing the memory below the L1s.
    All,
}

/// Arguments of `warpgen run`.
#[derive(Clone, Debug, clap::Args)]
pub struct RunArgs {
    /// Kernel file (TOML; format in kernels/README.md), or an Accel-Sim
    /// trace: a `kernel-N.traceg` file or a folder with `kernelslist.g`
    /// (every kernel listed is run in turn).
    #[arg(long)]
    pub kernel: PathBuf,
    /// Prefetcher.
    #[arg(long, default_value = "none", value_parser = role_parser(Role::Prefetcher))]
    pub prefetcher: String,
    /// L1 tag array (default: the preset's, lru).
    #[arg(long, value_parser = role_parser(Role::L1))]
    pub l1: Option<String>,
    /// The L1's decoupled prefetch storage (Snake's): `auto` turns it on
    /// for a prefetcher that asks for it (snake); needs the lru L1.
    #[arg(long, value_enum)]
    pub decoupled: Option<DecoupledArg>,
    /// Expansion unit beside the warp scheduler (`dac`: DAC's affine warp
    /// and dac_expander).
    #[arg(long, default_value = "none", value_parser = role_parser(Role::Expander))]
    pub expander: String,
    /// DAC: the same as `--expander dac`.
    #[arg(long, conflicts_with = "expander")]
    pub dac: bool,
    /// Warp scheduler (default: the preset's; fermi: two-level, volta: gto).
    #[arg(long, value_enum)]
    pub sched: Option<SchedArg>,
    /// Machine preset: `fermi`, `volta`, or a paper's (`warpgen presets`).
    #[arg(long, default_value = "fermi",
          value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
    pub preset: String,
    /// Model SM `sm_id` alone (default) or every SM of `n_sm`.
    #[arg(long, value_enum)]
    pub sms: Option<SmsArg>,
    /// With `--sms all`: the SM whose units `--cosim` and `--record`
    /// attach to (default 0).
    #[arg(long, value_name = "N")]
    pub cosim_sm: Option<u32>,
    /// Override a machine value (`l1_ways=8`, `mem_latency=300`,
    /// `caps.MISPRED_THRESHOLD=64`, `ba.REUSE_THRESHOLD=2`) or a kernel
    /// parameter (`param.N=4096`). Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Seed of the synthetic array contents (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the metrics as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Co-simulate a unit's RTL in lock-step beside its golden model on the
    /// harness's own stimulus (enables the unit in its role if needed); the
    /// first difference stops the run with a report.
    #[arg(long, value_name = "UNIT", value_parser = unit_parser())]
    pub cosim: Option<String>,
    /// With `--cosim`: write the run's waveform here if the RTL and the
    /// golden model differ (RTL signals and a `golden` scope).
    #[arg(long, value_name = "FILE", requires = "cosim")]
    pub vcd: Option<PathBuf>,
    /// With `--cosim`: RTL simulator (default: verilator if installed).
    #[arg(long, value_enum, requires = "cosim")]
    pub backend: Option<BackendArg>,
    /// Record a unit's inputs and golden outputs of every cycle to FILE
    /// (JSON lines, replayable alone; format in the harness's `stimulus`
    /// module). The unit must be part of the run. Repeatable.
    #[arg(long, num_args = 2, value_names = ["UNIT", "FILE"], action = clap::ArgAction::Append)]
    pub record: Vec<String>,
    /// Do not print the table (only errors and the JSON file).
    #[arg(long)]
    pub quiet: bool,
    /// Apply CATT's thread throttling (`warpgen catt`): each loop's
    /// warp-level factor, the kernel's CTA-level limit, fitted to this
    /// run's L1 (`--set l1_bytes=...`).
    #[arg(long)]
    pub catt: bool,
    /// Write the reuse-distance profile (the BA thesis's: histogram of
    /// the seven intervals per set and fully associative with rd0 / rd1 /
    /// rd2, over time, per load) as one SVG of stacked panels.
    #[arg(long, value_name = "FILE.svg")]
    pub reuse_distance: Option<PathBuf>,
}

impl RunArgs {
    /// Arguments for `kernel` with every option at its default.
    pub fn new(kernel: impl Into<PathBuf>) -> Self {
        RunArgs {
            kernel: kernel.into(),
            prefetcher: "none".into(),
            l1: None,
            decoupled: None,
            expander: "none".into(),
            dac: false,
            sched: None,
            preset: "fermi".into(),
            sms: None,
            cosim_sm: None,
            set: Vec::new(),
            seed: None,
            json: None,
            cosim: None,
            vcd: None,
            backend: None,
            record: Vec::new(),
            quiet: false,
            catt: false,
            reuse_distance: None,
        }
    }

    /// `--record` as (unit, file) pairs, each unit checked.
    pub fn records(&self) -> anyhow::Result<Vec<(&'static str, PathBuf)>> {
        self.record
            .chunks(2)
            .map(|c| match c {
                [u, f] => Ok((crate::units::unit(u)?.name(), PathBuf::from(f))),
                _ => bail!("--record takes a unit and a file"),
            })
            .collect()
    }
}

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
        cfg.enable_unit(crate::units::unit(u)?.name())?;
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
    cfg.validate()
        .map_err(|e| crate::origin::config_error(args, e))?;
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
        Ok(Kernel::from_trace(&read_kernel_trace(p)?, line_bytes))
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
    if let Some(unit) = &args.cosim {
        let u = crate::units::unit(unit)?;
        let backend = crate::commands::choose_backend(args.backend.map(Into::into))?;
        h = h.probe(
            u.name(),
            u.harness_checker(backend, cfg, kernel, args.vcd.clone())?,
        );
    }
    for (unit, path) in args.records()? {
        h = h.record(unit, path);
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
    r.map_err(|e| crate::origin::run_error(args, e))
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
                println!();
            }
            if args.catt {
                let (_, _, r) = crate::catt::apply(&cfg, kernel)?;
                let loops: Vec<String> = r
                    .loops
                    .iter()
                    .map(|l| format!("loop at line {}: ({}, {})", l.line, l.warps, l.ctas))
                    .collect();
                println!(
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
            print!("{}", m.table());
            if let Some(unit) = &args.cosim {
                // All-SM runs: the checked SM's own cycles.
                let (cycles, on) = match m.per_sm.get(cfg.cosim_sm as usize) {
                    Some(s) if m.run.all_sms => (s.cycles, format!(" of SM {}", cfg.cosim_sm)),
                    _ => (m.cycles, String::new()),
                };
                println!(
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
        crate::reuse::write_profile(out, &all)?;
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

/// One line of the harness benchmark.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchRow {
    /// Kernel name.
    pub kernel: String,
    /// Configuration (`baseline`, `no-skip`, `caps`, `snake`, `ba`,
    /// `caps+ba`, ...).
    pub variant: String,
    /// The `--set` overrides of the variant.
    pub sets: Vec<String>,
    /// Simulated SM cycles (in an all-SM run, summed over the SMs).
    pub cycles: u64,
    /// Wall-clock seconds (best of the repetitions).
    pub seconds: f64,
    /// Simulated SM cycles per second.
    pub cycles_per_second: f64,
}

/// Benchmark of the harness: simulated SM cycles per second for each
/// kernel file under each variant: `baseline` (no unit, idle cycles
/// skipped), `no-skip` (no unit, every cycle simulated), `caps` (CAPS
/// golden model + PAS), `snake` (Snake golden model, decoupled L1), `ba`
/// (BA golden model), `caps+ba`, `dac` (DAC's affine warp and its golden
/// model), `all-sms` (every SM of 15 with the memory hierarchy; its
/// cycles are every SM's, so the rate is SM-cycles per second),
/// `all-sms+caps`, and, with
/// `cosim`, `cosim-UNIT` for every unit of the table (its RTL in lock-step
/// beside its golden model, the unit enabled in its role). Each
/// measurement is the best of `repeat` runs.
pub fn bench_harness(
    kernels: &[PathBuf],
    repeat: u32,
    cosim: bool,
) -> anyhow::Result<Vec<BenchRow>> {
    let mut variants: Vec<(String, Vec<&str>, Option<&str>)> = vec![
        ("baseline".into(), vec![], None),
        ("no-skip".into(), vec!["fast_forward=false"], None),
        ("caps".into(), vec!["prefetcher=caps", "sched=pas"], None),
        ("snake".into(), vec!["prefetcher=snake"], None),
        ("ba".into(), vec!["l1=ba"], None),
        ("dac".into(), vec!["expander=dac"], None),
        (
            "caps+ba".into(),
            vec!["prefetcher=caps", "sched=pas", "l1=ba"],
            None,
        ),
        ("all-sms".into(), vec!["sms=all", "mem_model=hier"], None),
        (
            "all-sms+caps".into(),
            vec!["sms=all", "mem_model=hier", "prefetcher=caps", "sched=pas"],
            None,
        ),
    ];
    if cosim {
        // Each lock-step run repeats the first golden-only variant that
        // runs the unit's golden model (CAPS: `caps`, with PAS; BA: `ba`),
        // so the two columns time the same simulation.
        for u in crate::units::UNITS {
            // A unit whose harness role is not modelled yet is left out,
            // with the reason.
            let mut cfg = MachineConfig::default();
            let runnable = cfg.enable_unit(u.name()).and_then(|_| cfg.validate());
            if let Err(e) = runnable {
                eprintln!("bench-harness: no lock-step run for {}: {e}", u.name());
                continue;
            }
            let sets = variants
                .iter()
                .find(|(_, sets, _)| runs_unit(sets, u.name()))
                .map(|(_, sets, _)| sets.clone())
                .unwrap_or_default();
            variants.push((format!("cosim-{}", u.name()), sets, Some(u.name())));
        }
    }
    let mut rows = Vec::new();
    for path in kernels {
        for (name, sets, unit) in &variants {
            let mut args = RunArgs::new(path);
            args.set = sets.iter().map(|s| s.to_string()).collect();
            args.quiet = true;
            args.cosim = unit.map(|u| u.to_string());
            let (cfg, kernel) = prepare(&args)?;
            let mut best = f64::INFINITY;
            let mut cycles = 0;
            for _ in 0..repeat.max(1) {
                let t = Instant::now();
                let m = run_prepared(&args, &cfg, &kernel)?;
                best = best.min(t.elapsed().as_secs_f64());
                // All-SM runs: the SM-cycles simulated, every SM's.
                cycles = if m.per_sm.is_empty() {
                    m.cycles
                } else {
                    m.per_sm.iter().map(|s| s.cycles).sum()
                };
            }
            rows.push(BenchRow {
                kernel: kernel.name.clone(),
                variant: name.clone(),
                sets: args.set.clone(),
                cycles,
                seconds: best,
                cycles_per_second: cycles as f64 / best.max(1e-9),
            });
        }
    }
    Ok(rows)
}

/// Whether a run with `sets` runs `unit`'s golden model (its role holds
/// one of its choices).
fn runs_unit(sets: &[&str], unit: &str) -> bool {
    let Some(u) = harness::registry::unit(unit) else {
        return false;
    };
    let mut cfg = MachineConfig::default();
    for kv in sets {
        if let Some((k, v)) = kv.split_once('=') {
            if cfg.set(k, v).is_err() {
                return false;
            }
        }
    }
    let choice = cfg.choice(u.role());
    u.choices().iter().any(|c| c.name == choice)
}

/// The lock-step columns as ratios to the golden-only run they repeat:
/// one line per kernel and unit.
pub fn bench_ratios(rows: &[BenchRow]) -> String {
    let mut s = String::new();
    for r in rows.iter().filter(|r| r.variant.starts_with("cosim-")) {
        let unit = &r.variant["cosim-".len()..];
        let golden = rows
            .iter()
            .find(|g| g.kernel == r.kernel && !g.variant.starts_with("cosim-") && g.sets == r.sets);
        if let Some(g) = golden {
            s += &format!(
                "{:<20} {unit:<18} lock-step {:>6.2} / {:<8} {:>6.2} Mcycles/s = {:.3}x\n",
                r.kernel,
                r.cycles_per_second / 1e6,
                g.variant,
                g.cycles_per_second / 1e6,
                r.cycles_per_second / g.cycles_per_second.max(1e-9)
            );
        }
    }
    s
}

/// The benchmark as a table: one row per kernel, one column per variant
/// (millions of simulated cycles per second), plus the cycles.
pub fn bench_table(rows: &[BenchRow]) -> String {
    let mut variants: Vec<&str> = Vec::new();
    let mut kernels: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
        if !kernels.contains(&r.kernel.as_str()) {
            kernels.push(&r.kernel);
        }
    }
    let mut s = format!("{:<20} {:>10}", "kernel (Mcycles/s)", "cycles");
    for v in &variants {
        s += &format!(" {v:>11}");
    }
    s.push('\n');
    for k in kernels {
        let cyc = rows
            .iter()
            .find(|r| r.kernel == k)
            .map(|r| r.cycles)
            .unwrap_or(0);
        s += &format!("{k:<20} {cyc:>10}");
        for v in &variants {
            match rows.iter().find(|r| r.kernel == k && r.variant == *v) {
                Some(r) => s += &format!(" {:>11.2}", r.cycles_per_second / 1e6),
                None => s += &format!(" {:>11}", "-"),
            }
        }
        s.push('\n');
    }
    s
}

/// The combinations `warpgen all` runs every kernel under: a label and
/// the machine settings.
pub const COMPARE_COMBOS: [(&str, &[&str]); 6] = [
    ("base", &[]),
    ("CAPS", &["prefetcher=caps", "sched=pas"]),
    ("Snake", &["prefetcher=snake"]),
    ("BA", &["l1=ba"]),
    ("CAPS+BA", &["prefetcher=caps", "sched=pas", "l1=ba"]),
    ("DAC", &["expander=dac"]),
];

/// One kernel under every combination of [`COMPARE_COMBOS`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct CompareRow {
    /// Kernel name.
    pub kernel: String,
    /// One cell per combination, in [`COMPARE_COMBOS`] order.
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
            let _ = crate::units::write_atomic(f, &serde_json::to_string(&cell)?);
        }
    }
    Ok((kernel.name, cell))
}

/// Run every kernel file under every combination of [`COMPARE_COMBOS`]
/// (`warpgen all`'s comparison); `sets` apply to every run. The runs go
/// in parallel, one per core, and each result is cached (see
/// [`compare_cache_dir`]): a second `warpgen all` with the same binary
/// and kernels reads them back.
pub fn compare_kernels(kernels: &[PathBuf], sets: &[String]) -> anyhow::Result<Vec<CompareRow>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let tasks: Vec<(usize, usize)> = (0..kernels.len())
        .flat_map(|k| (0..COMPARE_COMBOS.len()).map(move |c| (k, c)))
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
                set.extend(COMPARE_COMBOS[c].1.iter().map(|s| s.to_string()));
                let r = compare_cell(&kernels[k], &set)
                    .with_context(|| format!("{} ({})", kernels[k].display(), COMPARE_COMBOS[c].0));
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
        for _ in COMPARE_COMBOS {
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
    let mut s = format!("{:<20}", "kernel");
    for (label, sets) in COMPARE_COMBOS {
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
        for (m, (_, sets)) in r.runs.iter().zip(COMPARE_COMBOS) {
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

#[cfg(test)]
mod bench_tests {
    use super::*;

    #[test]
    fn a_lock_step_run_repeats_the_golden_variant_of_its_unit() {
        assert!(runs_unit(
            &["prefetcher=caps", "sched=pas"],
            "caps_prefetcher"
        ));
        assert!(runs_unit(&["l1=ba"], "ba_tag_array"));
        assert!(!runs_unit(&[], "caps_prefetcher"));
        assert!(!runs_unit(&["prefetcher=caps"], "ba_tag_array"));
        assert!(!runs_unit(&["prefetcher=nosuch"], "caps_prefetcher"));
        assert!(!runs_unit(&[], "no_such_unit"));
    }

    #[test]
    fn ratios_pair_each_lock_step_run_with_its_golden_run() {
        let row = |kernel: &str, variant: &str, sets: &[&str], cps: f64| BenchRow {
            kernel: kernel.into(),
            variant: variant.into(),
            sets: sets.iter().map(|s| s.to_string()).collect(),
            cycles: 1000,
            seconds: 1000.0 / cps,
            cycles_per_second: cps,
        };
        let caps = ["prefetcher=caps", "sched=pas"];
        let rows = vec![
            row("K", "baseline", &[], 20e6),
            row("K", "caps", &caps, 10e6),
            row("K", "cosim-caps_prefetcher", &caps, 2.5e6),
        ];
        let text = bench_ratios(&rows);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("caps_prefetcher"), "{text}");
        assert!(
            text.contains("2.50 / caps") && text.contains("= 0.250x"),
            "{text}"
        );
    }
}
