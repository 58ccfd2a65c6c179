//! Reading an Accel-Sim trace and checking it: every rule of
//! [`read_kernel_trace`] that a file breaks is a [`TraceError`] naming the
//! file, the line and the field, and saying what would be valid. Nothing
//! the reader does is sized by a number in the file (a warp id, a count,
//! a grid), only by the file's own length, so no input can make it
//! allocate without bound, loop without end or panic; the in-suite fuzzer
//! (`tests/tests/harness_trace.rs`) and the cargo-fuzz target
//! (`fuzz/fuzz_targets/trace_parser.rs`) hold it to that.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{classify, trace_reg, KernelTrace, TraceError, TraceInstr, TraceOp};
use crate::config::MachineConfig;
use crate::kernel::Kernel;

/// The per-thread access widths (bytes) a memory instruction may give:
/// SASS accesses are 1 to 16 bytes per thread (32 for the 256-bit loads
/// of the newest GPUs); 0 is a non-memory instruction.
pub const TRACE_WIDTHS: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// CUDA's limit on the threads of a block (every GPU since compute
/// capability 2.0).
pub const MAX_BLOCK_THREADS: u64 = 1024;

/// CUDA's limits on a block's x, y and z.
pub const MAX_BLOCK_DIMS: [u32; 3] = [1024, 1024, 64];

/// Threads per warp.
const WARP: u64 = 32;

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

const HEADER_FORM: &str = "`-kernel name = NAME`, `-grid dim = (x,y,z)`, `-block dim = (x,y,z)` \
                           and `-accelsim tracer version = N` (3 to 6)";

const INSTR_FORM: &str = "a traced instruction is `[line_num] PC mask dest_num [reg_dests] \
                          opcode src_num [reg_srcs] mem_width [address_format addresses]`";

/// Read one `kernel-N.traceg` and check it ([`parse_kernel_trace`]).
pub fn read_kernel_trace(path: &Path) -> Result<KernelTrace, TraceError> {
    let bytes = std::fs::read(path).map_err(|e| {
        TraceError::new(
            &path.display().to_string(),
            0,
            "",
            format!("cannot read the trace: {e}"),
        )
    })?;
    parse_kernel_trace(&bytes, path)
}

/// Parse the contents of a `kernel-N.traceg` (`path` names it in errors)
/// and check every rule below; each broken rule is a [`TraceError`] with
/// the line and the field.
///
/// - The file is UTF-8 text and not empty.
/// - The header comes first: `-grid dim`, `-block dim` and `-accelsim
///   tracer version` (3 to 6) each once before the first thread block
///   (other header lines, `-shmem`, `-nregs`, ..., are ignored); `-kernel
///   id` is an integer and `-enable lineinfo` 0 or 1.
/// - Grid and block dimensions are positive; a block has at most
///   [`MAX_BLOCK_THREADS`] threads and x, y, z within [`MAX_BLOCK_DIMS`]
///   (CUDA's limits).
/// - Each `#BEGIN_TB` ... `#END_TB` holds one `thread block = x,y,z`
///   inside the grid, before its warps; no CTA is traced twice.
/// - Each warp (`warp = w`) is below the block's warps
///   (⌈threads / 32⌉), once per thread block, and every warp of the block
///   is traced; `insts = n`, when given, is the warp's instruction count.
/// - An instruction has every field of its form; its PC fits 32 bits, its
///   active mask is at most 32 bits and has no lane past the block's
///   threads; `mem_width` is 0 or one of [`TRACE_WIDTHS`]; a memory
///   instruction has one address per active thread in format 0 (list), 1
///   (base and a 32-bit stride, consecutive active lanes, as the tracer
///   writes it) or 2 (base and deltas), none of them leaving the 64-bit
///   address space; the addresses of a global or local access (the ones
///   the harness replays) are multiples of its width, as the GPU requires.
/// - Every CTA of the grid is traced: an untraced CTA has no instructions
///   to replay, so a grid larger than the traced thread blocks is an error
///   at `-grid dim` naming the first untraced CTA (not an empty run of
///   CTAs that did nothing).
///
/// Tokens after an instruction's addresses (the immediate of tracer
/// version 5 on) are ignored, as are `#` comment lines.
pub fn parse_kernel_trace(bytes: &[u8], path: &Path) -> Result<KernelTrace, TraceError> {
    let file = path.display().to_string();
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let before = bytes.get(..e.valid_up_to()).unwrap_or_default();
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(TraceError::new(
                &file,
                line,
                "text",
                "not UTF-8 text: a trace is plain text",
            ));
        }
    };
    if text.trim().is_empty() {
        let what = if bytes.is_empty() {
            "the file is empty (0 bytes)".to_string()
        } else {
            format!("the file holds only white space ({} bytes)", bytes.len())
        };
        return Err(TraceError::new(
            &file,
            1,
            "header",
            format!("{what}: a trace begins with its header, {HEADER_FORM}"),
        ));
    }
    let mut r = Reader::new(file, path);
    let mut last = 0;
    for (n, raw) in text.lines().enumerate() {
        last = n + 1;
        r.line(last, raw.trim())?;
    }
    r.finish(last.max(1))
}

