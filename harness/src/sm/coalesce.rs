//! A load or store issued (step 8): its lanes' addresses coalesced into
//! the lines of the load/store unit, a load's values written, the warp
//! blocked (or its load on the scoreboard), and the load shown to the
//! prefetcher and the inter-warp probe.

use crate::expr::{eval, Code, Lanes, LANES};
use crate::kernel::{zero_divisor_error, ArrayInfo, Program};
use crate::lanes::{LaneShape, WarpRows};
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
    /// The active lanes' addresses: first address, `ld_uniform` per row
    /// and `ld_span` (for Snake).
    shape: LaneShape,
}

/// Coalesce the accesses of the `active` lanes to `a` at the indices `idx`
/// into `lines` (line addresses under the line mask `lm`, ascending) with
/// the lowest byte address touched in each (`firsts`); `rows` are the
/// warp's rows of the block (for the load's shape).
fn coalesce(
    idx: &Lanes,
    active: u32,
    a: &ArrayInfo,
    lm: u64,
    rows: WarpRows,
    lines: &mut [u64; LANES],
    firsts: &mut [u64; LANES],
) -> Coalesced {
    let base = a.base;
    let elem = a.elem as u64;
    let len = a.len;
    let mut n = 0usize;
    let mut oob = 0u64;
    let mut sorted = true;
    // The lanes' shape for Snake: first address, uniform, span.
    let mut shape = LaneShape::new(rows);
    for (lane, &ix) in idx.iter().enumerate() {
        if active & (1 << lane) == 0 {
            continue;
        }
        if ix < 0 || ix as u64 >= len {
            oob += 1;
        }
        let addr = base.wrapping_add((ix as u64).wrapping_mul(elem)) & 0xFFFF_FFFF;
        shape.lane(lane as u32, addr);
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
    Coalesced { n, oob, shape }
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
        let rows = WarpRows::of_warp(wp.widx as u32, kernel.block[0]);
        let c = coalesce(
            idx,
            active,
            a,
            self.line_mask,
            rows,
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
        self.ldst.texture = !store && prog.mems[mem as usize].texture;
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
        if self.ldst.texture {
            // The texture path: not shown to the prefetcher or the probe.
            return;
        }
        let info = LoadInfo {
            pc: prog.pcs_of_mem(mem) as u64,
            cta_slot: cta as u32,
            warp: widx as u32,
            sm_warp: w as u32,
            lines: &self.ldst.lines[..n],
            firsts: &self.ldst.firsts[..n],
            first_addr: c.shape.first().map_or(0, |(_, a)| a),
            uniform: c.shape.uniform(),
            span: c.shape.span(),
            cta_end: self.cta_end(cta),
            indirect: self.cfg.caps_hint && prog.mems[mem as usize].indirect,
        };
        if let Some(p) = self.interwarp.as_mut() {
            p.load(self.now, &info);
        }
        if let Some(p) = self.pf.unit.as_mut() {
            p.load(&info);
        }
        self.pf.first_load.get_or_insert(self.now);
    }
}
