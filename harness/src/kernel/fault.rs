//! The run-time error of a kernel: a zero divisor at an active lane.

use super::error::KernelError;
use super::types::Kernel;
use crate::error::HarnessError;
use crate::expr::Code;

/// The run-time error for a `/` or `%` whose divisor is 0 at the active
/// `lanes` of warp slot `warp` evaluating `code`: the kernel file, the
/// statement's line, the lanes.
pub(crate) fn zero_divisor_error(
    k: &Kernel,
    code: Code,
    lanes: u32,
    warp: u16,
    cycle: u64,
) -> HarnessError {
    // The lanes as ranges: `3`, `0-31`, `0-2, 5`.
    let mut ranges: Vec<String> = Vec::new();
    let mut l = 0u32;
    while l < 32 {
        if lanes >> l & 1 == 0 {
            l += 1;
            continue;
        }
        let first = l;
        while l < 32 && lanes >> l & 1 != 0 {
            l += 1;
        }
        ranges.push(if l - 1 == first {
            first.to_string()
        } else {
            format!("{first}-{}", l - 1)
        });
    }
    HarnessError::Kernel(KernelError {
        file: k.file.clone(),
        line: (code.line > 0).then_some(code.line),
        field: "body".into(),
        msg: format!(
            "division by zero at run time: a `/` or `%` has the divisor 0 for active lane{} {} \
             of warp slot {warp} at cycle {cycle}",
            if lanes.count_ones() == 1 { "" } else { "s" },
            ranges.join(", ")
        ),
    })
}
