//! DAC's early requests and line locks (see `dac_side`): the unit's early
//! request taken at a free L1 port (fetched if absent, locked in the tag
//! array unless its set is nearly all locked), and a decoupled load's
//! records releasing their locks when its lines reach the L1.

use super::dac_side::DacSide;
use super::l1_side::Access;
use super::state::Sm;

impl Sm<'_, DacSide> {
    /// Where `line` is before a demand request: 0 present, 1 in flight, 2
    /// absent (DAC's timeliness).
    pub(super) fn dac_line_state(&self, line: u64) -> u8 {
        if self.l1.find_mshr(line).is_some() {
            1
        } else if self.l1.tags.holds_data(line) {
            0
        } else {
            2
        }
    }

    /// Line `i` of the load/store unit's decoupled load reached the L1
    /// (`state`: where its line was just before: 0 present, 1 in flight, 2
    /// absent): count its timeliness and release its records' locks.
    pub(super) fn dac_demand_served(&mut self, i: usize, state: u8) {
        let line = self.ldst.lines[i];
        let d = &mut self.xp;
        if !d.ldst_data {
            return;
        }
        match state {
            0 => d.m.decoupled_hits += 1,
            1 => d.m.decoupled_pending += 1,
            _ => d.m.decoupled_misses += 1,
        }
        // Records whose early request went unlocked release nothing.
        let mut k = d.ldst_records[i] as u64;
        if let Some(n) = d.unlocked.get_mut(&line) {
            let take = k.min(*n);
            *n -= take;
            k -= take;
            if *n == 0 {
                d.unlocked.remove(&line);
            }
        }
        if k > 0 {
            self.dac_lock(line, -(k as i64));
        }
    }

    /// Change `line`'s lock count by `delta`: pinned in the tag array while
    /// it is above zero.
    fn dac_lock(&mut self, line: u64, delta: i64) {
        let sets = self.cfg.l1_sets() as u64;
        let shift = self.cfg.l1_line.trailing_zeros();
        let set = ((line >> shift) % sets) as usize;
        let d = &mut self.xp;
        let old = d.locks.get(&line).copied().unwrap_or(0);
        let new = old + delta;
        if new == 0 {
            d.locks.remove(&line);
        } else {
            d.locks.insert(line, new);
        }
        if old <= 0 && new > 0 {
            d.set_locked[set] += 1;
            d.locked_lines += 1;
            d.m.max_locked_lines = d.m.max_locked_lines.max(d.locked_lines);
            self.l1.tags.set_locked(line, true);
        } else if old > 0 && new <= 0 {
            d.set_locked[set] -= 1;
            d.locked_lines -= 1;
            self.l1.tags.set_locked(line, false);
        }
    }

    /// The L1 port is free this cycle: take the unit's early request if it
    /// can be. Returns whether the port was used.
    pub(super) fn dac_early(&mut self) -> bool {
        let d = &mut self.xp;
        let Some(addr) = d.unit.early_request() else {
            return false;
        };
        let line = addr & self.line_mask & 0xFFFF_FFFF;
        let sets = self.cfg.l1_sets() as u64;
        let set = ((line >> self.cfg.l1_line.trailing_zeros()) % sets) as usize;
        // A request that would pin one more line in a set that already
        // has `ways - 1` pinned goes unlocked: waiting for room could
        // deadlock (a warp's own records may need more locks in one set,
        // and only its access, after its last record, releases them).
        let pins = d.locks.get(&line).copied().unwrap_or(0) == 0;
        let lock = !(pins && d.set_locked[set] + 1 >= self.cfg.l1_ways);
        let in_flight = self.l1.find_mshr(line).is_some();
        let present = !in_flight && self.l1.tags.holds_data(line);
        let d = &mut self.xp;
        if in_flight {
            d.m.early_in_flight += 1;
        } else if present {
            d.m.early_present += 1;
        } else {
            if self.l1.mshrs_full() || !self.mem.borrow().room(self.port) {
                d.m.early_stall_cycles += 1;
                return false;
            }
            d.m.early_misses += 1;
            self.l1.alloc_mshr(line, self.now);
            self.mem_push(line, false, false);
        }
        let d = &mut self.xp;
        d.m.early_requests += 1;
        d.unit.accept_early();
        if lock {
            self.dac_lock(line, 1);
        } else {
            d.m.unlocked_requests += 1;
            *d.unlocked.entry(line).or_insert(0) += 1;
        }
        self.l1.tags.request(line, false);
        self.l1.last_access = Some(Access::Early);
        true
    }
}
