//! `dac_expander` in the SM harness: the expander slot
//! ([`Role::Expander`](crate::roles::Role::Expander), `expander =
//! dac`, `--dac`).
//!
//! The harness runs DAC's affine warp (`harness::decouple`: the decoupling of
//! the kernel and the warp that executes its affine stream) and gives its
//! tuples to this unit, which expands them into the per-warp records and
//! masks the non-affine warps dequeue; its early requests prefetch and
//! lock lines in the L1 (`sm/dac.rs`).
//!
//! What the harness gives the unit (`dac.md`):
//! - `cfg_*`: the kernel's block shape, every cycle (a 1-D block sets
//!   blockDim.x to the smallest power of two that holds it);
//! - `cta_launch_*` when a CTA of a batch launches, with its CTA index;
//!   `cta_done_*` when it finishes (one per cycle, in order);
//! - `enq_*` from the affine warp; `mem_ready` when the L1 takes the early
//!   request; `deq_*` from the load/store unit and the branches.
//!
//! Parameters: the paper's, with `N_WARPS` the machine's warps per SM and
//! `N_CTA` its CTA slots (at most 16); then the `dac.NAME` overrides. DAC
//! needs the native LRU tag array (line locking) with at least 2 ways,
//! 128-byte lines and no prefetcher (its early requests are its
//! prefetches).

use ports::dac::{cmp, gran, kind, DacExpander, DacParams};

use crate::config::{MachineConfig, MachineConfigError};
use crate::counts::UnitCounts;
use crate::error::HarnessError;
use crate::registry::{Attached, HarnessUnit, UnitContext};
use crate::roles::{
    BlockShape, Choice, DeqResponse, EnqTuple, ExpanderRole, Role, RoleObject, TupleCmp, TupleKind,
};

impl HarnessUnit for DacExpander {
    const ROLE: Role = Role::Expander;
    const CHOICES: &'static [Choice] = &[Choice {
        name: "dac",
        help: "DAC: an affine warp per SM runs the kernel's affine stream; dac_expander's golden \
               model expands its tuples into per-warp records and masks",
    }];
    const KEY: &'static str = "dac";
    const LABEL: &'static str = "DAC";

    fn params(ctx: &UnitContext<'_>) -> DacParams {
        DacParams {
            N_WARPS: ctx.machine.max_warps as u64,
            N_CTA: (ctx.machine.cta_slots as u64).min(16),
            ..DacParams::default()
        }
    }

    fn check_run(ctx: &UnitContext<'_>, p: &DacParams) -> Result<(), String> {
        let (occ, wpc) = (ctx.ctas_per_sm as u64, ctx.warps_per_cta as u64);
        if occ > p.N_CTA {
            return Err(format!(
                "{occ} CTAs are resident at once but N_CTA = {}; set dac.N_CTA or cta_slots",
                p.N_CTA
            ));
        }
        if occ * wpc > p.N_WARPS {
            return Err(format!(
                "{occ} CTAs of {wpc} warps are resident at once but N_WARPS = {}; set \
                 dac.N_WARPS",
                p.N_WARPS
            ));
        }
        Ok(())
    }

    fn check_machine(cfg: &MachineConfig, choice: &str) -> Result<(), MachineConfigError> {
        let why = |key: &str, v: &str, fix: &str| {
            Err(MachineConfigError::new(
                key,
                v,
                format!("expander = {choice} (DAC) {fix}"),
            ))
        };
        if cfg.l1 != Role::L1.native().name {
            return why(
                "l1",
                &cfg.l1,
                "locks lines in the native tag array: set l1 = lru",
            );
        }
        if cfg.decoupled_l1() {
            return why(
                "decoupled",
                cfg.decoupled.name(),
                "needs the L1 out of decoupled mode: set decoupled = off",
            );
        }
        if cfg.prefetcher != Role::Prefetcher.native().name {
            return why(
                "prefetcher",
                &cfg.prefetcher,
                "issues its own early requests: set prefetcher = none",
            );
        }
        if cfg.l1_ways < 2 {
            return why(
                "l1_ways",
                &cfg.l1_ways.to_string(),
                "locks at most ways - 1 lines of a set, so a direct-mapped L1 could take no \
                 early request: set l1_ways = 2 or more",
            );
        }
        if cfg.l1_line != 128 {
            return why(
                "l1_line",
                &cfg.l1_line.to_string(),
                "works on 128-byte lines (its records and early requests): set l1_line = 128",
            );
        }
        Ok(())
    }

    fn into_role(unit: Attached<Self>, _ctx: &UnitContext<'_>) -> Result<RoleObject, HarnessError> {
        Ok(RoleObject::Expander(Box::new(DacRole {
            unit,
            shape: None,
        })))
    }
}

/// The DAC golden model as the harness's expansion unit.
pub(crate) struct DacRole {
    unit: Attached<DacExpander>,
    shape: Option<BlockShape>,
}

fn size_of_gran(g: u64) -> u32 {
    1 << g.min(gran::WORD)
}

