//! [`MemTaps`]: a memory read only through its taps (issue 29): the
//! look-up stage reads the load's slot as a one-hot AND-OR of the taps
//! (qualified by the column's valid bits), so no memory read port exists
//! for it.

use rust_hdl::prelude::*;

/// A memory of `depth` entries of `D` (`N` address bits), one synchronous
/// write port, every entry on `taps[i]` and no read port. As
/// [`crate::mem::Mem`] otherwise: no reset; at the rising edge, if `w_en`,
/// entry `w_addr` takes `w_data`.
#[derive(LogicBlock)]
pub struct MemTaps<D: Synth, const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Write entry `w_addr` at the rising edge.
    pub w_en: Signal<In, Bit>,
    /// Write address.
    pub w_addr: Signal<In, Bits<N>>,
    /// Value written.
    pub w_data: Signal<In, D>,
    /// Entry `i`.
    pub taps: Vec<Signal<Out, D>>,
    _sim: Vec<D>,
}

impl<D: Synth, const N: usize> MemTaps<D, N> {
    /// A memory of `depth` entries (`1 <= depth <= 2^N`).
    pub fn new(depth: usize) -> Self {
        assert!(
            depth >= 1 && (N >= 64 || depth <= 1usize << N),
            "a memory of {depth} entries does not fit {N} address bits"
        );
        MemTaps {
            clock: Default::default(),
            w_en: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
            taps: (0..depth).map(|_| Signal::default()).collect(),
            _sim: vec![D::default(); depth],
        }
    }
}

impl<D: Synth, const N: usize> Logic for MemTaps<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.w_en.val() {
            if let Some(e) = self._sim.get_mut(self.w_addr.val().index()) {
                *e = self.w_data.val();
            }
        }
        for (t, e) in self.taps.iter_mut().zip(&self._sim) {
            t.next = *e;
        }
    }

    fn connect(&mut self) {
        for t in &mut self.taps {
            t.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let mut v = format!("reg [{}:0] mem [0:{}];\n", D::BITS - 1, self._sim.len() - 1);
        for i in 0..self._sim.len() {
            v.push_str(&format!("always @(*) taps${i} = mem[{i}];\n"));
        }
        v.push_str("always @(posedge clock) begin\n    if (w_en) mem[w_addr] <= w_data;\nend");
        Verilog::Custom(v)
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
