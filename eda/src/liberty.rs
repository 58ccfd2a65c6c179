//! Finding the project's Liberty file and reading the little this crate
//! needs from it (cell areas, which cells are flip-flops or latches).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cells::CellKind;
use crate::error::EdaError;

/// Environment variable naming a Liberty file to use instead of searching.
pub const LIBERTY_ENV: &str = "WARPGEN_LIBERTY";

/// Where the NanGate45 library sits relative to the directory that holds
/// both the project checkout and `shared/` (e.g. `/work`).
pub const DEFAULT_LIBERTY_RELATIVE: &str = "shared/pdk/nangate45/nangate45_typ.lib";

/// Finds the Liberty file for area figures.
///
/// 1. `$WARPGEN_LIBERTY`, if it is set and names an existing file (a value
///    that names no file is ignored and the search below runs);
/// 2. walking up from `start` (made absolute) through its parents, the first
///    directory `D` with `D/shared/pdk/nangate45/nangate45_typ.lib`, or else
///    with any `*.lib` under `D/shared/pdk/` (the first in sorted path order).
///
/// The checkout sits beside `shared/` (`/work/main` next to `/work/shared`,
/// or a CI clone next to its `shared/`), so starting from the crate's
/// `CARGO_MANIFEST_DIR` or the checkout root finds it.
pub fn find_liberty(start: &Path) -> Option<PathBuf> {
    find_liberty_with(start, std::env::var_os(LIBERTY_ENV))
}

pub(crate) fn find_liberty_with(start: &Path, env: Option<OsString>) -> Option<PathBuf> {
    if let Some(p) = env.filter(|v| !v.is_empty()).map(PathBuf::from) {
        if p.is_file() {
            return Some(p);
        }
    }
    let start = if start.is_absolute() {
        start.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(start)
    };
    let start = std::fs::canonicalize(&start).unwrap_or(start);
    for dir in start.ancestors() {
        let preferred = dir.join(DEFAULT_LIBERTY_RELATIVE);
        if preferred.is_file() {
            return Some(preferred);
        }
        let pdk = dir.join("shared").join("pdk");
        if pdk.is_dir() {
            let mut libs = Vec::new();
            collect_libs(&pdk, &mut libs, 0);
            libs.sort();
            if let Some(first) = libs.into_iter().next() {
                return Some(first);
            }
        }
    }
    None
}

fn collect_libs(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 8 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_libs(&path, out, depth + 1);
        } else if path.extension().is_some_and(|e| e == "lib") && path.is_file() {
            out.push(path);
        }
    }
}

/// One cell of a Liberty library.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LibertyCell {
    /// The `area` attribute (square micrometres for NanGate45), if present.
    pub area: Option<f64>,
    /// Flip-flop (`ff`/`ff_bank` group), latch (`latch`/`latch_bank`) or other.
    pub kind: CellKind,
}

/// The cells of a Liberty library, by name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LibertyInfo {
    /// Cell name to its area and kind.
    pub cells: BTreeMap<String, LibertyCell>,
}

impl LibertyInfo {
    /// Reads and parses a Liberty file.
    pub fn read(path: &Path) -> Result<Self, EdaError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| EdaError::io(format!("reading Liberty file {}", path.display()), e))?;
        let info = Self::parse(&text);
        if info.cells.is_empty() {
            return Err(EdaError::parse(
                format!("Liberty file {}", path.display()),
                "no `cell (...)` groups found",
            ));
        }
        Ok(info)
    }

    /// Parses Liberty text: only `cell (NAME) { ... }` groups, their `area`
    /// attribute and whether they contain an `ff`/`ff_bank` or
    /// `latch`/`latch_bank` group. Comments and quoted strings are skipped.
    pub fn parse(text: &str) -> Self {
        let mut cells = BTreeMap::new();
        let mut depth: usize = 0;
        let mut current: Option<(String, usize, LibertyCell)> = None;
        let mut in_comment = false;
        for raw_line in text.lines() {
            let line = strip_comments(raw_line, &mut in_comment);
            let trimmed = line.trim_start();
            match &mut current {
                None => {
                    if let Some(name) = group_arg(trimmed, "cell") {
                        current = Some((
                            name,
                            depth,
                            LibertyCell {
                                area: None,
                                kind: CellKind::Combinational,
                            },
                        ));
                    }
                }
                Some((_, _, cell)) => {
                    if group_arg(trimmed, "ff").is_some() || group_arg(trimmed, "ff_bank").is_some()
                    {
                        cell.kind = CellKind::FlipFlop;
                    } else if group_arg(trimmed, "latch").is_some()
                        || group_arg(trimmed, "latch_bank").is_some()
                    {
                        cell.kind = CellKind::Latch;
                    } else if let Some(v) = attribute(trimmed, "area") {
                        if cell.area.is_none() {
                            cell.area = v.parse().ok();
                        }
                    }
                }
            }
            for c in braces(&line) {
                if c == '{' {
                    depth += 1;
                } else {
                    depth = depth.saturating_sub(1);
                    if let Some((_, cell_depth, _)) = &current {
                        if depth == *cell_depth {
                            let (name, _, cell) = current.take().expect("checked above");
                            cells.insert(name, cell);
                        }
                    }
                }
            }
        }
        LibertyInfo { cells }
    }

    /// The kind of a cell, if the library has it.
    pub fn kind(&self, cell: &str) -> Option<CellKind> {
        self.cells.get(cell).map(|c| c.kind)
    }
}

