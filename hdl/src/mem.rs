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

/// A memory of `depth` entries of `D`, addressed by `N` bits: one read
/// port, one write port, and optionally a tap on every entry.
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
    /// Entry `i` on `taps[i]` (empty unless built [`Mem::with_taps`]).
    pub taps: Vec<Signal<Out, D>>,
    _sim: Vec<D>,
}

impl<D: Synth, const N: usize> Mem<D, N> {
    /// A memory of `depth` entries (`1 <= depth <= 2^N`).
    pub fn new(depth: usize) -> Self {
        check_depth(depth, N);
        Mem {
            clock: Default::default(),
            r_addr: Default::default(),
            r_data: Default::default(),
            w_en: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
            taps: Vec::new(),
            _sim: vec![D::default(); depth],
        }
    }

    /// A memory of `depth` entries whose every entry is also visible on
    /// [`Mem::taps`] (a register file searched in parallel, such as the
    /// pc column of a fully associative table).
    pub fn with_taps(depth: usize) -> Self {
        let mut m = Self::new(depth);
        m.taps = (0..depth).map(|_| Signal::default()).collect();
        m
    }

    /// The number of entries.
    pub fn depth(&self) -> usize {
        self._sim.len()
    }
}

impl<D: Synth, const N: usize> Logic for Mem<D, N> {
    fn update(&mut self) {
        sim_write(
            &mut self._sim,
            &self.clock,
            &self.w_en,
            &self.w_addr,
            &self.w_data,
        );
        self.r_data.next = sim_read(&self._sim, &self.r_addr);
        sim_taps(&self._sim, &mut self.taps);
    }

    fn connect(&mut self) {
        self.r_data.connect();
        for t in &mut self.taps {
            t.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(mem_verilog::<D>(self._sim.len(), &["r"], self.taps.len()))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        mem_timing()
    }
}

/// [`Mem`] with a second read port (`r2_addr` / `r2_data`): a table read
/// at two indices per cycle (by an incoming request and by a state
/// machine) and written at one.
#[derive(LogicBlock)]
pub struct Mem2<D: Synth, const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// First read address.
    pub r_addr: Signal<In, Bits<N>>,
    /// Entry `r_addr`, combinationally.
    pub r_data: Signal<Out, D>,
    /// Second read address.
    pub r2_addr: Signal<In, Bits<N>>,
    /// Entry `r2_addr`, combinationally.
    pub r2_data: Signal<Out, D>,
    /// Write entry `w_addr` at the rising edge.
    pub w_en: Signal<In, Bit>,
    /// Write address.
    pub w_addr: Signal<In, Bits<N>>,
    /// Value written.
    pub w_data: Signal<In, D>,
    /// Entry `i` on `taps[i]` (empty unless built [`Mem2::with_taps`]).
    pub taps: Vec<Signal<Out, D>>,
    _sim: Vec<D>,
}

impl<D: Synth, const N: usize> Mem2<D, N> {
    /// A memory of `depth` entries (`1 <= depth <= 2^N`).
    pub fn new(depth: usize) -> Self {
        check_depth(depth, N);
        Mem2 {
            clock: Default::default(),
            r_addr: Default::default(),
            r_data: Default::default(),
            r2_addr: Default::default(),
            r2_data: Default::default(),
            w_en: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
            taps: Vec::new(),
            _sim: vec![D::default(); depth],
        }
    }

    /// A memory of `depth` entries whose every entry is also visible on
    /// [`Mem2::taps`].
    pub fn with_taps(depth: usize) -> Self {
        let mut m = Self::new(depth);
        m.taps = (0..depth).map(|_| Signal::default()).collect();
        m
    }
}

impl<D: Synth, const N: usize> Logic for Mem2<D, N> {
    fn update(&mut self) {
        sim_write(
            &mut self._sim,
            &self.clock,
            &self.w_en,
            &self.w_addr,
            &self.w_data,
        );
        self.r_data.next = sim_read(&self._sim, &self.r_addr);
        self.r2_data.next = sim_read(&self._sim, &self.r2_addr);
        sim_taps(&self._sim, &mut self.taps);
    }

