//! `warpgen explore` as a user runs it on a cluster: the grid emitted as a
//! Slurm job array (one task per point), each task run by bash with the
//! index Slurm would set, then the merge; with `--kernel`, the unit's
//! benefit in the harness at each point (issue 31, items 2 and 3). A
//! one- and a two-set `ba_tag_array`, synthesis only, so the test is small.

use std::process::Command;

mod common;

use common::{kernel, warpgen};

fn bash(script: &std::path::Path, task: Option<usize>) -> std::process::Output {
    let mut c = Command::new("bash");
    c.arg(script);
    if let Some(i) = task {
        c.env("SLURM_ARRAY_TASK_ID", i.to_string());
    }
    c.output().unwrap()
}

#[test]
fn a_grid_runs_as_array_tasks_and_merges_with_the_harness_benefit() {
    if !eda::tool_available(eda::Tool::Yosys) {
        eprintln!("skipped: Yosys is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let slurm = dir.path().join("slurm");
    let o = warpgen()
        .args(["explore", "--unit", "ba_tag_array", "--sweep", "SETS=1,2"])
        .args(["--no-timing", "--kernel"])
        .arg(kernel("vector_add.toml"))
        .args(["--set", "param.N=1024", "--out"])
        .arg(&out)
        .arg("--emit-slurm")
        .arg(&slurm)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.exists(), "emitting measures nothing");
    let array = slurm.join("explore.sbatch");
    let script = std::fs::read_to_string(&array).unwrap();
    assert!(script.contains("#SBATCH --array=0-1\n"), "{script}");
    assert!(script.contains("--kernel /"), "absolute paths: {script}");
    // The merge before any task names every missing point and its task.
    let early = bash(&slurm.join("merge.sbatch"), None);
    assert!(!early.status.success());
    let e = String::from_utf8_lossy(&early.stderr);
    assert!(
        e.contains("task 0 (SETS=1)") && e.contains("task 1 (SETS=2)") && e.contains("missing"),
        "{e}"
    );
    for i in 0..2 {
        let t = bash(&array, Some(i));
        assert!(
            t.status.success(),
            "task {i}: {}",
            String::from_utf8_lossy(&t.stderr)
        );
    }
    let past = bash(&array, Some(2));
    assert!(!past.status.success());
    assert!(String::from_utf8_lossy(&past.stderr).contains("the grid has 2 points"));
    let merged = bash(&slurm.join("merge.sbatch"), None);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let table = String::from_utf8_lossy(&merged.stdout);
    assert!(
        table.contains("L1 miss rate") && table.contains("speedup"),
        "{table}"
    );
    if eda::tool_available(eda::Tool::Verilator) {
        assert_eq!(
            table.matches(" clean ").count(),
            2,
            "both points lint-clean: {table}"
        );
    }
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("explore.json")).unwrap()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let miss = |i: usize| rows[i]["benefit"]["value"].as_f64().unwrap();
    let sets = |i: usize| rows[i]["benefit"]["sets"].clone();
    assert_eq!(rows[0]["benefit"]["figure"], "L1 miss rate");
    assert!(sets(0).to_string().contains("ba.SETS=1"), "{}", sets(0));
    assert!(sets(1).to_string().contains("ba.SETS=2"), "{}", sets(1));
    // Twice the sets, never more misses (vector_add streams: about equal).
    assert!(miss(1) <= miss(0) + 1e-9, "{} {}", miss(0), miss(1));
    assert!(rows[0]["benefit"]["base_cycles"].as_u64().unwrap() > 0);
    let svg = std::fs::read_to_string(out.join("explore.svg")).unwrap();
    assert!(
        svg.contains("cost against benefit"),
        "the cost-benefit view"
    );
    assert!(svg.contains("L1 miss rate on vector_add"));
}

#[test]
fn a_missing_kernel_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let o = warpgen()
        .args(["explore", "--unit", "ba_tag_array", "--sweep", "SETS=1,2"])
        .args(["--no-timing", "--kernel", "no-such-kernel.toml", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "an error, not a timing verdict");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--kernel no-such-kernel.toml"), "{e}");
    assert!(!dir.path().join("out").exists());
}
