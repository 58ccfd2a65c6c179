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

/// Merge the golden outputs (one row per cycle, in `ports` order) into the
/// RTL VCD text, under a top-level scope named `golden`. Each row `n` is
/// placed at time `n * CYCLE_TIME`, when the outputs were sampled.
pub fn merge_golden(rtl_vcd: &str, ports: &[PortDesc], rows: &[Vec<u64>]) -> String {
    // Split header / body.
    let split = rtl_vcd
        .find("$enddefinitions")
        .map(|i| i + rtl_vcd[i..].find("$end").map(|j| j + 4).unwrap_or(0))
        .unwrap_or(0);
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
        .map(|i| {
            let mut k = 0;
            loop {
                let id = format!("g{i}_{k}");
                if !used.contains(&id) {
                    return id;
                }
                k += 1;
            }
        })
        .collect();
    let mut out = String::with_capacity(rtl_vcd.len() + rows.len() * ports.len() * 16);
    let head_end = header.rfind("$enddefinitions").unwrap_or(header.len());
    out.push_str(&header[..head_end]);
    out.push_str("$scope module golden $end\n");
    for (p, id) in ports.iter().zip(&ids) {
        let _ = writeln!(out, "$var wire {} {} {} $end", p.width, id, p.name);
    }
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
    for (n, row) in rows.iter().enumerate() {
        let t = n as u64 * CYCLE_TIME;
        let entry = times.entry(t).or_default();
        for (i, v) in row.iter().enumerate() {
            if last[i] != Some(*v) {
                entry.push(change(ports[i].width, *v, &ids[i]));
                last[i] = Some(*v);
            }
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
        let v = merge_golden(rtl, &ports, &rows);
        assert!(v.contains("$scope module golden $end"), "{v}");
        assert!(v.contains("$var wire 3 g1_0 rsp_way $end"), "{v}");
        let after10 = &v[v.find("#10\n").unwrap()..];
        assert!(after10.contains("1g0_0"), "{v}");
        assert!(after10.contains("b101 g1_0"), "{v}");
        // Times stay ordered and unique.
        let times: Vec<u64> = v
            .lines()
            .filter_map(|l| l.strip_prefix('#').and_then(|t| t.parse().ok()))
            .collect();
        assert_eq!(times, vec![0, 5, 10, 15]);
    }
}
