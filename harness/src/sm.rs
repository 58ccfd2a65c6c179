//! The cycle-level model of one SM: CTA distribution, warps with a SIMT
//! mask stack, the scheduler, the coalescer and the load/store unit, the L1
//! with its MSHRs, the lower memory, and the units in their role slots
//! (prefetcher, L1 tag array, expansion unit: `roles.rs`) driven every
//! cycle. DAC's side of the SM is in `sm/dac.rs`.
//!
//! # One cycle
//! After the reset cycles, every cycle does, in this order:
//! 1. the memory below the L1 (`memsys`) advances to this cycle, and the
//!    reads back by now fill their MSHRs (waking the warps waiting on
//!    them; a prefetch's return may eagerly wake its target warp);
//! 2. the L1 tag array's response to the previous cycle's request is
//!    processed (outcome counts, evictions, hit completions);
//! 3. hits whose latency has elapsed are delivered;
//! 4. (the memory took this SM's oldest queued request in step 1 if its
//!    bandwidth allowed);
//! 5. with DAC, a new batch of CTAs opens when the previous one is done;
//!    one CTA may launch into a free slot;
//! 6. with DAC: one finished CTA is reported to the expansion unit, the
//!    previous cycle's dequeue is answered and this cycle's sent (`sm/dac.rs`);
//! 7. the L1 port serves one line of the load/store unit's instruction
//!    (with DAC, taking the next warp whose records are complete when the
//!    unit is free), or, when the unit has none, DAC's early request, or
//!    the prefetcher's offered prefetch (demand first);
//! 8. DAC's affine warp issues if it can; else the scheduler issues at
//!    most one warp instruction; a memory instruction is coalesced into the
//!    load/store unit (one at a time) and a load is shown to the
//!    prefetcher;
//! 9. the units see this cycle's inputs: their probes (lock-step checkers,
//!    recorders) are called with exactly those inputs and the outputs
//!    sampled before the edge, then the golden models take the clock edge
//!    (the expansion unit, the prefetcher, then the L1).
//!
//! Loads block their warp until every line is back, or with `loads =
//! scoreboard` the warp goes on and waits at the first instruction that
//! reads the loaded register (a per-warp count of in-flight loads per
//! register; each demand request carries its load's id) or at its exit.
//!
//! Instruction timing (`lat_*`, `ii_*`; [`super::config::Latencies`]): an
//! instruction's results are ready its class's latency after it issues; a
//! warp whose next instruction reads or writes a register not ready yet
//! waits for it (out of the ready set, woken when the cycle comes), and an
//! SFU, fp64 or tensor instruction waits while another warp's holds that
//! pipeline. With every value 1 (the `fermi` and `volta` machines) nothing
//! waits and the bookkeeping is skipped. Traces give each instruction its
//! registers and its class from the opcode.
//!
//! A load request that needs memory but finds no free MSHR (or merge slot)
//! or no miss-queue room is a *reservation fail*: nothing changes and the
//! line is retried next cycle. A prefetch that finds the line present or in
//! flight is dropped; one that finds no room waits (`pf_ready = 0`).

mod dac;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use super::config::{InstrClass, LoadModel, MachineConfig, MemModel, SchedPolicy};
use super::decoupled::DecoupledTags;
use super::expr::{eval, Lanes, LANES};
use super::kernel::{zero_divisor_error, Instr, Kernel, Program, REG_CTAID, REG_TID};
use super::l1::LruTags;
use super::memsys::{FlatMemory, HierMemory, HierParams, LowerMemory, MemReq};
use super::metrics::{
    ratio, ArrayMetrics, BurstMeter, L1Metrics, MemMetrics, Metrics, PrefetchMetrics, RunInfo,
};
use super::reuse::ReuseTracker;
use super::roles::{
    default_leading_warp, ExpanderRole, L1Outcome, L1Role, LoadInfo, PrefetcherRole, Pressure,
    Role, RoleObject, WarpRef,
};
use super::units::{self, not_in_run, UnitContext, UnitEntry};
use crate::error::HarnessError;
use crate::hash::FxBuild;
use crate::occupancy::occupancy;
use crate::options::{Progress, RunOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WState {
    /// No CTA in this slot.
    Free,
    /// Can issue.
    Ready,
    /// Waiting for the lines of a load.
    Mem,
    /// Waiting at a barrier.
    Barrier,
    /// Exited.
    Done,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    saved: u32,
    other: u32,
}

struct Warp {
    state: WState,
    cta: u16,
    widx: u16,
    age: u64,
    pc: u32,
    active: u32,
    stack: Vec<Frame>,
    regs: Vec<Lanes>,
    /// Lines of the current load not yet delivered.
    pending: u32,
    /// Of which went to memory.
    pending_misses: u32,
    /// Issue slots left of the current `compute`.
    compute_left: u32,
    /// PAS leading-warp marker (warp 0 of each CTA, for its lifetime).
    leading: bool,
    /// Trace replay: index of the CTA in the trace (`u32::MAX`: untraced)
    /// and of the next instruction.
    tcta: u32,
    tpos: u32,
    /// Non-blocking loads (`loads = scoreboard`): the loads in flight,
    /// ...
    loads_out: Vec<LoadOut>,
    /// ... per register, the loads in flight that write it, ...
    sb: Vec<u8>,
    /// ... the next load's id, and whether the warp waits for one.
    next_load: u32,
    sb_wait: bool,
    /// Instruction timing (`lat_*`): per register, the cycle its last
    /// result is ready, and the cycle the warp waits for (its next
    /// instruction's operands).
    ready_at: Vec<u64>,
    wake_at: u64,
}

/// A non-blocking load in flight: its id, the registers it writes
/// (`dst .. dst + ndst`), and the lines still to come.
#[derive(Clone, Copy, Debug)]
struct LoadOut {
    id: u32,
    dst: u16,
    ndst: u16,
    lines: u32,
}

impl LoadOut {
    fn regs(&self) -> std::ops::Range<usize> {
        self.dst as usize..self.dst as usize + self.ndst as usize
    }
}

/// The id of a load the warp waits for at issue (blocking loads, traces).
const BLOCKING: u32 = u32::MAX;

impl Warp {
    /// Enter an `if` whose condition holds on the lanes of `m` (within the
    /// active ones): push the frame, run the `then` lanes, or jump to
    /// `else_at` when there are none.
    fn take_if(&mut self, m: u32, else_at: u32) {
        self.stack.push(Frame {
            saved: self.active,
            other: self.active & !m,
        });
        if m == 0 {
            self.pc = else_at;
        } else {
            self.active = m;
            self.pc += 1;
        }
    }

    /// A loop's back edge: advance the counter `var` of the active lanes
    /// by `step`; the lanes that go on (against the bound `end`).
    fn count_loop(&mut self, var: u16, end: u16, step: i64) -> u32 {
        let active = self.active;
        for (lane, x) in self.regs[var as usize].iter_mut().enumerate() {
            if active & (1 << lane) != 0 {
                *x = x.wrapping_add(step);
            }
        }
        loop_mask(&self.regs[var as usize], &self.regs[end as usize], step) & active
    }

    /// Take the back edge with the lanes `m` going on: back to `body_at`,
    /// or out of the loop (pop its frame) when none do.
    fn take_loop_back(&mut self, m: u32, body_at: u32) {
        if m == 0 {
            let f = self.stack.pop().expect("loop frame");
            self.active = f.saved;
            self.pc += 1;
        } else {
            self.active = m;
            self.pc = body_at;
        }
    }
}

struct CtaSlot {
    live: bool,
    warps: Vec<u16>,
    done: u32,
    at_barrier: u32,
}

struct Mshr {
    valid: bool,
    line: u64,
    /// (warp, load id) of each merged demand request.
    waiters: Vec<(u16, u32)>,
    prefetch: bool,
    demanded: bool,
    target: WarpRef,
}

#[derive(Clone, Copy)]
enum Access {
    Demand {
        warp: u16,
        load: u32,
        array: u16,
        merged: bool,
        expect_hit: bool,
    },
    Prefetch,
    /// DAC's early request.
    Early,
    Store,
}

struct LdSt {
    busy: bool,
    warp: u16,
    /// The load's id (`BLOCKING` for a load the warp waits for at issue).
    load: u32,
    /// The memory instruction's PC (the reuse profile's per-load split).
    pc: u32,
    store: bool,
    array: u16,
    lines: [u64; LANES],
    /// Per line: the lowest byte address the warp touches in it.
    firsts: [u64; LANES],
    n: usize,
    next: usize,
}

struct PfInfo {
    issued: u64,
    in_flight: bool,
    array: Option<usize>,
}

pub(crate) struct Sm<'k> {
    k: &'k Kernel,
    prog: &'k Program,
    cfg: &'k MachineConfig,
    now: u64,
    line_mask: u64,
    warps: Vec<Warp>,
    ctas: Vec<CtaSlot>,
    wpc: u32,
    occ: u32,
    /// Bit per warp slot: free.
    free_warps: u64,
    /// Bit per warp slot: state Ready.
    ready: u64,
    /// Bit per warp slot: the next instruction is a load or a store.
    mem_next: u64,
    /// Instruction timing: whether any latency or interval exceeds 1
    /// (else results are ready the next cycle and nothing waits), the
    /// warps waiting for their next instruction's operands, per pipeline
    /// (`[sfu, dp, tensor]`) the warps whose next instruction needs it and
    /// the cycle it is free, and the registers each instruction writes.
    timed: bool,
    lat_wait: u64,
    pipe_next: [u64; 3],
    pipe_free: [u64; 3],
    writes: Vec<Vec<u16>>,
    /// One-SM mode: CTAs launched here so far (this SM's k-th CTA is
    /// `sm_id + k * n_sm`).
    next_cta_k: u64,
    /// One-SM mode: CTAs this SM runs; all-SM mode: the grid's.
    ctas_here: u64,
    /// Non-blocking loads with a scoreboard (`loads = scoreboard`), and
    /// the registers each instruction reads.
    scoreboard: bool,
    reads: Vec<Vec<u16>>,
    /// All-SM mode: the next CTA of the grid to deal, shared by the SMs.
    deal: Option<Rc<Cell<u64>>>,
    /// This SM's port of the memory below the L1, and whether this SM
    /// advances the memory itself (one-SM mode).
    port: u32,
    ticks_memory: bool,
    ctas_done: u64,
    live_ctas: u32,
    age: u64,
    // scheduler
    last: Option<u16>,
    age_order: Vec<u16>,
    rq: Vec<u16>,
    pq: VecDeque<u16>,
    // memory side
    ldst: LdSt,
    tags: Box<dyn L1Role>,
    mshr: Vec<Mshr>,
    mshr_used: usize,
    /// The memory below the L1, shared by the SMs of a run.
    mem: SharedMemory,
    hitq: VecDeque<(u64, u16, u32)>,
    last_access: Option<Access>,
    pf: HashMap<u64, PfInfo, FxBuild>,
    /// The prefetcher has offered a prefetch (told to the L1 once).
    pf_trained: bool,
    /// Lines the L1 freed in bulk this cycle (reused buffer).
    freed: Vec<u64>,
    prefetcher: Option<Box<dyn PrefetcherRole>>,
    /// DAC (the expander slot filled).
    dac: Option<dac::DacState>,
    reuse: Option<ReuseTracker>,
    /// The inter-warp stride probe (`interwarp_probe`).
    interwarp: Option<super::interwarp::InterWarpProbe>,
    stack: Vec<Lanes>,
    /// A kernel error found while executing (a zero divisor of an active
    /// thread): the cycle ends with it.
    fault: Option<HarnessError>,
    // metrics
    m: Metrics,
    pfm: PrefetchMetrics,
    distance_sum: u64,
    arrays: Vec<ArrayMetrics>,
    bursts: BurstMeter,
}

