//! [`DacRecord`]: the address record that starts at a lane of a warp.

use rust_hdl::prelude::*;

use crate::util::{konst, konsts, sigs, Pack, ZeroExt};

/// From the 32 lane values `v` of a warp and its lane masks, registered
/// in the warp's setup cycle ([`super::DacSetup`]: the enabled lanes
/// `live`, the lanes where a run may end `ends`, the lanes from the lowest
/// enabled lane on `gef`), the record position `p` and the access size
/// `2^g` bytes: the record of the enabled lanes at `p`. It starts at `s`:
/// `p`, or when `p = 0` (a warp's first record) the lowest enabled lane; it
/// ends at `e`, the first lane above `s` that is not enabled or whose
/// region differs from the lane before it (else 32). Its region address is
/// lane `s`'s, its chunk mask has bit `(v mod 32*size) / size` of every
/// lane `s .. e-1`, `last` says no lane `>= e` is enabled, and `nxt`, the
/// lowest enabled lane `>= e`, is the next record's `p` (so a `p` other
/// than 0 is always an enabled lane).
///
/// With every active lane enabled (`live` = lanes `0 .. n-1`): `s = p`,
/// `e <= n`, `nxt = e` and `last = (e == n)`.
///
/// Issue 29 (timing): no priority chain, and the record loop (`p` -> the
/// run -> `last` and the next `p`) starts from registers. Lane sets are
/// 32-bit masks: the lanes from `s` on (`ges`), the candidates above `s`,
/// the lanes below `e` (`(cand - 1) & !cand`), the run `s .. e-1`, the
/// enabled lanes from `e` on; the chunk mask and lane `s`'s value are OR
/// trees over the lanes, and `nxt` encodes the lowest bit of a mask.
/// Step 4: `last` from the registered run starts (`starts`, an enabled
/// lane after a lane that is not enabled or at a region boundary): the
/// record is the warp's last when no run starts above `s`, one AND and
/// one OR tree after `ges` instead of the run's end `e`.
#[derive(LogicBlock)]
pub struct DacRecord {
    /// The lane values.
    pub v: Vec<Signal<In, Bits<32>>>,
    /// The record's first lane.
    pub p: Signal<In, Bits<6>>,
    /// `log2` of the access size.
    pub g: Signal<In, Bits<2>>,
    /// The enabled lanes (registered).
    pub live: Signal<In, Bits<32>>,
    /// Region boundaries and lanes that are not enabled (registered).
    pub ends: Signal<In, Bits<32>>,
    /// The lanes from the lowest enabled lane on (registered).
    pub gef: Signal<In, Bits<32>>,
    /// The lanes where a run of enabled lanes starts (registered; bit 0
    /// is not read).
    pub starts: Signal<In, Bits<32>>,
    /// Per lane: its chunk index (registered, [`super::DacSetup`]).
    pub ci: Vec<Signal<In, Bits<5>>>,
    /// The next record's first lane (meaningful unless `last`).
    pub nxt: Signal<Out, Bits<6>>,
    /// Region start of lane `p`.
    pub addr: Signal<Out, Bits<32>>,
    /// Chunk mask.
    pub mask: Signal<Out, Bits<32>>,
    /// The warp's final record.
    pub last: Signal<Out, Bit>,

    nbits: Pack<5>,
    zx_g: ZeroExt<2, 32>,
    zx_p: ZeroExt<6, 32>,
    zx_nxt: ZeroExt<5, 6>,
    /// The region bits of an address (`~(32*size - 1)`).
    regm: Signal<Local, Bits<32>>,
    ge_p: Signal<Local, Bits<32>>,
    /// Lanes `>= s`.
    ges: Signal<Local, Bits<32>>,
    /// Lane `s` (one-hot).
    oh_s: Signal<Local, Bits<32>>,
    rest: Signal<Local, Bits<32>>,
    oh_r: Signal<Local, Bits<32>>,
    cand: Signal<Local, Bits<32>>,
    lowe: Signal<Local, Bits<32>>,
    run: Signal<Local, Bits<32>>,
    /// OR tree of the chunk bits: leaves 0..32, node `i` at `32 + i`.
    m: Vec<Signal<Local, Bits<32>>>,
    /// Per lane: its chunk bit (unconditional) and the run's mask of it.
    cm: Vec<Signal<Local, Bits<32>>>,
    rm: Vec<Signal<Local, Bits<32>>>,
    /// OR tree selecting lane `s`'s value, same shape.
    sv: Vec<Signal<Local, Bits<32>>>,
    /// Per bit `b` of a lane number: the lanes whose number has bit `b`.
    lbit: Vec<Constant<Bits<32>>>,
    z6: Constant<Bits<6>>,
    c0: Constant<Bits<32>>,
    c1: Constant<Bits<32>>,
    c32: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
    _nb: usize,
    _ntree: usize,
    _n: usize,
}

