//! Affine tuples: the values DAC's affine warp computes with (`dac.md`:
//! "an affine tuple represents a value that is linear in the thread and
//! CTA indices: `v = base + tx*off_tx + ty*off_ty + cx*off_cx +
//! cy*off_cy`").
//!
//! The affine warp executes a kernel's affine instructions once for all
//! warps: its registers hold tuples instead of 32 lane values, and an
//! affine address or predicate becomes one tuple for `dac_expander`'s
//! queue. `eval` evaluates a kernel expression on tuples, given the tuple
//! of every register it reads (`tid.x` is `(0, 1, 0, 0, 0)`, a parameter or
//! loop counter a tuple with no thread terms). It gives `None` for a value
//! that is not affine: a product of two thread-varying values, or a
//! division, remainder, minimum, maximum, comparison or logical operator
//! with a thread-varying operand. Every expression the kernel compiler
//! classifies as scalar or affine has a tuple (tested below), and the
//! tuple evaluated at a thread's indices is the expression's value there.
//!
//! Arithmetic is the harness's: 64-bit two's complement, wrapping. The unit
//! takes the tuple modulo 2^32 (its addresses and offsets are 32 bits), so
//! the low 32 bits of the value agree.

use super::expr::{BinOp, RExpr, UnOp};

/// `base + tx*off_tx + ty*off_ty + cx*off_cx + cy*off_cy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tuple {
    /// The value at thread (0, 0) of CTA (0, 0).
    pub base: i64,
    /// Per `tid.x`.
    pub off_tx: i64,
    /// Per `tid.y`.
    pub off_ty: i64,
    /// Per `ctaid.x`.
    pub off_cx: i64,
    /// Per `ctaid.y`.
    pub off_cy: i64,
}

impl Tuple {
    /// A value the same for every thread.
    pub fn scalar(v: i64) -> Tuple {
        Tuple {
            base: v,
            ..Tuple::default()
        }
    }

    /// `tid.x`.
    pub const TID_X: Tuple = Tuple {
        base: 0,
        off_tx: 1,
        off_ty: 0,
        off_cx: 0,
        off_cy: 0,
    };
    /// `tid.y`.
    pub const TID_Y: Tuple = Tuple {
        base: 0,
        off_tx: 0,
        off_ty: 1,
        off_cx: 0,
        off_cy: 0,
    };
    /// `ctaid.x`.
    pub const CTAID_X: Tuple = Tuple {
        base: 0,
        off_tx: 0,
        off_ty: 0,
        off_cx: 1,
        off_cy: 0,
    };
    /// `ctaid.y`.
    pub const CTAID_Y: Tuple = Tuple {
        base: 0,
        off_tx: 0,
        off_ty: 0,
        off_cx: 0,
        off_cy: 1,
    };

    /// No thread or CTA term: the same value for every thread.
    pub fn is_scalar(&self) -> bool {
        self.off_tx == 0 && self.off_ty == 0 && self.off_cx == 0 && self.off_cy == 0
    }

    fn zip(self, o: Tuple, f: impl Fn(i64, i64) -> i64) -> Tuple {
        Tuple {
            base: f(self.base, o.base),
            off_tx: f(self.off_tx, o.off_tx),
            off_ty: f(self.off_ty, o.off_ty),
            off_cx: f(self.off_cx, o.off_cx),
            off_cy: f(self.off_cy, o.off_cy),
        }
    }

    /// `k * self`.
    pub fn scale(self, k: i64) -> Tuple {
        self.zip(Tuple::default(), |a, _| a.wrapping_mul(k))
    }

    /// The value at thread `(tx, ty)` of CTA `(cx, cy)`.
    pub fn at(&self, tx: i64, ty: i64, cx: i64, cy: i64) -> i64 {
        self.base
            .wrapping_add(tx.wrapping_mul(self.off_tx))
            .wrapping_add(ty.wrapping_mul(self.off_ty))
            .wrapping_add(cx.wrapping_mul(self.off_cx))
            .wrapping_add(cy.wrapping_mul(self.off_cy))
    }
}

impl std::ops::Add for Tuple {
    type Output = Tuple;
    /// Component-wise, wrapping.
    fn add(self, o: Tuple) -> Tuple {
        self.zip(o, i64::wrapping_add)
    }
}

impl std::ops::Sub for Tuple {
    type Output = Tuple;
    /// Component-wise, wrapping.
    fn sub(self, o: Tuple) -> Tuple {
        self.zip(o, i64::wrapping_sub)
    }
}

