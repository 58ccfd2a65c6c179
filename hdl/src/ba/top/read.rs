//! The first section of the [`super::BaTagArrayRtl`] kernel: the response
//! registers' clock and reset, the address decode, every way's read of the
//! addressed set, and the row as the request sees it.

use rust_hdl::prelude::*;

use super::{BaTagArrayRtl, Read};
use crate::section::Section;

impl<
        const A: usize,
        const T: usize,
        const S: usize,
        const W: usize,
        const NS: usize,
        const NW: usize,
    > Section<Read> for BaTagArrayRtl<A, T, S, W, NS, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_valid,
            r_outcome,
            r_way,
            r_evict_valid,
            r_evict_addr
        );
        self.r_valid.reset.next = self.reset.val();
        self.r_outcome.reset.next = self.reset.val();
        self.r_way.reset.next = self.reset.val();
        self.r_evict_valid.reset.next = self.reset.val();
        self.r_evict_addr.reset.next = self.reset.val();
        // Address decode.
        // Address decode. The offset bits select nothing here; Verilator's
        // `*unused*` naming rule marks them as deliberately unused.
        self.set_idx.next = self
            .req_addr
            .val()
            .get_bits::<S>(self.off_amt.val().index())
            & self.set_mask.val();
        self.req_tag.next = self
            .req_addr
            .val()
            .get_bits::<T>(self.tag_amt.val().index());
        self.unused_addr_bits.next = self.req_addr.val().any();
        self.zext_set.narrow.next = self.set_idx.val();
        self.zext_onehot.narrow.next = self.set_idx.val();
        self.set_onehot.next = self.ns_one.val() << self.zext_onehot.wide.val();
        // Every way reads the addressed set's line.
        for w in 0..self._ways {
            self.ways[w].clock.next = self.clock.val();
            self.ways[w].reset.next = self.reset.val();
            self.ways[w].flush.next = self.flush.val();
            self.ways[w].set_idx.next = self.set_idx.val();
            self.ways[w].set_onehot.next = self.set_onehot.val();
            self.ways[w].we.next = self.req_valid.val();
        }
        // The state a request sees: a flush in the same cycle comes first.
        // A reserved way (`req_resv`) is neither a way to fill nor a victim
        // candidate, nor counted among the never-reused ways; hits ignore it.
        for w in 0..self._ways {
            self.ev[w].next = self.ways[w].o_valid.val() & !self.flush.val();
            // A store does not see a reserved way's tag (GPGPU-Sim: a write
            // to a reserved line is a write miss).
            self.hit[w].next = self.ways[w].o_valid.val()
                & !self.flush.val()
                & (self.ways[w].o_tag.val() == self.req_tag.val())
                & !(self.req_write.val() & self.req_resv.val().get_bit(w));
            self.inval[w].next =
                !(self.ways[w].o_valid.val() & !self.flush.val()) & !self.req_resv.val().get_bit(w);
            self.cand[w].next =
                self.ways[w].o_valid.val() & !self.flush.val() & !self.req_resv.val().get_bit(w);
            self.noreuse[w].next = self.ways[w].o_valid.val()
                & !self.flush.val()
                & !self.req_resv.val().get_bit(w)
                & !self.ways[w].o_reuse.val();
            self.withreuse[w].next = self.ways[w].o_valid.val()
                & !self.flush.val()
                & !self.req_resv.val().get_bit(w)
                & self.ways[w].o_reuse.val();
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
    }
}
