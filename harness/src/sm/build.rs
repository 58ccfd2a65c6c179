//! Building an SM: its units attached in their role slots (with the probes
//! and recorders of the run's options), its warp and CTA slots, and the
//! per-instruction register lists the scoreboard and the timing read.

use std::cell::Cell;
use std::rc::Rc;

use crate::baselines;
use crate::config::{InstrClass, LoadModel, MachineConfig};
use crate::decoupled::DecoupledTags;
use crate::error::HarnessError;
use crate::expr::{regs_read, LANES};
use crate::interwarp::InterWarpProbe;
use crate::kernel::{Instr, Kernel, Program};
use crate::l1::LruTags;
use crate::metrics::{ArrayMetrics, BurstMeter, Metrics, RunInfo};
use crate::occupancy::occupancy;
use crate::options::RunOptions;
use crate::registry::{self as units, not_in_run, UnitContext, UnitEntry};
use crate::reuse::ReuseTracker;
use crate::roles::{ExpanderRole, L1Role, PrefetcherRole, Role, RoleObject};
use crate::sched;
use crate::trace::TRACE_REGS;

use super::l1_side::L1Side;
use super::ldst::LdSt;
use super::memory::SharedMemory;
use super::prefetches::Prefetches;
use super::state::{Sm, Timing};
use super::tex_cache::TexCache;
use super::warp::{CtaSlot, Warp};

/// The units of one SM, built with their probes and recorders (from the
/// run's options, by unit name) as role objects: the prefetcher and the
/// L1 tag array (`None`: the native choice), and `X`, the SM's side of the
/// expander slot; with the SM's occupancy.
pub(super) struct SmUnits<X> {
    pub(super) occ: u32,
    pub(super) prefetcher: Option<Box<dyn PrefetcherRole>>,
    pub(super) tags: Option<Box<dyn L1Role>>,
    pub(super) expander: X,
}

/// The unit in the expander slot, if any.
pub(super) type ExpanderUnit = Option<Box<dyn ExpanderRole>>;

impl SmUnits<()> {
    /// The occupancy of `k` on `cfg`'s SM and its units, with the unit in
    /// the expander slot apart. A probe or recording for a unit that is
    /// not in the run is an error naming the option that would add it.
    pub(super) fn attach(
        k: &Kernel,
        cfg: &MachineConfig,
        opts: &mut RunOptions,
    ) -> Result<(Self, ExpanderUnit), HarnessError> {
        let occ = occupancy(k, cfg)?;
        attach_units(k, cfg, k.warps_per_cta(), occ, opts)
    }

    /// The same units with `x`, the SM's side of the expander slot.
    pub(super) fn with<X>(self, x: X) -> SmUnits<X> {
        SmUnits {
            occ: self.occ,
            prefetcher: self.prefetcher,
            tags: self.tags,
            expander: x,
        }
    }
}

/// The units `cfg` chooses, each checked against the probes and
/// recordings of `opts` and built with its own.
fn attach_units(
    k: &Kernel,
    cfg: &MachineConfig,
    wpc: u32,
    occ: u32,
    opts: &mut RunOptions,
) -> Result<(SmUnits<()>, ExpanderUnit), HarnessError> {
    let mut chosen: Vec<(&'static dyn UnitEntry, &'static str)> = Vec::new();
    for role in Role::ALL {
        if let Some(u) = units::unit_for_choice(role, cfg.choice(role)) {
            chosen.push(u);
        }
    }
    let attached = opts
        .probes
        .iter()
        .map(|(u, _)| u)
        .chain(opts.records.iter().map(|(u, _)| u));
    for name in attached {
        match units::unit(name) {
            None => {
                return Err(HarnessError::Unsupported(format!(
                    "unknown unit `{name}`; units: {}",
                    ports::UNIT_NAMES.join(", ")
                )))
            }
            Some(u) if !chosen.iter().any(|(c, _)| c.name() == u.name()) => {
                return Err(not_in_run(u))
            }
            Some(_) => {}
        }
    }
    let mut out = SmUnits {
        occ,
        prefetcher: None,
        tags: None,
        expander: (),
    };
    let mut expander = None;
    for (u, choice) in chosen {
        let ctx = UnitContext {
            machine: cfg,
            kernel: k,
            choice,
            warps_per_cta: wpc,
            ctas_per_sm: occ,
        };
        let (probes, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut opts.probes)
            .into_iter()
            .partition(|(n, _)| n == u.name());
        opts.probes = rest;
        let records: Vec<std::path::PathBuf> = opts
            .records
            .iter()
            .filter(|(n, _)| n == u.name())
            .map(|(_, p)| p.clone())
            .collect();
        let probes = probes.into_iter().map(|(_, p)| p).collect();
        match u.build(&ctx, probes, &records)? {
            RoleObject::Prefetcher(p) => out.prefetcher = Some(p),
            RoleObject::L1(t) => out.tags = Some(t),
            RoleObject::Expander(x) => expander = Some(x),
        }
    }
    // A baseline prefetcher (golden model only, no unit).
    if let Some(b) = baselines::find(cfg.choice(Role::Prefetcher)) {
        out.prefetcher = Some((b.build)(cfg.l1_line as u64));
    }
    // A baseline L1 tag array (golden model only, no unit).
    if let Some(b) = baselines::find_l1(cfg.choice(Role::L1)) {
        out.tags = Some((b.build)(cfg));
    }
    Ok((out, expander))
}

