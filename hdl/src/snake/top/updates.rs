//! The last two sections of the [`super::SnakePrefetcherRtl`] kernel: the
//! new entry's per-PC fields, the recency order and the entry updates
//! ([`NewEntry`]); the walk queue and the output queue ([`Updates`]).

use rust_hdl::prelude::*;

use super::{NewEntry, SnakePrefetcherRtl, Updates};
use crate::section::Section;

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > Section<NewEntry> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The new entry's per-PC fields: those of q's entries (the
        // same in all of them; a pending intra-warp observation applied
        // by the entries' views) with this edge's inter-warp update
        // forwarded, if an entry with pc1 = q other than the victim exists;
        // else zero. A closing hop's observation of this cycle becomes
        // pending in the new entry too when q is the job's pc (it copies
        // the `intra` before the observation, which writes `x` at the next
        // edge).
        self.q_other.next = false;
        self.cq_intra.next = self.addr_zero.val();
        self.cq_t2.next = self.two_zero.val();
        self.cq_iw_valid.next = false;
        self.cq_iw_warp.next = self.wb_zero.val();
        self.cq_iw_addr.next = self.addr_zero.val();
        self.cq_iw_stride.next = self.addr_zero.val();
        self.cq_iw_cnt.next = self.two_zero.val();
        for e in 0..self._ne {
            if self.ents[e].m_q.val() & !self.victim[e].val() {
                self.q_other.next = true;
            }
            self.cq_intra.next = self.cq_intra.val() | self.ents[e].q_intra.val();
            self.cq_t2.next = self.cq_t2.val() | self.ents[e].q_t2.val();
            self.cq_iw_valid.next = self.cq_iw_valid.val() | self.ents[e].q_iw_valid.val();
            self.cq_iw_warp.next = self.cq_iw_warp.val() | self.ents[e].q_iw_warp.val();
            self.cq_iw_addr.next = self.cq_iw_addr.val() | self.ents[e].q_iw_addr.val();
            self.cq_iw_stride.next = self.cq_iw_stride.val() | self.ents[e].q_iw_stride.val();
            self.cq_iw_cnt.next = self.cq_iw_cnt.val() | self.ents[e].q_iw_cnt.val();
        }
        self.q_is_p.next = self.q.val() == self.l_pc.q.val();
        self.q_is_jp.next = self.q.val() == self.jp.val();
        self.q_is_j1.next = self.q.val() == self.jp1.val();
        self.cp_intra.next = self.addr_zero.val();
        self.cp_t2.next = self.two_zero.val();
        self.cp_iw_valid.next = false;
        self.cp_iw_warp.next = self.wb_zero.val();
        self.cp_iw_addr.next = self.addr_zero.val();
        self.cp_iw_stride.next = self.addr_zero.val();
        self.cp_iw_cnt.next = self.two_zero.val();
        self.c_op.next = self.obs_en.val() & self.q_is_jp.val() & self.q_other.val();
        if self.q_other.val() {
            self.cp_intra.next = self.cq_intra.val();
            self.cp_t2.next = self.cq_t2.val();
            if self.q_is_p.val() {
                self.cp_iw_valid.next = true;
                self.cp_iw_warp.next = self.l_warp.q.val();
                self.cp_iw_addr.next = self.l_addr.q.val();
                self.cp_iw_stride.next = self.u_iw_stride.val();
                self.cp_iw_cnt.next = self.u_iw_cnt.val();
            } else {
                self.cp_iw_valid.next = self.cq_iw_valid.val();
                self.cp_iw_warp.next = self.cq_iw_warp.val();
                self.cp_iw_addr.next = self.cq_iw_addr.val();
                self.cp_iw_stride.next = self.cq_iw_stride.val();
                self.cp_iw_cnt.next = self.cq_iw_cnt.val();
            }
        }

        // ---- Recency: a hit, or an allocation into a valid victim, moves
        // its entry to rank 0 and the entries ranked before it down one
        // (each entry compares its rank with every entry's at once); an
        // allocation into an invalid entry moves every valid entry down.
        self.alloc_inv.next = self.allocate.val() & self.any_inval.val();
        self.touch.next = (self.link_en.val() & self.any_hit.val())
            | (self.allocate.val() & !self.any_inval.val());
        for e in 0..self._ne {
            self.hit[e].next = (self.link_en.val() & self.ents[e].m_link.val())
                | (self.allocate.val() & !self.any_inval.val() & self.victim[e].val());
        }
        for e in 0..self._ne {
            self.newer[e].next = false;
            for h in 0..self._ne {
                if self.hit[h].val() & (self.ents[e].rank.val() < self.ents[h].rank.val()) {
                    self.newer[e].next = true;
                }
            }
            self.new_rank[e].next = self.ents[e].rank.val();
            if self.alloc_inv.val() {
                if self.victim[e].val() {
                    self.new_rank[e].next = self.rank_zero.val();
                } else if self.ents[e].valid.val() {
                    self.new_rank[e].next = self.ents[e].rank.val() + self.rank_one.val();
                }
            }
            if self.touch.val() {
                if self.hit[e].val() {
                    self.new_rank[e].next = self.rank_zero.val();
                } else if self.ents[e].valid.val() & self.newer[e].val() {
                    self.new_rank[e].next = self.ents[e].rank.val() + self.rank_one.val();
                }
            }
        }

        // ---- Entry updates.
        for e in 0..self._ne {
            self.ents[e].iw_we.next = self.load_en.val();
            self.ents[e].n_iw_valid.next = true;
            self.ents[e].n_iw_warp.next = self.l_warp.q.val();
            self.ents[e].n_iw_addr.next = self.l_addr.q.val();
            self.ents[e].n_iw_stride.next = self.u_iw_stride.val();
            self.ents[e].n_iw_cnt.next = self.u_iw_cnt.val();
            self.ents[e].nx_in.next = self.walkq.o_put0n.val();
            self.ents[e].nx_in1.next = self.walkq.o_put0p.val();
            self.ents[e].obs_we.next = self.obs_en.val();
            self.ents[e].ox.next = self.r_ox.q.val();
            self.ents[e].oeq.next = self.oeq.val();
            self.ents[e].c_op.next = self.c_op.val();
            self.ents[e].alloc.next = self.allocate.val() & self.victim[e].val();
            self.ents[e].rank_we.next = self.alloc_inv.val() | self.touch.val();
            self.ents[e].n_rank.next = self.new_rank[e].val();
        }

        // ---- The eviction keys of the next cycle, compared pairwise and
        // registered (the ones after this edge; an allocated entry's are 1).
        for e in 0..self._ne {
            self.pkeys.ones[e].next = self.ents[e].ones.val();
            self.pkeys.up[e].next = self.ents[e].up.val();
            self.pkeys.dn[e].next = self.ents[e].dn.val();
            self.pkeys.alloc[e].next = self.allocate.val() & self.victim[e].val();
            self.vt0[e].d.next = self.pkeys.nt0[e].val();
            self.vt1[e].d.next = self.pkeys.nt1[e].val();
            self.vt2[e].d.next = self.pkeys.nt2[e].val();
            self.vt3[e].d.next = self.pkeys.nt3[e].val();
        }
    }
}

