//! The Verilator lint waivers of the emitted Verilog (`conventions.md`).

use eda::Waiver;

/// Verilator lint categories waived for every unit, each with its reason
/// (`conventions.md`: any waiver is a named category with a reason; WIDTH is
/// never waived). `UNOPTFLAT` is not waived: emission splits combinational
/// blocks ([`hdl::comb_split`]) so no block-level loop remains.
pub const LINT_WAIVERS: &[Waiver] = &[Waiver {
    category: "DECLFILENAME",
    reason: "one file per unit holds the unit and its submodules (conventions.md); \
                 only the top module can match the file name",
}];
