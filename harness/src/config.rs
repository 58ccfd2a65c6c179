//! The machine the harness models: every number of `sm_harness.md`'s
//! baseline table as a configuration value, presets (`fermi` and `volta`
//! below; the papers' machines in `presets/`, [`super::presets`]), and
//! `key=value` overrides.
//!
//! | key | meaning | Fermi | Volta |
//! |---|---|---|---|
//! | `n_sm` | SMs of the modelled GPU (CTA distribution) | 15 | 80 |
//! | `sm_id` | which SM this harness is (`sms = one`) | 0 | 0 |
//! | `sms` | `one`: SM `sm_id` alone, with the CTAs it gets when the grid is dealt in turn; `all`: every SM, sharing the memory below the L1s, CTAs dealt to SMs with room | one | one |
//! | `loads` | `blocking`: a warp waits at its load; `scoreboard`: non-blocking loads, the warp waits at the first instruction reading the value (`use`, `compute N uses`, expressions, a store's value) or at its exit | blocking | blocking |
//! | `cosim_sm` | with `sms = all`: the SM whose units lock-step checkers and recordings attach to | 0 | 0 |
//! | `max_warps` | warp slots per SM (at most 64) | 48 | 64 |
//! | `cta_slots` | CTA slots per SM | 8 | 32 |
//! | `shared_mem_bytes` | shared memory per SM (limits CTAs of kernels with `smem_bytes`) | 49152 | 98304 |
//! | `regs_per_sm` | 32-bit registers per SM: the CATT analysis's register limit on CTAs ([`catt`](super::catt)); 0 = none | 0 | 0 |
//! | `l1_smem_bytes` | the on-chip array the L1 and shared memory share (0 = separate): the CATT analysis sizes the L1 as the rest after the shared-memory carve-out | 0 | 0 |
//! | `sched` | `lrr`, `gto`, `two-level`, `pas` | two-level | gto |
//! | `ready_queue` | ready-queue size of two-level and PAS | 8 | 8 |
//! | `l1` | the L1 tag array: `lru` (native), a unit's choice ([`role_choices`]`(Role::L1)`) or `bypass` (cache nothing; no prefetcher) | lru | lru |
//! | `l1_bytes`, `l1_line`, `l1_ways` | L1 data cache geometry | 16384, 128, 4 | 131072, 128, 4 |
//! | `l1_hit_latency` | cycles from the L1 access to the data (>= 1) | 1 | 1 |
//! | `mshr_entries`, `mshr_merges` | MSHRs and requests merged per MSHR | 32, 8 | 64, 8 |
//! | `miss_queue` | requests waiting for the lower memory | 8 | 16 |
//! | `mem_latency` | cycles from acceptance to data | 400 | 400 |
//! | `mem_interval` | cycles between accepted requests (bandwidth limit) | 2 | 1 |
//! | `prefetcher` | `none` or a unit's choice ([`role_choices`]`(Role::Prefetcher)`) | none | none |
//! | `expander` | `none` or a unit's choice ([`role_choices`]`(Role::Expander)`: `dac`, DAC's affine warp; needs `l1 = lru` and no prefetcher) | none | none |
//! | `decoupled` | the L1's decoupled prefetch storage (Snake): `auto` (on when the prefetcher asks for it), `on`, `off`; needs `l1 = lru` | auto | auto |
//! | `mem_model` | the memory below the L1: `flat` (a queue of `miss_queue`, one request per `mem_interval`, data after `mem_latency`) or `hier` (the keys below; `harness::memsys`) | flat | flat |
//! | `icnt_latency`, `icnt_interval` | hier: one-way interconnect latency; cycles a request occupies its SM's link | 40, 1 | 40, 1 |
//! | `l2_partitions`, `l2_bytes`, `l2_ways` | hier: L2 partitions (by line address), bytes per partition, ways (LRU) | 12, 65536, 8 | 12, 65536, 8 |
//! | `l2_mshrs`, `l2_hit_latency`, `l2_queue` | hier: MSHRs per partition, read-hit latency, input queue per partition | 32, 120, 16 | 32, 120, 16 |
//! | `dram_channels`, `dram_banks`, `dram_row_lines`, `dram_queue` | hier: DRAM channels (dividing the partitions), banks per channel, lines per row, FR-FCFS queue per channel | 6, 16, 16, 16 | 6, 16, 16, 16 |
//! | `dram_t_row_hit`, `dram_t_row_miss`, `dram_t_row_conflict`, `dram_t_burst`, `dram_latency` | hier: bank access time with the row open / none open / another open, data-bus cycles per line, fixed controller latency (CAPS Table III's GDDR5 timing in core cycles: [`MemHier`]) | 18, 36, 55, 6, 200 | same |
//! | `lat_alu`, `lat_sfu`, `lat_dp`, `lat_tensor`, `lat_smem` | cycles from issuing an instruction of the class (integer / fp32, transcendental, fp64, tensor, shared memory) until an instruction reading its result may issue; 1 = next cycle ([`Latencies`]) | 1 each | 1 each |
//! | `ii_sfu`, `ii_dp`, `ii_tensor` | initiation interval: cycles the SM's pipeline of the class is busy with one warp instruction | 1 each | 1 each |
//! | `bw_window` | cycles over which `bw_util` (the prefetcher's bandwidth input) is measured | 100 | 100 |
//! | `eager_wakeup` | promote a pending warp when a prefetch for it returns (two-level / PAS) | true | true |
//! | `caps_hint` | show the prefetcher the kernel's indirect-load classification (else never indirect) | true | true |
//! | `reuse_analysis` | classify the L1 access stream by reuse distance | true | true |
//! | `interwarp_probe` | score inter-warp stride and CTA-aware address predictions for warp distances 1..=N (CAPS Figure 1; [`interwarp`](super::interwarp)); 0 = off, at most 64 | 0 | 0 |
//! | `fast_forward` | skip idle cycles when no unit model is attached | true | true |
//! | `max_cycles` | a run longer than this is an error | 50000000 | 50000000 |
//! | `reset_cycles` | cycles with `reset = 1` at the start | 1 | 1 |
//! | `seed` | seed of the synthetic array contents | 1 | 1 |
//! | `KEY.NAME` | parameter `NAME` (spec name) of the unit whose override key is `KEY` (`caps.MISPRED_THRESHOLD`, `ba.REUSE_THRESHOLD`) | derived | derived |
//!
//! A unit's parameters follow the machine and the kernel as its declaration
//! says ([`HarnessUnit::params`], in the unit's `role.rs`), then the
//! `KEY.NAME` overrides apply; [`unit_params`] gives the result.
//!
//! [`HarnessUnit::params`]: super::units::HarnessUnit::params
//! [`unit_params`]: super::units::unit_params

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::roles::Role;
use super::units::{self, canonical_choice, or_list, role_choices};

