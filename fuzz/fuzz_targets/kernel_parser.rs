//! Any bytes as a kernel file (`kernels/README.md`): loading (TOML,
//! parameters, arrays and graphs, body statements, expressions) never
//! panics, overflows the stack or hangs, and every refusal names the file,
//! a line of it when it gives one, and a field (or is a TOML syntax
//! error). The in-suite fuzzer (`tests/tests/harness_errors.rs`, `fuzz`)
//! mutates the bundled kernels; this target starts from them as a corpus:
//! `cargo +nightly fuzz run kernel_parser corpus/kernel_parser ../kernels`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use harness::Kernel;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = Kernel::from_str(text, "fuzz.toml", &[], 1) {
        let lines = text.lines().count() as u32 + 1;
        assert!(e.file == "fuzz.toml" && !e.msg.is_empty(), "{e}");
        assert!(e.line.is_none_or(|l| (1..=lines).contains(&l)), "{e}");
        assert!(
            !e.field.is_empty() || e.msg.starts_with("TOML syntax error"),
            "{e}"
        );
    }
});
