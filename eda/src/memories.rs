//! Memories as SRAM macros: the fakeram45 macro set of the OpenROAD flow's
//! NanGate45 platform, a fitted area model for sizes in between, and an
//! inventory of the memory modules (`hdl::mem`-style `reg [W-1:0] mem
//! [0:D-1]` arrays) of an emitted Verilog file.
//!
//! # The memory module
//!
//! The units' tables are `hdl::mem::Mem` / `Mem2` instances, each emitted
//! as its own Verilog module with ports `clock`, `r_addr` / `r_data` (and
//! `r2_addr` / `r2_data` for a second read port), `w_en` / `w_addr` /
//! `w_data`, and optionally `taps__<i>` (entry `i`). Its body
//! (`reg [W-1:0] mem [0:D-1]`, combinational reads, one synchronous write)
//! is the flip-flop model used in simulation and in the flip-flop view.
//! For the SRAM view the macro memories' modules are marked
//! `(* blackbox *)` ([`blackbox_modules`]) so that synthesis keeps each
//! instance as a macro placeholder, whose area comes from [`macro_cost`].
//!
//! # The macro set
//!
//! [`FAKERAM45`] lists every `fakeram45_<words>x<bits>` abstract in
//! `flow/platforms/nangate45/lef/` of
//! [OpenROAD-flow-scripts](https://github.com/The-OpenROAD-Project/OpenROAD-flow-scripts)
//! (snapshot commit [`FAKERAM45_SOURCE_COMMIT`]) with the `SIZE w BY h ;`
//! line of its LEF. Only the sizes are copied (facts, no code). Licence note:
//! the flow's scripts are BSD-3-Clause (`LICENSE_BUILD_RUN_SCRIPTS`), the
//! `flow/platforms/nangate45/` folder that holds these LEFs carries an
//! Apache-2.0 `LICENSE`, and the fakeram abstracts are produced by the
//! BSD-3-Clause `bsg_fakeram` generator ([`FAKERAM45_LICENCE`]).
//!
//! The macros are single-port (1RW: `addr_in`, `we_in`, `ce_in`, `wd_in`,
//! `w_mask_in`, `rd_out`, one clock) with a synchronous read. How our
//! 1R1W / 2R1W memories are costed with them is [`MacroCost`]'s rule.
//!
//! # The fit
//!
//! [`SramFit`] is a least-squares fit of the macro areas,
//! `area = a + b·words·bits + c·bits + d·words` (µm²), over all of
//! [`FAKERAM45`]. It is used only for a size that is not a macro; an exact
//! macro is always taken as it is. [`SramFit::errors`] gives its error on
//! each macro, in the fit and left out of it (leave-one-out). The set is
//! not smooth (three 64-word macros of 25, 28 and 32 bits share one
//! footprint; 64x256 and 128x256 too), so the error is large on some
//! macros and is printed beside every fitted area.
//!
//! # Which memories may be macros
//!
//! See [`MacroCost`] and [`inventory`]: a memory with taps (every entry on
//! a port, read in parallel: a CAM or register file) is never a macro; one
//! shallower than [`MIN_MACRO_WORDS`] is costed as a macro of that depth
//! (no shallower macro exists and the fit is not extrapolated below the
//! set); and a memory whose macro would be larger than its flip-flop
//! implementation stays in flip-flops (the caller decides this with the
//! synthesized flip-flop area). A fitted area is never below the
//! smallest macro's ([`MIN_MACRO_AREA_UM2`]).

use std::collections::BTreeMap;

/// Commit of OpenROAD-flow-scripts the sizes in [`FAKERAM45`] were read at.
pub const FAKERAM45_SOURCE_COMMIT: &str = "8c009b0b663703fc3fe2f474eab918b12fffbaf6";

/// Where the sizes come from.
pub const FAKERAM45_SOURCE: &str = "The-OpenROAD-Project/OpenROAD-flow-scripts \
     flow/platforms/nangate45/lef/fakeram45_*.lef (SIZE line of each LEF)";

