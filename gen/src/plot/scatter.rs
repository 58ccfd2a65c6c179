//! The Pareto views of `warpgen explore`: every point of a two-parameter
//! sweep as (area, fmax), or every point as (area, benefit), the front
//! drawn through the points no other point beats on both.

use anyhow::{bail, Result};
use plotters::prelude::*;

use crate::plot::charts::SIZE;
use crate::plot::layout::{auto_range, font, AXIS_FONT, TICK_FONT};

/// An SVG of `points` (`(label, area um^2, fmax MHz)`), the Pareto front
/// ([`pareto_front`]) in red and joined by a line.
pub fn pareto_svg(title: &str, points: &[(String, f64, f64)]) -> Result<String> {
    front_svg(
        title,
        ("area, memories in flip-flops (um^2)", "fmax (MHz)"),
        points,
        true,
    )
}

/// An SVG of `points` (`(label, x, y)`) with axis descriptions `desc`
/// (x, y), the front of the points no other beats in red and joined by a
/// line: a smaller x is better, and a higher y when `higher_is_better`
/// (else a lower one).
pub fn front_svg(
    title: &str,
    desc: (&str, &str),
    points: &[(String, f64, f64)],
    higher_is_better: bool,
) -> Result<String> {
    if points.is_empty() {
        bail!("plot: the Pareto view {title:?} has no points");
    }
    if points
        .iter()
        .any(|(_, a, f)| !a.is_finite() || !f.is_finite())
    {
        bail!("plot: the Pareto view {title:?} has a value that is not finite");
    }
    let front = if higher_is_better {
        pareto_front(points)
    } else {
        let flipped: Vec<(String, f64, f64)> = points
            .iter()
            .map(|(l, x, y)| (l.clone(), *x, -*y))
            .collect();
        pareto_front(&flipped)
    };
    let (x0, x1) = auto_range(points.iter().map(|p| p.1));
    let (y0, y1) = auto_range(points.iter().map(|p| p.2));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, font(15.0))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc(desc.0)
            .y_desc(desc.1)
            .axis_desc_style(font(AXIS_FONT))
            .label_style(font(TICK_FONT))
            .draw()?;
        let mut line: Vec<(f64, f64)> = front.iter().map(|&i| (points[i].1, points[i].2)).collect();
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart.draw_series(LineSeries::new(line, RED.stroke_width(2)))?;
        for (i, (label, a, f)) in points.iter().enumerate() {
            let on = front.contains(&i);
            let colour = if on { RED } else { BLUE };
            chart.draw_series(std::iter::once(Circle::new((*a, *f), 5, colour.filled())))?;
            chart.draw_series(std::iter::once(Text::new(
                label.clone(),
                (*a, *f),
                font(10.0).color(&BLACK),
            )))?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// The points on the Pareto front of (area, fmax): no other point has a
/// smaller or equal area and a higher or equal fmax, one of them strictly.
pub fn pareto_front(points: &[(String, f64, f64)]) -> Vec<usize> {
    (0..points.len())
        .filter(|&i| {
            let (_, a, f) = &points[i];
            !points
                .iter()
                .any(|(_, b, g)| (b <= a && g >= f) && (b < a || g > f))
        })
        .collect()
}
