//! DAC in the harness (`sm_harness.md`, "Units in the harness"; the DAC
//! paper, sections 3 and 4.1): the decoupling of a kernel into an affine
//! and a non-affine stream ([`Plan`]), and the affine warp that executes
//! the affine stream on tuples ([`AffineWarp`]). The SM (`sm/dac_side.rs`)
//! runs the affine warp beside its warps, gives its tuples to the unit in
//! the expander slot, and lets the non-affine warps dequeue.
//!
//! # The decoupling (the paper's compiler, section 3)
//! "Eligible affine instructions become Enqueue instructions in the affine
//! stream and Dequeue instructions in the non-affine stream. Their
//! predecessor instructions are placed in the affine stream. The
//! predecessor instructions are removed from the non-affine stream
//! provided that no non-affine instruction depends on them." Here:
//! - an instruction is *uniform* when every enclosing `if` and loop has a
//!   scalar condition (the compiler's guard class): every thread of every
//!   CTA executes it together. Only uniform instructions are decoupled:
//!   the unit expands a tuple over every warp of every active CTA and has
//!   no per-warp enable (the Affine SIMT Stack and divergent tuples are
//!   not in this version, `dac.md`), so a tuple under a divergent branch
//!   would give records to warps that never dequeue them;
//! - a uniform `let` whose value the kernel compiler classifies as scalar
//!   or affine, and whose tuple the affine warp can compute (every
//!   register it reads holds a tuple: comparisons and logical operators of
//!   thread-varying values have none), is an *affine let*: the affine
//!   warp computes it. It is *removed* from the non-affine stream when no
//!   instruction the non-affine warps execute reads its register
//!   (transitively);
//! - a uniform load or store whose index is affine (compiler class and
//!   tuple) and whose element is 1, 2 or a multiple of 4 bytes becomes an
//!   enqueue: a DATA tuple for a load (records and early requests), an
//!   ADDR tuple for a store; the non-affine warps issue the load or store
//!   with the dequeued records as its addresses;
//! - a uniform `if` whose condition is an affine comparison (or an affine
//!   value, compared `!= 0`) becomes a PRED tuple; the non-affine warps
//!   branch on the dequeued mask. The affine warp follows a scalar
//!   condition (it is the same for every thread) and jumps over the body
//!   of a thread-varying one (nothing in it is uniform);
//! - a loop with scalar bounds at a uniform point: its start is in both
//!   streams (each warp sets its counter); its back edge, which increments,
//!   compares and branches in one harness instruction, becomes a scalar
//!   PRED tuple, as in the paper's Figure 7 (`enq.pred p0` in the affine
//!   stream, `deq.pred bra LOOP` in the non-affine one). The affine warp
//!   jumps over a loop whose bounds are not scalar;
//! - everything else (`compute`, non-affine lets, loads with non-affine or
//!   indirect indices, `barrier`) is in the non-affine stream only. The
//!   affine warp does not wait at barriers (its early requests only read;
//!   the paper's per-block expansion hold at a barrier is not modelled).
//!
//! The non-affine warps still evaluate removed lets (for free: no issue
//! slot, not counted as instructions), so that the harness can check every
//! dequeued record and mask against the addresses and conditions the warp
//! computes itself: a difference stops the run.
//!
//! # Kernels that are not decoupled
//! As `dac.md` says for a 2-D block whose x dimension is not a power of
//! two, the harness then runs the kernel without DAC (the metrics say
//! why): also traces (no classification), z dimensions, more than 1024
//! threads per CTA, CTA indices beyond 16 bits, and kernels with nothing
//! to decouple.

use super::affine::{self, Pred, Tuple};
use super::expr::{decode, regs_read, BinOp, Class, RExpr, UnOp};
use super::kernel::{Instr, Kernel, Program, REG_CTAID, REG_TID};
use super::roles::{BlockShape, EnqTuple, TupleCmp, TupleKind};

