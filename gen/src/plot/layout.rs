//! The drawing shared by every chart: layout constants, fonts and number
//! formats, ranges, the title and legend, x labels, bars, the axes.

use anyhow::{bail, Result};
use plotters::chart::DualCoordChartContext;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::charts::{PALETTE, SIZE};

pub(super) const MARGIN_LEFT: u32 = 10;
pub(super) const MARGIN_RIGHT: u32 = 20;
/// Room above the plot for the value labels of clipped bars (two levels).
pub(super) const MARGIN_TOP: u32 = 26;
pub(super) const MARGIN_BOTTOM: u32 = 6;
pub(super) const Y_AXIS_AREA: u32 = 70;
pub(super) const LEGEND_ROW: u32 = 20;
pub(super) const TICK_FONT: f64 = 12.0;
pub(super) const AXIS_FONT: f64 = 13.0;
pub(super) const TITLE_FONT: f64 = 17.0;
pub(super) const LEGEND_FONT: f64 = 12.0;
pub(super) const MARK_FONT: f64 = 10.0;
/// Share of a group's width covered by its bars.
pub(super) const GROUP_FILL: f64 = 0.8;
/// Longest rotated x label, in pixels, before it is shortened with "…".
pub(super) const MAX_ROTATED_LABEL: f64 = 130.0;

pub(super) type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;
/// A chart with a secondary (right) y axis.
pub(super) type DualChart<'a, 'b> = DualCoordChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
>;
pub(super) type Area<'b> = DrawingArea<SVGBackend<'b>, plotters::coord::Shift>;

/// A text style of `px` pixels as rendered (the SVG backend divides the
/// requested size by 1.24).
pub(super) fn font(px: f64) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", px * 1.24).into_font()).color(&BLACK)
}

/// Estimated rendered width of `s` at `px` pixels in a sans-serif font.
pub(super) fn text_width(s: &str, px: f64) -> f64 {
    s.chars().count() as f64 * px * 0.6
}

/// A value as written on a clipped bar: about three significant digits.
pub(super) fn fmt_value(v: f64) -> String {
    let a = v.abs();
    let s = if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    trim_zeros(s)
}

/// A y tick label for an axis spanning `span`.
pub(super) fn fmt_tick(v: f64, span: f64) -> String {
    let decimals = (2.0 - span.log10().floor()).clamp(0.0, 6.0) as usize;
    let s = trim_zeros(format!("{v:.decimals$}"));
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

pub(super) fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `0 .. max * 1.1`, extended down to `min * 1.1` for negative values;
/// `0 .. 1` when there is nothing to show.
pub(super) fn auto_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for v in values {
        lo = lo.min(v * 1.1);
        hi = hi.max(v * 1.1);
    }
    if hi - lo <= f64::EPSILON * hi.abs().max(lo.abs()).max(1.0) {
        (lo, lo + 1.0)
    } else {
        (lo, hi)
    }
}

pub(super) fn check_range(what: &str, (lo, hi): (f64, f64)) -> Result<()> {
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        bail!("plot: {what} ({lo}, {hi}) must be finite with min < max");
    }
    Ok(())
}

pub(super) fn check_values(what: &str, values: &[Option<f64>]) -> Result<()> {
    if let Some(v) = values.iter().flatten().find(|v| !v.is_finite()) {
        bail!("plot: {what} has a non-finite value {v}");
    }
    Ok(())
}

/// One legend entry.
pub(super) enum Key<'s> {
    Bar(&'s str, RGBColor),
    Line(&'s str),
    Dashed(&'s str),
}

impl Key<'_> {
    fn text(&self) -> &str {
        match self {
            Key::Bar(t, _) | Key::Line(t) | Key::Dashed(t) => t,
        }
    }
    fn swatch_width(&self) -> f64 {
        match self {
            Key::Bar(..) => 14.0,
            Key::Line(_) | Key::Dashed(_) => 26.0,
        }
    }
    fn width(&self) -> f64 {
        self.swatch_width() + 5.0 + text_width(self.text(), LEGEND_FONT)
    }
}

pub(super) const LEGEND_GAP: f64 = 18.0;

/// Splits the legend entries into centred rows fitting `width`.
pub(super) fn legend_rows<'k, 's>(keys: &'k [Key<'s>], width: f64) -> Vec<&'k [Key<'s>]> {
    let mut rows = vec![];
    let mut start = 0;
    let mut used = 0.0;
    for (i, k) in keys.iter().enumerate() {
        let w = k.width();
        if i > start && used + LEGEND_GAP + w > width {
            rows.push(&keys[start..i]);
            start = i;
            used = 0.0;
        }
        used += if i > start { LEGEND_GAP + w } else { w };
    }
    if start < keys.len() {
        rows.push(&keys[start..]);
    }
    rows
}

