//! Paper-style charts rendered to SVG strings with [`plotters`].
//!
//! Two chart kinds cover the reports of `warpgen`:
//!
//! * [`BarChart`]: grouped bars, one group per benchmark and one bar per
//!   series (e.g. prefetcher) inside each group, with a legend, a y axis with
//!   grid lines and an optional dashed reference line (e.g. the baseline 1.0
//!   of a speed-up chart).
//! * [`BarLineChart`]: grouped bars on the primary (left) y axis plus one
//!   line on a secondary (right) y axis, like Figure 1 of the CAPS paper
//!   (prefetch accuracy bars against warp distance, the cycle gap as a line).
//! * [`StackedChart`]: stacked bars, along x either categories or the equal
//!   bins of a numeric axis (a time line), with an optional line on a
//!   secondary axis, like the BA thesis's Figure 7 (each benchmark's reuse
//!   classes stacked to 100 %) and, over time, its Figure 13.
//!
//! [`panels`] stacks charts vertically into one SVG document.
//!
//! The output is a standalone SVG document of [`SIZE`] pixels. It needs no
//! font or system library: text is written as SVG `<text>` elements and the
//! layout uses a fixed estimate of glyph widths. The same input always gives
//! a byte-identical SVG.
//!
//! Values above the axis range are clipped to the top of the plot, marked
//! with a white break across the bar and labelled with their value above the
//! plot, so one outlier does not squash the chart. Values below the range are
//! clipped to the bottom (with the break mark only). `None` values draw no
//! bar (or leave a gap in the line).

use anyhow::{bail, Result};
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Size of every chart in pixels (width, height).
pub const SIZE: (u32, u32) = (900, 420);

/// The colour-blind-friendly palette of Okabe and Ito (2008), in the order
/// series are coloured: blue, orange, bluish green, vermillion, reddish
/// purple, sky blue, yellow and grey. Series beyond the eighth reuse colours
/// cyclically. Black is kept for axes, reference lines and the line series of
/// [`BarLineChart`].
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0xF0, 0xE4, 0x42),
    RGBColor(0x99, 0x99, 0x99),
];

/// One group of bars (e.g. a benchmark) with one value per series.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Label written under the group on the x axis.
    pub label: String,
    /// One value per entry of [`BarChart::series`], in the same order;
    /// `None` draws no bar (run refused, not applicable).
    pub values: Vec<Option<f64>>,
}

/// A grouped bar chart: groups along x, one bar per series in each group.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// Title written above the chart.
    pub title: String,
    /// Description of the y axis (written rotated left of it).
    pub y_label: String,
    /// Legend names of the series (e.g. prefetchers), one colour each.
    pub series: Vec<String>,
    /// The groups, left to right.
    pub groups: Vec<Group>,
    /// The y axis range `(min, max)`. By default `0 .. max * 1.1`, extended
    /// down to `min * 1.1` when some value is negative.
    pub y_range: Option<(f64, f64)>,
    /// An optional horizontal dashed line at a y value with its legend text,
    /// e.g. `(1.0, "baseline")`. It is drawn only when inside the y range.
    pub reference: Option<(f64, String)>,
}

/// Grouped bars on a primary y axis plus one line on a secondary y axis (the
/// CAPS paper's Figure 1: accuracy bars against warp distance, and the cycle
/// gap as a line).
#[derive(Debug, Clone, PartialEq)]
pub struct BarLineChart {
    /// Title written above the chart.
    pub title: String,
    /// Description of the x axis, written under the category labels.
    pub x_label: String,
    /// The categories along x (e.g. warp distances 1..16).
    pub x: Vec<String>,
    /// One or more bar series on the primary (left) axis, as (legend name,
    /// one value per category). Several series are grouped side by side.
    pub bars: Vec<(String, Vec<Option<f64>>)>,
    /// Description of the primary (left) y axis.
    pub bar_axis: String,
    /// Range `(min, max)` of the primary y axis.
    pub bar_range: (f64, f64),
    /// The line series on the secondary (right) axis, as (legend name, one
    /// value per category); `None` leaves a gap in the line. Its axis range
    /// is `0 .. max * 1.1`, extended down when some value is negative.
    pub line: (String, Vec<Option<f64>>),
    /// Description of the secondary (right) y axis.
    pub line_axis: String,
}

