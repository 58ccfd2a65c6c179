//! The `warpgen` binary: exit codes, messages, and no half-written output.

use std::process::Command;

fn warpgen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warpgen"))
}

/// `warpgen verilog --config <text> --out <dir>/o` in a fresh folder.
fn verilog_with_config(text: &str) -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = warpgen()
        .args(["verilog", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    (dir, out)
}

#[test]
fn help_lists_examples() {
    let out = warpgen().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("Examples:") && text.contains("warpgen cosim"),
        "{text}"
    );
}

#[test]
fn bad_parameter_names_it_and_writes_nothing() {
    let (dir, out) = verilog_with_config("[ba_tag_array]\nWAYS = 6\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("WAYS = 6") && err.contains("power of two"),
        "{err}"
    );
    assert!(!dir.path().join("o").exists(), "nothing may be written");
}

#[test]
fn unknown_unit_table_and_parameter_are_errors() {
    for (text, needle) in [
        (
            "[ba_tag_arry]\nWAYS = 4\n",
            "unknown unit table [ba_tag_arry]",
        ),
        ("[ba_tag_array]\nWAYZ = 4\n", "WAYZ"),
        ("[ba_tag_array\n", "c.toml"),
    ] {
        let (_dir, out) = verilog_with_config(text);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{text}: {err}");
    }
}

#[test]
fn unsupported_geometry_lists_what_can_be_built() {
    let (_dir, out) = verilog_with_config("[ba_tag_array]\nLINE_BYTES = 64\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Configurations that can be built"), "{err}");
}

#[test]
fn emission_is_byte_identical_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for i in 0..2 {
        let o = dir.path().join(format!("o{i}"));
        let out = warpgen()
            .arg("verilog")
            .arg("--out")
            .arg(&o)
            .output()
            .unwrap();
        assert!(out.status.success());
        texts.push(std::fs::read(o.join("ba_tag_array.v")).unwrap());
    }
    assert_eq!(texts[0], texts[1]);
}

