//! Small building blocks shared by the units: custom-Verilog blocks that
//! rust-hdl cannot express without width warnings, and constructors of
//! signal, register and constant vectors.

use rust_hdl::prelude::*;

use crate::reg::Reg;

/// Zero-extends an `N`-bit value to `M` bits (`M >= N`) with a Verilog
/// concatenation, so the emitted text has no implicit width change.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct ZeroExt<const N: usize, const M: usize> {
    /// Narrow input.
    pub narrow: Signal<In, Bits<N>>,
    /// Zero-extended output.
    pub wide: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for ZeroExt<N, M> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<M, N>(self.narrow.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(M >= N, "ZeroExt narrows {N} to {M} bits");
        if M == N {
            Verilog::Custom("always @(*) wide = narrow;".into())
        } else {
            Verilog::Custom(format!("always @(*) wide = {{{}'d0, narrow}};", M - N))
        }
    }
}

/// `n` local signals (one per entry of a table, lane, ...).
pub fn sigs<T: Synth>(n: usize) -> Vec<Signal<Local, T>> {
    (0..n).map(|_| Signal::default()).collect()
}

/// `n` registers ([`Reg`]).
pub fn regs<T: Synth>(n: usize) -> Vec<Reg<T>> {
    (0..n).map(|_| Reg::default()).collect()
}

/// An `N`-bit constant (a Verilog `localparam`).
pub fn konst<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

/// One `N`-bit constant per value.
pub fn konsts<const N: usize>(vals: impl Iterator<Item = u64>) -> Vec<Constant<Bits<N>>> {
    vals.map(konst::<N>).collect()
}
