//! The `caps_prefetcher` test bench ([`Tb`]) and the inputs and constants the
//! tests share.

use crate::caps::*;

pub(super) const PC: u64 = 0x400;
pub(super) const BASE_A: u64 = 0x1000_0000;
pub(super) const BASE_B: u64 = 0x2000_0000;
pub(super) const BASE_C: u64 = 0x3000_0000;
pub(super) const STRIDE: u64 = 0x100;

/// A prefetch as seen on the port: `(addr, cta, warp)`.
pub(super) type Pf = (u64, u64, u64);

/// Test bench: drives the model edge by edge, starting with one reset
/// edge, and records every prefetch transferred on `pf_*`.
///
/// Cycle `n` is the cycle after edge `n - 1` (the reset edge is not
/// counted); [`Tb::edge`] returns the number of the edge it applies,
/// which is also the number of the cycle whose inputs it uses.
pub(super) struct Tb {
    pub(super) m: CapsModel,
    pub(super) cycle: u64,
    pub(super) warps_per_cta: u64,
    pub(super) pf_ready: bool,
    /// `(cycle, prefetch)` of every transfer.
    pub(super) got: Vec<(u64, Pf)>,
}

impl Tb {
    pub(super) fn new(params: &CapsParams, warps_per_cta: u64) -> Tb {
        let mut m = CapsModel::new(params);
        m.step(&CapsIn {
            reset: true,
            ..CapsIn::default()
        });
        Tb {
            m,
            cycle: 0,
            warps_per_cta,
            pf_ready: true,
            got: Vec::new(),
        }
    }

    /// One edge with `inputs` (`cfg_warps_per_cta` and `pf_ready` are
    /// the bench's); returns the edge number.
    pub(super) fn edge(&mut self, inputs: CapsIn) -> u64 {
        let inputs = CapsIn {
            cfg_warps_per_cta: self.warps_per_cta,
            pf_ready: self.pf_ready,
            ..inputs
        };
        let out = self.m.outputs();
        if out.pf_valid && inputs.pf_ready && !inputs.reset {
            self.got
                .push((self.cycle, (out.pf_addr, out.pf_cta, out.pf_warp)));
        }
        self.m.step(&inputs);
        self.cycle += 1;
        self.cycle - 1
    }

    /// A load of `pc` by warp `warp` of CTA slot `cta` with these
    /// addresses (`ld_count` = their number).
    pub(super) fn ld(&mut self, pc: u64, cta: u64, warp: u64, addrs: &[u64]) -> u64 {
        self.edge(load(pc, cta, warp, addrs))
    }

    pub(super) fn idle(&mut self, edges: usize) {
        for _ in 0..edges {
            self.edge(CapsIn::default());
        }
    }

    /// Idle until no load or job is on its way, no job is pending or
    /// running and the address stage and the output queue are empty (at most 1000 edges).
    pub(super) fn drain(&mut self) {
        for _ in 0..1000 {
            if !self.m.load_in_flight()
                && self.m.jobs_pending() == 0
                && self.m.generator().is_none()
                && self.m.prefetches_in_flight() == 0
                && self.m.pfq_len() == 0
            {
                return;
            }
            self.idle(1);
        }
        panic!("the prefetcher does not drain");
    }

    /// The model three idle edges later: its tables and counts once the
    /// load accepted at the last edge is applied (one edge after it is
    /// accepted) and its job has entered the job FIFO (two more edges).
    /// `self.m` itself is not advanced.
    pub(super) fn applied(&self) -> CapsModel {
        let mut m = self.m.clone();
        for _ in 0..3 {
            m.step(&CapsIn {
                cfg_warps_per_cta: self.warps_per_cta,
                ..CapsIn::default()
            });
        }
        m
    }

    /// The prefetches transferred so far, in order.
    pub(super) fn seq(&self) -> Vec<Pf> {
        self.got.iter().map(|&(_, pf)| pf).collect()
    }

    /// The cycles of the transfers so far.
    pub(super) fn cycles(&self) -> Vec<u64> {
        self.got.iter().map(|&(cycle, _)| cycle).collect()
    }
}

pub(super) fn load(pc: u64, cta: u64, warp: u64, addrs: &[u64]) -> CapsIn {
    let mut ld_addr = [0; MAX_ADDR_PORTS];
    ld_addr[..addrs.len()].copy_from_slice(addrs);
    CapsIn {
        ld_valid: true,
        ld_pc: pc,
        ld_cta: cta,
        ld_warp: warp,
        ld_count: addrs.len() as u64,
        ld_addr,
        ..CapsIn::default()
    }
}

pub(super) fn launch(slot: u64) -> CapsIn {
    CapsIn {
        cta_launch_valid: true,
        cta_launch_slot: slot,
        ..CapsIn::default()
    }
}

/// Address of warp `w` in the Figure 9 scenarios.
pub(super) fn fig9(base: u64, w: u64) -> u64 {
    base + STRIDE * w
}

pub(super) fn defaults() -> CapsParams {
    CapsParams::default()
}
