//! The machine the harness models: every number of `sm_harness.md`'s
//! baseline table as a configuration value, presets (`fermi` and `volta`
//! below; the papers' machines in `presets/`, [`crate::presets`]), and
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
//! | `tex_size`, `tex_line`, `tex_ways` | the SM's read-only texture cache (loads marked `texture`; never the L1 data cache): bytes, line (= `l1_line`, which it follows unless set apart), ways (LRU, allocate on miss; misses take one of 128 texture MSHRs, 4 requests merged each, and the L1's miss queue to the memory below). GPGPU-Sim's GTX480 `-gpgpu_tex_cache:l1 4:128:24,L:R:m:N:L,F:128:4,128:2` | 12288, 128, 24 | 131072, 128, 256 |
//! | `tex_latency` | cycles from the texture cache access to the data on a hit (>= 1) | 1 | 1 |
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
//! | `snake_span_lines` | most L1 lines one prefetch's footprint (Snake's `pf_span`) is prefetched as, one request per line; a wider footprint prefetches its first line only (`sm/prefetches.rs`); 1..=32 | 4 | 4 |
//! | `decoupled_cap_cycles` | the decoupled L1's cap until trained (half the lines for the L1 side) also lifts this many cycles after the SM's first demand load, if the prefetcher has offered no prefetch by then (the Snake paper's "designated 10-cycle period" of training); 0 = only by a prefetch (`decoupled.rs`) | 10 | 10 |
//! | `eager_wakeup` | promote a pending warp when a prefetch for it returns (two-level / PAS) | true | true |
//! | `address_arithmetic` | a kernel file's address expressions cost ALU instructions, as SASS computes addresses (`sm_harness.md` revision 3; `kernels/README.md`); false: free, as in revision 2 | true | true |
//! | `pas_lifetime_marker` | PAS keeps a leading warp's marker for its life (revision 2) instead of clearing it at the warp's first repeated load PC or after the prefetcher's PerCTA entries of load PCs (`sched/pas.rs`) | false | false |
//! | a unit's switch | a boolean key the unit declares ([`HarnessUnit::SWITCHES`]; `caps_hint`: CAPS's indirect-load hint) | | |
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
//! A role's choices, a unit's switches and parameters are the unit
//! registry's ([`crate::registry`]): [`MachineConfig::set`],
//! [`MachineConfig::validate`] and [`MachineConfig::enable_unit`] are
//! defined there (`registry/choices.rs`), the presets in [`crate::presets`].
//! Here: the machine's values and their defaults; `config/keys.rs` sets
//! the machine's own keys from text, `config/check.rs` checks their
//! values, `config/error.rs` is the error.
//!
//! [`HarnessUnit::params`]: crate::registry::HarnessUnit::params
//! [`HarnessUnit::SWITCHES`]: crate::registry::HarnessUnit::SWITCHES
//! [`unit_params`]: crate::registry::unit_params
//! [`role_choices`]: crate::registry::role_choices

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::roles::Role;

mod check;
pub(crate) mod error;
pub(crate) mod keys;

pub use error::MachineConfigError;

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
    /// Texture cache capacity in bytes (`tex_size`).
    #[serde(default = "tex_size")]
    pub tex_size: u32,
    /// Texture cache line in bytes (equal to `l1_line`).
    #[serde(default = "tex_line")]
    pub tex_line: u32,
    /// Texture cache associativity.
    #[serde(default = "tex_ways")]
    pub tex_ways: u32,
    /// Cycles from a texture cache hit to the data (>= 1).
    #[serde(default = "tex_latency")]
    pub tex_latency: u32,
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
    /// Most lines a prefetch's footprint (`PrefetchOffer::span`) is
    /// prefetched as; a wider one prefetches its first line only.
    #[serde(default = "snake_span_lines")]
    pub snake_span_lines: u32,
    /// Cycles after the SM's first demand load at which the decoupled
    /// L1's cap until trained lifts without a prefetch (0: never by time).
    #[serde(default = "decoupled_cap_cycles")]
    pub decoupled_cap_cycles: u32,
    /// Eager warp wake-up on prefetch return (two-level and PAS).
    pub eager_wakeup: bool,
    /// PAS keeps a leading warp's marker for the warp's life (revision 2's
    /// rule) instead of clearing it after the warp's first pass over its
    /// loads (revision 3, the default).
    #[serde(default)]
    pub pas_lifetime_marker: bool,
    /// A kernel file's address arithmetic costs ALU instructions (the
    /// `Compute` the compiler puts before each load and store,
    /// [`crate::kernel`]); false: addresses are free (revision 2), for
    /// comparison.
    #[serde(default = "address_arithmetic")]
    pub address_arithmetic: bool,
    /// Show the prefetcher which loads are indirect (from the expression
    /// classification); else every load is shown as direct. The CAPS
    /// unit's switch: its key `caps_hint` is declared with the unit
    /// (`adapters/caps.rs`, [`HarnessUnit::SWITCHES`]).
    ///
    /// [`HarnessUnit::SWITCHES`]: crate::registry::HarnessUnit::SWITCHES
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
            tex_size: tex_size(),
            tex_line: tex_line(),
            tex_ways: tex_ways(),
            tex_latency: tex_latency(),
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
            snake_span_lines: snake_span_lines(),
            decoupled_cap_cycles: decoupled_cap_cycles(),
            eager_wakeup: true,
            pas_lifetime_marker: false,
            address_arithmetic: address_arithmetic(),
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
            tex_size: 128 * 1024,
            tex_ways: 256,
            mshr_entries: 64,
            miss_queue: 16,
            mem_interval: 1,
            ..MachineConfig::fermi()
        }
    }

    /// Number of L1 sets.
    pub fn l1_sets(&self) -> u32 {
        self.l1_bytes / (self.l1_line * self.l1_ways)
    }

    /// Number of texture cache sets.
    pub fn tex_sets(&self) -> u32 {
        self.tex_size / (self.tex_line * self.tex_ways)
    }

    /// Select `name` (canonical, unchecked) for `role`.
    pub(crate) fn set_choice(&mut self, role: Role, name: &str) {
        match role {
            Role::Prefetcher => self.prefetcher = name.into(),
            Role::L1 => self.l1 = name.into(),
            Role::Expander => self.expander = name.into(),
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

/// GPGPU-Sim's GTX480 texture cache (`-gpgpu_tex_cache:l1 4:128:24`): 4
/// sets of 24 lines of 128 bytes.
fn tex_size() -> u32 {
    4 * 24 * 128
}

fn tex_line() -> u32 {
    128
}

fn tex_ways() -> u32 {
    24
}

/// GPGPU-Sim has no texture hit latency of its own (the texture cache
/// answers through its fragment and result FIFOs): the L1's default, 1.
fn tex_latency() -> u32 {
    1
}

fn snake_span_lines() -> u32 {
    4
}

/// The default of `decoupled_cap_cycles`: see `decoupled.rs`, "The cap's
/// time limit".
fn decoupled_cap_cycles() -> u32 {
    10
}

/// `address_arithmetic`'s default: addresses cost instructions.
fn address_arithmetic() -> bool {
    true
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
