//! `warpgen bench-harness`: the SM harness's speed (simulated SM cycles
//! per second) on the bundled kernels, without a unit, with each unit's
//! golden model (the variants of [`crate::combos::bench_variants`]) and,
//! with `--cosim`, with each unit's RTL in lock-step.

use std::path::PathBuf;
use std::time::Instant;

use harness::MachineConfig;

use crate::combos::bench_variants;
use crate::run::{prepare, run_prepared};
use crate::run_args::RunArgs;
use crate::unit_table::{self, UnitCommands, UNITS};

/// One line of the harness benchmark.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HarnessBenchRow {
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
    /// Warp instructions the run simulated (in an all-SM run, every
    /// SM's).
    pub instructions: u64,
    /// Warp instructions simulated per second: the rate of simulated
    /// work, which, unlike the cycle rate, does not move when a mechanism
    /// changes how many cycles the same instructions take.
    pub instructions_per_second: f64,
}

/// Benchmark of the harness: simulated SM cycles per second for each
/// kernel file under each variant: `baseline` (no unit, idle cycles
/// skipped), `no-skip` (no unit, every cycle simulated), each unit's golden
/// model in its role as the comparisons run it, by its first choice, and
/// the pairs units ask for ([`crate::combos::bench_variants`]), `all-sms`
/// (every SM of 15 with the memory hierarchy; its cycles are every SM's,
/// so the rate is SM-cycles per second), `all-sms+` the first unit's
/// variant, and, with `cosim`, `cosim-UNIT` for every unit of the table
/// (its RTL in lock-step beside its golden model, the unit enabled in its
/// role). Each measurement is the best of `repeat` runs.
pub fn bench_harness(
    kernels: &[PathBuf],
    repeat: u32,
    cosim: bool,
) -> anyhow::Result<Vec<HarnessBenchRow>> {
    let mut variants = golden_variants();
    if cosim {
        // Each lock-step run repeats the first golden-only variant that
        // runs the unit's golden model (a prefetcher with its paper's
        // scheduler, say), so the two columns time the same simulation.
        for u in UNITS {
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
                .find(|(_, sets, _)| runs_unit(sets, *u))
                .map(|(_, sets, _)| sets.clone())
                .unwrap_or_default();
            variants.push((format!("cosim-{}", u.name()), sets, Some(u.name())));
        }
    }
    let mut rows = Vec::new();
    for path in kernels {
        for (name, sets, unit) in &variants {
            let mut args = RunArgs::new(path);
            args.set = sets.clone();
            args.quiet = true;
            args.cosim = unit.map(|u| u.to_string());
            let (cfg, kernel) = prepare(&args)?;
            let mut best = f64::INFINITY;
            let mut cycles = 0;
            let mut instructions = 0;
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
                instructions = m.warp_instructions;
            }
            rows.push(HarnessBenchRow {
                kernel: kernel.name.clone(),
                variant: name.clone(),
                sets: args.set.clone(),
                cycles,
                seconds: best,
                cycles_per_second: cycles as f64 / best.max(1e-9),
                instructions,
                instructions_per_second: instructions as f64 / best.max(1e-9),
            });
        }
    }
    Ok(rows)
}

