//! Co-simulation.