/// Warp scheduling policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedPolicy {
    /// Loose round robin: the first ready warp after the last one issued.
    Lrr,
    /// Greedy then oldest: the last warp while it can issue, else the oldest.
    Gto,
    /// Two-level: a ready queue of `ready_queue` warps (oldest first); a
    /// warp waiting on memory goes to the pending queue.
    TwoLevel,
    /// Prefetch-aware (the CAPS paper's PAS): two-level with the leading
    /// warps of each CTA (as the prefetcher marks them; warp 0 by default)
    /// pushed to the front of the ready queue when ready ("PAS pushes
    /// warps that have this marker set to the front of the ready queue",
    /// CAPS section V-A; a full queue sends its last non-leading warp to
    /// the pending queue) and issued first.
    Pas,
}

impl SchedPolicy {
    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SchedPolicy::Lrr => "lrr",
            SchedPolicy::Gto => "gto",
            SchedPolicy::TwoLevel => "two-level",
            SchedPolicy::Pas => "pas",
        }
    }
    /// Parse a command-line name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "lrr" => SchedPolicy::Lrr,
            "gto" => SchedPolicy::Gto,
            "two-level" | "two_level" | "2lev" => SchedPolicy::TwoLevel,
            "pas" => SchedPolicy::Pas,
            _ => return None,
        })
    }
}

/// Whether the L1 runs in decoupled mode (`harness::decoupled`: prefetched
/// lines flagged, the L1 side capped until the prefetcher trains, bulk
/// free-ups).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decoupling {
    /// On when the selected prefetcher's declaration asks for it
    /// (`HarnessUnit::DECOUPLED_L1`: Snake), else off.
    Auto,
    /// Always on (any prefetcher; the native LRU tag array only).
    On,
    /// Always off: prefetches are allocated as load misses are.
    Off,
}

impl Decoupling {
    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Decoupling::Auto => "auto",
            Decoupling::On => "on",
            Decoupling::Off => "off",
        }
    }
}

/// How loads wait for their data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadModel {
    /// The warp waits at the load until every line is back (the first
    /// harness).
    #[default]
    Blocking,
    /// Non-blocking: the warp goes on and waits at the first instruction
    /// that reads the loaded value (a per-warp scoreboard), or at its exit
    /// while loads are in flight. Traces keep blocking loads (their
    /// registers are not read).
    Scoreboard,
}

/// Which SMs a run models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SmScope {
    /// SM `sm_id` alone, with the CTAs it gets when the grid is dealt in
    /// turn over `n_sm` SMs (the first harness).
    #[default]
    One,
    /// All `n_sm` SMs, sharing the memory below their L1s, CTAs dealt to
    /// the SMs with room as they free it.
    All,
}

/// The memory below the L1s (`harness::memsys`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemModel {
    /// The first harness's model: per SM a queue, a bandwidth limit and a
    /// fixed latency (`miss_queue`, `mem_interval`, `mem_latency`).
    #[default]
    Flat,
    /// Interconnect, L2 partitions and DRAM channels with FR-FCFS (the
    /// `icnt_*`, `l2_*` and `dram_*` keys).
    Hier,
}

impl MemModel {
    /// Name as in the configuration.
    pub fn name(self) -> &'static str {
        match self {
            MemModel::Flat => "flat",
            MemModel::Hier => "hier",
        }
    }
}

/// The hierarchy's parameters (`mem_model = hier`); the defaults follow
/// the CAPS paper's Table III (GTX 480) in core cycles at 1400 MHz (DRAM at
/// 924 MHz: one DRAM cycle is 1.515 core cycles), with the latencies the
/// table does not give chosen for an unloaded L2 hit of 200 and DRAM read
/// of about 340 core cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemHier {
    /// One-way interconnect latency, cycles.
    pub icnt_latency: u32,
    /// Cycles one request occupies its SM's injection link.
    pub icnt_interval: u32,
    /// L2 partitions (Table III: 12).
    pub l2_partitions: u32,
    /// L2 bytes per partition (Table III: 64 KB).
    pub l2_bytes: u32,
    /// L2 associativity (Table III: 8).
    pub l2_ways: u32,
    /// MSHRs per partition (Table III: 32).
    pub l2_mshrs: u32,
    /// Cycles from an L2 read hit to its reply leaving the partition.
    pub l2_hit_latency: u32,
    /// Input queue of a partition (requests in flight to it included).
    pub l2_queue: u32,
    /// DRAM channels (Table III: 6); the partitions divide among them.
    pub dram_channels: u32,
    /// Banks per channel (GDDR5: 16).
    pub dram_banks: u32,
    /// Lines per DRAM row (16: 2 KB rows).
    pub dram_row_lines: u32,
    /// Scheduler queue per channel (Table III: 16).
    pub dram_queue: u32,
    /// Access time with the row open: tCL = 12 DRAM cycles = 18 core
    /// cycles.
    pub dram_t_row_hit: u32,
    /// With no row open: tRCD + tCL = 24 DRAM cycles = 36.
    pub dram_t_row_miss: u32,
    /// With another row open: tRP + tRCD + tCL = 36 DRAM cycles = 55.
    pub dram_t_row_conflict: u32,
    /// Data-bus cycles per 128-byte line (4 DRAM cycles = 6).
    pub dram_t_burst: u32,
    /// The controller's and the pins' fixed latency per read, cycles.
    pub dram_latency: u32,
}

