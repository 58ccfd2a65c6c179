//! [`RankOrder`]: a "least recently updated" replacement order kept as
//! per-entry ranks, with the allocation choice that goes with it.
//!
//! Used by every table whose spec says "allocate the lowest-numbered
//! invalid entry, else the valid entry updated least recently" (CAPS's
//! PerCTA and DIST tables). The block holds no state: the table keeps the
//! ranks (in registers or a memory) and feeds them in; the block answers
//! which entry an allocation takes and every entry's rank after this
//! cycle's operation.
//!
//! Ranks: 0 = most recently updated; the ranks of the valid entries are a
//! permutation of `0..v` (`v` valid entries). The rank of an invalid entry
//! is never read (it may be anything, e.g. an unwritten memory word).
//!
//! Operations (at most one per cycle):
//! - `alloc`: the target ([`RankOrder::tgt`], one-hot) is the lowest
//!   invalid entry, else the valid entry of rank `entries - 1`; it takes
//!   rank 0 and every other valid entry moves down one rank.
//! - `touch` (an update of valid entry `hit`): `hit` takes rank 0, the
//!   valid entries ranked before it move down one.
//! - `inval` (of valid entry `hit`): the valid entries ranked after it move
//!   up one; `hit`'s own rank becomes 0 (the table clears its valid bit).

use rust_hdl::prelude::*;

use crate::util::{konst, sigs};

/// The rank order of `entries` entries with `R`-bit ranks
/// (`entries <= 2^R`).
#[derive(LogicBlock)]
pub struct RankOrder<const R: usize> {
    /// Allocate an entry.
    pub alloc: Signal<In, Bit>,
    /// Mark entry `hit` updated.
    pub touch: Signal<In, Bit>,
    /// Entry `hit` becomes invalid.
    pub inval: Signal<In, Bit>,
    /// Per entry: valid.
    pub valid: Vec<Signal<In, Bit>>,
    /// Per entry: the entry touched or invalidated (at most one set).
    pub hit: Vec<Signal<In, Bit>>,
    /// Per entry: its rank now.
    pub rank: Vec<Signal<In, Bits<R>>>,
    /// Per entry: an allocation takes it (exactly one set).
    pub tgt: Vec<Signal<Out, Bit>>,
    /// Per entry: its rank after this cycle's operation (the current rank
    /// when no operation applies to it).
    pub new_rank: Vec<Signal<Out, Bits<R>>>,

    rank_zero: Constant<Bits<R>>,
    rank_one: Constant<Bits<R>>,
    rank_last: Constant<Bits<R>>,
    inval_below: Vec<Signal<Local, Bit>>,
    first_inval: Vec<Signal<Local, Bit>>,
    victim: Vec<Signal<Local, Bit>>,
    any_inval: Signal<Local, Bit>,
    hit_rank: Signal<Local, Bits<R>>,
    _n: usize,
    _n1: usize,
}

impl<const R: usize> RankOrder<R> {
    /// The order of `entries` entries (`1 <= entries <= 2^R`).
    pub fn new(entries: usize) -> Self {
        assert!(
            entries >= 1 && entries <= 1 << R,
            "{entries} entries do not fit {R}-bit ranks"
        );
        RankOrder {
            alloc: Default::default(),
            touch: Default::default(),
            inval: Default::default(),
            valid: (0..entries).map(|_| Signal::default()).collect(),
            hit: (0..entries).map(|_| Signal::default()).collect(),
            rank: (0..entries).map(|_| Signal::default()).collect(),
            tgt: (0..entries).map(|_| Signal::default()).collect(),
            new_rank: (0..entries).map(|_| Signal::default()).collect(),
            rank_zero: konst(0),
            rank_one: konst(1),
            rank_last: konst(entries as u64 - 1),
            inval_below: sigs(entries + 1),
            first_inval: sigs(entries),
            victim: sigs(entries),
            any_inval: Default::default(),
            hit_rank: Default::default(),
            _n: entries,
            _n1: entries + 1,
        }
    }
}

