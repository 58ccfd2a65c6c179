//! Snake (Mostofi et al., MICRO 2023) in the reproduction: Figures 16 to
//! 18 (coverage, timely accuracy, IPC) against the other prefetchers, and
//! the decoupled L1's share of the accuracy.

use crate::reproduce::claims::{claim, figure, grade, grade2, Report};
use crate::reproduce::experiment::ReproducedPaper;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::{b, extra, grid, id, Bench, Mech, Options};
use crate::reproduce::results::Res;
use crate::reproduce::table::{
    bar, last, opt, pct, per_bench, percent, ratio_pct, series, Exp, Table,
};
use crate::sweep::RunSpec;

/// The paper's handle.
const PAPER: Paper = Paper::new("snake");

/// Its title line.
const TITLE: &str =
    "Snake: Mostofi et al., A Variable-length Chain-based Prefetching for GPUs (MICRO 2023)";

/// The paper's preset (Table 1).
pub(crate) const SNAKE_PRESET: &str = "snake-v100";
/// Snake's Table 2 (its eleven applications, each a bundled kernel file
/// written from its public source); matrixMul, convolutionSeparable and a
/// stream are shown beside them (not averaged into the claims).
pub(crate) const SNAKE_BENCH: &[Bench] = &[
    b("CP", &["cp"]),
    b("LPS", &["lps"]),
    b("LIB", &["lib"]),
    b("MUM", &["mum"]),
    b("Backprop", &["backprop"]),
    b("Hotspot", &["hotspot"]),
    b("Srad", &["srad"]),
    b("lud", &["lud"]),
    b("nw", &["nw"]),
    b("histo", &["histo"]),
    b("MRQ", &["mri_q"]),
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

/// How many applications the paper's Table 2 lists.
const PAPER_BENCHMARKS: usize = 11;

/// "the mean of N of the paper's 11 applications".
fn covers() -> String {
    let n = SNAKE_BENCH.iter().filter(|b| b.in_paper).count();
    format!("mean of {n} of the paper's {PAPER_BENCHMARKS} applications")
}

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
            "## {}\n\nPreset `{SNAKE_PRESET}` (the paper's Table 1). Its Table 2 benchmarks are \
             bundled kernel files ({}); matrixMul, convolutionSeparable and a stream are shown \
             beside them and kept out of the claims. The claims average the paper's \
             applications as the paper does: coverage and accuracy arithmetically, IPC \
             geometrically. Snake's metrics (§VI): coverage = correctly predicted / demand; \
             accuracy = correct and timely / demand.\n\n",
            TITLE,
            SNAKE_BENCH
                .iter()
                .filter(|b| b.in_paper)
                .map(|b| b.label)
                .collect::<Vec<_>>()
                .join(", ")
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
        format!(
            "Snake {}, MTA {} ({})",
            opt(sc, pct),
            opt(mc, pct),
            covers()
        ),
        grade2(sc, mc, |a, b| a >= 0.6 && a - b >= 0.1, |a, b| a > b),
        format!(
            "per application, Snake: {}; MTA: {}; {}",
            per_bench(cov, s, &pct),
            per_bench(cov, m, &pct),
            snake_reason(res, "lps")
        ),
    );
    let sa = last(acc, s);
    claim(
        r,
        p,
        "Fig. 17",
        "Snake covers future accesses in time (accuracy = correct and timely / demand)",
        "75 % on average",
        format!("{} ({})", opt(sa, pct), covers()),
        grade(sa, |a| a >= 0.6, |a| a >= 0.25),
        format!(
            "late prefetches count for coverage, not for this accuracy: coverage {} against accuracy {}; per application {}",
            opt(sc, pct),
            opt(sa, pct),
            per_bench(acc, s, &pct)
        ),
    );
    let na = last(acc, nd);
    claim(
        r,
        p,
        "§VI",
        "without decoupling Snake loses half its accuracy to early eviction",
        "-50 %",
        format!(
            "{} decoupled, {} not ({})",
            opt(sa, pct),
            opt(na, pct),
            covers()
        ),
        grade2(sa, na, |a, b| b <= 0.6 * a, |a, b| b < a),
        format!(
            "not decoupled, per application {}; {}",
            per_bench(acc, nd, &pct),
            decoupling_reason(res, "lps")
        ),
    );
    let sp = last(speed, s);
    claim(
        r,
        p,
        "Fig. 18",
        "Snake improves performance",
        "+17 % on average",
        format!("{} (geometric {})", opt(sp, ratio_pct), covers()),
        grade(sp, |v| v >= 1.1, |v| v > 1.01),
        format!(
            "per application {}; {}",
            per_bench(speed, s, &|x| format!("{x:.2}")),
            SNAKE_BENCH
                .iter()
                .filter(|b| b.in_paper)
                .flat_map(|b| b.kernels.iter())
                .map(|k| issue_reason(res, k))
                .collect::<Vec<_>>()
                .join("; ")
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
        "{k}: no warp to issue in {} of the SM-cycles without prefetching (what a prefetcher can remove at most), {} with Snake",
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
