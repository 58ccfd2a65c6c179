//! Verilator lint (`verilator --lint-only -Wall`) with named waivers.

use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::error::EdaError;
use crate::installed::require_tool;
use crate::run::{failed, input_file, run, work_dir};
use crate::tool::Tool;

/// A waived Verilator warning category, with the reason it is waived.
///
/// `conventions.md`: "Any waiver is a named warning category, documented with
/// its reason in the project; WIDTH warnings are not waived wholesale".
/// [`lint_verilator`] passes each waiver as `-Wno-<category>`, after
/// [`check_waiver`] has accepted it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Waiver {
    /// Verilator warning category, e.g. `"UNUSEDSIGNAL"`.
    pub category: &'static str,
    /// Why the category is waived for this design.
    pub reason: &'static str,
}

/// Verilator warning *groups* that would switch off many categories at once
/// (`LINT` includes `WIDTH`); they are not single named categories.
const GROUPS: [&str; 2] = ["LINT", "STYLE"];

/// Checks a waiver against the project conventions: the category must be a
/// single named Verilator category (letters, digits, `_`; not the `LINT` or
/// `STYLE` groups), must not start with `WIDTH` (no `WIDTH`, `WIDTHEXPAND`,
/// `WIDTHTRUNC`, ...: width slips are what co-simulation exists to catch),
/// and must carry a non-empty reason.
pub fn check_waiver(waiver: &Waiver) -> Result<(), EdaError> {
    let cat = waiver.category;
    let refuse = |why: &str| {
        Err(EdaError::WaiverRefused {
            category: cat.to_string(),
            why: why.to_string(),
        })
    };
    if cat.is_empty() || !cat.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return refuse("a waiver must name a single Verilator warning category ([A-Za-z0-9_]+)");
    }
    let upper = cat.to_ascii_uppercase();
    if upper.starts_with("WIDTH") {
        return refuse(
            "WIDTH warnings must not be waived wholesale (conventions.md): width and \
             precedence slips between the Rust description and the emitted Verilog are \
             exactly the bugs co-simulation exists to catch; fix the widths instead",
        );
    }
    if GROUPS.contains(&upper.as_str()) {
        return refuse(
            "this is a warning group, not a named category (-Wno-lint would also waive WIDTH)",
        );
    }
    if waiver.reason.trim().is_empty() {
        return refuse("every waiver must document its reason (conventions.md)");
    }
    Ok(())
}

/// One warning reported by Verilator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintWarning {
    /// The warning category, e.g. `WIDTH`, `UNUSEDSIGNAL`, `LATCH`.
    pub category: String,
    /// The file named in the warning, as Verilator printed it (inputs are
    /// passed as absolute paths), if the warning has a location.
    pub file: Option<String>,
    /// The 1-based line, if the warning has a location.
    pub line: Option<u32>,
    /// The warning text after the location.
    pub message: String,
}

impl LintWarning {
    /// Whether this is a width warning: `WIDTH`, or the finer
    /// `WIDTHEXPAND`/`WIDTHTRUNC`/... of Verilator releases after 5.006.
    pub fn is_width(&self) -> bool {
        self.category.starts_with("WIDTH")
    }
}

/// The result of a lint run that completed (the design parsed and elaborated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintReport {
    /// No warnings were reported and Verilator exited successfully.
    pub clean: bool,
    /// The warnings, in the order Verilator printed them.
    pub warnings: Vec<LintWarning>,
    /// Verilator's complete stdout and stderr.
    pub raw: String,
}

impl LintReport {
    /// Whether any warning has exactly this category.
    pub fn has_category(&self, category: &str) -> bool {
        self.warnings.iter().any(|w| w.category == category)
    }

    /// The warnings of exactly this category.
    pub fn of_category<'a>(&'a self, category: &'a str) -> impl Iterator<Item = &'a LintWarning> {
        self.warnings.iter().filter(move |w| w.category == category)
    }
}

/// Lints `verilog` with `verilator --lint-only -Wall --top-module <top>`,
/// adding `-Wno-<category>` for each waiver.
///
/// Returns a [`LintReport`] when Verilator got as far as reporting warnings
/// (the report is `clean` only if there are none); returns
/// [`EdaError::ToolFailed`] (carrying the output, with file and line) when it
/// reports an error such as a syntax error or a missing module, and
/// [`EdaError::WaiverRefused`] for a waiver [`check_waiver`] refuses.
pub fn lint_verilator(
    verilog: &Path,
    top: &str,
    waivers: &[Waiver],
) -> Result<LintReport, EdaError> {
    crate::source::validate_top(top)?;
    for w in waivers {
        check_waiver(w)?;
    }
    require_tool(Tool::Verilator)?;
    let file = input_file(verilog)?;
    let dir = work_dir()?;
    let mut cmd = Command::new("verilator");
    cmd.current_dir(dir.path())
        .args(["--lint-only", "-Wall", "--top-module", top])
        .arg("--Mdir")
        .arg(dir.path().join("obj_dir"));
    for w in waivers {
        cmd.arg(format!("-Wno-{}", w.category));
    }
    cmd.arg(&file);
    let out = run(Tool::Verilator, &mut cmd, None)?;
    let raw = out.combined();
    let (warnings, errors) = parse_verilator(&raw);
    if !errors.is_empty() || (!out.status.success() && warnings.is_empty()) {
        return Err(failed(Tool::Verilator, &cmd, &out));
    }
    Ok(LintReport {
        clean: warnings.is_empty() && out.status.success(),
        warnings,
        raw,
    })
}

