//! Golden model of `ba_tag_array`, the bypass-aware L1 data cache tag array
//! (spec `ba_cache.md`).
//!
//! The model is written from the specification only, as plain Rust: a `Vec`
//! of sets, each a `Vec` of lines holding `valid`, `tag`, `reuse`, `bypass`
//! and an LRU rank (0 = most recently used). It is the reference the RTL is
//! checked against cycle for cycle.
//!
//! Timing (the unit document's "Latency" table): the request accepted at
//! edge *t* is decided against the state left by every earlier request,
//! updates the state at once (the model stays a sequential machine: the
//! request of edge *t + 1* sees it), and its response is on the outputs
//! during the cycle after edge *t + 1* (two cycles after the request). The
//! response waits one edge in [`BaModel::decided`]. A cycle without an
//! accepted request (no `req_valid`, or `reset` at that edge) gives all-zero
//! outputs two cycles later. A `reset` clears the response waiting too (a
//! request accepted one edge before a reset never answers); a `flush` does
//! not (the request was accepted before it).
//!
//! Decisions taken where the spec is silent (they are also what the RTL
//! does):
//! * `reset` clears every line completely (valid, tag, reuse, bypass, rank)
//!   and the response; a request or flush in a reset cycle is ignored.
//! * `flush` clears every line completely; a request in the same cycle is
//!   then processed against the empty array. A flush alone gives no response.
//! * `rsp_way`: the way found (HIT, PSEUDO_HIT, WRITE_EVICT), the filled way
//!   (MISS), the victim way (BYPASS), 0 for WRITE_MISS.
//! * `rsp_evict_valid` is 1 exactly when a valid line with `bypass = 0` was
//!   displaced; `rsp_evict_addr` is then its line address
//!   `(tag * SETS + set) * LINE_BYTES` (modulo 2^ADDR_W), else 0.
//! * Request addresses are taken modulo 2^ADDR_W.
//! * A line invalidated by WRITE_EVICT has all its fields cleared to 0, as
//!   after reset (not visible at the ports).
//!
//! Reservation (issue 27, `req_resv`; the unit document's section
//! "Reservation"): a reserved way is invisible to the choice of a way for a
//! load or prefetch fill whose tag is absent: it is neither an invalid way
//! to fill, nor a victim, nor counted by the reuse threshold. A bypass needs
//! no way (BYPASS with nothing stored when no way is free); an allocation
//! with no way free is RESV_FAIL and changes nothing. Hits and stores
//! ignore `req_resv`.

use ports::ba::{outcome, BaIn, BaOut, BaParams, BaTagArray};
use ports::{mask, Params};

use crate::model::{GoldenModel, GoldenUnit};

/// The state of one line (one way of one set) of the tag array.
///
/// An invalid line has every field 0 (reset, flush and WRITE_EVICT clear the
/// whole line); its `rank` carries no meaning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineState {
    /// The line holds a tag (with data, or as a bypass tag).
    pub valid: bool,
    /// Stored tag: `addr / (LINE_BYTES * SETS)`.
    pub tag: u64,
    /// The line was hit (HIT or PSEUDO_HIT) since its tag entered the set.
    pub reuse: bool,
    /// The tag was recorded for a bypassed request: no data is held.
    pub bypass: bool,
    /// LRU rank among the valid ways of the set; 0 = most recently used.
    pub rank: u64,
}

impl LineState {
    /// The line is valid and holds data (`bypass = 0`).
    pub fn holds_data(&self) -> bool {
        self.valid && !self.bypass
    }
}

/// Cycle-accurate golden model of `ba_tag_array`.
///
/// Build it with [`GoldenModel::new`] (or [`BaModel::with_params`]), read the
/// outputs of the current cycle with [`GoldenModel::outputs`] and advance one
/// clock edge with [`GoldenModel::step`]. The inspection helpers
/// ([`BaModel::line`], [`BaModel::valid_ways`], ...) only read the state.
#[derive(Clone, Debug)]
pub struct BaModel {
    /// The configuration the model was built for.
    params: BaParams,
    /// `sets[set][way]`: the tag array.
    sets: Vec<Vec<LineState>>,
    /// The response registers: the outputs during the current cycle.
    response: BaOut,
    /// The response of the request accepted at the last edge: the
    /// outputs after the next edge.
    decided: BaOut,
}

/// What a request decided, before it is written to the response registers.
struct Decision {
    outcome: u64,
    way: usize,
    /// Line address of the displaced line holding data, if any.
    evicted_addr: Option<u64>,
}

