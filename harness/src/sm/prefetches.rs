//! The prefetcher in its role slot and the SM's book of its prefetches
//! ([`Prefetches`]): each line prefetched until it is used or evicted, and
//! the figures kept on them.

use std::collections::HashMap;

use crate::hash::FxBuild;
use crate::metrics::PrefetchMetrics;
use crate::roles::PrefetcherRole;

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
    /// The prefetcher has offered a prefetch (told to the L1 once).
    pub(super) trained: bool,
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
            trained: false,
            m: PrefetchMetrics::default(),
            distance_sum: 0,
        }
    }
}
