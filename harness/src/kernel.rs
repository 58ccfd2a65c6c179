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
//!
//! # Files
//! `types.rs` (what a loaded kernel is: arrays, contents, the program and
//! its instructions), `load.rs` (the document, dimensions, arrays and
//! parameters, on the `loader.rs` view of the text), `params.rs`
//! (parameter expressions), `contents.rs` (array contents and graphs),
//! `body.rs` and `stmt.rs` (the body compiler and its statements),
//! `error.rs` and `fault.rs` (a file's errors, a run-time zero divisor).

mod body;
mod contents;
pub(crate) mod error;
mod fault;
mod load;
mod loader;
mod params;
mod stmt;
#[cfg(test)]
mod tests;
mod types;

pub use body::{MAX_BLOCK_DEPTH, MAX_INSTRS, MAX_UNROLLED};
pub use error::KernelError;
pub(crate) use fault::zero_divisor_error;
pub use types::{ArrayInfo, Kernel, MemInstrInfo, ARRAY_ALIGN, ARRAY_BASE};
pub(crate) use types::{Instr, InstrInfo, Program, REG_CTAID, REG_TID};
