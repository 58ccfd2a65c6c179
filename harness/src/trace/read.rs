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

use super::format::{KernelTrace, TraceError, TraceInstr};
use super::warn::TraceNotes;

/// The per-thread access widths (bytes) a memory instruction may give:
/// SASS accesses are 1 to 16 bytes per thread (32 for the 256-bit loads
/// of the newest GPUs); 0 is a non-memory instruction.
pub const TRACE_WIDTHS: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// CUDA's limit on the threads of a block (every GPU since compute
/// capability 2.0).
pub const MAX_BLOCK_THREADS: u64 = 1024;

/// CUDA's limits on a block's x, y and z.
pub const MAX_BLOCK_DIMS: [u32; 3] = [1024, 1024, 64];

/// CUDA's limits on a grid's x, y and z (every GPU since compute
/// capability 3.0).
pub const MAX_GRID_DIMS: [u32; 3] = [2_147_483_647, 65_535, 65_535];

/// Threads per warp.
pub(super) const WARP: u64 = 32;

/// The header lines a trace begins with, as its errors show them.
pub(super) const HEADER_FORM: &str =
    "`-kernel name = NAME`, `-grid dim = (x,y,z)`, `-block dim = (x,y,z)` \
                           and `-accelsim tracer version = N` (3 to 6)";

/// Read one `kernel-N.traceg` and check it ([`parse_kernel_trace`]).
pub fn read_kernel_trace(path: &Path) -> Result<KernelTrace, TraceError> {
    let bytes = crate::input_file::read_bounded(
        path,
        crate::input_file::MAX_TRACE_BYTES,
        "a kernel trace (kernel-N.traceg)",
    )
    .map_err(|e| TraceError::new(&path.display().to_string(), 0, "", e))?;
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
///
/// Not errors but warnings ([`KernelTrace::warnings`], one per distinct
/// token): an opcode whose base (before the first `.`) is not one of
/// Accel-Sim's SASS opcodes ([`super::sass::is_known`]) is replayed as an
/// ALU instruction, and a register token [`trace_reg`](super::trace_reg)
/// cannot number (`R-1`, `R300`, `Q3`; not `RZ`, `URZ`, `PT`, `UPT`,
/// `!PT` or `SR_*`, which carry no dependence on purpose) is left out of
/// the dependencies.
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
    // A byte-order mark (an editor's) is not part of the header.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
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
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
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
pub(super) struct OpenWarp {
    pub(super) w: usize,
    pub(super) line: usize,
    /// `insts = n` and its line.
    pub(super) insts: Option<(u64, usize)>,
}

/// A thread block being read.
pub(super) struct OpenTb {
    pub(super) begin: usize,
    /// Linear id, coordinates, line of `thread block`.
    pub(super) id: Option<(u64, [u32; 3], usize)>,
    pub(super) warps: Vec<Vec<TraceInstr>>,
    /// Per warp: the line of its `warp = w` (0: not yet).
    pub(super) warp_lines: Vec<usize>,
    pub(super) warp: Option<OpenWarp>,
}

/// The reader of one trace file, line by line.
pub(super) struct Reader {
    pub(super) file: String,
    pub(super) kt: KernelTrace,
    pub(super) name_line: usize,
    pub(super) id_line: usize,
    pub(super) version_line: usize,
    pub(super) lineinfo: Option<(bool, usize)>,
    /// Header lines read.
    pub(super) headers: usize,
    /// The first body line (0: still in the header).
    pub(super) body: usize,
    /// Threads and warps per block.
    pub(super) threads: u64,
    pub(super) warps: u64,
    pub(super) tb: Option<OpenTb>,
    /// Traced CTAs: linear id to the line of their `thread block`.
    pub(super) cta_lines: HashMap<u64, usize>,
    /// Unknown opcodes and unreadable registers, for the warnings.
    pub(super) notes: TraceNotes,
}

/// `(x,y,z)` or `x,y,z`: three integers of at least `min`.
pub(super) fn parse_dim(v: &str, min: u32) -> Option<[u32; 3]> {
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
pub(super) fn hex(s: &str) -> Result<u64, bool> {
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
pub(super) fn dec<T: std::str::FromStr>(s: &str) -> Option<T> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The value of `key = value` after its key.
pub(super) fn value(rest: &str) -> Option<&str> {
    rest.trim_start().strip_prefix('=').map(str::trim)
}

/// `(x,y,z)`.
pub(super) fn dims(d: [u32; 3]) -> String {
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
                warnings: Vec::new(),
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
            notes: TraceNotes::default(),
        }
    }

    pub(super) fn err(&self, line: usize, field: &str, msg: impl Into<String>) -> TraceError {
        TraceError::new(&self.file, line, field, msg)
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
        let (i, unnumbered) = self.parse_instr(ln, line, w)?;
        self.notes.opcode(ln, &i.opcode);
        for (token, field) in unnumbered {
            self.notes.register(ln, token, field);
        }
        if let Some(v) = self.tb.as_mut().and_then(|tb| tb.warps.get_mut(w)) {
            v.push(i);
        }
        Ok(())
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
        self.kt.warnings = std::mem::take(&mut self.notes).warnings(&self.file);
        Ok(self.kt)
    }
}
