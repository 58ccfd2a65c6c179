//! Splitting each module's combinational `always` block so that a
//! simulator can schedule it signal by signal.
//!
//! rust-hdl writes all of a module's combinational logic as one
//! `always @(*)` block. When that block drives the inputs of a
//! combinational submodule and also reads the submodule's outputs, the
//! block depends on itself at block granularity: Verilator reports
//! `UNOPTFLAT` and re-evaluates the whole block until it settles, the main
//! cost of co-simulation speed. Event-driven simulators pay the same way.
//!
//! [`split_comb_blocks`] rewrites each such block as several `always @(*)`
//! blocks, one per *group* of assigned signals. A group holds a signal's
//! assignments with their enclosing `if` conditions, in the original
//! order. Splitting is exact when every read of a signal assigned by the
//! block sees the signal's final value; a read that comes before a later
//! assignment of the same signal (`y = a; x = y; y = b;`) sees an
//! intermediate value, so the reader and the signal are put in one group
//! (union-find), where the original order keeps that meaning. Reads before
//! the first assignment are refused earlier by
//! [`crate::emit::check_comb_order`].
//!
//! A group that reads nothing but constants (`localparam`s, literals and
//! its own signals) would have an empty sensitivity list, and an
//! event-driven simulator never runs such an `always @(*)` block (Icarus:
//! "@* found no sensitivities so it will never trigger"). Such a group is
//! written as continuous assignments instead: its signals are declared
//! `wire` and each gets `assign name = expression;`, with the group's `if`s
//! folded into `?:` in statement order.
//!
//! The pass understands the subset rust-hdl 0.46 emits inside such a
//! block: one assignment `name = expression;` per line and
//! `if (...) begin` / `end` / `else if (...) begin` / `else begin`. A block
//! with anything else is refused (an error naming the module and line), so
//! a change in rust-hdl's output cannot silently change behaviour.

use std::collections::{BTreeMap, BTreeSet};

/// One statement of a combinational block.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Stmt {
    /// `target = rhs;` (the whole line, trimmed, is kept as `text`).
    Assign {
        target: String,
        text: String,
        reads: BTreeSet<String>,
        pos: usize,
    },
    /// `if (cond) begin ... end [else ...]`; an `else if` chain is an
    /// `If` alone in `els`.
    If {
        cond: String,
        reads: BTreeSet<String>,
        pos: usize,
        then: Vec<Stmt>,
        els: Option<Vec<Stmt>>,
        /// The `else` branch was written `else if` (kept on output).
        else_if: bool,
    },
}

/// Identifiers of an expression (keywords, literals' base letters and
/// system functions excluded).
fn idents(t: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'$' {
            // System function (`$signed`): skip its name.
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            if start > 0 && b[start - 1] == b'\'' {
                continue;
            }
            out.insert(t[start..i].to_string());
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'\'' || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '$')
}

/// The condition of `if (COND) begin`, with `prefix` `if` or `else if`.
fn cond_of<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(prefix)?.trim_start();
    let inner = rest.strip_prefix('(')?.strip_suffix("begin")?.trim_end();
    inner.strip_suffix(')')
}

struct Parser<'a> {
    lines: Vec<&'a str>,
    at: usize,
    pos: usize,
    module: &'a str,
    first_line: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, what: &str) -> String {
        format!(
            "module {}: line {} of its combinational block (`{}`): {what}",
            self.module,
            self.first_line + self.at,
            self.lines.get(self.at).map(|l| l.trim()).unwrap_or("")
        )
    }

    /// Statements up to (not including) a line `end` at this level.
    fn block(&mut self) -> Result<Vec<Stmt>, String> {
        let mut out = Vec::new();
        while self.at < self.lines.len() {
            let line = self.lines[self.at].trim();
            if line.is_empty() {
                self.at += 1;
                continue;
            }
            if line == "end" {
                return Ok(out);
            }
            if let Some(cond) = cond_of(line, "if") {
                out.push(self.if_stmt(cond)?);
                continue;
            }
            if line.starts_with("else") {
                return Err(self.err("`else` without `if`"));
            }
            let Some((lhs, rhs)) = line.split_once(" = ") else {
                return Err(self.err("not an assignment or `if`"));
            };
            let lhs = lhs.trim();
            if !is_ident(lhs) || !rhs.ends_with(';') {
                return Err(self.err("not a one-line assignment to a whole signal"));
            }
            out.push(Stmt::Assign {
                target: lhs.to_string(),
                text: line.to_string(),
                reads: idents(rhs),
                pos: self.pos,
            });
            self.pos += 1;
            self.at += 1;
        }
        Err(self.err("block not closed by `end`"))
    }

    /// `if (cond) begin` at the current line, through its branches.
    fn if_stmt(&mut self, cond: &str) -> Result<Stmt, String> {
        let pos = self.pos;
        self.pos += 1;
        self.at += 1;
        let then = self.block()?;
        self.at += 1; // the `end`
        let next = self.lines.get(self.at).map(|l| l.trim()).unwrap_or("");
        let (els, else_if) = if let Some(c) = cond_of(next, "else if") {
            (Some(vec![self.if_stmt(c)?]), true)
        } else if next == "else begin" {
            self.at += 1;
            let b = self.block()?;
            self.at += 1;
            (Some(b), false)
        } else {
            (None, false)
        };
        Ok(Stmt::If {
            cond: cond.to_string(),
            reads: idents(cond),
            pos,
            then,
            els,
            else_if,
        })
    }
}