impl<
        const A: usize,
        const P: usize,
        const WB: usize,
        const WD: usize,
        const NW: usize,
        const RT: usize,
        const JW: usize,
        const QW: usize,
    > Section<Updates> for SnakePrefetcherRtl<A, P, WB, WD, NW, RT, JW, QW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Walk queue: three lanes ({pc, warp}, the address, {end,
        // span}) in lock-step; emptied in a halted cycle; a job is dropped
        // when full.
        self.walkq.clock.next = self.clock.val();
        self.walkq.reset.next = self.reset.val() | self.halted.val();
        self.walkq_addr.clock.next = self.clock.val();
        self.walkq_addr.reset.next = self.reset.val() | self.halted.val();
        self.walkq_se.clock.next = self.clock.val();
        self.walkq_se.reset.next = self.reset.val() | self.halted.val();
        self.walkq.push.next = self.load_en.val()
            & !self.halted.val()
            & !self.walkq.o_full.val()
            & !self.walkq_addr.o_full.val()
            & !self.walkq_se.o_full.val();
        self.walkq_addr.push.next = self.walkq.push.val();
        self.walkq_se.push.next = self.walkq.push.val();
        self.walkq.pop.next = self.job_end.val();
        self.walkq_addr.pop.next = self.job_end.val();
        self.walkq_se.pop.next = self.job_end.val();
        self.jp_w.narrow.next = self.l_warp.q.val();
        self.jp_p.narrow.next = self.l_pc.q.val();
        self.walkq.i_data.next = self.jp_w.wide.val() | (self.jp_p.wide.val() << self.joff_p.val());
        self.walkq_addr.i_data.next = self.l_addr.q.val();
        self.js_span.narrow.next = self.l_span.q.val();
        self.js_end.narrow.next = self.l_end.q.val();
        self.walkq_se.i_data.next =
            self.js_span.wide.val() | (self.js_end.wide.val() << self.joff_end.val());

        // ---- The entry allocated at this edge against the head job after it
        // (`PeekQueue`: the pushed job, else the second after a pop, else
        // the same), for its registered `m_pj` both without and with a pop
        // (the pop picks in the entry).
        if self.walkq.o_put0n.val() {
            self.f_j.next = self.q_is_p.val();
        } else {
            self.f_j.next = self.q_is_jp.val();
        }
        if self.walkq.o_put0p.val() {
            self.f_j1.next = self.q_is_p.val();
        } else {
            self.f_j1.next = self.q_is_j1.val();
        }
        for e in 0..self._ne {
            self.ents[e].f_j.next = self.f_j.val();
            self.ents[e].f_j1.next = self.f_j1.val();
            self.ents[e].pop.next = self.job_end.val();
        }

        // ---- Output queue, packed {span, kind, warp, addr}.
        self.pfq.clock.next = self.clock.val();
        self.pfq.reset.next = self.reset.val();
        self.pfq.push.next = self.pst_valid.q.val() | (self.push.val() & self.hop_emit.val());
        self.pfq.pop.next = self.pfq.o_valid.val() & self.pf_ready.val();
        self.qp_addr.narrow.next = self.pf_a.val();
        self.qp_warp.narrow.next = self.pf_w.val();
        self.qp_kind.narrow.next = self.pf_k.val();
        self.qp_span.narrow.next = self.pf_s.val();
        self.pfq.i_data.next = self.qp_addr.wide.val()
            | (self.qp_warp.wide.val() << self.qoff_warp.val())
            | (self.qp_kind.wide.val() << self.qoff_kind.val())
            | (self.qp_span.wide.val() << self.qoff_span.val());
        self.pf_valid.next = self.pfq.o_valid.val();
        self.pf_addr.next = self.pfq.o_data.val().get_bits::<A>(0);
        self.pf_warp.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<WB>(self.qoff_warp.val().index());
        self.pf_kind.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<2>(self.qoff_kind.val().index());
        self.pf_span.next = self
            .pfq
            .o_data
            .val()
            .get_bits::<12>(self.qoff_span.val().index());
    }
}
