//! What a trace holds that the harness replays but cannot place: opcodes
//! that are not SASS ([`super::sass`]) and register tokens it cannot number
//! ([`trace_reg`]). Neither stops a run; each distinct one becomes one
//! warning on the [`KernelTrace`](super::KernelTrace), naming the first
//! line it is on and how many lines have it.

use std::collections::HashMap;

use super::format::trace_reg;
use crate::config::InstrClass;

/// At most this many warnings of each kind (opcodes, registers) are
/// spelled out; one more line counts the rest.
pub const MAX_WARNINGS_PER_KIND: usize = 20;

/// Where a token was first seen and how many lines have it.
struct Seen {
    /// The first line.
    line: usize,
    /// The token on that line (a full opcode: `FOO.X`).
    first: String,
    /// The field (`reg_dests`, `reg_srcs`; empty for an opcode).
    field: &'static str,
    /// Lines that have it.
    lines: u64,
    /// The last line counted (a token twice on one line counts once).
    last: usize,
    /// How many distinct tokens were seen before it (the order on a line).
    order: usize,
}

/// The unknown opcodes and unreadable registers of one trace, as read.
#[derive(Default)]
pub(super) struct TraceNotes {
    /// By opcode base (`FOO` of `FOO.X`).
    ops: HashMap<String, Seen>,
    /// By register token (`R-1`).
    regs: HashMap<String, Seen>,
}

/// Whether a register token that [`trace_reg`] does not number carries no
/// dependence on purpose: the zero registers (`RZ`, `URZ`), the true
/// predicates (`PT`, `UPT`, also negated: `!PT`) and the special registers
/// (`SR_*`, `SRZ`).
pub fn is_non_register(token: &str) -> bool {
    let t = token.trim_start_matches('!').trim_start_matches('-');
    matches!(t, "RZ" | "URZ" | "PT" | "UPT" | "SRZ") || t.starts_with("SR_")
}

fn note(map: &mut HashMap<String, Seen>, key: &str, ln: usize, first: &str, field: &'static str) {
    match map.get_mut(key) {
        Some(s) => {
            if s.last != ln {
                s.lines += 1;
                s.last = ln;
            }
        }
        None => {
            let order = map.len();
            map.insert(
                key.to_string(),
                Seen {
                    line: ln,
                    first: first.to_string(),
                    field,
                    lines: 1,
                    last: ln,
                    order,
                },
            );
        }
    }
}

impl TraceNotes {
    /// The opcode of line `ln`: noted when its base is not SASS and the
    /// harness gives it no class of its own (it would be timed as ALU).
    pub(super) fn opcode(&mut self, ln: usize, opcode: &str) {
        let base = opcode.split('.').next().unwrap_or("");
        // `InstrClass::of_sass` places a few opcodes newer than Accel-Sim's
        // tables (HGMMA): those are not timed as ALU by default.
        if !super::sass::is_known(base) && InstrClass::of_sass(opcode) == InstrClass::Alu {
            note(&mut self.ops, base, ln, opcode, "");
        }
    }

    /// A register token of line `ln` (in `field`): noted when it is neither
    /// a register [`trace_reg`] numbers nor one of [`is_non_register`].
    pub(super) fn register(&mut self, ln: usize, token: &str, field: &'static str) {
        if trace_reg(token).is_none() && !is_non_register(token) {
            note(&mut self.regs, token, ln, token, field);
        }
    }

    /// The warnings, opcodes first, each kind by first line; `file` names
    /// the trace.
    pub(super) fn warnings(self, file: &str) -> Vec<String> {
        let lines = |n: u64| {
            if n == 1 {
                "1 line has it".to_string()
            } else {
                format!("{n} lines have it")
            }
        };
        let mut out = sorted(self.ops, "unknown SASS opcodes", file, |s| {
            format!(
                "`{}` ({file}:{}): unknown SASS opcode (not in Accel-Sim's ISA tables), \
                 replayed as an ALU instruction (latency alu); {}",
                s.first,
                s.line,
                lines(s.lines)
            )
        });
        out.extend(sorted(self.regs, "unreadable register tokens", file, |s| {
            format!(
                "`{}` ({file}:{}, {}): not a register (R0-R255, P0-P7, UR0-UR63, UP0-UP7, \
                 B0-B15; RZ, URZ, PT, UPT and SR_* carry no dependence), left out of the \
                 instruction's dependencies; {}",
                s.first,
                s.line,
                s.field,
                lines(s.lines)
            )
        }));
        out
    }
}

/// One warning per entry of `map` by first line (in reading order), at most
/// [`MAX_WARNINGS_PER_KIND`] and a count of the rest (`what`).
fn sorted(
    map: HashMap<String, Seen>,
    what: &str,
    file: &str,
    say: impl Fn(&Seen) -> String,
) -> Vec<String> {
    let mut seen: Vec<Seen> = map.into_values().collect();
    // By first line, then by order on it: never the map's own order.
    seen.sort_by_key(|s| (s.line, s.order));
    let mut out: Vec<String> = seen.iter().take(MAX_WARNINGS_PER_KIND).map(say).collect();
    if let Some(s) = seen.get(MAX_WARNINGS_PER_KIND) {
        out.push(format!(
            "{} more {what} in {file}, the first at line {} (only the first \
             {MAX_WARNINGS_PER_KIND} are named)",
            seen.len() - MAX_WARNINGS_PER_KIND,
            s.line
        ));
    }
    out
}
