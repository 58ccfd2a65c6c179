//! What a loaded kernel is: its arrays and their synthetic contents, the
//! compiled program and its instructions, and [`Kernel`] itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::config::InstrClass;
use crate::expr::{Class, Code, ExprClass, Op};
use crate::trace::replay::ReplayTrace;

/// First array base address (GPGPU-Sim's global memory start).
pub const ARRAY_BASE: u64 = 0xC000_0000;
/// Alignment of array bases.
pub const ARRAY_ALIGN: u64 = 256;

/// Synthetic contents of an array.
#[derive(Clone, Debug)]
pub(crate) enum Contents {
    Zero,
    Linear { scale: i64, offset: i64 },
    Random { min: i64, span: u64, seed: u64 },
    Bool { threshold: u64, seed: u64 },
    Values(Arc<Vec<i64>>),
    Table(Arc<Vec<i64>>),
}

impl Contents {
    /// The value of element `idx` (callers check the bounds).
    #[inline]
    pub(crate) fn value(&self, idx: i64) -> i64 {
        match self {
            Contents::Zero => 0,
            Contents::Linear { scale, offset } => idx.wrapping_mul(*scale).wrapping_add(*offset),
            Contents::Random { min, span, seed } => {
                let h = splitmix64(seed ^ (idx as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                if *span == 0 {
                    *min
                } else {
                    min.wrapping_add((h % span) as i64)
                }
            }
            Contents::Bool { threshold, seed } => {
                let h = splitmix64(seed ^ (idx as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                (h < *threshold) as i64
            }
            Contents::Values(v) => v[(idx.rem_euclid(v.len() as i64)) as usize],
            Contents::Table(t) => t.get(idx as usize).copied().unwrap_or(0),
        }
    }
}

/// A mixing function (SplitMix64 finaliser).
pub(crate) fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a name (the seed of its array's or graph's contents).
pub(super) fn hash_str(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// One array of a kernel.
#[derive(Clone, Debug)]
pub struct ArrayInfo {
    /// Name.
    pub name: String,
    /// Element size in bytes.
    pub elem: u32,
    /// Elements.
    pub len: u64,
    /// Base address.
    pub base: u64,
    pub(crate) contents: Contents,
}

impl ArrayInfo {
    /// The synthetic value of element `idx` (0 outside the array).
    pub fn value(&self, idx: i64) -> i64 {
        if idx < 0 || idx as u64 >= self.len {
            0
        } else {
            self.contents.value(idx)
        }
    }
}

/// A memory instruction of the kernel, with its classification.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemInstrInfo {
    /// Program counter.
    pub pc: u32,
    /// A store (else a load).
    pub store: bool,
    /// The array accessed.
    pub array: String,
    /// Classification of the index expression.
    pub class: Class,
    /// The index depends on loaded data (the CAPS `ld_indirect` hint).
    pub indirect: bool,
    /// 1-based line in the kernel file.
    pub line: u32,
    /// A texture load (`load A[i] -> v texture`): through the SM's
    /// read-only texture cache, never the L1 data cache.
    pub texture: bool,
}

/// One instruction of the compiled program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Instr {
    Let {
        dst: u16,
        code: Code,
    },
    Load {
        array: u16,
        index: Code,
        dst: Option<u16>,
        mem: u16,
    },
    Store {
        array: u16,
        index: Code,
        mem: u16,
    },
    Compute {
        n: u32,
        class: InstrClass,
    },
    /// The first use of a register's value (free: no issue slot). With
    /// non-blocking loads (`loads = scoreboard`) the warp waits here until
    /// no load in flight writes `reg`.
    Use {
        reg: u16,
    },
    Barrier,
    /// Push the mask; active &= cond; none active: jump to `else_at`.
    If {
        cond: Code,
        else_at: u32,
    },
    /// Active := the saved mask minus the `then` lanes; none: jump to `end_at`.
    Else {
        end_at: u32,
    },
    /// Pop the mask.
    EndIf,
    LoopBegin {
        var: u16,
        end: u16,
        start: Code,
        bound: Code,
        step: i64,
        exit_at: u32,
    },
    LoopEnd {
        var: u16,
        end: u16,
        step: i64,
        body_at: u32,
    },
    /// Replay the warp's next traced instruction (trace kernels).
    Trace,
    Exit,
}

/// Registers holding the built-ins.
pub(crate) const REG_TID: u16 = 0;
pub(crate) const REG_CTAID: u16 = 3;
pub(super) const FIRST_FREE_REG: u16 = 6;

/// The classification of one instruction, for DAC's decoupling
/// (`harness::decouple`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct InstrInfo {
    /// The class of its expression: a `let`'s value (non-affine when
    /// divergence makes it differ per thread), a memory instruction's
    /// index, an `if`'s condition, a loop's start and bound joined;
    /// scalar for the others.
    pub class: ExprClass,
    /// The join of the guards of the scopes it is in (scalar: every
    /// thread of every CTA executes it together). For `LoopBegin` the
    /// loop's own scope is included.
    pub guard: ExprClass,
    /// A `Compute` the compiler inserted before a load or store: its
    /// address arithmetic (`sm_harness.md` revision 3, "address arithmetic
    /// is free": SASS computes addresses with ALU instructions).
    pub addr: bool,
}

/// The compiled body.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub instrs: Vec<Instr>,
    /// Per instruction.
    pub info: Vec<InstrInfo>,
    pub ops: Vec<Op>,
    pub stack_depth: usize,
    pub n_regs: usize,
    pub max_nesting: usize,
    /// Per memory instruction (`mem` index).
    pub mems: Vec<MemInstrInfo>,
    /// Per `LoopBegin`, in program order: the `loop` statement's line (in
    /// the kernel file once loaded).
    pub loop_lines: Vec<u32>,
    /// The register the address arithmetic writes and its access reads
    /// (so the access waits for it under instruction timing), if the
    /// program has address arithmetic.
    pub addr_reg: Option<u16>,
}

/// A kernel ready to run.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// Free text.
    pub description: String,
    /// Where the code comes from.
    pub source: String,
    /// The file it was loaded from.
    pub file: String,
    /// Grid dimensions (x, y, z).
    pub grid: [u32; 3],
    /// Block dimensions (x, y, z).
    pub block: [u32; 3],
    /// Shared memory per CTA in bytes.
    pub smem_bytes: u32,
    /// Registers per thread (`nvcc -v`; 0 when the file does not say),
    /// for the CATT analysis's register limit on CTAs per SM.
    pub regs: u32,
    /// The file's `address_arithmetic` (default true): false when its
    /// `let`s spell out the address arithmetic the source's instructions
    /// do (the DAC example's pseudo-assembly), so its accesses cost no
    /// more (`kernels/README.md`, "Address arithmetic").
    pub address_arithmetic: bool,
    /// Parameters with their values, by name.
    pub params: BTreeMap<String, i64>,
    /// Arrays in address order.
    pub arrays: Vec<ArrayInfo>,
    /// The seed the contents were generated with.
    pub contents_seed: u64,
    pub(crate) program: Program,
    /// The traced warps (a kernel built from an Accel-Sim trace).
    pub(crate) trace: Option<Arc<ReplayTrace>>,
}

