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
//!
//! Each unit's file (`ba.rs`, ...) declares its parameters and ports once
//! ([`declare`]); [`spec`] holds the traits that declaration implements,
//! [`config`] the configuration files, [`error`] their error, [`bits`] the
//! width arithmetic and [`units`] the one list of units.

// First, with `macro_use`: the modules below call `for_each_unit!` by name.
#[macro_use]
pub mod units;

pub mod ba;
pub mod bits;
pub mod caps;
pub mod config;
pub mod dac;
pub mod declare;
pub mod error;
pub mod snake;
pub mod spec;

pub use bits::{clog2, log2_exact, mask};
pub use config::ConfigFile;
pub use error::ConfigError;
pub use spec::{Dir, Params, PortDesc, UnitSpec};
pub use units::UNIT_NAMES;