/// The licences of the source.
pub const FAKERAM45_LICENCE: &str = "OpenROAD-flow-scripts scripts: BSD-3-Clause; \
     flow/platforms/nangate45/ folder LICENSE: Apache-2.0; fakeram abstracts generated \
     by bsg_fakeram (BSD-3-Clause). Only the macro dimensions are used here.";

/// A fakeram45 macro: a single-port (1RW) SRAM abstract.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FakeRam {
    /// Macro name (`fakeram45_<words>x<bits>`).
    pub name: &'static str,
    /// Words (depth).
    pub words: u64,
    /// Bits per word.
    pub bits: u64,
    /// Width in µm (the LEF's `SIZE w BY h`).
    pub width_um: f64,
    /// Height in µm.
    pub height_um: f64,
}

impl FakeRam {
    /// Area in µm² (width × height).
    pub fn area_um2(&self) -> f64 {
        self.width_um * self.height_um
    }
}

const fn ram(name: &'static str, words: u64, bits: u64, width_um: f64, height_um: f64) -> FakeRam {
    FakeRam {
        name,
        words,
        bits,
        width_um,
        height_um,
    }
}

/// Every fakeram45 macro of the NanGate45 platform, with its LEF size
/// (see the module documentation for the source and licence).
pub const FAKERAM45: &[FakeRam] = &[
    ram("fakeram45_32x32", 32, 32, 19.570, 40.600),
    ram("fakeram45_32x64", 32, 64, 36.860, 62.000),
    ram("fakeram45_64x7", 64, 7, 10.640, 36.400),
    ram("fakeram45_64x15", 64, 15, 11.210, 58.800),
    ram("fakeram45_64x21", 64, 21, 15.770, 60.200),
    ram("fakeram45_64x25", 64, 25, 20.140, 61.600),
    ram("fakeram45_64x28", 64, 28, 20.140, 61.600),
    ram("fakeram45_64x32", 64, 32, 20.140, 61.600),
    ram("fakeram45_64x62", 64, 62, 77.900, 60.500),
    ram("fakeram45_64x64", 64, 64, 77.900, 62.200),
    ram("fakeram45_64x96", 64, 96, 54.530, 89.400),
    ram("fakeram45_64x124", 64, 124, 78.090, 112.600),
    ram("fakeram45_64x256", 64, 256, 151.810, 223.900),
    ram("fakeram45_128x32", 128, 32, 78.470, 42.000),
    ram("fakeram45_128x64", 128, 64, 78.280, 70.000),
    ram("fakeram45_128x116", 128, 116, 74.480, 124.600),
    ram("fakeram45_128x256", 128, 256, 151.810, 223.900),
    ram("fakeram45_256x16", 256, 16, 77.710, 40.600),
    ram("fakeram45_256x32", 256, 32, 78.660, 64.400),
    ram("fakeram45_256x34", 256, 34, 98.420, 65.800),
    ram("fakeram45_256x48", 256, 48, 115.710, 67.200),
    ram("fakeram45_256x95", 256, 95, 115.140, 119.000),
    ram("fakeram45_256x96", 256, 96, 115.140, 119.000),
    ram("fakeram45_512x64", 512, 64, 152.570, 113.400),
    ram("fakeram45_1024x32", 1024, 32, 152.190, 107.800),
    ram("fakeram45_2048x39", 2048, 39, 206.910, 219.800),
];

/// Memories shallower than this are costed as a macro of this depth: no
/// fakeram45 macro is shallower (the smallest is 32 words), and the fit is
/// not extrapolated below the set.
pub const MIN_MACRO_WORDS: u64 = 32;

/// The area of the smallest macro of the set (`fakeram45_64x7`,
/// 10.64 × 36.4 µm): a fitted area is never taken below it, because the
/// linear fit falls to zero for very narrow memories where no macro exists
/// (the periphery of a macro does not shrink with its array).
pub const MIN_MACRO_AREA_UM2: f64 = 10.640 * 36.400;

/// The macro of exactly `words` × `bits`, if the set has one.
pub fn exact_macro(words: u64, bits: u64) -> Option<&'static FakeRam> {
    FAKERAM45
        .iter()
        .find(|m| m.words == words && m.bits == bits)
}

