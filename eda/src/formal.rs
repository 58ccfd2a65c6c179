//! Formal property checking of a unit through a property wrapper
//! (`hdl/formal/<unit>_props.sv`): bounded model checking and
//! k-induction, with `yosys-smtbmc` and an SMT solver, or with Yosys's
//! built-in SAT solver (`sat -tempinduct`).
//!
//! Yosys 0.23 does not resolve hierarchical references in a wrapper, so a
//! wrapper observes internal state through *probes*: undriven wires carrying
//! a `warpgen_probe = "<flattened name>"` attribute. [`parse_probes`] reads
//! them and [`formal_script`] binds each with `connect -nounset -set` after `flatten`
//! and `memory_map`. A name ending in `[lo:hi]` is a memory: the probe is
//! the concatenation of its words `hi..lo`, word `i` at bits `[i*W +: W]`.
//! A probe left without a driver is an error ([`EdaError::Parse`]), never a
//! vacuous pass.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::EdaError;
use crate::installed::require_tool;
use crate::run::{input_file, run, work_dir};
use crate::tool::Tool;

/// Default time limit of each tool run of [`check_formal`], in seconds.
pub const FORMAL_TIMEOUT_SECS_DEFAULT: u64 = 600;

/// The filter `yosys-smtbmc` starts as `z3` (before the real one): see the
/// file's documentation. Part of what a z3 result depends on, so caches of
/// results key on it.
pub const Z3_FILTER: &str = include_str!("z3_filter.py");

/// The SMT solver `yosys-smtbmc` drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SmtSolver {
    /// Z3 (Debian package `z3`).
    Z3,
    /// Boolector (Debian package `boolector`; Debian's 1.5 rejects
    /// `yosys-smtbmc`'s `set-option` commands).
    Boolector,
}

impl SmtSolver {
    /// The solver's program, as `yosys-smtbmc -s` names it and PATH holds it.
    pub fn program(self) -> &'static str {
        match self {
            SmtSolver::Z3 => "z3",
            SmtSolver::Boolector => "boolector",
        }
    }
}

/// How the properties are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FormalEngine {
    /// `write_smt2`, then `yosys-smtbmc -s <solver>` (BMC) and
    /// `yosys-smtbmc -i` (k-induction).
    Smtbmc(SmtSolver),
    /// Yosys's built-in SAT solver: `sat -seq N -prove-asserts` (BMC) and
    /// `sat -tempinduct -maxsteps K` (k-induction).
    YosysSat,
}

/// One property check to run.
#[derive(Debug, Clone)]
pub struct FormalJob {
    /// The wrapper (`<unit>_props.sv`), read as SystemVerilog with `-formal`.
    pub wrapper: PathBuf,
    /// The RTL of the unit (`verilog-out/<unit>.v` or a planted copy).
    pub rtl: PathBuf,
    /// The wrapper's top module.
    pub top: String,
    /// BMC depth (time steps from the initial state); 0 skips BMC.
    pub bmc_depth: u32,
    /// k-induction depth; 0 skips induction.
    pub induction_depth: u32,
    /// The engine.
    pub engine: FormalEngine,
    /// Time limit of each tool run.
    pub timeout: Duration,
    /// Where a counterexample VCD is written (`<top>_bmc.vcd`); the
    /// directory is created if needed.
    pub vcd_dir: PathBuf,
}

/// The result of one check (BMC or induction).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// Every assertion held (BMC: up to the depth; induction: proved).
    pub passed: bool,
    /// The depth the check ran at.
    pub depth: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The failing assertion's source location and label, when known.
    pub failed_assertion: Option<String>,
    /// The counterexample VCD (BMC failures only).
    pub vcd: Option<PathBuf>,
    /// The last lines of the tool's output when the check did not pass.
    pub log_tail: String,
}

/// The result of [`check_formal`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormalReport {
    /// The wrapper's top module.
    pub top: String,
    /// The engine used.
    pub engine: FormalEngine,
    /// Probes bound.
    pub probes: usize,
    /// Seconds spent preparing the model (Yosys).
    pub prepare_seconds: f64,
    /// Bounded model check, if run.
    pub bmc: Option<CheckResult>,
    /// k-induction, if run (not run when BMC failed).
    pub induction: Option<CheckResult>,
}

