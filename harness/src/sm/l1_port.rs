//! The L1 port (step 7): one line of the load/store unit's instruction a
//! cycle, or, when the unit has none, the expander's request, or a line of
//! the prefetcher's offered prefetch (`sm/prefetches.rs`).
//!
//! # A demand load's line (`sm_harness.md`, revision 3)
//! In this order:
//! 1. In flight in an MSHR: it merges (a pending hit), if the MSHR has a
//!    merge slot.
//! 2. Otherwise **the L1 policy decides first** ([`L1Role::plan`], against
//!    the state at the start of the cycle):
//!    - *hit*: delivered after the hit latency;
//!    - *allocate* (a miss, BA's pseudo-hit): it takes an MSHR and a slot
//!      of the memory's request queue (the miss queue); the tag array
//!      reserves the allocated way until the fill (`sm/l1_return.rs`);
//!    - *bypass*: it goes to the memory **without an MSHR** and merges with
//!      nothing (a second bypass of the same line is a second read); it
//!      still needs the memory to accept it (room in the SM's request
//!      queue to the interconnect, as a store does), else it waits. Its
//!      data returns to its warp directly ([`Bypassed`](super::l1_side::Bypassed));
//!    - *reservation fail*: every way of the set is reserved (in flight) or
//!      pinned: nothing is sent, `l1.reservation_fails` counts it, and the
//!      load/store unit holds the line and retries it next cycle (the
//!      memory pipeline stalls, as GPGPU-Sim's does).
//! 3. A line that finds no MSHR, no merge slot or no queue room is retried
//!    next cycle too, counted in `l1.mshr_stalls`.
//!
//! A prefetch's line is dropped when present or in flight, and dropped and
//! counted (`dropped_reserved`) when its set is fully reserved; otherwise
//! it takes an MSHR and its way is reserved like a miss's.

use crate::memsys::MemReq;
use crate::roles::{L1Plan, PrefetchOffer};

use super::expander::ExpanderSide;
use super::l1_side::{Access, Bypassed};
use super::prefetches::PfInfo;
use super::state::Sm;

