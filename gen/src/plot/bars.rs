//! Rendering of the grouped bar charts: [`BarChart`] and [`BarLineChart`].

use anyhow::{bail, Result};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::charts::{BarChart, BarLineChart, SIZE};
use crate::plot::layout::{
    auto_range, check_range, check_values, colours, draw_bars, draw_header, draw_primary_mesh,
    draw_x_labels, draw_zero_line, fmt_tick, font, line_runs, plan_x_labels, plot_width, Key,
    AXIS_FONT, MARGIN_BOTTOM, MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, TICK_FONT, Y_AXIS_AREA,
};

impl BarChart {
    /// Renders the chart as a standalone SVG document of [`SIZE`] pixels.
    ///
    /// Fails with a message when there are no groups or no series, when a
    /// group does not have one value per series, when a value or the range
    /// is not finite, or when the range is empty.
    pub fn svg(&self) -> Result<String> {
        if self.series.is_empty() {
            bail!("plot: bar chart {:?} has no series", self.title);
        }
        if self.groups.is_empty() {
            bail!("plot: bar chart {:?} has no groups", self.title);
        }
        for g in &self.groups {
            if g.values.len() != self.series.len() {
                bail!(
                    "plot: group {:?} has {} values for {} series",
                    g.label,
                    g.values.len(),
                    self.series.len()
                );
            }
            check_values(&format!("group {:?}", g.label), &g.values)?;
        }
        let range = match self.y_range {
            Some(r) => r,
            None => auto_range(
                self.groups
                    .iter()
                    .flat_map(|g| g.values.iter().flatten().copied()),
            ),
        };
        check_range("y range", range)?;
        let reference = match &self.reference {
            Some((y, name)) if y.is_finite() && range.0 <= *y && *y <= range.1 => Some((*y, name)),
            _ => None,
        };

        let colours = colours(self.series.len());
        let mut keys: Vec<Key> = self
            .series
            .iter()
            .zip(&colours)
            .map(|(s, c)| Key::Bar(s, *c))
            .collect();
        if let Some((_, name)) = reference {
            keys.push(Key::Dashed(name));
        }
        let labels: Vec<String> = self.groups.iter().map(|g| g.label.clone()).collect();
        let plan = plan_x_labels(&labels, plot_width(0) / labels.len() as f64);
        let values: Vec<Vec<Option<f64>>> = self.groups.iter().map(|g| g.values.clone()).collect();
        let n = self.groups.len() as f64;

        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, SIZE).into_drawing_area();
            let area = draw_header(&root, &self.title, &keys)?;
            let mut chart = ChartBuilder::on(&area)
                .margin_left(MARGIN_LEFT)
                .margin_right(MARGIN_RIGHT)
                .margin_top(MARGIN_TOP)
                .margin_bottom(MARGIN_BOTTOM)
                .x_label_area_size(plan.height)
                .y_label_area_size(Y_AXIS_AREA)
                .build_cartesian_2d(0.0..n, range.0..range.1)?;
            draw_primary_mesh(&mut chart, &self.y_label, range)?;
            draw_bars(&root, &mut chart, &values, &colours, range)?;
            draw_zero_line(&mut chart, self.groups.len(), range)?;
            if let Some((y, _)) = reference {
                chart.draw_series(std::iter::once(DashedPathElement::new(
                    vec![(0.0, y), (n, y)],
                    6,
                    4,
                    BLACK.stroke_width(2),
                )))?;
            }
            draw_x_labels(&root, &chart, &plan, range.0)?;
            root.present()?;
        }
        Ok(buf)
    }
}

impl BarLineChart {
    /// Renders the chart as a standalone SVG document of [`SIZE`] pixels.
    ///
    /// Fails with a message when there are no categories or no bar series,
    /// when a series does not have one value per category, when a value or
    /// `bar_range` is not finite, or when `bar_range` is empty.
    pub fn svg(&self) -> Result<String> {
        if self.x.is_empty() {
            bail!("plot: bar/line chart {:?} has no categories", self.title);
        }
        if self.bars.is_empty() {
            bail!("plot: bar/line chart {:?} has no bar series", self.title);
        }
        for (name, values) in self.bars.iter().chain(std::iter::once(&self.line)) {
            if values.len() != self.x.len() {
                bail!(
                    "plot: series {name:?} has {} values for {} categories",
                    values.len(),
                    self.x.len()
                );
            }
            check_values(&format!("series {name:?}"), values)?;
        }
        check_range("bar range", self.bar_range)?;
        let line_range = auto_range(self.line.1.iter().flatten().copied());

        let colours = colours(self.bars.len());
        let mut keys: Vec<Key> = self
            .bars
            .iter()
            .zip(&colours)
            .map(|((s, _), c)| Key::Bar(s, *c))
            .collect();
        keys.push(Key::Line(&self.line.0));
        let plan = plan_x_labels(&self.x, plot_width(Y_AXIS_AREA) / self.x.len() as f64);
        let x_desc_height = AXIS_FONT as u32 + 8;
        let values: Vec<Vec<Option<f64>>> = (0..self.x.len())
            .map(|i| self.bars.iter().map(|(_, v)| v[i]).collect())
            .collect();
        let n = self.x.len() as f64;

        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, SIZE).into_drawing_area();
            let area = draw_header(&root, &self.title, &keys)?;
            let mut chart = ChartBuilder::on(&area)
                .margin_left(MARGIN_LEFT)
                .margin_right(MARGIN_RIGHT)
                .margin_top(MARGIN_TOP)
                .margin_bottom(MARGIN_BOTTOM)
                .x_label_area_size(plan.height + x_desc_height)
                .y_label_area_size(Y_AXIS_AREA)
                .right_y_label_area_size(Y_AXIS_AREA)
                .build_cartesian_2d(0.0..n, self.bar_range.0..self.bar_range.1)?
                .set_secondary_coord(0.0..n, line_range.0..line_range.1);
            draw_primary_mesh(&mut chart, &self.bar_axis, self.bar_range)?;
            let span = line_range.1 - line_range.0;
            let tick = move |v: &f64| fmt_tick(*v, span);
            chart
                .configure_secondary_axes()
                .y_labels(8)
                .y_label_formatter(&tick)
                .y_desc(&self.line_axis)
                .label_style(font(TICK_FONT))
                .axis_desc_style(font(AXIS_FONT))
                .axis_style(BLACK)
                .draw()?;
            draw_bars(&root, &mut chart, &values, &colours, self.bar_range)?;
            draw_zero_line(&mut chart, self.x.len(), self.bar_range)?;

            // The line, broken at missing values, with a marker per point.
            for run in line_runs(&self.line.1, |i| i as f64 + 0.5) {
                chart.draw_secondary_series(LineSeries::new(
                    run.iter().copied(),
                    BLACK.stroke_width(2),
                ))?;
                chart.draw_secondary_series(
                    run.iter().map(|&p| Circle::new(p, 3, BLACK.filled())),
                )?;
            }

            draw_x_labels(&root, &chart, &plan, self.bar_range.0)?;
            let (px, py) = chart.backend_coord(&(n / 2.0, self.bar_range.0));
            root.draw_text(
                &self.x_label,
                &font(AXIS_FONT).pos(Pos::new(HPos::Center, VPos::Top)),
                (px, py + plan.height as i32 + 4),
            )?;
            root.present()?;
        }
        Ok(buf)
    }
}
