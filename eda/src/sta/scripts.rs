//! The Yosys mapping script and the OpenSTA Tcl script, with the markers the
//! Tcl script prints.

use super::options::TimingOptions;

pub(super) const MARK_DONE: &str = "WARPGEN_STA_DONE";
pub(super) const MARK_NO_CLOCK: &str = "WARPGEN_STA_NO_CLOCK";
pub(super) const MARK_HAS_REGS: &str = "WARPGEN_STA_HAS_REGISTERS";

/// How ABC maps for [`yosys_script`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum AbcMapping {
    /// `abc -liberty L`: [`crate::synth_yosys`]'s mapping (no buffering or
    /// sizing).
    Plain,
    /// Yosys's own `abc -D` script for a Liberty, with ABC's timing told to
    /// use the Liberty's wire load (`-c`, as OpenSTA does) and the delay
    /// target given in ps (`Some`) or none (`None`: minimum delay); the
    /// driving cell and output load come from the file named.
    Timed {
        /// ABC's delay target in ps, `None` for minimum delay.
        target_ps: Option<u64>,
        /// The `-constr` file (driving cell and load).
        constr: &'static str,
    },
}

/// The name of the ABC script file [`yosys_script`] refers to for
/// [`AbcMapping::Timed`]; [`abc_script`] gives its text.
pub(super) const ABC_SCRIPT_FILE: &str = "abc.script";

/// The ABC script for [`AbcMapping::Timed`]. It starts from Yosys 0.23's
/// script for `abc -D <ps> -liberty` (`strash; &get -n; &fraig -x; &put;
/// scorr; dc2; dretime; strash; &get -n; &dch -f; &nf {D}; &put; buffer;
/// upsize {D}; dnsize {D}; stime -p`) with two changes (`docs/eda.md`,
/// "Static timing"):
///
/// * `-c` on `buffer`, `upsize`, `dnsize` and `stime`, so that ABC's delays
///   include the Liberty's default wire load like OpenSTA's do. Without `-c`
///   ABC sees no wire load, judges a path met that OpenSTA finds 20 % longer,
///   and stops sizing (the BA tag array mapped for 1 ns: ABC 0.92 ns,
///   OpenSTA 1.18 ns, a chain of eleven `BUF_X1`).
/// * Delay-oriented logic synthesis in place of `dc2`: `&st; &syn2; &if -g;
///   &st` before the choices of `&dch -f`. `dc2` is area-oriented AIG
///   rewriting; it turns Yosys's Brent-Kung carry tree (and any hand-written
///   prefix adder) into a ripple chain, so that a lone 32-bit subtraction
///   between registers mapped as 32 `AOI21`/`OAI21` levels. `&syn2` and
///   `&if -g` (SOP balancing) are ABC's delay-oriented restructuring.
pub(super) fn abc_script(target_ps: Option<u64>) -> String {
    let d = target_ps.map(|ps| format!(" -D {ps}")).unwrap_or_default();
    format!(
        "strash; &get -n; &fraig -x; &put; scorr; dretime; strash; &get -n; &st; &syn2; \
         &if -g; &st; &dch -f; &nf{d}; &put; buffer -c; upsize -c{d}; dnsize -c{d}; \
         stime -c -p"
    )
}

/// The Yosys script: [`crate::synth_yosys`]'s mapping, then the netlist.
/// `setundef -zero` ties undriven bits, which OpenSTA could not read as `x`;
/// `splitnets -ports` leaves only one-bit nets (ports keep their `name[i]`
/// names as escaped identifiers); constants (`1'b0`) and one-bit `assign`
/// statements are read by OpenSTA as they are.
pub(super) fn yosys_script(top: &str, lib: &str, mapping: AbcMapping) -> String {
    let abc = match mapping {
        AbcMapping::Timed { constr, .. } => {
            format!("abc -constr {constr} -liberty {lib} -script {ABC_SCRIPT_FILE}")
        }
        AbcMapping::Plain => format!("abc -liberty {lib}"),
    };
    [
        format!("hierarchy -check -top {top}"),
        "proc".to_string(),
        "check -assert".to_string(),
        format!("synth -flatten -top {top}"),
        format!("dfflibmap -liberty {lib}"),
        abc,
        "opt_clean".to_string(),
        "setundef -zero".to_string(),
        // One-bit wires and ports: OpenSTA 2019 cannot read the
        // concatenations (`assign { a[1], b } = ...`) Yosys writes otherwise.
        "splitnets -ports".to_string(),
        "tee -q -o mapped.json stat -json".to_string(),
        format!("tee -q -o area.txt stat -liberty {lib}"),
        "write_verilog -noattr -noexpr netlist.v".to_string(),
    ]
    .join("; ")
}

/// The OpenSTA Tcl script. Reports go to files (`>` redirection), so that
/// they do not interleave with Tcl's own output.
pub(super) fn sta_script(top: &str, o: &TimingOptions) -> String {
    let clk = &o.clock;
    let period = o.period_ns;
    let mut power = String::new();
    if o.power {
        for a in &o.port_activity {
            power.push_str(&format!(
                "set p [get_ports -quiet {{{}}}]\nif {{[llength $p]}} {{ set_power_activity \
                 -input_ports $p -activity {:.6} -duty {:.6} }}\n",
                a.port,
                a.activity.clamp(0.0, 2.0),
                a.duty.clamp(0.0, 1.0)
            ));
        }
        power.push_str("report_power -digits 6 > power.txt\n");
    }
    format!(
        "read_liberty cells.lib\n\
         read_verilog netlist.v\n\
         link_design {top}\n\
         if {{[llength [get_ports {clk}]] == 0}} {{\n\
         \x20 puts {MARK_NO_CLOCK}\n\
         \x20 puts {MARK_DONE}\n\
         \x20 exit\n\
         }}\n\
         create_clock -name clk -period {period} [get_ports {clk}]\n\
         set inputs [delete_from_list [all_inputs] [get_ports {clk}]]\n\
         if {{[llength $inputs] > 0}} {{ set_input_delay 0 -clock clk $inputs }}\n\
         if {{[llength [all_outputs]] > 0}} {{ set_output_delay 0 -clock clk [all_outputs] }}\n\
         report_checks -path_delay max -digits 4 -fields {{cap slew input_pins}} > worst.txt\n\
         if {{[llength [all_registers]] > 0}} {{\n\
         \x20 puts {MARK_HAS_REGS}\n\
         \x20 report_checks -path_delay max -digits 4 -fields {{cap slew input_pins}} \
         -from [all_registers -clock_pins] -to [all_registers -data_pins] > reg2reg.txt\n\
         }}\n\
         {power}\
         puts {MARK_DONE}\n\
         exit\n"
    )
}
