//! Accel-Sim trace replay: the parser reproduces the tracer's own
//! instruction totals, and traced memory instructions drive the harness
//! like kernel files do. Bad traces are errors naming the file, the line
//! and the field; mutated traces never panic the reader (the fuzzer at
//! the end, `WARPGEN_FUZZ_CASES` inputs).

use std::path::{Path, PathBuf};
use std::time::Instant;

use harness::trace::{parse_kernel_trace, read_kernel_trace, read_kernelslist, TraceOp};
use harness::{Harness, HarnessError, Kernel, MachineConfig};

/// The Accel-Sim traces (`WARPGEN_TRACES`, default `/work/shared/traces`);
/// the tests are skipped when they are absent.
fn traces() -> PathBuf {
    std::env::var_os("WARPGEN_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/traces"))
}

/// `stats.csv`: (kernel file stem, #blocks, total_insts).
fn stats(dir: &Path) -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            (
                f[0].trim_end_matches(".trace").to_string(),
                f[5].parse().unwrap(),
                f[10].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn parser_reproduces_the_tracer_totals() {
    let root = traces();
    if !root.exists() {
        eprintln!("no traces at {}: skipped", root.display());
        return;
    }
    // (folder, warp instructions, memory instructions) from the README.
    for (dir, insts, mems) in [
        ("microgpusim/matrixmul-32-32-trace", 4416, 1440),
        ("microgpusim/vectoradd-100-32-trace", 344, 12),
        ("mgpusim/simple-trace-example", 26601, 4689),
    ] {
        let d = root.join(dir);
        let kernels = read_kernelslist(&d).unwrap();
        assert_eq!(kernels.len(), 1, "{dir}");
        let kt = read_kernel_trace(&kernels[0]).unwrap();
        assert_eq!(kt.instructions(), insts, "{dir}");
        assert_eq!(kt.mem_instructions(), mems, "{dir}");
        if d.join("stats.csv").exists() {
            let st = stats(&d);
            let stem = kernels[0]
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .to_string();
            let row = st.iter().find(|r| r.0 == stem).unwrap();
            assert_eq!(kt.instructions(), row.2, "{dir}: stats.csv total_insts");
            assert_eq!(kt.ctas.len() as u64, row.1, "{dir}: stats.csv #blocks");
        }
        // Every global access has one address per active thread.
        for (_, warps) in &kt.ctas {
            for i in warps.iter().flatten() {
                if i.op != TraceOp::Compute {
                    assert_eq!(i.addrs.len() as u32, i.mask.count_ones(), "{dir} {i:?}");
                }
            }
        }
    }
}

#[test]
fn traces_replay_on_the_harness() {
    let root = traces();
    if !root.exists() {
        return;
    }
    for dir in [
        "microgpusim/matrixmul-32-32-trace",
        "microgpusim/vectoradd-100-32-trace",
        "mgpusim/simple-trace-example",
    ] {
        let kt = read_kernel_trace(&read_kernelslist(&root.join(dir)).unwrap()[0]).unwrap();
        let k = Kernel::from_trace(&kt, 128);
        assert!(k.is_trace());
        let globals: u64 = kt
            .ctas
            .iter()
            .flat_map(|(_, w)| w.iter().flatten())
            .filter(|i| i.op != TraceOp::Compute)
            .count() as u64;
        for sets in [
            vec![("n_sm", "1")],
            vec![("n_sm", "1"), ("prefetcher", "caps"), ("sched", "pas")],
            vec![("n_sm", "1"), ("l1", "ba")],
        ] {
            let mut c = MachineConfig::fermi();
            c.set("max_warps", "64").unwrap();
            for (a, b) in &sets {
                c.set(a, b).unwrap();
            }
            let m = Harness::new(&k, &c)
                .run()
                .unwrap_or_else(|e| panic!("{dir}: {e}"));
            // Every traced instruction issues once; global ones reach the L1.
            assert_eq!(m.warp_instructions, kt.instructions(), "{dir} {sets:?}");
            assert_eq!(m.mem_instructions, globals, "{dir} {sets:?}");
            assert_eq!(m.ctas, kt.ctas.len() as u64);
            assert!(m.l1.accesses > 0 && m.memory.reads > 0);
            if let Some(p) = &m.prefetch {
                assert_eq!(p.counts.get("indirect_loads"), Some(0));
                assert!(p.counts.get("loads").unwrap() > 0);
            }
        }
    }
}

// ---------------------------------------------------------------------
// Bad traces: each is an error naming the file, the line and the field.

/// A valid trace: `ctas` CTAs in a row of the grid, `warps` full warps
/// each, every warp a move, a load (base+stride), a store (base+deltas)
/// and an EXIT.
fn good(ctas: u32, warps: u32) -> String {
    let mut s = format!(
        "-kernel name = _Z4testPf\n-kernel id = 1\n-grid dim = ({ctas},1,1)\n-block dim = \
         ({},1,1)\n-shmem = 0\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#traces \
         format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width \
         [adrrescompress?] [mem_addresses]\n",
        warps * 32
    );
    for c in 0..ctas {
        s += &format!("\n#BEGIN_TB\n\nthread block = {c},0,0\n");
        for w in 0..warps {
            let a = 0x7f00_0000_0000u64 + (c * warps + w) as u64 * 128;
            s += &format!(
                "\nwarp = {w}\ninsts = 4\n0000 ffffffff 1 R1 MOV 0 0 0\n0010 ffffffff 1 R4 LDG.E 1 \
                 R2 4 1 {a:#x} 4 0\n0020 0000000f 0 STG.E 2 R2 R4 4 2 {a:#x} 4 4 4 0\n0030 \
                 ffffffff 0 EXIT 0 0 0\n"
            );
        }
        s += "\n#END_TB\n";
    }
    s
}

/// `text` with the `nth` (0-based) occurrence of `from` replaced by `to`,
/// and the 1-based line it is on.
fn subst(text: &str, from: &str, to: &str, nth: usize) -> (String, usize) {
    let at = text
        .match_indices(from)
        .nth(nth)
        .unwrap_or_else(|| panic!("no {nth}th `{from}`"))
        .0;
    let line = text[..at].matches('\n').count() + 1;
    let mut s = text[..at].to_string();
    s += to;
    s += &text[at + from.len()..];
    (s, line)
}

/// The line number of the last line of `text`.
fn last_line(text: &str) -> usize {
    text.lines().count()
}

/// One bad trace: what it is, its text, and the error's line, field and a
/// part of its message.
struct Bad {
    what: &'static str,
    text: Vec<u8>,
    line: usize,
    field: &'static str,
    msg: &'static str,
}

fn bad(
    what: &'static str,
    (text, line): (String, usize),
    field: &'static str,
    msg: &'static str,
) -> Bad {
    Bad {
        what,
        text: text.into_bytes(),
        line,
        field,
        msg,
    }
}

/// The bad inputs of issue 13 (item 3) and the other rules of
/// `read_kernel_trace`, in four groups.
fn bad_traces() -> Vec<Bad> {
    let g = good(2, 2);
    let mut v = bad_dimensions_and_ids(&g);
    v.extend(bad_headers(&g));
    v.extend(bad_instruction_lines(&g));
    v.extend(bad_structure(&g));
    v
}

/// Block and grid dimensions, warp ids and thread block ids.
fn bad_dimensions_and_ids(g: &str) -> Vec<Bad> {
    let g = g.to_string();
    let (dup, dup_line) = subst(&g, "thread block = 1,0,0", "thread block = 0,0,0", 0);
    vec![
        bad(
            "block dimension of 0",
            subst(&g, "-block dim = (64,1,1)", "-block dim = (64,0,1)", 0),
            "-block dim",
            "is not (x,y,z) with x, y, z of at least 1",
        ),
        bad(
            "grid dimension of 0",
            subst(&g, "-grid dim = (2,1,1)", "-grid dim = (0,1,1)", 0),
            "-grid dim",
            "is not (x,y,z) within CUDA's grid limits: x from 1 to 2147483647",
        ),
        bad(
            "an escape character in the kernel name",
            subst(&g, "-kernel name = ", "-kernel name = \u{1b}[31m", 0),
            "-kernel name",
            "contains the control character U+001B",
        ),
        bad(
            "grid y past CUDA's 65,535",
            subst(&g, "-grid dim = (2,1,1)", "-grid dim = (2,70000,1)", 0),
            "-grid dim",
            "y and z from 1 to 65535",
        ),
        bad(
            "warp id 4,000,000,000",
            subst(&g, "warp = 1", "warp = 4000000000", 0),
            "warp",
            "4000000000 is past the block's warps: -block dim (64,1,1) (line 4) is 64 threads, warps 0 to 1",
        ),
        bad(
            "warp id past the block's warps",
            subst(&g, "warp = 1", "warp = 2", 0),
            "warp",
            "2 is past the block's warps",
        ),
        bad(
            "warp given twice",
            subst(&g, "warp = 1", "warp = 0", 0),
            "warp",
            "warp 0 is given twice in one thread block",
        ),
        bad(
            "a warp of the block untraced",
            {
                // CTA 0's warp 1 (its `warp = 1` line and instructions) deleted.
                let at = g.find("\nwarp = 1").unwrap();
                let end = g[at..].find("\n#END_TB").unwrap() + at;
                let s = format!("{}{}", &g[..at], &g[end..]);
                let line = s[..s.find("#END_TB").unwrap()].matches('\n').count() + 1;
                (s, line)
            },
            "warp",
            "has no warp 1",
        ),
        bad(
            "thread block outside the grid",
            subst(&g, "thread block = 1,0,0", "thread block = 2,0,0", 0),
            "thread block",
            "(2,0,0) is outside the grid (2,1,1) (line 3): x < 2, y < 1, z < 1",
        ),
        bad(
            "thread block outside the grid (y)",
            subst(&g, "thread block = 1,0,0", "thread block = 0,1,0", 0),
            "thread block",
            "(0,1,0) is outside the grid (2,1,1)",
        ),
        bad(
            "duplicate CTA id",
            (dup, dup_line),
            "thread block",
            "(0,0,0) is traced twice (first at line 13): each CTA is traced once",
        ),
    ]
}

/// The header: missing, misplaced, repeated or unsupported lines, and
/// empty files.
fn bad_headers(g: &str) -> Vec<Bad> {
    let g = g.to_string();
    let header_end = g.find("\n#traces").unwrap() + 1;
    let no_header = g[header_end..].to_string();
    let no_header_line = no_header.lines().position(|l| l == "#BEGIN_TB").unwrap() + 1;
    vec![
        bad(
            "missing header",
            (no_header, no_header_line),
            "header",
            "the trace has no header, its body begins at line",
        ),
        bad(
            "missing version line",
            subst(&g, "-accelsim tracer version = 5\n", "", 0)
                .0
                .pipe(|s| {
                    let line = s.lines().position(|l| l == "#BEGIN_TB").unwrap() + 1;
                    (s, line)
                }),
            "-accelsim tracer version",
            "missing from the header",
        ),
        bad(
            "missing grid dim",
            subst(&g, "-grid dim = (2,1,1)\n", "", 0).0.pipe(|s| {
                let line = s.lines().position(|l| l == "#BEGIN_TB").unwrap() + 1;
                (s, line)
            }),
            "-grid dim",
            "missing from the header",
        ),
        bad(
            "header line after the body began",
            subst(&g, "#END_TB", "#END_TB\n-grid dim = (4,1,1)", 0).pipe(|(s, l)| (s, l + 1)),
            "header",
            "comes after the trace's body began",
        ),
        bad(
            "grid dim given twice",
            subst(&g, "-shmem = 0", "-grid dim = (4,1,1)", 0),
            "-grid dim",
            "given twice (first at line 3)",
        ),
        bad(
            "0-byte trace",
            (String::new(), 1),
            "header",
            "the file is empty (0 bytes)",
        ),
        bad(
            "white space only",
            ("\n  \n".to_string(), 1),
            "header",
            "only white space",
        ),
        bad(
            "tracer version 7",
            subst(&g, "version = 5", "version = 7", 0),
            "-accelsim tracer version",
            "tracer versions 3 to 6 are supported",
        ),
    ]
}

/// Instruction lines: active masks, access widths, address formats,
/// strides and deltas, addresses, PCs and instruction counts.
fn bad_instruction_lines(g: &str) -> Vec<Bad> {
    let g = g.to_string();
    vec![
        bad(
            "active mask wider than 32 bits",
            subst(&g, "0010 ffffffff", "0010 1ffffffff", 0),
            "mask",
            "`1ffffffff` is wider than 32 bits",
        ),
        bad(
            "active mask of 64 hex digits",
            subst(&g, "0010 ffffffff", &format!("0010 {}", "f".repeat(64)), 0),
            "mask",
            "is wider than 32 bits",
        ),
        bad(
            "active mask past the block's threads",
            subst(&g, "-block dim = (64,1,1)", "-block dim = (48,1,1)", 0)
                .0
                .pipe(|s| {
                    // Warp 1's first instruction: lanes 16-31 are no threads.
                    let (s, line) = subst(&s, "0000 ffffffff 1 R1 MOV", "0000 ffffffff 1 R1 MOV", 1);
                    (s, line)
                }),
            "mask",
            "ffffffff has lanes past the block's 48 threads: warp 1 has lanes 0 to 15",
        ),
        bad(
            "access width 2^32-1",
            subst(&g, "R2 4 1", "R2 4294967295 1", 0),
            "mem_width",
            "4294967295 bytes is not an access width: 0 (no memory access) or 1, 2, 4, 8, 16 or 32 bytes per thread",
        ),
        bad(
            "access width 3",
            subst(&g, "R2 4 1", "R2 3 1", 0),
            "mem_width",
            "3 bytes is not an access width",
        ),
        bad(
            "access width 2^64",
            subst(&g, "R2 4 1", "R2 18446744073709551616 1", 0),
            "mem_width",
            "is not a width",
        ),
        bad(
            "unknown address format",
            subst(&g, "R2 4 1", "R2 4 3", 0),
            "address_format",
            "`3` is not an address format",
        ),
        bad(
            "base+stride overflowing 64 bits",
            subst(&g, "R2 4 1 0x7f0000000000 4 0", "R2 4 1 0xfffffffffffffff0 4 0", 0),
            "stride",
            "base 0xfffffffffffffff0 + 4 x 4 leaves the 64-bit address space",
        ),
        bad(
            "base+stride going below 0",
            subst(&g, "R2 4 1 0x7f0000000000 4 0", "R2 4 1 0x10 -8 0", 0),
            "stride",
            "leaves the 64-bit address space",
        ),
        bad(
            "stride past 32 bits",
            subst(&g, "R2 4 1 0x7f0000000000 4 0", "R2 4 1 0x7f0000000000 4294967296 0", 0),
            "stride",
            "4294967296 is outside the tracer's 32-bit stride",
        ),
        bad(
            "base+stride with gaps in the mask",
            subst(&g, "0010 ffffffff 1 R4", "0010 fffffff7 1 R4", 0),
            "address_format",
            "base+stride (1) needs consecutive active lanes",
        ),
        bad(
            "base+deltas overflowing 64 bits",
            subst(&g, "4 2 0x7f0000000000 4 4 4", "4 2 0xfffffffffffffff8 4 4 4", 0),
            "delta",
            "leaves the 64-bit address space",
        ),
        bad(
            "delta past 64 bits",
            subst(&g, "4 2 0x7f0000000000 4 4 4", "4 2 0x7f0000000000 4 99999999999999999999 4", 0),
            "delta",
            "is not a 64-bit integer delta",
        ),
        bad(
            "misaligned address",
            subst(&g, "R2 4 1 0x7f0000000000", "R2 4 1 0x7f0000000002", 0),
            "address",
            "0x7f0000000002 is not a multiple of mem_width 4",
        ),
        bad(
            "too few addresses",
            subst(&g, "4 2 0x7f0000000000 4 4 4 0", "4 2 0x7f0000000000 4", 0),
            "delta",
            "missing: the line ends before it",
        ),
        bad(
            "PC past 32 bits",
            subst(&g, "0030 ffffffff 0 EXIT", "100000000 ffffffff 0 EXIT", 0),
            "PC",
            "is not a PC: hexadecimal, at most 32 bits",
        ),
        bad(
            "insts count wrong",
            subst(&g, "insts = 4", "insts = 5", 0),
            "insts",
            "says 5 instructions, but warp 0",
        ),
    ]
}

/// The file's structure: thread blocks open or truncated, grids against
/// the traced CTAs, oversized blocks, bytes that are no UTF-8, and
/// instructions outside a warp.
fn bad_structure(g: &str) -> Vec<Bad> {
    let g = g.to_string();
    let g8 = good(8, 1);
    let truncated = g[..g.rfind("#END_TB").unwrap()].to_string();
    let truncated_last = last_line(&truncated);
    // The second thread block deleted: a grid of 2 with 1 traced.
    let second = g.match_indices("\n#BEGIN_TB").nth(1).unwrap().0;
    let one_of_two = g[..second].to_string();
    vec![
        bad(
            "missing #END_TB (truncated trace)",
            (truncated, truncated_last),
            "#END_TB",
            "missing at the end of the file",
        ),
        bad(
            "#BEGIN_TB inside a thread block",
            subst(&g, "#END_TB\n", "", 0).pipe(|(s, _)| {
                let line = s.lines().enumerate().filter(|(_, l)| *l == "#BEGIN_TB").nth(1).unwrap().0 + 1;
                (s, line)
            }),
            "#END_TB",
            "is still open at this #BEGIN_TB",
        ),
        bad(
            "thread block without a `thread block` line",
            subst(&g, "thread block = 0,0,0", "", 0).pipe(|(s, _)| {
                let line = s.lines().position(|l| l.starts_with("warp")).unwrap() + 1;
                (s, line)
            }),
            "thread block",
            "has a warp before its `thread block = x,y,z` line",
        ),
        bad(
            "grid (2^31-1, 65535, 64) against eight traced CTAs",
            subst(&g8, "-grid dim = (8,1,1)", "-grid dim = (2147483647,65535,64)", 0),
            "-grid dim",
            "the grid (2147483647,65535,64) has 9007061811593280 CTAs but the trace holds 8 thread blocks (the first untraced CTA is (8,0,0))",
        ),
        bad(
            "grid of 2 with one CTA traced",
            (one_of_two, 3),
            "-grid dim",
            "the grid (2,1,1) has 2 CTAs but the trace holds 1 thread blocks (the first untraced CTA is (1,0,0))",
        ),
        bad(
            "block over CUDA's 1024 threads",
            subst(&g, "-block dim = (64,1,1)", "-block dim = (2048,1,1)", 0),
            "-block dim",
            "(2048,1,1) is 2048 threads: a CUDA block has at most 1024 threads",
        ),
        bad(
            "block of 2^32-1 x 2^32-1 x 2^32-1",
            subst(&g, "-block dim = (64,1,1)", "-block dim = (4294967295,4294967295,4294967295)", 0),
            "-block dim",
            "a CUDA block has at most 1024 threads",
        ),
        bad(
            "not UTF-8",
            {
                let (s, line) = subst(&g, "LDG.E", "LDG.\u{1}", 0);
                (s, line)
            },
            "text",
            "not UTF-8",
        )
        .pipe(|mut b| {
            // The \u{1} placeholder becomes a byte that is no UTF-8.
            let at = b.text.iter().position(|&c| c == 1).unwrap();
            b.text[at] = 0xff;
            b
        }),
        bad(
            "instruction outside a warp",
            subst(&g, "\nwarp = 0\ninsts = 4\n", "\n", 0).pipe(|(s, l)| (s, l + 1)),
            "warp",
            "an instruction before its warp",
        ),
    ]
}

/// `x.pipe(f)`: `f(x)`.
trait Pipe: Sized {
    fn pipe<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}
impl<T> Pipe for T {}

#[test]
fn good_trace_of_the_tests_is_valid() {
    for (ctas, warps) in [(2, 2), (8, 1), (1, 32)] {
        let text = good(ctas, warps);
        let kt = parse_kernel_trace(text.as_bytes(), "t/kernel-1.traceg".as_ref())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(kt.ctas.len() as u32, ctas);
        assert_eq!(kt.instructions(), (ctas * warps * 4) as u64);
        let k = Kernel::from_trace(&kt, 128);
        let mut c = MachineConfig::fermi();
        c.set("n_sm", "1").unwrap();
        let m = Harness::new(&k, &c).run().unwrap();
        assert_eq!(m.warp_instructions, kt.instructions());
    }
}

/// Every bad trace is an error (never a panic) naming the file, the line
/// and the field, with the message saying what is wrong; and read from a
/// file, the message starts with ``FILE:LINE: field `FIELD` ``.
#[test]
fn bad_traces_name_the_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kernel-1.traceg");
    for b in bad_traces() {
        std::fs::write(&path, &b.text).unwrap();
        let start = Instant::now();
        let e = match read_kernel_trace(&path) {
            Ok(_) => panic!("{}: accepted", b.what),
            Err(e) => e,
        };
        assert!(start.elapsed().as_secs_f64() < 1.0, "{}: slow", b.what);
        let shown = e.to_string();
        assert_eq!(e.file, path.display().to_string(), "{}: {shown}", b.what);
        assert_eq!(
            (e.line, e.field.as_str()),
            (b.line, b.field),
            "{}: {shown}",
            b.what
        );
        assert!(e.msg.contains(b.msg), "{}: {shown}", b.what);
        assert!(
            shown.starts_with(&format!(
                "{}:{}: field `{}`: ",
                path.display(),
                b.line,
                b.field
            )),
            "{}: {shown}",
            b.what
        );
    }
}

