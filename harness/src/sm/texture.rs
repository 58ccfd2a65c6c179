//! The SM's read-only texture cache ([`TexCache`], `sm_harness.md`,
//! revision 3, "Texture loads take the L1"): the lines of a load marked
//! `texture` go here from the load/store unit, never to the L1 data cache,
//! its tag-array unit, the prefetcher, DAC or the L1's metrics.
//!
//! `tex_size` bytes of `tex_line`-byte lines in `tex_ways`-way sets, LRU,
//! allocate on miss (GPGPU-Sim's `L:R:m:N:L`: the victim way is reserved
//! when the miss is sent and filled when the data returns; a reserved way
//! is never a victim; a set whose ways are all reserved stalls the line,
//! retried next cycle). A hit's data reaches the warp `tex_latency` cycles
//! after the access. A miss takes one of [`TEX_MSHRS`] texture MSHRs (a
//! later miss to the line merges, up to [`TEX_MERGES`] requests) and a slot
//! of the SM's miss queue to the memory below: the same interconnect, L2
//! and DRAM as the L1's misses. The returned line goes to the texture
//! cache when its oldest outstanding request for that line is the texture
//! cache's (`fill_is_texture`), else to the L1.

use super::expander::ExpanderSide;
use super::state::Sm;
use super::tex_cache::{TexMshr, TEX_MERGES, TEX_MSHRS};

impl<X: ExpanderSide> Sm<'_, X> {
    /// A line of warp `warp`'s texture load `load`: a hit (data after
    /// `tex_latency`), a merge into its MSHR, or a miss to the memory
    /// below; false when it must be retried (no MSHR, merge slot, miss
    /// queue room or unreserved way).
    pub(super) fn texture_line(&mut self, line: u64, warp: u16, load: u32) -> bool {
        let t = &mut self.tex;
        if let Some(m) = t.mshr.iter_mut().find(|m| m.line == line) {
            if m.waiters.len() >= TEX_MERGES {
                self.m.texture.stalls += 1;
                return false;
            }
            m.waiters.push((warp, load));
            self.warps[warp as usize].pending_misses += 1;
            self.m.texture.accesses += 1;
            self.m.texture.pending_hits += 1;
            return true;
        }
        if let Some(i) = t.find(line) {
            t.touch(i);
            let ready = self.now + t.latency;
            t.hitq.push_back((ready, warp, load));
            self.m.texture.accesses += 1;
            self.m.texture.hits += 1;
            return true;
        }
        let victim = t.victim(line);
        let (Some(i), true) = (
            victim,
            t.mshr.len() < TEX_MSHRS && self.mem.borrow().room(self.port),
        ) else {
            self.m.texture.stalls += 1;
            return false;
        };
        let t = &mut self.tex;
        t.tags[i] = line;
        t.reserved[i] = true;
        t.touch(i);
        t.mshr.push(TexMshr {
            line,
            sent: self.now,
            waiters: vec![(warp, load)],
        });
        self.warps[warp as usize].pending_misses += 1;
        self.m.texture.accesses += 1;
        self.m.texture.misses += 1;
        self.mem_push(line, false, false);
        true
    }

    /// Whether the read of `line` back from memory is the texture cache's:
    /// it has the line in flight and the L1 has not, or sent its request
    /// no later than the L1's.
    pub(super) fn fill_is_texture(&self, line: u64, l1_sent: Option<u64>) -> bool {
        match (self.tex.in_flight(line), l1_sent) {
            (Some(t), Some(l)) => t <= l,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// `line` is back for the texture cache: its reserved way filled, its
    /// waiters served.
    pub(super) fn texture_fill(&mut self, line: u64) {
        let t = &mut self.tex;
        let Some(k) = t.mshr.iter().position(|m| m.line == line) else {
            return;
        };
        let m = t.mshr.swap_remove(k);
        if let Some(i) = t.set(line).find(|&i| t.tags[i] == line && t.reserved[i]) {
            t.reserved[i] = false;
        }
        for (w, load) in m.waiters {
            self.warps[w as usize].pending_misses -= 1;
            self.deliver(w, load);
        }
    }

    /// The texture hits whose latency has elapsed are delivered.
    pub(super) fn texture_hits(&mut self) {
        while let Some(&(t, w, load)) = self.tex.hitq.front() {
            if t > self.now {
                break;
            }
            self.tex.hitq.pop_front();
            self.deliver(w, load);
        }
    }
}
