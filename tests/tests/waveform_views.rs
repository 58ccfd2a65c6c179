//! The GTKWave view written beside every lock-step waveform (issue 31,
//! item 4): for every unit, the save file names only signals of its VCD,
//! puts the golden outputs beside the RTL's and groups the registers per
//! table and entry. (The cursor on a first difference: `harness_cosim.rs`;
//! the delivery beside `--vcd`: `gen/tests/cli_rtl.rs`.)

use gen::commands::CosimArgs;
use gen::unit_table::UNITS;

/// A table each unit's view must group, and whether its entries are rows
/// of several fields (a group per entry).
fn table(unit: &str) -> (&'static str, bool) {
    match unit {
        "ba_tag_array" => ("rrank", false),
        "caps_prefetcher" => ("dtab.pc", false),
        "snake_prefetcher" => ("ents", true),
        "dac_expander" => ("atq0.data", false),
        other => panic!("no table named for {other}"),
    }
}

#[test]
fn every_unit_s_view_names_only_its_waveform_s_signals() {
    let cfg = ports::ConfigFile::default();
    for u in UNITS {
        let dir = tempfile::tempdir().unwrap();
        let vcd = dir.path().join("w.vcd");
        let args = CosimArgs {
            backend: cosim::BackendKind::RustHdl,
            cycles: 30,
            seed: 3,
            vcd: Some(vcd.clone()),
            vcd_always: true,
            scenario: false,
        };
        let o = u.cosim(&cfg, &args).unwrap();
        assert!(o.result.is_ok(), "{}", u.name());
        let text = std::fs::read_to_string(&vcd).unwrap();
        let header = &text[..cosim::vcd::header_end(&text).expect("intact definitions")];
        let names = cosim::gtkw::vcd_signal_names(header);
        let save = std::fs::read_to_string(cosim::gtkw::beside(&vcd)).unwrap();
        let used = cosim::gtkw::referenced_signals(&save);
        for s in &used {
            assert!(names.contains(s), "{}: {s} is not in the VCD", u.name());
        }
        // Every golden output, right after the RTL's port of that name.
        let golden: Vec<&String> = used.iter().filter(|s| s.starts_with("golden.")).collect();
        assert!(!golden.is_empty(), "{}", u.name());
        for g in golden {
            let i = used.iter().position(|s| s == g).unwrap();
            let port = &g["golden.".len()..];
            assert!(
                used[i - 1].ends_with(&format!(".{port}")),
                "{}: {g} follows {}",
                u.name(),
                used[i - 1]
            );
        }
        assert_eq!(used[0], "lockstep.mismatch", "{}", u.name());
        assert_eq!(
            cosim::gtkw::cursor_time(&save),
            None,
            "{}: no difference",
            u.name()
        );
        let (t, rows) = table(u.name());
        assert!(
            save.contains(&format!("\n-{t} (")),
            "{}: no group of `{t}`",
            u.name()
        );
        assert_eq!(
            save.contains(&format!("\n-{t}[0]\n")),
            rows,
            "{}: the entries of `{t}`",
            u.name()
        );
    }
}
