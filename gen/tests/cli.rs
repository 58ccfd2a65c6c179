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
        texts.push([
            std::fs::read(o.join("ba_tag_array.v")).unwrap(),
            std::fs::read(o.join("ba_tag_array.core")).unwrap(),
        ]);
    }
    assert_eq!(texts[0], texts[1]);
}

/// The FuseSoC core file written beside each unit's Verilog names it, its
/// file and top module, and lists the configuration it was built for.
#[test]
fn verilog_writes_a_core_file_per_unit_with_its_configuration() {
    let (dir, out) = verilog_with_config("[ba_tag_array]\nSETS = 32\nWAYS = 4\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o = dir.path().join("o");
    let core = std::fs::read_to_string(o.join("ba_tag_array.core")).unwrap();
    let v = std::fs::read_to_string(o.join("ba_tag_array.v")).unwrap();
    assert!(core.starts_with("CAPI=2:\n"), "{core}");
    for want in [
        "name: warpgen:units:ba_tag_array:",
        "      - ba_tag_array.v\n",
        "    toplevel: ba_tag_array\n",
        "#   SETS = 32\n",
        "#   WAYS = 4\n",
        "built for SETS=32 WAYS=4 ",
    ] {
        assert!(core.contains(want), "{want}:\n{core}");
    }
    assert!(v.contains("//   SETS = 32\n") && v.contains("//   WAYS = 4\n"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for u in [
        "ba_tag_array",
        "caps_prefetcher",
        "snake_prefetcher",
        "dac_expander",
    ] {
        assert!(o.join(format!("{u}.core")).is_file(), "{u}.core");
        assert!(stdout.contains(&format!("{u}.core")), "{stdout}");
    }
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
        let all: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        // An array of one metrics object per kernel.
        assert_eq!(all.as_array().map(Vec::len), Some(1), "{all}");
        let m = &all[0];
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

/// A valid Accel-Sim trace: `ctas` CTAs in a row, `warps` full warps each,
/// every warp a load (base+stride), a store (base+deltas) and an EXIT.
fn good_trace(ctas: u32, warps: u32) -> String {
    let mut s = format!(
        "-kernel name = _Z4testPf\n-kernel id = 1\n-grid dim = ({ctas},1,1)\n-block dim = \
         ({},1,1)\n-accelsim tracer version = 5\n-enable lineinfo = 0\n",
        warps * 32
    );
    for c in 0..ctas {
        s += &format!("\n#BEGIN_TB\nthread block = {c},0,0\n");
        for w in 0..warps {
            let a = 0x7f00_0000_0000u64 + (c * warps + w) as u64 * 128;
            s += &format!(
                "warp = {w}\ninsts = 3\n0010 ffffffff 1 R4 LDG.E 1 R2 4 1 {a:#x} 4 0\n0020 \
                 0000000f 0 STG.E 2 R2 R4 4 2 {a:#x} 4 4 4 0\n0030 ffffffff 0 EXIT 0 0 0\n"
            );
        }
        s += "#END_TB\n";
    }
    s
}

/// A bad trace of the CLI test: what it is, (its text, the error's line),
/// extra options, the error's field.
type BadTrace = (
    &'static str,
    (String, usize),
    &'static [&'static str],
    &'static str,
);

/// `warpgen run --kernel DIR` on trace folders with a bad kernel: exit
/// code 2, the error on stderr as ``FILE:LINE: field `FIELD`: ...``, no
/// panic, no result printed (with a kernel list, not even the good first
/// kernel's: every kernel is checked before any runs). With
/// `--nocapture` the message of each is printed.
#[test]
fn bad_traces_exit_2_with_file_line_and_field() {
    let g = good_trace(2, 2);
    // `g` with the first `from` replaced by `to`, and the line it is on.
    let sub = |from: &str, to: &str| {
        let at = g.find(from).unwrap_or_else(|| panic!("{from}"));
        (g.replacen(from, to, 1), g[..at].matches('\n').count() + 1)
    };
    let begin_line = |t: &str| t.lines().position(|l| l == "#BEGIN_TB").unwrap() + 1;
    let no_version = g.replacen("-accelsim tracer version = 5\n", "", 1);
    let g8 = good_trace(8, 1).replacen(
        "-grid dim = (8,1,1)",
        "-grid dim = (2147483647,2147483647,64)",
        1,
    );
    let header_end = g.find("\n#BEGIN_TB").unwrap() + 1;
    #[rustfmt::skip]
    let cases: Vec<BadTrace> = vec![
        ("block dimension of 0", sub("-block dim = (64,1,1)", "-block dim = (0,1,1)"), &[], "-block dim"),
        ("warp id 4,000,000,000", sub("warp = 1", "warp = 4000000000"), &[], "warp"),
        ("warp id past the block's warps", sub("warp = 1", "warp = 2"), &[], "warp"),
        ("thread block outside the grid", sub("thread block = 1,0,0", "thread block = 5,0,0"), &[], "thread block"),
        ("duplicate CTA id", sub("thread block = 1,0,0", "thread block = 0,0,0"), &[], "thread block"),
        ("missing header", (g[header_end..].to_string(), 1), &[], "header"),
        ("missing version line", (no_version.clone(), begin_line(&no_version)), &[], "-accelsim tracer version"),
        ("0-byte trace", (String::new(), 1), &[], "header"),
        ("active mask wider than 32 bits", sub("0010 ffffffff", "0010 1ffffffff"), &[], "mask"),
        ("access width 2^32-1", sub("R2 4 1", "R2 4294967295 1"), &[], "mem_width"),
        ("base+stride overflowing", sub("R2 4 1 0x7f0000000000 4", "R2 4 1 0xfffffffffffffff0 4"), &[], "stride"),
        ("base+deltas overflowing", sub("4 2 0x7f0000000000 4 4 4", "4 2 0xfffffffffffffff8 4 4 4"), &[], "delta"),
        ("grid (2^31-1, 2^31-1, 64), eight CTAs traced", (g8, 3), &[], "-grid dim"),
        ("block over CUDA's 1024 threads", sub("-block dim = (64,1,1)", "-block dim = (2048,1,1)"), &[], "-block dim"),
        ("block past the machine's warp slots", (good_trace(1, 32), 4), &["--set", "max_warps=16"], "-block dim"),
    ];
    for (what, (text, line), extra, field) in cases {
        let dir = tempfile::tempdir().unwrap();
        // A good first kernel, the bad one second.
        std::fs::write(dir.path().join("kernel-1.traceg"), good_trace(1, 1)).unwrap();
        std::fs::write(dir.path().join("kernel-2.traceg"), &text).unwrap();
        std::fs::write(
            dir.path().join("kernelslist.g"),
            "MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\nkernel-2.traceg\n",
        )
        .unwrap();
        let start = std::time::Instant::now();
        let out = warpgen()
            .args(["run", "--kernel"])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        let secs = start.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&out.stderr);
        let want = format!(
            "error: {}:{line}: field `{field}`: ",
            dir.path().join("kernel-2.traceg").display()
        );
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.starts_with(&want), "{what}: want {want}…, got {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}: printed a result");
        assert!(secs < 10.0, "{what}: {secs:.1} s");
        eprintln!("{what}: {}", err.lines().next().unwrap_or(""));
    }
}

#[test]
fn catt_prints_table_3_for_atax_and_run_applies_it() {
    let atax = kernel("atax1.toml");
    let out = warpgen()
        .args(["catt", "--set", "param.NX=81920", "--kernel"])
        .arg(&atax)
        .args(["--l1-kb", "32"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("baseline TLP (8, 4)") && text.contains("L1 32 KB"),
        "{text}"
    );
    assert!(text.contains("(1, 4)"), "{text}");
    let out = warpgen()
        .args([
            "catt",
            "--format",
            "json",
            "--set",
            "param.NX=81920",
            "--kernel",
        ])
        .arg(&atax)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["loops"][0]["warps"], 4);
    assert_eq!(v[0]["l1_bytes"], 131072);
    // The run: throttled, said so, the same loads.
    let run = |extra: &[&str]| {
        let mut c = warpgen();
        c.args(["run", "--preset", "catt-titanv", "--set", "param.NX=2048"])
            .args(["--set", "n_sm=2", "--set", "l1_bytes=32768", "--kernel"])
            .arg(&atax)
            .args(extra);
        c.output().unwrap()
    };
    let o = run(&["--catt"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("CATT throttling (L1 32 KB): loop at line 11: (1, 4)"),
        "{text}"
    );
    // CATT rewrites loops: not with DAC, not on a trace.
    let o = run(&["--catt", "--dac"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("expansion unit"));
    let trace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/traces/microgpusim/vectoradd-100-32-trace");
    if trace.exists() {
        let o = warpgen()
            .arg("catt")
            .arg("--kernel")
            .arg(&trace)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("a trace has neither"));
    }
}

// ------------------------------------------------------------ issue 13 item 3

/// A small kernel file in `dir` with `stmt` as its body's second line
/// (file line 6) and `extra` after `block`.
fn small_kernel(dir: &std::path::Path, name: &str, stmt: &str, extra: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(
        &p,
        format!(
            "name = \"k\"\ngrid = [\"N / 32\"]\nblock = [32]{extra}\nbody = \"\"\"\nlet i = \
             ctaid.x * 32 + tid.x\n{stmt}\n\"\"\"\n[params]\nN = 64\n[arrays.A]\nelem = 4\nlen = \
             \"N\"\n"
        ),
    )
    .unwrap();
    p
}

/// `warpgen run --quiet --kernel K ARGS...`: the exit code and the first
/// line of the error output (which must not tell of a panic).
fn run_fails(k: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(k)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !err.contains("panicked") && !err.contains("overflowed its stack"),
        "{err}"
    );
    (
        out.status.code(),
        err.lines().next().unwrap_or("").to_string(),
    )
}

/// Every bad kernel input of the issue: exit code 2 and a first line that
/// names the file, the line and the field.
#[test]
fn bad_kernel_inputs_exit_2_naming_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deep = format!("load A[{}i{}]", "(".repeat(20_000), ")".repeat(20_000));
    let minus = format!("load A[{}i]", "-".repeat(100_000));
    let cases: Vec<(String, &str, &str)> = vec![
        (
            deep,
            "",
            ":6: field `body`: expression nested more than 128 levels deep",
        ),
        (
            minus,
            "",
            ":6: field `body`: expression nested more than 128 levels deep",
        ),
        (
            "load A[i / 0]".into(),
            "",
            ":6: field `body`: division by zero",
        ),
        (
            "load A[i % 0]".into(),
            "",
            ":6: field `body`: division by zero",
        ),
        (
            "let d = tid.x - 3\nload A[i / d]".into(),
            "",
            ":7: field `body`: division by zero at run time",
        ),
        (
            "loop q -5 {\n}".into(),
            "",
            ":6: field `body`: `loop` count -5 is negative",
        ),
        (
            "loop q tid.x {\n}".into(),
            "",
            ":6: field `body`: the count of `loop VAR COUNT` must be scalar",
        ),
        (
            "load A[i]".into(),
            "\nsmem_bytes = 65536",
            ": field `smem_bytes`: kernel k: a CTA needs 65536 bytes",
        ),
    ];
    for (i, (stmt, extra, want)) in cases.iter().enumerate() {
        let k = small_kernel(d, &format!("k{i}.toml"), stmt, extra);
        let (code, first) = run_fails(&k, &[]);
        assert_eq!(code, Some(2), "{first}");
        let prefix = format!("error: {}{want}", k.display());
        assert!(first.starts_with(&prefix), "want {prefix}\n got {first}");
    }
    // A parameter too big: the wrapped value no more, the parameter named.
    let k = small_kernel(d, "big.toml", "load A[i]", "");
    let (code, first) = run_fails(&k, &["--set", "param.N=9223372036854775807"]);
    assert_eq!(code, Some(2));
    assert!(
        first.starts_with(&format!("error: {}:2: field `grid[0]`", k.display()))
            && first.contains("with N = 9223372036854775807"),
        "{first}"
    );
    let text = std::fs::read_to_string(&k)
        .unwrap()
        .replace("N = 64", "N = 9223372036854775807")
        .replace("len = \"N\"", "len = \"N * 4\"")
        .replace("grid = [\"N / 32\"]", "grid = [1]");
    std::fs::write(&k, text).unwrap();
    let (code, first) = run_fails(&k, &[]);
    assert_eq!(code, Some(2));
    assert!(
        first.starts_with(&format!(
            "error: {}:12: field `arrays.A.len`: `N * 4`: ",
            k.display()
        )) && first.contains("overflows")
            && first.contains("with N = 9223372036854775807"),
        "{first}"
    );
}

