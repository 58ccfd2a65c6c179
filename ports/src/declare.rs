//! A unit's parameters and ports, declared once: the [`crate::declare_unit!`]
//! macro and the small helpers its expansion uses.
//!
//! Each unit file (`ba.rs`, `caps.rs`, ...) holds one declaration, written
//! as the body of an exported macro named after the unit
//! (`ports::ba_tag_array_ports!`): called with the path of a macro, it
//! hands that macro the whole declaration. This crate hands it to
//! [`crate::declare_unit!`], which generates the parameter struct, its
//! `Default`, its validation and list ([`crate::spec::Params`]), the input
//! and output structs, the marker type and its [`crate::spec::UnitSpec`]
//! impl (port descriptions, packing and unpacking). The RTL hands the same
//! declaration to `hdl::rtl_port_glue!`, which generates the
//! `set_inputs`/`outputs` glue of the unit's `hdl::RtlUnit` impl; so a port
//! is named once, for the models and the RTL alike.
//!
//! The declaration's grammar (the binder in parentheses names the
//! parameter set inside the expressions that follow it):
//!
//! ```text
//! /// doc of the marker type
//! unit MarkerType = "unit_name";
//! params {
//!     /// doc of the parameter struct
//!     struct ParamsType(p) {
//!         /// doc of the parameter
//!         NAME: u64 = default, check_range(lo, hi);
//!         NAME: u64 = default, check_pow2(lo, hi);
//!         NAME: Option<u64> = None, check_range(lo, hi), listed p.value();
//!     }
//!     // Optional: a validation other than "each parameter's check, in
//!     // declaration order"; `p.check_param("NAME")` runs one check.
//!     validate { ... }
//! }
//! inputs {
//!     /// doc of the input struct
//!     struct InType(p) {
//!         /// doc of the port
//!         name: bool = 1,
//!         name: u64 = p.ADDR_W as u32,
//!         // An array field, one port per element `name0`, `name1`, ...
//!         name: [u64; MAX] = width; count p.N as usize,
//!     }
//! }
//! outputs { /* as inputs */ }
//! ```
//!
//! A parameter's check is one of [`crate::error::check_range`] and
//! [`crate::error::check_pow2`] with its bounds (which may read the
//! parameters declared before it); an `Option` parameter is checked only
//! when set, and names its listed value with `listed`.

use crate::error::ConfigError;

/// A port field's value as a flattened port value (`bool` or `u64`).
pub trait PortField: Copy {
    /// The flattened value.
    fn to_port(self) -> u64;
    /// From a flattened value.
    fn from_port(v: u64) -> Self;
}

impl PortField for bool {
    fn to_port(self) -> u64 {
        self as u64
    }
    fn from_port(v: u64) -> Self {
        v != 0
    }
}

impl PortField for u64 {
    fn to_port(self) -> u64 {
        self
    }
    fn from_port(v: u64) -> Self {
        v
    }
}

/// A parameter's value as its check sees it: a `u64` always, an
/// `Option<u64>` only when set.
pub trait ParamValue {
    /// Run `check` on the value (if any).
    fn check_with(
        &self,
        check: impl FnOnce(u64) -> Result<(), ConfigError>,
    ) -> Result<(), ConfigError>;
}

impl ParamValue for u64 {
    fn check_with(
        &self,
        check: impl FnOnce(u64) -> Result<(), ConfigError>,
    ) -> Result<(), ConfigError> {
        check(*self)
    }
}

impl ParamValue for Option<u64> {
    fn check_with(
        &self,
        check: impl FnOnce(u64) -> Result<(), ConfigError>,
    ) -> Result<(), ConfigError> {
        match self {
            Some(v) => check(*v),
            None => Ok(()),
        }
    }
}

/// Reads flattened port values in port order (one value per port).
pub struct Cursor<'a> {
    values: &'a [u64],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first value.
    pub fn new(values: &'a [u64]) -> Self {
        Cursor { values, at: 0 }
    }

    /// The next port's value (panics past the end, as indexing would).
    pub fn next_value(&mut self) -> u64 {
        let v = self.values[self.at];
        self.at += 1;
        v
    }

    /// The next `n` ports' values.
    pub fn take(&mut self, n: usize) -> &'a [u64] {
        let v = &self.values[self.at..self.at + n];
        self.at += n;
        v
    }
}

