//! The machine's own keys set from text (`key=value`, module
//! documentation of `config.rs`); a role's choice, a unit's switch and a
//! unit's parameters are set through the unit registry
//! ([`MachineConfig::set`]).

use super::error::MachineConfigError;
use super::{parse_u64, Decoupling, LoadModel, MachineConfig, MemModel, SchedPolicy, SmScope};

/// The machine's keys up to the units' switches, in the order an unknown
/// key's error lists them.
pub(crate) const MACHINE_KEYS: &[&str] = &[
    "n_sm",
    "sm_id",
    "sms",
    "loads",
    "cosim_sm",
    "max_warps",
    "cta_slots",
    "shared_mem_bytes",
    "regs_per_sm",
    "l1_smem_bytes",
    "sched",
    "ready_queue",
    "l1",
    "l1_bytes",
    "l1_line",
    "l1_ways",
    "l1_hit_latency",
    "tex_size",
    "tex_line",
    "tex_ways",
    "tex_latency",
    "mshr_entries",
    "mshr_merges",
    "miss_queue",
    "mem_latency",
    "mem_interval",
    "prefetcher",
    "expander",
    "decoupled",
    "mem_model",
    "icnt_latency",
    "icnt_interval",
    "l2_partitions",
    "l2_bytes",
    "l2_ways",
    "l2_mshrs",
    "l2_hit_latency",
    "l2_queue",
    "dram_channels",
    "dram_banks",
    "dram_row_lines",
    "dram_queue",
    "dram_t_row_hit",
    "dram_t_row_miss",
    "dram_t_row_conflict",
    "dram_t_burst",
    "dram_latency",
    "lat_alu",
    "lat_sfu",
    "lat_dp",
    "lat_tensor",
    "lat_smem",
    "ii_sfu",
    "ii_dp",
    "ii_tensor",
    "bw_window",
    "snake_span_lines",
    "decoupled_cap_cycles",
    "eager_wakeup",
    "pas_lifetime_marker",
    "address_arithmetic",
];

/// The keys after the units' switches: the run's analyses and its control.
pub(crate) const RUN_KEYS: &[&str] = &[
    "reuse_analysis",
    "interwarp_probe",
    "fast_forward",
    "max_cycles",
    "reset_cycles",
    "seed",
];

/// A boolean value of `key`: `true`, `1`, `yes`, `on` or `false`, `0`,
/// `no`, `off`.
pub(crate) fn parse_bool(key: &str, v: &str) -> Result<bool, MachineConfigError> {
    match v {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(MachineConfigError::new(key, v, "expected true or false")),
    }
}

impl MachineConfig {
    /// Set one of the machine's own keys (module documentation) to `v`
    /// (trimmed): `Ok(false)` for a key that is not one of them (a role's
    /// choice, a unit's switch or parameter, or no key at all: the
    /// registry's [`MachineConfig::set`] handles those).
    pub(crate) fn set_machine_key(
        &mut self,
        key: &str,
        v: &str,
    ) -> Result<bool, MachineConfigError> {
        let int = |k: &str| -> Result<u64, MachineConfigError> {
            parse_u64(v).ok_or_else(|| MachineConfigError::new(k, v, "expected an integer"))
        };
        let int32 = |k: &str| -> Result<u32, MachineConfigError> {
            let x = int(k)?;
            u32::try_from(x).map_err(|_| MachineConfigError::new(k, v, "too large"))
        };
        let boolean = |k: &str| parse_bool(k, v);
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
            "l1_bytes" => self.l1_bytes = int32(key)?,
            "l1_line" => {
                // The texture cache's line follows the L1's unless it was
                // set apart (both must be equal: `check.rs`).
                let follow = self.tex_line == self.l1_line;
                self.l1_line = int32(key)?;
                if follow {
                    self.tex_line = self.l1_line;
                }
            }
            "l1_ways" => self.l1_ways = int32(key)?,
            "l1_hit_latency" => self.l1_hit_latency = int32(key)?,
            "tex_size" => self.tex_size = int32(key)?,
            "tex_line" => self.tex_line = int32(key)?,
            "tex_ways" => self.tex_ways = int32(key)?,
            "tex_latency" => self.tex_latency = int32(key)?,
            "mshr_entries" => self.mshr_entries = int32(key)?,
            "mshr_merges" => self.mshr_merges = int32(key)?,
            "miss_queue" => self.miss_queue = int32(key)?,
            "mem_latency" => self.mem_latency = int32(key)?,
            "mem_interval" => self.mem_interval = int32(key)?,
            "decoupled" => {
                self.decoupled = match v {
                    "auto" => Decoupling::Auto,
                    "true" | "1" | "yes" | "on" => Decoupling::On,
                    "false" | "0" | "no" | "off" => Decoupling::Off,
                    _ => return Err(MachineConfigError::new(key, v, "expected auto, on or off")),
                }
            }
            "bw_window" => self.bw_window = int32(key)?,
            "snake_span_lines" => self.snake_span_lines = int32(key)?,
            "decoupled_cap_cycles" => self.decoupled_cap_cycles = int32(key)?,
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
            "pas_lifetime_marker" => self.pas_lifetime_marker = boolean(key)?,
            "address_arithmetic" => self.address_arithmetic = boolean(key)?,
            "reuse_analysis" => self.reuse_analysis = boolean(key)?,
            "interwarp_probe" => self.interwarp_probe = int32(key)?,
            "fast_forward" => self.fast_forward = boolean(key)?,
            "max_cycles" => self.max_cycles = int(key)?,
            "reset_cycles" => self.reset_cycles = int32(key)?,
            "seed" => self.seed = int(key)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
