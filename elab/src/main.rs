//! `warpgen-elab PARAMS_JSON`: one unit's block for widths that are not
//! compiled into warpgen, built by `cosim::elaborate` (which sets the
//! instance at build time, `build.rs`) and driven over stdin and stdout:
//!
//! - `verilog N`, then `N` header lines: answers `ok LEN`, then `LEN`
//!   bytes of Verilog;
//! - `cycle V1 V2 ...` (the input ports' values, decimal): one cycle of
//!   [`hdl::drive::Driver`]; answers the output ports' values;
//! - `vcd PATH`: start a waveform; `endvcd`: close it; each answers `ok`;
//! - `quit` or the end of the input: exit.
//!
//! A request that fails answers `err MESSAGE` on one line.

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use hdl::drive::Driver;

include!(concat!(env!("OUT_DIR"), "/instance.rs"));

fn main() -> ExitCode {
    let params = std::env::args().nth(1).unwrap_or_default();
    let (unit, n_out) = match build(&params) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut driver = Driver::new(unit);
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut lines = stdin.lines();
    let mut outputs = vec![0u64; n_out];
    let mut inputs: Vec<u64> = Vec::new();
    while let Some(Ok(line)) = lines.next() {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let reply = match cmd {
            "cycle" => {
                inputs.clear();
                match rest
                    .split_whitespace()
                    .map(str::parse::<u64>)
                    .collect::<Result<Vec<_>, _>>()
                {
                    Ok(v) => {
                        inputs.extend(v);
                        driver.cycle(&inputs, &mut outputs);
                        let text: Vec<String> = outputs.iter().map(u64::to_string).collect();
                        writeln!(out, "{}", text.join(" "))
                    }
                    Err(e) => writeln!(out, "err the input values: {e}"),
                }
            }
            "verilog" => {
                let n: usize = rest.trim().parse().unwrap_or(0);
                let header: Vec<String> = lines.by_ref().take(n).map_while(Result::ok).collect();
                match driver.verilog(&header) {
                    Ok(v) => write!(out, "ok {}\n{v}", v.len()),
                    Err(e) => writeln!(out, "err {}", e.replace('\n', " ")),
                }
            }
            "vcd" => match driver.start_vcd(Path::new(rest)) {
                Ok(()) => writeln!(out, "ok"),
                Err(e) => writeln!(out, "err {rest}: {e}"),
            },
            "endvcd" => {
                driver.finish_vcd();
                writeln!(out, "ok")
            }
            "quit" => break,
            other => writeln!(out, "err unknown request `{other}`"),
        };
        if reply.and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    driver.finish_vcd();
    ExitCode::SUCCESS
}