impl FormalReport {
    /// BMC (if run) passed and induction (if run) proved the properties.
    pub fn passed(&self) -> bool {
        self.bmc.as_ref().is_none_or(|c| c.passed)
            && self.induction.as_ref().is_none_or(|c| c.passed)
    }
}

/// A probe of a wrapper: wire `wire` of `width` bits bound to `source`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    /// The wrapper's wire.
    pub wire: String,
    /// Its width in bits.
    pub width: u32,
    /// The flattened name it is bound to (`u.x.q`, or `u.m.mem[0:15]`).
    pub source: String,
}

fn is_ident(s: &str) -> bool {
    crate::source::validate_top(s).is_ok()
}

fn is_flat_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]:$".contains(c))
}

/// Reads the probes of a wrapper: every `(* ... warpgen_probe = "SRC" ... *)
/// wire [H:L] NAME;` (or a 1-bit `wire NAME;`).
pub fn parse_probes(wrapper: &str) -> Result<Vec<Probe>, EdaError> {
    let mut probes = Vec::new();
    let mut rest = wrapper;
    while let Some(at) = rest.find("warpgen_probe") {
        let after = &rest[at + "warpgen_probe".len()..];
        let bad = |d: &str| EdaError::parse("a warpgen_probe attribute", d.to_string());
        let q1 = after.find('"').ok_or_else(|| bad("no quoted name"))?;
        let q2 = after[q1 + 1..]
            .find('"')
            .ok_or_else(|| bad("unterminated name"))?;
        let source = after[q1 + 1..q1 + 1 + q2].trim().to_string();
        if !is_flat_name(&source) {
            return Err(bad(&format!("bad source name `{source}`")));
        }
        let tail = &after[q1 + 2 + q2..];
        let close = tail.find("*)").ok_or_else(|| bad("no `*)`"))?;
        let decl = &tail[close + 2..];
        let semi = decl.find(';').ok_or_else(|| bad("no `;`"))?;
        let decl_text = decl[..semi].trim();
        let decl_text = decl_text
            .strip_prefix("wire")
            .ok_or_else(|| bad(&format!("`{decl_text}` is not a wire declaration")))?
            .trim();
        let (width, name) = if let Some(r) = decl_text.strip_prefix('[') {
            let (range, name) = r.split_once(']').ok_or_else(|| bad("no `]`"))?;
            let (h, l) = range
                .split_once(':')
                .ok_or_else(|| bad("no `:` in range"))?;
            let h: u32 = h.trim().parse().map_err(|_| bad("range bound"))?;
            let l: u32 = l.trim().parse().map_err(|_| bad("range bound"))?;
            if l != 0 || h == u32::MAX {
                return Err(bad("probe ranges must be [H:0]"));
            }
            (h + 1, name.trim())
        } else {
            (1, decl_text)
        };
        if !is_ident(name) {
            return Err(bad(&format!("bad probe wire name `{name}`")));
        }
        probes.push(Probe {
            wire: name.to_string(),
            width,
            source,
        });
        rest = &decl[semi..];
    }
    Ok(probes)
}

/// The Yosys commands binding `probes` (run inside the flattened top).
fn probe_commands(probes: &[Probe]) -> Result<Vec<String>, EdaError> {
    let mut cmds = Vec::new();
    let mut n = 0usize;
    for p in probes {
        let mem = p.source.strip_suffix(']').and_then(|s| {
            let (base, range) = s.rsplit_once('[')?;
            let (lo, hi) = range.split_once(':')?;
            Some((base, lo.parse::<u32>().ok()?, hi.parse::<u32>().ok()?))
        });
        match mem {
            Some((base, lo, hi)) => {
                if hi < lo {
                    return Err(EdaError::parse(
                        "a warpgen_probe attribute",
                        format!("`{}`: the range must be [lo:hi]", p.source),
                    ));
                }
                let words = hi - lo + 1;
                if p.width % words != 0 {
                    return Err(EdaError::parse(
                        "a warpgen_probe attribute",
                        format!("`{}`: {} bits are not {words} equal words", p.wire, p.width),
                    ));
                }
                let w = p.width / words;
                for (i, word) in (lo..=hi).enumerate() {
                    let i = i as u32;
                    // A memory word's name contains `[`, which `connect`
                    // would read as a bit select: rename it first.
                    cmds.push(format!("rename {base}[{word}] warpgen_probe_src_{n}"));
                    cmds.push(format!(
                        "connect -nounset -set {}[{}:{}] warpgen_probe_src_{n}",
                        p.wire,
                        i * w + w - 1,
                        i * w
                    ));
                    n += 1;
                }
            }
            None => cmds.push(format!("connect -nounset -set {} {}", p.wire, p.source)),
        }
    }
    Ok(cmds)
}

