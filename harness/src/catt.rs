//! CATT's static analysis (Kim et al., ICPP 2019, §4, equations 1-9) on a
//! kernel file, and its warp-level throttling as a transformation of the
//! compiled program (the paper's Figure 4).
//!
//! **CTAs per SM** (equations 1-3): `#TB_shm = SIZE_shm_SM / USE_shm_TB`
//! (the machine's `shared_mem_bytes` over the kernel's `smem_bytes`),
//! `#TB_reg = SIZE_reg_SM / USE_reg_TB` (the machine's `regs_per_sm` over
//! the kernel's `regs` times its threads per CTA; no limit when the file
//! gives no `regs`), `#TB_HW` (the machine's CTA slots, and its warps over
//! the CTA's), their minimum; and, as on the hardware, no more than the
//! grid gives each SM (`ceil(CTAs / SMs)`; the paper's equation leaves it
//! out, its Table 3's baselines include it: CORR runs one CTA per SM).
//!
//! **L1 size** (equation 4): where the L1 and shared memory share one
//! array (`l1_smem_bytes > 0`), the shared memory is the smallest Volta
//! carve-out ([`SMEM_CARVEOUTS`]: "0, 8, 16, 32, 64, or 96 KB per SM") that
//! holds `USE_shm_TB × #TB_SM`, and the L1 is the rest; otherwise the L1
//! is the machine's `l1_bytes`. A caller may fix the L1 size instead (the
//! paper's 32 KB column).
//!
//! **Per loop** (equations 5-8): every memory instruction inside the loop
//! (nested loops' included) has an address `C_tid × tid + C_i × i + ...`:
//! the analysis evaluates the compiled address symbolically as a linear
//! form in the thread and CTA indices and the iteration counts of the
//! enclosing loops. `C_i` is the address step per iteration of the loop
//! (bytes); the access has *locality* when `|C_i| ≤` the line size
//! (equation 6). `REQ_warp` is the number of distinct lines the 32 lanes of
//! a warp touch (equation 7: `min(C_tid, SIZE_warp)` lines for 4-byte
//! elements and 128-byte lines; counted lane by lane here, which the paper
//! also does for multidimensional blocks). An address that is not linear
//! (loaded data, a product of thread-varying values, a variable carried
//! across iterations) is *irregular*: `C_tid` is taken as one element (one
//! line per warp, the paper's conservative choice) and it has no locality.
//! A loop is analysed when one of its loads has locality; its footprint
//! is `SIZE_req = Σ REQ_warp × #Warps_TB × #TB_SM` lines over its loads
//! (stores do not allocate in the L1).
//!
//! **Throttling** (equation 9): a loop whose footprint is larger than the
//! L1 ("If the SIZE_req value is larger than the L1D capacity, we assume
//! there is a probability of cache thrashing") is throttled until
//! `SIZE'_req = Σ REQ_warp × (#Warps_TB / N) × (#TB_SM − M)` is smaller
//! than the L1 ("until the SIZE'_req is smaller than the L1D capacity"): `N` grows through the divisors of
//! `#Warps_TB` that are even (or `#Warps_TB` itself), then `M` from 1 to
//! `#TB_SM − 1`; if nothing fits, the loop is left alone ("the thread
//! throttling cannot resolve the cache contention"). The result is
//! (`#Warps_TB / N`, `#TB_SM − M`).
//!
//! **Applying it** ([`Kernel::catt_throttled`], `warpgen run --catt`): a loop
//! with `N > 1` becomes `N` copies, copy `g` under `if warp_id / (W / N)
//! == g`, each followed by a barrier, as the paper's Figure 4 rewrites
//! the source; `M` lowers the CTAs per SM for the whole kernel (the
//! paper's Figure 5 does it with dummy shared memory), the largest `M` of
//! any loop. A loop inside a throttled loop runs under its throttle.

use std::collections::BTreeMap;

use serde::Serialize;

use super::config::MachineConfig;
use super::expr::{compile, decode, BinOp, Class, Code, ExprClass, RExpr, UnOp};
use super::kernel::{Instr, InstrInfo, Kernel, Program, REG_CTAID, REG_TID};

