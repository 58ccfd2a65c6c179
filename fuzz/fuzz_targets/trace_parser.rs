//! Any bytes as a `kernel-N.traceg`: reading and checking never panics,
//! every refusal names a line and a field, and an accepted trace becomes
//! a kernel that passes the machine check.

#![no_main]

use libfuzzer_sys::fuzz_target;
use harness::trace::parse_kernel_trace;
use harness::{Kernel, MachineConfig};

fuzz_target!(|data: &[u8]| {
    match parse_kernel_trace(data, "fuzz/kernel-1.traceg".as_ref()) {
        Err(e) => assert!(e.line >= 1 && !e.field.is_empty(), "{e}"),
        Ok(kt) => {
            let k = Kernel::from_trace(&kt, 128);
            let mut c = MachineConfig::fermi();
            c.max_warps = 64;
            if let Err(e) = k.check_trace(&c) {
                panic!("accepted, then refused: {e}");
            }
        }
    }
});
