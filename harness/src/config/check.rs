//! The checks of the machine's own values (ranges, powers of two, the
//! geometry of the caches); a role's choice is checked through the unit
//! registry ([`MachineConfig::validate`]).

use super::error::MachineConfigError;
use super::MachineConfig;

/// `v` of `k` within `lo..=hi`.
fn range(k: &str, v: u64, lo: u64, hi: u64) -> Result<(), MachineConfigError> {
    if v < lo || v > hi {
        Err(MachineConfigError::new(
            k,
            v,
            format!("allowed {lo}..={hi}"),
        ))
    } else {
        Ok(())
    }
}

/// `v` of `k` a power of two.
fn pow2(k: &str, v: u64) -> Result<(), MachineConfigError> {
    if v.is_power_of_two() {
        Ok(())
    } else {
        Err(MachineConfigError::new(k, v, "must be a power of two"))
    }
}

/// The most SMs a machine may have.
pub const MAX_SMS: u64 = 1024;

impl MachineConfig {
    /// Reject a value of the machine's own keys the harness cannot model:
    /// the SM and its L1, the memory hierarchy, the instruction timing,
    /// in that order.
    pub(crate) fn check_values(&self) -> Result<(), MachineConfigError> {
        self.check_sm()?;
        self.check_hierarchy()?;
        self.check_timing()
    }

    /// The SM, its L1 and the flat memory.
    fn check_sm(&self) -> Result<(), MachineConfigError> {
        if !(1..=MAX_SMS).contains(&(self.n_sm as u64)) {
            return Err(MachineConfigError::new(
                "n_sm",
                self.n_sm as u64,
                format!(
                    "allowed 1..={MAX_SMS}: the largest GPUs have 144 SMs, and each simulated \
                     SM holds its own L1, queues and warps in memory"
                ),
            ));
        }
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
        self.check_texture()?;
        range("mshr_entries", self.mshr_entries as u64, 1, 4096)?;
        range("mshr_merges", self.mshr_merges as u64, 1, 64)?;
        range("miss_queue", self.miss_queue as u64, 1, 4096)?;
        range("mem_latency", self.mem_latency as u64, 1, 1_000_000)?;
        range("mem_interval", self.mem_interval as u64, 1, 1_000_000)?;
        range("reset_cycles", self.reset_cycles as u64, 1, 1000)?;
        range("bw_window", self.bw_window as u64, 1, 1_000_000)?;
        range("snake_span_lines", self.snake_span_lines as u64, 1, 32)?;
        range(
            "decoupled_cap_cycles",
            self.decoupled_cap_cycles as u64,
            0,
            1_000_000_000,
        )?;
        Ok(())
    }

    /// The texture cache: its line is the L1's (the load/store unit
    /// coalesces into `l1_line` lines and the memory below moves them).
    fn check_texture(&self) -> Result<(), MachineConfigError> {
        if self.tex_line != self.l1_line {
            return Err(MachineConfigError::new(
                "tex_line",
                self.tex_line,
                format!(
                    "must equal l1_line = {} (loads are coalesced into l1_line lines and the \
                     memory below moves lines of that size)",
                    self.l1_line
                ),
            ));
        }
        range("tex_ways", self.tex_ways as u64, 1, 256)?;
        if !self.tex_size.is_multiple_of(self.tex_line * self.tex_ways) || self.tex_sets() == 0 {
            return Err(MachineConfigError::new(
                "tex_size",
                self.tex_size,
                format!(
                    "must be a positive multiple of tex_line * tex_ways = {}",
                    self.tex_line * self.tex_ways
                ),
            ));
        }
        range("tex_latency", self.tex_latency as u64, 1, 10_000)?;
        Ok(())
    }

    /// The interconnect, the L2 and the DRAM (`mem_model = hier`).
    fn check_hierarchy(&self) -> Result<(), MachineConfigError> {
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
        Ok(())
    }

    /// Instruction latencies and intervals, and the cycle limit.
    fn check_timing(&self) -> Result<(), MachineConfigError> {
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
        Ok(())
    }
}
