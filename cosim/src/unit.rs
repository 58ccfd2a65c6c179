//! What the framework needs to know of each unit, and back-end selection.

use std::collections::BTreeMap;
use std::path::PathBuf;

use golden::GoldenUnit;
use hdl::registry::RtlDecl;
use ports::Params;

use crate::backend::RtlBackend;
use crate::lockstep::{run_lockstep, LockstepOptions, Mismatch, RunSummary};
use crate::rusthdl::RustHdlBackend;
use crate::stimulus::Stimulus;
use crate::verilator::{BuildOptions, VerilatorModel};

/// Everything the tools know of a unit, declared once, in the unit's own
/// files: its ports and parameters (`ports::UnitSpec`), its compiled-in RTL
/// and storage table ([`hdl::registry::RtlDecl`], `hdl/src/<unit>/`), its
/// golden model ([`golden::GoldenUnit`], `golden/src/<unit>/`), its
/// harness role (`harness::HarnessUnit`, `harness/src/adapters/<unit>.rs`),
/// and here its stimulus, scenarios and
/// documents (`cosim/src/<unit>.rs`). The unit table of the command line is
/// built from `ports::for_each_unit!`, which lists every unit once.
pub trait CosimUnit: RtlDecl + GoldenUnit + Sized {
    /// One line: what the unit is (tables, `--help`).
    const SUMMARY: &'static str;
    /// Its specification, relative to the shared folder (`spec/caps.md`).
    const SPEC: &'static str;
    /// Its document, relative to the repository root.
    const DOC: &'static str;
    /// The first seeds of the test suite's random co-simulation of the
    /// suite's configurations, on Verilator and on rust-hdl: configuration
    /// `i` runs with seed `first + i` (`tests/tests/every_unit_cosim.rs`).
    const SUITE_SEEDS: (u64, u64);
    /// Seeded random stimulus biased to the unit's interesting cases.
    fn random_stimulus(p: &Self::Params, seed: u64) -> Box<dyn Stimulus<Self> + Send>;
    /// The spec's scenario(s) as input sequences, with the parameters they
    /// need.
    fn scenarios() -> Vec<(String, Self::Params, Vec<Self::In>)>;

    // What the verification and the reports state of the unit (read by
    // `gen` through its unit table; nothing there names a unit).

    /// The configurations the test suite runs: the co-simulation tests
    /// iterate them and `warpgen prove --all-configs` proves each. By
    /// default the defaults alone.
    fn suite() -> Vec<Self::Params> {
        vec![Self::Params::default()]
    }
    /// The depth of the k-induction of the unit's property check
    /// (`warpgen prove`, after BMC to [`CosimUnit::BMC_DEPTH`]); 0 checks
    /// by BMC only, for a unit whose induction does not close. By default 1.
    const INDUCTION_DEPTH: u32 = 1;
    /// The depth of the bounded model check of the unit's properties
    /// (`warpgen prove`). By default 4.
    const BMC_DEPTH: u32 = 4;
    /// The paper's latency claim, printed beside the static timing.
    const LATENCY_CLAIM: Option<LatencyClaim> = None;
    /// The unit's latency table (its document's "Latency" section), in
    /// cycles: printed by `warpgen report` in cycles and in nanoseconds at
    /// the clock, the row the paper's claim is about beside the claim. Each
    /// row is checked on the golden model and on the RTL by the unit's
    /// tests. Empty by default.
    const LATENCIES: &'static [Latency] = &[];
    /// The paper's own area figure, printed beside the memory costing.
    const PAPER_AREA: Option<PaperArea> = None;
    /// The storage table each memory module of the Verilog holds, by the
    /// start of the module's name after `<unit>__` (the generator names a
    /// module after its owner's field path): (prefix, table).
    const MEMORY_TABLES: &'static [(&'static str, &'static str)] = &[];
    /// Tables the paper costs as SRAM (or that a reader would expect to be
    /// SRAM) that the RTL does not emit as a memory module: (table, why
    /// they stay flip-flops).
    const FLIP_FLOP_TABLES: &'static [(&'static str, &'static str)] = &[];
    /// A variant of `p` to report area and timing against (what it is, its
    /// parameters), e.g. the unit with its mechanism turned off. None by
    /// default.
    fn timing_baseline(_p: &Self::Params) -> Option<(&'static str, Self::Params)> {
        None
    }
}

/// A paper's claim on a unit's latency ([`CosimUnit::LATENCY_CLAIM`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatencyClaim {
    /// The claim, with its source.
    pub claim: &'static str,
    /// The cycles the specification allows.
    pub cycles: u32,
}

/// One row of a unit's latency table ([`CosimUnit::LATENCIES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Latency {
    /// What is timed, from which edge to which port, e.g. "load accepted at
    /// edge t -> its first prefetch valid on pf_*".
    pub what: &'static str,
    /// The cycles: an output first visible in the cycle after edge t + n is
    /// n + 1 cycles after the request ("the cycle after t" is 1).
    pub cycles: u32,
    /// Whether the paper's latency claim ([`CosimUnit::LATENCY_CLAIM`]) is
    /// about this row.
    pub claimed: bool,
}