/// The Yosys script reading `wrapper.sv` and `rtl.v` (in the working
/// directory), flattening, mapping memories, binding the probes and
/// optimizing; the caller appends the engine's commands.
pub fn formal_script(top: &str, probes: &[Probe]) -> Result<String, EdaError> {
    crate::source::validate_top(top)?;
    let mut s = vec![
        "read_verilog -formal -sv wrapper.sv rtl.v".to_string(),
        format!("hierarchy -check -top {top}"),
        "proc".to_string(),
        "flatten".to_string(),
        "memory_collect".to_string(),
        "memory_map".to_string(),
        format!("cd {top}"),
    ];
    s.extend(probe_commands(probes)?);
    s.extend([
        "cd ..".to_string(),
        "opt_clean".to_string(),
        "tee -o check.txt check".to_string(),
        "opt -fast".to_string(),
    ]);
    Ok(s.join("\n") + "\n")
}

/// A copy of `rtl` with `pattern` replaced by `replacement`: a planted bug.
/// An error unless `pattern` occurs exactly once.
pub fn plant_bug(rtl: &str, pattern: &str, replacement: &str) -> Result<String, EdaError> {
    let n = if pattern.is_empty() {
        0
    } else {
        rtl.matches(pattern).count()
    };
    if n != 1 {
        return Err(EdaError::parse(
            "a planted bug",
            format!("the pattern `{pattern}` occurs {n} times in the RTL, not exactly once"),
        ));
    }
    Ok(rtl.replacen(pattern, replacement, 1))
}

fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The check wire an assertion labelled `label` asserts in `wrapper`
/// (`label: assert(chk_x);`), so that both engines name a failure the same
/// way (Yosys `sat` names the wire, `yosys-smtbmc` the label or the source
/// location with the label in parentheses).
fn check_wire_of(wrapper: &str, failed: &str) -> Option<String> {
    let label = match failed.trim_end().strip_suffix(')') {
        Some(s) if s.contains(" (") => s.rsplit_once(" (")?.1,
        _ => failed.trim(),
    };
    wrapper.lines().find_map(|l| {
        let rest = l.trim().strip_prefix(label)?.trim_start();
        let rest = rest
            .strip_prefix(':')?
            .trim_start()
            .strip_prefix("assert")?;
        let inner = rest.trim_start().strip_prefix('(')?;
        let wire = inner.split(')').next()?.trim();
        is_ident(wire).then(|| wire.to_string())
    })
}

/// `Assert failed in top: file:line.col-line.col (label)` lines of
/// yosys-smtbmc, or Yosys `sat`'s failing `$assert` cells.
fn failed_assertion(log: &str) -> Option<String> {
    log.lines().find_map(|l| {
        let l = l.trim();
        if let Some(i) = l.find("Assert failed in ") {
            let s = &l[i + "Assert failed in ".len()..];
            return Some(s.split_once(": ").map_or(s, |(_, loc)| loc).to_string());
        }
        None
    })
}