/// The shared-memory sizes a Volta SM can be configured to (the CATT
/// paper, §4.1: "0, 8, 16, 32, 64, or 96 KB per SM").
pub const SMEM_CARVEOUTS: [u32; 6] = [0, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 96 << 10];

/// A value linear in the thread and CTA indices and the iteration counts
/// of loops: `k + Σ coef × symbol`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lin {
    k: i64,
    /// Symbols: 0-2 `tid.x/y/z`, 3-5 `ctaid.x/y/z`, 6 + n loop n's
    /// iteration count.
    coef: BTreeMap<usize, i64>,
}

const SYM_LOOP0: usize = 6;

impl Lin {
    fn konst(k: i64) -> Lin {
        Lin {
            k,
            coef: BTreeMap::new(),
        }
    }

    fn sym(s: usize) -> Lin {
        Lin {
            k: 0,
            coef: [(s, 1)].into_iter().collect(),
        }
    }

    fn is_const(&self) -> bool {
        self.coef.values().all(|&c| c == 0)
    }

    fn scale(&self, m: i64) -> Lin {
        Lin {
            k: self.k.wrapping_mul(m),
            coef: self
                .coef
                .iter()
                .map(|(&s, &c)| (s, c.wrapping_mul(m)))
                .collect(),
        }
    }

    fn add(&self, o: &Lin, sign: i64) -> Lin {
        let mut r = self.clone();
        r.k = r.k.wrapping_add(o.k.wrapping_mul(sign));
        for (&s, &c) in &o.coef {
            let e = r.coef.entry(s).or_insert(0);
            *e = e.wrapping_add(c.wrapping_mul(sign));
        }
        r.coef.retain(|_, c| *c != 0);
        r
    }

    fn get(&self, s: usize) -> i64 {
        self.coef.get(&s).copied().unwrap_or(0)
    }
}

/// `e` as a linear form, given each register's (None: not linear).
fn lin(e: &RExpr, regs: &[Option<Lin>]) -> Option<Lin> {
    match e {
        RExpr::Const(v) => Some(Lin::konst(*v)),
        RExpr::Reg(r) => regs.get(*r as usize).cloned().flatten(),
        RExpr::Un(UnOp::Neg, a) => Some(lin(a, regs)?.scale(-1)),
        RExpr::Un(op, a) => {
            let a = lin(a, regs)?;
            a.is_const().then(|| Lin::konst(op.apply(a.k)))
        }
        RExpr::Bin(op, a, b) => {
            let (a, b) = (lin(a, regs)?, lin(b, regs)?);
            match op {
                BinOp::Add => Some(a.add(&b, 1)),
                BinOp::Sub => Some(a.add(&b, -1)),
                BinOp::Mul if a.is_const() => Some(b.scale(a.k)),
                BinOp::Mul if b.is_const() => Some(a.scale(b.k)),
                _ if a.is_const() && b.is_const() => Some(Lin::konst(op.apply(a.k, b.k))),
                _ => None,
            }
        }
    }
}

/// The machine figures the analysis uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CattMachine {
    /// SMs.
    pub n_sm: u32,
    /// Warps per SM.
    pub max_warps: u32,
    /// CTA slots per SM.
    pub cta_slots: u32,
    /// 32-bit registers per SM (0: not limited).
    pub regs_per_sm: u32,
    /// Shared memory per SM at most.
    pub smem_bytes: u32,
    /// The on-chip array the L1 and shared memory share (0: separate).
    pub l1_smem_bytes: u32,
    /// The L1 when separate.
    pub l1_bytes: u32,
    /// Line size.
    pub line: u32,
}

impl CattMachine {
    /// The figures of a machine configuration.
    pub fn of(c: &MachineConfig) -> CattMachine {
        CattMachine {
            n_sm: c.n_sm,
            max_warps: c.max_warps,
            cta_slots: c.cta_slots,
            regs_per_sm: c.regs_per_sm,
            smem_bytes: c.shared_mem_bytes,
            l1_smem_bytes: c.l1_smem_bytes,
            l1_bytes: c.l1_bytes,
            line: c.l1_line,
        }
    }
}

