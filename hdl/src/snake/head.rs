//! The Head table ([`SnakeHead`]): each warp's last load.

use rust_hdl::prelude::*;

use crate::reg::Reg;
use crate::util::{konst, regs, sigs};

/// Head[w] for every warp: the valid bits in one `NW`-bit register (reset),
/// `pc` and `addr` in a register per row (not reset: read only through a
/// valid bit, written with it). Row `warp` is read combinationally
/// (`prev_*`) through the warp's one-hot (`onehot`), as the OR of every
/// row masked by its bit (issue 29: a 64-row read multiplexer selected by
/// the `ld_warp` port was the training's worst path, its select buffered
/// as a chain), and, if `we`, written at the edge.
#[derive(LogicBlock)]
pub struct SnakeHead<const A: usize, const P: usize, const WB: usize, const NW: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (clears the valid bits).
    pub reset: Signal<In, Bit>,
    /// The load's warp, one-hot.
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
    pc: Vec<Reg<Bits<P>>>,
    addr: Vec<Reg<Bits<A>>>,
    zero_p: Constant<Bits<P>>,
    zero_a: Constant<Bits<A>>,
    /// Row r's pc if it is the warp's, else 0.
    m_pc: Vec<Signal<Local, Bits<P>>>,
    /// Row r's address if it is the warp's, else 0.
    m_addr: Vec<Signal<Local, Bits<A>>>,
    _nw: usize,
}

impl<const A: usize, const P: usize, const WB: usize, const NW: usize> SnakeHead<A, P, WB, NW> {
    /// The Head table of `n_warps` warps (`n_warps = NW = 2^WB`).
    pub fn new(n_warps: usize) -> Self {
        assert_eq!(n_warps, NW, "NW is N_WARPS");
        assert_eq!(NW, 1 << WB, "N_WARPS = 2^WB");
        SnakeHead {
            clock: Default::default(),
            reset: Default::default(),
            onehot: Default::default(),
            we: Default::default(),
            w_pc: Default::default(),
            w_addr: Default::default(),
            prev_valid: Default::default(),
            prev_pc: Default::default(),
            prev_addr: Default::default(),
            valid: Default::default(),
            pc: regs(n_warps),
            addr: regs(n_warps),
            zero_p: konst(0),
            zero_a: konst(0),
            m_pc: sigs(n_warps),
            m_addr: sigs(n_warps),
            _nw: n_warps,
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
        self.prev_valid.next = (self.valid.q.val() & self.onehot.val()).any();
        if self.we.val() {
            self.valid.d.next = self.valid.q.val() | self.onehot.val();
        } else {
            self.valid.d.next = self.valid.q.val();
        }
        self.prev_pc.next = self.zero_p.val();
        self.prev_addr.next = self.zero_a.val();
        for r in 0..self._nw {
            self.pc[r].clock.next = self.clock.val();
            self.pc[r].reset.next = false;
            self.addr[r].clock.next = self.clock.val();
            self.addr[r].reset.next = false;
            self.pc[r].d.next = self.pc[r].q.val();
            self.addr[r].d.next = self.addr[r].q.val();
            self.m_pc[r].next = self.zero_p.val();
            self.m_addr[r].next = self.zero_a.val();
            if self.onehot.val().get_bit(r) {
                self.m_pc[r].next = self.pc[r].q.val();
                self.m_addr[r].next = self.addr[r].q.val();
                if self.we.val() {
                    self.pc[r].d.next = self.w_pc.val();
                    self.addr[r].d.next = self.w_addr.val();
                }
            }
            self.prev_pc.next = self.prev_pc.val() | self.m_pc[r].val();
            self.prev_addr.next = self.prev_addr.val() | self.m_addr[r].val();
        }
    }
}
