//! `warpgen reproduce`: the papers' own experiments on their presets and
//! the bundled kernels that cover their benchmarks, as one report
//! (Markdown and HTML, figures as SVG files embedded in the HTML) with,
//! per claim, the paper's figure, ours and a verdict.
//!
//! The experiments are a run list ([`plan`]) executed by the sweep
//! machinery ([`crate::sweep`]): locally in parallel, or on a cluster with
//! `--emit-slurm`, whose merge step is `warpgen reproduce --no-run` over the
//! same folder. Results already in `OUT/runs/` are reused, so an
//! interrupted reproduction resumes.
//!
//! Verdicts: **reproduced** (our figure meets the paper's claim as stated,
//! or lies within the tolerance the claim's row gives), **same direction**
//! (the effect has the paper's sign but not its size), **not reproduced**
//! (the opposite sign, or absent), each with the measured reason; **not
//! built** where the project has no model of the mechanism yet; **not
//! run** where every run of the claim was refused.

//!
//! The framework: [`plan`] (options, benchmarks, run ids), [`results`],
//! [`table`], [`claims`], [`assemble`] (the run list and the report of the
//! chosen papers) and [`render`] (the files). Each paper is one module
//! implementing [`experiment::ReproducedPaper`] ([`caps`], [`ba`],
//! [`snake`], [`dac`], [`catt`]), registered in [`registry`].

pub mod assemble;
pub mod claims;
pub mod experiment;
pub mod paper;
pub mod plan;
pub mod registry;
pub mod render;
pub mod results;
pub mod table;

pub mod ba;
pub mod caps;
pub mod catt;
pub mod dac;
pub mod snake;

#[cfg(test)]
mod tests;

pub use assemble::{plan, report};
pub use claims::{Claim, Figure, Report, Verdict};
pub use experiment::ReproducedPaper;
pub use paper::Paper;
pub use plan::Options;
pub use render::{claims_markdown, html, markdown, write};
