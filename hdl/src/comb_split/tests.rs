//! Unit tests of the split pass on small modules.

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
