//! [`DacLanes`]: the 32 lane values of a warp, from its lane-0 value as a
//! carry-save sum and carry word ([`super::DacLane0`]) and the tuple's
//! registered lane offsets ([`super::DacOffs`]).

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::{konst, konsts, sigs};

/// `v[l] = vw + o(l)` (modulo 2^32) for the 32 lanes of a warp, with lane
/// 0's value `vw = s + c` given as [`super::DacLane0`]'s carry-save words
/// and lane `l`'s offset relative to lane 0, `o(l) = tx_rel(l)*off_tx +
/// ty_rel(l)*off_ty`, given as `o[l - 1]` for lanes 1 to 31 (registered
/// per tuple, [`super::DacOffs`]).
///
/// Lane `n-1`'s value `vl = vw + o(n-1)` is formed beside them (issue 29,
/// step 4): `o(n-1)` selected by `nm1` through an OR tree before the
/// compressor (lane 0's offset is 0), so it is as deep as any lane and the
/// fast predicate path reads it from a register instead of selecting it
/// from the 32 lane values in the busy cycle.
///
/// Issue 29 (timing): one 3:2 compressor and one adder (a [`PrefixAdd`])
/// per lane; lane 0 is `s + c`. Before step 3 the basis offsets (a shift
/// by `k`) and each lane's five offset terms (three more compressors)
/// were on this path.
#[derive(LogicBlock)]
pub struct DacLanes {
    /// Lane 0's value: the sum word.
    pub s: Signal<In, Bits<32>>,
    /// Lane 0's value: the carry word.
    pub c: Signal<In, Bits<32>>,
    /// The offsets of lanes 1 to 31 relative to lane 0.
    pub o: Vec<Signal<In, Bits<32>>>,
    /// `n - 1` of the warp.
    pub nm1: Signal<In, Bits<6>>,
    /// The lane values.
    pub v: Vec<Signal<Out, Bits<32>>>,
    /// Lane `n-1`'s value.
    pub vl: Signal<Out, Bits<32>>,
    /// Lanes 0 to 30: the low eight bits of the carry-save words whose sum
    /// is the lane's value (issue 29, step 5: the region boundaries,
    /// [`super::DacBreaks`]).
    pub ps: Vec<Signal<Out, Bits<8>>>,
    /// The carry words' low bits.
    pub pc: Vec<Signal<Out, Bits<8>>>,

    /// Per lane from 1: the compressor's sum and carry words.
    xs: Vec<Signal<Local, Bits<32>>>,
    xc: Vec<Signal<Local, Bits<32>>>,
    add0: PrefixAdd<32>,
    add: Vec<PrefixAdd<32>>,
    /// OR tree selecting `o(n-1)` (leaf `l` = lane `l`'s offset when `l = n
    /// - 1`, leaf 0 always 0; node `i` at `32 + i`, root 62), then lane
    /// `n-1`'s compressor words and adder.
    tol: Vec<Signal<Local, Bits<32>>>,
    ls: Signal<Local, Bits<32>>,
    lc: Signal<Local, Bits<32>>,
    addl: PrefixAdd<32>,
    lane_no: Vec<Constant<Bits<6>>>,
    c0: Constant<Bits<32>>,
    c1: Constant<Bits<32>>,
    _n: usize,
    _n30: usize,
}

impl Default for DacLanes {
    fn default() -> Self {
        DacLanes {
            s: Default::default(),
            c: Default::default(),
            o: (0..31).map(|_| Signal::default()).collect(),
            v: (0..32).map(|_| Signal::default()).collect(),
            xs: sigs(31),
            xc: sigs(31),
            add0: PrefixAdd::default(),
            add: (0..31).map(|_| PrefixAdd::default()).collect(),
            nm1: Default::default(),
            vl: Default::default(),
            ps: (0..31).map(|_| Signal::default()).collect(),
            pc: (0..31).map(|_| Signal::default()).collect(),
            tol: sigs(63),
            ls: Default::default(),
            lc: Default::default(),
            addl: PrefixAdd::default(),
            lane_no: konsts::<6>(1..32),
            c0: konst(0),
            c1: konst(1),
            _n: 31,
            _n30: 30,
        }
    }
}

impl Logic for DacLanes {
    #[hdl_gen]
    fn update(&mut self) {
        self.add0.x.next = self.s.val();
        self.add0.y.next = self.c.val();
        self.add0.ci.next = false;
        self.v[0].next = self.add0.s.val();
        self.ps[0].next = self.s.val().get_bits::<8>(0);
        self.pc[0].next = self.c.val().get_bits::<8>(0);
        // Lane i + 1: (s, c, o[i]) -> (xs, xc) -> xs + xc.
        for i in 0..self._n {
            self.xs[i].next = self.s.val() ^ self.c.val() ^ self.o[i].val();
            self.xc[i].next = ((self.s.val() & self.c.val())
                | (self.s.val() & self.o[i].val())
                | (self.c.val() & self.o[i].val()))
                << self.c1.val();
            self.add[i].x.next = self.xs[i].val();
            self.add[i].y.next = self.xc[i].val();
            self.add[i].ci.next = false;
            self.v[i + 1].next = self.add[i].s.val();
        }
        for i in 0..self._n30 {
            self.ps[i + 1].next = self.xs[i].val().get_bits::<8>(0);
            self.pc[i + 1].next = self.xc[i].val().get_bits::<8>(0);
        }
        // Lane n-1: (s, c, o(n-1)) -> (ls, lc) -> ls + lc.
        self.tol[0].next = self.c0.val();
        for i in 0..self._n {
            self.tol[i + 1].next = self.c0.val();
            if self.nm1.val() == self.lane_no[i].val() {
                self.tol[i + 1].next = self.o[i].val();
            }
        }
        for i in 0..self._n {
            self.tol[i + 32].next = self.tol[2 * i].val() | self.tol[2 * i + 1].val();
        }
        self.ls.next = self.s.val() ^ self.c.val() ^ self.tol[62].val();
        self.lc.next = ((self.s.val() & self.c.val())
            | (self.s.val() & self.tol[62].val())
            | (self.c.val() & self.tol[62].val()))
            << self.c1.val();
        self.addl.x.next = self.ls.val();
        self.addl.y.next = self.lc.val();
        self.addl.ci.next = false;
        self.vl.next = self.addl.s.val();
    }
}