impl BaModel {
    /// A model in its reset state (every line invalid, outputs all 0).
    ///
    /// # Panics
    /// If `params` is not a configuration the generator accepts
    /// ([`Params::validate`] fails).
    pub fn with_params(params: &BaParams) -> Self {
        if let Err(e) = params.validate() {
            panic!("BaModel: invalid ba_tag_array configuration: {e}");
        }
        let sets = vec![vec![LineState::default(); params.WAYS as usize]; params.SETS as usize];
        BaModel {
            params: params.clone(),
            sets,
            response: BaOut::default(),
            decided: BaOut::default(),
        }
    }

    /// The response to the request accepted at the last edge (all zero if
    /// none): on the outputs during the cycle after the next edge.
    pub fn decided(&self) -> BaOut {
        self.decided
    }

    /// The configuration of this model.
    pub fn params(&self) -> &BaParams {
        &self.params
    }

    /// The state of line `way` of set `set`.
    ///
    /// # Panics
    /// If `set >= SETS` or `way >= WAYS`.
    pub fn line(&self, set: usize, way: usize) -> LineState {
        self.sets[set][way]
    }

    /// All the lines of set `set`, indexed by way.
    ///
    /// # Panics
    /// If `set >= SETS`.
    pub fn set_lines(&self, set: usize) -> &[LineState] {
        &self.sets[set]
    }

    /// Number of valid ways (data or bypass tags) in set `set`.
    ///
    /// # Panics
    /// If `set >= SETS`.
    pub fn valid_ways(&self, set: usize) -> usize {
        self.sets[set].iter().filter(|line| line.valid).count()
    }

    /// Number of valid lines (data or bypass tags) in the whole array.
    pub fn valid_lines(&self) -> usize {
        (0..self.sets.len()).map(|set| self.valid_ways(set)).sum()
    }

    /// Number of lines holding data (valid with `bypass = 0`) in the whole
    /// array.
    pub fn data_lines(&self) -> usize {
        self.sets
            .iter()
            .flatten()
            .filter(|line| line.holds_data())
            .count()
    }

    /// `(set index, tag)` of a byte address (taken modulo 2^ADDR_W), as the
    /// unit computes them.
    pub fn set_and_tag(&self, addr: u64) -> (usize, u64) {
        let addr = addr & mask(self.params.ADDR_W as u32);
        let line_number = addr / self.params.LINE_BYTES;
        let set = (line_number % self.params.SETS) as usize;
        let tag = line_number / self.params.SETS;
        (set, tag)
    }

    /// Line address (offset bits zero, modulo 2^ADDR_W) of the line with tag
    /// `tag` in set `set`: `(tag * SETS + set) * LINE_BYTES`.
    pub fn line_addr(&self, set: usize, tag: u64) -> u64 {
        let line_number = tag * self.params.SETS + set as u64;
        (line_number * self.params.LINE_BYTES) & mask(self.params.ADDR_W as u32)
    }

    /// The way of the set of `addr` whose valid tag matches `addr` (a data
    /// line or a bypass tag), if any. Read-only: no LRU update.
    pub fn lookup(&self, addr: u64) -> Option<usize> {
        let (set, tag) = self.set_and_tag(addr);
        self.find_tag(set, tag)
    }

    /// The line of `addr` is in the array and holds data (a load of it now
    /// would be a HIT).
    pub fn holds_data(&self, addr: u64) -> bool {
        let (set, _) = self.set_and_tag(addr);
        match self.lookup(addr) {
            Some(way) => self.sets[set][way].holds_data(),
            None => false,
        }
    }

    /// Lowest-numbered valid way of `set` with tag `tag`.
    fn find_tag(&self, set: usize, tag: u64) -> Option<usize> {
        self.sets[set]
            .iter()
            .position(|line| line.valid && line.tag == tag)
    }

    /// Clear every line to its reset value.
    fn clear_all_lines(&mut self) {
        for set in &mut self.sets {
            for line in set.iter_mut() {
                *line = LineState::default();
            }
        }
    }

    /// Decide a request against the current state and update the state.
    /// `resv`: the request's reserved-way mask (bit i = way i).
    fn process_request(&mut self, addr: u64, write: bool, prefetch: bool, resv: u64) -> Decision {
        let (set_index, tag) = self.set_and_tag(addr);
        let hit_way = self.find_tag(set_index, tag);
        // `free[way]`: the way is not reserved (WAYS <= 32: on the stack,
        // no allocation per request).
        let mut ways = [false; 32];
        for (way, f) in ways.iter_mut().enumerate() {
            *f = (resv >> way) & 1 == 0;
        }
        let free = &ways[..self.params.WAYS as usize];
        if write {
            // A write to a reserved line is a write miss (GPGPU-Sim's
            // `data_cache`: only a HIT takes the write-hit path): the line
            // in flight stays.
            self.process_store(set_index, hit_way.filter(|&way| free[way]))
        } else if prefetch {
            self.process_prefetch(set_index, tag, hit_way, free)
        } else {
            self.process_load(set_index, tag, hit_way, free)
        }
    }

