//! How to run a timing analysis: clock, period, time limit, ABC mapping.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Default clock period for the analysis, in ns. The period only shifts the
/// slack: with an ideal clock and zero port delays, the minimum period
/// (arrival plus setup of the worst path) does not depend on it.
pub const STA_PERIOD_NS_DEFAULT: f64 = 10.0;

/// How to run [`time_verilog_with`](super::time_verilog_with).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingOptions {
    /// The clock input port (a plain Verilog identifier), e.g. `clock`.
    pub clock: String,
    /// The clock period in ns (positive).
    pub period_ns: f64,
    /// A time limit for each tool run (Yosys, then OpenSTA); `None` for none.
    pub timeout: Option<Duration>,
    /// `false` (the default): map exactly as [`crate::synth_yosys`] does,
    /// `abc -liberty L`, which neither buffers nor sizes. `true`: `abc -D
    /// <period in ps> -constr F -liberty L` with [`ABC_DRIVER_CELL`] and
    /// [`ABC_LOAD_FF`] in `F` (OpenROAD's NanGate45 settings), so that ABC
    /// buffers high-fan-out nets and sizes gates for the period, as a real
    /// flow would (ABC's timing on the Liberty's wire load; mapped again
    /// for minimum delay when OpenSTA finds the period missed while ABC
    /// believed it met); the netlist then differs from the area figure's.
    pub abc_buffering: bool,
    /// `true`: also run OpenSTA's `report_power` at the period
    /// ([`TimingReport::power`](super::TimingReport::power)).
    #[serde(default)]
    pub power: bool,
    /// Switching activity of input ports for the power analysis (OpenSTA
    /// `set_power_activity -input_ports`); ports not listed keep OpenSTA's
    /// default input activity (0.1 transitions per clock period, duty 0.5),
    /// which OpenSTA propagates through the netlist.
    #[serde(default)]
    pub port_activity: Vec<PortActivity>,
}

/// The switching activity of one input port bit, measured in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PortActivity {
    /// The port bit as the netlist names it: `req_addr[3]` or `valid`.
    pub port: String,
    /// Transitions per clock period (0 to 2).
    pub activity: f64,
    /// Fraction of the time the bit is 1.
    pub duty: f64,
}

/// The driving cell [`TimingOptions::abc_buffering`] gives ABC
/// (`set_driving_cell`); it must be a cell of the Liberty file.
pub const ABC_DRIVER_CELL: &str = "BUF_X1";

/// The output load in fF [`TimingOptions::abc_buffering`] gives ABC
/// (`set_load`).
pub const ABC_LOAD_FF: f64 = 3.898;

impl TimingOptions {
    /// Clock port `clock`, [`STA_PERIOD_NS_DEFAULT`], no time limit.
    pub fn new(clock: &str) -> Self {
        TimingOptions {
            clock: clock.to_string(),
            period_ns: STA_PERIOD_NS_DEFAULT,
            timeout: None,
            abc_buffering: false,
            power: false,
            port_activity: Vec::new(),
        }
    }
}
