//! The per-unit operations of `warpgen`'s subcommands, generic over the
//! unit type (co-simulation, test-bench export, `configs`, `bench`, `all`'s
//! row), and the choice of back-end. The unit table
//! ([`crate::unit_table`]) instantiates them for every unit.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use cosim::{BackendKind, CosimUnit, LockstepOptions, Mismatch, ModelOf};
use golden::GoldenModel;
use ports::ConfigFile;

use crate::output::write_atomic;
use crate::report::synth::synth_cached;
use crate::report::unit::{render_text, UnitReport};
use crate::unit_config::{core_file, emit, label, params_of};

/// Resolve the back-end: the one asked for, or Verilator when installed and
/// the embedded one otherwise (saying so on stderr).
pub fn choose_backend(asked: Option<BackendKind>) -> anyhow::Result<BackendKind> {
    let have = cosim::verilator::verilator_available();
    match asked {
        Some(BackendKind::Verilator) if !have => bail!(
            "the Verilator back-end was requested but `verilator` is not installed; {} \
             (or use --backend rusthdl, which needs no tool)",
            cosim::verilator::install_hint()
        ),
        Some(k) => Ok(k),
        None if have => Ok(BackendKind::Verilator),
        None => {
            eprintln!(
                "note: verilator not found ({}); using the embedded rusthdl back-end",
                cosim::verilator::install_hint()
            );
            Ok(BackendKind::RustHdl)
        }
    }
}

/// Options of `warpgen cosim`.
#[derive(Clone, Debug)]
pub struct CosimArgs {
    /// Back-end.
    pub backend: BackendKind,
    /// Cycles.
    pub cycles: u64,
    /// Random seed.
    pub seed: u64,
    /// VCD of a failing run (or of every run with `vcd_always`).
    pub vcd: Option<PathBuf>,
    /// Write the VCD even when the run passes.
    pub vcd_always: bool,
    /// Run the spec scenario(s) instead of random stimulus.
    pub scenario: bool,
}

/// Result of one co-simulation, for tables.
#[derive(Clone, Debug)]
pub struct CosimOutcome {
    /// Unit.
    pub unit: &'static str,
    /// Back-end.
    pub backend: &'static str,
    /// Cycles run.
    pub cycles: u64,
    /// `PASS` or the mismatch report.
    pub result: Result<(), Box<Mismatch>>,
    /// Cycles per second of the lock-step loop.
    pub cycles_per_second: f64,
}

/// One co-simulation run: parameters, stimulus, cycles, label.
type Run<U> = (
    <U as ports::UnitSpec>::Params,
    Box<dyn cosim::stimulus::Stimulus<U> + Send>,
    u64,
    String,
);

/// Reset cycles at the start of every random co-simulation and exported
/// test bench.
pub const RESET_CYCLES: u64 = 2;

/// Reject a cycle count that would compare nothing.
fn check_cycles(cycles: u64) -> anyhow::Result<()> {
    if cycles <= RESET_CYCLES {
        bail!(
            "--cycles {cycles}: the first {RESET_CYCLES} cycles are reset cycles; give at least {} \
             so that outputs are compared",
            RESET_CYCLES + 1
        );
    }
    Ok(())
}

/// Co-simulate `U` as `args` says.
pub fn cosim_unit<U: CosimUnit>(
    cfg: &ConfigFile,
    args: &CosimArgs,
) -> anyhow::Result<CosimOutcome> {
    if !args.scenario {
        check_cycles(args.cycles)?;
    }
    let runs: Vec<Run<U>> = if args.scenario {
        U::scenarios()
            .into_iter()
            .map(|(name, p, seq)| {
                let n = seq.len() as u64;
                let lbl = label(&p);
                (
                    p,
                    Box::new(cosim::stimulus::Sequence::<U>::new(name, seq))
                        as Box<dyn cosim::stimulus::Stimulus<U> + Send>,
                    n,
                    lbl,
                )
            })
            .collect()
    } else {
        let p = params_of::<U>(cfg)?;
        let stim = U::random_stimulus(&p, args.seed);
        let lbl = label(&p);
        vec![(p, stim, args.cycles, lbl)]
    };
    let mut total = 0;
    let mut rate = 0.0;
    let mut backend = args.backend.name();
    for (p, mut stim, cycles, lbl) in runs {
        let factory = cosim::backend_factory::<U>(
            args.backend,
            &p,
            Some(args.seed as u32),
            None,
            args.vcd.is_some(),
        )?;
        let opts = LockstepOptions {
            cycles,
            reset_cycles: RESET_CYCLES,
            config_label: lbl,
            vcd_on_mismatch: if args.vcd_always {
                None
            } else {
                args.vcd.clone()
            },
            vcd_always: if args.vcd_always {
                args.vcd.clone()
            } else {
                None
            },
            ..Default::default()
        };
        match cosim::run_lockstep::<U, ModelOf<U>>(&p, factory.as_ref(), stim.as_mut(), &opts)? {
            Ok(s) => {
                total += s.cycles;
                rate = s.cycles_per_second();
                backend = s.backend;
            }
            Err(m) => {
                return Ok(CosimOutcome {
                    unit: U::NAME,
                    backend,
                    cycles: m.cycle,
                    result: Err(m),
                    cycles_per_second: 0.0,
                })
            }
        }
    }
    Ok(CosimOutcome {
        unit: U::NAME,
        backend,
        cycles: total,
        result: Ok(()),
        cycles_per_second: rate,
    })
}

