//! [`DacRecord`]: the address record that starts at a lane of a warp.

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs, Pack, ZeroExt};

/// From the 32 lane values `v`, the number of active lanes `n` (lanes `0
/// .. n-1`), the lane-enable mask `en` (all ones, or a guarded tuple's
/// guard mask), the record position `p` and the access size `2^g` bytes:
/// the record of the *enabled* lanes (active and set in `en`) at `p`. It
/// starts at `s`: `p`, or when `p = 0` (a warp's first record) the lowest
/// enabled lane; it ends at `e`, the first lane above `s` that is not
/// enabled or whose region differs from the lane before it (else 32). Its
/// region address is lane `s`'s, its chunk mask has bit `(v mod 32*size) /
/// size` of every lane `s .. e-1`, `last` says no lane `>= e` is enabled,
/// and `nxt`, the lowest enabled lane `>= e`, is the next record's `p`
/// (so a `p` other than 0 is always an enabled lane). Also the mask of the
/// active lanes, `act`, and `none`: no lane is enabled.
///
/// With `en` all ones the enabled lanes are `0 .. n-1`: `s = p`, `e <= n`,
/// `nxt = e` and `last = (e == n)`.
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
    /// Lane enables (bit `l`); lanes `>= n` are never enabled.
    pub en: Signal<In, Bits<32>>,
    /// Bit `l` set for every active lane.
    pub act: Signal<Out, Bits<32>>,
    /// No lane is enabled.
    pub none: Signal<Out, Bit>,
    /// The next record's first lane (meaningful unless `last`).
    pub nxt: Signal<Out, Bits<6>>,
    /// Region start of lane `p`.
    pub addr: Signal<Out, Bits<32>>,
    /// Chunk mask.
    pub mask: Signal<Out, Bits<32>>,
    /// The warp's final record.
    pub last: Signal<Out, Bit>,

    brk: Pack<32>,
    zx_n: ZeroExt<6, 32>,
    zx_g: ZeroExt<2, 32>,
    zx_e: ZeroExt<6, 32>,
    zx_s: ZeroExt<6, 32>,
    /// One past the record's last lane.
    e: Signal<Local, Bits<6>>,
    live: Signal<Local, Bits<32>>,
    first: Signal<Local, Bits<6>>,
    s: Signal<Local, Bits<6>>,
    rest: Signal<Local, Bits<32>>,
    shr: Signal<Local, Bits<32>>,
    ends: Signal<Local, Bits<32>>,
    cand: Signal<Local, Bits<32>>,
    lowe: Signal<Local, Bits<32>>,
    run: Signal<Local, Bits<32>>,
    vp: Signal<Local, Bits<32>>,
    found: Vec<Signal<Local, Bit>>,
    ffound: Vec<Signal<Local, Bit>>,
    nfound: Vec<Signal<Local, Bit>>,
    m: Vec<Signal<Local, Bits<32>>>,
    lane6: Vec<Constant<Bits<6>>>,
    n32: Constant<Bits<6>>,
    z6: Constant<Bits<6>>,
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
            en: Default::default(),
            act: Default::default(),
            none: Default::default(),
            e: Default::default(),
            nxt: Default::default(),
            addr: Default::default(),
            mask: Default::default(),
            last: Default::default(),
            brk: Pack::new(32),
            zx_n: Default::default(),
            zx_g: Default::default(),
            zx_e: Default::default(),
            zx_s: Default::default(),
            live: Default::default(),
            first: Default::default(),
            s: Default::default(),
            rest: Default::default(),
            shr: Default::default(),
            ends: Default::default(),
            cand: Default::default(),
            lowe: Default::default(),
            run: Default::default(),
            vp: Default::default(),
            found: sigs(32),
            ffound: sigs(32),
            nfound: sigs(32),
            m: sigs(33),
            lane6: konsts::<6>(0..32),
            n32: konst(32),
            z6: konst(0),
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
        self.zx_g.narrow.next = self.g.val();
        // Region boundaries: lane l starts a new region (lane 0 always).
        self.shr.next = self.c5.val() + self.zx_g.wide.val();
        self.brk.bits[0].next = true;
        for l in self._one..self._n {
            self.brk.bits[l].next =
                ((self.v[l].val() ^ self.v[l - 1].val()) >> self.shr.val()) != self.c0.val();
        }
        // Active lanes, enabled lanes, and where a run may end: a boundary
        // or a lane that is not enabled.
        if self.n.val() == self.n32.val() {
            self.act.next = self.ones.val();
        } else {
            self.act.next = (self.c1.val() << self.zx_n.wide.val()) - self.c1.val();
        }
        self.live.next = self.act.val() & self.en.val();
        self.none.next = self.live.val() == self.c0.val();
        // The record's first lane s: p, or the lowest enabled lane when p = 0.
        self.ffound[0].next = false;
        self.first.next = self.z6.val();
        for l in 0..self._nm1 {
            self.ffound[l + 1].next = self.ffound[l].val() | self.live.val().get_bit(l);
        }
        for l in 0..self._n {
            if self.live.val().get_bit(l) & !self.ffound[l].val() {
                self.first.next = self.lane6[l].val();
            }
        }
        self.s.next = self.p.val();
        if self.p.val() == self.z6.val() {
            self.s.next = self.first.val();
        }
        self.zx_s.narrow.next = self.s.val();
        self.ends.next = self.brk.word.val() | !self.live.val();
        self.cand.next =
            self.ends.val() & !((self.c2.val() << self.zx_s.wide.val()) - self.c1.val());
        // e = the lowest candidate above s, else 32.
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
            self.lowe.val() & !((self.c1.val() << self.zx_s.wide.val()) - self.c1.val());
        // The chunk mask of lanes s .. e-1.
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
        // The region of lane s.
        self.vp.next = self.c0.val();
        for l in 0..self._n {
            if self.s.val() == self.lane6[l].val() {
                self.vp.next = self.v[l].val();
            }
        }
        self.addr.next =
            self.vp.val() & !((self.c32.val() << self.zx_g.wide.val()) - self.c1.val());
        // The enabled lanes from e on: none left ends the warp, else the
        // lowest is the next record's first lane.
        self.rest.next = self.live.val() & !self.lowe.val();
        self.last.next = self.rest.val() == self.c0.val();
        self.nfound[0].next = false;
        self.nxt.next = self.z6.val();
        for l in 0..self._nm1 {
            self.nfound[l + 1].next = self.nfound[l].val() | self.rest.val().get_bit(l);
        }
        for l in 0..self._n {
            if self.rest.val().get_bit(l) & !self.nfound[l].val() {
                self.nxt.next = self.lane6[l].val();
            }
        }
    }
}