/// The kernels of a trace folder, in `kernelslist.g` order (memory copies
/// and `#` comments are skipped); a listed file that does not exist is an
/// error at its line.
pub fn read_kernelslist(dir: &Path) -> Result<Vec<PathBuf>, TraceError> {
    let path = dir.join("kernelslist.g");
    let file = path.display().to_string();
    let bytes = std::fs::read(&path)
        .map_err(|e| TraceError::new(&file, 0, "", format!("cannot read the list: {e}")))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let before = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        TraceError::new(
            &file,
            line,
            "text",
            "not UTF-8 text: a kernel list is plain text",
        )
    })?;
    let mut out = Vec::new();
    for (n, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with("Memcpy") || l.starts_with('#') {
            continue;
        }
        let p = dir.join(l);
        if !p.is_file() {
            return Err(TraceError::new(
                &file,
                n + 1,
                "kernel",
                format!(
                    "`{l}`: no such trace file ({}); a line of kernelslist.g is a \
                     `kernel-N.traceg` file beside it or a `MemcpyHtoD,ADDRESS,BYTES` copy",
                    p.display()
                ),
            ));
        }
        out.push(p);
    }
    Ok(out)
}

/// A warp being read.
struct OpenWarp {
    w: usize,
    line: usize,
    /// `insts = n` and its line.
    insts: Option<(u64, usize)>,
}

/// A thread block being read.
struct OpenTb {
    begin: usize,
    /// Linear id, coordinates, line of `thread block`.
    id: Option<(u64, [u32; 3], usize)>,
    warps: Vec<Vec<TraceInstr>>,
    /// Per warp: the line of its `warp = w` (0: not yet).
    warp_lines: Vec<usize>,
    warp: Option<OpenWarp>,
}

struct Reader {
    file: String,
    kt: KernelTrace,
    name_line: usize,
    id_line: usize,
    version_line: usize,
    lineinfo: Option<(bool, usize)>,
    /// Header lines read.
    headers: usize,
    /// The first body line (0: still in the header).
    body: usize,
    /// Threads and warps per block.
    threads: u64,
    warps: u64,
    tb: Option<OpenTb>,
    /// Traced CTAs: linear id to the line of their `thread block`.
    cta_lines: HashMap<u64, usize>,
}

/// `(x,y,z)` or `x,y,z`: three integers of at least `min`.
fn parse_dim(v: &str, min: u32) -> Option<[u32; 3]> {
    let v = v.trim();
    let v = v
        .strip_prefix('(')
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or(v);
    let mut it = v.split(',').map(|x| {
        let x = x.trim();
        if x.is_empty() || !x.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        x.parse::<u32>().ok().filter(|&n| n >= min)
    });
    let d = [it.next()??, it.next()??, it.next()??];
    it.next().is_none().then_some(d)
}

/// A hexadecimal number (an optional `0x`), if it fits 64 bits; `Err(true)`
/// if it is hexadecimal but wider.
fn hex(s: &str) -> Result<u64, bool> {
    let d = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(false);
    }
    u64::from_str_radix(d, 16).map_err(|_| true)
}

/// A decimal integer (an optional sign for signed types).
fn dec<T: std::str::FromStr>(s: &str) -> Option<T> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The value of `key = value` after its key.
fn value(rest: &str) -> Option<&str> {
    rest.trim_start().strip_prefix('=').map(str::trim)
}

fn dims(d: [u32; 3]) -> String {
    format!("({},{},{})", d[0], d[1], d[2])
}

