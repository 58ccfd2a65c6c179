//! The stack bytecode of resolved expressions and its evaluation on all 32
//! lanes of a warp at once.

use super::class::RExpr;
use super::parse::{BinOp, UnOp};

/// Warp width.
pub const LANES: usize = 32;

/// One value per lane.
pub type Lanes = [i64; LANES];

/// Bytecode of the vector stack machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Push a constant.
    Const(i64),
    /// Push a register.
    Reg(u16),
    /// Apply a unary operator to the top.
    Un(UnOp),
    /// Pop b, pop a, push `a op b`.
    Bin(BinOp),
    /// Top := top op constant.
    BinImm(BinOp, i64),
    /// Push `reg op constant`.
    RegImm(u16, BinOp, i64),
}

/// Compiled code: a range of an [`Op`] vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Code {
    pub start: u32,
    pub len: u32,
    /// The value if the expression is a constant.
    pub konst: Option<i64>,
    /// The line of the kernel file holding the statement the expression
    /// belongs to (set by the body compiler; 0 when unknown), for run-time
    /// errors such as a zero divisor.
    pub line: u32,
}

/// Append the bytecode of `e` to `ops`, returning its range and the stack
/// depth it needs.
pub(crate) fn compile(e: &RExpr, ops: &mut Vec<Op>) -> (Code, usize) {
    let start = ops.len();
    let depth = emit(e, ops);
    (
        Code {
            start: start as u32,
            len: (ops.len() - start) as u32,
            konst: e.as_const(),
            line: 0,
        },
        depth,
    )
}

/// The expression `code` was compiled from (up to the constant folding
/// that [`compile`] keeps): the inverse of [`compile`], for evaluators
/// over other value domains (DAC's affine tuples).
pub(crate) fn decode(ops: &[Op], code: Code) -> RExpr {
    if let Some(k) = code.konst {
        return RExpr::Const(k);
    }
    let mut stack: Vec<RExpr> = Vec::new();
    for op in &ops[code.start as usize..(code.start + code.len) as usize] {
        match *op {
            Op::Const(k) => stack.push(RExpr::Const(k)),
            Op::Reg(r) => stack.push(RExpr::Reg(r)),
            Op::RegImm(r, b, k) => stack.push(RExpr::Bin(
                b,
                Box::new(RExpr::Reg(r)),
                Box::new(RExpr::Const(k)),
            )),
            Op::Un(u) => {
                let a = stack.pop().expect("operand");
                stack.push(RExpr::Un(u, Box::new(a)));
            }
            Op::BinImm(b, k) => {
                let a = stack.pop().expect("operand");
                stack.push(RExpr::Bin(b, Box::new(a), Box::new(RExpr::Const(k))));
            }
            Op::Bin(b) => {
                let y = stack.pop().expect("operand");
                let x = stack.pop().expect("operand");
                stack.push(RExpr::Bin(b, Box::new(x), Box::new(y)));
            }
        }
    }
    stack.pop().expect("a value")
}

/// The registers `code` reads, appended to `out`.
pub(crate) fn regs_read(ops: &[Op], code: Code, out: &mut Vec<u16>) {
    if code.konst.is_some() {
        return;
    }
    for op in &ops[code.start as usize..(code.start + code.len) as usize] {
        if let Op::Reg(r) | Op::RegImm(r, _, _) = *op {
            out.push(r);
        }
    }
}

fn emit(e: &RExpr, ops: &mut Vec<Op>) -> usize {
    match e {
        RExpr::Const(v) => {
            ops.push(Op::Const(*v));
            1
        }
        RExpr::Reg(r) => {
            ops.push(Op::Reg(*r));
            1
        }
        RExpr::Un(op, a) => {
            let d = emit(a, ops);
            ops.push(Op::Un(*op));
            d
        }
        RExpr::Bin(op, a, b) => {
            if let RExpr::Const(k) = **b {
                if let RExpr::Reg(r) = **a {
                    ops.push(Op::RegImm(r, *op, k));
                    return 1;
                }
                let d = emit(a, ops);
                ops.push(Op::BinImm(*op, k));
                return d;
            }
            let da = emit(a, ops);
            let db = emit(b, ops);
            ops.push(Op::Bin(*op));
            da.max(db + 1)
        }
    }
}

