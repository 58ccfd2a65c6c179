//! The error of a machine configuration value that cannot be used.

/// A configuration value that cannot be used: the key, the value and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("configuration `{key}` = {value}: {reason}")]
pub struct MachineConfigError {
    /// The configuration key (`l1_ways`, `caps.N_CTA`, ...).
    pub key: String,
    /// The value given.
    pub value: String,
    /// What is wrong, or what would be accepted.
    pub reason: String,
}

impl MachineConfigError {
    /// The error for `key` = `value`, with the reason (also used by units'
    /// machine checks, `HarnessUnit::check_machine`).
    pub fn new(key: &str, value: impl ToString, reason: impl Into<String>) -> Self {
        MachineConfigError {
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}