impl Default for DacRecord {
    fn default() -> Self {
        DacRecord {
            v: (0..32).map(|_| Signal::default()).collect(),
            p: Default::default(),
            g: Default::default(),
            live: Default::default(),
            ends: Default::default(),
            gef: Default::default(),
            starts: Default::default(),
            ci: (0..32).map(|_| Signal::default()).collect(),
            nxt: Default::default(),
            addr: Default::default(),
            mask: Default::default(),
            last: Default::default(),
            nbits: Pack::new(5),
            zx_g: Default::default(),
            zx_p: Default::default(),
            zx_nxt: Default::default(),
            regm: Default::default(),
            ge_p: Default::default(),
            ges: Default::default(),
            oh_s: Default::default(),
            rest: Default::default(),
            oh_r: Default::default(),
            cand: Default::default(),
            lowe: Default::default(),
            run: Default::default(),
            m: sigs(63),
            cm: sigs(32),
            rm: sigs(32),
            sv: sigs(63),
            lbit: konsts::<32>((0..5u32).map(|b| {
                (0..32u64)
                    .filter(|l| l >> b & 1 == 1)
                    .fold(0, |a, l| a | 1 << l)
            })),
            z6: konst(0),
            c0: konst(0),
            c1: konst(1),
            c32: konst(32),
            ones: konst(0xFFFF_FFFF),
            _nb: 5,
            _ntree: 31,
            _n: 32,
        }
    }
}

impl Logic for DacRecord {
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_g.narrow.next = self.g.val();
        self.zx_p.narrow.next = self.p.val();
        self.regm.next = !((self.c32.val() << self.zx_g.wide.val()) - self.c1.val());
        // The lanes from s on, s = p, or when p = 0 the lowest enabled lane
        // (masks, no priority chain).
        self.ge_p.next = !((self.c1.val() << self.zx_p.wide.val()) - self.c1.val());
        self.ges.next = self.ge_p.val();
        if self.p.val() == self.z6.val() {
            self.ges.next = self.gef.val();
        }
        self.oh_s.next = self.ges.val() & !(self.ges.val() << self.c1.val());
        // e = the lowest candidate above s, else 32; lowe = the lanes below e.
        self.cand.next = self.ends.val() & (self.ges.val() << self.c1.val());
        self.lowe.next = (self.cand.val() - self.c1.val()) & !self.cand.val();
        self.run.next = self.lowe.val() & self.ges.val();
        // The chunk mask of lanes s .. e-1 and the value of lane s: OR trees.
        // Each lane's chunk bit is decoded from its registered chunk index
        // (issue 29, step 3: the shift by the access size left the record
        // loop) unconditionally and then masked (an AND, not a multiplexer):
        // 32 shifters behind the multiplexers `run[l]` made Yosys's `share`
        // pass try every pair of them with a SAT problem over the whole lane
        // datapath (never finished).
        for l in 0..self._n {
            self.cm[l].next = self.c1.val() << self.ci[l].val();
            self.rm[l].next = self.c0.val();
            if self.run.val().get_bit(l) {
                self.rm[l].next = self.ones.val();
            }
            self.m[l].next = self.cm[l].val() & self.rm[l].val();
            self.sv[l].next = self.c0.val();
            if self.oh_s.val().get_bit(l) {
                self.sv[l].next = self.v[l].val();
            }
        }
        for i in 0..self._ntree {
            self.m[i + 32].next = self.m[2 * i].val() | self.m[2 * i + 1].val();
            self.sv[i + 32].next = self.sv[2 * i].val() | self.sv[2 * i + 1].val();
        }
        self.mask.next = self.m[62].val();
        self.addr.next = self.sv[62].val() & self.regm.val();
        // The enabled lanes from e on: none left ends the warp, else the
        // lowest is the next record's first lane.
        self.rest.next = self.live.val() & !self.lowe.val();
        // No enabled lane from e on = no run starts above s (s starts a run).
        self.last.next = (self.starts.val() & (self.ges.val() << self.c1.val())) == self.c0.val();
        self.oh_r.next = self.rest.val() & !(self.rest.val() - self.c1.val());
        for b in 0..self._nb {
            self.nbits.bits[b].next = (self.oh_r.val() & self.lbit[b].val()) != self.c0.val();
        }
        self.zx_nxt.narrow.next = self.nbits.word.val();
        self.nxt.next = self.zx_nxt.wide.val();
    }
}
