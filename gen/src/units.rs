//! The units warpgen knows, as one table built from `ports::for_each_unit!`,
//! and the helpers every subcommand shares.
//!
//! Each entry of [`UNITS`] is the same generic code instantiated for one
//! unit type; nothing here names a unit. The command line's unit choices
//! (`--unit`, `--cosim`, `--record`), `warpgen configs`, `report`, `bench`
//! and `all` iterate this table.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use anyhow::Context;
use cosim::{BackendKind, CosimUnit};
use ports::{ConfigFile, Params};
use sim_model::check::Probe;
use sim_model::harness::{Kernel, MachineConfig};

use crate::commands::{self, AllRow, BenchRow, CosimArgs, CosimOutcome};
use crate::report::{unit_report, UnitReport};

/// One unit, with every operation of the command line (the generic
/// functions of [`crate::commands`] instantiated for its type).
pub trait UnitEntry: Sync {
    /// The unit's name (`ports::UnitSpec::NAME`).
    fn name(&self) -> &'static str;
    /// One line: what the unit is.
    fn summary(&self) -> &'static str;
    /// Its specification file (relative to the shared folder).
    fn spec(&self) -> &'static str;
    /// Its document (relative to the repository root).
    fn doc(&self) -> &'static str;
    /// Check the unit's table of a configuration file.
    fn validate(&self, cfg: &ConfigFile) -> anyhow::Result<()>;
    /// The unit's Verilog for `cfg` (in memory).
    fn emit(&self, cfg: &ConfigFile) -> anyhow::Result<String>;
    /// The unit's FuseSoC core file for `cfg` (beside its Verilog;
    /// [`crate::fusesoc::core_file`]).
    fn core_file(&self, cfg: &ConfigFile) -> anyhow::Result<String>;
    /// `warpgen cosim`.
    fn cosim(&self, cfg: &ConfigFile, args: &CosimArgs) -> anyhow::Result<CosimOutcome>;
    /// `warpgen cosim --export-tb`.
    fn export_tb(
        &self,
        cfg: &ConfigFile,
        dir: &Path,
        cycles: u64,
        seed: u64,
    ) -> anyhow::Result<Vec<PathBuf>>;
    /// `warpgen report`.
    fn report(&self, cfg: &ConfigFile, synth: bool) -> anyhow::Result<UnitReport>;
    /// `warpgen configs`.
    fn configs(&self) -> String;
    /// `warpgen bench`.
    fn bench(
        &self,
        cfg: &ConfigFile,
        cycles: u64,
        rusthdl_cycles: u64,
        seed: u64,
        repeat: u32,
    ) -> anyhow::Result<Vec<BenchRow>>;
    /// `warpgen all`'s row.
    fn all(
        &self,
        cfg: &ConfigFile,
        out: &Path,
        backend: BackendKind,
        cycles: u64,
        synth: bool,
    ) -> anyhow::Result<AllRow>;
    /// The unit's RTL in lock-step beside its golden model in a harness
    /// run (`warpgen run --cosim UNIT`): the RTL is built for exactly the
    /// parameters the harness gives the golden model.
    fn harness_checker(
        &self,
        backend: BackendKind,
        machine: &MachineConfig,
        kernel: &Kernel,
        vcd: Option<PathBuf>,
    ) -> anyhow::Result<Box<dyn Probe>>;
}

/// The [`UnitEntry`] of unit type `U`.
pub struct Entry<U>(PhantomData<fn() -> U>);

impl<U> Entry<U> {
    /// The entry (a constant; it holds nothing).
    pub const NEW: Self = Entry(PhantomData);
}

impl<U: CosimUnit> UnitEntry for Entry<U> {
    fn name(&self) -> &'static str {
        U::NAME
    }
    fn summary(&self) -> &'static str {
        U::SUMMARY
    }
    fn spec(&self) -> &'static str {
        U::SPEC
    }
    fn doc(&self) -> &'static str {
        U::DOC
    }
    fn validate(&self, cfg: &ConfigFile) -> anyhow::Result<()> {
        params_of::<U>(cfg).map(|_| ())
    }
    fn emit(&self, cfg: &ConfigFile) -> anyhow::Result<String> {
        emit::<U>(cfg)
    }
    fn core_file(&self, cfg: &ConfigFile) -> anyhow::Result<String> {
        core_file::<U>(cfg)
    }
    fn cosim(&self, cfg: &ConfigFile, args: &CosimArgs) -> anyhow::Result<CosimOutcome> {
        commands::cosim_unit::<U>(cfg, args)
    }
    fn export_tb(
        &self,
        cfg: &ConfigFile,
        dir: &Path,
        cycles: u64,
        seed: u64,
    ) -> anyhow::Result<Vec<PathBuf>> {
        commands::export_tb_unit::<U>(cfg, dir, cycles, seed)
    }
    fn report(&self, cfg: &ConfigFile, synth: bool) -> anyhow::Result<UnitReport> {
        let p = params_of::<U>(cfg)?;
        unit_report::<U>(&p, synth)
    }
    fn configs(&self) -> String {
        commands::configs_unit::<U>()
    }
    fn bench(
        &self,
        cfg: &ConfigFile,
        cycles: u64,
        rusthdl_cycles: u64,
        seed: u64,
        repeat: u32,
    ) -> anyhow::Result<Vec<BenchRow>> {
        commands::bench_unit::<U>(cfg, cycles, rusthdl_cycles, seed, repeat)
    }
    fn all(
        &self,
        cfg: &ConfigFile,
        out: &Path,
        backend: BackendKind,
        cycles: u64,
        synth: bool,
    ) -> anyhow::Result<AllRow> {
        commands::all_unit::<U>(cfg, out, backend, cycles, synth)
    }
    fn harness_checker(
        &self,
        backend: BackendKind,
        machine: &MachineConfig,
        kernel: &Kernel,
        vcd: Option<PathBuf>,
    ) -> anyhow::Result<Box<dyn Probe>> {
        cosim::units::harness_checker::<U>(backend, machine, kernel, vcd)
    }
}

macro_rules! table {
    ($($u:path),* $(,)?) => {
        &[$(&Entry::<$u>::NEW as &dyn UnitEntry),*]
    };
}

/// Every unit, in report order (from `ports::for_each_unit!`).
pub static UNITS: &[&dyn UnitEntry] = ports::for_each_unit!(table);

/// The unit named `name`, or an error listing the units.
pub fn unit(name: &str) -> anyhow::Result<&'static dyn UnitEntry> {
    UNITS
        .iter()
        .copied()
        .find(|u| u.name() == name)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "unknown unit `{name}`; units: {}",
                ports::UNIT_NAMES.join(", ")
            )
        })
}

/// The units named, or every unit when `name` is `None`.
pub fn selected(name: Option<&str>) -> anyhow::Result<Vec<&'static dyn UnitEntry>> {
    match name {
        None => Ok(UNITS.to_vec()),
        Some(n) => Ok(vec![unit(n)?]),
    }
}

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
    cosim::units::params_label(p)
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

/// Write `text` to `path` atomically (temporary file in the same folder,
/// then rename), so a failure never leaves a half-written file, nor a
/// signal a temporary one ([`crate::output::write_atomic`]).
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::output::write_atomic(path, text)
}