/// A block of 1024 threads (32 warps) on a machine of 16 warp slots: the
/// error names the trace file, the `-block dim` line and field, and what
/// fits; both from `check_trace` and from a run.
#[test]
fn a_block_larger_than_the_machine_names_its_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kernel-1.traceg");
    std::fs::write(&path, good(1, 32)).unwrap();
    let k = Kernel::from_trace(&read_kernel_trace(&path).unwrap(), 128);
    let mut c = MachineConfig::fermi();
    c.set("max_warps", "16").unwrap();
    let e = k.check_trace(&c).unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (4, "-block dim"), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{}:4: field `-block dim`: (1024,1,1) is 1024 threads, 32 warps per CTA, but the \
             machine has max_warps = 16 warp slots per SM: a CTA of at most 512 threads fits (or \
             raise max_warps, at most 64)",
            path.display()
        )
    );
    match Harness::new(&k, &c).run() {
        Err(HarnessError::Trace(t)) => assert_eq!(t, e),
        other => panic!("{:?}", other.map(|m| m.cycles)),
    }
}

/// A `KernelTrace` built by hand that leaves CTAs of its grid untraced is
/// refused by the run, not replayed as CTAs that do nothing.
#[test]
fn a_hand_built_trace_must_cover_its_grid() {
    let mut kt = parse_kernel_trace(good(2, 1).as_bytes(), "k.traceg".as_ref()).unwrap();
    kt.grid = [3, 1, 1];
    let k = Kernel::from_trace(&kt, 128);
    let e = Harness::new(&k, &MachineConfig::fermi()).run().unwrap_err();
    assert!(
        e.to_string().starts_with(
            "k.traceg:3: field `-grid dim`: the grid (3,1,1) has 3 CTAs but the trace holds 2"
        ),
        "{e}"
    );
}