impl Reader {
    fn new(file: String, path: &Path) -> Self {
        Reader {
            file,
            kt: KernelTrace {
                name: String::new(),
                file: path.to_path_buf(),
                id: 0,
                grid: [1; 3],
                block: [1; 3],
                version: 0,
                ctas: Vec::new(),
                grid_line: 0,
                block_line: 0,
            },
            name_line: 0,
            id_line: 0,
            version_line: 0,
            lineinfo: None,
            headers: 0,
            body: 0,
            threads: 1,
            warps: 1,
            tb: None,
            cta_lines: HashMap::new(),
        }
    }

    fn err(&self, line: usize, field: &str, msg: impl Into<String>) -> TraceError {
        TraceError::new(&self.file, line, field, msg)
    }

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

    fn line(&mut self, ln: usize, line: &str) -> Result<(), TraceError> {
        if line.is_empty() {
            return Ok(());
        }
        if line.starts_with("#BEGIN_TB") {
            self.start_body(ln)?;
            return self.begin_tb(ln);
        }
        if line.starts_with("#END_TB") {
            self.start_body(ln)?;
            return self.end_tb(ln);
        }
        if line.starts_with('#') {
            return Ok(()); // A comment (`#traces format = ...`).
        }
        if let Some(h) = line.strip_prefix('-') {
            return self.header(ln, line, h);
        }
        self.start_body(ln)?;
        if let Some(v) = line.strip_prefix("thread block") {
            return self.thread_block(ln, line, v);
        }
        if let Some(v) = line.strip_prefix("warp") {
            return self.warp(ln, line, v);
        }
        if let Some(v) = line.strip_prefix("insts") {
            return self.insts(ln, line, v);
        }
        self.instr(ln, line)
    }

