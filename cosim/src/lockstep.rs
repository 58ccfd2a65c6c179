//! Lock-step comparison of an RTL back-end with a golden model
//! (`cosim.md`, "One cycle" and "On a difference").
//!
//! [`Checker`] is the one lock-step checker: every cycle it steps the RTL
//! with exactly the inputs the golden model gets and compares every output.
//! It is a [`Probe`], so the same checker runs beside a golden model driven
//! by a stimulus ([`run_lockstep`], `warpgen cosim`) and beside the golden
//! model inside the SM harness (`warpgen run --cosim UNIT`). On the first
//! difference it returns the structured [`Mismatch`] (unit, back-end,
//! configuration, stimulus, cycle, each differing port, all golden outputs,
//! the inputs of the last cycles) and, when asked, writes the waveform with
//! the golden outputs merged in.
//!
//! Outputs are compared on every cycle after the first cycle with `reset`
//! high (the outputs before any reset edge come from the power-up state,
//! which is random on the Verilator back-end).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use golden::check::{Probe, ProbeError};
use golden::GoldenModel;
use ports::{PortDesc, UnitSpec};

pub use golden::check::{diff_ports, Mismatch, PortDiff};

use crate::backend::RtlBackend;
use crate::stimulus::Stimulus;

/// Makes a fresh RTL instance in its power-up state (used again to replay a
/// failing run with waveforms on).
pub type BackendFactory<'a> = dyn Fn() -> anyhow::Result<Box<dyn RtlBackend>> + 'a;

/// Which waveform a [`Checker`] writes.
#[derive(Clone, Debug, Default)]
pub enum Waveform {
    /// None.
    #[default]
    Off,
    /// The whole run, pass or fail, to this file.
    Always(PathBuf),
    /// Only when the run fails: with a back-end factory the failing run is
    /// replayed with tracing on (no tracing cost while passing); without
    /// one the run is traced from the start.
    OnMismatch(PathBuf),
}

/// What a [`Checker`] reports and records.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Input cycles shown before a difference.
    pub history: usize,
    /// Waveform to write.
    pub waveform: Waveform,
    /// Describes the configuration in reports (`NAME=value ...`).
    pub config_label: String,
    /// Describes the stimulus in reports (`random(seed=7)`, `SM harness`).
    pub stimulus: String,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            history: 8,
            waveform: Waveform::Off,
            config_label: "default".into(),
            stimulus: "unknown".into(),
        }
    }
}

/// The lock-step checker of one unit's RTL (module documentation).
pub struct Checker<'f> {
    unit: &'static str,
    rtl: Option<Box<dyn RtlBackend>>,
    backend: &'static str,
    factory: Option<&'f BackendFactory<'f>>,
    ins: Vec<PortDesc>,
    outs: Vec<PortDesc>,
    reset_idx: Option<usize>,
    out: Vec<u64>,
    /// This cycle's inputs, masked (reused every cycle).
    flat: Vec<u64>,
    /// Mask of each input port's width.
    in_masks: Vec<u64>,
    cycle: u64,
    armed: bool,
    history: VecDeque<(u64, Vec<u64>)>,
    /// Inputs of every cycle (to replay a failing run with tracing on).
    recorded: Option<Vec<Vec<u64>>>,
    /// Golden outputs of every cycle (for the waveform's `golden` scope).
    golden_rows: Option<Vec<Vec<u64>>>,
    /// Whether each cycle's outputs differed (the waveform's `mismatch`).
    mismatch_rows: Option<Vec<bool>>,
    opts: CheckOptions,
    compared: u64,
    failed: bool,
}