/// Draws the title and the legend, and returns the area left for the chart.
pub(super) fn draw_header<'b>(root: &Area<'b>, title: &str, keys: &[Key]) -> Result<Area<'b>> {
    root.fill(&WHITE)?;
    let title_style =
        TextStyle::from(("sans-serif", TITLE_FONT * 1.24, FontStyle::Bold).into_font());
    let (w, _) = root.dim_in_pixel();
    root.draw_text(
        title,
        &title_style.pos(Pos::new(HPos::Center, VPos::Top)),
        (w as i32 / 2, 8),
    )?;
    let rest = root.split_vertically(8 + TITLE_FONT as u32 + 10).1;
    let rows = legend_rows(keys, w as f64 - 40.0);
    let (legend, rest) = rest.split_vertically(LEGEND_ROW * rows.len() as u32);
    let style = font(LEGEND_FONT).pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in rows.iter().enumerate() {
        let total: f64 =
            row.iter().map(Key::width).sum::<f64>() + LEGEND_GAP * (row.len() - 1) as f64;
        let mut x = ((w as f64 - total) / 2.0).round() as i32;
        let y = (LEGEND_ROW * r as u32 + LEGEND_ROW / 2) as i32;
        for k in row.iter() {
            let sw = k.swatch_width() as i32;
            match k {
                Key::Bar(_, c) => {
                    legend.draw(&Rectangle::new([(x, y - 6), (x + sw, y + 6)], c.filled()))?;
                }
                Key::Line(_) => {
                    legend.draw(&PathElement::new(
                        vec![(x, y), (x + sw, y)],
                        BLACK.stroke_width(2),
                    ))?;
                    legend.draw(&Circle::new((x + sw / 2, y), 3, BLACK.filled()))?;
                }
                Key::Dashed(_) => {
                    legend.draw(&DashedPathElement::new(
                        vec![(x, y), (x + sw, y)],
                        6,
                        4,
                        BLACK.stroke_width(2),
                    ))?;
                }
            }
            legend.draw_text(k.text(), &style, (x + sw + 5, y))?;
            x += (k.width() + LEGEND_GAP).round() as i32;
        }
    }
    Ok(rest)
}

/// How the category labels under the x axis are written.
pub(super) struct XLabels {
    pub(super) px: f64,
    pub(super) rotated: bool,
    pub(super) labels: Vec<String>,
    /// Height in pixels of the label band under the axis.
    pub(super) height: u32,
}

/// Chooses a font size and orientation so that `labels` fit in slots of
/// `slot` pixels: horizontal at 12, 11 or 10 px when that fits, otherwise
/// rotated (reading upwards), shortened beyond [`MAX_ROTATED_LABEL`].
pub(super) fn plan_x_labels(labels: &[String], slot: f64) -> XLabels {
    let widest = |px: f64| {
        labels
            .iter()
            .map(|l| text_width(l, px))
            .fold(0.0f64, f64::max)
    };
    for px in [12.0, 11.0, 10.0] {
        if widest(px) <= slot * 0.92 {
            return XLabels {
                px,
                rotated: false,
                labels: labels.to_vec(),
                height: px as u32 + 12,
            };
        }
    }
    let px = (slot * 0.9).clamp(6.0, 11.0);
    let max_chars = (MAX_ROTATED_LABEL / (px * 0.6)).floor() as usize;
    let labels: Vec<String> = labels
        .iter()
        .map(|l| {
            if l.chars().count() > max_chars {
                let mut s: String = l.chars().take(max_chars.saturating_sub(1)).collect();
                s.push('…');
                s
            } else {
                l.clone()
            }
        })
        .collect();
    let height = labels
        .iter()
        .map(|l| text_width(l, px))
        .fold(0.0f64, f64::max)
        .ceil() as u32
        + 12;
    XLabels {
        px,
        rotated: true,
        labels,
        height,
    }
}

/// Draws the category labels centred under each group.
pub(super) fn draw_x_labels(root: &Area, chart: &Chart, plan: &XLabels, y_min: f64) -> Result<()> {
    for (i, label) in plan.labels.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, y_min));
        let y = py + 6;
        if plan.rotated {
            let style = font(plan.px)
                .pos(Pos::new(HPos::Right, VPos::Center))
                .transform(FontTransform::Rotate270);
            root.draw_text(label, &style, (px, y))?;
        } else {
            let style = font(plan.px).pos(Pos::new(HPos::Center, VPos::Top));
            root.draw_text(label, &style, (px, y))?;
        }
    }
    Ok(())
}

