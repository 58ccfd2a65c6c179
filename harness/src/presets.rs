//! The papers' machines as presets (`--preset NAME`, `sm_harness.md`
//! revision 2: "the papers' configurations as presets ... each quoting its
//! paper's table"). Each is a checked-in file, `presets/NAME.toml`, built
//! into the program: the paper and its table, a note on what the table does
//! not say, the machine keys it sets (on top of the `fermi` preset's), and
//! the table's rows quoted field by field with the keys each one sets.
//!
//! `fermi` and `volta` are the first harness's presets, kept as they were
//! (one SM, the flat memory).

use serde::Deserialize;

use super::config::MachineConfig;

/// A row of a paper's configuration table and what it sets.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Quote {
    /// The table's field.
    pub field: String,
    /// The table's value, as printed in the paper.
    pub paper: String,
    /// The machine keys it sets, or why it is not modelled.
    pub sets: String,
}

/// A preset file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetFile {
    /// The preset's name (the file's).
    pub name: String,
    /// The paper.
    pub paper: String,
    /// Its configuration table.
    pub table: String,
    /// What the table does not say and what was chosen.
    pub note: String,
    /// Machine keys and values.
    pub machine: toml::Table,
    /// The table's rows.
    pub quote: Vec<Quote>,
}

/// The checked-in presets: (name, file text).
const FILES: &[(&str, &str)] = &[
    (
        "caps-gtx480",
        include_str!("../../presets/caps-gtx480.toml"),
    ),
    ("ba-thesis", include_str!("../../presets/ba-thesis.toml")),
    ("snake-v100", include_str!("../../presets/snake-v100.toml")),
    ("dac-gtx480", include_str!("../../presets/dac-gtx480.toml")),
    (
        "catt-titanv",
        include_str!("../../presets/catt-titanv.toml"),
    ),
];

/// Every preset name: `fermi`, `volta`, then the papers'.
pub fn names() -> Vec<&'static str> {
    let mut v = vec!["fermi", "volta"];
    v.extend(FILES.iter().map(|(n, _)| *n));
    v
}

/// The file of paper preset `name`, parsed.
pub fn file(name: &str) -> Option<Result<PresetFile, String>> {
    let (_, text) = FILES.iter().find(|(n, _)| *n == name)?;
    Some(toml::from_str::<PresetFile>(text).map_err(|e| {
        format!(
            "presets/{name}.toml: {}",
            ports::error::toml_error_line(text, &e)
        )
    }))
}

/// The 1-based line of `presets/NAME.toml` that sets machine key `key` in
/// its `[machine]` table (`None`: the preset does not set it, or `name` is
/// not a paper preset).
pub fn key_line(name: &str, key: &str) -> Option<u32> {
    let (_, text) = FILES.iter().find(|(n, _)| *n == name)?;
    let mut in_machine = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_machine = t == "[machine]";
            continue;
        }
        let k = t.split('=').next().unwrap_or("").trim().trim_matches('"');
        if in_machine && t.contains('=') && k == key {
            return Some(i as u32 + 1);
        }
    }
    None
}

impl MachineConfig {
    /// A preset by name: `fermi`, `volta`, or a paper's
    /// ([`names`]: `caps-gtx480`, `ba-thesis`,
    /// `snake-v100`, `dac-gtx480`, `catt-titanv`, each quoting its paper's
    /// configuration table in `presets/NAME.toml`).
    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "fermi" => Some(Self::fermi()),
            "volta" => Some(Self::volta()),
            // The files are checked in and tested: a failure is a bug.
            _ => machine(name).map(|r| r.unwrap_or_else(|e| panic!("{e}"))),
        }
    }
}

/// The machine of paper preset `name`: the `fermi` preset with the file's
/// keys set, named `name`.
pub fn machine(name: &str) -> Option<Result<MachineConfig, String>> {
    let f = match file(name)? {
        Ok(f) => f,
        Err(e) => return Some(Err(e)),
    };
    let mut c = MachineConfig::fermi();
    for (k, v) in &f.machine {
        let text = match v {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if let Err(e) = c.set(k, &text) {
            return Some(Err(format!("presets/{name}.toml: [machine] {e}")));
        }
    }
    c.preset = name.to_string();
    Some(
        c.validate()
            .map(|_| c)
            .map_err(|e| format!("presets/{name}.toml: {e}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_validates_and_quotes_its_table() {
        for name in names() {
            let c = MachineConfig::preset(name).unwrap_or_else(|| panic!("{name}"));
            c.validate().unwrap();
            assert_eq!(c.preset, name);
            if let Some(f) = file(name) {
                let f = f.unwrap();
                assert_eq!(f.name, name);
                assert!(f.table.starts_with("Table"), "{name}");
                assert!(f.quote.len() >= 5, "{name}: {} rows", f.quote.len());
                // Every key the file sets is named in some row's `sets`.
                for k in f.machine.keys() {
                    assert!(
                        f.quote.iter().any(|q| q.sets.contains(k.as_str())),
                        "{name}: `{k}` is set but no quoted row says why"
                    );
                }
            }
        }
    }

    #[test]
    fn key_lines_point_at_the_machine_table() {
        for name in names().into_iter().skip(2) {
            let f = file(name).unwrap().unwrap();
            let (_, text) = FILES.iter().find(|(n, _)| *n == name).unwrap();
            for k in f.machine.keys() {
                let l = key_line(name, k).unwrap_or_else(|| panic!("{name}: {k}"));
                let line = text.lines().nth(l as usize - 1).unwrap();
                assert!(
                    line.trim_start().starts_with(k.as_str()),
                    "{name}: {k}: {line}"
                );
            }
        }
        assert_eq!(key_line("caps-gtx480", "no_such_key"), None);
        assert_eq!(key_line("fermi", "n_sm"), None);
    }

    #[test]
    fn the_presets_hold_their_tables_figures() {
        let c = MachineConfig::preset("caps-gtx480").unwrap();
        assert_eq!((c.n_sm, c.max_warps, c.cta_slots), (15, 48, 8));
        assert_eq!((c.l1_bytes, c.l1_ways, c.mshr_entries), (16384, 4, 32));
        assert_eq!(
            (c.hier.l2_partitions, c.hier.l2_bytes, c.hier.l2_ways),
            (12, 65536, 8)
        );
        assert_eq!((c.hier.dram_channels, c.hier.dram_queue), (6, 16));
        let s = MachineConfig::preset("snake-v100").unwrap();
        assert_eq!(
            (s.n_sm, s.max_warps, s.l1_bytes, s.l1_ways),
            (80, 64, 131072, 256)
        );
        assert_eq!(
            (s.mshr_entries, s.mshr_merges, s.l1_hit_latency),
            (512, 8, 28)
        );
        let d = MachineConfig::preset("dac-gtx480").unwrap();
        assert_eq!((d.l1_bytes, d.hier.l2_partitions), (49152, 6));
        let b = MachineConfig::preset("ba-thesis").unwrap();
        assert_eq!((b.n_sm, b.l1_sets(), b.l1_ways), (14, 16, 8));
        assert_eq!(b.sched.name(), "gto");
        let t = MachineConfig::preset("catt-titanv").unwrap();
        let l2 = t.hier.l2_partitions as u64 * t.hier.l2_bytes as u64;
        assert_eq!((t.n_sm, l2), (80, 4608 * 1024));
        assert!(MachineConfig::preset("gtx9000").is_none());
    }
}
