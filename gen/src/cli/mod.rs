//! The `warpgen` command line: the parser ([`Cli`]) and one function per
//! subcommand, grouped by what they work on: a unit's RTL ([`rtl`],
//! [`prove`], [`all`]), the SM harness ([`harness`]; `run` and `reuse` are
//! [`crate::run`] and [`crate::reuse`]), lists of harness runs
//! ([`batch`]).

pub mod all;
pub mod batch;
pub mod explore;
pub mod format;
pub mod harness;
pub mod prove;
pub mod rtl;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use self::all::AllCmd;
use self::batch::{ReproduceCmd, SweepCmd};
use self::harness::{BenchHarnessCmd, CattCmd, CompareCmd, PresetsCmd};
use self::prove::ProveCmd;
use self::rtl::{BenchCmd, CosimCmd, ReportCmd, VerilogCmd};

/// The command line.
#[derive(Parser)]
#[command(
    name = "warpgen",
    version,
    about = "Synthesizable RTL of GPU memory-side units, checked cycle for cycle against golden models",
    after_help = "Examples:
  warpgen all                                   emit, co-simulate and summarise every unit
  warpgen verilog --unit ba_tag_array --out rtl/
  warpgen verilog --config my.toml              parameters from a TOML file ([unit] tables)
  warpgen cosim --unit ba_tag_array --cycles 1000000 --seed 7 --vcd fail.vcd
  warpgen cosim --unit ba_tag_array --backend rusthdl --scenario
  warpgen cosim --unit ba_tag_array --cycles 5000 --export-tb tb/   self-checking Verilog test bench
  warpgen report --unit ba_tag_array --format json
  warpgen configs                               what each unit can be built for
  warpgen bench                                 golden model vs Verilator vs RustHDL speed
  warpgen run --kernel kernels/lps.toml --prefetcher caps --sched pas
  warpgen run --kernel kernels/matrix_mul.toml --prefetcher caps --cosim caps_prefetcher
  warpgen run --kernel kernels/lps.toml --prefetcher snake --decoupled off --cosim snake_prefetcher
  warpgen run --kernel kernels/matrix_mul.toml --dac --cosim dac_expander
  warpgen run --preset caps-gtx480 --kernel kernels/lps.toml --prefetcher caps --sched pas
  warpgen presets caps-gtx480
  warpgen run --kernel kernels/reuse.toml --l1 ba --cosim ba_tag_array --json out.json
  warpgen run --kernel kernels/bfs.toml --preset ba-thesis --reuse-distance bfs.svg   reuse-distance profile
  warpgen reuse --kernel kernels/spmv.toml --out study/          the BA thesis's cache-size study"
)]
pub struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Emit Verilog: `<out>/<unit>.v`, top module `<unit>`.
    Verilog(VerilogCmd),
    /// Co-simulate a unit's RTL against its golden model, cycle by cycle.
    Cosim(CosimCmd),
    /// Storage table, Yosys cells and flip-flops, area; timing, slack, fmax
    /// and power at a clock (`--clock-mhz`, default 1000 MHz: issue 29's
    /// target is 1 GHz or faster; the README's "Timing closure" table has
    /// each unit's fmax); `--clock-sweep` for area and slack against the clock.
    Report(ReportCmd),
    /// List each unit's parameters and the configurations its RTL builds for.
    Configs,
    /// Sweep a unit's parameters: every point of the grid emitted,
    /// synthesized and timed at the clock (cached, in parallel), one JSON
    /// per point, a table, and an SVG of area, fmax and storage against
    /// each parameter (a Pareto view for two); exits 1 when a point does
    /// not close.
    Explore(explore::ExploreCmd),
    /// Prove each unit's RTL equivalent to its Yosys gate netlist (generic
    /// gates of `synth -flatten -nofsm -nordff`): registers and outputs matched by
    /// name, ABC fraig, then equiv_simple / equiv_induct / equiv_status
    /// -assert; then check the properties of hdl/formal/ (BMC,
    /// k-induction). Exit 1 when a proof or property fails, 2 on a tool error.
    Prove(ProveCmd),
    /// The machine presets; with a name, its paper's configuration table
    /// row by row with the machine keys each row sets.
    Presets(PresetsCmd),
    /// Cycles per second: golden model, Verilator and RustHDL on one stimulus.
    Bench(BenchCmd),
    /// Run a kernel (TOML file, or an Accel-Sim trace) on the SM harness.
    Run(crate::run_args::RunArgs),
    /// The BA thesis's cache-size study (Figures 7-8): the kernel at each
    /// L1 size and associativity, in parallel; per configuration the hit
    /// rate, the reuse classes rd0 / rd1 / rd2 and the seven intervals; a
    /// figure (OUT/reuse-study.svg) and the results (OUT/reuse-study.json).
    #[command(after_help = "Examples:
  warpgen reuse --kernel kernels/spmv.toml                        16, 32, 48 KB x 4, 8 ways on ba-thesis
  warpgen reuse --kernel kernels/bfs.toml --sizes 16,32,64,128,256 --ways 8   the thesis's Fig. 7 sizes
  warpgen reuse --kernel kernels/reuse.toml --preset fermi --set param.NTHREADS=7168 --out study/")]
    Reuse(crate::reuse::study::StudyArgs),
    /// Kernels x machine presets x mechanisms (default: the bundled kernels
    /// on every paper preset under none, CAPS with PAS, and the BA L1), run
    /// in parallel, one Markdown table per preset.
    Compare(CompareCmd),
    /// CATT's static analysis (Kim et al., ICPP 2019, equations 1-9) of
    /// kernel files: per kernel the TLP limits and the L1 size, per loop
    /// its loads' coefficients, the L1 footprint and the chosen (warps per
    /// CTA, CTAs per SM). `warpgen run --catt` applies it.
    #[command(after_help = "Examples:
  warpgen catt --kernel kernels/atax1.toml --preset catt-titanv --set param.NX=81920
  warpgen catt --kernel kernels/atax1.toml --preset catt-titanv --set param.NX=81920 --l1-kb 32
  warpgen run --kernel kernels/atax1.toml --preset catt-titanv --set param.NX=81920 --catt")]
    Catt(CattCmd),
    /// Run a list of independent harness runs (TOML or JSON: `[[run]]` with
    /// id, kernel, preset, set), one JSON result each in OUT/runs/, in
    /// parallel on the local cores, then merge them into OUT/merged.json.
    /// Results already there are kept (a sweep resumes).
    #[command(after_help = "Examples:
  warpgen sweep --list runs.toml --out sweep/             run what is missing, then merge
  warpgen sweep --list runs.toml --out sweep/ --task 3    run only run 3 (what a Slurm task does)
  warpgen sweep --list runs.toml --out sweep/ --merge     merge the results present
  warpgen sweep --list runs.toml --out sweep/ --emit-slurm slurm/   job array + merge scripts")]
    Sweep(SweepCmd),
    /// Run the papers' own experiments on their presets and the bundled
    /// kernels, and write one report (Markdown, HTML with the figures
    /// embedded, SVG figures, claims.json) with the paper's figure, ours and
    /// a verdict per claim.
    #[command(after_help = "Examples:
  warpgen reproduce --out report/                     every paper, the quick sizes
  warpgen reproduce --out report/ --paper caps --paper ba
  warpgen reproduce --out report/ --full              the kernel files' own sizes
  warpgen reproduce --out report/ --emit-slurm slurm/ the runs as a Slurm job array; its
                                                      last job writes the report (--no-run)")]
    Reproduce(ReproduceCmd),
    /// Speed of the SM harness on the bundled kernels (simulated cycles/s),
    /// with and without lock-step co-simulation of the units' RTL.
    BenchHarness(BenchHarnessCmd),
    /// Emit every unit, co-simulate each, print a summary table.
    All(AllCmd),
}

