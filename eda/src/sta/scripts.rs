//! The Yosys mapping script and the OpenSTA Tcl script, with the markers the
//! Tcl script prints.

use super::options::TimingOptions;

pub(super) const MARK_DONE: &str = "WARPGEN_STA_DONE";
pub(super) const MARK_NO_CLOCK: &str = "WARPGEN_STA_NO_CLOCK";
pub(super) const MARK_HAS_REGS: &str = "WARPGEN_STA_HAS_REGISTERS";

/// The Yosys script: [`crate::synth_yosys`]'s mapping, then the netlist.
/// `setundef -zero` ties undriven bits, which OpenSTA could not read as `x`;
/// `splitnets -ports` leaves only one-bit nets (ports keep their `name[i]`
/// names as escaped identifiers); constants (`1'b0`) and one-bit `assign`
/// statements are read by OpenSTA as they are.
pub(super) fn yosys_script(top: &str, lib: &str, constr: Option<(u64, &str)>) -> String {
    let abc = match constr {
        Some((ps, file)) => format!("abc -D {ps} -constr {file} -liberty {lib}"),
        None => format!("abc -liberty {lib}"),
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
