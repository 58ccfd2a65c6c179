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

/// Sign-extends an `N`-bit two's-complement value to `M` bits (`M >= N`)
/// with a Verilog replication and concatenation.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct SignExt<const N: usize, const M: usize> {
    /// Narrow input.
    pub narrow: Signal<In, Bits<N>>,
    /// Sign-extended output.
    pub wide: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for SignExt<N, M> {
    fn update(&mut self) {
        let x = self.narrow.val().to_u64();
        let v = if N < 64 && (x >> (N - 1)) & 1 == 1 {
            x | (u64::MAX << N)
        } else {
            x
        };
        self.wide.next = Bits::<M>::from(v & ports::mask(M as u32));
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(M >= N && N >= 1, "SignExt {N} to {M} bits");
        if M == N {
            Verilog::Custom("always @(*) wide = narrow;".into())
        } else {
            Verilog::Custom(format!(
                "always @(*) wide = {{{{{}{{narrow[{}]}}}}, narrow}};",
                M - N,
                N - 1
            ))
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

/// The number of ones in an `N`-bit word (`N` a power of two, 1..=64), as
/// an 8-bit count.
///
/// Emitted as the parallel bit count: pairs, then nibbles, then bytes
/// summed in place with masks (`N`-bit steps), then the bytes added (fast
/// in Verilator, an adder tree in synthesis). Every bit of every step is
/// read, so the block is clean under `verilator -Wall` without waivers.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct PopCount<const N: usize> {
    /// The word.
    pub x: Signal<In, Bits<N>>,
    /// Its ones.
    pub ones: Signal<Out, Bits<8>>,
}

impl<const N: usize> Logic for PopCount<N> {
    fn update(&mut self) {
        let n = self.x.val().to_u64().count_ones() as u64;
        self.ones.next = Bits::<8>::from(n);
    }

    fn connect(&mut self) {
        self.ones.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(popcount_verilog(N))
    }
}

/// The Verilog body of [`PopCount`] for `n` bits.
fn popcount_verilog(n: usize) -> String {
    assert!(
        n.is_power_of_two() && n <= 64,
        "PopCount: a power of two up to 64 bits, not {n}"
    );
    let lit = |v: u64| {
        let m = if n == 64 { v } else { v & ((1u64 << n) - 1) };
        format!("{n}'h{m:x}")
    };
    let mut v = format!("reg [{hi}:0] s1, s2, s3;\n", hi = n - 1);
    v += "always @(*) begin\n";
    v += &format!(
        "    s1 = x - ((x >> 1) & {});\n",
        lit(0x5555_5555_5555_5555)
    );
    v += &format!(
        "    s2 = (s1 & {m}) + ((s1 >> 2) & {m});\n",
        m = lit(0x3333_3333_3333_3333)
    );
    v += &format!(
        "    s3 = (s2 + (s2 >> 4)) & {};\n",
        lit(0x0f0f_0f0f_0f0f_0f0f)
    );
    if n < 8 {
        v += &format!("    ones = {{{}'d0, s3}};\n", 8 - n);
    } else {
        let bytes: Vec<String> = (0..n / 8)
            .map(|j| format!("s3[{}:{}]", 8 * j + 7, 8 * j))
            .collect();
        v += &format!("    ones = {};\n", bytes.join(" + "));
    }
    v += "end";
    v
}

/// The struct expression `Type { field: value, ..., listed: Default::default(), ... }`,
/// written `with_defaults!(Type { field: value, ... } default { listed, ... })`.
///
/// A unit's constructor gives the fields that need a value (blocks sized by
/// the configuration, constants, signal vectors) and lists, several to a
/// line, the many ports, local signals, registers and blocks that start from
/// their `Default`. The compiler still requires every field exactly once.
macro_rules! with_defaults {
    ($ty:ident { $($field:ident: $value:expr),* $(,)? } default { $($default:ident),* $(,)? }) => {
        $ty {
            $($field: $value,)*
            $($default: ::core::default::Default::default(),)*
        }
    };
}

pub(crate) use with_defaults;

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

/// The low `bits` bits set (all 64 from 64 on): the mask of a `bits`-wide
/// field, for building a block's constants.
pub fn low_mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// One `N`-bit constant per value.
pub fn konsts<const N: usize>(vals: impl Iterator<Item = u64>) -> Vec<Constant<Bits<N>>> {
    vals.map(konst::<N>).collect()
}

#[cfg(test)]
mod popcount_tests {
    use super::*;

    fn count<const N: usize>(x: u64) -> u64 {
        let mut b = PopCount::<N>::default();
        b.connect_all();
        b.x.next = Bits::<N>::from(x);
        simulate(&mut b, 10);
        b.ones.val().to_u64()
    }

    #[test]
    fn simulation_counts_and_verilog_reads_every_step() {
        assert_eq!(count::<64>(u64::MAX), 64);
        assert_eq!(count::<64>(0x8000_0000_0000_0001), 2);
        assert_eq!(count::<8>(0xff), 8);
        assert_eq!(count::<4>(0b1011), 3);
        let v = popcount_verilog(64);
        assert!(v.contains("ones = s3[7:0] + s3[15:8]"), "{v}");
        assert!(v.contains("s3[63:56]"), "{v}");
        let v = popcount_verilog(4);
        assert!(v.contains("ones = {4'd0, s3};"), "{v}");
        assert!(v.contains("4'h5"), "{v}");
    }
}
