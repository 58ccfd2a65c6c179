//! Standard output that never panics: every line `warpgen` prints goes
//! through [`out!`](crate::out) / [`outln!`](crate::outln), which stop the
//! process cleanly when standard output fails instead of panicking as
//! `println!` does ("failed printing to stdout", exit 101).
//!
//! - A closed pipe (`warpgen configs | head -1`): the reader has what it
//!   wanted; the process ends at once, quietly, with status 0 (as ripgrep
//!   does). Output files are written to temporary files and renamed, so
//!   none is left half-written; a stale temporary file is removed by the
//!   next emission ([`crate::output::remove_stale_temps`]).
//! - Any other error (`/dev/full`: no space left on device): one `error:`
//!   line on standard error and status 2, like every other error.

use std::io::{self, Write};

/// Ends the process for a failed write to standard output (see the module
/// documentation).
pub fn failed(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    // Standard error may be gone too: nothing more to do then.
    let _ = writeln!(io::stderr(), "error: cannot write to standard output: {e}");
    std::process::exit(2);
}

/// Writes `args` to standard output, or ends the process ([`failed`]).
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        failed(&e);
    }
}

/// Flushes standard output, or ends the process ([`failed`]): called before
/// the process exits, so that an error in the last buffered bytes is
/// reported too.
pub fn flush() {
    if let Err(e) = io::stdout().lock().flush() {
        failed(&e);
    }
}

/// `print!` that ends the process cleanly when standard output fails
/// ([`crate::stdout`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!($($arg)*))
    };
}

/// `println!` that ends the process cleanly when standard output fails
/// ([`crate::stdout`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
