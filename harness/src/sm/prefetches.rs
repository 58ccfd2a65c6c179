//! The prefetcher in its role slot and the SM's book of its prefetches
//! ([`Prefetches`]): each line prefetched until it is used or evicted, and
//! the figures kept on them; the lines of an offer ([`offer_lines`]), which
//! the L1 port (`sm/l1_port.rs`) hands to the L1.
//!
//! **Footprints.** An offer with a span (Snake's `pf_span`,
//! [`PrefetchOffer::span`]) covers the lines of `[addr, addr + span]`
//! (the L1's lines, modulo 2^32). The SM hands them to the L1 one line per
//! port cycle, lowest first, each a prefetch request of its own (issued, or
//! dropped when present or in flight, and counted as such), all for the
//! offer's warp; the unit's offer stays offered meanwhile and is accepted
//! (`pf_ready`) in the cycle its last line is handed over, so the next
//! offer is taken only then. A footprint of more than `snake_span_lines`
//! lines (machine key) prefetches its first line only. An offer without a
//! span (CAPS, the baselines) is one line, accepted at once, as before.
//! The cursor is the SM's small pending list: the offer it walks and the
//! next line; an offer that changes under it (a reset) starts afresh.

use std::collections::{HashMap, HashSet};

use crate::hash::FxBuild;
use crate::metrics::PrefetchMetrics;
use crate::roles::{PrefetchOffer, PrefetcherRole};

/// A prefetched line not used yet.
pub(super) struct PfInfo {
    /// Cycle issued.
    pub(super) issued: u64,
    pub(super) in_flight: bool,
    /// The kernel array of the line.
    pub(super) array: Option<usize>,
}

/// The prefetcher and its prefetches.
pub(super) struct Prefetches {
    /// The prefetcher (`None`: no prefetching).
    pub(super) unit: Option<Box<dyn PrefetcherRole>>,
    /// The lines prefetched and not used yet.
    pub(super) lines: HashMap<u64, PfInfo, FxBuild>,
    /// Prefetched lines evicted unused that no demand has asked for since
    /// (a later demand counts `early_evicted_demanded`).
    pub(super) evicted_unused: HashSet<u64, FxBuild>,
    /// The decoupled L1's cap until trained has been lifted (told to the
    /// L1 once; `sm/cycle.rs`).
    pub(super) cap_lifted: bool,
    /// The cycle of the SM's first demand load (the cap's clock).
    pub(super) first_load: Option<u64>,
    /// The offer whose lines are being handed to the L1.
    pub(super) cursor: SpanCursor,
    pub(super) m: PrefetchMetrics,
    /// Sum over used prefetches of the cycles from issue to use.
    pub(super) distance_sum: u64,
}

impl Prefetches {
    /// The book of `unit`'s prefetches.
    pub(super) fn new(unit: Option<Box<dyn PrefetcherRole>>) -> Prefetches {
        Prefetches {
            unit,
            lines: HashMap::default(),
            evicted_unused: HashSet::default(),
            cap_lifted: false,
            first_load: None,
            cursor: SpanCursor::default(),
            m: PrefetchMetrics::default(),
            distance_sum: 0,
        }
    }
}

/// The SM's pending list of an offer's lines: the offer being handed to
/// the L1 and the index of its next line (module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SpanCursor {
    walking: Option<(PrefetchOffer, u32)>,
}

/// The line to hand to the L1 this cycle ([`SpanCursor::next`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SpanLine {
    /// Line address.
    pub(super) line: u64,
    /// It is the offer's last line: the offer is accepted with it.
    pub(super) last: bool,
    /// The offer covers several lines.
    pub(super) several: bool,
    /// The offer's footprint was over the cap (first line only).
    pub(super) capped: bool,
}

impl SpanCursor {
    /// The line of `offer` to hand to the L1 this cycle (lines of
    /// `line_bytes`, at most `max_lines`); an offer other than the one
    /// being walked starts at its first line.
    pub(super) fn next(
        &mut self,
        offer: PrefetchOffer,
        line_bytes: u32,
        max_lines: u32,
    ) -> SpanLine {
        let (first, n, capped) = offer_lines(&offer, line_bytes, max_lines);
        let k = match self.walking {
            Some((o, k)) if o == offer => k,
            _ => 0,
        };
        self.walking = Some((offer, k));
        SpanLine {
            line: first.wrapping_add(k as u64 * line_bytes as u64) & 0xFFFF_FFFF,
            last: k + 1 >= n,
            several: n > 1,
            capped,
        }
    }

