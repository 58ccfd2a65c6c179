//! The machine configuration's choices through the unit registry: setting
//! a key ([`MachineConfig::set`]: a role's choice, a unit's switch or
//! parameter, or one of the machine's own keys), checking the whole
//! configuration ([`MachineConfig::validate`]: the machine's values, then
//! every role's choice and what it requires of the machine), and the
//! choices that follow from a unit ([`MachineConfig::decoupled_l1`],
//! [`MachineConfig::enable_unit`]).

use super::{
    canonical_choice, role_choices, role_units, switch, unit_by_key, unit_for_choice, UNITS,
};
use crate::baselines;
use crate::config::keys::{parse_bool, MACHINE_KEYS, RUN_KEYS};
use crate::config::{parse_u64, Decoupling, MachineConfig, MachineConfigError};
use crate::roles::Role;
use crate::text::or_list;

impl MachineConfig {
    /// Set one value by its key (module documentation of `config.rs`).
    /// Values are integers (decimal or `0x` hex), `true`/`false`, or the
    /// policy names.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), MachineConfigError> {
        let v = value.trim();
        if let Some((prefix, name)) = key.split_once('.') {
            if let Some(u) = unit_by_key(prefix) {
                let names = u.param_names();
                if !names.contains(&name) {
                    return Err(MachineConfigError::new(
                        key,
                        v,
                        format!(
                            "unknown {} parameter; known: {}",
                            u.name(),
                            names.join(", ")
                        ),
                    ));
                }
                let x = parse_u64(v)
                    .ok_or_else(|| MachineConfigError::new(key, v, "expected an integer"))?;
                self.overrides
                    .entry(prefix.to_string())
                    .or_default()
                    .insert(name.to_string(), x);
                return Ok(());
            }
        }
        if let Some(role) = Role::ALL.into_iter().find(|r| r.key() == key) {
            let c = canonical_choice(role, v).ok_or_else(|| choice_error(role, v))?;
            self.set_choice(role, c);
            return Ok(());
        }
        if let Some(s) = switch(key) {
            *(s.field)(self) = parse_bool(key, v)?;
            return Ok(());
        }
        if self.set_machine_key(key, v)? {
            return Ok(());
        }
        Err(MachineConfigError::new(key, v, unknown_key_reason()))
    }

    /// Reject a configuration the harness cannot model: the machine's
    /// values, the units' override keys, every role's choice with what it
    /// requires of the machine, the decoupled mode's L1.
    pub fn validate(&self) -> Result<(), MachineConfigError> {
        self.check_values()?;
        for key in self.overrides.keys() {
            if unit_by_key(key).is_none() {
                let keys: Vec<&str> = UNITS.iter().map(|u| u.key()).collect();
                return Err(MachineConfigError::new(
                    &format!("{key}.*"),
                    "",
                    format!(
                        "no unit has the override key {key}; keys: {}",
                        keys.join(", ")
                    ),
                ));
            }
        }
        for role in Role::ALL {
            let c = self.choice(role);
            if c == role.native().name || (role == Role::Prefetcher && baselines::find(c).is_some())
            {
                continue;
            }
            if let Some(b) = baselines::find_l1(c).filter(|_| role == Role::L1) {
                let l1_choices: Vec<&str> = role_choices(Role::L1).iter().map(|c| c.0).collect();
                (b.check_machine)(self, &l1_choices)?;
                continue;
            }
            match unit_for_choice(role, c) {
                Some((u, canonical)) if canonical == c => u.check_machine(self, c)?,
                _ => return Err(choice_error(role, c)),
            }
        }
        if self.decoupled_l1() && self.l1 != Role::L1.native().name {
            return Err(MachineConfigError::new(
                "l1",
                &self.l1,
                format!(
                    "the decoupled mode (decoupled = {}{}) is a mode of the native lru tag \
                     array; set l1 = lru, or decoupled = off",
                    self.decoupled.name(),
                    if self.decoupled == Decoupling::Auto {
                        format!(", on for prefetcher = {}", self.prefetcher)
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        Ok(())
    }

    /// Whether the L1 runs in decoupled mode: `decoupled = on`, or `auto`
    /// with a prefetcher whose declaration asks for it.
    pub fn decoupled_l1(&self) -> bool {
        match self.decoupled {
            Decoupling::On => true,
            Decoupling::Off => false,
            Decoupling::Auto => unit_for_choice(Role::Prefetcher, &self.prefetcher)
                .is_some_and(|(u, _)| u.decoupled_l1()),
        }
    }

    /// Make unit `unit` part of the run (`--cosim UNIT`): if its role is
    /// not already filled by one of its choices, select its first choice
    /// (the CAPS prefetcher: `prefetcher = caps`; `ba_tag_array` with
    /// `l1 = lru`: `l1 = ba`, with `l1 = ba-lru`: unchanged).
    pub fn enable_unit(&mut self, unit: &str) -> Result<(), MachineConfigError> {
        let u = super::unit(unit).ok_or_else(|| {
            MachineConfigError::new(
                "unit",
                unit,
                format!("unknown unit; units: {}", ports::UNIT_NAMES.join(", ")),
            )
        })?;
        let role = u.role();
        let current = self.choice(role);
        if u.choices().iter().any(|c| c.name == current) {
            return Ok(());
        }
        self.set_choice(role, u.choices()[0].name);
        Ok(())
    }
}

/// The error for a name that is no choice of `role`, listing the choices.
fn choice_error(role: Role, v: &str) -> MachineConfigError {
    let names: Vec<&str> = role_choices(role).iter().map(|c| c.0).collect();
    MachineConfigError::new(role.key(), v, format!("expected {}", or_list(&names)))
}

/// The reason given for an unknown key: every key, the units' switches
/// after the machine's own and their override prefixes last (by role,
/// then table order).
fn unknown_key_reason() -> String {
    let mut s = String::from("unknown key; known: ");
    let switches = UNITS.iter().flat_map(|u| u.switches()).map(|w| w.key);
    for k in MACHINE_KEYS
        .iter()
        .copied()
        .chain(switches)
        .chain(RUN_KEYS.iter().copied())
    {
        s += k;
        s += ", ";
    }
    for role in Role::ALL {
        for u in role_units(role) {
            s += &format!("{}.NAME, ", u.key());
        }
    }
    s.truncate(s.len() - 2);
    s += " (and param.NAME for kernel parameters)";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate() {
        MachineConfig::fermi().validate().unwrap();
        MachineConfig::volta().validate().unwrap();
        assert_eq!(MachineConfig::fermi().l1_sets(), 32);
    }

    #[test]
    fn set_names_key_and_value() {
        let mut c = MachineConfig::fermi();
        c.set("l1_ways", "8").unwrap();
        c.set("sched", "pas").unwrap();
        c.set("caps.MISPRED_THRESHOLD", "64").unwrap();
        assert_eq!(c.l1_ways, 8);
        assert_eq!(c.overrides["caps"]["MISPRED_THRESHOLD"], 64);
        let e = c.set("l1_wayz", "8").unwrap_err();
        assert_eq!(e.key, "l1_wayz");
        let e = c.set("sched", "fifo").unwrap_err().to_string();
        assert!(e.contains("sched") && e.contains("fifo"), "{e}");
        c.set("l1_ways", "3").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("l1_bytes"));
        c.set("l1_ways", "6").unwrap();
        c.set("l1_bytes", "49152").unwrap();
        c.validate().unwrap();
        c.set("l1", "ba").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("l1_ways"));
    }

    #[test]
    fn role_choices_and_units() {
        let mut c = MachineConfig::fermi();
        let e = c.set("prefetcher", "fancy").unwrap_err().to_string();
        assert!(
            e.contains("expected none, caps, snake, intra, inter, mta, nlp or lap"),
            "{e}"
        );
        let e = c.set("l1", "fancy").unwrap_err().to_string();
        assert!(e.contains("expected lru, "), "{e}");
        c.set("l1", "ba_lru").unwrap();
        assert_eq!(c.l1, "ba-lru");
        c.enable_unit("ba_tag_array").unwrap();
        assert_eq!(c.l1, "ba-lru");
        c.set("l1", "lru").unwrap();
        c.enable_unit("ba_tag_array").unwrap();
        assert_eq!(c.l1, "ba");
        assert!(c.enable_unit("nothing").is_err());
        c.l1 = "fancy".into();
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("expected lru"));
        let e = MachineConfig::fermi().set("zzz", "1").unwrap_err().reason;
        assert!(
            e.ends_with(".NAME (and param.NAME for kernel parameters)"),
            "{e}"
        );
    }
}