/// What the two streams do with one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Only the non-affine warps execute it; the affine warp passes over
    /// it for free.
    NonAffine,
    /// An affine let: the affine warp computes its tuple; `removed`: the
    /// non-affine warps do not issue it.
    AffineLet {
        /// Not in the non-affine stream.
        removed: bool,
    },
    /// The start of a loop with scalar bounds: both streams.
    Loop,
    /// The back edge of a loop with scalar bounds: the affine warp
    /// increments and compares its counter and enqueues the result as a
    /// scalar PRED tuple; the non-affine warps branch on the dequeued mask
    /// (the paper's Figure 7: `enq.pred p0` / `deq.pred bra LOOP`).
    LoopBack,
    /// A loop or `if` whose body the affine warp jumps over.
    SkipRegion,
    /// A decoupled load (DATA) or store (ADDR): the affine warp enqueues
    /// its address tuple; the non-affine warps dequeue its records.
    Enq {
        /// DATA or ADDR.
        kind: TupleKind,
        /// Access size (1, 2 or 4 bytes).
        size: u32,
    },
    /// A decoupled branch: the affine warp enqueues the predicate tuple;
    /// the non-affine warps dequeue their masks. `scalar`: the condition
    /// is the same for every thread and the affine warp follows it.
    EnqPred {
        /// The affine warp follows the branch.
        scalar: bool,
    },
}

/// The decoupling of a kernel (module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// Per instruction.
    pub steps: Vec<Step>,
    /// The block shape the unit expands over.
    pub shape: BlockShape,
    /// Registers whose value the affine warp holds as a tuple.
    tuple_regs: Vec<bool>,
}

/// What the affine warp can hold in a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Hold {
    /// Nothing written yet (reads as the scalar 0).
    Unset,
    /// A scalar tuple.
    Scalar,
    /// A thread-varying tuple.
    Affine,
    /// No tuple.
    None,
}

fn hold_of(e: &RExpr, regs: &[Hold]) -> Hold {
    let sc = |h: Hold| h <= Hold::Scalar;
    match e {
        RExpr::Const(_) => Hold::Scalar,
        RExpr::Reg(r) => match regs[*r as usize] {
            Hold::Unset => Hold::Scalar,
            h => h,
        },
        RExpr::Un(op, a) => {
            let a = hold_of(a, regs);
            match op {
                UnOp::Neg => a,
                UnOp::Not if sc(a) => Hold::Scalar,
                UnOp::Not => Hold::None,
            }
        }
        RExpr::Bin(op, a, b) => {
            let (a, b) = (hold_of(a, regs), hold_of(b, regs));
            let j = a.max(b);
            match op {
                _ if j == Hold::None => Hold::None,
                BinOp::Add | BinOp::Sub => j,
                BinOp::Mul if sc(a) || sc(b) => j,
                _ if j <= Hold::Scalar => Hold::Scalar,
                _ => Hold::None,
            }
        }
    }
}

/// The comparison of a condition: `(a, cmp, b)`, or `(v, NE, 0)` for a
/// value.
fn condition(e: &RExpr) -> (RExpr, BinOp, RExpr) {
    match e {
        RExpr::Bin(op, a, b)
            if matches!(
                op,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
            ) =>
        {
            ((**a).clone(), *op, (**b).clone())
        }
        v => (v.clone(), BinOp::Ne, RExpr::Const(0)),
    }
}

/// The access size DAC's records use for elements of `elem` bytes: 1, 2,
/// or 4 for any multiple of 4 (an aligned element of 4k bytes never
/// crosses a 128-byte line, so word records name its line); `None` for
/// other sizes.
fn access_size(elem: u32) -> Option<u32> {
    match elem {
        1 | 2 => Some(elem),
        e if e > 0 && e.is_multiple_of(4) && e <= 128 => Some(4),
        _ => None,
    }
}

impl Plan {
    /// The decoupling of `k`, or why the kernel is not decoupled.
    pub(crate) fn new(k: &Kernel) -> Result<Plan, String> {
        if k.is_trace() {
            return Err("a trace has no expression classification".into());
        }
        let [bx, by, bz] = k.block;
        let [gx, gy, gz] = k.grid;
        if bz != 1 || gz != 1 {
            return Err(
                "a z dimension (block or grid) is not in this version of DAC (dac.md)".into(),
            );
        }
        let threads = bx * by;
        if threads > 1024 {
            return Err(format!(
                "{threads} threads per CTA (dac_expander: at most 1024)"
            ));
        }
        if by > 1 && !bx.is_power_of_two() {
            return Err(format!(
                "a 2-D block whose x dimension ({bx}) is not a power of two is not decoupled \
                 (dac.md)"
            ));
        }
        if gx > 1 << 16 || gy > 1 << 16 {
            return Err(format!(
                "a grid of {gx} x {gy}: CTA indices beyond 16 bits (cta_launch_x / _y)"
            ));
        }
        let shape = BlockShape {
            bdx_log2: bx.next_power_of_two().trailing_zeros(),
            threads,
            warps_per_cta: threads.div_ceil(32),
        };
        let prog = &k.program;
        let (steps, holds) = Self::decouple(k, prog);
        if !steps
            .iter()
            .any(|s| matches!(s, Step::Enq { .. } | Step::EnqPred { .. }))
        {
            return Err(
                "nothing to decouple: every load, store and branch is non-affine or under \
                        a divergent branch"
                    .into(),
            );
        }
        let tuple_regs = holds.iter().map(|&h| h != Hold::None).collect();
        Ok(Plan {
            steps,
            shape,
            tuple_regs,
        })
    }