    /// The L1 took the line [`Self::next`] gave (the offer is done after
    /// its last line).
    pub(super) fn taken(&mut self, l: SpanLine) {
        match (&mut self.walking, l.last) {
            (Some((_, k)), false) => *k += 1,
            _ => self.walking = None,
        }
    }

    /// No offer this cycle.
    pub(super) fn clear(&mut self) {
        self.walking = None;
    }
}

/// The lines an offer covers (module documentation): its first line and
/// how many, and whether its footprint was over `max_lines`.
pub(super) fn offer_lines(o: &PrefetchOffer, line_bytes: u32, max_lines: u32) -> (u64, u32, bool) {
    let lb = line_bytes as u64;
    let first = o.addr & 0xFFFF_FFFF & !(lb - 1);
    let last = o.addr.wrapping_add(o.span as u64) & 0xFFFF_FFFF & !(lb - 1);
    let n = if last >= first {
        (last - first) / lb + 1
    } else {
        1 // across the 2^32 wrap: the first line only
    };
    if n > max_lines as u64 {
        (first, 1, true)
    } else {
        (first, n as u32, false)
    }
}

#[cfg(test)]
mod tests {
    use super::{offer_lines, SpanCursor};
    use crate::roles::{PrefetchOffer, WarpRef};

    fn lines(addr: u64, span: u32, max: u32) -> (u64, u32, bool) {
        let o = PrefetchOffer {
            addr,
            warp: WarpRef::Sm(0),
            span,
        };
        offer_lines(&o, 128, max)
    }

    #[test]
    fn a_footprint_is_every_line_it_touches_up_to_the_cap() {
        assert_eq!(lines(0x1010, 0, 4), (0x1000, 1, false));
        // 32 lanes of 4 bytes from a line boundary: one line.
        assert_eq!(lines(0x1000, 124, 4), (0x1000, 1, false));
        // ... from mid-line: two.
        assert_eq!(lines(0x1040, 124, 4), (0x1000, 2, false));
        // 32 lanes of 16 bytes: [0x1000, 0x11F0] is four lines.
        assert_eq!(lines(0x1000, 496, 4), (0x1000, 4, false));
        assert_eq!(lines(0x1008, 496, 4), (0x1000, 4, false));
        assert_eq!(lines(0x1010, 496, 4), (0x1000, 1, true));
        // Five lines with a cap of four: the first line only.
        assert_eq!(lines(0x1040, 496, 4), (0x1000, 1, true));
        assert_eq!(lines(0x1040, 496, 5), (0x1000, 5, false));
        assert_eq!(lines(0x1000, 4095, 32), (0x1000, 32, false));
        assert_eq!(lines(0x1000, 4095, 31), (0x1000, 1, true));
        // Across the 2^32 wrap: the first line.
        assert_eq!(lines(0xFFFF_FF00, 0x100, 4).1, 1);
        assert_eq!(lines(0xFFFF_FFC0, 0x100, 4), (0xFFFF_FF80, 1, false));
    }

    #[test]
    fn the_cursor_hands_one_line_per_taken_cycle_and_finishes_with_the_last() {
        use crate::roles::{PrefetchOffer, WarpRef};
        let o = |addr: u64, span: u32| PrefetchOffer {
            addr,
            warp: WarpRef::Sm(5),
            span,
        };
        let mut c = SpanCursor::default();
        let a = o(0x2040, 300); // [0x2040, 0x216C]: lines 0x2000, 0x2080, 0x2100
        let l = c.next(a, 128, 4);
        assert_eq!(
            (l.line, l.last, l.several, l.capped),
            (0x2000, false, true, false)
        );
        // Not taken (no MSHR): the same line again.
        assert_eq!(c.next(a, 128, 4).line, 0x2000);
        c.taken(l);
        let l = c.next(a, 128, 4);
        assert_eq!((l.line, l.last), (0x2080, false));
        c.taken(l);
        let l = c.next(a, 128, 4);
        assert_eq!((l.line, l.last), (0x2100, true));
        c.taken(l);
        // The unit offers the same prefetch again: a new offer, from its
        // first line.
        assert_eq!(c.next(a, 128, 4).line, 0x2000);
        // An offer that changes under the cursor starts afresh.
        let b = o(0x9000, 0);
        let l = c.next(b, 128, 4);
        assert_eq!((l.line, l.last, l.several), (0x9000, true, false));
        // Over the cap: one line, the last.
        let l = c.next(a, 128, 2);
        assert_eq!((l.line, l.last, l.capped), (0x2000, true, true));
    }
}