/// Export a self-checking Verilog test bench of `cycles` random cycles
/// (seed `seed`) with the unit's Verilog into `dir`; returns the files.
pub fn export_tb_unit<U: CosimUnit>(
    cfg: &ConfigFile,
    dir: &Path,
    cycles: u64,
    seed: u64,
) -> anyhow::Result<Vec<PathBuf>> {
    check_cycles(cycles)?;
    let p = params_of::<U>(cfg)?;
    let dut = dir.join(format!("{}.v", U::NAME));
    let tbf = dir.join(format!("tb_{}.v", U::NAME));
    // Both outputs checked before either is written (a FIFO without a
    // reader, a folder in the way): nothing is half-exported.
    if dir.is_dir() {
        crate::output::check_output(&dut, "--export-tb")?;
        crate::output::check_output(&tbf, "--export-tb")?;
    }
    let v = cosim::emit_verilog::<U>(&p)?;
    let mut stim = U::random_stimulus(&p, seed);
    let rec = cosim::testbench::record::<U, ModelOf<U>>(&p, stim.as_mut(), cycles, RESET_CYCLES);
    let tb = cosim::testbench::testbench::<U>(&p, &rec, &stim.describe());
    write_atomic(&dut, &v)?;
    write_atomic(&tbf, &tb)?;
    Ok(vec![tbf, dut])
}

