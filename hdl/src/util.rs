//! Small custom-Verilog building blocks that rust-hdl cannot express
//! without width warnings.

use rust_hdl::prelude::*;

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