/// Error of the fit on one macro.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FitError {
    /// Macro name.
    pub name: &'static str,
    /// LEF area, µm².
    pub area_um2: f64,
    /// Fitted area (all macros in the fit), µm².
    pub fitted_um2: f64,
    /// Relative error of the fit, `(fitted - area) / area`.
    pub rel_error: f64,
    /// Relative error with this macro left out of the fit.
    pub loo_rel_error: f64,
}

/// The least-squares area model `a + b·words·bits + c·bits + d·words`
/// (µm²) of a set of macros.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SramFit {
    /// Coefficients `[a, b, c, d]`.
    pub coef: [f64; 4],
}

fn features(words: u64, bits: u64) -> [f64; 4] {
    let (w, b) = (words as f64, bits as f64);
    [1.0, w * b, b, w]
}

/// Solves the 4×4 system `m x = v` by Gaussian elimination with partial
/// pivoting; `None` if it is singular.
// Index loops read as the textbook algorithm (rows and columns of `m`).
#[allow(clippy::needless_range_loop)]
fn solve4(mut m: [[f64; 4]; 4], mut v: [f64; 4]) -> Option<[f64; 4]> {
    for col in 0..4 {
        let piv = (col..4).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[piv][col].abs() < 1e-12 * m[piv].iter().map(|x| x.abs()).fold(1.0, f64::max) {
            return None;
        }
        m.swap(col, piv);
        v.swap(col, piv);
        for row in 0..4 {
            if row != col {
                let f = m[row][col] / m[col][col];
                for k in col..4 {
                    m[row][k] -= f * m[col][k];
                }
                v[row] -= f * v[col];
            }
        }
    }
    let mut x = [0.0; 4];
    for i in 0..4 {
        x[i] = v[i] / m[i][i];
    }
    Some(x)
}

impl SramFit {
    /// Least-squares fit over `macros`, each residual weighted by
    /// `1 / area` (a fit of relative error, so small macros count as much
    /// as large ones). `None` with fewer than four macros or a singular
    /// system.
    pub fn fit(macros: &[FakeRam]) -> Option<SramFit> {
        if macros.len() < 4 {
            return None;
        }
        let mut ata = [[0.0; 4]; 4];
        let mut aty = [0.0; 4];
        for m in macros {
            let wgt = 1.0 / m.area_um2();
            let x = features(m.words, m.bits).map(|f| f * wgt);
            let y = m.area_um2() * wgt;
            for i in 0..4 {
                for j in 0..4 {
                    ata[i][j] += x[i] * x[j];
                }
                aty[i] += x[i] * y;
            }
        }
        solve4(ata, aty).map(|coef| SramFit { coef })
    }

    /// The fit of all of [`FAKERAM45`].
    pub fn fakeram45() -> SramFit {
        // The table is fixed and its system is not singular (checked by a
        // test); the fallback only keeps this free of panics.
        SramFit::fit(FAKERAM45).unwrap_or(SramFit {
            coef: [0.0, 0.0, 0.0, 0.0],
        })
    }

    /// Fitted area of a `words` × `bits` memory, µm² (the bare model,
    /// never below zero; [`macro_cost`] also floors it at the smallest
    /// macro, see [`MIN_MACRO_AREA_UM2`]).
    pub fn area_um2(&self, words: u64, bits: u64) -> f64 {
        let f = features(words, bits);
        (0..4).map(|i| self.coef[i] * f[i]).sum::<f64>().max(0.0)
    }

    /// The fit's error on each macro of `macros` (fitted on all of them),
    /// and with that macro left out of the fit.
    pub fn errors(macros: &[FakeRam]) -> Vec<FitError> {
        let all = SramFit::fit(macros);
        macros
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let area = m.area_um2();
                let fitted = all
                    .as_ref()
                    .map_or(f64::NAN, |f| f.area_um2(m.words, m.bits));
                let rest: Vec<FakeRam> = macros
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, m)| *m)
                    .collect();
                let loo = SramFit::fit(&rest).map_or(f64::NAN, |f| f.area_um2(m.words, m.bits));
                FitError {
                    name: m.name,
                    area_um2: area,
                    fitted_um2: fitted,
                    rel_error: (fitted - area) / area,
                    loo_rel_error: (loo - area) / area,
                }
            })
            .collect()
    }
}

