//! The `warpgen` command line as a library: the unit table, the
//! subcommands and reports, so that the integration tests exercise exactly
//! what users run.
//!
//! Layers, each importing only those below it:
//! - [`cli`]: the parser and one function per subcommand;
//! - the subcommands' work: [`reproduce`], [`sweep`], [`compare`],
//!   [`kernel_compare`], [`bench_harness`], [`reuse`], [`run`] (harness
//!   runs), [`prove`], [`formal`], [`catt`];
//! - [`unit_table`]: every unit as a [`unit_table::UnitCommands`] object,
//!   over the generic per-unit operations [`commands`], [`report`],
//!   [`lockstep`], [`unit_config`], [`combos`];
//! - leaves: [`output`] (files), [`plot`] (SVG charts), [`fusesoc`],
//!   [`origin`] (where a setting came from), [`run_args`].

#[macro_use]
pub mod stdout;
pub mod bench_harness;
pub mod catt;
pub mod cli;
pub mod combos;
pub mod commands;
pub mod compare;
pub mod explore;
pub mod formal;
pub mod fusesoc;
pub mod kernel_compare;
pub mod lockstep;
pub mod origin;
pub mod output;
pub mod plot;
pub mod prove;
pub mod report;
pub mod reproduce;
pub mod reuse;
pub mod run;
pub mod run_args;
pub mod sweep;
pub mod unit_config;
pub mod unit_table;
