//! How many CTAs of a kernel an SM holds at once ([`occupancy`]): the
//! kernel's warps and shared memory against the machine's warp slots, CTA
//! slots and shared memory.

use crate::config::MachineConfig;
use crate::error::HarnessError;
use crate::kernel::{Kernel, KernelError};

/// CTAs of `k` resident at once on the SM of `cfg` (warp slots, CTA slots
/// and shared memory), or why none fits.
pub(crate) fn occupancy(k: &Kernel, cfg: &MachineConfig) -> Result<u32, HarnessError> {
    // The kernel's field that does not fit, with the machine's key.
    let too_big = |field: &str, msg: String| {
        HarnessError::Kernel(KernelError {
            file: k.file.clone(),
            line: None,
            field: field.into(),
            msg,
        })
    };
    let wpc = k.warps_per_cta();
    if wpc > cfg.max_warps {
        return Err(too_big(
            "block",
            format!(
                "kernel {}: {} warps per CTA; the machine's SMs have {} warp slots \
                 (`max_warps`)",
                k.name, wpc, cfg.max_warps
            ),
        ));
    }
    let mut occ = cfg.cta_slots.min(cfg.max_warps / wpc);
    if let Some(by_smem) = cfg.shared_mem_bytes.checked_div(k.smem_bytes) {
        occ = occ.min(by_smem);
    }
    if occ == 0 {
        return Err(too_big(
            "smem_bytes",
            format!(
                "kernel {}: a CTA needs {} bytes of shared memory; the machine's SMs have {} \
                 (`shared_mem_bytes`)",
                k.name, k.smem_bytes, cfg.shared_mem_bytes
            ),
        ));
    }
    Ok(occ)
}
