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
use golden::check::Probe;
use harness::{Kernel, MachineConfig};
use ports::{ConfigFile, Params};

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

impl<U: CosimUnit + harness::HarnessUnit> UnitEntry for Entry<U> {
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
        crate::lockstep::harness_checker::<U>(backend, machine, kernel, vcd)
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

/// Write `text` to `path` atomically (temporary file in the same folder,
/// then rename), so a failure never leaves a half-written file, nor a
/// signal a temporary one ([`crate::output::write_atomic`]).
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::output::write_atomic(path, text)
}

/// The configurations the test suite runs for each unit, in one place: the
/// co-simulation tests (`tests/tests/*_cosim.rs`) iterate these lists, and
/// `warpgen prove --all-configs` proves each of them.
pub mod suite {
    use ports::ba::BaParams;
    use ports::caps::CapsParams;
    use ports::dac::DacParams;
    use ports::snake::SnakeParams;
    use ports::{ConfigFile, Params};

    /// `ba_tag_array`: the paper's 16 x 8, 32 x 4 and 1 x 2, each with the
    /// bypass-aware policy on and off; then each with the second reading
    /// (`BA_POLICY = 1`).
    pub fn ba_tag_array() -> Vec<BaParams> {
        let mut v = Vec::new();
        let geometries = [(16, 8), (32, 4), (1, 2)];
        for (sets, ways) in geometries {
            for ba in [1, 0] {
                v.push(BaParams {
                    SETS: sets,
                    WAYS: ways,
                    BA_ENABLE: ba,
                    ..Default::default()
                });
            }
        }
        for (sets, ways) in geometries {
            v.push(BaParams {
                SETS: sets,
                WAYS: ways,
                BA_POLICY: 1,
                ..Default::default()
            });
        }
        v
    }

    /// `caps_prefetcher`: the paper's; 2 CTAs x 2 PerCTA x 1 DIST with
    /// depth-1 queues; 16 CTAs; a 4-bit counter with threshold 3
    /// (mispredictions cross it quickly).
    pub fn caps_prefetcher() -> Vec<CapsParams> {
        let d = CapsParams::default();
        vec![
            d.clone(),
            CapsParams {
                N_CTA: 2,
                PERCTA_ENTRIES: 2,
                DIST_ENTRIES: 1,
                JOBQ_DEPTH: 1,
                PFQ_DEPTH: 1,
                MAX_ADDRS: 2,
                // The first spec's rule 2 (both values of LOOP_JOBS run).
                LOOP_JOBS: 0,
                ..d.clone()
            },
            CapsParams {
                N_CTA: 16,
                ..d.clone()
            },
            CapsParams {
                CNT_W: 4,
                MISPRED_THRESHOLD: 3,
                // Both values of CNT_DECAY run.
                CNT_DECAY: 1,
                ..d
            },
        ]
    }

    /// `snake_prefetcher`: the paper's; a small SM (8 warps, 4 Tail
    /// entries, depth-1 queues, short chains and throttle); 16 Tail entries
    /// with the whole table as the LRU group and promotion at two warps.
    pub fn snake_prefetcher() -> Vec<SnakeParams> {
        let d = SnakeParams::default();
        vec![
            d.clone(),
            SnakeParams {
                N_WARPS: 8,
                TAIL_ENTRIES: 4,
                LRU_GROUP: 2,
                WALKQ_DEPTH: 1,
                PFQ_DEPTH: 1,
                CHAIN_DEPTH: 2,
                IW_DEGREE: 2,
                THROTTLE_CYCLES: 5,
                ..d.clone()
            },
            SnakeParams {
                TAIL_ENTRIES: 16,
                LRU_GROUP: 16,
                TRAIN_WARPS: 2,
                ..d
            },
        ]
    }

    /// `dac_expander`: the paper's; a small SM (8 warps, a 4-entry ATQ,
    /// per-warp queues of 2); 64 warps.
    pub fn dac_expander() -> Vec<DacParams> {
        let d = DacParams::default();
        vec![
            d.clone(),
            DacParams {
                N_WARPS: 8,
                ATQ_DEPTH: 4,
                PWAQ_DEPTH: 2,
                PWPQ_DEPTH: 2,
                ..d.clone()
            },
            DacParams { N_WARPS: 64, ..d },
        ]
    }

    /// The configuration file setting every parameter of `p` for `unit`.
    pub fn config_file<P: Params>(unit: &str, p: &P) -> anyhow::Result<ConfigFile> {
        let mut text = format!("[{unit}]\n");
        for (name, value) in p.list() {
            text.push_str(&format!("{name} = {value}\n"));
        }
        ConfigFile::parse(&text, None).map_err(|e| anyhow::anyhow!("{unit}: {e}"))
    }

    fn files<P: Params>(unit: &str, list: Vec<P>) -> anyhow::Result<Vec<(String, ConfigFile)>> {
        list.iter()
            .map(|p| Ok((super::label(p), config_file(unit, p)?)))
            .collect()
    }

    /// Unit `unit`'s suite configurations as configuration files, each with
    /// its one-line label; an error for an unknown unit.
    pub fn configs(unit: &str) -> anyhow::Result<Vec<(String, ConfigFile)>> {
        match unit {
            "ba_tag_array" => files(unit, ba_tag_array()),
            "caps_prefetcher" => files(unit, caps_prefetcher()),
            "snake_prefetcher" => files(unit, snake_prefetcher()),
            "dac_expander" => files(unit, dac_expander()),
            _ => Err(anyhow::anyhow!(
                "no suite configurations for unit `{unit}`; units: {}",
                ports::UNIT_NAMES.join(", ")
            )),
        }
    }
}