    /// What the affine warp can hold in each register: a fixpoint over
    /// every write (flow-insensitive: a register is a tuple only if every
    /// write to it is an affine let or the control of a uniform loop the
    /// affine warp runs). `skipped[i]`: the affine warp jumps over
    /// instruction `i`, so a write there makes its register no tuple.
    fn holds(k: &Kernel, prog: &Program, skipped: &[bool]) -> Vec<Hold> {
        let mut h = vec![Hold::Unset; prog.n_regs];
        for r in [REG_TID, REG_TID + 1, REG_CTAID, REG_CTAID + 1] {
            h[r as usize] = Hold::Affine;
        }
        // tid.z and ctaid.z are 0 (no z dimension when decoupled).
        for r in [REG_TID + 2, REG_CTAID + 2] {
            h[r as usize] = if k.block[2] == 1 && k.grid[2] == 1 {
                Hold::Scalar
            } else {
                Hold::None
            };
        }
        let uniform = |i: usize| prog.info[i].guard.class == Class::Scalar && !skipped[i];
        loop {
            let mut changed = false;
            let mut write = |h: &mut Vec<Hold>, r: u16, v: Hold| {
                let r = r as usize;
                if v > h[r] {
                    h[r] = v;
                    changed = true;
                }
            };
            for (i, ins) in prog.instrs.iter().enumerate() {
                match *ins {
                    Instr::Let { dst, code } => {
                        let v = if uniform(i) && prog.info[i].class.class != Class::NonAffine {
                            hold_of(&decode(&prog.ops, code), &h)
                        } else {
                            Hold::None
                        };
                        write(&mut h, dst, v);
                    }
                    Instr::Load { dst: Some(d), .. } => write(&mut h, d, Hold::None),
                    Instr::LoopBegin {
                        var,
                        end,
                        start,
                        bound,
                        ..
                    } => {
                        let scalar = |c| {
                            if hold_of(&decode(&prog.ops, c), &h) <= Hold::Scalar {
                                Hold::Scalar
                            } else {
                                Hold::None
                            }
                        };
                        let (vs, vb) = if uniform(i) {
                            (scalar(start), scalar(bound))
                        } else {
                            (Hold::None, Hold::None)
                        };
                        let v = vs.max(vb);
                        write(&mut h, var, v);
                        write(&mut h, end, v);
                    }
                    _ => {}
                }
            }
            if !changed {
                return h;
            }
        }
    }

    /// The steps and the registers' holds, to a fixpoint: a region the
    /// affine warp jumps over (a condition it has no tuple for) makes the
    /// registers written in it no tuples, which may make more conditions
    /// unevaluable.
    fn decouple(k: &Kernel, prog: &Program) -> (Vec<Step>, Vec<Hold>) {
        let n = prog.instrs.len();
        let mut skipped = vec![false; n];
        loop {
            let h = Self::holds(k, prog, &skipped);
            let steps = Self::decide(k, prog, &h);
            // Only grows (the union keeps it monotone): terminates.
            let mut now = skipped.clone();
            for i in 0..n {
                if jumps_over(steps[i]) {
                    for x in &mut now[i..region_end(prog, i)] {
                        *x = true;
                    }
                }
            }
            if now == skipped {
                return (steps, h);
            }
            skipped = now;
        }
    }

