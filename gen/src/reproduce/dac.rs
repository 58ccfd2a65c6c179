//! DAC (Wang and Lin, ISCA 2017) in the reproduction: Figures 16, 17 and
//! 19 and §IV-B (speedup, warp instructions, decoupled memory
//! instructions, fast predicates).

use crate::reproduce::claims::{claim, figure, grade, Report};
use crate::reproduce::experiment::ReproducedPaper;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::{b, extra, grid, id, Bench, Mech, Options};
use crate::reproduce::results::{sum_of, CheckedDiv, Res};
use crate::reproduce::table::{bar, last, mean, opt, pct, per_bench, ratio_pct, Exp, Table};
use crate::sweep::RunSpec;

/// The paper's handle.
const PAPER: Paper = Paper::new("dac");

/// Its title line.
const TITLE: &str = "DAC: Wang and Lin, Decoupled Affine Computation for SIMT GPUs (ISCA 2017)";

/// The paper's preset (Table 1).
pub(crate) const DAC_PRESET: &str = "dac-gtx480";
/// DAC's Table 2 benchmarks the bundled kernels cover, and its example.
pub(crate) const DAC_BENCH: &[Bench] = &[
    b("CS", &["conv_rows", "conv_cols"]),
    b("SPV", &["spmv"]),
    b("KM", &["kmeans_invert", "kmeans_point"]),
    b("BFS", &["bfs"]),
    extra("DAC-example", &["dac_example"]),
    extra("LPS", &["lps"]),
    extra("MM", &["matrix_mul"]),
];
/// The baseline and DAC.
pub(crate) const DAC_MECHS: &[Mech] = &[("baseline", &[]), ("DAC", &["expander=dac"])];

/// The DAC paper.
pub struct DacPaper;

impl ReproducedPaper for DacPaper {
    fn paper(&self) -> Paper {
        PAPER
    }

    fn citation(&self) -> &'static str {
        "Wang and Lin, Decoupled Affine Computation for SIMT GPUs (ISCA 2017)"
    }

    fn title(&self) -> &'static str {
        TITLE
    }

    fn plan(&self, o: &Options) -> Vec<RunSpec> {
        grid(o, PAPER, "fig17", DAC_PRESET, DAC_BENCH, DAC_MECHS)
    }

    fn section(&self, _o: &Options, res: &Res, r: &mut Report) -> anyhow::Result<String> {
        let mut sec = format!(
            "## {}\n\nPreset `{DAC_PRESET}` (the paper's Table 1). Of its Table 2 benchmarks the \
             bundled kernels cover CS (convolutionSeparable), SPV (SPMV), KM and BFS; the DAC \
             example, LPS and matrixMul are shown beside them. A kernel DAC cannot decouple runs \
             without it (the row's reason).\n\n",
            TITLE
        );
        let t = figures(res, r, &mut sec)?;
        claims(res, r, &t);
        Ok(sec)
    }
}

/// The table of Figures 17 and 19 and §IV-B (per benchmark: instruction
/// ratio, decoupled memory instructions, fast predicates, speedup) and its
/// chart; returns the table.
fn figures(res: &Res, r: &mut Report, sec: &mut String) -> anyhow::Result<Table> {
    let p = PAPER;
    let e = Exp {
        res,
        paper: p,
        exp: "fig17",
        bench: DAC_BENCH,
        mechs: vec!["DAC"],
        base: "baseline",
    };
    let ratio = e.table(
        &|i, b| {
            sum_of(res, i, "warp_instructions")?.checked_div_f(sum_of(res, b, "warp_instructions")?)
        },
        Some(("mean", mean)),
    );
    let speed = e.speedup();
    let loads = e.share(&["dac.decoupled_mem_instructions"], &["mem_instructions"]);
    let fast = e.share(&["dac.pred_fast"], &["dac.pred_fast", "dac.pred_slow"]);
    let mut t = Table {
        series: vec![
            "warp instructions, DAC / baseline".into(),
            "memory instructions decoupled".into(),
            "fast predicate share".into(),
            "speedup".into(),
        ],
        rows: Vec::new(),
    };
    for (i, (l, _)) in ratio.rows.iter().enumerate() {
        t.rows.push((
            l.clone(),
            vec![
                ratio.rows[i].1[0],
                loads.rows[i].1[0],
                fast.rows[i].1[0],
                speed.rows[i].1[0],
            ],
        ));
    }
    *sec += "### Figures 17 and 19, §IV-B: instruction count, decoupled memory instructions, fast predicates, speedup\n\n";
    *sec += &t.markdown(&|v| format!("{v:.3}"));
    let reasons: Vec<String> = DAC_BENCH
        .iter()
        .flat_map(|bn| bn.kernels.iter().map(move |k| (bn, k)))
        .filter_map(|(bn, k)| {
            let r = res.ok(&id(p, "fig17", k, "DAC"))?;
            let m = r.metrics.as_ref()?.get("dac")?;
            (m.get("decoupled")?.as_bool() == Some(false)).then(|| {
                format!(
                    "- {} ({k}): not decoupled: {}",
                    bn.label,
                    m.get("reason").and_then(|x| x.as_str()).unwrap_or("")
                )
            })
        })
        .collect();
    if !reasons.is_empty() {
        *sec += "\n";
        *sec += &reasons.join("\n");
        *sec += "\n";
    }
    sec.push('\n');
    let chart = Table {
        series: vec![
            "warp instructions (DAC / baseline)".into(),
            "speedup (baseline cycles / DAC cycles)".into(),
        ],
        rows: t
            .rows
            .iter()
            .map(|(l, v)| (l.clone(), vec![v[0], v[3]]))
            .collect(),
    };
    figure(
        r,
        sec,
        "fig-dac-17.svg",
        "DAC Figures 16-17, ours: warp instructions and speedup relative to the baseline",
        bar(
            "DAC Figs. 16-17 (ours): warp instructions and speedup, DAC over baseline",
            "ratio to baseline",
            &chart,
            Some((1.0, "baseline")),
            None,
        )?,
    );
    Ok(t)
}