/// One memory instruction of a loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CattAccess {
    /// Its line in the kernel file.
    pub line: u32,
    /// Its PC.
    pub pc: u32,
    /// The array.
    pub array: String,
    /// A store (not counted in the footprint).
    pub store: bool,
    /// Address step between neighbouring threads (`tid.x`), bytes; None
    /// when irregular.
    pub c_tid: Option<i64>,
    /// Address step per iteration of the loop, bytes; None when irregular.
    pub c_i: Option<i64>,
    /// Lines one warp's request touches (equation 7).
    pub req_warp: u32,
    /// `|C_i| ≤` the line size (equation 6).
    pub locality: bool,
}

/// One loop's analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CattLoop {
    /// Loop number in program order (0-based).
    pub index: usize,
    /// The `loop` statement's line in the kernel file.
    pub line: u32,
    /// Nesting depth (0: outermost).
    pub depth: usize,
    /// Its memory instructions (nested loops' included).
    pub accesses: Vec<CattAccess>,
    /// Some load has locality: the loop is analysed.
    pub analysed: bool,
    /// `Σ REQ_warp` over its loads: lines per warp per iteration.
    pub req_per_warp: u32,
    /// The footprint at the baseline TLP (equation 8), bytes.
    pub footprint: u64,
    /// Warp-level factor `N` (1: none).
    pub n: u32,
    /// CTA-level reduction `M` (0: none).
    pub m: u32,
    /// The footprint after throttling, bytes.
    pub throttled_footprint: u64,
    /// The footprint does not fit even at the most throttled setting (left
    /// unthrottled).
    pub unresolved: bool,
    /// The chosen warps per CTA (`#Warps_TB / N`).
    pub warps: u32,
    /// The chosen CTAs per SM (`#TB_SM − M`).
    pub ctas: u32,
}

/// The analysis of a kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CattReport {
    /// Kernel name.
    pub kernel: String,
    /// Warps per CTA.
    pub warps_per_cta: u32,
    /// CTAs per SM by shared memory (equation 1; None: unlimited).
    pub tb_shm: Option<u32>,
    /// By registers (equation 2; None: the file gives no `regs`).
    pub tb_reg: Option<u32>,
    /// By the hardware's slots and warps.
    pub tb_hw: u32,
    /// By the grid: `ceil(CTAs / SMs)`.
    pub tb_grid: u32,
    /// The baseline CTAs per SM (the minimum; equation 3 with the grid).
    pub tb_sm: u32,
    /// Shared memory configured (equation 4), bytes.
    pub smem_config: u32,
    /// The L1 the analysis fits into, bytes.
    pub l1_bytes: u32,
    /// Per loop.
    pub loops: Vec<CattLoop>,
    /// CTAs per SM for the whole kernel after CTA-level throttling.
    pub kernel_ctas: u32,
}

/// Analyse `k` on machine `m`; `l1_bytes` fixes the L1 size (else
/// equation 4 chooses it).
pub fn analyze(k: &Kernel, m: &CattMachine, l1_bytes: Option<u32>) -> CattReport {
    let threads = k.threads_per_cta();
    let w = k.warps_per_cta().max(1);
    let tb_shm = (k.smem_bytes > 0).then(|| m.smem_bytes / k.smem_bytes);
    let tb_reg = (k.regs > 0 && m.regs_per_sm > 0).then(|| m.regs_per_sm / (k.regs * threads));
    let tb_hw = m.cta_slots.min(m.max_warps / w);
    let tb_grid = k
        .total_ctas()
        .div_ceil(m.n_sm.max(1) as u64)
        .min(u32::MAX as u64) as u32;
    let tb_sm = [tb_shm, tb_reg, Some(tb_hw), Some(tb_grid)]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(0);
    let use_shm = k.smem_bytes as u64 * tb_sm as u64;
    let smem_config = if m.l1_smem_bytes > 0 {
        SMEM_CARVEOUTS
            .iter()
            .copied()
            .find(|&c| c as u64 >= use_shm)
            .unwrap_or(SMEM_CARVEOUTS[SMEM_CARVEOUTS.len() - 1])
    } else {
        m.smem_bytes
    };
    let l1 = l1_bytes.unwrap_or(if m.l1_smem_bytes > 0 {
        m.l1_smem_bytes.saturating_sub(smem_config)
    } else {
        m.l1_bytes
    });
    let loops = loops_of(k, m.line)
        .into_iter()
        .map(|mut lp| {
            throttle(&mut lp, w, tb_sm, l1, m.line);
            lp
        })
        .collect::<Vec<_>>();
    let kernel_ctas = loops
        .iter()
        .map(|l| l.ctas)
        .min()
        .unwrap_or(tb_sm)
        .min(tb_sm);
    CattReport {
        kernel: k.name.clone(),
        warps_per_cta: w,
        tb_shm,
        tb_reg,
        tb_hw,
        tb_grid,
        tb_sm,
        smem_config,
        l1_bytes: l1,
        loops,
        kernel_ctas,
    }
}

