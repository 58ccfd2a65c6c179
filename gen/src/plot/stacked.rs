//! Rendering of [`StackedChart`]: stacked bars over categories or numeric
//! bins, with an optional line on a secondary axis.

use anyhow::{bail, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::charts::{StackedChart, StackedX, SIZE};
use crate::plot::layout::{
    auto_range, check_range, check_values, colours, draw_header, draw_x_labels, fmt_count,
    fmt_tick, font, line_runs, plan_x_labels, plot_width, DualChart, Key, XLabels, AXIS_FONT,
    GROUP_FILL, MARGIN_BOTTOM, MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, TICK_FONT, Y_AXIS_AREA,
};

/// The checked extent of a stacked chart: positions, x span, bins, ranges.
struct Frame {
    /// X positions.
    n: usize,
    /// The x axis from `x_lo` to `x_hi`.
    x_lo: f64,
    x_hi: f64,
    /// `(start, width)` of numeric bins; `None` for categories.
    bins: Option<(f64, f64)>,
    /// The primary y range.
    range: (f64, f64),
    /// The secondary y range, with a line.
    line_range: Option<(f64, f64)>,
}

impl Frame {
    /// The x position of bar `i`: (left, right, centre).
    fn slot(&self, i: usize) -> (f64, f64, f64) {
        match self.bins {
            None => {
                let pad = (1.0 - GROUP_FILL) / 2.0;
                (i as f64 + pad, i as f64 + 1.0 - pad, i as f64 + 0.5)
            }
            Some((start, width)) => {
                let l = start + width * i as f64;
                (l, l + width, l + width / 2.0)
            }
        }
    }
}

impl StackedChart {
    /// Renders the chart as a standalone SVG document of [`SIZE`] pixels.
    ///
    /// Fails with a message when there are no series or no x positions,
    /// when a series (or the line) does not have one value per position,
    /// when a value is negative or not finite, when a bin width is not
    /// positive, or when the range is empty.
    pub fn svg(&self) -> Result<String> {
        let f = self.frame()?;
        let colours = colours(self.series.len());
        let mut keys: Vec<Key> = self
            .series
            .iter()
            .zip(&colours)
            .map(|((s, _), c)| Key::Bar(s, *c))
            .collect();
        if let Some((name, _, _)) = &self.line {
            keys.push(Key::Line(name));
        }
        let right = if self.line.is_some() { Y_AXIS_AREA } else { 0 };
        let x_desc_height = AXIS_FONT as u32 + 8;
        let plan = match &self.x {
            StackedX::Categories(c) => plan_x_labels(c, plot_width(right) / f.n as f64),
            StackedX::Bins { .. } => XLabels {
                px: TICK_FONT,
                rotated: false,
                labels: vec![],
                height: TICK_FONT as u32 + 12,
            },
        };

        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, SIZE).into_drawing_area();
            let area = draw_header(&root, &self.title, &keys)?;
            let mut builder = ChartBuilder::on(&area);
            builder
                .margin_left(MARGIN_LEFT)
                .margin_right(MARGIN_RIGHT)
                .margin_top(MARGIN_TOP)
                .margin_bottom(MARGIN_BOTTOM)
                .x_label_area_size(plan.height + x_desc_height)
                .y_label_area_size(Y_AXIS_AREA)
                .right_y_label_area_size(right);
            let lr = f.line_range.unwrap_or((0.0, 1.0));
            let mut chart = builder
                .build_cartesian_2d(f.x_lo..f.x_hi, f.range.0..f.range.1)?
                .set_secondary_coord(f.x_lo..f.x_hi, lr.0..lr.1);
            self.draw_axes(&mut chart, &f)?;
            self.draw_stacks(&mut chart, &f, &colours)?;
            self.draw_line(&mut chart, &f)?;
            if f.bins.is_none() {
                draw_x_labels(&root, &chart, &plan, f.range.0)?;
            }
            let (px, py) = chart.backend_coord(&((f.x_lo + f.x_hi) / 2.0, f.range.0));
            root.draw_text(
                &self.x_label,
                &font(AXIS_FONT).pos(Pos::new(HPos::Center, VPos::Top)),
                (px, py + plan.height as i32 + 4),
            )?;
            root.present()?;
        }
        Ok(buf)
    }

    /// The chart's extent, its input checked (see [`StackedChart::svg`]).
    fn frame(&self) -> Result<Frame> {
        if self.series.is_empty() {
            bail!("plot: stacked chart {:?} has no series", self.title);
        }
        let n = match &self.x {
            StackedX::Categories(c) => c.len(),
            StackedX::Bins { .. } => self.series[0].1.len(),
        };
        if n == 0 {
            bail!("plot: stacked chart {:?} has no x positions", self.title);
        }
        for (name, values) in &self.series {
            if values.len() != n {
                bail!(
                    "plot: series {name:?} has {} values for {n} positions",
                    values.len()
                );
            }
            if let Some(v) = values.iter().find(|v| !v.is_finite() || **v < 0.0) {
                bail!("plot: series {name:?} has a value {v} (stacks take finite values >= 0)");
            }
        }
        if let Some((name, values, _)) = &self.line {
            if values.len() != n {
                bail!(
                    "plot: line {name:?} has {} values for {n} positions",
                    values.len()
                );
            }
            check_values(&format!("line {name:?}"), values)?;
        }
        let (x_lo, x_hi, bins) = match self.x {
            StackedX::Categories(_) => (0.0, n as f64, None),
            StackedX::Bins { start, width } => {
                if !(width.is_finite() && width > 0.0 && start.is_finite()) {
                    bail!("plot: bins of width {width} from {start}");
                }
                (start, start + width * n as f64, Some((start, width)))
            }
        };
        let top = (0..n)
            .map(|i| self.series.iter().map(|(_, v)| v[i]).sum::<f64>())
            .fold(0.0f64, f64::max);
        let range = self
            .y_range
            .unwrap_or(if top > 0.0 { (0.0, top) } else { (0.0, 1.0) });
        check_range("y range", range)?;
        let line_range = self.line.as_ref().map(|(_, v, _)| {
            self.line_range
                .unwrap_or_else(|| auto_range(v.iter().flatten().copied()))
        });
        if let Some(r) = line_range {
            check_range("line range", r)?;
        }
        Ok(Frame {
            n,
            x_lo,
            x_hi,
            bins,
            range,
            line_range,
        })
    }

    /// The primary axis and grid (numeric x ticks for bins), and the
    /// secondary axis with a line.
    fn draw_axes(&self, chart: &mut DualChart, f: &Frame) -> Result<()> {
        let span = f.range.1 - f.range.0;
        let tick = move |v: &f64| fmt_tick(*v, span);
        let x_span = f.x_hi - f.x_lo;
        let x_tick = move |v: &f64| fmt_count(*v, x_span);
        let mut mesh = chart.configure_mesh();
        mesh.disable_x_mesh()
            .y_labels(8)
            .y_label_formatter(&tick)
            .y_desc(&self.y_label)
            .label_style(font(TICK_FONT))
            .axis_desc_style(font(AXIS_FONT))
            .bold_line_style(BLACK.mix(0.15))
            .light_line_style(TRANSPARENT)
            .axis_style(BLACK);
        if f.bins.is_some() {
            mesh.x_labels(8).x_label_formatter(&x_tick);
        } else {
            mesh.x_labels(0);
        }
        mesh.draw()?;
        if let (Some((_, _, desc)), Some(lr)) = (&self.line, f.line_range) {
            let lspan = lr.1 - lr.0;
            // Large counts as 250k, 1.5M: narrow enough for the axis.
            let ltick = move |v: &f64| {
                if lr.1 >= 1e4 {
                    fmt_count(*v, lspan)
                } else {
                    fmt_tick(*v, lspan)
                }
            };
            chart
                .configure_secondary_axes()
                .y_labels(8)
                .y_label_formatter(&ltick)
                .y_desc(desc)
                .label_style(font(TICK_FONT))
                .axis_desc_style(font(AXIS_FONT))
                .axis_style(BLACK)
                .draw()?;
        }
        Ok(())
    }

    /// The stacks, bottom series first, clipped to the range.
    fn draw_stacks(&self, chart: &mut DualChart, f: &Frame, colours: &[RGBColor]) -> Result<()> {
        let range = f.range;
        for i in 0..f.n {
            let (l, r, _) = f.slot(i);
            let mut cum = 0.0f64;
            for ((_, v), c) in self.series.iter().zip(colours) {
                let v = v[i];
                if v <= 0.0 {
                    continue;
                }
                let (y0, y1) = (
                    cum.clamp(range.0, range.1),
                    (cum + v).clamp(range.0, range.1),
                );
                cum += v;
                if y1 > y0 {
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(l, y0), (r, y1)],
                        c.filled(),
                    )))?;
                }
            }
        }
        Ok(())
    }

    /// The line on the secondary axis, broken at missing values, with
    /// markers when the positions are few enough to keep them apart.
    fn draw_line(&self, chart: &mut DualChart, f: &Frame) -> Result<()> {
        let Some((_, values, _)) = &self.line else {
            return Ok(());
        };
        for run in line_runs(values, |i| f.slot(i).2) {
            chart.draw_secondary_series(LineSeries::new(
                run.iter().copied(),
                BLACK.stroke_width(2),
            ))?;
            // Markers only where they stay apart.
            if f.n <= 40 {
                chart.draw_secondary_series(
                    run.iter().map(|&p| Circle::new(p, 3, BLACK.filled())),
                )?;
            }
        }
        Ok(())
    }
}
