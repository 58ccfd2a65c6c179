//! `warpgen catt` and `warpgen run --catt`: CATT's static analysis of a
//! kernel file (`harness::catt`) printed per kernel and loop,
//! and its throttling applied to a run.

use std::fmt::Write as _;

use anyhow::bail;
use harness::catt::{analyze, CattMachine, CattReport};
use harness::{Kernel, MachineConfig};

/// The analysis of `k` on `cfg`, with the L1 fixed at `l1_bytes` if given
/// (else equation 4 chooses it). Trace kernels have no loops to analyse.
pub fn report(
    cfg: &MachineConfig,
    k: &Kernel,
    l1_bytes: Option<u32>,
) -> anyhow::Result<CattReport> {
    if k.is_trace() {
        bail!(
            "{}: CATT analyses a kernel file's loops and index expressions; a trace has neither",
            k.file
        );
    }
    Ok(analyze(k, &CattMachine::of(cfg), l1_bytes))
}

/// `cfg` and `k` with CATT's throttling applied (the run's L1 size is the
/// one the analysis fits into): each loop's warp-level factor in the
/// program, the CTA-level reduction in the CTA slots.
pub fn apply(
    cfg: &MachineConfig,
    k: &Kernel,
) -> anyhow::Result<(MachineConfig, Kernel, CattReport)> {
    if cfg.expander != "none" {
        bail!(
            "--catt rewrites the kernel's loops; it does not combine with an expansion unit (DAC)"
        );
    }
    let r = report(cfg, k, Some(cfg.l1_bytes))?;
    let mut c = cfg.clone();
    c.cta_slots = c.cta_slots.min(r.kernel_ctas.max(1));
    Ok((c, k.catt_throttled(&r), r))
}

fn kb(b: u64) -> String {
    if b.is_multiple_of(1024) {
        format!("{} KB", b / 1024)
    } else {
        format!("{:.1} KB", b as f64 / 1024.0)
    }
}

/// The analysis as text: the TLP limits, then a row per loop.
pub fn text(k: &Kernel, r: &CattReport) -> String {
    let mut s = String::new();
    let lim = |x: Option<u32>| x.map_or("-".to_string(), |v| v.to_string());
    let _ = writeln!(s, "{} ({})", r.kernel, k.file);
    let _ = writeln!(
        s,
        "  CTAs per SM: shared memory {}, registers {}, hardware {}, grid {} -> baseline TLP ({}, {}) \
         (warps per CTA, CTAs per SM)",
        lim(r.tb_shm),
        lim(r.tb_reg),
        r.tb_hw,
        r.tb_grid,
        r.warps_per_cta,
        r.tb_sm
    );
    let _ = writeln!(
        s,
        "  shared memory {} configured, L1 {}",
        kb(r.smem_config as u64),
        kb(r.l1_bytes as u64)
    );
    if r.loops.is_empty() {
        let _ = writeln!(s, "  no loops: nothing to throttle");
        return s;
    }
    let _ = writeln!(
        s,
        "  {:<10} {:>9} {:>12} {:>12} {:>10} {:>10}  loads (C_tid / C_i bytes, lines per warp, locality)",
        "loop", "analysed", "footprint", "throttled", "baseline", "CATT"
    );
    for l in &r.loops {
        let loads: Vec<String> = l
            .accesses
            .iter()
            .filter(|a| !a.store)
            .map(|a| {
                let c = |x: Option<i64>| x.map_or("irregular".to_string(), |v| v.to_string());
                format!(
                    "{}[line {}] {} / {}, {}{}",
                    a.array,
                    a.line,
                    c(a.c_tid),
                    c(a.c_i),
                    a.req_warp,
                    if a.locality { ", reuse" } else { "" }
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "  {:<10} {:>9} {:>12} {:>12} {:>10} {:>10}  {}",
            format!("{}line {}", "  ".repeat(l.depth), l.line),
            if l.analysed { "yes" } else { "no reuse" },
            kb(l.footprint),
            if l.unresolved {
                "does not fit".to_string()
            } else {
                kb(l.throttled_footprint)
            },
            format!("({}, {})", r.warps_per_cta, r.tb_sm),
            format!("({}, {})", l.warps, l.ctas),
            loads.join("; ")
        );
    }
    let _ = writeln!(s, "  CTAs per SM for the kernel: {}", r.kernel_ctas);
    s
}
