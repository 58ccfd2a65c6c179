//! The memory below the L1s (`sm_harness.md`, "Revision 2"): what an SM's
//! misses and stores go to, behind one narrow interface (`LowerMemory`).
//!
//! Two models, chosen by the machine's `mem_model`:
//! - `flat` (`FlatMemory`): the first harness's model, kept for the
//!   `fermi` and `volta` presets and the results measured on it: per SM,
//!   a queue of `miss_queue` requests, one accepted every `mem_interval`
//!   cycles, a read's data back `mem_latency` cycles after acceptance;
//! - `hier` (`HierMemory`): an interconnect, L2 partitions and DRAM
//!   channels with their queues, below.
//!
//! # The hierarchy
//! - **Interconnect.** Each SM injects at most one request every
//!   `icnt_interval` cycles from its queue of `miss_queue` requests, and a
//!   request reaches its partition `icnt_latency` cycles later; a reply
//!   takes `icnt_latency` cycles back. A request leaves the SM's queue only
//!   when its partition's input queue (`l2_queue` entries, requests in
//!   flight to it included) has room.
//! - **L2.** The line address picks the partition: partition = line
//!   number mod `l2_partitions` (lines interleave over partitions). Each
//!   partition is set-associative (`l2_bytes` per partition, `l2_ways`,
//!   LRU, 128-byte lines as the L1's), serves one request per cycle from
//!   its input queue in order, and answers a read hit after
//!   `l2_hit_latency` cycles. A read miss takes one of `l2_mshrs` MSHRs
//!   (a second read of a line already missing merges into its MSHR) and
//!   queues a DRAM read; with no MSHR or no DRAM queue room the head of the
//!   input queue waits. The line is allocated when its data returns
//!   (evicting the LRU line; a dirty one is written back). A store writes
//!   the L2 line (allocated without a fetch when absent: the harness's
//!   stores write whole lines' worth of data as far as timing goes) and
//!   marks it dirty.
//! - **DRAM.** `dram_channels` channels (partition `p` uses channel `p /
//!   (l2_partitions / dram_channels)`), each with `dram_banks` banks; a
//!   channel's line `n` (the line number divided by the partitions, times
//!   the channel's partitions, plus the partition's index among them) is
//!   in row `r = n / (banks * dram_row_lines)` and bank `(n mod banks) xor
//!   (r mod banks)` (permutation interleaving: without it, streams a
//!   multiple of a row apart all conflict in one bank). The channel's
//!   scheduler queue holds `dram_queue` requests (a write-back enters it
//!   even when full: the L2 cannot refuse its victim); every cycle the data bus
//!   is free, FR-FCFS picks the oldest request to a free bank whose row is
//!   open (a row hit), else the oldest to a free bank. Its bank is busy
//!   for the access time, `dram_t_row_hit`, `dram_t_row_miss` (no row
//!   open) or `dram_t_row_conflict` (another row open: precharge,
//!   activate, read), after which the row stays open; the data bus is busy
//!   for `dram_t_burst` cycles and the data is back at the L2
//!   `dram_latency` cycles (the controller's and the pins' fixed latency)
//!   after the end of both.
//!
//! Every parameter is a machine key; `MachineConfig` documents the
//! defaults and the presets quote their papers.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A request from an SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemReq {
    /// The requesting SM.
    pub sm: u32,
    /// Line address (byte address of the line).
    pub line: u64,
    /// A store (no reply).
    pub write: bool,
}

/// Counters of the memory below the L1s.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LowerStats {
    /// Requests the SMs' queues accepted (the interconnect or the flat
    /// memory took them).
    pub accepted: u64,
    /// L2 reads (hierarchy only).
    pub l2_reads: u64,
    /// Of which hits.
    pub l2_read_hits: u64,
    /// Of which merged into a missing line's MSHR.
    pub l2_read_merges: u64,
    /// L2 writes.
    pub l2_writes: u64,
    /// Cycles a partition's head request waited for an MSHR or DRAM
    /// queue room.
    pub l2_stall_cycles: u64,
    /// DRAM reads and writes (write-backs).
    pub dram_reads: u64,
    /// DRAM writes.
    pub dram_writes: u64,
    /// DRAM accesses that found their row open, no row open, another row
    /// open.
    pub dram_row_hits: u64,
    /// No row open.
    pub dram_row_misses: u64,
    /// Another row open.
    pub dram_row_conflicts: u64,
    /// Sum over cycles of the requests in the DRAM queues (mean occupancy
    /// = this / cycles).
    pub dram_queue_sum: u64,
}

