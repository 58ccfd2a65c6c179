//! One way of every set: the storage of `ba_tag_array`, read and written at
//! the addressed set.

use ports::ba::BaParams;
use rust_hdl::prelude::*;

use crate::mem::Mem;
use crate::reg::Reg;

/// Way `w` of every set: the valid bits (one register of `NS` = `SETS`
/// bits, reset and flushed), and the tag, reuse, bypass and LRU rank of
/// each set's line in memories (no reset: they are read only through a
/// valid line, and every field is written when a line becomes valid).
///
/// The line of set `set_idx` is read combinationally (`o_*`, the state
/// before this cycle's edge); at the edge, if `we`, the line of set
/// `w_set_idx` takes `w_*`, then `flush` clears every valid bit (the write
/// is the top's write buffer, a request accepted before the flush; the
/// request the flush comes with is still in the first stage).
#[derive(LogicBlock)]
pub struct BaWay<const T: usize, const W: usize, const S: usize, const NS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (clears the valid bits).
    pub reset: Signal<In, Bit>,
    /// Invalidate the way in every set.
    pub flush: Signal<In, Bit>,
    /// Set index read (the request in the first stage).
    pub set_idx: Signal<In, Bits<S>>,
    /// The same set as a one-hot vector (bit `set_idx` set).
    pub set_onehot: Signal<In, Bits<NS>>,
    /// Set index written (the top's write buffer).
    pub w_set_idx: Signal<In, Bits<S>>,
    /// The same set as a one-hot vector.
    pub w_set_onehot: Signal<In, Bits<NS>>,
    /// Write the line of set `w_set_idx` at the edge.
    pub we: Signal<In, Bit>,
    /// New valid bit of the addressed line.
    pub w_valid: Signal<In, Bit>,
    /// New tag.
    pub w_tag: Signal<In, Bits<T>>,
    /// New reuse bit.
    pub w_reuse: Signal<In, Bit>,
    /// New bypass bit.
    pub w_bypass: Signal<In, Bit>,
    /// New LRU rank.
    pub w_rank: Signal<In, Bits<W>>,
    /// Valid bit of the addressed line.
    pub o_valid: Signal<Out, Bit>,
    /// Tag of the addressed line.
    pub o_tag: Signal<Out, Bits<T>>,
    /// Reuse bit.
    pub o_reuse: Signal<Out, Bit>,
    /// Bypass bit.
    pub o_bypass: Signal<Out, Bit>,
    /// LRU rank (0 = most recently used).
    pub o_rank: Signal<Out, Bits<W>>,

    valid: Reg<Bits<NS>>,
    tag: Mem<Bits<T>, S>,
    reuse: Mem<Bit, S>,
    bypass: Mem<Bit, S>,
    rank: Mem<Bits<W>, S>,
    ns_zero: Constant<Bits<NS>>,
    /// The valid bits after this edge's write.
    v_written: Signal<Local, Bits<NS>>,
}

impl<const T: usize, const W: usize, const S: usize, const NS: usize> BaWay<T, W, S, NS> {
    /// One way of `p.SETS` sets.
    pub fn new(p: &BaParams) -> Self {
        let sets = p.SETS as usize;
        assert_eq!(NS, sets, "NS is the number of sets");
        BaWay {
            clock: Default::default(),
            reset: Default::default(),
            flush: Default::default(),
            set_idx: Default::default(),
            set_onehot: Default::default(),
            w_set_idx: Default::default(),
            w_set_onehot: Default::default(),
            we: Default::default(),
            w_valid: Default::default(),
            w_tag: Default::default(),
            w_reuse: Default::default(),
            w_bypass: Default::default(),
            w_rank: Default::default(),
            o_valid: Default::default(),
            o_tag: Default::default(),
            o_reuse: Default::default(),
            o_bypass: Default::default(),
            o_rank: Default::default(),
            valid: Default::default(),
            tag: Mem::new(sets),
            reuse: Mem::new(sets),
            bypass: Mem::new(sets),
            rank: Mem::new(sets),
            ns_zero: Constant::new(Bits::<NS>::from(0u64)),
            v_written: Default::default(),
        }
    }
}

impl<const T: usize, const W: usize, const S: usize, const NS: usize> Logic for BaWay<T, W, S, NS> {
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.clock.next = self.clock.val();
        self.valid.reset.next = self.reset.val();
        self.tag.clock.next = self.clock.val();
        self.reuse.clock.next = self.clock.val();
        self.bypass.clock.next = self.clock.val();
        self.rank.clock.next = self.clock.val();
        // Read the addressed line.
        self.tag.r_addr.next = self.set_idx.val();
        self.reuse.r_addr.next = self.set_idx.val();
        self.bypass.r_addr.next = self.set_idx.val();
        self.rank.r_addr.next = self.set_idx.val();
        self.o_valid.next = (self.valid.q.val() & self.set_onehot.val()).any();
        self.o_tag.next = self.tag.r_data.val();
        self.o_reuse.next = self.reuse.r_data.val();
        self.o_bypass.next = self.bypass.r_data.val();
        self.o_rank.next = self.rank.r_data.val();
        // Write it back.
        self.tag.w_en.next = self.we.val();
        self.reuse.w_en.next = self.we.val();
        self.bypass.w_en.next = self.we.val();
        self.rank.w_en.next = self.we.val();
        self.tag.w_addr.next = self.w_set_idx.val();
        self.reuse.w_addr.next = self.w_set_idx.val();
        self.bypass.w_addr.next = self.w_set_idx.val();
        self.rank.w_addr.next = self.w_set_idx.val();
        self.tag.w_data.next = self.w_tag.val();
        self.reuse.w_data.next = self.w_reuse.val();
        self.bypass.w_data.next = self.w_bypass.val();
        self.rank.w_data.next = self.w_rank.val();
        // Valid bits: the write first, then a flush. (A signal is never
        // read before being assigned in the same block: rust-hdl's
        // simulator would read the previous pass's value.)
        if self.we.val() & self.w_valid.val() {
            self.v_written.next = self.valid.q.val() | self.w_set_onehot.val();
        } else if self.we.val() {
            self.v_written.next = self.valid.q.val() & !self.w_set_onehot.val();
        } else {
            self.v_written.next = self.valid.q.val();
        }
        if self.flush.val() {
            self.valid.d.next = self.ns_zero.val();
        } else {
            self.valid.d.next = self.v_written.val();
        }
    }
}
