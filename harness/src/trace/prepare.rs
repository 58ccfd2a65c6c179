//! A kernel that replays a trace ([`Kernel::from_trace`]): the trace's
//! instructions coalesced into lines and given their registers.

use std::sync::Arc;

use super::format::{trace_reg_file, KernelTrace, TraceOp};
use super::replay::{ReplayInstr, ReplayTrace};
use crate::config::InstrClass;
use crate::expr::ExprClass;
use crate::kernel::{Instr, InstrInfo, Kernel, Program};
use crate::lanes::{LaneShape, WarpRows};

impl Kernel {
    /// A kernel that replays a trace; `line_bytes` is the coalescing
    /// granularity (the L1 line). A load's `ld_uniform` is judged per row
    /// of the block from the header's `-block dim` (`harness::lanes`; a
    /// trace always has one: `trace/header.rs`).
    pub fn from_trace(kt: &KernelTrace, line_bytes: u32) -> Kernel {
        let lm = !(line_bytes as u64 - 1);
        let block_x = kt.block[0];
        let ctas = kt
            .ctas
            .iter()
            .map(|(id, warps)| {
                let ws = warps
                    .iter()
                    .enumerate()
                    .map(|(widx, w)| {
                        w.iter()
                            .map(|i| {
                                // (line, lowest byte touched in it).
                                let mut touched: Vec<(u64, u64)> = Vec::new();
                                if i.op != TraceOp::Compute {
                                    for &a in &i.addrs {
                                        let a = a & 0xFFFF_FFFF;
                                        let first = a & lm;
                                        let last =
                                            (a + i.width.max(1) as u64 - 1) & 0xFFFF_FFFF & lm;
                                        touched.push((first, a));
                                        if last != first {
                                            touched.push((last, last));
                                        }
                                    }
                                    // By line, lowest byte first: the first of
                                    // each line is its lowest.
                                    touched.sort_unstable();
                                    touched.dedup_by_key(|t| t.0);
                                }
                                let (lines, firsts): (Vec<u64>, Vec<u64>) =
                                    touched.into_iter().unzip();
                                // Active lanes in order, with their addresses.
                                let lanes = (0..32u32).filter(|l| i.mask & (1 << l) != 0);
                                let lane_addrs = lanes.zip(i.addrs.iter().map(|a| a & 0xFFFF_FFFF));
                                let rows = WarpRows::of_warp(widx as u32, block_x);
                                let shape = LaneShape::of(rows, lane_addrs);
                                let op = if lines.is_empty() {
                                    TraceOp::Compute
                                } else {
                                    i.op
                                };
                                let mut writes = i.dests.clone();
                                if op == TraceOp::Load {
                                    if let Some(&d) = i.dests.first() {
                                        let group = i.width.div_ceil(4).max(1) as u16;
                                        writes.extend((d + 1..d + group).filter(|r| {
                                            // Within the same register file.
                                            trace_reg_file(*r) == trace_reg_file(d)
                                        }));
                                    }
                                }
                                writes.sort_unstable();
                                writes.dedup();
                                let mut reads = i.srcs.clone();
                                reads.sort_unstable();
                                reads.dedup();
                                ReplayInstr {
                                    class: InstrClass::of_sass(&i.opcode),
                                    reads,
                                    writes,
                                    pc: i.pc,
                                    mask: i.mask,
                                    first_addr: i.addrs.first().map_or(0, |a| a & 0xFFFF_FFFF),
                                    uniform: shape.uniform(),
                                    span: shape.span(),
                                    op,
                                    lines,
                                    firsts,
                                }
                            })
                            .collect()
                    })
                    .collect();
                (*id, ws)
            })
            .collect();
        let name = kt.name.split('(').next().unwrap_or(&kt.name).to_string();
        Kernel {
            name: if name.is_empty() {
                format!("kernel-{}", kt.id)
            } else {
                name
            },
            description: format!("Accel-Sim trace (tracer version {})", kt.version),
            source: kt.file.display().to_string(),
            file: kt.file.display().to_string(),
            grid: kt.grid,
            block: kt.block,
            smem_bytes: 0,
            regs: 0,
            // A trace's address arithmetic is in its SASS.
            address_arithmetic: true,
            params: Default::default(),
            arrays: Vec::new(),
            contents_seed: 0,
            program: Program {
                instrs: vec![Instr::Trace, Instr::Exit],
                info: vec![
                    InstrInfo {
                        class: ExprClass::SCALAR,
                        guard: ExprClass::SCALAR,
                        addr: false,
                    };
                    2
                ],
                ops: Vec::new(),
                stack_depth: 1,
                n_regs: 6,
                max_nesting: 0,
                mems: Vec::new(),
                loop_lines: Vec::new(),
                addr_reg: None,
            },
            trace: Some(Arc::new(ReplayTrace {
                ctas,
                file: kt.file.display().to_string(),
                grid_line: kt.grid_line,
                block_line: kt.block_line,
                warnings: kt.warnings.clone(),
            })),
        }
    }
}
