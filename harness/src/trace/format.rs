//! What an Accel-Sim trace holds, as read: a kernel's thread blocks, warps
//! and instructions, the register numbering, and the error a trace that
//! cannot be used gives.

use std::path::PathBuf;

/// A trace that cannot be used: the file, the line, the field and what is
/// wrong (with what would be valid). Shown as ``FILE:LINE: field `FIELD`:
/// MESSAGE``, like a kernel file's [`KernelError`](crate::kernel::KernelError).
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
    /// What the trace holds that is replayed but cannot be placed, one
    /// line each: every distinct opcode that is not SASS (replayed as an
    /// ALU instruction) and every distinct register token that is not a
    /// register (left out of the dependencies), with the file, its first
    /// line and how many lines have it. Empty for a clean trace; the CLI
    /// prints each as `warning: ...` on stderr.
    pub warnings: Vec<String>,
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
pub(super) fn classify(opcode: &str) -> TraceOp {
    let base = opcode.split('.').next().unwrap_or("");
    match base {
        "LDG" | "LD" | "LDL" | "ATOM" | "ATOMG" => TraceOp::Load,
        "STG" | "ST" | "STL" | "RED" => TraceOp::Store,
        _ => TraceOp::Compute,
    }
}

/// The register file of a [`trace_reg`] number (its first number).
pub(super) fn trace_reg_file(r: u16) -> u16 {
    match r {
        0..=255 => 0,
        256..=263 => 256,
        264..=327 => 264,
        328..=335 => 328,
        _ => 336,
    }
}
