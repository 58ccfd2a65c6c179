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

//!
//! [`charts`] describes the charts, [`bars`] and [`stacked`] render them
//! over the shared drawing of [`layout`], [`panels`](mod@panels) stacks them.

pub mod bars;
pub mod charts;
pub mod layout;
pub mod panels;
pub mod scatter;
pub mod stacked;

#[cfg(test)]
mod tests;

pub use charts::{BarChart, BarLineChart, Group, StackedChart, StackedX, PALETTE, SIZE};
pub use panels::panels;
pub use scatter::{front_svg, pareto_front, pareto_svg};
