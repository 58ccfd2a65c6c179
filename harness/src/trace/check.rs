//! Whether a kernel's trace can run on a machine as it stands
//! ([`Kernel::check_trace`]).

use super::format::TraceError;
use super::read::{dims, WARP};
use crate::config::MachineConfig;
use crate::kernel::Kernel;

impl Kernel {
    /// Whether this kernel's trace can run on `cfg`'s SM as it stands: a
    /// CTA's warps fit the SM's `max_warps` warp slots, and the trace
    /// covers the grid, one thread block per CTA, with at most the
    /// block's warps each (always so for a trace [`read_kernel_trace`](super::read_kernel_trace)
    /// accepted; checked again for a [`KernelTrace`](super::KernelTrace) built by hand). Each
    /// error names the trace file, the header line and the field. `Ok` for
    /// a kernel that does not replay a trace. `warpgen run` checks every
    /// kernel of a list before it runs any, and [`crate::Harness::run`]
    /// checks its kernel.
    pub fn check_trace(&self, cfg: &MachineConfig) -> Result<(), TraceError> {
        let Some(t) = &self.trace else {
            return Ok(());
        };
        let e = |line: usize, field: &str, msg: String| TraceError::new(&t.file, line, field, msg);
        let (b, g) = (self.block, self.grid);
        if b.contains(&0) {
            return Err(e(
                t.block_line,
                "-block dim",
                format!("{}: a block's x, y, z are at least 1", dims(b)),
            ));
        }
        if g.contains(&0) {
            return Err(e(
                t.grid_line,
                "-grid dim",
                format!("{}: a grid's x, y, z are at least 1", dims(g)),
            ));
        }
        let threads: u128 = b.iter().map(|&x| x as u128).product();
        let warps = threads.div_ceil(WARP as u128);
        if warps > cfg.max_warps as u128 {
            return Err(e(
                t.block_line,
                "-block dim",
                format!(
                    "{} is {threads} threads, {warps} warps per CTA, but the machine has \
                     max_warps = {} warp slots per SM: a CTA of at most {} threads fits \
                     (or raise max_warps, at most 64)",
                    dims(b),
                    cfg.max_warps,
                    cfg.max_warps as u64 * WARP
                ),
            ));
        }
        let total: u128 = g.iter().map(|&x| x as u128).product();
        let covered = t.ctas.len() as u128 == total
            && t.ctas.iter().enumerate().all(|(i, c)| c.0 == i as u64);
        if !covered {
            return Err(e(
                t.grid_line,
                "-grid dim",
                format!(
                    "the grid {} has {total} CTAs but the trace holds {} thread blocks: every \
                     CTA of the grid is traced once",
                    dims(g),
                    t.ctas.len()
                ),
            ));
        }
        for (id, ws) in &t.ctas {
            if ws.len() as u128 > warps {
                return Err(e(
                    0,
                    "warp",
                    format!("CTA {id} has {} warps, past the block's {warps}", ws.len()),
                ));
            }
            if ws.iter().flatten().any(|i| i.lines.len() > WARP as usize) {
                return Err(e(
                    0,
                    "address",
                    format!(
                        "an instruction of CTA {id} touches more than 32 lines: its accesses \
                         are not aligned to their width"
                    ),
                ));
            }
        }
        Ok(())
    }
}