impl<'f> Checker<'f> {
    /// A checker of unit `U` with parameters `p` around a fresh RTL
    /// instance. `factory`, when given, makes instances to replay a failing
    /// run with the waveform on.
    pub fn new<U: UnitSpec>(
        p: &U::Params,
        mut rtl: Box<dyn RtlBackend>,
        factory: Option<&'f BackendFactory<'f>>,
        opts: CheckOptions,
    ) -> anyhow::Result<Self> {
        let ins = U::inputs(p);
        let outs = U::outputs(p);
        let (trace_now, replay) = match &opts.waveform {
            Waveform::Off => (None, false),
            Waveform::Always(path) => (Some(path.clone()), false),
            // No factory to replay with: trace live, beside the target, and
            // move it into place only if the run fails (`finish` removes it
            // otherwise, and an existing file at `path` is left alone).
            Waveform::OnMismatch(path) if factory.is_none() => (Some(live_trace_path(path)), false),
            Waveform::OnMismatch(_) => (None, true),
        };
        if let Some(path) = &trace_now {
            rtl.start_vcd(path)?;
        }
        let tracing = !matches!(opts.waveform, Waveform::Off);
        Ok(Checker {
            unit: U::NAME,
            backend: rtl.name(),
            rtl: Some(rtl),
            factory,
            reset_idx: ins.iter().position(|d| d.name == "reset"),
            out: vec![0; outs.len()],
            flat: Vec::with_capacity(ins.len()),
            in_masks: ins.iter().map(|d| ports::mask(d.width)).collect(),
            ins,
            outs,
            cycle: 0,
            armed: false,
            history: VecDeque::with_capacity(opts.history + 1),
            recorded: replay.then(Vec::new),
            golden_rows: tracing.then(Vec::new),
            mismatch_rows: tracing.then(Vec::new),
            opts,
            compared: 0,
            failed: false,
        })
    }

    /// Output values compared so far.
    pub fn compared(&self) -> u64 {
        self.compared
    }

    /// Cycles checked so far.
    pub fn cycles(&self) -> u64 {
        self.cycle
    }

    /// The back-end's name.
    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// One cycle: step the RTL with `inputs` (masked to the port widths)
    /// and compare its outputs with `golden`.
    pub fn check(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
        if self.failed {
            return Err(ProbeError::Io(
                "the lock-step checker already reported a difference".into(),
            ));
        }
        // One reused buffer: no allocation per cycle unless the inputs are
        // kept (history, replay).
        self.flat.clear();
        self.flat
            .extend(inputs.iter().zip(&self.in_masks).map(|(v, m)| v & m));
        let rtl = self.rtl.as_mut().expect("the RTL instance is live");
        rtl.cycle(&self.flat, &mut self.out);
        if let Some(rows) = self.golden_rows.as_mut() {
            rows.push(golden.to_vec());
        }
        if self.opts.history > 0 {
            // Reuse the oldest row's buffer once the history is full.
            let mut row = if self.history.len() == self.opts.history {
                self.history.pop_front().map(|(_, v)| v).unwrap_or_default()
            } else {
                Vec::with_capacity(self.flat.len())
            };
            row.clear();
            row.extend_from_slice(&self.flat);
            self.history.push_back((self.cycle, row));
        }
        let reset = self.reset_idx.is_some_and(|i| self.flat[i] != 0);
        if let Some(rec) = self.recorded.as_mut() {
            rec.push(self.flat.clone());
        }
        let differs = self.armed && golden != self.out.as_slice();
        if let Some(rows) = self.mismatch_rows.as_mut() {
            rows.push(differs);
        }
        if self.armed {
            self.compared += golden.len() as u64;
            if differs {
                self.failed = true;
                let m = self.mismatch(golden)?;
                return Err(ProbeError::Mismatch(m));
            }
        }
        if reset {
            self.armed = true;
        }
        self.cycle += 1;
        Ok(())
    }

    /// The report of a difference at the current cycle, writing the
    /// waveform if one was asked for.
    fn mismatch(&mut self, golden: &[u64]) -> Result<Box<Mismatch>, ProbeError> {
        let io = |e: anyhow::Error| ProbeError::Io(format!("{e:#}"));
        let diffs = diff_ports(&self.outs, golden, &self.out);
        let mut vcd = None;
        match self.opts.waveform.clone() {
            Waveform::Off => {}
            Waveform::Always(path) => {
                self.close_vcd(&path).map_err(io)?;
                vcd = Some(path);
            }
            Waveform::OnMismatch(path) => {
                if let (Some(factory), Some(recorded)) = (self.factory, self.recorded.take()) {
                    self.rtl = None;
                    replay_with_vcd(factory, &recorded, self.outs.len(), &path).map_err(io)?;
                    self.merge_into(&path).map_err(io)?;
                } else {
                    let live = live_trace_path(&path);
                    self.close_vcd(&live).map_err(io)?;
                    std::fs::rename(&live, &path).map_err(|e| {
                        ProbeError::Io(format!(
                            "cannot move the waveform to {}: {e}",
                            path.display()
                        ))
                    })?;
                    move_save_file(&live, &path).map_err(io)?;
                }
                vcd = Some(path);
            }
        }
        let named = |ports: &[PortDesc], vals: &[u64]| -> Vec<(String, u64)> {
            ports
                .iter()
                .zip(vals)
                .map(|(p, v)| (p.name.clone(), *v))
                .collect()
        };
        Ok(Box::new(Mismatch {
            unit: self.unit,
            backend: self.backend,
            config: self.opts.config_label.clone(),
            stimulus: self.opts.stimulus.clone(),
            cycle: self.cycle,
            diffs,
            expected: named(&self.outs, golden),
            recent_inputs: self
                .history
                .iter()
                .map(|(c, v)| (*c, named(&self.ins, v)))
                .collect(),
            vcd,
        }))
    }

