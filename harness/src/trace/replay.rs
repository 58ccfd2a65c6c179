//! A trace as the harness replays it: per warp, each instruction's
//! coalesced lines, timing class and registers.

use super::format::TraceOp;
use crate::config::InstrClass;

/// One traced instruction as the harness replays it.
#[derive(Clone, Debug)]
pub(crate) struct ReplayInstr {
    pub pc: u32,
    pub mask: u32,
    pub op: TraceOp,
    /// Coalesced line addresses (modulo 2^32), ascending.
    pub lines: Vec<u64>,
    /// Per line of `lines`: the lowest byte address the warp touches in
    /// it.
    pub firsts: Vec<u64>,
    /// The lowest active thread's address (modulo 2^32).
    pub first_addr: u64,
    /// The active lanes of each row of the block are one stride apart, the
    /// same stride in every row ([`crate::lanes::LaneShape::uniform`]).
    pub uniform: bool,
    /// Bytes from the first to the last active lane's address
    /// ([`crate::lanes::LaneShape::span`]).
    pub span: u32,
    /// Timing class ([`InstrClass::of_sass`]).
    pub class: InstrClass,
    /// Registers read (the scoreboard's operands).
    pub reads: Vec<u16>,
    /// Registers written: the listed destinations; for a global load, the
    /// whole destination group its width fills (`LDG.E.128 R4`: R4-R7).
    pub writes: Vec<u16>,
}

/// A trace prepared for the harness.
#[derive(Clone, Debug)]
pub(crate) struct ReplayTrace {
    /// Per traced CTA (ascending id): its warps.
    pub ctas: Vec<(u64, Vec<Vec<ReplayInstr>>)>,
    /// The trace file, for [`Kernel::check_trace`](crate::kernel::Kernel::check_trace)'s errors.
    pub file: String,
    /// Its `-grid dim` line (0: not read from a file).
    pub grid_line: usize,
    /// Its `-block dim` line (0: not read from a file).
    pub block_line: usize,
    /// The trace's warnings ([`KernelTrace::warnings`](super::KernelTrace::warnings)).
    pub warnings: Vec<String>,
}

impl ReplayTrace {
    /// Index of CTA `id` in `ctas`.
    pub(crate) fn cta_index(&self, id: u64) -> Option<usize> {
        self.ctas.binary_search_by_key(&id, |c| c.0).ok()
    }
}
