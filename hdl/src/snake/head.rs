//! The Head table ([`SnakeHead`]): each warp's last load.

use rust_hdl::prelude::*;

use crate::mem::Mem;
use crate::reg::Reg;

/// Head[w] for every warp: the valid bits in one `NW`-bit register (reset),
/// `pc` and `addr` in memories indexed by the warp (no reset: read only
/// through a valid bit, written with it). Row `warp` is read
/// combinationally (`prev_*`) and, if `we`, written at the edge.
#[derive(LogicBlock)]
pub struct SnakeHead<const A: usize, const P: usize, const WB: usize, const NW: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (clears the valid bits).
    pub reset: Signal<In, Bit>,
    /// The load's warp.
    pub warp: Signal<In, Bits<WB>>,
    /// The same warp, one-hot.
    pub onehot: Signal<In, Bits<NW>>,
    /// Write row `warp`.
    pub we: Signal<In, Bit>,
    /// New pc.
    pub w_pc: Signal<In, Bits<P>>,
    /// New address.
    pub w_addr: Signal<In, Bits<A>>,
    /// Row `warp` is valid.
    pub prev_valid: Signal<Out, Bit>,
    /// Its pc.
    pub prev_pc: Signal<Out, Bits<P>>,
    /// Its address.
    pub prev_addr: Signal<Out, Bits<A>>,

    valid: Reg<Bits<NW>>,
    pc: Mem<Bits<P>, WB>,
    addr: Mem<Bits<A>, WB>,
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize> SnakeHead<A, P, WB, NW> {
    /// The Head table of `n_warps` warps (`n_warps = NW = 2^WB`).
    pub fn new(n_warps: usize) -> Self {
        assert_eq!(n_warps, NW, "NW is N_WARPS");
        assert_eq!(NW, 1 << WB, "N_WARPS = 2^WB");
        SnakeHead {
            clock: Default::default(),
            reset: Default::default(),
            warp: Default::default(),
            onehot: Default::default(),
            we: Default::default(),
            w_pc: Default::default(),
            w_addr: Default::default(),
            prev_valid: Default::default(),
            prev_pc: Default::default(),
            prev_addr: Default::default(),
            valid: Default::default(),
            pc: Mem::new(n_warps),
            addr: Mem::new(n_warps),
        }
    }
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize> Logic
    for SnakeHead<A, P, WB, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.clock.next = self.clock.val();
        self.valid.reset.next = self.reset.val();
        self.pc.clock.next = self.clock.val();
        self.addr.clock.next = self.clock.val();
        self.pc.r_addr.next = self.warp.val();
        self.addr.r_addr.next = self.warp.val();
        self.prev_valid.next = (self.valid.q.val() & self.onehot.val()).any();
        self.prev_pc.next = self.pc.r_data.val();
        self.prev_addr.next = self.addr.r_data.val();
        self.pc.w_en.next = self.we.val();
        self.addr.w_en.next = self.we.val();
        self.pc.w_addr.next = self.warp.val();
        self.addr.w_addr.next = self.warp.val();
        self.pc.w_data.next = self.w_pc.val();
        self.addr.w_data.next = self.w_addr.val();
        if self.we.val() {
            self.valid.d.next = self.valid.q.val() | self.onehot.val();
        } else {
            self.valid.d.next = self.valid.q.val();
        }
    }
}
