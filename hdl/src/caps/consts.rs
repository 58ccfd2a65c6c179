//! Constants the files of `caps_prefetcher` share.

/// Address lanes inside the unit (`MAX_ADDRS <= LANES`).
pub const LANES: usize = ports::caps::MAX_ADDR_PORTS;