/// `kernelslist.g` naming a file that is not there: the list's file, line
/// and field.
#[test]
fn kernelslist_naming_a_missing_trace_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("kernel-1.traceg"), good(1, 1)).unwrap();
    std::fs::write(
        dir.path().join("kernelslist.g"),
        "MemcpyHtoD,0x00007f2b2d500000,400\nkernel-1.traceg\nkernel-2.traceg\n",
    )
    .unwrap();
    let e = read_kernelslist(dir.path()).unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (3, "kernel"), "{e}");
    assert!(
        e.file.ends_with("kernelslist.g") && e.msg.contains("no such trace file"),
        "{e}"
    );
}

/// Every kernel of a list is read and checked before any runs: the second
/// kernel's bad block stops `prepare_all` with its error, so no result of
/// the first is computed and lost.
#[test]
fn a_kernelslist_is_checked_whole_before_any_kernel_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("kernel-1.traceg"), good(2, 2)).unwrap();
    let (bad2, _) = subst(
        &good(2, 2),
        "-block dim = (64,1,1)",
        "-block dim = (0,1,1)",
        0,
    );
    std::fs::write(dir.path().join("kernel-2.traceg"), bad2).unwrap();
    std::fs::write(
        dir.path().join("kernelslist.g"),
        "kernel-1.traceg\nkernel-2.traceg\n",
    )
    .unwrap();
    let mut args = gen::run::RunArgs::new(dir.path());
    args.quiet = true;
    let e = gen::run::prepare_all(&args).unwrap_err().to_string();
    assert!(e.contains("kernel-2.traceg:4: field `-block dim`"), "{e}");
}