/// The machine's limits and ranges name where the value was set.
#[test]
fn machine_errors_exit_2_naming_the_file_or_option_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let k = small_kernel(dir.path(), "k.toml", "load A[i]", "\nsmem_bytes = 65536");
    let (code, first) = run_fails(&k, &["--preset", "caps-gtx480"]);
    assert_eq!(code, Some(2));
    assert!(
        first.contains("k.toml: field `smem_bytes`")
            && first.contains("`shared_mem_bytes` comes from presets/caps-gtx480.toml:")
            && first.ends_with("field `machine.shared_mem_bytes`"),
        "{first}"
    );
    let k = kernel("vector_add.toml");
    let (code, first) = run_fails(&k, &["--set", "max_cycles=1000"]);
    assert_eq!(code, Some(2));
    assert!(
        first.contains("vector_add.toml: the kernel did not finish within 1000 cycles")
            && first.ends_with("`max_cycles` comes from --set max_cycles=1000"),
        "{first}"
    );
    for (args, want) in [
        (
            vec!["--set", "l1_ways=300"],
            "error: --set l1_ways=300: configuration `l1_ways` = 300: allowed 1..=256",
        ),
        (
            vec!["--set", "mem_latency=x"],
            "error: --set mem_latency=x: configuration `mem_latency` = x: expected an integer",
        ),
        (
            vec!["--preset", "snake-v100", "--l1", "ba"],
            "error: presets/snake-v100.toml:",
        ),
    ] {
        let (code, first) = run_fails(&k, &args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(first.starts_with(want), "{args:?}: {first}");
    }
}

