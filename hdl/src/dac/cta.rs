//! [`DacCta`]: a warp's CTA terms (`base + cx*off_cx + cy*off_cy`) as a
//! carry-save sum and carry word (issue 29, session 52: registered a stage
//! ahead of the first warp-setup stage, which adds the thread terms only).

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs};

/// Operands of the CTA tree: `base` and 16 + 16 partial products of
/// `cx*off_cx` and `cy*off_cy`.
const CT_OPS: usize = 33;
/// Signals of the CTA tree: the operands, then two per 3:2 compressor.
const CT_SIGS: usize = CT_OPS + 2 * (CT_OPS - 2);

/// `base + cx*off_cx + cy*off_cy` (modulo 2^32, every factor unsigned) as
/// `s + c`: one carry-save (3:2 compressor) tree over its 33 operands
/// (`base` and the partial products, each an AND of an offset shifted by a
/// constant with one bit of the CTA index).
#[derive(LogicBlock)]
pub struct DacCta {
    /// `base`.
    pub base: Signal<In, Bits<32>>,
    /// Offset per `ctaid.x`.
    pub off_cx: Signal<In, Bits<32>>,
    /// Offset per `ctaid.y`.
    pub off_cy: Signal<In, Bits<32>>,
    /// The slot's CTA index x.
    pub cx: Signal<In, Bits<16>>,
    /// The slot's CTA index y.
    pub cy: Signal<In, Bits<16>>,
    /// The sum word.
    pub s: Signal<Out, Bits<32>>,
    /// The carry word (bit 0 always 0).
    pub c: Signal<Out, Bits<32>>,

    x: Vec<Signal<Local, Bits<32>>>,
    sh: Vec<Constant<Bits<32>>>,
    c1: Constant<Bits<32>>,
    z32: Constant<Bits<32>>,
    _w16: usize,
    _ncsa: usize,
}

impl Default for DacCta {
    fn default() -> Self {
        DacCta {
            base: Default::default(),
            off_cx: Default::default(),
            off_cy: Default::default(),
            cx: Default::default(),
            cy: Default::default(),
            s: Default::default(),
            c: Default::default(),
            x: sigs(CT_SIGS),
            sh: konsts::<32>(0..16),
            c1: konst(1),
            z32: konst(0),
            _w16: 16,
            _ncsa: CT_OPS - 2,
        }
    }
}

impl Logic for DacCta {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Operands x[0..33], compressor i reads x[3i..3i+2] and writes
        // x[33+2i] (sum) and x[34+2i] (carry); x[93], x[94] remain.
        self.x[0].next = self.base.val();
        for j in 0..self._w16 {
            self.x[j + 1].next = self.z32.val();
            if self.cx.val().get_bit(j) {
                self.x[j + 1].next = self.off_cx.val() << self.sh[j].val();
            }
            self.x[j + 17].next = self.z32.val();
            if self.cy.val().get_bit(j) {
                self.x[j + 17].next = self.off_cy.val() << self.sh[j].val();
            }
        }
        for i in 0..self._ncsa {
            self.x[2 * i + 33].next =
                self.x[3 * i].val() ^ self.x[3 * i + 1].val() ^ self.x[3 * i + 2].val();
            self.x[2 * i + 34].next = ((self.x[3 * i].val() & self.x[3 * i + 1].val())
                | (self.x[3 * i].val() & self.x[3 * i + 2].val())
                | (self.x[3 * i + 1].val() & self.x[3 * i + 2].val()))
                << self.c1.val();
        }
        self.s.next = self.x[93].val();
        self.c.next = self.x[94].val();
    }
}