/// `e` evaluated on tuples, with `reg(r)` the tuple of register `r`
/// (`None` for a register whose value is not affine); `None` if the value
/// is not affine (module documentation).
pub(crate) fn eval(e: &RExpr, reg: &dyn Fn(u16) -> Option<Tuple>) -> Option<Tuple> {
    match e {
        RExpr::Const(v) => Some(Tuple::scalar(*v)),
        RExpr::Reg(r) => reg(*r),
        RExpr::Un(op, a) => {
            let a = eval(a, reg)?;
            match op {
                UnOp::Neg => Some(Tuple::default() - a),
                UnOp::Not if a.is_scalar() => Some(Tuple::scalar(op.apply(a.base))),
                UnOp::Not => None,
            }
        }
        RExpr::Bin(op, a, b) => {
            let a = eval(a, reg)?;
            let b = eval(b, reg)?;
            match op {
                BinOp::Add => Some(a + b),
                BinOp::Sub => Some(a - b),
                BinOp::Mul if a.is_scalar() => Some(b.scale(a.base)),
                BinOp::Mul if b.is_scalar() => Some(a.scale(b.base)),
                _ if a.is_scalar() && b.is_scalar() => {
                    Some(Tuple::scalar(op.apply(a.base, b.base)))
                }
                _ => None,
            }
        }
    }
}

/// A predicate on tuples: `v CMP scalar` per thread (DAC's PRED tuple).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pred {
    /// The compared value.
    pub v: Tuple,
    /// The comparison: [`BinOp::Lt`], `Le`, `Gt`, `Ge`, `Eq` or `Ne`.
    pub cmp: BinOp,
    /// The scalar it is compared with.
    pub scalar: i64,
}