#[test]
fn scenario_cosim_passes_on_the_embedded_backend() {
    let out = warpgen()
        .args([
            "cosim",
            "--unit",
            "ba_tag_array",
            "--backend",
            "rusthdl",
            "--scenario",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("PASS ba_tag_array"), "{text}");
}

#[test]
fn report_json_has_the_papers_256_bits() {
    let out = warpgen()
        .args([
            "report",
            "--unit",
            "ba_tag_array",
            "--format",
            "json",
            "--no-synth",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["storage"]["paper_bits"], 256);
}

fn kernel(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../kernels")
        .join(name)
}

#[test]
fn vcd_without_cosim_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("w.vcd");
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(kernel("vector_add.toml"))
        .arg("--vcd")
        .arg(&vcd)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cosim"), "{err}");
    assert!(!vcd.exists());
}

#[test]
fn cosim_with_no_compared_cycle_is_an_error() {
    for n in ["0", "2"] {
        let out = warpgen()
            .args([
                "cosim",
                "--unit",
                "ba_tag_array",
                "--backend",
                "rusthdl",
                "--cycles",
                n,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--cycles {n}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--cycles") && err.contains("reset"), "{err}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("PASS"));
    }
}

#[test]
fn a_bad_table_of_another_unit_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, "[caps_prefetcher]\nN_CTA = 3\n").unwrap();
    let out = warpgen()
        .args(["verilog", "--unit", "ba_tag_array", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("c.toml") && err.contains("[caps_prefetcher]") && err.contains("N_CTA = 3"),
        "{err}"
    );
    assert!(!dir.path().join("o").exists());
}

#[test]
fn unit_and_role_choices_come_from_the_unit_table() {
    let out = warpgen().args(["run", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    // Every unit is a `--cosim` / `--record` choice; the roles list the
    // units that fill them, with the native choices.
    for u in ports::UNIT_NAMES {
        assert!(text.contains(u), "{u} missing from run --help:\n{text}");
    }
    for needle in [
        "--record <UNIT> <FILE>",
        "none",
        "caps",
        "lru",
        "ba-lru",
        "two-level",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    // An unknown choice is refused by the parser with the list.
    for args in [
        vec!["cosim", "--unit", "snake"],
        vec!["run", "--kernel", "k.toml", "--prefetcher", "nosuch"],
        vec!["run", "--kernel", "k.toml", "--l1", "decoupled"],
        vec!["run", "--kernel", "k.toml", "--cosim", "snake"],
        vec!["run", "--kernel", "k.toml", "--backend", "iverilog"],
    ] {
        let out = warpgen().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("possible values"), "{args:?}: {err}");
    }
    // A combination the harness cannot model is refused with the reason
    // and the fix, before anything runs: Snake's decoupled mode is a mode
    // of the native tag array.
    let out = warpgen()
        .args([
            "run",
            "--quiet",
            "--prefetcher",
            "snake",
            "--l1",
            "ba",
            "--kernel",
        ])
        .arg(kernel("vector_add.toml"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`l1` = ba")
            && err.contains("decoupled = auto, on for prefetcher = snake")
            && err.contains("decoupled = off"),
        "{err}"
    );
}

#[test]
fn record_writes_a_replayable_stimulus_for_any_unit() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = warpgen();
    cmd.args([
        "run",
        "--quiet",
        "--prefetcher",
        "caps",
        "--l1",
        "ba",
        "--kernel",
    ])
    .arg(kernel("vector_add.toml"));
    // Every unit that this run includes.
    let units = ["caps_prefetcher", "ba_tag_array"];
    for u in &units {
        cmd.arg("--record")
            .arg(u)
            .arg(dir.path().join(format!("{u}.jsonl")));
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Snake and DAC in runs of their own.
    for (unit, args, k) in [
        (
            "snake_prefetcher",
            vec!["--prefetcher", "snake"],
            "vector_add.toml",
        ),
        (
            "dac_expander",
            vec!["--dac", "--set", "param.NUM=3840"],
            "dac_example.toml",
        ),
    ] {
        let out = warpgen()
            .args(["run", "--quiet"])
            .args(args)
            .arg("--kernel")
            .arg(kernel(k))
            .args(["--record", unit])
            .arg(dir.path().join(format!("{unit}.jsonl")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{unit}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for u in units.iter().chain(&["snake_prefetcher", "dac_expander"]) {
        let text = std::fs::read_to_string(dir.path().join(format!("{u}.jsonl"))).unwrap();
        let header = text.lines().next().unwrap();
        assert!(header.contains(&format!("\"unit\":\"{u}\"")), "{header}");
        assert!(text.lines().count() > 100);
    }
    // Without `--dac`, recording DAC names the option.
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(kernel("vector_add.toml"))
        .args(["--record", "dac_expander"])
        .arg(dir.path().join("d.jsonl"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--expander dac"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A unit that is not in the run cannot be recorded.
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(kernel("vector_add.toml"))
        .args(["--record", "caps_prefetcher"])
        .arg(dir.path().join("x.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--prefetcher"));
}

#[test]
fn snake_runs_decoupled_by_default_and_decoupled_off_turns_it_off() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, on) in [(None, true), (Some("off"), false)] {
        let json = dir.path().join("m.json");
        let mut cmd = warpgen();
        cmd.args([
            "run",
            "--prefetcher",
            "snake",
            "--cosim",
            "snake_prefetcher",
        ])
        .args(["--backend", "rusthdl", "--kernel"])
        .arg(kernel("vector_add.toml"))
        .arg("--json")
        .arg(&json);
        if let Some(f) = flag {
            cmd.args(["--decoupled", f]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.contains("L1 lru (decoupled)"), on, "{text}");
        assert!(text.contains("lock-step: the snake_prefetcher RTL equalled its golden model"));
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(m["run"]["decoupled"], on);
        assert_eq!(m["l1"].get("decoupled").is_some(), on);
    }
}

/// `warpgen ARGS --kernel kernels/NAME`.
fn on_kernel(args: &[&str], name: &str) -> std::process::Output {
    warpgen()
        .args(args)
        .arg("--kernel")
        .arg(kernel(name))
        .output()
        .unwrap()
}

/// [`on_kernel`], which must succeed: its output.
fn stdout_of(args: &[&str], name: &str) -> String {
    let out = on_kernel(args, name);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`on_kernel`], which must fail: its error output.
fn stderr_of_failure(args: &[&str], name: &str) -> String {
    let out = on_kernel(args, name);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The command: a paper preset, all SMs, the new memory metrics,
/// the preset named in the output; `warpgen presets` quotes its table.
#[test]
fn a_paper_preset_runs_all_sms_and_says_so() {
    let text = stdout_of(
        &[
            "run",
            "--preset",
            "caps-gtx480",
            "--prefetcher",
            "caps",
            "--sched",
            "pas",
        ],
        "lps.toml",
    );
    for want in [
        "caps-gtx480",
        "on all 15 SMs",
        "L2 reads",
        "DRAM accesses",
        "per SM",
        "coverage, CAPS VI-C",
        "coverage, Snake VI",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    let out = warpgen().args(["presets", "caps-gtx480"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Table III") && text.contains("tCL=12"),
        "{text}"
    );
    assert!(stderr_of_failure(&["run", "--preset", "gtx9000"], "lps.toml").contains("caps-gtx480"));
}

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

/// A run list of two small runs (one refused: BA on a 256-way L1) in `dir`.
fn small_list(dir: &std::path::Path) -> std::path::PathBuf {
    let list = dir.join("runs.toml");
    let k = kernel("vector_add.toml");
    std::fs::write(
        &list,
        format!(
            "[[run]]\nid = \"va-base\"\nkernel = {k:?}\npreset = \"fermi\"\nset = [\"param.N=4096\"]\n\n\
             [[run]]\nid = \"va-ba-volta\"\nkernel = {k:?}\npreset = \"snake-v100\"\n\
             set = [\"param.N=4096\", \"l1=ba\"]\n"
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
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 2 of 2 runs"));
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("merged.json")).unwrap()).unwrap();
    let runs = merged.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["spec"]["id"], "va-base");
    assert!(runs[0]["metrics"]["cycles"].as_u64().unwrap() > 0);
    // A machine's refusal is a result, not a failure of the sweep.
    assert!(
        runs[1]["error"].as_str().unwrap().contains("l1_ways"),
        "{}",
        runs[1]
    );
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
        .replace("N=4096\", \"l1", "N=2048\", \"l1");
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
        err.contains("1 of 2 runs have no result") && err.contains("va-ba-volta (task 1)"),
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
    assert!(String::from_utf8_lossy(&o.stderr).contains("ran 0 of 30 runs"));
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
