//! DAC's side of the SM, the [`ExpanderSide`] of the expander slot
//! (`crate::dac` has the decoupling and the affine warp): batches of CTAs,
//! the affine warp's issue slot, the dequeue port shared by the
//! load/store unit and the branches (`dac_dequeue`), the early requests
//! with their line locks (`dac_locks`), and the checks of every record and
//! mask against what the warp computes itself.
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

use crate::affine_warp::{AffineWarp, AwIssue};
use crate::decouple::{Plan, Step};
use crate::error::HarnessError;
use crate::expr::LANES;
use crate::hash::FxBuild;
use crate::kernel::Kernel;
use crate::metrics::{ratio, DacMetrics};
use crate::roles::{ExpanderRole, TupleKind};

use super::expander::ExpanderSide;
use super::state::Sm;

/// Who waits at the dequeue port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Client {
    /// Warp (SM slot) waiting for the address records of its load or
    /// store.
    Addr(u16),
    /// Warp waiting for its branch mask.
    Pred(u16),
}

/// The decoupled run: the plan and the affine warp.
pub(super) struct Decoupled {
    pub(super) plan: Plan,
    pub(super) aw: AffineWarp,
}

/// A warp's decoupled load or store, from issue until the load/store unit
/// takes it.
#[derive(Default)]
pub(super) struct WarpDeq {
    /// A load (its records were early requests: locks to release).
    pub(super) data: bool,
    pub(super) store: bool,
    pub(super) array: u16,
    pub(super) size: u32,
    /// Program counter of the instruction (for error messages).
    pub(super) pc: u32,
    /// The lines the records name, in record order, with the number of
    /// records naming each.
    pub(super) lines: Vec<(u64, u32)>,
    /// The chunk addresses the warp's lanes access, sorted, and those
    /// the records name.
    pub(super) expect: Vec<u64>,
    pub(super) got: Vec<u64>,
}

/// DAC's state in the SM.
pub(super) struct DacSide {
    pub(super) unit: Box<dyn ExpanderRole>,
    pub(super) dec: Option<Decoupled>,
    pub(super) launching: bool,
    pub(super) clients: VecDeque<Client>,
    pub(super) sent: Option<Client>,
    pub(super) done_q: VecDeque<u32>,
    /// Per warp slot.
    pub(super) pw: Vec<WarpDeq>,
    /// Warps whose records are complete, waiting for the load/store unit.
    pub(super) ldst_q: VecDeque<u16>,
    /// The load/store unit's instruction is a decoupled load: per line,
    /// the records (locks) naming it.
    pub(super) ldst_data: bool,
    pub(super) ldst_records: [u32; LANES],
    pub(super) locks: HashMap<u64, i64, FxBuild>,
    /// Per line: early requests taken without a lock whose records are
    /// not yet accessed.
    pub(super) unlocked: HashMap<u64, u64, FxBuild>,
    pub(super) set_locked: Vec<u32>,
    pub(super) locked_lines: u64,
    /// Consecutive dequeue misses with nothing left to expand.
    pub(super) starved: u32,
    pub(super) m: DacMetrics,
}

