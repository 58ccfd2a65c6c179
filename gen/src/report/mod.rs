//! `warpgen report`: storage tables, Yosys cell and flip-flop counts, area,
//! the memories as SRAM macros, static timing.
//!
//! [`unit`] builds and renders a unit's report from the pieces: [`synth`]
//! (Yosys, cached), [`timing`] (OpenSTA, cached), [`memories`] (fakeram45
//! costing), the paper figures of the unit's declaration ([`facts`]) and
//! the lint waivers of the emitted Verilog ([`lint`]); [`sweep`] times the
//! units at several clocks (`--clock-sweep`); [`closure`] times every
//! suite configuration at one clock (`--all-configs`).

pub mod activity;
pub mod closure;
pub mod facts;
pub mod lint;
pub mod memories;
pub mod sweep;
pub mod synth;
pub mod timing;
pub mod unit;

pub use facts::UnitFacts;
pub use lint::LINT_WAIVERS;
pub use memories::{
    l1_reference, memories_report, render_fit_table, render_memories_text, L1Reference,
    MemoriesReport, MemoriesView, MemoryRow, MEMORY_NOTES,
};
pub use synth::{synth_cached, SynthSummary};
pub use timing::{
    render_timing_text, timing_at, timing_cached, timing_section, BaselineDelta, ClockTarget,
    TimingSection, DEFAULT_REPORT_CLOCK_MHZ, PAPER_CLOCK_MHZ,
};
pub use unit::{
    add_memories, add_timing, add_unit_timing, render_text, unit_report, verilog_out_path,
    UnitReport,
};
