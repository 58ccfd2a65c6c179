//! A reproduction from the registered papers: the run list of the chosen
//! papers, and the report from their results.

use anyhow::bail;

use crate::reproduce::claims::Report;
use crate::reproduce::plan::Options;
use crate::reproduce::registry::chosen;
use crate::reproduce::results::Res;
use crate::sweep::{RunList, RunResult};

/// The reproduction's run list for the chosen papers. Fails if a bundled
/// kernel it needs is missing.
pub fn plan(o: &Options) -> anyhow::Result<RunList> {
    let mut runs = Vec::new();
    for p in chosen(o) {
        runs.extend(p.plan(o));
    }
    for r in &runs {
        if !r.kernel.exists() {
            bail!(
                "{}: the reproduction needs this bundled kernel; run from the repository's root \
                 or pass --kernels DIR",
                r.kernel.display()
            );
        }
    }
    let list = RunList { runs };
    list.check()?;
    Ok(list)
}

/// Build the report from the results.
pub fn report(o: &Options, all: &[RunResult]) -> anyhow::Result<Report> {
    let res = Res::new(all);
    let mut r = Report {
        runs: all.len(),
        run_seconds: all.iter().map(|x| x.seconds).sum(),
        refused: all
            .iter()
            .filter_map(|x| {
                x.error
                    .as_ref()
                    .map(|e| (x.spec.id.clone(), e.replace('\n', " ")))
            })
            .collect(),
        ..Default::default()
    };
    for p in chosen(o) {
        let s = p.section(o, &res, &mut r)?;
        r.sections.push(s);
    }
    Ok(r)
}
