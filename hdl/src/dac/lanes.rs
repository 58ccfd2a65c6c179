//! [`DacLanes`]: the 32 lane values of a warp, from its registered lane-0
//! value and the tuple's registered lane offsets ([`super::DacOffs`]).

use rust_hdl::prelude::*;

use crate::arith::PrefixAdd;
use crate::util::konst;

/// `v[l] = vw + o(l)` (modulo 2^32) for the 32 lanes of a warp, with lane
/// 0's value `vw` (registered by the second warp-setup stage from
/// [`super::DacLane0`]'s carry-save words) and lane `l`'s offset relative
/// to lane 0, `o(l) = tx_rel(l)*off_tx + ty_rel(l)*off_ty`, given as `o[l -
/// 1]` for lanes 1 to 31 (registered per tuple, [`super::DacOffs`]).
///
/// Issue 29 (timing): one adder (a [`PrefixAdd`]) per lane, from two
/// registers (the third setup stage, session 49; before it, lane 0's
/// carry-save words, one 3:2 compressor per lane, then the adder; lane
/// `n-1`'s value was formed here too and is now formed a stage earlier).
#[derive(LogicBlock)]
pub struct DacLanes {
    /// Lane 0's value.
    pub vw: Signal<In, Bits<32>>,
    /// Its complement, from a second register (issue 29, session 51: lanes
    /// 16 to 31 read it, so `vw`'s fan-out is split between two flip-flops;
    /// complemented so that synthesis keeps it apart).
    pub vwn: Signal<In, Bits<32>>,
    /// The offsets of lanes 1 to 31 relative to lane 0.
    pub o: Vec<Signal<In, Bits<32>>>,
    /// The lane values.
    pub v: Vec<Signal<Out, Bits<32>>>,
    /// Lanes 0 to 30: the low eight bits of two words whose sum is the
    /// lane's value (issue 29, step 5: the region boundaries,
    /// [`super::DacBreaks`]): lane 0's value and the lane's offset.
    pub ps: Vec<Signal<Out, Bits<8>>>,
    /// The second word's low bits.
    pub pc: Vec<Signal<Out, Bits<8>>>,

    add: Vec<PrefixAdd<32>>,
    /// Lane 0's value from `vwn`.
    vh: Signal<Local, Bits<32>>,
    c0: Constant<Bits<8>>,
    _h: usize,
    _h2: usize,
}

impl Default for DacLanes {
    fn default() -> Self {
        DacLanes {
            vw: Default::default(),
            vwn: Default::default(),
            o: (0..31).map(|_| Signal::default()).collect(),
            v: (0..32).map(|_| Signal::default()).collect(),
            ps: (0..31).map(|_| Signal::default()).collect(),
            pc: (0..31).map(|_| Signal::default()).collect(),
            add: (0..31).map(|_| PrefixAdd::default()).collect(),
            vh: Default::default(),
            c0: konst(0),
            _h: 15,
            _h2: 16,
        }
    }
}

impl Logic for DacLanes {
    #[hdl_gen]
    fn update(&mut self) {
        self.v[0].next = self.vw.val();
        self.ps[0].next = self.vw.val().get_bits::<8>(0);
        self.pc[0].next = self.c0.val();
        // Lane i + 1: vw + o[i]; lanes 16 to 31 from `vwn`'s complement.
        self.vh.next = !self.vwn.val();
        for i in 0..self._h {
            self.add[i].x.next = self.vw.val();
            self.add[i].y.next = self.o[i].val();
            self.add[i].ci.next = false;
            self.v[i + 1].next = self.add[i].s.val();
            self.ps[i + 1].next = self.vw.val().get_bits::<8>(0);
            self.pc[i + 1].next = self.o[i].val().get_bits::<8>(0);
        }
        for i in 0..self._h2 {
            self.add[i + 15].x.next = self.vh.val();
            self.add[i + 15].y.next = self.o[i + 15].val();
            self.add[i + 15].ci.next = false;
            self.v[i + 16].next = self.add[i + 15].s.val();
        }
        for i in 0..self._h {
            self.ps[i + 16].next = self.vh.val().get_bits::<8>(0);
            self.pc[i + 16].next = self.o[i + 15].val().get_bits::<8>(0);
        }
    }
}
