//! The charts' descriptions: what a chart shows, its size and palette.

use plotters::style::RGBColor;

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
