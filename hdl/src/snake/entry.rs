//! One Tail entry ([`SnakeEntry`]): its fields, its comparisons with this
//! cycle's keys, and its update.

use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{konst, with_defaults};

mod kernel;

/// One Tail entry. `A` = `ADDR_W`, `P` = `PC_W`, `WB` = warp-id bits, `NW`
/// = `N_WARPS` (the warp vector), `RT` = rank bits.
///
/// Comparisons with the staged load's keys (`q`, `p`, `s`) are made one
/// cycle ahead (issue 29), against the next staged load's keys (`nq`,
/// `np`, `ns`: the load accepted this cycle) and registered as `r_mq`,
/// `r_mp`, `r_mt`, likewise `pc1` with the walk queue's next head pc
/// (`p` or `jp` without a pop, `p` or `jp1` with one, both compared from
/// registers and picked by this edge's pop, or for the entry this edge
/// allocates the top's `f_j` / `f_j1`, into `r_mpj`, which is `m_pj`:
/// issue 29 step 10); in the cycle after an entry's allocation (`r_new`)
/// its matches are the forwarded results the top registered at that edge
/// (`rf_q`, `rf_p`, `rf_t`: the next keys compared with the
/// allocating load's link, the entry's new contents) instead (issue 29
/// step 8: no allocation multiplexer in front of the match registers). From them and warp `w` as
/// `w_onehot`: `m_q`, `m_p`, `m_link`, and for the eviction this load's
/// clearing bit (`clr_now`) and the ones of `wv` now (`ones`) with
/// this edge's change of them (`up`, `dn`: the top compares them for the
/// next cycle); and with the
/// walker's (`cur`, `jw`, `jp`: `m_cur`, `m_cur_w`, `usable`, `m_pj`). Updates at the edge: `alloc`
/// writes the narrow fields (valid, the ones, `t1`, the pending
/// observation) and marks the entry `r_new`; its wide fields (`pc1`,
/// `pc2`, `stride`, `wv`, `span`, the per-PC fields) are written one edge
/// later from the top's registers of that allocation, and until then every
/// read of them takes those registers (`e_*`), the per-PC views leave the
/// entry out (issue 29 step 14: no allocation write select in front of
/// some 300 flip-flops). The load's link update (`link_en`: clear or hit;
/// a hit writes `span`), the inter-warp fields (`iw_we` and `m_p`), the
/// intra-warp fields (a pending observation, `r_op`; `obs_we` and `m_pj`
/// make one pending) and the rank (`rank_we`) apply to their own fields.
#[derive(LogicBlock)]
pub struct SnakeEntry<
    const A: usize,
    const P: usize,
    const WB: usize,
    const NW: usize,
    const RT: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (every field clears).
    pub reset: Signal<In, Bit>,
    /// The pending allocation's link source pc (the `q` of the load that
    /// allocated an entry at the last edge, registered by the top: an
    /// entry with `r_new` writes its wide fields from these at this edge,
    /// issue 29 step 14).
    pub q: Signal<In, Bits<P>>,
    /// ... its `p` (the new entry's `pc2`).
    pub ap: Signal<In, Bits<P>>,
    /// ... its warp, one-hot (the new entry's `wv`).
    pub aw: Signal<In, Bits<NW>>,
    /// ... its span.
    pub asp: Signal<In, Bits<12>>,
    /// The staged load's pc.
    pub p: Signal<In, Bits<P>>,
    /// ... its link stride.
    pub s: Signal<In, Bits<A>>,
    /// The load's warp, one-hot.
    pub w_onehot: Signal<In, Bits<NW>>,
    /// The load forms a link this cycle.
    pub link_en: Signal<In, Bit>,
    /// Promotion threshold (`TRAIN_WARPS`).
    pub train: Signal<In, Bits<8>>,
    /// `OWN_LINKS`: any repeat trains a link (`t1 = 1`), the hop choice
    /// takes the warp's own link at any `t1`, and a link with `t1 = 1` is
    /// usable for the warps in `wv`.
    pub own: Signal<In, Bit>,
    /// The next staged load's `q` (the load accepted this cycle).
    pub nq: Signal<In, Bits<P>>,
    /// The next staged load's `p`.
    pub np: Signal<In, Bits<P>>,
    /// The next staged load's `s`.
    pub ns: Signal<In, Bits<A>>,
    /// The pc of the second walk job in the walk queue (the head after a
    /// pop; `r_mpj` compares `pc1` with the head after this edge, one
    /// cycle ahead: `p` if `nx_in`, else `jp1` if `nx_pop`, else `jp`).
    pub jp1: Signal<In, Bits<P>>,
    /// This edge's push (the staged load's job, pc `p`) becomes the head
    /// if the edge does not pop.
    pub nx_in: Signal<In, Bit>,
    /// ... if it pops.
    pub nx_in1: Signal<In, Bit>,
    /// This edge pops the head job (the walker's job end).
    pub pop: Signal<In, Bit>,
    /// For the entry allocated at the last edge (`r_new`), its matches,
    /// registered by the top at that edge: `m_q` (`nq = q` then).
    pub rf_q: Signal<In, Bit>,
    /// ... `m_p` (`np = q`).
    pub rf_p: Signal<In, Bit>,
    /// ... its tail match (`(np, ns) = (p, s)`).
    pub rf_t: Signal<In, Bit>,
    /// For the entry this edge allocates: `m_pj` after the edge (the next
    /// head pc `= q`) if the edge does not pop.
    pub f_j: Signal<In, Bit>,
    /// ... if it pops.
    pub f_j1: Signal<In, Bit>,
    /// The next staged load's warp (the load accepted this cycle), one-hot:
    /// `has_w` for it is registered a cycle ahead (`r_hw`).
    pub h_onehot: Signal<In, Bits<NW>>,
    /// The next staged load's warp is the staged load's (`w`).
    pub same_w: Signal<In, Bit>,
    /// The load's span (`ld_span`), written on a hit and an allocation.
    pub sp: Signal<In, Bits<12>>,
    /// The walker's current pc (its register; used after the first hop).
    pub cur: Signal<In, Bits<P>>,
    /// The walker is before its first hop (`hop = 0`): the hop choice is
    /// from the job's pc `jp`, not from `cur`.
    pub first: Signal<In, Bit>,
    /// The walker's address register (the address before this hop after
    /// the first).
    pub b_addr: Signal<In, Bits<A>>,
    /// The walker's stride-sum register (likewise).
    pub b_sum: Signal<In, Bits<A>>,
    /// The walk job's address (the address before the first hop).
    pub b_ja: Signal<In, Bits<A>>,
    /// The walk job's warp.
    pub jw: Signal<In, Bits<WB>>,
    /// The walk job's pc.
    pub jp: Signal<In, Bits<P>>,
    /// The warp of the second walk job in the walk queue (the head after
    /// a pop unless the push fills entry 0: `r_hjw` registers `wv[jw]` of
    /// the head after this edge, one cycle ahead).
    pub jw1: Signal<In, Bits<WB>>,
    /// `jw` is the staged load's warp (`w`).
    pub jw_w: Signal<In, Bit>,
    /// `jw1` is the staged load's warp.
    pub jw1_w: Signal<In, Bit>,
    /// Write the inter-warp fields (to an entry with `pc1 = p`).
    pub iw_we: Signal<In, Bit>,
    /// New `iw_valid`.
    pub n_iw_valid: Signal<In, Bit>,
    /// New `iw_warp`.
    pub n_iw_warp: Signal<In, Bits<WB>>,
    /// New `iw_addr`.
    pub n_iw_addr: Signal<In, Bits<A>>,
    /// New `iw_stride`.
    pub n_iw_stride: Signal<In, Bits<A>>,
    /// New `iw_cnt`.
    pub n_iw_cnt: Signal<In, Bits<2>>,
    /// The walker's closing hop this cycle: an entry with `pc1 = jp`
    /// records the intra-warp observation as pending (`r_op`), applied at
    /// the next edge.
    pub obs_we: Signal<In, Bit>,
    /// The last closing hop's stride sum `x` (`sum + stride` of the chosen
    /// entry, registered by the top: `r_ox`), written to `intra` at the
    /// edge after the closing hop's with `t2` (issue 29 step 10).
    pub ox: Signal<In, Bits<A>>,
    /// The pending observation's `x` equals the `intra` it replaced
    /// (compared by the top from registers).
    pub oeq: Signal<In, Bit>,
    /// The pending bit of a new entry (its source had the closing hop's
    /// pc: it copies the fields before the observation and applies it at
    /// the next edge like the others).
    pub c_op: Signal<In, Bit>,
    /// Allocate this entry for the load's link.
    pub alloc: Signal<In, Bit>,
    /// Per-PC fields of the entry allocated at the last edge (registered
    /// by the top, written at this edge): `intra`.
    pub c_intra: Signal<In, Bits<A>>,
    /// ... `t2`.
    pub c_t2: Signal<In, Bits<2>>,
    /// ... `iw_valid`.
    pub c_iw_valid: Signal<In, Bit>,
    /// ... `iw_warp`.
    pub c_iw_warp: Signal<In, Bits<WB>>,
    /// ... `iw_addr`.
    pub c_iw_addr: Signal<In, Bits<A>>,
    /// ... `iw_stride`.
    pub c_iw_stride: Signal<In, Bits<A>>,
    /// ... `iw_cnt`.
    pub c_iw_cnt: Signal<In, Bits<2>>,
    /// Write the rank.
    pub rank_we: Signal<In, Bit>,
    /// The new rank.
    pub n_rank: Signal<In, Bits<RT>>,

    /// Valid.
    pub valid: Signal<Out, Bit>,
    /// Valid with `pc1 = q`.
    pub m_q: Signal<Out, Bit>,
    /// Valid with `(pc1, pc2, stride) = (q, p, s)`.
    pub m_link: Signal<Out, Bit>,
    /// The ones in `wv` now (the register): with `up` and `dn` they are
    /// the ones after this edge's hit or clearing (not an allocation),
    /// which the top compares pairwise for the eviction keys of the next
    /// cycle (issue 29 step 6); the sums of the pairs are formed from
    /// these registers and the change only picks among their comparisons
    /// (issue 29 step 12).
    pub ones: Signal<Out, Bits<8>>,
    /// The ones grow by one at this edge (a hit by a warp not in `wv`).
    pub up: Signal<Out, Bit>,
    /// The ones shrink by one at this edge (a clearing).
    pub dn: Signal<Out, Bit>,
    /// This load clears bit w of `wv` (the ones after clearing are `ones -
    /// 1`).
    pub clr_now: Signal<Out, Bit>,
    /// Valid, promoted, `pc1 = cur`.
    pub m_cur: Signal<Out, Bit>,
    /// Valid, `pc1 = cur`, bit `jw` set, and promoted unless `own` (the
    /// warp's own link: the hop choice's first preference).
    pub m_cur_w: Signal<Out, Bit>,
    /// Usable for warp `jw`: promoted, or `own`, bit `jw` set and `t1 = 1`.
    pub usable: Signal<Out, Bit>,
    /// `span` (the span of `pc2` as last observed).
    pub span: Signal<Out, Bits<12>>,
    /// Valid with `pc1 = jp`.
    pub m_pj: Signal<Out, Bit>,
    /// `pc2`.
    pub pc2: Signal<Out, Bits<P>>,
    /// `pc2 = jp` (the hop through this entry closes the loop).
    pub c_close: Signal<Out, Bit>,
    /// `b_ja + stride` at `first`, else `b_addr + stride`: the hop's
    /// address if this entry is the hop choice (every entry adds its own to
    /// both bases, beside the choice, so neither the adder nor `first` is
    /// behind the hop choice's address multiplexer).
    pub n_addr: Signal<Out, Bits<A>>,
    /// `stride` at `first` (the sum before the first hop is 0), else
    /// `b_sum + stride`, likewise.
    pub n_sum: Signal<Out, Bits<A>>,
    /// The rank (0 = most recently used).
    pub rank: Signal<Out, Bits<RT>>,
    /// Valid with `pc1 = np` now (before this edge's allocation): the
    /// next staged load's `m_p` unless this entry is allocated at the edge.
    pub nm_p: Signal<Out, Bit>,
    /// `iw_valid` if `nm_p`, else 0 (the per-PC fields are the same in
    /// every valid entry with one `pc1`, so the top ORs these views of
    /// all entries instead of picking the lowest-numbered one; it
    /// registers the next staged load's inter-warp fields a cycle ahead).
    pub p_iw_valid: Signal<Out, Bit>,
    /// `iw_warp` if `nm_p`, else 0.
    pub p_iw_warp: Signal<Out, Bits<WB>>,
    /// `iw_addr` if `nm_p`, else 0.
    pub p_iw_addr: Signal<Out, Bits<A>>,
    /// `iw_stride` if `nm_p`, else 0.
    pub p_iw_stride: Signal<Out, Bits<A>>,
    /// `iw_cnt` if `nm_p`, else 0.
    pub p_iw_cnt: Signal<Out, Bits<2>>,
    /// `intra` (with a pending observation applied) if `m_pj`, else 0.
    pub j_intra: Signal<Out, Bits<A>>,
    /// `t2` if `m_pj`, else 0.
    pub j_t2: Signal<Out, Bits<2>>,
    /// `iw_stride` if `m_pj`, else 0.
    pub j_iw_stride: Signal<Out, Bits<A>>,
    /// `iw_cnt` if `m_pj`, else 0.
    pub j_iw_cnt: Signal<Out, Bits<2>>,

    /// `intra` if `m_q`, else 0.
    pub q_intra: Signal<Out, Bits<A>>,
    /// `t2` if `m_q`, else 0.
    pub q_t2: Signal<Out, Bits<2>>,
    /// `iw_valid` if `m_q`, else 0.
    pub q_iw_valid: Signal<Out, Bit>,
    /// `iw_warp` if `m_q`, else 0.
    pub q_iw_warp: Signal<Out, Bits<WB>>,
    /// `iw_addr` if `m_q`, else 0.
    pub q_iw_addr: Signal<Out, Bits<A>>,
    /// `iw_stride` if `m_q`, else 0.
    pub q_iw_stride: Signal<Out, Bits<A>>,
    /// `iw_cnt` if `m_q`, else 0.
    pub q_iw_cnt: Signal<Out, Bits<2>>,

    /// `b_addr + stride`, `b_sum + stride` and `b_ja + stride` (prefix
    /// adders, issue 29 steps 7 and 8).
    add_a: crate::arith::PrefixAdd<A>,
    add_j: crate::arith::PrefixAdd<A>,
    add_s: crate::arith::PrefixAdd<A>,
    r_valid: Reg<Bit>,
    r_pc1: Reg<Bits<P>>,
    r_pc2: Reg<Bits<P>>,
    r_stride: Reg<Bits<A>>,
    r_wv: Reg<Bits<NW>>,
    r_t1: Reg<Bits<2>>,
    r_intra: Reg<Bits<A>>,
    r_t2: Reg<Bits<2>>,
    r_iw_valid: Reg<Bit>,
    r_iw_warp: Reg<Bits<WB>>,
    r_iw_addr: Reg<Bits<A>>,
    r_iw_stride: Reg<Bits<A>>,
    r_iw_cnt: Reg<Bits<2>>,
    r_rank: Reg<Bits<RT>>,
    r_span: Reg<Bits<12>>,
    /// The ones in `wv`, kept with it (no bit count on the training path).
    r_ones: Reg<Bits<8>>,
    /// Valid with `pc1 = q` for the staged load (registered a cycle ahead).
    r_mq: Reg<Bit>,
    /// Valid with `pc1 = p`, likewise.
    r_mp: Reg<Bit>,
    /// `(pc2, stride) = (p, s)`, likewise.
    r_mt: Reg<Bit>,
    /// `m_pj`: valid with `pc1` = the walk queue's head job's pc
    /// (registered a cycle ahead: the head after the edge compared from
    /// registers both without and with a pop, the pop picking in front of
    /// the register; issue 29 step 10).
    r_mpj: Reg<Bit>,
    /// This entry was allocated at the last edge: its matches are the
    /// top's forwarded ones (`rf_*`), not `r_mq`, `r_mp`, `r_mt` (which
    /// compared its old contents).
    r_new: Reg<Bit>,
    /// Valid for the walker: valid and not allocated at the last edge
    /// (issue 29 step 15: the walker does not see an entry in the cycle
    /// after its allocation, so that it reads the entry's registers with
    /// no forwarding multiplexer; a register of its own, not `r_valid &
    /// !r_new`, keeps `r_new`'s fan-out off the walker's path).
    r_vw: Reg<Bit>,
    /// Bit `w` of `wv` for the staged load, registered a cycle ahead (from
    /// the next staged load's warp and this edge's hit, clearing or
    /// allocation).
    r_hw: Reg<Bit>,
    /// Bit `jw` of `wv` for the walk queue's head job, registered a cycle
    /// ahead (issue 29 step 12): the head after this edge (the pushed job,
    /// else the second with a pop, else the same; this edge's pop picks in
    /// front of the register, like `r_mpj`), with this edge's hit,
    /// clearing or allocation of the staged load's warp forwarded.
    r_hjw: Reg<Bit>,
    /// An intra-warp observation is pending (the walker's closing hop at
    /// the last edge wrote `intra <- x`; whether `x` equalled the old
    /// `intra` is `oeq`): `t2` is read through `ef_t2` and written at this
    /// edge.
    r_op: Reg<Bit>,

    t1_prom: Constant<Bits<2>>,
    t1_two: Constant<Bits<2>>,
    t1_zero: Constant<Bits<2>>,
    t2_three: Constant<Bits<2>>,
    cnt_two: Constant<Bits<8>>,
    cnt_one: Constant<Bits<8>>,
    zero_a: Constant<Bits<A>>,
    zero_wb: Constant<Bits<WB>>,

    hit_cnt: Signal<Local, Bits<8>>,
    /// `intra` after the pending observation (if any): `x` itself.
    ef_intra: Signal<Local, Bits<A>>,
    /// `t2` after the pending observation (if any).
    ef_t2: Signal<Local, Bits<2>>,
    clr: Signal<Local, Bit>,
    /// Valid with `pc1` = the walker's current pc (`jp` before the first
    /// hop).
    m_cur_pc: Signal<Local, Bit>,
    has_jw: Signal<Local, Bit>,
    has_w: Signal<Local, Bit>,
    /// Bit `w` of `wv` for the next staged load's warp, before this edge.
    nhw: Signal<Local, Bit>,
    /// Bits `jw` and `jw1` of `wv` before this edge.
    wv_jw: Signal<Local, Bit>,
    wv_jw1: Signal<Local, Bit>,
    /// Bit `w` of `wv` after this edge (the pushed job's warp).
    hw_f: Signal<Local, Bit>,
    /// Bits `jw` and `jw1` of `wv` after this edge.
    hj_f: Signal<Local, Bit>,
    hj1_f: Signal<Local, Bit>,
    /// The head job's bit after this edge without a pop, with one.
    hjw_n: Signal<Local, Bit>,
    hjw_p: Signal<Local, Bit>,
    /// Valid with `pc1 = p` (the pushed job's pc).
    mj_p: Signal<Local, Bit>,
    /// `pc1` = the head job after this edge without a pop, with one.
    mpj_n: Signal<Local, Bit>,
    mpj_p: Signal<Local, Bit>,
    /// Valid with `pc1 = p`.
    m_p: Signal<Local, Bit>,
    /// `(pc2, stride) = (p, s)`.
    m_t: Signal<Local, Bit>,
    ones_clr: Signal<Local, Bits<8>>,
    wv_clr: Signal<Local, Bits<NW>>,
    wv_hit: Signal<Local, Bits<NW>>,
    /// `pc1`, `pc2`, `stride`, `wv`, `span` now: the top's registers of
    /// the last edge's allocation if it chose this entry (`r_new`), else
    /// the entry's registers (issue 29 step 14).
    e_pc1: Signal<Local, Bits<P>>,
    e_pc2: Signal<Local, Bits<P>>,
    e_stride: Signal<Local, Bits<A>>,
    e_wv: Signal<Local, Bits<NW>>,
    e_span: Signal<Local, Bits<12>>,
    /// The per-PC fields now, likewise (only written: the views leave an
    /// entry with `r_new` out, whose fields are a surviving entry's copy).
    b_intra: Signal<Local, Bits<A>>,
    b_t2: Signal<Local, Bits<2>>,
    b_iw_valid: Signal<Local, Bit>,
    b_iw_warp: Signal<Local, Bits<WB>>,
    b_iw_addr: Signal<Local, Bits<A>>,
    b_iw_stride: Signal<Local, Bits<A>>,
    b_iw_cnt: Signal<Local, Bits<2>>,
    /// `b_intra`, `b_t2` with a pending observation applied.
    bf_intra: Signal<Local, Bits<A>>,
    bf_t2: Signal<Local, Bits<2>>,
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize, const RT: usize> Default
    for SnakeEntry<A, P, WB, NW, RT>
{
    fn default() -> Self {
        with_defaults!(SnakeEntry {
            t1_prom: konst(2),
            t1_two: konst(1),
            t1_zero: konst(0),
            t2_three: konst(3),
            cnt_two: konst(2),
            cnt_one: konst(1),
            zero_a: konst(0),
            zero_wb: konst(0),
        } default {
            clock, reset, q, p, s, w_onehot, link_en, train, own, h_onehot, same_w, nm_p, r_hw, sp,
            nq, np, ns, jp1, nx_in, nx_in1, pop, f_j1, rf_q, rf_p, rf_t, f_j, cur, first, b_addr,
            b_sum, b_ja, jw, jp, jw1, jw_w, jw1_w, r_hjw, wv_jw, wv_jw1, hw_f, hj_f, hj1_f, hjw_n,
            hjw_p, iw_we, n_iw_valid, n_iw_warp, n_iw_addr, n_iw_stride, n_iw_cnt, obs_we, ox, oeq,
            c_op, alloc, c_intra, c_t2, c_iw_valid, c_iw_warp, c_iw_addr, c_iw_stride, c_iw_cnt,
            rank_we, n_rank, valid, m_q, m_p, m_t, m_link, clr, m_cur_pc, hit_cnt, ones, up,
            dn, clr_now, m_cur, m_cur_w, usable, span, m_pj, pc2, c_close, n_addr, n_sum, rank,
            add_a, add_j, add_s, r_valid, r_pc1, r_pc2, r_stride, r_wv, r_t1, r_intra, r_t2,
            r_iw_valid, r_iw_warp, r_iw_addr, r_iw_stride, r_iw_cnt, r_rank, r_span, r_ones, r_mq,
            r_mp, r_mt, r_op, r_mpj, r_new, r_vw, ef_intra, ef_t2, p_iw_valid, p_iw_warp, p_iw_addr,
            p_iw_stride, p_iw_cnt, j_t2, j_iw_cnt, j_intra, j_iw_stride, mpj_n, mpj_p, q_intra,
            q_t2, q_iw_valid, q_iw_warp, q_iw_addr, q_iw_stride, q_iw_cnt, has_jw, has_w, nhw, mj_p,
            ones_clr, wv_clr, wv_hit, ap, aw, asp, e_pc1, e_pc2, e_stride, e_wv, e_span,
            b_intra, b_t2, b_iw_valid, b_iw_warp, b_iw_addr, b_iw_stride, b_iw_cnt, bf_intra,
            bf_t2,
        })
    }
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize, const RT: usize> Logic
    for SnakeEntry<A, P, WB, NW, RT>
{
    crate::section::sections!(kernel::Pend, kernel::Front, kernel::Ahead, kernel::Update);
}
