//! The load/store unit ([`LdSt`]): the lines of the one memory instruction
//! it holds, coalesced, served to the L1 one per cycle.

use crate::expr::LANES;

use super::warp::BLOCKING;

/// The load/store unit's memory instruction.
pub(super) struct LdSt {
    pub(super) busy: bool,
    pub(super) warp: u16,
    /// The load's id (`BLOCKING` for a load the warp waits for at issue).
    pub(super) load: u32,
    /// The memory instruction's PC (the reuse profile's per-load split).
    pub(super) pc: u32,
    pub(super) store: bool,
    /// A texture load: its lines go to the texture cache.
    pub(super) texture: bool,
    pub(super) array: u16,
    pub(super) lines: [u64; LANES],
    /// Per line: the lowest byte address the warp touches in it.
    pub(super) firsts: [u64; LANES],
    pub(super) n: usize,
    pub(super) next: usize,
}

impl LdSt {
    /// An idle unit.
    pub(super) fn new() -> LdSt {
        LdSt {
            busy: false,
            warp: 0,
            load: BLOCKING,
            pc: 0,
            store: false,
            texture: false,
            array: 0,
            lines: [0; LANES],
            firsts: [0; LANES],
            n: 0,
            next: 0,
        }
    }
}
