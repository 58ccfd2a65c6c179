//! The memory below the L1s of a run ([`SharedMemory`]): the flat model or
//! the interconnect / L2 / DRAM hierarchy, as the machine selects.

use std::cell::RefCell;
use std::rc::Rc;

use crate::config::{MachineConfig, MemModel};
use crate::memsys::{FlatMemory, HierMemory, HierParams, LowerMemory};

/// The memory below the L1s of a run, shared by its SMs.
pub(super) type SharedMemory = Rc<RefCell<Box<dyn LowerMemory>>>;

/// The memory below the L1 that `cfg` selects, with `sms` ports.
pub(super) fn lower_memory(cfg: &MachineConfig, sms: u32) -> SharedMemory {
    Rc::new(RefCell::new(match cfg.mem_model {
        MemModel::Flat => Box::new(FlatMemory::new(
            sms,
            cfg.mem_latency as u64,
            cfg.mem_interval as u64,
            cfg.miss_queue as usize,
            cfg.bw_window as u64,
        )),
        MemModel::Hier => {
            let h = &cfg.hier;
            Box::new(HierMemory::new(HierParams {
                sms,
                line_bytes: cfg.l1_line,
                miss_queue: cfg.miss_queue,
                bw_window: cfg.bw_window as u64,
                icnt_latency: h.icnt_latency as u64,
                icnt_interval: h.icnt_interval as u64,
                l2_partitions: h.l2_partitions,
                l2_bytes: h.l2_bytes,
                l2_ways: h.l2_ways,
                l2_mshrs: h.l2_mshrs,
                l2_hit_latency: h.l2_hit_latency as u64,
                l2_queue: h.l2_queue,
                dram_channels: h.dram_channels,
                dram_banks: h.dram_banks,
                dram_row_lines: h.dram_row_lines,
                dram_queue: h.dram_queue,
                dram_t_row_hit: h.dram_t_row_hit as u64,
                dram_t_row_miss: h.dram_t_row_miss as u64,
                dram_t_row_conflict: h.dram_t_row_conflict as u64,
                dram_t_burst: h.dram_t_burst as u64,
                dram_latency: h.dram_latency as u64,
            }))
        }
    }))
}