// ---------------------------------------------------------------------
// Fuzzing: mutations of valid traces never panic the reader.

/// SplitMix64: a small seeded generator, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Numbers a mutation puts in place of a number.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "31",
    "32",
    "33",
    "64",
    "1024",
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967295",
    "4294967296",
    "4000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "ffffffff",
    "1ffffffff",
    "0xffffffffffffffff",
    "0x10000000000000000",
    "fffffffffffffff0",
    "",
    "-",
    "0x",
];

/// Lines a mutation inserts.
const LINES: &[&str] = &[
    "#BEGIN_TB",
    "#END_TB",
    "thread block = 0,0,0",
    "thread block = 1,0,0",
    "warp = 0",
    "warp = 1",
    "warp = 31",
    "insts = 0",
    "insts = 3",
    "-grid dim = (1,1,1)",
    "-block dim = (32,1,1)",
    "-accelsim tracer version = 4",
    "-enable lineinfo = 1",
    "0000 ffffffff 0 EXIT 0 0 0",
    "0010 00000001 1 R2 LDG.E.64 1 R4 8 0 0x7f0000000008 0",
    "0020 0000ffff 0 STG.E.128 2 R2 R4 16 1 0x7f0000000000 16 0",
    "0030 00000003 1 R5 ATOM.E.ADD 2 R2 R3 4 2 0x1000 -4 0",
];