/// Removes `/* ... */` comments (which may span lines) from one line.
fn strip_comments(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        if *in_comment {
            match rest.find("*/") {
                Some(i) => {
                    rest = &rest[i + 2..];
                    *in_comment = false;
                }
                None => return out,
            }
        } else {
            match rest.find("/*") {
                Some(i) => {
                    out.push_str(&rest[..i]);
                    out.push(' ');
                    rest = &rest[i + 2..];
                    *in_comment = true;
                }
                None => {
                    out.push_str(rest);
                    return out;
                }
            }
        }
    }
}

/// The braces of a line that are outside double-quoted strings.
fn braces(line: &str) -> impl Iterator<Item = char> + '_ {
    let mut in_str = false;
    let mut escaped = false;
    line.chars().filter(move |&c| {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            false
        } else if c == '"' {
            in_str = true;
            false
        } else {
            c == '{' || c == '}'
        }
    })
}

/// For `keyword (ARG) ...` returns `ARG` without quotes.
fn group_arg(line: &str, keyword: &str) -> Option<String> {
    let rest = line.strip_prefix(keyword)?;
    let rest = rest.trim_start().strip_prefix('(')?;
    let end = rest.find(')')?;
    let arg = rest[..end].trim();
    let first = arg.split(',').next().unwrap_or("").trim();
    Some(first.trim_matches('"').to_string())
}

/// For `name : VALUE ;` returns `VALUE`.
fn attribute<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(name)?;
    let rest = rest.trim_start().strip_prefix(':')?;
    Some(rest.trim().trim_end_matches(';').trim().trim_matches('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = r#"
library (tiny) {
  /* a comment with cell (FAKE) { inside
     spanning lines } */
  time_unit : "1ns" ;
  cell (INV_X1) {
    area : 0.532000;
    pin (ZN) { function : "!A"; }
  }
  cell ("DFF_X1") {
    area : 4.522;
    ff ("IQ" , "IQN") {
      next_state : "D" ;
      clocked_on : "CK" ;
    }
    pin (Q) { function : "IQ"; timing () { cell_rise(scalar) { values ("0.1"); } } }
  }
  cell (DLH_X1) {
    area               	: 2.660000;
    latch ("IQ" , "IQN") { enable : "G"; data_in : "D"; }
  }
}
"#;

    #[test]
    fn parses_cells() {
        let info = LibertyInfo::parse(LIB);
        assert_eq!(info.cells.len(), 3, "{info:?}");
        assert_eq!(info.cells["INV_X1"].area, Some(0.532));
        assert_eq!(info.kind("INV_X1"), Some(CellKind::Combinational));
        assert_eq!(info.cells["DFF_X1"].area, Some(4.522));
        assert_eq!(info.kind("DFF_X1"), Some(CellKind::FlipFlop));
        assert_eq!(info.kind("DLH_X1"), Some(CellKind::Latch));
        assert_eq!(info.cells["DLH_X1"].area, Some(2.66));
        assert_eq!(info.kind("FAKE"), None);
    }

    #[test]
    fn env_override_and_walk() {
        let root = tempfile::tempdir().unwrap();
        let checkout = root.path().join("main").join("eda");
        std::fs::create_dir_all(&checkout).unwrap();
        // Nothing inside the temporary tree: whatever lies above it (a
        // `shared/pdk` beside some ancestor of the temporary directory)
        // is what the walk finds.
        let above = find_liberty_with(root.path(), None);
        assert_eq!(find_liberty_with(&checkout, None), above);

        // Any *.lib under shared/pdk/ is found ...
        let other = root.path().join("shared/pdk/other/zz.lib");
        std::fs::create_dir_all(other.parent().unwrap()).unwrap();
        std::fs::write(&other, "library (x) {}").unwrap();
        let found = find_liberty_with(&checkout, None).unwrap();
        assert!(found.ends_with("shared/pdk/other/zz.lib"), "{found:?}");

        // ... but the NanGate45 file is preferred.
        let lib = root.path().join(DEFAULT_LIBERTY_RELATIVE);
        std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
        std::fs::write(&lib, "library (x) {}").unwrap();
        let found = find_liberty_with(&checkout, None).unwrap();
        assert!(found.ends_with(DEFAULT_LIBERTY_RELATIVE), "{found:?}");

        // The environment variable wins when it names a file ...
        let env_lib = root.path().join("custom.lib");
        std::fs::write(&env_lib, "library (y) {}").unwrap();
        assert_eq!(
            find_liberty_with(&checkout, Some(env_lib.clone().into_os_string())),
            Some(env_lib)
        );
        // ... and is ignored when it names nothing.
        let found = find_liberty_with(&checkout, Some("/no/such/file.lib".into())).unwrap();
        assert!(found.ends_with(DEFAULT_LIBERTY_RELATIVE), "{found:?}");
    }
}
