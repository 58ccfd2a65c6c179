//! The ports: checking the port lists and matching them against the
//! Verilated class's header `V<top>.h`.

use super::error::{Result, VerilatorError};
use ports::PortDesc;

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Direction of a port of the Verilated class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HDir {
    In,
    Out,
    InOut,
}

/// A port as declared in `V<top>.h` (`VL_IN16(&name,msb,lsb);`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HeaderPort {
    /// C++ member name (may be escaped, e.g. `__SYM__int`, `a___05Fb`).
    pub(super) member: String,
    /// The Verilog name it stands for.
    pub(super) name: String,
    pub(super) dir: HDir,
    /// C++ type (`CData`, `SData`, `IData`, `QData`), `None` for wide ports.
    pub(super) ctype: Option<&'static str>,
    pub(super) width: u32,
}

/// Undo Verilator's name encoding of a C++ member: the `__SYM__` prefix of
/// names that are C++ keywords and the `__0XX` hex escapes (used, e.g., for
/// the second `_` of `__`).
fn decode_member(member: &str) -> String {
    let s = member.strip_prefix("__SYM__").unwrap_or(member);
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"__0") && i + 5 <= b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 3..i + 5], 16) {
                out.push(v as char);
                i += 5;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The ports of a Verilated class header.
pub(super) fn parse_header_ports(header: &str) -> Vec<HeaderPort> {
    let mut ports = Vec::new();
    for line in header.lines() {
        let line = line.trim();
        let Some(open) = line.find('(') else {
            continue;
        };
        let mac = &line[..open];
        let (dir, rest) = if let Some(r) = mac.strip_prefix("VL_INOUT") {
            (HDir::InOut, r)
        } else if let Some(r) = mac.strip_prefix("VL_IN") {
            (HDir::In, r)
        } else if let Some(r) = mac.strip_prefix("VL_OUT") {
            (HDir::Out, r)
        } else {
            continue;
        };
        let ctype = match rest {
            "8" => Some("CData"),
            "16" => Some("SData"),
            "" => Some("IData"),
            "64" => Some("QData"),
            "W" => None,
            _ => continue,
        };
        let Some(close) = line.rfind(')') else {
            continue;
        };
        let args: Vec<&str> = line[open + 1..close].split(',').map(str::trim).collect();
        if args.len() < 3 {
            continue;
        }
        let member = args[0].trim_start_matches('&').to_string();
        let (Ok(msb), Ok(lsb)) = (args[1].parse::<i64>(), args[2].parse::<i64>()) else {
            continue;
        };
        let width = (msb - lsb).unsigned_abs() as u32 + 1;
        ports.push(HeaderPort {
            name: decode_member(&member),
            member,
            dir,
            ctype,
            width,
        });
    }
    ports
}

/// Check the top name and the port lists before anything is run.
pub(super) fn check_port_lists(top: &str, inputs: &[PortDesc], outputs: &[PortDesc]) -> Result<()> {
    let bad = |message: String| VerilatorError::Ports {
        top: top.to_string(),
        message,
    };
    if !is_identifier(top) {
        return Err(bad(format!(
            "`{top}` is not a plain Verilog identifier ([A-Za-z_][A-Za-z0-9_]*)"
        )));
    }
    let mut seen = std::collections::HashSet::new();
    for (kind, list) in [("input", inputs), ("output", outputs)] {
        for p in list {
            if !is_identifier(&p.name) {
                return Err(bad(format!(
                    "{kind} port `{}` is not a plain Verilog identifier",
                    p.name
                )));
            }
            if !(1..=64).contains(&p.width) {
                return Err(bad(format!(
                    "{kind} port `{}` has width {}; widths must be 1..=64",
                    p.name, p.width
                )));
            }
            if p.name == "clock" {
                return Err(bad(format!(
                    "`clock` is listed as an {kind} port; it is implicit (driven by the back-end)"
                )));
            }
            if !seen.insert(p.name.as_str()) {
                return Err(bad(format!("port `{}` is listed twice", p.name)));
            }
        }
    }
    Ok(())
}

/// Match the port lists against the Verilated class; returns the header
/// port of each input and each output, in list order.
pub(super) fn match_ports<'h>(
    top: &str,
    header: &'h [HeaderPort],
    inputs: &[PortDesc],
    outputs: &[PortDesc],
) -> Result<(Vec<&'h HeaderPort>, Vec<&'h HeaderPort>)> {
    let bad = |message: String| VerilatorError::Ports {
        top: top.to_string(),
        message,
    };
    let all = || {
        header
            .iter()
            .map(|p| format!("{} {}[{}]", dir_word(p.dir), p.name, p.width))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let find = |p: &PortDesc, dir: HDir| -> Result<&'h HeaderPort> {
        let h = header.iter().find(|h| h.name == p.name).ok_or_else(|| {
            bad(format!(
                "{} port `{}` is not a port of module `{top}` (its ports: {})",
                dir_word(dir),
                p.name,
                all()
            ))
        })?;
        if h.dir != dir {
            return Err(bad(format!(
                "`{}` is listed as an {} port but is an {} port of the design",
                p.name,
                dir_word(dir),
                dir_word(h.dir)
            )));
        }
        if h.width != p.width || h.ctype.is_none() {
            return Err(bad(format!(
                "{} port `{}` is {} bits wide in the port list but {} bits in the Verilog",
                dir_word(dir),
                p.name,
                p.width,
                h.width
            )));
        }
        Ok(h)
    };
    match header.iter().find(|h| h.name == "clock") {
        Some(c) if c.dir == HDir::In && c.width == 1 => {}
        _ => {
            return Err(bad(format!(
                "the design has no 1-bit input `clock` (its ports: {})",
                all()
            )))
        }
    }
    let ins = inputs
        .iter()
        .map(|p| find(p, HDir::In))
        .collect::<Result<Vec<_>>>()?;
    let outs = outputs
        .iter()
        .map(|p| find(p, HDir::Out))
        .collect::<Result<Vec<_>>>()?;
    for h in header {
        match h.dir {
            HDir::InOut => {
                return Err(bad(format!(
                    "inout port `{}` is not supported; units have only inputs and outputs",
                    h.name
                )))
            }
            HDir::In if h.name != "clock" && !inputs.iter().any(|p| p.name == h.name) => {
                return Err(bad(format!(
                    "input `{}` of the design is missing from the input port list (it would \
                     never be driven)",
                    h.name
                )))
            }
            _ => {}
        }
    }
    Ok((ins, outs))
}

