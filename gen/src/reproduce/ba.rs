//! The BA cache (Wang's thesis, 2016) in the reproduction: Figures 18 and
//! 19 (IPC and L1 miss rate over LRU) for bypass-all and the bypass-aware
//! cache under both readings and three thresholds.

use crate::reproduce::claims::{claim, figure, grade, Report, Verdict};
use crate::reproduce::experiment::ReproducedPaper;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::{b, grid, ids, Bench, Mech, Options};
use crate::reproduce::results::Res;
use crate::reproduce::table::{
    bar, geomean, last, opt, pct, per_bench, per_bench_all, ratio_pct, series, Exp, Table,
};
use crate::sweep::RunSpec;

/// The paper's handle.
const PAPER: Paper = Paper::new("ba");

/// Its title line.
const TITLE: &str = "BA cache: Wang, A Reused Distance Based Analysis and Optimization for GPU Cache (MS thesis, 2016)";

/// The thesis's preset (Table 2).
pub(crate) const BA_PRESET: &str = "ba-thesis";
/// The thesis's eight benchmarks of Figures 18-19.
pub(crate) const BA_BENCH: &[Bench] = &[
    b("BFS", &["bfs"]),
    b("ATAX", &["atax1", "atax2"]),
    b("BICG", &["bicg1", "bicg2"]),
    b("MVT", &["mvt1", "mvt2"]),
    b("SS", &["similarity_score"]),
    b("SPMV", &["spmv"]),
    b("SM", &["string_match"]),
    b("KM", &["kmeans_invert", "kmeans_point"]),
];
/// LRU, bypass-all, and BA under both readings with the threshold swept
/// (1, the spec's WAYS/2 = 4, WAYS = 8 on the thesis's 8-way L1).
pub(crate) const BA_MECHS: &[Mech] = &[
    ("LRU", &["sched=gto", "l1=lru"]),
    ("bypass-all", &["sched=gto", "l1=bypass"]),
    (
        "BA t=1",
        &[
            "sched=gto",
            "l1=ba",
            "ba.BA_POLICY=0",
            "ba.REUSE_THRESHOLD=1",
        ],
    ),
    (
        "BA t=4",
        &[
            "sched=gto",
            "l1=ba",
            "ba.BA_POLICY=0",
            "ba.REUSE_THRESHOLD=4",
        ],
    ),
    (
        "BA t=8",
        &[
            "sched=gto",
            "l1=ba",
            "ba.BA_POLICY=0",
            "ba.REUSE_THRESHOLD=8",
        ],
    ),
    (
        "BA2 t=1",
        &[
            "sched=gto",
            "l1=ba",
            "ba.BA_POLICY=1",
            "ba.REUSE_THRESHOLD=1",
        ],
    ),
    (
        "BA2 t=4",
        &[
            "sched=gto",
            "l1=ba",
            "ba.BA_POLICY=1",
            "ba.REUSE_THRESHOLD=4",
        ],
    ),
    (
        "BA2 t=8",
        &[
            "sched=gto",
            "l1=ba",
            "ba.BA_POLICY=1",
            "ba.REUSE_THRESHOLD=8",
        ],
    ),
];

/// The BA thesis.
pub struct BaPaper;

impl ReproducedPaper for BaPaper {
    fn paper(&self) -> Paper {
        PAPER
    }

    fn citation(&self) -> &'static str {
        "Wang, A Reused Distance Based Analysis and Optimization for GPU Cache (MS thesis, 2016)"
    }

    fn title(&self) -> &'static str {
        TITLE
    }

    fn plan(&self, o: &Options) -> Vec<RunSpec> {
        grid(o, PAPER, "fig18", BA_PRESET, BA_BENCH, BA_MECHS)
    }

    fn section(&self, _o: &Options, res: &Res, r: &mut Report) -> anyhow::Result<String> {
        let mut sec = format!(
            "## {}\n\nPreset `{BA_PRESET}` (the thesis's Table 2: 16 KB L1 of 16 sets × 8 ways) under \
             GTO, the thesis's eight benchmarks (ATAX, BICG, MVT and KM are two kernels each, \
             summed). LRU is the thesis's \"traditional cache\"; bypass-all its \"simple bypassing \
             which bypass all cache requests\"; BA the bypass-aware cache under the spec's first \
             reading (`BA_POLICY = 0`: a set is full once no way is invalid) and the second \
             (`BA_POLICY = 1`, BA2: a line never reused is free), each with the replacement \
             threshold swept over 1, 4 (the spec's WAYS/2) and 8.\n\n",
            TITLE
        );
        figures_18_19(res, r, &mut sec)?;
        Ok(sec)
    }
}

