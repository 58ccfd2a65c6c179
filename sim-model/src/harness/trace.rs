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

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::config::InstrClass;
use super::expr::ExprClass;
use super::kernel::Instr;
use super::kernel::{InstrInfo, Kernel, Program};

/// A trace that cannot be read: file, line, what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {msg}")]
pub struct TraceError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when not about one line).
    pub line: usize,
    /// What is wrong.
    pub msg: String,
}

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

fn classify(opcode: &str) -> TraceOp {
    let base = opcode.split('.').next().unwrap_or("");
    match base {
        "LDG" | "LD" | "LDL" | "ATOM" | "ATOMG" => TraceOp::Load,
        "STG" | "ST" | "STL" | "RED" => TraceOp::Store,
        _ => TraceOp::Compute,
    }
}

fn parse_dim(v: &str) -> Option<[u32; 3]> {
    let v = v.trim().trim_start_matches('(').trim_end_matches(')');
    let p: Vec<u32> = v
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    (p.len() == 3).then(|| [p[0], p[1], p[2]])
}

fn hex(s: &str) -> Option<u64> {
    u64::from_str_radix(s.trim_start_matches("0x").trim_start_matches("0X"), 16).ok()
}

/// Read one `kernel-N.traceg`.
pub fn read_kernel_trace(path: &Path) -> Result<KernelTrace, TraceError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| TraceError {
        file: file.clone(),
        line: 0,
        msg: e.to_string(),
    })?;
    let err = |line: usize, msg: String| TraceError {
        file: file.clone(),
        line,
        msg,
    };
    let mut kt = KernelTrace {
        name: String::new(),
        file: path.to_path_buf(),
        id: 0,
        grid: [1; 3],
        block: [1; 3],
        version: 0,
        ctas: Vec::new(),
    };
    let mut lineinfo = false;
    let mut cta: Option<(u64, Vec<Vec<TraceInstr>>)> = None;
    let mut warp: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let ln = n + 1;
        let line = raw.trim();
        if line.is_empty()
            || line.starts_with('#')
                && !line.starts_with("#BEGIN_TB")
                && !line.starts_with("#END_TB")
        {
            continue;
        }
        if let Some(h) = line.strip_prefix('-') {
            let (k, v) = h
                .split_once('=')
                .ok_or_else(|| err(ln, format!("bad header line `{line}`")))?;
            let (k, v) = (k.trim(), v.trim());
            match k {
                "kernel name" => kt.name = v.to_string(),
                "kernel id" => kt.id = v.parse().map_err(|_| err(ln, "bad kernel id".into()))?,
                "grid dim" => {
                    kt.grid = parse_dim(v).ok_or_else(|| err(ln, "bad grid dim".into()))?
                }
                "block dim" => {
                    kt.block = parse_dim(v).ok_or_else(|| err(ln, "bad block dim".into()))?
                }
                "accelsim tracer version" => {
                    kt.version = v
                        .parse()
                        .map_err(|_| err(ln, "bad tracer version".into()))?;
                    if !(3..=6).contains(&kt.version) {
                        return Err(err(
                            ln,
                            format!("tracer version {} (3 to 6 supported)", kt.version),
                        ));
                    }
                }
                "enable lineinfo" => lineinfo = v == "1",
                _ => {}
            }
            continue;
        }
        if line.starts_with("#BEGIN_TB") {
            cta = Some((0, Vec::new()));
            warp = None;
            continue;
        }
        if line.starts_with("#END_TB") {
            let c = cta
                .take()
                .ok_or_else(|| err(ln, "#END_TB without #BEGIN_TB".into()))?;
            kt.ctas.push(c);
            continue;
        }
        if let Some(v) = line.strip_prefix("thread block") {
            let v = v.trim_start_matches([' ', '=']);
            let d = parse_dim(v).ok_or_else(|| err(ln, "bad thread block".into()))?;
            let id = d[0] as u64
                + d[1] as u64 * kt.grid[0] as u64
                + d[2] as u64 * kt.grid[0] as u64 * kt.grid[1] as u64;
            cta.as_mut()
                .ok_or_else(|| err(ln, "thread block outside #BEGIN_TB".into()))?
                .0 = id;
            continue;
        }
        if let Some(v) = line.strip_prefix("warp") {
            let w: usize = v
                .trim_start_matches([' ', '='])
                .trim()
                .parse()
                .map_err(|_| err(ln, "bad warp number".into()))?;
            let c = cta
                .as_mut()
                .ok_or_else(|| err(ln, "warp outside #BEGIN_TB".into()))?;
            if c.1.len() <= w {
                c.1.resize(w + 1, Vec::new());
            }
            warp = Some(w);
            continue;
        }
        if line.starts_with("insts") {
            continue;
        }
        // An instruction.
        let w = warp.ok_or_else(|| err(ln, "instruction outside a warp".into()))?;
        let mut t = line.split_whitespace();
        let mut next = |what: &str| t.next().ok_or_else(|| err(ln, format!("missing {what}")));
        if lineinfo {
            next("line number")?;
        }
        let pc = hex(next("PC")?).ok_or_else(|| err(ln, "bad PC".into()))? as u32;
        let mask = hex(next("mask")?).ok_or_else(|| err(ln, "bad mask".into()))? as u32;
        let nd: usize = next("dest count")?
            .parse()
            .map_err(|_| err(ln, "bad dest count".into()))?;
        let mut dests = Vec::new();
        for _ in 0..nd {
            dests.extend(trace_reg(next("dest register")?));
        }
        let opcode = next("opcode")?.to_string();
        let ns: usize = next("source count")?
            .parse()
            .map_err(|_| err(ln, "bad source count".into()))?;
        let mut srcs = Vec::new();
        for _ in 0..ns {
            srcs.extend(trace_reg(next("source register")?));
        }
        let width: u32 = next("mem_width")?
            .parse()
            .map_err(|_| err(ln, "bad mem_width".into()))?;
        let mut addrs = Vec::new();
        if width > 0 {
            let fmt: u32 = next("address format")?
                .parse()
                .map_err(|_| err(ln, "bad address format".into()))?;
            let active = mask.count_ones() as usize;
            match fmt {
                0 => {
                    for _ in 0..active {
                        addrs.push(
                            hex(next("address")?).ok_or_else(|| err(ln, "bad address".into()))?,
                        );
                    }
                }
                1 => {
                    let base = hex(next("base address")?)
                        .ok_or_else(|| err(ln, "bad base address".into()))?;
                    let stride: i64 = next("stride")?
                        .parse()
                        .map_err(|_| err(ln, "bad stride".into()))?;
                    // Consecutive active threads from the first one (the
                    // tracer uses this form only for such masks).
                    for k in 0..active {
                        addrs.push(base.wrapping_add((stride * k as i64) as u64));
                    }
                }
                2 => {
                    let base = hex(next("base address")?)
                        .ok_or_else(|| err(ln, "bad base address".into()))?;
                    let mut a = base;
                    if active > 0 {
                        addrs.push(a);
                    }
                    for _ in 1..active {
                        let d: i64 = next("delta")?
                            .parse()
                            .map_err(|_| err(ln, "bad delta".into()))?;
                        a = a.wrapping_add(d as u64);
                        addrs.push(a);
                    }
                }
                f => return Err(err(ln, format!("unknown address format {f}"))),
            }
        }
        let op = if width > 0 {
            classify(&opcode)
        } else {
            TraceOp::Compute
        };
        let c = cta
            .as_mut()
            .ok_or_else(|| err(ln, "instruction outside #BEGIN_TB".into()))?;
        c.1[w].push(TraceInstr {
            pc,
            mask,
            opcode,
            op,
            width,
            addrs,
            dests,
            srcs,
        });
    }
    if cta.is_some() {
        return Err(err(text.lines().count(), "missing #END_TB".into()));
    }
    kt.ctas.sort_by_key(|c| c.0);
    Ok(kt)
}