const FULL: u32 = u32::MAX;

/// The registers each instruction of `prog` reads (the scoreboard's
/// operands; loop counters are the loop's own and never loaded).
fn instruction_reads(prog: &Program) -> Vec<Vec<u16>> {
    use super::expr::regs_read;
    prog.instrs
        .iter()
        .map(|ins| {
            let mut v = Vec::new();
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
        .map(|ins| match *ins {
            Instr::Let { dst, .. } => vec![dst],
            Instr::LoopBegin { var, end, .. } => vec![var, end],
            Instr::LoopEnd { var, .. } => vec![var],
            _ => Vec::new(),
        })
        .collect()
}

/// The memory below the L1s of a run, shared by its SMs.
pub(crate) type SharedMemory = Rc<RefCell<Box<dyn LowerMemory>>>;

/// The memory below the L1 that `cfg` selects, with `sms` ports.
pub(crate) fn lower_memory(cfg: &MachineConfig, sms: u32) -> SharedMemory {
    Rc::new(RefCell::new(match cfg.mem_model {
        MemModel::Flat => Box::new(FlatMemory::new(
            sms,
            cfg.mem_latency as u64,
            cfg.mem_interval as u64,
            cfg.miss_queue as usize,
            cfg.bw_window as u64,
        )),
        MemModel::Hier => {
            let h = &cfg.hier;
            Box::new(HierMemory::new(HierParams {
                sms,
                line_bytes: cfg.l1_line,
                miss_queue: cfg.miss_queue,
                bw_window: cfg.bw_window as u64,
                icnt_latency: h.icnt_latency as u64,
                icnt_interval: h.icnt_interval as u64,
                l2_partitions: h.l2_partitions,
                l2_bytes: h.l2_bytes,
                l2_ways: h.l2_ways,
                l2_mshrs: h.l2_mshrs,
                l2_hit_latency: h.l2_hit_latency as u64,
                l2_queue: h.l2_queue,
                dram_channels: h.dram_channels,
                dram_banks: h.dram_banks,
                dram_row_lines: h.dram_row_lines,
                dram_queue: h.dram_queue,
                dram_t_row_hit: h.dram_t_row_hit as u64,
                dram_t_row_miss: h.dram_t_row_miss as u64,
                dram_t_row_conflict: h.dram_t_row_conflict as u64,
                dram_t_burst: h.dram_t_burst as u64,
                dram_latency: h.dram_latency as u64,
            }))
        }
    }))
}

impl<'k> Sm<'k> {
    /// The SM of a one-SM run: SM `sm_id` of `n_sm`, with the CTAs that
    /// SM gets when they are dealt in turn, and the memory to itself.
    pub(crate) fn new(
        k: &'k Kernel,
        cfg: &'k MachineConfig,
        opts: &mut RunOptions,
    ) -> Result<Sm<'k>, HarnessError> {
        cfg.validate().map_err(HarnessError::Config)?;
        let mem = lower_memory(cfg, 1);
        Self::build(k, cfg, opts, cfg.sm_id, mem, None)
    }

    /// SM `id` of an all-SM run: `port` `id` of the shared memory, CTAs
    /// taken from the shared `deal`.
    pub(crate) fn new_shared(
        k: &'k Kernel,
        cfg: &'k MachineConfig,
        opts: &mut RunOptions,
        id: u32,
        mem: SharedMemory,
        deal: Rc<Cell<u64>>,
    ) -> Result<Sm<'k>, HarnessError> {
        Self::build(k, cfg, opts, id, mem, Some(deal))
    }

    fn build(
        k: &'k Kernel,
        cfg: &'k MachineConfig,
        opts: &mut RunOptions,
        id: u32,
        mem: SharedMemory,
        deal: Option<Rc<Cell<u64>>>,
    ) -> Result<Sm<'k>, HarnessError> {
        let wpc = k.warps_per_cta();
        let occ = occupancy(k, cfg)?;
        let total = k.total_ctas();
        let ctas_here = if deal.is_some() {
            total
        } else if total > id as u64 {
            (total - id as u64).div_ceil(cfg.n_sm as u64)
        } else {
            0
        };
        let prog = &k.program;
        let nregs = prog.n_regs;
        // Scoreboard registers: the kernel's, or a trace's register files.
        let nsb = if k.trace.is_some() {
            super::trace::TRACE_REGS
        } else {
            nregs
        };
        let warps = (0..cfg.max_warps)
            .map(|_| Warp {
                state: WState::Free,
                cta: 0,
                widx: 0,
                age: 0,
                pc: 0,
                active: 0,
                stack: Vec::with_capacity(prog.max_nesting + 1),
                regs: vec![[0; LANES]; nregs],
                pending: 0,
                pending_misses: 0,
                compute_left: 0,
                leading: false,
                tcta: u32::MAX,
                tpos: 0,
                loads_out: Vec::new(),
                sb: vec![0; nsb],
                next_load: 0,
                sb_wait: false,
                ready_at: vec![0; nsb],
                wake_at: 0,
            })
            .collect();
        let ctas = (0..occ)
            .map(|_| CtaSlot {
                live: false,
                warps: Vec::with_capacity(wpc as usize),
                done: 0,
                at_barrier: 0,
            })
            .collect();
        let sets = cfg.l1_sets() as usize;
        let Attachments {
            prefetcher,
            tags,
            expander,
        } = attach_units(k, cfg, wpc, occ, opts)?;
        let dac = expander.map(|u| dac::DacState::new(u, k, sets, cfg.max_warps as usize));
        let ways = cfg.l1_ways as usize;
        let tags = tags.unwrap_or_else(|| {
            if cfg.decoupled_l1() {
                Box::new(DecoupledTags::new(sets, ways, cfg.l1_line)) as Box<dyn L1Role>
            } else {
                Box::new(LruTags::new(sets, ways, cfg.l1_line))
            }
        });
        let mshr = (0..cfg.mshr_entries)
            .map(|_| Mshr {
                valid: false,
                line: 0,
                waiters: Vec::with_capacity(cfg.mshr_merges as usize),
                prefetch: false,
                demanded: false,
                target: WarpRef::Sm(u64::MAX),
            })
            .collect();
        let arrays = k
            .arrays
            .iter()
            .map(|a| ArrayMetrics::empty(&a.name, a.base))
            .collect();
        let m = Metrics {
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
                all_sms: deal.is_some(),
            },
            ..Default::default()
        };
        Ok(Sm {
            k,
            prog,
            cfg,
            now: 0,
            line_mask: !(cfg.l1_line as u64 - 1),
            warps,
            ctas,
            wpc,
            occ,
            free_warps: if cfg.max_warps == 64 {
                u64::MAX
            } else {
                (1u64 << cfg.max_warps) - 1
            },
            ready: 0,
            mem_next: 0,
            timed: {
                let l = &cfg.lat;
                [l.alu, l.sfu, l.dp, l.tensor, l.smem]
                    .into_iter()
                    .chain(InstrClass::intervals(l))
                    .any(|v| v > 1)
            },
            lat_wait: 0,
            pipe_next: [0; 3],
            pipe_free: [0; 3],
            writes: instruction_writes(prog),
            next_cta_k: 0,
            ctas_here,
            scoreboard: cfg.loads == LoadModel::Scoreboard,
            reads: instruction_reads(prog),
            port: if deal.is_some() { id } else { 0 },
            ticks_memory: deal.is_none(),
            deal,
            ctas_done: 0,
            live_ctas: 0,
            age: 0,
            last: None,
            age_order: Vec::with_capacity(cfg.max_warps as usize),
            rq: Vec::with_capacity(cfg.ready_queue as usize + 1),
            pq: VecDeque::with_capacity(cfg.max_warps as usize),
            ldst: LdSt {
                busy: false,
                warp: 0,
                load: BLOCKING,
                pc: 0,
                store: false,
                array: 0,
                lines: [0; LANES],
                firsts: [0; LANES],
                n: 0,
                next: 0,
            },
            tags,
            mshr,
            mshr_used: 0,
            mem,
            hitq: VecDeque::new(),
            last_access: None,
            pf: HashMap::default(),
            pf_trained: false,
            freed: Vec::new(),
            prefetcher,
            dac,
            reuse: cfg
                .reuse_analysis
                .then(|| ReuseTracker::new(sets, cfg.l1_ways as usize, cfg.l1_line)),
            interwarp: (cfg.interwarp_probe > 0).then(|| {
                super::interwarp::InterWarpProbe::new(
                    cfg.interwarp_probe,
                    cfg.l1_line,
                    cfg.cta_slots as usize,
                )
            }),
            stack: vec![[0; LANES]; prog.stack_depth.max(1)],
            fault: None,
            m,
            pfm: PrefetchMetrics::default(),
            distance_sum: 0,
            arrays,
            bursts: BurstMeter::default(),
        })
    }

    /// Whether idle cycles may be skipped: fast-forward is on and no unit
    /// model needs every cycle.
    pub(crate) fn can_skip(&self) -> bool {
        self.cfg.fast_forward
            && !self
                .prefetcher
                .as_ref()
                .is_some_and(|p| p.needs_every_cycle())
            && !self.tags.needs_every_cycle()
            && !self.dac.as_ref().is_some_and(|d| d.needs_every_cycle())
    }

    /// Simulate one cycle (or, with `can_skip`, jump over idle ones);
    /// true when the SM has finished: every CTA it will run is done.
    pub(crate) fn cycle(&mut self, can_skip: bool) -> Result<bool, HarnessError> {
        let in_reset = self.now < self.cfg.reset_cycles as u64;
        let mut issued = false;
        if !in_reset {
            self.mem_returns();
            self.l1_response()?;
            self.hit_completions();
            self.dac_batch();
            self.launch_cta();
            self.dac_cycle()?;
            self.l1_port();
            issued = self.dac_issue()? || self.schedule();
            if let Some(e) = self.fault.take() {
                return Err(e);
            }
        }
        self.step_units(in_reset)?;
        if !in_reset && self.all_done() && !self.ldst.busy {
            self.now += 1;
            return Ok(true);
        }
        if !in_reset && !issued {
            self.check_idle(can_skip)?;
        }
        self.now += 1;
        if self.now > self.cfg.max_cycles {
            return Err(HarnessError::CycleLimit {
                file: self.k.file.clone(),
                cycles: self.cfg.max_cycles,
                ctas_done: self.ctas_done,
                ctas: self.ctas_here,
            });
        }
        Ok(false)
    }

    /// CTAs finished here.
    pub(crate) fn ctas_done(&self) -> u64 {
        self.ctas_done
    }

    /// Run to completion (a one-SM run).
    pub(crate) fn run(
        mut self,
        progress: &mut Option<super::ProgressFn<'_>>,
        progress_interval: u64,
    ) -> Result<Metrics, HarnessError> {
        let can_skip = self.can_skip();
        let mut next_progress = progress_interval.max(1);
        while !self.cycle(can_skip)? {
            if self.now >= next_progress {
                if let Some(cb) = progress.as_mut() {
                    cb(&Progress {
                        cycle: self.now,
                        ctas_done: self.ctas_done,
                        ctas: self.ctas_here,
                    });
                }
                next_progress = self.now + progress_interval.max(1);
            }
        }
        self.finish()
    }

    // ------------------------------------------------------------ memory side

    /// The memory advances to this cycle; the reads back by now fill
    /// their MSHRs.
    fn mem_returns(&mut self) {
        if self.ticks_memory {
            self.mem.borrow_mut().tick(self.now);
        }
        loop {
            let line = self.mem.borrow_mut().pop_return(self.port, self.now);
            let Some(line) = line else {
                break;
            };
            self.fill(line);
        }
    }

    fn find_mshr(&self, line: u64) -> Option<usize> {
        if self.mshr_used == 0 {
            return None;
        }
        self.mshr.iter().position(|e| e.valid && e.line == line)
    }

    fn fill(&mut self, line: u64) {
        let Some(i) = self.find_mshr(line) else {
            return;
        };
        let installed = self.tags.holds_data(line);
        let waiters = std::mem::take(&mut self.mshr[i].waiters);
        for &(w, load) in &waiters {
            self.warps[w as usize].pending_misses -= 1;
            self.deliver(w, load);
        }
        let mut waiters = waiters;
        waiters.clear();
        let e = &mut self.mshr[i];
        e.waiters = waiters;
        e.valid = false;
        self.mshr_used -= 1;
        if e.prefetch && !e.demanded {
            let target = e.target;
            if let Some(info) = self.pf.get_mut(&line) {
                info.in_flight = false;
                if !installed {
                    self.pfm.early_evicted += 1;
                    self.pf.remove(&line);
                }
            }
            self.eager_wakeup(target);
        }
    }

    fn mem_push(&mut self, line: u64, write: bool, prefetch: bool) {
        self.mem.borrow_mut().push(
            MemReq {
                sm: self.port,
                line,
                write,
            },
            self.now,
        );
        if write {
            self.m.memory.writes += 1;
        } else {
            self.m.memory.reads += 1;
            if prefetch {
                self.m.memory.prefetch_reads += 1;
            }
        }
    }

    fn hit_completions(&mut self) {
        while let Some(&(t, w, load)) = self.hitq.front() {
            if t > self.now {
                break;
            }
            self.hitq.pop_front();
            self.deliver(w, load);
        }
    }

    /// A line of warp `w`'s load `load` is back.
    fn deliver(&mut self, w: u16, load: u32) {
        let wp = &mut self.warps[w as usize];
        if load == BLOCKING {
            wp.pending -= 1;
            if wp.pending == 0 && wp.state == WState::Mem {
                self.make_ready(w);
            }
            return;
        }
        if let Some(i) = wp.loads_out.iter().position(|l| l.id == load) {
            wp.loads_out[i].lines -= 1;
            if wp.loads_out[i].lines == 0 {
                let l = wp.loads_out.swap_remove(i);
                for r in l.regs() {
                    wp.sb[r] -= 1;
                }
            }
        }
        if wp.sb_wait && wp.state == WState::Mem {
            self.make_ready(w);
        }
    }

    fn l1_response(&mut self) -> Result<(), HarnessError> {
        let rsp = self.tags.response();
        self.tags.take_freed(&mut self.freed);
        if !self.freed.is_empty() {
            let mut freed = std::mem::take(&mut self.freed);
            for &line in &freed {
                self.m.l1.evictions += 1;
                self.evicted(line & self.line_mask);
            }
            freed.clear();
            self.freed = freed;
        }
        let Some(acc) = self.last_access.take() else {
            return Ok(());
        };
        let Some(rsp) = rsp else {
            return Err(HarnessError::Internal(format!(
                "cycle {}: the L1 tag array gave no response to the previous request",
                self.now
            )));
        };
        if let Some(evicted) = rsp.evicted {
            let line = evicted & self.line_mask;
            if rsp.outcome != L1Outcome::WriteEvict {
                self.m.l1.evictions += 1;
            }
            self.evicted(line);
        }
        match acc {
            Access::Demand {
                warp,
                load,
                array,
                merged,
                expect_hit,
            } => {
                if merged {
                    self.m.l1.pending_hits += 1;
                    return Ok(());
                }
                let hit = rsp.outcome == L1Outcome::Hit;
                if hit != expect_hit {
                    return Err(HarnessError::Internal(format!(
                        "cycle {}: L1 outcome {} but the tag look-up predicted {}",
                        self.now,
                        rsp.outcome.name(),
                        if expect_hit { "a hit" } else { "a miss" }
                    )));
                }
                match rsp.outcome {
                    L1Outcome::Hit => {
                        self.m.l1.hits += 1;
                        if let Some(a) = self.arrays.get_mut(array as usize) {
                            a.hits += 1;
                        }
                        let ready = self.now - 1 + self.cfg.l1_hit_latency as u64;
                        if ready <= self.now {
                            self.deliver(warp, load);
                        } else {
                            self.hitq.push_back((ready, warp, load));
                        }
                    }
                    L1Outcome::Miss => self.m.l1.misses += 1,
                    L1Outcome::Bypass => self.m.l1.bypasses += 1,
                    L1Outcome::PseudoHit => self.m.l1.pseudo_hits += 1,
                    L1Outcome::WriteEvict | L1Outcome::WriteMiss => {}
                }
            }
            Access::Prefetch | Access::Early => {}
            Access::Store => {
                if rsp.outcome == L1Outcome::WriteEvict {
                    self.m.l1.write_evicts += 1;
                }
            }
        }
        Ok(())
    }

    /// Line `line` no longer holds data: an installed, unused prefetch of
    /// it was evicted early (one still in flight is counted at its fill).
    fn evicted(&mut self, line: u64) {
        if let Some(info) = self.pf.get(&line) {
            if !info.in_flight {
                self.pf.remove(&line);
                self.pfm.early_evicted += 1;
            }
        }
    }

    fn alloc_mshr(&mut self, line: u64) -> usize {
        let i = self
            .mshr
            .iter()
            .position(|e| !e.valid)
            .expect("a free MSHR was checked");
        let e = &mut self.mshr[i];
        e.valid = true;
        e.line = line;
        e.waiters.clear();
        e.prefetch = false;
        e.demanded = false;
        self.mshr_used += 1;
        i
    }

    /// The L1 port: one demand line, else DAC's early request, else one
    /// prefetch.
    fn l1_port(&mut self) {
        if !self.ldst.busy && self.dac.is_some() {
            self.dac_ldst_take();
        }
        if self.ldst.busy {
            let line = self.ldst.lines[self.ldst.next];
            // Where the line is before the request (DAC's timeliness).
            let state = if self.dac.is_none() {
                0
            } else if self.find_mshr(line).is_some() {
                1
            } else if self.tags.holds_data(line) {
                0
            } else {
                2
            };
            let ok = if self.ldst.store {
                self.store_line(line)
            } else {
                self.demand_line(line, self.ldst.warp, self.ldst.load, self.ldst.array)
            };
            if ok {
                if self.dac.is_some() {
                    self.dac_demand_served(self.ldst.next, state);
                }
                self.ldst.next += 1;
                if self.ldst.next == self.ldst.n {
                    self.ldst.busy = false;
                }
            } else {
                self.m.l1.reservation_fails += 1;
            }
            return;
        }
        if self.dac_early() {
            return;
        }
        let Some(out) = self.prefetcher.as_ref().and_then(|p| p.offer()) else {
            return;
        };
        let line = out.addr & self.line_mask & 0xFFFF_FFFF;
        let take = if self.find_mshr(line).is_some() {
            self.pfm.dropped_in_flight += 1;
            true
        } else if self.tags.holds_data(line) {
            self.pfm.dropped_present += 1;
            true
        } else if self.mshr_used < self.mshr.len() && self.mem.borrow().room(self.port) {
            let i = self.alloc_mshr(line);
            let e = &mut self.mshr[i];
            e.prefetch = true;
            e.target = out.warp;
            self.mem_push(line, false, true);
            self.tags.request_prefetch(line);
            self.last_access = Some(Access::Prefetch);
            let array = self.k.array_at(line);
            if let Some(a) = array {
                self.arrays[a].prefetches += 1;
            }
            self.pf.insert(
                line,
                PfInfo {
                    issued: self.now,
                    in_flight: true,
                    array,
                },
            );
            self.pfm.issued += 1;
            true
        } else {
            self.pfm.stall_cycles += 1;
            false
        };
        if take {
            self.pfm.offered += 1;
            if let Some(p) = self.prefetcher.as_mut() {
                p.accept();
            }
        }
    }

    fn used_prefetch(&mut self, line: u64) {
        if let Some(info) = self.pf.remove(&line) {
            self.distance_sum += self.now - info.issued;
            if let Some(a) = info.array {
                self.arrays[a].prefetches_used += 1;
            }
            if info.in_flight {
                self.pfm.late += 1;
            } else {
                self.pfm.useful += 1;
            }
        }
    }

    fn demand_line(&mut self, line: u64, warp: u16, load: u32, array: u16) -> bool {
        let merged;
        let expect_hit;
        if let Some(i) = self.find_mshr(line) {
            if self.mshr[i].waiters.len() >= self.cfg.mshr_merges as usize {
                return false;
            }
            self.mshr[i].waiters.push((warp, load));
            self.warps[warp as usize].pending_misses += 1;
            if self.mshr[i].prefetch && !self.mshr[i].demanded {
                self.used_prefetch(line);
            }
            self.mshr[i].demanded = true;
            merged = true;
            expect_hit = false;
        } else if self.tags.holds_data(line) {
            if !self.pf.is_empty() {
                self.used_prefetch(line);
            }
            merged = false;
            expect_hit = true;
        } else {
            if self.mshr_used >= self.mshr.len() || !self.mem.borrow().room(self.port) {
                return false;
            }
            let i = self.alloc_mshr(line);
            self.mshr[i].waiters.push((warp, load));
            self.mshr[i].demanded = true;
            self.warps[warp as usize].pending_misses += 1;
            self.mem_push(line, false, false);
            self.bursts.event(self.now);
            if let Some(p) = self.prefetcher.as_mut() {
                p.miss(line, warp as u32);
            }
            merged = false;
            expect_hit = false;
        }
        self.tags.request(line, false);
        self.last_access = Some(Access::Demand {
            warp,
            load,
            array,
            merged,
            expect_hit,
        });
        self.m.l1.accesses += 1;
        if let Some(a) = self.arrays.get_mut(array as usize) {
            a.load_lines += 1;
        }
        if let Some(r) = self.reuse.as_mut() {
            // The thesis leaves pending hits out of the profile (3.1).
            if merged {
                r.pending_hit();
            } else {
                r.access(line, self.ldst.pc, self.now);
            }
        }
        true
    }

    fn store_line(&mut self, line: u64) -> bool {
        if !self.mem.borrow().room(self.port) {
            return false;
        }
        self.tags.request(line, true);
        self.mem_push(line, true, false);
        self.last_access = Some(Access::Store);
        self.m.l1.store_lines += 1;
        if let Some(a) = self.arrays.get_mut(self.ldst.array as usize) {
            a.store_lines += 1;
        }
        true
    }

    // ------------------------------------------------------------ units

    fn step_units(&mut self, in_reset: bool) -> Result<(), HarnessError> {
        self.dac_step(in_reset)?;
        if let Some(p) = self.prefetcher.as_mut() {
            if !self.pf_trained && !in_reset && p.offer().is_some() {
                self.pf_trained = true;
                self.tags.prefetcher_trained();
            }
            let cache_full = self.tags.cache_full();
            if cache_full {
                self.pfm.cache_full_cycles += 1;
            }
            p.pressure(Pressure {
                cache_full,
                bw_util: if in_reset {
                    0
                } else {
                    self.mem.borrow_mut().bw_util(self.port, self.now)
                },
            });
            p.step(in_reset)?;
        }
        self.tags.step(in_reset)
    }

    // ------------------------------------------------------------ CTAs

    fn can_launch(&self) -> bool {
        self.can_launch_later()
            && self.live_ctas < self.occ
            && self.free_warps.count_ones() >= self.wpc
            && self.dac.as_ref().is_none_or(|d| d.allows_launch())
    }

    /// CTAs remain to be launched (here, or anywhere in an all-SM run).
    fn can_launch_later(&self) -> bool {
        match &self.deal {
            Some(d) => d.get() < self.ctas_here,
            None => self.next_cta_k < self.ctas_here,
        }
    }

    /// This SM's next CTA: its id in the grid.
    fn take_cta(&mut self) -> u64 {
        self.next_cta_k += 1;
        match &self.deal {
            Some(d) => {
                let id = d.get();
                d.set(id + 1);
                id
            }
            None => self.cfg.sm_id as u64 + (self.next_cta_k - 1) * self.cfg.n_sm as u64,
        }
    }

    /// Every CTA this SM will run is done.
    pub(crate) fn all_done(&self) -> bool {
        !self.can_launch_later() && self.live_ctas == 0
    }

    fn launch_cta(&mut self) {
        if !self.can_launch() {
            return;
        }
        let slot = self.ctas.iter().position(|c| !c.live).expect("free slot");
        let cta_id = self.take_cta();
        self.live_ctas += 1;
        if let Some(p) = self.interwarp.as_mut() {
            p.launch(slot, cta_id);
        }
        let g = self.k.grid;
        let b = self.k.block;
        let ctaid = [
            (cta_id % g[0] as u64) as i64,
            ((cta_id / g[0] as u64) % g[1] as u64) as i64,
            (cta_id / (g[0] as u64 * g[1] as u64)) as i64,
        ];
        let threads = self.k.threads_per_cta();
        let tcta = self
            .k
            .trace
            .as_ref()
            .and_then(|t| t.cta_index(cta_id))
            .map(|i| i as u32)
            .unwrap_or(u32::MAX);
        let mut ws = std::mem::take(&mut self.ctas[slot].warps);
        ws.clear();
        let pas = self.cfg.sched == SchedPolicy::Pas;
        for widx in 0..self.wpc {
            let w = self.free_warps.trailing_zeros() as u16;
            self.free_warps &= !(1u64 << w);
            ws.push(w);
            self.age += 1;
            let wp = &mut self.warps[w as usize];
            wp.cta = slot as u16;
            wp.widx = widx as u16;
            wp.age = self.age;
            wp.pc = 0;
            wp.stack.clear();
            wp.pending = 0;
            wp.pending_misses = 0;
            wp.compute_left = 0;
            wp.leading = pas
                && match &self.prefetcher {
                    Some(p) => p.leading_warp(widx),
                    None => default_leading_warp(widx),
                };
            wp.tcta = tcta;
            wp.tpos = 0;
            if self.timed {
                wp.ready_at.fill(0);
            }
            for r in wp.regs.iter_mut() {
                *r = [0; LANES];
            }
            let mut active = 0u32;
            for lane in 0..LANES {
                let t = widx * 32 + lane as u32;
                if t < threads {
                    active |= 1 << lane;
                }
                wp.regs[REG_TID as usize][lane] = (t % b[0]) as i64;
                wp.regs[REG_TID as usize + 1][lane] = ((t / b[0]) % b[1]) as i64;
                wp.regs[REG_TID as usize + 2][lane] = (t / (b[0] * b[1])) as i64;
                for (d, &c) in ctaid.iter().enumerate() {
                    wp.regs[REG_CTAID as usize + d][lane] = c;
                }
            }
            wp.active = active;
            wp.state = WState::Mem; // becomes Ready below
            self.age_order.push(w);
            if matches!(self.cfg.sched, SchedPolicy::TwoLevel | SchedPolicy::Pas) {
                self.pq.push_back(w);
            }
        }
        let c = &mut self.ctas[slot];
        c.warps = ws;
        c.live = true;
        c.done = 0;
        c.at_barrier = 0;
        for i in 0..self.wpc as usize {
            let w = self.ctas[slot].warps[i];
            self.settle(w);
            if self.k.trace.is_some() && self.trace_instr(&self.warps[w as usize]).is_none() {
                // An untraced warp has nothing to do.
                self.warps[w as usize].pc = 1;
            }
            self.make_ready(w);
        }
        if let Some(p) = self.prefetcher.as_mut() {
            p.cta_launch(slot as u32);
        }
        self.dac_launched(slot, ctaid);
    }

    fn make_ready(&mut self, w: u16) {
        self.settle(w);
        if self.sb_blocked(w) {
            // Waits for a load's value (non-blocking loads).
            let wp = &mut self.warps[w as usize];
            wp.state = WState::Mem;
            wp.sb_wait = true;
            self.ready &= !(1u64 << w);
            return;
        }
        let wp = &mut self.warps[w as usize];
        wp.sb_wait = false;
        if matches!(self.prog.instrs[wp.pc as usize], Instr::Exit) {
            self.exit_warp(w);
            return;
        }
        wp.state = WState::Ready;
        self.ready |= 1u64 << w;
        self.update_mem_next(w);
        self.operand_wait(w);
    }

    /// Instruction timing: warp `w` (ready) waits until its next
    /// instruction's operands are ready (the registers it reads or
    /// writes).
    fn operand_wait(&mut self, w: u16) {
        if !self.timed {
            return;
        }
        let wp = &self.warps[w as usize];
        let pc = wp.pc as usize;
        let regs: &[u16] = match self.prog.instrs[pc] {
            Instr::Trace => match self.trace_instr(wp) {
                Some(i) => {
                    let t = i
                        .reads
                        .iter()
                        .chain(&i.writes)
                        .map(|&r| wp.ready_at[r as usize]);
                    let wake = t.max().unwrap_or(0);
                    self.wait_until(w, wake);
                    return;
                }
                None => &[],
            },
            _ => &self.reads[pc],
        };
        let wake = regs
            .iter()
            .chain(&self.writes[pc])
            .map(|&r| wp.ready_at[r as usize])
            .max()
            .unwrap_or(0);
        self.wait_until(w, wake);
    }

    fn wait_until(&mut self, w: u16, wake: u64) {
        if wake > self.now + 1 {
            self.warps[w as usize].wake_at = wake;
            self.ready &= !(1u64 << w);
            self.lat_wait |= 1u64 << w;
        }
    }

    /// Instruction timing: the warps whose operands are ready by now can
    /// issue again.
    fn operand_wakeups(&mut self) {
        let mut m = self.lat_wait;
        while m != 0 {
            let w = m.trailing_zeros() as u16;
            m &= m - 1;
            let wp = &self.warps[w as usize];
            if wp.wake_at <= self.now {
                self.lat_wait &= !(1u64 << w);
                if wp.state == WState::Ready {
                    self.ready |= 1u64 << w;
                }
            }
        }
    }

    /// Instruction timing: an instruction of `class` writing `regs` issued
    /// now.
    fn timed_issue(&mut self, w: u16, class: InstrClass, regs: &[u16]) {
        let lat = class.latency(&self.cfg.lat) as u64;
        let wp = &mut self.warps[w as usize];
        for &r in regs {
            wp.ready_at[r as usize] = self.now + lat;
        }
        if let Some(p) = class.pipe() {
            self.pipe_free[p] = self.now + InstrClass::intervals(&self.cfg.lat)[p] as u64;
        }
    }

    /// With non-blocking loads: warp `w`'s next instruction reads a
    /// register a load in flight writes, or is its exit while loads are in
    /// flight.
    fn sb_blocked(&self, w: u16) -> bool {
        if !self.scoreboard {
            return false;
        }
        let wp = &self.warps[w as usize];
        if wp.loads_out.is_empty() {
            return false;
        }
        let pc = wp.pc as usize;
        match self.prog.instrs[pc] {
            Instr::Exit => true,
            // A traced instruction reading a loaded register, or writing
            // one a load in flight writes.
            Instr::Trace => self.trace_instr(wp).is_some_and(|i| {
                i.reads
                    .iter()
                    .chain(&i.writes)
                    .any(|&r| wp.sb[r as usize] > 0)
            }),
            _ => self.reads[pc]
                .iter()
                .chain(&self.writes[pc])
                .any(|&r| wp.sb[r as usize] > 0),
        }
    }

    /// Record what warp `w`'s next instruction needs: the load/store unit
    /// (`mem_next`), a special pipeline (`pipe_next`).
    fn update_mem_next(&mut self, w: u16) {
        let wp = &self.warps[w as usize];
        let (is_mem, class) = match self.prog.instrs[wp.pc as usize] {
            Instr::Load { .. } | Instr::Store { .. } => (true, InstrClass::Alu),
            Instr::Compute { class, .. } => (false, class),
            Instr::Trace => self.trace_instr(wp).map_or((false, InstrClass::Alu), |i| {
                (i.op != super::trace::TraceOp::Compute, i.class)
            }),
            _ => (false, InstrClass::Alu),
        };
        let bit = 1u64 << w;
        if is_mem {
            self.mem_next |= bit;
        } else {
            self.mem_next &= !bit;
        }
        if self.timed {
            for (p, m) in self.pipe_next.iter_mut().enumerate() {
                if class.pipe() == Some(p) {
                    *m |= bit;
                } else {
                    *m &= !bit;
                }
            }
        }
    }

    fn block(&mut self, w: u16, s: WState) {
        self.warps[w as usize].state = s;
        self.ready &= !(1u64 << w);
    }

    fn exit_warp(&mut self, w: u16) {
        self.block(w, WState::Done);
        let wp = &mut self.warps[w as usize];
        wp.leading = false;
        let slot = wp.cta as usize;
        self.age_order.retain(|&x| x != w);
        let c = &mut self.ctas[slot];
        c.done += 1;
        if c.done == self.wpc {
            // The CTA is complete.
            c.live = false;
            for &x in &c.warps {
                self.warps[x as usize].state = WState::Free;
                self.free_warps |= 1u64 << x;
            }
            self.live_ctas -= 1;
            self.ctas_done += 1;
            self.m.ctas += 1;
            self.dac_cta_done(slot);
        } else {
            self.check_barrier(slot);
        }
    }

    fn check_barrier(&mut self, slot: usize) {
        let c = &self.ctas[slot];
        if c.at_barrier > 0 && c.at_barrier == self.wpc - c.done {
            self.ctas[slot].at_barrier = 0;
            self.m.sched.barriers += 1;
            for i in 0..self.ctas[slot].warps.len() {
                let x = self.ctas[slot].warps[i];
                if self.warps[x as usize].state == WState::Barrier {
                    self.make_ready(x);
                }
            }
        }
    }

    // ------------------------------------------------------------ scheduling

    /// Pick and issue one warp instruction; false when none issued.
    fn schedule(&mut self) -> bool {
        if self.timed {
            self.operand_wakeups();
        }
        let mut elig = self.ready;
        let mut pipe_blocked = 0;
        if self.timed {
            for p in 0..3 {
                if self.pipe_free[p] > self.now {
                    pipe_blocked |= elig & self.pipe_next[p];
                    elig &= !self.pipe_next[p];
                }
            }
        }
        if self.ldst.busy {
            if elig & self.mem_next != 0 {
                self.m.sched.ldst_stall_cycles += 1;
            }
            elig &= !self.mem_next;
        }
        let pick = match self.cfg.sched {
            SchedPolicy::Lrr => {
                if elig == 0 {
                    None
                } else {
                    let start = self.last.map(|l| l as u32 + 1).unwrap_or(0);
                    let hi = if start >= 64 {
                        0
                    } else {
                        elig & (u64::MAX << start)
                    };
                    let w = if hi != 0 {
                        hi.trailing_zeros()
                    } else {
                        elig.trailing_zeros()
                    };
                    Some(w as u16)
                }
            }
            SchedPolicy::Gto => {
                if elig == 0 {
                    None
                } else {
                    match self.last {
                        Some(l) if elig & (1u64 << l) != 0 => Some(l),
                        _ => self
                            .age_order
                            .iter()
                            .copied()
                            .find(|&w| elig & (1u64 << w) != 0),
                    }
                }
            }
            SchedPolicy::TwoLevel | SchedPolicy::Pas => self.two_level(elig),
        };
        match pick {
            Some(w) => {
                self.last = Some(w);
                self.issue(w);
                true
            }
            None => {
                self.m.sched.idle_cycles += 1;
                if self.lat_wait != 0 || pipe_blocked != 0 {
                    self.m.sched.operand_wait_cycles += 1;
                }
                false
            }
        }
    }

    fn two_level(&mut self, elig: u64) -> Option<u16> {
        let pas = self.cfg.sched == SchedPolicy::Pas;
        // Demote warps waiting on memory or a barrier; drop exited ones.
        let mut i = 0;
        while i < self.rq.len() {
            let w = self.rq[i];
            let wp = &self.warps[w as usize];
            let (remove, to_pending) = match wp.state {
                WState::Ready => (false, false),
                WState::Mem => (wp.pending_misses > 0, wp.pending_misses > 0),
                WState::Barrier => (true, true),
                WState::Done | WState::Free => (true, false),
            };
            if remove {
                self.rq.remove(i);
                if to_pending {
                    self.pq.push_back(w);
                }
            } else {
                i += 1;
            }
        }
        let cap = self.cfg.ready_queue as usize;
        // PAS (CAPS section V-A): "PAS pushes warps that have this marker
        // set to the front of the ready queue": a ready leading warp in
        // the pending queue moves to the front of the ready queue,
        // displacing the last warp that is not leading when it is full.
        if pas {
            let mut j = 0;
            while j < self.pq.len() {
                let w = self.pq[j];
                let wp = &self.warps[w as usize];
                if wp.state != WState::Ready || !wp.leading {
                    j += 1;
                    continue;
                }
                if self.rq.len() >= cap {
                    let Some(k) = self
                        .rq
                        .iter()
                        .rposition(|&x| !self.warps[x as usize].leading)
                    else {
                        break;
                    };
                    let out = self.rq.remove(k);
                    self.pq.push_back(out);
                }
                self.pq.remove(j);
                self.rq.insert(0, w);
            }
        }
        // Refill from the pending queue: ready warps, leading ones first
        // under PAS.
        while self.rq.len() < cap && !self.pq.is_empty() {
            let mut found = None;
            let mut j = 0;
            while j < self.pq.len() {
                let w = self.pq[j];
                let wp = &self.warps[w as usize];
                match wp.state {
                    WState::Done | WState::Free => {
                        self.pq.remove(j);
                        continue;
                    }
                    WState::Ready => {
                        if !pas || wp.leading {
                            found = Some(j);
                            break;
                        }
                        if found.is_none() {
                            found = Some(j);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            match found {
                Some(j) => {
                    let w = self.pq.remove(j).unwrap();
                    self.rq.push(w);
                }
                None => break,
            }
        }
        if pas {
            if let Some(&w) = self
                .rq
                .iter()
                .find(|&&w| elig & (1u64 << w) != 0 && self.warps[w as usize].leading)
            {
                return Some(w);
            }
        }
        self.rq.iter().copied().find(|&w| elig & (1u64 << w) != 0)
    }

    fn eager_wakeup(&mut self, target: WarpRef) {
        if !self.cfg.eager_wakeup
            || !matches!(self.cfg.sched, SchedPolicy::TwoLevel | SchedPolicy::Pas)
        {
            return;
        }
        let w = match target {
            WarpRef::InCta { cta_slot, warp } => {
                let Some(c) = self.ctas.get(cta_slot as usize) else {
                    return;
                };
                if !c.live || warp as usize >= c.warps.len() {
                    return;
                }
                c.warps[warp as usize]
            }
            WarpRef::Sm(w) if (w as usize) < self.warps.len() => w as u16,
            WarpRef::Sm(_) => return,
        };
        if self.warps[w as usize].state != WState::Ready {
            return;
        }
        let Some(j) = self.pq.iter().position(|&x| x == w) else {
            return;
        };
        self.pq.remove(j);
        if self.rq.len() >= self.cfg.ready_queue as usize {
            if let Some(out) = self.rq.pop() {
                self.pq.push_front(out);
            }
        }
        self.rq.insert(0, w);
        self.pfm.eager_wakeups += 1;
    }

    // ------------------------------------------------------------ execution

    /// Execute the free instructions at the warp's PC: control, and with
    /// DAC the affine lets removed from the non-affine stream (evaluated,
    /// not issued: the harness checks records against the values).
    fn settle(&mut self, w: u16) {
        let wp = &mut self.warps[w as usize];
        loop {
            match self.prog.instrs[wp.pc as usize] {
                // A value's first use: the warp stops here while a load
                // writing it is in flight (non-blocking loads only).
                Instr::Use { reg } => {
                    if wp.sb[reg as usize] > 0 {
                        break;
                    }
                    wp.pc += 1;
                }
                Instr::Let { dst, code } if self.dac.as_ref().is_some_and(|d| d.removed(wp.pc)) => {
                    let z = eval(&self.prog.ops, code, &wp.regs, &mut self.stack) & wp.active;
                    if z != 0 && self.fault.is_none() {
                        self.fault = Some(zero_divisor_error(self.k, code, z, w, self.now));
                    }
                    write_masked(&mut wp.regs[dst as usize], &self.stack[0], wp.active);
                    wp.pc += 1;
                    if let Some(d) = self.dac.as_mut() {
                        d.count_removed();
                    }
                }
                Instr::Else { end_at } => {
                    let f = *wp.stack.last().expect("if frame");
                    wp.active = f.other;
                    if wp.active == 0 {
                        wp.pc = end_at;
                    } else {
                        wp.pc += 1;
                    }
                }
                Instr::EndIf => {
                    let f = wp.stack.pop().expect("if frame");
                    wp.active = f.saved;
                    wp.pc += 1;
                }
                _ => break,
            }
        }
    }

    fn issue(&mut self, w: u16) {
        let prog = self.prog;
        let wi = w as usize;
        let pc = self.warps[wi].pc;
        let ins = prog.instrs[pc as usize];
        self.m.warp_instructions += 1;
        self.m.thread_instructions += self.warps[wi].active.count_ones() as u64;
        if self.timed && !matches!(ins, Instr::Compute { .. } | Instr::Trace) {
            let writes = std::mem::take(&mut self.writes[pc as usize]);
            self.timed_issue(w, InstrClass::Alu, &writes);
            self.writes[pc as usize] = writes;
        }
        match ins {
            Instr::Compute { n, class } => {
                if self.timed {
                    self.timed_issue(w, class, &[]);
                }
                let wp = &mut self.warps[wi];
                if wp.compute_left == 0 {
                    wp.compute_left = n;
                }
                wp.compute_left -= 1;
                if wp.compute_left > 0 {
                    return;
                }
                wp.pc += 1;
            }
            Instr::Let { dst, code } => {
                let wp = &mut self.warps[wi];
                let z = eval(&prog.ops, code, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, code, z, w, self.now));
                }
                write_masked(&mut wp.regs[dst as usize], &self.stack[0], wp.active);
                wp.pc += 1;
            }
            Instr::If { .. } if self.dac_branch_issued(w) => return,
            Instr::If { cond, else_at } => {
                let wp = &mut self.warps[wi];
                let z = eval(&prog.ops, cond, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, cond, z, w, self.now));
                }
                let m = truth_mask(&self.stack[0]) & wp.active;
                wp.take_if(m, else_at);
            }
            Instr::LoopBegin {
                var,
                end,
                start,
                bound,
                step,
                exit_at,
            } => {
                let wp = &mut self.warps[wi];
                let mut z = eval(&prog.ops, start, &wp.regs, &mut self.stack) & wp.active;
                write_masked(&mut wp.regs[var as usize], &self.stack[0], wp.active);
                z |= eval(&prog.ops, bound, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, start, z, w, self.now));
                }
                write_masked(&mut wp.regs[end as usize], &self.stack[0], wp.active);
                let m = loop_mask(&wp.regs[var as usize], &wp.regs[end as usize], step) & wp.active;
                if m == 0 {
                    wp.pc = exit_at;
                } else {
                    wp.stack.push(Frame {
                        saved: wp.active,
                        other: 0,
                    });
                    wp.active = m;
                    wp.pc += 1;
                }
            }
            Instr::LoopEnd { .. } if self.dac_branch_issued(w) => return,
            Instr::LoopEnd {
                var,
                end,
                step,
                body_at,
            } => {
                let wp = &mut self.warps[wi];
                let m = wp.count_loop(var, end, step);
                wp.take_loop_back(m, body_at);
            }
            Instr::Barrier => {
                let slot = self.warps[wi].cta as usize;
                self.warps[wi].pc += 1;
                self.settle(w);
                self.block(w, WState::Barrier);
                self.ctas[slot].at_barrier += 1;
                self.check_barrier(slot);
                return;
            }
            Instr::Load {
                array,
                index,
                dst,
                mem,
            } => {
                self.mem_instr(w, array, index, dst, mem, false);
                self.dac_mem_issued(w, pc);
                self.warps[wi].pc += 1;
                self.settle(w);
                if self.warps[wi].state == WState::Ready && self.sb_blocked(w) {
                    self.make_ready(w);
                }
                self.update_mem_next(w);
                if self.warps[wi].state == WState::Ready {
                    self.operand_wait(w);
                }
                return;
            }
            Instr::Store { array, index, mem } => {
                self.mem_instr(w, array, index, None, mem, true);
                self.dac_mem_issued(w, pc);
                self.warps[wi].pc += 1;
            }
            Instr::Trace => {
                self.trace_issue(w);
                return;
            }
            Instr::Else { .. } | Instr::EndIf | Instr::Exit | Instr::Use { .. } => {
                unreachable!("free instructions are settled")
            }
        }
        self.settle(w);
        if self.warps[wi].state == WState::Ready {
            if self.sb_blocked(w) {
                self.make_ready(w);
            } else if matches!(prog.instrs[self.warps[wi].pc as usize], Instr::Exit) {
                self.exit_warp(w);
            } else {
                self.update_mem_next(w);
                self.operand_wait(w);
            }
        }
    }

    /// The warp's next traced instruction, if any.
    fn trace_instr<'a>(&'a self, wp: &Warp) -> Option<&'a super::trace::ReplayInstr> {
        let t = self.k.trace.as_ref()?;
        t.ctas
            .get(wp.tcta as usize)?
            .1
            .get(wp.widx as usize)?
            .get(wp.tpos as usize)
    }

    fn trace_issue(&mut self, w: u16) {
        use super::trace::TraceOp;
        let wi = w as usize;
        let kernel = self.k;
        let Some(ins) = kernel.trace.as_ref().and_then(|t| {
            let wp = &self.warps[wi];
            t.ctas
                .get(wp.tcta as usize)?
                .1
                .get(wp.widx as usize)?
                .get(wp.tpos as usize)
        }) else {
            self.warps[wi].pc += 1;
            self.exit_warp(w);
            return;
        };
        // Issued with its own mask (the count above used the launch mask).
        self.m.thread_instructions -= self.warps[wi].active.count_ones() as u64;
        self.m.thread_instructions += ins.mask.count_ones() as u64;
        self.warps[wi].tpos += 1;
        let sb_load = ins.op == TraceOp::Load && self.scoreboard;
        if self.timed {
            // A non-blocking load's destinations are the scoreboard's.
            let writes: &[u16] = if sb_load { &[] } else { &ins.writes };
            self.timed_issue(w, ins.class, writes);
        }
        if ins.op != TraceOp::Compute {
            let n = ins.lines.len().min(LANES);
            self.ldst.lines[..n].copy_from_slice(&ins.lines[..n]);
            self.ldst.firsts[..n].copy_from_slice(&ins.firsts[..n]);
            self.ldst.busy = true;
            self.ldst.warp = w;
            self.ldst.load = BLOCKING;
            self.ldst.pc = ins.pc;
            self.ldst.store = ins.op == TraceOp::Store;
            self.ldst.array = u16::MAX;
            self.ldst.n = n;
            self.ldst.next = 0;
            self.m.mem_instructions += 1;
            if ins.op == TraceOp::Load {
                let wp = &mut self.warps[wi];
                let (cta, widx) = (wp.cta, wp.widx);
                if sb_load {
                    // Non-blocking: the destination group waits on the
                    // scoreboard.
                    let id = wp.next_load;
                    wp.next_load = wp.next_load.wrapping_add(1) % BLOCKING;
                    let (dst, ndst) = match (ins.writes.first(), ins.writes.last()) {
                        (Some(&a), Some(&b)) => (a, b - a + 1),
                        _ => (0, 0),
                    };
                    let l = LoadOut {
                        id,
                        dst,
                        ndst,
                        lines: n as u32,
                    };
                    for r in l.regs() {
                        wp.sb[r] += 1;
                    }
                    wp.loads_out.push(l);
                    self.ldst.load = id;
                } else {
                    wp.pending = n as u32;
                    wp.pending_misses = 0;
                    self.block(w, WState::Mem);
                }
                let info = LoadInfo {
                    pc: ins.pc as u64,
                    cta_slot: cta as u32,
                    warp: widx as u32,
                    sm_warp: w as u32,
                    lines: &ins.lines[..n],
                    firsts: &ins.firsts[..n],
                    first_addr: ins.first_addr,
                    uniform: ins.uniform,
                    indirect: false,
                };
                if let Some(p) = self.interwarp.as_mut() {
                    p.load(self.now, &info);
                }
                if let Some(p) = self.prefetcher.as_mut() {
                    p.load(&info);
                }
            }
        }
        let done = self.trace_instr(&self.warps[wi]).is_none();
        if done {
            // The warp exits after its last traced instruction (once its
            // last load has returned).
            self.warps[wi].pc += 1;
        }
        if self.warps[wi].state == WState::Ready {
            if self.sb_blocked(w) {
                self.make_ready(w);
            } else if done {
                self.exit_warp(w);
            } else {
                self.update_mem_next(w);
                self.operand_wait(w);
            }
        } else {
            self.update_mem_next(w);
        }
    }

    fn mem_instr(
        &mut self,
        w: u16,
        array: u16,
        index: super::expr::Code,
        dst: Option<u16>,
        mem: u16,
        store: bool,
    ) {
        let prog = self.prog;
        let kernel = self.k;
        let wi = w as usize;
        let a = &kernel.arrays[array as usize];
        let wp = &mut self.warps[wi];
        let z = eval(&prog.ops, index, &wp.regs, &mut self.stack) & wp.active;
        if z != 0 && self.fault.is_none() {
            self.fault = Some(zero_divisor_error(kernel, index, z, w, self.now));
        }
        let idx = &self.stack[0];
        let active = wp.active;
        let base = a.base;
        let elem = a.elem as u64;
        let len = a.len;
        let lm = self.line_mask;
        let mut n = 0usize;
        let mut oob = 0u64;
        let lines = &mut self.ldst.lines;
        let firsts = &mut self.ldst.firsts;
        let mut sorted = true;
        // The lowest active thread's address, and whether every active
        // thread is one stride per lane from it (for Snake).
        let mut first: Option<(u32, u64)> = None;
        let mut stride: Option<i64> = None;
        let mut uniform = true;
        for (lane, &ix) in idx.iter().enumerate() {
            if active & (1 << lane) == 0 {
                continue;
            }
            if ix < 0 || ix as u64 >= len {
                oob += 1;
            }
            let addr = base.wrapping_add((ix as u64).wrapping_mul(elem)) & 0xFFFF_FFFF;
            match first {
                None => first = Some((lane as u32, addr)),
                Some((l0, a0)) if uniform => {
                    let dl = lane as i64 - l0 as i64;
                    let da = (addr.wrapping_sub(a0) & 0xFFFF_FFFF) as u32 as i32 as i64;
                    match stride {
                        None if da % dl == 0 => stride = Some(da / dl),
                        Some(s) if s * dl == da => {}
                        _ => uniform = false,
                    }
                }
                Some(_) => {}
            }
            let line = addr & lm;
            if n > 0 && line == lines[n - 1] {
                firsts[n - 1] = firsts[n - 1].min(addr);
                continue;
            }
            if n > 0 && line < lines[n - 1] {
                sorted = false;
            }
            lines[n] = line;
            firsts[n] = addr;
            n += 1;
        }
        if !sorted {
            // By line, lowest byte first; keep each line's first pair.
            let mut pairs = [(0u64, 0u64); LANES];
            for i in 0..n {
                pairs[i] = (lines[i], firsts[i]);
            }
            pairs[..n].sort_unstable();
            let mut m = 0;
            for &(line, first) in &pairs[..n] {
                if m == 0 || line != lines[m - 1] {
                    lines[m] = line;
                    firsts[m] = first;
                    m += 1;
                }
            }
            n = m;
        }
        if let Some(d) = dst {
            let regs = &mut wp.regs[d as usize];
            for lane in 0..LANES {
                if active & (1 << lane) != 0 {
                    regs[lane] = a.value(idx[lane]);
                }
            }
        }
        self.m.out_of_bounds += oob;
        self.m.mem_instructions += 1;
        self.ldst.busy = true;
        self.ldst.warp = w;
        self.ldst.store = store;
        self.ldst.array = array;
        self.ldst.n = n;
        self.ldst.next = 0;
        self.ldst.load = BLOCKING;
        self.ldst.pc = prog.pcs_of_mem(mem);
        if store {
            return;
        }
        let (cta, widx) = (wp.cta, wp.widx);
        if self.scoreboard {
            // Non-blocking: the warp goes on; its value's first use waits.
            let id = wp.next_load;
            wp.next_load = wp.next_load.wrapping_add(1) % BLOCKING;
            wp.loads_out.push(LoadOut {
                id,
                dst: dst.unwrap_or(0),
                ndst: dst.is_some() as u16,
                lines: n as u32,
            });
            if let Some(d) = dst {
                wp.sb[d as usize] += 1;
            }
            self.ldst.load = id;
        } else {
            wp.pending = n as u32;
            wp.pending_misses = 0;
            self.block(w, WState::Mem);
        }
        let info = LoadInfo {
            pc: prog.pcs_of_mem(mem) as u64,
            cta_slot: cta as u32,
            warp: widx as u32,
            sm_warp: w as u32,
            lines: &self.ldst.lines[..n],
            firsts: &self.ldst.firsts[..n],
            first_addr: first.map_or(0, |(_, a)| a),
            uniform,
            indirect: self.cfg.caps_hint && prog.mems[mem as usize].indirect,
        };
        if let Some(p) = self.interwarp.as_mut() {
            p.load(self.now, &info);
        }
        if let Some(p) = self.prefetcher.as_mut() {
            p.load(&info);
        }
    }

    fn check_idle(&mut self, can_skip: bool) -> Result<(), HarnessError> {
        if self.ready != 0 || self.ldst.busy || self.last_access.is_some() || self.can_launch() {
            return Ok(());
        }
        let mut next = u64::MAX;
        if let Some(&(t, _, _)) = self.hitq.front() {
            next = next.min(t);
        }
        let mut m = self.lat_wait;
        while m != 0 {
            let w = m.trailing_zeros() as usize;
            m &= m - 1;
            next = next.min(self.warps[w].wake_at);
        }
        if let Some(t) = self.mem.borrow().next_event(self.now) {
            next = next.min(t);
        }
        if next == u64::MAX {
            // DAC: work under way, or a batch about to open.
            let dac_next = self.dac.is_some() && self.live_ctas == 0 && self.can_launch_later();
            if self.prefetcher.as_ref().is_some_and(|p| p.busy())
                || self.dac.as_ref().is_some_and(|d| d.busy())
                || dac_next
            {
                return Ok(());
            }
            let waiting: Vec<String> = self
                .warps
                .iter()
                .enumerate()
                .filter(|(_, w)| matches!(w.state, WState::Mem | WState::Barrier))
                .map(|(i, w)| format!("warp {i} ({:?} at instruction {})", w.state, w.pc))
                .take(8)
                .collect();
            return Err(HarnessError::Deadlock {
                cycle: self.now,
                detail: format!(
                    "no warp can issue and nothing is in flight; waiting: {}",
                    waiting.join(", ")
                ),
            });
        }
        if can_skip && next > self.now + 1 {
            // The skipped cycles are idle ones.
            self.m.sched.idle_cycles += next - 1 - self.now;
            self.now = next - 1;
        }
        Ok(())
    }

    /// The SM's metrics at the end of the run.
    pub(crate) fn finish(mut self) -> Result<Metrics, HarnessError> {
        let cycles = self.now;
        let m = &mut self.m;
        m.cycles = cycles;
        m.ipc = ratio(m.warp_instructions, cycles);
        let l: &mut L1Metrics = &mut m.l1;
        l.miss_rate = if l.accesses == 0 {
            0.0
        } else {
            1.0 - ratio(l.hits, l.accesses)
        };
        (l.burst_peak, l.burst_cv) = std::mem::take(&mut self.bursts).finish(cycles);
        let mm: &mut MemMetrics = &mut m.memory;
        mm.bandwidth_utilisation = self.mem.borrow().link_utilisation(self.port, cycles);
        mm.lower = self.mem.borrow().stats();
        mm.l2_miss_rate = if mm.lower.l2_reads == 0 {
            0.0
        } else {
            1.0 - ratio(mm.lower.l2_read_hits, mm.lower.l2_reads)
        };
        if let Some(pf) = self.prefetcher.as_mut() {
            pf.finish()?;
            let mut p = std::mem::take(&mut self.pfm);
            p.unused_at_end = self.pf.len() as u64;
            let used = p.useful + p.late;
            p.coverage = ratio(used, m.l1.accesses);
            p.accuracy = ratio(used, p.issued);
            p.timely_per_demand = ratio(p.useful, m.l1.accesses);
            p.issued_per_demand = ratio(p.issued, m.l1.accesses);
            p.caps_coverage = ratio(p.offered, m.l1.accesses);
            p.avg_distance = ratio(self.distance_sum, used);
            p.counts = pf.counts();
            m.prefetch = Some(p);
        }
        self.tags.finish()?;
        self.dac_finish()?;
        let m = &mut self.m;
        m.l1.counts = self.tags.counts();
        m.reuse = self.reuse.take().map(|r| r.finish(&self.prog.mems));
        m.interwarp = self.interwarp.take().map(|p| p.finish());
        m.arrays = std::mem::take(&mut self.arrays);
        Ok(std::mem::take(&mut self.m))
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
    let deal = Rc::new(Cell::new(0u64));
    let mut sms = Vec::with_capacity(n as usize);
    for id in 0..n {
        let mut none = RunOptions::default();
        let o = if id == cfg.cosim_sm {
            &mut *opts
        } else {
            &mut none
        };
        sms.push(Sm::new_shared(k, cfg, o, id, mem.clone(), deal.clone())?);
    }
    let reset = cfg.reset_cycles as u64;
    let total = k.total_ctas();
    let interval = opts.progress_interval.max(1);
    let mut next_progress = interval;
    let mut done = vec![false; n as usize];
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

/// The units of the run, each built with its probes and recorders (from
/// `opts`, by unit name) as its role object: the prefetcher and the L1 tag
/// array (`None`: the native choice). A probe or recording for a unit that
/// is not in the run is an error naming the option that would add it.
struct Attachments {
    prefetcher: Option<Box<dyn PrefetcherRole>>,
    tags: Option<Box<dyn L1Role>>,
    expander: Option<Box<dyn ExpanderRole>>,
}

fn attach_units(
    k: &Kernel,
    cfg: &MachineConfig,
    wpc: u32,
    occ: u32,
    opts: &mut RunOptions,
) -> Result<Attachments, HarnessError> {
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
    let mut prefetcher = None;
    let mut tags = None;
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
            RoleObject::Prefetcher(p) => prefetcher = Some(p),
            RoleObject::L1(t) => tags = Some(t),
            RoleObject::Expander(x) => expander = Some(x),
        }
    }
    // A baseline prefetcher (golden model only, no unit).
    if let Some(b) = super::baselines::find(cfg.choice(Role::Prefetcher)) {
        prefetcher = Some((b.build)(cfg.l1_line as u64));
    }
    // A baseline L1 tag array (golden model only, no unit).
    if let Some(b) = super::baselines::find_l1(cfg.choice(Role::L1)) {
        tags = Some((b.build)(cfg));
    }
    Ok(Attachments {
        prefetcher,
        tags,
        expander,
    })
}

impl Program {
    /// PC of memory instruction `mem`.
    #[inline]
    pub(crate) fn pcs_of_mem(&self, mem: u16) -> u32 {
        self.mems[mem as usize].pc
    }
}

#[inline]
fn write_masked(dst: &mut Lanes, src: &Lanes, active: u32) {
    if active == FULL {
        *dst = *src;
    } else {
        for lane in 0..LANES {
            if active & (1 << lane) != 0 {
                dst[lane] = src[lane];
            }
        }
    }
}

#[inline]
fn truth_mask(v: &Lanes) -> u32 {
    let mut m = 0u32;
    for (lane, &x) in v.iter().enumerate() {
        m |= ((x != 0) as u32) << lane;
    }
    m
}

#[inline]
fn loop_mask(var: &Lanes, end: &Lanes, step: i64) -> u32 {
    let mut m = 0u32;
    for lane in 0..LANES {
        let go = if step > 0 {
            var[lane] < end[lane]
        } else {
            var[lane] > end[lane]
        };
        m |= (go as u32) << lane;
    }
    m
}
