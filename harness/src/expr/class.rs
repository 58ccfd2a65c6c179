//! The classification of expressions (scalar, affine, non-affine, and
//! whether loaded data is involved) and the resolved expression it is
//! computed on.

use super::parse::{BinOp, UnOp};

/// How an expression varies across the threads of a kernel launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// The same for every thread (literals, parameters, dimensions, loop
    /// counters of uniform loops).
    Scalar,
    /// Linear in the thread and CTA indices with scalar coefficients.
    Affine,
    /// Anything else (products of thread-varying values, `/`, `%`, `min`,
    /// `max` of them, loaded values).
    NonAffine,
}

/// The classification of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ExprClass {
    /// Scalar, affine or non-affine.
    pub class: Class,
    /// The value depends on data loaded from memory (an *indirect*
    /// address when used as an index). Implies [`Class::NonAffine`].
    pub indirect: bool,
}

impl ExprClass {
    /// A scalar.
    pub const SCALAR: ExprClass = ExprClass {
        class: Class::Scalar,
        indirect: false,
    };
    /// An affine value.
    pub const AFFINE: ExprClass = ExprClass {
        class: Class::Affine,
        indirect: false,
    };
    /// A loaded value.
    pub const LOADED: ExprClass = ExprClass {
        class: Class::NonAffine,
        indirect: true,
    };
    /// The least class containing both.
    pub fn join(self, o: ExprClass) -> ExprClass {
        ExprClass {
            class: self.class.max(o.class),
            indirect: self.indirect || o.indirect,
        }
    }
    fn nonaffine(self) -> ExprClass {
        ExprClass {
            class: Class::NonAffine,
            indirect: self.indirect,
        }
    }
}

/// A resolved expression: names replaced by constants or registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RExpr {
    Const(i64),
    Reg(u16),
    Un(UnOp, Box<RExpr>),
    Bin(BinOp, Box<RExpr>, Box<RExpr>),
}

impl RExpr {
    /// The ALU instructions SASS spends on the address of an access whose
    /// (folded) index is `self` (`sm_harness.md` revision 3): one per
    /// operator of the index (after folding, every operator has a
    /// non-constant operand), plus one for `base + index * elem` (the
    /// array's base and element size are constants: one `IMAD.WIDE` /
    /// `ISCADD`). A constant added to or subtracted from the whole index
    /// is folded into the memory instruction's immediate offset, as SASS
    /// folds it (`LDG.E R4, [R2.64+0x4]`), and a constant index costs
    /// nothing. No common-subexpression elimination across statements and
    /// no strength reduction in loops: `kernels/README.md` compares one
    /// kernel with its SASS.
    pub(crate) fn address_ops(&self) -> u32 {
        let mut e = self;
        loop {
            e = match e {
                RExpr::Bin(BinOp::Add | BinOp::Sub, a, b) if matches!(**b, RExpr::Const(_)) => a,
                RExpr::Bin(BinOp::Add, a, b) if matches!(**a, RExpr::Const(_)) => b,
                _ => break,
            };
        }
        match e {
            RExpr::Const(_) => 0,
            e => 1 + e.operators(),
        }
    }

    /// Operator nodes.
    fn operators(&self) -> u32 {
        match self {
            RExpr::Const(_) | RExpr::Reg(_) => 0,
            RExpr::Un(_, a) => 1 + a.operators(),
            RExpr::Bin(_, a, b) => 1 + a.operators() + b.operators(),
        }
    }

    /// Fold constant sub-expressions.
    pub(crate) fn fold(self) -> RExpr {
        match self {
            RExpr::Un(op, a) => match a.fold() {
                RExpr::Const(v) => RExpr::Const(op.apply(v)),
                a => RExpr::Un(op, Box::new(a)),
            },
            RExpr::Bin(op, a, b) => match (a.fold(), b.fold()) {
                // A zero divisor stays, for [`RExpr::zero_divisor`].
                (a, RExpr::Const(0)) if matches!(op, BinOp::Div | BinOp::Rem) => {
                    RExpr::Bin(op, Box::new(a), Box::new(RExpr::Const(0)))
                }
                (RExpr::Const(x), RExpr::Const(y)) => RExpr::Const(op.apply(x, y)),
                (a, RExpr::Const(0)) if matches!(op, BinOp::Add | BinOp::Sub) => a,
                (RExpr::Const(0), b) if op == BinOp::Add => b,
                (a, RExpr::Const(1)) if matches!(op, BinOp::Mul | BinOp::Div) => a,
                (RExpr::Const(1), b) if op == BinOp::Mul => b,
                (a, b) => RExpr::Bin(op, Box::new(a), Box::new(b)),
            },
            e => e,
        }
    }

    /// Classify, given the class of every register.
    pub(crate) fn classify(&self, regs: &dyn Fn(u16) -> ExprClass) -> ExprClass {
        match self {
            RExpr::Const(_) => ExprClass::SCALAR,
            RExpr::Reg(r) => regs(*r),
            RExpr::Un(_, a) => a.classify(regs),
            RExpr::Bin(op, a, b) => {
                let ca = a.classify(regs);
                let cb = b.classify(regs);
                let j = ca.join(cb);
                match op {
                    BinOp::Add | BinOp::Sub => j,
                    BinOp::Mul => {
                        if ca.class == Class::Scalar || cb.class == Class::Scalar {
                            j
                        } else {
                            j.nonaffine()
                        }
                    }
                    BinOp::Div | BinOp::Rem | BinOp::Min | BinOp::Max => {
                        if j.class == Class::Scalar {
                            j
                        } else {
                            j.nonaffine()
                        }
                    }
                    // A predicate keeps the class of its operands (an
                    // "affine predicate" in DAC's terms).
                    _ => j,
                }
            }
        }
    }

    /// Whether a `/` or `%` of the (folded) expression divides by the
    /// constant 0.
    pub(crate) fn zero_divisor(&self) -> bool {
        match self {
            RExpr::Const(_) | RExpr::Reg(_) => false,
            RExpr::Un(_, a) => a.zero_divisor(),
            RExpr::Bin(op, a, b) => {
                (matches!(op, BinOp::Div | BinOp::Rem) && **b == RExpr::Const(0))
                    || a.zero_divisor()
                    || b.zero_divisor()
            }
        }
    }

    /// The constant value, if the expression is a constant.
    pub(crate) fn as_const(&self) -> Option<i64> {
        match self {
            RExpr::Const(v) => Some(*v),
            _ => None,
        }
    }
}
