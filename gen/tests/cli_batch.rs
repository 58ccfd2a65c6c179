//! The `warpgen` binary on lists of harness runs (`compare`, `sweep`,
//! `reproduce`, `all`'s kernel comparison): tables, resuming, merging,
//! Slurm scripts, caching.

use std::process::Command;

mod common;

use common::{kernel, stderr_of_failure, stdout_of, warpgen};

#[test]
fn compare_tables_presets_and_mechanisms_and_names_refusals() {
    let text = stdout_of(
        &[
            "compare",
            "--preset",
            "caps-gtx480",
            "--preset",
            "snake-v100",
            "--mechanism",
            "base",
            "--mechanism",
            "CAPS=prefetcher=caps,sched=pas",
            "--mechanism",
            "BA=l1=ba",
            "--set",
            "param.N=2048",
            "--jobs",
            "2",
        ],
        "vector_add.toml",
    );
    assert!(
        text.contains("### caps-gtx480") && text.contains("### snake-v100"),
        "{text}"
    );
    assert!(text.contains("| vectorAdd |"), "{text}");
    assert!(text.contains("CAPS acc / cov"), "{text}");
    // BA cannot run on the V100's 256-way L1: a cell with the reason.
    let v100 = &text[text.find("### snake-v100").unwrap()..];
    assert!(v100.contains("refused"), "{v100}");
    assert!(
        v100.contains("Not run:") && v100.contains("l1_ways"),
        "{v100}"
    );
    let caps = &text[..text.find("### snake-v100").unwrap()];
    assert!(!caps.contains("refused"), "{caps}");
    // A bad mechanism is an error naming it.
    let e = stderr_of_failure(
        &["compare", "--mechanism", "X=prefetcher"],
        "vector_add.toml",
    );
    assert!(e.contains("X=prefetcher"), "{e}");
}

/// A run list of two small runs in `dir`.
fn small_list(dir: &std::path::Path) -> std::path::PathBuf {
    let list = dir.join("runs.toml");
    let k = kernel("vector_add.toml");
    std::fs::write(
        &list,
        format!(
            "[[run]]\nid = \"va-base\"\nkernel = {k:?}\npreset = \"fermi\"\nset = [\"param.N=4096\"]\n\n\
             [[run]]\nid = \"va-ba-volta\"\nkernel = {k:?}\npreset = \"snake-v100\"\n\
             set = [\"param.N=4096\", \"l1_ways=4\", \"l1=ba\"]\n"
        ),
    )
    .unwrap();
    list
}

