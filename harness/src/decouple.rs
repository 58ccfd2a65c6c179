//! DAC in the harness (`sm_harness.md`, "Units in the harness" and
//! revision 3; the DAC paper, sections 3 and 4.1-4.6): the decoupling of a
//! kernel into an affine and a non-affine stream ([`Plan`]); the affine
//! warp that executes the affine stream on tuples is
//! `crate::affine_warp`. The SM (`sm/dac_side.rs`) runs the affine warp
//! beside its warps, gives its tuples to the unit in the expander slot,
//! and lets the non-affine warps dequeue.
//!
//! # The decoupling (the paper's compiler, section 3)
//! "Eligible affine instructions become Enqueue instructions in the affine
//! stream and Dequeue instructions in the non-affine stream. Their
//! predecessor instructions are placed in the affine stream. The
//! predecessor instructions are removed from the non-affine stream
//! provided that no non-affine instruction depends on them." Here:
//! - an instruction is *uniform* when every enclosing `if` and loop has a
//!   scalar condition (the compiler's guard class): every thread of every
//!   CTA executes it together. Uniform instructions are decoupled, and so
//!   are those directly in the body of a *guard*: an `if` at a uniform
//!   point with a thread-varying affine condition and no `else`. Its PRED
//!   tuple carries `enq_guard`, the unit keeps each warp's mask, and the
//!   body's address tuples carry `enq_guard` too, so the unit expands them
//!   over the lanes the guard keeps and gives an empty warp no record (the
//!   paper's §4.6: "mask off the inactive threads when expanding the
//!   affine tuple"). A branch or loop nested in a guard's body, an `if`
//!   with an `else` and a guard in a divergent region are not decoupled:
//!   the unit keeps one guard mask per warp (one level of the Affine SIMT
//!   Stack; divergent tuples are not in this version, `dac.md`);
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
//! - a decoupled access's address arithmetic (the `Compute` the kernel
//!   compiler puts before it, `kernels/README.md` "Address arithmetic")
//!   moves to the affine warp ([`Step::Address`]);
//! - a uniform `if` whose condition is an affine comparison (or an affine
//!   value, compared `!= 0`) becomes a PRED tuple; the non-affine warps
//!   branch on the dequeued mask. The affine warp follows a scalar
//!   condition (it is the same for every thread), enters a guard's body,
//!   and jumps over the body of another thread-varying one;
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

