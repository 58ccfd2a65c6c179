//! Stimulus files: a unit's inputs and golden outputs of every cycle of a
//! harness run, recorded by a [`Probe`] ([`StimulusWriter`]), read back
//! ([`read_stimulus`]) and replayed alone into a golden model and a probe
//! ([`replay`]).
//!
//! # Stimulus file format (JSON lines)
//! The first line is a header object:
//! ```json
//! {"format":"warpgen-stimulus","version":1,"unit":"ba_tag_array",
//!  "params":{"SETS":32,...},"inputs":["reset","req_valid",...],
//!  "outputs":["rsp_valid","rsp_outcome",...]}
//! ```
//! `params` are the unit's parameters (spec names), `inputs` and `outputs`
//! the port names in the unit's fixed order (`UnitSpec::inputs/outputs`).
//! Every further line is one clock cycle, in order from the first cycle of
//! the run (reset cycles included):
//! ```json
//! {"c":0,"in":[1,0,0,0,0],"out":[0,0,0,0,0]}
//! ```
//! `c` is the cycle number, `in` the value of every input port during the
//! cycle (applied before the rising edge; taken modulo 2^(its width), as
//! every probe sees it) and `out` the golden model's outputs sampled during
//! that cycle, before the edge. Values are unsigned integers. Replaying the
//! `in` column into a model built from `params` reproduces the `out`
//! column.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use ports::UnitSpec;

use crate::error::{probe_error, HarnessError};
use golden::check::{Probe, ProbeError};
use golden::GoldenModel;

/// Writes a stimulus file (module documentation) cycle by cycle: a
/// [`Probe`], attached to a unit in a harness run with
/// `Harness::record(unit, path)`.
pub struct StimulusWriter {
    w: BufWriter<File>,
    path: PathBuf,
    cycle: u64,
}

impl StimulusWriter {
    /// Create the file for unit `U` with parameters `params` and write its
    /// header.
    pub fn create<U: UnitSpec>(path: &Path, params: &U::Params) -> std::io::Result<Self> {
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
            path: path.to_path_buf(),
            cycle: 0,
        })
    }

    /// Append one cycle: one value per input port and per output port, in
    /// the unit's port order.
    pub fn record(&mut self, inputs: &[u64], outputs: &[u64]) -> std::io::Result<()> {
        write!(self.w, "{{\"c\":{},\"in\":[", self.cycle)?;
        for (i, v) in inputs.iter().enumerate() {
            if i > 0 {
                self.w.write_all(b",")?;
            }
            write!(self.w, "{v}")?;
        }
        self.w.write_all(b"],\"out\":[")?;
        for (i, v) in outputs.iter().enumerate() {
            if i > 0 {
                self.w.write_all(b",")?;
            }
            write!(self.w, "{v}")?;
        }
        self.w.write_all(b"]}\n")?;
        self.cycle += 1;
        Ok(())
    }

    fn io(&self, e: std::io::Error) -> ProbeError {
        ProbeError::Io(format!(
            "writing the stimulus file {}: {e}",
            self.path.display()
        ))
    }
}

impl Probe for StimulusWriter {
    fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
        self.record(inputs, golden).map_err(|e| self.io(e))
    }

    fn finish(&mut self) -> Result<(), ProbeError> {
        self.w.flush().map_err(|e| self.io(e))
    }
}

/// A stimulus file read back.
pub struct StimulusFile<U: UnitSpec> {
    /// The unit's parameters.
    pub params: U::Params,
    /// Per cycle: inputs and the recorded golden outputs.
    pub cycles: Vec<(U::In, U::Out)>,
    _u: PhantomData<U>,
}

impl<U: UnitSpec> Clone for StimulusFile<U> {
    fn clone(&self) -> Self {
        StimulusFile {
            params: self.params.clone(),
            cycles: self.cycles.clone(),
            _u: PhantomData,
        }
    }
}

impl<U: UnitSpec> std::fmt::Debug for StimulusFile<U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StimulusFile")
            .field("unit", &U::NAME)
            .field("params", &self.params)
            .field("cycles", &self.cycles.len())
            .finish()
    }
}

/// Read a stimulus file written by [`StimulusWriter`] for unit `U`.
pub fn read_stimulus<U: UnitSpec>(path: &Path) -> Result<StimulusFile<U>, String> {
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
    Ok(StimulusFile {
        params,
        cycles,
        _u: PhantomData,
    })
}

/// Replay a stimulus into a fresh golden model `M` (and `probe`, if
/// given, exactly as the harness drives it: inputs masked to their port
/// widths, outputs sampled before the edge). Checks that the model
/// reproduces the recorded outputs ([`HarnessError::Replay`] otherwise);
/// returns the number of cycles.
pub fn replay<U, M>(
    stim: &StimulusFile<U>,
    mut probe: Option<&mut dyn Probe>,
) -> Result<u64, HarnessError>
where
    U: UnitSpec,
    M: GoldenModel<U>,
{
    let mut m = M::new(&stim.params);
    let masks: Vec<u64> = U::inputs(&stim.params)
        .iter()
        .map(|p| ports::mask(p.width))
        .collect();
    for (c, (inp, want)) in stim.cycles.iter().enumerate() {
        let out = m.outputs();
        if out != *want {
            return Err(HarnessError::Replay(format!(
                "{}: cycle {c}: golden outputs {out:?} differ from the recorded {want:?}",
                U::NAME
            )));
        }
        if let Some(p) = probe.as_deref_mut() {
            let mut ins = U::in_values(&stim.params, inp);
            for (v, k) in ins.iter_mut().zip(&masks) {
                *v &= k;
            }
            p.cycle(&ins, &U::out_values(&stim.params, &out))
                .map_err(|e| probe_error(U::NAME, c as u64, e))?;
        }
        m.step(inp);
    }
    if let Some(p) = probe {
        p.finish()
            .map_err(|e| probe_error(U::NAME, stim.cycles.len() as u64, e))?;
    }
    Ok(stim.cycles.len() as u64)
}
