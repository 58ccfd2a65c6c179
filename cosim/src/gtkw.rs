//! GTKWave save files (`.gtkw`) written beside every lock-step waveform, so
//! `gtkwave FILE.vcd FILE.gtkw` opens a view ready to read (`cosim.md`,
//! "On a difference"):
//!
//! - the `mismatch` marker (1 on each cycle an output differs) on top, red;
//! - clock and reset;
//! - the unit's ports grouped as streams: the ports sharing a prefix with a
//!   `<prefix>_valid` port (`req_valid`, `req_ready`, `req_addr`, ...), the
//!   valid first, then the ready, then the payload; each output followed by
//!   the golden model's value of it (yellow), so a difference is seen side
//!   by side; the ports of no stream in a group of their own;
//! - the registers (every `q` of a flip-flop in the RTL's hierarchy) in a
//!   closed group, one closed sub-group per table (`ents__3` and `ents$3`
//!   are entry 3 of table `ents`) and per entry, then the other registers
//!   grouped by their first scope;
//! - the cursor on the first difference, the view starting a few cycles
//!   before it.
//!
//! Signals are named as GTKWave names them: the scope path joined with `.`,
//! and a vector's range (`[msb:lsb]`, `[width-1:0]` when the VCD gives
//! none). [`vcd_signal_names`] lists those names for a VCD header and
//! [`referenced_signals`] the ones a save file uses, so a test can check
//! that the view names nothing the waveform lacks.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use ports::PortDesc;

use crate::backend::CYCLE_TIME;
use crate::vcd::{CHECK_SCOPE, MISMATCH};

/// One `$var` of a VCD header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcdVar {
    /// The enclosing scopes, outermost first.
    pub scope: Vec<String>,
    /// The variable's name, without its range.
    pub name: String,
    /// Width in bits.
    pub width: u32,
    /// The range as declared (`[6:0]`, `[3]`), if any.
    pub range: Option<String>,
}

impl VcdVar {
    /// The name GTKWave gives this variable: the scope path and the name
    /// joined with `.`, then the range (a vector declared without one gets
    /// `[width-1:0]`, as GTKWave's VCD loader does).
    pub fn gtkwave_name(&self) -> String {
        let mut s = self.scope.join(".");
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(&self.name);
        match &self.range {
            Some(r) => s.push_str(r),
            None if self.width > 1 => {
                let _ = write!(s, "[{}:0]", self.width - 1);
            }
            None => {}
        }
        s
    }

    /// The scope path joined with `.`.
    fn scope_path(&self) -> String {
        self.scope.join(".")
    }
}

/// The variables of a VCD header (the text up to `$enddefinitions`), in
/// declaration order.
pub fn parse_header(header: &str) -> Vec<VcdVar> {
    let mut vars = Vec::new();
    let mut scope: Vec<String> = Vec::new();
    let mut toks = header.split_whitespace().peekable();
    while let Some(t) = toks.next() {
        match t {
            "$scope" => {
                let _kind = toks.next();
                if let Some(name) = toks.next() {
                    if name != "$end" {
                        scope.push(name.to_string());
                    }
                }
            }
            "$upscope" => {
                scope.pop();
            }
            "$var" => {
                let mut fields: Vec<&str> = Vec::new();
                for f in toks.by_ref() {
                    if f == "$end" {
                        break;
                    }
                    fields.push(f);
                }
                // kind, width, id, name, [range]
                if fields.len() < 4 {
                    continue;
                }
                let width = fields[1].parse().unwrap_or(1);
                let (name, mut range) = match fields[3].find('[') {
                    Some(i) => (&fields[3][..i], Some(fields[3][i..].to_string())),
                    None => (fields[3], None),
                };
                if range.is_none() && fields.len() > 4 {
                    range = Some(fields[4..].concat());
                }
                vars.push(VcdVar {
                    scope: scope.clone(),
                    name: name.to_string(),
                    width,
                    range,
                });
            }
            "$enddefinitions" => break,
            _ => {}
        }
    }
    vars
}