impl Default for MemHier {
    fn default() -> Self {
        MemHier {
            icnt_latency: 40,
            icnt_interval: 1,
            l2_partitions: 12,
            l2_bytes: 64 * 1024,
            l2_ways: 8,
            l2_mshrs: 32,
            l2_hit_latency: 120,
            l2_queue: 16,
            dram_channels: 6,
            dram_banks: 16,
            dram_row_lines: 16,
            dram_queue: 16,
            dram_t_row_hit: 18,
            dram_t_row_miss: 36,
            dram_t_row_conflict: 55,
            dram_t_burst: 6,
            dram_latency: 200,
        }
    }
}

/// Instruction timing by class (`lat_*`, `ii_*`): the register scoreboard
/// of every warp (a result is ready `lat` cycles after its instruction
/// issued; an instruction issues once the registers it reads and writes
/// are ready) and the SM's special pipelines (busy `ii` cycles per warp
/// instruction). All 1 in the `fermi` and `volta` machines: the first
/// harness's timing, where every result is ready the next cycle. The paper
/// presets set GPGPU-Sim's values for the GPU they model.
///
/// Classes: `alu` (integer and fp32 arithmetic, moves, comparisons: a
/// kernel file's `let`, `if`, loop instructions and `compute N`), `sfu`
/// (transcendentals: SASS `MUFU`, `compute N sfu`), `dp` (fp64: SASS
/// `D*`), `tensor` (SASS `HMMA`/`IMMA`), `smem` (shared-memory accesses:
/// SASS `LDS`/`STS`/`ATOMS`, `compute N smem`). Global loads are timed by
/// the memory system; control instructions have no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Latencies {
    /// Result latency of `alu` instructions.
    pub alu: u32,
    /// Result latency of `sfu` instructions.
    pub sfu: u32,
    /// Result latency of `dp` instructions.
    pub dp: u32,
    /// Result latency of `tensor` instructions.
    pub tensor: u32,
    /// Result latency of `smem` instructions.
    pub smem: u32,
    /// Initiation interval of the SFU pipeline.
    pub ii_sfu: u32,
    /// Initiation interval of the fp64 pipeline.
    pub ii_dp: u32,
    /// Initiation interval of the tensor pipeline.
    pub ii_tensor: u32,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies {
            alu: 1,
            sfu: 1,
            dp: 1,
            tensor: 1,
            smem: 1,
            ii_sfu: 1,
            ii_dp: 1,
            ii_tensor: 1,
        }
    }
}

/// The timing class of an instruction ([`Latencies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstrClass {
    /// Integer and fp32 arithmetic, moves, comparisons, control.
    #[default]
    Alu,
    /// Transcendentals (the SFU).
    Sfu,
    /// fp64.
    Dp,
    /// Tensor-core matrix instructions.
    Tensor,
    /// Shared-memory accesses.
    Smem,
}

impl InstrClass {
    /// Every class, in the order of [`InstrClass::NAMES`].
    pub const ALL: [InstrClass; 5] = [
        InstrClass::Alu,
        InstrClass::Sfu,
        InstrClass::Dp,
        InstrClass::Tensor,
        InstrClass::Smem,
    ];
    /// The names of the classes (kernel files: `compute N CLASS`).
    pub const NAMES: [&'static str; 5] = ["alu", "sfu", "dp", "tensor", "smem"];

    /// The class named `name` (`alu`, `sfu`, `dp`, `tensor`, `smem`).
    pub fn parse(name: &str) -> Option<InstrClass> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }

    /// The class of a SASS opcode (`MUFU.RSQ`, `DFMA`, `HMMA.884.F32`,
    /// `LDS.U.128`, ...): Accel-Sim's grouping of opcodes into functional
    /// units. Global and local memory instructions are not timed by a
    /// class (the memory system times them); they come out `alu`.
    pub fn of_sass(opcode: &str) -> InstrClass {
        let base = opcode.split('.').next().unwrap_or("");
        match base {
            "MUFU" | "RRO" => InstrClass::Sfu,
            "DADD" | "DMUL" | "DFMA" | "DSETP" | "DSET" | "DMNMX" => InstrClass::Dp,
            "HMMA" | "IMMA" | "BMMA" | "DMMA" | "HGMMA" => InstrClass::Tensor,
            "LDS" | "STS" | "ATOMS" | "LDSM" => InstrClass::Smem,
            _ => InstrClass::Alu,
        }
    }

    /// Cycles from issue until a reader of the result may issue.
    pub fn latency(self, l: &Latencies) -> u32 {
        match self {
            InstrClass::Alu => l.alu,
            InstrClass::Sfu => l.sfu,
            InstrClass::Dp => l.dp,
            InstrClass::Tensor => l.tensor,
            InstrClass::Smem => l.smem,
        }
    }