/// Root mean square of the relative errors `f(e)` of `errors`.
pub fn rms(errors: &[FitError], f: impl Fn(&FitError) -> f64) -> f64 {
    if errors.is_empty() {
        return 0.0;
    }
    (errors.iter().map(|e| f(e).powi(2)).sum::<f64>() / errors.len() as f64).sqrt()
}

/// Where a macro area comes from.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum MacroSource {
    /// A fakeram45 macro of exactly the costed size.
    Exact(&'static str),
    /// The fit ([`SramFit`]), with the root-mean-square leave-one-out
    /// relative error of the fit as its stated uncertainty.
    Fit {
        /// RMS leave-one-out relative error of the fit over the set.
        loo_rms: f64,
    },
}

/// The macro cost of one memory instance.
///
/// Rule: each read port gets its own copy of a single-port macro of the
/// costed size, every copy written together (the usual way to add read
/// ports to SRAM: a 2R1W memory is two macros). A 1R1W memory is costed as
/// one single-port macro of the same size. Caveats, printed with the
/// report: a real 1R1W (two-port) macro is larger than a 1RW one, and
/// with one port a read and a write cannot share a cycle; and the macros
/// read synchronously while our memories read combinationally, so using
/// them moves each read one cycle earlier (a pipeline change the RTL does
/// not make). The costed size is `max(words, MIN_MACRO_WORDS)` × `bits`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MacroCost {
    /// Words of the macro costed (`max(words, MIN_MACRO_WORDS)`).
    pub words: u64,
    /// Bits of the macro costed.
    pub bits: u64,
    /// Copies per instance (one per read port).
    pub copies: u64,
    /// Area of one copy, µm².
    pub area_each_um2: f64,
    /// Exact macro or the fit.
    pub source: MacroSource,
}

impl MacroCost {
    /// Area of one instance (all its copies), µm².
    pub fn area_um2(&self) -> f64 {
        self.area_each_um2 * self.copies as f64
    }

    /// `fakeram45_64x32` or `fit 48x21 (±x %)`, with the copies.
    pub fn label(&self) -> String {
        let what = match &self.source {
            MacroSource::Exact(n) => n.to_string(),
            MacroSource::Fit { loo_rms } => format!(
                "fit {}x{} (±{:.0} %)",
                self.words,
                self.bits,
                100.0 * loo_rms
            ),
        };
        if self.copies > 1 {
            format!("{} x {what}", self.copies)
        } else {
            what
        }
    }
}

/// The macro cost of a `words` × `bits` memory with `read_ports` read
/// ports (see [`MacroCost`] for the rule).
pub fn macro_cost(words: u64, bits: u64, read_ports: u64) -> MacroCost {
    let w = words.max(MIN_MACRO_WORDS);
    let (area, source) = match exact_macro(w, bits) {
        Some(m) => (m.area_um2(), MacroSource::Exact(m.name)),
        None => {
            let errs = SramFit::errors(FAKERAM45);
            (
                SramFit::fakeram45()
                    .area_um2(w, bits)
                    .max(MIN_MACRO_AREA_UM2),
                MacroSource::Fit {
                    loo_rms: rms(&errs, |e| e.loo_rel_error),
                },
            )
        }
    };
    MacroCost {
        words: w,
        bits,
        copies: read_ports.max(1),
        area_each_um2: area,
        source,
    }
}

/// A memory module of an emitted Verilog file.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MemoryModule {
    /// Module name.
    pub module: String,
    /// Entries.
    pub words: u64,
    /// Bits per entry.
    pub bits: u64,
    /// Read ports (`r_data`, `r2_data`, ...).
    pub read_ports: u64,
    /// Write ports.
    pub write_ports: u64,
    /// Whether every entry is on a `taps__<i>` output (read in parallel).
    pub taps: bool,
    /// Instances in the design under the top module.
    pub instances: u64,
    /// Instance paths (`ways__0.tag`), at most a few.
    pub example_paths: Vec<String>,
}