/// Runs `job`: prepares the model with Yosys, then BMC and k-induction.
///
/// A failed property is `Ok` with `passed == false`, the failing assertion
/// and the counterexample VCD; a tool error, a time-out or an unbound probe
/// is an [`EdaError`].
pub fn check_formal(job: &FormalJob) -> Result<FormalReport, EdaError> {
    crate::source::validate_top(&job.top)?;
    require_tool(Tool::Yosys)?;
    let wrapper_path = input_file(&job.wrapper)?;
    let rtl_path = input_file(&job.rtl)?;
    let wrapper = std::fs::read_to_string(&wrapper_path)
        .map_err(|e| EdaError::io(format!("reading {}", wrapper_path.display()), e))?;
    let probes = parse_probes(&wrapper)?;
    let dir = work_dir()?;
    std::fs::copy(&wrapper_path, dir.path().join("wrapper.sv"))
        .map_err(|e| EdaError::io("copying the wrapper", e))?;
    std::fs::copy(&rtl_path, dir.path().join("rtl.v"))
        .map_err(|e| EdaError::io("copying the RTL", e))?;
    std::fs::create_dir_all(&job.vcd_dir)
        .map_err(|e| EdaError::io(format!("creating {}", job.vcd_dir.display()), e))?;
    let vcd_dir = std::fs::canonicalize(&job.vcd_dir)
        .map_err(|e| EdaError::io(format!("resolving {}", job.vcd_dir.display()), e))?;
    let base = formal_script(&job.top, &probes)?;
    let top = job.top.as_str();

    let start = Instant::now();
    let (bmc, induction, prepare_seconds) = match job.engine {
        FormalEngine::Smtbmc(solver) => {
            if crate::tool::which(solver.program()).is_none() {
                return Err(EdaError::io(
                    format!(
                        "looking for the SMT solver `{}` (apt-get install {})",
                        solver.program(),
                        solver.program()
                    ),
                    std::io::Error::new(std::io::ErrorKind::NotFound, "not on PATH"),
                ));
            }
            let script = format!("{base}dffunmap\nwrite_smt2 -wires model.smt2\n");
            prepare(dir.path(), &script, &probes, job.timeout)?;
            let prepare_seconds = start.elapsed().as_secs_f64();
            let named = |mut c: CheckResult| {
                if let Some(w) = c
                    .failed_assertion
                    .as_deref()
                    .and_then(|f| check_wire_of(&wrapper, f))
                {
                    c.failed_assertion = Some(w);
                }
                c
            };
            let bmc = (job.bmc_depth > 0)
                .then(|| smtbmc(dir.path(), solver, false, job, &vcd_dir).map(named))
                .transpose()?;
            let induction = if bmc.as_ref().is_none_or(|b| b.passed) && job.induction_depth > 0 {
                Some(named(smtbmc(dir.path(), solver, true, job, &vcd_dir)?))
            } else {
                None
            };
            (bmc, induction, prepare_seconds)
        }
        FormalEngine::YosysSat => {
            let t0 = Instant::now();
            let script = format!("{base}write_rtlil model.il\n");
            prepare(dir.path(), &script, &probes, job.timeout)?;
            let prepare_seconds = t0.elapsed().as_secs_f64();
            let bmc = (job.bmc_depth > 0)
                .then(|| {
                    let vcd = vcd_dir.join(format!("{top}_bmc.vcd"));
                    let shows: String = check_wires(&wrapper)
                        .iter()
                        .map(|w| format!(" -show {w}"))
                        .collect();
                    let cmd = format!(
                        "read_rtlil model.il; sat -seq {} -prove-asserts -set-assumes \
                         -show-ports{shows} -dump_vcd {} {top}",
                        job.bmc_depth,
                        vcd.display()
                    );
                    yosys_sat(dir.path(), &cmd, job.bmc_depth, Some(vcd), job.timeout)
                })
                .transpose()?;
            let induction = if bmc.as_ref().is_none_or(|b| b.passed) && job.induction_depth > 0 {
                let shows: String = check_wires(&wrapper)
                    .iter()
                    .map(|w| format!(" -show {w}"))
                    .collect();
                let cmd = format!(
                    "read_rtlil model.il; sat -tempinduct -prove-asserts -set-assumes \
                     -maxsteps {}{shows} {top}",
                    job.induction_depth
                );
                Some(yosys_sat(
                    dir.path(),
                    &cmd,
                    job.induction_depth,
                    None,
                    job.timeout,
                )?)
            } else {
                None
            };
            (bmc, induction, prepare_seconds)
        }
    };
    Ok(FormalReport {
        top: job.top.clone(),
        engine: job.engine,
        probes: probes.len(),
        prepare_seconds,
        bmc,
        induction,
    })
}