/// What an SM sees of the memory below its L1.
pub(crate) trait LowerMemory {
    /// Whether SM `sm`'s request queue can take a request this cycle.
    fn room(&self, sm: u32) -> bool;
    /// Queue a request (taken from the queue from the next cycle on).
    fn push(&mut self, r: MemReq, now: u64);
    /// Advance every queue, cache and channel to cycle `now` (called once
    /// per simulated cycle, at its start, before any [`Self::pop_return`]).
    fn tick(&mut self, now: u64);
    /// A read of SM `sm` whose data is back by cycle `now`.
    fn pop_return(&mut self, sm: u32, now: u64) -> Option<u64>;
    /// The earliest cycle after `now` at which something happens, if any
    /// (idle cycles until then may be skipped); `now + 1` when unsure.
    fn next_event(&self, now: u64) -> Option<u64>;
    /// SM `sm`'s link utilisation over the last `window` cycles up to
    /// `now`, percent (Snake's `bw_util`).
    fn bw_util(&mut self, sm: u32, now: u64) -> u32;
    /// Requests accepted from SM `sm` times the cycles each occupies its
    /// link, over `cycles`: the link's utilisation.
    fn link_utilisation(&self, sm: u32, cycles: u64) -> f64;
    /// The counters.
    fn stats(&self) -> LowerStats;
}

/// Utilisation over a sliding window: acceptance times.
#[derive(Clone, Debug, Default)]
struct Window {
    recent: VecDeque<u64>,
}

impl Window {
    fn record(&mut self, now: u64) {
        self.recent.push_back(now);
    }

    fn percent(&mut self, now: u64, window: u64, interval: u64) -> u32 {
        while self.recent.front().is_some_and(|&t| t + window <= now) {
            self.recent.pop_front();
        }
        let busy = self.recent.len() as u64 * interval;
        (busy * 100 / window).min(100) as u32
    }
}

/// One SM's port of the flat model.
#[derive(Clone, Debug, Default)]
struct FlatPort {
    queue: VecDeque<MemReq>,
    next_accept: u64,
    inflight: VecDeque<(u64, u64)>,
    accepted: u64,
    window: Window,
}

/// The first harness's memory (module documentation), one port per SM.
pub(crate) struct FlatMemory {
    latency: u64,
    interval: u64,
    cap: usize,
    window: u64,
    ports: Vec<FlatPort>,
}

impl FlatMemory {
    /// `sms` ports of `cap` queued requests, one accepted every `interval`
    /// cycles, data `latency` cycles later; `bw_util` over `window`.
    pub(crate) fn new(sms: u32, latency: u64, interval: u64, cap: usize, window: u64) -> Self {
        FlatMemory {
            latency,
            interval,
            cap,
            window,
            ports: vec![FlatPort::default(); sms as usize],
        }
    }
}

impl LowerMemory for FlatMemory {
    fn room(&self, sm: u32) -> bool {
        self.ports[sm as usize].queue.len() < self.cap
    }

    fn push(&mut self, r: MemReq, _now: u64) {
        self.ports[r.sm as usize].queue.push_back(r);
    }

    fn tick(&mut self, now: u64) {
        for p in &mut self.ports {
            if now >= p.next_accept {
                if let Some(r) = p.queue.pop_front() {
                    p.accepted += 1;
                    p.window.record(now);
                    p.next_accept = now + self.interval;
                    if !r.write {
                        p.inflight.push_back((now + self.latency, r.line));
                    }
                }
            }
        }
    }

    fn pop_return(&mut self, sm: u32, now: u64) -> Option<u64> {
        let p = &mut self.ports[sm as usize];
        match p.inflight.front() {
            Some(&(t, line)) if t <= now => {
                p.inflight.pop_front();
                Some(line)
            }
            _ => None,
        }
    }

    fn next_event(&self, now: u64) -> Option<u64> {
        let mut next: Option<u64> = None;
        let mut at = |t: u64| next = Some(next.map_or(t, |n| n.min(t)));
        for p in &self.ports {
            if let Some(&(t, _)) = p.inflight.front() {
                at(t);
            }
            if !p.queue.is_empty() {
                at(p.next_accept.max(now + 1));
            }
        }
        next
    }