    fn connect(&mut self) {
        self.r_data.connect();
        self.r2_data.connect();
        for t in &mut self.taps {
            t.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(mem_verilog::<D>(
            self._sim.len(),
            &["r", "r2"],
            self.taps.len(),
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        mem_timing()
    }
}

fn check_depth(depth: usize, n: usize) {
    assert!(
        depth >= 1 && (n >= usize::BITS as usize || depth <= 1usize << n),
        "a memory of {depth} entries does not fit {n} address bits"
    );
}

/// The simulator's write: at a rising edge with `w_en`, entry `w_addr`
/// (if it exists) takes `w_data`.
fn sim_write<D: Synth, const N: usize>(
    mem: &mut [D],
    clock: &Signal<In, Clock>,
    w_en: &Signal<In, Bit>,
    w_addr: &Signal<In, Bits<N>>,
    w_data: &Signal<In, D>,
) {
    if clock.pos_edge() && w_en.val() {
        if let Some(e) = mem.get_mut(w_addr.val().index()) {
            *e = w_data.val();
        }
    }
}

/// The simulator's read: entry `addr`, zero beyond the last entry.
fn sim_read<D: Synth, const N: usize>(mem: &[D], addr: &Signal<In, Bits<N>>) -> D {
    mem.get(addr.val().index()).copied().unwrap_or_default()
}

fn sim_taps<D: Synth>(mem: &[D], taps: &mut [Signal<Out, D>]) {
    for (t, e) in taps.iter_mut().zip(mem) {
        t.next = *e;
    }
}

/// The Verilog of a memory of `depth` entries of `D`: an array, one
/// combinational read per port prefix in `reads` (`<p>_data = mem[<p>_addr]`),
/// `taps` tap outputs (`taps$i = mem[i]`; the emitter turns `$` into `__`
/// as it does for every `Vec` port) and one write port.
fn mem_verilog<D: Synth>(depth: usize, reads: &[&str], taps: usize) -> String {
    let mut v = format!("reg [{}:0] mem [0:{}];\n", D::BITS - 1, depth - 1);
    for r in reads {
        v.push_str(&format!("always @(*) {r}_data = mem[{r}_addr];\n"));
    }
    for i in 0..taps {
        v.push_str(&format!("always @(*) taps${i} = mem[{i}];\n"));
    }
    v.push_str("always @(posedge clock) begin\n    if (w_en) mem[w_addr] <= w_data;\nend");
    v
}

fn mem_timing() -> Vec<TimingInfo> {
    vec![TimingInfo {
        name: "mem_write".into(),
        clock: "clock".into(),
        inputs: vec!["w_en".into(), "w_addr".into(), "w_data".into()],
        outputs: vec![],
    }]
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
    fn taps_and_the_second_read_port_show_the_entries() {
        let mut m = Mem2::<Bits<4>, 2>::with_taps(4);
        m.connect_all();
        for (a, d) in [(0u64, 5u64), (2, 7), (3, 1)] {
            m.w_en.next = true;
            m.w_addr.next = a.into();
            m.w_data.next = d.into();
            m.clock.next = Clock::from(true);
            simulate(&mut m, 10);
            m.clock.next = Clock::from(false);
            simulate(&mut m, 10);
        }
        m.r_addr.next = 2.into();
        m.r2_addr.next = 3.into();
        m.w_en.next = false;
        simulate(&mut m, 10);
        assert_eq!(m.r_data.val(), Bits::<4>::from(7u64));
        assert_eq!(m.r2_data.val(), Bits::<4>::from(1u64));
        let taps: Vec<u64> = m.taps.iter().map(|t| t.val().index() as u64).collect();
        assert_eq!(taps, [5, 0, 7, 1]);
        let Verilog::Custom(v) = m.hdl() else {
            panic!("custom Verilog expected")
        };
        assert!(v.contains("always @(*) r2_data = mem[r2_addr];"), "{v}");
        assert!(v.contains("always @(*) taps$3 = mem[3];"), "{v}");
        assert!(!v.contains("taps$4"), "{v}");
        let plain = Mem::<Bits<4>, 2>::new(4);
        let Verilog::Custom(v) = plain.hdl() else {
            panic!("custom Verilog expected")
        };
        assert!(!v.contains("taps"), "{v}");
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
