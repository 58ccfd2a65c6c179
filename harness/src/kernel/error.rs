//! The error of a kernel file that cannot be used (file, line, field and
//! what is wrong), and of a kernel that fails at run time.

/// A kernel file that cannot be used: file, line, field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError {
    /// The file (as given).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// The field (`arrays.A.len`, `body`, ...); empty for a TOML syntax
    /// error, which is not about one field.
    pub field: String,
    /// What is wrong.
    pub msg: String,
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.field.is_empty()) {
            (Some(l), false) => write!(
                f,
                "{}:{}: field `{}`: {}",
                self.file, l, self.field, self.msg
            ),
            (Some(l), true) => write!(f, "{}:{}: {}", self.file, l, self.msg),
            (None, false) => write!(f, "{}: field `{}`: {}", self.file, self.field, self.msg),
            (None, true) => write!(f, "{}: {}", self.file, self.msg),
        }
    }
}

impl std::error::Error for KernelError {}
