//! The SM's side of DAC (`harness::dac` has the decoupling and the affine
//! warp): batches of CTAs, the affine warp's issue slot, the dequeue port
//! shared by the load/store unit and the branches, the early requests with
//! their line locks, and the checks of every record and mask against what
//! the warp computes itself.
//!
//! # Per cycle (the steps of the `sm` module's cycle, where they fit)
//! - before CTA launch: when the previous batch is finished (no CTA live,
//!   the affine stream done, the unit empty), a new batch opens: CTAs
//!   launch into every free slot, one per cycle, each reported to the unit
//!   (`cta_launch`); when no more can join (every slot full, or no CTA
//!   left to deal: in an all-SM run other SMs may take the last ones) the
//!   affine warp starts (the paper: "DAC executes the affine warp once for each batch of
//!   concurrent non-affine warps");
//! - after CTA launch: one finished CTA is reported (`cta_done`); the
//!   response to the previous cycle's dequeue is taken; one dequeue is
//!   sent. Dequeue clients wait in one round-robin queue: the load/store
//!   unit's decoupled instruction (address records, until the `last` one)
//!   and each branch waiting for its mask. A miss (empty queue) moves the
//!   client to the back;
//! - at the L1 port: a demand line first; else the unit's early request:
//!   taken when, if its line is neither present nor in flight, an MSHR and
//!   miss-queue room are free; it looks the line up in the tag array (a
//!   miss allocates it) and locks it, unless its set already has `ways -
//!   1` locked lines (a line already locked always can be locked again):
//!   then it goes unlocked;
//! - at issue: the affine warp first, when it can issue; else the
//!   scheduler's pick.
//!
//! A lock is a count per line: +1 per early request taken, -1 per record
//! of a decoupled load when the warp's demand request for its line
//! reaches the L1. A record can reach its warp before its early request is
//! taken (the unit's request register holds it), so the count may go
//! below zero; the line is pinned in the tag array while it is above zero.
//! An early request that went unlocked is counted per line, and a record
//! of that line releases that count first. Every count is back to zero at
//! the end of a run (checked).
//!
//! Why a request goes unlocked rather than waiting for its set: a warp's
//! load goes to the L1 only after its last record, and only that access
//! releases the locks its records took; a warp whose records name more
//! lines of one set than `ways - 1` would wait for itself (found by the
//! random-kernel property test of `tests/tests/harness_dac.rs`: a 16 x 16
//! block reading `A[3 * (tid.x - tid.y)]` on a 2-way L1).

use std::collections::{HashMap, VecDeque};

use super::super::dac::{AffineWarp, AwIssue, Plan, Step};
use super::super::expr::{eval, LANES};
use super::super::kernel::{zero_divisor_error, Instr};
use super::super::metrics::{ratio, DacMetrics};
use super::super::roles::{ExpanderRole, TupleKind};
use super::{truth_mask, Access, Sm, WState};
use crate::error::HarnessError;
use crate::hash::FxBuild;

/// Who waits at the dequeue port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Client {
    /// Warp (SM slot) waiting for the address records of its load or
    /// store.
    Addr(u16),
    /// Warp waiting for its branch mask.
    Pred(u16),
}

/// The decoupled run: the plan and the affine warp.
struct Decoupled {
    plan: Plan,
    aw: AffineWarp,
}

/// A warp's decoupled load or store, from issue until the load/store unit
/// takes it.
#[derive(Default)]
struct WarpDeq {
    /// A load (its records were early requests: locks to release).
    data: bool,
    store: bool,
    array: u16,
    size: u32,
    /// Program counter of the instruction (for error messages).
    pc: u32,
    /// The lines the records name, in record order, with the number of
    /// records naming each.
    lines: Vec<(u64, u32)>,
    /// The chunk addresses the warp's lanes access, sorted, and those
    /// the records name.
    expect: Vec<u64>,
    got: Vec<u64>,
}

