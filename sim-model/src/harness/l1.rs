//! The L1 tag array seen by the harness: its own LRU array, or
//! `ba_tag_array`'s golden model. Both follow the unit's port timing: a
//! request made in a cycle is decided against the state at the start of
//! the cycle, updates the state at the edge, and its response is read
//! during the next cycle.

use ports::ba::{outcome, BaIn, BaOut, BaParams, BaTagArray};

use super::lockstep::{Lockstep, StimulusWriter};
use crate::ba::BaModel;
use crate::GoldenModel;

/// The harness' own LRU tag array: allocate on a load miss (lowest invalid
/// way, else the least recently used), write-evict on a store hit. Its
/// decisions are those of `ba_tag_array` with `BA_ENABLE = 0`.
pub(crate) struct LruTags {
    sets: usize,
    ways: usize,
    line_shift: u32,
    /// `tags[set * ways + way]`: line number + 1 (0 = invalid).
    tags: Vec<u64>,
    /// Last-use stamp per way (larger = more recent).
    stamp: Vec<u64>,
    clock: u64,
    pending: Option<(u64, bool)>,
    rsp: BaOut,
}

impl LruTags {
    pub(crate) fn new(sets: usize, ways: usize, line_bytes: u32) -> Self {
        LruTags {
            sets,
            ways,
            line_shift: line_bytes.trailing_zeros(),
            tags: vec![0; sets * ways],
            stamp: vec![0; sets * ways],
            clock: 0,
            pending: None,
            rsp: BaOut::default(),
        }
    }

    #[inline]
    fn find(&self, addr: u64) -> (usize, Option<usize>) {
        let ln = (addr & 0xFFFF_FFFF) >> self.line_shift;
        let set = (ln % self.sets as u64) as usize;
        let base = set * self.ways;
        let key = ln + 1;
        let way = self.tags[base..base + self.ways]
            .iter()
            .position(|&t| t == key);
        (set, way)
    }

    fn holds_data(&self, addr: u64) -> bool {
        self.find(addr).1.is_some()
    }

    fn apply(&mut self, addr: u64, write: bool) -> BaOut {
        let (set, way) = self.find(addr);
        let base = set * self.ways;
        let ln = (addr & 0xFFFF_FFFF) >> self.line_shift;
        self.clock += 1;
        match (write, way) {
            (false, Some(w)) => {
                self.stamp[base + w] = self.clock;
                BaOut {
                    rsp_valid: true,
                    rsp_outcome: outcome::HIT,
                    rsp_way: w as u64,
                    ..BaOut::default()
                }
            }
            (false, None) => {
                let slots = &self.tags[base..base + self.ways];
                let (w, evict) = match slots.iter().position(|&t| t == 0) {
                    Some(w) => (w, None),
                    None => {
                        let w = (0..self.ways)
                            .min_by_key(|&w| self.stamp[base + w])
                            .unwrap_or(0);
                        (w, Some((self.tags[base + w] - 1) << self.line_shift))
                    }
                };
                self.tags[base + w] = ln + 1;
                self.stamp[base + w] = self.clock;
                BaOut {
                    rsp_valid: true,
                    rsp_outcome: outcome::MISS,
                    rsp_way: w as u64,
                    rsp_evict_valid: evict.is_some(),
                    rsp_evict_addr: evict.unwrap_or(0),
                }
            }
            (true, Some(w)) => {
                let old = self.tags[base + w];
                self.tags[base + w] = 0;
                self.stamp[base + w] = 0;
                BaOut {
                    rsp_valid: true,
                    rsp_outcome: outcome::WRITE_EVICT,
                    rsp_way: w as u64,
                    rsp_evict_valid: true,
                    rsp_evict_addr: (old - 1) << self.line_shift,
                }
            }
            (true, None) => BaOut {
                rsp_valid: true,
                rsp_outcome: outcome::WRITE_MISS,
                ..BaOut::default()
            },
        }
    }
}

/// The golden model of `ba_tag_array` with its per-cycle inputs, lock-step
/// hook and recorder.
pub(crate) struct BaTags {
    pub(crate) model: BaModel,
    input: BaIn,
    pub(crate) lockstep: Option<Box<dyn Lockstep<BaTagArray>>>,
    pub(crate) recorder: Option<StimulusWriter<BaTagArray>>,
}