/// Union-find over signal names.
struct Groups {
    parent: BTreeMap<String, String>,
}

impl Groups {
    fn find(&mut self, x: &str) -> String {
        let p = self.parent.get(x).cloned().unwrap_or_else(|| x.to_string());
        if p == x {
            return p;
        }
        let r = self.find(&p);
        self.parent.insert(x.to_string(), r.clone());
        r
    }
    fn union(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Deterministic: the smaller name is the root.
            let (root, child) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent.insert(child, root);
        }
    }
}

/// Last assignment position of each target, and every target assigned.
fn last_writes(stmts: &[Stmt], out: &mut BTreeMap<String, usize>) {
    for s in stmts {
        match s {
            Stmt::Assign { target, pos, .. } => {
                let e = out.entry(target.clone()).or_insert(*pos);
                *e = (*e).max(*pos);
            }
            Stmt::If { then, els, .. } => {
                last_writes(then, out);
                if let Some(e) = els {
                    last_writes(e, out);
                }
            }
        }
    }
}

fn targets(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        match s {
            Stmt::Assign { target, .. } => {
                out.insert(target.clone());
            }
            Stmt::If { then, els, .. } => {
                targets(then, out);
                if let Some(e) = els {
                    targets(e, out);
                }
            }
        }
    }
}

/// Apply the grouping rules (see the module documentation).
fn group(stmts: &[Stmt], last: &BTreeMap<String, usize>, g: &mut Groups) {
    for s in stmts {
        match s {
            Stmt::Assign {
                target, reads, pos, ..
            } => {
                g.find(target);
                for r in reads {
                    if last.get(r).is_some_and(|&lw| lw > *pos) {
                        g.union(target, r);
                    }
                }
            }
            Stmt::If {
                reads,
                pos,
                then,
                els,
                ..
            } => {
                let mut inside = BTreeSet::new();
                targets(then, &mut inside);
                if let Some(e) = els {
                    targets(e, &mut inside);
                }
                for r in reads {
                    if last.get(r).is_some_and(|&lw| lw > *pos) {
                        for t in &inside {
                            g.union(t, r);
                        }
                    }
                }
                group(then, last, g);
                if let Some(e) = els {
                    group(e, last, g);
                }
            }
        }
    }
}

/// The statements of `stmts` that assign a member of group `root`.
fn slice(stmts: &[Stmt], root: &str, g: &mut Groups) -> Vec<Stmt> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::Assign { target, .. } => {
                if g.find(target) == root {
                    out.push(s.clone());
                }
            }
            Stmt::If {
                cond,
                reads,
                pos,
                then,
                els,
                else_if,
            } => {
                let t = slice(then, root, g);
                let e = els.as_ref().map(|e| slice(e, root, g));
                let e = e.filter(|e| !e.is_empty());
                if t.is_empty() && e.is_none() {
                    continue;
                }
                // An `else if` whose inner `if` was sliced away entirely
                // was dropped above; one that stays is still a lone `If`.
                let else_if = *else_if && e.as_ref().is_some_and(|e| e.len() == 1);
                out.push(Stmt::If {
                    cond: cond.clone(),
                    reads: reads.clone(),
                    pos: *pos,
                    then: t,
                    els: e,
                    else_if,
                });
            }
        }
    }
    out
}