/// Equation 9 on one loop.
fn throttle(lp: &mut CattLoop, w: u32, tb_sm: u32, l1: u32, line: u32) {
    let req = lp.req_per_warp as u64;
    let size = |n: u32, m: u32| req * (w / n) as u64 * (tb_sm - m) as u64 * line as u64;
    lp.footprint = size(1, 0);
    lp.n = 1;
    lp.m = 0;
    lp.throttled_footprint = lp.footprint;
    lp.warps = w;
    lp.ctas = tb_sm;
    if !lp.analysed || lp.footprint <= l1 as u64 || tb_sm == 0 {
        return;
    }
    let ns: Vec<u32> = (2..=w)
        .filter(|n| w.is_multiple_of(*n) && (n.is_multiple_of(2) || *n == w))
        .collect();
    let mut choice = None;
    for &n in &ns {
        if size(n, 0) < l1 as u64 {
            choice = Some((n, 0));
            break;
        }
    }
    if choice.is_none() {
        let n = ns.last().copied().unwrap_or(1);
        choice = (1..tb_sm).find(|&m| size(n, m) < l1 as u64).map(|m| (n, m));
    }
    match choice {
        Some((n, m)) => {
            lp.n = n;
            lp.m = m;
            lp.throttled_footprint = size(n, m);
            lp.warps = w / n;
            lp.ctas = tb_sm - m;
        }
        None => lp.unresolved = true,
    }
}