/// Every signal name GTKWave shows for the VCD header `header`.
pub fn vcd_signal_names(header: &str) -> BTreeSet<String> {
    parse_header(header)
        .iter()
        .map(VcdVar::gtkwave_name)
        .collect()
}

/// The signal names a save file refers to (its trace lines).
pub fn referenced_signals(gtkw: &str) -> Vec<String> {
    gtkw.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !matches!(l.as_bytes()[0], b'[' | b'@' | b'-' | b'*'))
        .map(str::to_string)
        .collect()
}

/// The primary cursor's time in a save file (`None` when it has none).
pub fn cursor_time(gtkw: &str) -> Option<u64> {
    let line = gtkw.lines().find(|l| l.starts_with('*'))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What the view shows besides the waveform's own signals.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    /// The unit's name (a comment in the save file).
    pub unit: &'a str,
    /// The unit's input ports.
    pub inputs: &'a [PortDesc],
    /// The unit's output ports (the golden scope has the same names).
    pub outputs: &'a [PortDesc],
    /// The cycle of the first difference, if the run had one.
    pub first_difference: Option<u64>,
}

/// GTKWave trace flags (`@hex` lines of a save file).
mod flag {
    /// Right-justified binary (one bit).
    pub const BIN: &str = "@28";
    /// Right-justified hexadecimal (vectors).
    pub const HEX: &str = "@22";
    /// An open group's first line.
    pub const GROUP_OPEN: &str = "@800200";
    /// A closed group's first line.
    pub const GROUP_CLOSED: &str = "@c00200";
    /// An open group's last line.
    pub const GROUP_END_OPEN: &str = "@1000200";
    /// A closed group's last line.
    pub const GROUP_END_CLOSED: &str = "@1401200";
}

/// GTKWave trace colours (`[color] N`).
const RED: u32 = 1;
const YELLOW: u32 = 3;

/// Cycles shown before the first difference.
const CYCLES_BEFORE: u64 = 16;
/// Cycles the view spans at its initial zoom.
const CYCLES_SHOWN: u64 = 48;
/// Width of the wave pane assumed for the zoom (pixels).
const WAVE_PIXELS: u64 = 1000;

/// Builds the trace lines of a save file.
struct Writer<'v> {
    out: String,
    /// GTKWave names of the waveform's signals, by scope path and name.
    index: BTreeMap<(String, String), &'v VcdVar>,
}

impl<'v> Writer<'v> {
    fn trace(&mut self, v: &VcdVar, color: Option<u32>) {
        self.out
            .push_str(if v.width > 1 { flag::HEX } else { flag::BIN });
        self.out.push('\n');
        if let Some(c) = color {
            let _ = writeln!(self.out, "[color] {c}");
        }
        let _ = writeln!(self.out, "{}", v.gtkwave_name());
    }

    /// The trace of `scope.name`, if the waveform has it.
    fn named(&mut self, scope: &str, name: &str, color: Option<u32>) -> bool {
        match self
            .index
            .get(&(scope.to_string(), name.to_string()))
            .copied()
        {
            Some(v) => {
                self.trace(v, color);
                true
            }
            None => false,
        }
    }

    fn begin(&mut self, name: &str, closed: bool) {
        let f = if closed {
            flag::GROUP_CLOSED
        } else {
            flag::GROUP_OPEN
        };
        let _ = writeln!(self.out, "{f}\n-{name}");
    }

    fn end(&mut self, name: &str, closed: bool) {
        let f = if closed {
            flag::GROUP_END_CLOSED
        } else {
            flag::GROUP_END_OPEN
        };
        let _ = writeln!(self.out, "{f}\n-{name}");
    }
}