impl MemoryModule {
    /// Why the memory can or cannot be an SRAM macro, before areas are
    /// compared: `None` when it may be one.
    pub fn structural_reason_not_sram(&self) -> Option<&'static str> {
        if self.taps {
            Some("taps: every entry read in parallel (CAM / register file)")
        } else if self.write_ports != 1 {
            Some("not one write port")
        } else {
            None
        }
    }
}

/// One module of a Verilog text: its name, body, and the instances it
/// makes (child module, instance name).
#[derive(Clone, Debug)]
struct VModule<'a> {
    name: &'a str,
    header: &'a str,
    body: &'a str,
    children: Vec<(&'a str, &'a str)>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '$')
}

/// Splits Verilog text into its modules (`module NAME(...);` ...
/// `endmodule`), as the generator emits them.
fn split_modules(text: &str) -> Vec<VModule<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = find_keyword(rest, "module ") {
        let after = &rest[i + "module ".len()..];
        let name_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(after.len());
        let name = &after[..name_end];
        let end = after.find("endmodule").unwrap_or(after.len());
        let whole = &after[..end];
        let header_end = whole.find(';').unwrap_or(0);
        out.push(VModule {
            name,
            header: &whole[..header_end],
            body: &whole[header_end..],
            children: Vec::new(),
        });
        rest = &after[end..];
        if rest.len() >= "endmodule".len() {
            rest = &rest["endmodule".len()..];
        }
    }
    let names: Vec<&str> = out.iter().map(|m| m.name).collect();
    for m in &mut out {
        for line in m.body.lines() {
            let t = line.trim_start();
            let mut parts = t.split_whitespace();
            if let (Some(ty), Some(inst)) = (parts.next(), parts.next()) {
                let inst = inst.split('(').next().unwrap_or("");
                if names.contains(&ty) && is_ident(inst) && t.contains('(') {
                    m.children.push((ty, inst));
                }
            }
        }
    }
    out
}

/// Position of `kw` at the start of a line of `text`.
fn find_keyword(text: &str, kw: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(kw) {
        let at = from + i;
        if at == 0 || text.as_bytes()[at - 1] == b'\n' {
            return Some(at);
        }
        from = at + kw.len();
    }
    None
}

/// `reg [H:0] mem [0:D-1];` in a module body: (bits, words).
fn parse_mem_decl(body: &str) -> Option<(u64, u64)> {
    for line in body.lines() {
        let t = line.trim();
        if !(t.starts_with("reg ") && t.contains(" mem [")) {
            continue;
        }
        let after_reg = t["reg ".len()..].trim_start();
        let bits = if let Some(r) = after_reg.strip_prefix('[') {
            let inner = r.split(']').next()?;
            let (hi, lo) = inner.split_once(':')?;
            hi.trim().parse::<u64>().ok()? - lo.trim().parse::<u64>().ok()? + 1
        } else {
            1
        };
        let arr = t.split(" mem [").nth(1)?;
        let inner = arr.split(']').next()?;
        let (lo, hi) = inner.split_once(':')?;
        let words = hi.trim().parse::<u64>().ok()? + 1 - lo.trim().parse::<u64>().ok()?;
        return Some((bits, words));
    }
    None
}