use super::expr::{decode, regs_read, BinOp, Class, RExpr, UnOp};
use super::kernel::{Instr, Kernel, Program, REG_CTAID, REG_TID};
use super::roles::{BlockShape, TupleKind};

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
        /// In a guard's body: the unit expands the tuple under each
        /// warp's guard mask (`enq_guard`).
        guard: bool,
    },
    /// The address arithmetic (an inserted `Compute`, `kernel`) of a
    /// decoupled load or store: the affine warp computes it, one affine
    /// instruction per operator, once per batch; the non-affine warps
    /// skip it (their addresses come as records).
    Address,
    /// A decoupled branch: the affine warp enqueues the predicate tuple;
    /// the non-affine warps dequeue their masks. `scalar`: the condition
    /// is the same for every thread and the affine warp follows it.
    EnqPred {
        /// The affine warp follows the branch.
        scalar: bool,
        /// A guard (a thread-varying condition at a uniform point, no
        /// `else`): the unit keeps each warp's mask as its guard mask, and
        /// the affine warp enters the body, whose affine instructions are
        /// decoupled under that mask (DAC §4.5-4.6).
        guard: bool,
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
    pub(crate) tuple_regs: Vec<bool>,
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
pub(crate) fn condition(e: &RExpr) -> (RExpr, BinOp, RExpr) {
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
        // A let directly in a guard's body: the affine warp computes it
        // too (for the threads the guard keeps).
        let guarded = guard_bodies(prog);
        let let_uniform = |i: usize| uniform(i) || (guarded[i] && !skipped[i]);
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
                        let v = if let_uniform(i) && prog.info[i].class.class != Class::NonAffine {
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
        let guarded = guard_bodies(prog);
        let mut steps = vec![Step::NonAffine; n];
        for (i, ins) in prog.instrs.iter().enumerate() {
            let info = prog.info[i];
            let uniform = info.guard.class == Class::Scalar;
            // Directly in a guard's body (the guard itself decides below
            // whether the affine warp enters it; if not, the body is
            // jumped over and made non-affine at the end).
            let guard = guarded[i];
            let affine = info.class.class != Class::NonAffine;
            steps[i] = match *ins {
                Instr::Let { dst, .. }
                    if (uniform || guard) && affine && h[dst as usize] < Hold::None =>
                {
                    Step::AffineLet { removed: true }
                }
                // A texture load is never decoupled (it takes the texture
                // cache, not DAC's L1 path).
                Instr::Load { mem, .. } if prog.mems[mem as usize].texture => Step::NonAffine,
                Instr::Load { array, index, .. } | Instr::Store { array, index, .. }
                    if (uniform || guard) && affine && tuple(&decode(&prog.ops, index)) =>
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
                            guard,
                        },
                        _ => Step::NonAffine,
                    }
                }
                Instr::If { cond, .. } if uniform => {
                    let (a, _, b) = condition(&decode(&prog.ops, cond));
                    let (ha, hb) = (hold_of(&a, h), hold_of(&b, h));
                    if affine && ha < Hold::None && hb < Hold::None {
                        let scalar = ha <= Hold::Scalar && hb <= Hold::Scalar;
                        Step::EnqPred {
                            scalar,
                            guard: !scalar && opens_guard(prog, i),
                        }
                    } else {
                        Step::SkipRegion
                    }
                }
                // A branch inside a guard's body: the affine warp jumps
                // over it (one guard mask per warp: no nesting).
                Instr::If { .. } if guard => Step::SkipRegion,
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
                break;
            }
        }
        // A decoupled access's address arithmetic (just before it) moves
        // to the affine warp.
        for i in 0..n.saturating_sub(1) {
            if prog.info[i].addr && matches!(steps[i + 1], Step::Enq { .. }) {
                steps[i] = Step::Address;
            }
        }
        steps
    }

    /// Whether the non-affine warps skip instruction `pc` (a removed let).
    #[inline]
    pub(crate) fn removed(&self, pc: u32) -> bool {
        matches!(
            self.steps[pc as usize],
            Step::AffineLet { removed: true } | Step::Address
        )
    }
}

/// Whether the affine warp jumps over the region a step opens.
fn jumps_over(s: Step) -> bool {
    matches!(
        s,
        Step::SkipRegion
            | Step::EnqPred {
                scalar: false,
                guard: false
            }
    )
}

/// Whether the `if` at `i` can open a guard: at a uniform point, with a
/// thread-varying condition and no `else` (the unit keeps one mask per
/// warp, so the `else`'s complement would need a second).
fn opens_guard(prog: &Program, i: usize) -> bool {
    let Instr::If { else_at, .. } = prog.instrs[i] else {
        return false;
    };
    prog.info[i].guard.class == Class::Scalar
        && prog.info[i].class.class != Class::Scalar
        && !matches!(prog.instrs[else_at as usize], Instr::Else { .. })
}

/// Per instruction: directly in the body of an `if` that can open a guard
/// ([`opens_guard`]), not inside a branch or loop nested in it.
fn guard_bodies(prog: &Program) -> Vec<bool> {
    let mut out = vec![false; prog.instrs.len()];
    for i in 0..prog.instrs.len() {
        if !opens_guard(prog, i) {
            continue;
        }
        let body_end = region_end(prog, i) - 1; // the EndIf
        let mut j = i + 1;
        while j < body_end {
            out[j] = true;
            j = match prog.instrs[j] {
                Instr::If { .. } | Instr::LoopBegin { .. } => region_end(prog, j),
                _ => j + 1,
            };
        }
    }
    out
}

