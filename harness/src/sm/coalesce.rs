//! A load or store issued (step 8): its lanes' addresses coalesced into
//! the lines of the load/store unit, a load's values written, the warp
//! blocked (or its load on the scoreboard), and the load shown to the
//! prefetcher and the inter-warp probe.

use crate::expr::{eval, Code, Lanes, LANES};
use crate::kernel::{zero_divisor_error, ArrayInfo, Program};
use crate::roles::LoadInfo;
use crate::sched::scheduler::WarpState;

use super::expander::ExpanderSide;
use super::state::Sm;
use super::warp::{LoadOut, BLOCKING};

impl Program {
    /// PC of memory instruction `mem`.
    #[inline]
    pub(crate) fn pcs_of_mem(&self, mem: u16) -> u32 {
        self.mems[mem as usize].pc
    }
}

/// The lines a warp's access touches (see [`coalesce`]).
struct Coalesced {
    /// Lines (and first addresses) written.
    n: usize,
    /// Active lanes out of the array's bounds.
    oob: u64,
    /// The lowest active lane and its address.
    first: Option<(u32, u64)>,
    /// Every active lane is one stride per lane from the first (for
    /// Snake).
    uniform: bool,
}

/// Coalesce the accesses of the `active` lanes to `a` at the indices `idx`
/// into `lines` (line addresses under the line mask `lm`, ascending) with
/// the lowest byte address touched in each (`firsts`).
fn coalesce(
    idx: &Lanes,
    active: u32,
    a: &ArrayInfo,
    lm: u64,
    lines: &mut [u64; LANES],
    firsts: &mut [u64; LANES],
) -> Coalesced {
    let base = a.base;
    let elem = a.elem as u64;
    let len = a.len;
    let mut n = 0usize;
    let mut oob = 0u64;
    let mut sorted = true;
    // The lowest active thread's address, and whether every active
    // thread is one stride per lane from it (for Snake).
    let mut first: Option<(u32, u64)> = None;
    let mut stride: Option<i64> = None;
    let mut uniform = true;
    for (lane, &ix) in idx.iter().enumerate() {
        if active & (1 << lane) == 0 {
            continue;
        }
        if ix < 0 || ix as u64 >= len {
            oob += 1;
        }
        let addr = base.wrapping_add((ix as u64).wrapping_mul(elem)) & 0xFFFF_FFFF;
        match first {
            None => first = Some((lane as u32, addr)),
            Some((l0, a0)) if uniform => {
                let dl = lane as i64 - l0 as i64;
                let da = (addr.wrapping_sub(a0) & 0xFFFF_FFFF) as u32 as i32 as i64;
                match stride {
                    None if da % dl == 0 => stride = Some(da / dl),
                    Some(s) if s * dl == da => {}
                    _ => uniform = false,
                }
            }
            Some(_) => {}
        }
        let line = addr & lm;
        if n > 0 && line == lines[n - 1] {
            firsts[n - 1] = firsts[n - 1].min(addr);
            continue;
        }
        if n > 0 && line < lines[n - 1] {
            sorted = false;
        }
        lines[n] = line;
        firsts[n] = addr;
        n += 1;
    }
    if !sorted {
        // By line, lowest byte first; keep each line's first pair.
        let mut pairs = [(0u64, 0u64); LANES];
        for i in 0..n {
            pairs[i] = (lines[i], firsts[i]);
        }
        pairs[..n].sort_unstable();
        let mut m = 0;
        for &(line, first) in &pairs[..n] {
            if m == 0 || line != lines[m - 1] {
                lines[m] = line;
                firsts[m] = first;
                m += 1;
            }
        }
        n = m;
    }
    Coalesced {
        n,
        oob,
        first,
        uniform,
    }
}

impl<X: ExpanderSide> Sm<'_, X> {
    /// Warp `w` issues a load (into `dst`) or a store of array `array` at
    /// the index `index` (memory instruction `mem`): the load/store unit
    /// takes its lines.
    pub(super) fn mem_instr(
        &mut self,
        w: u16,
        array: u16,
        index: Code,
        dst: Option<u16>,
        mem: u16,
        store: bool,
    ) {
        let prog = self.prog;
        let kernel = self.k;
        let wi = w as usize;
        let a = &kernel.arrays[array as usize];
        let wp = &mut self.warps[wi];
        let z = eval(&prog.ops, index, &wp.regs, &mut self.stack) & wp.active;
        if z != 0 && self.fault.is_none() {
            self.fault = Some(zero_divisor_error(kernel, index, z, w, self.now));
        }
        let idx = &self.stack[0];
        let active = wp.active;
        let c = coalesce(
            idx,
            active,
            a,
            self.line_mask,
            &mut self.ldst.lines,
            &mut self.ldst.firsts,
        );
        let n = c.n;
        if let Some(d) = dst {
            let regs = &mut wp.regs[d as usize];
            for lane in 0..LANES {
                if active & (1 << lane) != 0 {
                    regs[lane] = a.value(idx[lane]);
                }
            }
        }
        self.m.out_of_bounds += c.oob;
        self.m.mem_instructions += 1;
        self.ldst.busy = true;
        self.ldst.warp = w;
        self.ldst.store = store;
        self.ldst.array = array;
        self.ldst.n = n;
        self.ldst.next = 0;
        self.ldst.load = BLOCKING;
        self.ldst.pc = prog.pcs_of_mem(mem);
        if store {
            return;
        }
        let (cta, widx) = (wp.cta, wp.widx);
        if self.scoreboard {
            // Non-blocking: the warp goes on; its value's first use waits.
            let id = wp.next_load;
            wp.next_load = wp.next_load.wrapping_add(1) % BLOCKING;
            wp.loads_out.push(LoadOut {
                id,
                dst: dst.unwrap_or(0),
                ndst: dst.is_some() as u16,
                lines: n as u32,
            });
            if let Some(d) = dst {
                wp.sb[d as usize] += 1;
            }
            self.ldst.load = id;
        } else {
            wp.pending = n as u32;
            wp.pending_misses = 0;
            self.block(w, WarpState::Mem);
        }
        let info = LoadInfo {
            pc: prog.pcs_of_mem(mem) as u64,
            cta_slot: cta as u32,
            warp: widx as u32,
            sm_warp: w as u32,
            lines: &self.ldst.lines[..n],
            firsts: &self.ldst.firsts[..n],
            first_addr: c.first.map_or(0, |(_, a)| a),
            uniform: c.uniform,
            indirect: self.cfg.caps_hint && prog.mems[mem as usize].indirect,
        };
        if let Some(p) = self.interwarp.as_mut() {
            p.load(self.now, &info);
        }
        if let Some(p) = self.pf.unit.as_mut() {
            p.load(&info);
        }
    }
}
