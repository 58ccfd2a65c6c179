//! Exported self-checking test benches run under Icarus Verilog and
//! Verilator `--binary`, pass on the real RTL and fail on a corrupted
//! expectation.

mod common;
use common::tool;

use cosim::testbench::{record, testbench};
use cosim::CosimUnit;
use eda::Tool;
use golden::ba::BaModel;
use ports::ba::{BaParams, BaTagArray};

fn files(corrupt: bool) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let p = BaParams::default();
    let mut stim = BaTagArray::random_stimulus(&p, 11);
    let mut rec = record::<BaTagArray, BaModel>(&p, stim.as_mut(), 3000, 2);
    if corrupt {
        // Flip rsp_valid of a late cycle.
        rec.outputs[2500][0] ^= 1;
    }
    let dir = tempfile::tempdir().unwrap();
    let dut = dir.path().join("ba_tag_array.v");
    std::fs::write(&dut, cosim::emit_verilog::<BaTagArray>(&p).unwrap()).unwrap();
    let tb = dir.path().join("tb_ba_tag_array.v");
    std::fs::write(&tb, testbench::<BaTagArray>(&p, &rec, "random(seed=11)")).unwrap();
    (dir, dut, tb)
}

#[test]
fn exported_testbench_passes_under_icarus() {
    if !tool(Tool::Iverilog) {
        return;
    }
    let (_d, dut, tb) = files(false);
    let out = eda::run_iverilog_testbench(&[&tb, &dut], "tb_ba_tag_array").unwrap();
    assert!(out.contains("PASS: ba_tag_array 3000 cycles"), "{out}");
}

#[test]
fn exported_testbench_passes_under_verilator_binary() {
    if !tool(Tool::Verilator) {
        return;
    }
    let (_d, dut, tb) = files(false);
    let out = eda::run_verilator_binary(&[&tb, &dut], "tb_ba_tag_array").unwrap();
    assert!(out.contains("PASS: ba_tag_array 3000 cycles"), "{out}");
}

#[test]
fn corrupted_expectation_fails() {
    if !tool(Tool::Iverilog) {
        return;
    }
    let (_d, dut, tb) = files(true);
    let out = eda::run_iverilog_testbench(&[&tb, &dut], "tb_ba_tag_array").unwrap();
    assert!(
        out.contains("FAIL: ba_tag_array 1 of 3000 cycles differ"),
        "{out}"
    );
    assert!(out.contains("first difference at cycle 2500"), "{out}");
}

/// Every other unit's exported test bench, on its random stimulus: the
/// same Verilog the co-simulation checks, run by both simulators.
fn unit_files<U: cosim::CosimUnit>(
    seed: u64,
    cycles: u64,
) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let p = U::Params::default();
    let mut stim = U::random_stimulus(&p, seed);
    let rec = record::<U, cosim::ModelOf<U>>(&p, stim.as_mut(), cycles, 2);
    let dir = tempfile::tempdir().unwrap();
    let dut = dir.path().join(format!("{}.v", U::NAME));
    std::fs::write(&dut, cosim::emit_verilog::<U>(&p).unwrap()).unwrap();
    let tb = dir.path().join(format!("tb_{}.v", U::NAME));
    let what = format!("random(seed={seed})");
    std::fs::write(&tb, testbench::<U>(&p, &rec, &what)).unwrap();
    (dir, dut, tb)
}

fn unit_testbench_passes<U: cosim::CosimUnit>() {
    let top = format!("tb_{}", U::NAME);
    let pass = format!("PASS: {} 3000 cycles", U::NAME);
    if tool(Tool::Iverilog) {
        let (_d, dut, tb) = unit_files::<U>(12, 3000);
        let out = eda::run_iverilog_testbench(&[&tb, &dut], &top).unwrap();
        assert!(out.contains(&pass), "{out}");
    }
    if tool(Tool::Verilator) {
        let (_d, dut, tb) = unit_files::<U>(13, 3000);
        let out = eda::run_verilator_binary(&[&tb, &dut], &top).unwrap();
        assert!(out.contains(&pass), "{out}");
    }
}

#[test]
fn caps_testbench_passes_under_icarus_and_verilator() {
    unit_testbench_passes::<ports::caps::CapsPrefetcher>();
}

#[test]
fn snake_testbench_passes_under_icarus_and_verilator() {
    unit_testbench_passes::<ports::snake::SnakePrefetcher>();
}

#[test]
fn dac_testbench_passes_under_icarus_and_verilator() {
    unit_testbench_passes::<ports::dac::DacExpander>();
}
