//! `warpgen report --memories sram|ff`: the fakeram45 table and fit, the
//! memory inventory of each unit's checked-in Verilog, and the SRAM and
//! flip-flop totals.

use eda::memories::{self, MacroSource, MemoryModule, FAKERAM45, MIN_MACRO_AREA_UM2};
use gen::report::{add_memories, l1_reference, render_fit_table, render_text, MemoriesView};

fn checked_in(unit: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../verilog-out")
        .join(format!("{unit}.v"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn find<'a>(inv: &'a [MemoryModule], module: &str) -> &'a MemoryModule {
    inv.iter()
        .find(|m| m.module == module)
        .unwrap_or_else(|| panic!("{module} not in {inv:#?}"))
}

#[test]
fn a_macro_size_is_that_macro_and_the_fit_error_is_bounded() {
    for m in FAKERAM45 {
        let c = memories::macro_cost(m.words, m.bits, 1);
        assert_eq!(c.source, MacroSource::Exact(m.name));
        assert_eq!(c.area_um2(), m.area_um2());
    }
    let errs = memories::SramFit::errors(FAKERAM45);
    let loo = memories::rms(&errs, |e| e.loo_rel_error);
    assert!(loo > 0.0 && loo < 0.5, "leave-one-out rms {loo}");
    // The fit is used between macros, floored at the smallest macro.
    let c = memories::macro_cost(192, 62, 1);
    assert!(matches!(c.source, MacroSource::Fit { .. }));
    let (lo, hi) = (
        memories::macro_cost(128, 64, 1).area_um2(),
        memories::macro_cost(256, 95, 1).area_um2(),
    );
    assert!(c.area_um2() > lo && c.area_um2() < hi, "{c:?}");
    assert!(memories::macro_cost(16, 1, 1).area_um2() >= MIN_MACRO_AREA_UM2);
    // The table shows each macro's error.
    let t = render_fit_table();
    for m in FAKERAM45 {
        assert!(t.contains(m.name), "{t}");
    }
    assert!(t.contains("leave-one-out rms"), "{t}");
}

#[test]
fn the_l1_is_four_512x64_macros_plus_tags() {
    let l1 = l1_reference();
    let m = FAKERAM45
        .iter()
        .find(|m| m.name == "fakeram45_512x64")
        .unwrap();
    assert_eq!(4 * m.words * m.bits, 16 * 1024 * 8);
    assert_eq!(l1.data_um2, 4.0 * m.area_um2());
    assert!(l1.tags_um2 > 0.0 && l1.tags_um2 < l1.data_um2 / 4.0);
}

#[test]
fn ba_tag_array_memories() {
    let inv = memories::inventory(&checked_in("ba_tag_array"), "ba_tag_array");
    assert_eq!(inv.len(), 3, "{inv:#?}");
    let tag = find(&inv, "ba_tag_array__ways__tag");
    assert_eq!((tag.words, tag.bits, tag.instances), (16, 21, 8));
    let rank = find(&inv, "ba_tag_array__ways__rank");
    assert_eq!((rank.words, rank.bits, rank.instances), (16, 3, 8));
    // The bypass and reuse bits share one module type.
    let bypass = find(&inv, "ba_tag_array__ways__bypass");
    assert_eq!((bypass.words, bypass.bits, bypass.instances), (16, 1, 16));
    for m in &inv {
        assert_eq!((m.read_ports, m.write_ports), (1, 1), "{m:?}");
        assert!(!m.taps && m.structural_reason_not_sram().is_none());
    }
}

/// Since issue 29's step 4b the look-up reads every PerCTA field of a
/// column as an AND-OR of the memory's taps (`docs/units/
/// caps_prefetcher.md`), and since step 5a the generator does too, so
/// the pc, lead, count and base columns are taps-only register files
/// (no read port), not SRAM candidates; the pc and the four bases, all
/// `ADDR_W` bits wide, share one module type. Only the LRU ranks (read
/// through a port) still are candidates.
#[test]
fn caps_memories_with_taps_are_not_candidates() {
    let inv = memories::inventory(&checked_in("caps_prefetcher"), "caps_prefetcher");
    let base = find(&inv, "caps_prefetcher__cols__base0");
    assert_eq!((base.words, base.bits, base.read_ports), (8, 32, 0));
    // pc and base0..3 in each of the four columns.
    assert_eq!(base.instances, 20);
    for t in ["base0", "cnt", "lead"] {
        let m = find(&inv, &format!("caps_prefetcher__cols__{t}"));
        assert!(m.taps, "{m:?}");
        assert!(m.structural_reason_not_sram().is_some());
    }
    let rank = find(&inv, "caps_prefetcher__cols__rank");
    assert!(!rank.taps && rank.structural_reason_not_sram().is_none());
}

#[test]
fn dac_and_snake_memories() {
    let inv = memories::inventory(&checked_in("dac_expander"), "dac_expander");
    let aq = find(&inv, "dac_expander__aq__store");
    assert_eq!((aq.words, aq.bits, aq.instances), (192, 62, 1));
    let pq = find(&inv, "dac_expander__pq__store");
    assert_eq!((pq.words, pq.bits, pq.instances), (192, 32, 1));
    let g = find(&inv, "dac_expander__gmem");
    assert_eq!((g.words, g.bits, g.instances), (48, 32, 1));
    let inv = memories::inventory(&checked_in("snake_prefetcher"), "snake_prefetcher");
    // Snake's Tail is registers (a CAM), not a memory module; its Head is
    // a register per row read through the load's warp one-hot (issue 29
    // step 8), no longer a warp-indexed memory: no SRAM candidate.
    assert!(inv.is_empty(), "{inv:#?}");
}

#[test]
fn no_synth_report_lists_memories_without_totals() {
    let cfg = gen::unit_config::load_config(None).unwrap();
    let u = gen::unit_table::unit("caps_prefetcher").unwrap();
    let mut r = u.report(&cfg, false).unwrap();
    add_memories(&mut r, &u.emit(&cfg).unwrap(), false, None).unwrap();
    let m = r.memories.as_ref().unwrap();
    assert!(m.ff_total_um2.is_none() && m.sram_total_um2.is_none());
    assert!(m.sram_macros_um2 > 0.0);
    let text = render_text(&r);
    assert!(text.contains("caps_prefetcher__cols__base0"), "{text}");
    assert!(
        text.contains("FF total") && text.contains("SRAM total"),
        "{text}"
    );
    let v = serde_json::to_value(&r).unwrap();
    // base0 (with pc), cnt, lead, rank.
    assert!(v["memories"]["memories"].as_array().unwrap().len() >= 4);
}

/// Yosys runs (cached by content hash in the warpgen cache); skipped,
/// with a message, when Yosys is not installed. BA's tag memories are
/// macros in the SRAM view; CAPS keeps every table in flip-flops (its
/// only port-read memory, the LRU ranks, is smaller as flip-flops than as
/// a macro), so its two views are equal.
#[test]
fn sram_and_ff_totals_of_ba_and_caps() {
    if !eda::tool_available(eda::Tool::Yosys) {
        eprintln!("SKIP: yosys is not installed");
        return;
    }
    let cfg = gen::unit_config::load_config(None).unwrap();
    // DAC's flows take minutes of Yosys from a cold cache; `warpgen
    // report` covers it (and the closing note of issue 14 shows it).
    for unit in ["ba_tag_array", "caps_prefetcher"] {
        let u = gen::unit_table::unit(unit).unwrap();
        let mut r = u.report(&cfg, true).unwrap();
        add_memories(&mut r, &u.emit(&cfg).unwrap(), true, None).unwrap();
        let m = r.memories.as_ref().unwrap();
        let (ff, sram) = (m.ff_total_um2.unwrap(), m.sram_total_um2.unwrap());
        if unit == "ba_tag_array" {
            assert!(sram < ff, "{unit}: SRAM {sram} >= FF {ff}");
            assert!(m.sram_logic_um2.unwrap() < ff);
        } else {
            assert!(m.memories.iter().all(|r| !r.sram), "{unit}: no macro");
            assert!((sram - ff).abs() < 1e-6, "{unit}: SRAM {sram} != FF {ff}");
        }
        // Every macro memory's macro is smaller than its flip-flops.
        for row in m.memories.iter().filter(|r| r.sram) {
            assert!(row.macro_cost.as_ref().unwrap().area_um2() < row.ff_each_um2.unwrap());
        }
        let text = render_text(&r);
        assert!(
            text.contains("FF total") && text.contains("SRAM total"),
            "{text}"
        );
        assert!(text.contains("of the L1"), "{text}");
        // One view only.
        r.memories.as_mut().unwrap().view = Some(MemoriesView::Sram);
        let text = render_text(&r);
        assert!(
            text.contains("SRAM total") && !text.contains("FF total"),
            "{text}"
        );
        r.memories.as_mut().unwrap().view = Some(MemoriesView::Ff);
        let text = render_text(&r);
        assert!(
            !text.contains("SRAM total") && text.contains("FF total"),
            "{text}"
        );
    }
}

/// The command line itself: `warpgen report --memories ...` (the binary
/// of this profile, `target/<profile>/warpgen`, built by `cargo build -p
/// gen`; skipped with a message when it is not there, because this crate
/// cannot make cargo build another package's binary).
#[test]
fn the_command_line_prints_both_totals_and_one_view() {
    let exe = std::env::current_exe().unwrap();
    let Some(bin) = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|p| p.join("warpgen"))
        .filter(|b| b.exists())
    else {
        eprintln!("SKIP: warpgen binary not built (cargo build -p gen)");
        return;
    };
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&bin)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let both = run(&["report", "--unit", "ba_tag_array", "--no-synth"]);
    assert!(
        both.contains("FF total") && both.contains("SRAM total"),
        "{both}"
    );
    assert!(both.contains("fakeram45_512x64"), "{both}");
    let sram = run(&[
        "report",
        "--unit",
        "ba_tag_array",
        "--no-synth",
        "--memories",
        "sram",
    ]);
    assert!(
        sram.contains("SRAM total") && !sram.contains("FF total"),
        "{sram}"
    );
    let json = run(&[
        "report",
        "--unit",
        "ba_tag_array",
        "--no-synth",
        "--memories",
        "ff",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["storage"]["paper_bits"], 256);
    assert_eq!(v[0]["memories"]["view"], "ff");
    assert_eq!(
        v[0]["memories"]["memories"].as_array().map(Vec::len),
        Some(3)
    );
}