/// The claims from the table of [`figures`].
fn claims(res: &Res, r: &mut Report, t: &Table) {
    let p = PAPER;
    let (ir, ld, fs, sp) = (last(t, 0), last(t, 1), last(t, 2), last(t, 3));
    claim(
        r, p, "Fig. 17", "DAC executes fewer warp instructions", "0.74× (26 % fewer)",
        opt(ir, |v| format!("{v:.2}×")),
        grade(ir, |v| (0.6..=0.88).contains(&v), |v| v < 0.99),
        format!("mean over the paper's benchmarks of DAC's warp instructions (affine warp's included) over the baseline's; per benchmark {}; {}", per_bench(t, 0, &|v| format!("{v:.2}")), dac_removed_reason(res)),
    );
    claim(
        r, p, "Fig. 19", "global loads issued by the affine warp", "79.8 % (memory-intensive benchmarks)",
        opt(ld, pct),
        grade(ld, |v| v >= 0.6, |v| v > 0.0),
        "ours counts loads and stores whose addresses came from the affine warp's records over all memory instructions".into(),
    );
    claim(
        r,
        p,
        "§IV-B",
        "decoupled predicates on the fast path (scalar, or a warp's first and last thread agree)",
        "93 %",
        opt(fs, pct),
        grade(fs, |v| v >= 0.8, |v| v > 0.5),
        format!("per benchmark {}", per_bench(t, 2, &pct)),
    );
    claim(
        r,
        p,
        "Fig. 16",
        "DAC speeds up the GPU",
        "+40.7 % geo-mean (29 benchmarks)",
        opt(sp, ratio_pct),
        grade(sp, |v| v >= 1.2, |v| v > 1.01),
        format!("per benchmark {}", per_bench(t, 3, &|v| format!("{v:.2}"))),
    );
}

/// How many affine instructions DAC removed per kernel: a kernel file
/// computes an address inside its load (one instruction), so only the
/// `let`s it spells out can be removed.
fn dac_removed_reason(res: &Res) -> String {
    let mut v = Vec::new();
    for bn in DAC_BENCH {
        for k in bn.kernels {
            let Some(m) = res
                .ok(&id(PAPER, "fig17", k, "DAC"))
                .and_then(|r| r.metrics.as_ref())
            else {
                continue;
            };
            let removed = m
                .get("dac")
                .and_then(|d| d.get("removed"))
                .and_then(|x| x.as_f64())
                .unwrap_or(0.0);
            let total = m
                .get("warp_instructions")
                .and_then(|x| x.as_f64())
                .unwrap_or(0.0);
            v.push(format!("{k} {removed:.0} of {total:.0}"));
        }
    }
    format!(
        "instructions DAC took off the warps: {}. The kernel files fold each address computation into its load, so the integer instructions DAC removes from real SASS are mostly not in the count; only the lets a kernel spells out are (the DAC example's and matrixMul's)",
        v.join(", ")
    )
}