/// Splits Verilator output into warnings and error lines (other than the
/// final "Exiting due to N warning(s)").
fn parse_verilator(text: &str) -> (Vec<LintWarning>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("%Warning-") {
            let Some((category, body)) = rest.split_once(':') else {
                continue;
            };
            let (file, line_no, message) = split_location(body.trim_start());
            warnings.push(LintWarning {
                category: category.trim().to_string(),
                file,
                line: line_no,
                message,
            });
        } else if line.starts_with("%Error") {
            let exiting = line
                .split_once(':')
                .map(|(_, m)| m.trim_start().starts_with("Exiting due to"))
                .unwrap_or(false);
            if !exiting {
                errors.push(line.to_string());
            }
        }
    }
    (warnings, errors)
}

/// Splits `file:line:col: message` (column optional) into its parts; text
/// without such a location is returned whole as the message.
fn split_location(body: &str) -> (Option<String>, Option<u32>, String) {
    if let Some((loc, msg)) = body.split_once(": ") {
        let mut parts: Vec<&str> = loc.rsplitn(3, ':').collect();
        parts.reverse();
        let nums = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let parsed = match parts.as_slice() {
            [file, line, col] if nums(line) && nums(col) && !file.is_empty() => {
                Some((file.to_string(), line.parse().ok()))
            }
            [rest @ .., line] if nums(line) && !rest.is_empty() => {
                let file = rest.join(":");
                (!file.is_empty()).then(|| (file, line.parse().ok()))
            }
            _ => None,
        };
        if let Some((file, line)) = parsed {
            return (Some(file), line, msg.trim().to_string());
        }
    }
    (None, None, body.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
%Warning-DECLFILENAME: width.v:1:8: Filename 'width' does not match MODULE name: 'widthy'
    1 | module widthy (
      |        ^~~~~~
%Warning-WIDTH: /tmp/x/width.v:5:14: Operator ASSIGNW expects 4 bits on the Assign RHS, but Assign RHS's VARREF 'a' generates 8 bits.
                            : ... In instance widthy
%Warning-MULTITOP: Multiple top level modules
%Error: Exiting due to 3 warning(s)
";

    #[test]
    fn parses_warnings() {
        let (w, e) = parse_verilator(SAMPLE);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].category, "DECLFILENAME");
        assert_eq!(w[0].file.as_deref(), Some("width.v"));
        assert_eq!(w[0].line, Some(1));
        assert_eq!(w[1].category, "WIDTH");
        assert!(w[1].is_width());
        assert_eq!(w[1].file.as_deref(), Some("/tmp/x/width.v"));
        assert_eq!(w[1].line, Some(5));
        assert!(w[1].message.starts_with("Operator ASSIGNW expects 4 bits"));
        assert_eq!(w[2].category, "MULTITOP");
        assert_eq!(w[2].file, None);
        assert_eq!(w[2].line, None);
        assert_eq!(w[2].message, "Multiple top level modules");
    }

    #[test]
    fn parses_errors() {
        let text =
            "%Error: syntax.v:6:1: syntax error, unexpected endmodule\n%Error: Cannot continue\n";
        let (w, e) = parse_verilator(text);
        assert!(w.is_empty());
        assert_eq!(e.len(), 2);
    }

    #[test]
    fn waiver_rules() {
        let ok = Waiver {
            category: "UNUSEDSIGNAL",
            reason: "debug port kept for waveforms",
        };
        assert!(check_waiver(&ok).is_ok());
        for category in [
            "WIDTH",
            "WIDTHEXPAND",
            "WIDTHTRUNC",
            "width",
            "LINT",
            "style",
            "",
            "A B",
            "X;Y",
        ] {
            let w = Waiver {
                category,
                reason: "because",
            };
            assert!(
                matches!(check_waiver(&w), Err(EdaError::WaiverRefused { .. })),
                "{category:?} accepted"
            );
        }
        let no_reason = Waiver {
            category: "UNUSEDSIGNAL",
            reason: "  ",
        };
        assert!(check_waiver(&no_reason).is_err());
    }

    #[test]
    fn width_refusal_cites_conventions() {
        let w = Waiver {
            category: "WIDTH",
            reason: "lazy",
        };
        let msg = check_waiver(&w).unwrap_err().to_string();
        assert!(
            msg.contains("WIDTH") && msg.contains("conventions.md"),
            "{msg}"
        );
    }
}
