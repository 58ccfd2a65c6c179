//! `warpgen`: emit Verilog of GPU memory-side units, co-simulate it against
//! golden models, and report storage, cells and area.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use cosim::BackendKind;
use gen::commands::{self, CosimArgs};
use gen::run::{unit_parser, BackendArg};
use gen::units::{load_config, selected, UNITS};

#[derive(Parser)]
#[command(
    name = "warpgen",
    version,
    about = "Synthesizable RTL of GPU memory-side units, checked cycle for cycle against golden models",
    after_help = "Examples:
  warpgen all                                   emit, co-simulate and summarise every unit
  warpgen verilog --unit ba_tag_array --out rtl/
  warpgen verilog --config my.toml              parameters from a TOML file ([unit] tables)
  warpgen cosim --unit ba_tag_array --cycles 1000000 --seed 7 --vcd fail.vcd
  warpgen cosim --unit ba_tag_array --backend rusthdl --scenario
  warpgen cosim --unit ba_tag_array --cycles 5000 --export-tb tb/   self-checking Verilog test bench
  warpgen report --unit ba_tag_array --format json
  warpgen configs                               what each unit can be built for
  warpgen bench                                 golden model vs Verilator vs RustHDL speed
  warpgen run --kernel kernels/lps.toml --prefetcher caps --sched pas
  warpgen run --kernel kernels/matrix_mul.toml --prefetcher caps --cosim caps_prefetcher
  warpgen run --kernel kernels/lps.toml --prefetcher snake --decoupled off --cosim snake_prefetcher
  warpgen run --kernel kernels/matrix_mul.toml --dac --cosim dac_expander
  warpgen run --preset caps-gtx480 --kernel kernels/lps.toml --prefetcher caps --sched pas
  warpgen presets caps-gtx480
  warpgen run --kernel kernels/reuse.toml --l1 ba --cosim ba_tag_array --json out.json
  warpgen run --kernel kernels/bfs.toml --preset ba-thesis --reuse-distance bfs.svg   reuse-distance profile
  warpgen reuse --kernel kernels/spmv.toml --out study/          the BA thesis's cache-size study"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// `--format`.
#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Format {
    /// Tables for reading.
    Text,
    /// JSON for scripts.
    Json,
}