/// The registers each instruction of `prog` reads (the scoreboard's
/// operands; loop counters are the loop's own and never loaded).
fn instruction_reads(prog: &Program) -> Vec<Vec<u16>> {
    prog.instrs
        .iter()
        .enumerate()
        .map(|(i, ins)| {
            let mut v = Vec::new();
            // Address arithmetic reads its access's index registers; the
            // access reads the address it computed.
            let ins = match prog.instrs.get(i + 1) {
                Some(next) if prog.info[i].addr => next,
                _ => ins,
            };
            if let (Some(r), true) = (prog.addr_reg, i > 0 && prog.info[i - 1].addr) {
                v.push(r);
            }
            match *ins {
                Instr::Let { code, .. } => regs_read(&prog.ops, code, &mut v),
                Instr::Load { index, .. } | Instr::Store { index, .. } => {
                    regs_read(&prog.ops, index, &mut v)
                }
                Instr::If { cond, .. } => regs_read(&prog.ops, cond, &mut v),
                Instr::LoopBegin { start, bound, .. } => {
                    regs_read(&prog.ops, start, &mut v);
                    regs_read(&prog.ops, bound, &mut v);
                }
                Instr::Use { reg } => v.push(reg),
                _ => {}
            }
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect()
}

/// The registers each instruction of `prog` writes with a latency (a
/// load's destination is the scoreboard's, not the latency's).
fn instruction_writes(prog: &Program) -> Vec<Vec<u16>> {
    prog.instrs
        .iter()
        .enumerate()
        .map(|(i, ins)| match *ins {
            Instr::Compute { .. } if prog.info[i].addr => prog.addr_reg.into_iter().collect(),
            Instr::Let { dst, .. } => vec![dst],
            Instr::LoopBegin { var, end, .. } => vec![var, end],
            Instr::LoopEnd { var, .. } => vec![var],
            _ => Vec::new(),
        })
        .collect()
}

impl Timing {
    /// The timing of `cfg`'s latencies, nothing waiting.
    fn new(cfg: &MachineConfig) -> Timing {
        let l = &cfg.lat;
        Timing {
            timed: [l.alu, l.sfu, l.dp, l.tensor, l.smem]
                .into_iter()
                .chain(InstrClass::intervals(l))
                .any(|v| v > 1),
            lat_wait: 0,
            pipe_next: [0; 3],
            pipe_free: [0; 3],
        }
    }
}

/// The L1 tag array of a run with no unit or baseline in the L1 slot: the
/// harness's own LRU array, or its decoupled variant.
fn native_tags(cfg: &MachineConfig) -> Box<dyn L1Role> {
    let sets = cfg.l1_sets() as usize;
    let ways = cfg.l1_ways as usize;
    if cfg.decoupled_l1() {
        Box::new(DecoupledTags::new(sets, ways, cfg.l1_line)) as Box<dyn L1Role>
    } else {
        Box::new(LruTags::new(sets, ways, cfg.l1_line))
    }
}

/// The metrics of SM `id`'s run, empty but for what identifies the run.
fn empty_metrics(k: &Kernel, cfg: &MachineConfig, id: u32, occ: u32, all_sms: bool) -> Metrics {
    Metrics {
        run: RunInfo {
            kernel: k.name.clone(),
            file: k.file.clone(),
            preset: cfg.preset.clone(),
            sched: cfg.sched.name().into(),
            l1: cfg.l1.clone(),
            decoupled: cfg.decoupled_l1(),
            prefetcher: cfg.prefetcher.clone(),
            expander: cfg.expander.clone(),
            seed: cfg.seed,
            n_sm: cfg.n_sm,
            sm_id: id,
            grid: k.grid,
            block: k.block,
            ctas_per_sm: occ,
            all_sms,
        },
        ..Default::default()
    }
}

impl<'k, X> Sm<'k, X> {
    /// SM `id` of `n_sm` running `k` with `units`: in a one-SM run (`deal`
    /// `None`) with the CTAs it gets when they are dealt in turn and the
    /// memory to itself; in an all-SM run on port `id` of the shared
    /// memory, taking CTAs from the shared `deal`.
    pub(super) fn build(
        k: &'k Kernel,
        cfg: &'k MachineConfig,
        id: u32,
        mem: SharedMemory,
        deal: Option<Rc<Cell<u64>>>,
        units: SmUnits<X>,
    ) -> Sm<'k, X> {
        let wpc = k.warps_per_cta();
        let occ = units.occ;
        let total = k.total_ctas();
        let ctas_here = if deal.is_some() {
            total
        } else if total > id as u64 {
            (total - id as u64).div_ceil(cfg.n_sm as u64)
        } else {
            0
        };
        let prog = &k.program;
        // Scoreboard registers: the kernel's, or a trace's register files.
        let nsb = if k.trace.is_some() {
            TRACE_REGS
        } else {
            prog.n_regs
        };
        let sets = cfg.l1_sets() as usize;
        let tags = units.tags.unwrap_or_else(|| native_tags(cfg));
        let leading_loads = units.prefetcher.as_ref().and_then(|p| p.leading_loads());
        Sm {
            k,
            prog,
            cfg,
            now: 0,
            line_mask: !(cfg.l1_line as u64 - 1),
            warps: (0..cfg.max_warps)
                .map(|_| Warp::new(prog.n_regs, nsb, prog.max_nesting))
                .collect(),
            ctas: (0..occ)
                .map(|_| CtaSlot {
                    live: false,
                    warps: Vec::with_capacity(wpc as usize),
                    done: 0,
                    at_barrier: 0,
                })
                .collect(),
            wpc,
            occ,
            free_warps: if cfg.max_warps == 64 {
                u64::MAX
            } else {
                (1u64 << cfg.max_warps) - 1
            },
            ready: 0,
            mem_next: 0,
            timing: Timing::new(cfg),
            writes: instruction_writes(prog),
            next_cta_k: 0,
            ctas_here,
            scoreboard: cfg.loads == LoadModel::Scoreboard,
            reads: instruction_reads(prog),
            port: if deal.is_some() { id } else { 0 },
            ticks_memory: deal.is_none(),
            m: empty_metrics(k, cfg, id, occ, deal.is_some()),
            deal,
            ctas_done: 0,
            live_ctas: 0,
            age: 0,
            sched: sched::for_policy(cfg, leading_loads),
            ldst: LdSt::new(),
            l1: L1Side::new(tags, cfg.mshr_entries, cfg.mshr_merges),
            tex: TexCache::new(cfg.tex_size, cfg.tex_line, cfg.tex_ways, cfg.tex_latency),
            mem,
            pf: Prefetches::new(units.prefetcher),
            xp: units.expander,
            reuse: cfg
                .reuse_analysis
                .then(|| ReuseTracker::new(sets, cfg.l1_ways as usize, cfg.l1_line)),
            interwarp: (cfg.interwarp_probe > 0).then(|| {
                InterWarpProbe::new(cfg.interwarp_probe, cfg.l1_line, cfg.cta_slots as usize)
            }),
            stack: vec![[0; LANES]; prog.stack_depth.max(1)],
            fault: None,
            arrays: k
                .arrays
                .iter()
                .map(|a| ArrayMetrics::empty(&a.name, a.base))
                .collect(),
            bursts: BurstMeter::default(),
        }
    }
}
