//! [`DacSetup`]: the lane masks of a warp, computed in its setup cycle.

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs, Pack};

/// From the low bits of the 32 lane values `v` of a warp, its region
/// boundaries `brk`, its number of active lanes `n`
/// (lanes `0 .. n-1`), the lane-enable mask `en` (all ones, or a guarded
/// tuple's guard mask) and the access size `2^g` bytes: the masks the
/// record loop ([`super::DacRecord`]) reads from registers (issue 29,
/// the warp-setup stage). `act`: the active lanes; `live`: the enabled
/// lanes (active and set in `en`); `none`: no lane is enabled; `ends`:
/// the lanes where a run may end (a lane that starts a new region, lane 0
/// included, or a lane that is not enabled); `gef`: the lanes from the
/// lowest enabled lane on (a warp's first record starts there).
///
/// No subtraction on the lanes (the flow maps one to a ripple chain):
/// `act` is a comparison of `n` with each lane number, `gef` a prefix OR of
/// `live` in five shift-and-OR levels.
#[derive(LogicBlock)]
pub struct DacSetup {
    /// The lane values' low eight bits (the chunk indices; the region
    /// boundaries come from [`super::DacBreaks`] since issue 29's step 5).
    pub v: Vec<Signal<In, Bits<8>>>,
    /// Active lanes (0..=32).
    pub n: Signal<In, Bits<6>>,
    /// `log2` of the access size.
    pub g: Signal<In, Bits<2>>,
    /// Lane enables (bit `l`).
    pub en: Signal<In, Bits<32>>,
    /// The region boundaries: bit `l` when lane `l` starts a new region
    /// (lane 0 always; issue 29, step 5: from the carry-save words,
    /// [`super::DacBreaks`]).
    pub brk: Signal<In, Bits<32>>,
    /// Bit `l` set for every active lane.
    pub act: Signal<Out, Bits<32>>,
    /// The enabled lanes.
    pub live: Signal<Out, Bits<32>>,
    /// No lane is enabled.
    pub none: Signal<Out, Bit>,
    /// Region boundaries and lanes that are not enabled.
    pub ends: Signal<Out, Bits<32>>,
    /// The lanes from the lowest enabled lane on.
    pub gef: Signal<Out, Bits<32>>,
    /// Per lane: its chunk in its region, `(v mod 32*size) / size`
    /// (issue 29, step 3: registered for the record loop).
    pub ci: Vec<Signal<Out, Bits<5>>>,

    actp: Pack<32>,
    /// The prefix OR of `live`: `pf[0] = live`, `pf[i + 1] = pf[i] |
    /// (pf[i] << 2^i)`.
    pf: Vec<Signal<Local, Bits<32>>>,
    lane: Vec<Constant<Bits<6>>>,
    psh: Vec<Constant<Bits<32>>>,
    /// The access sizes 0, 1 and 2 (`log2`).
    g0: Constant<Bits<2>>,
    g1: Constant<Bits<2>>,
    g2: Constant<Bits<2>>,
    c0: Constant<Bits<32>>,
    _nl: usize,
    _n: usize,
}

impl Default for DacSetup {
    fn default() -> Self {
        DacSetup {
            v: (0..32).map(|_| Signal::default()).collect(),
            n: Default::default(),
            g: Default::default(),
            en: Default::default(),
            brk: Default::default(),
            act: Default::default(),
            live: Default::default(),
            none: Default::default(),
            ends: Default::default(),
            gef: Default::default(),
            ci: (0..32).map(|_| Signal::default()).collect(),
            actp: Pack::new(32),
            pf: sigs(6),
            lane: konsts::<6>(0..32),
            psh: konsts::<32>((0..5).map(|i| 1 << i)),
            g0: konst(0),
            g1: konst(1),
            g2: konst(2),
            c0: konst(0),
            _nl: 5,
            _n: 32,
        }
    }
}

impl Logic for DacSetup {
    #[hdl_gen]
    fn update(&mut self) {
        // Lane l is active when l < n.
        for l in 0..self._n {
            self.actp.bits[l].next = self.n.val() > self.lane[l].val();
        }
        self.act.next = self.actp.word.val();
        self.live.next = self.act.val() & self.en.val();
        self.none.next = self.live.val() == self.c0.val();
        self.ends.next = self.brk.val() | !self.live.val();
        // The lanes from the lowest enabled lane on: a prefix OR.
        self.pf[0].next = self.live.val();
        for i in 0..self._nl {
            self.pf[i + 1].next = self.pf[i].val() | (self.pf[i].val() << self.psh[i].val());
        }
        self.gef.next = self.pf[5].val();
        // Each lane's chunk index: bits g .. g+4 of its value.
        for l in 0..self._n {
            if self.g.val() == self.g0.val() {
                self.ci[l].next = self.v[l].val().get_bits::<5>(0);
            } else if self.g.val() == self.g1.val() {
                self.ci[l].next = self.v[l].val().get_bits::<5>(1);
            } else if self.g.val() == self.g2.val() {
                self.ci[l].next = self.v[l].val().get_bits::<5>(2);
            } else {
                self.ci[l].next = self.v[l].val().get_bits::<5>(3);
            }
        }
    }
}
