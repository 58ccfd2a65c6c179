//! Accel-Sim traces (`kernelslist.g` + `kernel-N.traceg`, tracer versions 3
//! to 6) replayed on the harness.
//!
//! A `.traceg` file holds a header (`-kernel name = ...`, `-grid dim =
//! (x,y,z)`, `-block dim = ...`, `-accelsim tracer version = N`, `-enable
//! lineinfo = 0|1`) and, per thread block (`#BEGIN_TB`, `thread block =
//! x,y,z`, `#END_TB`) and per warp (`warp = w`, `insts = n`), one line per
//! executed warp instruction:
//! ```text
//! [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width
//!            [address_format addresses] [immediate (version >= 5)]
//! ```
//! with the addresses in one of three encodings: `0` one address per
//! active thread, `1` base and stride (consecutive active threads), `2` base
//! and one delta per further active thread.
//!
//! In the harness, global and local loads (`LDG`, `LD`, `LDL`, `ATOM`) and
//! stores (`STG`, `ST`, `STL`, `RED`) drive the coalescer, the L1 and the
//! units exactly as kernel files do (addresses are taken modulo 2^32, the
//! units' address width); every other instruction — shared-memory
//! accesses, constant loads, `EXIT` included — issues as one `compute`
//! instruction. The CAPS `ld_indirect` hint is 0: a trace does not say how
//! an address was computed. A warp ends after its last traced instruction.

use std::path::PathBuf;
use std::sync::Arc;

use super::config::InstrClass;
use super::expr::ExprClass;
use super::kernel::Instr;
use super::kernel::{InstrInfo, Kernel, Program};

mod read;

pub use read::{
    parse_kernel_trace, read_kernel_trace, read_kernelslist, MAX_BLOCK_DIMS, MAX_BLOCK_THREADS,
    TRACE_WIDTHS,
};

/// A trace that cannot be used: the file, the line, the field and what is
/// wrong (with what would be valid). Shown as ``FILE:LINE: field `FIELD`:
/// MESSAGE``, like a kernel file's [`super::KernelError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when not about one line: the file cannot be read).
    pub line: usize,
    /// The field: a header key (`-grid dim`), a body line's key (`thread
    /// block`, `warp`, `insts`), an instruction's field (`mask`,
    /// `mem_width`, `stride`, ...); empty when not about one field.
    pub field: String,
    /// What is wrong.
    pub msg: String,
}

impl TraceError {
    pub(crate) fn new(file: &str, line: usize, field: &str, msg: impl Into<String>) -> Self {
        TraceError {
            file: file.to_string(),
            line,
            field: field.to_string(),
            msg: msg.into(),
        }
    }
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.msg)
    }
}

impl std::error::Error for TraceError {}

/// What a traced instruction does in the harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceOp {
    /// Issues as one compute instruction.
    Compute,
    /// A global (or local) load: coalesced, blocking.
    Load,
    /// A global (or local) store.
    Store,
}

/// One traced warp instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceInstr {
    /// PC.
    pub pc: u32,
    /// Active mask.
    pub mask: u32,
    /// Opcode as traced.
    pub opcode: String,
    /// Its role in the harness.
    pub op: TraceOp,
    /// Access width per thread in bytes (0 for non-memory instructions).
    pub width: u32,
    /// Per active thread, in lane order: the (64-bit) address.
    pub addrs: Vec<u64>,
    /// Destination registers ([`trace_reg`] numbering; zero and special
    /// registers are left out).
    pub dests: Vec<u16>,
    /// Source registers, numbered likewise.
    pub srcs: Vec<u16>,
}

/// Registers of a warp in a trace, as the scoreboard numbers them:
/// `R0`-`R255` are 0-255, `P0`-`P7` 256-263, `UR0`-`UR63` 264-327,
/// `UP0`-`UP7` 328-335, `B0`-`B15` 336-351.
pub const TRACE_REGS: usize = 352;

