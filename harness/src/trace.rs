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
//!
//! An opcode that is not one of Accel-Sim's SASS opcodes ([`sass`]) is
//! still replayed, as an ALU instruction, and a register token that is not
//! a register (`R-1`, `R300`; `RZ`, `PT` and `SR_*` are not registers on
//! purpose) is left out of the instruction's dependencies; each distinct
//! one is a warning in [`KernelTrace::warnings`], naming the file, its
//! first line and how many lines have it.
//!
//! Files: `format.rs` (the trace as read), `read.rs`, `header.rs` and
//! `instr.rs` (reading and checking a file), `sass.rs` and `warn.rs` (the
//! known opcodes, and the warnings), `check.rs` (whether a trace fits a
//! machine), `replay.rs` and `prepare.rs` (the trace as the SM replays it,
//! and the kernel built from it).

mod check;
pub(crate) mod format;
mod header;
mod instr;
mod prepare;
mod read;
pub(crate) mod replay;
pub mod sass;
mod warn;
#[cfg(test)]
mod warn_tests;

pub use format::{trace_reg, KernelTrace, TraceError, TraceInstr, TraceOp, TRACE_REGS};
pub use read::{
    parse_kernel_trace, read_kernel_trace, read_kernelslist, MAX_BLOCK_DIMS, MAX_BLOCK_THREADS,
    MAX_GRID_DIMS, TRACE_WIDTHS,
};
pub(crate) use replay::ReplayInstr;
pub use warn::{is_non_register, MAX_WARNINGS_PER_KIND};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MachineConfig;
    use crate::kernel::Kernel;

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
        k.check_trace(&MachineConfig::fermi()).unwrap();
        let r = k.trace.as_ref().unwrap();
        assert_eq!(r.ctas[1].1[1][1].lines, vec![0x100, 0x200, 0x300]);
        // Snake's view of a load: the lowest active thread's address and
        // whether the threads are one stride per lane apart.
        let (ragged, strided) = (&r.ctas[1].1[1][1], &r.ctas[1].1[1][2]);
        assert_eq!((ragged.first_addr, ragged.uniform), (0x100, false));
        assert_eq!((strided.first_addr, strided.uniform), (0x1000, true));
    }
}