    fn bw_util(&mut self, sm: u32, now: u64) -> u32 {
        let (w, i) = (self.window, self.interval);
        self.ports[sm as usize].window.percent(now, w, i)
    }

    fn link_utilisation(&self, sm: u32, cycles: u64) -> f64 {
        let a = self.ports[sm as usize].accepted * self.interval;
        if cycles == 0 {
            0.0
        } else {
            a as f64 / cycles as f64
        }
    }

    fn stats(&self) -> LowerStats {
        LowerStats {
            accepted: self.ports.iter().map(|p| p.accepted).sum(),
            ..LowerStats::default()
        }
    }
}

/// The hierarchy's parameters (machine keys of the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HierParams {
    pub sms: u32,
    pub line_bytes: u32,
    pub miss_queue: u32,
    pub bw_window: u64,
    pub icnt_latency: u64,
    pub icnt_interval: u64,
    pub l2_partitions: u32,
    pub l2_bytes: u32,
    pub l2_ways: u32,
    pub l2_mshrs: u32,
    pub l2_hit_latency: u64,
    pub l2_queue: u32,
    pub dram_channels: u32,
    pub dram_banks: u32,
    pub dram_row_lines: u32,
    pub dram_queue: u32,
    pub dram_t_row_hit: u64,
    pub dram_t_row_miss: u64,
    pub dram_t_row_conflict: u64,
    pub dram_t_burst: u64,
    pub dram_latency: u64,
}

#[derive(Clone, Debug, Default)]
struct SmPort {
    queue: VecDeque<MemReq>,
    next_inject: u64,
    /// (time, line) of replies, earliest first.
    returns: BinaryHeap<Reverse<(u64, u64)>>,
    accepted: u64,
    window: Window,
}

#[derive(Clone, Copy, Debug, Default)]
struct Bank {
    open_row: Option<u64>,
    busy_until: u64,
}

#[derive(Clone, Copy, Debug)]
struct DramReq {
    line: u64,
    write: bool,
    bank: u32,
    row: u64,
}

struct L2Mshr {
    line: u64,
    waiters: Vec<u32>,
}

struct Partition {
    /// Requests arriving from the interconnect: (arrival, request).
    inq: VecDeque<(u64, MemReq)>,
    /// `tags[set * ways + way]`: line number + 1 (0 = invalid).
    tags: Vec<u64>,
    stamp: Vec<u64>,
    dirty: Vec<bool>,
    clock: u64,
    mshrs: Vec<L2Mshr>,
}

/// A DRAM channel, shared by `l2_partitions / dram_channels` partitions.
struct Channel {
    queue: Vec<DramReq>,
    banks: Vec<Bank>,
    bus_free: u64,
    /// (done, line, write) of accesses under way, earliest first.
    busy: BinaryHeap<Reverse<(u64, u64, bool)>>,
}

/// Interconnect, L2 partitions and DRAM channels (module documentation).
pub(crate) struct HierMemory {
    p: HierParams,
    line_shift: u32,
    sets: usize,
    ports: Vec<SmPort>,
    parts: Vec<Partition>,
    chans: Vec<Channel>,
    stats: LowerStats,
}

impl HierMemory {
    pub(crate) fn new(p: HierParams) -> Self {
        let sets = (p.l2_bytes / (p.line_bytes * p.l2_ways)).max(1) as usize;
        let ways = p.l2_ways as usize;
        let parts = (0..p.l2_partitions)
            .map(|_| Partition {
                inq: VecDeque::new(),
                tags: vec![0; sets * ways],
                stamp: vec![0; sets * ways],
                dirty: vec![false; sets * ways],
                clock: 0,
                mshrs: Vec::new(),
            })
            .collect();
        let chans = (0..p.dram_channels)
            .map(|_| Channel {
                queue: Vec::new(),
                banks: vec![Bank::default(); p.dram_banks as usize],
                bus_free: 0,
                busy: BinaryHeap::new(),
            })
            .collect();
        HierMemory {
            p,
            line_shift: p.line_bytes.trailing_zeros(),
            sets,
            ports: vec![SmPort::default(); p.sms as usize],
            parts,
            chans,
            stats: LowerStats::default(),
        }
    }

