//! A unit's own event counters, as its role adapter reports them and the
//! run's metrics carry them (a leaf: the roles and the metrics both use
//! it).

use serde::ser::SerializeMap;
use serde::Serialize;

/// A unit's own event counters (in the unit's order) and the line the
/// metrics table prints for them; filled by the unit's role adapter.
///
/// Serialized as a map with one entry, the unit's key mapped to its
/// counters (nothing when `key` is empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// The unit's override key (`HarnessUnit::KEY`): the JSON field name.
    pub key: &'static str,
    /// The table row's label (`CAPS`).
    pub label: &'static str,
    /// The counters, by name, in the unit's order.
    pub counters: Vec<(&'static str, u64)>,
    /// The table row's text.
    pub summary: String,
}

impl UnitCounts {
    /// The counter `name`, if the unit has it.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.counters
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }
}

/// The counters as an ordered JSON object.
struct Ordered<'a>(&'a [(&'static str, u64)]);

impl Serialize for Ordered<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl Serialize for UnitCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let empty = self.key.is_empty();
        let mut m = s.serialize_map(Some(usize::from(!empty)))?;
        if !empty {
            m.serialize_entry(self.key, &Ordered(&self.counters))?;
        }
        m.end()
    }
}