/// The L1 tag array.
pub(crate) enum L1Tags {
    Lru(LruTags),
    Ba(Box<BaTags>),
}

impl L1Tags {
    pub(crate) fn lru(sets: usize, ways: usize, line_bytes: u32) -> Self {
        L1Tags::Lru(LruTags::new(sets, ways, line_bytes))
    }

    pub(crate) fn ba(
        params: &BaParams,
        lockstep: Option<Box<dyn Lockstep<BaTagArray>>>,
        recorder: Option<StimulusWriter<BaTagArray>>,
    ) -> Self {
        L1Tags::Ba(Box::new(BaTags {
            model: BaModel::new(params),
            input: BaIn::default(),
            lockstep,
            recorder,
        }))
    }

    /// A load of `addr` now would hit (the tag is present and holds data).
    #[inline]
    pub(crate) fn holds_data(&self, addr: u64) -> bool {
        match self {
            L1Tags::Lru(t) => t.holds_data(addr),
            L1Tags::Ba(b) => b.model.holds_data(addr),
        }
    }

    /// Make a request this cycle (at most one per cycle).
    #[inline]
    pub(crate) fn request(&mut self, addr: u64, write: bool) {
        match self {
            L1Tags::Lru(t) => t.pending = Some((addr, write)),
            L1Tags::Ba(b) => {
                b.input.req_valid = true;
                b.input.req_addr = addr & 0xFFFF_FFFF;
                b.input.req_write = write;
            }
        }
    }

    /// The response during this cycle (to the previous cycle's request).
    #[inline]
    pub(crate) fn response(&self) -> BaOut {
        match self {
            L1Tags::Lru(t) => t.rsp,
            L1Tags::Ba(b) => b.model.outputs(),
        }
    }

    /// Whether the tag array must be stepped every cycle.
    pub(crate) fn is_model(&self) -> bool {
        matches!(self, L1Tags::Ba(_))
    }

    /// The clock edge. `reset` is the reset input of this cycle. An error
    /// is the lock-step hook's message.
    #[inline]
    pub(crate) fn step(&mut self, reset: bool) -> Result<(), String> {
        match self {
            L1Tags::Lru(t) => {
                t.rsp = match t.pending.take() {
                    Some((a, w)) if !reset => t.apply(a, w),
                    _ => BaOut::default(),
                };
                Ok(())
            }
            L1Tags::Ba(b) => {
                b.input.reset = reset;
                let golden = b.model.outputs();
                if let Some(ls) = b.lockstep.as_mut() {
                    ls.cycle(&b.input, &golden)?;
                }
                if let Some(rec) = b.recorder.as_mut() {
                    rec.record(&b.input, &golden)
                        .map_err(|e| format!("writing the ba_tag_array stimulus: {e}"))?;
                }
                b.model.step(&b.input);
                b.input = BaIn::default();
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ports::ba::BaParams;

    /// The native LRU array decides exactly like the BA model with
    /// `BA_ENABLE = 0`.
    #[test]
    fn lru_matches_ba_model_without_bypass() {
        let p = BaParams {
            SETS: 4,
            WAYS: 2,
            BA_ENABLE: 0,
            ..BaParams::default()
        };
        let mut a = L1Tags::lru(4, 2, 128);
        let mut b = L1Tags::ba(&p, None, None);
        let mut x = 12345u64;
        for _ in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let addr = 0xC000_0000 + ((x >> 33) % 24) * 128;
            let write = (x >> 20).is_multiple_of(5);
            assert_eq!(a.holds_data(addr), b.holds_data(addr));
            a.request(addr, write);
            b.request(addr, write);
            a.step(false).unwrap();
            b.step(false).unwrap();
            let (ra, rb) = (a.response(), b.response());
            assert_eq!(ra.rsp_outcome, rb.rsp_outcome);
            assert_eq!(ra.rsp_evict_valid, rb.rsp_evict_valid);
            assert_eq!(ra.rsp_evict_addr, rb.rsp_evict_addr);
        }
    }
}