    fn partition_of(&self, line: u64) -> usize {
        ((line >> self.line_shift) % self.p.l2_partitions as u64) as usize
    }

    /// The partition-local line number.
    fn local(&self, line: u64) -> u64 {
        (line >> self.line_shift) / self.p.l2_partitions as u64
    }

    fn find(&self, part: usize, line: u64) -> (usize, Option<usize>) {
        let n = self.local(line);
        let set = (n % self.sets as u64) as usize;
        let ways = self.p.l2_ways as usize;
        let base = set * ways;
        let way = self.parts[part].tags[base..base + ways]
            .iter()
            .position(|&t| t == n + 1);
        (set, way)
    }

    /// Allocate `line` in its partition (LRU victim; a dirty victim is
    /// written back). Returns the way's index.
    fn allocate(&mut self, part: usize, line: u64) -> usize {
        let (set, way) = self.find(part, line);
        let ways = self.p.l2_ways as usize;
        let base = set * ways;
        let n = self.local(line);
        let pp = &mut self.parts[part];
        pp.clock += 1;
        let i = match way {
            Some(w) => base + w,
            None => {
                let w = (0..ways)
                    .find(|&w| pp.tags[base + w] == 0)
                    .unwrap_or_else(|| (0..ways).min_by_key(|&w| pp.stamp[base + w]).unwrap_or(0));
                let i = base + w;
                if pp.tags[i] != 0 && pp.dirty[i] {
                    // Write-back: the victim's global line address.
                    let victim_local = pp.tags[i] - 1;
                    let victim = (victim_local * self.p.l2_partitions as u64 + part as u64)
                        << self.line_shift;
                    let (bank, row) = self.bank_row(victim);
                    let c = self.channel_of(part);
                    self.chans[c].queue.push(DramReq {
                        line: victim,
                        write: true,
                        bank,
                        row,
                    });
                }
                let pp = &mut self.parts[part];
                pp.tags[i] = n + 1;
                pp.dirty[i] = false;
                i
            }
        };
        let pp = &mut self.parts[part];
        pp.stamp[i] = pp.clock;
        i
    }

    /// The channel of partition `part`.
    fn channel_of(&self, part: usize) -> usize {
        part / (self.p.l2_partitions / self.p.dram_channels) as usize
    }

    /// The bank and row of `line` in its channel: the channel's line
    /// number `n` (its partitions' lines interleaved) is in row `r = n /
    /// (banks * dram_row_lines)`, bank `(n mod banks) xor (r mod banks)`.
    fn bank_row(&self, line: u64) -> (u32, u64) {
        let ppc = (self.p.l2_partitions / self.p.dram_channels) as u64;
        let part = self.partition_of(line) as u64;
        let n = self.local(line) * ppc + part % ppc;
        let banks = self.p.dram_banks as u64;
        let row = n / (banks * self.p.dram_row_lines as u64);
        // Permutation interleaving: the row's low bits flip the bank, so
        // strides that are a multiple of a row do not all fall on one
        // bank (a row's own lines still spread over every bank).
        (((n % banks) ^ (row % banks)) as u32, row)
    }

    fn reply(&mut self, sm: u32, line: u64, at: u64) {
        self.ports[sm as usize]
            .returns
            .push(Reverse((at + self.p.icnt_latency, line)));
    }

    /// Requests in flight to or queued at partition `part`.
    fn inq_len(&self, part: usize) -> usize {
        self.parts[part].inq.len()
    }
}

impl LowerMemory for HierMemory {
    fn room(&self, sm: u32) -> bool {
        self.ports[sm as usize].queue.len() < self.p.miss_queue as usize
    }

    fn push(&mut self, r: MemReq, _now: u64) {
        self.ports[r.sm as usize].queue.push_back(r);
    }