/// Generates a unit's types and impls from its declaration (module
/// documentation for the grammar). Called with the declaration by the
/// unit's own macro (`ports::ba_tag_array_ports!(crate::declare_unit)`).
#[macro_export]
macro_rules! declare_unit {
    // One port's description(s).
    (@desc $v:ident, $name:ident, $w:expr) => {
        $v.push($crate::spec::PortDesc::new(stringify!($name), $w));
    };
    (@desc $v:ident, $name:ident, $w:expr, $count:expr) => {
        for k in 0..$count {
            $v.push($crate::spec::PortDesc::new(
                format!("{}{}", stringify!($name), k),
                $w,
            ));
        }
    };
    // One field's flattened value(s).
    (@write $out:ident, $v:ident . $name:ident) => {
        $out.push($crate::declare::PortField::to_port($v.$name));
    };
    (@write $out:ident, $v:ident . $name:ident, $count:expr) => {
        $out.extend_from_slice(&$v.$name[..$count]);
    };
    // One field from flattened values.
    (@read $cur:ident, $ty:ty) => {
        <$ty as $crate::declare::PortField>::from_port($cur.next_value())
    };
    (@read $cur:ident, $ty:ty, $count:expr) => {{
        let mut a = <$ty as ::core::default::Default>::default();
        let n = $count;
        a[..n].copy_from_slice($cur.take(n));
        a
    }};
    // A parameter's listed value.
    (@listed $p:ident . $name:ident) => {
        $p.$name
    };
    (@listed $p:ident . $name:ident, $listed:expr) => {
        $listed
    };
    // The validation: each parameter's check in declaration order, or the
    // unit's own.
    (@validate $p:ident, [$($field:ident),*]) => {{
        for name in [$(stringify!($field)),*] {
            $p.check_param(name)?;
        }
        Ok(())
    }};
    (@validate $p:ident, [$($field:ident),*] $body:block) => {
        $body
    };
    // A port struct.
    (@ports $(#[$sm:meta])* $st:ident { $( $(#[$fm:meta])* $f:ident : $ty:ty, )* }) => {
        $(#[$sm])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $st {
            $( $(#[$fm])* pub $f: $ty, )*
        }
    };
    (
        $(#[$um:meta])*
        unit $unit:ident = $name:literal;
        params {
            $(#[$pm:meta])*
            struct $params:ident($p:ident) {
                $(
                    $(#[$fm:meta])*
                    $field:ident : $fty:ty = $default:expr,
                        $check:ident($lo:expr, $hi:expr) $(, listed $listed:expr)?;
                )*
            }
            $(validate $validate:block)?
        }
        inputs {
            $(#[$im:meta])*
            struct $in:ident($ip:ident) {
                $(
                    $(#[$inm:meta])*
                    $iport:ident : $ity:ty = $iw:expr $(; count $icount:expr)?,
                )*
            }
        }
        outputs {
            $(#[$om:meta])*
            struct $out:ident($op:ident) {
                $(
                    $(#[$onm:meta])*
                    $oport:ident : $oty:ty = $ow:expr $(; count $ocount:expr)?,
                )*
            }
        }
    ) => {
        $(#[$pm])*
        #[derive(Clone, Debug, PartialEq, Eq, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        #[allow(non_snake_case)]
        pub struct $params {
            $( $(#[$fm])* pub $field: $fty, )*
        }

        impl ::core::default::Default for $params {
            fn default() -> Self {
                $params {
                    $( $field: $default, )*
                }
            }
        }

        impl $params {
            /// Check one parameter against its declared range (the name
            /// must be one of the parameters).
            fn check_param(&self, name: &str) -> Result<(), $crate::error::ConfigError> {
                let $p = self;
                $(
                    if name == stringify!($field) {
                        return $crate::declare::ParamValue::check_with(&$p.$field, |v| {
                            $crate::error::$check(stringify!($field), v, $lo, $hi)
                        });
                    }
                )*
                unreachable!("{} has no parameter {name}", stringify!($params))
            }
        }

        impl $crate::spec::Params for $params {
            fn validate(&self) -> Result<(), $crate::error::ConfigError> {
                let $p = self;
                $crate::declare_unit!(@validate $p, [$($field),*] $($validate)?)
            }

            fn list(&self) -> Vec<(&'static str, u64)> {
                let $p = self;
                vec![
                    $( (stringify!($field), $crate::declare_unit!(@listed $p . $field $(, $listed)?)), )*
                ]
            }
        }

        $crate::declare_unit!(@ports $(#[$im])* $in { $( $(#[$inm])* $iport: $ity, )* });
        $crate::declare_unit!(@ports $(#[$om])* $out { $( $(#[$onm])* $oport: $oty, )* });

        $(#[$um])*
        pub struct $unit;

        impl $crate::spec::UnitSpec for $unit {
            const NAME: &'static str = $name;
            type Params = $params;
            type In = $in;
            type Out = $out;

            #[allow(clippy::vec_init_then_push)] // one `push` per declared port
            fn inputs($ip: &$params) -> Vec<$crate::spec::PortDesc> {
                let mut descs = Vec::new();
                $( $crate::declare_unit!(@desc descs, $iport, $iw $(, $icount)?); )*
                descs
            }

            #[allow(clippy::vec_init_then_push)] // one `push` per declared port
            fn outputs($op: &$params) -> Vec<$crate::spec::PortDesc> {
                let mut descs = Vec::new();
                $( $crate::declare_unit!(@desc descs, $oport, $ow $(, $ocount)?); )*
                descs
            }

            fn write_in_values($ip: &$params, v: &$in, out: &mut Vec<u64>) {
                let _ = $ip;
                $( $crate::declare_unit!(@write out, v . $iport $(, $icount)?); )*
            }

            fn in_from_values($ip: &$params, v: &[u64]) -> $in {
                let _ = $ip;
                let mut cur = $crate::declare::Cursor::new(v);
                $in {
                    $( $iport: $crate::declare_unit!(@read cur, $ity $(, $icount)?), )*
                }
            }

            fn write_out_values($op: &$params, v: &$out, out: &mut Vec<u64>) {
                let _ = $op;
                $( $crate::declare_unit!(@write out, v . $oport $(, $ocount)?); )*
            }

            fn out_from_values($op: &$params, v: &[u64]) -> $out {
                let _ = $op;
                let mut cur = $crate::declare::Cursor::new(v);
                $out {
                    $( $oport: $crate::declare_unit!(@read cur, $oty $(, $ocount)?), )*
                }
            }
        }
    };
}
