//! Tests of the `snake_prefetcher` golden model: the spec's Figure-15
//! scenario, the contract's timing, each training and prefetching rule on
//! its own, the throttle, and properties over random stimulus.
//!
//! One module per section: the bench ([`bench`]), then the scenario,
//! training, prefetching, throttle and properties each module's name says;
//! [`rev2`] tests revision 2's rules and its scenario.

mod bench;
mod prefetching_and_queues;
mod properties;
mod rev2;
mod scenario_and_timing;
mod setups;
mod throttle_and_reset;
mod training;