/// The golden-only variants: name, settings, no lock-step unit.
type Variant = (String, Vec<String>, Option<&'static str>);

/// `baseline`, `no-skip`, every unit's variant and pair, `all-sms` and
/// `all-sms+` the first unit's.
fn golden_variants() -> Vec<Variant> {
    let units = bench_variants(&unit_table::combinations());
    let all_sms = vec!["sms=all".to_string(), "mem_model=hier".to_string()];
    let mut v: Vec<Variant> = vec![
        ("baseline".into(), vec![], None),
        ("no-skip".into(), vec!["fast_forward=false".into()], None),
    ];
    v.extend(
        units
            .iter()
            .map(|c| (c.label.clone(), c.settings.clone(), None)),
    );
    v.push(("all-sms".into(), all_sms.clone(), None));
    if let Some(first) = units.first() {
        let mut sets = all_sms;
        sets.extend(first.settings.iter().cloned());
        v.push((format!("all-sms+{}", first.label), sets, None));
    }
    v
}

/// Whether a run with `sets` runs unit `u`'s golden model (its role holds
/// one of its choices).
fn runs_unit(sets: &[String], u: &dyn UnitCommands) -> bool {
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
pub fn bench_ratios(rows: &[HarnessBenchRow]) -> String {
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
/// (millions of simulated SM cycles per second), plus the baseline's
/// cycles.
pub fn bench_table(rows: &[HarnessBenchRow]) -> String {
    rate_table(rows, "kernel (Mcycles/s)", "cycles", &|r| {
        (r.cycles, r.cycles_per_second)
    })
}

/// The same benchmark as simulated work: millions of warp instructions
/// per second, plus the baseline's instructions. A variant that makes the
/// same instructions take fewer cycles (more work per simulated cycle)
/// lowers its cycle rate but not this one.
pub fn bench_work_table(rows: &[HarnessBenchRow]) -> String {
    rate_table(rows, "kernel (Minstr/s)", "instrs", &|r| {
        (r.instructions, r.instructions_per_second)
    })
}

/// One row per kernel, one column per variant: `f`'s rate in millions,
/// after the first variant's count.
fn rate_table(
    rows: &[HarnessBenchRow],
    title: &str,
    count: &str,
    f: &dyn Fn(&HarnessBenchRow) -> (u64, f64),
) -> String {
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
    let mut s = format!("{title:<20} {count:>10}");
    for v in &variants {
        s += &format!(" {v:>11}");
    }
    s.push('\n');
    for k in kernels {
        let n = rows
            .iter()
            .find(|r| r.kernel == k)
            .map(|r| f(r).0)
            .unwrap_or(0);
        s += &format!("{k:<20} {n:>10}");
        for v in &variants {
            match rows.iter().find(|r| r.kernel == k && r.variant == *v) {
                Some(r) => s += &format!(" {:>11.2}", f(r).1 / 1e6),
                None => s += &format!(" {:>11}", "-"),
            }
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_step_run_repeats_the_golden_variant_of_its_unit() {
        let sets = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        for u in UNITS {
            // The unit's own variant runs it; no unit's does without it.
            assert!(runs_unit(&u.combination().settings, *u), "{}", u.name());
            assert!(!runs_unit(&[], *u), "{}", u.name());
            assert!(
                !runs_unit(&sets(&["prefetcher=nosuch"]), *u),
                "{}",
                u.name()
            );
            for o in UNITS.iter().filter(|o| o.role() != u.role()) {
                assert!(!runs_unit(&o.combination().settings, *u), "{}", u.name());
            }
        }
        // Every unit has a golden-only variant its lock-step run repeats.
        let variants = golden_variants();
        for u in UNITS {
            assert!(
                variants.iter().any(|(_, s, _)| runs_unit(s, *u)),
                "{}",
                u.name()
            );
        }
    }

    #[test]
    fn ratios_pair_each_lock_step_run_with_its_golden_run() {
        let row = |kernel: &str, variant: &str, sets: &[&str], cps: f64| HarnessBenchRow {
            kernel: kernel.into(),
            variant: variant.into(),
            sets: sets.iter().map(|s| s.to_string()).collect(),
            cycles: 1000,
            seconds: 1000.0 / cps,
            cycles_per_second: cps,
            instructions: 10,
            instructions_per_second: cps / 100.0,
        };
        let unit = ["unit=x", "sched=y"];
        let rows = vec![
            row("K", "baseline", &[], 20e6),
            row("K", "x", &unit, 10e6),
            row("K", "cosim-x_unit", &unit, 2.5e6),
        ];
        let text = bench_ratios(&rows);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("x_unit"), "{text}");
        assert!(
            text.contains("2.50 / x") && text.contains("= 0.250x"),
            "{text}"
        );
    }

    /// The work table divides instructions, not cycles, by the time: a
    /// variant that runs the same instructions in a third of the cycles in
    /// the same time keeps the baseline's work rate.
    #[test]
    fn the_work_table_rates_instructions_not_cycles() {
        let row = |variant: &str, cycles: u64| HarnessBenchRow {
            kernel: "K".into(),
            variant: variant.into(),
            sets: vec![],
            cycles,
            seconds: 0.5,
            cycles_per_second: cycles as f64 / 0.5,
            instructions: 2_000_000,
            instructions_per_second: 4e6,
        };
        let rows = vec![row("baseline", 3_000_000), row("denser", 1_000_000)];
        let cyc = bench_table(&rows);
        let work = bench_work_table(&rows);
        let line = |t: &str| t.lines().nth(1).unwrap().to_string();
        assert!(line(&cyc).ends_with("6.00        2.00"), "{cyc}");
        assert!(line(&work).ends_with("4.00        4.00"), "{work}");
        assert!(line(&work).contains(" 2000000 "), "{work}");
    }
}
