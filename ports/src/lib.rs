//! Port structs, parameters and configuration checks shared by the RTL
//! (`hdl`) and the golden models (`golden`).
//!
//! This crate is the *only* thing the two sides share: each unit's input and
//! output port values as plain Rust structs, its parameter set with the
//! paper's defaults, and the validation of a configuration. Everything that
//! describes behaviour lives on one side or the other, never here.
//!
//! Port values are carried as `u64` (no port is wider than 64 bits,
//! `conventions.md`). Every input struct carries `reset` (the synchronous,
//! active-high reset port); `clock` is implicit in a `step`.

pub mod ba;
pub mod caps;
pub mod config;
pub mod dac;
pub mod snake;
pub mod units;

pub use config::{ConfigError, ConfigFile};
pub use units::UNIT_NAMES;

/// Number of bits needed to index `n` items, minimum 1 (`conventions.md`).
pub fn clog2(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// Exact base-2 logarithm of a power of two (0 for 1).
pub fn log2_exact(n: u64) -> u32 {
    debug_assert!(n.is_power_of_two());
    n.trailing_zeros()
}

/// Mask of the low `width` bits.
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Direction of a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Driven by the environment.
    In,
    /// Driven by the unit.
    Out,
}

/// One port of a unit: its exact Verilog name and its width for a given
/// configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortDesc {
    /// Port name as in the unit's spec (and the emitted Verilog).
    pub name: String,
    /// Width in bits (1..=64).
    pub width: u32,
}

impl PortDesc {
    /// Convenience constructor.
    pub fn new(name: impl Into<String>, width: u32) -> Self {
        PortDesc {
            name: name.into(),
            width,
        }
    }
}

/// A unit's parameter set.
pub trait Params:
    Clone
    + std::fmt::Debug
    + Default
    + PartialEq
    + serde::Serialize
    + serde::de::DeserializeOwned
    + Send
    + Sync
{
    /// Reject an impossible configuration, naming the parameter, its value
    /// and the allowed range.
    fn validate(&self) -> Result<(), ConfigError>;
    /// Every parameter as `(NAME, value)`, in the spec's table order.
    fn list(&self) -> Vec<(&'static str, u64)>;
}

/// The static description of a unit: its name, parameters and ports.
pub trait UnitSpec: 'static {
    /// Unit name as in the spec (`ba_tag_array`, ...); also the Verilog
    /// top-module name and the file name in `verilog-out/`.
    const NAME: &'static str;
    /// Parameter set.
    type Params: Params;
    /// Input port values (including `reset`).
    type In: Clone + Default + std::fmt::Debug + PartialEq + Send;
    /// Output port values.
    type Out: Clone + Default + std::fmt::Debug + PartialEq + Send;
    /// Input ports (without `clock`), in a fixed order.
    fn inputs(p: &Self::Params) -> Vec<PortDesc>;
    /// Output ports, in a fixed order.
    fn outputs(p: &Self::Params) -> Vec<PortDesc>;
    /// Append the inputs, one value per input port in `inputs()` order, to
    /// `out` (per-cycle callers reuse one buffer).
    fn write_in_values(p: &Self::Params, v: &Self::In, out: &mut Vec<u64>);
    /// Flatten inputs to one value per input port, in `inputs()` order.
    fn in_values(p: &Self::Params, v: &Self::In) -> Vec<u64> {
        let mut out = Vec::new();
        Self::write_in_values(p, v, &mut out);
        out
    }
    /// Rebuild inputs from one value per input port.
    fn in_from_values(p: &Self::Params, v: &[u64]) -> Self::In;
    /// Append the outputs, one value per output port in `outputs()` order,
    /// to `out`.
    fn write_out_values(p: &Self::Params, v: &Self::Out, out: &mut Vec<u64>);
    /// Flatten outputs to one value per output port, in `outputs()` order.
    fn out_values(p: &Self::Params, v: &Self::Out) -> Vec<u64> {
        let mut out = Vec::new();
        Self::write_out_values(p, v, &mut out);
        out
    }
    /// Rebuild outputs from one value per output port.
    fn out_from_values(p: &Self::Params, v: &[u64]) -> Self::Out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clog2_matches_conventions() {
        assert_eq!(clog2(1), 1);
        assert_eq!(clog2(2), 1);
        assert_eq!(clog2(3), 2);
        assert_eq!(clog2(8), 3);
        assert_eq!(clog2(9), 4);
        assert_eq!(clog2(48), 6);
    }

    #[test]
    fn mask_widths() {
        assert_eq!(mask(1), 1);
        assert_eq!(mask(32), 0xffff_ffff);
        assert_eq!(mask(64), u64::MAX);
    }
}
