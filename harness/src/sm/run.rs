//! Running a kernel: on one SM ([`run_one`]) or on every SM of the machine
//! sharing the memory below their L1s ([`run_all`]). Here the SM's side of
//! the expander slot is chosen (the one line per kind of expander).

use std::cell::Cell;
use std::rc::Rc;

use crate::config::MachineConfig;
use crate::error::HarnessError;
use crate::kernel::Kernel;
use crate::metrics::Metrics;
use crate::options::{Progress, RunOptions};
use crate::roles::ExpanderRole;

use super::build::SmUnits;
use super::dac_side::DacSide;
use super::expander::{ExpanderSide, NoExpander};
use super::memory::{lower_memory, SharedMemory};
use super::state::Sm;

/// The SM's side of the expander slot's unit: every expander unit speaks
/// DAC's protocol (the affine warp's tuples, records and masks).
fn dac_side(k: &Kernel, cfg: &MachineConfig, unit: Box<dyn ExpanderRole>) -> DacSide {
    DacSide::new(
        unit,
        k,
        cfg.l1_sets() as usize,
        cfg.max_warps as usize,
        cfg.address_arithmetic && k.address_arithmetic,
    )
}

/// Run `k` on SM `sm_id` of `cfg` alone, with the CTAs that SM gets when
/// they are dealt in turn, and the memory to itself.
pub(crate) fn run_one(
    k: &Kernel,
    cfg: &MachineConfig,
    opts: &mut RunOptions,
) -> Result<Metrics, HarnessError> {
    cfg.validate().map_err(HarnessError::Config)?;
    let mem = lower_memory(cfg, 1);
    let (units, expander) = SmUnits::attach(k, cfg, opts)?;
    let interval = opts.progress_interval;
    let id = cfg.sm_id;
    match expander {
        None => Sm::build(k, cfg, id, mem, None, units.with(NoExpander))
            .run(&mut opts.progress, interval),
        Some(u) => Sm::build(k, cfg, id, mem, None, units.with(dac_side(k, cfg, u)))
            .run(&mut opts.progress, interval),
    }
}

/// Run `k` on every SM of `cfg` (`sms = all`): the SMs share the memory
/// below their L1s and take CTAs from one dealer, in SM order each cycle
/// (so the first CTAs go round the SMs, then each CTA to the first SM
/// with room); probes and recordings attach to SM `cosim_sm`'s units.
/// Every cycle is simulated.
pub(crate) fn run_all(
    k: &Kernel,
    cfg: &MachineConfig,
    opts: &mut RunOptions,
) -> Result<Metrics, HarnessError> {
    cfg.validate().map_err(HarnessError::Config)?;
    let n = cfg.n_sm;
    let mem = lower_memory(cfg, n);
    let mut units = Vec::with_capacity(n as usize);
    let mut expanders = Vec::with_capacity(n as usize);
    for id in 0..n {
        let mut none = RunOptions::default();
        let o = if id == cfg.cosim_sm {
            &mut *opts
        } else {
            &mut none
        };
        let (u, x) = SmUnits::attach(k, cfg, o)?;
        units.push(u);
        expanders.push(x);
    }
    // The same machine on every SM: an expander on each, or on none.
    match expanders.into_iter().collect::<Option<Vec<_>>>() {
        Some(xs) => {
            let sms = units
                .into_iter()
                .zip(xs)
                .map(|(u, x)| u.with(dac_side(k, cfg, x)));
            run_sms(k, cfg, opts, mem, sms)
        }
        None => {
            let sms = units.into_iter().map(|u| u.with(NoExpander));
            run_sms(k, cfg, opts, mem, sms)
        }
    }
}

/// The all-SM run of SMs with `units`, one per SM in order.
fn run_sms<X: ExpanderSide>(
    k: &Kernel,
    cfg: &MachineConfig,
    opts: &mut RunOptions,
    mem: SharedMemory,
    units: impl Iterator<Item = SmUnits<X>>,
) -> Result<Metrics, HarnessError> {
    let deal = Rc::new(Cell::new(0u64));
    let mut sms: Vec<Sm<'_, X>> = units
        .enumerate()
        .map(|(id, u)| Sm::build(k, cfg, id as u32, mem.clone(), Some(deal.clone()), u))
        .collect();
    let n = sms.len();
    let reset = cfg.reset_cycles as u64;
    let total = k.total_ctas();
    let interval = opts.progress_interval.max(1);
    let mut next_progress = interval;
    let mut done = vec![false; n];
    let mut now = 0u64;
    loop {
        if now >= reset {
            mem.borrow_mut().tick(now);
        }
        let mut all = true;
        for (sm, d) in sms.iter_mut().zip(done.iter_mut()) {
            if !*d {
                *d = sm.cycle(false)?;
                all &= *d;
            }
        }
        now += 1;
        if all {
            break;
        }
        if now >= next_progress {
            if let Some(cb) = opts.progress.as_mut() {
                cb(&Progress {
                    cycle: now,
                    ctas_done: sms.iter().map(|s| s.ctas_done()).sum(),
                    ctas: total,
                });
            }
            next_progress = now + interval;
        }
    }
    let per = sms
        .into_iter()
        .map(|s| s.finish())
        .collect::<Result<Vec<_>, _>>()?;
    let lower = mem.borrow().stats();
    Ok(Metrics::total(per, lower))
}
