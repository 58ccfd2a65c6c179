//! `ba_tag_array`: RTL against the golden model, both back-ends.

use cosim::{cosim_random, BackendKind, RunOptions};
use ports::ba::{BaParams, BaTagArray};

fn run(kind: BackendKind, p: &BaParams, seed: u64, cycles: u64) {
    let opts = RunOptions {
        cycles,
        config_label: format!("{:?}", p),
        ..Default::default()
    };
    match cosim_random::<BaTagArray>(kind, p, seed, &opts).expect("backend builds") {
        Ok(s) => eprintln!(
            "{} {} cycles in {:?} ({:.0} cycles/s)",
            s.backend,
            s.cycles,
            s.elapsed,
            s.cycles_per_second()
        ),
        Err(m) => panic!("{m}"),
    }
}

#[test]
fn paper_config_rusthdl_quick() {
    run(BackendKind::RustHdl, &BaParams::default(), 1, 5_000);
}

#[test]
fn paper_config_verilator_quick() {
    run(BackendKind::Verilator, &BaParams::default(), 1, 100_000);
}
