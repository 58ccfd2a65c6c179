//! Kernel files: the TOML format, its checks (every error names the file,
//! the line and the field), and the compilation of the body into the
//! harness' program.
//!
//! # Format
//! ```toml
//! name = "vectorAdd"                 # required
//! description = "C[i] = A[i] + B[i]" # optional
//! source = "CUDA SDK vectorAdd"      # optional: where the code comes from
//! seed = 7                           # optional: mixed into the contents seed
//! grid = ["N / 256"]                 # 1 to 3 entries (x, y, z): integers or
//! block = [256]                      #   scalar expressions over the params
//! smem_bytes = 0                     # optional: shared memory per CTA
//! body = """
//! let i = ctaid.x * blockDim.x + tid.x
//! if i < N {
//!   load A[i]
//!   load B[i]
//!   compute 1
//!   store C[i]
//! }
//! """
//!
//! [params]                           # named integers; a value may be an
//! N = 16384                          #   expression over other params
//!
//! [arrays.A]                         # one table per array, in address order
//! elem = 4                           # element size in bytes (1, 2, 4, 8)
//! len = "N"                          # elements (integer or expression)
//! contents = "zero"                  # synthetic values (below)
//!
//! [graphs.g]                         # a random graph (CSR) for contents
//! nodes = "N"
//! degree = [1, 8]                    # out-degree uniform in [min, max]
//! ```
//! Top-level keys (`body` included) must come before the first `[table]`,
//! as TOML requires.
//!
//! Arrays get base addresses from a bump allocator starting at
//! `0xC0000000`, 256-byte aligned, in the order of their tables in the file.
//!
//! ## Contents (read-only; stores generate traffic only)
//! `contents` is a kind name or a table `{ kind = "...", ... }`:
//! `zero` (default), `index` (value = index), `linear` (`scale`, `offset`),
//! `random` (uniform in `[min, max]`), `bool` (1 with probability `p`),
//! `values` (`values = [...]`, repeated), and, with `graph = "g"`:
//! `graph-offsets` (CSR row pointers, nodes + 1), `graph-edges` (edge
//! targets), `graph-starts`, `graph-degrees`, `graph-nodes` (start and
//! degree interleaved: Rodinia's `Node` struct as two ints).
//! Indices outside `[0, len)` read 0 (and are counted).
//!
//! ## Body
//! One statement per line (or separated by `;`); `#` and `//` comments;
//! a line ending in an operator continues on the next.
//! ```text
//! let x = EXPR                    declare a per-thread variable (1 instruction)
//! x = EXPR | x += EXPR | x -= EXPR | x *= EXPR     assign (1 instruction)
//! load ARRAY[EXPR] [@PC]          a load whose value is not used
//! store ARRAY[EXPR] [= EXPR] [@PC]
//! loop VAR COUNT { ... }          VAR = 0 .. COUNT-1 (COUNT scalar)
//! loop VAR = START .. END [step S] { ... }   per-thread bounds allowed (divergent)
//! if COND { ... } [else { ... } | else if ...]
//! compute N [CLASS] [uses NAMES]  N non-memory instructions (N a scalar constant)
//!                                 of class alu (default), sfu, dp, tensor or smem
//! barrier                         __syncthreads()
//! ```
//! `ARRAY[EXPR]` inside any expression is a load of that element (issued as
//! its own load instruction just before the statement, in evaluation
//! order); its value makes every expression using it *indirect*.
//! Built-ins: `tid.x/y/z` (`threadIdx`), `ctaid.x/y/z` (`blockIdx`),
//! `ntid.x/y/z` (`blockDim`), `nctaid.x/y/z` (`gridDim`), `warpSize`.
//! Every instruction gets the PC `8 * index` in program order unless an
//! explicit `@PC` is given. Costs: `let`/assignment 1, `load`/`store` 1,
//! `if` 1, loop entry 1 and 1 per back edge, `barrier` 1, `compute N` N.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use toml::Spanned;

use super::expr::{
    compile, lex, parse_expr, Ast, Class, Code, ExprClass, ExprError, Op, Parser, RExpr, Tok,
};

/// First array base address (GPGPU-Sim's global memory start).
pub const ARRAY_BASE: u64 = 0xC000_0000;
/// Alignment of array bases.
pub const ARRAY_ALIGN: u64 = 256;

/// A kernel file that cannot be used: file, line, field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError {
    /// The file (as given).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// The field (`arrays.A.len`, `body`, ...); empty for a TOML syntax
    /// error, which is not about one field.
    pub field: String,
    /// What is wrong.
    pub msg: String,
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.field.is_empty()) {
            (Some(l), false) => write!(
                f,
                "{}:{}: field `{}`: {}",
                self.file, l, self.field, self.msg
            ),
            (Some(l), true) => write!(f, "{}:{}: {}", self.file, l, self.msg),
            (None, false) => write!(f, "{}: field `{}`: {}", self.file, self.field, self.msg),
            (None, true) => write!(f, "{}: {}", self.file, self.msg),
        }
    }
}

impl std::error::Error for KernelError {}

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

fn hash_str(s: &str) -> u64 {
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
        class: super::config::InstrClass,
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
const FIRST_FREE_REG: u16 = 6;

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
    /// Parameters with their values, by name.
    pub params: BTreeMap<String, i64>,
    /// Arrays in address order.
    pub arrays: Vec<ArrayInfo>,
    /// The seed the contents were generated with.
    pub contents_seed: u64,
    pub(crate) program: Program,
    /// The traced warps (a kernel built from an Accel-Sim trace).
    pub(crate) trace: Option<Arc<super::trace::ReplayTrace>>,
}

