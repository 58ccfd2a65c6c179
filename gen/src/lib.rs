//! The `warpgen` command line as a library: unit dispatch, subcommands and
//! reports, so that the integration tests exercise exactly what users run.

pub mod catt;
pub mod commands;
pub mod compare;
pub mod formal;
pub mod fusesoc;
pub mod lockstep;
pub mod origin;
pub mod output;
pub mod plot;
pub mod prove;
pub mod report;
pub mod reproduce;
pub mod reuse;
pub mod run;
pub mod sweep;
pub mod units;