impl Kernel {
    /// Whether the kernel replays an Accel-Sim trace (its instructions
    /// come from trace files, not from the kernel file's text).
    pub fn is_traced(&self) -> bool {
        self.trace.is_some()
    }

    /// The warnings of the trace the kernel replays
    /// ([`KernelTrace::warnings`](crate::trace::KernelTrace::warnings):
    /// unknown opcodes, unreadable registers); empty for a kernel file.
    pub fn trace_warnings(&self) -> &[String] {
        self.trace.as_deref().map_or(&[], |t| t.warnings.as_slice())
    }

    /// Threads per CTA.
    pub fn threads_per_cta(&self) -> u32 {
        self.block[0] * self.block[1] * self.block[2]
    }
    /// Warps per CTA.
    pub fn warps_per_cta(&self) -> u32 {
        self.threads_per_cta().div_ceil(32)
    }
    /// CTAs in the grid.
    pub fn total_ctas(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }
    /// Every memory instruction with its classification, in program order.
    pub fn mem_instrs(&self) -> &[MemInstrInfo] {
        &self.program.mems
    }
    /// The array with this name.
    pub fn array(&self, name: &str) -> Option<&ArrayInfo> {
        self.arrays.iter().find(|a| a.name == name)
    }
    /// Whether the kernel replays an Accel-Sim trace.
    pub fn is_trace(&self) -> bool {
        self.trace.is_some()
    }
    /// The array holding byte address `addr`, if any.
    pub fn array_at(&self, addr: u64) -> Option<usize> {
        let i = self.arrays.partition_point(|a| a.base <= addr);
        if i == 0 {
            return None;
        }
        let a = &self.arrays[i - 1];
        (addr < a.base + a.len * a.elem as u64).then_some(i - 1)
    }
}