/// Render reports as text or JSON.
pub fn render_reports(reports: &[UnitReport], json: bool) -> anyhow::Result<String> {
    if json {
        Ok(serde_json::to_string_pretty(reports)?)
    } else {
        Ok(reports
            .iter()
            .map(render_text)
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

/// `warpgen configs` for one unit: parameters, defaults and what the RTL
/// can be built for.
pub fn configs_unit<U: CosimUnit>() -> String {
    let p = U::Params::default();
    let mut s = format!("{}\n  defaults: {}\n", U::NAME, label(&p));
    s.push_str(&format!("  RTL compiled in for: {}\n", U::SUPPORTED));
    s.push_str(
        "  other valid widths: elaborated on demand from the checkout's sources \
         (once per width set, then cached)\n",
    );
    s
}

/// One row of the benchmark table.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// What ran.
    pub what: String,
    /// Cycles.
    pub cycles: u64,
    /// Seconds.
    pub seconds: f64,
}

impl BenchRow {
    /// Cycles per second.
    pub fn rate(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// The fastest of `repeat` runs of `run` (each returns its seconds).
fn best_of(repeat: u32, mut run: impl FnMut() -> anyhow::Result<f64>) -> anyhow::Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..repeat.max(1) {
        best = best.min(run()?);
    }
    Ok(best)
}

/// Benchmark `U`: the golden model alone, and lock-step co-simulation on
/// each back-end, all on the same seeded stimulus. Every row is the
/// fastest of `repeat` runs.
pub fn bench_unit<U: CosimUnit>(
    cfg: &ConfigFile,
    cycles: u64,
    rusthdl_cycles: u64,
    seed: u64,
    repeat: u32,
) -> anyhow::Result<Vec<BenchRow>> {
    let p = params_of::<U>(cfg)?;
    let mut rows = Vec::new();
    // Golden model alone.
    let seconds = best_of(repeat, || {
        let mut stim = U::random_stimulus(&p, seed);
        let mut m = ModelOf::<U>::new(&p);
        let mut last = U::Out::default();
        let t = Instant::now();
        for c in 0..cycles {
            let inp = stim.next(c, &last);
            last = m.outputs();
            m.step(&inp);
        }
        std::hint::black_box(&last);
        Ok(t.elapsed().as_secs_f64())
    })?;
    rows.push(BenchRow {
        what: "golden model alone".into(),
        cycles,
        seconds,
    });
    let mut kinds = vec![(BackendKind::RustHdl, rusthdl_cycles)];
    if cosim::verilator::verilator_available() {
        kinds.insert(0, (BackendKind::Verilator, cycles));
    }
    for (kind, n) in kinds {
        let factory = cosim::backend_factory::<U>(kind, &p, Some(seed as u32), None, false)?;
        // Raw back-end speed on the recorded stimulus, then lock-step.
        let mut stim = U::random_stimulus(&p, seed);
        let mut recorded = Vec::with_capacity(n as usize);
        let last = U::Out::default();
        let reset = U::inputs(&p)
            .iter()
            .position(|d| d.name == "reset")
            .context("the unit has no reset input")?;
        for c in 0..n {
            let mut flat = U::in_values(&p, &stim.next(c, &last));
            if c < RESET_CYCLES {
                flat[reset] = 1;
            }
            for (v, port) in flat.iter_mut().zip(U::inputs(&p)) {
                *v &= ports::mask(port.width);
            }
            recorded.push(flat);
        }
        let mut sum = 0u64;
        let seconds = best_of(repeat, || {
            let mut rtl = factory()?;
            let mut out = vec![0u64; U::outputs(&p).len()];
            sum = 0;
            let t = Instant::now();
            for flat in &recorded {
                rtl.cycle(flat, &mut out);
                sum = cosim::verilator::fold_outputs(sum, &out);
            }
            Ok(t.elapsed().as_secs_f64())
        })?;
        let rtl_row = BenchRow {
            what: format!("{} RTL alone", kind.name()),
            cycles: n,
            seconds,
        };
        if kind == BackendKind::Verilator {
            // The same cached model from a C++ loop, no Rust in the loop.
            let model = cosim::verilator::VerilatorModel::build(
                &cosim::emit_verilog::<U>(&p)?,
                U::NAME,
                &U::inputs(&p),
                &U::outputs(&p),
                &cosim::verilator::BuildOptions {
                    random_init_seed: Some(seed as u32),
                    quiet: true,
                    ..Default::default()
                },
            )?;
            let seconds = best_of(repeat, || {
                let raw = model.run_raw(&recorded, Some(seed as u32))?;
                if raw.checksum != sum {
                    bail!(
                        "{}: the C++ loop and the Rust back-end disagree on the same model and \
                         stimulus (output checksums {:#x} and {sum:#x})",
                        U::NAME,
                        raw.checksum
                    );
                }
                Ok(raw.seconds)
            })?;
            rows.push(BenchRow {
                what: "Verilator raw (C++ loop)".into(),
                cycles: n,
                seconds,
            });
        }
        rows.push(rtl_row);
        let opts = LockstepOptions {
            cycles: n,
            history: 0,
            ..Default::default()
        };
        let seconds = best_of(repeat, || {
            let mut stim = U::random_stimulus(&p, seed);
            match cosim::run_lockstep::<U, ModelOf<U>>(&p, factory.as_ref(), stim.as_mut(), &opts)?
            {
                Ok(s) => Ok(s.elapsed.as_secs_f64()),
                Err(m) => bail!("benchmark run mismatched:\n{m}"),
            }
        })?;
        rows.push(BenchRow {
            what: format!("lock-step {} + golden", kind.name()),
            cycles: n,
            seconds,
        });
    }
    Ok(rows)
}

/// Render a benchmark table with ratios to the first row.
pub fn render_bench(unit: &str, rows: &[BenchRow]) -> String {
    let base = rows.first().map(BenchRow::rate).unwrap_or(1.0);
    let mut s = format!(
        "{unit}\n  {:<32} {:>10} {:>9} {:>14} {:>12}\n",
        "run", "cycles", "seconds", "cycles/s", "vs golden"
    );
    for r in rows {
        s.push_str(&format!(
            "  {:<32} {:>10} {:>9.3} {:>14.0} {:>11.3}x\n",
            r.what,
            r.cycles,
            r.seconds,
            r.rate(),
            r.rate() / base
        ));
    }
    let rate = |what: &str| rows.iter().find(|r| r.what == what).map(BenchRow::rate);
    if let (Some(raw), Some(ls)) = (
        rate("Verilator raw (C++ loop)"),
        rate("lock-step verilator + golden"),
    ) {
        s.push_str(&format!(
            "  lock-step reaches {:.0} % of the raw C++ loop (the FFI, the golden model and the \
             checking cost the rest)\n",
            100.0 * ls / raw
        ));
    }
    s
}

/// Summary row of `warpgen all`.
#[derive(Clone, Debug)]
pub struct AllRow {
    /// Co-simulation outcome.
    pub cosim: CosimOutcome,
    /// Storage bits.
    pub storage_bits: u64,
    /// Cells from Yosys, if run.
    pub cells: Option<u64>,
}

/// `warpgen all` for one unit: emit, co-simulate, storage, cells.
pub fn all_unit<U: CosimUnit>(
    cfg: &ConfigFile,
    out: &Path,
    backend: BackendKind,
    cycles: u64,
    synth: bool,
) -> anyhow::Result<AllRow> {
    let p = params_of::<U>(cfg)?;
    let v = emit::<U>(cfg)?;
    write_atomic(&out.join(format!("{}.v", U::NAME)), &v)?;
    write_atomic(
        &out.join(format!("{}.core", U::NAME)),
        &core_file::<U>(cfg)?,
    )?;
    let outcome = cosim_unit::<U>(
        cfg,
        &CosimArgs {
            backend,
            cycles,
            seed: 1,
            vcd: None,
            vcd_always: false,
            scenario: false,
        },
    )?;
    let cells = if synth && eda::tool_available(eda::Tool::Yosys) {
        Some(
            synth_cached(&v, U::NAME)
                .with_context(|| format!("synthesizing {}", U::NAME))?
                .cells,
        )
    } else {
        None
    };
    Ok(AllRow {
        cosim: outcome,
        storage_bits: U::storage(&p).total_bits(),
        cells,
    })
}
