//! DAC (Wang and Lin, ISCA 2017) in the reproduction: Figures 16, 17 and
//! 19 and §IV-B (speedup, warp instructions, decoupled memory
//! instructions, fast predicates).

use crate::reproduce::claims::{claim, figure, grade, grade2, Report};
use crate::reproduce::experiment::ReproducedPaper;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::{b, extra, grid, id, Bench, Mech, Options};
use crate::reproduce::results::{sum_of, CheckedDiv, Res};
use crate::reproduce::table::{bar, geomean, mean, opt, pct, per_bench, ratio_pct, Exp, Table};
use crate::sweep::RunSpec;

/// The paper's handle.
const PAPER: Paper = Paper::new("dac");

/// Its title line.
const TITLE: &str = "DAC: Wang and Lin, Decoupled Affine Computation for SIMT GPUs (ISCA 2017)";

/// The paper's preset (Table 1).
pub(crate) const DAC_PRESET: &str = "dac-gtx480";
/// DAC's Table 2 benchmarks that are bundled kernel files (written from
/// their public sources), the compute-intensive ones first ([`COMPUTE`]);
/// the paper's example kernel, N-Queens and the CAPS kernels beside them.
pub(crate) const DAC_BENCH: &[Bench] = &[
    b("CP", &["cp"]),
    b("STO", &["sto"]),
    b("AES", &["aes"]),
    b("MQ", &["mri_q"]),
    b("BP", &["backprop"]),
    b("HS", &["hotspot"]),
    b("BS", &["blackscholes"]),
    b("LIB", &["lib"]),
    b("LUD", &["lud"]),
    b("SR2", &["srad"]),
    b("CS", &["conv_rows", "conv_cols"]),
    b("SPV", &["spmv"]),
    b("KM", &["kmeans_invert", "kmeans_point"]),
    b("BFS", &["bfs"]),
    extra("NQU", &["nqu"]),
    extra("DAC-example", &["dac_example"]),
    extra("LPS", &["lps"]),
    extra("MM", &["matrix_mul"]),
];
/// The baseline and DAC.
pub(crate) const DAC_MECHS: &[Mech] = &[("baseline", &[]), ("DAC", &["expander=dac"])];

/// The paper's Table 2: 29 benchmarks, of which these 11 are
/// compute-intensive (the rest memory-intensive: a perfect memory speeds
/// them up by at least 1.5, §5.1.2).
const PAPER_BENCHMARKS: usize = 29;
const COMPUTE: &[&str] = &[
    "CP", "STO", "AES", "MQ", "TP", "FFT", "BP", "SR1", "HS", "PF", "BS",
];

/// The paper's benchmarks in the table, all or one category's.
fn in_paper(compute: Option<bool>) -> Vec<&'static str> {
    DAC_BENCH
        .iter()
        .filter(|b| b.in_paper)
        .filter(|b| compute.is_none_or(|c| COMPUTE.contains(&b.label) == c))
        .map(|b| b.label)
        .collect()
}

/// An average: its name and how it aggregates.
type Agg<'a> = (&'a str, fn(&[f64]) -> Option<f64>);

/// `agg` of series `s` over the rows of `labels`, and the words saying
/// what it covers (`geometric mean of 7 of the paper's 11
/// compute-intensive benchmarks`).
fn over(t: &Table, s: usize, labels: &[&str], agg: Agg<'_>, of: &str) -> (Option<f64>, String) {
    let v: Vec<f64> = t
        .rows
        .iter()
        .filter(|(l, _)| labels.contains(&l.as_str()))
        .filter_map(|(_, v)| v[s])
        .collect();
    (
        agg.1(&v),
        format!("{} of {} of the paper's {of}", agg.0, v.len()),
    )
}

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
            "## {}\n\nPreset `{DAC_PRESET}` (the paper's Table 1). Of its {PAPER_BENCHMARKS} \
             Table 2 benchmarks the bundled kernel files cover {} (compute-intensive: {}); \
             N-Queens, the DAC example, LPS and matrixMul are shown beside them. The claims \
             average as the paper does: ratios and speed-ups geometrically, shares \
             arithmetically. A kernel DAC cannot decouple runs without it (the row's \
             reason).\n\n",
            TITLE,
            in_paper(None).len(),
            in_paper(Some(true)).join(", ")
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
        Some(("mean (geometric for the ratios)", geomean)),
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

