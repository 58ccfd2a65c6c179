//! The Yosys gate netlist: rewriting it so that OpenSTA 2019 reads it, and
//! finding the RTL register behind a flip-flop instance.

use std::fmt::Write as _;

use super::report::{EndpointKind, TimingPath};
use crate::error::EdaError;

/// The elements of a Verilog concatenation's inside (`\\q[1] , x, 2'b01`),
/// constants expanded to one `1'bX` per bit, most significant first.
fn concat_elements(inner: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == ',' {
            chars.next();
            continue;
        }
        let mut tok = String::new();
        if c == '\\' {
            // An escaped identifier runs to the next white space.
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                tok.push(c);
                chars.next();
            }
            // A bit-select may follow after the space: `\\a.b [3]`.
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            if chars.peek() == Some(&'[') {
                tok.push(' ');
                for c in chars.by_ref() {
                    tok.push(c);
                    if c == ']' {
                        break;
                    }
                }
            } else {
                tok.push(' ');
            }
            out.push(tok);
            continue;
        }
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ',' {
                break;
            }
            tok.push(c);
            chars.next();
        }
        match tok.split_once('\'') {
            Some((width, value)) => {
                let width: usize = width.parse().ok()?;
                let mut chars = value.chars();
                let radix = chars.next()?;
                let digits: String = chars.filter(|c| *c != '_').collect();
                let bits: String = match radix {
                    'b' => digits,
                    'h' => digits
                        .chars()
                        .map(|d| d.to_digit(16).map(|v| format!("{v:04b}")))
                        .collect::<Option<String>>()?,
                    'd' => format!("{:b}", digits.parse::<u128>().ok()?),
                    _ => return None,
                };
                // Left-pad with zeros (or the x/z digit) to the width.
                let pad = bits
                    .chars()
                    .next()
                    .filter(|c| matches!(c, 'x' | 'z'))
                    .unwrap_or('0');
                let mut bits: Vec<char> = bits.chars().collect();
                while bits.len() < width {
                    bits.insert(0, pad);
                }
                let bits = &bits[bits.len() - width..];
                out.extend(bits.iter().map(|b| format!("1'b{b}")));
            }
            None => out.push(tok),
        }
    }
    Some(out)
}

/// Rewrites Yosys's `assign { a, b } = { c, 1'b0 };` (which OpenSTA 2019
/// cannot read: it wants a net on the left) as one `assign` per bit. The
/// netlist has only one-bit nets (`splitnets -ports`).
pub(super) fn split_concat_assigns(netlist: &str) -> Result<String, EdaError> {
    let mut out = String::with_capacity(netlist.len());
    let mut pending = String::new();
    for line in netlist.lines() {
        if pending.is_empty() && !line.trim_start().starts_with("assign {") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        pending.push_str(line);
        pending.push(' ');
        if !line.trim_end().ends_with(';') {
            continue;
        }
        let stmt = std::mem::take(&mut pending);
        let bad = || EdaError::parse("the Yosys gate netlist", format!("assignment `{stmt}`"));
        let body = stmt
            .trim()
            .strip_prefix("assign")
            .and_then(|b| b.trim().strip_suffix(';'))
            .ok_or_else(bad)?;
        let (lhs, rhs) = body.split_once('=').ok_or_else(bad)?;
        let strip = |side: &str| {
            let side = side.trim();
            match side.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
                Some(inner) => concat_elements(inner),
                None => concat_elements(side),
            }
        };
        let (l, r) = (strip(lhs).ok_or_else(bad)?, strip(rhs).ok_or_else(bad)?);
        if l.len() != r.len() || l.iter().any(|x| x.contains('\'')) {
            return Err(bad());
        }
        for (a, b) in l.iter().zip(&r) {
            let _ = writeln!(out, "  assign {a} = {b};");
        }
    }
    if !pending.is_empty() {
        return Err(EdaError::parse(
            "the Yosys gate netlist",
            format!("unterminated `{pending}`"),
        ));
    }
    Ok(out)
}

/// Removes Verilog escaping (`\\j.q [3]` -> `j.q[3]`) and OpenSTA's
/// backslashes.
pub(super) fn plain_name(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '\\' && !c.is_whitespace())
        .collect()
}

