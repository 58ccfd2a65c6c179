//! Lock-step comparison of an RTL back-end with a golden model
//! (`cosim.md`, "One cycle" and "On a difference").

use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ports::UnitSpec;
use sim_model::GoldenModel;

use crate::backend::RtlBackend;
use crate::stimulus::Stimulus;

/// Makes a fresh RTL instance in its power-up state (used again to replay a
/// failing run with waveforms on).
pub type BackendFactory<'a> = dyn Fn() -> anyhow::Result<Box<dyn RtlBackend>> + 'a;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Cycles to run, including the reset cycles.
    pub cycles: u64,
    /// Leading cycles with `reset` forced to 1 (at least 1).
    pub reset_cycles: u64,
    /// Where to write the VCD of a failing run (RTL signals and a `golden`
    /// scope); `None` writes none.
    pub vcd_on_mismatch: Option<PathBuf>,
    /// Write a VCD of the whole run here, pass or fail.
    pub vcd_always: Option<PathBuf>,
    /// Input cycles shown before a difference.
    pub history: usize,
    /// Describes the configuration in reports.
    pub config_label: String,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            cycles: 10_000,
            reset_cycles: 2,
            vcd_on_mismatch: None,
            vcd_always: None,
            history: 8,
            config_label: "default".into(),
        }
    }
}

/// A run in which every output agreed on every cycle.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Unit name.
    pub unit: &'static str,
    /// Back-end name.
    pub backend: &'static str,
    /// Cycles simulated.
    pub cycles: u64,
    /// Output values compared.
    pub compared: u64,
    /// Wall time of the lock-step loop.
    pub elapsed: Duration,
    /// Stimulus description (source and seed).
    pub stimulus: String,
}

impl RunSummary {
    /// Simulated cycles per second.
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One output that differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortDiff {
    /// Port name.
    pub port: String,
    /// Golden model's value.
    pub expected: u64,
    /// RTL's value.
    pub actual: u64,
}

/// The outputs whose expected and actual values differ.
pub fn diff_ports(ports: &[ports::PortDesc], expected: &[u64], actual: &[u64]) -> Vec<PortDiff> {
    ports
        .iter()
        .zip(expected.iter().zip(actual))
        .filter(|(_, (e, a))| e != a)
        .map(|(p, (e, a))| PortDiff {
            port: p.name.clone(),
            expected: *e,
            actual: *a,
        })
        .collect()
}

/// The first cycle at which RTL and golden model differed.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Unit name.
    pub unit: &'static str,
    /// Back-end name.
    pub backend: &'static str,
    /// Configuration label.
    pub config: String,
    /// Stimulus description (source and seed).
    pub stimulus: String,
    /// Cycle number (from 0; reset cycles included).
    pub cycle: u64,
    /// Every differing output.
    pub diffs: Vec<PortDiff>,
    /// All outputs of the golden model at that cycle.
    pub expected: Vec<(String, u64)>,
    /// Inputs of the last cycles, oldest first: (cycle, [(port, value)]).
    pub recent_inputs: Vec<(u64, Vec<(String, u64)>)>,
    /// Waveform written, if any.
    pub vcd: Option<PathBuf>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "MISMATCH in {} ({} back-end), configuration {}, stimulus {}, at cycle {}:",
            self.unit, self.backend, self.config, self.stimulus, self.cycle
        )?;
        for d in &self.diffs {
            writeln!(
                f,
                "  {:<18} expected {:#x} ({}), RTL gave {:#x} ({})",
                d.port, d.expected, d.expected, d.actual, d.actual
            )?;
        }
        writeln!(f, "inputs of the last {} cycles:", self.recent_inputs.len())?;
        for (c, vals) in &self.recent_inputs {
            let line: Vec<String> = vals
                .iter()
                .filter(|(_, v)| *v != 0)
                .map(|(n, v)| format!("{n}={v:#x}"))
                .collect();
            writeln!(f, "  cycle {c:>8}: {}", line.join(" "))?;
        }
        match &self.vcd {
            Some(p) => writeln!(
                f,
                "waveform (RTL signals, golden outputs in scope `golden`): {}",
                p.display()
            ),
            None => writeln!(f, "(no waveform requested: pass --vcd FILE)"),
        }
    }
}

impl std::error::Error for Mismatch {}

