//! The figure of `warpgen explore`: for each swept parameter, area (both
//! views), fmax and storage bits against its values (one series per
//! combination of the other parameters); with `--kernel`, the unit's
//! figure of merit and the speed-up against it too, and one cost against
//! benefit view of every point (area against the figure of merit, its
//! front marked); with two parameters swept, the Pareto view of area
//! against fmax.

use super::grid::{label, Point, Sweep};
use super::point::PointResult;
use crate::plot::{front_svg, panels, pareto_svg, BarChart, Group};

/// A value of a point to plot.
type Value<'a> = &'a dyn Fn(&PointResult) -> Option<f64>;

/// The charts against sweep `k` of `sweeps`.
struct Against<'a> {
    rows: &'a [PointResult],
    sweep: &'a Sweep,
    k: usize,
    /// One series per combination of the other swept parameters.
    series: Vec<String>,
}

impl<'a> Against<'a> {
    fn new(rows: &'a [PointResult], sweeps: &'a [Sweep], k: usize) -> Self {
        let mut a = Against {
            rows,
            sweep: &sweeps[k],
            k,
            series: Vec::new(),
        };
        for r in rows {
            let o = a.others(r);
            if !a.series.contains(&o) {
                a.series.push(o);
            }
        }
        a
    }

    /// The other swept parameters' values of `r`.
    fn others(&self, r: &PointResult) -> String {
        let o: Point = r
            .point
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != self.k)
            .map(|(_, x)| x.clone())
            .collect();
        if o.is_empty() {
            String::new()
        } else {
            label(&o)
        }
    }

    /// A bar chart of `f` against the sweep's values.
    fn chart(
        &self,
        title: String,
        y: &str,
        f: Value<'_>,
        reference: Option<(f64, String)>,
    ) -> anyhow::Result<String> {
        let names = self
            .series
            .iter()
            .map(|o| {
                if o.is_empty() {
                    y.to_string()
                } else {
                    o.clone()
                }
            })
            .collect();
        let at = |v: u64, o: &str| {
            self.rows
                .iter()
                .find(|r| r.point[self.k].1 == v && self.others(r) == o)
                .and_then(f)
        };
        BarChart {
            title,
            y_label: y.into(),
            series: names,
            groups: self
                .sweep
                .values
                .iter()
                .map(|&v| Group {
                    label: format!("{}={v}", self.sweep.name),
                    values: self.series.iter().map(|o| at(v, o)).collect(),
                })
                .collect(),
            y_range: None,
            reference,
        }
        .svg()
    }

    /// Storage bits of the RTL and of the paper's layout.
    fn bits(&self, unit: &str) -> anyhow::Result<String> {
        let s = self.sweep;
        BarChart {
            title: format!(
                "{unit}: storage bits against {} (RTL and the paper's layout)",
                s.name
            ),
            y_label: "bits".into(),
            series: vec!["RTL".into(), "paper's field layout".into()],
            groups: s
                .values
                .iter()
                .map(|&v| {
                    let r = self.rows.iter().find(|r| r.point[self.k].1 == v);
                    Group {
                        label: format!("{}={v}", s.name),
                        values: vec![
                            r.map(|r| r.storage_bits as f64),
                            r.map(|r| r.paper_bits as f64),
                        ],
                    }
                })
                .collect(),
            y_range: None,
            reference: None,
        }
        .svg()
    }
}

/// The charts of cost against sweep `k`.
fn cost_charts(rows: &[PointResult], sweeps: &[Sweep], k: usize) -> anyhow::Result<Vec<String>> {
    let a = Against::new(rows, sweeps, k);
    let name = &sweeps[k].name;
    let unit = rows.first().map_or("", |r| r.unit.as_str());
    let clock = rows.first().map_or(0.0, |r| r.clock_mhz);
    let mut charts = vec![a.chart(
        format!("{unit}: area, memories in flip-flops, against {name}"),
        "area (um^2)",
        &|r| r.ff_view_um2,
        None,
    )?];
    if rows.iter().any(|r| r.sram_view_um2.is_some()) {
        charts.push(a.chart(
            format!("{unit}: area, memories as fakeram45 SRAM macros, against {name}"),
            "area (um^2)",
            &|r| r.sram_view_um2,
            None,
        )?);
    }
    if rows.iter().any(|r| r.fmax_mhz.is_some()) {
        charts.push(a.chart(
            format!("{unit}: fmax against {name} (dashed: the {clock:.0} MHz target)"),
            "fmax (MHz)",
            &|r| r.fmax_mhz,
            Some((clock, format!("{clock:.0} MHz"))),
        )?);
    }
    charts.push(a.bits(unit)?);
    Ok(charts)
}