/// `--json` on a device, a FIFO, a symlink, a folder, in a missing folder:
/// written through or refused, before the run; never replaced by a regular
/// file; the usual permissions; an array of metrics whatever the number of
/// kernels.
#[test]
fn json_output_never_replaces_a_device_fifo_or_symlink() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let k = kernel("vector_add.toml");
    let small = ["--set", "param.N=4096", "--json"];
    if std::path::Path::new("/dev/full").exists() {
        let (code, first) = run_fails(&k, &[&small[..], &["/dev/full"]].concat());
        assert_eq!(code, Some(2));
        assert!(
            first.contains("/dev/full") && first.contains("No space left on device"),
            "{first}"
        );
        let m = std::fs::metadata("/dev/full").unwrap();
        assert!(m.file_type().is_char_device(), "/dev/full was replaced");
    }
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(&k)
        .args(["--set", "param.N=4096", "--json", "/dev/null"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // Refused before the run: the kernel's own run-time error never shows.
    let bad = small_kernel(d, "div.toml", "let q = 1 / (tid.x - 3)", "");
    let missing = d.join("no/such/folder/m.json");
    for (path, want) in [
        (d.to_path_buf(), "is a folder"),
        (missing.clone(), "does not exist"),
    ] {
        let (code, first) = run_fails(&bad, &["--json", path.to_str().unwrap()]);
        assert_eq!(code, Some(2));
        assert!(first.contains("--json") && first.contains(want), "{first}");
    }
    assert!(!missing.exists());
    // A FIFO with no reader: refused at once, not waited on.
    let fifo = d.join("fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let (code, first) = run_fails(&k, &[&small[..], &[fifo.to_str().unwrap()]].concat());
        assert_eq!(code, Some(2));
        assert!(first.contains("no reader"), "{first}");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
    // A symlink: its target written, the link kept.
    let target = d.join("target.json");
    let link = d.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(&k)
        .args(small)
        .arg(&link)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(v[0]["run"]["kernel"], "vectorAdd");
    // A new file: 0666 less the umask (warpgen's is this process's).
    let umask = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|m| u32::from_str_radix(m.trim(), 8).ok())
        });
    let json = d.join("m.json");
    let out = warpgen()
        .args(["run", "--quiet", "--kernel"])
        .arg(&k)
        .args(small)
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success());
    if let Some(umask) = umask {
        let mode = std::fs::metadata(&json).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask, "{mode:o}");
    }
    // Only the JSON files and the links: no temporary file left.
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect();
    names.sort();
    assert!(names.is_empty(), "{names:?}");
}