impl ExpanderRole for DacRole {
    fn shape(&mut self, s: BlockShape) {
        self.shape = Some(s);
    }

    fn cta_launch(&mut self, slot: u32, x: u32, y: u32) {
        let i = &mut self.unit.input;
        i.cta_launch_valid = true;
        i.cta_launch_slot = slot as u64;
        i.cta_launch_x = x as u64;
        i.cta_launch_y = y as u64;
    }

    fn cta_done(&mut self, slot: u32) {
        let i = &mut self.unit.input;
        i.cta_done_valid = true;
        i.cta_done_slot = slot as u64;
    }

    fn can_enqueue(&self) -> bool {
        self.unit.out.enq_ready
    }

    fn enqueue(&mut self, t: &EnqTuple) {
        let i = &mut self.unit.input;
        i.enq_valid = true;
        i.enq_kind = match t.kind {
            TupleKind::Addr => kind::ADDR,
            TupleKind::Data => kind::DATA,
            TupleKind::Pred => kind::PRED,
        };
        let [b, tx, ty, cx, cy] = t.terms;
        i.enq_base = b as u64;
        i.enq_off_tx = tx as u64;
        i.enq_off_ty = ty as u64;
        i.enq_off_cx = cx as u64;
        i.enq_off_cy = cy as u64;
        i.enq_gran = match t.size {
            1 => gran::BYTE,
            2 => gran::HALF,
            _ => gran::WORD,
        };
        i.enq_cmp = match t.cmp {
            TupleCmp::Lt => cmp::LT,
            TupleCmp::Le => cmp::LE,
            TupleCmp::Gt => cmp::GT,
            TupleCmp::Ge => cmp::GE,
            TupleCmp::Eq => cmp::EQ,
            TupleCmp::Ne => cmp::NE,
        };
        i.enq_scalar = t.scalar as u64;
        i.enq_guard = t.guard;
    }

    fn early_request(&self) -> Option<u64> {
        let o = &self.unit.out;
        o.mem_valid.then_some(o.mem_addr)
    }

    fn accept_early(&mut self) {
        self.unit.input.mem_ready = true;
    }

    fn dequeue(&mut self, warp: u32, pred: bool) {
        let i = &mut self.unit.input;
        i.deq_valid = true;
        i.deq_warp = warp as u64;
        i.deq_kind = pred as u64;
    }

    fn response(&self) -> Option<DeqResponse> {
        let o = &self.unit.out;
        o.rsp_valid.then_some(DeqResponse {
            hit: o.rsp_hit,
            addr: o.rsp_addr,
            mask: o.rsp_mask as u32,
            size: size_of_gran(o.rsp_gran),
            last: o.rsp_last,
        })
    }

    fn tuples_held(&self) -> u64 {
        self.unit.out.atq_count
    }

    fn pred_paths(&self) -> (u64, u64) {
        (self.unit.out.stat_pred_fast, self.unit.out.stat_pred_slow)
    }

    fn guard_skips(&self) -> u64 {
        self.unit.out.stat_guard_skips
    }

    fn needs_every_cycle(&self) -> bool {
        true
    }

    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        let i = &mut self.unit.input;
        i.reset = reset;
        if let Some(s) = self.shape {
            i.cfg_bdx_log2 = s.bdx_log2 as u64;
            i.cfg_threads = s.threads as u64;
            i.cfg_warps_per_cta = s.warps_per_cta as u64;
        }
        self.unit.step()
    }

    fn counts(&self) -> UnitCounts {
        let s = self.unit.model.stats();
        UnitCounts {
            key: DacExpander::KEY,
            label: "dac_expander",
            counters: vec![
                ("tuples_enqueued", s.tuples_enqueued),
                ("tuples_expanded", s.tuples_expanded),
                ("enq_refused_cycles", s.enq_refused_cycles),
                ("warps_expanded", s.warps_expanded),
                ("records_pushed", s.records_pushed),
                ("masks_pushed", s.masks_pushed),
                ("mem_requests", s.mem_requests),
                ("mem_taken", s.mem_taken),
                ("pred_fast", s.pred_fast),
                ("pred_slow", s.pred_slow),
                ("busy_cycles", s.busy_cycles),
                ("stall_queue_cycles", s.stall_queue_cycles),
                ("stall_mem_cycles", s.stall_mem_cycles),
                ("deq_hits", s.deq_hits),
                ("deq_misses", s.deq_misses),
                ("guard_writes", s.guard_writes),
                ("guard_skips", s.guard_skips),
            ],
            summary: format!(
                "{} tuples expanded over {} warps: {} records, {} masks; busy {} cycles ({} \
                 stalled on a full queue, {} on memory)",
                s.tuples_expanded,
                s.warps_expanded,
                s.records_pushed,
                s.masks_pushed,
                s.busy_cycles,
                s.stall_queue_cycles,
                s.stall_mem_cycles
            ),
        }
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        self.unit.finish()
    }
}