/// The claims from the table of [`figures`], each averaged over the
/// paper's benchmarks it names (all, or one category).
fn claims(res: &Res, r: &mut Report, t: &Table) {
    let p = PAPER;
    let all = in_paper(None);
    let compute = in_paper(Some(true));
    let memory = in_paper(Some(false));
    let geo: Agg = ("geometric mean", geomean);
    let ari: Agg = ("mean", mean);
    let (ir, ir_of) = over(t, 0, &all, geo, &format!("{PAPER_BENCHMARKS} benchmarks"));
    let (irc, irc_of) = over(t, 0, &compute, geo, "11 compute-intensive benchmarks");
    claim(
        r, p, "Fig. 17", "DAC executes fewer warp instructions", "0.74× (26 % fewer)",
        format!("{} ({ir_of}); compute-intensive {} ({irc_of})", opt(ir, |v| format!("{v:.2}×")), opt(irc, |v| format!("{v:.2}×"))),
        grade(ir, |v| (0.6..=0.88).contains(&v), |v| v < 0.99),
        format!("DAC's warp instructions (affine warp's included) over the baseline's; per benchmark {}; {}", per_bench(t, 0, &|v| format!("{v:.2}")), dac_removed_reason(res)),
    );
    claim(
        r,
        p,
        "Fig. 17",
        "the reduction is particularly evident for compute-intensive benchmarks",
        "compute-intensive below the overall mean",
        format!(
            "{} against {}",
            opt(irc, |v| format!("{v:.2}×")),
            opt(ir, |v| format!("{v:.2}×"))
        ),
        grade2(irc, ir, |c, a| c < a - 0.02, |c, a| c < a),
        format!("{irc_of}, against the {ir_of}"),
    );
    let (ld, ld_of) = over(t, 1, &memory, ari, "18 memory-intensive benchmarks");
    claim(
        r, p, "Fig. 19", "global loads issued by the affine warp", "79.8 % (memory-intensive benchmarks)",
        format!("{} ({ld_of})", opt(ld, pct)),
        grade(ld, |v| v >= 0.6, |v| v > 0.0),
        format!("ours counts loads and stores whose addresses came from the affine warp's records over all memory instructions; per benchmark {}", per_bench(t, 1, &pct)),
    );
    let (fs, fs_of) = over(t, 2, &all, ari, &format!("{PAPER_BENCHMARKS} benchmarks"));
    claim(
        r,
        p,
        "§IV-B",
        "decoupled predicates on the fast path (scalar, or a warp's first and last thread agree)",
        "93 %",
        format!("{} ({fs_of} with a decoupled predicate)", opt(fs, pct)),
        grade(fs, |v| v >= 0.8, |v| v > 0.5),
        format!("per benchmark {}", per_bench(t, 2, &pct)),
    );
    let (sp, sp_of) = over(t, 3, &all, geo, &format!("{PAPER_BENCHMARKS} benchmarks"));
    claim(
        r,
        p,
        "Fig. 16",
        "DAC speeds up the GPU",
        "+40.7 % geo-mean (29 benchmarks)",
        format!("{} ({sp_of})", opt(sp, ratio_pct)),
        grade(sp, |v| v >= 1.2, |v| v > 1.01),
        format!("per benchmark {}", per_bench(t, 3, &|v| format!("{v:.2}"))),
    );
}

/// How many instructions DAC removed per kernel: the `let`s and the
/// address arithmetic of the accesses it decoupled.
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
        "instructions DAC took off the warps (lets and address arithmetic of decoupled accesses): {}",
        v.join(", ")
    )
}
