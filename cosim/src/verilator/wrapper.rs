//! The C++ wrapper: an `extern "C"` interface to the Verilated class,
//! generated from the template `wrapper.cpp`.

use super::flags::WRAPPER_VERSION;
use super::header::HeaderPort;
use crate::backend::CYCLE_TIME;
use std::fmt::Write as _;

/// The template file as written: a leading `/* ... */` comment explaining
/// the placeholders, then the template proper.
const TEMPLATE_FILE: &str = include_str!("wrapper.cpp");

/// The wrapper template: [`TEMPLATE_FILE`] without its leading comment
/// (through the line ending in `*/`). Its `@...@` fields are filled in by
/// [`wrapper_source`]:
///
/// - `@ABI@`: [`WRAPPER_VERSION`];
/// - `@TOP@`: the top module's name (the Verilated class is `V@TOP@`);
/// - `@NIN@`, `@NOUT@`: the number of inputs (excluding `clock`) and outputs;
/// - `@CYCLE@`: [`CYCLE_TIME`];
/// - `@TRACE@`: `1` for a model Verilated with `--trace`, else `0`;
/// - `@PREV_CLOCK@`, `@ONE_EVAL@`: the root-class member of Verilator's
///   clock edge detector (see [`prev_clock_member`]) and `1`, or nothing
///   and `0`;
/// - the line `@SET_INPUTS@`: one assignment line per input, from `in[i]`;
/// - the line `@GET_OUTPUTS@`: one assignment line per output, to `out[i]`.
///
/// Cached models are keyed by [`WRAPPER_VERSION`], not by this text: bump it
/// whenever the template (or the C ABI) changes.
fn wrapper_template() -> &'static str {
    TEMPLATE_FILE
        .strip_prefix("/*")
        .and_then(|rest| rest.split_once("*/\n"))
        .map_or(TEMPLATE_FILE, |(_, template)| template)
}

/// The C++ wrapper of the Verilated class `V<top>` whose inputs and
/// outputs, in list order, are `ins` and `outs`; `trace` if the model was
/// Verilated with `--trace` (VCD support compiled in); `prev_clock` the
/// edge detector's member ([`prev_clock_member`]), if found.
pub(super) fn wrapper_source(
    top: &str,
    ins: &[&HeaderPort],
    outs: &[&HeaderPort],
    trace: bool,
    prev_clock: Option<&str>,
) -> String {
    let mut set = String::new();
    for (i, h) in ins.iter().enumerate() {
        let ctype = h.ctype.unwrap_or("QData");
        let _ = writeln!(
            set,
            "    top->{} = static_cast<{ctype}>(in[{i}] & {:#x}ULL);",
            h.member,
            ports::mask(h.width)
        );
    }
    let mut get = String::new();
    for (i, h) in outs.iter().enumerate() {
        let _ = writeln!(
            get,
            "    out[{i}] = static_cast<uint64_t>(top->{});",
            h.member
        );
    }
    wrapper_template()
        .replace("@TOP@", top)
        .replace("@ABI@", &WRAPPER_VERSION.to_string())
        .replace("@NIN@", &ins.len().to_string())
        .replace("@NOUT@", &outs.len().to_string())
        .replace("@CYCLE@", &CYCLE_TIME.to_string())
        .replace("@TRACE@", if trace { "1" } else { "0" })
        .replace("@PREV_CLOCK@", prev_clock.unwrap_or(""))
        .replace("@ONE_EVAL@", if prev_clock.is_some() { "1" } else { "0" })
        .replace("@SET_INPUTS@\n", &set)
        .replace("@GET_OUTPUTS@\n", &get)
}

/// Names Verilator 5 gives the root-class member that records the clock's
/// value at the previous evaluation, to detect its rising edge: 5.006
/// writes `__Vtrigrprev__TOP__clock`, later releases
/// `__Vtrigprevexpr___TOP__clock__0`.
const PREV_CLOCK_MEMBERS: [&str; 2] = [
    "__Vtrigrprev__TOP__clock",
    "__Vtrigprevexpr___TOP__clock__0",
];

