//! A rust-hdl trap: a `Bits<1>` signal is declared without a range
//! (`reg s_resv__q;`) but `get_bit(0)` still emits a bit-select
//! (`s_resv__q[0]`), which Verilog forbids on a scalar: Verilator stops
//! with "Illegal bit or array select" (Yosys accepts it). This happens when
//! a width parameter is 1 (`ba_tag_array` with `WAYS = 1`).
//! [`range_bit_selected_scalars`] gives exactly those declarations the
//! range `[0:0]`, which means the same one bit; every other line is left
//! as it is, so Verilog that never bit-selects a scalar is unchanged.

/// Whether `c` can be part of a Verilog identifier.
fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Whether `text` selects a bit or part of `name` (`name[`), as a whole
/// identifier.
fn bit_selected(text: &str, name: &str) -> bool {
    let pat = format!("{name}[");
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(&pat) {
        let at = from + i;
        if at == 0 || !ident(bytes[at - 1]) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The scalar a declaration line declares (`reg x;`, `wire x;`, `input
/// wire x;`, `output reg x;`, `output wire x;`), if it is one.
fn scalar_declared(line: &str) -> Option<&str> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let name = toks.last()?.strip_suffix(';')?;
    let kinds: &[&str] = &toks[..toks.len() - 1];
    let ok = matches!(
        kinds,
        ["reg"] | ["wire"] | ["input", "wire"] | ["output", "reg"] | ["output", "wire"]
    );
    (ok && !name.is_empty() && name.bytes().all(ident)).then_some(name)
}

/// `verilog` with `[0:0]` added to the declaration of every scalar that
/// its module bit-selects (module by module).
pub fn range_bit_selected_scalars(verilog: &str) -> String {
    let lines: Vec<&str> = verilog.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("module ") {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        }
        let mut end = i;
        while end + 1 < lines.len() && !lines[end].starts_with("endmodule") {
            end += 1;
        }
        let body = lines[i..=end].join("\n");
        for line in &lines[i..=end] {
            match scalar_declared(line) {
                Some(name) if bit_selected(&body, name) => {
                    let at = line.rfind(name).unwrap_or(0);
                    out.push(format!("{}[0:0] {}", &line[..at], &line[at..]));
                }
                _ => out.push(line.to_string()),
            }
        }
        i = end + 1;
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bit_selected_scalars_get_a_range() {
        let v = "module m(a, b);\n    input wire  a;\n    input wire  [3:0] b;\n    reg s;\n    reg t;\n    reg ts;\n    always @(*) t = a & s[0] & b[1] & xts[0];\nendmodule\n";
        let got = range_bit_selected_scalars(v);
        assert!(got.contains("    reg [0:0] s;\n"), "{got}");
        assert!(got.contains("    reg t;\n"), "not bit-selected: {got}");
        assert!(
            got.contains("    reg ts;\n"),
            "xts[0] is another name: {got}"
        );
        assert!(got.contains("    input wire  a;\n"));
        assert!(got.contains("    input wire  [3:0] b;\n"));
        assert_eq!(got.len(), v.len() + "[0:0] ".len());
        // Nothing to do: the same text.
        let clean = "module m(a);\n    input wire  a;\nendmodule\n";
        assert_eq!(range_bit_selected_scalars(clean), clean);
    }

    #[test]
    fn a_port_is_ranged_in_its_own_module_only() {
        let v = "module a(x);\n    input wire  x;\n    wire y = x[0];\nendmodule\nmodule b(x);\n    input wire  x;\nendmodule\n";
        let got = range_bit_selected_scalars(v);
        assert!(
            got.contains("module a(x);\n    input wire  [0:0] x;"),
            "{got}"
        );
        assert!(got.contains("module b(x);\n    input wire  x;"), "{got}");
    }
}