/// Figures 18 and 19: the tables, the charts and the claims.
fn figures_18_19(res: &Res, r: &mut Report, sec: &mut String) -> anyhow::Result<()> {
    let p = PAPER;
    let mechs: Vec<&'static str> = BA_MECHS.iter().map(|m| m.0).collect();
    let others: Vec<&'static str> = mechs[1..].to_vec();
    let e = Exp {
        res,
        paper: p,
        exp: "fig18",
        bench: BA_BENCH,
        mechs: others.clone(),
        base: "LRU",
    };
    let speed = e.speedup();
    // The thesis's Figure 19 is GPGPU-Sim's statistics: requests that
    // skipped the L1 (bypasses) are left out of the miss rate.
    let miss = e.table(
        &|i, b| Some(res.miss_rate_no_bypass(i)? / res.miss_rate_no_bypass(b)?),
        Some(("geo-mean", geomean)),
    );
    let miss_all = e.table(
        &|i, b| Some(res.miss_rate(i)? / res.miss_rate(b)?),
        Some(("geo-mean", geomean)),
    );
    let lru_miss = e.with(&["LRU"]).table(&|i, _| res.miss_rate(i), None);
    *sec += "### Figure 18: IPC normalised to LRU\n\n";
    *sec += &speed.markdown(&|v| format!("{v:.2}"));
    sec.push('\n');
    figure(
        r,
        sec,
        "fig-ba-18.svg",
        "BA thesis Figure 18, ours: IPC over LRU",
        bar(
            "BA thesis Fig. 18 (ours): IPC normalised to LRU, GTO",
            "normalised IPC",
            &speed,
            Some((1.0, "LRU")),
            None,
        )?,
    );
    *sec += "### Figure 19: L1 miss rate normalised to LRU\n\nAs the thesis counts it (GPGPU-Sim's statistics: bypasses left out). LRU's own miss rate: ";
    *sec += &per_bench_all(&lru_miss, 0, &pct);
    *sec += "\n\n";
    *sec += &miss.markdown(&|v| format!("{v:.2}"));
    *sec += "\nThe other way, bypasses (and pseudo-hits) counted as misses, since they go to memory:\n\n";
    *sec += &miss_all.markdown(&|v| format!("{v:.2}"));
    sec.push('\n');
    figure(
        r,
        sec,
        "fig-ba-19.svg",
        "BA thesis Figure 19, ours: L1 miss rate over LRU's",
        bar(
            "BA thesis Fig. 19 (ours): L1 miss rate normalised to LRU",
            "normalised miss rate",
            &miss,
            Some((1.0, "LRU")),
            None,
        )?,
    );
    claims(res, r, &others, (&speed, &miss, &miss_all, &lru_miss));
    Ok(())
}