    /// Close the RTL's waveform and merge the golden scope into it.
    fn close_vcd(&mut self, path: &Path) -> anyhow::Result<()> {
        if let Some(rtl) = self.rtl.as_mut() {
            rtl.finish_vcd()?;
        }
        self.merge_into(path)
    }

    /// Add the golden scope and the `mismatch` marker to the VCD at `path`
    /// (temporary file, then rename) and write its GTKWave save file beside
    /// it ([`crate::gtkw`]).
    fn merge_into(&self, path: &Path) -> anyhow::Result<()> {
        let marks = self.mismatch_rows.as_deref().unwrap_or(&[]);
        let text = std::fs::read_to_string(path)?;
        let merged = crate::vcd::merge_golden(
            &text,
            &self.outs,
            self.golden_rows.as_deref().unwrap_or(&[]),
            marks,
        );
        let tmp = path.with_extension("vcd.tmp");
        std::fs::write(&tmp, &merged)?;
        std::fs::rename(&tmp, path)?;
        let header = &merged[..crate::vcd::header_end(&merged).unwrap_or(merged.len())];
        let layout = crate::gtkw::Layout {
            unit: self.unit,
            inputs: &self.ins,
            outputs: &self.outs,
            first_difference: marks.iter().position(|&m| m).map(|c| c as u64),
        };
        let gtkw = crate::gtkw::beside(path);
        let save = crate::gtkw::save_file(header, path, &gtkw, &layout);
        std::fs::write(&gtkw, save)?;
        Ok(())
    }

    /// The run ended: write the whole-run waveform, if asked for.
    pub fn finish(&mut self) -> anyhow::Result<()> {
        match self.opts.waveform.clone() {
            Waveform::Always(path) if !self.failed => self.close_vcd(&path)?,
            Waveform::OnMismatch(path) if !self.failed && self.recorded.is_none() => {
                // Traced live for a difference that did not come.
                if let Some(rtl) = self.rtl.as_mut() {
                    rtl.finish_vcd()?;
                }
                let _ = std::fs::remove_file(live_trace_path(&path));
            }
            _ => {}
        }
        Ok(())
    }
}

impl Probe for Checker<'_> {
    fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
        self.check(inputs, golden)
    }
    fn finish(&mut self) -> Result<(), ProbeError> {
        Checker::finish(self).map_err(|e| ProbeError::Io(format!("{e:#}")))
    }
}

