//! What every unit declares: its parameter set ([`Params`]) and its static
//! description ([`UnitSpec`]: name, parameters, ports and their packing),
//! with the port description type [`PortDesc`]. Each unit's impls are
//! generated from its one declaration ([`crate::declare_unit!`]).

use crate::error::ConfigError;

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
