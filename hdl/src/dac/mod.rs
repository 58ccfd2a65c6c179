//! `dac_expander` — the expansion datapath of Decoupled Affine Computation
//! (spec `dac.md`, micro-architecture `docs/units/dac_expander.md`).
//!
//! Files: `lane0.rs` ([`DacLane0`]), `breaks.rs` ([`DacBreaks`], the
//! region boundaries from carry-save words), `offs.rs` ([`DacBasis`],
//! [`DacOffs`]), `lanes.rs` ([`DacLanes`]), `setup.rs`
//! ([`DacSetup`]), `record.rs` ([`DacRecord`]), `pick.rs`
//! ([`SlotPick`]), `cmp.rs`
//! ([`SignedCmp`]), `top.rs` ([`DacExpanderRtl`] and its
//! [`crate::RtlUnit`] impl), `top/` (the sections of the top's kernel,
//! [`crate::section`]), `build.rs` (the compiled-in width table and
//! the [`crate::registry::RtlDecl`] of [`ports::dac::DacExpander`]),
//! `storage.rs` (the storage table).
//!
//! Structure:
//!
//! - The ATQ is four [`crate::queue::ShiftQueue`] lanes in lock-step
//!   (`{off_tx, base}`, `{off_cx, off_ty}`, `{scalar, off_cy}`, `{guard,
//!   cmp, gran, kind}`: no payload wider than 64 bits); the expander reads
//!   the head in place and pops it when the tuple is done.
//! - The per-warp address and predicate queues are two
//!   [`crate::multiqueue::MultiQueue`]s: every warp's entries in one
//!   memory addressed `{warp, position}`, a head and a count per warp.
//! - [`DacLane0`]: the warp's lane-0 value (`base + cx*off_cx +
//!   cy*off_cy + tx0*off_tx + ty0*off_ty`) as one carry-save tree over
//!   `base` and the partial products, left as sum and carry words (issue
//!   29's first warp-setup stage, on the warp two ahead, registered);
//!   [`DacBasis`] and [`DacOffs`]: the head tuple's basis offsets and
//!   each lane's offset relative to lane 0, registered per tuple (issue 29,
//!   step 3); [`DacLanes`]: each lane's registered offset added to those
//!   words by one compressor and one prefix adder per lane (the second
//!   stage, on the next warp; no multiplier or adder chain);
//!   [`DacSetup`]: the next warp's lane masks and chunk indices;
//!   [`DacRecord`] cuts the record at lane `p` over the enabled lanes
//!   (every active lane, or a guarded tuple's lanes set in `G[w]`); two
//!   [`SignedCmp`]s decide the fast predicate path from lanes 0 and `n-1`,
//!   eight more compare a group of eight lanes per cycle on the slow path.
//! - [`DacExpanderRtl`]: slots, the start cycle, the warp walk (current
//!   slot = the lowest of the sampled set, warp, lane, lane group), the
//!   early memory request register, the statistics and the dequeue
//!   response registers.
//! - The guard masks `G[w]` (revision 2): a [`crate::mem::Mem`] of
//!   `N_WARPS` x 32 bits read at the current warp and written by a guard's
//!   pushed mask, with a "written since reset" bit per warp id (an
//!   unwritten mask reads as 0).
//!
//! Widths are const generics: `WB` = `clog2(N_WARPS)`, `SB` =
//! `clog2(N_CTA)`, `CB` = `clog2(ATQ_DEPTH + 1)`, `AQ` / `PQ` = `WB +
//! log2(PWAQ_DEPTH)` / `WB + log2(PWPQ_DEPTH)`. Depths and counts are
//! run-time values of the built block. Slot masks are 16 bits (`N_CTA <=
//! 16`).

mod breaks;
mod build;
mod cmp;
mod lane0;
mod lanes;
mod offs;
mod pick;
mod record;
mod setup;
mod storage;
mod top;

pub use cmp::SignedCmp;
pub use lane0::DacLane0;
pub use lanes::DacLanes;
pub use offs::{DacBasis, DacOffs};
pub use pick::SlotPick;
pub use record::DacRecord;
pub use setup::DacSetup;
pub use top::DacExpanderRtl;

#[cfg(test)]
mod tests {
    use ports::dac::{DacExpander, DacIn, DacOut, DacParams};
    use ports::UnitSpec;

    use crate::registry::RtlDecl;
    use crate::RtlUnit;

    /// One cycle: outputs during the cycle, then the edge.
    fn cycle(u: &mut dyn RtlUnit, p: &DacParams, i: &DacIn) -> DacOut {
        u.set_inputs(&DacExpander::in_values(p, i));
        u.set_clock(false);
        assert!(u.settle());
        let mut o = vec![0; DacExpander::outputs(p).len()];
        u.outputs(&mut o);
        u.set_clock(true);
        assert!(u.settle());
        DacExpander::out_from_values(p, &o)
    }

    /// The spec's Figure 5 scenario on the RustHDL simulation: a 64-thread
    /// CTA, (0x81000, off_tx = 4), word granularity.
    #[test]
    fn figure5_on_the_rtl() {
        let p = DacParams::default();
        let mut u = DacExpander::build(&p).unwrap();
        let cfg = DacIn {
            cfg_bdx_log2: 6,
            cfg_threads: 64,
            cfg_warps_per_cta: 2,
            ..Default::default()
        };
        cycle(&mut *u, &p, &DacIn { reset: true, ..cfg });
        cycle(
            &mut *u,
            &p,
            &DacIn {
                cta_launch_valid: true,
                ..cfg
            },
        );
        cycle(
            &mut *u,
            &p,
            &DacIn {
                enq_valid: true,
                enq_base: 0x81000,
                enq_off_tx: 4,
                enq_gran: 2,
                ..cfg
            },
        );
        for _ in 0..4 {
            cycle(&mut *u, &p, &cfg);
        }
        let mut got = Vec::new();
        for w in 0..2 {
            cycle(
                &mut *u,
                &p,
                &DacIn {
                    deq_valid: true,
                    deq_warp: w,
                    ..cfg
                },
            );
            let o = cycle(&mut *u, &p, &cfg);
            got.push((o.rsp_valid, o.rsp_hit, o.rsp_addr, o.rsp_mask, o.rsp_last));
        }
        assert_eq!(
            got,
            vec![
                (true, true, 0x81000, 0xFFFF_FFFF, true),
                (true, true, 0x81080, 0xFFFF_FFFF, true)
            ]
        );
        let v = u.verilog(&[]).unwrap();
        assert!(v.contains("module dac_expander"));
        if let Ok(path) = std::env::var("DAC_VERILOG_OUT") {
            std::fs::write(path, &v).unwrap();
        }
    }
}
