//! A warp slot of the SM ([`Warp`]): its registers, its SIMT mask stack
//! and how `if`s and loops move it, its loads in flight; a CTA slot
//! ([`CtaSlot`]); and the lane masks the SIMT stack works with.

use crate::expr::{Lanes, LANES};
use crate::sched::scheduler::{WarpState, WarpTable};

/// A frame of the SIMT stack: the mask to restore at the end of the `if`
/// or loop, and the lanes of the `else`.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    pub(super) saved: u32,
    pub(super) other: u32,
}

/// A warp slot.
pub(super) struct Warp {
    pub(super) state: WarpState,
    pub(super) cta: u16,
    pub(super) widx: u16,
    pub(super) age: u64,
    pub(super) pc: u32,
    pub(super) active: u32,
    pub(super) stack: Vec<Frame>,
    pub(super) regs: Vec<Lanes>,
    /// Lines of the current load not yet delivered.
    pub(super) pending: u32,
    /// Of which went to memory.
    pub(super) pending_misses: u32,
    /// Issue slots left of the current `compute`.
    pub(super) compute_left: u32,
    /// Trace replay: index of the CTA in the trace (`u32::MAX`: untraced)
    /// and of the next instruction.
    pub(super) tcta: u32,
    pub(super) tpos: u32,
    /// Non-blocking loads (`loads = scoreboard`): the loads in flight,
    /// ...
    pub(super) loads_out: Vec<LoadOut>,
    /// ... per register, the loads in flight that write it, ...
    pub(super) sb: Vec<u8>,
    /// ... the next load's id, and whether the warp waits for one.
    pub(super) next_load: u32,
    pub(super) sb_wait: bool,
    /// Instruction timing (`lat_*`): per register, the cycle its last
    /// result is ready, and the cycle the warp waits for (its next
    /// instruction's operands).
    pub(super) ready_at: Vec<u64>,
    pub(super) wake_at: u64,
}

/// A non-blocking load in flight: its id, the registers it writes
/// (`dst .. dst + ndst`), and the lines still to come.
#[derive(Clone, Copy, Debug)]
pub(super) struct LoadOut {
    pub(super) id: u32,
    pub(super) dst: u16,
    pub(super) ndst: u16,
    pub(super) lines: u32,
}

impl LoadOut {
    /// The registers the load writes.
    pub(super) fn regs(&self) -> std::ops::Range<usize> {
        self.dst as usize..self.dst as usize + self.ndst as usize
    }
}

/// The id of a load the warp waits for at issue (blocking loads, traces).
pub(super) const BLOCKING: u32 = u32::MAX;

impl Warp {
    /// An empty warp slot for a kernel of `nregs` registers, `nsb`
    /// scoreboard registers and `nesting` nested `if`s and loops.
    pub(super) fn new(nregs: usize, nsb: usize, nesting: usize) -> Warp {
        Warp {
            state: WarpState::Free,
            cta: 0,
            widx: 0,
            age: 0,
            pc: 0,
            active: 0,
            stack: Vec::with_capacity(nesting + 1),
            regs: vec![[0; LANES]; nregs],
            pending: 0,
            pending_misses: 0,
            compute_left: 0,
            tcta: u32::MAX,
            tpos: 0,
            loads_out: Vec::new(),
            sb: vec![0; nsb],
            next_load: 0,
            sb_wait: false,
            ready_at: vec![0; nsb],
            wake_at: 0,
        }
    }

    /// Enter an `if` whose condition holds on the lanes of `m` (within the
    /// active ones): push the frame, run the `then` lanes, or jump to
    /// `else_at` when there are none.
    pub(super) fn take_if(&mut self, m: u32, else_at: u32) {
        self.stack.push(Frame {
            saved: self.active,
            other: self.active & !m,
        });
        if m == 0 {
            self.pc = else_at;
        } else {
            self.active = m;
            self.pc += 1;
        }
    }

    /// A loop's back edge: advance the counter `var` of the active lanes
    /// by `step`; the lanes that go on (against the bound `end`).
    pub(super) fn count_loop(&mut self, var: u16, end: u16, step: i64) -> u32 {
        let active = self.active;
        for (lane, x) in self.regs[var as usize].iter_mut().enumerate() {
            if active & (1 << lane) != 0 {
                *x = x.wrapping_add(step);
            }
        }
        loop_mask(&self.regs[var as usize], &self.regs[end as usize], step) & active
    }

    /// Take the back edge with the lanes `m` going on: back to `body_at`,
    /// or out of the loop (pop its frame) when none do.
    pub(super) fn take_loop_back(&mut self, m: u32, body_at: u32) {
        if m == 0 {
            let f = self.stack.pop().expect("loop frame");
            self.active = f.saved;
            self.pc += 1;
        } else {
            self.active = m;
            self.pc = body_at;
        }
    }
}

impl WarpTable for [Warp] {
    #[inline]
    fn state(&self, w: u16) -> WarpState {
        self[w as usize].state
    }

    #[inline]
    fn pending_misses(&self, w: u16) -> u32 {
        self[w as usize].pending_misses
    }
}

/// A CTA slot: its warps (slots), how many exited, how many wait at the
/// barrier.
pub(super) struct CtaSlot {
    pub(super) live: bool,
    pub(super) warps: Vec<u16>,
    pub(super) done: u32,
    pub(super) at_barrier: u32,
}

/// Every lane active.
const FULL: u32 = u32::MAX;

/// `dst = src` on the lanes of `active`.
#[inline]
pub(super) fn write_masked(dst: &mut Lanes, src: &Lanes, active: u32) {
    if active == FULL {
        *dst = *src;
    } else {
        for lane in 0..LANES {
            if active & (1 << lane) != 0 {
                dst[lane] = src[lane];
            }
        }
    }
}

/// The lanes where `v` is not zero.
#[inline]
pub(super) fn truth_mask(v: &Lanes) -> u32 {
    let mut m = 0u32;
    for (lane, &x) in v.iter().enumerate() {
        m |= ((x != 0) as u32) << lane;
    }
    m
}

/// The lanes whose loop counter `var` has not reached `end` (counting by
/// `step`).
#[inline]
pub(super) fn loop_mask(var: &Lanes, end: &Lanes, step: i64) -> u32 {
    let mut m = 0u32;
    for lane in 0..LANES {
        let go = if step > 0 {
            var[lane] < end[lane]
        } else {
            var[lane] > end[lane]
        };
        m |= (go as u32) << lane;
    }
    m
}