/// Run `stimulus` through a fresh RTL instance and `M` for `opts.cycles`
/// cycles, comparing every output every cycle after the reset cycles.
pub fn run_lockstep<U, M>(
    params: &U::Params,
    factory: &BackendFactory<'_>,
    stimulus: &mut dyn Stimulus<U>,
    opts: &RunOptions,
) -> anyhow::Result<Result<RunSummary, Box<Mismatch>>>
where
    U: UnitSpec,
    M: GoldenModel<U>,
{
    let in_ports = U::inputs(params);
    let out_ports = U::outputs(params);
    let reset_idx = in_ports
        .iter()
        .position(|p| p.name == "reset")
        .expect("every unit has a reset input");
    let mut rtl = factory()?;
    if let Some(p) = &opts.vcd_always {
        rtl.start_vcd(p)?;
    }
    let mut golden = M::new(params);
    let mut rtl_out = vec![0u64; out_ports.len()];
    let mut recorded: Vec<Vec<u64>> = Vec::new();
    let record = opts.vcd_on_mismatch.is_some() || opts.vcd_always.is_some();
    let mut golden_rows: Vec<Vec<u64>> = Vec::new();
    let mut history: VecDeque<(u64, Vec<u64>)> = VecDeque::with_capacity(opts.history + 1);
    let mut last_out = U::Out::default();
    let mut compared = 0u64;
    let start = Instant::now();
    let reset_cycles = opts.reset_cycles.max(1);
    for cycle in 0..opts.cycles {
        let mut inp = stimulus.next(cycle, &last_out);
        let mut flat = U::in_values(params, &inp);
        if cycle < reset_cycles {
            flat[reset_idx] = 1;
            inp = U::in_from_values(params, &flat);
        }
        // Mask each input to its port width: both sides see the same bits.
        for (v, p) in flat.iter_mut().zip(&in_ports) {
            *v &= ports::mask(p.width);
        }
        let expected = golden.outputs();
        rtl.cycle(&flat, &mut rtl_out);
        let exp_flat = U::out_values(params, &expected);
        if record {
            recorded.push(flat.clone());
            golden_rows.push(exp_flat.clone());
        }
        if opts.history > 0 {
            if history.len() == opts.history {
                history.pop_front();
            }
            history.push_back((cycle, flat.clone()));
        }
        if cycle >= reset_cycles {
            compared += exp_flat.len() as u64;
            if exp_flat != rtl_out {
                let diffs = diff_ports(&out_ports, &exp_flat, &rtl_out);
                let mut vcd = None;
                if let Some(path) = opts.vcd_always.clone() {
                    rtl.finish_vcd()?;
                    merge_into(&path, &out_ports, &golden_rows)?;
                    vcd = Some(path);
                } else if let Some(path) = opts.vcd_on_mismatch.clone() {
                    drop(rtl);
                    replay_with_vcd(factory, &recorded, out_ports.len(), &path)?;
                    merge_into(&path, &out_ports, &golden_rows)?;
                    vcd = Some(path);
                }
                let name_vals = |vals: &[u64]| -> Vec<(String, u64)> {
                    in_ports
                        .iter()
                        .zip(vals)
                        .map(|(p, v)| (p.name.clone(), *v))
                        .collect()
                };
                return Ok(Err(Box::new(Mismatch {
                    unit: U::NAME,
                    backend: backend_name(factory),
                    config: opts.config_label.clone(),
                    stimulus: stimulus.describe(),
                    cycle,
                    diffs,
                    expected: out_ports
                        .iter()
                        .zip(&exp_flat)
                        .map(|(p, v)| (p.name.clone(), *v))
                        .collect(),
                    recent_inputs: history.iter().map(|(c, v)| (*c, name_vals(v))).collect(),
                    vcd,
                })));
            }
        }
        golden.step(&inp);
        last_out = expected;
    }
    let elapsed = start.elapsed();
    let name = rtl.name();
    if let Some(path) = &opts.vcd_always {
        rtl.finish_vcd()?;
        merge_into(path, &out_ports, &golden_rows)?;
    }
    Ok(Ok(RunSummary {
        unit: U::NAME,
        backend: name,
        cycles: opts.cycles,
        compared,
        elapsed,
        stimulus: stimulus.describe(),
    }))
}

fn backend_name(factory: &BackendFactory<'_>) -> &'static str {
    factory().map(|b| b.name()).unwrap_or("?")
}

/// Re-run the recorded inputs on a fresh instance with the VCD on.
fn replay_with_vcd(
    factory: &BackendFactory<'_>,
    recorded: &[Vec<u64>],
    n_out: usize,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let mut rtl = factory()?;
    rtl.start_vcd(path)?;
    let mut out = vec![0u64; n_out];
    for flat in recorded {
        rtl.cycle(flat, &mut out);
    }
    rtl.finish_vcd()
}

/// Add the golden scope to the VCD at `path` (temp file, then rename).
fn merge_into(
    path: &std::path::Path,
    out_ports: &[ports::PortDesc],
    golden_rows: &[Vec<u64>],
) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let merged = crate::vcd::merge_golden(&text, out_ports, golden_rows);
    let tmp = path.with_extension("vcd.tmp");
    std::fs::write(&tmp, merged)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
