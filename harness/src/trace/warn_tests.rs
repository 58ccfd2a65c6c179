//! The trace warnings ([`super::warn`]): one per distinct unknown opcode
//! and unreadable register token, none for SASS, `RZ`, `PT` and the real
//! traces.

use std::path::{Path, PathBuf};

use super::{parse_kernel_trace, read_kernel_trace, read_kernelslist, MAX_WARNINGS_PER_KIND};
use crate::kernel::Kernel;

/// A one-CTA, one-warp trace whose warp runs `body` (instruction lines,
/// from line 9 of the file) and then an EXIT.
fn trace(body: &[&str]) -> String {
    let mut s = format!(
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n\
         -accelsim tracer version = 4\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n\
         insts = {}\n",
        body.len() + 1
    );
    for l in body {
        s += l;
        s += "\n";
    }
    s + "0100 ffffffff 0 EXIT 0 0\n#END_TB\n"
}

fn warnings(body: &[&str]) -> Vec<String> {
    let kt = parse_kernel_trace(trace(body).as_bytes(), "t/kernel-1.traceg".as_ref())
        .unwrap_or_else(|e| panic!("{e}"));
    // The prepared kernel carries them too.
    assert_eq!(Kernel::from_trace(&kt, 128).trace_warnings(), kt.warnings);
    kt.warnings
}

#[test]
fn an_unknown_opcode_warns_once_naming_its_first_line() {
    let w = warnings(&[
        "0000 ffffffff 1 R1 MOV 0 0",
        "0010 ffffffff 1 R2 FOO.X 1 R1 0",
        "0020 ffffffff 1 R3 FOO.Y.Z 0 0",
        "0030 ffffffff 1 R2 FOO.X 1 R1 0",
    ]);
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].starts_with("`FOO.X` (t/kernel-1.traceg:10): unknown SASS opcode"),
        "{}",
        w[0]
    );
    assert!(
        w[0].contains("replayed as an ALU instruction (latency alu)"),
        "{}",
        w[0]
    );
    assert!(w[0].ends_with("3 lines have it"), "{}", w[0]);
    // Two unknown opcodes: two warnings, in line order.
    let w = warnings(&["0000 ffffffff 0 ZED 0 0", "0010 ffffffff 0 FOO 0 0"]);
    assert_eq!(w.len(), 2, "{w:#?}");
    assert!(w[0].starts_with("`ZED` (t/kernel-1.traceg:9)"), "{}", w[0]);
    assert!(w[1].starts_with("`FOO` (t/kernel-1.traceg:10)"), "{}", w[1]);
    assert!(w[1].ends_with("1 line has it"), "{}", w[1]);
}

#[test]
fn an_unreadable_register_warns_once() {
    let w = warnings(&[
        "0000 ffffffff 1 R-1 MOV 0 0",
        "0010 ffffffff 1 R2 IADD 2 R-1 R-1 0",
        "0020 ffffffff 1 R2 IADD 1 R1 0",
    ]);
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].starts_with("`R-1` (t/kernel-1.traceg:9, reg_dests): not a register"),
        "{}",
        w[0]
    );
    assert!(
        w[0].contains("left out of the instruction's dependencies"),
        "{}",
        w[0]
    );
    assert!(w[0].ends_with("2 lines have it"), "{}", w[0]);
    let w = warnings(&["0000 ffffffff 1 R2 IADD 2 R999 Q3 0"]);
    assert_eq!(w.len(), 2, "{w:#?}");
    assert!(
        w[0].starts_with("`R999` (t/kernel-1.traceg:9, reg_srcs)"),
        "{w:#?}"
    );
    assert!(
        w[1].starts_with("`Q3` (t/kernel-1.traceg:9, reg_srcs)"),
        "{w:#?}"
    );
}

#[test]
fn sass_and_the_non_registers_give_none() {
    let w = warnings(&[
        "0000 ffffffff 1 RZ IMAD.MOV.U32 3 RZ URZ R255 0",
        "0010 ffffffff 2 PT P0 ISETP.GE.AND 3 !PT UPT -R2 0",
        "0020 ffffffff 1 UR4 S2UR 1 SR_CTAID.X 0",
        "0030 ffffffff 1 R1 HGMMA.64x8x16.F32 1 B3 0",
        "0040 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4",
        "0050 ffffffff 0 BAR.SYNC 0 0",
    ]);
    assert!(w.is_empty(), "{w:#?}");
}

#[test]
fn many_unknown_opcodes_are_named_up_to_the_limit() {
    let lines: Vec<String> = (0..MAX_WARNINGS_PER_KIND + 5)
        .map(|i| format!("{:04x} ffffffff 0 FOO{i} 0 0", i * 16))
        .collect();
    let body: Vec<&str> = lines.iter().map(String::as_str).collect();
    let w = warnings(&body);
    assert_eq!(w.len(), MAX_WARNINGS_PER_KIND + 1, "{w:#?}");
    let last = w.last().unwrap();
    assert!(last.starts_with("5 more unknown SASS opcodes in t/kernel-1.traceg, the first at line"));
}

/// The real traces (`WARPGEN_TRACES`, default `/work/shared/traces`, when
/// there) and the fuzzer's seed traces in the repository.
fn real_traces() -> Vec<PathBuf> {
    let root = std::env::var_os("WARPGEN_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/traces"));
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        if d.join("kernelslist.g").is_file() {
            out.extend(read_kernelslist(&d).unwrap());
        }
        dirs.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds");
    for e in std::fs::read_dir(seeds).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "traceg") {
            out.push(e.path());
        }
    }
    out
}

#[test]
fn real_traces_give_no_warning() {
    let files = real_traces();
    assert!(!files.is_empty());
    for f in files {
        let kt = read_kernel_trace(&f).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            kt.warnings.is_empty(),
            "{}: {:#?}",
            f.display(),
            kt.warnings
        );
    }
}
