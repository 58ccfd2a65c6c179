//! The embedded back-end: the unit's rust-hdl block driven directly, cycle
//! by cycle (no threaded test bench). It checks the Rust description, not
//! the emitted Verilog, and needs no external tool. The cycle itself is
//! [`hdl::drive::Driver`]'s (the on-demand elaboration program drives its
//! block with the same code).

use std::path::Path;

use hdl::drive::Driver;
use hdl::RtlUnit;

use crate::backend::RtlBackend;

/// A rust-hdl unit as an [`RtlBackend`].
pub struct RustHdlBackend {
    driver: Driver,
}

impl RustHdlBackend {
    /// Wrap a built unit (from `hdl::registry`).
    pub fn new(unit: Box<dyn RtlUnit>) -> Self {
        RustHdlBackend {
            driver: Driver::new(unit),
        }
    }
}

impl RtlBackend for RustHdlBackend {
    fn name(&self) -> &'static str {
        "rusthdl"
    }

    fn cycle(&mut self, inputs: &[u64], outputs: &mut [u64]) {
        self.driver.cycle(inputs, outputs);
    }

    fn start_vcd(&mut self, path: &Path) -> anyhow::Result<()> {
        Ok(self.driver.start_vcd(path)?)
    }

    fn finish_vcd(&mut self) -> anyhow::Result<()> {
        self.driver.finish_vcd();
        Ok(())
    }
}
