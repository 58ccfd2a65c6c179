//! One set of the tag array: per-way state and the per-set decision logic.

use ports::ba::{outcome, BaParams};
use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{regs, sigs};

/// One set: per-way state and the per-set lookup, victim choice and update.
#[derive(LogicBlock)]
pub struct BaSet<const T: usize, const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Invalidate every line (before the request of the same cycle).
    pub flush: Signal<In, Bit>,
    /// A request addresses this set this cycle.
    pub sel: Signal<In, Bit>,
    /// The request is a store.
    pub is_write: Signal<In, Bit>,
    /// Tag of the request.
    pub req_tag: Signal<In, Bits<T>>,
    /// Outcome code of the request (valid when `sel`).
    pub o_outcome: Signal<Out, Bits<3>>,
    /// Way of the request.
    pub o_way: Signal<Out, Bits<W>>,
    /// A line holding data is displaced.
    pub o_evict_valid: Signal<Out, Bit>,
    /// Tag of the displaced line.
    pub o_evict_tag: Signal<Out, Bits<T>>,

    valid: Vec<Reg<Bit>>,
    tag: Vec<Reg<Bits<T>>>,
    reuse: Vec<Reg<Bit>>,
    bypass: Vec<Reg<Bit>>,
    rank: Vec<Reg<Bits<W>>>,

    way_id: Vec<Constant<Bits<W>>>,
    ba_enable: Constant<Bit>,
    threshold: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    rank_one: Constant<Bits<W>>,
    rank_zero: Constant<Bits<W>>,
    tag_zero: Constant<Bits<T>>,
    c_hit: Constant<Bits<3>>,
    c_miss: Constant<Bits<3>>,
    c_bypass: Constant<Bits<3>>,
    c_pseudo: Constant<Bits<3>>,
    c_wevict: Constant<Bits<3>>,
    c_wmiss: Constant<Bits<3>>,

    ev: Vec<Signal<Local, Bit>>,
    hit: Vec<Signal<Local, Bit>>,
    inval: Vec<Signal<Local, Bit>>,
    noreuse: Vec<Signal<Local, Bit>>,
    withreuse: Vec<Signal<Local, Bit>>,
    inval_below: Vec<Signal<Local, Bit>>,
    first_inval: Vec<Signal<Local, Bit>>,
    zcnt: Vec<Signal<Local, Bits<8>>>,
    vcand: Vec<Signal<Local, Bit>>,
    is_victim: Vec<Signal<Local, Bit>>,
    tgt: Vec<Signal<Local, Bit>>,

    any_hit: Signal<Local, Bit>,
    any_inval: Signal<Local, Bit>,
    any_reuse: Signal<Local, Bit>,
    zsum: Signal<Local, Bits<8>>,
    use_noreuse: Signal<Local, Bit>,
    hit_way: Signal<Local, Bits<W>>,
    hit_rank: Signal<Local, Bits<W>>,
    hit_bypass: Signal<Local, Bit>,
    fi_way: Signal<Local, Bits<W>>,
    victim_way: Signal<Local, Bits<W>>,
    victim_rank: Signal<Local, Bits<W>>,
    victim_bypass: Signal<Local, Bit>,
    victim_tag: Signal<Local, Bits<T>>,
    tgt_valid: Signal<Local, Bit>,
    tgt_rank: Signal<Local, Bits<W>>,

    _ways: usize,
}

impl<const T: usize, const W: usize> BaSet<T, W> {
    /// A set of `p.WAYS` ways with the policy constants of `p`.
    pub fn new(p: &BaParams) -> Self {
        let ways = p.WAYS as usize;
        let code = |c: u64| Constant::new(Bits::<3>::from(c));
        BaSet {
            clock: Default::default(),
            reset: Default::default(),
            flush: Default::default(),
            sel: Default::default(),
            is_write: Default::default(),
            req_tag: Default::default(),
            o_outcome: Default::default(),
            o_way: Default::default(),
            o_evict_valid: Default::default(),
            o_evict_tag: Default::default(),
            valid: regs(ways),
            tag: regs(ways),
            reuse: regs(ways),
            bypass: regs(ways),
            rank: regs(ways),
            way_id: (0..ways)
                .map(|w| Constant::new(Bits::<W>::from(w as u64)))
                .collect(),
            ba_enable: Constant::new(p.BA_ENABLE == 1),
            threshold: Constant::new(Bits::<8>::from(p.reuse_threshold())),
            one8: Constant::new(Bits::<8>::from(1u64)),
            zero8: Constant::new(Bits::<8>::from(0u64)),
            rank_one: Constant::new(Bits::<W>::from(1u64)),
            rank_zero: Constant::new(Bits::<W>::from(0u64)),
            tag_zero: Constant::new(Bits::<T>::from(0u64)),
            c_hit: code(outcome::HIT),
            c_miss: code(outcome::MISS),
            c_bypass: code(outcome::BYPASS),
            c_pseudo: code(outcome::PSEUDO_HIT),
            c_wevict: code(outcome::WRITE_EVICT),
            c_wmiss: code(outcome::WRITE_MISS),
            ev: sigs(ways),
            hit: sigs(ways),
            inval: sigs(ways),
            noreuse: sigs(ways),
            withreuse: sigs(ways),
            inval_below: sigs(ways),
            first_inval: sigs(ways),
            zcnt: sigs(ways + 1),
            vcand: sigs(ways),
            is_victim: sigs(ways),
            tgt: sigs(ways),
            any_hit: Default::default(),
            any_inval: Default::default(),
            any_reuse: Default::default(),
            zsum: Default::default(),
            use_noreuse: Default::default(),
            hit_way: Default::default(),
            hit_rank: Default::default(),
            hit_bypass: Default::default(),
            fi_way: Default::default(),
            victim_way: Default::default(),
            victim_rank: Default::default(),
            victim_bypass: Default::default(),
            victim_tag: Default::default(),
            tgt_valid: Default::default(),
            tgt_rank: Default::default(),
            _ways: ways,
        }
    }
}

