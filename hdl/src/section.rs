//! A unit's combinational kernel written in sections.
//!
//! rust-hdl's `#[hdl_gen]` turns one `update` function into three: the
//! simulation's `update`, the `connect` pass of the structural checks and
//! `hdl`, the Verilog of the module's `always @(*)` block. A long kernel is
//! written as several sections instead, each an `impl Section<Marker> for
//! Unit` holding one `#[hdl_gen] fn update` (the marker is an empty type
//! naming the section). `sections!` writes the unit's `Logic` impl: it runs
//! the sections' `update` and `connect` in order and emits their statements,
//! in the same order, as one combinational block ([`concat()`]). The Verilog
//! is the one the single long function would give, statement for statement.
//!
//! The unit's `Logic` impl names each section through the trait
//! (`<Self as Section<Marker>>::update`), never by a method call: the
//! `LogicBlock` derive calls `self.update()`, which must stay
//! `Logic::update`. So a unit's top does not import [`Section`]; only the
//! section files do.

use rust_hdl::core::ast::Verilog;

/// One section of a unit's combinational kernel; `M` is the section's
/// marker type. Implemented with `#[hdl_gen] fn update`, which writes
/// `connect` and `hdl`.
pub trait Section<M> {
    /// Simulate the section's statements.
    fn update(&mut self);
    /// rust-hdl's connection pass over the section's statements.
    fn connect(&mut self);
    /// The section's statements as a combinational Verilog block.
    fn hdl(&self) -> Verilog;
}

/// The combinational blocks `parts` as one block, their statements in
/// order. Panics on anything other than a combinational block (what
/// `#[hdl_gen]` emits).
pub fn concat(parts: Vec<Verilog>) -> Verilog {
    let mut block = Vec::new();
    for part in parts {
        match part {
            Verilog::Combinatorial(statements) => block.extend(statements),
            _ => panic!("a kernel section's Verilog is a combinational block"),
        }
    }
    Verilog::Combinatorial(block)
}

/// The `update`, `connect` and `hdl` functions of a unit's `Logic` impl
/// whose kernel is the listed [`Section`]s (marker types), in order:
/// `impl Logic for Unit { crate::section::sections!(First, Second); }`.
macro_rules! sections {
    ($($section:ty),+ $(,)?) => {
        fn update(&mut self) {
            $(<Self as $crate::section::Section<$section>>::update(self);)+
        }

        fn connect(&mut self) {
            $(<Self as $crate::section::Section<$section>>::connect(self);)+
        }

        fn hdl(&self) -> ::rust_hdl::core::ast::Verilog {
            $crate::section::concat(::std::vec![
                $(<Self as $crate::section::Section<$section>>::hdl(self)),+
            ])
        }
    };
}

pub(crate) use sections;
