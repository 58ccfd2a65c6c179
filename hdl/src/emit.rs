//! Verilog emission: rust-hdl's output made to follow `conventions.md`.
//!
//! rust-hdl names the top module `top` and every submodule instance its own
//! module `top$path$to$instance`, and joins hierarchical names with `$`.
//! [`finish_verilog`] rewrites that text so that:
//!
//! - the top module is named after the unit and every submodule name starts
//!   with `<unit>__`;
//! - no identifier contains `$` (`a$b` becomes `a__b`; system functions such
//!   as `$signed` are kept);
//! - modules whose text is identical up to their name are emitted once (rust-hdl
//!   emits one copy per instance: 640 copies of the same register for the
//!   paper's tag array). Registers are named `<unit>__reg<width>`; other
//!   shared modules after their instance path with the indices removed
//!   (`<unit>__sets` for `top$sets$0` .. `top$sets$15`);
//! - a header names the unit and its configuration.
//!
//! The result is deterministic: it depends only on the input text.

use std::collections::{BTreeMap, BTreeSet};

use rust_hdl::prelude::*;

/// Emit the Verilog of a built unit: rust-hdl's structural checks, then its
/// Verilog generator, then [`finish_verilog`].
///
/// rust-hdl's own logic-loop check is not run: it works at the granularity
/// of a whole module's `always` block, so a parent that feeds a
/// combinational submodule and reads its output in the same block is
/// reported as a loop although no signal depends on itself. The emitted
/// text has no such block-level loop: [`crate::comb_split`] splits each
/// combinational block by signal group. Real combinational loops are
/// caught by Yosys (`check -assert` in the synthesis test) and by
/// Verilator's lint (`UNOPTFLAT` is not waived).
pub fn emit_unit<B: Block>(unit: &str, block: &mut B, header: &[String]) -> Result<String, String> {
    block.connect_all();
    rust_hdl::core::check_connected::check_connected(block)
        .map_err(|e| format!("{unit}: unconnected signals: {e:?}"))?;
    rust_hdl::core::check_write_inputs::check_inputs_not_written(block)
        .map_err(|e| format!("{unit}: inputs written: {e:?}"))?;
    let raw = generate_verilog_unchecked(block);
    let problems = check_comb_order(&raw);
    if !problems.is_empty() {
        return Err(format!(
            "{unit}: combinational statements out of order (a signal is read before this \
             block assigns it; event-driven simulators would use a stale value):\n  {}",
            problems.join("\n  ")
        ));
    }
    let finished = finish_verilog(unit, &raw, header);
    let split =
        crate::comb_split::split_comb_blocks(&finished).map_err(|e| format!("{unit}: {e}"))?;
    Ok(crate::scalar_range::range_bit_selected_scalars(&split))
}

/// Identifiers read and written by one line of an `always @(*)` block.
fn line_idents(line: &str) -> (Option<String>, Vec<String>) {
    let idents = |t: &str| -> Vec<String> {
        let mut out = Vec::new();
        let b = t.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$')
                {
                    i += 1;
                }
                // Skip literal digits such as the `h7` of `32'h7`.
                if start > 0 && b[start - 1] == b'\'' {
                    continue;
                }
                let w = &t[start..i];
                if !matches!(
                    w,
                    "if" | "else" | "begin" | "end" | "case" | "endcase" | "default"
                ) {
                    out.push(w.to_string());
                }
            } else if c.is_ascii_digit() {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'\'' || b[i] == b'_')
                {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        out
    };
    let t = line.trim();
    if let Some(pos) = t.find(" = ") {
        let lhs = &t[..pos];
        if !lhs.contains('(') || lhs.contains("+:") {
            let mut l = idents(lhs);
            let target = if l.is_empty() {
                None
            } else {
                Some(l.remove(0))
            };
            let mut reads = idents(&t[pos + 3..]);
            reads.extend(l);
            return (target, reads);
        }
    }
    (None, idents(t))
}

