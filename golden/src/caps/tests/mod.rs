//! Tests of the `caps_prefetcher` golden model: the spec's rules, timing and
//! scenarios, and properties over random stimulus.
//!
//! One module per section: the bench ([`bench`]), then the rules, tables,
//! timing and properties each module's name says.

mod bench;
mod loads_and_launch;
mod properties;
mod replacement_and_timing;
mod reset_and_widths;
mod rules;
mod scenarios_and_queues;