/// Runs the preparation script; an unbound probe is an error.
fn prepare(dir: &Path, script: &str, probes: &[Probe], timeout: Duration) -> Result<(), EdaError> {
    std::fs::write(dir.join("prepare.ys"), script)
        .map_err(|e| EdaError::io("writing prepare.ys", e))?;
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir)
        .args(["-q", "-l", "prepare.log", "-s", "prepare.ys"]);
    let out = run(Tool::Yosys, &mut cmd, Some(timeout))?;
    if !out.status.success() {
        return Err(crate::run::failed(Tool::Yosys, &cmd, &out));
    }
    // Any undriven wire (an unbound probe, or a connection a probe binding
    // broke) would be a free input of the model: refuse it. The exception
    // is `memory_map`'s read multiplexers of a memory whose depth is not a
    // power of two: the addresses past its end read X in Verilog too, and
    // a free value there can only add counterexamples, never hide one.
    let check = std::fs::read_to_string(dir.join("check.txt")).unwrap_or_default();
    let undriven: Vec<&str> = check
        .lines()
        .filter(|l| l.contains("has no driver"))
        .filter(|l| !(l.contains(".$memory\\") && l.contains("$rdmux[")))
        .collect();
    if !undriven.is_empty() {
        let named: Vec<&str> = probes
            .iter()
            .filter(|p| undriven.iter().any(|l| l.contains(p.wire.as_str())))
            .map(|p| p.wire.as_str())
            .collect();
        return Err(EdaError::parse(
            "the formal model",
            format!(
                "{} undriven wire bits (unbound probes: {:?}), e.g.:\n{}",
                undriven.len(),
                named,
                undriven[..undriven.len().min(5)].join("\n")
            ),
        ));
    }
    Ok(())
}

fn smtbmc(
    dir: &Path,
    solver: SmtSolver,
    induction: bool,
    job: &FormalJob,
    vcd_dir: &Path,
) -> Result<CheckResult, EdaError> {
    let depth = if induction {
        job.induction_depth
    } else {
        job.bmc_depth
    };
    let vcd = vcd_dir.join(format!(
        "{}_{}.vcd",
        job.top,
        if induction { "induction" } else { "bmc" }
    ));
    let mut cmd = Command::new("yosys-smtbmc");
    cmd.current_dir(dir).args(["-s", solver.program()]);
    if solver == SmtSolver::Z3 {
        // smtbmc unrolls the model itself, and starts `z3` from PATH: put
        // the filter of `z3_filter.py` first (see its documentation).
        let real = crate::tool::which("z3").ok_or_else(|| {
            EdaError::io(
                "looking for the SMT solver `z3` (apt-get install z3)",
                std::io::Error::new(std::io::ErrorKind::NotFound, "not on PATH"),
            )
        })?;
        let bin = dir.join("solver");
        std::fs::create_dir_all(&bin).map_err(|e| EdaError::io("creating solver/", e))?;
        let filter = bin.join("z3");
        std::fs::write(&filter, Z3_FILTER).map_err(|e| EdaError::io("writing solver/z3", e))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&filter, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| EdaError::io("making solver/z3 executable", e))?;
        }
        let mut paths = vec![bin];
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let path = std::env::join_paths(paths)
            .map_err(|e| EdaError::io("building PATH", std::io::Error::other(e)))?;
        cmd.env("PATH", path)
            .env("WARPGEN_Z3", real)
            .arg("--unroll");
    }
    if induction {
        cmd.arg("-i");
    }
    cmd.args(["-t", &depth.to_string(), "--dump-vcd"])
        .arg(&vcd)
        .arg("model.smt2");
    let start = Instant::now();
    let out = run(Tool::Yosys, &mut cmd, Some(job.timeout))?;
    let seconds = start.elapsed().as_secs_f64();
    let log = out.combined();
    let passed = log.contains("Status: PASSED");
    if !passed && !log.contains("Status: FAILED") {
        return Err(crate::run::failed(Tool::Yosys, &cmd, &out));
    }
    Ok(CheckResult {
        passed,
        depth,
        seconds,
        failed_assertion: if passed { None } else { failed_assertion(&log) },
        vcd: (!passed && vcd.is_file()).then_some(vcd),
        log_tail: if passed {
            String::new()
        } else {
            tail(&log, 40)
        },
    })
}

fn yosys_sat(
    dir: &Path,
    script: &str,
    depth: u32,
    vcd: Option<PathBuf>,
    timeout: Duration,
) -> Result<CheckResult, EdaError> {
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir).args(["-p", script]);
    let start = Instant::now();
    let out = run(Tool::Yosys, &mut cmd, Some(timeout))?;
    let seconds = start.elapsed().as_secs_f64();
    let log = out.combined();
    let proved = log.contains("SUCCESS!") || log.contains("QED");
    let failed = log.contains("FAIL!") || log.contains("proof failed");
    if !out.status.success() && !failed {
        return Err(crate::run::failed(Tool::Yosys, &cmd, &out));
    }
    let passed = proved && !failed;
    let failed_assertion = if passed {
        None
    } else {
        sat_failed_assertions(&log)
    };
    Ok(CheckResult {
        passed,
        depth,
        seconds,
        failed_assertion,
        vcd: vcd.filter(|v| !passed && v.is_file()),
        log_tail: if passed {
            String::new()
        } else {
            tail(&log, 40)
        },
    })
}