    /// The lowest-numbered invalid way of the set that is not reserved.
    fn first_free_invalid(&self, set_index: usize, free: &[bool]) -> Option<usize> {
        self.sets[set_index]
            .iter()
            .enumerate()
            .position(|(way, line)| !line.valid && free[way])
    }

    /// The answer to a request that must allocate into a set whose every
    /// way is reserved: nothing changes.
    fn reservation_fail() -> Decision {
        Decision {
            outcome: outcome::RESV_FAIL,
            way: 0,
            evicted_addr: None,
        }
    }

    /// Prefetch fills (the unit document's rules P1 to P4): a prefetch is
    /// not a use, so it never sets `reuse`, and it always leaves the line
    /// holding data.
    fn process_prefetch(
        &mut self,
        set_index: usize,
        tag: u64,
        hit_way: Option<usize>,
        free: &[bool],
    ) -> Decision {
        if let Some(way) = hit_way {
            let set = &mut self.sets[set_index];
            if !set[way].bypass {
                // P1: the data is already there; nothing changes.
                return Decision {
                    outcome: outcome::HIT,
                    way,
                    evicted_addr: None,
                };
            }
            // P2: a bypass tag becomes a line with data; reuse unchanged.
            make_most_recent(set, way);
            set[way].bypass = false;
            return Decision {
                outcome: outcome::PSEUDO_HIT,
                way,
                evicted_addr: None,
            };
        }
        // P3 and P4: allocate, in a full set over rule 4's victim (plain LRU
        // with BA_ENABLE = 0), never as a bypass tag; never into a reserved
        // way (a fully reserved set drops the prefetch: RESV_FAIL).
        let way = match self.first_free_invalid(set_index, free) {
            Some(way) => way,
            None => match self.victim(set_index, free) {
                Some(way) => way,
                None => return Self::reservation_fail(),
            },
        };
        Decision {
            outcome: outcome::MISS,
            way,
            evicted_addr: self.install(set_index, way, tag, false),
        }
    }

    /// Put `tag` into way `way` of the set as a new, most recently used
    /// line (`reuse = 0`, `bypass` as given); returns the line address of
    /// the line it displaced if that held data.
    fn install(&mut self, set_index: usize, way: usize, tag: u64, bypass: bool) -> Option<u64> {
        let old = self.sets[set_index][way];
        let evicted_addr = old.holds_data().then(|| self.line_addr(set_index, old.tag));
        let set = &mut self.sets[set_index];
        make_most_recent(set, way);
        set[way] = LineState {
            valid: true,
            tag,
            reuse: false,
            bypass,
            rank: 0,
        };
        evicted_addr
    }

    /// The victim of a set with no free invalid way, among the ways not
    /// reserved (`free[way]`): rule 4's choice from the reuse bits with
    /// `BA_ENABLE = 1` (the threshold counts the never-reused ways that are
    /// not reserved), the least recently used such way with `BA_ENABLE = 0`.
    /// `None` when every valid way is reserved.
    fn victim(&self, set_index: usize, free: &[bool]) -> Option<usize> {
        let set = &self.sets[set_index];
        let z = self.not_reused_free(set_index, free) as u64;
        let lru_of = |group: &dyn Fn(usize, &LineState) -> bool| {
            least_recent_where(set, |way, line| free[way] && group(way, line))
        };
        if self.params.BA_ENABLE != 0 {
            let threshold = self.params.reuse_threshold();
            if z >= threshold && z > 0 {
                lru_of(&|_, line| !line.reuse)
            } else {
                lru_of(&|_, line| line.reuse).or_else(|| lru_of(&|_, _| true))
            }
        } else {
            lru_of(&|_, _| true)
        }
    }

    /// *Z*: the number of valid, never-reused ways of the set that are not
    /// reserved.
    fn not_reused_free(&self, set_index: usize, free: &[bool]) -> usize {
        self.sets[set_index]
            .iter()
            .enumerate()
            .filter(|&(way, line)| line.valid && !line.reuse && free[way])
            .count()
    }

    /// Stores: write-through, write-evict, no write-allocate (rules 5, 6).
    fn process_store(&mut self, set_index: usize, hit_way: Option<usize>) -> Decision {
        match hit_way {
            Some(way) => {
                let old = self.sets[set_index][way];
                let evicted_addr = old.holds_data().then(|| self.line_addr(set_index, old.tag));
                remove_from_lru(&mut self.sets[set_index], way);
                Decision {
                    outcome: outcome::WRITE_EVICT,
                    way,
                    evicted_addr,
                }
            }
            None => Decision {
                outcome: outcome::WRITE_MISS,
                way: 0,
                evicted_addr: None,
            },
        }
    }