fn write_stmts(stmts: &[Stmt], indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    for s in stmts {
        match s {
            Stmt::Assign { text, .. } => {
                out.push_str(&pad);
                out.push_str(text);
                out.push('\n');
            }
            Stmt::If { .. } => {
                out.push_str(&pad);
                write_if(s, indent, out);
            }
        }
    }
}

/// An `if` statement; the caller has written the indentation (and, for an
/// `else if`, the `else `).
fn write_if(s: &Stmt, indent: usize, out: &mut String) {
    let Stmt::If {
        cond,
        then,
        els,
        else_if,
        ..
    } = s
    else {
        unreachable!("write_if takes an If");
    };
    let pad = " ".repeat(indent);
    out.push_str(&format!("if ({cond}) begin\n"));
    write_stmts(then, indent + 4, out);
    out.push_str(&pad);
    out.push_str("end\n");
    if let Some(e) = els {
        if *else_if {
            out.push_str(&pad);
            out.push_str("else ");
            write_if(&e[0], indent, out);
        } else {
            out.push_str(&pad);
            out.push_str("else begin\n");
            write_stmts(e, indent + 4, out);
            out.push_str(&pad);
            out.push_str("end\n");
        }
    }
}

/// Every identifier read by `stmts` (assignments and conditions).
fn slice_reads(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        match s {
            Stmt::Assign { reads, .. } => out.extend(reads.iter().cloned()),
            Stmt::If {
                reads, then, els, ..
            } => {
                out.extend(reads.iter().cloned());
                slice_reads(then, out);
                if let Some(e) = els {
                    slice_reads(e, out);
                }
            }
        }
    }
}

/// Replace whole identifiers of `text` found in `env` by `(expression)`.
fn substitute(text: &str, env: &BTreeMap<String, String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            let w = &text[start..i];
            let literal = start > 0 && b[start - 1] == b'\'';
            match env.get(w) {
                Some(e) if !literal => {
                    out.push('(');
                    out.push_str(e);
                    out.push(')');
                }
                _ => out.push_str(w),
            }
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'\'' || b[i] == b'_') {
                i += 1;
            }
            out.push_str(&text[start..i]);
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// The final value of each target of `stmts` as one expression, executing
/// them in order (`if`s become `?:`). A target left unassigned on one path
/// of an `if` would be a latch: refused.
fn fold(stmts: &[Stmt], env: &mut BTreeMap<String, String>) -> Result<(), String> {
    for s in stmts {
        match s {
            Stmt::Assign { target, text, .. } => {
                let rhs = text
                    .split_once(" = ")
                    .map(|(_, r)| r.trim_end_matches(';').trim())
                    .unwrap_or_default();
                let e = substitute(rhs, env);
                env.insert(target.clone(), e);
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                let c = substitute(cond, env);
                let mut t = env.clone();
                fold(then, &mut t)?;
                let mut e = env.clone();
                if let Some(els) = els {
                    fold(els, &mut e)?;
                }
                let keys: BTreeSet<String> = t.keys().chain(e.keys()).cloned().collect();
                for k in keys {
                    match (t.get(&k), e.get(&k)) {
                        (Some(a), Some(b)) if a == b => {
                            env.insert(k, a.clone());
                        }
                        (Some(a), Some(b)) => {
                            env.insert(k, format!("({c}) ? ({a}) : ({b})"));
                        }
                        _ => return Err(format!("`{k}` is not assigned on every path")),
                    }
                }
            }
        }
    }
    Ok(())
}

