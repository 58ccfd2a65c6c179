//! The harness's side of `warpgen explore --kernel` (issue 31, item 3): at
//! each point of the grid the unit runs in its role slot of the SM harness
//! with the point's parameter values, so the cost of the point (area,
//! fmax) stands beside what it buys, as the papers' sensitivity studies
//! show it (Snake's Tail size, CAPS's PerCTA entries, DAC's queue depth).
//!
//! **The runs.** One baseline run of the kernel on the preset with the
//! unit's slot at the harness's own behaviour (no prefetcher, the LRU L1,
//! no expander), then one run per point with the unit selected and every
//! swept parameter set as a machine override `KEY.NAME=v` (`caps.
//! PERCTA_ENTRIES=16`). The unit's other parameters follow the machine
//! and the kernel as in `warpgen run` (the number of warps, for example,
//! is the machine's): a `--config` file shapes the RTL of every point, not
//! the harness's unit. `--set` settings apply to every run, baseline
//! included.
//!
//! **The figure of merit**, per role: a prefetcher's coverage (useful
//! prefetches over the demand misses without prefetching, with its
//! accuracy beside it); the L1's miss rate (the baseline's beside it);
//! the expander's instruction reduction (one minus its warp instructions
//! over the baseline's, DAC's affine warp included). Every point also
//! gets the speed-up over the baseline (cycles).

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use harness::{Metrics, Role};
use serde::{Deserialize, Serialize};

use super::grid::Point;
use crate::run::{prepare, run_prepared};
use crate::run_args::RunArgs;

/// Where the harness runs each point.
#[derive(Clone, Debug)]
pub struct BenefitRun {
    /// The kernel file (or Accel-Sim trace) run at every point.
    pub kernel: PathBuf,
    /// The machine preset.
    pub preset: String,
    /// `KEY=VALUE` settings of every run, baseline included.
    pub sets: Vec<String>,
}

/// The baseline run of a [`BenefitRun`]: the unit's slot at the harness's
/// own behaviour.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// What is run.
    pub run: BenefitRun,
    /// The unit's role slot.
    pub role: Role,
    /// The choice that selects the unit in its slot (`caps`).
    pub choice: &'static str,
    /// The prefix of the unit's machine overrides (`caps`).
    pub key: &'static str,
    /// The baseline's metrics.
    pub metrics: Metrics,
}

/// What the unit buys at one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Benefit {
    /// The kernel run.
    pub kernel: String,
    /// The machine preset.
    pub preset: String,
    /// The settings of the point's run: `--set`'s, the unit's selection
    /// and the swept values as overrides.
    pub sets: Vec<String>,
    /// The baseline's cycles.
    pub base_cycles: u64,
    /// The point's cycles.
    pub cycles: u64,
    /// `base_cycles / cycles`.
    pub speedup: f64,
    /// The name of the unit's figure of merit (`coverage`, `L1 miss rate`,
    /// `instruction reduction`).
    pub figure: String,
    /// Its value at the point (a fraction).
    pub value: f64,
    /// Its value in the baseline, where it has one (the L1's miss rate).
    pub base_value: Option<f64>,
    /// Whether a higher value is better (false for a miss rate).
    pub higher_is_better: bool,
    /// A prefetcher's accuracy (useful over issued prefetches).
    pub accuracy: Option<f64>,
}

/// One harness run of `run` with `extra` settings after its own.
fn run_kernel(run: &BenefitRun, extra: &[String]) -> anyhow::Result<Metrics> {
    let mut args = RunArgs::new(&run.kernel);
    args.quiet = true;
    args.preset = run.preset.clone();
    args.set = run.sets.clone();
    args.set.extend(extra.iter().cloned());
    let (cfg, k) = prepare(&args)?;
    run_prepared(&args, &cfg, &k)
}

impl Baseline {
    /// Run the baseline of `run` for `unit` (a unit name).
    pub fn measure(unit: &str, run: BenefitRun) -> anyhow::Result<Baseline> {
        let entry = harness::registry::unit(unit)
            .ok_or_else(|| anyhow!("{unit}: no harness role slot runs this unit"))?;
        let role = entry.role();
        let native = format!("{}={}", role.key(), role.native().name);
        let metrics = run_kernel(&run, &[native]).with_context(|| {
            format!(
                "the baseline run of {} on preset {}",
                run.kernel.display(),
                run.preset
            )
        })?;
        Ok(Baseline {
            run,
            role,
            choice: entry.choices()[0].name,
            key: entry.key(),
            metrics,
        })
    }

    /// The settings of `point`'s run after `--set`'s: the unit's
    /// selection, then each swept value as an override.
    pub fn point_sets(&self, point: &Point) -> Vec<String> {
        let mut s = vec![format!("{}={}", self.role.key(), self.choice)];
        s.extend(point.iter().map(|(n, v)| format!("{}.{n}={v}", self.key)));
        s
    }

    /// Run `point` and measure what the unit buys. An error when the
    /// harness refuses the point (the caller marks the point with it).
    pub fn benefit(&self, point: &Point) -> anyhow::Result<Benefit> {
        let extra = self.point_sets(point);
        let m = run_kernel(&self.run, &extra)?;
        let base = &self.metrics;
        let mut b = Benefit {
            kernel: self.run.kernel.display().to_string(),
            preset: self.run.preset.clone(),
            sets: self.run.sets.iter().chain(&extra).cloned().collect(),
            base_cycles: base.cycles,
            cycles: m.cycles,
            speedup: ratio(base.cycles as f64, m.cycles as f64),
            figure: String::new(),
            value: 0.0,
            base_value: None,
            higher_is_better: true,
            accuracy: None,
        };
        match self.role {
            Role::Prefetcher => {
                let p = m
                    .prefetch
                    .as_ref()
                    .ok_or_else(|| anyhow!("the run reported no prefetch metrics"))?;
                b.figure = "coverage".into();
                b.value = p.coverage;
                b.accuracy = Some(p.accuracy);
            }
            Role::L1 => {
                b.figure = "L1 miss rate".into();
                b.value = m.l1.miss_rate;
                b.base_value = Some(base.l1.miss_rate);
                b.higher_is_better = false;
            }
            Role::Expander => {
                b.figure = "instruction reduction".into();
                b.value = 1.0 - ratio(m.warp_instructions as f64, base.warp_instructions as f64);
            }
        }
        Ok(b)
    }
}

/// `a / b`, 0 when `b` is 0.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_selects_the_unit_and_overrides_its_parameters() {
        let k = concat!(env!("CARGO_MANIFEST_DIR"), "/../kernels/vector_add.toml");
        let run = BenefitRun {
            kernel: k.into(),
            preset: "fermi".into(),
            sets: vec![],
        };
        let b = Baseline::measure("caps_prefetcher", run).unwrap();
        let p: Point = vec![("PERCTA_ENTRIES".into(), 4)];
        assert_eq!(
            b.point_sets(&p),
            vec!["prefetcher=caps", "caps.PERCTA_ENTRIES=4"]
        );
        let got = b.benefit(&p).unwrap();
        assert_eq!(got.figure, "coverage");
        assert!(got.accuracy.is_some() && got.cycles > 0 && got.speedup > 0.0);
        assert_eq!(got.base_cycles, b.metrics.cycles);
        // A value the unit's parameters refuse is the point's error.
        let e = b.benefit(&vec![("PERCTA_ENTRIES".into(), 0)]).unwrap_err();
        assert!(format!("{e:#}").contains("PERCTA_ENTRIES"), "{e:#}");
    }
}
