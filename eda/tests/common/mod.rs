//! Fixtures and helpers shared by the integration tests.

#![allow(dead_code)]

use eda::{tool_available, Tool};

/// Set this to make a missing tool a test failure instead of a skip (CI).
pub const REQUIRE_ENV: &str = "WARPGEN_REQUIRE_EDA_TOOLS";

/// Whether all `tools` are installed; prints a skip notice if not (or panics
/// when `$WARPGEN_REQUIRE_EDA_TOOLS` is set).
pub fn have(tools: &[Tool]) -> bool {
    for &tool in tools {
        if !tool_available(tool) {
            let msg = format!(
                "SKIPPED: {tool} is not installed (apt-get install {})",
                tool.package()
            );
            if std::env::var_os(REQUIRE_ENV).is_some() {
                panic!("{msg}, but ${REQUIRE_ENV} is set");
            }
            eprintln!("{msg}");
            return false;
        }
    }
    true
}

/// The PDK README's NanGate45 area for [`COUNTER`] (Yosys 0.23).
pub const COUNTER_AREA_UM2: f64 = 27.664;

/// 4-bit counter with synchronous, active-high reset.
pub const COUNTER: &str = "\
module counter (
    input  wire       clock,
    input  wire       reset,
    output reg  [3:0] count
);
    always @(posedge clock) begin
        if (reset)
            count <= 4'd0;
        else
            count <= count + 4'd1;
    end
endmodule
";

/// Incomplete combinational assignment: infers a 4-bit latch.
pub const LATCHY: &str = "\
module latchy (
    input  wire       en,
    input  wire [3:0] d,
    output reg  [3:0] q
);
    always @(*) begin
        if (en)
            q = d;
    end
endmodule
";

/// An 8-bit value assigned to a 4-bit output (line 6).
pub const WIDTHY: &str = "\
module widthy (
    input  wire [7:0] a,
    output wire [3:0] y
);
    /* verilator lint_off UNUSEDSIGNAL */
    assign y = a;
endmodule
";

/// An input that is never read: an UNUSEDSIGNAL warning and nothing else.
pub const UNUSED: &str = "\
module unused (
    input  wire a,
    input  wire b,
    output wire y
);
    assign y = a;
endmodule
";

/// A missing semicolon; the error is reported at line 6 (`endmodule`).
pub const BAD: &str = "\
module bad (
    input  wire a,
    output wire y
);
    assign y = a
endmodule
";

/// Two instances of a submodule named by the `<unit>__` convention.
pub const HIER: &str = "\
module hier__stage (
    input  wire       clock,
    input  wire       reset,
    input  wire [2:0] d,
    output reg  [2:0] q
);
    always @(posedge clock) begin
        if (reset)
            q <= 3'd0;
        else
            q <= d;
    end
endmodule

module hier (
    input  wire       clock,
    input  wire       reset,
    input  wire [2:0] d,
    output wire [2:0] q
);
    wire [2:0] mid;
    hier__stage s0 (.clock(clock), .reset(reset), .d(d), .q(mid));
    hier__stage s1 (.clock(clock), .reset(reset), .d(mid), .q(q));
endmodule
";

/// Self-checking test bench for [`COUNTER`]: prints PASS, or FAIL and `$fatal`.
/// `EXPECT_OFFSET` shifts the expectation (0 = correct, 1 = a deliberately
/// failing bench).
pub fn counter_tb(expect_offset: u32) -> String {
    format!(
        "\
`timescale 1ns/1ps
module counter_tb;
    reg        clock;
    reg        reset;
    wire [3:0] count;
    integer    errors;
    integer    i;

    counter dut (.clock(clock), .reset(reset), .count(count));

    initial begin
        clock = 1'b0;
        forever #5 clock = ~clock;
    end

    initial begin
        errors = 0;
        reset = 1'b1;
        @(posedge clock);
        @(posedge clock);
        #1;
        if (count !== 4'd0) begin
            errors = errors + 1;
            $display(\"FAIL: count=%0d after reset\", count);
        end
        reset = 1'b0;
        for (i = 1; i <= 20; i = i + 1) begin
            @(posedge clock);
            #1;
            if (count !== i[3:0] + 4'd{expect_offset}) begin
                errors = errors + 1;
                $display(\"FAIL: cycle %0d count=%0d\", i, count);
            end
        end
        if (errors == 0) begin
            $display(\"PASS\");
        end else begin
            $display(\"FAIL: %0d errors\", errors);
            $fatal(1, \"counter_tb failed\");
        end
        $finish;
    end
endmodule
"
    )
}
