//! How a unit's RTL plugs in: the [`RtlDecl`] trait and the answer for a
//! configuration whose widths are not compiled in ([`Unsupported`]).
//!
//! rust-hdl widths are const generics, so a configuration read at run time
//! can only reach RTL whose widths were instantiated when warpgen was built.
//! Each unit's widths follow from a few parameters (for `ba_tag_array`:
//! `ADDR_W`, `LINE_BYTES`, `SETS`, `WAYS`); every other parameter (entry
//! counts, `BA_ENABLE`, `REUSE_THRESHOLD`, queue depths, ...) is a run-time
//! constant of the built block. Each unit lists the width combinations it
//! compiles in, in its own `build.rs` (`hdl/src/<unit>/build.rs`), and
//! implements [`RtlDecl`] for its `ports::UnitSpec` type there: building the
//! block for a configuration, or answering with [`Unsupported`], which lists
//! what can be built and names that table.
//!
//! A combination not in the table is elaborated on demand
//! (`cosim::elaborate`): a small program built against this crate for
//! exactly those widths, from [`RtlDecl::rtl_type`]. To make a combination
//! instant without a first elaboration, add a line to the unit's table.

/// A valid configuration whose widths are not compiled in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{unit}: configuration ({given}) is valid but its RTL widths are not compiled into warpgen.\n\
     Configurations that can be built:\n  {supported}\n\
     (other parameters are free within their ranges; to add a width combination, \
     extend the table in {table} and rebuild)"
)]
pub struct Unsupported {
    /// Unit name.
    pub unit: &'static str,
    /// The width-determining parameters given.
    pub given: String,
    /// Human-readable list of what is supported ([`RtlDecl::SUPPORTED`]).
    pub supported: String,
    /// The source file holding the unit's width table, relative to the
    /// workspace root (`hdl/src/<unit>/build.rs`).
    pub table: &'static str,
}

/// What the RTL side declares for a unit: its compiled-in instantiations and its storage table.
///
/// Implemented in each unit's `build.rs` for the unit's `ports::UnitSpec`
/// type; the callers (`cosim`, `gen`) are generic over it.
pub trait RtlDecl: ports::UnitSpec {
    /// The width combinations compiled in (shown by `warpgen configs` and in [`Unsupported`]).
    const SUPPORTED: &'static str;
    /// Build the unit's rust-hdl block for `p` (valid parameters), or say what can be built.
    fn build(p: &Self::Params) -> Result<Box<dyn crate::RtlUnit>, Unsupported>;
    /// The unit's storage table for `p`.
    fn storage(p: &Self::Params) -> crate::storage::StorageReport;
    /// The block's Rust type for `p`'s widths, its const generic arguments
    /// written out (`hdl::snake::SnakePrefetcherRtl::<32, 32, 6, ...>`):
    /// what on-demand elaboration (`cosim::elaborate`) instantiates for
    /// widths that are not compiled in. The same derivation as the unit's
    /// width table; the block's constructor checks every argument.
    fn rtl_type(p: &Self::Params) -> String;

    /// The [`Unsupported`] answer of this unit: `given` lists the
    /// width-determining parameters of the configuration, `table` is the
    /// file holding the unit's width table (use `file!()` in `build.rs`).
    fn unsupported(given: String, table: &'static str) -> Unsupported {
        Unsupported {
            unit: Self::NAME,
            given,
            supported: Self::SUPPORTED.into(),
            table,
        }
    }
}
