//! Formal equivalence of emitted RTL and its synthesized gate netlist.
//!
//! # Method ([`equiv_script`])
//!
//! Register correspondence by name, then a combinational proof with ABC's
//! SAT sweeping (`&fraig -x`), then Yosys's `equiv_*` passes for the rest:
//!
//! 1. Each side (RTL = *gold*, netlist = *gate*) is read and flattened,
//!    its memories are mapped to flip-flops (`memory_map`, whose `mem[i]`
//!    names `synth` keeps), asynchronous resets are made synchronous
//!    (`async2sync`) and enables and synchronous resets are turned into
//!    logic (`dffunmap`), so every register is a plain `$dff`. The RTL goes
//!    through `prep -flatten`; the netlist only through `hierarchy; proc;
//!    flatten`, because `prep`'s `wreduce` would cut the constant bits off
//!    the netlist's registers (`synth` removes register bits that never
//!    change) and `equiv_make` silently skips a name whose width differs.
//! 2. The *key points* are the RTL's ports and register outputs; every other
//!    wire name of the RTL is hidden (`rename -hide`), and so is every name
//!    of the netlist that is not an RTL key point. Internal combinational
//!    names are deliberately not matched: ABC re-structures the netlist's
//!    logic, so a name kept by both sides no longer cuts the netlist's cone.
//!    Hiding the netlist's names by the RTL's list (rather than by what
//!    drives them in the netlist) matters: the netlist may name a
//!    flip-flop after an RTL combinational signal that equals it
//!    (`dac_expander`'s `sfound__1 = todo.q[0]`). `opt_clean` then makes
//!    the key-point names the canonical ones. Undriven netlist bits are tied
//!    to 0 (`setundef -undriven -zero`), so an undriven output bit is
//!    compared instead of being skipped.
//! 3. `equiv_make` pairs the key points with `$equiv` cells (one per signal
//!    bit); every consumer of a matched register reads the `$equiv` output,
//!    so the next-state and output logic of both sides becomes a function of
//!    the same free state variables and the same inputs.
//! 4. **Registers the netlist made constant.** Where the netlist side of a
//!    `$equiv` is a constant (a register bit `synth` removed because it
//!    never changes: the low bits of a line-aligned address, the unused
//!    top bits of a bit mask), the RTL register must be shown to be that
//!    constant too. `equiv_induct -seq 1` on those cells and the RTL logic
//!    that drives them, with every other `$equiv` output left free, proves
//!    that if these bits hold their constants in one cycle they hold them
//!    in the next, whatever the rest of the state; `equiv_status -assert`
//!    fails the proof otherwise. The constants are then substituted
//!    (`equiv_remove -gate`) for the rest of the proof.
//! 5. Both sides are lowered to single-bit gates (`techmap`) and ABC
//!    (`strash; &get -n; &fraig -x; &put; map`) merges every pair of
//!    functionally equal nodes: equal next-state functions end up on the
//!    same net.
//! 6. `opt_merge` then merges a gold register with its netlist partner when
//!    both have the same next-state net and clock, which proves their
//!    `$equiv` cell (its two inputs become the same net). `equiv_simple` and
//!    `equiv_induct -seq 1` get whatever is left, and `equiv_status -assert`
//!    fails the proof when any `$equiv` cell stays unproven. (`-seq 1`:
//!    Yosys's default of 4 would assume the two sides equal for four
//!    cycles in a row, a weaker claim than the one below.)
//!
//! # Known limitation
//!
//! A register the netlist renames, re-encodes or merges (FSM recoding,
//! `opt_merge`) has no partner by name; it is then a free variable on each
//! side, which can only make the proof fail, never pass wrongly. `synth` is
//! therefore run with `-nofsm` ([`synth_gate_netlist`]). A register bit the
//! netlist made constant for a reason that needs other registers' values
//! (not by itself inductive) also fails the proof in step 4, again only
//! ever falsely.
//!
//! # What is proved
//!
//! If every register of the RTL starts in the same state as the netlist
//! register of the same name (for a register bit the netlist removed: in
//! the constant the netlist gives it), then in every cycle every output and
//! every register of the two designs are equal, for every input sequence.
//! (Registers whose next-state functions are equal, which `opt_merge`
//! merges, are also taken to start equal; after one clock edge they are
//! equal anyway.) The proof trusts Yosys's reading of both files, its
//! `techmap` lowering of the RTL's word-level cells (the same library
//! `synth` uses), its SAT solver and ABC's `&fraig`. The netlist proved is
//! [`synth_gate_netlist`]'s generic-gate output of `synth -flatten
//! -nofsm -nordff` (the area flow maps the netlist of its own `synth`
//! run onto Liberty cells).

use std::process::Command;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::EdaError;
use crate::installed::require_tool;
use crate::run::{run, run_checked, work_dir};
use crate::synth::parse_stat_json;
use crate::tool::Tool;

