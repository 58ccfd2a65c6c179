//! The kernel-file loader (TOML, parameters, arrays and graphs, body
//! statements, expressions) under a seeded mutation fuzzer: the bundled
//! kernels with bytes flipped, tokens swapped or replaced, deep nesting
//! inserted, numbers made huge, lines deleted, duplicated or spliced from
//! another kernel, and parameters overridden with extreme values. Every
//! input must load or be refused with an error naming the file (and, when
//! it gives one, a line of the file); none may panic, overflow the stack
//! (the workers have 2 MiB stacks, as test threads do) or hang.
//!
//! `WARPGEN_FUZZ_CASES` sets the number of inputs (default 100,000),
//! `WARPGEN_FUZZ_SEED` the seed; a panicking input is written to
//! `target/fuzz-failures/`.

use harness::Kernel;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "-5",
    "7",
    "4096",
    "4097",
    "65536",
    "16777216",
    "2147483648",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "99999999999999999999",
    "0x7fffffffffffffff",
    "0xffffffffffffffff",
    "0x",
    "1e308",
    "nan",
    "inf",
    "-0",
    "1_000",
    "\"N * 0x7fffffffffffffff\"",
    "\"-(-9223372036854775807 - 1)\"",
    "\"1 / 0\"",
];

const TOKENS: &[&str] = &[
    "let",
    "loop",
    "unroll",
    "if",
    "else",
    "load",
    "store",
    "compute",
    "use",
    "uses",
    "barrier",
    "step",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "/ 0",
    "% 0",
    "/",
    "%",
    "-",
    "!",
    "..",
    "->",
    "@",
    "=",
    "+=",
    "*=",
    ",",
    ";",
    "\n",
    "tid.x",
    "ctaid.y",
    "ntid.z",
    "warpSize",
    "min(",
    "max(",
    "&&",
    "||",
    "<=",
    "\"\"\"",
    "\"",
    "'",
    "[params]",
    "[arrays.X]",
    "[graphs.g]",
    "#",
    "//",
    "sfu",
    "dp",
    "tensor",
    "smem",
    "elem",
    "len",
    "contents",
    "kind",
    "graph-edges",
    "values",
    "nodes",
    "degree",
];

const STATEMENTS: &[&str] = &[
    "loop q -5 {",
    "loop q tid.x {",
    "loop q = 0 .. 9223372036854775807 step 4611686018427387904 {",
    // (4096 copies of a kernel's body take a quarter of a second: the
    // limits are tested by the table above.)
    "unroll u 64 {",
    "unroll u 4097 {",
    "unroll u = 9223372036854775807 .. -9223372036854775808 step -1 {",
    "unroll u = -9223372036854775807 .. 9223372036854775807 step 9223372036854775807 {",
    "}",
    "} else {",
    "} else if 1 {",
    "let z = 1 / 0",
    "let z = tid.x / (tid.x - tid.x)",
    "compute 99999999999",
    "compute -1 sfu",
    "use nothing",
    "load nothing[0] @0",
    "load X[0] @4294967296",
    "barrier",
    "if 1 {",
];

/// The bundled kernels, bfs's graph made small (its 65,536 nodes take
/// most of the time otherwise).
fn seeds() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .replace("NODES = 65536", "NODES = 1024")
        })
        .collect()
}

/// Split into tokens: runs of word characters, of spaces, and single
/// other characters.
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' || c == '.' {
            0
        } else if c == ' ' || c == '\t' {
            1
        } else {
            2
        }
    };
    let mut prev = None;
    for (i, c) in s.char_indices() {
        let k = class(c);
        if prev.is_some() && (prev != Some(k) || k == 2) {
            out.push(&s[start..i]);
            start = i;
        }
        prev = Some(k);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

fn pick<'a>(rng: &mut StdRng, v: &[&'a str]) -> &'a str {
    v[rng.gen_range(0..v.len())]
}

