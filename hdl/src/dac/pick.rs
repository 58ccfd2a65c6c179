//! [`SlotPick`]: a slot's CTA index and `slot * W` picked by a one-hot
//! slot through OR trees.

use rust_hdl::prelude::*;

use crate::util::{konst, sigs};

/// `x`, `y` and `w` are `cx[s]`, `cy[s]` and `sw[s]` of the slot `s` whose
/// bit of `oh` is set (0 when none is; `oh` has at most one bit set). The
/// first `cx.len()` slots are inputs, the others read as 0.
#[derive(LogicBlock)]
pub struct SlotPick {
    /// The slot, one-hot (at most one bit set).
    pub oh: Signal<In, Bits<16>>,
    /// Per slot: its CTA index x.
    pub cx: Vec<Signal<In, Bits<16>>>,
    /// Per slot: its CTA index y.
    pub cy: Vec<Signal<In, Bits<16>>>,
    /// Per slot: `slot * W`.
    pub sw: Vec<Signal<In, Bits<10>>>,
    /// The picked slot's `cx`.
    pub x: Signal<Out, Bits<16>>,
    /// The picked slot's `cy`.
    pub y: Signal<Out, Bits<16>>,
    /// The picked slot's `slot * W`.
    pub w: Signal<Out, Bits<10>>,
    /// OR trees over 16 leaves (slot `s` at leaf `s`, node `i` at `16 +
    /// i`, root 30).
    tx: Vec<Signal<Local, Bits<16>>>,
    ty: Vec<Signal<Local, Bits<16>>>,
    tw: Vec<Signal<Local, Bits<10>>>,
    zero16: Constant<Bits<16>>,
    zero10: Constant<Bits<10>>,
    _nc: usize,
    _n16: usize,
    _ntree: usize,
}

impl SlotPick {
    /// A pick over `nc` slots (`1 <= nc <= 16`).
    pub fn new(nc: usize) -> Self {
        assert!((1..=16).contains(&nc));
        SlotPick {
            oh: Default::default(),
            cx: (0..nc).map(|_| Signal::default()).collect(),
            cy: (0..nc).map(|_| Signal::default()).collect(),
            sw: (0..nc).map(|_| Signal::default()).collect(),
            x: Default::default(),
            y: Default::default(),
            w: Default::default(),
            tx: sigs(31),
            ty: sigs(31),
            tw: sigs(31),
            zero16: konst(0),
            zero10: konst(0),
            _nc: nc,
            _n16: 16,
            _ntree: 15,
        }
    }
}

impl Logic for SlotPick {
    #[hdl_gen]
    fn update(&mut self) {
        for s in 0..self._nc {
            self.tx[s].next = self.zero16.val();
            self.ty[s].next = self.zero16.val();
            self.tw[s].next = self.zero10.val();
            if self.oh.val().get_bit(s) {
                self.tx[s].next = self.cx[s].val();
                self.ty[s].next = self.cy[s].val();
                self.tw[s].next = self.sw[s].val();
            }
        }
        // Slots past `cx.len()` read as 0 (their bits of `oh` are 0; read
        // here so that every bit of the port is used).
        for s in self._nc..self._n16 {
            self.tx[s].next = self.zero16.val();
            self.ty[s].next = self.zero16.val();
            self.tw[s].next = self.zero10.val();
            if self.oh.val().get_bit(s) {
                self.tx[s].next = self.zero16.val();
            }
        }
        for i in 0..self._ntree {
            self.tx[i + 16].next = self.tx[2 * i].val() | self.tx[2 * i + 1].val();
            self.ty[i + 16].next = self.ty[2 * i].val() | self.ty[2 * i + 1].val();
            self.tw[i + 16].next = self.tw[2 * i].val() | self.tw[2 * i + 1].val();
        }
        self.x.next = self.tx[30].val();
        self.y.next = self.ty[30].val();
        self.w.next = self.tw[30].val();
    }
}
