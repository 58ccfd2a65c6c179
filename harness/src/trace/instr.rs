//! One instruction line of a traced warp: `[line_num] PC mask dest_num
//! [reg_dests] opcode src_num [reg_srcs] mem_width [address_format
//! addresses]`, each field checked as [`parse_kernel_trace`] lists.
//!
//! [`parse_kernel_trace`]: super::read::parse_kernel_trace

use std::str::SplitWhitespace;

use super::format::{classify, trace_reg, TraceError, TraceInstr, TraceOp};
use super::read::{dec, hex, Reader, TRACE_WIDTHS, WARP};

const INSTR_FORM: &str = "a traced instruction is `[line_num] PC mask dest_num [reg_dests] \
                          opcode src_num [reg_srcs] mem_width [address_format addresses]`";

/// The fields of one instruction line, read in turn.
struct Fields<'a, 'r> {
    reader: &'r Reader,
    ln: usize,
    tokens: SplitWhitespace<'a>,
    /// Register tokens [`trace_reg`] does not number, with their field.
    unnumbered: Vec<Unnumbered<'a>>,
}

/// A register token [`trace_reg`] does not number (`R-1`, `RZ`) and its
/// field (`reg_dests`, `reg_srcs`).
pub(super) type Unnumbered<'a> = (&'a str, &'static str);

impl<'a> Fields<'a, '_> {
    /// The next field, named `field` in the error when the line ends
    /// before it.
    fn next(&mut self, field: &str) -> Result<&'a str, TraceError> {
        self.tokens.next().ok_or_else(|| {
            self.reader.err(
                self.ln,
                field,
                format!("missing: the line ends before it ({INSTR_FORM})"),
            )
        })
    }

    /// `n` registers (`reg_dests`, `reg_srcs`), numbered by [`trace_reg`]
    /// (zero and special registers left out; every token left out is kept
    /// in `unnumbered`, for the trace's warnings).
    fn regs(&mut self, n: usize, field: &'static str) -> Result<Vec<u16>, TraceError> {
        let mut regs = Vec::new();
        for _ in 0..n {
            let t = self.next(field)?;
            match trace_reg(t) {
                Some(r) => regs.push(r),
                None => self.unnumbered.push((t, field)),
            }
        }
        Ok(regs)
    }

    /// A 64-bit hexadecimal address.
    fn addr(&mut self, field: &str) -> Result<u64, TraceError> {
        let s = self.next(field)?;
        hex(s).map_err(|_| {
            self.reader.err(
                self.ln,
                field,
                format!("`{s}` is not a 64-bit hexadecimal address"),
            )
        })
    }
}

