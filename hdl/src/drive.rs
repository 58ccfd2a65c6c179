//! Driving a built block cycle by cycle, with an optional VCD: the one
//! cycle of `cosim.md` on the rust-hdl simulator. Used by the embedded
//! back-end (`cosim::RustHdlBackend`) and by the on-demand elaboration
//! program (`elab/`), so both run a block the same way.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header, VCDProbe};

use crate::RtlUnit;

/// Simulation time units per clock cycle in every VCD: cycle `n` puts its
/// inputs at `n * CYCLE_TIME` (clock low), its rising edge at
/// `n * CYCLE_TIME + CYCLE_TIME / 2`.
pub const CYCLE_TIME: u64 = 10;

/// A built block driven one cycle at a time.
pub struct Driver {
    unit: Box<dyn RtlUnit>,
    cycle: u64,
    vcd: Option<VCDProbe<BufWriter<File>>>,
}

impl Driver {
    /// Connect `unit` and settle it once, so every signal has a value.
    pub fn new(mut unit: Box<dyn RtlUnit>) -> Self {
        unit.set_clock(false);
        unit.settle();
        Driver {
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

    /// One cycle: apply `inputs` with the clock low, settle, sample the
    /// outputs into `outputs`, then a rising edge, settled. Panics if the
    /// logic does not settle (a combinational loop).
    pub fn cycle(&mut self, inputs: &[u64], outputs: &mut [u64]) {
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

    /// Start a VCD of every signal at `path`.
    pub fn start_vcd(&mut self, path: &Path) -> std::io::Result<()> {
        let file = BufWriter::new(File::create(path)?);
        let vcd = write_vcd_header(file, self.unit.block());
        self.vcd = Some(write_vcd_dump(vcd, self.unit.block()));
        Ok(())
    }

    /// Flush and close the VCD, if one is open.
    pub fn finish_vcd(&mut self) {
        // Dropping the probe flushes the writer.
        self.vcd = None;
    }

    /// The block's Verilog (see [`RtlUnit::verilog`]).
    pub fn verilog(&mut self, header: &[String]) -> Result<String, String> {
        self.unit.verilog(header)
    }
}