/// Split one module's combinational block body (the lines between
/// `always @(*) begin` and its `end`) into blocks, as Verilog text at
/// indentation 4.
fn split_body(
    module: &str,
    body: &[&str],
    first_line: usize,
    constants: &BTreeSet<String>,
    wires: &mut BTreeSet<String>,
) -> Result<String, String> {
    let mut p = Parser {
        lines: body.to_vec(),
        at: 0,
        pos: 0,
        module,
        first_line,
    };
    // Parse with a sentinel `end` so `block` stops at the body's end.
    p.lines.push("end");
    let stmts = p.block()?;
    if p.at != body.len() {
        return Err(p.err("unexpected `end`"));
    }
    let mut last = BTreeMap::new();
    last_writes(&stmts, &mut last);
    let mut g = Groups {
        parent: BTreeMap::new(),
    };
    group(&stmts, &last, &mut g);
    // Groups in the order of their first statement.
    let mut order: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut all = Vec::new();
    fn in_order(stmts: &[Stmt], all: &mut Vec<String>) {
        for s in stmts {
            match s {
                Stmt::Assign { target, .. } => all.push(target.clone()),
                Stmt::If { then, els, .. } => {
                    in_order(then, all);
                    if let Some(e) = els {
                        in_order(e, all);
                    }
                }
            }
        }
    }
    in_order(&stmts, &mut all);
    for t in &all {
        let r = g.find(t);
        if seen.insert(r.clone()) {
            order.push(r);
        }
    }
    let mut out = String::new();
    for root in order {
        let s = slice(&stmts, &root, &mut g);
        let mut own = BTreeSet::new();
        targets(&s, &mut own);
        let mut reads = BTreeSet::new();
        slice_reads(&s, &mut reads);
        if reads
            .iter()
            .all(|r| own.contains(r) || constants.contains(r))
        {
            // No sensitivity: continuous assignments instead.
            let mut env = BTreeMap::new();
            fold(&s, &mut env).map_err(|e| format!("module {module}: {e}"))?;
            for (t, e) in env {
                out.push_str(&format!("    assign {t} = {e};\n"));
                wires.insert(t);
            }
            continue;
        }
        if let [Stmt::Assign { text, .. }] = s.as_slice() {
            out.push_str("    always @(*) ");
            out.push_str(text);
            out.push('\n');
        } else {
            out.push_str("    always @(*) begin\n");
            write_stmts(&s, 8, &mut out);
            out.push_str("    end\n");
        }
    }
    Ok(out)
}