impl<const T: usize, const W: usize> Logic for BaSet<T, W> {
    #[hdl_gen]
    fn update(&mut self) {
        // Registers: clock, reset, and hold by default.
        for w in 0..self._ways {
            self.valid[w].clock.next = self.clock.val();
            self.valid[w].reset.next = self.reset.val();
            self.valid[w].d.next = self.valid[w].q.val();
            self.tag[w].clock.next = self.clock.val();
            self.tag[w].reset.next = self.reset.val();
            self.tag[w].d.next = self.tag[w].q.val();
            self.reuse[w].clock.next = self.clock.val();
            self.reuse[w].reset.next = self.reset.val();
            self.reuse[w].d.next = self.reuse[w].q.val();
            self.bypass[w].clock.next = self.clock.val();
            self.bypass[w].reset.next = self.reset.val();
            self.bypass[w].d.next = self.bypass[w].q.val();
            self.rank[w].clock.next = self.clock.val();
            self.rank[w].reset.next = self.reset.val();
            self.rank[w].d.next = self.rank[w].q.val();
        }
        // The state a request sees: a flush in the same cycle comes first.
        for w in 0..self._ways {
            self.ev[w].next = self.valid[w].q.val() & !self.flush.val();
            self.hit[w].next = self.valid[w].q.val()
                & !self.flush.val()
                & (self.tag[w].q.val() == self.req_tag.val());
            self.inval[w].next = !(self.valid[w].q.val() & !self.flush.val());
            self.noreuse[w].next =
                self.valid[w].q.val() & !self.flush.val() & !self.reuse[w].q.val();
            self.withreuse[w].next =
                self.valid[w].q.val() & !self.flush.val() & self.reuse[w].q.val();
        }
        self.any_hit.next = false;
        self.any_inval.next = false;
        self.any_reuse.next = false;
        for w in 0..self._ways {
            if self.hit[w].val() {
                self.any_hit.next = true;
            }
            if self.inval[w].val() {
                self.any_inval.next = true;
            }
            if self.withreuse[w].val() {
                self.any_reuse.next = true;
            }
        }
        // Lowest-numbered invalid way.
        for w in 0..self._ways {
            self.inval_below[w].next = false;
            for u in 0..self._ways {
                if (u < w) & self.inval[u].val() {
                    self.inval_below[w].next = true;
                }
            }
            self.first_inval[w].next = self.inval[w].val() & !self.inval_below[w].val();
        }
        // Z = number of valid ways with reuse = 0.
        self.zcnt[0].next = self.zero8.val();
        self.zsum.next = self.zero8.val();
        for w in 0..self._ways {
            if self.noreuse[w].val() {
                self.zcnt[w + 1].next = self.zcnt[w].val() + self.one8.val();
            } else {
                self.zcnt[w + 1].next = self.zcnt[w].val();
            }
            self.zsum.next = self.zcnt[w + 1].val();
        }
        self.use_noreuse.next =
            (self.zsum.val() >= self.threshold.val()) & (self.zsum.val() != self.zero8.val());
        // Victim candidates, then the least recently used among them.
        for w in 0..self._ways {
            if !self.ba_enable.val() {
                self.vcand[w].next = self.ev[w].val();
            } else if self.use_noreuse.val() {
                self.vcand[w].next = self.noreuse[w].val();
            } else if self.any_reuse.val() {
                self.vcand[w].next = self.withreuse[w].val();
            } else {
                self.vcand[w].next = self.ev[w].val();
            }
        }
        for w in 0..self._ways {
            self.is_victim[w].next = self.vcand[w].val();
            for u in 0..self._ways {
                if (u != w) & self.vcand[u].val() & (self.rank[u].q.val() >= self.rank[w].q.val()) {
                    self.is_victim[w].next = false;
                }
            }
        }
        // One-hot selections to values.
        self.hit_way.next = self.rank_zero.val();
        self.hit_rank.next = self.rank_zero.val();
        self.hit_bypass.next = false;
        self.fi_way.next = self.rank_zero.val();
        self.victim_way.next = self.rank_zero.val();
        self.victim_rank.next = self.rank_zero.val();
        self.victim_bypass.next = false;
        self.victim_tag.next = self.tag_zero.val();
        for w in 0..self._ways {
            if self.hit[w].val() {
                self.hit_way.next = self.way_id[w].val();
                self.hit_rank.next = self.rank[w].q.val();
                self.hit_bypass.next = self.bypass[w].q.val();
            }
            if self.first_inval[w].val() {
                self.fi_way.next = self.way_id[w].val();
            }
            if self.is_victim[w].val() {
                self.victim_way.next = self.way_id[w].val();
                self.victim_rank.next = self.rank[w].q.val();
                self.victim_bypass.next = self.bypass[w].q.val();
                self.victim_tag.next = self.tag[w].q.val();
            }
        }
        // The way a load makes most recently used.
        for w in 0..self._ways {
            if self.any_hit.val() {
                self.tgt[w].next = self.hit[w].val();
            } else if self.any_inval.val() {
                self.tgt[w].next = self.first_inval[w].val();
            } else {
                self.tgt[w].next = self.is_victim[w].val();
            }
        }
        self.tgt_valid.next = self.any_hit.val() | !self.any_inval.val();
        if self.any_hit.val() {
            self.tgt_rank.next = self.hit_rank.val();
        } else {
            self.tgt_rank.next = self.victim_rank.val();
        }
        // Outcome and eviction report.
        self.o_outcome.next = self.c_hit.val();
        self.o_way.next = self.rank_zero.val();
        self.o_evict_valid.next = false;
        self.o_evict_tag.next = self.tag_zero.val();
        if self.is_write.val() {
            if self.any_hit.val() {
                self.o_outcome.next = self.c_wevict.val();
                self.o_way.next = self.hit_way.val();
                self.o_evict_valid.next = !self.hit_bypass.val();
                if !self.hit_bypass.val() {
                    self.o_evict_tag.next = self.req_tag.val();
                }
            } else {
                self.o_outcome.next = self.c_wmiss.val();
            }
        } else if self.any_hit.val() {
            if self.hit_bypass.val() {
                self.o_outcome.next = self.c_pseudo.val();
            } else {
                self.o_outcome.next = self.c_hit.val();
            }
            self.o_way.next = self.hit_way.val();
        } else if self.any_inval.val() {
            self.o_outcome.next = self.c_miss.val();
            self.o_way.next = self.fi_way.val();
        } else {
            if self.ba_enable.val() {
                self.o_outcome.next = self.c_bypass.val();
            } else {
                self.o_outcome.next = self.c_miss.val();
            }
            self.o_way.next = self.victim_way.val();
            self.o_evict_valid.next = !self.victim_bypass.val();
            if !self.victim_bypass.val() {
                self.o_evict_tag.next = self.victim_tag.val();
            }
        }
        // Next state.
        for w in 0..self._ways {
            if self.flush.val() {
                self.valid[w].d.next = false;
                self.tag[w].d.next = self.tag_zero.val();
                self.reuse[w].d.next = false;
                self.bypass[w].d.next = false;
                self.rank[w].d.next = self.rank_zero.val();
            }
            if self.sel.val() {
                if self.is_write.val() {
                    if self.hit[w].val() {
                        self.valid[w].d.next = false;
                        self.tag[w].d.next = self.tag_zero.val();
                        self.reuse[w].d.next = false;
                        self.bypass[w].d.next = false;
                        self.rank[w].d.next = self.rank_zero.val();
                    } else if self.any_hit.val()
                        & self.ev[w].val()
                        & (self.rank[w].q.val() > self.hit_rank.val())
                    {
                        self.rank[w].d.next = self.rank[w].q.val() - self.rank_one.val();
                    }
                } else if self.tgt[w].val() {
                    self.rank[w].d.next = self.rank_zero.val();
                    if self.any_hit.val() {
                        self.reuse[w].d.next = true;
                        self.bypass[w].d.next = false;
                    } else {
                        self.valid[w].d.next = true;
                        self.tag[w].d.next = self.req_tag.val();
                        self.reuse[w].d.next = false;
                        self.bypass[w].d.next = !self.any_inval.val() & self.ba_enable.val();
                    }
                } else if self.ev[w].val()
                    & (!self.tgt_valid.val() | (self.rank[w].q.val() < self.tgt_rank.val()))
                {
                    self.rank[w].d.next = self.rank[w].q.val() + self.rank_one.val();
                }
            }
        }
    }
}
