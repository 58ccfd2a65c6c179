//! Tests of the charts: titles, legends and labels, determinism,
//! clipping, bad input, stacked charts and panels.

use crate::plot::charts::{BarChart, BarLineChart, Group, StackedChart, StackedX, SIZE};
use crate::plot::layout::{fmt_count, fmt_tick, fmt_value};
use crate::plot::panels::panels;

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