/// Evaluate `code` on all lanes. `stack` must hold at least the depth the
/// code needs; the result is in `stack[0]`.
#[inline]
///
/// Returns the lanes (bit `l` for lane `l`) at which a `/` or `%` had a
/// zero divisor (those give 0); the caller reports the active ones.
#[must_use = "a zero divisor of an active thread is an error"]
pub(crate) fn eval(ops: &[Op], code: Code, regs: &[Lanes], stack: &mut [Lanes]) -> u32 {
    if let Some(k) = code.konst {
        stack[0] = [k; LANES];
        return 0;
    }
    let mut zero = 0u32;
    let mut sp = 0usize;
    for op in &ops[code.start as usize..(code.start + code.len) as usize] {
        match *op {
            Op::Const(k) => {
                stack[sp] = [k; LANES];
                sp += 1;
            }
            Op::Reg(r) => {
                stack[sp] = regs[r as usize];
                sp += 1;
            }
            Op::RegImm(r, bop, k) => {
                let src = &regs[r as usize];
                let dst = &mut stack[sp];
                zero |= imm_zero(bop, k);
                lanes_imm(bop, src, k, dst);
                sp += 1;
            }
            Op::Un(u) => {
                for v in stack[sp - 1].iter_mut() {
                    *v = u.apply(*v);
                }
            }
            Op::BinImm(bop, k) => {
                let top = stack[sp - 1];
                zero |= imm_zero(bop, k);
                lanes_imm(bop, &top, k, &mut stack[sp - 1]);
            }
            Op::Bin(bop) => {
                let (lo, hi) = stack.split_at_mut(sp - 1);
                let a = &mut lo[sp - 2];
                let b = &hi[0];
                if matches!(bop, BinOp::Div | BinOp::Rem) {
                    for (l, &v) in b.iter().enumerate() {
                        zero |= ((v == 0) as u32) << l;
                    }
                }
                lanes_bin(bop, a, b);
                sp -= 1;
            }
        }
    }
    zero
}

/// Every lane, if `op k` divides by zero.
#[inline(always)]
fn imm_zero(op: BinOp, k: i64) -> u32 {
    if k == 0 && matches!(op, BinOp::Div | BinOp::Rem) {
        u32::MAX
    } else {
        0
    }
}

#[inline(always)]
fn lanes_imm(op: BinOp, src: &Lanes, k: i64, dst: &mut Lanes) {
    match op {
        BinOp::Add => {
            for i in 0..LANES {
                dst[i] = src[i].wrapping_add(k);
            }
        }
        BinOp::Sub => {
            for i in 0..LANES {
                dst[i] = src[i].wrapping_sub(k);
            }
        }
        BinOp::Mul => {
            for i in 0..LANES {
                dst[i] = src[i].wrapping_mul(k);
            }
        }
        _ => {
            for i in 0..LANES {
                dst[i] = op.apply(src[i], k);
            }
        }
    }
}

#[inline(always)]
fn lanes_bin(op: BinOp, a: &mut Lanes, b: &Lanes) {
    match op {
        BinOp::Add => {
            for i in 0..LANES {
                a[i] = a[i].wrapping_add(b[i]);
            }
        }
        BinOp::Sub => {
            for i in 0..LANES {
                a[i] = a[i].wrapping_sub(b[i]);
            }
        }
        BinOp::Mul => {
            for i in 0..LANES {
                a[i] = a[i].wrapping_mul(b[i]);
            }
        }
        _ => {
            for i in 0..LANES {
                a[i] = op.apply(a[i], b[i]);
            }
        }
    }
}

/// Evaluate a resolved expression for one set of register values (tests).
#[cfg(test)]
pub(crate) fn eval_scalar(e: &RExpr, regs: &dyn Fn(u16) -> i64) -> i64 {
    match e {
        RExpr::Const(v) => *v,
        RExpr::Reg(r) => regs(*r),
        RExpr::Un(op, a) => op.apply(eval_scalar(a, regs)),
        RExpr::Bin(op, a, b) => op.apply(eval_scalar(a, regs), eval_scalar(b, regs)),
    }
}
