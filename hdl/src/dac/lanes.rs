//! [`DacLanes`]: the 32 lane values of a warp, from its lane-0 value as a
//! carry-save sum and carry word ([`super::DacLane0`]) and the tuple's
//! registered lane offsets ([`super::DacOffs`]).

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::{konst, sigs};

/// `v[l] = vw + o(l)` (modulo 2^32) for the 32 lanes of a warp, with lane
/// 0's value `vw = s + c` given as [`super::DacLane0`]'s carry-save words
/// and lane `l`'s offset relative to lane 0, `o(l) = tx_rel(l)*off_tx +
/// ty_rel(l)*off_ty`, given as `o[l - 1]` for lanes 1 to 31 (registered
/// per tuple, [`super::DacOffs`]).
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
    /// The lane values.
    pub v: Vec<Signal<Out, Bits<32>>>,

    /// Per lane from 1: the compressor's sum and carry words.
    xs: Vec<Signal<Local, Bits<32>>>,
    xc: Vec<Signal<Local, Bits<32>>>,
    add0: PrefixAdd<32>,
    add: Vec<PrefixAdd<32>>,
    c1: Constant<Bits<32>>,
    _n: usize,
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
            c1: konst(1),
            _n: 31,
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
    }
}
