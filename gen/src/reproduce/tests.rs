//! Tests of the reproduction: the plan, the verdicts on made-up results,
//! refused runs, the HTML page, and the registry's names.

use std::path::PathBuf;

use serde_json::json;

use crate::reproduce::assemble::{plan, report};
use crate::reproduce::ba::BA_MECHS;
use crate::reproduce::caps::{CAPS_MECHS, FIG1_DISTANCES};
use crate::reproduce::claims::{Report, Verdict};
use crate::reproduce::dac::DAC_MECHS;
use crate::reproduce::paper::Paper;
use crate::reproduce::plan::Options;
use crate::reproduce::registry::all;
use crate::reproduce::render::{html, markdown, write};
use crate::reproduce::snake::SNAKE_MECHS;
use crate::sweep::{RunResult, RunSpec};

fn opts() -> Options {
    Options {
        papers: Vec::new(),
        kernels: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../kernels")),
        full: false,
    }
}

/// A made-up result for `spec`: IPC `factor(mechanism)` times the
/// baseline's, the given prefetch figures, a Figure 1 probe that drops
/// at the CTA boundary.
fn fake(spec: &RunSpec, factor: &dyn Fn(&str) -> f64) -> RunResult {
    let mech = spec.id.rsplit("--").next().unwrap();
    let f = factor(mech);
    let rows: Vec<serde_json::Value> = (1..=FIG1_DISTANCES)
        .map(|d| {
            let ia = if d < 8 { 1.0 - d as f64 / 8.0 } else { 0.02 };
            json!({"distance": d, "pairs": 100, "cross_cta": (100 * d / 8).min(100),
                   "inter_accuracy": ia, "cta_accuracy": 1.0, "mean_gap": 40.0 * d as f64})
        })
        .collect();
    let metrics = json!({
        "cycles": 1000.0 / f,
        "warp_instructions": dac_instructions(spec, mech),
        "mem_instructions": 100.0,
        "ctas": 8.0,
        "per_sm": [],
        "l1": {"hits": 50.0 * f, "accesses": 100.0},
        "prefetch": {"useful": 15.0, "late": 3.0, "issued": 18.5, "offered": 20.0,
                     "early_evicted": 0.5, "unused_at_end": 0.0, "eager_wakeups": 0.0},
        "dac": {"decoupled": true, "reason": "", "removed": 260.0,
                "decoupled_mem_instructions": 80.0, "pred_fast": 93.0, "pred_slow": 7.0},
        "interwarp": {"rows": rows, "records": 1000, "truncated": false},
    });
    RunResult {
        spec: spec.clone(),
        error: None,
        metrics: Some(metrics),
        seconds: 0.5,
        version: "test".into(),
        kernel_sha256: String::new(),
        digest: String::new(),
        warnings: Vec::new(),
    }
}

/// Made-up warp instructions: DAC runs 0.60 of the baseline's on the
/// compute-intensive benchmarks' kernels and 0.74 on the others, as the
/// paper has it (its Figure 17: "particularly evident for
/// compute-intensive benchmarks").
fn dac_instructions(spec: &RunSpec, mech: &str) -> f64 {
    const COMPUTE: &[&str] = &[
        "cp",
        "sto",
        "aes",
        "mri_q",
        "backprop",
        "hotspot",
        "blackscholes",
    ];
    let kernel = spec.id.split("--").nth(1).unwrap_or("");
    match mech {
        "DAC" if COMPUTE.contains(&kernel) => 600.0,
        "DAC" => 740.0,
        _ => 1000.0,
    }
}

fn verdicts(r: &Report, paper: Paper) -> Vec<(String, Verdict)> {
    r.claims
        .iter()
        .filter(|c| c.paper == paper)
        .map(|c| (c.claim.clone(), c.verdict))
        .collect()
}

#[test]
fn the_plan_covers_every_paper_and_ids_are_unique() {
    let list = plan(&opts()).unwrap();
    list.check().unwrap();
    let n = |p: &str| list.runs.iter().filter(|r| r.id.starts_with(p)).count();
    assert_eq!(n("caps-fig1-"), 1);
    assert_eq!(n("caps-fig10-"), 7 * CAPS_MECHS.len());
    assert_eq!(n("ba-"), 12 * BA_MECHS.len());
    // Snake's eleven Table 2 applications and four kernels beside them;
    // DAC's 14 Table 2 benchmarks (16 kernels) and four beside them.
    assert_eq!(n("snake-"), 15 * SNAKE_MECHS.len());
    assert_eq!(n("dac-"), 20 * DAC_MECHS.len());
    // The quick set shrinks the heavy inputs; --full does not.
    let ss = list
        .runs
        .iter()
        .find(|r| r.id == "ba-fig18--similarity_score--LRU")
        .unwrap();
    assert!(ss.set.contains(&"param.DOCS=256".to_string()));
    let full = plan(&Options {
        full: true,
        ..opts()
    })
    .unwrap();
    // --full keeps the files' sizes (CATT's launches set their own).
    assert!(full
        .runs
        .iter()
        .filter(|r| !r.id.starts_with("catt-"))
        .all(|r| !r.set.iter().any(|s| s.starts_with("param."))));
    let only = plan(&Options {
        papers: vec![Paper::new("catt")],
        ..opts()
    })
    .unwrap();
    assert_eq!(only.runs.len(), 2);
    assert!(only.runs[1].catt && !only.runs[0].catt);
    let missing = plan(&Options {
        kernels: PathBuf::from("/nonexistent"),
        ..opts()
    });
    assert!(format!("{:#}", missing.unwrap_err()).contains("--kernels"));
}