/// The kernels of a trace folder, in `kernelslist.g` order (memory copies
/// are skipped).
pub fn read_kernelslist(dir: &Path) -> Result<Vec<PathBuf>, TraceError> {
    let path = dir.join("kernelslist.g");
    let text = std::fs::read_to_string(&path).map_err(|e| TraceError {
        file: path.display().to_string(),
        line: 0,
        msg: e.to_string(),
    })?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Memcpy") && !l.starts_with('#'))
        .map(|l| dir.join(l))
        .collect())
}

/// The register file of a [`trace_reg`] number (its first number).
fn trace_reg_file(r: u16) -> u16 {
    match r {
        0..=255 => 0,
        256..=263 => 256,
        264..=327 => 264,
        328..=335 => 328,
        _ => 336,
    }
}

/// One traced instruction as the harness replays it.
#[derive(Clone, Debug)]
pub(crate) struct ReplayInstr {
    pub pc: u32,
    pub mask: u32,
    pub op: TraceOp,
    /// Coalesced line addresses (modulo 2^32), ascending.
    pub lines: Vec<u64>,
    /// Per line of `lines`: the lowest byte address the warp touches in
    /// it.
    pub firsts: Vec<u64>,
    /// The lowest active thread's address (modulo 2^32).
    pub first_addr: u64,
    /// The active threads are one stride apart per lane
    /// ([`super::roles::uniform_stride`]).
    pub uniform: bool,
    /// Timing class ([`InstrClass::of_sass`]).
    pub class: InstrClass,
    /// Registers read (the scoreboard's operands).
    pub reads: Vec<u16>,
    /// Registers written: the listed destinations; for a global load, the
    /// whole destination group its width fills (`LDG.E.128 R4`: R4-R7).
    pub writes: Vec<u16>,
}