/// Stacked bars (each bar the stack of the series' values at its x, e.g.
/// shares adding up to 100 %), with an optional line on a secondary (right)
/// y axis.
#[derive(Debug, Clone, PartialEq)]
pub struct StackedChart {
    /// Title written above the chart.
    pub title: String,
    /// Description of the x axis.
    pub x_label: String,
    /// What is along x.
    pub x: StackedX,
    /// Description of the primary (left) y axis.
    pub y_label: String,
    /// The primary y axis range; by default `0 .. the highest stack`
    /// (nothing added: stacks of shares end at the top).
    pub y_range: Option<(f64, f64)>,
    /// The stacked series, bottom first, as (legend name, one value per x
    /// position); values must be finite and not negative.
    pub series: Vec<(String, Vec<f64>)>,
    /// An optional line on the secondary axis: (legend name, one value per
    /// x position, `None` leaving a gap; axis description).
    pub line: Option<(String, Vec<Option<f64>>, String)>,
    /// The secondary axis's range; by default `0 .. max * 1.1` of the
    /// line (the primary range, say, to read the line against the stacks).
    pub line_range: Option<(f64, f64)>,
}

/// The x positions of a [`StackedChart`].
#[derive(Debug, Clone, PartialEq)]
pub enum StackedX {
    /// One bar per named category, written under it.
    Categories(Vec<String>),
    /// Equal bins of a numeric axis, the first from `start`, each `width`
    /// wide (as many as the series have values), drawn edge to edge on an
    /// axis with numeric ticks.
    Bins {
        /// The first bin's lower edge.
        start: f64,
        /// Each bin's width.
        width: f64,
    },
}

// ---------------------------------------------------------------------------
// Layout constants (pixels).

const MARGIN_LEFT: u32 = 10;
const MARGIN_RIGHT: u32 = 20;
/// Room above the plot for the value labels of clipped bars (two levels).
const MARGIN_TOP: u32 = 26;
const MARGIN_BOTTOM: u32 = 6;
const Y_AXIS_AREA: u32 = 70;
const LEGEND_ROW: u32 = 20;
const TICK_FONT: f64 = 12.0;
const AXIS_FONT: f64 = 13.0;
const TITLE_FONT: f64 = 17.0;
const LEGEND_FONT: f64 = 12.0;
const MARK_FONT: f64 = 10.0;
/// Share of a group's width covered by its bars.
const GROUP_FILL: f64 = 0.8;
/// Longest rotated x label, in pixels, before it is shortened with "…".
const MAX_ROTATED_LABEL: f64 = 130.0;

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;
type Area<'b> = DrawingArea<SVGBackend<'b>, plotters::coord::Shift>;

/// A text style of `px` pixels as rendered (the SVG backend divides the
/// requested size by 1.24).
fn font(px: f64) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", px * 1.24).into_font()).color(&BLACK)
}

/// Estimated rendered width of `s` at `px` pixels in a sans-serif font.
fn text_width(s: &str, px: f64) -> f64 {
    s.chars().count() as f64 * px * 0.6
}

/// A value as written on a clipped bar: about three significant digits.
fn fmt_value(v: f64) -> String {
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
fn fmt_tick(v: f64, span: f64) -> String {
    let decimals = (2.0 - span.log10().floor()).clamp(0.0, 6.0) as usize;
    let s = trim_zeros(format!("{v:.decimals$}"));
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `0 .. max * 1.1`, extended down to `min * 1.1` for negative values;
/// `0 .. 1` when there is nothing to show.
fn auto_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
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

fn check_range(what: &str, (lo, hi): (f64, f64)) -> Result<()> {
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        bail!("plot: {what} ({lo}, {hi}) must be finite with min < max");
    }
    Ok(())
}

fn check_values(what: &str, values: &[Option<f64>]) -> Result<()> {
    if let Some(v) = values.iter().flatten().find(|v| !v.is_finite()) {
        bail!("plot: {what} has a non-finite value {v}");
    }
    Ok(())
}

/// One legend entry.
enum Key<'s> {
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

const LEGEND_GAP: f64 = 18.0;

/// Splits the legend entries into centred rows fitting `width`.
fn legend_rows<'k, 's>(keys: &'k [Key<'s>], width: f64) -> Vec<&'k [Key<'s>]> {
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
fn draw_header<'b>(root: &Area<'b>, title: &str, keys: &[Key]) -> Result<Area<'b>> {
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
struct XLabels {
    px: f64,
    rotated: bool,
    labels: Vec<String>,
    /// Height in pixels of the label band under the axis.
    height: u32,
}

