//! Snake (Mostofi et al., MICRO 2023) in the reproduction: Figures 16 to
//! 18 (coverage, timely accuracy, IPC) against the other prefetchers, and
//! the decoupled L1's share of the accuracy.

use crate::reproduce::claims::{claim, figure, grade, grade2, Report};
use crate::reproduce::experiment::ReproducedPaper;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::{b, extra, grid, id, Bench, Mech, Options};
use crate::reproduce::results::Res;
use crate::reproduce::table::{bar, last, opt, pct, percent, ratio_pct, series, Exp, Table};
use crate::sweep::RunSpec;

/// The paper's handle.
const PAPER: Paper = Paper::new("snake");

/// Its title line.
const TITLE: &str =
    "Snake: Mostofi et al., A Variable-length Chain-based Prefetching for GPUs (MICRO 2023)";

/// The paper's preset (Table 1).
pub(crate) const SNAKE_PRESET: &str = "snake-v100";
/// Snake's Table 2 has LPS; the other regular bundled kernels are shown
/// beside it (not averaged into the claims).
pub(crate) const SNAKE_BENCH: &[Bench] = &[
    b("LPS", &["lps"]),
    extra("MM", &["matrix_mul"]),
    extra("CNV", &["conv_rows", "conv_cols"]),
    extra("stream", &["stream"]),
];
/// The prefetchers compared, Snake with and without the decoupled L1.
pub(crate) const SNAKE_MECHS: &[Mech] = &[
    ("baseline", &[]),
    ("INTRA", &["prefetcher=intra"]),
    ("MTA", &["prefetcher=mta"]),
    ("CTA-Aware", &["prefetcher=caps"]),
    ("Snake", &["prefetcher=snake"]),
    (
        "Snake, not decoupled",
        &["prefetcher=snake", "decoupled=off"],
    ),
];

/// The Snake paper.
pub struct SnakePaper;

impl ReproducedPaper for SnakePaper {
    fn paper(&self) -> Paper {
        PAPER
    }

    fn citation(&self) -> &'static str {
        "Mostofi et al., Snake (MICRO 2023)"
    }

    fn title(&self) -> &'static str {
        TITLE
    }

    fn plan(&self, o: &Options) -> Vec<RunSpec> {
        grid(o, PAPER, "fig16", SNAKE_PRESET, SNAKE_BENCH, SNAKE_MECHS)
    }

    fn section(&self, _o: &Options, res: &Res, r: &mut Report) -> anyhow::Result<String> {
        let mut sec = format!(
            "## {}\n\nPreset `{SNAKE_PRESET}` (the paper's Table 1). Of its Table 2 benchmarks the \
             bundled kernels cover LPS; matrixMul, convolutionSeparable and a stream are shown \
             beside it and kept out of the claims. Snake's metrics (§VI): coverage = correctly \
             predicted / demand; accuracy = correct and timely / demand.\n\n",
            TITLE
        );
        figures_16_18(res, r, &mut sec)?;
        Ok(sec)
    }
}

/// Figures 16 to 18: the tables, the charts and the claims.
fn figures_16_18(res: &Res, r: &mut Report, sec: &mut String) -> anyhow::Result<()> {
    let p = PAPER;
    let mechs: Vec<&'static str> = SNAKE_MECHS.iter().map(|m| m.0).collect();
    let pf: Vec<&'static str> = mechs[1..].to_vec();
    let e = Exp {
        res,
        paper: p,
        exp: "fig16",
        bench: SNAKE_BENCH,
        mechs: pf.clone(),
        base: "baseline",
    };
    let cov = e.share(&["prefetch.useful", "prefetch.late"], &["l1.accesses"]);
    let acc = e.share(&["prefetch.useful"], &["l1.accesses"]);
    let speed = e.speedup();
    *sec += "### Figure 16: coverage\n\n";
    *sec += &cov.markdown(&pct);
    sec.push('\n');
    figure(
        r,
        sec,
        "fig-snake-16.svg",
        "Snake Figure 16, ours: coverage",
        bar(
            "Snake Fig. 16 (ours): coverage (correctly predicted / demand)",
            "coverage (%)",
            &percent(&cov),
            None,
            Some((0.0, 100.0)),
        )?,
    );
    *sec += "### Figure 17: accuracy (timely)\n\n";
    *sec += &acc.markdown(&pct);
    sec.push('\n');
    figure(
        r,
        sec,
        "fig-snake-17.svg",
        "Snake Figure 17, ours: accuracy",
        bar(
            "Snake Fig. 17 (ours): accuracy (correct and timely / demand)",
            "accuracy (%)",
            &percent(&acc),
            None,
            Some((0.0, 100.0)),
        )?,
    );
    *sec += "### Figure 18: performance over the baseline\n\n";
    *sec += &speed.markdown(&|v| format!("{v:.2}"));
    sec.push('\n');
    figure(
        r,
        sec,
        "fig-snake-18.svg",
        "Snake Figure 18, ours: IPC over the baseline",
        bar(
            "Snake Fig. 18 (ours): IPC normalised to no prefetching",
            "normalised IPC",
            &speed,
            Some((1.0, "baseline")),
            None,
        )?,
    );
    claims(res, r, (&cov, &acc, &speed));
    Ok(())
}