/// A char boundary of `s` at or before byte `i`.
fn boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn nesting(rng: &mut StdRng) -> String {
    // Mostly around the limits (128 levels of an expression, 64 of
    // blocks); now and then the 20,000 and 100,000 levels of the
    // inputs that used to overflow the stack.
    let k = match rng.gen_range(0..50) {
        0 => 100_000,
        1..=3 => 20_000,
        4..=15 => rng.gen_range(120..140),
        16..=25 => rng.gen_range(60..70),
        _ => rng.gen_range(1..40),
    };
    let rep = |a: &str, n: usize| a.repeat(n);
    match rng.gen_range(0..9) {
        0 => format!("{}1{}", rep("(", k), rep(")", k)),
        1 => format!("{}1", rep("-", k)),
        2 => format!("{}1", rep("!", k)),
        3 => vec!["1"; k + 1].join(" + "),
        4 => format!("{}1{}", rep("min(1, ", k), rep(")", k)),
        5 => format!("{}compute 1\n{}", rep("if 1 {\n", k), rep("}\n", k)),
        6 => format!("{}0{}", rep("A[", k), rep("]", k)),
        7 => format!("{}1{}", rep("[", k), rep("]", k)),
        _ => format!("{}1{}", rep("{a=", k), rep("}", k)),
    }
}

fn mutate(text: &str, seeds: &[String], rng: &mut StdRng) -> String {
    let mut s = text.to_string();
    for _ in 0..rng.gen_range(1..=4) {
        if s.is_empty() {
            s.push_str(&seeds[0]);
        }
        match rng.gen_range(0..10) {
            // A byte flipped (a bit, or a printable character).
            0 => {
                let mut b = s.clone().into_bytes();
                let i = rng.gen_range(0..b.len());
                if rng.gen_bool(0.5) {
                    b[i] ^= 1 << rng.gen_range(0..8);
                } else {
                    b[i] = rng.gen_range(0x20..0x7f);
                }
                s = String::from_utf8_lossy(&b).into_owned();
            }
            // Two tokens swapped.
            1 => {
                let t = tokens(&s);
                let (i, j) = (rng.gen_range(0..t.len()), rng.gen_range(0..t.len()));
                let mut t: Vec<String> = t.into_iter().map(str::to_string).collect();
                t.swap(i, j);
                s = t.concat();
            }
            // A token replaced.
            2 => {
                let mut t: Vec<String> = tokens(&s).into_iter().map(str::to_string).collect();
                let i = rng.gen_range(0..t.len());
                let from = if rng.gen_bool(0.5) { TOKENS } else { NUMBERS };
                t[i] = pick(rng, from).to_string();
                s = t.concat();
            }
            // Deep nesting inserted.
            3 => {
                let i = boundary(&s, rng.gen_range(0..=s.len()));
                s.insert_str(i, &nesting(rng));
            }
            // A number made huge (or odd).
            4 => {
                let mut t: Vec<String> = tokens(&s).into_iter().map(str::to_string).collect();
                let nums: Vec<usize> = (0..t.len())
                    .filter(|&i| t[i].starts_with(|c: char| c.is_ascii_digit()))
                    .collect();
                if let Some(&i) = nums.get(rng.gen_range(0..nums.len().max(1))) {
                    t[i] = pick(rng, NUMBERS).to_string();
                }
                s = t.concat();
            }
            // Lines deleted.
            5 => {
                let mut l: Vec<&str> = s.lines().collect();
                if !l.is_empty() {
                    let i = rng.gen_range(0..l.len());
                    let n = rng.gen_range(1..=3).min(l.len() - i);
                    l.drain(i..i + n);
                }
                s = l.join("\n");
            }
            // A line duplicated, or two swapped.
            6 => {
                let mut l: Vec<String> = s.lines().map(str::to_string).collect();
                if !l.is_empty() {
                    let (i, j) = (rng.gen_range(0..l.len()), rng.gen_range(0..l.len()));
                    if rng.gen_bool(0.5) {
                        let d = l[i].clone();
                        l.insert(j, d);
                    } else {
                        l.swap(i, j);
                    }
                }
                s = l.join("\n");
            }
            // A line of another kernel spliced in.
            7 => {
                let other = &seeds[rng.gen_range(0..seeds.len())];
                let ol: Vec<&str> = other.lines().collect();
                let mut l: Vec<&str> = s.lines().collect();
                let i = rng.gen_range(0..=l.len());
                l.insert(i, ol[rng.gen_range(0..ol.len())]);
                s = l.join("\n");
            }
            // A statement inserted after the body's first line.
            _ => {
                let at = s.find("body = \"\"\"\n").map_or(0, |i| i + 11);
                let mut l: Vec<&str> = s[at..].lines().collect();
                let i = rng.gen_range(0..=l.len().min(12));
                l.insert(i, pick(rng, STATEMENTS));
                s = format!("{}{}", &s[..at], l.join("\n"));
            }
        }
    }
    s
}