    fn tick(&mut self, now: u64) {
        // 1. Injection: each SM sends its oldest request when its link and
        // the partition's input queue allow.
        for s in 0..self.ports.len() {
            let Some(&r) = self.ports[s].queue.front() else {
                continue;
            };
            if now < self.ports[s].next_inject {
                continue;
            }
            let part = self.partition_of(r.line);
            if self.inq_len(part) >= self.p.l2_queue as usize {
                continue;
            }
            let port = &mut self.ports[s];
            port.queue.pop_front();
            port.next_inject = now + self.p.icnt_interval;
            port.accepted += 1;
            port.window.record(now);
            self.stats.accepted += 1;
            self.parts[part]
                .inq
                .push_back((now + self.p.icnt_latency, r));
        }
        // 2. DRAM accesses done: reads fill the L2 and answer their
        // waiters.
        for c in 0..self.chans.len() {
            while let Some(&Reverse((t, line, write))) = self.chans[c].busy.peek() {
                if t > now {
                    break;
                }
                self.chans[c].busy.pop();
                if write {
                    continue;
                }
                let part = self.partition_of(line);
                self.allocate(part, line);
                if let Some(i) = self.parts[part].mshrs.iter().position(|m| m.line == line) {
                    let m = self.parts[part].mshrs.swap_remove(i);
                    for sm in m.waiters {
                        self.reply(sm, line, now);
                    }
                }
            }
        }
        // 3. Each L2 partition serves its oldest arrived request.
        for part in 0..self.parts.len() {
            let Some(&(arrive, r)) = self.parts[part].inq.front() else {
                continue;
            };
            if arrive > now {
                continue;
            }
            let c = self.channel_of(part);
            let served = if r.write {
                self.stats.l2_writes += 1;
                let i = self.allocate(part, r.line);
                self.parts[part].dirty[i] = true;
                true
            } else {
                let (set, way) = self.find(part, r.line);
                if let Some(w) = way {
                    self.stats.l2_reads += 1;
                    self.stats.l2_read_hits += 1;
                    let i = set * self.p.l2_ways as usize + w;
                    let pp = &mut self.parts[part];
                    pp.clock += 1;
                    pp.stamp[i] = pp.clock;
                    self.reply(r.sm, r.line, now + self.p.l2_hit_latency);
                    true
                } else if let Some(m) = self.parts[part].mshrs.iter_mut().find(|m| m.line == r.line)
                {
                    m.waiters.push(r.sm);
                    self.stats.l2_reads += 1;
                    self.stats.l2_read_merges += 1;
                    true
                } else if self.parts[part].mshrs.len() < self.p.l2_mshrs as usize
                    && self.chans[c].queue.len() < self.p.dram_queue as usize
                {
                    self.stats.l2_reads += 1;
                    let (bank, row) = self.bank_row(r.line);
                    self.parts[part].mshrs.push(L2Mshr {
                        line: r.line,
                        waiters: vec![r.sm],
                    });
                    self.chans[c].queue.push(DramReq {
                        line: r.line,
                        write: false,
                        bank,
                        row,
                    });
                    true
                } else {
                    self.stats.l2_stall_cycles += 1;
                    false
                }
            };
            if served {
                self.parts[part].inq.pop_front();
            }
        }
        // 4. FR-FCFS per channel: the oldest row hit to a free bank, else
        // the oldest request to a free bank, when the data bus is free.
        for ch in &mut self.chans {
            self.stats.dram_queue_sum += ch.queue.len() as u64;
            if now < ch.bus_free || ch.queue.is_empty() {
                continue;
            }
            let banks = &ch.banks;
            let free = |q: &DramReq| banks[q.bank as usize].busy_until <= now;
            let pick = ch
                .queue
                .iter()
                .position(|q| free(q) && banks[q.bank as usize].open_row == Some(q.row))
                .or_else(|| ch.queue.iter().position(free));
            let Some(i) = pick else {
                continue;
            };
            let q = ch.queue.remove(i);
            let bank = &mut ch.banks[q.bank as usize];
            let access = match bank.open_row {
                Some(r) if r == q.row => {
                    self.stats.dram_row_hits += 1;
                    self.p.dram_t_row_hit
                }
                None => {
                    self.stats.dram_row_misses += 1;
                    self.p.dram_t_row_miss
                }
                Some(_) => {
                    self.stats.dram_row_conflicts += 1;
                    self.p.dram_t_row_conflict
                }
            };
            bank.open_row = Some(q.row);
            bank.busy_until = now + access;
            ch.bus_free = now + self.p.dram_t_burst;
            if q.write {
                self.stats.dram_writes += 1;
            } else {
                self.stats.dram_reads += 1;
            }
            let done = now + access + self.p.dram_t_burst + self.p.dram_latency;
            ch.busy.push(Reverse((done, q.line, q.write)));
        }
    }

