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
mod tests;

#[cfg(test)]
mod equivalence;