    fn decide(k: &Kernel, prog: &Program, h: &[Hold]) -> Vec<Step> {
        let tuple = |e: &RExpr| hold_of(e, h) < Hold::None;
        let n = prog.instrs.len();
        let mut steps = vec![Step::NonAffine; n];
        for (i, ins) in prog.instrs.iter().enumerate() {
            let info = prog.info[i];
            let uniform = info.guard.class == Class::Scalar;
            let affine = info.class.class != Class::NonAffine;
            steps[i] = match *ins {
                Instr::Let { dst, .. } if uniform && affine && h[dst as usize] < Hold::None => {
                    Step::AffineLet { removed: true }
                }
                // A texture load is never decoupled (it takes the texture
                // cache, not DAC's L1 path).
                Instr::Load { mem, .. } if prog.mems[mem as usize].texture => Step::NonAffine,
                Instr::Load { array, index, .. } | Instr::Store { array, index, .. }
                    if uniform && affine && tuple(&decode(&prog.ops, index)) =>
                {
                    let a = &k.arrays[array as usize];
                    match access_size(a.elem) {
                        Some(size) if a.base.is_multiple_of(size as u64) => Step::Enq {
                            kind: if matches!(ins, Instr::Store { .. }) {
                                TupleKind::Addr
                            } else {
                                TupleKind::Data
                            },
                            size,
                        },
                        _ => Step::NonAffine,
                    }
                }
                Instr::If { cond, .. } if uniform => {
                    let (a, _, b) = condition(&decode(&prog.ops, cond));
                    let (ha, hb) = (hold_of(&a, h), hold_of(&b, h));
                    if affine && ha < Hold::None && hb < Hold::None {
                        Step::EnqPred {
                            scalar: ha <= Hold::Scalar && hb <= Hold::Scalar,
                        }
                    } else {
                        Step::SkipRegion
                    }
                }
                Instr::LoopBegin { var, .. } if uniform && h[var as usize] < Hold::None => {
                    Step::Loop
                }
                Instr::LoopBegin { .. } => Step::SkipRegion,
                _ => Step::NonAffine,
            };
        }
        // A loop's end follows its begin.
        for i in 0..n {
            if let Instr::LoopEnd { body_at, .. } = prog.instrs[i] {
                if steps[body_at as usize - 1] == Step::Loop {
                    steps[i] = Step::LoopBack;
                }
            }
        }
        // Nothing the affine warp jumps over is decoupled: the body of a
        // thread-varying branch or of a region it has no tuple for. (The
        // compiler's guard can call such a body uniform: its condition's
        // class is flow-sensitive, the tuples are not.)
        for i in 0..n {
            if !jumps_over(steps[i]) {
                continue;
            }
            let end = region_end(prog, i);
            for s in &mut steps[i + 1..end] {
                *s = Step::NonAffine;
            }
        }
        // Removal: the affine lets no non-affine instruction reads. From
        // all removed, keep the lets whose registers are read until the
        // kept set stops growing.
        let mut needed = vec![false; prog.n_regs];
        let mut reads = Vec::new();
        loop {
            for (i, ins) in prog.instrs.iter().enumerate() {
                reads.clear();
                match (*ins, steps[i]) {
                    (Instr::Let { code, .. }, Step::NonAffine)
                    | (Instr::Let { code, .. }, Step::AffineLet { removed: false }) => {
                        regs_read(&prog.ops, code, &mut reads)
                    }
                    (Instr::Load { index, .. } | Instr::Store { index, .. }, Step::NonAffine) => {
                        regs_read(&prog.ops, index, &mut reads)
                    }
                    (Instr::If { cond, .. }, s) if !matches!(s, Step::EnqPred { .. }) => {
                        regs_read(&prog.ops, cond, &mut reads)
                    }
                    (Instr::LoopBegin { start, bound, .. }, _) => {
                        regs_read(&prog.ops, start, &mut reads);
                        regs_read(&prog.ops, bound, &mut reads);
                    }
                    (Instr::Use { reg }, _) => reads.push(reg),
                    _ => {}
                }
                for &r in &reads {
                    needed[r as usize] = true;
                }
            }
            let mut changed = false;
            for (i, ins) in prog.instrs.iter().enumerate() {
                if let (Instr::Let { dst, .. }, Step::AffineLet { removed }) = (*ins, steps[i]) {
                    let r = !needed[dst as usize];
                    if r != removed {
                        steps[i] = Step::AffineLet { removed: r };
                        changed = true;
                    }
                }
            }
            // `needed` only grows, and with it the kept lets: stable after
            // a pass that changed nothing.
            if !changed {
                return steps;
            }
        }
    }

    /// Whether the non-affine warps skip instruction `pc` (a removed let).
    #[inline]
    pub(crate) fn removed(&self, pc: u32) -> bool {
        matches!(self.steps[pc as usize], Step::AffineLet { removed: true })
    }
}

/// Whether the affine warp jumps over the region a step opens.
fn jumps_over(s: Step) -> bool {
    matches!(s, Step::SkipRegion | Step::EnqPred { scalar: false })
}