/// One to four random mutations of `seed`: a bit flip, a byte set, a line
/// deleted, duplicated, moved or inserted, a number replaced by an extreme,
/// a token deleted, or the text cut short.
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut s = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let mut lines: Vec<Vec<u8>> = s.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        let nl = lines.len();
        match rng.below(10) {
            0 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] ^= 1 << rng.below(8);
                continue;
            }
            1 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] = *b"\n \t0123456789abcdefx-=,()#\xff\xc3\x80"
                    .get(rng.below(28))
                    .unwrap_or(&b'0');
                continue;
            }
            2 => {
                lines.remove(rng.below(nl));
            }
            3 => {
                let i = rng.below(nl);
                let l = lines[i].clone();
                lines.insert(rng.below(nl), l);
            }
            4 => {
                let i = rng.below(nl);
                let l = lines.remove(i);
                lines.insert(rng.below(nl), l);
            }
            5 => {
                lines.insert(
                    rng.below(nl),
                    LINES[rng.below(LINES.len())].as_bytes().to_vec(),
                );
            }
            6 | 7 => {
                // A number token of a random line replaced by an extreme.
                let i = rng.below(nl);
                let text = String::from_utf8_lossy(&lines[i]).into_owned();
                let mut toks: Vec<String> = text.split(' ').map(str::to_string).collect();
                let nums: Vec<usize> = (0..toks.len())
                    .filter(|&k| {
                        let t = toks[k].trim_matches(|c| c == '(' || c == ')' || c == ',');
                        !t.is_empty()
                            && t.bytes().all(|b| {
                                b.is_ascii_hexdigit() || b == b'x' || b == b'-' || b == b','
                            })
                    })
                    .collect();
                if let Some(&k) = nums.get(rng.below(nums.len())) {
                    let ext = EXTREMES[rng.below(EXTREMES.len())];
                    if toks[k].contains(',') {
                        // A dimension: one of its parts.
                        let mut parts: Vec<String> =
                            toks[k].split(',').map(str::to_string).collect();
                        let p = rng.below(parts.len());
                        // Its parentheses kept.
                        let x = &parts[p];
                        let open = if x.starts_with('(') { "(" } else { "" };
                        let close = if x.ends_with(')') { ")" } else { "" };
                        parts[p] = format!("{open}{ext}{close}");
                        toks[k] = parts.join(",");
                    } else {
                        toks[k] = ext.to_string();
                    }
                }
                lines[i] = toks.join(" ").into_bytes();
            }
            8 => {
                let i = rng.below(nl);
                let text = String::from_utf8_lossy(&lines[i]).into_owned();
                let mut toks: Vec<&str> = text.split(' ').collect();
                if !toks.is_empty() {
                    toks.remove(rng.below(toks.len()));
                }
                lines[i] = toks.join(" ").into_bytes();
            }
            _ => {
                s.truncate(rng.below(s.len() + 1));
                continue;
            }
        }
        s = lines.join(&b'\n');
    }
    s
}