#[test]
fn sweep_runs_a_list_in_parallel_resumes_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let list = small_list(dir.path());
    let out = dir.path().join("out");
    let o = warpgen()
        .args(["sweep", "--jobs", "2", "--list"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("ran 2 of 2 runs"), "{err}");
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("merged.json")).unwrap()).unwrap();
    let runs = merged.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["spec"]["id"], "va-base");
    assert!(runs[0]["metrics"]["cycles"].as_u64().unwrap() > 0);
    assert!(runs[1]["metrics"]["cycles"].as_u64().unwrap() > 0);
    // Run again: both results are kept.
    let o = warpgen()
        .args(["sweep", "--list"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 0 of 2 runs"));
    // A result of another run under the same id is not taken for it.
    let text = std::fs::read_to_string(&list)
        .unwrap()
        .replace("N=4096\", \"l1_ways", "N=2048\", \"l1_ways");
    std::fs::write(&list, text).unwrap();
    let o = warpgen()
        .args(["sweep", "--merge", "--list"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 of 2 runs have no result")
            && err.contains("va-ba-volta (task 1: another run's result)"),
        "{err}"
    );
}

#[test]
fn emitted_slurm_task_command_runs_locally_with_the_array_index() {
    let dir = tempfile::tempdir().unwrap();
    let list = small_list(dir.path());
    let out = dir.path().join("out");
    let slurm = dir.path().join("slurm");
    let o = warpgen()
        .args(["sweep", "--list"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .arg("--emit-slurm")
        .arg(&slurm)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.join("runs").exists(), "emitting runs nothing");
    let script = std::fs::read_to_string(slurm.join("sweep.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=0-1\n"), "{script}");
    // Each array task: the script's own command, run by bash with the index
    // Slurm would set (sbatch directives are comments to bash).
    for i in 0..2 {
        let o = Command::new("bash")
            .arg(slurm.join("sweep.sbatch"))
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "task {i}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(out.join("runs/va-base.json").exists());
    assert!(out.join("runs/va-ba-volta.json").exists());
    // The merge job is the same command as a local merge.
    let o = Command::new("bash")
        .arg(slurm.join("merge.sbatch"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("merged.json").exists());
    // A task past the list names the range.
    let o = Command::new("bash")
        .arg(slurm.join("sweep.sbatch"))
        .env("SLURM_ARRAY_TASK_ID", "2")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("tasks 0..=1"));
}

#[test]
fn reproduce_writes_the_report_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let kernels = kernel("");
    let run = |extra: &[&str]| {
        warpgen()
            .args(["reproduce", "--paper", "snake", "--jobs", "2", "--out"])
            .arg(&out)
            .arg("--kernels")
            .arg(&kernels)
            .args(extra)
            .output()
            .unwrap()
    };
    // Nothing has run yet: --no-run names what is missing.
    let o = run(&["--no-run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("have no result"));
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("| snake | Fig. 16 |"), "{stdout}");
    for f in [
        "report.md",
        "report.html",
        "claims.json",
        "fig-snake-16.svg",
        "fig-snake-18.svg",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 3);
    let claims: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("claims.json")).unwrap()).unwrap();
    assert!(claims
        .as_array()
        .unwrap()
        .iter()
        .all(|c| !c["why"].as_str().unwrap().is_empty()));
    // Again: every result is reused, the report rewritten from them.
    let o = run(&[]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 0 of 90 runs"));
    // As a Slurm job array: its last job writes the report without running.
    let slurm = dir.path().join("slurm");
    let o = run(&["--emit-slurm", slurm.to_str().unwrap()]);
    assert!(o.status.success());
    let merge = std::fs::read_to_string(slurm.join("merge.sbatch")).unwrap();
    assert!(
        merge.contains("reproduce --out") && merge.contains("--no-run --paper snake"),
        "{merge}"
    );
    let o = Command::new("bash")
        .arg(slurm.join("merge.sbatch"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `warpgen all` caches each harness run of its kernel comparison: a second
/// run with the same binary and kernels prints the same table without
/// running anything again, and a changed kernel file is run afresh.
#[test]
fn all_caches_the_kernel_comparison_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let kernels = dir.path().join("kernels");
    std::fs::create_dir_all(&kernels).unwrap();
    let src = kernel("matrix_mul.toml");
    std::fs::copy(&src, kernels.join("matrix_mul.toml")).unwrap();
    let cache = dir.path().join("cache");
    let run = || {
        let out = warpgen()
            .env("WARPGEN_CACHE", &cache)
            .args([
                "all",
                "--cycles",
                "200",
                "--no-synth",
                "--no-prove",
                "--out",
            ])
            .arg(dir.path().join("v"))
            .arg("--kernels")
            .arg(&kernels)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let table = text[text.find("SM harness").expect("the comparison is printed")..].to_string();
        let cached = std::fs::read_dir(cache.join("compare")).unwrap().count();
        (table, cached)
    };
    let (first, n1) = run();
    assert_eq!(n1, 6, "one cached cell per combination");
    assert!(first.contains("matrixMul"), "{first}");
    let (second, n2) = run();
    assert_eq!(second, first);
    assert_eq!(n2, 6, "the second run added nothing");
    // The key is the file's text: an edited file runs again.
    let text = std::fs::read_to_string(&src).unwrap();
    std::fs::write(
        kernels.join("matrix_mul.toml"),
        format!("{text}\n# changed\n"),
    )
    .unwrap();
    let (_, n3) = run();
    assert_eq!(n3, 12, "a changed kernel file is run afresh");
}
