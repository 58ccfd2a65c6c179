//! The lock-step hook through which a unit's RTL runs beside its golden
//! model inside the harness, and the stimulus files that let a recorded
//! run be replayed alone.
//!
//! # Stimulus file format (JSON lines)
//! The first line is a header object:
//! ```json
//! {"format":"warpgen-stimulus","version":1,"unit":"caps_prefetcher",
//!  "params":{"N_CTA":8,...},"inputs":["reset","cfg_warps_per_cta",...],
//!  "outputs":["pf_valid","pf_addr",...]}
//! ```
//! `params` are the unit's parameters (spec names), `inputs` and `outputs`
//! the port names in the unit's fixed order (`UnitSpec::inputs/outputs`).
//! Every further line is one clock cycle, in order from the first cycle of
//! the run (reset cycles included):
//! ```json
//! {"c":0,"in":[1,4,0,...],"out":[0,0,0,0]}
//! ```
//! `c` is the cycle number, `in` the value of every input port during the
//! cycle (applied before the rising edge) and `out` the golden model's
//! outputs sampled during that cycle, before the edge. Values are unsigned
//! integers. Replaying the `in` column into a model built from `params`
//! reproduces the `out` column.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::marker::PhantomData;
use std::path::Path;

use ports::UnitSpec;

use crate::GoldenModel;

/// Something that runs beside a unit's golden model, cycle by cycle (the
/// RTL of the unit, in a co-simulation).
pub trait Lockstep<U: ports::UnitSpec> {
    /// One cycle: `inputs` are exactly the inputs given to the golden model
    /// this cycle (before its clock edge), `golden` its outputs sampled
    /// during the cycle, before the edge. An error stops the harness run
    /// with this message.
    fn cycle(&mut self, inputs: &U::In, golden: &U::Out) -> Result<(), String>;
}

/// Writes a stimulus file (module documentation) cycle by cycle.
pub struct StimulusWriter<U: UnitSpec> {
    w: BufWriter<File>,
    params: U::Params,
    cycle: u64,
}

impl<U: UnitSpec> StimulusWriter<U> {
    /// Create the file and write its header.
    pub fn create(path: &Path, params: &U::Params) -> std::io::Result<Self> {
        let mut w = BufWriter::new(File::create(path)?);
        let header = serde_json::json!({
            "format": "warpgen-stimulus",
            "version": 1,
            "unit": U::NAME,
            "params": params,
            "inputs": U::inputs(params).iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "outputs": U::outputs(params).iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        });
        writeln!(w, "{header}")?;
        Ok(StimulusWriter {
            w,
            params: params.clone(),
            cycle: 0,
        })
    }

    /// Append one cycle.
    pub fn record(&mut self, inputs: &U::In, outputs: &U::Out) -> std::io::Result<()> {
        write!(self.w, "{{\"c\":{},\"in\":[", self.cycle)?;
        for (i, v) in U::in_values(&self.params, inputs).iter().enumerate() {
            if i > 0 {
                self.w.write_all(b",")?;
            }
            write!(self.w, "{v}")?;
        }
        self.w.write_all(b"],\"out\":[")?;
        for (i, v) in U::out_values(&self.params, outputs).iter().enumerate() {
            if i > 0 {
                self.w.write_all(b",")?;
            }
            write!(self.w, "{v}")?;
        }
        self.w.write_all(b"]}\n")?;
        self.cycle += 1;
        Ok(())
    }

    /// Flush the file.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// A stimulus file read back.
pub struct Stimulus<U: UnitSpec> {
    /// The unit's parameters.
    pub params: U::Params,
    /// Per cycle: inputs and the recorded golden outputs.
    pub cycles: Vec<(U::In, U::Out)>,
    _u: PhantomData<U>,
}

impl<U: UnitSpec> Clone for Stimulus<U> {
    fn clone(&self) -> Self {
        Stimulus {
            params: self.params.clone(),
            cycles: self.cycles.clone(),
            _u: PhantomData,
        }
    }
}

impl<U: UnitSpec> std::fmt::Debug for Stimulus<U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stimulus")
            .field("unit", &U::NAME)
            .field("params", &self.params)
            .field("cycles", &self.cycles.len())
            .finish()
    }
}

/// Read a stimulus file written by [`StimulusWriter`] for unit `U`.
pub fn read_stimulus<U: UnitSpec>(path: &Path) -> Result<Stimulus<U>, String> {
    let f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = BufReader::new(f).lines();
    let at = |n: usize, m: String| format!("{}:{}: {m}", path.display(), n);
    let header = lines
        .next()
        .ok_or_else(|| at(1, "empty file".into()))?
        .map_err(|e| at(1, e.to_string()))?;
    let h: serde_json::Value = serde_json::from_str(&header).map_err(|e| at(1, e.to_string()))?;
    if h["format"] != "warpgen-stimulus" {
        return Err(at(1, "not a warpgen stimulus file".into()));
    }
    if h["unit"] != U::NAME {
        return Err(at(
            1,
            format!("stimulus of unit {}, expected {}", h["unit"], U::NAME),
        ));
    }
    let params: U::Params =
        serde_json::from_value(h["params"].clone()).map_err(|e| at(1, format!("params: {e}")))?;
    let n_in = U::inputs(&params).len();
    let n_out = U::outputs(&params).len();
    let mut cycles = Vec::new();
    for (i, line) in lines.enumerate() {
        let ln = i + 2;
        let line = line.map_err(|e| at(ln, e.to_string()))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| at(ln, e.to_string()))?;
        let nums = |k: &str, n: usize| -> Result<Vec<u64>, String> {
            let a = v[k]
                .as_array()
                .ok_or_else(|| at(ln, format!("missing `{k}`")))?;
            let vals: Option<Vec<u64>> = a.iter().map(|x| x.as_u64()).collect();
            let vals = vals.ok_or_else(|| at(ln, format!("`{k}` must hold unsigned integers")))?;
            if vals.len() != n {
                return Err(at(
                    ln,
                    format!("`{k}` has {} values, expected {n}", vals.len()),
                ));
            }
            Ok(vals)
        };
        let inp = U::in_from_values(&params, &nums("in", n_in)?);
        let out = U::out_from_values(&params, &nums("out", n_out)?);
        cycles.push((inp, out));
    }
    Ok(Stimulus {
        params,
        cycles,
        _u: PhantomData,
    })
}

/// Replay a stimulus into a fresh golden model `M` (and `lockstep`, if
/// given, exactly as the harness drives it). Checks that the model
/// reproduces the recorded outputs; returns the number of cycles.
pub fn replay<U, M>(
    stim: &Stimulus<U>,
    mut lockstep: Option<&mut dyn Lockstep<U>>,
) -> Result<u64, String>
where
    U: UnitSpec,
    M: GoldenModel<U>,
{
    let mut m = M::new(&stim.params);
    for (c, (inp, want)) in stim.cycles.iter().enumerate() {
        let out = m.outputs();
        if out != *want {
            return Err(format!(
                "{}: cycle {c}: golden outputs {out:?} differ from the recorded {want:?}",
                U::NAME
            ));
        }
        if let Some(ls) = lockstep.as_deref_mut() {
            ls.cycle(inp, &out)?;
        }
        m.step(inp);
    }
    Ok(stim.cycles.len() as u64)
}