fn dir_word(d: HDir) -> &'static str {
    match d {
        HDir::In => "input",
        HDir::Out => "output",
        HDir::InOut => "inout",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_verilator_member_names() {
        assert_eq!(decode_member("__SYM__int"), "int");
        assert_eq!(decode_member("a___05Fb"), "a__b");
        assert_eq!(decode_member("x_"), "x_");
        assert_eq!(decode_member("_x"), "_x");
        assert_eq!(decode_member("req_addr0"), "req_addr0");
    }

    #[test]
    fn parses_header_ports() {
        let h = "    VL_IN8(&clock,0,0);\n    VL_IN8(&__SYM__int,3,0);\n    VL_OUT16(&w12,11,0);\n\
                 VL_IN(&a,31,0);\n VL_OUT64(&acc,39,0);\n VL_INW(&wide,99,0,4);\n\
                 VL_IN8(&off,8,1);\n  // VL_IN8 comment\n";
        let p = parse_header_ports(h);
        let names: Vec<_> = p
            .iter()
            .map(|p| (p.name.as_str(), p.width, p.ctype))
            .collect();
        assert_eq!(
            names,
            vec![
                ("clock", 1, Some("CData")),
                ("int", 4, Some("CData")),
                ("w12", 12, Some("SData")),
                ("a", 32, Some("IData")),
                ("acc", 40, Some("QData")),
                ("wide", 100, None),
                ("off", 8, Some("CData")),
            ]
        );
        assert_eq!(p[1].member, "__SYM__int");
        assert_eq!(p[2].dir, HDir::Out);
    }

    #[test]
    fn rejects_bad_port_lists() {
        let ok = [PortDesc::new("reset", 1)];
        assert!(check_port_lists("t", &ok, &[]).is_ok());
        assert!(check_port_lists("t$x", &ok, &[]).is_err());
        let e = check_port_lists("t", &[PortDesc::new("clock", 1)], &[]).unwrap_err();
        assert!(e.to_string().contains("clock"), "{e}");
        assert!(check_port_lists("t", &[PortDesc::new("a", 65)], &[]).is_err());
        assert!(check_port_lists("t", &[PortDesc::new("a", 0)], &[]).is_err());
        assert!(check_port_lists("t", &ok, &[PortDesc::new("reset", 1)]).is_err());
        assert!(check_port_lists("t", &[PortDesc::new("a.b", 1)], &[]).is_err());
    }
}