impl Kernel {
    /// Load a kernel file. `overrides` replace parameter values
    /// (`--set param.N=...`); `seed` is the run seed mixed into the
    /// synthetic contents.
    pub fn from_file(
        path: &Path,
        overrides: &[(String, i64)],
        seed: u64,
    ) -> Result<Kernel, KernelError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| KernelError {
            file: file.clone(),
            line: None,
            field: "(file)".into(),
            msg: format!("cannot read: {e}"),
        })?;
        Kernel::from_str(&text, &file, overrides, seed)
    }

    /// Load a kernel from text; `file` names it in errors.
    pub fn from_str(
        text: &str,
        file: &str,
        overrides: &[(String, i64)],
        seed: u64,
    ) -> Result<Kernel, KernelError> {
        Loader {
            text,
            file,
            line_starts: line_starts(text),
        }
        .load(overrides, seed)
    }

    /// Whether the kernel replays an Accel-Sim trace (its instructions
    /// come from trace files, not from the kernel file's text).
    pub fn is_traced(&self) -> bool {
        self.trace.is_some()
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

// ---------------------------------------------------------------- loading

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    name: Spanned<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    grid: Spanned<Vec<Spanned<toml::Value>>>,
    block: Spanned<Vec<Spanned<toml::Value>>>,
    #[serde(default)]
    smem_bytes: Option<Spanned<toml::Value>>,
    #[serde(default)]
    regs: Option<Spanned<toml::Value>>,
    body: Spanned<String>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    arrays: BTreeMap<String, Spanned<RawArray>>,
    #[serde(default)]
    graphs: BTreeMap<String, Spanned<RawGraph>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArray {
    elem: Spanned<toml::Value>,
    len: Spanned<toml::Value>,
    #[serde(default)]
    contents: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGraph {
    nodes: Spanned<toml::Value>,
    #[serde(default)]
    degree: Option<Spanned<toml::Value>>,
    #[serde(default)]
    seed: Option<u64>,
}

struct Loader<'a> {
    text: &'a str,
    file: &'a str,
    line_starts: Vec<usize>,
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    v
}

/// A random graph in CSR form.
struct Graph {
    offsets: Vec<i64>,
    edges: Vec<i64>,
}

impl<'a> Loader<'a> {
    fn line_of(&self, offset: usize) -> u32 {
        (self.line_starts.partition_point(|&s| s <= offset)) as u32
    }

    fn err(&self, offset: Option<usize>, field: &str, msg: impl Into<String>) -> KernelError {
        KernelError {
            file: self.file.to_string(),
            line: offset.map(|o| self.line_of(o)),
            field: field.to_string(),
            msg: msg.into(),
        }
    }

    /// The dotted key of the entry on the line holding `offset`: the
    /// `[table]` header above it plus the key before `=`.
    fn field_at(&self, offset: usize) -> String {
        let ln = self.line_of(offset) as usize - 1;
        let line_text = |i: usize| {
            let s = self.line_starts[i];
            let e = self
                .line_starts
                .get(i + 1)
                .copied()
                .unwrap_or(self.text.len());
            self.text[s..e].trim()
        };
        let this = line_text(ln);
        let key = this
            .split_once('=')
            .map(|(k, _)| k.trim().trim_matches('"').to_string())
            .filter(|k| !k.is_empty() && !k.contains(' '))
            .or_else(|| {
                let t = this.trim_start_matches('[').trim_end_matches(']');
                this.starts_with('[').then(|| t.to_string())
            });
        let table = (0..=ln)
            .rev()
            .map(line_text)
            .find(|l| l.starts_with('[') && !l.starts_with("[["))
            .map(|l| {
                l.trim_start_matches('[')
                    .trim_end_matches(']')
                    .trim()
                    .to_string()
            });
        match (table, key) {
            (Some(t), Some(k)) if !this.starts_with('[') => format!("{t}.{k}"),
            (_, Some(k)) => k,
            (Some(t), None) => t,
            (None, None) => "(document)".into(),
        }
    }

    fn load(&self, overrides: &[(String, i64)], run_seed: u64) -> Result<Kernel, KernelError> {
        let raw: RawKernel = toml::from_str(self.text).map_err(|e| {
            let msg = e.message().to_string();
            let field = if let Some(f) = msg
                .strip_prefix("missing field `")
                .and_then(|r| r.split('`').next())
            {
                f.to_string()
            } else if let Some(f) = msg
                .strip_prefix("unknown field `")
                .and_then(|r| r.split('`').next())
            {
                f.to_string()
            } else if [
                "invalid type",
                "invalid value",
                "invalid length",
                "duplicate field",
            ]
            .iter()
            .any(|p| msg.starts_with(p))
            {
                e.span()
                    .map(|s| self.field_at(s.start))
                    .unwrap_or_else(|| "(document)".into())
            } else {
                // A syntax error: not about one field.
                String::new()
            };
            let msg = if field.is_empty() {
                format!("TOML syntax error: {}", msg.replace('\n', " "))
            } else {
                msg
            };
            self.err(e.span().map(|s| s.start), &field, msg)
        })?;

        // Parameters: resolve in dependency order.
        let mut params: BTreeMap<String, i64> = BTreeMap::new();
        for (k, v) in overrides {
            if !raw.params.contains_key(k) {
                return Err(self.err(
                    None,
                    &format!("params.{k}"),
                    format!(
                        "no parameter `{k}` to override; the kernel has: {}",
                        raw.params.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            params.insert(k.clone(), *v);
        }
        let mut pending: Vec<(&String, &Spanned<toml::Value>)> = raw
            .params
            .iter()
            .filter(|(k, _)| !params.contains_key(*k))
            .collect();
        while let Some(&(first, first_v)) = pending.first() {
            let before = pending.len();
            let mut still = Vec::new();
            for (k, v) in pending {
                // A parameter waits for the parameters it names; any other
                // error (syntax, overflow, a zero divisor) is its own.
                if missing_param(v, &params).is_some() {
                    still.push((k, v));
                    continue;
                }
                let x = self.scalar(v, &format!("params.{k}"), &params)?;
                params.insert(k.clone(), x);
            }
            if still.len() == before {
                let field = format!("params.{first}");
                return Err(match missing_param(first_v, &params) {
                    Some(m) if raw.params.contains_key(&m) => self.err(
                        Some(first_v.span().start),
                        &field,
                        format!(
                            "`{first}` needs `{m}`, which cannot be resolved first: the \
                             parameters depend on one another in a cycle"
                        ),
                    ),
                    _ => match self.scalar(first_v, &field, &params) {
                        Err(e) => e,
                        Ok(_) => self.err(Some(first_v.span().start), &field, "cannot be resolved"),
                    },
                });
            }
            pending = still;
        }

        let dims = |v: &Spanned<Vec<Spanned<toml::Value>>>, what: &str| {
            let list = v.get_ref();
            if list.is_empty() || list.len() > 3 {
                return Err(self.err(
                    Some(v.span().start),
                    what,
                    "expected 1 to 3 dimensions (x, y, z)",
                ));
            }
            let mut d = [1u32; 3];
            for (i, x) in list.iter().enumerate() {
                let f = format!("{what}[{i}]");
                let val = self.scalar(x, &f, &params)?;
                if !(1..=1 << 31).contains(&val) {
                    return Err(self.err(
                        Some(x.span().start),
                        &f,
                        format!(
                            "dimension {val} out of range (1..=2^31){}",
                            shown_expr(x, &params)
                        ),
                    ));
                }
                d[i] = val as u32;
            }
            Ok(d)
        };
        let grid = dims(&raw.grid, "grid")?;
        let block = dims(&raw.block, "block")?;
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        if threads > 2048 {
            return Err(self.err(
                Some(raw.block.span().start),
                "block",
                format!("{threads} threads per CTA; at most 2048"),
            ));
        }
        let smem_bytes = match &raw.smem_bytes {
            Some(v) => {
                let x = self.scalar(v, "smem_bytes", &params)?;
                if !(0..=1 << 24).contains(&x) {
                    return Err(self.err(
                        Some(v.span().start),
                        "smem_bytes",
                        format!(
                            "{x} bytes out of range (0..=2^24){}",
                            shown_expr(v, &params)
                        ),
                    ));
                }
                x as u32
            }
            None => 0,
        };
        let regs = match &raw.regs {
            Some(v) => {
                let x = self.scalar(v, "regs", &params)?;
                if !(1..=255).contains(&x) {
                    return Err(self.err(
                        Some(v.span().start),
                        "regs",
                        format!("{x} registers per thread; allowed 1..=255"),
                    ));
                }
                x as u32
            }
            None => 0,
        };

        let kseed = raw.seed.unwrap_or(0);
        let contents_seed = splitmix64(run_seed ^ splitmix64(kseed ^ 0x5EED));

        // Graphs.
        let mut graphs: HashMap<String, Arc<Graph>> = HashMap::new();
        for (gname, g) in &raw.graphs {
            let field = format!("graphs.{gname}");
            let nodes = self.scalar(&g.get_ref().nodes, &format!("{field}.nodes"), &params)?;
            if !(1..=1 << 24).contains(&nodes) {
                return Err(self.err(
                    Some(g.get_ref().nodes.span().start),
                    &format!("{field}.nodes"),
                    format!(
                        "{nodes} nodes; allowed 1..=2^24{}",
                        shown_expr(&g.get_ref().nodes, &params)
                    ),
                ));
            }
            let (dmin, dmax) = match &g.get_ref().degree {
                None => (1, 8),
                Some(d) => {
                    let bad = || {
                        self.err(
                            Some(d.span().start),
                            &format!("{field}.degree"),
                            "expected [min, max] with 0 <= min <= max <= 4096",
                        )
                    };
                    let arr = d.get_ref().as_array().ok_or_else(bad)?;
                    if arr.len() != 2 {
                        return Err(bad());
                    }
                    let a = arr[0].as_integer().ok_or_else(bad)?;
                    let b = arr[1].as_integer().ok_or_else(bad)?;
                    if a < 0 || a > b || b > 4096 {
                        return Err(bad());
                    }
                    (a, b)
                }
            };
            // The edge list is built in memory (and copied per array).
            if nodes * dmax > 1 << 25 {
                return Err(self.err(
                    Some(g.span().start),
                    &field,
                    format!(
                        "{nodes} nodes of out-degree up to {dmax}: up to {} edges; at most 2^25",
                        nodes * dmax
                    ),
                ));
            }
            let gseed = contents_seed ^ splitmix64(g.get_ref().seed.unwrap_or(hash_str(gname)));
            let mut rng = ChaCha8Rng::seed_from_u64(gseed);
            let mut offsets = Vec::with_capacity(nodes as usize + 1);
            let mut edges = Vec::new();
            offsets.push(0);
            for _ in 0..nodes {
                let deg = rng.gen_range(dmin..=dmax);
                for _ in 0..deg {
                    edges.push(rng.gen_range(0..nodes));
                }
                offsets.push(edges.len() as i64);
            }
            graphs.insert(gname.clone(), Arc::new(Graph { offsets, edges }));
        }

        // Arrays, in file order.
        let mut raw_arrays: Vec<(&String, &Spanned<RawArray>)> = raw.arrays.iter().collect();
        raw_arrays.sort_by_key(|(_, a)| a.span().start);
        let mut arrays = Vec::new();
        let mut next_base = ARRAY_BASE;
        for (aname, a) in raw_arrays {
            let field = format!("arrays.{aname}");
            let ra = a.get_ref();
            let elem = self.scalar(&ra.elem, &format!("{field}.elem"), &params)?;
            if ![1, 2, 4, 8].contains(&elem) {
                return Err(self.err(
                    Some(ra.elem.span().start),
                    &format!("{field}.elem"),
                    format!(
                        "element size {elem}; expected 1, 2, 4 or 8{}",
                        shown_expr(&ra.elem, &params)
                    ),
                ));
            }
            let len = self.scalar(&ra.len, &format!("{field}.len"), &params)?;
            if !(1..=1 << 30).contains(&len) {
                return Err(self.err(
                    Some(ra.len.span().start),
                    &format!("{field}.len"),
                    format!(
                        "length {len}; allowed 1..=2^30{}",
                        shown_expr(&ra.len, &params)
                    ),
                ));
            }
            let seed = contents_seed ^ splitmix64(hash_str(aname));
            let contents = match &ra.contents {
                None => Contents::Zero,
                Some(c) => self.contents(c, &format!("{field}.contents"), seed, &graphs)?,
            };
            let bytes = len as u64 * elem as u64;
            if next_base + bytes > 1 << 32 {
                return Err(self.err(
                    Some(ra.len.span().start),
                    &format!("{field}.len"),
                    "the arrays do not fit in the 32-bit address space above 0xC0000000",
                ));
            }
            arrays.push(ArrayInfo {
                name: aname.clone(),
                elem: elem as u32,
                len: len as u64,
                base: next_base,
                contents,
            });
            next_base = (next_base + bytes).div_ceil(ARRAY_ALIGN) * ARRAY_ALIGN;
        }

        // The body.
        let body_line0 = {
            let s = raw.body.span().start;
            let lit = &self.text[s..];
            let mut l = self.line_of(s);
            if (lit.starts_with("\"\"\"") || lit.starts_with("'''"))
                && (lit[3..].starts_with('\n') || lit[3..].starts_with("\r\n"))
            {
                l += 1;
            }
            l
        };
        let program = BodyCompiler::compile(
            raw.body.get_ref(),
            &params,
            &arrays,
            grid,
            block,
            body_line0,
        )
        .map_err(|e| KernelError {
            file: self.file.to_string(),
            line: Some(body_line0 + e.pos.line),
            field: "body".into(),
            msg: e.msg,
        })?;
        let mut program = program;
        for m in &mut program.mems {
            m.line += body_line0;
        }
        for l in &mut program.loop_lines {
            *l += body_line0;
        }

        Ok(Kernel {
            name: raw.name.get_ref().clone(),
            description: raw.description.unwrap_or_default(),
            source: raw.source.unwrap_or_default(),
            file: self.file.to_string(),
            grid,
            block,
            smem_bytes,
            regs,
            params,
            arrays,
            contents_seed,
            program,
            trace: None,
        })
    }

    /// An integer, or a string holding a scalar expression over `params`.
    fn scalar(
        &self,
        v: &Spanned<toml::Value>,
        field: &str,
        params: &BTreeMap<String, i64>,
    ) -> Result<i64, KernelError> {
        let at = Some(v.span().start);
        match v.get_ref() {
            toml::Value::Integer(i) => Ok(*i),
            toml::Value::String(s) => {
                let ast =
                    parse_expr(s).map_err(|e| self.err(at, field, format!("`{s}`: {}", e.msg)))?;
                let r = resolve_const(&ast, params)
                    .map_err(|e| self.err(at, field, format!("`{s}`: {e}")))?;
                Ok(r)
            }
            other => Err(self.err(
                at,
                field,
                format!(
                    "expected an integer or an expression string, found {}",
                    other.type_str()
                ),
            )),
        }
    }

    fn contents(
        &self,
        c: &Spanned<toml::Value>,
        field: &str,
        seed: u64,
        graphs: &HashMap<String, Arc<Graph>>,
    ) -> Result<Contents, KernelError> {
        let at = Some(c.span().start);
        let err = |m: String| self.err(at, field, m);
        let (kind, table) = match c.get_ref() {
            toml::Value::String(s) => (s.clone(), toml::Table::new()),
            toml::Value::Table(t) => {
                let k = t
                    .get("kind")
                    .and_then(|k| k.as_str())
                    .ok_or_else(|| err("a contents table needs `kind = \"...\"`".into()))?;
                (k.to_string(), t.clone())
            }
            other => {
                return Err(err(format!(
                    "expected a kind name or a table, found {}",
                    other.type_str()
                )))
            }
        };
        let allowed: &[&str] = match kind.as_str() {
            "zero" | "index" => &[],
            "linear" => &["scale", "offset"],
            "random" => &["min", "max"],
            "bool" => &["p"],
            "values" => &["values"],
            "graph-offsets" | "graph-edges" | "graph-starts" | "graph-degrees" | "graph-nodes" => {
                &["graph"]
            }
            _ => {
                return Err(err(format!(
                    "unknown contents kind `{kind}`; expected zero, index, linear, random, bool, values, \
                     graph-offsets, graph-edges, graph-starts, graph-degrees or graph-nodes"
                )))
            }
        };
        for k in table.keys() {
            if k != "kind" && !allowed.contains(&k.as_str()) {
                return Err(err(format!("unknown key `{k}` for contents kind `{kind}`")));
            }
        }
        let int = |k: &str, default: Option<i64>| -> Result<i64, KernelError> {
            match table.get(k) {
                Some(v) => v
                    .as_integer()
                    .ok_or_else(|| err(format!("`{k}` must be an integer"))),
                None => default.ok_or_else(|| err(format!("contents kind `{kind}` needs `{k}`"))),
            }
        };
        let graph = || -> Result<Arc<Graph>, KernelError> {
            let g = table
                .get("graph")
                .and_then(|g| g.as_str())
                .ok_or_else(|| err(format!("contents kind `{kind}` needs `graph = \"NAME\"`")))?;
            graphs
                .get(g)
                .cloned()
                .ok_or_else(|| err(format!("no graph `{g}` (declare it as [graphs.{g}])")))
        };
        Ok(match kind.as_str() {
            "zero" => Contents::Zero,
            "index" => Contents::Linear {
                scale: 1,
                offset: 0,
            },
            "linear" => Contents::Linear {
                scale: int("scale", Some(1))?,
                offset: int("offset", Some(0))?,
            },
            "random" => {
                let min = int("min", None)?;
                let max = int("max", None)?;
                if max < min {
                    return Err(err(format!("random: max {max} < min {min}")));
                }
                Contents::Random {
                    min,
                    span: (max.wrapping_sub(min) as u64).wrapping_add(1),
                    seed,
                }
            }
            "bool" => {
                let p = table
                    .get("p")
                    .and_then(|p| p.as_float().or_else(|| p.as_integer().map(|i| i as f64)))
                    .ok_or_else(|| err("bool needs `p` (a probability)".into()))?;
                if !(0.0..=1.0).contains(&p) {
                    return Err(err(format!("probability p = {p} outside [0, 1]")));
                }
                let threshold = if p >= 1.0 {
                    u64::MAX
                } else {
                    (p * (u64::MAX as f64)) as u64
                };
                Contents::Bool { threshold, seed }
            }
            "values" => {
                let vals = table
                    .get("values")
                    .and_then(|v| v.as_array())
                    .ok_or_else(|| err("values needs `values = [...]`".into()))?;
                let v: Option<Vec<i64>> = vals.iter().map(|x| x.as_integer()).collect();
                let v = v.ok_or_else(|| err("`values` must be integers".into()))?;
                if v.is_empty() {
                    return Err(err("`values` is empty".into()));
                }
                Contents::Values(Arc::new(v))
            }
            "graph-offsets" => Contents::Table(Arc::new(graph()?.offsets.clone())),
            "graph-edges" => Contents::Table(Arc::new(graph()?.edges.clone())),
            "graph-starts" => {
                let g = graph()?;
                Contents::Table(Arc::new(g.offsets[..g.offsets.len() - 1].to_vec()))
            }
            "graph-degrees" => {
                let g = graph()?;
                Contents::Table(Arc::new(
                    g.offsets.windows(2).map(|w| w[1] - w[0]).collect(),
                ))
            }
            "graph-nodes" => {
                let g = graph()?;
                Contents::Table(Arc::new(
                    g.offsets
                        .windows(2)
                        .flat_map(|w| [w[0], w[1] - w[0]])
                        .collect(),
                ))
            }
            _ => unreachable!(),
        })
    }
}

/// For a value out of range: `: `EXPR` with N = 4096, M = 2` when the
/// value is an expression string over parameters, `: `EXPR`` for one
/// without, nothing for an integer.
fn shown_expr(v: &Spanned<toml::Value>, params: &BTreeMap<String, i64>) -> String {
    fn names(a: &Ast, out: &mut Vec<String>) {
        match a {
            Ast::Int(_) => {}
            Ast::Name(n, _) => {
                if !out.contains(n) {
                    out.push(n.clone())
                }
            }
            Ast::Index(_, x, _) | Ast::Un(_, x) => names(x, out),
            Ast::Bin(_, x, y) => {
                names(x, out);
                names(y, out);
            }
        }
    }
    let toml::Value::String(s) = v.get_ref() else {
        return String::new();
    };
    let mut used = Vec::new();
    if let Ok(ast) = parse_expr(s) {
        names(&ast, &mut used);
    }
    let vals: Vec<String> = used
        .iter()
        .filter_map(|n| params.get(n).map(|v| format!("{n} = {v}")))
        .collect();
    if vals.is_empty() {
        format!(": `{s}`")
    } else {
        format!(": `{s}` with {}", vals.join(", "))
    }
}

/// The first name a parameter's expression uses that `params` does not
/// have yet (`None` for an integer, a syntax error, or every name known).
fn missing_param(v: &Spanned<toml::Value>, params: &BTreeMap<String, i64>) -> Option<String> {
    fn names<'a>(a: &'a Ast, out: &mut Vec<&'a str>) {
        match a {
            Ast::Int(_) => {}
            Ast::Name(n, _) => out.push(n),
            Ast::Index(_, x, _) | Ast::Un(_, x) => names(x, out),
            Ast::Bin(_, x, y) => {
                names(x, out);
                names(y, out);
            }
        }
    }
    let toml::Value::String(s) = v.get_ref() else {
        return None;
    };
    let ast = parse_expr(s).ok()?;
    let mut used = Vec::new();
    names(&ast, &mut used);
    used.into_iter()
        .find(|n| !params.contains_key(*n))
        .map(str::to_string)
}

/// Evaluate an expression that may only use literals and parameters, in
/// checked 64-bit arithmetic: an overflow or a zero divisor is an error
/// naming the operation and the parameters' values.
fn resolve_const(ast: &Ast, params: &BTreeMap<String, i64>) -> Result<i64, String> {
    use super::expr::{BinOp, UnOp};
    enum Fail {
        /// Not a constant expression (an unknown name, an array).
        Other(String),
        /// Overflow or a zero divisor: the operation.
        Arith(String),
    }
    fn sym(op: BinOp) -> &'static str {
        match op {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
    fn go(a: &Ast, params: &BTreeMap<String, i64>, used: &mut Vec<String>) -> Result<i64, Fail> {
        Ok(match a {
            Ast::Int(v) => *v,
            Ast::Name(n, _) => {
                let v = *params.get(n).ok_or_else(|| {
                    Fail::Other(format!(
                        "unknown parameter `{n}` (only integers and parameters are allowed here)"
                    ))
                })?;
                if !used.contains(n) {
                    used.push(n.clone());
                }
                v
            }
            Ast::Index(n, _, _) => {
                return Err(Fail::Other(format!("`{n}[...]`: no array values here")))
            }
            Ast::Un(op, x) => {
                let v = go(x, params, used)?;
                match op {
                    UnOp::Neg => v.checked_neg().ok_or_else(|| {
                        Fail::Arith(format!("-({v}) overflows the 64-bit integer range"))
                    })?,
                    UnOp::Not => op.apply(v),
                }
            }
            Ast::Bin(op, x, y) => {
                let a = go(x, params, used)?;
                let b = go(y, params, used)?;
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div | BinOp::Rem if b == 0 => {
                        return Err(Fail::Arith(format!("division by zero: {a} {} 0", sym(*op))))
                    }
                    BinOp::Div => a.checked_div(b),
                    BinOp::Rem => a.checked_rem(b),
                    _ => Some(op.apply(a, b)),
                };
                r.ok_or_else(|| {
                    Fail::Arith(format!(
                        "{a} {} {b} overflows the 64-bit integer range",
                        sym(*op)
                    ))
                })?
            }
        })
    }
    let mut used = Vec::new();
    go(ast, params, &mut used).map_err(|f| match f {
        Fail::Other(m) => m,
        Fail::Arith(m) if used.is_empty() => m,
        Fail::Arith(m) => {
            let vals: Vec<String> = used
                .iter()
                .map(|n| format!("{n} = {}", params.get(n).copied().unwrap_or_default()))
                .collect();
            format!("{m} (with {})", vals.join(", "))
        }
    })
}

// ---------------------------------------------------------------- body

/// How deep blocks (`if`, `else if`, `loop`, `unroll`) may nest.
pub const MAX_BLOCK_DEPTH: usize = 64;
/// How many instructions a body may compile to (`unroll` copies included).
pub const MAX_INSTRS: usize = 1 << 17;
/// How many copies the `unroll` statements of a body may make in all
/// (nested ones multiply).
pub const MAX_UNROLLED: usize = 1 << 14;

/// The COUNT of `loop VAR COUNT` / `unroll VAR COUNT`: scalar (the same
/// for every thread), and not a negative constant.
fn check_count(r: &RExpr, class: ExprClass, pos: super::expr::Pos, what: &str) -> PResult<()> {
    if let Some(k) = r.as_const().filter(|&k| k < 0) {
        return Err(ExprError::new(
            pos,
            format!("`{what}` count {k} is negative (a count runs VAR = 0 .. COUNT-1)"),
        ));
    }
    if class.class != Class::Scalar {
        let kind = match (class.class, class.indirect) {
            (_, true) => "depends on loaded data",
            (Class::Affine, _) => "is affine (it differs between threads)",
            _ => "is non-affine (it may differ between threads)",
        };
        return Err(ExprError::new(
            pos,
            format!(
                "the count of `{what} VAR COUNT` must be scalar (the same for every thread), \
                 and this one {kind}; per-thread bounds are written `loop VAR = 0 .. END`"
            ),
        ));
    }
    Ok(())
}

/// The run-time error for a `/` or `%` whose divisor is 0 at the active
/// `lanes` of warp slot `warp` evaluating `code`: the kernel file, the
/// statement's line, the lanes.
pub(crate) fn zero_divisor_error(
    k: &Kernel,
    code: Code,
    lanes: u32,
    warp: u16,
    cycle: u64,
) -> crate::error::HarnessError {
    // The lanes as ranges: `3`, `0-31`, `0-2, 5`.
    let mut ranges: Vec<String> = Vec::new();
    let mut l = 0u32;
    while l < 32 {
        if lanes >> l & 1 == 0 {
            l += 1;
            continue;
        }
        let first = l;
        while l < 32 && lanes >> l & 1 != 0 {
            l += 1;
        }
        ranges.push(if l - 1 == first {
            first.to_string()
        } else {
            format!("{first}-{}", l - 1)
        });
    }
    crate::error::HarnessError::Kernel(KernelError {
        file: k.file.clone(),
        line: (code.line > 0).then_some(code.line),
        field: "body".into(),
        msg: format!(
            "division by zero at run time: a `/` or `%` has the divisor 0 for active lane{} {} \
             of warp slot {warp} at cycle {cycle}",
            if lanes.count_ones() == 1 { "" } else { "s" },
            ranges.join(", ")
        ),
    })
}

/// A `/` or `%` whose divisor is the constant 0 is an error.
fn no_zero_divisor(r: &RExpr, pos: super::expr::Pos) -> PResult<()> {
    if r.zero_divisor() {
        return Err(ExprError::new(
            pos,
            "division by zero: a `/` or `%` has the constant divisor 0",
        ));
    }
    Ok(())
}

/// Element-wise join of two class vectors (the shorter padded with scalar).
fn join_all(a: &[ExprClass], b: &[ExprClass]) -> Vec<ExprClass> {
    (0..a.len().max(b.len()))
        .map(|i| {
            let x = a.get(i).copied().unwrap_or(ExprClass::SCALAR);
            let y = b.get(i).copied().unwrap_or(ExprClass::SCALAR);
            x.join(y)
        })
        .collect()
}

/// A variable declared in the body.
#[derive(Clone, Copy)]
struct Var {
    reg: u16,
    /// Scope depth it was declared at.
    depth: usize,
    id: usize,
}

struct Scope {
    vars: HashMap<String, Var>,
    /// Names bound to constants (an `unroll` counter in its copy).
    consts: HashMap<String, i64>,
    /// Join of the guards of this scope (non-scalar: divergent).
    guard: ExprClass,
}

struct BodyCompiler<'a> {
    params: &'a BTreeMap<String, i64>,
    arrays: &'a [ArrayInfo],
    grid: [u32; 3],
    block: [u32; 3],
    instrs: Vec<Instr>,
    explicit_pc: Vec<Option<u32>>,
    info: Vec<InstrInfo>,
    ops: Vec<Op>,
    stack_depth: usize,
    next_reg: u16,
    scopes: Vec<Scope>,
    /// Per variable id: its class at this point of the program (the
    /// classification is flow-sensitive: a use sees the definitions that
    /// reach it).
    cur: Vec<ExprClass>,
    /// Per loop: the variable classes at its back edge in the previous pass
    /// (fixpoint input) and in this pass.
    loop_in: Vec<Vec<ExprClass>>,
    loop_out: Vec<Vec<ExprClass>>,
    /// Per register: its class (built-ins, temporaries; variables use `cur`).
    reg_class: Vec<ExprClass>,
    reg_var: Vec<Option<usize>>,
    n_vars: usize,
    nesting: usize,
    max_nesting: usize,
    /// The file line of the body's first line, and the body line of the
    /// statement being compiled (for [`Code::line`]).
    line0: u32,
    stmt_line: u32,
    /// Copies made by `unroll` so far (bounded by [`MAX_UNROLLED`]).
    unrolled: usize,
    mems: Vec<MemInstrInfo>,
    /// Per `LoopBegin` emitted: its statement's body line.
    loop_lines: Vec<u32>,
}

type PResult<T> = Result<T, ExprError>;

impl<'a> BodyCompiler<'a> {
    fn compile(
        text: &str,
        params: &'a BTreeMap<String, i64>,
        arrays: &'a [ArrayInfo],
        grid: [u32; 3],
        block: [u32; 3],
        line0: u32,
    ) -> PResult<Program> {
        let toks = lex(text)?;
        let mut loops: Vec<Vec<ExprClass>> = Vec::new();
        // A loop feeds the classes at its back edge to its head: iterate
        // until they are stable.
        for _ in 0..8 {
            let mut c = BodyCompiler {
                params,
                arrays,
                grid,
                block,
                instrs: Vec::new(),
                explicit_pc: Vec::new(),
                info: Vec::new(),
                ops: Vec::new(),
                stack_depth: 1,
                next_reg: FIRST_FREE_REG,
                scopes: vec![Scope {
                    vars: HashMap::new(),
                    consts: HashMap::new(),
                    guard: ExprClass::SCALAR,
                }],
                cur: Vec::new(),
                loop_in: loops.clone(),
                loop_out: Vec::new(),
                reg_class: vec![ExprClass::AFFINE; FIRST_FREE_REG as usize],
                reg_var: vec![None; FIRST_FREE_REG as usize],
                n_vars: 0,
                nesting: 0,
                max_nesting: 0,
                line0,
                stmt_line: 0,
                unrolled: 0,
                mems: Vec::new(),
                loop_lines: Vec::new(),
            };
            let mut p = Parser::new(toks.clone());
            c.block_body(&mut p, true)?;
            c.emit(Instr::Exit, None);
            if c.loop_out == loops {
                return c.finish();
            }
            loops = c.loop_out;
        }
        Err(ExprError::new(
            Default::default(),
            "variable classification did not converge",
        ))
    }

    fn finish(self) -> PResult<Program> {
        let mut seen: HashMap<u32, usize> = HashMap::new();
        let mut mem_pcs = vec![0u32; self.mems.len()];
        for (i, ins) in self.instrs.iter().enumerate() {
            let pc = self.explicit_pc[i].unwrap_or(8 * i as u32);
            if let Instr::Load { mem, .. } | Instr::Store { mem, .. } = ins {
                if let Some(&other) = seen.get(&pc) {
                    return Err(ExprError::new(
                        super::expr::Pos {
                            line: self.mems[*mem as usize].line,
                            col: 0,
                        },
                        format!(
                            "PC {pc:#x} is used by two memory instructions (the other is on body line {})",
                            self.mems[other].line + 1
                        ),
                    ));
                }
                seen.insert(pc, *mem as usize);
                mem_pcs[*mem as usize] = pc;
            }
        }
        let mut mems = self.mems;
        for (m, pc) in mems.iter_mut().zip(mem_pcs) {
            m.pc = pc;
        }
        Ok(Program {
            instrs: self.instrs,
            info: self.info,
            ops: self.ops,
            stack_depth: self.stack_depth,
            n_regs: self.next_reg as usize,
            max_nesting: self.max_nesting,
            mems,
            loop_lines: self.loop_lines,
        })
    }

    fn new_reg(&mut self, class: ExprClass, var: Option<usize>) -> u16 {
        let r = self.next_reg;
        self.next_reg += 1;
        self.reg_class.push(class);
        self.reg_var.push(var);
        r
    }

    fn guard(&self) -> ExprClass {
        self.scopes.last().unwrap().guard
    }

    /// Statements until `}` (or the end of the text when `top`).
    fn block_body(&mut self, p: &mut Parser, top: bool) -> PResult<()> {
        let open = p.pos();
        if self.nesting > MAX_BLOCK_DEPTH {
            return Err(ExprError::new(
                open,
                format!(
                    "blocks nested more than {MAX_BLOCK_DEPTH} deep (`if`, `else if`, `loop` \
                     and `unroll` each add a level)"
                ),
            ));
        }
        if self.instrs.len() > MAX_INSTRS {
            return Err(ExprError::new(
                open,
                format!("the body compiles to more than {MAX_INSTRS} instructions"),
            ));
        }
        loop {
            p.skip_newlines();
            match p.peek() {
                Tok::Eof if top => return Ok(()),
                Tok::Eof => {
                    return Err(ExprError::new(
                        open,
                        "missing `}` for the block opened on this line",
                    ))
                }
                Tok::P("}") if !top => {
                    p.next();
                    return Ok(());
                }
                Tok::P("}") => return Err(ExprError::new(p.pos(), "unmatched `}`")),
                _ => {
                    let at = p.pos();
                    self.statement(p)?;
                    if self.instrs.len() > MAX_INSTRS {
                        return Err(ExprError::new(
                            at,
                            format!("the body compiles to more than {MAX_INSTRS} instructions"),
                        ));
                    }
                }
            }
        }
    }

    fn end_of_statement(&mut self, p: &mut Parser) -> PResult<()> {
        match p.peek() {
            Tok::Newline | Tok::Eof | Tok::P("}") => Ok(()),
            t => Err(ExprError::new(
                p.pos(),
                format!("unexpected {t} after the statement"),
            )),
        }
    }

    fn push_scope(&mut self, guard: ExprClass) {
        let g = self.guard().join(guard);
        self.scopes.push(Scope {
            vars: HashMap::new(),
            consts: HashMap::new(),
            guard: g,
        });
        self.nesting += 1;
        self.max_nesting = self.max_nesting.max(self.nesting);
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
        self.nesting -= 1;
    }

    fn statement(&mut self, p: &mut Parser) -> PResult<()> {
        let (tok, pos) = p.next();
        self.stmt_line = pos.line;
        let kw = match &tok {
            Tok::Ident(s) => s.clone(),
            t => {
                return Err(ExprError::new(
                    pos,
                    format!("expected a statement, found {t}"),
                ))
            }
        };
        match kw.as_str() {
            "let" => {
                let (name, npos) = p.ident("a variable name")?;
                self.check_name(&name, npos)?;
                p.expect("=")?;
                let e = p.expr()?;
                let (r, class) = self.lower(&e, pos)?;
                let depth = self.scopes.len() - 1;
                let existing = self.scopes[depth].vars.get(&name).copied();
                let var = match existing {
                    Some(v) => v,
                    None => {
                        let id = self.new_var(class);
                        let reg = self.new_reg(class, Some(id));
                        let v = Var { reg, depth, id };
                        self.scopes[depth].vars.insert(name, v);
                        v
                    }
                };
                self.assign(var, r, class, pos)?;
            }
            "load" | "store" => {
                let store = kw == "store";
                let (aname, apos) = p.ident("an array name")?;
                let array = self.array_id(&aname, apos)?;
                p.expect("[")?;
                let idx = p.expr()?;
                p.expect("]")?;
                let mut value_regs = Vec::new();
                if store && p.eat("=") {
                    // The stored value: its loads are issued, and the store
                    // reads what it reads (`Use`).
                    let v = p.expr()?;
                    let (rv, _) = self.lower(&v, pos)?;
                    let (code, _) = self.code(&rv);
                    super::expr::regs_read(&self.ops, code, &mut value_regs);
                }
                let (ri, class) = self.lower(&idx, pos)?;
                let pc = self.opt_pc(p)?;
                let (code, _) = self.code(&ri);
                let mem = self.mems.len() as u16;
                self.mems.push(MemInstrInfo {
                    pc: 0,
                    store,
                    array: aname,
                    class: class.class,
                    indirect: class.indirect,
                    line: pos.line,
                });
                value_regs.sort_unstable();
                value_regs.dedup();
                for reg in value_regs {
                    if reg >= FIRST_FREE_REG {
                        self.emit(Instr::Use { reg }, None);
                    }
                }
                // `load A[i] -> name`: the value becomes a new variable.
                let dst = if !store && p.eat("->") {
                    let (name, npos) = p.ident("a name for the loaded value")?;
                    self.check_name(&name, npos)?;
                    let id = self.new_var(ExprClass::LOADED);
                    let reg = self.new_reg(ExprClass::LOADED, Some(id));
                    let depth = self.scopes.len() - 1;
                    self.scopes[depth].vars.insert(name, Var { reg, depth, id });
                    Some(reg)
                } else {
                    None
                };
                let ins = if store {
                    Instr::Store {
                        array,
                        index: code,
                        mem,
                    }
                } else {
                    Instr::Load {
                        array,
                        index: code,
                        dst,
                        mem,
                    }
                };
                self.emit(ins, pc);
                self.set_class(class);
            }
            "compute" => {
                let e = p.expr()?;
                let (r, _) = self.lower(&e, pos)?;
                let n = r.as_const().ok_or_else(|| {
                    ExprError::new(
                        pos,
                        "`compute N` needs a constant N (literals and parameters)",
                    )
                })?;
                if !(0..=1 << 20).contains(&n) {
                    return Err(ExprError::new(
                        pos,
                        format!("compute {n}: allowed 0..=2^20"),
                    ));
                }
                let mut class = super::config::InstrClass::Alu;
                if let Tok::Ident(name) = p.peek() {
                    if let Some(c) = super::config::InstrClass::parse(name) {
                        class = c;
                        p.next();
                    }
                }
                if matches!(p.peek(), Tok::Ident(s) if s == "uses") {
                    p.next();
                    self.use_names(p)?;
                }
                if n > 0 {
                    self.emit(Instr::Compute { n: n as u32, class }, None);
                }
            }
            "use" => self.use_names(p)?,
            "barrier" => self.emit(Instr::Barrier, None),
            "if" => return self.if_statement(p, pos),
            "loop" => return self.loop_statement(p, pos),
            "unroll" => return self.unroll_statement(p, pos),
            _ => {
                // Assignment to an existing variable.
                let op = match p.peek() {
                    Tok::P("=") => None,
                    Tok::P("+=") => Some(super::expr::BinOp::Add),
                    Tok::P("-=") => Some(super::expr::BinOp::Sub),
                    Tok::P("*=") => Some(super::expr::BinOp::Mul),
                    _ => {
                        return Err(ExprError::new(
                            pos,
                            format!(
                                "unknown statement `{kw}`; expected let, load, store, loop, unroll, if, use, \
                                 compute, barrier or an assignment"
                            ),
                        ))
                    }
                };
                p.next();
                let var = self.lookup_var(&kw).ok_or_else(|| {
                    ExprError::new(
                        pos,
                        format!("assignment to undeclared variable `{kw}` (use `let`)"),
                    )
                })?;
                let rhs = p.expr()?;
                let e = match op {
                    None => rhs,
                    Some(op) => Ast::Bin(op, Box::new(Ast::Name(kw.clone(), pos)), Box::new(rhs)),
                };
                let (r, class) = self.lower(&e, pos)?;
                self.assign(var, r, class, pos)?;
            }
        }
        self.end_of_statement(p)
    }

    fn if_statement(&mut self, p: &mut Parser, pos: super::expr::Pos) -> PResult<()> {
        // Also an `else if`, which is no statement of its own.
        self.stmt_line = pos.line;
        let c = p.expr()?;
        let (rc, class) = self.lower(&c, pos)?;
        let (code, _) = self.code(&rc);
        let at = self.instrs.len();
        self.emit(
            Instr::If {
                cond: code,
                else_at: 0,
            },
            None,
        );
        self.set_class(class);
        p.expect("{")?;
        let before = self.cur.clone();
        self.push_scope(class);
        self.block_body(p, false)?;
        self.pop_scope();
        let after_then = std::mem::replace(&mut self.cur, before);
        let has_else = matches!(p.peek(), Tok::Ident(s) if s == "else")
            || (*p.peek() == Tok::Newline && matches!(p.peek_at(1), Tok::Ident(s) if s == "else"));
        if has_else {
            p.skip_newlines();
            p.next();
            let else_at = self.instrs.len();
            self.emit(Instr::Else { end_at: 0 }, None);
            self.push_scope(class);
            if matches!(p.peek(), Tok::Ident(s) if s == "if") {
                let (_, ipos) = p.next();
                self.if_statement(p, ipos)?;
            } else {
                p.expect("{")?;
                self.block_body(p, false)?;
            }
            self.pop_scope();
            self.cur = join_all(&after_then, &self.cur);
            let end = self.instrs.len() as u32;
            self.emit(Instr::EndIf, None);
            self.instrs[at] = Instr::If {
                cond: code,
                else_at: else_at as u32,
            };
            self.instrs[else_at] = Instr::Else { end_at: end };
        } else {
            self.cur = join_all(&after_then, &self.cur);
            let end = self.instrs.len() as u32;
            self.emit(Instr::EndIf, None);
            self.instrs[at] = Instr::If {
                cond: code,
                else_at: end,
            };
        }
        Ok(())
    }

    /// A loop's range after its name: `COUNT` (from 0, step 1) or `= START
    /// .. END [step S]` with a constant step that is not 0.
    fn range_header(
        &mut self,
        p: &mut Parser,
        pos: super::expr::Pos,
        what: &str,
    ) -> PResult<(Ast, Ast, i64)> {
        if !p.eat("=") {
            let count = p.expr()?;
            return Ok((Ast::Int(0), count, 1));
        }
        let a = p.expr()?;
        p.expect("..")?;
        let b = p.expr()?;
        if !matches!(p.peek(), Tok::Ident(s) if s == "step") {
            return Ok((a, b, 1));
        }
        p.next();
        let s = p.expr()?;
        let (rs, _) = self.lower(&s, pos)?;
        let k = rs
            .as_const()
            .ok_or_else(|| ExprError::new(pos, format!("the {what} step must be a constant")))?;
        if k == 0 {
            return Err(ExprError::new(
                pos,
                format!("the {what} step must not be 0"),
            ));
        }
        Ok((a, b, k))
    }

    fn loop_statement(&mut self, p: &mut Parser, pos: super::expr::Pos) -> PResult<()> {
        let (name, npos) = p.ident("a loop variable")?;
        self.check_name(&name, npos)?;
        let counted = !matches!(p.peek(), Tok::P("="));
        let (start, bound, step) = self.range_header(p, pos, "loop")?;
        let (rs, cs) = self.lower(&start, pos)?;
        let (rb, cb) = self.lower(&bound, pos)?;
        if counted {
            check_count(&rb, cb, pos, "loop")?;
        }
        let (start_code, _) = self.code(&rs);
        let (bound_code, _) = self.code(&rb);
        p.expect("{")?;
        // The head sees the classes before the loop and at its back edge.
        let loop_idx = self.loop_out.len();
        self.loop_out.push(Vec::new());
        if let Some(back) = self.loop_in.get(loop_idx) {
            self.cur = join_all(&self.cur, back);
        }
        let head = self.cur.clone();
        // The loop variable: declared in the loop's scope.
        self.push_scope(cs.join(cb));
        let id = self.new_var(cs);
        let reg = self.new_reg(cs, Some(id));
        let depth = self.scopes.len() - 1;
        self.scopes[depth].vars.insert(name, Var { reg, depth, id });
        let end = self.new_reg(cb, None);
        let begin_at = self.instrs.len();
        self.loop_lines.push(pos.line);
        self.emit(
            Instr::LoopBegin {
                var: reg,
                end,
                start: start_code,
                bound: bound_code,
                step,
                exit_at: 0,
            },
            None,
        );
        self.set_class(cs.join(cb));
        self.block_body(p, false)?;
        self.pop_scope();
        self.loop_out[loop_idx] = self.cur.clone();
        self.cur = join_all(&head, &self.cur);
        self.emit(
            Instr::LoopEnd {
                var: reg,
                end,
                step,
                body_at: begin_at as u32 + 1,
            },
            None,
        );
        let exit = self.instrs.len() as u32;
        self.instrs[begin_at] = Instr::LoopBegin {
            var: reg,
            end,
            start: start_code,
            bound: bound_code,
            step,
            exit_at: exit,
        };
        Ok(())
    }

    /// `NAME[, NAME ...]`: a `Use` of each variable (after `use` or
    /// `compute N uses`).
    fn use_names(&mut self, p: &mut Parser) -> PResult<()> {
        loop {
            let (name, npos) = p.ident("a variable")?;
            let v = self.lookup_var(&name).ok_or_else(|| {
                ExprError::new(npos, format!("`use {name}`: no variable `{name}`"))
            })?;
            self.emit(Instr::Use { reg: v.reg }, None);
            if !p.eat(",") {
                return Ok(());
            }
        }
    }

    /// `unroll NAME COUNT { body }` or `unroll NAME = A .. B [step S] {
    /// body }` with constant bounds: the body once per value of NAME, NAME
    /// a constant in each copy (as `#pragma unroll` gives each copy its own
    /// instructions, and so its own PCs); no loop instructions.
    fn unroll_statement(&mut self, p: &mut Parser, pos: super::expr::Pos) -> PResult<()> {
        let (name, npos) = p.ident("an unroll variable")?;
        self.check_name(&name, npos)?;
        let konst = |c: &mut Self, a: &Ast, what: &str| -> PResult<i64> {
            let (r, _) = c.lower(a, pos)?;
            r.as_const().ok_or_else(|| {
                ExprError::new(
                    pos,
                    format!("`unroll` needs a constant {what} (literals and parameters)"),
                )
            })
        };
        let counted = !matches!(p.peek(), Tok::P("="));
        let (a, b, step) = self.range_header(p, pos, "unroll")?;
        let start = konst(self, &a, "start")?;
        let bound = konst(self, &b, if counted { "count" } else { "bound" })?;
        if counted {
            check_count(&RExpr::Const(bound), ExprClass::SCALAR, pos, "unroll")?;
        }
        // The number of copies, in 128 bits (no overflow near the ends of
        // the 64-bit range).
        let (s0, b0, k) = (start as i128, bound as i128, step as i128);
        let n = if k > 0 && b0 > s0 {
            (b0 - s0 + k - 1) / k
        } else if k < 0 && b0 < s0 {
            (s0 - b0 - k - 1) / -k
        } else {
            0
        };
        if n > 4096 {
            return Err(ExprError::new(
                pos,
                format!("`unroll` of {n} copies: at most 4096"),
            ));
        }
        self.unrolled += n.max(1) as usize;
        if self.unrolled > MAX_UNROLLED {
            return Err(ExprError::new(
                pos,
                format!(
                    "the `unroll` statements make more than {MAX_UNROLLED} copies in all \
                     (nested ones multiply)"
                ),
            ));
        }
        // Every value lies between start and bound: no overflow.
        let values: Vec<i64> = (0..n).map(|i| (s0 + i * k) as i64).collect();
        p.expect("{")?;
        let body = p.mark();
        if values.is_empty() {
            // Parse the body once for its errors, then drop what it emitted.
            let (n_ins, n_mems) = (self.instrs.len(), self.mems.len());
            self.push_scope(ExprClass::SCALAR);
            self.scopes
                .last_mut()
                .expect("scope")
                .consts
                .insert(name, start);
            self.block_body(p, false)?;
            self.pop_scope();
            self.instrs.truncate(n_ins);
            self.explicit_pc.truncate(n_ins);
            self.info.truncate(n_ins);
            self.mems.truncate(n_mems);
            return Ok(());
        }
        for v in values {
            p.rewind(body);
            self.push_scope(ExprClass::SCALAR);
            self.scopes
                .last_mut()
                .expect("scope")
                .consts
                .insert(name.clone(), v);
            self.block_body(p, false)?;
            self.pop_scope();
        }
        Ok(())
    }

    fn check_name(&self, name: &str, pos: super::expr::Pos) -> PResult<()> {
        let reserved = [
            "let", "load", "store", "loop", "unroll", "if", "else", "compute", "barrier", "step",
            "min", "max", "warpSize", "use", "uses",
        ];
        if reserved.contains(&name) {
            return Err(ExprError::new(pos, format!("`{name}` is reserved")));
        }
        if self.params.contains_key(name) {
            return Err(ExprError::new(
                pos,
                format!("`{name}` is a parameter; a variable cannot have its name"),
            ));
        }
        if self.arrays.iter().any(|a| a.name == name) {
            return Err(ExprError::new(pos, format!("`{name}` is an array")));
        }
        Ok(())
    }

    fn lookup_var(&self, name: &str) -> Option<Var> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.vars.get(name).copied())
    }

    /// A name bound to a constant (an `unroll` counter) in an inner scope
    /// than any variable of that name.
    fn lookup_const(&self, name: &str) -> Option<i64> {
        for s in self.scopes.iter().rev() {
            if let Some(&k) = s.consts.get(name) {
                return Some(k);
            }
            if s.vars.contains_key(name) {
                return None;
            }
        }
        None
    }

    fn new_var(&mut self, class: ExprClass) -> usize {
        let id = self.n_vars;
        self.n_vars += 1;
        if self.cur.len() <= id {
            self.cur.resize(id + 1, ExprClass::SCALAR);
        }
        self.cur[id] = class;
        id
    }

    /// The class of a resolved expression at this point of the program.
    fn class_of(&self, r: &RExpr) -> ExprClass {
        r.classify(&|reg| match self.reg_var[reg as usize] {
            Some(v) => self.cur[v],
            None => self.reg_class[reg as usize],
        })
    }

    fn assign(
        &mut self,
        var: Var,
        r: RExpr,
        class: ExprClass,
        _pos: super::expr::Pos,
    ) -> PResult<()> {
        // Divergence between the declaring scope and here makes the value
        // differ per thread.
        let mut div = ExprClass::SCALAR;
        for s in &self.scopes[var.depth + 1..] {
            div = div.join(s.guard);
        }
        let mut c = class;
        if div.class != Class::Scalar {
            // Threads that skip the assignment keep the old value.
            c = ExprClass {
                class: Class::NonAffine,
                indirect: c.indirect || div.indirect || self.cur[var.id].indirect,
            };
        }
        self.cur[var.id] = c;
        // `let x = A[i]`: the load writes x directly.
        if let RExpr::Reg(t) = r {
            if let Some(Instr::Load { dst: Some(d), .. }) = self.instrs.last_mut() {
                if *d == t {
                    *d = var.reg;
                    return Ok(());
                }
            }
        }
        let (code, _) = self.code(&r);
        self.emit(Instr::Let { dst: var.reg, code }, None);
        self.set_class(c);
        Ok(())
    }

    fn array_id(&self, name: &str, pos: super::expr::Pos) -> PResult<u16> {
        self.arrays
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as u16)
            .ok_or_else(|| {
                ExprError::new(
                    pos,
                    format!(
                        "unknown array `{name}`; declared: {}",
                        self.arrays
                            .iter()
                            .map(|a| a.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    }

    fn opt_pc(&mut self, p: &mut Parser) -> PResult<Option<u32>> {
        if p.eat("@") {
            match p.next() {
                (Tok::Int(v), _) if (0..=u32::MAX as i64).contains(&v) => Ok(Some(v as u32)),
                (t, pos) => Err(ExprError::new(
                    pos,
                    format!("expected a PC after `@`, found {t}"),
                )),
            }
        } else {
            Ok(None)
        }
    }

    fn emit(&mut self, ins: Instr, pc: Option<u32>) {
        self.instrs.push(ins);
        self.explicit_pc.push(pc);
        self.info.push(InstrInfo {
            class: ExprClass::SCALAR,
            guard: self.guard(),
        });
    }

    /// The class of the last emitted instruction's expression.
    fn set_class(&mut self, class: ExprClass) {
        self.info.last_mut().expect("an instruction").class = class;
    }

    fn code(&mut self, r: &RExpr) -> (Code, usize) {
        let (mut c, d) = compile(r, &mut self.ops);
        c.line = self.line0 + self.stmt_line;
        self.stack_depth = self.stack_depth.max(d);
        (c, d)
    }

    /// Resolve names, hoist array reads into load instructions, fold.
    fn lower(&mut self, a: &Ast, stmt: super::expr::Pos) -> PResult<(RExpr, ExprClass)> {
        let r = self.resolve(a)?.fold();
        no_zero_divisor(&r, stmt)?;
        let class = self.class_of(&r);
        Ok((r, class))
    }

    fn resolve(&mut self, a: &Ast) -> PResult<RExpr> {
        Ok(match a {
            Ast::Int(v) => RExpr::Const(*v),
            Ast::Un(op, x) => RExpr::Un(*op, Box::new(self.resolve(x)?)),
            Ast::Bin(op, x, y) => {
                let x = self.resolve(x)?;
                let y = self.resolve(y)?;
                RExpr::Bin(*op, Box::new(x), Box::new(y))
            }
            Ast::Index(name, idx, pos) => {
                let array = self.array_id(name, *pos)?;
                let ri = self.resolve(idx)?.fold();
                no_zero_divisor(&ri, *pos)?;
                let class = self.class_of(&ri);
                let (code, _) = self.code(&ri);
                let dst = self.new_reg(ExprClass::LOADED, None);
                let mem = self.mems.len() as u16;
                self.mems.push(MemInstrInfo {
                    pc: 0,
                    store: false,
                    array: name.clone(),
                    class: class.class,
                    indirect: class.indirect,
                    line: pos.line,
                });
                self.emit(
                    Instr::Load {
                        array,
                        index: code,
                        dst: Some(dst),
                        mem,
                    },
                    None,
                );
                self.set_class(class);
                RExpr::Reg(dst)
            }
            Ast::Name(n, pos) => {
                if let Some(k) = self.lookup_const(n) {
                    return Ok(RExpr::Const(k));
                }
                if let Some(v) = self.lookup_var(n) {
                    return Ok(RExpr::Reg(v.reg));
                }
                if let Some(&v) = self.params.get(n) {
                    return Ok(RExpr::Const(v));
                }
                let dim = |s: &str| match s {
                    "x" => 0usize,
                    "y" => 1,
                    _ => 2,
                };
                if let Some((base, f)) = n.split_once('.') {
                    let d = dim(f);
                    match base {
                        "tid" | "threadIdx" => return Ok(RExpr::Reg(REG_TID + d as u16)),
                        "ctaid" | "blockIdx" => return Ok(RExpr::Reg(REG_CTAID + d as u16)),
                        "ntid" | "blockDim" => return Ok(RExpr::Const(self.block[d] as i64)),
                        "nctaid" | "gridDim" => return Ok(RExpr::Const(self.grid[d] as i64)),
                        _ => {}
                    }
                }
                if n == "warpSize" {
                    return Ok(RExpr::Const(32));
                }
                return Err(ExprError::new(
                    *pos,
                    format!("unknown name `{n}` (not a variable, parameter or built-in)"),
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VADD: &str = r#"
name = "vectorAdd"
grid = ["N / 256"]
block = [256]
body = """
let i = ctaid.x * blockDim.x + tid.x
if i < N {
  load A[i]
  load B[i]
  compute 2
  store C[i]
}
"""

[params]
N = 4096

[arrays.A]
elem = 4
len = "N"

[arrays.B]
elem = 4
len = "N"

[arrays.C]
elem = 4
len = "N"
"#;

    #[test]
    fn loads_vector_add() {
        let k = Kernel::from_str(VADD, "vadd.toml", &[], 1).unwrap();
        assert_eq!(k.grid, [16, 1, 1]);
        assert_eq!(k.arrays[0].base, ARRAY_BASE);
        assert_eq!(k.arrays[1].base, ARRAY_BASE + 4096 * 4);
        let m = k.mem_instrs();
        assert_eq!(m.len(), 3);
        assert!(m.iter().all(|m| m.class == Class::Affine && !m.indirect));
        assert_eq!(m[0].line, 8);
        assert!(m[2].store);
        let k2 = Kernel::from_str(VADD, "vadd.toml", &[("N".into(), 512)], 1).unwrap();
        assert_eq!(k2.grid, [2, 1, 1]);
        assert_eq!(k.array_at(ARRAY_BASE + 4096 * 4 + 8), Some(1));
        assert_eq!(k.array_at(ARRAY_BASE - 1), None);
    }

    fn err_of(text: &str) -> KernelError {
        Kernel::from_str(text, "bad.toml", &[], 1).unwrap_err()
    }

    fn with_body(body: &str) -> Result<Kernel, KernelError> {
        let text = format!(
            "name = \"u\"\ngrid = [1]\nblock = [32]\nbody = \"\"\"\n{body}\n\"\"\"\n\
             [params]\nR = 3\n[arrays.A]\nelem = 4\nlen = 1024\n"
        );
        Kernel::from_str(&text, "u.toml", &[], 1)
    }

    #[test]
    fn unroll_gives_each_copy_its_own_instructions() {
        let k = with_body("unroll i = 1 .. R + 2 {\n  load A[i * 32 + tid.x]\n}").unwrap();
        // Four copies, four loads with their own PCs, no loop instructions.
        assert_eq!(k.mem_instrs().len(), 4);
        let pcs: std::collections::BTreeSet<u32> = k.mem_instrs().iter().map(|m| m.pc).collect();
        assert_eq!(pcs.len(), 4);
        assert!(!k
            .program
            .instrs
            .iter()
            .any(|i| matches!(i, Instr::LoopBegin { .. } | Instr::LoopEnd { .. })));
        // The counter is a constant in each copy: the indices are affine
        // in tid.x only.
        assert!(k.mem_instrs().iter().all(|m| m.class == Class::Affine));
        // Nested, negative steps, a count, and an empty unroll.
        let k = with_body(
            "unroll i 2 {\n  unroll j = 3 .. 0 step -1 {\n    load A[i * 8 + j]\n  }\n}\n\
             unroll z = 5 .. 5 {\n  load A[z]\n}",
        )
        .unwrap();
        assert_eq!(k.mem_instrs().len(), 6);
        let e = with_body("unroll i tid.x {\n  compute 1\n}").unwrap_err();
        assert!(e.to_string().contains("constant count"), "{e}");
        let e = with_body("unroll i = 0 .. 4 step 0 {\n  compute 1\n}").unwrap_err();
        assert!(e.to_string().contains("step"), "{e}");
    }

    #[test]
    fn errors_name_file_line_field() {
        let e = err_of(&VADD.replace("len = \"N\"\n\n[arrays.B]", "len = \"NN\"\n\n[arrays.B]"));
        assert_eq!(e.line, Some(20));
        assert_eq!(e.field, "arrays.A.len");
        assert!(e.msg.contains("NN"), "{e}");
        assert!(
            e.to_string()
                .starts_with("bad.toml:20: field `arrays.A.len`"),
            "{e}"
        );

        let e = err_of(&VADD.replace("  load B[i]", "  load D[i]"));
        assert_eq!((e.line, e.field.as_str()), (Some(9), "body"));
        assert!(e.msg.contains("unknown array `D`"), "{e}");

        let e = err_of(&VADD.replace(
            "elem = 4\nlen = \"N\"\n\n[arrays.C]",
            "elem = 3\nlen = \"N\"\n\n[arrays.C]",
        ));
        assert_eq!(e.field, "arrays.B.elem");
        assert_eq!(e.line, Some(23));

        let e = err_of(&VADD.replace("block = [256]", "block = [256]\nblok = 3"));
        assert_eq!(e.field, "blok");
        assert_eq!(e.line, Some(5));

        let e = err_of(&VADD.replace("block = [256]\n", ""));
        assert_eq!(e.field, "block");

        let e = err_of(&VADD.replace("N = 4096", "N = \"abc\""));
        assert_eq!(e.field, "params.N");
        assert_eq!(e.line, Some(16));

        let e = err_of(&VADD.replace("N = 4096", "N = [1]"));
        assert_eq!(e.field, "params.N");

        let e = err_of(&VADD.replace("compute 2", "compute i"));
        assert_eq!(e.line, Some(10));
        let e = err_of(&VADD.replace("  compute 2\n", "  compute 2\n}\n"));
        assert!(e.msg.contains("unmatched"), "{e}");
        let e = err_of(&VADD.replace("if i < N {", "if i < N"));
        assert_eq!(e.line, Some(7));
    }

    #[test]
    fn indirect_and_divergent_classification() {
        let text = r#"
name = "bfs-like"
grid = [4]
block = [64]
body = """
let tid = ctaid.x * 64 + tid.x
let s = nodes[2 * tid]
let n = nodes[2 * tid + 1]
loop e = s .. s + n {
  let id = edges[e]
  if visited[id] == 0 {
    store cost[id] = cost[tid] + 1
  }
}
let x = 0
if tid.x < 5 {
  x = 1
}
load cost[x]
"""
[params]
N = 256
[graphs.g]
nodes = "N"
[arrays.nodes]
elem = 4
len = "2 * N"
contents = { kind = "graph-nodes", graph = "g" }
[arrays.edges]
elem = 4
len = 4096
contents = { kind = "graph-edges", graph = "g" }
[arrays.visited]
elem = 1
len = "N"
contents = { kind = "bool", p = 0.5 }
[arrays.cost]
elem = 4
len = "N"
"#;
        let k = Kernel::from_str(text, "t.toml", &[], 3).unwrap();
        let m = k.mem_instrs();
        let by = |arr: &str, store: bool| {
            m.iter()
                .filter(|x| x.array == arr && x.store == store)
                .collect::<Vec<_>>()
        };
        assert!(by("nodes", false)
            .iter()
            .all(|x| !x.indirect && x.class == Class::Affine));
        assert!(by("edges", false)[0].indirect);
        assert!(by("visited", false)[0].indirect);
        assert!(by("cost", true)[0].indirect);
        let cost_loads = by("cost", false);
        assert!(!cost_loads[0].indirect && cost_loads[0].class == Class::Affine);
        // x assigned under a divergent condition: non-affine, not indirect.
        assert_eq!(cost_loads[1].class, Class::NonAffine);
        assert!(!cost_loads[1].indirect);
        // Graph contents: offsets consistent.
        let nodes = k.array("nodes").unwrap();
        let total: i64 = (0..256).map(|i| nodes.value(2 * i + 1)).sum();
        assert!((256..=8 * 256).contains(&total));
        let k2 = Kernel::from_str(text, "t.toml", &[], 3).unwrap();
        assert_eq!(
            k2.array("edges").unwrap().value(17),
            k.array("edges").unwrap().value(17)
        );
    }
}
