//! Yosys synthesis, flip-flop/latch counts and area (real tool runs).

mod common;

use std::path::{Path, PathBuf};

use common::{have, BAD, COUNTER, COUNTER_AREA_UM2, HIER, LATCHY};
use eda::{find_liberty, synth_yosys, AreaKind, EdaError, TempVerilog, Tool};

fn nangate45() -> PathBuf {
    let lib = find_liberty(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/pdk/nangate45/nangate45_typ.lib beside the checkout");
    assert!(lib.is_file());
    lib
}

fn within(value: f64, expected: f64, fraction: f64) -> bool {
    (value - expected).abs() <= fraction * expected
}

#[test]
fn liberty_is_found_beside_the_checkout() {
    let lib = nangate45();
    // $WARPGEN_LIBERTY may point elsewhere; otherwise it is the PDK file.
    if std::env::var_os(eda::LIBERTY_ENV).is_none() {
        assert!(
            lib.ends_with(eda::DEFAULT_LIBERTY_RELATIVE),
            "{}",
            lib.display()
        );
    }
}

#[test]
fn counter_synthesizes_without_library() {
    if !have(&[Tool::Yosys]) {
        return;
    }
    let src = TempVerilog::new(COUNTER, "counter").unwrap();
    let r = synth_yosys(src.path(), "counter", None).unwrap();
    eprintln!(
        "counter, generic: {} cells {:?}, estimate {:?} um2",
        r.cells, r.cell_types, r.area_um2
    );
    assert_eq!(r.latches, 0, "{r:?}");
    assert_eq!(r.flip_flops, 4, "{:?}", r.cell_types);
    assert_eq!(r.area_kind, AreaKind::Estimate);
    assert_eq!(r.liberty, None);
    assert_eq!(r.cell_types, r.generic_cell_types);
    assert_eq!(r.cells, r.cell_types.values().sum::<u64>());
    assert!(
        r.notes.iter().any(|n| n.contains("ESTIMATE")),
        "{:?}",
        r.notes
    );
    let area = r.area_um2.unwrap();
    assert!(within(area, COUNTER_AREA_UM2, 0.20), "estimate {area}");
    assert!(r.log.contains("Printing statistics"), "log not captured");
}

#[test]
fn counter_area_with_nangate45() {
    if !have(&[Tool::Yosys]) {
        return;
    }
    let lib = nangate45();
    let src = TempVerilog::new(COUNTER, "counter").unwrap();
    let r = synth_yosys(src.path(), "counter", Some(&lib)).unwrap();
    eprintln!(
        "counter, NanGate45: {} cells {:?}, area {:?} um2, notes {:?}",
        r.cells, r.cell_types, r.area_um2, r.notes
    );
    assert_eq!(r.area_kind, AreaKind::Liberty);
    assert_eq!(r.latches, 0);
    assert_eq!(r.flip_flops, 4, "{:?}", r.cell_types);
    assert_eq!(r.cell_types.get("DFF_X1"), Some(&4), "{:?}", r.cell_types);
    assert!(
        r.cell_types.keys().all(|t| !t.starts_with('$')),
        "{:?}",
        r.cell_types
    );
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    let area = r.area_um2.expect("chip area");
    assert!(within(area, COUNTER_AREA_UM2, 0.10), "area {area}");
    assert_eq!(
        r.liberty.as_deref(),
        Some(lib.canonicalize().unwrap().as_path())
    );
}

#[test]
fn latch_is_reported() {
    if !have(&[Tool::Yosys]) {
        return;
    }
    let src = TempVerilog::new(LATCHY, "latchy").unwrap();
    let r = synth_yosys(src.path(), "latchy", None).unwrap();
    assert!(r.latches >= 1, "{r:?}");
    assert_eq!(r.flip_flops, 0);

    // NanGate45 mapping (dfflibmap) leaves latches generic in Yosys 0.23;
    // they must still be counted, and the missing area said so.
    let r = synth_yosys(src.path(), "latchy", Some(&nangate45())).unwrap();
    eprintln!(
        "latchy, NanGate45: {:?} area {:?} notes {:?}",
        r.cell_types, r.area_um2, r.notes
    );
    assert!(r.latches >= 1, "{r:?}");
    assert!(
        r.area_um2.is_some() || r.notes.iter().any(|n| n.contains("no chip area")),
        "{:?}",
        r.notes
    );
}

#[test]
fn hierarchy_is_flattened() {
    if !have(&[Tool::Yosys]) {
        return;
    }
    let src = TempVerilog::new(HIER, "hier").unwrap();
    let r = synth_yosys(src.path(), "hier", None).unwrap();
    assert_eq!(r.flip_flops, 6, "{:?}", r.cell_types);
    assert_eq!(r.latches, 0);
    let r = synth_yosys(src.path(), "hier", Some(&nangate45())).unwrap();
    assert_eq!(r.flip_flops, 6, "{:?}", r.cell_types);
    assert!(r.area_um2.unwrap() > 6.0 * 4.522);
}

#[test]
fn syntax_error_and_missing_top_fail() {
    if !have(&[Tool::Yosys]) {
        return;
    }
    let bad = TempVerilog::new(BAD, "bad").unwrap();
    let err = synth_yosys(bad.path(), "bad", None).unwrap_err();
    assert!(matches!(err, EdaError::ToolFailed { .. }), "{err:?}");
    assert!(err.to_string().contains("bad.v:6"), "{err}");

    let good = TempVerilog::new(COUNTER, "counter").unwrap();
    let err = synth_yosys(good.path(), "no_such_top", None).unwrap_err();
    assert!(matches!(err, EdaError::ToolFailed { .. }), "{err:?}");
}