    /// The SM pipeline the class occupies for an initiation interval
    /// (index into `[sfu, dp, tensor]`), if any.
    pub fn pipe(self) -> Option<usize> {
        match self {
            InstrClass::Sfu => Some(0),
            InstrClass::Dp => Some(1),
            InstrClass::Tensor => Some(2),
            InstrClass::Alu | InstrClass::Smem => None,
        }
    }

    /// The initiation intervals of the pipelines `[sfu, dp, tensor]`.
    pub fn intervals(l: &Latencies) -> [u32; 3] {
        [l.ii_sfu, l.ii_dp, l.ii_tensor]
    }
}

/// A configuration value that cannot be used: the key, the value and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("configuration `{key}` = {value}: {reason}")]
pub struct MachineConfigError {
    /// The configuration key (`l1_ways`, `caps.N_CTA`, ...).
    pub key: String,
    /// The value given.
    pub value: String,
    /// What is wrong, or what would be accepted.
    pub reason: String,
}

impl MachineConfigError {
    /// The error for `key` = `value`, with the reason (also used by units'
    /// machine checks, `HarnessUnit::check_machine`).
    pub fn new(key: &str, value: impl ToString, reason: impl Into<String>) -> Self {
        MachineConfigError {
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}

/// Every number of the modelled SM (see the module documentation for the
/// keys and the presets).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineConfig {
    /// Preset this configuration started from (`fermi`, `volta`).
    pub preset: String,
    /// SMs of the modelled GPU.
    pub n_sm: u32,
    /// Index of the modelled SM (0..n_sm) when `sms = one`.
    pub sm_id: u32,
    /// `one` (SM `sm_id`) or `all` SMs.
    #[serde(default)]
    pub sms: SmScope,
    /// `blocking` or `scoreboard` (non-blocking) loads.
    #[serde(default)]
    pub loads: LoadModel,
    /// With `sms = all`: the SM whose units lock-step checkers and
    /// recordings attach to.
    #[serde(default)]
    pub cosim_sm: u32,
    /// Warp slots per SM (1..=64).
    pub max_warps: u32,
    /// CTA slots per SM.
    pub cta_slots: u32,
    /// Shared memory per SM in bytes.
    pub shared_mem_bytes: u32,
    /// 32-bit registers per SM (0: not modelled), for the CATT analysis's
    /// register limit on CTAs per SM.
    #[serde(default)]
    pub regs_per_sm: u32,
    /// The on-chip array the L1 and shared memory share (Volta's 128 KB;
    /// 0: separate arrays), for the CATT analysis's choice of the L1 size.
    #[serde(default)]
    pub l1_smem_bytes: u32,
    /// Warp scheduler.
    pub sched: SchedPolicy,
    /// Ready-queue size of the two-level and PAS schedulers.
    pub ready_queue: u32,
    /// L1 tag array: `lru` (native) or a unit's choice for [`Role::L1`]
    /// (canonical name, as [`MachineConfig::set`] stores it).
    pub l1: String,
    /// L1 capacity in bytes.
    pub l1_bytes: u32,
    /// L1 line size in bytes (the coalescing granularity).
    pub l1_line: u32,
    /// L1 associativity.
    pub l1_ways: u32,
    /// Cycles from an L1 hit to the data (>= 1).
    pub l1_hit_latency: u32,
    /// MSHR entries.
    pub mshr_entries: u32,
    /// Requests merged into one MSHR entry (including the first).
    pub mshr_merges: u32,
    /// Requests waiting for the lower memory.
    pub miss_queue: u32,
    /// Lower-memory latency in cycles.
    pub mem_latency: u32,
    /// Cycles between two requests accepted by the lower memory.
    pub mem_interval: u32,
    /// The memory below the L1s: `flat` or `hier`.
    #[serde(default)]
    pub mem_model: MemModel,
    /// The hierarchy's parameters (used with `mem_model = hier`).
    #[serde(default)]
    pub hier: MemHier,
    /// Instruction timing by class (`lat_*`, `ii_*`).
    #[serde(default)]
    pub lat: Latencies,
    /// Prefetcher: `none` or a unit's choice for [`Role::Prefetcher`].
    pub prefetcher: String,
    /// Expansion unit: `none` or a unit's choice for [`Role::Expander`]
    /// (`dac`: DAC's affine warp and `dac_expander`).
    #[serde(default = "no_expander")]
    pub expander: String,
    /// The L1's decoupled mode ([`MachineConfig::decoupled_l1`] resolves
    /// `auto`).
    #[serde(default = "auto")]
    pub decoupled: Decoupling,
    /// Cycles over which the lower memory's bandwidth utilisation shown to
    /// the prefetcher (`bw_util`) is measured.
    #[serde(default = "bw_window")]
    pub bw_window: u32,
    /// Eager warp wake-up on prefetch return (two-level and PAS).
    pub eager_wakeup: bool,
    /// Show the prefetcher which loads are indirect (from the expression
    /// classification); else every load is shown as direct.
    pub caps_hint: bool,
    /// Reuse-distance classification of the L1 access stream.
    pub reuse_analysis: bool,
    /// Warp distances the inter-warp probe scores (0 = no probe).
    #[serde(default)]
    pub interwarp_probe: u32,
    /// Skip idle cycles when no unit model is attached.
    pub fast_forward: bool,
    /// Upper bound on simulated cycles.
    pub max_cycles: u64,
    /// Cycles with `reset = 1` at the start (>= 1).
    pub reset_cycles: u32,
    /// Seed of the synthetic array contents.
    pub seed: u64,
    /// Unit parameter overrides (`KEY.NAME=value`): by the unit's override
    /// key, then by parameter name (spec names).
    #[serde(default)]
    pub overrides: BTreeMap<String, BTreeMap<String, u64>>,
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig::fermi()
    }
}

