//! [`SignedCmp`]: one signed 32-bit comparison of the predicate expander.

use rust_hdl::prelude::*;

use crate::util::konst;

/// `r = a CMP b` for the signed 32-bit `a`, `b` and `op` = 0 LT, 1 LE, 2
/// GT, 3 GE, 4 EQ, 5 NE (6 and 7: false).
#[derive(LogicBlock)]
pub struct SignedCmp {
    /// Left operand (a lane value).
    pub a: Signal<In, Bits<32>>,
    /// Right operand (the scalar).
    pub b: Signal<In, Bits<32>>,
    /// The comparison.
    pub op: Signal<In, Bits<3>>,
    /// Its result.
    pub r: Signal<Out, Bit>,

    lt: Signal<Local, Bit>,
    eq: Signal<Local, Bit>,
    sign: Constant<Bits<32>>,
    op_lt: Constant<Bits<3>>,
    op_le: Constant<Bits<3>>,
    op_gt: Constant<Bits<3>>,
    op_ge: Constant<Bits<3>>,
    op_eq: Constant<Bits<3>>,
    op_ne: Constant<Bits<3>>,
}

impl Default for SignedCmp {
    fn default() -> Self {
        use ports::dac::cmp;
        SignedCmp {
            a: Default::default(),
            b: Default::default(),
            op: Default::default(),
            r: Default::default(),
            lt: Default::default(),
            eq: Default::default(),
            sign: konst(0x8000_0000),
            op_lt: konst(cmp::LT),
            op_le: konst(cmp::LE),
            op_gt: konst(cmp::GT),
            op_ge: konst(cmp::GE),
            op_eq: konst(cmp::EQ),
            op_ne: konst(cmp::NE),
        }
    }
}

impl Logic for SignedCmp {
    #[hdl_gen]
    fn update(&mut self) {
        // Signed order = unsigned order with the sign bits flipped.
        self.lt.next = (self.a.val() ^ self.sign.val()) < (self.b.val() ^ self.sign.val());
        self.eq.next = self.a.val() == self.b.val();
        self.r.next = false;
        if self.op.val() == self.op_lt.val() {
            self.r.next = self.lt.val();
        } else if self.op.val() == self.op_le.val() {
            self.r.next = self.lt.val() | self.eq.val();
        } else if self.op.val() == self.op_gt.val() {
            self.r.next = !(self.lt.val() | self.eq.val());
        } else if self.op.val() == self.op_ge.val() {
            self.r.next = !self.lt.val();
        } else if self.op.val() == self.op_eq.val() {
            self.r.next = self.eq.val();
        } else if self.op.val() == self.op_ne.val() {
            self.r.next = !self.eq.val();
        }
    }
}