/// A paper's area figure for a unit ([`CosimUnit::PAPER_AREA`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperArea {
    /// Area per SM in mm², if the paper gives one.
    pub mm2_per_sm: Option<f64>,
    /// What the paper says, with its source.
    pub quote: &'static str,
}

/// The golden model of `U`.
pub type ModelOf<U> = <U as GoldenUnit>::Model;

/// Makes fresh back-end instances (owned; see [`crate::lockstep::BackendFactory`]).
pub type Factory = Box<dyn Fn() -> anyhow::Result<Box<dyn RtlBackend>>>;

/// Which RTL simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// Verilator on the emitted Verilog (the reference).
    Verilator,
    /// The rust-hdl block driven directly.
    RustHdl,
}

impl BackendKind {
    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Verilator => "verilator",
            BackendKind::RustHdl => "rusthdl",
        }
    }
}

/// Header lines of a unit's Verilog: the generator and every parameter.
pub fn verilog_header<P: Params>(unit: &str, p: &P) -> Vec<String> {
    let mut h = vec![
        format!("{unit} - generated by warpgen; do not edit."),
        "Parameters:".to_string(),
    ];
    for (k, v) in p.list() {
        h.push(format!("  {k} = {v}"));
    }
    h
}

/// Emit the Verilog of `U` for `p`.
///
/// Emission is deterministic and takes a noticeable fraction of a second
/// for the larger units, so the text is kept for the rest of the process,
/// per unit and parameter list: a command that co-simulates many runs (a
/// sweep, `bench-harness`) emits each configuration once.
pub fn emit_verilog<U: CosimUnit>(p: &U::Params) -> anyhow::Result<String> {
    static EMITTED: std::sync::Mutex<BTreeMap<(&'static str, String), String>> =
        std::sync::Mutex::new(BTreeMap::new());
    let key = (U::NAME, params_label(p));
    if let Some(v) = EMITTED.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return Ok(v);
    }
    let header = verilog_header(U::NAME, p);
    let v = match U::build(p) {
        Ok(mut rtl) => rtl.verilog(&header).map_err(|e| anyhow::anyhow!(e))?,
        // Widths not compiled in: elaborated on demand.
        Err(u) => crate::elaborate::elaborate::<U>(p, &u)?
            .spawn()?
            .verilog(&header)?,
    };
    if let Ok(mut m) = EMITTED.lock() {
        m.insert(key, v.clone());
    }
    Ok(v)
}

/// A factory of fresh back-end instances for `U` with `p`. For Verilator
/// this emits, verilates and compiles once (cached by content hash);
/// `random_init_seed` starts every instance from random power-up state.
pub fn backend_factory<U: CosimUnit>(
    kind: BackendKind,
    p: &U::Params,
    random_init_seed: Option<u32>,
    cache_dir: Option<PathBuf>,
    trace: bool,
) -> anyhow::Result<Factory> {
    match kind {
        BackendKind::RustHdl => match U::build(p) {
            Ok(_) => {
                let p = p.clone();
                Ok(Box::new(move || {
                    Ok(Box::new(RustHdlBackend::new(U::build(&p)?)) as Box<dyn RtlBackend>)
                }))
            }
            // Widths not compiled in: the elaborated program simulates it.
            Err(u) => {
                let e = crate::elaborate::elaborate::<U>(p, &u)?;
                Ok(Box::new(move || {
                    Ok(Box::new(e.spawn()?) as Box<dyn RtlBackend>)
                }))
            }
        },
        BackendKind::Verilator => {
            let verilog = emit_verilog::<U>(p)?;
            let ins = U::inputs(p);
            let outs = U::outputs(p);
            let opts = BuildOptions {
                cache_dir,
                random_init_seed,
                quiet: true,
                trace,
            };
            // Build once now so errors surface here; later calls hit the cache.
            VerilatorModel::build(&verilog, U::NAME, &ins, &outs, &opts)?;
            Ok(Box::new(move || {
                Ok(Box::new(VerilatorModel::build(
                    &verilog,
                    U::NAME,
                    &ins,
                    &outs,
                    &opts,
                )?) as Box<dyn RtlBackend>)
            }))
        }
    }
}

/// Co-simulate `U` with random stimulus: build the back-end and run.
pub fn cosim_random<U: CosimUnit>(
    kind: BackendKind,
    p: &U::Params,
    seed: u64,
    opts: &LockstepOptions,
) -> anyhow::Result<Result<RunSummary, Box<Mismatch>>> {
    let factory = backend_factory::<U>(kind, p, Some(seed as u32), None, opts.wants_vcd())?;
    let mut stim = U::random_stimulus(p, seed);
    run_lockstep::<U, ModelOf<U>>(p, factory.as_ref(), stim.as_mut(), opts)
}

/// One-line label of a parameter set (`NAME=value ...`), as reports show it.
pub fn params_label<P: Params>(p: &P) -> String {
    p.list()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}