/// Every loop of `k` with its memory instructions' coefficients.
fn loops_of(k: &Kernel, line: u32) -> Vec<CattLoop> {
    let p = &k.program;
    let n_loops = p
        .instrs
        .iter()
        .filter(|i| matches!(i, Instr::LoopBegin { .. }))
        .count();
    let mut regs: Vec<Option<Lin>> = vec![None; p.n_regs.max(6)];
    for d in 0..3 {
        regs[REG_TID as usize + d] = Some(Lin::sym(d));
        regs[REG_CTAID as usize + d] = Some(Lin::sym(3 + d));
    }
    // Registers carried across a loop's iterations (read in its body
    // before written there): not linear in the iteration count.
    let mut open: Vec<(usize, usize)> = Vec::new(); // (loop number, LoopEnd index)
    let mut out: Vec<CattLoop> = (0..n_loops)
        .map(|i| CattLoop {
            index: i,
            line: p.loop_lines.get(i).copied().unwrap_or(0),
            depth: 0,
            accesses: Vec::new(),
            analysed: false,
            req_per_warp: 0,
            footprint: 0,
            n: 1,
            m: 0,
            throttled_footprint: 0,
            unresolved: false,
            warps: 0,
            ctas: 0,
        })
        .collect();
    let mut next_loop = 0;
    for (i, ins) in p.instrs.iter().enumerate() {
        while open.last().is_some_and(|&(_, end)| i > end) {
            open.pop();
        }
        match *ins {
            Instr::Let { dst, code } => regs[dst as usize] = lin(&decode(&p.ops, code), &regs),
            Instr::LoopBegin {
                var,
                end,
                start,
                bound,
                step,
                exit_at,
            } => {
                let n = next_loop;
                next_loop += 1;
                let end_at = exit_at as usize - 1;
                for r in carried(p, i + 1, end_at) {
                    if r != var {
                        regs[r as usize] = None;
                    }
                }
                regs[var as usize] = lin(&decode(&p.ops, start), &regs)
                    .map(|s| s.add(&Lin::sym(SYM_LOOP0 + n).scale(step), 1));
                regs[end as usize] = lin(&decode(&p.ops, bound), &regs);
                out[n].depth = open.len();
                open.push((n, end_at));
            }
            Instr::Load { index, mem, .. } | Instr::Store { index, mem, .. } => {
                let info = &p.mems[mem as usize];
                let store = matches!(ins, Instr::Store { .. });
                let elem = k
                    .arrays
                    .iter()
                    .find(|a| a.name == info.array)
                    .map_or(4, |a| a.elem as i64);
                let f = lin(&decode(&p.ops, index), &regs).map(|f| f.scale(elem));
                for &(n, _) in &open {
                    let (c_tid, c_i) = match &f {
                        Some(f) => (Some(f.get(0)), Some(f.get(SYM_LOOP0 + n))),
                        None => (None, None),
                    };
                    let req = match &f {
                        Some(f) => lines_per_warp(f, k.block, line),
                        None => 1,
                    };
                    out[n].accesses.push(CattAccess {
                        line: info.line,
                        pc: info.pc,
                        array: info.array.clone(),
                        store,
                        c_tid,
                        c_i,
                        req_warp: req,
                        locality: c_i.is_some_and(|c| c.unsigned_abs() <= line as u64),
                    });
                }
                if let Instr::Load { dst: Some(d), .. } = *ins {
                    // A loaded value: not linear.
                    regs[d as usize] = None;
                }
            }
            _ => {}
        }
    }
    for lp in &mut out {
        lp.analysed = lp.accesses.iter().any(|a| !a.store && a.locality);
        lp.req_per_warp = lp
            .accesses
            .iter()
            .filter(|a| !a.store)
            .map(|a| a.req_warp)
            .sum();
    }
    out
}

/// Registers read in `[from, to]` before any write there.
fn carried(p: &Program, from: usize, to: usize) -> Vec<u16> {
    let mut written = std::collections::HashSet::new();
    let mut out = Vec::new();
    for ins in &p.instrs[from..=to.min(p.instrs.len() - 1)] {
        let mut reads = Vec::new();
        let mut push = |c: Code| super::expr::regs_read(&p.ops, c, &mut reads);
        let dst = match *ins {
            Instr::Let { dst, code } => {
                push(code);
                Some(dst)
            }
            Instr::Load { index, dst, .. } => {
                push(index);
                dst
            }
            Instr::Store { index, .. } => {
                push(index);
                None
            }
            Instr::If { cond, .. } => {
                push(cond);
                None
            }
            Instr::LoopBegin {
                start, bound, var, ..
            } => {
                push(start);
                push(bound);
                Some(var)
            }
            _ => None,
        };
        for r in reads {
            if !written.contains(&r) && !out.contains(&r) {
                out.push(r);
            }
        }
        if let Some(d) = dst {
            written.insert(d);
        }
    }
    out.retain(|r| written.contains(r));
    out
}

