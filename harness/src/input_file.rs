//! Reading an input file with bounds: a kernel file or a trace must be a
//! regular file of bounded size. `/dev/zero` would be read without end and
//! a FIFO with no writer would wait forever; both are refused at once.

use std::io::Read;
use std::path::Path;

/// Reads `path` whole if it is a regular file of at most `max_bytes`
/// bytes; otherwise an error that says what it is and what to give
/// (`what` names the input: "a kernel file").
pub fn read_bounded(path: &Path, max_bytes: u64, what: &str) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if meta.is_dir() {
        return Err(format!("is a folder; give {what}"));
    }
    if !meta.is_file() {
        return Err(format!(
            "is not a regular file (a device, FIFO or socket); give {what}"
        ));
    }
    if meta.len() > max_bytes {
        return Err(format!(
            "is {} bytes; {what} may have at most {max_bytes}",
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(max_bytes + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > max_bytes {
        return Err(format!("grew past {max_bytes} bytes while it was read"));
    }
    Ok(bytes)
}

/// The largest kernel file (bytes): the bundled ones are a few KB; graph
/// contents are generated, not listed.
pub const MAX_KERNEL_FILE_BYTES: u64 = 16 << 20;

/// The largest kernel trace (bytes): 8 GB, the size of a long Accel-Sim
/// kernel trace; the trace is held in memory while it is replayed.
pub const MAX_TRACE_BYTES: u64 = 8 << 30;
