//! A unit's configuration: loading a configuration file, a unit's validated
//! parameters from it, and what follows from them alone (the one-line
//! label, the Verilog, the FuseSoC core file, the configuration file that
//! sets every parameter). Generic over the unit type; the unit table
//! ([`crate::unit_table`]) instantiates it for every unit.

use std::path::Path;

use anyhow::Context;
use cosim::CosimUnit;
use ports::{ConfigFile, Params};

/// Load a configuration file (checked whole: every unit's table), or the
/// defaults when none is given.
pub fn load_config(path: Option<&Path>) -> anyhow::Result<ConfigFile> {
    match path {
        None => Ok(ConfigFile::default()),
        Some(p) => ConfigFile::load(p).map_err(|e| anyhow::anyhow!("{e}")),
    }
}

/// The parameters of `U` from `cfg`, validated.
pub fn params_of<U: CosimUnit>(cfg: &ConfigFile) -> anyhow::Result<U::Params> {
    cfg.params::<U::Params>(U::NAME)
        .map_err(|e| anyhow::anyhow!("{}: {e}", U::NAME))
}

/// One-line label of a parameter set.
pub fn label<P: Params>(p: &P) -> String {
    cosim::unit::params_label(p)
}

/// Emit `U`'s Verilog for `cfg` (into memory).
pub fn emit<U: CosimUnit>(cfg: &ConfigFile) -> anyhow::Result<String> {
    let p = params_of::<U>(cfg)?;
    cosim::emit_verilog::<U>(&p).with_context(|| format!("emitting {}", U::NAME))
}

/// `U`'s FuseSoC core file for `cfg`, listing the parameters as the
/// Verilog header does.
pub fn core_file<U: CosimUnit>(cfg: &ConfigFile) -> anyhow::Result<String> {
    let p = params_of::<U>(cfg)?;
    Ok(crate::fusesoc::core_file(U::NAME, U::SUMMARY, &p.list()))
}

/// The configuration file setting every parameter of `p` for `unit`.
pub fn config_file<P: Params>(unit: &str, p: &P) -> anyhow::Result<ConfigFile> {
    let mut text = format!("[{unit}]\n");
    for (name, value) in p.list() {
        text.push_str(&format!("{name} = {value}\n"));
    }
    ConfigFile::parse(&text, None).map_err(|e| anyhow::anyhow!("{unit}: {e}"))
}

/// `U`'s suite configurations ([`CosimUnit::suite`]) as configuration
/// files, each with its one-line label.
pub fn suite_configs<U: CosimUnit>() -> anyhow::Result<Vec<(String, ConfigFile)>> {
    U::suite()
        .iter()
        .map(|p| Ok((label(p), config_file(U::NAME, p)?)))
        .collect()
}

/// Check that `p` is valid (used by tests and the CLI alike).
pub fn validate<P: Params>(p: &P) -> anyhow::Result<()> {
    p.validate().map_err(|e| anyhow::anyhow!("{e}"))
}