impl<X: ExpanderSide> Sm<'_, X> {
    /// The L1 port: one demand line, else the expander's request, else
    /// one prefetch.
    pub(super) fn l1_port(&mut self) {
        if !self.ldst.busy {
            X::ldst_free(self);
        }
        if self.ldst.busy {
            let line = self.ldst.lines[self.ldst.next];
            if self.ldst.texture {
                self.port_texture(line);
                return;
            }
            // Where the line is before the request (for the expander).
            let state = X::line_state(self, line);
            let served = if self.ldst.store {
                self.store_line(line)
            } else {
                self.demand_line(line, self.ldst.warp, self.ldst.load, self.ldst.array)
            };
            match served {
                Served::Yes => {
                    X::demand_served(self, self.ldst.next, state);
                    self.ldst.next += 1;
                    if self.ldst.next == self.ldst.n {
                        self.ldst.busy = false;
                    }
                }
                Served::NoRoom => self.m.l1.mshr_stalls += 1,
                Served::Reserved => self.m.l1.reservation_fails += 1,
            }
            return;
        }
        if X::port_free(self) {
            return;
        }
        self.port_prefetch();
    }

    /// A texture load's line to the texture cache (never the L1's tag
    /// array, the expander or the prefetcher); retried when refused.
    fn port_texture(&mut self, line: u64) {
        if self.texture_line(line, self.ldst.warp, self.ldst.load) {
            self.ldst.next += 1;
            if self.ldst.next == self.ldst.n {
                self.ldst.busy = false;
            }
        }
    }

    /// The port serves the next line of the prefetcher's offer: dropped
    /// when present or in flight, issued when an MSHR and miss-queue room
    /// are free, else left for the next cycle. The offer is accepted with
    /// its last line.
    fn port_prefetch(&mut self) {
        let Some(out) = self.pf.unit.as_ref().and_then(|p| p.offer()) else {
            self.pf.cursor.clear();
            return;
        };
        let l = self
            .pf
            .cursor
            .next(out, self.cfg.l1_line, self.cfg.snake_span_lines);
        if !self.prefetch_line(l.line, out) {
            return;
        }
        self.pf.m.offered += 1;
        self.pf.cursor.taken(l);
        if !l.last {
            return;
        }
        self.pf.m.span_offers += l.several as u64;
        self.pf.m.span_capped += l.capped as u64;
        if let Some(p) = self.pf.unit.as_mut() {
            p.accept();
        }
    }

    /// One prefetch request for `line` (of offer `out`): true when the L1
    /// took it (dropped or issued).
    fn prefetch_line(&mut self, line: u64, out: PrefetchOffer) -> bool {
        if self.l1.find_mshr(line).is_some() {
            self.pf.m.dropped_in_flight += 1;
        } else if self.l1.tags.holds_data(line) {
            self.pf.m.dropped_present += 1;
        } else if self.l1.tags.plan(line, true) == L1Plan::ReservationFail {
            self.pf.m.dropped_reserved += 1;
        } else if !self.l1.mshrs_full() && self.mem.borrow().room(self.port) {
            let i = self.l1.alloc_mshr(line, self.now);
            let e = &mut self.l1.mshr[i];
            e.prefetch = true;
            e.target = out.warp;
            self.mem_push(line, false, true);
            self.l1.tags.request_prefetch(line);
            self.l1.last_access = Some(Access::Prefetch);
            let array = self.k.array_at(line);
            if let Some(a) = array {
                self.arrays[a].prefetches += 1;
            }
            self.pf.lines.insert(
                line,
                PfInfo {
                    issued: self.now,
                    in_flight: true,
                    array,
                },
            );
            self.pf.m.issued += 1;
        } else {
            self.pf.m.stall_cycles += 1;
            return false;
        }
        true
    }

    /// A request for `line` to the memory below the L1.
    pub(super) fn mem_push(&mut self, line: u64, write: bool, prefetch: bool) {
        self.mem.borrow_mut().push(
            MemReq {
                sm: self.port,
                line,
                write,
            },
            self.now,
        );
        if write {
            self.m.memory.writes += 1;
        } else {
            self.l1.sent += 1;
            self.m.memory.reads += 1;
            if prefetch {
                self.m.memory.prefetch_reads += 1;
            }
        }
    }

    /// A demand request found `line` prefetched: the prefetch was useful
    /// (or late, still in flight).
    fn used_prefetch(&mut self, line: u64) {
        if let Some(info) = self.pf.lines.remove(&line) {
            self.pf.distance_sum += self.now - info.issued;
            if let Some(a) = info.array {
                self.arrays[a].prefetches_used += 1;
            }
            if info.in_flight {
                self.pf.m.late += 1;
            } else {
                self.pf.m.useful += 1;
            }
        }
    }

    /// A line of warp `warp`'s load `load` (array `array`) to the L1
    /// (module documentation).
    fn demand_line(&mut self, line: u64, warp: u16, load: u32, array: u16) -> Served {
        // A prefetch of this line was evicted unused: the address was
        // right, the timing was not.
        if !self.pf.evicted_unused.is_empty() && self.pf.evicted_unused.remove(&line) {
            self.pf.m.early_evicted_demanded += 1;
        }
        let merged;
        let plan;
        if let Some(i) = self.l1.find_mshr(line) {
            if self.l1.mshr[i].waiters.len() >= self.cfg.mshr_merges as usize {
                return Served::NoRoom;
            }
            self.l1.mshr[i].waiters.push((warp, load));
            self.warps[warp as usize].pending_misses += 1;
            if self.l1.mshr[i].prefetch && !self.l1.mshr[i].demanded {
                self.used_prefetch(line);
            }
            self.l1.mshr[i].demanded = true;
            merged = true;
            plan = L1Plan::Allocate;
        } else {
            merged = false;
            plan = self.l1.tags.plan(line, false);
            match plan {
                L1Plan::Hit => {
                    if !self.pf.lines.is_empty() {
                        self.used_prefetch(line);
                    }
                }
                L1Plan::ReservationFail => return Served::Reserved,
                L1Plan::Allocate => {
                    if self.l1.mshrs_full() || !self.mem.borrow().room(self.port) {
                        return Served::NoRoom;
                    }
                    let i = self.l1.alloc_mshr(line, self.now);
                    self.l1.mshr[i].waiters.push((warp, load));
                    self.l1.mshr[i].demanded = true;
                    self.demand_read(line, warp);
                }
                L1Plan::Bypass => {
                    if !self.mem.borrow().room(self.port) {
                        return Served::NoRoom;
                    }
                    let seq = self.l1.sent;
                    self.l1.bypassed.push(Bypassed {
                        line,
                        warp,
                        load,
                        seq,
                    });
                    self.demand_read(line, warp);
                }
            }
        }
        self.l1.tags.request(line, false);
        self.l1.last_access = Some(Access::Demand {
            warp,
            load,
            array,
            merged,
            plan,
        });
        self.m.l1.accesses += 1;
        if let Some(a) = self.arrays.get_mut(array as usize) {
            a.load_lines += 1;
        }
        if let Some(r) = self.reuse.as_mut() {
            // The thesis leaves pending hits out of the profile (3.1).
            if merged {
                r.pending_hit();
            } else {
                r.access(line, self.ldst.pc, self.now);
            }
        }
        Served::Yes
    }

    /// Warp `warp`'s demand read of `line` (a miss or a bypass) goes to
    /// memory.
    fn demand_read(&mut self, line: u64, warp: u16) {
        self.warps[warp as usize].pending_misses += 1;
        self.mem_push(line, false, false);
        self.bursts.event(self.now);
        if let Some(p) = self.pf.unit.as_mut() {
            p.miss(line, warp as u32);
        }
    }

    /// A line of the load/store unit's store to the L1 and the memory;
    /// not served when the miss queue has no room.
    fn store_line(&mut self, line: u64) -> Served {
        if !self.mem.borrow().room(self.port) {
            return Served::NoRoom;
        }
        self.l1.tags.request(line, true);
        self.mem_push(line, true, false);
        self.l1.last_access = Some(Access::Store);
        self.m.l1.store_lines += 1;
        if let Some(a) = self.arrays.get_mut(self.ldst.array as usize) {
            a.store_lines += 1;
        }
        Served::Yes
    }
}

/// Whether the L1 port served a line of the load/store unit this cycle.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Served {
    Yes,
    /// No MSHR, merge slot or queue room: retried (`mshr_stalls`).
    NoRoom,
    /// A reservation fail: retried (`reservation_fails`).
    Reserved,
}
