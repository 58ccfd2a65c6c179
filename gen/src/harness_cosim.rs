//! Lock-step co-simulation inside the SM harness (`warpgen run --cosim U`):
//! the unit's RTL sees exactly the inputs the golden model gets every cycle,
//! and the first differing output stops the run with the `cosim.md` report
//! (and, with `--vcd`, the waveform).

use std::collections::VecDeque;
use std::path::PathBuf;

use anyhow::bail;
use cosim::{BackendKind, Mismatch, RtlBackend};
use ports::ba::BaTagArray;
use ports::caps::CapsPrefetcher;
use ports::{PortDesc, UnitSpec};
use sim_model::harness::config::MachineConfig;
use sim_model::harness::kernel::Kernel;
use sim_model::harness::{L1Policy, Lockstep, PrefetcherKind};

use crate::run::CosimAttach;

/// A unit's RTL run beside its golden model inside the harness.
pub struct RtlLockstep<U: UnitSpec> {
    p: U::Params,
    rtl: Box<dyn RtlBackend>,
    ins: Vec<PortDesc>,
    outs: Vec<PortDesc>,
    out: Vec<u64>,
    cycle: u64,
    armed: bool,
    history: VecDeque<(u64, Vec<u64>)>,
    vcd: Option<PathBuf>,
    golden_rows: Vec<Vec<u64>>,
    label: String,
}

impl<U: UnitSpec> RtlLockstep<U> {
    /// Wrap a fresh RTL instance; with `vcd`, trace the whole run and write
    /// the waveform (RTL + `golden` scope) if a difference occurs.
    pub fn new(
        p: U::Params,
        mut rtl: Box<dyn RtlBackend>,
        vcd: Option<PathBuf>,
        label: String,
    ) -> anyhow::Result<Self> {
        if let Some(v) = &vcd {
            rtl.start_vcd(v)?;
        }
        Ok(RtlLockstep {
            ins: U::inputs(&p),
            outs: U::outputs(&p),
            out: vec![0; U::outputs(&p).len()],
            p,
            rtl,
            cycle: 0,
            armed: false,
            history: VecDeque::with_capacity(9),
            vcd,
            golden_rows: Vec::new(),
            label,
        })
    }
}

impl<U: UnitSpec> Lockstep<U> for RtlLockstep<U> {
    fn cycle(&mut self, inputs: &U::In, golden: &U::Out) -> Result<(), String> {
        let mut flat = U::in_values(&self.p, inputs);
        for (v, d) in flat.iter_mut().zip(&self.ins) {
            *v &= ports::mask(d.width);
        }
        self.rtl.cycle(&flat, &mut self.out);
        let exp = U::out_values(&self.p, golden);
        if self.vcd.is_some() {
            self.golden_rows.push(exp.clone());
        }
        if self.history.len() == 8 {
            self.history.pop_front();
        }
        let reset = flat[0] != 0;
        self.history.push_back((self.cycle, flat));
        // Outputs are compared from the first cycle after a reset edge.
        if self.armed && exp != self.out {
            let diffs = cosim::lockstep::diff_ports(&self.outs, &exp, &self.out);
            let mut vcd_written = None;
            if let Some(path) = &self.vcd {
                let ok = self.rtl.finish_vcd().is_ok()
                    && std::fs::read_to_string(path)
                        .map(|t| cosim::vcd::merge_golden(&t, &self.outs, &self.golden_rows))
                        .and_then(|m| std::fs::write(path, m))
                        .is_ok();
                if ok {
                    vcd_written = Some(path.clone());
                }
            }
            let m = Mismatch {
                unit: U::NAME,
                backend: self.rtl.name(),
                config: self.label.clone(),
                stimulus: "SM harness".into(),
                cycle: self.cycle,
                diffs,
                expected: self
                    .outs
                    .iter()
                    .zip(&exp)
                    .map(|(d, v)| (d.name.clone(), *v))
                    .collect(),
                recent_inputs: self
                    .history
                    .iter()
                    .map(|(c, v)| {
                        (
                            *c,
                            self.ins
                                .iter()
                                .zip(v)
                                .map(|(d, x)| (d.name.clone(), *x))
                                .collect(),
                        )
                    })
                    .collect(),
                vcd: vcd_written,
            };
            return Err(m.to_string());
        }
        if reset {
            self.armed = true;
        }
        self.cycle += 1;
        Ok(())
    }
}

/// The hook `warpgen run --cosim UNIT` passes to the harness.
pub fn hook(
    backend: BackendKind,
    vcd: Option<PathBuf>,
) -> impl Fn(&str, &MachineConfig, &Kernel) -> anyhow::Result<CosimAttach> {
    move |unit, cfg, kernel| match unit {
        "caps_prefetcher" => {
            if cfg.prefetcher != PrefetcherKind::Caps {
                bail!("--cosim caps_prefetcher needs CAPS in the run: add --prefetcher caps");
            }
            let p = cfg.caps_params(kernel.warps_per_cta());
            let f = cosim::backend_factory::<CapsPrefetcher>(backend, &p, Some(1), None)?;
            let l = crate::units::label(&p);
            Ok(CosimAttach {
                caps: Some(Box::new(RtlLockstep::<CapsPrefetcher>::new(
                    p,
                    f()?,
                    vcd.clone(),
                    l,
                )?)),
                ba: None,
            })
        }
        "ba_tag_array" => {
            if cfg.l1 == L1Policy::Lru {
                bail!("--cosim ba_tag_array needs the BA tag array as the L1: add --l1 ba");
            }
            let p = cfg.ba_params();
            let f = cosim::backend_factory::<BaTagArray>(backend, &p, Some(1), None)?;
            let l = crate::units::label(&p);
            Ok(CosimAttach {
                caps: None,
                ba: Some(Box::new(RtlLockstep::<BaTagArray>::new(
                    p,
                    f()?,
                    vcd.clone(),
                    l,
                )?)),
            })
        }
        other => bail!("--cosim takes caps_prefetcher or ba_tag_array, not `{other}`"),
    }
}