/// The charts of the harness's benefit against sweep `k` (none without
/// `--kernel`).
fn benefit_charts(rows: &[PointResult], sweeps: &[Sweep], k: usize) -> anyhow::Result<Vec<String>> {
    let Some(b) = rows.iter().find_map(|r| r.benefit.as_ref()) else {
        return Ok(Vec::new());
    };
    let a = Against::new(rows, sweeps, k);
    let name = &sweeps[k].name;
    let unit = &rows[0].unit;
    let kernel = std::path::Path::new(&b.kernel)
        .file_stem()
        .map_or(b.kernel.clone(), |s| s.to_string_lossy().into_owned());
    let base = b.base_value.map(|v| (v, format!("baseline {v:.3}")));
    Ok(vec![
        a.chart(
            format!(
                "{unit}: {} on {kernel} ({}) against {name}",
                b.figure, b.preset
            ),
            &b.figure,
            &|r| r.benefit.as_ref().map(|x| x.value),
            base,
        )?,
        a.chart(
            format!(
                "{unit}: speed-up over the baseline on {kernel} ({}) against {name}",
                b.preset
            ),
            "speed-up",
            &|r| r.benefit.as_ref().map(|x| x.speedup),
            Some((1.0, "baseline".into())),
        )?,
    ])
}

/// Area against the figure of merit, every point with a benefit.
fn cost_benefit(rows: &[PointResult]) -> anyhow::Result<Option<String>> {
    let pts: Vec<(String, f64, f64, bool, &str)> = rows
        .iter()
        .filter_map(|r| {
            let b = r.benefit.as_ref()?;
            Some((
                label(&r.point),
                r.ff_view_um2?,
                b.value,
                b.higher_is_better,
                b.figure.as_str(),
            ))
        })
        .collect();
    let Some(&(_, _, _, higher, figure)) = pts.first() else {
        return Ok(None);
    };
    let better = if higher { "higher" } else { "lower" };
    let title = format!(
        "{}: cost against benefit, every point (front: no other point is both smaller and {better} in {figure})",
        rows[0].unit
    );
    let xy: Vec<(String, f64, f64)> = pts.into_iter().map(|(l, x, y, _, _)| (l, x, y)).collect();
    Ok(Some(front_svg(
        &title,
        ("area, memories in flip-flops (um^2)", figure),
        &xy,
        higher,
    )?))
}

/// The whole figure (see the module documentation).
pub fn svg(rows: &[PointResult], sweeps: &[Sweep]) -> anyhow::Result<String> {
    let mut charts = Vec::new();
    for k in 0..sweeps.len() {
        charts.extend(cost_charts(rows, sweeps, k)?);
        charts.extend(benefit_charts(rows, sweeps, k)?);
    }
    if let Some(c) = cost_benefit(rows)? {
        charts.push(c);
    }
    if sweeps.len() == 2 && rows.iter().all(|r| r.fmax_mhz.is_some()) {
        charts.push(pareto_svg(
            &format!(
                "{}: area against fmax, every point (Pareto front: no other point is both smaller and faster)",
                rows.first().map_or("", |r| r.unit.as_str())
            ),
            &rows
                .iter()
                .map(|r| {
                    (
                        label(&r.point),
                        r.ff_view_um2.unwrap_or(0.0),
                        r.fmax_mhz.unwrap_or(0.0),
                    )
                })
                .collect::<Vec<_>>(),
        )?);
    }
    Ok(panels(&charts))
}

#[cfg(test)]
mod tests {
    use crate::plot::pareto_front;

    #[test]
    fn the_pareto_front_keeps_only_undominated_points() {
        let p = vec![
            ("small slow".to_string(), 10.0, 300.0),
            ("big fast".to_string(), 30.0, 900.0),
            ("dominated".to_string(), 31.0, 800.0),
            ("middle".to_string(), 20.0, 500.0),
            ("tie".to_string(), 20.0, 400.0),
        ];
        assert_eq!(pareto_front(&p), vec![0, 1, 3]);
    }
}