/// Run the parsed command line: `Ok(false)` when a check failed (exit 1),
/// an error for a usage or tool error (exit 2).
pub fn run(cli: Cli) -> anyhow::Result<bool> {
    match cli.cmd {
        Cmd::Verilog(a) => rtl::verilog_cmd(a),
        Cmd::Cosim(a) => rtl::cosim_cmd(a),
        Cmd::Report(a) => rtl::report_cmd(a),
        Cmd::Prove(a) => prove::prove_cmd(a),
        Cmd::Configs => rtl::configs_cmd(),
        Cmd::Explore(a) => explore::explore_cmd(a),
        Cmd::Presets(a) => harness::presets_cmd(a),
        Cmd::Bench(a) => rtl::bench_cmd(a),
        Cmd::Reuse(a) => crate::reuse::study::study_command(&a).map(|()| true),
        Cmd::Run(a) => crate::run::run_command(&a).map(|()| true),
        Cmd::Compare(a) => harness::compare_cmd(a),
        Cmd::Catt(a) => harness::catt_cmd(a),
        Cmd::Sweep(a) => batch::sweep_cmd(a),
        Cmd::Reproduce(a) => batch::reproduce_cmd(a),
        Cmd::BenchHarness(a) => harness::bench_harness_cmd(a),
        Cmd::All(a) => all::all_cmd(a),
    }
}

/// The command line, parsed. A negative number is taken as a value, not a
/// flag, so that `--seed -1` gets the value's own error ("invalid value
/// '-1' for '--seed <SEED>'") rather than clap's "unexpected argument".
fn parse_args() -> Cli {
    let cmd = Cli::command()
        .allow_negative_numbers(true)
        .mut_subcommands(|c| c.allow_negative_numbers(true));
    let matches = cmd.get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// `warpgen`: parse the command line, run it, and map the outcome to the
/// exit code (0 success, 1 a failed check, 2 an error, printed).
pub fn main() -> ExitCode {
    let cli = parse_args();
    let outcome = run(cli);
    // A failure in the last buffered bytes of standard output is an error
    // too (`crate::stdout`).
    crate::stdout::flush();
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