/// The index just past the region that instruction `i` (an `If` or a
/// `LoopBegin`) opens: after its `EndIf` or its `LoopEnd`.
fn region_end(prog: &Program, i: usize) -> usize {
    match prog.instrs[i] {
        Instr::If { else_at, .. } => match prog.instrs[else_at as usize] {
            Instr::Else { end_at } => end_at as usize + 1,
            _ => else_at as usize + 1,
        },
        Instr::LoopBegin { exit_at, .. } => exit_at as usize,
        _ => i + 1,
    }
}

/// What the affine warp does in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AwIssue {
    /// Nothing to do (not started, or done with this batch).
    Idle,
    /// One affine instruction issued, no tuple.
    Issued,
    /// One enqueue issued with this tuple (the unit takes it this cycle).
    Enqueue(EnqTuple),
    /// The next instruction is an enqueue and the unit's tuple queue is
    /// full.
    Blocked,
}

/// An `if` the affine warp follows.
#[derive(Clone, Copy, Debug)]
struct IfFrame {
    taken: bool,
}

/// DAC's affine warp: one per SM, run once per batch of CTAs. Its
/// registers hold tuples; it issues one affine instruction per cycle it
/// is given (the scheduler gives it the issue slot first) and passes over
/// the instructions that are not its own for free.
pub(crate) struct AffineWarp {
    pc: u32,
    running: bool,
    regs: Vec<Option<Tuple>>,
    frames: Vec<IfFrame>,
}

impl AffineWarp {
    pub(crate) fn new(plan: &Plan) -> AffineWarp {
        AffineWarp {
            pc: 0,
            running: false,
            regs: vec![None; plan.tuple_regs.len()],
            frames: Vec::new(),
        }
    }

    /// Start the affine stream for a new batch of CTAs.
    pub(crate) fn start(&mut self, plan: &Plan) {
        self.pc = 0;
        self.running = true;
        self.frames.clear();
        for (r, &t) in self.regs.iter_mut().zip(&plan.tuple_regs) {
            *r = t.then_some(Tuple::default());
        }
        self.regs[REG_TID as usize] = Some(Tuple::TID_X);
        self.regs[REG_TID as usize + 1] = Some(Tuple::TID_Y);
        self.regs[REG_CTAID as usize] = Some(Tuple::CTAID_X);
        self.regs[REG_CTAID as usize + 1] = Some(Tuple::CTAID_Y);
    }

    /// Whether the affine stream of the current batch is still running.
    pub(crate) fn running(&self) -> bool {
        self.running
    }

    fn tuple(&self, prog: &Program, code: super::expr::Code) -> Result<Tuple, String> {
        let e = decode(&prog.ops, code);
        affine::eval(&e, &|r| self.regs[r as usize])
            .ok_or_else(|| format!("the affine warp has no tuple for {e:?}"))
    }

    fn scalar(&self, prog: &Program, code: super::expr::Code) -> Result<i64, String> {
        let t = self.tuple(prog, code)?;
        if t.is_scalar() {
            Ok(t.base)
        } else {
            Err(format!("a loop bound is not scalar: {t:?}"))
        }
    }

