//! Each unit's role adapter: how its golden model fills its role slot in
//! the SM ([`crate::registry::HarnessUnit`], implemented here for the unit's
//! `ports::UnitSpec` type): the role, the names that select it, how its
//! parameters follow the machine and the kernel, and the glue between the
//! role's calls and the unit's ports.

pub mod ba;
pub mod caps;
pub mod dac;
pub mod snake;
