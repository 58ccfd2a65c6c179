//! [`Mem`]: the memory block of the units: an array of entries with one
//! combinational (asynchronous) read port and one synchronous write port.
//!
//! A table that is read at one index and written at one index per cycle
//! is a memory, not a bank of registers each with its own hold
//! multiplexer. Written as a Verilog array (`reg [D-1:0] mem [0:DEPTH-1]`),
//! it lets synthesis infer a memory (Yosys maps it to flip-flops and
//! multiplexers, or to a macro), and lets a simulator touch one entry per
//! cycle instead of every entry: for `ba_tag_array` this is the difference
//! between evaluating sixteen sets' state every cycle and evaluating one.
//!
//! Entries have no reset: after power-up their contents are unknown
//! (random under Verilator's `--x-initial unique`, zero in the RustHDL
//! simulator). A unit must only read entries it has written since reset,
//! or qualify them by state that is reset (the tag array's valid bits).
//!
//! Timing: `r_data` shows entry `r_addr` during the cycle, combinationally;
//! at the rising edge, if `w_en`, entry `w_addr` takes `w_data` (the read
//! shows the new value after the edge). Addresses at or beyond `depth`
//! read as zero in the RustHDL simulator and are never written; a unit
//! must not present them (the Verilog result would be unknown).

use rust_hdl::prelude::*;

/// A memory of `depth` entries of `D`, addressed by `N` bits.
#[derive(LogicBlock)]
pub struct Mem<D: Synth, const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Read address.
    pub r_addr: Signal<In, Bits<N>>,
    /// Entry `r_addr`, combinationally.
    pub r_data: Signal<Out, D>,
    /// Write entry `w_addr` at the rising edge.
    pub w_en: Signal<In, Bit>,
    /// Write address.
    pub w_addr: Signal<In, Bits<N>>,
    /// Value written.
    pub w_data: Signal<In, D>,
    _sim: Vec<D>,
}

impl<D: Synth, const N: usize> Mem<D, N> {
    /// A memory of `depth` entries (`1 <= depth <= 2^N`).
    pub fn new(depth: usize) -> Self {
        assert!(
            depth >= 1 && (N >= usize::BITS as usize || depth <= 1usize << N),
            "a memory of {depth} entries does not fit {N} address bits"
        );
        Mem {
            clock: Default::default(),
            r_addr: Default::default(),
            r_data: Default::default(),
            w_en: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
            _sim: vec![D::default(); depth],
        }
    }

    /// The number of entries.
    pub fn depth(&self) -> usize {
        self._sim.len()
    }
}

impl<D: Synth, const N: usize> Logic for Mem<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.w_en.val() {
            let a = self.w_addr.val().index();
            if let Some(e) = self._sim.get_mut(a) {
                *e = self.w_data.val();
            }
        }
        let a = self.r_addr.val().index();
        self.r_data.next = self._sim.get(a).copied().unwrap_or_default();
    }

    fn connect(&mut self) {
        self.r_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "reg [{hi}:0] mem [0:{last}];\n\
             always @(*) r_data = mem[r_addr];\n\
             always @(posedge clock) begin\n    if (w_en) mem[w_addr] <= w_data;\nend",
            hi = D::BITS - 1,
            last = self._sim.len() - 1
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "mem_write".into(),
            clock: "clock".into(),
            inputs: vec!["w_en".into(), "w_addr".into(), "w_data".into()],
            outputs: vec![],
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(m: &mut Mem<Bits<4>, 2>) {
        m.clock.next = Clock::from(true);
        simulate(m, 10);
        m.clock.next = Clock::from(false);
        simulate(m, 10);
    }

    #[test]
    fn reads_combinationally_and_writes_at_the_edge() {
        let mut m = Mem::<Bits<4>, 2>::new(3);
        m.connect_all();
        m.w_en.next = true;
        m.w_addr.next = 1.into();
        m.w_data.next = 9.into();
        m.r_addr.next = 1.into();
        simulate(&mut m, 10);
        assert_eq!(m.r_data.val(), Bits::<4>::from(0u64), "before the edge");
        edge(&mut m);
        assert_eq!(m.r_data.val(), Bits::<4>::from(9u64));
        // Without w_en nothing is written; out-of-range entries are never
        // written and read as zero.
        m.w_en.next = false;
        m.w_data.next = 3.into();
        edge(&mut m);
        assert_eq!(m.r_data.val(), Bits::<4>::from(9u64));
        m.w_en.next = true;
        m.w_addr.next = 3.into();
        edge(&mut m);
        m.r_addr.next = 3.into();
        simulate(&mut m, 10);
        assert_eq!(m.r_data.val(), Bits::<4>::from(0u64));
        assert_eq!(m.depth(), 3);
    }

    #[test]
    fn verilog_is_an_array_with_one_write_port() {
        let m = Mem::<Bits<4>, 2>::new(3);
        let Verilog::Custom(v) = m.hdl() else {
            panic!("custom Verilog expected")
        };
        assert!(v.contains("reg [3:0] mem [0:2];"), "{v}");
        assert!(v.contains("always @(*) r_data = mem[r_addr];"), "{v}");
        assert!(v.contains("if (w_en) mem[w_addr] <= w_data;"), "{v}");
    }
}
