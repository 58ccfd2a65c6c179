//! `--format` of `warpgen report` and `warpgen catt`.

use clap::ValueEnum;

/// `--format`.
#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Format {
    /// Tables for reading.
    Text,
    /// JSON for scripts.
    Json,
}