/// Cell instances of a Yosys `write_verilog -noattr` netlist: instance name
/// to pin-to-net connections.
#[derive(Debug, Default)]
pub(super) struct Netlist {
    cells: std::collections::HashMap<String, Vec<(String, String)>>,
}

impl Netlist {
    pub(super) fn parse(text: &str) -> Netlist {
        let mut cells = std::collections::HashMap::new();
        let mut current: Option<(String, Vec<(String, String)>)> = None;
        for line in text.lines() {
            let t = line.trim();
            if let Some((_, conns)) = current.as_mut() {
                if t.starts_with(");") {
                    if let Some((name, conns)) = current.take() {
                        cells.insert(name, conns);
                    }
                } else if let Some(rest) = t.strip_prefix('.') {
                    if let Some((pin, net)) = rest.split_once('(') {
                        let net = net.trim_end_matches(',').trim_end();
                        let net = net.strip_suffix(')').unwrap_or(net);
                        conns.push((pin.trim().to_string(), plain_name(net)));
                    }
                }
                continue;
            }
            // "CELL INST (" where INST may be escaped: "\a.b ("
            if let Some(head) = t.strip_suffix('(') {
                let mut words = head.split_whitespace();
                if let (Some(cell), Some(inst), None) = (words.next(), words.next(), words.next()) {
                    if cell != "module" && !cell.starts_with('.') {
                        current = Some((plain_name(inst), Vec::new()));
                    }
                }
            }
        }
        Netlist { cells }
    }

    pub(super) fn net(&self, instance: &str, pin: &str) -> Option<&str> {
        self.cells
            .get(&plain_name(instance))?
            .iter()
            .find(|(p, _)| p == pin)
            .map(|(_, n)| n.as_str())
    }
}

/// Whether `net` is a Yosys-generated name (`_123_`) rather than an RTL one.
fn is_generated(net: &str) -> bool {
    net.len() > 2
        && net.starts_with('_')
        && net.ends_with('_')
        && net[1..net.len() - 1].chars().all(|c| c.is_ascii_digit())
}

pub(super) fn resolve_registers(path: &mut TimingPath, netlist: &Netlist) {
    for end in [&mut path.start, &mut path.end] {
        if end.kind == EndpointKind::FlipFlop {
            end.register = ["Q", "QN"]
                .iter()
                .filter_map(|pin| netlist.net(&end.name, pin))
                .find(|n| !is_generated(n) && !n.contains('\''))
                .map(str::to_string);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concatenated_assigns_are_split() {
        let text = "module t;\n  assign \\c[0]  = r;\n  \
                    assign { \\q[4] , \\q[3] , \\j.r [1] , y } = { \\t[4] , 2'b10, x };\n\
                    assign { a, b } = 2'h1;\nassign { c, d, e } = 3'd6;\nendmodule\n";
        let out = split_concat_assigns(text).unwrap();
        assert_eq!(
            out,
            "module t;\n  assign \\c[0]  = r;\n  assign \\q[4]  = \\t[4] ;\n  \
             assign \\q[3]  = 1'b1;\n  assign \\j.r [1] = 1'b0;\n  assign y = x;\n  \
             assign a = 1'b0;\n  assign b = 1'b1;\n  assign c = 1'b1;\n  assign d = 1'b1;\n  \
             assign e = 1'b0;\nendmodule\n"
        );
        assert!(split_concat_assigns("  assign { a, b } = c;\n").is_err());
        assert!(split_concat_assigns("  assign { a, b } = { c,\n").is_err());
    }

    #[test]
    fn netlist_connections_and_names() {
        let text = "module t(a);\n  DFF_X1 _5_ (\n    .CK(clock),\n    .D(a),\n    \
                    .Q(\\m_tag [3]),\n    .QN(_2_)\n  );\n  DFF_X1 \\u.r  (\n    .D(1'b0),\n    \
                    .Q(_7_)\n  );\nendmodule\n";
        let n = Netlist::parse(text);
        assert_eq!(n.net("_5_", "Q"), Some("m_tag[3]"));
        assert_eq!(n.net("_5_", "CK"), Some("clock"));
        assert_eq!(n.net("u.r", "D"), Some("1'b0"));
        assert!(is_generated("_7_") && !is_generated("m_tag[3]") && !is_generated("__"));
    }
}
