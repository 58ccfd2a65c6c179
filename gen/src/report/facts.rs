//! What the papers state of a unit that its report prints beside the
//! measurements, read from the unit's declaration (`cosim::CosimUnit`):
//! the latency claim, the area figure, which storage table each memory
//! module holds and which tables stay flip-flops.

use cosim::{CosimUnit, Latency, LatencyClaim, PaperArea};

/// A unit's paper figures for its report ([`UnitFacts::of`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitFacts {
    /// `cosim::CosimUnit::LATENCY_CLAIM`.
    pub latency_claim: Option<LatencyClaim>,
    /// `cosim::CosimUnit::LATENCIES`: the unit's latency table.
    pub latencies: &'static [Latency],
    /// `cosim::CosimUnit::PAPER_AREA`.
    pub paper_area: Option<PaperArea>,
    /// `cosim::CosimUnit::MEMORY_TABLES`: (module name prefix after
    /// `<unit>__`, table).
    pub memory_tables: &'static [(&'static str, &'static str)],
    /// `cosim::CosimUnit::FLIP_FLOP_TABLES`: (table, why flip-flops).
    pub flip_flop_tables: &'static [(&'static str, &'static str)],
}

impl UnitFacts {
    /// What `U` declares.
    pub fn of<U: CosimUnit>() -> Self {
        UnitFacts {
            latency_claim: U::LATENCY_CLAIM,
            latencies: U::LATENCIES,
            paper_area: U::PAPER_AREA,
            memory_tables: U::MEMORY_TABLES,
            flip_flop_tables: U::FLIP_FLOP_TABLES,
        }
    }

    /// The storage table memory module `module` of unit `unit` holds (the
    /// first whose prefix it starts with), or `?`.
    pub fn table_of(&self, unit: &str, module: &str) -> String {
        self.memory_tables
            .iter()
            .find(|(p, _)| {
                module
                    .strip_prefix(unit)
                    .and_then(|m| m.strip_prefix("__"))
                    .is_some_and(|m| m.starts_with(p))
            })
            .map_or("?".to_string(), |(_, t)| (*t).to_string())
    }
}
