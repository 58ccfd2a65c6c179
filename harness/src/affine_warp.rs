//! DAC's affine warp (`crate::decouple` has the decoupling it follows):
//! one per SM, run once per batch of CTAs; its registers hold tuples, it
//! issues one affine instruction per cycle it is given and enqueues the
//! address and predicate tuples of the decoupled instructions for the
//! unit in the expander slot (`sm/dac_side.rs`).

use crate::affine::{self, Pred, Tuple};
use crate::decouple::{condition, region_end, Plan, Step};
use crate::expr::{decode, BinOp, RExpr};
use crate::kernel::{Instr, Kernel, Program, REG_CTAID, REG_TID};
use crate::roles::{EnqTuple, TupleCmp, TupleKind};

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
    /// Address arithmetic costs instructions (`address_arithmetic`).
    charge_addresses: bool,
    /// Instructions left of the address arithmetic at `pc`.
    addr_left: u32,
    regs: Vec<Option<Tuple>>,
    frames: Vec<IfFrame>,
}

impl AffineWarp {
    pub(crate) fn new(plan: &Plan, charge_addresses: bool) -> AffineWarp {
        AffineWarp {
            pc: 0,
            running: false,
            charge_addresses,
            addr_left: 0,
            regs: vec![None; plan.tuple_regs.len()],
            frames: Vec::new(),
        }
    }

    /// Start the affine stream for a new batch of CTAs.
    pub(crate) fn start(&mut self, plan: &Plan) {
        self.pc = 0;
        self.running = true;
        self.addr_left = 0;
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
                    if let Step::Enq { kind, size, guard } = step {
                        return self.enqueue_addr(k, (kind, size, guard), can_enqueue);
                    }
                    self.pc += 1;
                }
                (Instr::Store { .. }, Step::Enq { kind, size, guard }) => {
                    return self.enqueue_addr(k, (kind, size, guard), can_enqueue);
                }
                (Instr::If { cond, else_at }, Step::EnqPred { scalar, guard }) => {
                    if !can_enqueue {
                        return Ok(AwIssue::Blocked);
                    }
                    return self.enqueue_pred(prog, (cond, else_at), scalar, guard);
                }
                (Instr::Compute { n, .. }, Step::Address) if self.charge_addresses => {
                    if self.addr_left == 0 {
                        self.addr_left = n;
                    }
                    self.addr_left -= 1;
                    if self.addr_left == 0 {
                        self.pc += 1;
                    }
                    return Ok(AwIssue::Issued);
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

    /// Enqueue the predicate tuple of the `if` at `pc` (its condition
    /// and else target) and follow it: a scalar condition as every thread
    /// would, a guard into its body (its tuples are expanded under the
    /// masks this one leaves in the unit), any other over its region.
    fn enqueue_pred(
        &mut self,
        prog: &Program,
        (cond, else_at): (crate::expr::Code, u32),
        scalar: bool,
        guard: bool,
    ) -> Result<AwIssue, String> {
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
            guard,
        };
        if scalar {
            let taken = p.v.is_scalar() && cmp_holds(p.cmp, p.v.base, p.scalar);
            self.frames.push(IfFrame { taken });
            self.pc = if taken { self.pc + 1 } else { else_at };
        } else if guard {
            self.frames.push(IfFrame { taken: true });
            self.pc += 1;
        } else {
            self.pc = region_end(prog, self.pc as usize) as u32;
        }
        Ok(AwIssue::Enqueue(t))
    }

    /// Enqueue the address tuple of the access at `pc`: `(kind, access
    /// size, guarded)`.
    fn enqueue_addr(
        &mut self,
        k: &Kernel,
        (kind, size, guard): (TupleKind, u32, bool),
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
            guard,
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
    use crate::decouple::tests::kernel;

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
        let mut aw = AffineWarp::new(&plan, true);
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
        // let tid, loop begin, 3 x (let idx, the address arithmetic of
        // A[idx] and of B[idx]: one instruction each).
        assert_eq!(issued, 1 + 1 + 3 * 3);
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

    /// A guard: the affine warp enqueues its predicate with the guard flag,
    /// enters the body and enqueues the body's access under the guard
    /// masks; after the `if` it goes on unguarded.
    #[test]
    fn the_affine_warp_enters_a_guard_and_flags_its_tuples() {
        let k = kernel(
            "let tid = ctaid.x * blockDim.x + tid.x\n\
             if tid < N - 8 {\n\
               load A[tid + 1]\n\
             }\n\
             load B[tid]",
            "[256]",
            "[\"N / 256\"]",
        );
        let plan = Plan::new(&k).unwrap();
        let mut aw = AffineWarp::new(&plan, true);
        aw.start(&plan);
        let mut tuples = Vec::new();
        for _ in 0..100 {
            match aw.issue(&k, &plan, true).unwrap() {
                AwIssue::Idle => break,
                AwIssue::Enqueue(t) => tuples.push(t),
                _ => {}
            }
        }
        let kinds: Vec<(TupleKind, bool)> = tuples.iter().map(|t| (t.kind, t.guard)).collect();
        assert_eq!(
            kinds,
            vec![
                (TupleKind::Pred, true),
                (TupleKind::Data, true),
                (TupleKind::Data, false)
            ]
        );
        let a = k.array("A").unwrap().base as u32;
        assert_eq!(tuples[1].terms, [a + 4, 4, 0, 1024, 0]);
        assert_eq!((tuples[0].cmp, tuples[0].scalar), (TupleCmp::Lt, 4096 - 8));
    }
}
