//! The embedded back-end: the unit's rust-hdl block driven directly, cycle
//! by cycle (no threaded test bench). It checks the Rust description, not
//! the emitted Verilog, and needs no external tool.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use hdl::RtlUnit;
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header, VCDProbe};

use crate::backend::{RtlBackend, CYCLE_TIME};

/// A rust-hdl unit as an [`RtlBackend`].
pub struct RustHdlBackend {
    unit: Box<dyn RtlUnit>,
    cycle: u64,
    vcd: Option<VCDProbe<BufWriter<File>>>,
}

impl RustHdlBackend {
    /// Wrap a built unit (from `hdl::registry`).
    pub fn new(mut unit: Box<dyn RtlUnit>) -> Self {
        // Connect and settle once so that every signal has a defined value.
        unit.set_clock(false);
        unit.settle();
        RustHdlBackend {
            unit,
            cycle: 0,
            vcd: None,
        }
    }

    fn trace(&mut self, time: u64) {
        if let Some(mut vcd) = self.vcd.take() {
            let _ = vcd.timestamp(time);
            self.vcd = Some(write_vcd_change(vcd, self.unit.block()));
        }
    }
}

impl RtlBackend for RustHdlBackend {
    fn name(&self) -> &'static str {
        "rusthdl"
    }

    fn cycle(&mut self, inputs: &[u64], outputs: &mut [u64]) {
        let t = self.cycle * CYCLE_TIME;
        self.unit.set_clock(false);
        self.unit.set_inputs(inputs);
        assert!(self.unit.settle(), "rust-hdl logic did not settle");
        self.unit.outputs(outputs);
        self.trace(t);
        self.unit.set_clock(true);
        assert!(self.unit.settle(), "rust-hdl logic did not settle");
        self.trace(t + CYCLE_TIME / 2);
        self.cycle += 1;
    }

    fn start_vcd(&mut self, path: &Path) -> anyhow::Result<()> {
        let file = BufWriter::new(File::create(path)?);
        let vcd = write_vcd_header(file, self.unit.block());
        self.vcd = Some(write_vcd_dump(vcd, self.unit.block()));
        Ok(())
    }

    fn finish_vcd(&mut self) -> anyhow::Result<()> {
        // Dropping the probe flushes the writer.
        self.vcd = None;
        Ok(())
    }
}
