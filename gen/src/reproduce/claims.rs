//! What a reproduction reports: claims with their verdicts, figures, and
//! the report that gathers them with the papers' sections.

use std::fmt::Write as _;

use serde::Serialize;

use crate::reproduce::paper::Paper;

/// A verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// Meets the paper's claim.
    Reproduced,
    /// The paper's sign, not its size.
    SameDirection,
    /// Opposite sign or absent.
    NotReproduced,
    /// The mechanism has no model in the project yet.
    NotBuilt,
    /// Every run of the claim was refused.
    NotRun,
}

impl Verdict {
    /// As printed.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::SameDirection => "same direction",
            Verdict::NotReproduced => "not reproduced",
            Verdict::NotBuilt => "not built",
            Verdict::NotRun => "not run",
        }
    }
}

/// One claim's row.
#[derive(Clone, Debug, Serialize)]
pub struct Claim {
    /// The paper.
    pub paper: Paper,
    /// Its figure or table.
    pub figure: String,
    /// The claim, quoted or summarised.
    pub claim: String,
    /// The paper's figure.
    pub paper_value: String,
    /// Ours.
    pub ours: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why: the measurement behind the verdict.
    pub why: String,
}

/// A figure of the report: file name, caption, SVG.
#[derive(Clone, Debug)]
pub struct Figure {
    /// File name in the report folder.
    pub file: String,
    /// Caption.
    pub caption: String,
    /// The SVG text.
    pub svg: String,
}

/// The report: claims, figures and the Markdown body per paper.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every claim, in paper order.
    pub claims: Vec<Claim>,
    /// Every figure.
    pub figures: Vec<Figure>,
    /// Markdown sections (one per paper).
    pub sections: Vec<String>,
    /// Runs and their total seconds.
    pub runs: usize,
    /// Sum of the runs' seconds.
    pub run_seconds: f64,
    /// Runs that were refused or failed: (id, reason).
    pub refused: Vec<(String, String)>,
}

/// Add a claim's row to `r`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn claim(
    r: &mut Report,
    paper: Paper,
    figure: &str,
    text: &str,
    paper_value: &str,
    ours: String,
    verdict: Verdict,
    why: String,
) {
    r.claims.push(Claim {
        paper,
        figure: figure.into(),
        claim: text.into(),
        paper_value: paper_value.into(),
        ours,
        verdict,
        why,
    });
}

/// Add a figure to `r` and its reference to the section `sec`.
pub(crate) fn figure(r: &mut Report, sec: &mut String, file: &str, caption: &str, svg: String) {
    let _ = writeln!(sec, "![{caption}]({file})\n\n*{caption}*\n");
    r.figures.push(Figure {
        file: file.into(),
        caption: caption.into(),
        svg,
    });
}

/// The verdict on one figure: reproduced if `ok`, the paper's direction if
/// `same`, else not reproduced; not run without the figure.
pub(crate) fn grade(
    x: Option<f64>,
    ok: impl Fn(f64) -> bool,
    same: impl Fn(f64) -> bool,
) -> Verdict {
    match x {
        Some(v) if ok(v) => Verdict::Reproduced,
        Some(v) if same(v) => Verdict::SameDirection,
        Some(_) => Verdict::NotReproduced,
        None => Verdict::NotRun,
    }
}

/// [`grade`] on two figures (both needed).
pub(crate) fn grade2(
    a: Option<f64>,
    b: Option<f64>,
    ok: impl Fn(f64, f64) -> bool,
    same: impl Fn(f64, f64) -> bool,
) -> Verdict {
    match (a, b) {
        (Some(x), Some(y)) if ok(x, y) => Verdict::Reproduced,
        (Some(x), Some(y)) if same(x, y) => Verdict::SameDirection,
        (Some(_), Some(_)) => Verdict::NotReproduced,
        _ => Verdict::NotRun,
    }
}
