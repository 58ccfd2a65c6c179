//! Verilog given as text, and the check on top-module names.

use std::path::{Path, PathBuf};

use crate::error::EdaError;

/// Verilog source text written to `<top>.v` inside its own temporary
/// directory, for running the tools on text rather than on an existing file.
///
/// The file is named after the top module so that Verilator's
/// `DECLFILENAME` check is satisfied, as it is for the generator's own
/// `verilog-out/<unit>.v` files. The directory is removed when the value is
/// dropped.
#[derive(Debug)]
pub struct TempVerilog {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl TempVerilog {
    /// Writes `text` to a fresh temporary `<top>.v`; `top` must be a plain
    /// Verilog identifier (see [`validate_top`]).
    pub fn new(text: &str, top: &str) -> Result<Self, EdaError> {
        validate_top(top)?;
        let dir = tempfile::Builder::new()
            .prefix("warpgen-eda-src-")
            .tempdir()
            .map_err(|e| EdaError::io("creating a temporary directory", e))?;
        let path = dir.path().join(format!("{top}.v"));
        std::fs::write(&path, text)
            .map_err(|e| EdaError::io(format!("writing {}", path.display()), e))?;
        Ok(TempVerilog { _dir: dir, path })
    }

    /// The path of the written Verilog file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Checks that `top` is a plain Verilog identifier (`[A-Za-z_][A-Za-z0-9_]*`,
/// as `conventions.md` requires of every emitted name), so that it can be
/// passed safely on tool command lines and inside Yosys scripts.
pub fn validate_top(top: &str) -> Result<(), EdaError> {
    let mut chars = top.chars();
    let ok = match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {
            chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(EdaError::InvalidTop(top.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_names() {
        assert!(validate_top("counter").is_ok());
        assert!(validate_top("_a1__b").is_ok());
        for bad in ["", "1abc", "a b", "a;b", "a$b", "a-b", "\\esc"] {
            assert!(
                matches!(validate_top(bad), Err(EdaError::InvalidTop(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn temp_verilog_is_named_after_top() {
        let t = TempVerilog::new("module m; endmodule\n", "m").unwrap();
        assert_eq!(t.path().file_name().unwrap(), "m.v");
        assert_eq!(
            std::fs::read_to_string(t.path()).unwrap(),
            "module m; endmodule\n"
        );
        let dir = t.path().parent().unwrap().to_path_buf();
        drop(t);
        assert!(!dir.exists());
    }
}