    fn header(&mut self, ln: usize, line: &str, h: &str) -> Result<(), TraceError> {
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
                self.kt.grid = parse_dim(v, 1).ok_or_else(|| {
                    self.err(
                        ln,
                        "-grid dim",
                        format!("`{v}` is not (x,y,z) with x, y, z from 1 to {}", u32::MAX),
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
    fn start_body(&mut self, ln: usize) -> Result<(), TraceError> {
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

    fn begin_tb(&mut self, ln: usize) -> Result<(), TraceError> {
        if let Some(tb) = &self.tb {
            return Err(self.err(
                ln,
                "#END_TB",
                format!(
                    "missing: the thread block begun at line {} is still open at this #BEGIN_TB",
                    tb.begin
                ),
            ));
        }
        self.tb = Some(OpenTb {
            begin: ln,
            id: None,
            warps: Vec::new(),
            warp_lines: Vec::new(),
            warp: None,
        });
        Ok(())
    }

    /// Close the open warp of `tb`: its `insts` must match.
    fn close_warp(&self, tb: &mut OpenTb) -> Result<(), TraceError> {
        let Some(w) = tb.warp.take() else {
            return Ok(());
        };
        let n = tb.warps.get(w.w).map_or(0, |v| v.len() as u64);
        match w.insts {
            Some((said, line)) if said != n => Err(self.err(
                line,
                "insts",
                format!(
                    "says {said} instructions, but warp {} (line {}) has {n}",
                    w.w, w.line
                ),
            )),
            _ => Ok(()),
        }
    }

    fn end_tb(&mut self, ln: usize) -> Result<(), TraceError> {
        let Some(mut tb) = self.tb.take() else {
            return Err(self.err(ln, "#END_TB", "an #END_TB without a #BEGIN_TB before it"));
        };
        self.close_warp(&mut tb)?;
        let Some((id, xyz, _)) = tb.id else {
            return Err(self.err(
                ln,
                "thread block",
                format!(
                    "the thread block begun at line {} has no `thread block = x,y,z` line",
                    tb.begin
                ),
            ));
        };
        let missing =
            (0..self.warps as usize).find(|&w| tb.warp_lines.get(w).is_none_or(|&l| l == 0));
        if let Some(w) = missing {
            return Err(self.err(
                ln,
                "warp",
                format!(
                    "thread block {} (begun at line {}) has no warp {w}: its {} threads are \
                     warps 0 to {}, each traced (every warp runs at least its EXIT)",
                    dims(xyz),
                    tb.begin,
                    self.threads,
                    self.warps - 1
                ),
            ));
        }
        self.kt.ctas.push((id, tb.warps));
        Ok(())
    }

    fn thread_block(&mut self, ln: usize, line: &str, v: &str) -> Result<(), TraceError> {
        let Some(tb) = &self.tb else {
            return Err(self.err(
                ln,
                "thread block",
                "outside a #BEGIN_TB ... #END_TB thread block",
            ));
        };
        if let Some((_, _, first)) = tb.id {
            return Err(self.err(
                ln,
                "thread block",
                format!("given twice in one thread block (first at line {first})"),
            ));
        }
        let g = self.kt.grid;
        let xyz = value(v).and_then(|v| parse_dim(v, 0)).ok_or_else(|| {
            self.err(
                ln,
                "thread block",
                format!("`{line}` is not `thread block = x,y,z` (three integers)"),
            )
        })?;
        if xyz.iter().zip(g).any(|(&c, n)| c >= n) {
            return Err(self.err(
                ln,
                "thread block",
                format!(
                    "{} is outside the grid {} (line {}): x < {}, y < {}, z < {}",
                    dims(xyz),
                    dims(g),
                    self.kt.grid_line,
                    g[0],
                    g[1],
                    g[2]
                ),
            ));
        }
        let id = xyz[0] as u128
            + xyz[1] as u128 * g[0] as u128
            + xyz[2] as u128 * g[0] as u128 * g[1] as u128;
        let id = u64::try_from(id).map_err(|_| {
            self.err(
                ln,
                "thread block",
                format!(
                    "{} has linear id {id}, past 64 bits: the grid {} (line {}) has more CTAs \
                     than a trace can hold",
                    dims(xyz),
                    dims(g),
                    self.kt.grid_line
                ),
            )
        })?;
        if let Some(&first) = self.cta_lines.get(&id) {
            return Err(self.err(
                ln,
                "thread block",
                format!(
                    "{} is traced twice (first at line {first}): each CTA is traced once",
                    dims(xyz)
                ),
            ));
        }
        self.cta_lines.insert(id, ln);
        if let Some(tb) = self.tb.as_mut() {
            tb.id = Some((id, xyz, ln));
        }
        Ok(())
    }

    fn warp(&mut self, ln: usize, line: &str, v: &str) -> Result<(), TraceError> {
        let Some(mut tb) = self.tb.take() else {
            return Err(self.err(ln, "warp", "outside a #BEGIN_TB ... #END_TB thread block"));
        };
        let r = self.warp_in(ln, line, v, &mut tb);
        self.tb = Some(tb);
        r
    }

    fn warp_in(&self, ln: usize, line: &str, v: &str, tb: &mut OpenTb) -> Result<(), TraceError> {
        if tb.id.is_none() {
            return Err(self.err(
                ln,
                "thread block",
                format!(
                    "the thread block begun at line {} has a warp before its `thread block = \
                     x,y,z` line",
                    tb.begin
                ),
            ));
        }
        let last = self.warps - 1;
        let w: u64 = value(v).and_then(dec).ok_or_else(|| {
            self.err(
                ln,
                "warp",
                format!("`{line}` is not `warp = N` with N from 0 to {last}"),
            )
        })?;
        if w >= self.warps {
            return Err(self.err(
                ln,
                "warp",
                format!(
                    "{w} is past the block's warps: -block dim {} (line {}) is {} threads, \
                     warps 0 to {last}",
                    dims(self.kt.block),
                    self.kt.block_line,
                    self.threads
                ),
            ));
        }
        // At most 32 warps (MAX_BLOCK_THREADS / 32): the index is small.
        let w = w as usize;
        self.close_warp(tb)?;
        if tb.warps.len() <= w {
            tb.warps.resize(w + 1, Vec::new());
            tb.warp_lines.resize(w + 1, 0);
        }
        if tb.warp_lines[w] != 0 {
            return Err(self.err(
                ln,
                "warp",
                format!(
                    "warp {w} is given twice in one thread block (first at line {})",
                    tb.warp_lines[w]
                ),
            ));
        }
        tb.warp_lines[w] = ln;
        tb.warp = Some(OpenWarp {
            w,
            line: ln,
            insts: None,
        });
        Ok(())
    }

    fn insts(&mut self, ln: usize, line: &str, v: &str) -> Result<(), TraceError> {
        let n: u64 = value(v).and_then(dec).ok_or_else(|| {
            self.err(
                ln,
                "insts",
                format!("`{line}` is not `insts = N` (a count)"),
            )
        })?;
        let open = self.tb.as_ref().and_then(|tb| {
            let w = tb.warp.as_ref()?;
            Some((w.insts, tb.warps.get(w.w).map_or(0, Vec::len)))
        });
        match open {
            None => Err(self.err(ln, "insts", "outside a warp: `warp = N` comes first")),
            Some((Some((_, first)), _)) => Err(self.err(
                ln,
                "insts",
                format!("given twice for one warp (first at line {first})"),
            )),
            Some((None, done)) if done > 0 => Err(self.err(
                ln,
                "insts",
                "after the warp's first instruction: `insts = N` follows `warp = N`",
            )),
            Some((None, _)) => {
                if let Some(w) = self.tb.as_mut().and_then(|tb| tb.warp.as_mut()) {
                    w.insts = Some((n, ln));
                }
                Ok(())
            }
        }
    }

    fn instr(&mut self, ln: usize, line: &str) -> Result<(), TraceError> {
        let w = match &self.tb {
            None => {
                return Err(self.err(
                    ln,
                    "#BEGIN_TB",
                    format!("`{line}` is outside a #BEGIN_TB ... #END_TB thread block"),
                ))
            }
            Some(tb) => match &tb.warp {
                None => {
                    return Err(self.err(
                        ln,
                        "warp",
                        "an instruction before its warp: `warp = N` comes first",
                    ))
                }
                Some(w) => w.w,
            },
        };
        let i = self.parse_instr(ln, line, w)?;
        if let Some(v) = self.tb.as_mut().and_then(|tb| tb.warps.get_mut(w)) {
            v.push(i);
        }
        Ok(())
    }

    /// One instruction line of warp `w`.
    fn parse_instr(&self, ln: usize, line: &str, w: usize) -> Result<TraceInstr, TraceError> {
        let mut t = line.split_whitespace();
        let mut next = |field: &str| {
            t.next().ok_or_else(|| {
                self.err(
                    ln,
                    field,
                    format!("missing: the line ends before it ({INSTR_FORM})"),
                )
            })
        };
        if self.lineinfo.is_some_and(|l| l.0) {
            next("line number")?;
        }
        let s = next("PC")?;
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
        let s = next("mask")?;
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
        let count = |s: &str, field: &str, what: &str| {
            dec::<usize>(s).ok_or_else(|| {
                self.err(
                    ln,
                    field,
                    format!("`{s}` is not a count of {what} registers"),
                )
            })
        };
        let nd = count(next("dest_num")?, "dest_num", "destination")?;
        let mut dests = Vec::new();
        for _ in 0..nd {
            dests.extend(trace_reg(next("reg_dests")?));
        }
        let opcode = next("opcode")?;
        if !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(self.err(
                ln,
                "opcode",
                format!("`{opcode}` is not an opcode (a SASS name such as LDG.E.64)"),
            ));
        }
        let opcode = opcode.to_string();
        let ns = count(next("src_num")?, "src_num", "source")?;
        let mut srcs = Vec::new();
        for _ in 0..ns {
            srcs.extend(trace_reg(next("reg_srcs")?));
        }
        let s = next("mem_width")?;
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
        let mut addrs = Vec::new();
        if width > 0 {
            let s = next("address_format")?;
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
            let addr = |s: &str, field: &str| {
                hex(s).map_err(|_| {
                    self.err(
                        ln,
                        field,
                        format!("`{s}` is not a 64-bit hexadecimal address"),
                    )
                })
            };
            match fmt {
                0 => {
                    for _ in 0..active {
                        addrs.push(addr(next("address")?, "address")?);
                    }
                }
                1 => {
                    let base = addr(next("base address")?, "base address")?;
                    let s = next("stride")?;
                    let stride: i32 = dec::<i64>(s)
                        .ok_or_else(|| {
                            self.err(ln, "stride", format!("`{s}` is not an integer stride"))
                        })?
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
                }
                _ => {
                    let base = addr(next("base address")?, "base address")?;
                    let mut a = base;
                    if active > 0 {
                        addrs.push(a);
                    }
                    for k in 1..active {
                        let s = next("delta")?;
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
                }
            }
        }
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
        Ok(TraceInstr {
            pc,
            mask,
            opcode,
            op,
            width,
            addrs,
            dests,
            srcs,
        })
    }

    fn finish(mut self, last: usize) -> Result<KernelTrace, TraceError> {
        self.start_body(last)?;
        if let Some(tb) = &self.tb {
            return Err(self.err(
                last,
                "#END_TB",
                format!(
                    "missing at the end of the file: the thread block begun at line {} is not \
                     closed (a truncated trace?)",
                    tb.begin
                ),
            ));
        }
        let g = self.kt.grid;
        let total: u128 = g.iter().map(|&x| x as u128).product();
        let n = self.kt.ctas.len();
        if n as u128 != total {
            // Ids are distinct and below `total`: the first missing one.
            let mut ids: Vec<u64> = self.kt.ctas.iter().map(|c| c.0).collect();
            ids.sort_unstable();
            let first = ids
                .iter()
                .enumerate()
                .find(|(i, &id)| *i as u64 != id)
                .map_or(n as u64, |(i, _)| i as u64);
            let (gx, gy) = (g[0] as u64, g[1] as u64);
            let xyz = (first % gx, first / gx % gy, first / gx / gy);
            return Err(self.err(
                self.kt.grid_line,
                "-grid dim",
                format!(
                    "the grid {} has {total} CTAs but the trace holds {n} thread blocks (the \
                     first untraced CTA is ({},{},{})): every CTA of the grid must be traced, \
                     an untraced CTA has no instructions to replay",
                    dims(g),
                    xyz.0,
                    xyz.1,
                    xyz.2
                ),
            ));
        }
        self.kt.ctas.sort_by_key(|c| c.0);
        Ok(self.kt)
    }
}

impl Kernel {
    /// Whether this kernel's trace can run on `cfg`'s SM as it stands: a
    /// CTA's warps fit the SM's `max_warps` warp slots, and the trace
    /// covers the grid, one thread block per CTA, with at most the
    /// block's warps each (always so for a trace [`read_kernel_trace`]
    /// accepted; checked again for a [`KernelTrace`] built by hand). Each
    /// error names the trace file, the header line and the field. `Ok` for
    /// a kernel that does not replay a trace. `warpgen run` checks every
    /// kernel of a list before it runs any, and [`crate::Harness::run`]
    /// checks its kernel.
    pub fn check_trace(&self, cfg: &MachineConfig) -> Result<(), TraceError> {
        let Some(t) = &self.trace else {
            return Ok(());
        };
        let e = |line: usize, field: &str, msg: String| TraceError::new(&t.file, line, field, msg);
        let (b, g) = (self.block, self.grid);
        if b.contains(&0) {
            return Err(e(
                t.block_line,
                "-block dim",
                format!("{}: a block's x, y, z are at least 1", dims(b)),
            ));
        }
        if g.contains(&0) {
            return Err(e(
                t.grid_line,
                "-grid dim",
                format!("{}: a grid's x, y, z are at least 1", dims(g)),
            ));
        }
        let threads: u128 = b.iter().map(|&x| x as u128).product();
        let warps = threads.div_ceil(WARP as u128);
        if warps > cfg.max_warps as u128 {
            return Err(e(
                t.block_line,
                "-block dim",
                format!(
                    "{} is {threads} threads, {warps} warps per CTA, but the machine has \
                     max_warps = {} warp slots per SM: a CTA of at most {} threads fits \
                     (or raise max_warps, at most 64)",
                    dims(b),
                    cfg.max_warps,
                    cfg.max_warps as u64 * WARP
                ),
            ));
        }
        let total: u128 = g.iter().map(|&x| x as u128).product();
        let covered = t.ctas.len() as u128 == total
            && t.ctas.iter().enumerate().all(|(i, c)| c.0 == i as u64);
        if !covered {
            return Err(e(
                t.grid_line,
                "-grid dim",
                format!(
                    "the grid {} has {total} CTAs but the trace holds {} thread blocks: every \
                     CTA of the grid is traced once",
                    dims(g),
                    t.ctas.len()
                ),
            ));
        }
        for (id, ws) in &t.ctas {
            if ws.len() as u128 > warps {
                return Err(e(
                    0,
                    "warp",
                    format!("CTA {id} has {} warps, past the block's {warps}", ws.len()),
                ));
            }
            if ws.iter().flatten().any(|i| i.lines.len() > WARP as usize) {
                return Err(e(
                    0,
                    "address",
                    format!(
                        "an instruction of CTA {id} touches more than 32 lines: its accesses \
                         are not aligned to their width"
                    ),
                ));
            }
        }
        Ok(())
    }
}
