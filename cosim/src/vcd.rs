//! Waveforms: the golden model's outputs as a VCD scope, merged into the
//! RTL's VCD with identical timestamps (`cosim.md`, "On a difference").

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use ports::PortDesc;

use crate::backend::CYCLE_TIME;

/// Value of `v` as a VCD value change for a `width`-bit signal `id`.
fn change(width: u32, v: u64, id: &str) -> String {
    if width == 1 {
        format!("{}{}", v & 1, id)
    } else {
        format!("b{:b} {}", v, id)
    }
}

/// Name of the scope the lock-step checker adds beside `golden`, holding
/// the `mismatch` marker (1 on each compared cycle where an output differs).
pub const CHECK_SCOPE: &str = "lockstep";

/// Name of the marker signal in [`CHECK_SCOPE`].
pub const MISMATCH: &str = "mismatch";

/// A VCD id code not in `used` (and reserved in it), from `stem`.
fn fresh_id(used: &mut BTreeSet<String>, stem: &str) -> String {
    let mut k = 0;
    loop {
        let id = format!("{stem}_{k}");
        if used.insert(id.clone()) {
            return id;
        }
        k += 1;
    }
}

/// `$var` line of a `width`-bit wire: a vector carries its range, so every
/// viewer names it `name[msb:lsb]` as it names the RTL's vectors.
fn var_line(width: u32, id: &str, name: &str) -> String {
    if width > 1 {
        format!("$var wire {width} {id} {name} [{}:0] $end\n", width - 1)
    } else {
        format!("$var wire 1 {id} {name} $end\n")
    }
}

/// Byte offset just past the `$end` that closes `$enddefinitions`, if any.
pub fn header_end(vcd: &str) -> Option<usize> {
    let i = vcd.find("$enddefinitions")?;
    let after = i + "$enddefinitions".len();
    vcd[after..].find("$end").map(|j| after + j + "$end".len())
}

/// Merge the golden outputs (one row per cycle, in `ports` order) into the
/// RTL VCD text, under a top-level scope named `golden`, and the
/// `mismatch` marker (one flag per row) under [`CHECK_SCOPE`]. Each row `n`
/// is placed at time `n * CYCLE_TIME`, when the outputs were sampled.
pub fn merge_golden(
    rtl_vcd: &str,
    ports: &[PortDesc],
    rows: &[Vec<u64>],
    mismatch: &[bool],
) -> String {
    // Split header / body just after `$enddefinitions ... $end`.
    let split = header_end(rtl_vcd).unwrap_or(0);
    let (header, body) = rtl_vcd.split_at(split);
    // Id codes in use, to choose fresh ones.
    let mut used = BTreeSet::new();
    for line in header.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() == Some(&"$var") && t.len() >= 4 {
            used.insert(t[3].to_string());
        }
    }
    let ids: Vec<String> = (0..ports.len())
        .map(|i| fresh_id(&mut used, &format!("g{i}")))
        .collect();
    let mismatch_id = fresh_id(&mut used, "mm");
    let mut out = String::with_capacity(rtl_vcd.len() + rows.len() * ports.len() * 16);
    let head_end = header.rfind("$enddefinitions").unwrap_or(header.len());
    out.push_str(&header[..head_end]);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("$scope module golden $end\n");
    for (p, id) in ports.iter().zip(&ids) {
        out.push_str(&var_line(p.width, id, &p.name));
    }
    out.push_str("$upscope $end\n");
    let _ = writeln!(out, "$scope module {CHECK_SCOPE} $end");
    out.push_str(&var_line(1, &mismatch_id, MISMATCH));
    out.push_str("$upscope $end\n");
    out.push_str(&header[head_end..]);
    // Body: times in order, golden changes added at each cycle's time.
    let mut times: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut preamble = String::new();
    let mut cur: Option<u64> = None;
    for line in body.lines() {
        if let Some(t) = line.strip_prefix('#') {
            if let Ok(t) = t.trim().parse::<u64>() {
                cur = Some(t);
                times.entry(t).or_default();
                continue;
            }
        }
        match cur {
            None => {
                preamble.push_str(line);
                preamble.push('\n');
            }
            Some(t) => times.entry(t).or_default().push(line.to_string()),
        }
    }
    let mut last: Vec<Option<u64>> = vec![None; ports.len()];
    let mut last_mismatch = None;
    let n = rows.len().max(mismatch.len());
    for c in 0..n {
        let t = c as u64 * CYCLE_TIME;
        let entry = times.entry(t).or_default();
        if let Some(row) = rows.get(c) {
            for (i, v) in row.iter().enumerate() {
                if last[i] != Some(*v) {
                    entry.push(change(ports[i].width, *v, &ids[i]));
                    last[i] = Some(*v);
                }
            }
        }
        let m = mismatch.get(c).copied().unwrap_or(false);
        if last_mismatch != Some(m) {
            entry.push(change(1, m as u64, &mismatch_id));
            last_mismatch = Some(m);
        }
    }
    out.push_str(&preamble);
    for (t, lines) in times {
        let _ = writeln!(out, "#{t}");
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_scope_is_added_with_fresh_ids_and_same_times() {
        let rtl = "$timescale 1ps $end\n$scope module top $end\n$var wire 1 ! clock $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n#5\n1!\n#10\n0!\n#15\n1!\n";
        let ports = vec![PortDesc::new("rsp_valid", 1), PortDesc::new("rsp_way", 3)];
        let rows = vec![vec![0, 0], vec![1, 5]];
        let v = merge_golden(rtl, &ports, &rows, &[false, true]);
        assert!(v.contains("$scope module golden $end"), "{v}");
        assert!(v.contains("$var wire 3 g1_0 rsp_way [2:0] $end"), "{v}");
        // The definitions end intact, after both added scopes.
        let defs = v
            .find("$enddefinitions $end\n")
            .expect("intact $enddefinitions");
        assert!(v.find("$scope module lockstep $end").unwrap() < defs, "{v}");
        assert!(v[..defs].contains("$var wire 1 mm_0 mismatch $end"), "{v}");
        assert!(v[..defs].lines().all(|l| !l.starts_with("$end$")), "{v}");
        let after10 = &v[v.find("#10\n").unwrap()..];
        assert!(after10.contains("1g0_0"), "{v}");
        assert!(after10.contains("b101 g1_0"), "{v}");
        assert!(after10.contains("1mm_0"), "{v}");
        assert!(v[v.find("#0\n").unwrap()..].contains("0mm_0"), "{v}");
        // Times stay ordered and unique.
        let times: Vec<u64> = v
            .lines()
            .filter_map(|l| l.strip_prefix('#').and_then(|t| t.parse().ok()))
            .collect();
        assert_eq!(times, vec![0, 5, 10, 15]);
    }
}
