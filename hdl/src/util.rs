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

/// Concatenates one bit per index into an `N`-bit word (`bits[i]` is bit
/// `i`; indices past `bits.len()` are zero).
///
/// rust-hdl substitutes a loop variable only in the first `[...]` of a
/// signal path, so a parent cannot read `child[e].flag[s]` in nested
/// loops; it can read `child[e].word.val().get_bit(s)`. A child packs its
/// per-index flags with this block to offer them that way.
#[derive(Clone, Debug, LogicBlock)]
pub struct Pack<const N: usize> {
    /// The bits.
    pub bits: Vec<Signal<In, Bit>>,
    /// The word.
    pub word: Signal<Out, Bits<N>>,
}

impl<const N: usize> Pack<N> {
    /// A word of `n <= N` bits (the rest zero).
    pub fn new(n: usize) -> Self {
        assert!(n >= 1 && n <= N, "Pack: {n} bits into {N}");
        Pack {
            bits: (0..n).map(|_| Signal::default()).collect(),
            word: Default::default(),
        }
    }
}

impl<const N: usize> Logic for Pack<N> {
    fn update(&mut self) {
        let mut w = Bits::<N>::default();
        for (i, b) in self.bits.iter().enumerate() {
            w = w.replace_bit(i, b.val());
        }
        self.word.next = w;
    }

    fn connect(&mut self) {
        self.word.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut parts: Vec<String> = (0..self.bits.len())
            .rev()
            .map(|i| format!("bits${i}"))
            .collect();
        if self.bits.len() < N {
            parts.insert(0, format!("{}'d0", N - self.bits.len()));
        }
        Verilog::Custom(format!("always @(*) word = {{{}}};", parts.join(", ")))
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
