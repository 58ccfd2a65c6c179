//! The `warpgen` binary on a unit's RTL (`verilog`, `cosim`, `report`):
//! exit codes, messages, byte-identical emission and no half-written
//! output.

use std::process::Command;

mod common;

use common::warpgen;

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
fn a_geometry_outside_the_width_table_is_elaborated_on_demand() {
    let (dir, out) = verilog_with_config("[ba_tag_array]\nLINE_BYTES = 64\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("Configurations that can be built"), "{err}");
    let v = std::fs::read_to_string(dir.path().join("o").join("ba_tag_array.v")).unwrap();
    assert!(
        v.contains("LINE_BYTES = 64"),
        "the header names the configuration"
    );
    assert!(v.contains("module ba_tag_array("), "no top module");
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

/// `warpgen report`'s clock and activity flags: bad values name the flag
/// and the fix, exit non-zero, and do not panic.
#[test]
fn report_bad_clock_and_activity_flags_are_errors() {
    let cases: [(&[&str], &str); 4] = [
        (&["--clock-mhz", "0"], "--clock-mhz"),
        (&["--clock-mhz", "fast"], "--clock-mhz"),
        (&["--clock-sweep", "abc"], "--clock-sweep"),
        (&["--activity", "nosuch.toml"], "--activity"),
    ];
    for (args, flag) in cases {
        let out = warpgen()
            .args(["report", "--unit", "ba_tag_array"])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Every `--vcd` gets a GTKWave save file beside it (`FILE.gtkw`), naming
/// the delivered waveform and only signals it has, on both back-ends; a
/// waveform written to a device gets none (`/dev/null.gtkw` would be a file
/// in `/dev`).
#[test]
fn cosim_vcd_has_a_gtkwave_view_beside_it() {
    let backends: Vec<&str> = if eda::tool_available(eda::Tool::Verilator) {
        vec!["rusthdl", "verilator"]
    } else {
        vec!["rusthdl"]
    };
    for b in backends {
        let dir = tempfile::tempdir().unwrap();
        let vcd = dir.path().join("wave.vcd");
        let args = |to: &str| {
            vec![
                "cosim",
                "--unit",
                "ba_tag_array",
                "--backend",
                b,
                "--cycles",
                "40",
                "--vcd",
                to,
                "--vcd-always",
            ]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
        };
        let o = warpgen()
            .args(args(vcd.to_str().unwrap()))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{b}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let save = std::fs::read_to_string(dir.path().join("wave.gtkw")).expect("wave.gtkw");
        let abs = std::path::absolute(&vcd).unwrap();
        assert!(
            save.contains(&format!("[dumpfile] \"{}\"\n", abs.display())),
            "{b}: {save}"
        );
        let text = std::fs::read_to_string(&vcd).unwrap();
        let names = cosim::gtkw::vcd_signal_names(&text[..cosim::vcd::header_end(&text).unwrap()]);
        let used = cosim::gtkw::referenced_signals(&save);
        assert!(used.iter().any(|s| s == "lockstep.mismatch"), "{b}: {save}");
        assert!(
            used.iter().any(|s| s.starts_with("golden.rsp_")),
            "{b}: {save}"
        );
        for s in &used {
            assert!(names.contains(s), "{b}: {s} is not in the VCD");
        }
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "{b}: the VCD and its view only: {left:?}");
        if std::path::Path::new("/dev/null").exists() {
            let o = warpgen().args(args("/dev/null")).output().unwrap();
            assert!(
                o.status.success(),
                "{b}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(!std::path::Path::new("/dev/null.gtkw").exists(), "{b}");
        }
    }
}

/// Widths that are not compiled in are elaborated from the checkout's
/// sources; away from them (`WARPGEN_SOURCE` naming a folder without
/// them) the error names the missing file and the way out, the exit code
/// is 2 and nothing is written.
#[test]
fn on_demand_elaboration_without_the_sources_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    // 16 warps with a 16-entry Tail: valid, not in Snake's width table.
    std::fs::write(
        &cfg,
        "[snake_prefetcher]\nN_WARPS = 16\nTAIL_ENTRIES = 16\n",
    )
    .unwrap();
    let empty = dir.path().join("nowhere");
    std::fs::create_dir(&empty).unwrap();
    let out = dir.path().join("o");
    let o = warpgen()
        .env("WARPGEN_SOURCE", &empty)
        .args(["verilog", "--unit", "snake_prefetcher", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("elab/Cargo.toml is missing"), "{err}");
    assert!(err.contains("WARPGEN_SOURCE"), "{err}");
    assert!(err.contains("N_WARPS = 16, TAIL_ENTRIES = 16"), "{err}");
    assert!(!out.exists(), "nothing written");
    assert!(!err.contains("panicked"), "{err}");
}
