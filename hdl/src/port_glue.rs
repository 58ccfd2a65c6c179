//! The port glue of every unit's [`crate::RtlUnit`] impl, generated from the
//! unit's one declaration of its ports (`ports::declare`): each top's impl
//! calls `ports::<unit>_ports!(crate::rtl_port_glue)` for `set_inputs` and
//! `outputs`, so the RTL drives and reads exactly the ports, in exactly the
//! order, the models flatten them in.
//!
//! A port field of a top is a `Signal` (one port) or a `Vec` of signals
//! (one port per element, as CAPS's `ld_addr0..`); [`InPort`] and
//! [`OutPort`] move flattened values in and out of either.

use ports::declare::Cursor;
use rust_hdl::prelude::*;

use crate::PortValue;

/// An input port field of a top: takes its value(s) from the flattened
/// input values.
pub trait InPort {
    /// Set the next value(s) from the cursor, one per port.
    fn drive(&mut self, values: &mut Cursor<'_>);
}

impl<T: PortValue> InPort for Signal<In, T> {
    fn drive(&mut self, values: &mut Cursor<'_>) {
        self.next = T::from_u64(values.next_value());
    }
}

impl<T: PortValue> InPort for Vec<Signal<In, T>> {
    fn drive(&mut self, values: &mut Cursor<'_>) {
        for port in self.iter_mut() {
            port.drive(values);
        }
    }
}

/// An output port field of a top: writes its value(s) to the flattened
/// output values.
pub trait OutPort {
    /// Write the current value(s), one slot per port.
    fn read<'a>(&self, slots: &mut impl Iterator<Item = &'a mut u64>);
}

impl<T: PortValue> OutPort for Signal<Out, T> {
    fn read<'a>(&self, slots: &mut impl Iterator<Item = &'a mut u64>) {
        *slots.next().expect("one output slot per port") = self.val().to_u64();
    }
}

impl<T: PortValue> OutPort for Vec<Signal<Out, T>> {
    fn read<'a>(&self, slots: &mut impl Iterator<Item = &'a mut u64>) {
        for port in self {
            port.read(slots);
        }
    }
}

/// `set_inputs` and `outputs` of a [`crate::RtlUnit`] impl, from a unit's
/// declaration: use as `ports::ba_tag_array_ports!(crate::rtl_port_glue);`
/// among the impl's items. Each declared port is the top's field of the
/// same name.
#[macro_export]
macro_rules! rtl_port_glue {
    (
        $(#[$um:meta])*
        unit $unit:ident = $name:literal;
        params $params:tt
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
        fn set_inputs(&mut self, v: &[u64]) {
            let mut values = ::ports::declare::Cursor::new(v);
            $( $crate::port_glue::InPort::drive(&mut self.$iport, &mut values); )*
        }
        fn outputs(&self, out: &mut [u64]) {
            let mut slots = out.iter_mut();
            $( $crate::port_glue::OutPort::read(&self.$oport, &mut slots); )*
        }
    };
}
