//! A configuration that cannot be built ([`ConfigError`]), and the range
//! checks of a parameter that report it.

use std::path::PathBuf;

/// A configuration that cannot be built, naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A parameter outside its allowed range.
    #[error("parameter {param} = {value} is out of range: allowed {allowed}")]
    Range {
        /// Parameter name.
        param: String,
        /// The value given.
        value: String,
        /// What would be accepted.
        allowed: String,
    },
    /// The file could not be read or parsed.
    #[error("configuration file {path}: {message}")]
    File {
        /// Path of the file.
        path: PathBuf,
        /// What went wrong (parser message, with line and column).
        message: String,
    },
}

impl ConfigError {
    /// A range error.
    pub fn range(param: &str, value: impl ToString, allowed: impl Into<String>) -> Self {
        ConfigError::Range {
            param: param.to_string(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

/// Check `lo <= v <= hi`.
pub fn check_range(param: &str, v: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
    if v < lo || v > hi {
        Err(ConfigError::range(param, v, format!("{lo}..={hi}")))
    } else {
        Ok(())
    }
}

/// Check that `v` is a power of two within `lo..=hi`.
pub fn check_pow2(param: &str, v: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
    if v < lo || v > hi || !v.is_power_of_two() {
        Err(ConfigError::range(
            param,
            v,
            format!("a power of two in {lo}..={hi}"),
        ))
    } else {
        Ok(())
    }
}