/// The scoreboard number of a traced register name, or `None` for the
/// zero registers (`RZ`, `URZ`), the true predicates (`PT`, `UPT`),
/// special registers (`SR_*`) and anything else the tracer may print:
/// those carry no dependence.
pub fn trace_reg(name: &str) -> Option<u16> {
    let name = name.trim_start_matches('!').trim_start_matches('-');
    let (base, limit, rest) = if let Some(r) = name.strip_prefix("UR") {
        (264, 64, r)
    } else if let Some(r) = name.strip_prefix("UP") {
        (328, 8, r)
    } else if let Some(r) = name.strip_prefix('R') {
        (0, 256, r)
    } else if let Some(r) = name.strip_prefix('P') {
        (256, 8, r)
    } else if let Some(r) = name.strip_prefix('B') {
        (336, 16, r)
    } else {
        return None;
    };
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = rest.parse().ok()?;
    (n < limit).then_some(base + n as u16)
}

/// One kernel's trace.
#[derive(Clone, Debug)]
pub struct KernelTrace {
    /// Mangled kernel name.
    pub name: String,
    /// The file.
    pub file: PathBuf,
    /// Kernel id.
    pub id: u32,
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// Tracer version.
    pub version: u32,
    /// Per traced CTA (ascending linear id): its warps' instructions.
    pub ctas: Vec<(u64, Vec<Vec<TraceInstr>>)>,
    /// The line of `-grid dim` in the file (0: not read from a file).
    pub grid_line: usize,
    /// The line of `-block dim` in the file (0: not read from a file).
    pub block_line: usize,
}

impl KernelTrace {
    /// Warp instructions in the trace.
    pub fn instructions(&self) -> u64 {
        self.ctas
            .iter()
            .flat_map(|(_, w)| w.iter())
            .map(|w| w.len() as u64)
            .sum()
    }
    /// Memory instructions of any kind (`mem_width > 0`).
    pub fn mem_instructions(&self) -> u64 {
        self.ctas
            .iter()
            .flat_map(|(_, w)| w.iter())
            .flat_map(|w| w.iter())
            .filter(|i| i.width > 0)
            .count() as u64
    }
}

/// The role of a traced memory instruction in the harness, by opcode.
fn classify(opcode: &str) -> TraceOp {
    let base = opcode.split('.').next().unwrap_or("");
    match base {
        "LDG" | "LD" | "LDL" | "ATOM" | "ATOMG" => TraceOp::Load,
        "STG" | "ST" | "STL" | "RED" => TraceOp::Store,
        _ => TraceOp::Compute,
    }
}

/// The register file of a [`trace_reg`] number (its first number).
fn trace_reg_file(r: u16) -> u16 {
    match r {
        0..=255 => 0,
        256..=263 => 256,
        264..=327 => 264,
        328..=335 => 328,
        _ => 336,
    }
}

/// One traced instruction as the harness replays it.
#[derive(Clone, Debug)]
pub(crate) struct ReplayInstr {
    pub pc: u32,
    pub mask: u32,
    pub op: TraceOp,
    /// Coalesced line addresses (modulo 2^32), ascending.
    pub lines: Vec<u64>,
    /// Per line of `lines`: the lowest byte address the warp touches in
    /// it.
    pub firsts: Vec<u64>,
    /// The lowest active thread's address (modulo 2^32).
    pub first_addr: u64,
    /// The active threads are one stride apart per lane
    /// ([`super::roles::uniform_stride`]).
    pub uniform: bool,
    /// Timing class ([`InstrClass::of_sass`]).
    pub class: InstrClass,
    /// Registers read (the scoreboard's operands).
    pub reads: Vec<u16>,
    /// Registers written: the listed destinations; for a global load, the
    /// whole destination group its width fills (`LDG.E.128 R4`: R4-R7).
    pub writes: Vec<u16>,
}

/// A trace prepared for the harness.
#[derive(Clone, Debug)]
pub(crate) struct ReplayTrace {
    /// Per traced CTA (ascending id): its warps.
    pub ctas: Vec<(u64, Vec<Vec<ReplayInstr>>)>,
    /// The trace file, for [`Kernel::check_trace`]'s errors.
    pub file: String,
    /// Its `-grid dim` line (0: not read from a file).
    pub grid_line: usize,
    /// Its `-block dim` line (0: not read from a file).
    pub block_line: usize,
}