/// The memory modules of `verilog` under `top`, with their instance counts.
///
/// A memory module is one declaring `reg [..] mem [..]`; its read ports
/// are its `always @(*) <x> = mem[<addr>]` lines, its write ports its
/// `mem[..] <=` lines, and it has taps if its header has `taps__` ports.
/// Modules not instantiated under `top` are left out.
pub fn inventory(verilog: &str, top: &str) -> Vec<MemoryModule> {
    let mods = split_modules(verilog);
    let by_name: BTreeMap<&str, &VModule> = mods.iter().map(|m| (m.name, m)).collect();
    // Instance counts and example paths by walking down from the top.
    let mut counts: BTreeMap<&str, (u64, Vec<String>)> = BTreeMap::new();
    let mut stack: Vec<(&str, String, u32)> = vec![(top, String::new(), 0)];
    while let Some((name, path, depth)) = stack.pop() {
        let Some(m) = by_name.get(name) else {
            continue;
        };
        if depth > 64 {
            continue;
        }
        for (ty, inst) in &m.children {
            let p = if path.is_empty() {
                inst.to_string()
            } else {
                format!("{path}.{inst}")
            };
            let e = counts.entry(ty).or_default();
            e.0 += 1;
            if e.1.len() < 2 {
                e.1.push(p.clone());
            }
            stack.push((ty, p, depth + 1));
        }
    }
    let mut out = Vec::new();
    for m in &mods {
        let Some((bits, words)) = parse_mem_decl(m.body) else {
            continue;
        };
        let Some((n, paths)) = counts.get(m.name) else {
            continue;
        };
        let read_ports = m
            .body
            .lines()
            .filter(|l| {
                let t = l.trim();
                t.starts_with("always @(*)") && t.contains("= mem[") && !t.contains("taps__")
            })
            .count() as u64;
        let write_ports = m
            .body
            .lines()
            .filter(|l| l.contains("mem[") && l.contains("] <="))
            .count() as u64;
        out.push(MemoryModule {
            module: m.name.to_string(),
            words,
            bits,
            read_ports,
            write_ports,
            taps: m.header.contains("taps__"),
            instances: *n,
            example_paths: paths.clone(),
        });
    }
    out
}

/// The text of module `name` in `verilog` (`module name(` to its
/// `endmodule`), if present.
pub fn module_text(verilog: &str, name: &str) -> Option<String> {
    let m = split_modules(verilog)
        .into_iter()
        .find(|m| m.name == name)?;
    Some(format!(
        "module {}{}{}endmodule\n",
        m.name,
        &m.header[m.name.len()..],
        m.body
    ))
}

