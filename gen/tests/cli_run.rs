//! The `warpgen` binary on the SM harness (`run`, `reuse`, `catt`):
//! unit and role choices, lock-step and recording, paper presets, output
//! files that are never replaced, the reuse-distance profile and study.

use std::process::Command;

mod common;

use common::{kernel, run_fails, small_kernel, stderr_of_failure, stdout_of, warpgen};

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