/// The index just past the region that instruction `i` (an `If` or a
/// `LoopBegin`) opens: after its `EndIf` or its `LoopEnd`.
pub(crate) fn region_end(prog: &Program, i: usize) -> usize {
    match prog.instrs[i] {
        Instr::If { else_at, .. } => match prog.instrs[else_at as usize] {
            Instr::Else { end_at } => end_at as usize + 1,
            _ => else_at as usize + 1,
        },
        Instr::LoopBegin { exit_at, .. } => exit_at as usize,
        _ => i + 1,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn kernel(body: &str, block: &str, grid: &str) -> Kernel {
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
                // A[idx]'s address arithmetic: base + idx * 4.
                Step::Address,
                Step::Enq {
                    kind: TupleKind::Data,
                    size: 4,
                    guard: false
                },
                Step::NonAffine,
                Step::Address,
                Step::Enq {
                    kind: TupleKind::Addr,
                    size: 4,
                    guard: false
                },
                Step::LoopBack,
                Step::NonAffine,
            ],
            "{s:?}"
        );
    }

    #[test]
    fn guards_decouple_their_bodies_and_data_dependent_values_stay_non_affine() {
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
        // `i < N` is an affine comparison at a uniform point with no
        // `else`: a guard; `h` is a comparison's value (no tuple); `M > 5`
        // is scalar.
        assert_eq!(
            ifs,
            vec![
                Step::EnqPred {
                    scalar: false,
                    guard: true
                },
                Step::SkipRegion,
                Step::EnqPred {
                    scalar: true,
                    guard: false
                }
            ]
        );
        let mems = by(&|i| matches!(i, Instr::Load { .. }));
        let data = |guard| Step::Enq {
            kind: TupleKind::Data,
            size: 4,
            guard,
        };
        let half = Step::Enq {
            kind: TupleKind::Data,
            size: 2,
            guard: false,
        };
        assert_eq!(
            mems,
            vec![
                data(false),     // A[i]
                data(true),      // B[i] under the guard: its mask
                data(true),      // B[j] likewise (j = tid.x, in the body)
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

    /// Only an `if` at a uniform point, with a thread-varying condition and
    /// no `else`, opens a guard; inside its body a nested branch or loop is
    /// jumped over (one guard mask per warp), and a guard nested in a
    /// divergent region is not decoupled at all.
    #[test]
    fn guards_are_one_level_deep_and_have_no_else() {
        let k = kernel(
            "let i = ctaid.x * blockDim.x + tid.x\n\
             if i < N {\n\
               load A[i]\n\
             } else {\n\
               load B[i]\n\
             }\n\
             if i < N - 3 {\n\
               load A[i]\n\
               if tid.x < 7 {\n\
                 load B[i]\n\
               }\n\
               loop r 2 {\n\
                 load B[i + r]\n\
               }\n\
               load B[i]\n\
             }",
            "[256]",
            "[\"N / 256\"]",
        );
        let s = steps(&k);
        let by = |pred: &dyn Fn(&Instr) -> bool| -> Vec<Step> {
            s.iter().filter(|x| pred(&x.0)).map(|x| x.1).collect()
        };
        let jumped = Step::EnqPred {
            scalar: false,
            guard: false,
        };
        let guard = Step::EnqPred {
            scalar: false,
            guard: true,
        };
        assert_eq!(
            by(&|i| matches!(i, Instr::If { .. })),
            vec![jumped, guard, Step::SkipRegion]
        );
        assert_eq!(
            by(&|i| matches!(i, Instr::LoopBegin { .. })),
            vec![Step::SkipRegion]
        );
        let g = Step::Enq {
            kind: TupleKind::Data,
            size: 4,
            guard: true,
        };
        assert_eq!(
            by(&|i| matches!(i, Instr::Load { .. })),
            vec![
                Step::NonAffine, // A[i] under an if with an else
                Step::NonAffine, // B[i] in the else
                g,               // A[i] in the guard
                Step::NonAffine, // B[i] under the nested if
                Step::NonAffine, // B[i + r] in the nested loop
                g,               // B[i] back in the guard's body
            ]
        );
    }
}