/// Find reads, in a module's `always @(*)` block, of a signal that the
/// block assigns only later. Returns one message per offence.
pub fn check_comb_order(raw: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for m in split_modules(raw) {
        let Some(start) = m.text.find("always @(*) begin") else {
            continue;
        };
        let lines: Vec<&str> = m.text[start..].lines().skip(1).collect();
        let parsed: Vec<(Option<String>, Vec<String>)> =
            lines.iter().map(|l| line_idents(l)).collect();
        let mut first_write: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, (w, _)) in parsed.iter().enumerate() {
            if let Some(w) = w {
                first_write.entry(w.as_str()).or_insert(i);
            }
        }
        let mut reported = BTreeSet::new();
        for (i, (_, reads)) in parsed.iter().enumerate() {
            for r in reads {
                if let Some(&fw) = first_write.get(r.as_str()) {
                    if fw > i && reported.insert(r.clone()) {
                        problems.push(format!(
                            "module {}: `{}` read in `{}` before its first assignment",
                            m.name,
                            r,
                            lines[i].trim()
                        ));
                    }
                }
            }
        }
    }
    problems
}

/// One `module ... endmodule` block.
#[derive(Clone, Debug)]
struct Module {
    name: String,
    text: String,
}

/// Split rust-hdl output into modules, in order.
fn split_modules(verilog: &str) -> Vec<Module> {
    let mut out = Vec::new();
    let mut cur: Option<Module> = None;
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            let name = rest
                .split(|c: char| c == '(' || c == ';' || c.is_whitespace())
                .next()
                .unwrap_or("")
                .to_string();
            cur = Some(Module {
                name,
                text: String::new(),
            });
        }
        if let Some(m) = cur.as_mut() {
            m.text.push_str(line.trim_end());
            m.text.push('\n');
            if line.starts_with("endmodule") {
                out.push(cur.take().unwrap());
            }
        }
    }
    out
}

/// Replace `$` joining identifier parts with `__`; keep `$system` calls.
fn strip_dollars(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut prev_ident = false;
    for c in text.chars() {
        if c == '$' && prev_ident {
            out.push_str("__");
            continue;
        }
        prev_ident = c.is_ascii_alphanumeric() || c == '_';
        out.push(c);
    }
    out
}