impl Reader {
    /// One instruction line of warp `w`, and the register tokens of it
    /// that [`trace_reg`] does not number (with their field).
    pub(super) fn parse_instr<'a>(
        &self,
        ln: usize,
        line: &'a str,
        w: usize,
    ) -> Result<(TraceInstr, Vec<Unnumbered<'a>>), TraceError> {
        let mut f = Fields {
            reader: self,
            ln,
            tokens: line.split_whitespace(),
            unnumbered: Vec::new(),
        };
        if self.lineinfo.is_some_and(|l| l.0) {
            f.next("line number")?;
        }
        let s = f.next("PC")?;
        let pc = hex(s)
            .ok()
            .and_then(|p| u32::try_from(p).ok())
            .ok_or_else(|| {
                self.err(
                    ln,
                    "PC",
                    format!("`{s}` is not a PC: hexadecimal, at most 32 bits ({INSTR_FORM})"),
                )
            })?;
        let mask = self.mask(ln, f.next("mask")?, w)?;
        let count = |s: &str, field: &str, what: &str| {
            dec::<usize>(s).ok_or_else(|| {
                self.err(
                    ln,
                    field,
                    format!("`{s}` is not a count of {what} registers"),
                )
            })
        };
        let nd = count(f.next("dest_num")?, "dest_num", "destination")?;
        let dests = f.regs(nd, "reg_dests")?;
        let opcode = f.next("opcode")?;
        if !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(self.err(
                ln,
                "opcode",
                format!("`{opcode}` is not an opcode (a SASS name such as LDG.E.64)"),
            ));
        }
        let opcode = opcode.to_string();
        let ns = count(f.next("src_num")?, "src_num", "source")?;
        let srcs = f.regs(ns, "reg_srcs")?;
        let s = f.next("mem_width")?;
        let widths = "0 (no memory access) or 1, 2, 4, 8, 16 or 32 bytes per thread";
        let width: u32 = dec(s)
            .ok_or_else(|| self.err(ln, "mem_width", format!("`{s}` is not a width: {widths}")))?;
        if width != 0 && !TRACE_WIDTHS.contains(&width) {
            return Err(self.err(
                ln,
                "mem_width",
                format!("{width} bytes is not an access width: {widths}"),
            ));
        }
        let addrs = if width > 0 {
            self.addresses(&mut f, mask)?
        } else {
            Vec::new()
        };
        let op = if width > 0 {
            classify(&opcode)
        } else {
            TraceOp::Compute
        };
        if op != TraceOp::Compute {
            if let Some(a) = addrs.iter().find(|&&a| a % width as u64 != 0) {
                return Err(self.err(
                    ln,
                    "address",
                    format!(
                        "{a:#x} is not a multiple of mem_width {width}: a global or local \
                         access is aligned to its width (a misaligned one faults on the GPU)"
                    ),
                ));
            }
        }
        let instr = TraceInstr {
            pc,
            mask,
            opcode,
            op,
            width,
            addrs,
            dests,
            srcs,
        };
        Ok((instr, f.unnumbered))
    }

    /// The active mask `s` of warp `w`: 32 bits, no lane past the block's
    /// threads.
    fn mask(&self, ln: usize, s: &str, w: usize) -> Result<u32, TraceError> {
        let mask = match hex(s) {
            Ok(m) => u32::try_from(m).map_err(|_| m.to_string()),
            Err(true) => Err(s.to_string()),
            Err(false) => {
                return Err(self.err(
                    ln,
                    "mask",
                    format!("`{s}` is not an active mask: hexadecimal, 32 bits"),
                ))
            }
        }
        .map_err(|_| {
            self.err(
                ln,
                "mask",
                format!(
                    "`{s}` is wider than 32 bits: a warp has 32 threads, so an active mask is \
                     at most ffffffff"
                ),
            )
        })?;
        // Lanes of this warp that are threads of the block.
        let lanes = self.threads.saturating_sub(w as u64 * WARP).min(WARP);
        let valid = if lanes >= WARP {
            u32::MAX
        } else {
            (1u32 << lanes) - 1
        };
        if mask & !valid != 0 {
            return Err(self.err(
                ln,
                "mask",
                format!(
                    "{mask:08x} has lanes past the block's {} threads: warp {w} has lanes 0 to {}",
                    self.threads,
                    lanes.saturating_sub(1)
                ),
            ));
        }
        Ok(mask)
    }

    /// A memory instruction's addresses, one per active thread of `mask`,
    /// in the format its `address_format` field gives.
    fn addresses(&self, f: &mut Fields<'_, '_>, mask: u32) -> Result<Vec<u64>, TraceError> {
        let ln = f.ln;
        let s = f.next("address_format")?;
        let fmt = dec::<u32>(s).filter(|f| *f <= 2).ok_or_else(|| {
            self.err(
                ln,
                "address_format",
                format!(
                    "`{s}` is not an address format: 0 (one address per active thread), 1 \
                     (base and stride) or 2 (base and deltas)"
                ),
            )
        })?;
        let active = mask.count_ones() as usize;
        match fmt {
            0 => {
                let mut addrs = Vec::new();
                for _ in 0..active {
                    addrs.push(f.addr("address")?);
                }
                Ok(addrs)
            }
            1 => self.strided(f, mask, active),
            _ => self.deltas(f, active),
        }
    }

    /// Format 1: a base and a 32-bit stride, for consecutive active lanes.
    fn strided(
        &self,
        f: &mut Fields<'_, '_>,
        mask: u32,
        active: usize,
    ) -> Result<Vec<u64>, TraceError> {
        let ln = f.ln;
        let base = f.addr("base address")?;
        let s = f.next("stride")?;
        let stride: i32 = dec::<i64>(s)
            .ok_or_else(|| self.err(ln, "stride", format!("`{s}` is not an integer stride")))?
            .try_into()
            .map_err(|_| {
                self.err(
                    ln,
                    "stride",
                    format!(
                        "{s} is outside the tracer's 32-bit stride ({} to {})",
                        i32::MIN,
                        i32::MAX
                    ),
                )
            })?;
        // The tracer writes this form only for consecutive
        // active lanes.
        let run = mask.checked_shr(mask.trailing_zeros()).unwrap_or(0) as u64;
        if run & (run + 1) != 0 {
            return Err(self.err(
                ln,
                "address_format",
                format!(
                    "base+stride (1) needs consecutive active lanes, but the mask \
                     {mask:08x} has gaps: the tracer writes such a warp's addresses \
                     in format 0 or 2"
                ),
            ));
        }
        let mut addrs = Vec::new();
        for k in 0..active as i64 {
            let a = base.checked_add_signed(stride as i64 * k).ok_or_else(|| {
                self.err(
                    ln,
                    "stride",
                    format!(
                        "base {base:#x} + {k} x {stride} leaves the 64-bit \
                         address space"
                    ),
                )
            })?;
            addrs.push(a);
        }
        Ok(addrs)
    }

    /// Format 2: a base and one delta per further active thread.
    fn deltas(&self, f: &mut Fields<'_, '_>, active: usize) -> Result<Vec<u64>, TraceError> {
        let ln = f.ln;
        let base = f.addr("base address")?;
        let mut addrs = Vec::new();
        let mut a = base;
        if active > 0 {
            addrs.push(a);
        }
        for k in 1..active {
            let s = f.next("delta")?;
            let d: i64 = dec(s).ok_or_else(|| {
                self.err(ln, "delta", format!("`{s}` is not a 64-bit integer delta"))
            })?;
            a = a.checked_add_signed(d).ok_or_else(|| {
                self.err(
                    ln,
                    "delta",
                    format!(
                        "{a:#x} + {d} (delta {k} of {}) leaves the 64-bit address \
                         space",
                        active - 1
                    ),
                )
            })?;
            addrs.push(a);
        }
        Ok(addrs)
    }
}