    /// Give the affine warp this cycle's issue slot: pass over free
    /// instructions, then issue one affine instruction if it can
    /// (`can_enqueue`: the unit takes a tuple this cycle). An error is a
    /// harness bug (a plan the warp cannot follow).
    pub(crate) fn issue(
        &mut self,
        k: &Kernel,
        plan: &Plan,
        can_enqueue: bool,
    ) -> Result<AwIssue, String> {
        let prog = &k.program;
        // Free instructions: at most the program's length in a row
        // (nothing jumps backwards for free).
        for _ in 0..=prog.instrs.len() {
            if !self.running {
                return Ok(AwIssue::Idle);
            }
            let pc = self.pc as usize;
            let step = plan.steps[pc];
            match (prog.instrs[pc], step) {
                (Instr::Exit, _) => {
                    self.running = false;
                    return Ok(AwIssue::Idle);
                }
                (Instr::Else { end_at }, _) => {
                    let f = self.frames.last().ok_or("else without its if")?;
                    self.pc = if f.taken { end_at } else { self.pc + 1 };
                }
                (Instr::EndIf, _) => {
                    self.frames.pop().ok_or("end-if without its if")?;
                    self.pc += 1;
                }
                (Instr::If { .. } | Instr::LoopBegin { .. }, Step::SkipRegion) => {
                    self.pc = region_end(prog, pc) as u32;
                }
                (Instr::Let { dst, .. }, Step::NonAffine) => {
                    // A register no longer holding a tuple (cannot happen
                    // for tuple registers: every write to them is affine).
                    if !plan.tuple_regs[dst as usize] {
                        self.regs[dst as usize] = None;
                    }
                    self.pc += 1;
                }
                (Instr::Load { dst, .. }, _) => {
                    if let Some(d) = dst {
                        self.regs[d as usize] = None;
                    }
                    if let Step::Enq { kind, size } = step {
                        return self.enqueue_addr(k, kind, size, can_enqueue);
                    }
                    self.pc += 1;
                }
                (Instr::Store { .. }, Step::Enq { kind, size }) => {
                    return self.enqueue_addr(k, kind, size, can_enqueue);
                }
                (Instr::If { cond, else_at }, Step::EnqPred { scalar }) => {
                    if !can_enqueue {
                        return Ok(AwIssue::Blocked);
                    }
                    let e = decode(&prog.ops, cond);
                    let (a, op, b) = condition(&e);
                    let cmp_e = RExpr::Bin(op, Box::new(a), Box::new(b));
                    let reg = |r: u16| self.regs[r as usize];
                    let p: Pred = affine::pred(&cmp_e, &reg)
                        .ok_or_else(|| format!("the affine warp has no predicate for {e:?}"))?;
                    let t = EnqTuple {
                        kind: TupleKind::Pred,
                        terms: terms(&p.v),
                        size: 4,
                        cmp: tuple_cmp(p.cmp),
                        scalar: p.scalar as u32,
                        guard: false,
                    };
                    if scalar {
                        let taken = p.v.is_scalar() && cmp_holds(p.cmp, p.v.base, p.scalar);
                        self.frames.push(IfFrame { taken });
                        self.pc = if taken { self.pc + 1 } else { else_at };
                    } else {
                        self.pc = region_end(prog, pc) as u32;
                    }
                    return Ok(AwIssue::Enqueue(t));
                }
                (Instr::Let { dst, code }, Step::AffineLet { .. }) => {
                    let t = self.tuple(prog, code)?;
                    self.regs[dst as usize] = Some(t);
                    self.pc += 1;
                    return Ok(AwIssue::Issued);
                }
                (
                    Instr::LoopBegin {
                        var,
                        end,
                        start,
                        bound,
                        step,
                        exit_at,
                    },
                    Step::Loop,
                ) => {
                    let s = self.scalar(prog, start)?;
                    let b = self.scalar(prog, bound)?;
                    self.regs[var as usize] = Some(Tuple::scalar(s));
                    self.regs[end as usize] = Some(Tuple::scalar(b));
                    let go = if step > 0 { s < b } else { s > b };
                    self.pc = if go { self.pc + 1 } else { exit_at };
                    return Ok(AwIssue::Issued);
                }
                (
                    Instr::LoopEnd {
                        var,
                        end,
                        step,
                        body_at,
                    },
                    Step::LoopBack,
                ) => {
                    if !can_enqueue {
                        return Ok(AwIssue::Blocked);
                    }
                    let v = self.regs[var as usize]
                        .ok_or("loop counter without a tuple")?
                        .base
                        .wrapping_add(step);
                    let b = self.regs[end as usize]
                        .ok_or("loop bound without a tuple")?
                        .base;
                    self.regs[var as usize] = Some(Tuple::scalar(v));
                    let go = if step > 0 { v < b } else { v > b };
                    self.pc = if go { body_at } else { self.pc + 1 };
                    return Ok(AwIssue::Enqueue(EnqTuple {
                        kind: TupleKind::Pred,
                        terms: terms(&Tuple::scalar(v)),
                        size: 4,
                        cmp: if step > 0 { TupleCmp::Lt } else { TupleCmp::Gt },
                        scalar: b as u32,
                        guard: false,
                    }));
                }
                (Instr::Trace, _) => return Err("a trace kernel is not decoupled".into()),
                _ => self.pc += 1,
            }
        }
        Err("the affine warp found no instruction to issue".into())
    }