impl MachineConfig {
    /// The Fermi-like baseline of the CAPS, DAC and BA-cache papers.
    pub fn fermi() -> Self {
        MachineConfig {
            preset: "fermi".into(),
            n_sm: 15,
            sm_id: 0,
            sms: SmScope::One,
            loads: LoadModel::Blocking,
            cosim_sm: 0,
            max_warps: 48,
            cta_slots: 8,
            shared_mem_bytes: 48 * 1024,
            regs_per_sm: 0,
            l1_smem_bytes: 0,
            sched: SchedPolicy::TwoLevel,
            ready_queue: 8,
            l1: Role::L1.native().name.into(),
            l1_bytes: 16 * 1024,
            l1_line: 128,
            l1_ways: 4,
            l1_hit_latency: 1,
            mshr_entries: 32,
            mshr_merges: 8,
            miss_queue: 8,
            mem_latency: 400,
            mem_interval: 2,
            mem_model: MemModel::Flat,
            hier: MemHier::default(),
            lat: Latencies::default(),
            prefetcher: Role::Prefetcher.native().name.into(),
            expander: no_expander(),
            decoupled: Decoupling::Auto,
            bw_window: bw_window(),
            eager_wakeup: true,
            caps_hint: true,
            reuse_analysis: true,
            interwarp_probe: 0,
            fast_forward: true,
            max_cycles: 50_000_000,
            reset_cycles: 1,
            seed: 1,
            overrides: BTreeMap::new(),
        }
    }

    /// The Volta-like machine of the Snake and CATT papers (64 warps, 32
    /// CTAs, 128 KB L1, GTO).
    pub fn volta() -> Self {
        MachineConfig {
            preset: "volta".into(),
            n_sm: 80,
            max_warps: 64,
            cta_slots: 32,
            shared_mem_bytes: 96 * 1024,
            regs_per_sm: 0,
            l1_smem_bytes: 0,
            sched: SchedPolicy::Gto,
            l1_bytes: 128 * 1024,
            mshr_entries: 64,
            miss_queue: 16,
            mem_interval: 1,
            ..MachineConfig::fermi()
        }
    }

