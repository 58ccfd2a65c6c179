//! The units warpgen knows, as one table built from `ports::for_each_unit!`.
//!
//! Each entry of [`UNITS`] is the same generic code instantiated for one
//! unit type; nothing here names a unit. What differs between units (their
//! suite configurations, induction depth, paper figures, harness
//! comparisons) is read from their declarations (`cosim::CosimUnit`,
//! `harness::HarnessUnit`). The command line's unit choices (`--unit`,
//! `--cosim`, `--record`), `warpgen configs`, `report`, `prove`, `bench`
//! and `all` iterate this table.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use cosim::{BackendKind, CosimUnit};
use golden::check::Probe;
use harness::{Choice, HarnessUnit, Kernel, MachineConfig, Role};
use ports::ConfigFile;

use crate::combos::UnitCombination;
use crate::commands::{self, AllRow, BenchRow, CosimArgs, CosimOutcome};
use crate::report::timing::ClockTarget;
use crate::report::unit::{add_unit_timing, unit_report, UnitReport};
use crate::unit_config::{core_file, emit, params_of, suite_configs as suite_of};

/// One unit, with every operation of the command line (the generic
/// functions of [`crate::commands`] and the unit's declared facts,
/// instantiated for its type).
pub trait UnitCommands: Sync {
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
    /// `warpgen report`'s static timing of the unit under `cfg`, with its
    /// declared baseline variant ([`crate::report::add_unit_timing`]), at
    /// `target`'s clock.
    fn add_timing(
        &self,
        r: &mut UnitReport,
        cfg: &ConfigFile,
        target: &ClockTarget,
    ) -> anyhow::Result<()>;
    /// The unit's input ports for the parameters a harness run of `kernel`
    /// on `machine` gives it (`warpgen report --activity`).
    fn harness_inputs(
        &self,
        machine: &MachineConfig,
        kernel: &Kernel,
    ) -> anyhow::Result<Vec<ports::PortDesc>>;
    /// `warpgen configs`.
    fn configs(&self) -> String;
    /// The test suite's configurations of the unit (`cosim::CosimUnit::suite`)
    /// as configuration files, each with its one-line label (`warpgen prove
    /// --all-configs`).
    fn suite_configs(&self) -> anyhow::Result<Vec<(String, ConfigFile)>>;
    /// The k-induction depth of the unit's property check
    /// (`cosim::CosimUnit::INDUCTION_DEPTH`).
    fn induction_depth(&self) -> u32;
    /// The BMC depth of `warpgen prove`'s property check
    /// (`cosim::CosimUnit::BMC_DEPTH`).
    fn bmc_depth(&self) -> u32;
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
    /// The harness slot the unit fills.
    fn role(&self) -> Role;
    /// The names that select the unit for its role.
    fn choices(&self) -> &'static [Choice];
    /// How the harness comparisons run the unit
    /// (`harness::HarnessUnit::LABEL` and the settings beside it).
    fn combination(&self) -> UnitCombination;
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

/// The [`UnitCommands`] of unit type `U`.
pub struct Entry<U>(PhantomData<fn() -> U>);

impl<U> Entry<U> {
    /// The entry (a constant; it holds nothing).
    pub const NEW: Self = Entry(PhantomData);
}

impl<U: CosimUnit + HarnessUnit> UnitCommands for Entry<U> {
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
    fn add_timing(
        &self,
        r: &mut UnitReport,
        cfg: &ConfigFile,
        target: &ClockTarget,
    ) -> anyhow::Result<()> {
        let p = params_of::<U>(cfg)?;
        add_unit_timing::<U>(r, &p, target)
    }
    fn harness_inputs(
        &self,
        machine: &MachineConfig,
        kernel: &Kernel,
    ) -> anyhow::Result<Vec<ports::PortDesc>> {
        let p = harness::unit_params::<U>(machine, kernel)?;
        Ok(<U as ports::UnitSpec>::inputs(&p))
    }
    fn configs(&self) -> String {
        commands::configs_unit::<U>()
    }
    fn suite_configs(&self) -> anyhow::Result<Vec<(String, ConfigFile)>> {
        suite_of::<U>()
    }
    fn induction_depth(&self) -> u32 {
        U::INDUCTION_DEPTH
    }
    fn bmc_depth(&self) -> u32 {
        U::BMC_DEPTH
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
    fn role(&self) -> Role {
        U::ROLE
    }
    fn choices(&self) -> &'static [Choice] {
        U::CHOICES
    }
    fn combination(&self) -> UnitCombination {
        UnitCombination::of::<U>()
    }
    fn harness_checker(
        &self,
        backend: BackendKind,
        machine: &MachineConfig,
        kernel: &Kernel,
        vcd: Option<PathBuf>,
    ) -> anyhow::Result<Box<dyn Probe>> {
        crate::lockstep::harness_checker::<U>(backend, machine, kernel, vcd)
    }
}

macro_rules! table {
    ($($u:path),* $(,)?) => {
        &[$(&Entry::<$u>::NEW as &dyn UnitCommands),*]
    };
}

/// Every unit, in report order (from `ports::for_each_unit!`).
pub static UNITS: &[&dyn UnitCommands] = ports::for_each_unit!(table);

/// The unit named `name`, or an error listing the units.
pub fn unit(name: &str) -> anyhow::Result<&'static dyn UnitCommands> {
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
pub fn selected(name: Option<&str>) -> anyhow::Result<Vec<&'static dyn UnitCommands>> {
    match name {
        None => Ok(UNITS.to_vec()),
        Some(n) => Ok(vec![unit(n)?]),
    }
}

/// Unit `unit`'s suite configurations ([`UnitCommands::suite_configs`]); an
/// error for an unknown unit.
pub fn suite_configs(unit: &str) -> anyhow::Result<Vec<(String, ConfigFile)>> {
    match UNITS.iter().find(|u| u.name() == unit) {
        Some(u) => u.suite_configs(),
        None => Err(anyhow::anyhow!(
            "no suite configurations for unit `{unit}`; units: {}",
            ports::UNIT_NAMES.join(", ")
        )),
    }
}

/// How the harness comparisons run every unit of the table, in table order.
pub fn combinations() -> Vec<UnitCombination> {
    UNITS.iter().map(|u| u.combination()).collect()
}
