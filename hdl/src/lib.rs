//! RTL units.