    /// Loads (rules 1 to 4).
    fn process_load(
        &mut self,
        set_index: usize,
        tag: u64,
        hit_way: Option<usize>,
        free: &[bool],
    ) -> Decision {
        let ba_enable = self.params.BA_ENABLE != 0;

        // Rules 1 and 2: tag present.
        if let Some(way) = hit_way {
            let set = &mut self.sets[set_index];
            let was_bypass = set[way].bypass;
            make_most_recent(set, way);
            set[way].reuse = true;
            set[way].bypass = false;
            let outcome = if was_bypass {
                outcome::PSEUDO_HIT
            } else {
                outcome::HIT
            };
            return Decision {
                outcome,
                way,
                evicted_addr: None,
            };
        }

        // Rule 3: tag absent, an invalid way exists (and is not reserved).
        if let Some(way) = self.first_free_invalid(set_index, free) {
            self.install(set_index, way, tag, false);
            return Decision {
                outcome: outcome::MISS,
                way,
                evicted_addr: None,
            };
        }

        // The set is full. Rule 4 (BA_ENABLE = 1): BYPASS over the victim
        // chosen from the reuse bits; rule 3 (BA_ENABLE = 0): MISS replacing
        // the least recently used way. The second reading (BA_POLICY = 1,
        // rules Q3 and Q4): a line never reused is free to be replaced, so
        // the set bypasses only when every line was reused. Reserved ways
        // are not part of the set here: they are never victims, and a line
        // in flight is not "free to be replaced" (Q3). A bypass needs no
        // way: with every way reserved it stores nothing; an allocation
        // with every way reserved is a reservation fail.
        let replaceable = self.params.BA_POLICY == 1 && self.not_reused_free(set_index, free) > 0;
        let (outcome, new_bypass) = if ba_enable && !replaceable {
            (outcome::BYPASS, true)
        } else {
            (outcome::MISS, false)
        };
        let Some(victim) = self.victim(set_index, free) else {
            if outcome == outcome::BYPASS {
                return Decision {
                    outcome,
                    way: 0,
                    evicted_addr: None,
                };
            }
            return Self::reservation_fail();
        };
        Decision {
            outcome,
            way: victim,
            evicted_addr: self.install(set_index, victim, tag, new_bypass),
        }
    }
}

/// Make way `way` the most recently used of its set: every valid way ranked
/// before it (every valid way, if `way` is invalid) gains one; `way` gets
/// rank 0.
fn make_most_recent(set: &mut [LineState], way: usize) {
    let old_rank = if set[way].valid {
        Some(set[way].rank)
    } else {
        None
    };
    for (other, line) in set.iter_mut().enumerate() {
        if other == way || !line.valid {
            continue;
        }
        let ranked_before = match old_rank {
            Some(rank) => line.rank < rank,
            None => true,
        };
        if ranked_before {
            line.rank += 1;
        }
    }
    set[way].rank = 0;
}

/// Invalidate way `way` (every field cleared); valid ways ranked after it
/// lose one, so the ranks of the valid ways stay a permutation.
fn remove_from_lru(set: &mut [LineState], way: usize) {
    let old_rank = set[way].rank;
    for (other, line) in set.iter_mut().enumerate() {
        if other != way && line.valid && line.rank > old_rank {
            line.rank -= 1;
        }
    }
    set[way] = LineState::default();
}

/// The least recently used (largest rank) valid way among those satisfying
/// `in_group`; the lowest-numbered one on a tie (ties cannot arise when the
/// ranks are a permutation).
fn least_recent_where(
    set: &[LineState],
    in_group: impl Fn(usize, &LineState) -> bool,
) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (way, line) in set.iter().enumerate() {
        if !line.valid || !in_group(way, line) {
            continue;
        }
        match best {
            Some(b) if set[b].rank >= line.rank => {}
            _ => best = Some(way),
        }
    }
    best
}

impl GoldenUnit for BaTagArray {
    type Model = BaModel;
}

impl GoldenModel<BaTagArray> for BaModel {
    fn new(params: &BaParams) -> Self {
        BaModel::with_params(params)
    }

    fn outputs(&self) -> BaOut {
        self.response
    }

    fn step(&mut self, inputs: &BaIn) {
        if inputs.reset {
            self.clear_all_lines();
            self.response = BaOut::default();
            self.decided = BaOut::default();
            return;
        }
        self.response = self.decided;
        if inputs.flush {
            self.clear_all_lines();
        }
        self.decided = if inputs.req_valid {
            let decision = self.process_request(
                inputs.req_addr,
                inputs.req_write,
                inputs.req_prefetch,
                inputs.req_resv,
            );
            BaOut {
                rsp_valid: true,
                rsp_outcome: decision.outcome,
                rsp_way: decision.way as u64,
                rsp_evict_valid: decision.evicted_addr.is_some(),
                rsp_evict_addr: decision.evicted_addr.unwrap_or(0),
            }
        } else {
            BaOut::default()
        };
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_resv;