/// DAC's state in the SM.
pub(super) struct DacState {
    unit: Box<dyn ExpanderRole>,
    dec: Option<Decoupled>,
    launching: bool,
    clients: VecDeque<Client>,
    sent: Option<Client>,
    done_q: VecDeque<u32>,
    /// Per warp slot.
    pw: Vec<WarpDeq>,
    /// Warps whose records are complete, waiting for the load/store unit.
    ldst_q: VecDeque<u16>,
    /// The load/store unit's instruction is a decoupled load: per line,
    /// the records (locks) naming it.
    ldst_data: bool,
    ldst_records: [u32; LANES],
    locks: HashMap<u64, i64, FxBuild>,
    /// Per line: early requests taken without a lock whose records are
    /// not yet accessed.
    unlocked: HashMap<u64, u64, FxBuild>,
    set_locked: Vec<u32>,
    locked_lines: u64,
    /// Consecutive dequeue misses with nothing left to expand.
    starved: u32,
    m: DacMetrics,
}

impl DacState {
    /// DAC for kernel `k` with the unit `unit`: decoupled if the kernel
    /// can be, else idle with the reason in the metrics.
    pub(super) fn new(
        unit: Box<dyn ExpanderRole>,
        k: &super::Kernel,
        sets: usize,
        warps: usize,
    ) -> DacState {
        let mut m = DacMetrics::default();
        let dec = match Plan::new(k) {
            Ok(plan) => {
                m.decoupled = true;
                let aw = AffineWarp::new(&plan);
                Some(Decoupled { plan, aw })
            }
            Err(reason) => {
                m.reason = reason;
                None
            }
        };
        DacState {
            unit,
            dec,
            launching: false,
            clients: VecDeque::new(),
            sent: None,
            done_q: VecDeque::new(),
            pw: (0..warps).map(|_| WarpDeq::default()).collect(),
            ldst_q: VecDeque::new(),
            ldst_data: false,
            ldst_records: [0; LANES],
            locks: HashMap::default(),
            unlocked: HashMap::default(),
            set_locked: vec![0; sets],
            locked_lines: 0,
            starved: 0,
            m,
        }
    }

    /// Whether CTAs may launch now (in a decoupled run: only while a batch
    /// opens).
    pub(super) fn allows_launch(&self) -> bool {
        self.dec.is_none() || self.launching
    }

    /// The unit needs every cycle simulated.
    pub(super) fn needs_every_cycle(&self) -> bool {
        self.unit.needs_every_cycle()
    }

    /// Whether DAC still has work under way (no deadlock while it has).
    pub(super) fn busy(&self) -> bool {
        self.launching
            || self.dec.as_ref().is_some_and(|d| d.aw.running())
            || self.unit.tuples_held() > 0
            || self.unit.early_request().is_some()
            || !self.done_q.is_empty()
            || self.sent.is_some()
            || !self.ldst_q.is_empty()
    }

    /// The step of instruction `pc` in a decoupled run.
    #[inline]
    fn step_of(&self, pc: u32) -> Option<Step> {
        self.dec.as_ref().map(|d| d.plan.steps[pc as usize])
    }

    /// Whether the non-affine warps skip instruction `pc`.
    #[inline]
    pub(super) fn removed(&self, pc: u32) -> bool {
        self.dec.as_ref().is_some_and(|d| d.plan.removed(pc))
    }

    pub(super) fn count_removed(&mut self) {
        self.m.removed += 1;
    }
}