/// A comparison `a CMP b` as a predicate tuple, given the registers' tuples
/// (as [`eval`]): `a CMP b` when `b` is the same for every thread, `b
/// CMP' a` (the mirrored comparison) when `a` is, else `(a - b) CMP 0`
/// (which equals `a CMP b` while `a - b` does not overflow). `None` when
/// `e` is not a comparison or an operand is not affine.
pub(crate) fn pred(e: &RExpr, reg: &dyn Fn(u16) -> Option<Tuple>) -> Option<Pred> {
    let RExpr::Bin(op, a, b) = e else {
        return None;
    };
    let mirrored = match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        BinOp::Eq => BinOp::Eq,
        BinOp::Ne => BinOp::Ne,
        _ => return None,
    };
    let a = eval(a, reg)?;
    let b = eval(b, reg)?;
    Some(if b.is_scalar() {
        Pred {
            v: a,
            cmp: *op,
            scalar: b.base,
        }
    } else if a.is_scalar() {
        Pred {
            v: b,
            cmp: mirrored,
            scalar: a.base,
        }
    } else {
        Pred {
            v: a - b,
            cmp: *op,
            scalar: 0,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Class, ExprClass};
    use proptest::prelude::*;

    /// Registers of the tests: 0..=3 are tid.x, tid.y, ctaid.x, ctaid.y;
    /// 4 and 5 are scalars (a parameter, a loop counter).
    const SCALARS: [i64; 2] = [37, -5];

    fn reg_tuple(r: u16) -> Option<Tuple> {
        Some(match r {
            0 => Tuple::TID_X,
            1 => Tuple::TID_Y,
            2 => Tuple::CTAID_X,
            3 => Tuple::CTAID_Y,
            r => Tuple::scalar(SCALARS[r as usize - 4]),
        })
    }

    fn reg_class(r: u16) -> ExprClass {
        if r < 4 {
            ExprClass::AFFINE
        } else {
            ExprClass::SCALAR
        }
    }

    /// The expression's value at one thread, directly.
    fn direct(e: &RExpr, idx: [i64; 4]) -> i64 {
        match e {
            RExpr::Const(v) => *v,
            RExpr::Reg(r) if *r < 4 => idx[*r as usize],
            RExpr::Reg(r) => SCALARS[*r as usize - 4],
            RExpr::Un(op, a) => op.apply(direct(a, idx)),
            RExpr::Bin(op, a, b) => op.apply(direct(a, idx), direct(b, idx)),
        }
    }

    /// Arithmetic expressions (no comparison or logical operator: the
    /// classification keeps a comparison of affine operands affine, as an
    /// affine *predicate*, which [`pred`] handles at the top level).
    fn arb_expr() -> impl Strategy<Value = RExpr> {
        arb_expr_in(300)
    }

    /// As [`arb_expr`] with constants in `-k..k`.
    fn arb_expr_in(k: i64) -> impl Strategy<Value = RExpr> {
        let leaf = prop_oneof![
            (-k..k).prop_map(RExpr::Const),
            (0u16..6).prop_map(RExpr::Reg),
        ];
        leaf.prop_recursive(4, 24, 2, |inner| {
            let ops = prop_oneof![
                Just(BinOp::Add),
                Just(BinOp::Add),
                Just(BinOp::Sub),
                Just(BinOp::Mul),
                Just(BinOp::Mul),
                Just(BinOp::Div),
                Just(BinOp::Rem),
                Just(BinOp::Min),
                Just(BinOp::Max),
            ];
            prop_oneof![
                (ops, inner.clone(), inner.clone()).prop_map(|(op, a, b)| RExpr::Bin(
                    op,
                    Box::new(a),
                    Box::new(b)
                )),
                inner.prop_map(|a| RExpr::Un(UnOp::Neg, Box::new(a))),
            ]
        })
    }

    #[test]
    fn an_array_index_becomes_a_byte_address_tuple() {
        // A[(ctaid.x * 16 + tid.x) * 4 + 0x1000]: base 0x1000, 4 per tid.x,
        // 64 per ctaid.x.
        let e = RExpr::Bin(
            BinOp::Add,
            Box::new(RExpr::Bin(
                BinOp::Mul,
                Box::new(RExpr::Bin(
                    BinOp::Add,
                    Box::new(RExpr::Bin(
                        BinOp::Mul,
                        Box::new(RExpr::Reg(2)),
                        Box::new(RExpr::Const(16)),
                    )),
                    Box::new(RExpr::Reg(0)),
                )),
                Box::new(RExpr::Const(4)),
            )),
            Box::new(RExpr::Const(0x1000)),
        );
        let t = eval(&e, &reg_tuple).unwrap();
        assert_eq!(
            t,
            Tuple {
                base: 0x1000,
                off_tx: 4,
                off_ty: 0,
                off_cx: 64,
                off_cy: 0
            }
        );
        // tid.x * tid.y is not affine; a scalar times tid.x is.
        let sq = RExpr::Bin(BinOp::Mul, Box::new(RExpr::Reg(0)), Box::new(RExpr::Reg(1)));
        assert_eq!(eval(&sq, &reg_tuple), None);
        let p = RExpr::Bin(BinOp::Mul, Box::new(RExpr::Reg(4)), Box::new(RExpr::Reg(1)));
        assert_eq!(eval(&p, &reg_tuple).unwrap().off_ty, 37);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Every expression the classification calls scalar or affine has
        /// a tuple, and the tuple is the expression at every thread; a
        /// tuple found for an expression classified non-affine is right
        /// too (its thread terms cancelled, e.g. `tid.x * 0`).
        #[test]
        fn tuples_agree_with_the_classification_and_the_values(
            e in arb_expr(),
            idx in proptest::array::uniform4(0i64..2048),
        ) {
            let class = e.classify(&reg_class).class;
            let t = eval(&e, &reg_tuple);
            if class != Class::NonAffine {
                prop_assert!(t.is_some(), "{:?} classified {:?} has no tuple", e, class);
            }
            if let Some(t) = t {
                prop_assert_eq!(t.at(idx[0], idx[1], idx[2], idx[3]), direct(&e, idx), "{:?}", e);
                if class == Class::Scalar {
                    prop_assert!(t.is_scalar());
                }
            }
        }

        /// A comparison of two affine values is a predicate tuple whose
        /// per-thread result is the comparison's.
        #[test]
        fn predicates_agree_with_the_comparison(
            a in arb_expr_in(4),
            b in arb_expr_in(4),
            op in prop_oneof![
                Just(BinOp::Lt), Just(BinOp::Le), Just(BinOp::Gt),
                Just(BinOp::Ge), Just(BinOp::Eq), Just(BinOp::Ne),
            ],
            idx in proptest::array::uniform4(0i64..4),
        ) {
            let e = RExpr::Bin(op, Box::new(a.clone()), Box::new(b.clone()));
            let p = pred(&e, &reg_tuple);
            let affine = |x: &RExpr| x.classify(&reg_class).class != Class::NonAffine;
            if affine(&a) && affine(&b) {
                prop_assert!(p.is_some(), "{:?}", e);
            }
            if let Some(p) = p {
                let v = p.v.at(idx[0], idx[1], idx[2], idx[3]);
                prop_assert_eq!(p.cmp.apply(v, p.scalar), direct(&e, idx), "{:?} {:?}", e, p);
            }
        }
    }
}