/// A `warpgen verilog` killed by SIGTERM at any point leaves no temporary
/// file; those of a process killed outright (SIGKILL cannot be caught) are
/// removed by the next emission.
#[test]
fn a_killed_verilog_emission_leaves_no_temporary_files() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v");
    let temps = |dir: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|r| {
                r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.contains(".tmp") || n.ends_with(".warpgen-tmp"))
                    .collect()
            })
            .unwrap_or_default()
    };
    // How long an emission takes here.
    let t = std::time::Instant::now();
    assert!(warpgen()
        .arg("verilog")
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap()
        .status
        .success());
    let full = t.elapsed();
    let mut killed = 0;
    for i in 0..12u32 {
        let delay = full * i / 10;
        let mut child = warpgen()
            .arg("verilog")
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let status = child.wait().unwrap();
        // Finished first, or ended by the signal.
        assert!(
            status.success() || status.signal() == Some(15),
            "after {delay:?}: {status:?}"
        );
        killed += (!status.success()) as u32;
        assert!(temps(&out).is_empty(), "after {delay:?}: {:?}", temps(&out));
    }
    assert!(killed > 0, "no run was killed");
    // Left by processes killed outright (no such process runs: the pid is
    // above Linux's limit): removed by the next emission, other files kept.
    let dead = 4_194_312;
    for n in [
        format!("ba_tag_array.v.tmp{dead}"),
        format!(".caps_prefetcher.v.{dead}.warpgen-tmp"),
        "notes.tmp1".into(),
    ] {
        std::fs::write(out.join(n), "x").unwrap();
    }
    assert!(warpgen()
        .arg("verilog")
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap()
        .status
        .success());
    assert_eq!(temps(&out), ["notes.tmp1"]);
}

