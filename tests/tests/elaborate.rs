//! On-demand elaboration (issue 31, item 1): a configuration whose widths
//! are not compiled in is emitted and co-simulated (the elaborated
//! program's own rust-hdl simulation and Verilator on its Verilog, each
//! against the golden model); the second elaboration of the same widths
//! is a cache hit; away from the sources the error names what is missing.

mod common;
use common::verilator;

use cosim::{cosim_random, BackendKind, CosimUnit, LockstepOptions};
use hdl::registry::RtlDecl;
use ports::snake::{SnakeParams, SnakePrefetcher};
use ports::Params;

/// 32 warps with a 32-entry Tail: valid, and not in Snake's width table
/// (32 warps go up to 16 entries there).
fn outside() -> SnakeParams {
    let p = SnakeParams {
        N_WARPS: 32,
        TAIL_ENTRIES: 32,
        ..Default::default()
    };
    p.validate().unwrap();
    p
}

#[test]
fn a_configuration_outside_the_table_is_emitted_and_co_simulated() {
    let p = outside();
    let unsupported = SnakePrefetcher::build(&p).err().expect("not compiled in");
    let first = cosim::elaborate::elaborate::<SnakePrefetcher>(&p, &unsupported).unwrap();
    let again = cosim::elaborate::elaborate::<SnakePrefetcher>(&p, &unsupported).unwrap();
    assert_eq!(
        again.built_in, None,
        "the second elaboration is a cache hit"
    );
    if let Some(s) = first.built_in {
        eprintln!("first elaboration: {s:.1} s");
    }
    let v = cosim::emit_verilog::<SnakePrefetcher>(&p).unwrap();
    assert!(v.contains("module snake_prefetcher("), "no top module");
    assert!(
        v.contains("TAIL_ENTRIES = 32"),
        "the header names the configuration"
    );
    let mut kinds = vec![BackendKind::RustHdl];
    if verilator() {
        kinds.push(BackendKind::Verilator);
    }
    for kind in kinds {
        let opts = LockstepOptions {
            cycles: 400,
            ..Default::default()
        };
        let r = cosim_random::<SnakePrefetcher>(kind, &p, 5, &opts).unwrap();
        match r {
            Ok(s) => assert_eq!(s.cycles, 400, "{kind:?}"),
            Err(m) => panic!("{kind:?}: {m}"),
        }
    }
}

/// A planted difference is still caught through the elaborated program:
/// the RTL without inter-warp prefetches (`IW_DEGREE = 0`, the same widths)
/// against the golden model with them.
#[test]
fn the_elaborated_block_is_really_checked() {
    let p = outside();
    let mut q = p.clone();
    q.IW_DEGREE = 0;
    let f = cosim::backend_factory::<SnakePrefetcher>(BackendKind::RustHdl, &q, None, None, false)
        .unwrap();
    let mut stim = SnakePrefetcher::random_stimulus(&p, 9);
    let opts = LockstepOptions {
        cycles: 20_000,
        ..Default::default()
    };
    let r = cosim::run_lockstep::<SnakePrefetcher, cosim::ModelOf<SnakePrefetcher>>(
        &p,
        f.as_ref(),
        stim.as_mut(),
        &opts,
    )
    .unwrap();
    assert!(r.is_err(), "the RTL without inter-warp prefetches passed");
}