/// The property wires of a wrapper: every `wire chk_<name>` it declares
/// (1 while the property holds). [`check_formal`] shows them in the
/// counterexample so that a failure names its property.
pub fn check_wires(wrapper: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in wrapper.lines() {
        let l = l.trim_start();
        let Some(rest) = l.strip_prefix("wire ") else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.starts_with("chk_") && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The `chk_*` wires Yosys `sat`'s counterexample table shows at 0
/// (`STEP \chk_name DEC HEX BIN` rows), joined with `, `.
fn sat_failed_assertions(log: &str) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for l in log.lines() {
        let cols: Vec<&str> = l.split_whitespace().collect();
        if cols.len() >= 3 && cols[1].starts_with("\\chk_") && cols[2] == "0" {
            let n = cols[1].trim_start_matches('\\').to_string();
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    (!names.is_empty()).then(|| names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_are_parsed() {
        let text = r#"
            (* keep, warpgen_probe = "u.w.valid.q" *) wire [15:0] p_v;
            (* warpgen_probe = "u.r.mem[0:3]" *) wire [11:0] p_r;
            (* warpgen_probe = "u.bit" *) wire p_b;
        "#;
        let p = parse_probes(text).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].width, 16);
        assert_eq!(p[1].source, "u.r.mem[0:3]");
        assert_eq!(p[2].width, 1);
        let cmds = probe_commands(&p).unwrap();
        assert!(cmds.contains(&"connect -nounset -set p_v u.w.valid.q".to_string()));
        assert!(cmds.contains(&"rename u.r.mem[3] warpgen_probe_src_3".to_string()));
        assert!(cmds.contains(&"connect -nounset -set p_r[11:9] warpgen_probe_src_3".to_string()));
    }

    #[test]
    fn bad_probes_are_errors() {
        assert!(parse_probes(r#"(* warpgen_probe = "u.x" *) reg p;"#).is_err());
        assert!(parse_probes(r#"(* warpgen_probe = "u x" *) wire p;"#).is_err());
        let p = parse_probes(r#"(* warpgen_probe = "u.m[0:2]" *) wire [7:0] p;"#).unwrap();
        assert!(probe_commands(&p).is_err());
    }

    #[test]
    fn planting_needs_one_match() {
        assert_eq!(plant_bug("a+b;", "+", "-").unwrap(), "a-b;");
        assert!(plant_bug("a+b+c;", "+", "-").is_err());
        assert!(plant_bug("abc", "x", "y").is_err());
        assert!(plant_bug("abc", "", "y").is_err());
    }

    #[test]
    fn check_wires_are_found_and_reported() {
        let w = "  wire chk_a = x;\n    wire chk_b_c = init | y;\n wire other = 1;\n";
        assert_eq!(check_wires(w), vec!["chk_a", "chk_b_c"]);
        let log = "     1 \\chk_a   1   1   1\n     2 \\chk_b_c  0  0  0\n";
        assert_eq!(sat_failed_assertions(log).as_deref(), Some("chk_b_c"));
        assert_eq!(sat_failed_assertions("   1 \\chk_a 1 1 1\n"), None);
    }

    #[test]
    fn failures_are_named_by_their_check_wire() {
        let w = "    always @* begin\n        cnt_sat: assert(chk_sat);\n        other: assert (chk_other );\n";
        assert_eq!(check_wire_of(w, "cnt_sat").as_deref(), Some("chk_sat"));
        assert_eq!(
            check_wire_of(w, "w.sv:3.9-3.30 (other)").as_deref(),
            Some("chk_other")
        );
        assert_eq!(check_wire_of(w, "missing"), None);
    }

    #[test]
    fn smtbmc_failure_is_parsed() {
        let log = "##   0:00:00  Assert failed in t_props: w.sv:12.9-12.30 (cnt_sat)\n";
        assert_eq!(
            failed_assertion(log).as_deref(),
            Some("w.sv:12.9-12.30 (cnt_sat)")
        );
    }
}
