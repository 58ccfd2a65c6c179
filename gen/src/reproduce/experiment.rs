//! What a paper of the reproduction is ([`ReproducedPaper`]): its runs and
//! its section of the report. One implementation per paper, in
//! `reproduce/<paper>.rs`, registered in [`crate::reproduce::registry`].

use crate::reproduce::claims::Report;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::Options;
use crate::reproduce::results::Res;
use crate::sweep::RunSpec;

/// A paper the reproduction covers.
pub trait ReproducedPaper: Sync {
    /// Its handle: the short name (`caps`) of `--paper`, the run ids and
    /// the claims.
    fn paper(&self) -> Paper;
    /// One line for `--paper`'s help: authors, short title, venue.
    fn citation(&self) -> &'static str;
    /// The title line that heads its section.
    fn title(&self) -> &'static str;
    /// Its runs, for the options' kernels and sizes.
    fn plan(&self, o: &Options) -> Vec<RunSpec>;
    /// Its section of the report (Markdown) from the results, its claims
    /// and figures added to `r`.
    fn section(&self, o: &Options, res: &Res, r: &mut Report) -> anyhow::Result<String>;
}
