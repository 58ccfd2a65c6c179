//! Loading a kernel file: the TOML document, its top-level keys, the
//! launch dimensions and the arrays (their parameters in `params.rs`, their
//! contents in `contents.rs`, the body in `body.rs`).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::body::BodyCompiler;
use super::contents::{Graph, RawGraph};
use super::error::KernelError;
use super::loader::{line_starts, Loader};
use super::params::{missing_param, shown_expr};
use super::types::{
    hash_str, splitmix64, ArrayInfo, Contents, Kernel, Program, ARRAY_ALIGN, ARRAY_BASE,
};

impl Kernel {
    /// Load a kernel file. `overrides` replace parameter values
    /// (`--set param.N=...`); `seed` is the run seed mixed into the
    /// synthetic contents.
    pub fn from_file(
        path: &Path,
        overrides: &[(String, i64)],
        seed: u64,
    ) -> Result<Kernel, KernelError> {
        let file = path.display().to_string();
        let err = |msg: String| KernelError {
            file: file.clone(),
            line: None,
            field: "(file)".into(),
            msg,
        };
        let bytes = crate::input_file::read_bounded(
            path,
            crate::input_file::MAX_KERNEL_FILE_BYTES,
            "a kernel file (TOML)",
        )
        .map_err(err)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| err("not UTF-8 text: a kernel file is TOML text".into()))?;
        // A byte-order mark (an editor's) is not part of the TOML.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
        Kernel::from_str(&text, &file, overrides, seed)
    }

    /// Load a kernel from text; `file` names it in errors.
    pub fn from_str(
        text: &str,
        file: &str,
        overrides: &[(String, i64)],
        seed: u64,
    ) -> Result<Kernel, KernelError> {
        Loader {
            text,
            file,
            line_starts: line_starts(text),
        }
        .load(overrides, seed)
    }
}

/// The kernel file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    name: Spanned<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    grid: Spanned<Vec<Spanned<toml::Value>>>,
    block: Spanned<Vec<Spanned<toml::Value>>>,
    #[serde(default)]
    smem_bytes: Option<Spanned<toml::Value>>,
    #[serde(default)]
    regs: Option<Spanned<toml::Value>>,
    #[serde(default)]
    address_arithmetic: Option<bool>,
    body: Spanned<String>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    arrays: BTreeMap<String, Spanned<RawArray>>,
    #[serde(default)]
    graphs: BTreeMap<String, Spanned<RawGraph>>,
}

/// An `[arrays.NAME]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArray {
    elem: Spanned<toml::Value>,
    len: Spanned<toml::Value>,
    #[serde(default)]
    contents: Option<Spanned<toml::Value>>,
}