impl Sm<'_> {
    /// Open a new batch when the previous one is finished.
    pub(super) fn dac_batch(&mut self) {
        let live = self.live_ctas;
        let more = self.can_launch_later();
        let Some(d) = self.dac.as_mut() else {
            return;
        };
        let Some(dec) = d.dec.as_ref() else {
            return;
        };
        if !d.launching
            && more
            && live == 0
            && !dec.aw.running()
            && d.done_q.is_empty()
            && d.unit.tuples_held() == 0
        {
            d.launching = true;
        }
    }

    /// A CTA launched into `slot` with index `ctaid`: tell the unit.
    pub(super) fn dac_launched(&mut self, slot: usize, ctaid: [i64; 3]) {
        let Some(d) = self.dac.as_mut() else {
            return;
        };
        if d.dec.is_some() {
            d.unit
                .cta_launch(slot as u32, ctaid[0] as u32, ctaid[1] as u32);
        }
    }

    /// The batch closes when no more CTAs can join it (every slot full, or
    /// none left to deal: in an all-SM run the other SMs may take the last
    /// ones): the affine warp starts, unless no CTA launched at all.
    fn dac_close_batch(&mut self) {
        let live = self.live_ctas;
        let full = live == self.occ || !self.can_launch_later();
        let Some(d) = self.dac.as_mut() else {
            return;
        };
        let Some(dec) = d.dec.as_mut() else {
            return;
        };
        if d.launching && full {
            d.launching = false;
            if live > 0 {
                dec.aw.start(&dec.plan);
                d.m.batches += 1;
            }
        }
    }

    /// The CTA in `slot` finished.
    pub(super) fn dac_cta_done(&mut self, slot: usize) {
        if let Some(d) = self.dac.as_mut() {
            if d.dec.is_some() {
                d.done_q.push_back(slot as u32);
            }
        }
    }

    /// This cycle's `cta_done`, the previous dequeue's response and this
    /// cycle's dequeue.
    pub(super) fn dac_cycle(&mut self) -> Result<(), HarnessError> {
        self.dac_close_batch();
        let Some(d) = self.dac.as_mut() else {
            return Ok(());
        };
        if let Some(dec) = d.dec.as_ref() {
            d.unit.shape(dec.plan.shape);
        }
        if let Some(slot) = d.done_q.pop_front() {
            d.unit.cta_done(slot);
        }
        if let Some(client) = d.sent.take() {
            let rsp = d.unit.response().ok_or_else(|| {
                HarnessError::Internal(format!(
                    "cycle {}: the expansion unit gave no response to a dequeue",
                    self.now
                ))
            })?;
            if !rsp.hit {
                d.m.deq_misses += 1;
                d.clients.retain(|&c| c != client);
                d.clients.push_back(client);
                let idle = !d.dec.as_ref().is_some_and(|x| x.aw.running())
                    && d.unit.tuples_held() == 0
                    && !d.launching;
                d.starved = if idle { d.starved + 1 } else { 0 };
                if d.starved > 4 {
                    return Err(HarnessError::Deadlock {
                        cycle: self.now,
                        detail: format!(
                            "DAC: {client:?} waits for a record or mask the affine warp never \
                             enqueued"
                        ),
                    });
                }
            } else {
                d.starved = 0;
                match client {
                    Client::Addr(w) => {
                        self.dac_record(w, rsp.addr, rsp.mask, rsp.size, rsp.last)?
                    }
                    Client::Pred(w) => self.dac_branch_done(w, rsp.mask)?,
                }
            }
        }
        let d = self.dac.as_mut().expect("dac");
        if let Some(&c) = d.clients.front() {
            let (w, pred) = match c {
                Client::Addr(w) => (w, false),
                Client::Pred(w) => (w, true),
            };
            let wp = &self.warps[w as usize];
            let unit_warp = wp.cta as u32 * self.wpc + wp.widx as u32;
            d.unit.dequeue(unit_warp, pred);
            d.sent = Some(c);
        }
        Ok(())
    }

    /// An address record for warp `w`'s load or store.
    fn dac_record(
        &mut self,
        w: u16,
        addr: u64,
        mask: u32,
        size: u32,
        last: bool,
    ) -> Result<(), HarnessError> {
        let lm = self.line_mask;
        let d = self.dac.as_mut().expect("dac");
        d.m.records += 1;
        let q = &mut d.pw[w as usize];
        if size != q.size {
            let want = q.size;
            return Err(self.dac_mismatch(
                w,
                format!("a record of access size {size} for an access of {want} bytes"),
            ));
        }
        for j in 0..32u64 {
            if mask & (1 << j) != 0 {
                q.got.push((addr + j * size as u64) & 0xFFFF_FFFF);
            }
        }
        let line = addr & lm;
        match q.lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, n)) => *n += 1,
            None => q.lines.push((line, 1)),
        }
        if q.lines.len() > LANES {
            return Err(self.dac_mismatch(w, "more than 32 lines".into()));
        }
        if !last {
            // Stays at the front of the queue for its next record.
            d.clients.retain(|&c| c != Client::Addr(w));
            d.clients.push_front(Client::Addr(w));
            return Ok(());
        }
        d.clients.retain(|&c| c != Client::Addr(w));
        q.got.sort_unstable();
        q.got.dedup();
        if q.got != q.expect {
            let (e, g) = (q.expect.clone(), q.got.clone());
            return Err(self.dac_mismatch(
                w,
                format!(
                    "the records name the chunks {} but the warp's lanes access {}",
                    chunks(&g),
                    chunks(&e)
                ),
            ));
        }
        d.ldst_q.push_back(w);
        Ok(())
    }

    fn dac_mismatch(&self, w: u16, what: String) -> HarnessError {
        let pc = self.dac.as_ref().map_or(0, |d| d.pw[w as usize].pc);
        let line = match self.prog.instrs[pc as usize] {
            Instr::Load { mem, .. } | Instr::Store { mem, .. } => self.prog.mems[mem as usize].line,
            _ => 0,
        };
        HarnessError::Unsupported(format!(
            "DAC: kernel {} line {line}, warp {w}: {what} (a value beyond 32 bits?)",
            self.k.name
        ))
    }

    /// A warp issued a load or store at `pc` whose lines `mem_instr` put in
    /// the load/store unit: if it is decoupled, the unit is released and
    /// the warp waits for its records instead (checked against these
    /// lanes), then for the load/store unit. Returns whether it was
    /// decoupled.
    pub(super) fn dac_mem_issued(&mut self, w: u16, pc: u32) -> bool {
        let Some(d) = self.dac.as_mut() else {
            return false;
        };
        let Some(Step::Enq { kind, size }) = d.step_of(pc) else {
            // Not decoupled: it holds the load/store unit, with no locks.
            d.ldst_data = false;
            return false;
        };
        let (array, index) = match self.prog.instrs[pc as usize] {
            Instr::Load { array, index, .. } | Instr::Store { array, index, .. } => (array, index),
            _ => return false,
        };
        d.m.decoupled_mem_instructions += 1;
        let a = &self.k.arrays[array as usize];
        let wp = &mut self.warps[w as usize];
        let z = eval(&self.prog.ops, index, &wp.regs, &mut self.stack) & wp.active;
        if z != 0 && self.fault.is_none() {
            self.fault = Some(zero_divisor_error(self.k, index, z, w, self.now));
        }
        let q = &mut d.pw[w as usize];
        q.data = kind == TupleKind::Data;
        q.store = self.ldst.store;
        q.array = array;
        q.size = size;
        q.pc = pc;
        q.lines.clear();
        q.expect.clear();
        q.got.clear();
        for lane in 0..LANES {
            if wp.active & (1 << lane) != 0 {
                let addr = a
                    .base
                    .wrapping_add((self.stack[0][lane] as u64).wrapping_mul(a.elem as u64))
                    & 0xFFFF_FFFF;
                q.expect.push(addr & !(size as u64 - 1));
            }
        }
        q.expect.sort_unstable();
        q.expect.dedup();
        // With non-blocking loads a decoupled load still holds its warp
        // until its data is back (its lines come with its records): it
        // leaves the scoreboard.
        if self.scoreboard && kind == TupleKind::Data {
            if let Some(l) = wp.loads_out.pop() {
                for r in l.regs() {
                    wp.sb[r] -= 1;
                }
            }
        }
        // The load/store unit is not held while the records come. The
        // wait counts as a long one (the two-level scheduler demotes the
        // warp, as for a miss).
        self.ldst.busy = false;
        wp.pending = 1;
        wp.pending_misses = 1;
        d.clients.push_back(Client::Addr(w));
        self.block(w, WState::Mem);
        true
    }

    /// The load/store unit is free: give it the next warp whose records
    /// are complete. A store's warp goes on; a load's waits for its lines.
    pub(super) fn dac_ldst_take(&mut self) {
        let Some(d) = self.dac.as_mut() else {
            return;
        };
        let Some(w) = d.ldst_q.pop_front() else {
            return;
        };
        let q = &mut d.pw[w as usize];
        let n = q.lines.len();
        for (i, &(line, records)) in q.lines.iter().enumerate() {
            self.ldst.lines[i] = line;
            d.ldst_records[i] = records;
        }
        d.ldst_data = q.data;
        self.ldst.busy = true;
        self.ldst.warp = w;
        self.ldst.load = super::BLOCKING;
        self.ldst.pc = match self.prog.instrs[q.pc as usize] {
            Instr::Load { mem, .. } | Instr::Store { mem, .. } => self.prog.pcs_of_mem(mem),
            _ => 0,
        };
        self.ldst.store = q.store;
        self.ldst.array = q.array;
        self.ldst.n = n;
        self.ldst.next = 0;
        let wp = &mut self.warps[w as usize];
        wp.pending_misses = 0;
        if q.store {
            wp.pending = 0;
            if wp.state == WState::Mem {
                self.make_ready(w);
            }
        } else {
            wp.pending = n as u32;
        }
    }

    /// Line `i` of the load/store unit's decoupled load reached the L1
    /// (`state`: where its line was just before: 0 present, 1 in flight, 2
    /// absent): count its timeliness and release its records' locks.
    pub(super) fn dac_demand_served(&mut self, i: usize, state: u8) {
        let line = self.ldst.lines[i];
        let Some(d) = self.dac.as_mut() else {
            return;
        };
        if !d.ldst_data {
            return;
        }
        match state {
            0 => d.m.decoupled_hits += 1,
            1 => d.m.decoupled_pending += 1,
            _ => d.m.decoupled_misses += 1,
        }
        // Records whose early request went unlocked release nothing.
        let mut k = d.ldst_records[i] as u64;
        if let Some(n) = d.unlocked.get_mut(&line) {
            let take = k.min(*n);
            *n -= take;
            k -= take;
            if *n == 0 {
                d.unlocked.remove(&line);
            }
        }
        if k > 0 {
            self.dac_lock(line, -(k as i64));
        }
    }

    fn dac_lock(&mut self, line: u64, delta: i64) {
        let sets = self.cfg.l1_sets() as u64;
        let shift = self.cfg.l1_line.trailing_zeros();
        let set = ((line >> shift) % sets) as usize;
        let d = self.dac.as_mut().expect("dac");
        let old = d.locks.get(&line).copied().unwrap_or(0);
        let new = old + delta;
        if new == 0 {
            d.locks.remove(&line);
        } else {
            d.locks.insert(line, new);
        }
        if old <= 0 && new > 0 {
            d.set_locked[set] += 1;
            d.locked_lines += 1;
            d.m.max_locked_lines = d.m.max_locked_lines.max(d.locked_lines);
            self.tags.set_locked(line, true);
        } else if old > 0 && new <= 0 {
            d.set_locked[set] -= 1;
            d.locked_lines -= 1;
            self.tags.set_locked(line, false);
        }
    }

    /// The L1 port is free this cycle: take the unit's early request if it
    /// can be. Returns whether the port was used.
    pub(super) fn dac_early(&mut self) -> bool {
        let Some(d) = self.dac.as_mut() else {
            return false;
        };
        let Some(addr) = d.unit.early_request() else {
            return false;
        };
        let line = addr & self.line_mask & 0xFFFF_FFFF;
        let sets = self.cfg.l1_sets() as u64;
        let set = ((line >> self.cfg.l1_line.trailing_zeros()) % sets) as usize;
        // A request that would pin one more line in a set that already
        // has `ways - 1` pinned goes unlocked: waiting for room could
        // deadlock (a warp's own records may need more locks in one set,
        // and only its access, after its last record, releases them).
        let pins = d.locks.get(&line).copied().unwrap_or(0) == 0;
        let lock = !(pins && d.set_locked[set] + 1 >= self.cfg.l1_ways);
        let in_flight = self.find_mshr(line).is_some();
        let present = !in_flight && self.tags.holds_data(line);
        let d = self.dac.as_mut().expect("dac");
        if in_flight {
            d.m.early_in_flight += 1;
        } else if present {
            d.m.early_present += 1;
        } else {
            if self.mshr_used >= self.mshr.len() || !self.mem.borrow().room(self.port) {
                d.m.early_stall_cycles += 1;
                return false;
            }
            d.m.early_misses += 1;
            self.alloc_mshr(line);
            self.mem_push(line, false, false);
        }
        let d = self.dac.as_mut().expect("dac");
        d.m.early_requests += 1;
        d.unit.accept_early();
        if lock {
            self.dac_lock(line, 1);
        } else {
            d.m.unlocked_requests += 1;
            *d.unlocked.entry(line).or_insert(0) += 1;
        }
        self.tags.request(line, false);
        self.last_access = Some(Access::Early);
        true
    }

    /// Give the affine warp the issue slot; whether it issued.
    pub(super) fn dac_issue(&mut self) -> Result<bool, HarnessError> {
        let k = self.k;
        let Some(d) = self.dac.as_mut() else {
            return Ok(false);
        };
        let Some(dec) = d.dec.as_mut() else {
            return Ok(false);
        };
        let can = d.unit.can_enqueue();
        let r = dec
            .aw
            .issue(k, &dec.plan, can)
            .map_err(|e| HarnessError::Internal(format!("DAC affine warp: {e}")))?;
        match r {
            AwIssue::Idle => Ok(false),
            AwIssue::Blocked => {
                d.m.enq_stall_cycles += 1;
                Ok(false)
            }
            AwIssue::Issued => {
                d.m.affine_instructions += 1;
                self.m.warp_instructions += 1;
                Ok(true)
            }
            AwIssue::Enqueue(t) => {
                d.unit.enqueue(&t);
                match t.kind {
                    TupleKind::Data => d.m.tuples_data += 1,
                    TupleKind::Addr => d.m.tuples_addr += 1,
                    TupleKind::Pred => d.m.tuples_pred += 1,
                }
                d.m.affine_instructions += 1;
                self.m.warp_instructions += 1;
                Ok(true)
            }
        }
    }

    /// Warp `w` issued the branch at its PC: if it is decoupled, the warp
    /// waits for its mask. Returns whether it was.
    pub(super) fn dac_branch_issued(&mut self, w: u16) -> bool {
        let pc = self.warps[w as usize].pc;
        let Some(d) = self.dac.as_mut() else {
            return false;
        };
        if !matches!(d.step_of(pc), Some(Step::EnqPred { .. } | Step::LoopBack)) {
            return false;
        }
        d.m.decoupled_branches += 1;
        d.clients.push_back(Client::Pred(w));
        let wp = &mut self.warps[w as usize];
        wp.pending = 1;
        // A long wait for the two-level scheduler (see `dac_mem_issued`).
        wp.pending_misses = 1;
        self.block(w, WState::Mem);
        true
    }

    /// Warp `w`'s branch mask arrived: take the branch (checked against the
    /// condition the warp computes).
    fn dac_branch_done(&mut self, w: u16, mask: u32) -> Result<(), HarnessError> {
        let d = self.dac.as_mut().expect("dac");
        d.m.masks += 1;
        d.clients.retain(|&c| c != Client::Pred(w));
        let wi = w as usize;
        let pc = self.warps[wi].pc;
        let wp = &mut self.warps[wi];
        let own = match self.prog.instrs[pc as usize] {
            Instr::If { cond, .. } => {
                let z = eval(&self.prog.ops, cond, &wp.regs, &mut self.stack) & wp.active;
                if z != 0 && self.fault.is_none() {
                    self.fault = Some(zero_divisor_error(self.k, cond, z, w, self.now));
                }
                truth_mask(&self.stack[0]) & wp.active
            }
            // The counter is the warp's own (loop starts are in both
            // streams): advanced here, for free.
            Instr::LoopEnd { var, end, step, .. } => wp.count_loop(var, end, step),
            _ => {
                return Err(HarnessError::Internal(format!(
                    "DAC: warp {w} waits for a mask at instruction {pc}, not a branch"
                )))
            }
        };
        if own != mask {
            return Err(HarnessError::Unsupported(format!(
                "DAC: kernel {}, the branch at instruction {pc}: the unit's mask {mask:#010x} \
                 differs from warp {w}'s {own:#010x} (a value beyond 32 bits?)",
                self.k.name
            )));
        }
        match self.prog.instrs[pc as usize] {
            Instr::If { else_at, .. } => wp.take_if(mask, else_at),
            Instr::LoopEnd { body_at, .. } => wp.take_loop_back(mask, body_at),
            _ => {}
        }
        wp.pending = 0;
        wp.pending_misses = 0;
        self.settle(w);
        if self.warps[wi].state == WState::Mem {
            self.make_ready(w);
        }
        Ok(())
    }

    /// The run ended: the unit's figures, and the lock check.
    pub(super) fn dac_finish(&mut self) -> Result<(), HarnessError> {
        let Some(d) = self.dac.as_mut() else {
            return Ok(());
        };
        d.unit.finish()?;
        // The unit's request register may still hold the early request of
        // a record already accessed (the port was busy to the end): that
        // line's count is one short.
        if let Some(addr) = d.unit.early_request() {
            let line = addr & self.line_mask & 0xFFFF_FFFF;
            if let Some(n) = d.locks.get_mut(&line) {
                *n += 1;
                if *n == 0 {
                    d.locks.remove(&line);
                }
            }
        }
        if let Some((&line, &n)) = d.locks.iter().next() {
            return Err(HarnessError::Internal(format!(
                "DAC: line {line:#x} ends the run with lock count {n}"
            )));
        }
        if let Some((&line, &n)) = d.unlocked.iter().next() {
            return Err(HarnessError::Internal(format!(
                "DAC: line {line:#x} ends the run with {n} unlocked early requests unmatched"
            )));
        }
        let (fast, slow) = d.unit.pred_paths();
        d.m.pred_fast = fast;
        d.m.pred_slow = slow;
        d.m.fast_share = ratio(fast, fast + slow);
        d.m.counts = d.unit.counts();
        self.m.dac = Some(std::mem::take(&mut d.m));
        Ok(())
    }

    /// The expansion unit's clock edge.
    pub(super) fn dac_step(&mut self, in_reset: bool) -> Result<(), HarnessError> {
        match self.dac.as_mut() {
            Some(d) => d.unit.step(in_reset),
            None => Ok(()),
        }
    }
}

fn chunks(v: &[u64]) -> String {
    let shown: Vec<String> = v.iter().take(6).map(|a| format!("{a:#x}")).collect();
    format!(
        "{}{} ({} in all)",
        shown.join(", "),
        if v.len() > 6 { ", ..." } else { "" },
        v.len()
    )
}