    fn pop_return(&mut self, sm: u32, now: u64) -> Option<u64> {
        let p = &mut self.ports[sm as usize];
        match p.returns.peek() {
            Some(&Reverse((t, line))) if t <= now => {
                p.returns.pop();
                Some(line)
            }
            _ => None,
        }
    }

    fn next_event(&self, now: u64) -> Option<u64> {
        let mut next: Option<u64> = None;
        let mut at = |t: u64| next = Some(next.map_or(t, |n| n.min(t.max(now + 1))));
        for p in &self.ports {
            if let Some(&Reverse((t, _))) = p.returns.peek() {
                at(t);
            }
            if !p.queue.is_empty() {
                at(p.next_inject);
            }
        }
        for pp in &self.parts {
            if let Some(&(t, _)) = pp.inq.front() {
                at(t);
            }
        }
        for ch in &self.chans {
            if let Some(&Reverse((t, _, _))) = ch.busy.peek() {
                at(t);
            }
            if !ch.queue.is_empty() {
                at(now + 1);
            }
        }
        next
    }

    fn bw_util(&mut self, sm: u32, now: u64) -> u32 {
        let (w, i) = (self.p.bw_window, self.p.icnt_interval);
        self.ports[sm as usize].window.percent(now, w, i)
    }

    fn link_utilisation(&self, sm: u32, cycles: u64) -> f64 {
        let a = self.ports[sm as usize].accepted * self.p.icnt_interval;
        if cycles == 0 {
            0.0
        } else {
            a as f64 / cycles as f64
        }
    }