/// The member of the Verilated root class (`root_header`, the text of
/// `V<top>___024root.h`) that holds the clock's previous value, if it has
/// one of the known names and is the model's only edge detector. With it
/// the wrapper runs a cycle in one evaluation (it clears the member and
/// raises the clock); without it, in two (clock low, then high), which is
/// correct with any Verilator. A model with other detectors (Verilator
/// `-O0` keeps one per submodule clock alias) would miss the edge on
/// those, so it gets two evaluations.
pub(super) fn prev_clock_member(root_header: &str) -> Option<&'static str> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // Every member declared with a detector prefix, as whole identifiers.
    let mut detectors = Vec::new();
    for prefix in ["__Vtrigrprev__", "__Vtrigprevexpr"] {
        for (i, _) in root_header.match_indices(prefix) {
            if root_header[..i].ends_with(is_ident) {
                continue;
            }
            let end = root_header[i..]
                .find(|c: char| !is_ident(c))
                .map_or(root_header.len(), |n| i + n);
            detectors.push(&root_header[i..end]);
        }
    }
    detectors.sort_unstable();
    detectors.dedup();
    match detectors.as_slice() {
        [only] => PREV_CLOCK_MEMBERS.into_iter().find(|m| m == only),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::header::HDir;
    use super::*;

    #[test]
    fn template_comment_is_stripped_and_every_field_filled() {
        assert!(
            wrapper_template().starts_with(
                "// Generated by warpgen (cosim::verilator), wrapper version @ABI@. Do not edit.\n"
            ),
            "{}",
            wrapper_template()
        );
        let port = |member: &str, dir, ctype, width| HeaderPort {
            member: member.to_string(),
            name: member.to_string(),
            dir,
            ctype,
            width,
        };
        let a = port("a", HDir::In, Some("CData"), 3);
        let q = port("q", HDir::Out, Some("QData"), 40);
        let s = wrapper_source("t", &[&a], &[&q], true, None);
        assert!(!s.contains('@'), "{s}");
        assert!(s.contains("#include \"Vt.h\"\n"), "{s}");
        assert!(s.contains("\n    top->clock = 0;\n    top->a = static_cast<CData>(in[0] & 0x7ULL);\n    top->eval();\n    out[0] = static_cast<uint64_t>(top->q);\n#if WG_TRACE\n    if (m->tfp)"), "{s}");
        assert!(s.contains("#define WG_TRACE 1\n"), "{s}");
        assert!(s.contains("#define WG_ONE_EVAL (!WG_TRACE && 0)\n"), "{s}");
        let u = wrapper_source("t", &[&a], &[&q], false, Some("__Vtrigrprev__TOP__clock"));
        assert!(
            u.contains("#define WG_TRACE 0\n") && !u.contains('@'),
            "{u}"
        );
        assert!(u.contains("#define WG_ONE_EVAL (!WG_TRACE && 1)\n"), "{u}");
        assert!(
            u.contains("#define WG_PREV_CLOCK __Vtrigrprev__TOP__clock\n"),
            "{u}"
        );
        // One evaluation: outputs first, then inputs, then the edge.
        assert!(u.contains("    out[0] = static_cast<uint64_t>(top->q);\n    top->a = static_cast<CData>(in[0] & 0x7ULL);\n    top->clock = 1;\n    top->rootp->WG_PREV_CLOCK = 0;\n    top->eval();\n"), "{u}");
    }

    #[test]
    fn edge_detector_member_is_found_by_whole_name() {
        let h = "    CData/*0:0*/ __Vtrigrprev__TOP__clock;\n";
        assert_eq!(prev_clock_member(h), Some("__Vtrigrprev__TOP__clock"));
        let h = "    CData/*0:0*/ __Vtrigprevexpr___TOP__clock__0;\n";
        assert_eq!(
            prev_clock_member(h),
            Some("__Vtrigprevexpr___TOP__clock__0")
        );
        assert_eq!(
            prev_clock_member("    CData __Vtrigrprev__TOP__clock_x;\n"),
            None
        );
        assert_eq!(prev_clock_member(""), None);
    }
}