impl Loader<'_> {
    fn load(&self, overrides: &[(String, i64)], run_seed: u64) -> Result<Kernel, KernelError> {
        let raw = self.document()?;
        let params = self.params(&raw.params, overrides)?;
        let grid = self.dims(&raw.grid, "grid", &params)?;
        let block = self.dims(&raw.block, "block", &params)?;
        // CUDA's limits, as traces have them (`crate::trace`).
        use crate::trace::{MAX_BLOCK_DIMS, MAX_BLOCK_THREADS, MAX_GRID_DIMS};
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        let over = |d: [u32; 3], m: [u32; 3]| d.iter().zip(m).any(|(&x, m)| x > m);
        if threads > MAX_BLOCK_THREADS || over(block, MAX_BLOCK_DIMS) {
            let [x, y, z] = MAX_BLOCK_DIMS;
            return Err(self.err(
                Some(raw.block.span().start),
                "block",
                format!(
                    "{block:?}: {threads} threads per CTA; CUDA allows at most \
                     {MAX_BLOCK_THREADS} threads, x <= {x}, y <= {y}, z <= {z}"
                ),
            ));
        }
        if over(grid, MAX_GRID_DIMS) {
            let [x, y, z] = MAX_GRID_DIMS;
            return Err(self.err(
                Some(raw.grid.span().start),
                "grid",
                format!("{grid:?}: CUDA allows a grid of at most x <= {x}, y <= {y}, z <= {z}"),
            ));
        }
        if let Some(c) = raw.name.get_ref().chars().find(|c| c.is_control()) {
            return Err(self.err(
                Some(raw.name.span().start),
                "name",
                format!(
                    "contains the control character U+{:04X}; a kernel name is printable text \
                     (it is printed in tables and on the terminal)",
                    c as u32
                ),
            ));
        }
        let smem_bytes = self.smem_bytes(raw.smem_bytes.as_ref(), &params)?;
        let regs = self.regs(raw.regs.as_ref(), &params)?;

        let kseed = raw.seed.unwrap_or(0);
        let contents_seed = splitmix64(run_seed ^ splitmix64(kseed ^ 0x5EED));
        let graphs = self.graphs(&raw.graphs, &params, contents_seed)?;
        let arrays = self.arrays(&raw.arrays, &params, contents_seed, &graphs)?;
        let program = self.body(&raw.body, &params, &arrays, grid, block)?;

        Ok(Kernel {
            name: raw.name.get_ref().clone(),
            description: raw.description.unwrap_or_default(),
            source: raw.source.unwrap_or_default(),
            file: self.file.to_string(),
            grid,
            block,
            smem_bytes,
            regs,
            address_arithmetic: raw.address_arithmetic.unwrap_or(true),
            params,
            arrays,
            contents_seed,
            program,
            trace: None,
        })
    }

    /// The TOML document; an error names the field it is about (none for
    /// a syntax error).
    fn document(&self) -> Result<RawKernel, KernelError> {
        toml::from_str(self.text).map_err(|e| {
            let msg = e.message().to_string();
            let field = if let Some(f) = msg
                .strip_prefix("missing field `")
                .and_then(|r| r.split('`').next())
            {
                f.to_string()
            } else if let Some(f) = msg
                .strip_prefix("unknown field `")
                .and_then(|r| r.split('`').next())
            {
                f.to_string()
            } else if [
                "invalid type",
                "invalid value",
                "invalid length",
                "duplicate field",
            ]
            .iter()
            .any(|p| msg.starts_with(p))
            {
                e.span()
                    .map(|s| self.field_at(s.start))
                    .unwrap_or_else(|| "(document)".into())
            } else {
                // A syntax error: not about one field.
                String::new()
            };
            let msg = if field.is_empty() {
                format!("TOML syntax error: {}", msg.replace('\n', " "))
            } else {
                msg
            };
            self.err(e.span().map(|s| s.start), &field, msg)
        })
    }

    /// `grid` or `block`: 1 to 3 dimensions, each in 1..=2^31.
    fn dims(
        &self,
        v: &Spanned<Vec<Spanned<toml::Value>>>,
        what: &str,
        params: &BTreeMap<String, i64>,
    ) -> Result<[u32; 3], KernelError> {
        let list = v.get_ref();
        if list.is_empty() || list.len() > 3 {
            return Err(self.err(
                Some(v.span().start),
                what,
                "expected 1 to 3 dimensions (x, y, z)",
            ));
        }
        let mut d = [1u32; 3];
        for (i, x) in list.iter().enumerate() {
            let f = format!("{what}[{i}]");
            let val = self.scalar(x, &f, params)?;
            if !(1..=1 << 31).contains(&val) {
                return Err(self.err(
                    Some(x.span().start),
                    &f,
                    format!(
                        "dimension {val} out of range (1..=2^31){}",
                        shown_expr(x, params)
                    ),
                ));
            }
            d[i] = val as u32;
        }
        Ok(d)
    }

    /// `smem_bytes`: 0..=2^24 (0 when absent).
    fn smem_bytes(
        &self,
        v: Option<&Spanned<toml::Value>>,
        params: &BTreeMap<String, i64>,
    ) -> Result<u32, KernelError> {
        let Some(v) = v else {
            return Ok(0);
        };
        let x = self.scalar(v, "smem_bytes", params)?;
        if !(0..=1 << 24).contains(&x) {
            return Err(self.err(
                Some(v.span().start),
                "smem_bytes",
                format!("{x} bytes out of range (0..=2^24){}", shown_expr(v, params)),
            ));
        }
        Ok(x as u32)
    }

    /// `regs`: registers per thread, 1..=255 (0 when absent).
    fn regs(
        &self,
        v: Option<&Spanned<toml::Value>>,
        params: &BTreeMap<String, i64>,
    ) -> Result<u32, KernelError> {
        let Some(v) = v else {
            return Ok(0);
        };
        let x = self.scalar(v, "regs", params)?;
        if !(1..=255).contains(&x) {
            return Err(self.err(
                Some(v.span().start),
                "regs",
                format!("{x} registers per thread; allowed 1..=255"),
            ));
        }
        Ok(x as u32)
    }

    /// The arrays, in file order, at their base addresses.
    fn arrays(
        &self,
        raw: &BTreeMap<String, Spanned<RawArray>>,
        params: &BTreeMap<String, i64>,
        contents_seed: u64,
        graphs: &HashMap<String, Arc<Graph>>,
    ) -> Result<Vec<ArrayInfo>, KernelError> {
        let mut raw_arrays: Vec<(&String, &Spanned<RawArray>)> = raw.iter().collect();
        raw_arrays.sort_by_key(|(_, a)| a.span().start);
        let mut arrays = Vec::new();
        let mut next_base = ARRAY_BASE;
        for (aname, a) in raw_arrays {
            let field = format!("arrays.{aname}");
            let ra = a.get_ref();
            let elem = self.scalar(&ra.elem, &format!("{field}.elem"), params)?;
            if ![1, 2, 4, 8].contains(&elem) {
                return Err(self.err(
                    Some(ra.elem.span().start),
                    &format!("{field}.elem"),
                    format!(
                        "element size {elem}; expected 1, 2, 4 or 8{}",
                        shown_expr(&ra.elem, params)
                    ),
                ));
            }
            let len = self.scalar(&ra.len, &format!("{field}.len"), params)?;
            if !(1..=1 << 30).contains(&len) {
                return Err(self.err(
                    Some(ra.len.span().start),
                    &format!("{field}.len"),
                    format!(
                        "length {len}; allowed 1..=2^30{}",
                        shown_expr(&ra.len, params)
                    ),
                ));
            }
            let seed = contents_seed ^ splitmix64(hash_str(aname));
            let contents = match &ra.contents {
                None => Contents::Zero,
                Some(c) => self.contents(c, &format!("{field}.contents"), seed, graphs)?,
            };
            let bytes = len as u64 * elem as u64;
            if next_base + bytes > 1 << 32 {
                return Err(self.err(
                    Some(ra.len.span().start),
                    &format!("{field}.len"),
                    "the arrays do not fit in the 32-bit address space above 0xC0000000",
                ));
            }
            arrays.push(ArrayInfo {
                name: aname.clone(),
                elem: elem as u32,
                len: len as u64,
                base: next_base,
                contents,
            });
            next_base = (next_base + bytes).div_ceil(ARRAY_ALIGN) * ARRAY_ALIGN;
        }
        Ok(arrays)
    }

    /// The body compiled, its lines counted in the file.
    fn body(
        &self,
        body: &Spanned<String>,
        params: &BTreeMap<String, i64>,
        arrays: &[ArrayInfo],
        grid: [u32; 3],
        block: [u32; 3],
    ) -> Result<Program, KernelError> {
        let body_line0 = {
            let s = body.span().start;
            let lit = &self.text[s..];
            let mut l = self.line_of(s);
            if (lit.starts_with("\"\"\"") || lit.starts_with("'''"))
                && (lit[3..].starts_with('\n') || lit[3..].starts_with("\r\n"))
            {
                l += 1;
            }
            l
        };
        let program =
            BodyCompiler::compile(body.get_ref(), params, arrays, grid, block, body_line0)
                .map_err(|e| KernelError {
                    file: self.file.to_string(),
                    line: Some(body_line0 + e.pos.line),
                    field: "body".into(),
                    msg: e.msg,
                })?;
        let mut program = program;
        for m in &mut program.mems {
            m.line += body_line0;
        }
        for l in &mut program.loop_lines {
            *l += body_line0;
        }
        Ok(program)
    }

    /// The parameters' values: the overrides, then every other parameter
    /// resolved in dependency order.
    fn params(
        &self,
        raw: &BTreeMap<String, Spanned<toml::Value>>,
        overrides: &[(String, i64)],
    ) -> Result<BTreeMap<String, i64>, KernelError> {
        let mut params: BTreeMap<String, i64> = BTreeMap::new();
        for (k, v) in overrides {
            if !raw.contains_key(k) {
                return Err(self.err(
                    None,
                    &format!("params.{k}"),
                    format!(
                        "no parameter `{k}` to override; the kernel has: {}",
                        raw.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            params.insert(k.clone(), *v);
        }
        let mut pending: Vec<(&String, &Spanned<toml::Value>)> = raw
            .iter()
            .filter(|(k, _)| !params.contains_key(*k))
            .collect();
        while let Some(&(first, first_v)) = pending.first() {
            let before = pending.len();
            let mut still = Vec::new();
            for (k, v) in pending {
                // A parameter waits for the parameters it names; any other
                // error (syntax, overflow, a zero divisor) is its own.
                if missing_param(v, &params).is_some() {
                    still.push((k, v));
                    continue;
                }
                let x = self.scalar(v, &format!("params.{k}"), &params)?;
                params.insert(k.clone(), x);
            }
            if still.len() == before {
                let field = format!("params.{first}");
                return Err(match missing_param(first_v, &params) {
                    Some(m) if raw.contains_key(&m) => self.err(
                        Some(first_v.span().start),
                        &field,
                        format!(
                            "`{first}` needs `{m}`, which cannot be resolved first: the \
                             parameters depend on one another in a cycle"
                        ),
                    ),
                    _ => match self.scalar(first_v, &field, &params) {
                        Err(e) => e,
                        Ok(_) => self.err(Some(first_v.span().start), &field, "cannot be resolved"),
                    },
                });
            }
            pending = still;
        }
        Ok(params)
    }
}