/// The stream a port belongs to: the text before its first `_`, when a
/// `<prefix>_valid` port exists.
fn streams(ports: &[&PortDesc]) -> Vec<(String, Vec<String>)> {
    let names: BTreeSet<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    let mut order: Vec<(String, Vec<String>)> = Vec::new();
    let mut other = Vec::new();
    for p in ports {
        if p.name == "clock" || p.name == "reset" {
            continue;
        }
        let prefix = p.name.split('_').next().unwrap_or("");
        let is_stream = p.name.contains('_') && names.contains(format!("{prefix}_valid").as_str());
        if !is_stream {
            other.push(p.name.clone());
            continue;
        }
        match order.iter_mut().find(|(s, _)| s == prefix) {
            Some((_, v)) => v.push(p.name.clone()),
            None => order.push((prefix.to_string(), vec![p.name.clone()])),
        }
    }
    for (prefix, v) in &mut order {
        let rank = |n: &String| {
            if *n == format!("{prefix}_valid") {
                0
            } else if *n == format!("{prefix}_ready") {
                1
            } else {
                2
            }
        };
        v.sort_by_key(rank); // stable: the payload keeps the port order
    }
    if !other.is_empty() {
        order.push(("other ports".to_string(), other));
    }
    order
}

/// Splits a register's path (relative to the unit) into its table, entry
/// and field: the first component with an index suffix (`ents__3`,
/// `ents$3`) names the table and entry.
fn table_entry(rel: &[String]) -> Option<(String, u64, String)> {
    for (i, c) in rel.iter().enumerate() {
        let split = c
            .rfind("__")
            .map(|j| (j, j + 2))
            .or_else(|| c.rfind('$').map(|j| (j, j + 1)));
        if let Some((j, k)) = split {
            if let Ok(n) = c[k..].parse::<u64>() {
                let mut table: Vec<&str> = rel[..i].iter().map(String::as_str).collect();
                table.push(&c[..j]);
                let field = rel[i + 1..].join(".");
                return Some((table.join("."), n, field));
            }
        }
    }
    None
}

/// The save file for a waveform whose header is `vcd_header`, to be
/// opened as `gtkwave DUMPFILE SAVEFILE`.
pub fn save_file(vcd_header: &str, dumpfile: &Path, savefile: &Path, layout: &Layout) -> String {
    let vars = parse_header(vcd_header);
    let index = vars
        .iter()
        .map(|v| ((v.scope_path(), v.name.clone()), v))
        .collect();
    let mut w = Writer {
        out: String::new(),
        index,
    };
    // The scope with the ports: the shallowest one declaring the first
    // output (the RTL's top; `golden` declares it too, one level up).
    let first_out = layout.outputs.first().map(|p| p.name.as_str());
    let port_scope = vars
        .iter()
        .filter(|v| Some(v.name.as_str()) == first_out)
        .filter(|v| v.scope.first().map(String::as_str) != Some("golden"))
        .min_by_key(|v| v.scope.len())
        .map(VcdVar::scope_path)
        .unwrap_or_default();
    let cursor = layout.first_difference.map(|c| c * CYCLE_TIME);
    let start = layout
        .first_difference
        .map(|c| c.saturating_sub(CYCLES_BEFORE) * CYCLE_TIME)
        .unwrap_or(0);
    let units_per_pixel = (CYCLES_SHOWN * CYCLE_TIME) as f64 / WAVE_PIXELS as f64;
    let zoom = -units_per_pixel.log2();
    let o = &mut w.out;
    let _ = writeln!(o, "[*]");
    let _ = writeln!(
        o,
        "[*] warpgen: {} lock-step waveform ({}); the RTL's ports, the golden outputs beside them, the registers per table and entry",
        layout.unit,
        match layout.first_difference {
            Some(c) => format!("first difference at cycle {c}, under the cursor"),
            None => "no difference".to_string(),
        }
    );
    let _ = writeln!(o, "[*]");
    let _ = writeln!(o, "[dumpfile] \"{}\"", dumpfile.display());
    let _ = writeln!(o, "[savefile] \"{}\"", savefile.display());
    let _ = writeln!(o, "[timestart] {start}");
    let _ = writeln!(o, "[size] 1600 900");
    let _ = writeln!(o, "[pos] -1 -1");
    let _ = write!(o, "*{zoom:.6} {}", cursor.map(|c| c as i64).unwrap_or(-1));
    for _ in 0..26 {
        o.push_str(" -1");
    }
    o.push('\n');
    if !port_scope.is_empty() {
        let _ = writeln!(o, "[treeopen] {port_scope}.");
    }
    let _ = writeln!(o, "[sst_width] 260");
    let _ = writeln!(o, "[signals_width] 330");
    let _ = writeln!(o, "[sst_expanded] 1");
    let _ = writeln!(o, "[sst_vpaned_height] 280");

    w.named(CHECK_SCOPE, MISMATCH, Some(RED));
    w.named(&port_scope, "clock", None);
    w.named(&port_scope, "reset", None);
    let outputs: BTreeSet<&str> = layout.outputs.iter().map(|p| p.name.as_str()).collect();
    let all: Vec<&PortDesc> = layout.inputs.iter().chain(layout.outputs).collect();
    for (stream, names) in streams(&all) {
        w.begin(&stream, false);
        for n in &names {
            w.named(&port_scope, n, None);
            if outputs.contains(n.as_str()) {
                w.named("golden", n, Some(YELLOW));
            }
        }
        w.end(&stream, false);
    }
    registers(&mut w, &vars, &port_scope);
    w.out
}