impl ReplayTrace {
    /// Index of CTA `id` in `ctas`.
    pub(crate) fn cta_index(&self, id: u64) -> Option<usize> {
        self.ctas.binary_search_by_key(&id, |c| c.0).ok()
    }
}

impl Kernel {
    /// A kernel that replays a trace; `line_bytes` is the coalescing
    /// granularity (the L1 line).
    pub fn from_trace(kt: &KernelTrace, line_bytes: u32) -> Kernel {
        let lm = !(line_bytes as u64 - 1);
        let ctas = kt
            .ctas
            .iter()
            .map(|(id, warps)| {
                let ws = warps
                    .iter()
                    .map(|w| {
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
                                let uniform = super::roles::uniform_stride(lane_addrs);
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
                                    uniform,
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
            params: Default::default(),
            arrays: Vec::new(),
            contents_seed: 0,
            program: Program {
                instrs: vec![Instr::Trace, Instr::Exit],
                info: vec![
                    InstrInfo {
                        class: ExprClass::SCALAR,
                        guard: ExprClass::SCALAR,
                    };
                    2
                ],
                ops: Vec::new(),
                stack_depth: 1,
                n_regs: 6,
                max_nesting: 0,
                mems: Vec::new(),
                loop_lines: Vec::new(),
            },
            trace: Some(Arc::new(ReplayTrace {
                ctas,
                file: kt.file.display().to_string(),
                grid_line: kt.grid_line,
                block_line: kt.block_line,
            })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_address_encodings() {
        // CTA 1 comes first in the file: the CTAs are sorted by id.
        let text = "\
-kernel name = k
-kernel id = 1
-grid dim = (2,1,1)
-block dim = (64,1,1)
-accelsim tracer version = 5
-enable lineinfo = 0

#BEGIN_TB

thread block = 1,0,0

warp = 0
insts = 1
0000 ffffffff 0 EXIT 0 0 0

warp = 1
insts = 4
0000 ffffffff 1 R1 MOV 0 0 0
0010 0000000f 1 R4 LDG.E 1 R4 4 0 0x100 0x104 0x200 0x300 0
0020 00000007 1 R4 LDG.E 1 R4 4 1 0x1000 8 0
0030 00000007 0 STG.E 2 R6 R9 4 2 0x2000 4 -4 0
#END_TB

#BEGIN_TB
thread block = 0,0,0
warp = 1
0000 ffffffff 0 EXIT 0 0 0
warp = 0
0000 ffffffff 0 EXIT 0 0 0
#END_TB
";
        let kt = parse_kernel_trace(text.as_bytes(), "kernel-1.traceg".as_ref()).unwrap();
        assert_eq!(kt.grid, [2, 1, 1]);
        assert_eq!((kt.grid_line, kt.block_line), (3, 4));
        assert_eq!(kt.ctas.len(), 2);
        assert_eq!((kt.ctas[0].0, kt.ctas[1].0), (0, 1));
        let w = &kt.ctas[1].1[1];
        assert_eq!(w.len(), 4);
        assert_eq!(w[1].addrs, vec![0x100, 0x104, 0x200, 0x300]);
        assert_eq!(w[2].addrs, vec![0x1000, 0x1008, 0x1010]);
        assert_eq!(w[3].addrs, vec![0x2000, 0x2004, 0x2000]);
        assert_eq!(w[3].op, TraceOp::Store);
        assert_eq!(kt.instructions(), 7);
        assert_eq!(kt.mem_instructions(), 3);
        let k = Kernel::from_trace(&kt, 128);
        k.check_trace(&super::super::MachineConfig::fermi())
            .unwrap();
        let r = k.trace.as_ref().unwrap();
        assert_eq!(r.ctas[1].1[1][1].lines, vec![0x100, 0x200, 0x300]);
        // Snake's view of a load: the lowest active thread's address and
        // whether the threads are one stride per lane apart.
        let (ragged, strided) = (&r.ctas[1].1[1][1], &r.ctas[1].1[1][2]);
        assert_eq!((ragged.first_addr, ragged.uniform), (0x100, false));
        assert_eq!((strided.first_addr, strided.uniform), (0x1000, true));
    }
}