impl<const R: usize> Logic for RankOrder<R> {
    #[hdl_gen]
    fn update(&mut self) {
        // The allocation target: the lowest invalid entry (a prefix chain),
        // else the valid entry ranked last.
        self.inval_below[0].next = false;
        for e in 0..self._n {
            self.first_inval[e].next = !self.valid[e].val() & !self.inval_below[e].val();
            self.inval_below[e + 1].next = self.inval_below[e].val() | !self.valid[e].val();
            self.victim[e].next =
                self.valid[e].val() & (self.rank[e].val() == self.rank_last.val());
        }
        self.any_inval.next = false;
        for t in self._n..self._n1 {
            self.any_inval.next = self.inval_below[t].val();
        }
        self.hit_rank.next = self.rank_zero.val();
        for e in 0..self._n {
            if self.any_inval.val() {
                self.tgt[e].next = self.first_inval[e].val();
            } else {
                self.tgt[e].next = self.victim[e].val();
            }
            if self.hit[e].val() {
                self.hit_rank.next = self.rank[e].val();
            }
        }
        // The ranks after the operation.
        for e in 0..self._n {
            self.new_rank[e].next = self.rank[e].val();
            if self.alloc.val() {
                if self.tgt[e].val() {
                    self.new_rank[e].next = self.rank_zero.val();
                } else if self.valid[e].val() {
                    self.new_rank[e].next = self.rank[e].val() + self.rank_one.val();
                }
            }
            if self.touch.val() {
                if self.hit[e].val() {
                    self.new_rank[e].next = self.rank_zero.val();
                } else if self.valid[e].val() & (self.rank[e].val() < self.hit_rank.val()) {
                    self.new_rank[e].next = self.rank[e].val() + self.rank_one.val();
                }
            }
            if self.inval.val() {
                if self.hit[e].val() {
                    self.new_rank[e].next = self.rank_zero.val();
                } else if self.valid[e].val() & (self.rank[e].val() > self.hit_rank.val()) {
                    self.new_rank[e].next = self.rank[e].val() - self.rank_one.val();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The order as a list, most recently updated first: the reference the
    /// ranks must encode.
    #[derive(Clone, Debug)]
    struct Lru {
        valid: Vec<bool>,
        order: Vec<usize>,
    }

    impl Lru {
        fn rank(&self, e: usize) -> u64 {
            self.order.iter().position(|&x| x == e).unwrap() as u64
        }
        fn target(&self) -> usize {
            match self.valid.iter().position(|v| !v) {
                Some(e) => e,
                None => *self.order.last().unwrap(),
            }
        }
    }

    /// Drive the block with the reference's state, apply `op` to both, and
    /// check the target and every valid entry's new rank.
    fn step(b: &mut RankOrder<3>, lru: &mut Lru, op: u8, pick: usize, junk: u64) {
        let n = lru.valid.len();
        let valid_idx: Vec<usize> = (0..n).filter(|&e| lru.valid[e]).collect();
        let hit = (!valid_idx.is_empty()).then(|| valid_idx[pick % valid_idx.len()]);
        let op = if hit.is_none() { 0 } else { op };
        b.alloc.next = op == 0;
        b.touch.next = op == 1;
        b.inval.next = op == 2;
        for e in 0..n {
            b.valid[e].next = lru.valid[e];
            b.hit[e].next = op != 0 && Some(e) == hit;
            // Invalid entries' ranks are garbage.
            b.rank[e].next = if lru.valid[e] {
                lru.rank(e).into()
            } else {
                ((junk >> (3 * e)) & 7).into()
            };
        }
        simulate(b, 100);
        let tgt: Vec<bool> = b.tgt.iter().map(|t| t.val()).collect();
        let want = lru.target();
        assert_eq!(tgt, (0..n).map(|e| e == want).collect::<Vec<_>>());
        match op {
            0 => {
                lru.valid[want] = true;
                lru.order.retain(|&x| x != want);
                lru.order.insert(0, want);
            }
            1 => {
                let h = hit.unwrap();
                lru.order.retain(|&x| x != h);
                lru.order.insert(0, h);
            }
            _ => {
                let h = hit.unwrap();
                lru.valid[h] = false;
                lru.order.retain(|&x| x != h);
            }
        }
        for e in 0..n {
            if lru.valid[e] {
                assert_eq!(b.new_rank[e].val().index() as u64, lru.rank(e), "entry {e}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Any sequence of allocations, touches and invalidations: the
        /// ranks encode the list order and allocation picks the lowest
        /// invalid entry, else the least recently updated one.
        #[test]
        fn ranks_follow_the_least_recently_updated_order(
            entries in 1usize..=8,
            ops in prop::collection::vec((0u8..3, 0usize..8, any::<u64>()), 1..60),
        ) {
            let mut b = RankOrder::<3>::new(entries);
            b.connect_all();
            let mut lru = Lru { valid: vec![false; entries], order: Vec::new() };
            for (op, pick, junk) in ops {
                step(&mut b, &mut lru, op, pick, junk);
            }
        }
    }
}