/// The registers' groups: every flip-flop output `q` under the port scope.
fn registers(w: &mut Writer, vars: &[VcdVar], port_scope: &str) {
    let depth = if port_scope.is_empty() {
        0
    } else {
        port_scope.split('.').count()
    };
    let regs: Vec<(Vec<String>, &VcdVar)> = vars
        .iter()
        .filter(|v| {
            v.name == "q"
                && v.scope.len() > depth
                && (depth == 0 || v.scope[..depth].join(".") == port_scope)
        })
        .map(|v| (v.scope[depth..].to_vec(), v))
        .collect();
    if regs.is_empty() {
        return;
    }
    // Verilator puts the unit one scope below the ports (`TOP.unit`): the
    // paths drop a first component every register shares.
    let shared = regs[0].0.first().cloned();
    let strip = regs.len() > 1
        && regs
            .iter()
            .all(|(p, _)| p.len() > 1 && p.first() == shared.as_ref());
    let mut tables: BTreeMap<String, BTreeMap<u64, Vec<&VcdVar>>> = BTreeMap::new();
    let mut plain: BTreeMap<String, Vec<&VcdVar>> = BTreeMap::new();
    for (path, v) in &regs {
        let rel = if strip { &path[1..] } else { &path[..] };
        match table_entry(rel) {
            Some((table, n, _)) => tables
                .entry(table)
                .or_default()
                .entry(n)
                .or_default()
                .push(v),
            None => plain.entry(rel[0].clone()).or_default().push(v),
        }
    }
    w.begin("registers", true);
    for (table, entries) in &tables {
        let title = format!("{table} ({} entries)", entries.len());
        w.begin(&title, true);
        // An entry of one register is listed as it is; an entry of several
        // fields (a table row) is a group of its own.
        let rows = entries.values().any(|vs| vs.len() > 1);
        for (n, vs) in entries {
            let e = format!("{table}[{n}]");
            if rows {
                w.begin(&e, true);
            }
            for v in vs {
                w.trace(v, None);
            }
            if rows {
                w.end(&e, true);
            }
        }
        w.end(&title, true);
    }
    for (name, vs) in &plain {
        if vs.len() > 1 {
            w.begin(name, true);
        }
        for v in vs {
            w.trace(v, None);
        }
        if vs.len() > 1 {
            w.end(name, true);
        }
    }
    w.end("registers", true);
}

