//! RustHDL descriptions of the warpgen units and their Verilog emission.
//!
//! Each unit is a rust-hdl block whose widths are const generics, in its
//! own folder (`ba/`, `caps/`): its blocks, its top with the [`RtlUnit`]
//! impl, its storage table, and in `build.rs` the width combinations
//! compiled in and the [`registry::RtlDecl`] impl that builds the one a
//! configuration needs (or says which configurations it can build).
//! Everything else about a configuration (numbers of entries, shift
//! amounts, policy constants, queue depths) is set when the block is built,
//! so one instantiation serves many configurations.
//!
//! Shared machinery: [`registry`] (the [`registry::RtlDecl`] trait),
//! [`storage`] (storage-table types), [`queue`] (the shift queue every unit
//! uses), [`reg`] (the register with synchronous reset), [`section`] (a
//! unit's combinational kernel written in sections), [`util`], and
//! [`emit`] (Verilog emission).
//!
//! Adding a unit: its folder here, `pub mod <unit>;` below, and its line in
//! `ports::for_each_unit!`.

use rust_hdl::prelude::*;

pub mod arith;
pub mod ba;
pub mod caps;
pub mod comb_split;
pub mod dac;
pub mod drive;
pub mod emit;
pub mod mem;
pub mod multiqueue;
pub mod port_glue;
pub mod queue;
pub mod rank;
pub mod reg;
pub mod registry;
pub mod scalar_range;
pub mod section;
pub mod snake;
pub mod storage;
pub mod util;

/// The folder of the hand-written formal property wrappers, `hdl/formal/`:
/// `<unit>_props.sv` states invariants of the checked-in
/// `verilog-out/<unit>.v` (checked by `warpgen prove`).
pub const FORMAL_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/formal");

/// A built unit, driven directly (no threaded test bench) and emitted as
/// Verilog. Port values are flattened as in `ports::UnitSpec`.
pub trait RtlUnit: Send {
    /// The rust-hdl block (for waveform probes).
    fn block(&self) -> &dyn Block;
    /// Emit the unit's Verilog (`emit::emit_unit`).
    fn verilog(&mut self, header: &[String]) -> Result<String, String>;
    /// Put these values on the input ports.
    fn set_inputs(&mut self, values: &[u64]);
    /// Drive the clock.
    fn set_clock(&mut self, high: bool);
    /// Propagate until stable; false if the logic does not settle.
    fn settle(&mut self) -> bool;
    /// Read the output ports.
    fn outputs(&self, out: &mut [u64]);
    /// The block's Rust type with its const generic arguments (checked
    /// against [`registry::RtlDecl::rtl_type`]).
    fn type_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

/// Converts port values between `u64` and rust-hdl signal types.
pub trait PortValue: Synth {
    /// From a flattened port value.
    fn from_u64(v: u64) -> Self;
    /// To a flattened port value.
    fn to_u64(&self) -> u64;
}

impl PortValue for Bit {
    fn from_u64(v: u64) -> Self {
        v & 1 != 0
    }
    fn to_u64(&self) -> u64 {
        *self as u64
    }
}

impl<const N: usize> PortValue for Bits<N> {
    fn from_u64(v: u64) -> Self {
        Bits::<N>::from(v & ports::mask(N as u32))
    }
    fn to_u64(&self) -> u64 {
        self.index() as u64
    }
}