/// How to run [`run_lockstep`].
#[derive(Clone, Debug)]
pub struct LockstepOptions {
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

impl LockstepOptions {
    /// Whether the run may write a waveform (so the RTL must be built with
    /// tracing).
    pub fn wants_vcd(&self) -> bool {
        self.vcd_on_mismatch.is_some() || self.vcd_always.is_some()
    }
}

impl Default for LockstepOptions {
    fn default() -> Self {
        LockstepOptions {
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

/// Cycles handed from the golden thread to the RTL thread at a time.
const BATCH: usize = 1024;

/// Run `stimulus` through a fresh RTL instance and the golden model `M` for
/// `opts.cycles` cycles, with `reset` forced high in the first
/// `opts.reset_cycles`, checking every cycle with a [`Checker`].
///
/// The golden model and the stimulus run on a second thread, ahead of the
/// RTL, and hand over each cycle's inputs and expected outputs in batches
/// of [`BATCH`] cycles; the RTL and the comparison run on the calling
/// thread. On two cores a run therefore costs about what the slower of the
/// two costs, not their sum. The stimulus still sees the golden model's
/// outputs of the previous cycle, and the first difference stops both.
pub fn run_lockstep<U, M>(
    params: &U::Params,
    factory: &BackendFactory<'_>,
    stimulus: &mut (dyn Stimulus<U> + Send),
    opts: &LockstepOptions,
) -> anyhow::Result<Result<RunSummary, Box<Mismatch>>>
where
    U: UnitSpec,
    M: GoldenModel<U> + Send,
{
    let reset_idx = U::inputs(params)
        .iter()
        .position(|p| p.name == "reset")
        .ok_or_else(|| anyhow::anyhow!("{}: no `reset` input port", U::NAME))?;
    let waveform = match (&opts.vcd_always, &opts.vcd_on_mismatch) {
        (Some(p), _) => Waveform::Always(p.clone()),
        (None, Some(p)) => Waveform::OnMismatch(p.clone()),
        (None, None) => Waveform::Off,
    };
    let described = stimulus.describe();
    let mut checker = Checker::new::<U>(
        params,
        factory()?,
        Some(factory),
        CheckOptions {
            history: opts.history,
            waveform,
            config_label: opts.config_label.clone(),
            stimulus: described.clone(),
        },
    )?;
    let n_in = U::inputs(params).len();
    let n_out = U::outputs(params).len();
    let reset_cycles = opts.reset_cycles.max(1);
    let total = opts.cycles;
    let start = Instant::now();
    let outcome: Result<(), ProbeError> = std::thread::scope(|s| {
        // Bounded: the golden thread runs at most a few batches ahead.
        let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<u64>, Vec<u64>)>(4);
        // Checked batches come back to be refilled (no allocation per
        // batch, and no buffer freed on the other thread).
        let (free_tx, free_rx) = std::sync::mpsc::channel::<(Vec<u64>, Vec<u64>)>();
        s.spawn(move || {
            let mut golden = M::new(params);
            let mut last_out = U::Out::default();
            let mut cycle = 0u64;
            while cycle < total {
                let n = (total - cycle).min(BATCH as u64) as usize;
                let (mut ins, mut exps) = free_rx.try_recv().unwrap_or_else(|_| {
                    (
                        Vec::with_capacity(BATCH * n_in),
                        Vec::with_capacity(BATCH * n_out),
                    )
                });
                ins.clear();
                exps.clear();
                for _ in 0..n {
                    let mut inp = stimulus.next(cycle, &last_out);
                    let at = ins.len();
                    U::write_in_values(params, &inp, &mut ins);
                    if cycle < reset_cycles {
                        ins[at + reset_idx] = 1;
                        inp = U::in_from_values(params, &ins[at..]);
                    }
                    let expected = golden.outputs();
                    U::write_out_values(params, &expected, &mut exps);
                    golden.step(&inp);
                    last_out = expected;
                    cycle += 1;
                }
                // The RTL thread hung up: it found a difference.
                if tx.send((ins, exps)).is_err() {
                    break;
                }
            }
        });
        for (ins, exps) in rx {
            // Every unit has a reset input and at least one output.
            for (i, e) in ins.chunks_exact(n_in).zip(exps.chunks_exact(n_out)) {
                checker.check(i, e)?;
            }
            let _ = free_tx.send((ins, exps));
        }
        Ok(())
    });
    match outcome {
        Ok(()) => {}
        Err(ProbeError::Mismatch(m)) => return Ok(Err(m)),
        Err(ProbeError::Io(e)) => anyhow::bail!("{e}"),
    }
    let elapsed = start.elapsed();
    checker.finish()?;
    Ok(Ok(RunSummary {
        unit: U::NAME,
        backend: checker.backend(),
        cycles: opts.cycles,
        compared: checker.compared(),
        elapsed,
        stimulus: described,
    }))
}

/// Re-run the recorded inputs on a fresh instance with the VCD on.
fn replay_with_vcd(
    factory: &BackendFactory<'_>,
    recorded: &[Vec<u64>],
    n_out: usize,
    path: &Path,
) -> anyhow::Result<()> {
    let mut rtl = factory()?;
    rtl.start_vcd(path)?;
    let mut out = vec![0u64; n_out];
    for flat in recorded {
        rtl.cycle(flat, &mut out);
    }
    rtl.finish_vcd()
}

/// Move the GTKWave save file of the waveform `from` (now moved to `to`)
/// beside `to`, naming it.
fn move_save_file(from: &Path, to: &Path) -> anyhow::Result<()> {
    let old = crate::gtkw::beside(from);
    let new = crate::gtkw::beside(to);
    let text = std::fs::read_to_string(&old)?;
    std::fs::write(&new, crate::gtkw::retarget(&text, to, &new))?;
    std::fs::remove_file(&old)?;
    Ok(())
}

/// Where a run that may fail traces live: `<path>.partial`.
fn live_trace_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}