/// The proof method [`prove_equiv`] uses, as reported in [`EquivReport::method`].
pub const EQUIV_METHOD: &str =
    "yosys key points by name + constant registers by induction + abc &fraig + \
     opt_merge/equiv_simple/equiv_induct -seq 1";

/// Default time limit of each Yosys run of [`synth_gate_netlist`] and
/// [`prove_equiv`], in seconds.
pub const EQUIV_TIMEOUT_SECS_DEFAULT: u64 = 1800;

/// A gate-level netlist from [`synth_gate_netlist`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateNetlist {
    /// The netlist as Verilog (`write_verilog -noattr`), top module unchanged.
    pub verilog: String,
    /// Cells in it (generic Yosys gates and flip-flops).
    pub cells: u64,
}

/// The result of [`prove_equiv`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EquivReport {
    /// Every `$equiv` cell was proved: the two designs are equivalent.
    pub proved: bool,
    /// How it was proved ([`EQUIV_METHOD`]).
    pub method: String,
    /// `$equiv` cells: the output and register bits compared (0 when the
    /// log did not say).
    #[serde(default)]
    pub equiv_cells: u64,
    /// `$equiv` cells (signal bits) left unproven; 0 when `proved`.
    pub unproven: u64,
    /// The unproven signal bits, as `gold_bit / gate_bit` (at most 50).
    pub unproven_signals: Vec<String>,
    /// Cells of the gate netlist, when known (set by [`prove_rtl_vs_synth`]).
    pub gate_cells: Option<u64>,
    /// Wall-clock seconds of the proof (and synthesis, for [`prove_rtl_vs_synth`]).
    pub seconds: f64,
    /// The last lines of Yosys's log when the proof failed; empty otherwise.
    pub log_tail: String,
}

/// Synthesizes `verilog` (top module `top`) with Yosys to a flattened
/// netlist of generic gates: `hierarchy -check -top T; proc;
/// synth -flatten -nofsm -nordff -top T; opt_clean; write_verilog -noattr`.
///
/// `-nofsm` skips `synth`'s FSM extraction and re-encoding, which renames
/// and re-encodes state registers: a re-encoded register has no partner of
/// the same name in the RTL, so [`prove_equiv`]'s register correspondence
/// could not match it (and `snake_prefetcher`'s proof failed falsely).
/// `-nordff` keeps `memory_dff` from merging a flip-flop that drives a
/// memory's read address into the read port: `synth` then makes an unnamed
/// copy of the register (`reg [2:0] _000002_` for `dac_expander`'s
/// `cwid.q[2:0]`, which addresses `gmem`, `aq` and `pq`), a free variable
/// of the netlist that every read of those memories depends on, so the
/// proof failed falsely (2,859 of 3,106 `$equiv` cells unproven). The
/// memories are mapped to flip-flops and logic either way.
/// Everything else of `synth` (including `opt_merge`, `opt_dff`, `share`)
/// runs as usual.
///
/// The generic gates (not the NanGate45 Liberty cells of [`crate::synth_yosys`])
/// are used, so that the netlist can be read back without a cell library.
pub fn synth_gate_netlist(
    verilog: &str,
    top: &str,
    timeout: Duration,
) -> Result<GateNetlist, EdaError> {
    crate::source::validate_top(top)?;
    require_tool(Tool::Yosys)?;
    let dir = work_dir()?;
    std::fs::write(dir.path().join("gold.v"), verilog)
        .map_err(|e| EdaError::io("writing gold.v", e))?;
    let script = format!(
        "read_verilog gold.v; hierarchy -check -top {top}; proc; synth -flatten -nofsm -nordff -top {top}; \
         opt_clean; tee -q -o stat.json stat -json; write_verilog -noattr gate.v"
    );
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir.path()).args(["-q", "-p", &script]);
    run_checked(Tool::Yosys, &mut cmd, Some(timeout))?;
    let read = |name: &str| {
        std::fs::read_to_string(dir.path().join(name))
            .map_err(|e| EdaError::io(format!("reading Yosys's {name}"), e))
    };
    let stat = parse_stat_json(&read("stat.json")?, top, "Yosys stat of the gate netlist")?;
    Ok(GateNetlist {
        verilog: read("gate.v")?,
        cells: stat.cells,
    })
}