#[test]
fn verdicts_follow_the_measurements() {
    let list = plan(&opts()).unwrap();
    // Everything as the papers say it.
    let good = |m: &str| match m {
        "CAPS" => 1.10,
        "INTRA" | "INTER" | "MTA" | "NLP" | "LAP" => 1.02,
        "BA_t_4" | "BA2_t_4" | "BA_t_8" | "BA2_t_8" | "BA_t_1" | "BA2_t_1" => 1.3,
        "bypass_all" => 1.1,
        "Snake" | "DAC" => 1.2,
        _ => 1.0,
    };
    let all: Vec<RunResult> = list.runs.iter().map(|s| fake(s, &good)).collect();
    let r = report(&opts(), &all).unwrap();
    let caps = verdicts(&r, Paper::new("caps"));
    assert_eq!(caps[0].1, Verdict::Reproduced, "{caps:?}"); // Figure 1
    let ipc = caps.iter().find(|c| c.0.contains("improves IPC")).unwrap();
    assert_eq!(ipc.1, Verdict::Reproduced);
    let dac = verdicts(&r, Paper::new("dac"));
    assert!(dac.iter().all(|c| c.1 == Verdict::Reproduced), "{dac:?}");
    // CATT's Table 3 rows come from the analysis of the real kernels.
    let catt = verdicts(&r, Paper::new("catt"));
    assert!(catt
        .iter()
        .any(|c| c.0.starts_with("ATAX #1") && c.1 == Verdict::Reproduced));
    assert_eq!(r.figures.len(), 10);
    // CAPS slower than its baseline: not reproduced, and the reason names
    // the worst benchmark.
    let slow = |m: &str| if m == "CAPS" { 0.9 } else { good(m) };
    let all: Vec<RunResult> = list.runs.iter().map(|s| fake(s, &slow)).collect();
    let r = report(&opts(), &all).unwrap();
    let c = r
        .claims
        .iter()
        .find(|c| c.claim.contains("improves IPC"))
        .unwrap();
    assert_eq!(c.verdict, Verdict::NotReproduced);
    assert!(c.why.contains("the lowest is"), "{}", c.why);
    // A little faster, below the paper's size: the same direction.
    let some = |m: &str| if m == "CAPS" { 1.03 } else { 1.0 };
    let all: Vec<RunResult> = list.runs.iter().map(|s| fake(s, &some)).collect();
    let r = report(&opts(), &all).unwrap();
    let c = r
        .claims
        .iter()
        .find(|c| c.claim.contains("improves IPC"))
        .unwrap();
    assert_eq!(c.verdict, Verdict::SameDirection);
}

#[test]
fn refused_runs_make_claims_not_run_and_are_listed() {
    let list = plan(&opts()).unwrap();
    let all: Vec<RunResult> = list
        .runs
        .iter()
        .map(|s| RunResult {
            spec: s.clone(),
            error: Some("refused for the test".into()),
            metrics: None,
            seconds: 0.0,
            version: "test".into(),
            kernel_sha256: String::new(),
            digest: String::new(),
            warnings: Vec::new(),
        })
        .collect();
    let r = report(&opts(), &all).unwrap();
    assert!(r
        .claims
        .iter()
        .filter(|c| c.figure != "Table 3")
        .all(|c| c.verdict == Verdict::NotRun));
    assert_eq!(r.refused.len(), list.runs.len());
    let md = markdown(&opts(), &r, None);
    assert!(md.contains("## Runs that did not run") && md.contains("refused for the test"));
}

#[test]
fn html_inlines_every_figure() {
    let list = plan(&Options {
        papers: vec![Paper::new("caps")],
        ..opts()
    })
    .unwrap();
    let all: Vec<RunResult> = list.runs.iter().map(|s| fake(s, &|_| 1.0)).collect();
    let o = Options {
        papers: vec![Paper::new("caps")],
        ..opts()
    };
    let r = report(&o, &all).unwrap();
    let md = markdown(&o, &r, Some(1.0));
    for f in &r.figures {
        assert!(md.contains(&format!("]({})", f.file)), "{}", f.file);
    }
    let h = html(&md, &r.figures);
    assert_eq!(h.matches("<svg").count(), r.figures.len());
    assert!(!h.contains("<img"), "every image is inlined");
    assert!(h.contains("<table>"));
    let dir = tempfile::tempdir().unwrap();
    let written = write(&o, dir.path(), &r, None).unwrap();
    assert_eq!(written.len(), r.figures.len() + 3);
    assert!(dir.path().join("fig-caps-1.svg").exists());
}

#[test]
fn the_registry_names_the_papers_in_report_order() {
    use clap::ValueEnum;
    let names: Vec<&str> = all().iter().map(|p| p.name()).collect();
    assert_eq!(names, ["caps", "ba", "snake", "dac", "catt"]);
    let caps = Paper::from_str("caps", false).unwrap();
    assert_eq!(caps, Paper::new("caps"));
    assert!(Paper::from_str("nosuch", false).is_err());
    // claims.json spells a paper as the enum it replaced did.
    assert_eq!(serde_json::to_string(&caps).unwrap(), "\"Caps\"");
    assert_eq!(format!("{:?}", Paper::new("snake")), "Snake");
}