    fn stats(&self) -> LowerStats {
        self.stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> HierParams {
        HierParams {
            sms: 2,
            line_bytes: 128,
            miss_queue: 8,
            bw_window: 100,
            icnt_latency: 10,
            icnt_interval: 1,
            l2_partitions: 2,
            l2_bytes: 128 * 4 * 4,
            l2_ways: 4,
            l2_mshrs: 4,
            l2_hit_latency: 20,
            l2_queue: 8,
            dram_channels: 2,
            dram_banks: 2,
            dram_row_lines: 4,
            dram_queue: 8,
            dram_t_row_hit: 10,
            dram_t_row_miss: 30,
            dram_t_row_conflict: 50,
            dram_t_burst: 4,
            dram_latency: 0,
        }
    }

    /// Run until every listed read of SM 0 is back; their return cycles.
    fn latencies(m: &mut HierMemory, reqs: &[(u64, bool)]) -> Vec<u64> {
        for &(line, write) in reqs {
            m.push(MemReq { sm: 0, line, write }, 0);
        }
        let reads = reqs.iter().filter(|r| !r.1).count();
        let mut out = Vec::new();
        for now in 1..10_000 {
            m.tick(now);
            while let Some(_l) = m.pop_return(0, now) {
                out.push(now);
            }
            if out.len() == reads {
                break;
            }
        }
        out
    }

    #[test]
    fn a_read_miss_goes_to_dram_and_a_second_read_hits_the_l2() {
        let mut m = HierMemory::new(params());
        // Injected at 1, at the partition at 11, DRAM access from 11 (no
        // row open: 30) plus the burst (4): back at the L2 at 45, at the SM
        // 10 later.
        assert_eq!(latencies(&mut m, &[(0, false)]), vec![55]);
        let s = m.stats();
        assert_eq!(
            (s.l2_reads, s.l2_read_hits, s.dram_reads, s.dram_row_misses),
            (1, 0, 1, 1)
        );
        // Now an L2 hit: 10 + 20 + 10 after injection.
        let mut m2 = m;
        let t0 = 60;
        m2.push(
            MemReq {
                sm: 0,
                line: 0,
                write: false,
            },
            t0,
        );
        let mut back = 0;
        for now in t0 + 1..t0 + 100 {
            m2.tick(now);
            if m2.pop_return(0, now).is_some() {
                back = now;
                break;
            }
        }
        assert_eq!(back, t0 + 1 + 10 + 20 + 10);
        assert_eq!(m2.stats().l2_read_hits, 1);
    }

    #[test]
    fn rows_hit_miss_and_conflict_cost_what_the_configuration_says() {
        // Lines of partition 0: global lines 0, 2, 4, ... are local 0, 1,
        // 2, ...; bank = local % 2, row = local / 8.
        let line = |local: u64| (local * 2) << 7;
        let mut m = HierMemory::new(params());
        // local 0 (bank 0, row 0) then local 2 (bank 0, row 0): a row hit;
        // then local 16 (bank 0, row 2): a conflict.
        let t = latencies(
            &mut m,
            &[(line(0), false), (line(2), false), (line(16), false)],
        );
        let s = m.stats();
        assert_eq!(
            (s.dram_row_misses, s.dram_row_hits, s.dram_row_conflicts),
            (1, 1, 1)
        );
        // The conflict waits for the bank and costs the most.
        assert!(t[2] - t[1] > t[1] - t[0], "{t:?}");
    }

    #[test]
    fn fr_fcfs_serves_a_younger_row_hit_before_an_older_conflict() {
        let line = |local: u64| (local * 2) << 7;
        let mut m = HierMemory::new(params());
        // Open row 0 of bank 0 first.
        latencies(&mut m, &[(line(0), false)]);
        // A row hit keeps the bank busy while a conflict (row 2) and then
        // another row hit (row 0) queue behind it.
        let mut order = Vec::new();
        m.push(
            MemReq {
                sm: 0,
                line: line(2),
                write: false,
            },
            100,
        );
        m.push(
            MemReq {
                sm: 0,
                line: line(16),
                write: false,
            },
            100,
        );
        m.push(
            MemReq {
                sm: 0,
                line: line(4),
                write: false,
            },
            100,
        );
        for now in 101..2000 {
            m.tick(now);
            while let Some(l) = m.pop_return(0, now) {
                order.push(l);
            }
            if order.len() == 3 {
                break;
            }
        }
        assert_eq!(order, vec![line(2), line(4), line(16)]);
    }

    #[test]
    fn misses_to_one_line_merge_and_mshrs_bound_the_misses_under_way() {
        let mut p = params();
        p.l2_mshrs = 1;
        p.l2_partitions = 1;
        p.dram_channels = 1;
        let mut m = HierMemory::new(p);
        // Two SMs read the same line: one DRAM read, both answered.
        m.push(
            MemReq {
                sm: 0,
                line: 0,
                write: false,
            },
            0,
        );
        m.push(
            MemReq {
                sm: 1,
                line: 0,
                write: false,
            },
            0,
        );
        // A third line must wait for the only MSHR.
        m.push(
            MemReq {
                sm: 0,
                line: 1 << 7,
                write: false,
            },
            0,
        );
        let mut got = [0u32; 2];
        for now in 1..1000 {
            m.tick(now);
            for sm in 0..2 {
                while m.pop_return(sm, now).is_some() {
                    got[sm as usize] += 1;
                }
            }
        }
        assert_eq!(got, [2, 1]);
        let s = m.stats();
        assert_eq!((s.dram_reads, s.l2_read_merges), (2, 1));
        assert!(s.l2_stall_cycles > 0);
    }

    #[test]
    fn dirty_victims_are_written_back() {
        let mut p = params();
        p.l2_partitions = 1;
        p.dram_channels = 1;
        p.l2_bytes = 128 * 2; // one set of 2 ways
        p.l2_ways = 2;
        let mut m = HierMemory::new(p);
        for i in 0..3u64 {
            m.push(
                MemReq {
                    sm: 0,
                    line: i << 7,
                    write: true,
                },
                0,
            );
        }
        for now in 1..1000 {
            m.tick(now);
        }
        let s = m.stats();
        assert_eq!((s.l2_writes, s.dram_writes), (3, 1));
    }

    #[test]
    fn the_flat_model_accepts_one_request_per_interval() {
        let mut m = FlatMemory::new(1, 100, 4, 8, 100);
        for i in 0..3 {
            m.push(
                MemReq {
                    sm: 0,
                    line: i << 7,
                    write: false,
                },
                0,
            );
        }
        let mut back = Vec::new();
        for now in 1..400 {
            m.tick(now);
            while m.pop_return(0, now).is_some() {
                back.push(now);
            }
        }
        assert_eq!(back, vec![101, 105, 109]);
        assert_eq!(m.stats().accepted, 3);
    }
}