/// Parameter overrides with extreme values, now and then.
fn overrides(text: &str, rng: &mut StdRng) -> Vec<(String, i64)> {
    if !rng.gen_bool(0.1) {
        return Vec::new();
    }
    let Some(at) = text.find("[params]") else {
        return Vec::new();
    };
    let names: Vec<&str> = text[at + 8..]
        .lines()
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim()))
        .filter(|k| !k.is_empty() && !k.starts_with('#'))
        .collect();
    if names.is_empty() {
        return Vec::new();
    }
    let v = [i64::MAX, i64::MIN, 0, -1, 1 << 40, 3][rng.gen_range(0..6)];
    vec![(names[rng.gen_range(0..names.len())].to_string(), v)]
}

struct Tally {
    loaded: u64,
    refused: u64,
    slowest: (Duration, u64),
    failures: Vec<String>,
}

fn worker(seeds: &[String], base: u64, cases: u64, w: u64, workers: u64) -> Tally {
    let mut t = Tally {
        loaded: 0,
        refused: 0,
        slowest: (Duration::ZERO, 0),
        failures: Vec::new(),
    };
    let mut case = w;
    while case < cases {
        let mut rng = StdRng::seed_from_u64(base ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let seed = &seeds[rng.gen_range(0..seeds.len())];
        let text = mutate(seed, seeds, &mut rng);
        let ov = overrides(&text, &mut rng);
        let start = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| {
            Kernel::from_str(&text, "fuzz.toml", &ov, case)
        }));
        let took = start.elapsed();
        if took > t.slowest.0 {
            t.slowest = (took, case);
        }
        match r {
            Ok(Ok(_)) => t.loaded += 1,
            Ok(Err(e)) => {
                t.refused += 1;
                let shown = e.to_string();
                let lines = text.lines().count() as u32 + 1;
                let ok = e.file == "fuzz.toml"
                    && shown.starts_with("fuzz.toml")
                    && !e.msg.is_empty()
                    && e.line.is_none_or(|l| (1..=lines).contains(&l))
                    && (!e.field.is_empty() || e.msg.starts_with("TOML syntax error"));
                if !ok {
                    t.failures
                        .push(format!("case {case}: malformed error: {shown}"));
                }
            }
            Err(_) => t.failures.push(format!("case {case}: panicked")),
        }
        if !t.failures.is_empty() {
            // Kept for reproduction; this worker stops at its first.
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-failures");
            let _ = std::fs::create_dir_all(&dir);
            let _ = std::fs::write(dir.join(format!("case-{case}.toml")), &text);
            break;
        }
        case += workers;
    }
    t
}

#[test]
fn kernel_loader_survives_mutated_kernels() {
    let cases: u64 = std::env::var("WARPGEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(100_000);
    let base: u64 = std::env::var("WARPGEN_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_1303);
    let seeds = seeds();
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8) as u64;
    let start = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let seeds = &seeds;
                std::thread::Builder::new()
                    .stack_size(2 << 20)
                    .spawn_scoped(sc, move || worker(seeds, base, cases, w, workers))
                    .unwrap()
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let loaded: u64 = tallies.iter().map(|t| t.loaded).sum();
    let refused: u64 = tallies.iter().map(|t| t.refused).sum();
    let slowest = tallies.iter().map(|t| t.slowest).max().unwrap_or_default();
    let failures: Vec<&String> = tallies.iter().flat_map(|t| &t.failures).collect();
    eprintln!(
        "kernel fuzz: {} inputs (seed {base:#x}) in {:.1} s on {workers} threads: {loaded} \
         loaded, {refused} refused, {} failed; slowest case {} took {:.1} ms",
        loaded + refused + failures.len() as u64,
        start.elapsed().as_secs_f64(),
        failures.len(),
        slowest.1,
        slowest.0.as_secs_f64() * 1e3
    );
    assert!(
        failures.is_empty(),
        "{failures:?} (inputs in target/fuzz-failures/)"
    );
    assert_eq!(loaded + refused, cases);
    // Both outcomes are exercised: the mutations keep many inputs valid.
    assert!(
        loaded > cases / 20 && refused > cases / 20,
        "{loaded} / {refused}"
    );
}