/// The Yosys script proving `gold.v` equivalent to `gate.v` (top module
/// `top`) by the method of the module documentation (`eda::equiv`).
pub fn equiv_script(top: &str) -> String {
    // Both sides: flatten, memories to flip-flops, every register a plain
    // `$dff`. The RTL gets `prep`; the netlist only what reading it back
    // needs: `prep`'s `wreduce` would cut the constant bits off its
    // registers, and `equiv_make` skips a name whose width differs.
    let lower = "memory_map; opt_clean; async2sync; dffunmap; opt_clean; ";
    let gold = format!(
        "read_verilog gold.v; prep -flatten -top {top}; {lower}\
         select -set keep i:* o:* %u t:$dff %x:+[Q] t:$dff %d %u; rename -hide w:* @keep %d; \
         select -write keep.txt @keep; design -stash gold; "
    );
    let gate = format!(
        "read_verilog gate.v; hierarchy -check -top {top}; proc; flatten; opt_clean; {lower}\
         select -read keep.txt; select -set keep %; select -clear; rename -hide w:* @keep %d; \
         opt_clean; setundef -undriven -zero; design -stash gate; "
    );
    // The `$equiv` cells whose netlist side is a constant (a register bit
    // the netlist removed), and the logic that drives their RTL side up to
    // the other `$equiv` cells (whose outputs are then free).
    let constant = "select -set eqb t:$equiv %x:+[B] t:$equiv %d; \
                    select -set const t:$equiv @eqb %co:+[B] t:$equiv %i %d; ";
    format!(
        "{gold}{gate}design -copy-from gold -as gold {top}; design -copy-from gate -as gate {top}; \
         equiv_make gold gate equiv; hierarchy -top equiv; opt_clean; \
         {constant}select -set cone @const %ci:+$equiv[A] %ci*:-$equiv[A,B] t:$equiv @const %d %d; \
         design -save made; equiv_induct -seq 1 @cone; equiv_status -assert @const; \
         design -load made; {constant}equiv_remove -gate @const; \
         techmap; opt_clean; \
         abc -g AND -script +strash;&get,-n;&fraig,-x;&put;map; opt_clean; opt_merge; opt_clean; \
         equiv_simple; equiv_induct -seq 1; equiv_status -assert"
    )
}

/// Proves the RTL `gold` equivalent to the netlist `gate` (both Verilog
/// text with top module `top`) with [`equiv_script`].
///
/// A failed proof is `Ok` with `proved == false`, the unproven signals and
/// the log's tail; a Yosys error other than the final `equiv_status
/// -assert` (a parse error, a time-out) is an [`EdaError`].
pub fn prove_equiv(
    gold: &str,
    gate: &str,
    top: &str,
    timeout: Duration,
) -> Result<EquivReport, EdaError> {
    crate::source::validate_top(top)?;
    require_tool(Tool::Yosys)?;
    let start = Instant::now();
    let dir = work_dir()?;
    for (name, text) in [("gold.v", gold), ("gate.v", gate)] {
        std::fs::write(dir.path().join(name), text)
            .map_err(|e| EdaError::io(format!("writing {name}"), e))?;
    }
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir.path())
        .args(["-q", "-l", "equiv.log", "-p", &equiv_script(top)]);
    let out = run(Tool::Yosys, &mut cmd, Some(timeout))?;
    let log = std::fs::read_to_string(dir.path().join("equiv.log")).unwrap_or_default();
    let seconds = start.elapsed().as_secs_f64();
    let unproven_lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("Unproven $equiv"))
        .collect();
    let failed_assert = log.contains("unproven $equiv cells in 'equiv_status -assert'");
    if !out.status.success() && !failed_assert {
        return Err(crate::run::failed(Tool::Yosys, &cmd, &out));
    }
    let unproven = log
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Found a total of ")?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(unproven_lines.len() as u64);
    // "Found N $equiv cells in equiv:" (equiv_status).
    let equiv_cells = log
        .lines()
        .rev()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Found ")?
                .strip_suffix(" $equiv cells in equiv:")?
                .parse()
                .ok()
        })
        .unwrap_or(0);
    let proved = out.status.success() && !failed_assert && unproven == 0 && equiv_cells > 0;
    let unproven_signals = unproven_lines
        .iter()
        .take(50)
        .map(|l| {
            // "Unproven $equiv CELL: GOLD_BIT GATE_BIT"
            let sig = l.split_once(": ").map_or(*l, |(_, s)| s);
            sig.split_whitespace()
                .map(|s| s.trim_start_matches('\\'))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let log_tail = if proved {
        String::new()
    } else {
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    };
    Ok(EquivReport {
        proved,
        method: EQUIV_METHOD.to_string(),
        equiv_cells,
        unproven,
        unproven_signals,
        gate_cells: None,
        seconds,
        log_tail,
    })
}

/// Synthesizes `verilog` with [`synth_gate_netlist`] and proves the RTL
/// equivalent to the netlist with [`prove_equiv`]; `seconds` covers both.
pub fn prove_rtl_vs_synth(
    verilog: &str,
    top: &str,
    timeout: Duration,
) -> Result<EquivReport, EdaError> {
    let start = Instant::now();
    let net = synth_gate_netlist(verilog, top, timeout)?;
    let mut r = prove_equiv(verilog, &net.verilog, top, timeout)?;
    r.gate_cells = Some(net.cells);
    r.seconds = start.elapsed().as_secs_f64();
    Ok(r)
}