    /// A preset by name: `fermi`, `volta`, or a paper's
    /// ([`super::presets::names`]: `caps-gtx480`, `ba-thesis`,
    /// `snake-v100`, `dac-gtx480`, `catt-titanv`, each quoting its paper's
    /// configuration table in `presets/NAME.toml`).
    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "fermi" => Some(Self::fermi()),
            "volta" => Some(Self::volta()),
            // The files are checked in and tested: a failure is a bug.
            _ => super::presets::machine(name).map(|r| r.unwrap_or_else(|e| panic!("{e}"))),
        }
    }

    /// Set one value by its key (module documentation). Values are integers
    /// (decimal or `0x` hex), `true`/`false`, or the policy names.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), MachineConfigError> {
        let v = value.trim();
        let int = |k: &str| -> Result<u64, MachineConfigError> {
            parse_u64(v).ok_or_else(|| MachineConfigError::new(k, v, "expected an integer"))
        };
        let int32 = |k: &str| -> Result<u32, MachineConfigError> {
            let x = int(k)?;
            u32::try_from(x).map_err(|_| MachineConfigError::new(k, v, "too large"))
        };
        let boolean = |k: &str| -> Result<bool, MachineConfigError> {
            match v {
                "true" | "1" | "yes" | "on" => Ok(true),
                "false" | "0" | "no" | "off" => Ok(false),
                _ => Err(MachineConfigError::new(k, v, "expected true or false")),
            }
        };
        if let Some((prefix, name)) = key.split_once('.') {
            if let Some(u) = units::unit_by_key(prefix) {
                let names = u.param_names();
                if !names.contains(&name) {
                    return Err(MachineConfigError::new(
                        key,
                        v,
                        format!(
                            "unknown {} parameter; known: {}",
                            u.name(),
                            names.join(", ")
                        ),
                    ));
                }
                let x = int(key)?;
                self.overrides
                    .entry(prefix.to_string())
                    .or_default()
                    .insert(name.to_string(), x);
                return Ok(());
            }
        }
        let choice = |role: Role| -> Result<String, MachineConfigError> {
            canonical_choice(role, v)
                .map(str::to_string)
                .ok_or_else(|| choice_error(role, v))
        };
        match key {
            "n_sm" => self.n_sm = int32(key)?,
            "sm_id" => self.sm_id = int32(key)?,
            "sms" => {
                self.sms = match v {
                    "one" => SmScope::One,
                    "all" => SmScope::All,
                    _ => return Err(MachineConfigError::new(key, v, "expected one or all")),
                }
            }
            "cosim_sm" => self.cosim_sm = int32(key)?,
            "loads" => {
                self.loads = match v {
                    "blocking" => LoadModel::Blocking,
                    "scoreboard" => LoadModel::Scoreboard,
                    _ => {
                        return Err(MachineConfigError::new(
                            key,
                            v,
                            "expected blocking or scoreboard",
                        ))
                    }
                }
            }
            "max_warps" => self.max_warps = int32(key)?,
            "cta_slots" => self.cta_slots = int32(key)?,
            "shared_mem_bytes" => self.shared_mem_bytes = int32(key)?,
            "regs_per_sm" => self.regs_per_sm = int32(key)?,
            "l1_smem_bytes" => self.l1_smem_bytes = int32(key)?,
            "sched" => {
                self.sched = SchedPolicy::parse(v).ok_or_else(|| {
                    MachineConfigError::new(key, v, "expected lrr, gto, two-level or pas")
                })?
            }
            "ready_queue" => self.ready_queue = int32(key)?,
            "l1" => self.l1 = choice(Role::L1)?,
            "l1_bytes" => self.l1_bytes = int32(key)?,
            "l1_line" => self.l1_line = int32(key)?,
            "l1_ways" => self.l1_ways = int32(key)?,
            "l1_hit_latency" => self.l1_hit_latency = int32(key)?,
            "mshr_entries" => self.mshr_entries = int32(key)?,
            "mshr_merges" => self.mshr_merges = int32(key)?,
            "miss_queue" => self.miss_queue = int32(key)?,
            "mem_latency" => self.mem_latency = int32(key)?,
            "mem_interval" => self.mem_interval = int32(key)?,
            "prefetcher" => self.prefetcher = choice(Role::Prefetcher)?,
            "expander" => self.expander = choice(Role::Expander)?,
            "decoupled" => {
                self.decoupled = match v {
                    "auto" => Decoupling::Auto,
                    "true" | "1" | "yes" | "on" => Decoupling::On,
                    "false" | "0" | "no" | "off" => Decoupling::Off,
                    _ => return Err(MachineConfigError::new(key, v, "expected auto, on or off")),
                }
            }
            "bw_window" => self.bw_window = int32(key)?,
            "mem_model" => {
                self.mem_model = match v {
                    "flat" => MemModel::Flat,
                    "hier" => MemModel::Hier,
                    _ => return Err(MachineConfigError::new(key, v, "expected flat or hier")),
                }
            }
            "icnt_latency" => self.hier.icnt_latency = int32(key)?,
            "icnt_interval" => self.hier.icnt_interval = int32(key)?,
            "l2_partitions" => self.hier.l2_partitions = int32(key)?,
            "l2_bytes" => self.hier.l2_bytes = int32(key)?,
            "l2_ways" => self.hier.l2_ways = int32(key)?,
            "l2_mshrs" => self.hier.l2_mshrs = int32(key)?,
            "l2_hit_latency" => self.hier.l2_hit_latency = int32(key)?,
            "l2_queue" => self.hier.l2_queue = int32(key)?,
            "dram_channels" => self.hier.dram_channels = int32(key)?,
            "dram_banks" => self.hier.dram_banks = int32(key)?,
            "dram_row_lines" => self.hier.dram_row_lines = int32(key)?,
            "dram_queue" => self.hier.dram_queue = int32(key)?,
            "dram_t_row_hit" => self.hier.dram_t_row_hit = int32(key)?,
            "dram_t_row_miss" => self.hier.dram_t_row_miss = int32(key)?,
            "dram_t_row_conflict" => self.hier.dram_t_row_conflict = int32(key)?,
            "dram_t_burst" => self.hier.dram_t_burst = int32(key)?,
            "dram_latency" => self.hier.dram_latency = int32(key)?,
            "lat_alu" => self.lat.alu = int32(key)?,
            "lat_sfu" => self.lat.sfu = int32(key)?,
            "lat_dp" => self.lat.dp = int32(key)?,
            "lat_tensor" => self.lat.tensor = int32(key)?,
            "lat_smem" => self.lat.smem = int32(key)?,
            "ii_sfu" => self.lat.ii_sfu = int32(key)?,
            "ii_dp" => self.lat.ii_dp = int32(key)?,
            "ii_tensor" => self.lat.ii_tensor = int32(key)?,
            "eager_wakeup" => self.eager_wakeup = boolean(key)?,
            "caps_hint" => self.caps_hint = boolean(key)?,
            "reuse_analysis" => self.reuse_analysis = boolean(key)?,
            "interwarp_probe" => self.interwarp_probe = int32(key)?,
            "fast_forward" => self.fast_forward = boolean(key)?,
            "max_cycles" => self.max_cycles = int(key)?,
            "reset_cycles" => self.reset_cycles = int32(key)?,
            "seed" => self.seed = int(key)?,
            _ => return Err(MachineConfigError::new(key, v, unknown_key_reason())),
        }
        Ok(())
    }

    /// Number of L1 sets.
    pub fn l1_sets(&self) -> u32 {
        self.l1_bytes / (self.l1_line * self.l1_ways)
    }

    /// Reject a configuration the harness cannot model.
    pub fn validate(&self) -> Result<(), MachineConfigError> {
        let range = |k: &str, v: u64, lo: u64, hi: u64| {
            if v < lo || v > hi {
                Err(MachineConfigError::new(
                    k,
                    v,
                    format!("allowed {lo}..={hi}"),
                ))
            } else {
                Ok(())
            }
        };
        let pow2 = |k: &str, v: u64| {
            if v.is_power_of_two() {
                Ok(())
            } else {
                Err(MachineConfigError::new(k, v, "must be a power of two"))
            }
        };
        range("n_sm", self.n_sm as u64, 1, 1 << 16)?;
        range("interwarp_probe", self.interwarp_probe as u64, 0, 64)?;
        range("sm_id", self.sm_id as u64, 0, self.n_sm as u64 - 1)?;
        range("cosim_sm", self.cosim_sm as u64, 0, self.n_sm as u64 - 1)?;
        range("max_warps", self.max_warps as u64, 1, 64)?;
        range("cta_slots", self.cta_slots as u64, 1, 64)?;
        range("ready_queue", self.ready_queue as u64, 1, 64)?;
        pow2("l1_line", self.l1_line as u64)?;
        range("l1_line", self.l1_line as u64, 32, 4096)?;
        range("l1_ways", self.l1_ways as u64, 1, 256)?;
        if !self.l1_bytes.is_multiple_of(self.l1_line * self.l1_ways) || self.l1_sets() == 0 {
            return Err(MachineConfigError::new(
                "l1_bytes",
                self.l1_bytes,
                format!(
                    "must be a multiple of l1_line * l1_ways = {}",
                    self.l1_line * self.l1_ways
                ),
            ));
        }
        range("l1_hit_latency", self.l1_hit_latency as u64, 1, 10_000)?;
        range("mshr_entries", self.mshr_entries as u64, 1, 4096)?;
        range("mshr_merges", self.mshr_merges as u64, 1, 64)?;
        range("miss_queue", self.miss_queue as u64, 1, 4096)?;
        range("mem_latency", self.mem_latency as u64, 1, 1_000_000)?;
        range("mem_interval", self.mem_interval as u64, 1, 1_000_000)?;
        range("reset_cycles", self.reset_cycles as u64, 1, 1000)?;
        range("bw_window", self.bw_window as u64, 1, 1_000_000)?;
        let h = &self.hier;
        range("icnt_latency", h.icnt_latency as u64, 0, 100_000)?;
        range("icnt_interval", h.icnt_interval as u64, 1, 10_000)?;
        range("l2_partitions", h.l2_partitions as u64, 1, 256)?;
        range("l2_ways", h.l2_ways as u64, 1, 64)?;
        if !h.l2_bytes.is_multiple_of(self.l1_line * h.l2_ways)
            || h.l2_bytes < self.l1_line * h.l2_ways
        {
            return Err(MachineConfigError::new(
                "l2_bytes",
                h.l2_bytes,
                format!(
                    "must be a positive multiple of l1_line * l2_ways = {}",
                    self.l1_line * h.l2_ways
                ),
            ));
        }
        range("l2_mshrs", h.l2_mshrs as u64, 1, 4096)?;
        range("l2_hit_latency", h.l2_hit_latency as u64, 0, 100_000)?;
        range("l2_queue", h.l2_queue as u64, 1, 4096)?;
        range(
            "dram_channels",
            h.dram_channels as u64,
            1,
            h.l2_partitions as u64,
        )?;
        if !h.l2_partitions.is_multiple_of(h.dram_channels) {
            return Err(MachineConfigError::new(
                "dram_channels",
                h.dram_channels,
                format!("must divide l2_partitions = {}", h.l2_partitions),
            ));
        }
        range("dram_banks", h.dram_banks as u64, 1, 256)?;
        range("dram_row_lines", h.dram_row_lines as u64, 1, 1 << 16)?;
        range("dram_queue", h.dram_queue as u64, 1, 4096)?;
        range("dram_t_row_hit", h.dram_t_row_hit as u64, 1, 100_000)?;
        range("dram_t_row_miss", h.dram_t_row_miss as u64, 1, 100_000)?;
        range(
            "dram_t_row_conflict",
            h.dram_t_row_conflict as u64,
            1,
            100_000,
        )?;
        range("dram_t_burst", h.dram_t_burst as u64, 1, 100_000)?;
        range("dram_latency", h.dram_latency as u64, 0, 1_000_000)?;
        let l = &self.lat;
        for (key, v) in [
            ("lat_alu", l.alu),
            ("lat_sfu", l.sfu),
            ("lat_dp", l.dp),
            ("lat_tensor", l.tensor),
            ("lat_smem", l.smem),
            ("ii_sfu", l.ii_sfu),
            ("ii_dp", l.ii_dp),
            ("ii_tensor", l.ii_tensor),
        ] {
            range(key, v as u64, 1, 100_000)?;
        }
        range("max_cycles", self.max_cycles, 1, u64::MAX)?;
        for key in self.overrides.keys() {
            if units::unit_by_key(key).is_none() {
                let keys: Vec<&str> = units::UNITS.iter().map(|u| u.key()).collect();
                return Err(MachineConfigError::new(
                    &format!("{key}.*"),
                    "",
                    format!(
                        "no unit has the override key {key}; keys: {}",
                        keys.join(", ")
                    ),
                ));
            }
        }
        for role in Role::ALL {
            let c = self.choice(role);
            if c == role.native().name
                || (role == Role::Prefetcher && super::baselines::find(c).is_some())
            {
                continue;
            }
            if let Some(b) = super::baselines::find_l1(c).filter(|_| role == Role::L1) {
                (b.check_machine)(self)?;
                continue;
            }
            match units::unit_for_choice(role, c) {
                Some((u, canonical)) if canonical == c => u.check_machine(self, c)?,
                _ => return Err(choice_error(role, c)),
            }
        }
        if self.decoupled_l1() && self.l1 != Role::L1.native().name {
            return Err(MachineConfigError::new(
                "l1",
                &self.l1,
                format!(
                    "the decoupled mode (decoupled = {}{}) is a mode of the native lru tag \
                     array; set l1 = lru, or decoupled = off",
                    self.decoupled.name(),
                    if self.decoupled == Decoupling::Auto {
                        format!(", on for prefetcher = {}", self.prefetcher)
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        Ok(())
    }

    /// Whether the L1 runs in decoupled mode: `decoupled = on`, or `auto`
    /// with a prefetcher whose declaration asks for it.
    pub fn decoupled_l1(&self) -> bool {
        match self.decoupled {
            Decoupling::On => true,
            Decoupling::Off => false,
            Decoupling::Auto => units::unit_for_choice(Role::Prefetcher, &self.prefetcher)
                .is_some_and(|(u, _)| u.decoupled_l1()),
        }
    }

    /// The choice selected for `role` (`none` / `lru` when native).
    pub fn choice(&self, role: Role) -> &str {
        match role {
            Role::Prefetcher => &self.prefetcher,
            Role::L1 => &self.l1,
            Role::Expander => &self.expander,
        }
    }

    /// Make unit `unit` part of the run (`--cosim UNIT`): if its role is
    /// not already filled by one of its choices, select its first choice
    /// (the CAPS prefetcher: `prefetcher = caps`; `ba_tag_array` with
    /// `l1 = lru`: `l1 = ba`, with `l1 = ba-lru`: unchanged).
    pub fn enable_unit(&mut self, unit: &str) -> Result<(), MachineConfigError> {
        let u = units::unit(unit).ok_or_else(|| {
            MachineConfigError::new(
                "unit",
                unit,
                format!("unknown unit; units: {}", ports::UNIT_NAMES.join(", ")),
            )
        })?;
        let role = u.role();
        let current = self.choice(role);
        if u.choices().iter().any(|c| c.name == current) {
            return Ok(());
        }
        let first = u.choices()[0].name;
        match role {
            Role::Prefetcher => self.prefetcher = first.into(),
            Role::L1 => self.l1 = first.into(),
            Role::Expander => self.expander = first.into(),
        }
        Ok(())
    }
}

/// The error for a name that is no choice of `role`, listing the choices.
fn choice_error(role: Role, v: &str) -> MachineConfigError {
    let names: Vec<&str> = role_choices(role).iter().map(|c| c.0).collect();
    MachineConfigError::new(role.key(), v, format!("expected {}", or_list(&names)))
}

/// The reason given for an unknown key: every key, the units' override
/// prefixes included (by role, then table order).
fn unknown_key_reason() -> String {
    let mut s = String::from(
        "unknown key; known: n_sm, sm_id, sms, loads, cosim_sm, max_warps, cta_slots, \
         shared_mem_bytes, regs_per_sm, l1_smem_bytes, sched, ready_queue, l1, l1_bytes, l1_line, l1_ways, l1_hit_latency, \
         mshr_entries, mshr_merges, miss_queue, mem_latency, mem_interval, prefetcher, \
         expander, decoupled, mem_model, icnt_latency, icnt_interval, l2_partitions, l2_bytes, \
         l2_ways, l2_mshrs, l2_hit_latency, l2_queue, dram_channels, dram_banks, \
         dram_row_lines, dram_queue, dram_t_row_hit, dram_t_row_miss, dram_t_row_conflict, \
         dram_t_burst, dram_latency, lat_alu, lat_sfu, lat_dp, lat_tensor, lat_smem, ii_sfu, \
         ii_dp, ii_tensor, bw_window, eager_wakeup, \
         caps_hint, reuse_analysis, interwarp_probe, fast_forward, max_cycles, reset_cycles, seed, ",
    );
    for role in Role::ALL {
        for u in units::role_units(role) {
            s += &format!("{}.NAME, ", u.key());
        }
    }
    s.truncate(s.len() - 2);
    s += " (and param.NAME for kernel parameters)";
    s
}

fn auto() -> Decoupling {
    Decoupling::Auto
}

fn no_expander() -> String {
    Role::Expander.native().name.into()
}

fn bw_window() -> u32 {
    100
}

/// Parse a decimal or `0x` hexadecimal unsigned integer (underscores allowed).
pub(crate) fn parse_u64(s: &str) -> Option<u64> {
    let s: String = s.chars().filter(|&c| c != '_').collect();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate() {
        MachineConfig::fermi().validate().unwrap();
        MachineConfig::volta().validate().unwrap();
        assert_eq!(MachineConfig::fermi().l1_sets(), 32);
    }

    #[test]
    fn set_names_key_and_value() {
        let mut c = MachineConfig::fermi();
        c.set("l1_ways", "8").unwrap();
        c.set("sched", "pas").unwrap();
        c.set("caps.MISPRED_THRESHOLD", "64").unwrap();
        assert_eq!(c.l1_ways, 8);
        assert_eq!(c.overrides["caps"]["MISPRED_THRESHOLD"], 64);
        let e = c.set("l1_wayz", "8").unwrap_err();
        assert_eq!(e.key, "l1_wayz");
        let e = c.set("sched", "fifo").unwrap_err().to_string();
        assert!(e.contains("sched") && e.contains("fifo"), "{e}");
        c.set("l1_ways", "3").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("l1_bytes"));
        c.set("l1_ways", "6").unwrap();
        c.set("l1_bytes", "49152").unwrap();
        c.validate().unwrap();
        c.set("l1", "ba").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("l1_ways"));
    }

    #[test]
    fn role_choices_and_units() {
        let mut c = MachineConfig::fermi();
        let e = c.set("prefetcher", "fancy").unwrap_err().to_string();
        assert!(
            e.contains("expected none, caps, snake, intra, inter, mta, nlp or lap"),
            "{e}"
        );
        let e = c.set("l1", "fancy").unwrap_err().to_string();
        assert!(e.contains("expected lru, "), "{e}");
        c.set("l1", "ba_lru").unwrap();
        assert_eq!(c.l1, "ba-lru");
        c.enable_unit("ba_tag_array").unwrap();
        assert_eq!(c.l1, "ba-lru");
        c.set("l1", "lru").unwrap();
        c.enable_unit("ba_tag_array").unwrap();
        assert_eq!(c.l1, "ba");
        assert!(c.enable_unit("nothing").is_err());
        c.l1 = "fancy".into();
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("expected lru"));
        let e = MachineConfig::fermi().set("zzz", "1").unwrap_err().reason;
        assert!(
            e.ends_with(".NAME (and param.NAME for kernel parameters)"),
            "{e}"
        );
    }
}