    fn enqueue_addr(
        &mut self,
        k: &Kernel,
        kind: TupleKind,
        size: u32,
        can_enqueue: bool,
    ) -> Result<AwIssue, String> {
        if !can_enqueue {
            return Ok(AwIssue::Blocked);
        }
        let prog = &k.program;
        let (array, index) = match prog.instrs[self.pc as usize] {
            Instr::Load { array, index, .. } | Instr::Store { array, index, .. } => (array, index),
            _ => return Err("an enqueue that is not a memory instruction".into()),
        };
        let a = &k.arrays[array as usize];
        let idx = self.tuple(prog, index)?;
        let addr = Tuple::scalar(a.base as i64) + idx.scale(a.elem as i64);
        self.pc += 1;
        Ok(AwIssue::Enqueue(EnqTuple {
            kind,
            terms: terms(&addr),
            size,
            cmp: TupleCmp::Lt,
            scalar: 0,
            guard: false,
        }))
    }
}

fn terms(t: &Tuple) -> [u32; 5] {
    [t.base, t.off_tx, t.off_ty, t.off_cx, t.off_cy].map(|v| v as u32)
}

fn tuple_cmp(op: BinOp) -> TupleCmp {
    match op {
        BinOp::Lt => TupleCmp::Lt,
        BinOp::Le => TupleCmp::Le,
        BinOp::Gt => TupleCmp::Gt,
        BinOp::Ge => TupleCmp::Ge,
        BinOp::Eq => TupleCmp::Eq,
        _ => TupleCmp::Ne,
    }
}

