//! The tables of a reproduction: a paper's benchmarks by its mechanisms,
//! their mean rows, their charts, and the number formats of the report.

use std::fmt::Write as _;

use crate::plot::{BarChart, Group};
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::{ids, Bench};
use crate::reproduce::results::{sum_of, CheckedDiv, Res};

/// The geometric mean of the positive values.
pub(crate) fn geomean(v: &[f64]) -> Option<f64> {
    let v: Vec<f64> = v.iter().copied().filter(|x| *x > 0.0).collect();
    if v.is_empty() {
        return None;
    }
    Some((v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
}

/// The arithmetic mean.
pub(crate) fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// A fraction as a percentage (`12.5 %`).
pub(crate) fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// `f(x)`, or `-` without a value.
pub(crate) fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map(f).unwrap_or_else(|| "-".into())
}

/// A benchmark × mechanism table of values (rows benchmarks, then a mean
/// row), as Markdown, and the chart groups.
pub(crate) struct Table {
    /// The columns (mechanisms).
    pub(crate) series: Vec<String>,
    /// Per benchmark (then the mean row) its label and a value per column.
    pub(crate) rows: Vec<(String, Vec<Option<f64>>)>,
}

impl Table {
    /// The table in Markdown, values formatted by `fmt`.
    pub(crate) fn markdown(&self, fmt: &dyn Fn(f64) -> String) -> String {
        let mut s = format!("| benchmark | {} |\n|---|", self.series.join(" | "));
        s += &"---:|".repeat(self.series.len());
        s.push('\n');
        for (label, vals) in &self.rows {
            let cells: Vec<String> = vals.iter().map(|v| opt(*v, fmt)).collect();
            let _ = writeln!(s, "| {label} | {} |", cells.join(" | "));
        }
        s
    }

    /// The rows as chart groups.
    pub(crate) fn groups(&self) -> Vec<Group> {
        self.rows
            .iter()
            .map(|(l, v)| Group {
                label: l.clone(),
                values: v.clone(),
            })
            .collect()
    }
}

/// A benchmark's figure from its runs' ids and its baseline's.
pub(crate) type BenchFn<'a> = dyn Fn(&[String], &[String]) -> Option<f64> + 'a;
/// The mean row: its label and how the column is aggregated.
pub(crate) type Avg<'a> = Option<(&'a str, fn(&[f64]) -> Option<f64>)>;

/// Per benchmark and mechanism `f(ids)`; then a last row `avg_label`
/// aggregated over the paper's own benchmarks by `avg`.
pub(crate) fn table(
    paper: Paper,
    exp: &str,
    bench: &[Bench],
    mechs: &[&str],
    f: &BenchFn<'_>,
    base: &str,
    avg: Avg,
) -> Table {
    let mut rows = Vec::new();
    for bn in bench {
        let base_ids = ids(paper, exp, bn, base);
        let vals = mechs
            .iter()
            .map(|m| f(&ids(paper, exp, bn, m), &base_ids))
            .collect();
        let label = if bn.in_paper {
            bn.label.to_string()
        } else {
            format!("{} (not in the paper)", bn.label)
        };
        rows.push((label, vals));
    }
    let mut t = Table {
        series: mechs.iter().map(|s| s.to_string()).collect(),
        rows,
    };
    if let Some((label, agg)) = avg {
        let in_paper: Vec<bool> = bench.iter().map(|b| b.in_paper).collect();
        let vals = (0..mechs.len())
            .map(|s| {
                let col: Vec<f64> = t
                    .rows
                    .iter()
                    .zip(&in_paper)
                    .filter(|(_, p)| **p)
                    .filter_map(|((_, v), _)| v[s])
                    .collect();
                agg(&col)
            })
            .collect();
        t.rows.push((label.to_string(), vals));
    }
    t
}

