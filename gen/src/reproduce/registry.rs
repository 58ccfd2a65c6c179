//! The papers of the reproduction, in report order: a new paper is its
//! module (`reproduce/<paper>.rs`, a [`ReproducedPaper`]) and one line in
//! [`PAPERS`].

use std::sync::OnceLock;

use clap::builder::PossibleValue;

use crate::reproduce::experiment::ReproducedPaper;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::Options;

/// Every paper, in report order.
pub static PAPERS: &[&dyn ReproducedPaper] = &[
    &crate::reproduce::caps::CapsPaper,
    &crate::reproduce::ba::BaPaper,
    &crate::reproduce::snake::SnakePaper,
    &crate::reproduce::dac::DacPaper,
    &crate::reproduce::catt::CattPaper,
];

/// Every paper's handle, in report order.
pub fn all() -> &'static [Paper] {
    static ALL: OnceLock<Vec<Paper>> = OnceLock::new();
    ALL.get_or_init(|| PAPERS.iter().map(|p| p.paper()).collect())
}

/// The papers `o` chooses (every paper when it names none), in report
/// order, each once.
pub fn chosen(o: &Options) -> Vec<&'static dyn ReproducedPaper> {
    PAPERS
        .iter()
        .copied()
        .filter(|p| o.papers.is_empty() || o.papers.contains(&p.paper()))
        .collect()
}

/// `--paper`: the registered papers by short name, each with its citation.
impl clap::ValueEnum for Paper {
    fn value_variants<'a>() -> &'a [Self] {
        all()
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let p = PAPERS.iter().find(|p| p.paper() == *self)?;
        Some(PossibleValue::new(self.name()).help(p.citation()))
    }
}
