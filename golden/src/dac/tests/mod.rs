//! Tests of the `dac_expander` golden model: the spec's scenarios, the
//! contract's timing rule by rule (reset, slots, enqueue, start, records,
//! predicates, stalls, dequeue), and properties over random tuples, CTA
//! shapes and stimulus.
//!
//! One module per section: the bench ([`bench`]), then the rules each
//! module's name says, and properties.

mod bench;
mod enqueue_and_slots;
mod guards;
mod predicates;
mod properties;
mod records;
mod reset_and_scenarios;
mod stalls_and_dequeue;
mod timing;
