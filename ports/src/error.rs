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

/// A TOML parse error of `text` on one line: `line L, column C: MESSAGE`
/// (the `toml` crate's own rendering puts the message on the fifth line,
/// under a code excerpt).
pub fn toml_error_line(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim_end();
    match e.span() {
        Some(span) => {
            let (line, col) = line_col(text, span.start);
            format!("line {line}, column {col}: {message}")
        }
        None => message.to_string(),
    }
}

/// The 1-based line and column (in characters) of byte offset `at` of
/// `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The 1-based line of `key = ...` inside table `[table]` of TOML `text`,
/// if it is written there plainly (for errors found after parsing, where
/// the parsed table has no positions).
pub fn key_line(text: &str, table: &str, key: &str) -> Option<usize> {
    let mut inside = false;
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.starts_with('[') {
            inside = t.trim_start_matches('[').trim_end_matches(']').trim() == table;
            continue;
        }
        if inside {
            if let Some((k, _)) = t.split_once('=') {
                if k.trim().trim_matches('"') == key {
                    return Some(i + 1);
                }
            }
        }
    }
    None
}