/// The claims of Figures 18 and 19 from their tables (IPC and miss rate
/// over LRU both ways, LRU's own miss rate) over the mechanisms `others`.
fn claims(
    res: &Res,
    r: &mut Report,
    others: &[&'static str],
    (speed, miss, miss_all, lru_miss): (&Table, &Table, &Table, &Table),
) {
    let p = PAPER;
    let ba_cols: Vec<usize> = (1..others.len()).collect();
    let best = ba_cols
        .iter()
        .copied()
        .filter_map(|s| last(speed, s).map(|v| (s, v)))
        .fold(None, |a: Option<(usize, f64)>, b| match a {
            Some(x) if x.1 >= b.1 => Some(x),
            _ => Some(b),
        });
    let d1 = series(speed, "BA t=4");
    let d2 = series(speed, "BA2 t=4");
    let (g1, g2) = (last(speed, d1), last(speed, d2));
    claim(
        r,
        p,
        "Fig. 18",
        "BA improves IPC on average",
        "more than +20 % on average",
        format!(
            "first reading {}, second {}, best of the sweep {}",
            opt(g1, ratio_pct),
            opt(g2, ratio_pct),
            best.map_or("-".into(), |(s, v)| format!(
                "{} {}",
                others[s],
                ratio_pct(v)
            ))
        ),
        grade(best.map(|b| b.1), |v| v >= 1.2, |v| v > 1.01),
        ba_reason(res, speed, miss, best.map(|b| b.0)),
    );
    let mbest = ba_cols
        .iter()
        .copied()
        .filter_map(|s| last(miss, s).map(|v| (s, v)))
        .fold(None, |a: Option<(usize, f64)>, b| match a {
            Some(x) if x.1 <= b.1 => Some(x),
            _ => Some(b),
        });
    claim(
        r, p, "Fig. 19", "BA lowers the L1 miss rate on average", "more than 10 % lower on average",
        format!("first reading {}, second {}, best {}", opt(last(miss, d1), ratio_pct), opt(last(miss, d2), ratio_pct), mbest.map_or("-".into(), |(s, v)| format!("{} {}", others[s], ratio_pct(v)))),
        grade(mbest.map(|b| b.1), |v| v <= 0.9, |v| v < 0.99),
        format!("miss rate as the thesis counts it (GPGPU-Sim: bypasses left out); per benchmark, second reading: {}; with bypasses counted as misses the second reading is at {}", per_bench(miss, d2, &|v| format!("{v:.2}")), opt(last(miss_all, d2), ratio_pct)),
    );
    let byp = series(speed, "bypass-all");
    let improved: Vec<&str> = BA_BENCH
        .iter()
        .zip(&speed.rows)
        .filter(|(_, (_, v))| v[byp].is_some_and(|x| x > 1.0))
        .map(|(b, _)| b.label)
        .collect();
    let hurt: Vec<&str> = BA_BENCH
        .iter()
        .zip(&speed.rows)
        .filter(|(_, (_, v))| v[byp].is_some_and(|x| x <= 1.0))
        .map(|(b, _)| b.label)
        .collect();
    let exact = hurt.len() == 2 && hurt.contains(&"SPMV") && hurt.contains(&"SM");
    claim(
        r,
        p,
        "Fig. 18",
        "bypass-all improves 6 of the 8 benchmarks; SPMV and SM are hurt",
        "6 of 8 improved; SPMV, SM hurt",
        format!(
            "{} of {} improved; hurt: {}",
            improved.len(),
            improved.len() + hurt.len(),
            if hurt.is_empty() {
                "none".into()
            } else {
                hurt.join(", ")
            }
        ),
        if improved.is_empty() && hurt.is_empty() {
            Verdict::NotRun
        } else if exact {
            Verdict::Reproduced
        } else if improved.len() >= 4 {
            Verdict::SameDirection
        } else {
            Verdict::NotReproduced
        },
        format!(
            "bypass-all over LRU per benchmark: {}; LRU's miss rates {}; LRU's reservation fails per L1 access (a set whose ways are all in flight: what bypassing avoids) {}",
            per_bench(speed, byp, &|v| format!("{v:.2}")),
            per_bench_all(lru_miss, 0, &pct),
            resv_fails(res, "LRU")
        ),
    );
    let five = ["BFS", "ATAX", "BICG", "MVT", "SS"];
    let wins = |s: usize| {
        five.iter()
            .filter(|l| {
                let row = &speed.rows[BA_BENCH
                    .iter()
                    .position(|b| b.label == **l)
                    .expect("a thesis benchmark")]
                .1;
                matches!((row[s], row[byp]), (Some(a), Some(b)) if a > b)
            })
            .count()
    };
    let (w1, w2) = (wins(d1), wins(d2));
    claim(
        r,
        p,
        "Fig. 18",
        "BA always outperforms bypass-all on BFS, ATAX, BICG, MVT and SS",
        "5 of 5",
        format!("first reading wins {w1} of 5, second {w2} of 5 (threshold 4)"),
        if last(speed, byp).is_none() {
            Verdict::NotRun
        } else if w1.max(w2) == 5 {
            Verdict::Reproduced
        } else if w1.max(w2) >= 3 {
            Verdict::SameDirection
        } else {
            Verdict::NotReproduced
        },
        "IPC of BA over bypass-all's on each of the five".into(),
    );
}

/// Why BA's best setting falls short: its worst benchmark and its miss
/// rate there.
fn ba_reason(res: &Res, speed: &Table, miss: &Table, best: Option<usize>) -> String {
    let Some(s) = best else { return String::new() };
    let worst = speed.rows[..speed.rows.len() - 1]
        .iter()
        .zip(&miss.rows)
        .filter_map(|((l, v), (_, m))| Some((l.clone(), v[s]?, m[s]?)))
        .fold(None, |a: Option<(String, f64, f64)>, b| match a {
            Some(x) if x.1 <= b.1 => Some(x),
            _ => Some(b),
        });
    match worst {
        Some((l, v, m)) => format!(
            "the best setting ({}) is at {:.2} on its worst benchmark, {l}, where its miss rate (bypasses left out) is {:.2}× LRU's; reservation fails per L1 access, LRU: {}; {}: {}",
            speed.series[s],
            v,
            m,
            resv_fails(res, "LRU"),
            speed.series[s],
            resv_fails(res, &speed.series[s])
        ),
        None => String::new(),
    }
}

/// `mech`'s reservation fails per L1 access on each benchmark.
fn resv_fails(res: &Res, mech: &str) -> String {
    BA_BENCH
        .iter()
        .map(|bn| {
            let r = res.ratio(
                &ids(PAPER, "fig18", bn, mech),
                &["l1.reservation_fails"],
                &["l1.accesses"],
            );
            format!("{} {}", bn.label, opt(r, |v| format!("{v:.2}")))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