/// Chooses a font size and orientation so that `labels` fit in slots of
/// `slot` pixels: horizontal at 12, 11 or 10 px when that fits, otherwise
/// rotated (reading upwards), shortened beyond [`MAX_ROTATED_LABEL`].
fn plan_x_labels(labels: &[String], slot: f64) -> XLabels {
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
fn draw_x_labels(root: &Area, chart: &Chart, plan: &XLabels, y_min: f64) -> Result<()> {
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
fn plot_width(right_area: u32) -> f64 {
    (SIZE.0 - MARGIN_LEFT - MARGIN_RIGHT - Y_AXIS_AREA - right_area) as f64
}

/// Draws the bars of `values[group][series]` on `chart` (range `lo..hi`),
/// clipping and marking out-of-range values.
fn draw_bars(
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
fn draw_primary_mesh(chart: &mut Chart, y_desc: &str, (lo, hi): (f64, f64)) -> Result<()> {
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
fn draw_zero_line(chart: &mut Chart, groups: usize, (lo, hi): (f64, f64)) -> Result<()> {
    if lo < 0.0 && hi > 0.0 {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (groups as f64, 0.0)],
            BLACK.stroke_width(1),
        )))?;
    }
    Ok(())
}

fn colours(n: usize) -> Vec<RGBColor> {
    (0..n).map(|i| PALETTE[i % PALETTE.len()]).collect()
}

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
            let mut runs: Vec<Vec<(f64, f64)>> = vec![];
            let mut run = vec![];
            for (i, v) in self.line.1.iter().enumerate() {
                match v {
                    Some(v) => run.push((i as f64 + 0.5, *v)),
                    None if !run.is_empty() => runs.push(std::mem::take(&mut run)),
                    None => {}
                }
            }
            if !run.is_empty() {
                runs.push(run);
            }
            for run in runs {
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

impl StackedChart {
    /// Renders the chart as a standalone SVG document of [`SIZE`] pixels.
    ///
    /// Fails with a message when there are no series or no x positions,
    /// when a series (or the line) does not have one value per position,
    /// when a value is negative or not finite, when a bin width is not
    /// positive, or when the range is empty.
    pub fn svg(&self) -> Result<String> {
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
            StackedX::Categories(c) => plan_x_labels(c, plot_width(right) / n as f64),
            StackedX::Bins { .. } => XLabels {
                px: TICK_FONT,
                rotated: false,
                labels: vec![],
                height: TICK_FONT as u32 + 12,
            },
        };
        // The x position of bar i: (left, right, centre).
        let slot = |i: usize| match bins {
            None => {
                let pad = (1.0 - GROUP_FILL) / 2.0;
                (i as f64 + pad, i as f64 + 1.0 - pad, i as f64 + 0.5)
            }
            Some((start, width)) => {
                let l = start + width * i as f64;
                (l, l + width, l + width / 2.0)
            }
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
            let lr = line_range.unwrap_or((0.0, 1.0));
            let mut chart = builder
                .build_cartesian_2d(x_lo..x_hi, range.0..range.1)?
                .set_secondary_coord(x_lo..x_hi, lr.0..lr.1);
            let span = range.1 - range.0;
            let tick = move |v: &f64| fmt_tick(*v, span);
            let x_span = x_hi - x_lo;
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
            if bins.is_some() {
                mesh.x_labels(8).x_label_formatter(&x_tick);
            } else {
                mesh.x_labels(0);
            }
            mesh.draw()?;
            if let (Some((_, _, desc)), Some(_)) = (&self.line, line_range) {
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
            for i in 0..n {
                let (l, r, _) = slot(i);
                let mut cum = 0.0f64;
                for ((_, v), c) in self.series.iter().zip(&colours) {
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
            if let Some((_, values, _)) = &self.line {
                let mut runs: Vec<Vec<(f64, f64)>> = vec![];
                let mut run = vec![];
                for (i, v) in values.iter().enumerate() {
                    match v {
                        Some(v) => run.push((slot(i).2, *v)),
                        None if !run.is_empty() => runs.push(std::mem::take(&mut run)),
                        None => {}
                    }
                }
                if !run.is_empty() {
                    runs.push(run);
                }
                for run in runs {
                    chart.draw_secondary_series(LineSeries::new(
                        run.iter().copied(),
                        BLACK.stroke_width(2),
                    ))?;
                    // Markers only where they stay apart.
                    if n <= 40 {
                        chart.draw_secondary_series(
                            run.iter().map(|&p| Circle::new(p, 3, BLACK.filled())),
                        )?;
                    }
                }
            }
            if bins.is_none() {
                draw_x_labels(&root, &chart, &plan, range.0)?;
            }
            let (px, py) = chart.backend_coord(&((x_lo + x_hi) / 2.0, range.0));
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

/// A count on a numeric axis spanning `span`: `250k`, `1.5M`, `12`.
fn fmt_count(v: f64, span: f64) -> String {
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

/// Charts stacked top to bottom in one standalone SVG document (each keeps
/// its own size; the document is as wide as the widest).
pub fn panels(charts: &[String]) -> String {
    let dims: Vec<(u32, u32)> = charts.iter().map(|c| svg_size(c)).collect();
    let width = dims.iter().map(|d| d.0).max().unwrap_or(0);
    let height: u32 = dims.iter().map(|d| d.1).sum();
    let mut s = format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    let mut y = 0;
    for (c, (_, h)) in charts.iter().zip(&dims) {
        let body = match c.find("<svg") {
            Some(i) => &c[i..],
            None => c.as_str(),
        };
        s += &format!(
            "<g transform=\"translate(0,{y})\">\n{}\n</g>\n",
            body.trim_end()
        );
        y += h;
    }
    s += "</svg>\n";
    s
}

/// The `width` and `height` attributes of an SVG document's root element
/// ([`SIZE`] when absent).
fn svg_size(svg: &str) -> (u32, u32) {
    let Some(root) = svg.find("<svg").map(|i| &svg[i..]) else {
        return SIZE;
    };
    let head = &root[..root.find('>').unwrap_or(root.len())];
    let attr = |name: &str| -> Option<u32> {
        let v = head
            .split(&format!(" {name}=\""))
            .nth(1)?
            .split('"')
            .next()?;
        v.parse().ok()
    };
    (
        attr("width").unwrap_or(SIZE.0),
        attr("height").unwrap_or(SIZE.1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn benchmarks() -> Vec<&'static str> {
        vec![
            "backprop",
            "bfs",
            "b+tree",
            "gaussian",
            "hotspot",
            "kmeans",
            "lavaMD",
            "lud",
            "nw",
            "pathfinder",
            "srad_v1",
            "streamcluster",
        ]
    }

    fn chart() -> BarChart {
        let series = ["none", "stride", "CAPS", "warp-aware"];
        BarChart {
            title: "Speed-up over no prefetching".into(),
            y_label: "speed-up".into(),
            series: series.iter().map(|s| s.to_string()).collect(),
            groups: benchmarks()
                .into_iter()
                .enumerate()
                .map(|(g, label)| Group {
                    label: label.into(),
                    values: (0..series.len())
                        .map(|s| {
                            if g == 2 && s == 3 {
                                None
                            } else {
                                Some(1.0 + 0.07 * ((g * 7 + s * 3) % 11) as f64 - 0.2)
                            }
                        })
                        .collect(),
                })
                .collect(),
            y_range: None,
            reference: Some((1.0, "baseline".into())),
        }
    }

    fn bar_line() -> BarLineChart {
        BarLineChart {
            title: "Prefetch accuracy and cycle gap against warp distance".into(),
            x_label: "warp distance".into(),
            x: (1..=16).map(|d| d.to_string()).collect(),
            bars: vec![(
                "accuracy".into(),
                (1..=16).map(|d| Some(0.95 - 0.04 * d as f64)).collect(),
            )],
            bar_axis: "accuracy".into(),
            bar_range: (0.0, 1.0),
            line: (
                "cycle gap".into(),
                (1..=16)
                    .map(|d| if d == 7 { None } else { Some(40.0 * d as f64) })
                    .collect(),
            ),
            line_axis: "cycles between accesses".into(),
        }
    }

    fn rects(svg: &str) -> usize {
        svg.matches("<rect").count()
    }

    fn looks_like_svg(svg: &str) {
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{svg:.80}"
        );
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn plot_bar_chart_has_title_legend_and_labels() {
        let c = chart();
        let svg = c.svg().unwrap();
        looks_like_svg(&svg);
        assert!(svg.contains(&c.title));
        assert!(svg.contains(&c.y_label));
        assert!(svg.contains(">\nbaseline\n<"));
        for s in &c.series {
            assert!(svg.contains(&format!(">\n{s}\n<")), "legend {s}");
        }
        for g in &c.groups {
            let label = html_text(&g.label);
            assert!(svg.contains(&format!(">\n{label}\n<")), "label {label}");
        }
    }

    fn html_text(s: &str) -> String {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    }

    #[test]
    fn plot_bar_line_chart_has_title_legend_and_labels() {
        let c = bar_line();
        let svg = c.svg().unwrap();
        looks_like_svg(&svg);
        for t in [&c.title, &c.x_label, &c.bar_axis, &c.line_axis, &c.line.0] {
            assert!(svg.contains(t.as_str()), "{t}");
        }
        for x in &c.x {
            assert!(svg.contains(&format!(">\n{x}\n<")), "category {x}");
        }
        // The gap at distance 7 splits the line in two polylines (plus the
        // legend sample), with one marker per value (plus the legend's).
        let line = "<polyline fill=\"none\" opacity=\"1\" stroke=\"#000000\" stroke-width=\"2\"";
        assert_eq!(svg.matches(line).count(), 1 + 2);
        assert_eq!(svg.matches("<circle").count(), 1 + 15);
    }

    #[test]
    fn plot_output_is_deterministic() {
        assert_eq!(chart().svg().unwrap(), chart().svg().unwrap());
        assert_eq!(bar_line().svg().unwrap(), bar_line().svg().unwrap());
    }

    #[test]
    fn plot_outlier_is_clipped_and_marked() {
        let mut c = chart();
        let plain = c.svg().unwrap();
        assert!(!plain.contains(">\n123\n<"));
        c.groups[4].values[1] = Some(123.0);
        c.y_range = Some((0.0, 2.0));
        let svg = c.svg().unwrap();
        assert!(svg.contains(">\n123\n<"), "outlier value written");
        // The bar stops at the top of the plot: no rectangle is taller than
        // the plotting area, and the top of the y axis is 2.
        assert!(svg.contains(">\n2\n<"));
        assert!(!svg.contains(">\n120\n<"));
        let top = max_bar_height(&svg);
        assert!(top < SIZE.1, "bar height {top}");
        // Without an explicit range, the default range follows the outlier.
        c.y_range = None;
        assert!(!c.svg().unwrap().contains(">\n123\n<"));
        // Bar/line chart: accuracy 1.5 above the range 0..1.
        let mut b = bar_line();
        b.bars[0].1[3] = Some(1.5);
        assert!(b.svg().unwrap().contains(">\n1.5\n<"));
    }

    fn max_bar_height(svg: &str) -> u32 {
        svg.lines()
            .filter(|l| l.starts_with("<rect") && !l.contains("fill=\"#FFFFFF\""))
            .filter_map(|l| {
                let h = l.split("height=\"").nth(1)?.split('"').next()?;
                h.parse::<i64>().ok()
            })
            .map(|h| h.unsigned_abs() as u32)
            .max()
            .unwrap()
    }

    #[test]
    fn plot_none_draws_no_bar() {
        let mut c = chart();
        let with_none = rects(&c.svg().unwrap());
        c.groups[2].values[3] = Some(1.2);
        let without_none = rects(&c.svg().unwrap());
        assert_eq!(without_none, with_none + 1);
        c.groups[0].values = vec![None; 4];
        assert_eq!(rects(&c.svg().unwrap()), with_none + 1 - 4);

        let mut b = bar_line();
        let full = rects(&b.svg().unwrap());
        b.bars[0].1[5] = None;
        assert_eq!(rects(&b.svg().unwrap()), full - 1);
    }

    #[test]
    fn plot_negative_values_extend_the_range() {
        let mut c = chart();
        c.groups[1].values[0] = Some(-0.5);
        let svg = c.svg().unwrap();
        looks_like_svg(&svg);
        assert!(svg.contains(">\n-0.5\n<"), "negative tick");
    }

    #[test]
    fn plot_empty_input_is_an_error() {
        let mut c = chart();
        c.groups.clear();
        let e = c.svg().unwrap_err().to_string();
        assert!(e.contains("no groups"), "{e}");

        let mut c = chart();
        c.series.clear();
        let e = c.svg().unwrap_err().to_string();
        assert!(e.contains("no series"), "{e}");

        let mut c = chart();
        c.groups[3].values.pop();
        let e = c.svg().unwrap_err().to_string();
        assert!(e.contains("3 values for 4 series"), "{e}");

        let mut c = chart();
        c.y_range = Some((1.0, 1.0));
        assert!(c.svg().is_err());
        c.y_range = None;
        c.groups[0].values[0] = Some(f64::NAN);
        assert!(c.svg().unwrap_err().to_string().contains("non-finite"));

        let mut b = bar_line();
        b.x.clear();
        assert!(b.svg().unwrap_err().to_string().contains("no categories"));
        let mut b = bar_line();
        b.bars.clear();
        assert!(b.svg().unwrap_err().to_string().contains("no bar series"));
        let mut b = bar_line();
        b.line.1.pop();
        assert!(b
            .svg()
            .unwrap_err()
            .to_string()
            .contains("15 values for 16"));
    }

    #[test]
    fn plot_text_is_escaped() {
        let mut c = chart();
        c.title = "a <b> & \"c\"".into();
        let svg = c.svg().unwrap();
        assert!(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
        assert!(!svg.contains("<b>"));
    }

    #[test]
    fn plot_tick_and_value_formats() {
        assert_eq!(fmt_tick(0.5, 1.1), "0.5");
        assert_eq!(fmt_tick(-0.0, 1.1), "0");
        assert_eq!(fmt_tick(200.0, 440.0), "200");
        assert_eq!(fmt_value(123.4), "123");
        assert_eq!(fmt_value(12.34), "12.3");
        assert_eq!(fmt_value(1.5), "1.5");
        assert_eq!(fmt_value(2.0), "2");
    }

    fn stacked(x: StackedX, n: usize) -> StackedChart {
        let names = ["[0,8)", "[8,16)", "[16,32)", "[128,inf)", "inf"];
        StackedChart {
            title: "Reuse distance over time".into(),
            x_label: "cycle".into(),
            x,
            y_label: "% of accesses".into(),
            y_range: Some((0.0, 100.0)),
            series: names
                .iter()
                .enumerate()
                .map(|(k, name)| {
                    (
                        name.to_string(),
                        (0..n)
                            .map(|i| if (i + k) % 4 == 0 { 40.0 } else { 15.0 })
                            .collect(),
                    )
                })
                .collect(),
            line: Some((
                "accesses".into(),
                (0..n)
                    .map(|i| if i == 2 { None } else { Some(100.0 * i as f64) })
                    .collect(),
                "accesses per window".into(),
            )),
            line_range: None,
        }
    }

    #[test]
    fn plot_stacked_chart_has_title_legend_stacks_and_axes() {
        let cats: Vec<String> = ["16 KB 4-way", "16 KB 8-way", "32 KB 8-way"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let c = stacked(StackedX::Categories(cats.clone()), 3);
        let svg = c.svg().unwrap();
        looks_like_svg(&svg);
        for t in [&c.title, &c.x_label, &c.y_label, "accesses per window"] {
            assert!(svg.contains(t), "{t}");
        }
        for (name, _) in &c.series {
            assert!(
                svg.contains(&format!(">\n{}\n<", html_text(name))),
                "legend {name}"
            );
        }
        for x in &cats {
            assert!(svg.contains(&format!(">\n{x}\n<")), "category {x}");
        }
        // One rectangle per series and position (none is zero), plus the
        // background and the legend's swatches.
        let plain = rects(&svg);
        let mut z = c.clone();
        z.series[0].1[1] = 0.0;
        assert_eq!(rects(&z.svg().unwrap()), plain - 1);
        // The line is broken by its gap (two polylines and the legend's).
        let line = "<polyline fill=\"none\" opacity=\"1\" stroke=\"#000000\" stroke-width=\"2\"";
        let mut g = stacked(StackedX::Categories(vec!["a".into(); 5]), 5);
        g.line.as_mut().unwrap().1[2] = None;
        assert_eq!(g.svg().unwrap().matches(line).count(), 1 + 2);
        // Bins: a numeric axis with count ticks, bars edge to edge.
        let b = stacked(
            StackedX::Bins {
                start: 0.0,
                width: 16384.0,
            },
            80,
        );
        let svg = b.svg().unwrap();
        looks_like_svg(&svg);
        assert!(
            svg.contains(">\n1M\n<") || svg.contains(">\n1.2M\n<"),
            "count ticks"
        );
        assert!(rects(&svg) >= 5 * 80);
        assert_eq!(b.svg().unwrap(), svg, "deterministic");
        // Without a line there is no second axis.
        let mut nl = b.clone();
        nl.line = None;
        assert!(!nl.svg().unwrap().contains("accesses per window"));
    }

    #[test]
    fn plot_stacked_chart_rejects_bad_input() {
        let ok = stacked(StackedX::Categories(vec!["a".into(), "b".into()]), 2);
        ok.svg().unwrap();
        let mut c = ok.clone();
        c.series.clear();
        assert!(c.svg().unwrap_err().to_string().contains("no series"));
        let mut c = ok.clone();
        c.x = StackedX::Categories(vec![]);
        assert!(c.svg().unwrap_err().to_string().contains("no x positions"));
        let mut c = ok.clone();
        c.series[1].1.pop();
        assert!(c.svg().unwrap_err().to_string().contains("1 values for 2"));
        let mut c = ok.clone();
        c.series[0].1[0] = -1.0;
        assert!(c.svg().unwrap_err().to_string().contains(">= 0"));
        let mut c = ok.clone();
        c.line.as_mut().unwrap().1.push(Some(1.0));
        assert!(c.svg().unwrap_err().to_string().contains("3 values for 2"));
        let mut c = ok.clone();
        c.x = StackedX::Bins {
            start: 0.0,
            width: 0.0,
        };
        assert!(c.svg().is_err());
        let mut c = ok.clone();
        c.y_range = Some((5.0, 5.0));
        assert!(c.svg().is_err());
        let mut c = ok.clone();
        c.line_range = Some((1.0, f64::NAN));
        assert!(c.svg().unwrap_err().to_string().contains("line range"));
    }

    #[test]
    fn plot_panels_stack_charts_in_one_document() {
        let a = chart().svg().unwrap();
        let b = stacked(StackedX::Categories(vec!["x".into()]), 1)
            .svg()
            .unwrap();
        let doc = panels(&[a, b]);
        looks_like_svg(&doc);
        assert!(doc.starts_with(&format!(
            "<svg width=\"{}\" height=\"{}\"",
            SIZE.0,
            2 * SIZE.1
        )));
        assert_eq!(doc.matches("<svg").count(), 3);
        assert!(doc.contains(&format!("translate(0,{})", SIZE.1)));
        assert!(!doc.contains("<?xml"));
        assert_eq!(fmt_count(1_500_000.0, 2e6), "1.5M");
        assert_eq!(fmt_count(250_000.0, 1e6), "250k");
        assert_eq!(fmt_count(12.0, 100.0), "12");
    }

    /// Writes demo charts to /tmp/plot_demo.svg, /tmp/plot_demo_line.svg,
    /// /tmp/plot_demo_short.svg and /tmp/plot_demo_stacked.svg (two panels):
    /// `cargo test -p gen --lib plot::tests::plot_demo -- --ignored`.
    #[test]
    #[ignore]
    fn plot_demo() {
        let mut c = chart();
        c.groups[4].values[1] = Some(4.56);
        c.groups[4].values[2] = Some(3.9);
        c.y_range = Some((0.0, 2.0));
        std::fs::write("/tmp/plot_demo.svg", c.svg().unwrap()).unwrap();
        let mut b = bar_line();
        b.bars.push((
            "coverage".into(),
            (1..=16).map(|d| Some(0.3 + 0.03 * d as f64)).collect(),
        ));
        std::fs::write("/tmp/plot_demo_line.svg", b.svg().unwrap()).unwrap();
        let mut short = chart();
        short.groups.truncate(5);
        short.reference = None;
        short.groups[1].values[0] = Some(-0.4);
        std::fs::write("/tmp/plot_demo_short.svg", short.svg().unwrap()).unwrap();
        let time = stacked(
            StackedX::Bins {
                start: 0.0,
                width: 16384.0,
            },
            80,
        );
        std::fs::write(
            "/tmp/plot_demo_stacked.svg",
            panels(&[c.svg().unwrap(), time.svg().unwrap()]),
        )
        .unwrap();
    }
}