/// `text` with its `[dumpfile]` and `[savefile]` lines naming `vcd` and
/// `gtkw` (a save file written beside a private copy of the waveform, then
/// delivered to the file the user named).
pub fn retarget(text: &str, vcd: &Path, gtkw: &Path) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("[dumpfile] ") {
                format!("[dumpfile] \"{}\"\n", vcd.display())
            } else if l.starts_with("[savefile] ") {
                format!("[savefile] \"{}\"\n", gtkw.display())
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// The save file's path for the waveform at `vcd`: the same name with the
/// extension `.gtkw`.
pub fn beside(vcd: &Path) -> std::path::PathBuf {
    vcd.with_extension("gtkw")
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERILATOR: &str = "$timescale 1ns $end\n $scope module TOP $end\n  $var wire  1 C, clock $end\n  $var wire  1 D, reset $end\n  $var wire  1 E, req_valid $end\n  $var wire  1 N, req_ready $end\n  $var wire 32 H, req_addr [31:0] $end\n  $var wire  1 O, rsp_valid $end\n  $var wire  3 P, rsp_way [2:0] $end\n  $var wire  1 T, busy $end\n  $scope module unit $end\n   $var wire 32 A, addr__q [31:0] $end\n   $scope module addr $end\n    $var wire 32 A, q [31:0] $end\n   $upscope $end\n   $scope module ents__0 $end\n    $scope module r_tag $end\n     $var wire 21 B, q [20:0] $end\n    $upscope $end\n    $scope module r_valid $end\n     $var wire  1 V, q $end\n    $upscope $end\n   $upscope $end\n   $scope module ents__1 $end\n    $scope module r_tag $end\n     $var wire 21 F, q [20:0] $end\n    $upscope $end\n   $upscope $end\n  $upscope $end\n $upscope $end\n$scope module golden $end\n$var wire 1 g0_0 rsp_valid $end\n$var wire 3 g1_0 rsp_way [2:0] $end\n$var wire 1 g2_0 busy $end\n$upscope $end\n$scope module lockstep $end\n$var wire 1 mm_0 mismatch $end\n$upscope $end\n$enddefinitions $end\n";

    const RUSTHDL: &str = "$timescale 1ns $end\n$scope module uut $end\n$var wire 1 ! clock $end\n$var wire 1 \" reset $end\n$var wire 1 # req_valid $end\n$var wire 1 $ req_ready $end\n$var wire 32 % req_addr $end\n$var wire 1 & rsp_valid $end\n$var wire 3 ' rsp_way $end\n$var wire 1 ( busy $end\n$scope module ents$0 $end\n$scope module r_tag $end\n$var wire 21 ) q $end\n$upscope $end\n$upscope $end\n$scope module addr $end\n$var wire 32 * q $end\n$upscope $end\n$upscope $end\n$scope module golden $end\n$var wire 1 g0_0 rsp_valid $end\n$var wire 3 g1_0 rsp_way [2:0] $end\n$var wire 1 g2_0 busy $end\n$upscope $end\n$scope module lockstep $end\n$var wire 1 mm_0 mismatch $end\n$upscope $end\n$enddefinitions $end\n";

    fn ports() -> (Vec<PortDesc>, Vec<PortDesc>) {
        (
            vec![
                PortDesc::new("clock", 1),
                PortDesc::new("reset", 1),
                PortDesc::new("req_valid", 1),
                PortDesc::new("req_addr", 32),
            ],
            vec![
                PortDesc::new("req_ready", 1),
                PortDesc::new("rsp_valid", 1),
                PortDesc::new("rsp_way", 3),
                PortDesc::new("busy", 1),
            ],
        )
    }

    fn view(header: &str, first: Option<u64>) -> String {
        let (i, o) = ports();
        let layout = Layout {
            unit: "unit",
            inputs: &i,
            outputs: &o,
            first_difference: first,
        };
        save_file(
            header,
            Path::new("/w/a.vcd"),
            Path::new("/w/a.gtkw"),
            &layout,
        )
    }

    #[test]
    fn names_follow_gtkwave_ranges_and_scopes() {
        let n = vcd_signal_names(VERILATOR);
        assert!(n.contains("TOP.req_addr[31:0]"), "{n:?}");
        assert!(n.contains("TOP.unit.ents__1.r_tag.q[20:0]"), "{n:?}");
        assert!(n.contains("golden.rsp_way[2:0]"), "{n:?}");
        let r = vcd_signal_names(RUSTHDL);
        // No range declared: GTKWave names the vector [width-1:0].
        assert!(r.contains("uut.req_addr[31:0]"), "{r:?}");
        assert!(r.contains("uut.ents$0.r_tag.q[20:0]"), "{r:?}");
        assert!(r.contains("uut.clock"), "{r:?}");
    }

    #[test]
    fn the_view_names_only_signals_of_the_waveform() {
        for header in [VERILATOR, RUSTHDL] {
            let names = vcd_signal_names(header);
            let g = view(header, Some(40));
            let used = referenced_signals(&g);
            assert!(used.len() >= 12, "{g}");
            for s in &used {
                assert!(names.contains(s), "{s} is not in the VCD:\n{g}");
            }
        }
    }

    #[test]
    fn streams_put_valid_ready_then_payload_and_golden_beside_outputs() {
        let g = view(VERILATOR, None);
        let used = referenced_signals(&g);
        let at = |s: &str| {
            used.iter()
                .position(|u| u == s)
                .unwrap_or_else(|| panic!("{s}: {g}"))
        };
        assert_eq!(at("lockstep.mismatch"), 0);
        assert!(at("TOP.req_valid") < at("TOP.req_ready"));
        assert!(at("TOP.req_ready") < at("TOP.req_addr[31:0]"));
        assert_eq!(at("golden.rsp_way[2:0]"), at("TOP.rsp_way[2:0]") + 1);
        assert_eq!(at("golden.busy"), at("TOP.busy") + 1);
        assert!(g.contains("-req\n") && g.contains("-rsp\n") && g.contains("-other ports\n"));
        // The registers: per table and entry; `addr` on its own.
        assert!(g.contains("-ents (2 entries)\n"), "{g}");
        assert!(g.contains("-ents[1]\n"), "{g}");
        assert!(at("TOP.unit.ents__0.r_tag.q[20:0]") < at("TOP.unit.ents__1.r_tag.q[20:0]"));
        assert!(used.contains(&"TOP.unit.addr.q[31:0]".to_string()));
        // Every group that begins ends.
        let begins = g.matches("@800200\n").count() + g.matches("@c00200\n").count();
        let ends = g.matches("@1000200\n").count() + g.matches("@1401200\n").count();
        assert_eq!(begins, ends, "{g}");
        assert_eq!(cursor_time(&g), None);
    }

    #[test]
    fn the_cursor_is_on_the_first_difference() {
        let g = view(RUSTHDL, Some(40));
        assert_eq!(cursor_time(&g), Some(40 * CYCLE_TIME));
        assert!(
            g.contains(&format!("[timestart] {}\n", 24 * CYCLE_TIME)),
            "{g}"
        );
        assert!(g.contains("first difference at cycle 40"), "{g}");
        let g = view(RUSTHDL, Some(3));
        assert!(g.contains("[timestart] 0\n"), "{g}");
    }

    #[test]
    fn retarget_names_the_delivered_files() {
        let g = view(RUSTHDL, None);
        let r = retarget(&g, Path::new("/out/x.vcd"), Path::new("/out/x.gtkw"));
        assert!(r.contains("[dumpfile] \"/out/x.vcd\"\n"), "{r}");
        assert!(r.contains("[savefile] \"/out/x.gtkw\"\n"), "{r}");
        assert_eq!(referenced_signals(&r), referenced_signals(&g));
    }

    #[test]
    fn table_entries_are_found_in_both_spellings() {
        let p = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            table_entry(&p("ents__3.r_stride")),
            Some(("ents".into(), 3, "r_stride".into()))
        );
        assert_eq!(
            table_entry(&p("walkq.data$12")),
            Some(("walkq.data".into(), 12, "".into()))
        );
        assert_eq!(table_entry(&p("bw_halt")), None);
        assert_eq!(table_entry(&p("l__x")), None);
    }
}