/// One experiment: a paper's benchmarks × mechanisms, tabled against a
/// baseline mechanism.
pub(crate) struct Exp<'r, 'a> {
    /// The results.
    pub(crate) res: &'r Res<'a>,
    /// The paper.
    pub(crate) paper: Paper,
    /// The experiment's id part (`fig10`).
    pub(crate) exp: &'static str,
    /// The benchmarks.
    pub(crate) bench: &'static [Bench],
    /// The mechanisms tabled.
    pub(crate) mechs: Vec<&'static str>,
    /// The baseline mechanism.
    pub(crate) base: &'static str,
}

impl Exp<'_, '_> {
    /// The same experiment over other mechanisms.
    pub(crate) fn with(&self, mechs: &[&'static str]) -> Self {
        Exp {
            res: self.res,
            paper: self.paper,
            exp: self.exp,
            bench: self.bench,
            mechs: mechs.to_vec(),
            base: self.base,
        }
    }

    /// Per benchmark and mechanism `f(ids, baseline ids)`, with the mean
    /// row `avg`.
    pub(crate) fn table(&self, f: &BenchFn<'_>, avg: Avg) -> Table {
        table(
            self.paper,
            self.exp,
            self.bench,
            &self.mechs,
            f,
            self.base,
            avg,
        )
    }

    /// The baseline's cycles over the mechanism's (the IPC ratio when
    /// both run the same instructions; DAC runs fewer), with a
    /// geometric-mean row.
    pub(crate) fn speedup(&self) -> Table {
        let res = self.res;
        self.table(
            &|i, b| sum_of(res, b, "cycles")?.checked_div_f(sum_of(res, i, "cycles")?),
            Some(("geo-mean", geomean)),
        )
    }

    /// `Σ num / Σ den` per benchmark, with a mean row.
    pub(crate) fn share(&self, num: &[&str], den: &[&str]) -> Table {
        let res = self.res;
        self.table(&|i, _| res.ratio(i, num, den), Some(("mean", mean)))
    }
}

/// The table's fractions as percentages (for a chart).
pub(crate) fn percent(t: &Table) -> Table {
    Table {
        series: t.series.clone(),
        rows: t
            .rows
            .iter()
            .map(|(l, v)| (l.clone(), v.iter().map(|x| x.map(|y| 100.0 * y)).collect()))
            .collect(),
    }
}

/// Series `s` of the last (mean) row.
pub(crate) fn last(t: &Table, s: usize) -> Option<f64> {
    t.rows.last().and_then(|(_, v)| v[s])
}

/// The column of series `name`.
pub(crate) fn series(t: &Table, name: &str) -> usize {
    t.series
        .iter()
        .position(|s| s == name)
        .expect("a known series")
}

/// A bar chart of `t` (SVG).
pub(crate) fn bar(
    title: &str,
    y: &str,
    t: &Table,
    reference: Option<(f64, &str)>,
    range: Option<(f64, f64)>,
) -> anyhow::Result<String> {
    BarChart {
        title: title.into(),
        y_label: y.into(),
        series: t.series.clone(),
        groups: t.groups(),
        y_range: range,
        reference: reference.map(|(v, s)| (v, s.to_string())),
    }
    .svg()
}

/// `yes` or `no`.
pub(crate) fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Series `s` per benchmark row (the mean row left out).
pub(crate) fn per_bench(t: &Table, s: usize, f: &dyn Fn(f64) -> String) -> String {
    t.rows[..t.rows.len().saturating_sub(1)]
        .iter()
        .map(|(l, v)| format!("{l} {}", opt(v[s], f)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A ratio as a change in percent (`+8.0 %`).
pub(crate) fn ratio_pct(v: f64) -> String {
    format!("{:+.1} %", 100.0 * (v - 1.0))
}

/// Series `s` per row, every row.
pub(crate) fn per_bench_all(t: &Table, s: usize, f: &dyn Fn(f64) -> String) -> String {
    t.rows
        .iter()
        .map(|(l, v)| format!("{l} {}", opt(v[s], f)))
        .collect::<Vec<_>>()
        .join(", ")
}