/// Rewrite every multi-statement `always @(*) begin ... end` block of
/// `verilog` (the output of [`crate::emit::finish_verilog`]) as one block
/// per group of signals; see the module documentation. Everything else is
/// kept as it is.
pub fn split_comb_blocks(verilog: &str) -> Result<String, String> {
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 4);
    let mut module: Vec<&str> = Vec::new();
    for line in verilog.lines() {
        if line.starts_with("module ") || !module.is_empty() {
            module.push(line);
            if line.starts_with("endmodule") {
                out.push_str(&split_module(&module)?);
                module.clear();
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    for line in module {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// [`split_comb_blocks`] for the lines of one module.
fn split_module(lines: &[&str]) -> Result<String, String> {
    let name = lines[0]
        .strip_prefix("module ")
        .and_then(|r| r.split(['(', ';', ' ']).next())
        .unwrap_or("");
    let constants: BTreeSet<String> = lines
        .iter()
        .filter_map(|l| l.trim().strip_prefix("localparam"))
        .filter_map(|r| r.split('=').next())
        .map(|n| n.trim().to_string())
        .collect();
    let mut wires = BTreeSet::new();
    let mut body = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line == "    always @(*) begin" {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == "    end")
                .ok_or_else(|| format!("module {name}: combinational block not closed"))?;
            body.push_str(&split_body(
                name,
                &lines[i + 1..end],
                i + 2,
                &constants,
                &mut wires,
            )?);
            i = end + 1;
            continue;
        }
        body.push_str(line);
        body.push('\n');
        i += 1;
    }
    if wires.is_empty() {
        return Ok(body);
    }
    // Declare the continuously assigned signals `wire`.
    let mut out = String::with_capacity(body.len());
    let mut redeclared = BTreeSet::new();
    for line in body.lines() {
        let decl = line
            .trim_end()
            .strip_suffix(';')
            .and_then(|l| l.rsplit(' ').next())
            .filter(|n| wires.contains(*n));
        let lead = line.trim_start();
        if let (Some(n), true) = (
            decl,
            lead.starts_with("reg ") || lead.starts_with("output reg "),
        ) {
            out.push_str(&line.replacen("reg ", "wire ", 1));
            redeclared.insert(n.to_string());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if let Some(missing) = wires.difference(&redeclared).next() {
        return Err(format!(
            "module {name}: no `reg` declaration of `{missing}` to make a `wire`"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(body: &str) -> String {
        let v = format!("module m(a);\n    always @(*) begin\n{body}    end\nendmodule // m\n");
        split_comb_blocks(&v).unwrap()
    }

    #[test]
    fn independent_signals_get_their_own_blocks() {
        let v = split("        x = a;\n        c__in = x;\n        y = c__out & x;\n");
        assert_eq!(
            v,
            "module m(a);\n    always @(*) x = a;\n    always @(*) c__in = x;\n    always @(*) y = c__out & x;\nendmodule // m\n"
        );
    }

    #[test]
    fn conditions_are_repeated_per_group() {
        let v = split(
            "        x = 1'b0;\n        y = 1'b0;\n        if (s) begin\n            x = a;\n            y = b;\n        end\n        else if (t) begin\n            y = a;\n        end\n        else begin\n            x = b;\n        end\n",
        );
        let want = "\
module m(a);
    always @(*) begin
        x = 1'b0;
        if (s) begin
            x = a;
        end
        else if (t) begin
        end
        else begin
            x = b;
        end
    end
    always @(*) begin
        y = 1'b0;
        if (s) begin
            y = b;
        end
        else if (t) begin
            y = a;
        end
    end
endmodule // m
";
        // `x`'s slice keeps the empty `else if (t)`: its `else` means
        // `!s & !t`, not `!s`.
        assert_eq!(v, want);
    }

    #[test]
    fn else_if_chains_keep_their_conditions() {
        // `else if (t) y=..; else x=..;`: x's slice must keep `if (t)` so
        // that its `else` still means `!s & !t`.
        let v = split(
            "        x = 1'b0;\n        if (s) begin\n            y = a;\n        end\n        else if (t) begin\n            y = b;\n        end\n        else begin\n            x = b;\n        end\n        y = y;\n",
        );
        assert!(
            v.contains("if (t) begin\n        end\n        else begin\n            x = b;"),
            "{v}"
        );
    }

    #[test]
    fn intermediate_reads_keep_reader_and_signal_together() {
        let v = split("        y = a;\n        x = y;\n        y = b;\n        z = y;\n");
        assert_eq!(
            v,
            "module m(a);\n    always @(*) begin\n        y = a;\n        x = y;\n        y = b;\n    end\n    always @(*) z = y;\nendmodule // m\n"
        );
        // A condition read before a later write ties everything inside.
        let v = split(
            "        y = a;\n        if (y) begin\n            p = 1'b1;\n        end\n        y = b;\n        q = y;\n",
        );
        assert!(v.contains("        y = a;\n        if (y) begin\n            p = 1'b1;\n        end\n        y = b;\n"), "{v}");
    }

    #[test]
    fn groups_without_sensitivity_become_continuous_assignments() {
        let v = "module m(a,o);\n    output reg  [1:0] o;\n    reg  x;\n    reg  y;\n    localparam  k = 2'b1;\n    localparam  en = 1'b1;\n    always @(*) begin\n        o = k;\n        if (en) begin\n            o = o + k;\n        end\n        x = 1'b0;\n        y = a & x;\n    end\nendmodule // m\n";
        let s = split_comb_blocks(v).unwrap();
        assert!(s.contains("    output wire  [1:0] o;\n"), "{s}");
        assert!(s.contains("    wire  x;\n    reg  y;\n"), "{s}");
        assert!(
            s.contains("    assign o = (en) ? ((k) + k) : (k);\n"),
            "{s}"
        );
        assert!(s.contains("    assign x = 1'b0;\n"), "{s}");
        assert!(s.contains("    always @(*) y = a & x;\n"), "{s}");
    }

    #[test]
    fn unknown_statements_are_refused() {
        let v = "module m(a);\n    always @(*) begin\n        case (a)\n    end\nendmodule\n";
        let e = split_comb_blocks(v).unwrap_err();
        assert!(e.contains("module m") && e.contains("case (a)"), "{e}");
    }

    #[test]
    fn system_functions_and_literals_are_not_reads() {
        let r = idents("$signed(a) + 32'hdead + b__c");
        assert_eq!(r.into_iter().collect::<Vec<_>>(), vec!["a", "b__c"]);
    }
}

/// The split pass against its meaning: a random combinational block in
/// rust-hdl's subset, executed once in order, must leave every signal with
/// the value the split blocks settle to.
#[cfg(test)]
mod equivalence {
    use super::*;
    use proptest::prelude::*;

    const INPUTS: [&str; 3] = ["i0", "i1", "i2"];
    const SIGNALS: [&str; 5] = ["s0", "s1", "s2", "s3", "s4"];
    const CONSTS: [(&str, u8); 2] = [("k0", 3), ("k1", 250)];

    /// An operand: an input, a signal, a constant or a literal.
    fn operand() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(INPUTS.to_vec()).prop_map(str::to_string),
            prop::sample::select(SIGNALS.to_vec()).prop_map(str::to_string),
            prop::sample::select(vec!["k0", "k1"]).prop_map(str::to_string),
            (0u8..8).prop_map(|v| format!("8'd{v}")),
        ]
    }

    fn expr() -> impl Strategy<Value = String> {
        (
            operand(),
            prop::sample::select(vec!["+", "&", "^", "|", "=="]),
            operand(),
        )
            .prop_map(|(a, op, b)| format!("{a} {op} {b}"))
    }

    #[derive(Clone, Debug)]
    enum G {
        Assign(usize, String),
        If(String, Vec<G>, Vec<G>, bool),
    }

    fn stmts(depth: u32) -> BoxedStrategy<Vec<G>> {
        let assign = || (0..SIGNALS.len(), expr()).prop_map(|(t, e)| G::Assign(t, e));
        let leaf = prop::collection::vec(assign(), 0..4).boxed();
        if depth == 0 {
            return leaf;
        }
        let stmt = prop_oneof![
            3 => assign(),
            1 => (expr(), stmts(depth - 1), stmts(depth - 1), any::<bool>())
                .prop_map(|(c, t, e, has_else)| G::If(c, t, e, has_else)),
        ];
        prop::collection::vec(stmt, 0..5).boxed()
    }

    fn write(g: &[G], indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        for s in g {
            match s {
                G::Assign(t, e) => out.push_str(&format!("{pad}{} = {e};\n", SIGNALS[*t])),
                G::If(c, t, e, has_else) => {
                    out.push_str(&format!("{pad}if ({c}) begin\n"));
                    write(t, indent + 4, out);
                    out.push_str(&format!("{pad}end\n"));
                    if *has_else {
                        // An `else if` chain when the else branch is one `if`.
                        if let [G::If(..)] = e.as_slice() {
                            let mut inner = String::new();
                            write(e, indent, &mut inner);
                            out.push_str(&format!("{pad}else {}", inner.trim_start()));
                        } else {
                            out.push_str(&format!("{pad}else begin\n"));
                            write(e, indent + 4, out);
                            out.push_str(&format!("{pad}end\n"));
                        }
                    }
                }
            }
        }
    }

    /// Evaluate an expression of the test's grammar (operands, the five
    /// operators, parentheses, `?:`), 8-bit wrapping.
    fn eval(e: &str, env: &BTreeMap<String, u8>) -> u8 {
        let toks = tokens(e);
        let mut pos = 0;
        let v = ternary(&toks, &mut pos, env);
        assert_eq!(pos, toks.len(), "trailing tokens in `{e}`");
        v
    }

    fn tokens(e: &str) -> Vec<String> {
        let mut out = Vec::new();
        let b: Vec<char> = e.chars().collect();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_whitespace() {
                i += 1;
            } else if c.is_ascii_alphanumeric() || c == '_' || c == '\'' {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == '_' || b[i] == '\'') {
                    i += 1;
                }
                out.push(b[s..i].iter().collect());
            } else if c == '=' {
                out.push("==".into());
                i += 2;
            } else {
                out.push(c.to_string());
                i += 1;
            }
        }
        out
    }

    fn ternary(t: &[String], p: &mut usize, env: &BTreeMap<String, u8>) -> u8 {
        let c = binary(t, p, env);
        if t.get(*p).map(String::as_str) == Some("?") {
            *p += 1;
            let a = ternary(t, p, env);
            assert_eq!(t[*p], ":");
            *p += 1;
            let b = ternary(t, p, env);
            return if c != 0 { a } else { b };
        }
        c
    }

    /// Left to right, no precedence: the generator never mixes operators
    /// without parentheses except in `a op b`.
    fn binary(t: &[String], p: &mut usize, env: &BTreeMap<String, u8>) -> u8 {
        let mut v = atom(t, p, env);
        while let Some(op) = t
            .get(*p)
            .filter(|o| ["+", "&", "^", "|", "=="].contains(&o.as_str()))
        {
            let op = op.clone();
            *p += 1;
            let r = atom(t, p, env);
            v = match op.as_str() {
                "+" => v.wrapping_add(r),
                "&" => v & r,
                "^" => v ^ r,
                "|" => v | r,
                _ => u8::from(v == r),
            };
        }
        v
    }

    fn atom(t: &[String], p: &mut usize, env: &BTreeMap<String, u8>) -> u8 {
        let tok = t[*p].clone();
        *p += 1;
        if tok == "(" {
            let v = ternary(t, p, env);
            assert_eq!(t[*p], ")");
            *p += 1;
            return v;
        }
        if let Some(v) = tok.strip_prefix("8'd") {
            return v.parse().unwrap();
        }
        *env.get(&tok).unwrap_or_else(|| panic!("unknown `{tok}`"))
    }

    fn run(stmts: &[Stmt], env: &mut BTreeMap<String, u8>) {
        for s in stmts {
            match s {
                Stmt::Assign { target, text, .. } => {
                    let rhs = text.split_once(" = ").unwrap().1.trim_end_matches(';');
                    let v = eval(rhs, env);
                    env.insert(target.clone(), v);
                }
                Stmt::If {
                    cond, then, els, ..
                } => {
                    if eval(cond, env) != 0 {
                        run(then, env);
                    } else if let Some(e) = els {
                        run(e, env);
                    }
                }
            }
        }
    }

    fn parse(module: &str, lines: &[&str]) -> Vec<Stmt> {
        let mut p = Parser {
            lines: lines.to_vec(),
            at: 0,
            pos: 0,
            module,
            first_line: 0,
        };
        p.lines.push("end");
        p.block().unwrap()
    }

    /// Every block of the split module, settled: each `always` block and
    /// `assign` evaluated in turn until nothing changes.
    fn settle(split: &str, env: &mut BTreeMap<String, u8>) {
        let lines: Vec<&str> = split.lines().collect();
        let mut blocks: Vec<Vec<Stmt>> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i];
            if l == "    always @(*) begin" {
                let end = (i + 1..lines.len())
                    .find(|&j| lines[j] == "    end")
                    .unwrap();
                blocks.push(parse("m", &lines[i + 1..end]));
                i = end + 1;
                continue;
            }
            let one = l
                .strip_prefix("    always @(*) ")
                .or_else(|| l.strip_prefix("    assign "));
            if let Some(a) = one {
                blocks.push(parse("m", &[a]));
            }
            i += 1;
        }
        for _ in 0..=blocks.len() + 1 {
            let before = env.clone();
            for b in &blocks {
                run(b, env);
            }
            if *env == before {
                return;
            }
        }
        panic!("the split blocks do not settle:\n{split}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn split_blocks_settle_to_the_sequential_values(
            defaults in prop::collection::vec(operand(), SIGNALS.len()),
            body in stmts(2),
            inputs in prop::collection::vec(any::<u8>(), INPUTS.len()),
        ) {
            // Every signal is assigned first (rust-hdl writes defaults),
            // from inputs, constants, literals or earlier signals only.
            let mut text = String::new();
            for (k, d) in defaults.iter().enumerate() {
                let d = if SIGNALS[k..].contains(&d.as_str()) { "i0" } else { d.as_str() };
                text.push_str(&format!("        {} = {d};\n", SIGNALS[k]));
            }
            write(&body, 8, &mut text);
            let mut module = String::from("module m(i0,i1,i2);\n");
            for (k, v) in CONSTS {
                module.push_str(&format!("    localparam  {k} = 8'd{v};\n"));
            }
            for s in SIGNALS {
                module.push_str(&format!("    reg  [7:0] {s};\n"));
            }
            module.push_str(&format!("    always @(*) begin\n{text}    end\nendmodule // m\n"));

            let mut env: BTreeMap<String, u8> = CONSTS.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            for (n, v) in INPUTS.iter().zip(&inputs) {
                env.insert(n.to_string(), *v);
            }
            let mut seq = env.clone();
            let body_lines: Vec<&str> = text.lines().collect();
            run(&parse("m", &body_lines), &mut seq);

            let split = split_comb_blocks(&module).unwrap();
            let mut par = env.clone();
            for s in SIGNALS {
                par.insert(s.to_string(), 0);
            }
            settle(&split, &mut par);
            for s in SIGNALS {
                prop_assert_eq!(seq[s], par[s], "signal {} differs\n{}\n---\n{}", s, module, split);
            }
        }
    }
}
