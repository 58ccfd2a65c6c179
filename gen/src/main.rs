//! `warpgen`: emit Verilog of GPU memory-side units, co-simulate it against
//! golden models, and report storage, cells and area (the command line is
//! [`gen::cli`]).

fn main() -> std::process::ExitCode {
    gen::cli::main()
}
