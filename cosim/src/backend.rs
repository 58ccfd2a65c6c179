//! The interface every RTL back-end implements.
//!
//! A back-end simulates one unit's RTL. Port values are flattened to one
//! `u64` per port in the order of [`ports::UnitSpec::inputs`] and
//! [`ports::UnitSpec::outputs`]. One call to [`RtlBackend::cycle`] is one
//! clock cycle of `cosim.md`:
//!
//! 1. apply every input port (clock low) and evaluate;
//! 2. sample every output port into `outputs`;
//! 3. rising edge (state advances), evaluate.
//!
//! Waveforms: cycle `n` (counting from 0) puts its inputs at time
//! `n * CYCLE_TIME` with the clock low and its rising edge at
//! `n * CYCLE_TIME + CYCLE_TIME / 2`, so every VCD this crate writes lines up.

/// Simulation time units per clock cycle in every VCD.
pub const CYCLE_TIME: u64 = hdl::drive::CYCLE_TIME;

/// One simulated RTL instance.
pub trait RtlBackend {
    /// Short name of the back-end (`verilator`, `rusthdl`).
    fn name(&self) -> &'static str;
    /// One cycle: apply `inputs`, evaluate, write the outputs to `outputs`,
    /// then clock a rising edge.
    fn cycle(&mut self, inputs: &[u64], outputs: &mut [u64]);
    /// Start writing a VCD of every port and internal signal to `path`.
    fn start_vcd(&mut self, path: &std::path::Path) -> anyhow::Result<()>;
    /// Flush and close the VCD, if one is open.
    fn finish_vcd(&mut self) -> anyhow::Result<()>;
}