/// A trace prepared for the harness.
#[derive(Clone, Debug)]
pub(crate) struct ReplayTrace {
    /// Per traced CTA (ascending id): its warps.
    pub ctas: Vec<(u64, Vec<Vec<ReplayInstr>>)>,
}

impl ReplayTrace {
    /// Index of CTA `id` in `ctas`.
    pub(crate) fn cta_index(&self, id: u64) -> Option<usize> {
        self.ctas.binary_search_by_key(&id, |c| c.0).ok()
    }
}

impl Kernel {
    /// A kernel that replays a trace; `line_bytes` is the coalescing
    /// granularity (the L1 line).
    pub fn from_trace(kt: &KernelTrace, line_bytes: u32) -> Kernel {
        let lm = !(line_bytes as u64 - 1);
        let ctas = kt
            .ctas
            .iter()
            .map(|(id, warps)| {
                let ws = warps
                    .iter()
                    .map(|w| {
                        w.iter()
                            .map(|i| {
                                // (line, lowest byte touched in it).
                                let mut touched: Vec<(u64, u64)> = Vec::new();
                                if i.op != TraceOp::Compute {
                                    for &a in &i.addrs {
                                        let a = a & 0xFFFF_FFFF;
                                        let first = a & lm;
                                        let last =
                                            (a + i.width.max(1) as u64 - 1) & 0xFFFF_FFFF & lm;
                                        touched.push((first, a));
                                        if last != first {
                                            touched.push((last, last));
                                        }
                                    }
                                    // By line, lowest byte first: the first of
                                    // each line is its lowest.
                                    touched.sort_unstable();
                                    touched.dedup_by_key(|t| t.0);
                                }
                                let (lines, firsts): (Vec<u64>, Vec<u64>) =
                                    touched.into_iter().unzip();
                                // Active lanes in order, with their addresses.
                                let lanes = (0..32u32).filter(|l| i.mask & (1 << l) != 0);
                                let lane_addrs = lanes.zip(i.addrs.iter().map(|a| a & 0xFFFF_FFFF));
                                let uniform = super::roles::uniform_stride(lane_addrs);
                                let op = if lines.is_empty() {
                                    TraceOp::Compute
                                } else {
                                    i.op
                                };
                                let mut writes = i.dests.clone();
                                if op == TraceOp::Load {
                                    if let Some(&d) = i.dests.first() {
                                        let group = i.width.div_ceil(4).max(1) as u16;
                                        writes.extend((d + 1..d + group).filter(|r| {
                                            // Within the same register file.
                                            trace_reg_file(*r) == trace_reg_file(d)
                                        }));
                                    }
                                }
                                writes.sort_unstable();
                                writes.dedup();
                                let mut reads = i.srcs.clone();
                                reads.sort_unstable();
                                reads.dedup();
                                ReplayInstr {
                                    class: InstrClass::of_sass(&i.opcode),
                                    reads,
                                    writes,
                                    pc: i.pc,
                                    mask: i.mask,
                                    first_addr: i.addrs.first().map_or(0, |a| a & 0xFFFF_FFFF),
                                    uniform,
                                    op,
                                    lines,
                                    firsts,
                                }
                            })
                            .collect()
                    })
                    .collect();
                (*id, ws)
            })
            .collect();
        let name = kt.name.split('(').next().unwrap_or(&kt.name).to_string();
        Kernel {
            name: if name.is_empty() {
                format!("kernel-{}", kt.id)
            } else {
                name
            },
            description: format!("Accel-Sim trace (tracer version {})", kt.version),
            source: kt.file.display().to_string(),
            file: kt.file.display().to_string(),
            grid: kt.grid,
            block: kt.block,
            smem_bytes: 0,
            params: Default::default(),
            arrays: Vec::new(),
            contents_seed: 0,
            program: Program {
                instrs: vec![Instr::Trace, Instr::Exit],
                info: vec![
                    InstrInfo {
                        class: ExprClass::SCALAR,
                        guard: ExprClass::SCALAR,
                    };
                    2
                ],
                ops: Vec::new(),
                stack_depth: 1,
                n_regs: 6,
                max_nesting: 0,
                mems: Vec::new(),
            },
            trace: Some(Arc::new(ReplayTrace { ctas })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_address_encodings() {
        let text = "\
-kernel name = k
-kernel id = 1
-grid dim = (2,1,1)
-block dim = (64,1,1)
-accelsim tracer version = 5
-enable lineinfo = 0

#BEGIN_TB

thread block = 1,0,0

warp = 1
insts = 4
0000 ffffffff 1 R1 MOV 0 0 0
0010 0000000f 1 R4 LDG.E 1 R4 4 0 0x100 0x104 0x200 0x300 0
0020 00000007 1 R4 LDG.E 1 R4 4 1 0x1000 8 0
0030 00000007 0 STG.E 2 R6 R9 4 2 0x2000 4 -4 0
#END_TB
";
        let dir = std::env::temp_dir().join(format!("wg-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("kernel-1.traceg");
        std::fs::write(&p, text).unwrap();
        let kt = read_kernel_trace(&p).unwrap();
        assert_eq!(kt.grid, [2, 1, 1]);
        assert_eq!(kt.ctas.len(), 1);
        assert_eq!(kt.ctas[0].0, 1);
        let w = &kt.ctas[0].1[1];
        assert_eq!(w.len(), 4);
        assert_eq!(w[1].addrs, vec![0x100, 0x104, 0x200, 0x300]);
        assert_eq!(w[2].addrs, vec![0x1000, 0x1008, 0x1010]);
        assert_eq!(w[3].addrs, vec![0x2000, 0x2004, 0x2000]);
        assert_eq!(w[3].op, TraceOp::Store);
        assert_eq!(kt.instructions(), 4);
        assert_eq!(kt.mem_instructions(), 3);
        let k = Kernel::from_trace(&kt, 128);
        let r = k.trace.as_ref().unwrap();
        assert_eq!(r.ctas[0].1[1][1].lines, vec![0x100, 0x200, 0x300]);
        // Snake's view of a load: the lowest active thread's address and
        // whether the threads are one stride per lane apart.
        let (ragged, strided) = (&r.ctas[0].1[1][1], &r.ctas[0].1[1][2]);
        assert_eq!((ragged.first_addr, ragged.uniform), (0x100, false));
        assert_eq!((strided.first_addr, strided.uniform), (0x1000, true));
        std::fs::remove_dir_all(&dir).ok();
    }
}