#[derive(Subcommand)]
enum Cmd {
    /// Emit Verilog: `<out>/<unit>.v`, top module `<unit>`.
    Verilog {
        /// One unit (default: all).
        #[arg(long, value_parser = unit_parser())]
        unit: Option<String>,
        /// TOML file of parameter overrides, one `[unit]` table per unit.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Output folder.
        #[arg(long, default_value = "verilog-out")]
        out: PathBuf,
    },
    /// Co-simulate a unit's RTL against its golden model, cycle by cycle.
    Cosim {
        /// The unit.
        #[arg(long, value_parser = unit_parser())]
        unit: String,
        /// TOML file of parameter overrides.
        #[arg(long)]
        config: Option<PathBuf>,
        /// RTL simulator (default: verilator if installed, else rusthdl).
        #[arg(long, value_enum)]
        backend: Option<BackendArg>,
        /// Cycles of random stimulus (the first 2 are reset cycles).
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// Seed of the random stimulus and of the random power-up state.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// VCD of the run up to the first difference (RTL + `golden` scope).
        #[arg(long)]
        vcd: Option<PathBuf>,
        /// Write the VCD even when the run passes.
        #[arg(long)]
        vcd_always: bool,
        /// Run the spec scenario instead of random stimulus.
        #[arg(long)]
        scenario: bool,
        /// Instead of co-simulating, write a self-checking Verilog test bench
        /// of the random stimulus (and the unit's Verilog) into this folder.
        #[arg(long)]
        export_tb: Option<PathBuf>,
    },
    /// Storage table, Yosys cells and flip-flops, area.
    Report {
        /// One unit (default: all).
        #[arg(long, value_parser = unit_parser())]
        unit: Option<String>,
        /// TOML file of parameter overrides.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Skip Yosys and OpenSTA (storage only).
        #[arg(long)]
        no_synth: bool,
        /// Skip the static timing (OpenSTA), keep synthesis.
        #[arg(long)]
        no_timing: bool,
        /// Memory view: `sram` (memories that may be macros as fakeram45
        /// SRAM macros) or `ff` (all in flip-flops); default: both totals.
        #[arg(long, value_enum)]
        memories: Option<gen::report::MemoriesView>,
    },
    /// List each unit's parameters and the configurations its RTL builds for.
    Configs,
    /// Prove each unit's RTL equivalent to its Yosys gate netlist (generic
    /// gates of `synth -flatten -nofsm`): registers and outputs matched by
    /// name, ABC fraig, then equiv_simple / equiv_induct / equiv_status
    /// -assert; then check the properties of hdl/formal/ (BMC,
    /// k-induction). Exit 1 when a proof or property fails, 2 on a tool error.
    Prove {
        /// One unit (default: all).
        #[arg(long, value_parser = unit_parser())]
        unit: Option<String>,
        /// TOML file of parameter overrides (default: each unit's defaults).
        #[arg(long, conflicts_with = "all_configs")]
        config: Option<PathBuf>,
        /// Prove every configuration of the test suite's list
        /// (`gen::units::suite`) for each selected unit.
        #[arg(long)]
        all_configs: bool,
        /// Prove again even when a result for the same Verilog is cached.
        #[arg(long)]
        no_cache: bool,
        /// Time limit of each Yosys run, in seconds.
        #[arg(long, default_value_t = eda::EQUIV_TIMEOUT_SECS_DEFAULT)]
        timeout: u64,
        /// Skip the equivalence proofs (properties only).
        #[arg(long)]
        no_equiv: bool,
        /// Skip the property checks of hdl/formal/ (equivalence only).
        #[arg(long)]
        no_properties: bool,
        /// Where counterexample waveforms (VCD) of failed properties go.
        #[arg(long, default_value = "prove-cex")]
        vcd_dir: PathBuf,
        /// The property checker: yosys-smtbmc with z3 (`smtbmc-z3`), or
        /// Yosys's own SAT solver (`yosys-sat`: `sat -seq` / `sat -tempinduct`).
        #[arg(long, default_value = "smtbmc-z3", value_parser = ["smtbmc-z3", "yosys-sat"])]
        engine: String,
    },
    /// The machine presets; with a name, its paper's configuration table
    /// row by row with the machine keys each row sets.
    Presets {
        /// A preset (default: list them all).
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
        name: Option<String>,
    },
    /// Cycles per second: golden model, Verilator and RustHDL on one stimulus.
    Bench {
        /// One unit (default: all).
        #[arg(long, value_parser = unit_parser())]
        unit: Option<String>,
        /// TOML file of parameter overrides.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Cycles for the golden model and Verilator.
        #[arg(long, default_value_t = 1_000_000)]
        cycles: u64,
        /// Cycles for the (slower) RustHDL back-end.
        #[arg(long, default_value_t = 20_000)]
        rusthdl_cycles: u64,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Runs of each row; the fastest is reported (timing noise on a
        /// shared machine only ever slows a run down).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
    },
    /// Run a kernel (TOML file, or an Accel-Sim trace) on the SM harness.
    Run(gen::run::RunArgs),
    /// The BA thesis's cache-size study (Figures 7-8): the kernel at each
    /// L1 size and associativity, in parallel; per configuration the hit
    /// rate, the reuse classes rd0 / rd1 / rd2 and the seven intervals; a
    /// figure (OUT/reuse-study.svg) and the results (OUT/reuse-study.json).
    #[command(after_help = "Examples:
  warpgen reuse --kernel kernels/spmv.toml                        16, 32, 48 KB x 4, 8 ways on ba-thesis
  warpgen reuse --kernel kernels/bfs.toml --sizes 16,32,64,128,256 --ways 8   the thesis's Fig. 7 sizes
  warpgen reuse --kernel kernels/reuse.toml --preset fermi --set param.NTHREADS=7168 --out study/")]
    Reuse(gen::reuse::StudyArgs),
    /// Kernels x machine presets x mechanisms (default: the bundled kernels
    /// on every paper preset under none, CAPS with PAS, and the BA L1), run
    /// in parallel, one Markdown table per preset.
    Compare {
        /// Kernel files, trace folders, or folders of kernel files
        /// (repeatable; default: kernels).
        #[arg(long = "kernel", value_name = "PATH")]
        kernels: Vec<PathBuf>,
        /// Machine presets (repeatable; default: every paper preset).
        #[arg(long = "preset", value_name = "NAME",
              value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
        presets: Vec<String>,
        /// A mechanism as LABEL=KEY=VALUE[,KEY=VALUE...] (repeatable;
        /// default: base, CAPS=prefetcher=caps,sched=pas, BA=l1=ba). The
        /// first is the speedups' baseline.
        #[arg(long = "mechanism", value_name = "SPEC")]
        mechanisms: Vec<String>,
        /// Settings for every run (`param.N=1024`, `l1_ways=8`; repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Parallel runs (default: the machine's cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// CATT's static analysis (Kim et al., ICPP 2019, equations 1-9) of
    /// kernel files: per kernel the TLP limits and the L1 size, per loop
    /// its loads' coefficients, the L1 footprint and the chosen (warps per
    /// CTA, CTAs per SM). `warpgen run --catt` applies it.
    #[command(after_help = "Examples:
  warpgen catt --kernel kernels/atax1.toml --preset catt-titanv --set param.NX=81920
  warpgen catt --kernel kernels/atax1.toml --preset catt-titanv --set param.NX=81920 --l1-kb 32
  warpgen run --kernel kernels/atax1.toml --preset catt-titanv --set param.NX=81920 --catt")]
    Catt {
        /// Kernel files (repeatable).
        #[arg(long = "kernel", value_name = "FILE", required = true)]
        kernels: Vec<PathBuf>,
        /// Machine preset.
        #[arg(long, default_value = "catt-titanv",
              value_parser = clap::builder::PossibleValuesParser::new(harness::presets::names()))]
        preset: String,
        /// Fix the L1 size in KB (default: the largest the kernel's shared
        /// memory leaves, equation 4).
        #[arg(long, value_name = "N")]
        l1_kb: Option<u32>,
        /// Machine values and kernel parameters (`param.NX=81920`).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Run a list of independent harness runs (TOML or JSON: `[[run]]` with
    /// id, kernel, preset, set), one JSON result each in OUT/runs/, in
    /// parallel on the local cores, then merge them into OUT/merged.json.
    /// Results already there are kept (a sweep resumes).
    #[command(after_help = "Examples:
  warpgen sweep --list runs.toml --out sweep/             run what is missing, then merge
  warpgen sweep --list runs.toml --out sweep/ --task 3    run only run 3 (what a Slurm task does)
  warpgen sweep --list runs.toml --out sweep/ --merge     merge the results present
  warpgen sweep --list runs.toml --out sweep/ --emit-slurm slurm/   job array + merge scripts")]
    Sweep {
        /// The run list.
        #[arg(long)]
        list: PathBuf,
        /// Results folder.
        #[arg(long)]
        out: PathBuf,
        /// Run only run N of the list (0-based; a Slurm array task).
        #[arg(long, value_name = "N", conflicts_with_all = ["merge", "emit_slurm"])]
        task: Option<usize>,
        /// Only merge the results present (fails naming the missing ones).
        #[arg(long, conflicts_with = "emit_slurm")]
        merge: bool,
        /// Write a Slurm job-array script for the list into DIR instead of
        /// running it.
        #[arg(long, value_name = "DIR")]
        emit_slurm: Option<PathBuf>,
        /// Rerun runs whose results are present.
        #[arg(long)]
        force: bool,
        /// Parallel runs (default: the machine's cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Run the papers' own experiments on their presets and the bundled
    /// kernels, and write one report (Markdown, HTML with the figures
    /// embedded, SVG figures, claims.json) with the paper's figure, ours and
    /// a verdict per claim.
    #[command(after_help = "Examples:
  warpgen reproduce --out report/                     every paper, the quick sizes
  warpgen reproduce --out report/ --paper caps --paper ba
  warpgen reproduce --out report/ --full              the kernel files' own sizes
  warpgen reproduce --out report/ --emit-slurm slurm/ the runs as a Slurm job array; its
                                                      last job writes the report (--no-run)")]
    Reproduce {
        /// Report folder (results in OUT/runs/).
        #[arg(long, default_value = "report")]
        out: PathBuf,
        /// Papers (repeatable; default: all).
        #[arg(long = "paper", value_enum)]
        papers: Vec<gen::reproduce::Paper>,
        /// Folder of the bundled kernels.
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
        /// The kernel files' own input sizes (slower) instead of the
        /// quick set's.
        #[arg(long)]
        full: bool,
        /// Write the report from the results present; run nothing.
        #[arg(long)]
        no_run: bool,
        /// Rerun runs whose results are present.
        #[arg(long)]
        force: bool,
        /// Write the runs as a Slurm job array into DIR instead of running.
        #[arg(long, value_name = "DIR")]
        emit_slurm: Option<PathBuf>,
        /// Parallel runs (default: the machine's cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Speed of the SM harness on the bundled kernels (simulated cycles/s),
    /// with and without lock-step co-simulation of the units' RTL.
    BenchHarness {
        /// Folder of kernel files.
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
        /// Runs per kernel (best is kept).
        #[arg(long, default_value_t = 3)]
        repeat: u32,
        /// Also run with each unit's RTL in lock-step.
        #[arg(long)]
        cosim: bool,
    },
    /// Emit every unit, co-simulate each, print a summary table.
    All {
        /// Cycles of random co-simulation per unit (RustHDL runs a tenth).
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// Output folder for the Verilog.
        #[arg(long, default_value = "verilog-out")]
        out: PathBuf,
        /// TOML file of parameter overrides.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Skip Yosys and OpenSTA (no cell counts, no timing).
        #[arg(long)]
        no_synth: bool,
        /// Skip the equivalence proofs and property checks.
        #[arg(long)]
        no_prove: bool,
        /// Folder of kernels for the harness comparison.
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
    },
}

fn run(cli: Cli) -> anyhow::Result<bool> {
    match cli.cmd {
        Cmd::Verilog { unit, config, out } => {
            let cfg = load_config(config.as_deref())?;
            for p in commands::verilog(&selected(unit.as_deref())?, &cfg, &out)? {
                println!("wrote {}", p.display());
            }
            Ok(true)
        }
        Cmd::Cosim {
            unit,
            config,
            backend,
            cycles,
            seed,
            vcd,
            vcd_always,
            scenario,
            export_tb,
        } => {
            let cfg = load_config(config.as_deref())?;
            let unit = gen::units::unit(&unit)?;
            if let Some(dir) = export_tb {
                let files = unit.export_tb(&cfg, &dir, cycles, seed)?;
                let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                println!("wrote {}", names.join(" "));
                println!(
                    "run: iverilog -g2005 -s tb_{u} -o tb.vvp {f} && vvp -n tb.vvp\n  or: verilator --binary --top-module tb_{u} {f} && ./obj_dir/Vtb_{u}",
                    u = unit.name(),
                    f = names.join(" ")
                );
                return Ok(true);
            }
            let backend = commands::choose_backend(backend.map(Into::into))?;
            // A VCD needs a traced model, which is slower: say so beside
            // the speed.
            let traced = if vcd.is_some() && backend == BackendKind::Verilator {
                ", traced for the VCD"
            } else {
                ""
            };
            let args = CosimArgs {
                backend,
                cycles,
                seed,
                vcd,
                vcd_always,
                scenario,
            };
            let o = unit.cosim(&cfg, &args)?;
            match o.result {
                Ok(()) => {
                    println!(
                        "PASS {}: {} cycles on {}, every output equal every cycle ({:.0} cycles/s{traced})",
                        o.unit, o.cycles, o.backend, o.cycles_per_second
                    );
                    Ok(true)
                }
                Err(report) => {
                    println!("{report}");
                    Ok(false)
                }
            }
        }
        Cmd::Report {
            unit,
            config,
            format,
            no_synth,
            no_timing,
            memories,
        } => {
            let cfg = load_config(config.as_deref())?;
            let mut reports = Vec::new();
            for u in selected(unit.as_deref())? {
                let mut r = u.report(&cfg, !no_synth)?;
                gen::report::add_memories(&mut r, &u.emit(&cfg)?, !no_synth, memories)?;
                if !no_synth && !no_timing {
                    gen::report::add_unit_timing(&mut r, u, &cfg)?;
                }
                reports.push(r);
            }
            println!(
                "{}",
                commands::render_reports(&reports, format == Format::Json)?
            );
            if format == Format::Text {
                println!("{}", gen::report::render_fit_table());
            }
            Ok(true)
        }
        Cmd::Prove {
            unit,
            config,
            all_configs,
            no_cache,
            timeout,
            no_equiv,
            no_properties,
            vcd_dir,
            engine,
        } => {
            let timeout = std::time::Duration::from_secs(timeout.max(1));
            let mut jobs = Vec::new();
            for u in selected(unit.as_deref())? {
                if all_configs {
                    for (label, cfg) in gen::units::suite::configs(u.name())? {
                        jobs.push((u, label, cfg));
                    }
                } else {
                    let cfg = load_config(config.as_deref())?;
                    let label = config
                        .as_ref()
                        .map_or("default configuration".to_string(), |p| {
                            p.display().to_string()
                        });
                    jobs.push((u, label, cfg));
                }
            }
            let mut ok = true;
            let mut checked = Vec::new();
            let verilog_out = PathBuf::from("verilog-out");
            for (u, label, cfg) in jobs {
                if !no_equiv {
                    let o = gen::prove::prove_unit(u, &cfg, &label, !no_cache, timeout)?;
                    ok &= o.report.proved;
                    println!("{}", gen::prove::render(&o));
                }
                // The properties are stated for the checked-in RTL: checked
                // when this configuration emits exactly that file.
                if no_properties || checked.contains(&u.name()) {
                    continue;
                }
                let checked_in =
                    std::fs::read_to_string(verilog_out.join(format!("{}.v", u.name())))
                        .unwrap_or_default();
                if u.emit(&cfg)? != checked_in {
                    if !all_configs {
                        println!(
                            "{}: properties not checked: hdl/formal/{}_props.sv states them \
                             for the checked-in verilog-out/{}.v, and this configuration emits \
                             other RTL\n",
                            u.name(),
                            u.name(),
                            u.name()
                        );
                    }
                    continue;
                }
                checked.push(u.name());
                let mut settings = gen::formal::unit_settings(u.name());
                settings.timeout = timeout;
                if engine == "yosys-sat" {
                    settings.engine = eda::FormalEngine::YosysSat;
                }
                let (o, cached) = gen::formal::check_unit_cached(
                    u.name(),
                    &verilog_out,
                    &vcd_dir,
                    &settings,
                    !no_cache,
                )?;
                ok &= o.report.passed();
                println!(
                    "properties of {}{}",
                    gen::formal::render(&o),
                    if cached { "  (cached result)\n" } else { "" }
                );
            }
            Ok(ok)
        }
        Cmd::Configs => {
            for u in UNITS {
                print!("{}", u.configs());
            }
            Ok(true)
        }
        Cmd::Presets { name } => {
            print!("{}", gen::run::presets_text(name.as_deref())?);
            Ok(true)
        }
        Cmd::Bench {
            unit,
            config,
            cycles,
            rusthdl_cycles,
            seed,
            repeat,
        } => {
            let cfg = load_config(config.as_deref())?;
            for u in selected(unit.as_deref())? {
                let rows = u.bench(&cfg, cycles, rusthdl_cycles, seed, repeat)?;
                println!("{}", commands::render_bench(u.name(), &rows));
            }
            Ok(true)
        }
        Cmd::Reuse(args) => {
            gen::reuse::study_command(&args)?;
            Ok(true)
        }
        Cmd::Run(args) => {
            gen::run::run_command(&args)?;
            Ok(true)
        }
        Cmd::Compare {
            kernels,
            presets,
            mechanisms,
            set,
            jobs,
        } => {
            use gen::compare::{compare, expand_kernels, table, Mechanism};
            let kernels = if kernels.is_empty() {
                vec![PathBuf::from("kernels")]
            } else {
                kernels
            };
            let files = expand_kernels(&kernels)?;
            let presets = if presets.is_empty() {
                harness::presets::names()
                    .into_iter()
                    .filter(|n| !matches!(*n, "fermi" | "volta"))
                    .map(str::to_string)
                    .collect()
            } else {
                presets
            };
            let mechs = if mechanisms.is_empty() {
                Mechanism::defaults()
            } else {
                mechanisms
                    .iter()
                    .map(|m| Mechanism::parse(m))
                    .collect::<anyhow::Result<Vec<_>>>()?
            };
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let cells = compare(&presets, &files, &mechs, &set, jobs);
            print!("{}", table(&cells, &mechs));
            Ok(true)
        }
        Cmd::Catt {
            kernels,
            preset,
            l1_kb,
            set,
            format,
        } => {
            let mut reports = Vec::new();
            let mut texts = Vec::new();
            for file in &kernels {
                let mut args = gen::run::RunArgs::new(file);
                args.preset = preset.clone();
                args.set = set.clone();
                let (cfg, ks) = gen::run::prepare_all(&args)?;
                for k in &ks {
                    let r = gen::catt::report(&cfg, k, l1_kb.map(|x| x.saturating_mul(1024)))?;
                    texts.push(gen::catt::text(k, &r));
                    reports.push(r);
                }
            }
            match format {
                Format::Text => print!("{}", texts.join("\n")),
                Format::Json => println!("{}", serde_json::to_string_pretty(&reports)?),
            }
            Ok(true)
        }
        Cmd::Sweep {
            list,
            out,
            task,
            merge,
            emit_slurm,
            force,
            jobs,
        } => {
            use gen::sweep;
            let runs = sweep::RunList::read(&list)?;
            if let Some(dir) = emit_slurm {
                let written = sweep::emit_slurm(&dir, &runs, &out, |l, o| {
                    vec![
                        "sweep".into(),
                        "--list".into(),
                        l.display().to_string(),
                        "--out".into(),
                        o.display().to_string(),
                        "--merge".into(),
                    ]
                })?;
                for p in &written {
                    println!("wrote {}", p.display());
                }
                println!(
                    "submit with {} ({} array tasks, then the merge)",
                    dir.join("submit.sh").display(),
                    runs.runs.len()
                );
                return Ok(true);
            }
            if let Some(i) = task {
                let r = sweep::run_task(&runs, &out, i)?;
                println!(
                    "run {i} ({}): {} in {:.1} s -> {}",
                    r.spec.id,
                    r.error
                        .as_deref()
                        .map_or("ok".to_string(), |e| format!("refused: {e}")),
                    r.seconds,
                    sweep::result_path(&out, &r.spec).display()
                );
                return Ok(true);
            }
            if !merge {
                let jobs = jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
                let n = sweep::run_missing(&runs, &out, jobs, force)?;
                eprintln!("ran {n} of {} runs", runs.runs.len());
            }
            let all = sweep::merge(&runs, &out)?;
            let refused = all.iter().filter(|r| r.error.is_some()).count();
            println!(
                "merged {} results into {} ({refused} did not run)",
                all.len(),
                out.join("merged.json").display()
            );
            Ok(true)
        }
        Cmd::Reproduce {
            out,
            papers,
            kernels,
            full,
            no_run,
            force,
            emit_slurm,
            jobs,
        } => {
            use gen::{reproduce, sweep};
            let opts = reproduce::Options {
                papers: papers.clone(),
                kernels: kernels.clone(),
                full,
            };
            let list = reproduce::plan(&opts)?;
            std::fs::create_dir_all(&out)?;
            list.write(&out.join("runs.json"))?;
            if let Some(dir) = emit_slurm {
                let written = sweep::emit_slurm(&dir, &list, &out, |_, o| {
                    let mut v = vec![
                        "reproduce".to_string(),
                        "--out".into(),
                        o.display().to_string(),
                        "--kernels".into(),
                        kernels.display().to_string(),
                        "--no-run".into(),
                    ];
                    for p in &papers {
                        v.push("--paper".into());
                        v.push(p.name().into());
                    }
                    if full {
                        v.push("--full".into());
                    }
                    v
                })?;
                for p in &written {
                    println!("wrote {}", p.display());
                }
                println!(
                    "submit with {} ({} array tasks, then the report)",
                    dir.join("submit.sh").display(),
                    list.runs.len()
                );
                return Ok(true);
            }
            let start = std::time::Instant::now();
            let wall = if no_run {
                None
            } else {
                let jobs = jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
                let n = sweep::run_missing(&list, &out, jobs, force)?;
                eprintln!("ran {n} of {} runs", list.runs.len());
                (n == list.runs.len()).then(|| start.elapsed().as_secs_f64())
            };
            let all = sweep::merge(&list, &out)?;
            let r = reproduce::report(&opts, &all)?;
            reproduce::write(&opts, &out, &r, wall)?;
            print!("{}", reproduce::claims_markdown(&r.claims));
            println!(
                "\nwrote {} and {} ({} figures)",
                out.join("report.md").display(),
                out.join("report.html").display(),
                r.figures.len()
            );
            Ok(true)
        }
        Cmd::BenchHarness {
            kernels,
            repeat,
            cosim,
        } => {
            let files = gen::run::kernel_files(&kernels)?;
            let rows = gen::run::bench_harness(&files, repeat, cosim)?;
            println!("{}", gen::run::bench_table(&rows));
            if cosim {
                print!("{}", gen::run::bench_ratios(&rows));
            }
            Ok(true)
        }
        Cmd::All {
            cycles,
            out,
            config,
            no_synth,
            no_prove,
            kernels,
        } => {
            let cfg = load_config(config.as_deref())?;
            let backend = commands::choose_backend(None)?;
            let n = if backend == BackendKind::RustHdl {
                (cycles / 10).max(1)
            } else {
                cycles
            };
            let mut ok = true;
            println!(
                "{:<16} {:<10} {:>9} {:<7} {:>12} {:>13} {:>8} {:>6} {:>7} {:>6}",
                "unit",
                "backend",
                "cycles",
                "result",
                "cycles/s",
                "storage bits",
                "cells",
                "fmax",
                "equiv",
                "props"
            );
            let mut failures = Vec::new();
            let tools = eda::tool_available(eda::Tool::Yosys);
            let timing_tools = tools && eda::tool_available(eda::Tool::OpenSta);
            for u in UNITS {
                let row = u.all(&cfg, &out, backend, n, !no_synth)?;
                let res = if row.cosim.result.is_ok() {
                    "PASS"
                } else {
                    "FAIL"
                };
                ok &= row.cosim.result.is_ok();
                let v = u.emit(&cfg)?;
                // Timing, proofs: each cached by the Verilog's content.
                let fmax = if !no_synth && timing_tools {
                    gen::report::timing_cached(&v, u.name())?
                        .fmax_mhz()
                        .map_or("-".to_string(), |f| format!("{f:.0}M"))
                } else {
                    "-".to_string()
                };
                let (equiv, props) = if !no_prove && tools {
                    // `warpgen prove`'s time limit per Yosys run (a proof
                    // that needs more is reported as not proved, and cached
                    // as such for this limit), so the two share the cache.
                    let timeout = std::time::Duration::from_secs(eda::EQUIV_TIMEOUT_SECS_DEFAULT);
                    let e = gen::prove::prove_unit(*u, &cfg, "this configuration", true, timeout)?;
                    let checked_in = std::fs::read_to_string(
                        PathBuf::from("verilog-out").join(format!("{}.v", u.name())),
                    )
                    .unwrap_or_default();
                    let p = if v == checked_in {
                        let (o, _) = gen::formal::check_unit_cached(
                            u.name(),
                            std::path::Path::new("verilog-out"),
                            std::path::Path::new("prove-cex"),
                            &gen::formal::unit_settings(u.name()),
                            true,
                        )?;
                        if o.report.passed() {
                            "pass"
                        } else {
                            "FAIL"
                        }
                    } else {
                        "-"
                    };
                    ok &= e.report.proved && p != "FAIL";
                    (if e.report.proved { "proved" } else { "NO" }, p)
                } else {
                    ("-", "-")
                };
                println!(
                    "{:<16} {:<10} {:>9} {:<7} {:>12.0} {:>13} {:>8} {:>6} {:>7} {:>6}",
                    u.name(),
                    row.cosim.backend,
                    row.cosim.cycles,
                    res,
                    row.cosim.cycles_per_second,
                    row.storage_bits,
                    row.cells
                        .map(|c| c.to_string())
                        .unwrap_or_else(|| "-".into()),
                    fmax,
                    equiv,
                    props
                );
                if let Err(r) = row.cosim.result {
                    failures.push(r);
                }
            }
            println!("Verilog written to {}/", out.display());
            if kernels.is_dir() {
                let files = gen::run::kernel_files(&kernels)?;
                let rows = gen::run::compare_kernels(&files, &[])?;
                println!(
                    "\nSM harness ({}): each bundled kernel with no prefetcher, CAPS (PAS), Snake \
                     (decoupled L1), the BA L1, CAPS with BA, and DAC (instr: warp instructions \
                     against the baseline's)",
                    kernels.display()
                );
                println!("{}", gen::run::compare_table(&rows));
            }
            for f in failures {
                println!("\n{f}");
            }
            Ok(ok)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