/// The claims of Figures 16 to 18 from their tables (coverage, accuracy,
/// IPC).
fn claims(res: &Res, r: &mut Report, (cov, acc, speed): (&Table, &Table, &Table)) {
    let p = PAPER;
    let s = series(cov, "Snake");
    let m = series(cov, "MTA");
    let nd = series(cov, "Snake, not decoupled");
    let (sc, mc) = (last(cov, s), last(cov, m));
    claim(
        r,
        p,
        "Fig. 16",
        "Snake's coverage, and its margin over MTA",
        "80 %; 15 points above MTA",
        format!("Snake {}, MTA {} (LPS)", opt(sc, pct), opt(mc, pct)),
        grade2(sc, mc, |a, b| a >= 0.6 && a - b >= 0.1, |a, b| a > b),
        snake_reason(res, "lps"),
    );
    let sa = last(acc, s);
    claim(
        r,
        p,
        "Fig. 17",
        "Snake covers future accesses in time (accuracy = correct and timely / demand)",
        "75 % on average",
        format!("{} (LPS)", opt(sa, pct)),
        grade(sa, |a| a >= 0.6, |a| a >= 0.25),
        format!(
            "late prefetches count for coverage, not for this accuracy: coverage {} against accuracy {}; {}",
            opt(sc, pct),
            opt(sa, pct),
            snake_reason(res, "lps")
        ),
    );
    let na = last(acc, nd);
    claim(
        r,
        p,
        "§VI",
        "without decoupling Snake loses half its accuracy to early eviction",
        "-50 %",
        format!("{} decoupled, {} not", opt(sa, pct), opt(na, pct)),
        grade2(sa, na, |a, b| b <= 0.6 * a, |a, b| b < a),
        decoupling_reason(res, "lps"),
    );
    let sp = last(speed, s);
    claim(
        r,
        p,
        "Fig. 18",
        "Snake improves performance",
        "+17 % on average",
        format!("{} (LPS)", opt(sp, ratio_pct)),
        grade(sp, |v| v >= 1.1, |v| v > 1.01),
        format!(
            "{} of LPS's demand covered, {} in time; {}; the other kernels (not in the paper): {}",
            opt(sc, pct),
            opt(sa, pct),
            issue_reason(res, "lps"),
            speed.rows[1..speed.rows.len() - 1]
                .iter()
                .map(|(l, v)| format!("{l} {}", opt(v[s], |x| format!("{x:.2}"))))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
}

/// Why Snake's figures on kernel `k` are what they are.
fn snake_reason(res: &Res, k: &str) -> String {
    let i = vec![id(PAPER, "fig16", k, "Snake")];
    let issued = res.ratio(&i, &["prefetch.issued"], &["l1.accesses"]);
    let early = res.ratio(&i, &["prefetch.early_evicted"], &["prefetch.issued"]);
    let late = res.ratio(&i, &["prefetch.late"], &["prefetch.issued"]);
    let all = [
        "prefetch.snake.prefetches_chain",
        "prefetch.snake.prefetches_intra",
        "prefetch.snake.prefetches_inter",
    ];
    let kinds: Vec<String> = all
        .iter()
        .zip(["chain", "intra-warp", "inter-warp"])
        .map(|(k, name)| format!("{} {name}", opt(res.ratio(&i, &[k], &all), pct)))
        .collect();
    let trained = res.ratio(
        &i,
        &["prefetch.snake.loads_trained"],
        &[
            "prefetch.snake.loads_trained",
            "prefetch.snake.loads_ignored",
        ],
    );
    let ctas = res.ok(&i[0]).and_then(|r| {
        let m = r.metrics.as_ref()?;
        let sms = m.get("per_sm")?.as_array()?.len().max(1);
        Some(m.get("ctas")?.as_f64()? / sms as f64)
    });
    format!(
        "Snake trained on {} of its loads (the others not one stride per row), offered prefetches of which {} and issued {} per demand request on {k} (the rest were present or in flight); {} of those issued arrived after their demand (late) and {} were evicted before use; the grid gives {} CTAs per SM that ran any",
        opt(trained, pct),
        kinds.join(", "),
        opt(issued, |v| format!("{v:.2}")),
        opt(late, pct),
        opt(early, pct),
        opt(ctas, |v| format!("{v:.1}"))
    )
}

/// The share of SM-cycles without issue in run `id`: what a prefetcher can
/// remove at most.
fn idle_share(res: &Res, id: &str) -> Option<f64> {
    let m = res.ok(id)?.metrics.as_ref()?;
    let idle = m.get("sched")?.get("idle_cycles")?.as_f64()?;
    let per_sm = m.get("per_sm")?.as_array()?;
    let sm_cycles: f64 = per_sm
        .iter()
        .map(|s| s.get("cycles").and_then(|c| c.as_f64()))
        .sum::<Option<f64>>()?;
    (sm_cycles > 0.0).then_some(idle / sm_cycles)
}

/// Why Snake's speed-up on kernel `k` is what it is: how much of the
/// baseline's time the SMs had nothing to issue.
fn issue_reason(res: &Res, k: &str) -> String {
    let base = idle_share(res, &id(PAPER, "fig16", k, "baseline"));
    let snake = idle_share(res, &id(PAPER, "fig16", k, "Snake"));
    format!(
        "without prefetching the SMs found no warp to issue in {} of their cycles on {k}, which bounds what any prefetcher can remove there (with Snake {})",
        opt(base, pct),
        opt(snake, pct)
    )
}

/// Why decoupling does or does not change Snake's accuracy on kernel `k`:
/// the early evictions it exists to prevent.
fn decoupling_reason(res: &Res, k: &str) -> String {
    let early = |mech: &str| {
        res.ratio(
            &[id(PAPER, "fig16", k, mech)],
            &["prefetch.early_evicted"],
            &["prefetch.issued"],
        )
    };
    format!(
        "accuracy with the decoupled storage against the plain L1 (decoupled = off); prefetches evicted before use on {k}: {} decoupled, {} not; the paper's loss is early eviction, which needs an L1 under pressure",
        opt(early("Snake"), pct),
        opt(early("Snake, not decoupled"), pct)
    )
}
