//! The switching activity of a unit's input ports, measured in a harness
//! run on a bundled kernel (`warpgen report --activity KERNEL`), for
//! OpenSTA's `report_power`.
//!
//! Debian's OpenSTA 2.0.17 has neither `read_vcd` nor `read_saif`, so no
//! waveform is written: a [`Probe`] beside the unit's golden model counts,
//! for every bit of every input port, its transitions and the cycles it is
//! 1, over at most [`MAX_ACTIVITY_CYCLES`] cycles. Each bit's activity
//! (transitions per clock period) and duty go to OpenSTA as
//! `set_power_activity -input_ports`; OpenSTA propagates them through the
//! netlist to the registers and gates.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use golden::check::{Probe, ProbeError};
use harness::Harness;
use ports::PortDesc;

use crate::run_args::RunArgs;
use crate::unit_table::UnitCommands;

/// The most cycles of a run whose inputs are counted.
pub const MAX_ACTIVITY_CYCLES: u64 = 200_000;

/// The bundled kernel each unit's activity is recorded on by default, with
/// the small parameters that keep the run to seconds.
pub fn default_activity_kernel(unit: &str) -> (&'static str, &'static [&'static str]) {
    match unit {
        "ba_tag_array" => (
            "kernels/reuse.toml",
            &["param.NTHREADS=4096", "param.ROUNDS=2"],
        ),
        "dac_expander" => ("kernels/dac_example.toml", &["param.NUM=4096"]),
        _ => (
            "kernels/lps.toml",
            &["param.NX=64", "param.NY=32", "param.NZ=4"],
        ),
    }
}

/// Per-bit counts of the inputs.
#[derive(Default)]
struct Counts {
    cycles: u64,
    prev: Vec<u64>,
    toggles: Vec<Vec<u64>>,
    ones: Vec<Vec<u64>>,
}

/// A [`Probe`] that counts the inputs' transitions.
struct ActivityProbe {
    widths: Vec<u32>,
    counts: Arc<Mutex<Counts>>,
}

impl Probe for ActivityProbe {
    fn cycle(&mut self, inputs: &[u64], _golden: &[u64]) -> Result<(), ProbeError> {
        let mut c = self.counts.lock().expect("no panic holds the lock");
        if c.cycles >= MAX_ACTIVITY_CYCLES {
            return Ok(());
        }
        if c.toggles.is_empty() {
            c.toggles = self.widths.iter().map(|&w| vec![0; w as usize]).collect();
            c.ones = c.toggles.clone();
            c.prev = inputs.to_vec();
        }
        for (i, (&v, &w)) in inputs.iter().zip(&self.widths).enumerate() {
            let changed = v ^ c.prev[i];
            for b in 0..w as usize {
                c.toggles[i][b] += (changed >> b) & 1;
                c.ones[i][b] += (v >> b) & 1;
            }
            c.prev[i] = v;
        }
        c.cycles += 1;
        Ok(())
    }
}

/// The kernel file `spec` names: a path to a file, or a bundled kernel's
/// name (`lps` or `lps.toml` under `kernels/`).
pub fn resolve_kernel(spec: &str) -> anyhow::Result<PathBuf> {
    let p = Path::new(spec);
    if p.is_file() {
        return Ok(p.to_path_buf());
    }
    let name = spec.strip_suffix(".toml").unwrap_or(spec);
    let bundled = Path::new("kernels").join(format!("{name}.toml"));
    if !spec.contains('/') && bundled.is_file() {
        return Ok(bundled);
    }
    anyhow::bail!(
        "--activity `{spec}`: no such kernel file, and no bundled kernel kernels/{name}.toml; \
         give a kernel file's path or a bundled kernel's name (e.g. --activity lps), run from the \
         repository root"
    )
}

/// The input ports' activity of unit `u` in a harness run of `kernel` (with
/// the unit in its role and its paper's settings, plus `params`), and a
/// one-line description of the source.
pub fn measure_activity(
    u: &dyn UnitCommands,
    kernel: &Path,
    params: &[&str],
) -> anyhow::Result<(Vec<eda::PortActivity>, String)> {
    let mut args = RunArgs::new(kernel);
    args.quiet = true;
    args.set = u.combination().settings;
    args.set.extend(params.iter().map(|s| s.to_string()));
    let (cfg, k) = crate::run::prepare(&args)
        .with_context(|| format!("--activity: preparing {}", kernel.display()))?;
    let ports: Vec<PortDesc> = u.harness_inputs(&cfg, &k)?;
    let counts = Arc::new(Mutex::new(Counts::default()));
    let probe = ActivityProbe {
        widths: ports.iter().map(|p| p.width).collect(),
        counts: counts.clone(),
    };
    Harness::new(&k, &cfg)
        .probe(u.name(), Box::new(probe))
        .run()
        .with_context(|| format!("--activity: running {} for {}", kernel.display(), u.name()))?;
    let c = counts.lock().expect("no panic holds the lock");
    if c.cycles == 0 {
        anyhow::bail!(
            "--activity {}: the run never drove {} (no cycle recorded); pick a kernel that uses it",
            kernel.display(),
            u.name()
        );
    }
    let n = c.cycles as f64;
    let mut out = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        for b in 0..p.width as usize {
            let port = if p.width == 1 {
                p.name.clone()
            } else {
                format!("{}[{b}]", p.name)
            };
            out.push(eda::PortActivity {
                port,
                activity: c.toggles[i][b] as f64 / n,
                duty: c.ones[i][b] as f64 / n,
            });
        }
    }
    let total: f64 = out.iter().map(|a| a.activity).sum();
    let src = format!(
        "measured: the inputs of {} in a harness run of {} ({}), {} cycles counted (cap \
         {MAX_ACTIVITY_CYCLES}); mean {:.4} transitions per input bit per cycle; OpenSTA \
         propagates them through the netlist (ports matched by name onto the report's \
         configuration)",
        u.name(),
        kernel.display(),
        args.set.join(" "),
        c.cycles,
        total / out.len().max(1) as f64
    );
    Ok((out, src))
}