/// `warpgen run --reuse-distance FILE.svg`: the table per load, the JSON
/// profile (its per-load split summing to the totals) and one SVG of
/// stacked panels.
#[test]
fn run_writes_the_reuse_distance_profile() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("reuse.svg");
    let json = dir.path().join("m.json");
    let text = stdout_of(
        &[
            "run",
            "--preset",
            "ba-thesis",
            "--set",
            "param.NTHREADS=7168",
            "--set",
            "param.ROUNDS=4",
            "--reuse-distance",
            svg.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
        "reuse.toml",
    );
    for want in [
        "reuse distance (BA thesis)",
        "per set, 16 x 8-way",
        "fully associative, 128 lines",
        "[64,128)",
        "reuse distance per load",
        "coef (line 15)",
        "input (line 18)",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let r = &all[0]["reuse"];
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    assert_eq!(r["bounds"], serde_json::json!([8, 16, 32, 64, 128]));
    let profiled = n(&r["profiled"]);
    assert_eq!(
        profiled + n(&r["pending_excluded"]),
        n(&all[0]["l1"]["accesses"])
    );
    let pcs = r["per_pc"].as_array().unwrap();
    assert_eq!(pcs.len(), 3, "{pcs:?}");
    for key in ["rd0", "rd1", "rd2", "accesses"] {
        let sum: u64 = pcs.iter().map(|p| n(&p[key])).sum();
        let total = if key == "accesses" {
            profiled
        } else {
            n(&r[key])
        };
        assert_eq!(sum, total, "{key}");
    }
    for k in 0..7 {
        let sum: u64 = pcs.iter().map(|p| n(&p["intervals"][k])).sum();
        assert_eq!(sum, n(&r["intervals"][k]), "interval {k}");
    }
    // The streamed input is never reused: all first accesses.
    let input = pcs.iter().find(|p| p["load"] == "input (line 18)").unwrap();
    assert_eq!(n(&input["rd2"]), n(&input["accesses"]));
    let doc = std::fs::read_to_string(&svg).unwrap();
    assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"));
    for panel in [
        "reuse: reuse distance of",
        "reuse distance over time",
        "per load",
        "per set (16 x 8-way)",
        "fully associative (128 lines)",
        "rd0 hit",
    ] {
        assert!(doc.contains(panel), "{panel}");
    }
    // Without the profile there is nothing to draw, and nothing runs.
    let err = stderr_of_failure(
        &[
            "run",
            "--set",
            "reuse_analysis=false",
            "--reuse-distance",
            dir.path().join("x.svg").to_str().unwrap(),
        ],
        "reuse.toml",
    );
    assert!(err.contains("--reuse-distance"), "{err}");
    assert!(!dir.path().join("x.svg").exists());
}

/// `warpgen reuse`: the thesis's cache-size study on a small kernel, one
/// row per size and associativity, the figure and the results written.
#[test]
fn reuse_study_tabulates_each_l1_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("study");
    let text = stdout_of(
        &[
            "reuse",
            "--set",
            "param.NTHREADS=7168",
            "--set",
            "param.ROUNDS=4",
            "--out",
            out.to_str().unwrap(),
        ],
        "reuse.toml",
    );
    for (label, geometry) in [
        ("16 KB 4-way", "32 x 4"),
        ("16 KB 8-way", "16 x 8"),
        ("32 KB 4-way", "64 x 4"),
        ("32 KB 8-way", "32 x 8"),
        ("48 KB 4-way", "96 x 4"),
        ("48 KB 8-way", "48 x 8"),
    ] {
        let row = text
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("{label}\n{text}"));
        assert!(row.contains(geometry), "{row}");
    }
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("reuse-study.json")).unwrap())
            .unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows {
        assert!(r["error"].is_null(), "{r}");
        let u = &r["reuse"];
        assert_eq!(
            u["capacity"].as_u64().unwrap() * 128,
            r["l1_bytes"].as_u64().unwrap()
        );
        // Table 1's hits are the LRU hits the run had, up to the timing of
        // the merged requests.
        let rd0 = u["rd0"].as_f64().unwrap() / u["profiled"].as_f64().unwrap();
        let hit = r["hit_rate"].as_f64().unwrap();
        assert!((rd0 - hit).abs() < 0.1, "rd0 {rd0} vs hit rate {hit}");
    }
    let doc = std::fs::read_to_string(out.join("reuse-study.svg")).unwrap();
    assert!(doc.contains("hit rate") && doc.contains("48 KB 8-way"));
    // A configuration the machine cannot build is a row, not a failure.
    let text = stdout_of(
        &[
            "reuse",
            "--preset",
            "fermi",
            "--sizes",
            "16",
            "--ways",
            "4,3",
            "--out",
            out.to_str().unwrap(),
        ],
        "reuse.toml",
    );
    assert!(
        text.contains("16 KB 3-way") && text.contains("refused"),
        "{text}"
    );
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