/// Pixel width of the plotting area for the given label areas.
pub(super) fn plot_width(right_area: u32) -> f64 {
    (SIZE.0 - MARGIN_LEFT - MARGIN_RIGHT - Y_AXIS_AREA - right_area) as f64
}

/// Draws the bars of `values[group][series]` on `chart` (range `lo..hi`),
/// clipping and marking out-of-range values.
pub(super) fn draw_bars(
    root: &Area,
    chart: &mut Chart,
    values: &[Vec<Option<f64>>],
    colours: &[RGBColor],
    (lo, hi): (f64, f64),
) -> Result<()> {
    let base = 0.0f64.clamp(lo, hi);
    let mut marks = vec![];
    for (g, row) in values.iter().enumerate() {
        let width = GROUP_FILL / row.len() as f64;
        let left = g as f64 + (1.0 - GROUP_FILL) / 2.0;
        for (s, v) in row.iter().enumerate() {
            let Some(v) = *v else { continue };
            let x0 = left + s as f64 * width;
            let x1 = x0 + width;
            let top = v.clamp(lo, hi);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0, base), (x1, top)],
                colours[s].filled(),
            )))?;
            if v > hi || v < lo {
                marks.push((x0, x1, v, top));
            }
        }
    }
    // Break marks across the clipped bar ends, and the true value above the
    // plot for values over the range, on the first of two text rows where
    // it does not overlap the previous value (else it is left out).
    let mut row_end = [i32::MIN; 2];
    for (x0, x1, v, top) in marks {
        let (l, y) = chart.backend_coord(&(x0, top));
        let (r, _) = chart.backend_coord(&(x1, top));
        let dir = if v > hi { 1 } else { -1 };
        // A bar clipped to its own base (e.g. below a range starting above
        // zero) has no height to break.
        let breaks: &[i32] = if top == base { &[] } else { &[5, 9] };
        for &off in breaks {
            let y0 = y + dir * off;
            root.draw(&PathElement::new(
                vec![(l - 1, y0 + 2), (r + 1, y0 - 2)],
                WHITE.stroke_width(2),
            ))?;
        }
        if v > hi {
            let text = fmt_value(v);
            let half = (text_width(&text, MARK_FONT) / 2.0).ceil() as i32;
            let centre = (l + r) / 2;
            if let Some(level) = (0..2).find(|&k| centre - half > row_end[k] + 2) {
                row_end[level] = centre + half;
                let style = font(MARK_FONT).pos(Pos::new(HPos::Center, VPos::Bottom));
                root.draw_text(&text, &style, (centre, y - 3 - 11 * level as i32))?;
            }
        }
    }
    Ok(())
}

/// The mesh of the primary axes: horizontal grid lines and y tick labels; the
/// x axis gets no ticks (category labels are drawn by [`draw_x_labels`]).
pub(super) fn draw_primary_mesh(
    chart: &mut Chart,
    y_desc: &str,
    (lo, hi): (f64, f64),
) -> Result<()> {
    let span = hi - lo;
    let tick = move |v: &f64| fmt_tick(*v, span);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(8)
        .y_label_formatter(&tick)
        .y_desc(y_desc)
        .label_style(font(TICK_FONT))
        .axis_desc_style(font(AXIS_FONT))
        .bold_line_style(BLACK.mix(0.15))
        .light_line_style(TRANSPARENT)
        .axis_style(BLACK)
        .draw()?;
    Ok(())
}

/// A solid zero line when the range spans negative and positive values.
pub(super) fn draw_zero_line(chart: &mut Chart, groups: usize, (lo, hi): (f64, f64)) -> Result<()> {
    if lo < 0.0 && hi > 0.0 {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (groups as f64, 0.0)],
            BLACK.stroke_width(1),
        )))?;
    }
    Ok(())
}

pub(super) fn colours(n: usize) -> Vec<RGBColor> {
    (0..n).map(|i| PALETTE[i % PALETTE.len()]).collect()
}

/// A count on a numeric axis spanning `span`: `250k`, `1.5M`, `12`.
pub(super) fn fmt_count(v: f64, span: f64) -> String {
    let a = v.abs();
    let (x, unit) = if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 && span >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    format!("{}{unit}", trim_zeros(format!("{x:.2}")))
}

/// A line's points `(x_of(i), value)`, broken into runs at missing values.
pub(super) fn line_runs(
    values: &[Option<f64>],
    x_of: impl Fn(usize) -> f64,
) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = vec![];
    let mut run = vec![];
    for (i, v) in values.iter().enumerate() {
        match v {
            Some(v) => run.push((x_of(i), *v)),
            None if !run.is_empty() => runs.push(std::mem::take(&mut run)),
            None => {}
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    runs
}
