//! Where co-simulation and the harness meet: a unit's RTL as the lock-step
//! checker of a harness run (`warpgen run --cosim UNIT`).

use std::path::PathBuf;

use cosim::lockstep::{CheckOptions, Checker, Waveform};
use cosim::unit::{backend_factory, params_label};
use cosim::{BackendKind, CosimUnit};
use golden::check::Probe;
use harness::{HarnessUnit, Kernel, MachineConfig};

/// `U`'s RTL as the lock-step checker of a harness run: built for exactly
/// the parameters the harness gives `U`'s golden model in `machine` with
/// `kernel`, from its reset state (seed 1 of the random power-up state on
/// Verilator). With `vcd`, the run is traced and the waveform (with the
/// golden outputs merged in) is written if the RTL differs.
///
/// The checker runs on a worker thread ([`cosim::ThreadedProbe`]): the
/// harness hands it the cycles in batches, so on two cores a run costs
/// about the slower of the harness and the RTL rather than their sum; a
/// difference reaches the harness a few batches late, its report is exact.
pub fn harness_checker<U: CosimUnit + HarnessUnit>(
    kind: BackendKind,
    machine: &MachineConfig,
    kernel: &Kernel,
    vcd: Option<PathBuf>,
) -> anyhow::Result<Box<dyn Probe>> {
    let p = harness::unit_params::<U>(machine, kernel)?;
    let n_in = U::inputs(&p).len();
    let n_out = U::outputs(&p).len();
    let probe = cosim::ThreadedProbe::spawn(n_in, n_out, move || {
        let factory = backend_factory::<U>(kind, &p, Some(1), None, vcd.is_some())?;
        let checker = Checker::new::<U>(
            &p,
            factory()?,
            None,
            CheckOptions {
                history: 8,
                waveform: vcd.map(Waveform::OnMismatch).unwrap_or_default(),
                config_label: params_label(&p),
                stimulus: "SM harness".into(),
            },
        )?;
        Ok(Box::new(checker) as Box<dyn Probe>)
    })?;
    Ok(Box::new(probe))
}
