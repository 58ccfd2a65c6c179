//! [`DacRecord`]: the address record that starts at a lane of a warp.

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs, Pack, ZeroExt};

/// From the 32 lane values `v`, the number of active lanes `n` (lanes `0
/// .. n-1`), the first lane `p` of the record and the access size `2^g`
/// bytes: the record's end `e` (the first lane above `p` whose region
/// differs from the lane before it, or `n`), its region address, its chunk
/// mask (bit `(v mod 32*size) / size` of every lane `p .. e-1`), and `last`
/// (`e == n`). Also the mask of the active lanes, `act`.
#[derive(LogicBlock)]
pub struct DacRecord {
    /// The lane values.
    pub v: Vec<Signal<In, Bits<32>>>,
    /// Active lanes (0..=32).
    pub n: Signal<In, Bits<6>>,
    /// The record's first lane.
    pub p: Signal<In, Bits<6>>,
    /// `log2` of the access size.
    pub g: Signal<In, Bits<2>>,
    /// Bit `l` set for every active lane.
    pub act: Signal<Out, Bits<32>>,
    /// One past the record's last lane.
    pub e: Signal<Out, Bits<6>>,
    /// Region start of lane `p`.
    pub addr: Signal<Out, Bits<32>>,
    /// Chunk mask.
    pub mask: Signal<Out, Bits<32>>,
    /// The warp's final record.
    pub last: Signal<Out, Bit>,

    brk: Pack<32>,
    zx_n: ZeroExt<6, 32>,
    zx_p: ZeroExt<6, 32>,
    zx_g: ZeroExt<2, 32>,
    zx_e: ZeroExt<6, 32>,
    shr: Signal<Local, Bits<32>>,
    ends: Signal<Local, Bits<32>>,
    cand: Signal<Local, Bits<32>>,
    lowe: Signal<Local, Bits<32>>,
    run: Signal<Local, Bits<32>>,
    vp: Signal<Local, Bits<32>>,
    found: Vec<Signal<Local, Bit>>,
    m: Vec<Signal<Local, Bits<32>>>,
    lane6: Vec<Constant<Bits<6>>>,
    n32: Constant<Bits<6>>,
    c0: Constant<Bits<32>>,
    c1: Constant<Bits<32>>,
    c2: Constant<Bits<32>>,
    c5: Constant<Bits<32>>,
    c31: Constant<Bits<32>>,
    c32: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
    _one: usize,
    _nm1: usize,
    _n: usize,
}

impl Default for DacRecord {
    fn default() -> Self {
        DacRecord {
            v: (0..32).map(|_| Signal::default()).collect(),
            n: Default::default(),
            p: Default::default(),
            g: Default::default(),
            act: Default::default(),
            e: Default::default(),
            addr: Default::default(),
            mask: Default::default(),
            last: Default::default(),
            brk: Pack::new(32),
            zx_n: Default::default(),
            zx_p: Default::default(),
            zx_g: Default::default(),
            zx_e: Default::default(),
            shr: Default::default(),
            ends: Default::default(),
            cand: Default::default(),
            lowe: Default::default(),
            run: Default::default(),
            vp: Default::default(),
            found: sigs(32),
            m: sigs(33),
            lane6: konsts::<6>(0..32),
            n32: konst(32),
            c0: konst(0),
            c1: konst(1),
            c2: konst(2),
            c5: konst(5),
            c31: konst(31),
            c32: konst(32),
            ones: konst(0xFFFF_FFFF),
            _one: 1,
            _nm1: 31,
            _n: 32,
        }
    }
}

impl Logic for DacRecord {
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_n.narrow.next = self.n.val();
        self.zx_p.narrow.next = self.p.val();
        self.zx_g.narrow.next = self.g.val();
        // Region boundaries: lane l starts a new region (lane 0 always).
        self.shr.next = self.c5.val() + self.zx_g.wide.val();
        self.brk.bits[0].next = true;
        for l in self._one..self._n {
            self.brk.bits[l].next =
                ((self.v[l].val() ^ self.v[l - 1].val()) >> self.shr.val()) != self.c0.val();
        }
        // Active lanes, and where a run may end: a boundary or past n.
        if self.n.val() == self.n32.val() {
            self.act.next = self.ones.val();
        } else {
            self.act.next = (self.c1.val() << self.zx_n.wide.val()) - self.c1.val();
        }
        self.ends.next = self.brk.word.val() | !self.act.val();
        self.cand.next =
            self.ends.val() & !((self.c2.val() << self.zx_p.wide.val()) - self.c1.val());
        // e = the lowest candidate above p, else 32.
        self.found[0].next = false;
        self.e.next = self.n32.val();
        for l in 0..self._nm1 {
            self.found[l + 1].next = self.found[l].val() | self.cand.val().get_bit(l);
        }
        for l in 0..self._n {
            if self.cand.val().get_bit(l) & !self.found[l].val() {
                self.e.next = self.lane6[l].val();
            }
        }
        self.zx_e.narrow.next = self.e.val();
        if self.e.val() == self.n32.val() {
            self.lowe.next = self.ones.val();
        } else {
            self.lowe.next = (self.c1.val() << self.zx_e.wide.val()) - self.c1.val();
        }
        self.run.next =
            self.lowe.val() & !((self.c1.val() << self.zx_p.wide.val()) - self.c1.val());
        // The chunk mask of lanes p .. e-1.
        self.m[0].next = self.c0.val();
        for l in 0..self._n {
            if self.run.val().get_bit(l) {
                self.m[l + 1].next = self.m[l].val()
                    | (self.c1.val()
                        << ((self.v[l].val() >> self.zx_g.wide.val()) & self.c31.val()));
            } else {
                self.m[l + 1].next = self.m[l].val();
            }
        }
        self.mask.next = self.m[32].val();
        // The region of lane p.
        self.vp.next = self.c0.val();
        for l in 0..self._n {
            if self.p.val() == self.lane6[l].val() {
                self.vp.next = self.v[l].val();
            }
        }
        self.addr.next =
            self.vp.val() & !((self.c32.val() << self.zx_g.wide.val()) - self.c1.val());
        self.last.next = self.e.val() == self.n.val();
    }
}
