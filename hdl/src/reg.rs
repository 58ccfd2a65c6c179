//! A register with synchronous, active-high reset to zero.
//!
//! rust-hdl's own `DFF` relies on an `initial` block for its reset value,
//! which ASIC synthesis ignores (`conventions.md`). [`Reg`] instead clears
//! itself at every rising edge where `reset` is 1, and its Verilog has no
//! `initial` block at all, so it behaves the same from any power-up state.
//!
//! In an `#[hdl_gen]` kernel, hook a register up with (the order matters
//! only in that `d` defaults to `q`, i.e. "hold"):
//!
//! ```ignore
//! self.r.clock.next = self.clock.val();
//! self.r.reset.next = self.reset.val();
//! self.r.d.next = self.r.q.val();
//! ```

use rust_hdl::prelude::*;

/// A `T`-wide register, `q <= reset ? 0 : d` at each rising edge of `clock`.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct Reg<T: Synth> {
    /// Data input.
    pub d: Signal<In, T>,
    /// Registered output.
    pub q: Signal<Out, T>,
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset (to all zeros).
    pub reset: Signal<In, Bit>,
}

impl<T: Synth> Logic for Reg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = if self.reset.val() {
                T::default()
            } else {
                self.d.val()
            };
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "always @(posedge clock) begin\n    if (reset) q <= {:x};\n    else q <= d;\nend",
            T::default().verilog()
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "reg".into(),
            clock: "clock".into(),
            inputs: vec!["d".into(), "reset".into()],
            outputs: vec!["q".into()],
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(r: &mut Reg<Bits<4>>) {
        r.clock.next = Clock::from(true);
        simulate(r, 10);
        r.clock.next = Clock::from(false);
        simulate(r, 10);
    }

    #[test]
    fn loads_and_resets_synchronously() {
        let mut r = Reg::<Bits<4>>::default();
        r.connect_all();
        r.d.next = 5.into();
        r.reset.next = false;
        simulate(&mut r, 10);
        edge(&mut r);
        assert_eq!(r.q.val(), 5);
        r.d.next = 9.into();
        r.reset.next = true;
        simulate(&mut r, 10);
        // No change before the edge: the reset is synchronous.
        assert_eq!(r.q.val(), 5);
        edge(&mut r);
        assert_eq!(r.q.val(), 0);
    }

    #[test]
    fn verilog_has_no_initial_block() {
        let r = Reg::<Bits<4>>::default();
        let v = r.hdl();
        match v {
            Verilog::Custom(text) => {
                assert!(!text.contains("initial"));
                assert!(text.contains("if (reset) q <= 4'h0;"), "{text}");
            }
            _ => panic!("expected custom Verilog"),
        }
    }
}
