//! A trace's header lines (`-kernel name = ...`, `-grid dim = ...`, ...)
//! and the check that it is complete when the body begins.

use super::format::TraceError;
use super::read::{
    dec, dims, parse_dim, Reader, HEADER_FORM, MAX_BLOCK_DIMS, MAX_BLOCK_THREADS, MAX_GRID_DIMS,
    WARP,
};

/// The header lines a trace must have before its first thread block, with
/// the form each takes.
const REQUIRED: [(&str, &str); 3] = [
    ("-grid dim", "-grid dim = (x,y,z)"),
    ("-block dim", "-block dim = (x,y,z)"),
    (
        "-accelsim tracer version",
        "-accelsim tracer version = N (3 to 6)",
    ),
];

impl Reader {
    /// A header key seen before at line `first` (0: not seen).
    fn once(&self, first: usize, ln: usize, field: &str) -> Result<(), TraceError> {
        if first == 0 {
            Ok(())
        } else {
            Err(self.err(
                ln,
                field,
                format!("given twice (first at line {first}): a header key is given once"),
            ))
        }
    }

    pub(super) fn header(&mut self, ln: usize, line: &str, h: &str) -> Result<(), TraceError> {
        if self.body != 0 {
            return Err(self.err(
                ln,
                "header",
                format!(
                    "`{line}` comes after the trace's body began at line {}: the header comes first",
                    self.body
                ),
            ));
        }
        self.headers += 1;
        let Some((k, v)) = h.split_once('=') else {
            return Err(self.err(
                ln,
                "header",
                format!("`{line}` is not a header line `-key = value`"),
            ));
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "kernel name" => {
                self.once(self.name_line, ln, "-kernel name")?;
                self.name_line = ln;
                if let Some(c) = v.chars().find(|c| c.is_control()) {
                    return Err(self.err(
                        ln,
                        "-kernel name",
                        format!(
                            "contains the control character U+{:04X}; a kernel name is \
                             printable text (it is printed in tables and on the terminal)",
                            c as u32
                        ),
                    ));
                }
                self.kt.name = v.to_string();
            }
            "kernel id" => {
                self.once(self.id_line, ln, "-kernel id")?;
                self.id_line = ln;
                self.kt.id = dec(v).ok_or_else(|| {
                    self.err(
                        ln,
                        "-kernel id",
                        format!(
                            "`{v}` is not a kernel id: an integer from 0 to {}",
                            u32::MAX
                        ),
                    )
                })?;
            }
            "grid dim" => {
                self.once(self.kt.grid_line, ln, "-grid dim")?;
                self.kt.grid_line = ln;
                let [mx, my, mz] = MAX_GRID_DIMS;
                self.kt.grid = parse_dim(v, 1)
                    .filter(|d| d.iter().zip(MAX_GRID_DIMS).all(|(&x, m)| x <= m))
                    .ok_or_else(|| {
                        self.err(
                            ln,
                            "-grid dim",
                            format!(
                                "`{v}` is not (x,y,z) within CUDA's grid limits: x from 1 to \
                                 {mx}, y and z from 1 to {my} and {mz}"
                            ),
                        )
                    })?;
            }
            "block dim" => {
                self.once(self.kt.block_line, ln, "-block dim")?;
                self.kt.block_line = ln;
                let d = parse_dim(v, 1).ok_or_else(|| {
                    self.err(
                        ln,
                        "-block dim",
                        format!("`{v}` is not (x,y,z) with x, y, z of at least 1"),
                    )
                })?;
                let threads: u64 = d.iter().map(|&x| x as u64).product();
                let [mx, my, mz] = MAX_BLOCK_DIMS;
                if d.iter().zip(MAX_BLOCK_DIMS).any(|(&x, m)| x > m) || threads > MAX_BLOCK_THREADS
                {
                    return Err(self.err(
                        ln,
                        "-block dim",
                        format!(
                            "{} is {threads} threads: a CUDA block has at most \
                             {MAX_BLOCK_THREADS} threads, x <= {mx}, y <= {my}, z <= {mz}",
                            dims(d)
                        ),
                    ));
                }
                self.kt.block = d;
                self.threads = threads;
                self.warps = threads.div_ceil(WARP);
            }
            "accelsim tracer version" => {
                self.once(self.version_line, ln, "-accelsim tracer version")?;
                self.version_line = ln;
                self.kt.version =
                    dec::<u32>(v)
                        .filter(|v| (3..=6).contains(v))
                        .ok_or_else(|| {
                            self.err(
                                ln,
                                "-accelsim tracer version",
                                format!("`{v}`: tracer versions 3 to 6 are supported"),
                            )
                        })?;
            }
            "enable lineinfo" => {
                if let Some((_, first)) = self.lineinfo {
                    self.once(first, ln, "-enable lineinfo")?;
                }
                let on = match v {
                    "0" => false,
                    "1" => true,
                    _ => {
                        return Err(self.err(
                            ln,
                            "-enable lineinfo",
                            format!("`{v}` is not 0 or 1"),
                        ))
                    }
                };
                self.lineinfo = Some((on, ln));
            }
            // `-shmem`, `-nregs`, `-binary version`, ...: nothing the
            // harness uses.
            _ => {}
        }
        Ok(())
    }

    /// The body begins at line `ln`: the header must be complete.
    pub(super) fn start_body(&mut self, ln: usize) -> Result<(), TraceError> {
        if self.body != 0 {
            return Ok(());
        }
        self.body = ln;
        let seen = [self.kt.grid_line, self.kt.block_line, self.version_line];
        if self.headers == 0 {
            return Err(self.err(
                ln,
                "header",
                format!(
                    "the trace has no header, its body begins at line {ln}: a trace begins with \
                     {HEADER_FORM}"
                ),
            ));
        }
        if let Some((key, form)) = REQUIRED
            .iter()
            .zip(seen)
            .find(|(_, l)| *l == 0)
            .map(|(r, _)| *r)
        {
            return Err(self.err(
                ln,
                key,
                format!(
                    "missing from the header (which ends before line {ln}): a trace gives \
                     `{form}` before its first thread block"
                ),
            ));
        }
        Ok(())
    }
}
