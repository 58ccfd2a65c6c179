//! The one list of units.
//!
//! Every crate builds its own table of units from this list: the
//! configuration tables (this crate), the compiled-in RTL and storage tables
//! (`hdl`), the golden models (`golden`), their harness roles (`harness`), and the
//! co-simulation, stimulus and command-line table (`cosim`, `gen`). Each
//! crate's trait must be implemented for every unit listed, so a unit that
//! misses a piece fails to compile, naming the trait.
//!
//! Adding a unit: its own files in each crate (port structs and parameters
//! here, RTL in `hdl/src/<unit>/`, golden model in `golden/src/<unit>/`,
//! its role adapter in `harness/src/adapters/<unit>.rs`,
//! stimulus and scenarios in `cosim/src/<unit>.rs`, a document in
//! `docs/units/`), their module declarations, and one line below.

/// Calls `$m! { Unit1, Unit2, ... }` with the path of every unit's
/// [`crate::spec::UnitSpec`] type, in report order.
///
/// ```
/// macro_rules! names { ($($u:path),* $(,)?) => { vec![$(<$u as ports::UnitSpec>::NAME),*] } }
/// let v: Vec<&str> = ports::for_each_unit!(names);
/// assert!(v.contains(&"ba_tag_array"));
/// ```
#[macro_export]
macro_rules! for_each_unit {
    ($m:ident) => {
        $m! {
            $crate::ba::BaTagArray,
            $crate::caps::CapsPrefetcher,
            $crate::snake::SnakePrefetcher,
            $crate::dac::DacExpander,
        }
    };
}

macro_rules! names {
    ($($u:path),* $(,)?) => { &[$(<$u as $crate::spec::UnitSpec>::NAME),*] };
}

/// Every unit's name, in report order.
pub const UNIT_NAMES: &[&str] = for_each_unit!(names);