impl DacSide {
    /// DAC for kernel `k` with the unit `unit`, on an L1 of `sets` sets and
    /// an SM of `warps` warp slots: decoupled if the kernel can be, else
    /// idle with the reason in the metrics.
    pub(super) fn new(
        unit: Box<dyn ExpanderRole>,
        k: &Kernel,
        sets: usize,
        warps: usize,
        charge_addresses: bool,
    ) -> DacSide {
        let mut m = DacMetrics::default();
        let dec = match Plan::new(k) {
            Ok(plan) => {
                m.decoupled = true;
                let aw = AffineWarp::new(&plan, charge_addresses);
                Some(Decoupled { plan, aw })
            }
            Err(reason) => {
                m.reason = reason;
                None
            }
        };
        DacSide {
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

    /// Whether DAC still has work under way (no deadlock while it has).
    fn under_way(&self) -> bool {
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
    pub(super) fn step_of(&self, pc: u32) -> Option<Step> {
        self.dec.as_ref().map(|d| d.plan.steps[pc as usize])
    }
}

impl ExpanderSide for DacSide {
    fn needs_every_cycle(&self) -> bool {
        self.unit.needs_every_cycle()
    }

    /// In a decoupled run CTAs launch only while a batch opens.
    fn allows_launch(&self) -> bool {
        self.dec.is_none() || self.launching
    }

    /// The `let`s removed from the non-affine stream (the affine warp's).
    #[inline]
    fn skips(&self, pc: u32) -> bool {
        self.dec.as_ref().is_some_and(|d| d.plan.removed(pc))
    }

    fn count_skipped(&mut self) {
        self.m.removed += 1;
    }

    /// The expansion unit's clock edge.
    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        self.unit.step(reset)
    }

    /// Work under way, or a batch about to open.
    fn busy(sm: &Sm<'_, Self>) -> bool {
        sm.xp.under_way() || (sm.live_ctas == 0 && sm.can_launch_later())
    }

    fn before_launch(sm: &mut Sm<'_, Self>) {
        sm.dac_batch();
    }

    fn cta_launched(sm: &mut Sm<'_, Self>, slot: usize, ctaid: [i64; 3]) {
        if sm.xp.dec.is_some() {
            sm.xp
                .unit
                .cta_launch(slot as u32, ctaid[0] as u32, ctaid[1] as u32);
        }
    }

    fn cta_done(sm: &mut Sm<'_, Self>, slot: usize) {
        if sm.xp.dec.is_some() {
            sm.xp.done_q.push_back(slot as u32);
        }
    }

    fn after_launch(sm: &mut Sm<'_, Self>) -> Result<(), HarnessError> {
        sm.dac_cycle()
    }

    fn ldst_free(sm: &mut Sm<'_, Self>) {
        sm.dac_ldst_take();
    }

    fn line_state(sm: &Sm<'_, Self>, line: u64) -> u8 {
        sm.dac_line_state(line)
    }

    fn demand_served(sm: &mut Sm<'_, Self>, i: usize, state: u8) {
        sm.dac_demand_served(i, state);
    }

    fn port_free(sm: &mut Sm<'_, Self>) -> bool {
        sm.dac_early()
    }

    fn issue(sm: &mut Sm<'_, Self>) -> Result<bool, HarnessError> {
        sm.dac_issue()
    }

    fn mem_issued(sm: &mut Sm<'_, Self>, w: u16, pc: u32) -> bool {
        sm.dac_mem_issued(w, pc)
    }

    fn branch_issued(sm: &mut Sm<'_, Self>, w: u16) -> bool {
        sm.dac_branch_issued(w)
    }

    fn finish(sm: &mut Sm<'_, Self>) -> Result<(), HarnessError> {
        sm.dac_finish()
    }
}

impl Sm<'_, DacSide> {
    /// Open a new batch when the previous one is finished.
    fn dac_batch(&mut self) {
        let live = self.live_ctas;
        let more = self.can_launch_later();
        let d = &mut self.xp;
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

    /// The batch closes when no more CTAs can join it (every slot full, or
    /// none left to deal: in an all-SM run the other SMs may take the last
    /// ones): the affine warp starts, unless no CTA launched at all.
    pub(super) fn dac_close_batch(&mut self) {
        let live = self.live_ctas;
        let full = live == self.occ || !self.can_launch_later();
        let d = &mut self.xp;
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

    /// Give the affine warp the issue slot; whether it issued.
    fn dac_issue(&mut self) -> Result<bool, HarnessError> {
        let k = self.k;
        let d = &mut self.xp;
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

    /// The run ended: the unit's figures, and the lock check.
    fn dac_finish(&mut self) -> Result<(), HarnessError> {
        let d = &mut self.xp;
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
}