/// The fuzzer's seeds: the tests' valid traces, a lineinfo one, and, when
/// the Accel-Sim traces are there, the first thread block of each (its
/// first two warps, as a one-CTA grid of 64 threads).
fn seeds() -> Vec<Vec<u8>> {
    let mut out = vec![good(2, 2), good(1, 1), good(3, 1)];
    // With line numbers before each instruction.
    let li: String = good(1, 2)
        .replace("-enable lineinfo = 0", "-enable lineinfo = 1")
        .lines()
        .map(|l| {
            if l.starts_with("00") {
                format!("7 {l}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    out.push(li);
    let root = traces();
    for dir in [
        "microgpusim/matrixmul-32-32-trace",
        "microgpusim/vectoradd-100-32-trace",
        "mgpusim/simple-trace-example",
    ] {
        let Ok(text) = std::fs::read_to_string(root.join(dir).join("kernel-1.traceg")) else {
            continue;
        };
        let mut s = String::new();
        let mut warp = 0u32;
        for l in text.lines() {
            let t = l.trim();
            if t.starts_with("-grid dim") {
                s += "-grid dim = (1,1,1)\n";
            } else if t.starts_with("-block dim") {
                s += "-block dim = (64,1,1)\n";
            } else if t == "#END_TB" {
                s += "#END_TB\n";
                break;
            } else {
                if let Some(w) = t.strip_prefix("warp = ") {
                    warp = w.parse().unwrap();
                }
                if warp < 2 {
                    s += l;
                    s += "\n";
                }
            }
        }
        out.push(s);
    }
    let out: Vec<Vec<u8>> = out.into_iter().map(String::into_bytes).collect();
    for s in &out {
        parse_kernel_trace(s, "seed.traceg".as_ref()).unwrap_or_else(|e| panic!("seed: {e}"));
    }
    out
}

/// Mutated traces (`WARPGEN_FUZZ_CASES`, default 100,000, from a fixed
/// seed): reading and checking never panics; every error names a line
/// and a field; every accepted trace passes the machine check and, every
/// 50th, replays with each traced instruction issued once.
#[test]
fn fuzzed_traces_never_panic() {
    let cases: u64 = std::env::var("WARPGEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(100_000);
    let seeds = seeds();
    let path = Path::new("fuzz/kernel-1.traceg");
    let mut c = MachineConfig::fermi();
    c.set("n_sm", "1").unwrap();
    c.set("max_warps", "64").unwrap();
    let mut rng = Rng(0x5EED_7ACE);
    let (mut ok, mut errs, mut runs) = (0u64, 0u64, 0u64);
    let mut fields = std::collections::BTreeMap::new();
    let start = Instant::now();
    for case in 0..cases {
        let input = mutate(&seeds[rng.below(seeds.len())], &mut rng);
        let r = std::panic::catch_unwind(|| parse_kernel_trace(&input, path));
        let r = r.unwrap_or_else(|_| {
            let keep = std::env::temp_dir().join(format!("warpgen-fuzz-case-{case}.traceg"));
            std::fs::write(&keep, &input).ok();
            panic!(
                "case {case} panicked the reader; input kept in {}",
                keep.display()
            )
        });
        match r {
            Err(e) => {
                assert!(e.line >= 1 && !e.field.is_empty(), "case {case}: {e}");
                assert_eq!(e.file, path.display().to_string());
                *fields.entry(e.field).or_insert(0u64) += 1;
                errs += 1;
            }
            Ok(kt) => {
                ok += 1;
                let k = Kernel::from_trace(&kt, 128);
                k.check_trace(&c)
                    .unwrap_or_else(|e| panic!("case {case}: {e}"));
                if ok % 50 == 0 {
                    let m = Harness::new(&k, &c)
                        .run()
                        .unwrap_or_else(|e| panic!("case {case}: {e}"));
                    assert_eq!(m.warp_instructions, kt.instructions(), "case {case}");
                    runs += 1;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "fuzzed {cases} traces in {secs:.1} s: {ok} accepted ({runs} replayed), {errs} refused; \
         refusals by field: {fields:?}"
    );
    assert!(ok > 0 && errs > 0, "{ok} accepted, {errs} refused");
}
