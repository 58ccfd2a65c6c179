//! Configuration files (their error type is in [`crate::error`]).
//!
//! A configuration file is TOML with one table per unit, holding parameter
//! overrides by their spec names (upper case):
//!
//! ```toml
//! [ba_tag_array]
//! SETS = 32
//! WAYS = 4
//!
//! [caps_prefetcher]
//! N_CTA = 16
//! ```
//!
//! Parameters not named keep the paper's default. An unknown unit or
//! parameter name is an error, as is a value outside the allowed range.

use std::path::{Path, PathBuf};

pub use crate::error::{check_pow2, check_range, ConfigError};
use crate::spec::{Params, UnitSpec};
use crate::units::UNIT_NAMES;

macro_rules! validators {
    ($($u:path),* $(,)?) => {
        &[$(
            (
                <$u as UnitSpec>::NAME,
                (|cfg: &ConfigFile| {
                    cfg.params::<<$u as UnitSpec>::Params>(<$u as UnitSpec>::NAME)
                        .map(|_| ())
                }) as Validator,
            )
        ),*]
    };
}

/// A check of one unit's table in a configuration file.
type Validator = fn(&ConfigFile) -> Result<(), ConfigError>;

/// Per unit: its name and the check of its table.
const VALIDATORS: &[(&str, Validator)] = for_each_unit!(validators);

/// A parsed configuration file: one TOML table per unit.
#[derive(Clone, Debug, Default)]
pub struct ConfigFile {
    path: Option<PathBuf>,
    table: toml::Table,
}

impl ConfigFile {
    /// Read and parse a file; reject unknown unit tables and any unit's
    /// impossible parameters (the whole file is checked, whichever unit a
    /// command then uses).
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::File {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::parse(&text, Some(path))
    }

    /// Parse configuration text (`path` only labels errors).
    pub fn parse(text: &str, path: Option<&Path>) -> Result<Self, ConfigError> {
        let label = path
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("<inline>"));
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError::File {
                path: label.clone(),
                message: crate::error::toml_error_line(text, &e),
            })?;
        for (k, v) in &table {
            if !UNIT_NAMES.contains(&k.as_str()) {
                return Err(ConfigError::File {
                    path: label,
                    message: format!(
                        "unknown unit table [{k}]; known units: {}",
                        UNIT_NAMES.join(", ")
                    ),
                });
            }
            if !v.is_table() {
                return Err(ConfigError::File {
                    path: label,
                    message: format!("[{k}] must be a table of PARAMETER = value lines"),
                });
            }
        }
        let cfg = ConfigFile {
            path: path.map(Path::to_path_buf),
            table,
        };
        for (unit, check) in VALIDATORS {
            if cfg.mentions(unit) {
                check(&cfg).map_err(|e| match e {
                    ConfigError::Range { .. } => ConfigError::File {
                        path: label.clone(),
                        message: format!("[{unit}]: {e}"),
                    },
                    other => other,
                })?;
            }
        }
        Ok(cfg)
    }

    /// The parameters of `unit`: defaults overridden by the file's table,
    /// then validated.
    pub fn params<P: Params>(&self, unit: &str) -> Result<P, ConfigError> {
        let label = self
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from("<inline>"));
        let p: P = match self.table.get(unit) {
            None => P::default(),
            Some(v) => {
                let t = v.as_table().cloned().unwrap_or_default();
                toml::Value::Table(t.clone())
                    .try_into()
                    .map_err(|e: toml::de::Error| self.type_error::<P>(unit, &t, &e, label))?
            }
        };
        p.validate()?;
        Ok(p)
    }

    /// The error of a table `t` of `unit` that does not convert to `P`:
    /// the first parameter that does not convert on its own, its value and
    /// its line, or the whole table's message.
    fn type_error<P: Params>(
        &self,
        unit: &str,
        t: &toml::Table,
        whole: &toml::de::Error,
        label: PathBuf,
    ) -> ConfigError {
        let text = self
            .path
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok());
        for (k, v) in t {
            let mut one = toml::Table::new();
            one.insert(k.clone(), v.clone());
            if let Err(e) = toml::Value::Table(one).try_into::<P>() {
                let line = text
                    .as_deref()
                    .and_then(|x| crate::error::key_line(x, unit, k))
                    .map_or(String::new(), |l| format!("line {l}: "));
                return ConfigError::File {
                    path: label,
                    message: format!("{line}[{unit}] {k} = {v}: {}", e.message().trim_end()),
                };
            }
        }
        ConfigError::File {
            path: label,
            message: format!("[{unit}]: {}", whole.message().trim_end()),
        }
    }

    /// This configuration with `unit`'s table extended (or overridden) by
    /// `pairs`, checked as a file would be: an unknown parameter or an
    /// impossible value is an error naming it (`warpgen explore`'s points).
    pub fn with_params(&self, unit: &str, pairs: &[(&str, u64)]) -> Result<Self, ConfigError> {
        let mut table = self.table.clone();
        let entry = table
            .entry(unit.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let Some(t) = entry.as_table_mut() {
            for (k, v) in pairs {
                let v = i64::try_from(*v).map_err(|_| ConfigError::File {
                    path: PathBuf::from("<sweep>"),
                    message: format!("[{unit}] {k} = {v}: too large"),
                })?;
                t.insert(k.to_string(), toml::Value::Integer(v));
            }
        }
        let text = toml::to_string(&table).map_err(|e| ConfigError::File {
            path: PathBuf::from("<sweep>"),
            message: e.to_string(),
        })?;
        Self::parse(&text, Some(Path::new("<sweep>")))
    }

    /// Whether the file names `unit` at all.
    pub fn mentions(&self, unit: &str) -> bool {
        self.table.contains_key(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_units_table_is_checked_whichever_unit_is_used() {
        // A bad table of one unit is an error when the file is read, before
        // any command picks a unit.
        for (text, unit) in [
            (
                "[caps_prefetcher]\nN_CTA = 3\n[ba_tag_array]\nWAYS = 4\n",
                "caps_prefetcher",
            ),
            (
                "[caps_prefetcher]\nN_CTA = 8\n[ba_tag_array]\nWAYS = 5\n",
                "ba_tag_array",
            ),
        ] {
            let e = ConfigFile::parse(text, Some(Path::new("c.toml")))
                .unwrap_err()
                .to_string();
            assert!(e.contains("c.toml") && e.contains(unit), "{e}");
        }
        let ok = ConfigFile::parse("[ba_tag_array]\nWAYS = 4\n", None).unwrap();
        assert!(ok.mentions("ba_tag_array") && !ok.mentions("caps_prefetcher"));
    }

    #[test]
    fn unknown_unit_lists_the_units() {
        let e = ConfigFile::parse("[snake]\n", None)
            .unwrap_err()
            .to_string();
        for u in UNIT_NAMES {
            assert!(e.contains(u), "{e}");
        }
    }
}
