//! Where the values of a run's machine come from, for error messages: a
//! `--set KEY=VALUE`, a flag (`--l1 ba`), a line of a preset file
//! (`presets/NAME.toml:LINE: field `machine.KEY``), or a preset's default.

use anyhow::anyhow;
use harness::{presets, HarnessError, MachineConfigError};

use crate::run_args::RunArgs;

/// Where machine key `key` of the run `args` describes was set. `key` may
/// carry a qualifier after a space (`l1_ways (with the BA tag array)`) or
/// be a unit's override (`caps.N_CTA`).
pub fn machine_source(args: &RunArgs, key: &str) -> String {
    let key = key.split(' ').next().unwrap_or(key);
    let set = args.set.iter().rev().find(|kv| {
        kv.split_once('=')
            .is_some_and(|(k, _)| k.trim() == key || k.trim().split('.').next() == Some(key))
    });
    if let Some(kv) = set {
        return format!("--set {kv}");
    }
    let flag = match key {
        "prefetcher" if args.prefetcher != "none" => {
            Some(format!("--prefetcher {}", args.prefetcher))
        }
        "l1" => args.l1.as_ref().map(|l| format!("--l1 {l}")),
        "expander" if args.dac => Some("--dac".to_string()),
        "expander" if args.expander != "none" => Some(format!("--expander {}", args.expander)),
        "decoupled" => args
            .decoupled
            .map(|d| format!("--decoupled {d:?}").to_lowercase()),
        "sched" => args.sched.map(|s| format!("--sched {s:?}").to_lowercase()),
        "sms" => args.sms.map(|s| format!("--sms {s:?}").to_lowercase()),
        "cosim_sm" => args.cosim_sm.map(|n| format!("--cosim-sm {n}")),
        "seed" => args.seed.map(|n| format!("--seed {n}")),
        _ => None,
    };
    if let Some(f) = flag {
        return f;
    }
    match presets::key_line(&args.preset, key) {
        Some(line) => format!("presets/{}.toml:{line}: field `machine.{key}`", args.preset),
        None => format!("preset `{}`", args.preset),
    }
}

/// A configuration error of the run `args` describes, led by where its key
/// was set.
pub fn config_error(args: &RunArgs, e: MachineConfigError) -> anyhow::Error {
    anyhow!(
        "{}: {e}{}",
        machine_source(args, &e.key),
        related_sets(args, &e)
    )
}

/// The `--set` options of other machine keys that the error's reason
/// names (`l1_bytes` must be a multiple of `l1_line * l1_ways`, with
/// `--set l1_ways=3`).
fn related_sets(args: &RunArgs, e: &MachineConfigError) -> String {
    let own = e.key.split(' ').next().unwrap_or("");
    let words: Vec<&str> = e
        .reason
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .collect();
    let named: Vec<&str> = args
        .set
        .iter()
        .filter(|kv| {
            kv.split_once('=')
                .is_some_and(|(k, _)| k.trim() != own && words.contains(&k.trim()))
        })
        .map(String::as_str)
        .collect();
    if named.is_empty() {
        String::new()
    } else {
        format!(" (with --set {})", named.join(", --set "))
    }
}

/// A run's error, with where the machine values it names were set: a
/// configuration error's key, the `max_cycles` of a run stopped by it, the
/// `shared_mem_bytes` or `max_warps` a kernel does not fit.
pub fn run_error(args: &RunArgs, e: HarnessError) -> anyhow::Error {
    match &e {
        HarnessError::Config(c) => anyhow!(
            "{}: {e}{}",
            machine_source(args, &c.key),
            related_sets(args, c)
        ),
        HarnessError::CycleLimit { .. } => anyhow!(
            "{e}; `max_cycles` comes from {}",
            machine_source(args, "max_cycles")
        ),
        HarnessError::Kernel(k) if k.field == "smem_bytes" => anyhow!(
            "{e}; `shared_mem_bytes` comes from {}",
            machine_source(args, "shared_mem_bytes")
        ),
        HarnessError::Kernel(k) if k.field == "block" && k.msg.contains("max_warps") => anyhow!(
            "{e}; `max_warps` comes from {}",
            machine_source(args, "max_warps")
        ),
        _ => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_the_set_option_the_flag_the_preset_line_or_the_preset() {
        let mut a = RunArgs::new("k.toml");
        a.preset = "caps-gtx480".into();
        a.set = vec!["l1_ways=8".into(), "caps.N_CTA=4".into()];
        a.l1 = Some("ba".into());
        assert_eq!(machine_source(&a, "l1_ways"), "--set l1_ways=8");
        assert_eq!(
            machine_source(&a, "l1_ways (with the BA tag array)"),
            "--set l1_ways=8"
        );
        assert_eq!(machine_source(&a, "caps"), "--set caps.N_CTA=4");
        assert_eq!(machine_source(&a, "l1"), "--l1 ba");
        let l = machine_source(&a, "shared_mem_bytes");
        assert!(
            l.starts_with("presets/caps-gtx480.toml:")
                && l.ends_with(": field `machine.shared_mem_bytes`"),
            "{l}"
        );
        assert_eq!(machine_source(&a, "max_cycles"), "preset `caps-gtx480`");
        // A derived check names the --set options its reason mentions.
        let mut a = RunArgs::new("k.toml");
        a.set = vec!["l1_ways=3".into(), "param.N=4".into()];
        let mut cfg = harness::MachineConfig::fermi();
        cfg.set("l1_ways", "3").unwrap();
        let e = config_error(&a, cfg.validate().unwrap_err()).to_string();
        assert!(
            e.starts_with("preset `fermi`: configuration `l1_bytes`")
                && e.ends_with("(with --set l1_ways=3)"),
            "{e}"
        );
    }
}
