//! A paper's handle ([`Paper`]): its short name, by which the command line
//! (`--paper caps`), the run ids and the claims name it. The papers
//! themselves are [`crate::reproduce::experiment::ReproducedPaper`]s,
//! listed in [`crate::reproduce::registry`].

use serde::{Serialize, Serializer};

/// A paper of the reproduction, by its short name.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Paper(&'static str);

impl Paper {
    /// The paper named `name` (`caps`).
    pub const fn new(name: &'static str) -> Self {
        Paper(name)
    }

    /// Short name (`caps`).
    pub fn name(self) -> &'static str {
        self.0
    }

    /// The name capitalised (`catt`: `Catt`), as `claims.json` and `{:?}`
    /// spell it.
    pub fn capitalised(self) -> String {
        let mut c = self.0.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    }
}

impl std::fmt::Debug for Paper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.capitalised())
    }
}

impl Serialize for Paper {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.capitalised())
    }
}
