//! The units warpgen knows, and per-unit operations dispatched by name.

use std::path::Path;

use anyhow::Context;
use cosim::CosimUnit;
use hdl::storage::StorageReport;
use ports::{ConfigFile, Params};

/// A unit warpgen can generate, co-simulate and report.
pub trait GenUnit: CosimUnit {
    /// The unit's storage table.
    fn storage(p: &Self::Params) -> StorageReport;
    /// What the compiled-in RTL can be built for.
    fn supported() -> &'static str;
}

impl GenUnit for ports::ba::BaTagArray {
    fn storage(p: &ports::ba::BaParams) -> StorageReport {
        hdl::storage::ba_storage(p)
    }
    fn supported() -> &'static str {
        hdl::registry::BA_SUPPORTED
    }
}

impl GenUnit for ports::caps::CapsPrefetcher {
    fn storage(p: &ports::caps::CapsParams) -> StorageReport {
        hdl::storage::caps_storage(p)
    }
    fn supported() -> &'static str {
        hdl::registry::CAPS_SUPPORTED
    }
}

/// Unit names, as on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum UnitName {
    /// Bypass-aware L1 tag array.
    #[value(name = "ba_tag_array")]
    BaTagArray,
    /// CTA-aware prefetcher.
    #[value(name = "caps_prefetcher")]
    CapsPrefetcher,
}

impl UnitName {
    /// Every unit, in report order.
    pub const ALL: &'static [UnitName] = &[UnitName::BaTagArray, UnitName::CapsPrefetcher];

    /// The unit's name.
    pub fn name(self) -> &'static str {
        match self {
            UnitName::BaTagArray => "ba_tag_array",
            UnitName::CapsPrefetcher => "caps_prefetcher",
        }
    }
}

/// Call `$f::<U>(args...)` with `U` the unit type named by `$unit`.
#[macro_export]
macro_rules! with_unit {
    ($unit:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $unit {
            $crate::units::UnitName::BaTagArray => $f::<ports::ba::BaTagArray>($($arg),*),
            $crate::units::UnitName::CapsPrefetcher => {
                $f::<ports::caps::CapsPrefetcher>($($arg),*)
            }
        }
    };
}

/// Load a configuration file, or the defaults when none is given.
pub fn load_config(path: Option<&Path>) -> anyhow::Result<ConfigFile> {
    match path {
        None => Ok(ConfigFile::default()),
        Some(p) => ConfigFile::load(p).map_err(|e| anyhow::anyhow!("{e}")),
    }
}

/// The parameters of `U` from `cfg`, validated.
pub fn params_of<U: GenUnit>(cfg: &ConfigFile) -> anyhow::Result<U::Params> {
    cfg.params::<U::Params>(U::NAME)
        .map_err(|e| anyhow::anyhow!("{}: {e}", U::NAME))
}

/// One-line label of a parameter set.
pub fn label<P: Params>(p: &P) -> String {
    p.list()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Emit `U`'s Verilog for `cfg` (into memory).
pub fn emit<U: GenUnit>(cfg: &ConfigFile) -> anyhow::Result<String> {
    let p = params_of::<U>(cfg)?;
    cosim::emit_verilog::<U>(&p).with_context(|| format!("emitting {}", U::NAME))
}

/// Write `text` to `path` atomically (temporary file in the same folder,
/// then rename), so a failure never leaves a half-written file.
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(d) = dir {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    let tmp = path.with_extension(format!(
        "{}.tmp{}",
        path.extension().and_then(|e| e.to_str()).unwrap_or(""),
        std::process::id()
    ));
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}