fn cmp_holds(op: BinOp, a: i64, b: i64) -> bool {
    op.apply(a, b) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(body: &str, block: &str, grid: &str) -> Kernel {
        let text = format!(
            r#"
name = "t"
grid = {grid}
block = {block}
body = """
{body}
"""
[params]
N = 4096
M = 64
[arrays.A]
elem = 4
len = "N * M"
[arrays.B]
elem = 4
len = "N * M"
[arrays.H]
elem = 2
len = "N"
"#
        );
        Kernel::from_str(&text, "t.toml", &[], 1).unwrap()
    }

    fn steps(k: &Kernel) -> Vec<(Instr, Step)> {
        let p = Plan::new(k).unwrap();
        k.program.instrs.iter().copied().zip(p.steps).collect()
    }

    #[test]
    fn the_dac_example_decouples_its_addresses_and_removes_the_index() {
        let k = kernel(
            "let tid = ctaid.x * blockDim.x + tid.x\n\
             loop i M {\n\
               let idx = i * N + tid\n\
               let v = A[idx]\n\
               compute 1\n\
               store B[idx]\n\
             }",
            "[256]",
            "[\"N / 256\"]",
        );
        let s = steps(&k);
        let kinds: Vec<Step> = s.iter().map(|x| x.1).collect();
        assert_eq!(
            kinds,
            vec![
                Step::AffineLet { removed: true },
                Step::Loop,
                Step::AffineLet { removed: true },
                Step::Enq {
                    kind: TupleKind::Data,
                    size: 4
                },
                Step::NonAffine,
                Step::Enq {
                    kind: TupleKind::Addr,
                    size: 4
                },
                Step::LoopBack,
                Step::NonAffine,
            ],
            "{s:?}"
        );
    }

    #[test]
    fn divergent_regions_and_data_dependent_values_stay_in_the_non_affine_stream() {
        let k = kernel(
            "let i = ctaid.x * blockDim.x + tid.x\n\
             let v = A[i]\n\
             if i < N {\n\
               load B[i]\n\
               let j = tid.x\n\
               load B[j]\n\
             }\n\
             load B[v]\n\
             let w = i * i\n\
             load A[w]\n\
             let h = tid.x < 2\n\
             if h {\n\
               load H[i]\n\
             }\n\
             if M > 5 {\n\
               load H[i]\n\
             }",
            "[256]",
            "[\"N / 256\"]",
        );
        let s = steps(&k);
        let by = |pred: &dyn Fn(&Instr) -> bool| -> Vec<Step> {
            s.iter().filter(|x| pred(&x.0)).map(|x| x.1).collect()
        };
        let ifs = by(&|i| matches!(i, Instr::If { .. }));
        // `i < N` is an affine comparison: a PRED tuple; `h` is a
        // comparison's value (no tuple); `M > 5` is scalar.
        assert_eq!(
            ifs,
            vec![
                Step::EnqPred { scalar: false },
                Step::SkipRegion,
                Step::EnqPred { scalar: true }
            ]
        );
        let mems = by(&|i| matches!(i, Instr::Load { .. }));
        let data = Step::Enq {
            kind: TupleKind::Data,
            size: 4,
        };
        let half = Step::Enq {
            kind: TupleKind::Data,
            size: 2,
        };
        assert_eq!(
            mems,
            vec![
                data,            // A[i]
                Step::NonAffine, // B[i] under the divergent if
                Step::NonAffine, // B[j] likewise
                Step::NonAffine, // B[v]: indirect
                Step::NonAffine, // A[i * i]: non-affine
                Step::NonAffine, // H[i] under `if h`
                half,            // H[i] under the scalar if
            ]
        );
        // `i` is read by the non-affine B[i] and i * i: kept.
        let lets = by(&|i| matches!(i, Instr::Let { .. }));
        assert_eq!(lets[0], Step::AffineLet { removed: false });
    }

    #[test]
    fn shapes_that_are_not_decoupled_say_why() {
        let body = "let i = tid.x + tid.y * 8\nload A[i]";
        let e = Plan::new(&kernel(body, "[12, 4]", "[4]")).unwrap_err();
        assert!(e.contains("power of two"), "{e}");
        let e = Plan::new(&kernel(body, "[8, 4, 2]", "[4]")).unwrap_err();
        assert!(e.contains("z dimension"), "{e}");
        let e = Plan::new(&kernel("compute 3", "[64]", "[4]")).unwrap_err();
        assert!(e.contains("nothing to decouple"), "{e}");
        let p = Plan::new(&kernel(body, "[8, 4]", "[4]")).unwrap();
        assert_eq!(p.shape.bdx_log2, 3);
        assert_eq!(p.shape.warps_per_cta, 1);
        let p = Plan::new(&kernel(body, "[100]", "[4]")).unwrap();
        assert_eq!(
            (p.shape.bdx_log2, p.shape.threads, p.shape.warps_per_cta),
            (7, 100, 4)
        );
    }

    #[test]
    fn the_affine_warp_walks_the_stream_and_enqueues_tuples() {
        let k = kernel(
            "let tid = ctaid.x * blockDim.x + tid.x\n\
             loop i 3 {\n\
               let idx = i * N + tid\n\
               let v = A[idx]\n\
               compute 4\n\
               store B[idx]\n\
             }\n\
             if tid < 100 {\n\
               compute 1\n\
             }",
            "[256]",
            "[\"N / 256\"]",
        );
        let plan = Plan::new(&k).unwrap();
        let mut aw = AffineWarp::new(&plan);
        assert_eq!(aw.issue(&k, &plan, true).unwrap(), AwIssue::Idle);
        aw.start(&plan);
        let a = k.array("A").unwrap().base as u32;
        let b = k.array("B").unwrap().base as u32;
        let mut tuples = Vec::new();
        let mut issued = 0;
        let mut blocked = 0;
        for cycle in 0..100 {
            // The queue refuses every third cycle.
            match aw.issue(&k, &plan, cycle % 3 != 2).unwrap() {
                AwIssue::Idle => break,
                AwIssue::Issued => issued += 1,
                AwIssue::Enqueue(t) => tuples.push(t),
                AwIssue::Blocked => blocked += 1,
            }
        }
        assert!(!aw.running());
        assert!(blocked > 0);
        // let tid, loop begin, 3 x let idx.
        assert_eq!(issued, 1 + 1 + 3);
        assert_eq!(tuples.len(), 3 * 3 + 1);
        for i in 0..3u32 {
            let ld = tuples[3 * i as usize];
            assert_eq!(ld.kind, TupleKind::Data);
            // A + 4 * (i * N + ctaid.x * 256 + tid.x).
            assert_eq!(ld.terms, [a + 4 * i * 4096, 4, 0, 1024, 0]);
            let st = tuples[3 * i as usize + 1];
            assert_eq!(st.kind, TupleKind::Addr);
            assert_eq!(st.terms, [b + 4 * i * 4096, 4, 0, 1024, 0]);
            // The back edge: i + 1 < 3.
            let lp = tuples[3 * i as usize + 2];
            assert_eq!(lp.kind, TupleKind::Pred);
            assert_eq!(
                (lp.terms, lp.cmp, lp.scalar),
                ([i + 1, 0, 0, 0, 0], TupleCmp::Lt, 3)
            );
        }
        let p = tuples[9];
        assert_eq!(p.kind, TupleKind::Pred);
        assert_eq!(
            (p.terms, p.cmp, p.scalar),
            ([0, 1, 0, 256, 0], TupleCmp::Lt, 100)
        );
    }
}