/// `verilog` with each module of `names` marked `(* blackbox *)`: Yosys
/// then keeps its instances as cells of unknown area, and drops its body.
pub fn blackbox_modules(verilog: &str, names: &[&str]) -> String {
    let mut out = String::with_capacity(verilog.len() + 16 * names.len());
    for line in verilog.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("module ") {
            let name = rest
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .next()
                .unwrap_or("");
            if names.contains(&name) {
                out.push_str("(* blackbox *)\n");
            }
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_macro_is_returned_for_a_macro_size() {
        let c = macro_cost(512, 64, 1);
        assert_eq!(c.source, MacroSource::Exact("fakeram45_512x64"));
        assert!((c.area_um2() - 152.570 * 113.400).abs() < 1e-6);
        let c = macro_cost(8, 32, 2);
        assert_eq!(c.source, MacroSource::Exact("fakeram45_32x32"));
        assert_eq!(c.copies, 2);
        assert!(matches!(
            macro_cost(192, 62, 1).source,
            MacroSource::Fit { .. }
        ));
    }

    #[test]
    fn table_is_consistent() {
        for m in FAKERAM45 {
            assert_eq!(m.name, format!("fakeram45_{}x{}", m.words, m.bits));
            assert!(m.area_um2() > 100.0 && m.area_um2() < 1e5, "{}", m.name);
        }
        assert_eq!(
            FAKERAM45.iter().map(|m| m.words).min(),
            Some(MIN_MACRO_WORDS)
        );
        let smallest = FAKERAM45
            .iter()
            .map(|m| m.area_um2())
            .fold(f64::INFINITY, f64::min);
        assert!((smallest - MIN_MACRO_AREA_UM2).abs() < 1e-9);
        // A tiny memory is never costed below the smallest macro.
        assert!(macro_cost(8, 2, 1).area_um2() >= MIN_MACRO_AREA_UM2);
    }

    #[test]
    fn fit_is_bounded_and_monotone() {
        let f = SramFit::fit(FAKERAM45).expect("fit");
        let errs = SramFit::errors(FAKERAM45);
        assert_eq!(errs.len(), FAKERAM45.len());
        let r = rms(&errs, |e| e.rel_error);
        let l = rms(&errs, |e| e.loo_rel_error);
        assert!(r < 0.6, "rms {r}");
        assert!(l >= r * 0.99 && l < 1.0, "loo rms {l}");
        // More bits or more words never cost less.
        for (w, b) in [(64, 32), (128, 62), (192, 62), (256, 32)] {
            assert!(f.area_um2(w, b + 8) >= f.area_um2(w, b));
            assert!(f.area_um2(w * 2, b) >= f.area_um2(w, b));
        }
    }

    #[test]
    fn solve_recovers_a_known_model() {
        let coef = [50.0, 0.8, 10.0, 2.0];
        let mut ms = Vec::new();
        for (w, b) in [(32, 8), (64, 16), (128, 7), (256, 40), (512, 3), (64, 99)] {
            let f = features(w, b);
            let a: f64 = (0..4).map(|i| coef[i] * f[i]).sum();
            ms.push(ram("x", w, b, a, 1.0));
        }
        let fit = SramFit::fit(&ms).unwrap();
        for (got, want) in fit.coef.iter().zip(coef) {
            assert!(
                (got - want).abs() < 1e-6 * want.abs().max(1.0),
                "{got} {want}"
            );
        }
        assert!(SramFit::fit(&ms[..3]).is_none());
    }

    const TEXT: &str = "module top(clock);
    input wire clock;
    mid m__0(
        .clock(clock)
    );
    mid m__1(
        .clock(clock)
    );
endmodule // top

module mid(clock);
    input wire clock;
    mid__mem tag(
        .clock(clock)
    );
    mid__cam cam(
        .clock(clock)
    );
endmodule // mid

module mid__mem(clock,r_addr,r_data,r2_addr,r2_data,w_en,w_addr,w_data);
    reg [20:0] mem [0:15];
    always @(*) r_data = mem[r_addr];
    always @(*) r2_data = mem[r2_addr];
    always @(posedge clock) begin
        if (w_en) mem[w_addr] <= w_data;
    end
endmodule // mid__mem

module mid__cam(clock,r_addr,r_data,w_en,w_addr,w_data,taps__0,taps__1);
    reg mem [0:1];
    always @(*) r_data = mem[r_addr];
    always @(*) taps__0 = mem[0];
    always @(*) taps__1 = mem[1];
    always @(posedge clock) begin
        if (w_en) mem[w_addr] <= w_data;
    end
endmodule // mid__cam

module unused(clock,r_addr,r_data,w_en,w_addr,w_data);
    reg [3:0] mem [0:3];
endmodule // unused
";

    #[test]
    fn inventory_counts_instances_ports_and_taps() {
        let inv = inventory(TEXT, "top");
        assert_eq!(inv.len(), 2, "{inv:?}");
        let mem = inv.iter().find(|m| m.module == "mid__mem").unwrap();
        assert_eq!((mem.words, mem.bits), (16, 21));
        assert_eq!((mem.read_ports, mem.write_ports), (2, 1));
        assert_eq!(mem.instances, 2);
        assert!(!mem.taps && mem.structural_reason_not_sram().is_none());
        let cam = inv.iter().find(|m| m.module == "mid__cam").unwrap();
        assert_eq!((cam.words, cam.bits, cam.read_ports), (2, 1, 1));
        assert!(cam.taps && cam.structural_reason_not_sram().is_some());
    }

    #[test]
    fn blackbox_and_module_text() {
        let bb = blackbox_modules(TEXT, &["mid__mem"]);
        assert!(bb.contains("(* blackbox *)\nmodule mid__mem("));
        assert_eq!(bb.matches("(* blackbox *)").count(), 1);
        let t = module_text(TEXT, "mid__cam").unwrap();
        assert!(t.starts_with("module mid__cam(clock,"));
        assert!(t.trim_end().ends_with("endmodule"));
        assert!(!t.contains("mid__mem"));
        assert!(module_text(TEXT, "nope").is_none());
    }
}