/// Replace whole-word occurrences of `from` by `to`.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(from)
            && (i == 0 || !is_ident(bytes[i - 1]))
            && (i + from.len() == text.len() || !is_ident(bytes[i + from.len()]))
        {
            out.push_str(to);
            i += from.len();
        } else {
            let ch = text[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// If `m` is a [`crate::reg::Reg`] instance, its width.
fn reg_width(m: &Module) -> Option<u32> {
    if !m.text.contains("(d,q,clock,reset);") || !m.text.contains("if (reset) q <=") {
        return None;
    }
    for line in m.text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("output reg") {
            let rest = rest.trim();
            if rest.starts_with('[') {
                let hi: u32 = rest[1..rest.find(':')?].parse().ok()?;
                return Some(hi + 1);
            }
            return Some(1);
        }
    }
    None
}

/// A readable name for a group of identical modules (rust-hdl paths).
fn group_name(unit: &str, members: &BTreeSet<String>, sample: &Module) -> String {
    if let Some(w) = reg_width(sample) {
        return format!("{unit}__reg{w}");
    }
    let first = members.iter().next().unwrap();
    let parts: Vec<&str> = first
        .split('$')
        .skip(1)
        .filter(|p| !p.chars().all(|c| c.is_ascii_digit()))
        .collect();
    format!("{unit}__{}", parts.join("__"))
}

/// Turn rust-hdl's Verilog for a unit into the checked-in form.
///
/// `header` lines are written as `//` comments at the top.
pub fn finish_verilog(unit: &str, raw: &str, header: &[String]) -> String {
    let mut modules = split_modules(raw);
    // Deduplicate bottom-up until nothing changes: identical leaves first,
    // then parents that became identical once their children were renamed.
    loop {
        let mut groups: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in &modules {
            if m.name == "top" {
                continue;
            }
            let body = replace_word(&m.text, &m.name, "@SELF@");
            groups.entry(body).or_default().insert(m.name.clone());
        }
        let mut renames: BTreeMap<String, String> = BTreeMap::new();
        for (body, members) in &groups {
            let sample = Module {
                name: String::new(),
                text: body.clone(),
            };
            let is_reg = reg_width(&sample).is_some();
            if members.len() < 2 && !is_reg {
                continue;
            }
            let mut name = group_name(unit, members, &sample).replace('$', "__");
            if members.len() == 1 && members.contains(&name) {
                continue;
            }
            // Keep the new name unique among module names.
            let taken: BTreeSet<String> = modules.iter().map(|m| m.name.clone()).collect();
            let base = name.clone();
            let mut k = 1;
            while taken.contains(&name) || renames.values().any(|v| v == &name) {
                name = format!("{base}_{k}");
                k += 1;
            }
            for m in members {
                renames.insert(m.clone(), name.clone());
            }
        }
        if renames.is_empty() {
            break;
        }
        let mut seen = BTreeSet::new();
        let mut next = Vec::new();
        for m in modules {
            let new_name = renames.get(&m.name).cloned();
            let mut text = m.text.clone();
            for (from, to) in &renames {
                if text.contains(from.as_str()) {
                    text = replace_word(&text, from, to);
                }
            }
            match new_name {
                Some(n) => {
                    if seen.insert(n.clone()) {
                        next.push(Module { name: n, text });
                    }
                }
                None => next.push(Module { name: m.name, text }),
            }
        }
        modules = next;
    }
    // Rename the remaining `top...` modules and strip `$`.
    let mut out = String::new();
    for h in header {
        out.push_str("// ");
        out.push_str(h);
        out.push('\n');
    }
    out.push_str("`default_nettype none\n\n");
    let names: Vec<String> = modules.iter().map(|m| m.name.clone()).collect();
    for m in &modules {
        let mut text = m.text.clone();
        for n in &names {
            if n == "top" {
                text = replace_word(&text, "top", unit);
            } else if let Some(rest) = n.strip_prefix("top$") {
                text = replace_word(&text, n, &format!("{unit}__{rest}"));
            }
        }
        let text = strip_dollars(&text);
        out.push_str(&text);
        out.push('\n');
    }
    out.push_str("`default_nettype wire\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_before_write_is_found() {
        let raw = "module top(a);\n    always @(*) begin\n        x = y;\n        y = a;\n        if (z) begin\n        end\n        z = 1'b1;\n    end\nendmodule // top\n";
        let p = check_comb_order(raw);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("`y`"));
        assert!(p[1].contains("`z`"));
        let ok = "module top(a);\n    always @(*) begin\n        y = a;\n        x = y;\n        y = 32'h7 + y;\n    end\nendmodule // top\n";
        assert!(check_comb_order(ok).is_empty());
    }

    #[test]
    fn dollars_become_double_underscores_but_system_calls_stay() {
        assert_eq!(
            strip_dollars("x$0$q = $signed(a$b);"),
            "x__0__q = $signed(a__b);"
        );
    }

    #[test]
    fn word_replacement_respects_boundaries() {
        assert_eq!(
            replace_word("top$a top topx (top)", "top", "u"),
            "top$a u topx (u)"
        );
    }

    #[test]
    fn identical_modules_are_merged() {
        let raw = "\
module top(clock);
    top$a$0 a$0(.clock(clock));
    top$a$1 a$1(.clock(clock));
endmodule // top
module top$a$0(clock);
    input wire clock;
endmodule // top$a$0
module top$a$1(clock);
    input wire clock;
endmodule // top$a$1
";
        let v = finish_verilog("u", raw, &[]);
        assert!(v.contains("module u(clock);"), "{v}");
        assert!(v.contains("module u__a(clock);"), "{v}");
        assert_eq!(
            v.lines().filter(|l| l.starts_with("module ")).count(),
            2,
            "{v}"
        );
        assert!(v.contains("u__a a__0("), "{v}");
        assert!(!v.contains('$'), "{v}");
    }
}