/// Distinct lines the 32 lanes of warp 0 of CTA 0 touch at iteration 0
/// (lanes beyond the block's threads idle).
fn lines_per_warp(f: &Lin, block: [u32; 3], line: u32) -> u32 {
    let (bx, by) = (block[0].max(1) as i64, block[1].max(1) as i64);
    let threads = block.iter().map(|&b| b.max(1) as i64).product::<i64>();
    let mut lines: Vec<i64> = (0..32.min(threads))
        .map(|l| {
            let (tx, ty, tz) = (l % bx, (l / bx) % by, l / (bx * by));
            let a =
                f.k.wrapping_add(f.get(0).wrapping_mul(tx))
                    .wrapping_add(f.get(1).wrapping_mul(ty))
                    .wrapping_add(f.get(2).wrapping_mul(tz));
            a.div_euclid(line as i64)
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines.len().max(1) as u32
}

/// The program with each loop `(number, N)` of `loops` split into `N`
/// warp groups that run it in turn (module documentation); a loop inside
/// another throttled loop is left to its enclosing loop's throttle.
pub(crate) fn throttle_program(
    p: &Program,
    loops: &[(usize, u32)],
    block: [u32; 3],
    warps_per_cta: u32,
) -> Program {
    let chosen = chosen_loops(p, loops, warps_per_cta);
    if chosen.is_empty() {
        return p.clone();
    }
    let mut ops = p.ops.clone();
    let mut stack_depth = p.stack_depth;
    let lay = layout(p, &chosen);
    let mut instrs = Vec::with_capacity(lay.len);
    let mut info = Vec::with_capacity(lay.len);
    let tid = linear_tid(block);
    let mut i = 0usize;
    while i < p.instrs.len() {
        if let Some((b, e, n, starts)) = lay.copies.iter().find(|c| c.0 == i) {
            let group = warps_per_cta / n;
            for (g, &start) in starts.iter().enumerate() {
                // if (tid / 32) / group == g
                let cond = RExpr::Bin(
                    BinOp::Eq,
                    Box::new(RExpr::Bin(
                        BinOp::Div,
                        Box::new(tid.clone()),
                        Box::new(RExpr::Const(32 * group as i64)),
                    )),
                    Box::new(RExpr::Const(g as i64)),
                );
                let (code, d) = compile(&cond, &mut ops);
                stack_depth = stack_depth.max(d);
                let guard = p.info[*b].guard;
                let end_if = start + e - b + 1;
                instrs.push(Instr::If {
                    cond: code,
                    else_at: end_if as u32,
                });
                info.push(InstrInfo {
                    class: ExprClass {
                        class: Class::NonAffine,
                        indirect: false,
                    },
                    guard,
                    addr: false,
                });
                for j in *b..=*e {
                    instrs.push(lay.reloc(p.instrs[j], Some((*b, *e, start))));
                    info.push(p.info[j]);
                }
                instrs.push(Instr::EndIf);
                info.push(InstrInfo {
                    class: ExprClass::SCALAR,
                    guard,
                    addr: false,
                });
                instrs.push(Instr::Barrier);
                info.push(InstrInfo {
                    class: ExprClass::SCALAR,
                    guard,
                    addr: false,
                });
            }
            i = e + 1;
        } else {
            instrs.push(lay.reloc(p.instrs[i], None));
            info.push(p.info[i]);
            i += 1;
        }
    }
    debug_assert_eq!(instrs.len(), lay.len);
    Program {
        instrs,
        info,
        ops,
        stack_depth,
        n_regs: p.n_regs,
        max_nesting: p.max_nesting + 1,
        mems: p.mems.clone(),
        loop_lines: p.loop_lines.clone(),
        addr_reg: p.addr_reg,
    }
}

/// The loops to throttle, as (`LoopBegin` index, `LoopEnd` index,
/// factor), sorted: each of `loops` (loop number, factor) whose factor
/// divides the warps of a CTA, an outer loop replacing the loops inside
/// it and an inner one dropped for an outer one already chosen.
fn chosen_loops(
    p: &Program,
    loops: &[(usize, u32)],
    warps_per_cta: u32,
) -> Vec<(usize, usize, u32)> {
    // LoopBegin index and LoopEnd index per loop number.
    let mut spans = Vec::new();
    for (i, ins) in p.instrs.iter().enumerate() {
        if let Instr::LoopBegin { exit_at, .. } = *ins {
            spans.push((i, exit_at as usize - 1));
        }
    }
    let mut chosen: Vec<(usize, usize, u32)> = Vec::new();
    for &(n, f) in loops {
        let Some(&(b, e)) = spans.get(n) else {
            continue;
        };
        if f <= 1 || !warps_per_cta.is_multiple_of(f) {
            continue;
        }
        if chosen.iter().any(|&(cb, ce, _)| cb <= b && e <= ce) {
            continue;
        }
        chosen.retain(|&(cb, ce, _)| !(b <= cb && ce <= e));
        chosen.push((b, e, f));
    }
    chosen.sort_unstable();
    chosen
}

/// Where the instructions go in the throttled program.
struct Layout {
    /// Old index -> new index, for instructions outside the copies (one
    /// past the end included).
    new_of: Vec<usize>,
    /// Per chosen loop: its `LoopBegin` and `LoopEnd` indices, its
    /// factor, and where each of its copies starts.
    copies: Vec<(usize, usize, u32, Vec<usize>)>,
    /// Instructions of the throttled program.
    len: usize,
}

/// The layout of the throttled program: each chosen loop becomes
/// `factor` copies, each an `If`, the copy, an `EndIf` and a `Barrier`.
fn layout(p: &Program, chosen: &[(usize, usize, u32)]) -> Layout {
    let mut new_of = vec![0usize; p.instrs.len() + 1];
    let mut copies = Vec::new();
    let mut at = 0usize;
    let mut i = 0usize;
    while i < p.instrs.len() {
        if let Some(&(b, e, n)) = chosen.iter().find(|c| c.0 == i) {
            let len = e - b + 1;
            let mut starts = Vec::new();
            for _ in 0..n {
                // If, the copy, EndIf, Barrier.
                starts.push(at + 1);
                at += len + 3;
            }
            new_of[i] = starts[0];
            copies.push((b, e, n, starts));
            i = e + 1;
        } else {
            new_of[i] = at;
            at += 1;
            i += 1;
        }
    }
    new_of[p.instrs.len()] = at;
    Layout {
        new_of,
        copies,
        len: at,
    }
}

impl Layout {
    /// The new index of jump target `t`, inside the copy `(LoopBegin,
    /// LoopEnd, copy start)` if given.
    fn map(&self, t: u32, copy: Option<(usize, usize, usize)>) -> u32 {
        let t = t as usize;
        if let Some((b, e, start)) = copy {
            if (b..=e).contains(&t) {
                return (start + t - b) as u32;
            }
            if t == e + 1 {
                // The loop's exit: this copy's EndIf.
                return (start + e - b + 1) as u32;
            }
        }
        self.new_of[t] as u32
    }

    /// `ins` with its jump targets moved.
    fn reloc(&self, ins: Instr, copy: Option<(usize, usize, usize)>) -> Instr {
        match ins {
            Instr::If { cond, else_at } => Instr::If {
                cond,
                else_at: self.map(else_at, copy),
            },
            Instr::Else { end_at } => Instr::Else {
                end_at: self.map(end_at, copy),
            },
            Instr::LoopBegin {
                var,
                end,
                start,
                bound,
                step,
                exit_at,
            } => Instr::LoopBegin {
                var,
                end,
                start,
                bound,
                step,
                exit_at: self.map(exit_at, copy),
            },
            Instr::LoopEnd {
                var,
                end,
                step,
                body_at,
            } => Instr::LoopEnd {
                var,
                end,
                step,
                body_at: self.map(body_at, copy),
            },
            other => other,
        }
    }
}

/// The thread's index within its CTA: `tid.x + tid.y * ntid.x + tid.z *
/// ntid.x * ntid.y`.
fn linear_tid(block: [u32; 3]) -> RExpr {
    RExpr::Bin(
        BinOp::Add,
        Box::new(RExpr::Reg(REG_TID)),
        Box::new(RExpr::Bin(
            BinOp::Add,
            Box::new(RExpr::Bin(
                BinOp::Mul,
                Box::new(RExpr::Reg(REG_TID + 1)),
                Box::new(RExpr::Const(block[0] as i64)),
            )),
            Box::new(RExpr::Bin(
                BinOp::Mul,
                Box::new(RExpr::Reg(REG_TID + 2)),
                Box::new(RExpr::Const(block[0] as i64 * block[1] as i64)),
            )),
        )),
    )
}

impl Kernel {
    /// This kernel with CATT's throttling applied: each loop's warp-level
    /// factor from `r` (module documentation).
    pub fn catt_throttled(&self, r: &CattReport) -> Kernel {
        let loops: Vec<(usize, u32)> = r.loops.iter().map(|l| (l.index, l.n)).collect();
        let mut k = self.clone();
        k.program = throttle_program(&self.program, &loops, self.block, self.warps_per_cta());
        k
    }
}
