//! How a unit plugs into the harness: its declaration ([`HarnessUnit`]),
//! the generic wrapper of its golden model with the probes beside it
//! ([`Attached`]), and the table of units built from `ports::for_each_unit!`
//! ([`UNITS`]) that the machine configuration, the run options and the
//! command line look units up in.
//!
//! A unit's declaration lives in its own folder
//! (`harness/src/adapters/<unit>.rs`), next to its golden model: the role it
//! fills, the names that select it, how its parameters follow the machine
//! and the kernel, and its role adapter. Nothing in the harness names a
//! unit; everything here is generic over the unit type.
//!
//! The machine configuration's choices are checked through the table
//! (`registry/choices.rs`: [`MachineConfig::set`] and
//! [`MachineConfig::validate`]), so that `config.rs` knows no unit.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use ports::{Params, UnitSpec};

use crate::config::{MachineConfig, MachineConfigError};
use crate::error::{probe_error, HarnessError};
use crate::kernel::Kernel;
use crate::metrics::PrefetchMetrics;
use crate::roles::{Choice, Role, RoleObject};
use crate::stimulus::StimulusWriter;
use crate::text::or_list;
use golden::check::Probe;
use golden::{GoldenModel, GoldenUnit};

mod choices;

/// What the harness needs to know to run a unit in a role slot.
///
/// Implemented in the unit's own folder for its `ports::UnitSpec` type;
/// every unit of `ports::for_each_unit!` must implement it (the table
/// [`UNITS`] does not compile otherwise).
pub trait HarnessUnit: GoldenUnit {
    /// The slot the unit fills.
    const ROLE: Role;
    /// The names that select the unit for its role (`prefetcher = caps`),
    /// each with a one-line help, in the order the command line lists them.
    /// The first is the one [`MachineConfig::enable_unit`] picks. Two units
    /// never share a name in one role.
    const CHOICES: &'static [Choice];
    /// Prefix of the unit's machine overrides: `KEY.NAME=value` sets its
    /// parameter `NAME` (spec names).
    const KEY: &'static str;
    /// A prefetcher whose paper stores its prefetches in the L1's decoupled
    /// mode (`decoupled = auto` turns the mode on when the unit is
    /// selected). False by default.
    const DECOUPLED_L1: bool = false;
    /// The unit's own boolean machine keys: switches of what the harness
    /// shows the unit (CAPS: `caps_hint`). None by default.
    const SWITCHES: &'static [Switch] = &[];
    /// Figures of the unit's paper over a run's prefetch metrics, reported
    /// for every prefetcher run so that any prefetcher is measured by the
    /// paper's definitions too (CAPS: its coverage, section VI-C). None by
    /// default.
    const PREFETCH_FIGURES: &'static [PrefetchFigure] = &[];
    /// The unit's parameters for a run, before the `KEY.NAME` overrides:
    /// how they follow the machine and the kernel for `ctx.choice`.
    fn params(ctx: &UnitContext<'_>) -> Self::Params;
    /// Checks of a run beyond `Params::validate` (e.g. that the unit can
    /// track every resident CTA). The message is shown after the unit's
    /// name.
    fn check_run(_ctx: &UnitContext<'_>, _p: &Self::Params) -> Result<(), String> {
        Ok(())
    }
    /// Checks of the machine configuration that need no kernel, run by
    /// [`MachineConfig::validate`] when `choice` (one of [`Self::CHOICES`])
    /// is selected: what the unit requires of the machine.
    fn check_machine(_cfg: &MachineConfig, _choice: &str) -> Result<(), MachineConfigError> {
        Ok(())
    }
    /// The attached unit as the role object the SM talks to (a
    /// [`RoleObject`] of [`Self::ROLE`]), or why the harness cannot run it
    /// in its role yet.
    fn into_role(unit: Attached<Self>, ctx: &UnitContext<'_>) -> Result<RoleObject, HarnessError>;

    // How the command line's harness comparisons (`warpgen all`'s table,
    // `warpgen bench-harness`) run the unit: its first choice in its role,
    // with these settings beside it.

    /// The unit's column in the comparison tables (`CAPS`).
    const LABEL: &'static str;
    /// Machine settings its paper runs it with, added after its choice
    /// (`sched=pas` for CAPS). None by default.
    const PAPER_SETTINGS: &'static [&'static str] = &[];
    /// Other units, by [`Self::KEY`], that the comparisons also run
    /// together with this one (CAPS with the BA L1: `ba`, the `CAPS+BA`
    /// column). None by default.
    const COMPARED_WITH: &'static [&'static str] = &[];
}

/// A boolean machine key a unit declares ([`HarnessUnit::SWITCHES`]), set
/// like the machine's own keys (`caps_hint=false`) and kept in the
/// machine configuration.
#[derive(Clone, Copy, Debug)]
pub struct Switch {
    /// The key.
    pub key: &'static str,
    /// What it switches, one line.
    pub help: &'static str,
    /// Where the machine configuration keeps its value.
    pub field: fn(&mut MachineConfig) -> &mut bool,
}

/// A figure of a unit's paper over a run's prefetch metrics
/// ([`HarnessUnit::PREFETCH_FIGURES`]): a row of the run's table under the
/// prefetches.
#[derive(Clone, Copy, Debug)]
pub struct PrefetchFigure {
    /// The row's label.
    pub label: &'static str,
    /// Sets the figure in the prefetch metrics from their counts and the
    /// run's L1 accesses (demand line requests).
    pub compute: fn(&mut PrefetchMetrics, u64),
    /// The figure, a fraction (shown as a percentage).
    pub value: fn(&PrefetchMetrics) -> f64,
}

/// What a unit's parameters and role adapter may depend on in a run.
#[derive(Clone, Copy, Debug)]
pub struct UnitContext<'a> {
    /// The machine.
    pub machine: &'a MachineConfig,
    /// The kernel.
    pub kernel: &'a Kernel,
    /// The unit's choice selected for its role (one of its `CHOICES`).
    pub choice: &'static str,
    /// Warps per CTA of the kernel.
    pub warps_per_cta: u32,
    /// CTAs resident at once on the SM.
    pub ctas_per_sm: u32,
}

/// A unit's golden model in a run, with this cycle's inputs, its outputs
/// during this cycle and the probes that run beside it (the RTL lock-step
/// checker, the stimulus recorder).
///
/// The role adapter fills [`Attached::input`] during the cycle and reads
/// [`Attached::out`]; [`Attached::step`] is the clock edge.
pub struct Attached<U: HarnessUnit> {
    /// The parameters the model was built for.
    pub params: U::Params,
    /// The golden model.
    pub model: U::Model,
    /// This cycle's inputs, filled during the cycle; back to their default
    /// after each edge.
    pub input: U::In,
    /// The model's outputs during this cycle (sampled after the previous
    /// edge, so before this cycle's edge).
    pub out: U::Out,
    probes: Vec<Box<dyn Probe>>,
    in_masks: Vec<u64>,
    ins_buf: Vec<u64>,
    outs_buf: Vec<u64>,
    cycle: u64,
}

impl<U: HarnessUnit> Attached<U> {
    /// The model in its reset state for `params`, with `probes` beside it.
    pub fn new(params: U::Params, probes: Vec<Box<dyn Probe>>) -> Self {
        let model = U::Model::new(&params);
        let out = model.outputs();
        let in_masks = U::inputs(&params)
            .iter()
            .map(|p| ports::mask(p.width))
            .collect();
        Attached {
            params,
            model,
            input: U::In::default(),
            out,
            probes,
            in_masks,
            ins_buf: Vec::new(),
            outs_buf: Vec::new(),
            cycle: 0,
        }
    }

    /// Whether any probe runs beside the model.
    pub fn has_probes(&self) -> bool {
        !self.probes.is_empty()
    }

    /// Cycles stepped so far (the current cycle's number, from 0).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The clock edge: every probe sees this cycle's inputs (masked to
    /// their port widths) and the outputs sampled before the edge, then the
    /// model steps; the outputs of the next cycle are sampled and the
    /// inputs return to their default. A probe's error stops the run.
    pub fn step(&mut self) -> Result<(), HarnessError> {
        if !self.probes.is_empty() {
            // Two buffers reused every cycle.
            self.ins_buf.clear();
            U::write_in_values(&self.params, &self.input, &mut self.ins_buf);
            for (v, m) in self.ins_buf.iter_mut().zip(&self.in_masks) {
                *v &= m;
            }
            self.outs_buf.clear();
            U::write_out_values(&self.params, &self.out, &mut self.outs_buf);
            for p in self.probes.iter_mut() {
                p.cycle(&self.ins_buf, &self.outs_buf)
                    .map_err(|e| probe_error(U::NAME, self.cycle, e))?;
            }
        }
        self.model.step(&self.input);
        self.out = self.model.outputs();
        self.input = U::In::default();
        self.cycle += 1;
        Ok(())
    }

    /// The run ended normally: finish every probe.
    pub fn finish(&mut self) -> Result<(), HarnessError> {
        for p in self.probes.iter_mut() {
            p.finish()
                .map_err(|e| probe_error(U::NAME, self.cycle, e))?;
        }
        Ok(())
    }
}

/// `p` with the machine's `U::KEY.NAME` overrides applied (through the
/// parameters' serde form, so every parameter, optional ones included, is
/// overridable by its spec name). Not validated.
pub fn with_overrides<U: HarnessUnit>(
    cfg: &MachineConfig,
    p: U::Params,
) -> Result<U::Params, String> {
    let Some(ov) = cfg.overrides.get(U::KEY).filter(|o| !o.is_empty()) else {
        return Ok(p);
    };
    let mut v = serde_json::to_value(&p).map_err(|e| e.to_string())?;
    let obj = v
        .as_object_mut()
        .ok_or_else(|| "the parameters are not a table".to_string())?;
    for (k, &x) in ov {
        obj.insert(k.clone(), x.into());
    }
    serde_json::from_value(v).map_err(|e| e.to_string())
}

/// The parameters `U`'s golden model gets in a run of `kernel` on `cfg`:
/// derived from the machine and the kernel, with the `KEY.NAME` overrides,
/// validated. The `cosim` crate builds the RTL of a lock-step checker from
/// these. An error if the configuration is unusable or `U` is not part of
/// the run.
pub fn unit_params<U: HarnessUnit>(
    cfg: &MachineConfig,
    kernel: &Kernel,
) -> Result<U::Params, HarnessError> {
    cfg.validate()?;
    let ctas_per_sm = crate::occupancy::occupancy(kernel, cfg)?;
    let choice = match U::CHOICES.iter().find(|c| c.name == cfg.choice(U::ROLE)) {
        Some(c) => c.name,
        None => return Err(not_in_run(&Entry::<U>::NEW)),
    };
    let ctx = UnitContext {
        machine: cfg,
        kernel,
        choice,
        warps_per_cta: kernel.warps_per_cta(),
        ctas_per_sm,
    };
    params_for::<U>(&ctx)
}

fn params_for<U: HarnessUnit>(ctx: &UnitContext<'_>) -> Result<U::Params, HarnessError> {
    let unsupported = |e: String| HarnessError::Unsupported(format!("{}: {e}", U::NAME));
    let p = with_overrides::<U>(ctx.machine, U::params(ctx)).map_err(unsupported)?;
    p.validate().map_err(|e| unsupported(e.to_string()))?;
    U::check_run(ctx, &p).map_err(unsupported)?;
    Ok(p)
}

/// The error for a probe or recording of a unit that is not in the run,
/// naming the option that would add it.
pub(crate) fn not_in_run(u: &dyn UnitEntry) -> HarnessError {
    let names: Vec<&str> = u.choices().iter().map(|c| c.name).collect();
    HarnessError::Unsupported(format!(
        "{} lock-step or recording needs --{} {}",
        u.name(),
        u.role().key(),
        or_list(&names)
    ))
}

/// One unit of the table, with the generic operations instantiated for its
/// type.
pub trait UnitEntry: Sync {
    /// The unit's name (`ports::UnitSpec::NAME`).
    fn name(&self) -> &'static str;
    /// The slot it fills.
    fn role(&self) -> Role;
    /// The names that select it for its role.
    fn choices(&self) -> &'static [Choice];
    /// Prefix of its machine overrides.
    fn key(&self) -> &'static str;
    /// [`HarnessUnit::DECOUPLED_L1`].
    fn decoupled_l1(&self) -> bool;
    /// [`HarnessUnit::SWITCHES`].
    fn switches(&self) -> &'static [Switch];
    /// [`HarnessUnit::PREFETCH_FIGURES`].
    fn prefetch_figures(&self) -> &'static [PrefetchFigure];
    /// Its parameter names (spec names, table order): the `KEY.NAME`s
    /// accepted.
    fn param_names(&self) -> Vec<&'static str>;
    /// [`HarnessUnit::check_machine`].
    fn check_machine(&self, cfg: &MachineConfig, choice: &str) -> Result<(), MachineConfigError>;
    /// Build the unit for a run (`ctx.choice` selects it): its parameters,
    /// its golden model with `probes` and a stimulus recorder per path of
    /// `records` beside it, as its role object.
    fn build(
        &self,
        ctx: &UnitContext<'_>,
        probes: Vec<Box<dyn Probe>>,
        records: &[PathBuf],
    ) -> Result<RoleObject, HarnessError>;
}

/// The [`UnitEntry`] of unit type `U`.
pub struct Entry<U>(PhantomData<fn() -> U>);

impl<U> Entry<U> {
    /// The entry (a constant; it holds nothing).
    pub const NEW: Self = Entry(PhantomData);
}

impl<U: HarnessUnit> UnitEntry for Entry<U> {
    fn name(&self) -> &'static str {
        U::NAME
    }
    fn role(&self) -> Role {
        U::ROLE
    }
    fn choices(&self) -> &'static [Choice] {
        U::CHOICES
    }
    fn key(&self) -> &'static str {
        U::KEY
    }
    fn decoupled_l1(&self) -> bool {
        U::DECOUPLED_L1
    }
    fn switches(&self) -> &'static [Switch] {
        U::SWITCHES
    }
    fn prefetch_figures(&self) -> &'static [PrefetchFigure] {
        U::PREFETCH_FIGURES
    }
    fn param_names(&self) -> Vec<&'static str> {
        U::Params::default().list().iter().map(|x| x.0).collect()
    }
    fn check_machine(&self, cfg: &MachineConfig, choice: &str) -> Result<(), MachineConfigError> {
        U::check_machine(cfg, choice)
    }
    fn build(
        &self,
        ctx: &UnitContext<'_>,
        mut probes: Vec<Box<dyn Probe>>,
        records: &[PathBuf],
    ) -> Result<RoleObject, HarnessError> {
        let p = params_for::<U>(ctx)?;
        for path in records {
            probes.push(Box::new(create_writer::<U>(path, &p)?));
        }
        let obj = U::into_role(Attached::new(p, probes), ctx)?;
        if obj.role() != U::ROLE {
            return Err(HarnessError::Internal(format!(
                "{} declares the {} role but became a {} role object",
                U::NAME,
                U::ROLE.key(),
                obj.role().key()
            )));
        }
        Ok(obj)
    }
}

fn create_writer<U: UnitSpec>(path: &Path, p: &U::Params) -> Result<StimulusWriter, HarnessError> {
    StimulusWriter::create::<U>(path, p)
        .map_err(|e| HarnessError::Io(format!("{}: {e}", path.display())))
}

macro_rules! table {
    ($($u:path),* $(,)?) => {
        &[$(&Entry::<$u>::NEW as &dyn UnitEntry),*]
    };
}

/// Every unit, in `ports::for_each_unit!` order.
pub static UNITS: &[&dyn UnitEntry] = ports::for_each_unit!(table);

/// The unit named `name` (`ports::UnitSpec::NAME`, e.g. `ba_tag_array`).
pub fn unit(name: &str) -> Option<&'static dyn UnitEntry> {
    UNITS.iter().copied().find(|u| u.name() == name)
}

/// The unit whose override prefix is `key` (`HarnessUnit::KEY`, e.g. `ba`).
pub fn unit_by_key(key: &str) -> Option<&'static dyn UnitEntry> {
    UNITS.iter().copied().find(|u| u.key() == key)
}

/// The unit that `choice` selects for `role`, and the choice's canonical
/// name (`_` and `-` are interchangeable: `ba_lru` is `ba-lru`). `None` for
/// the native choice and for unknown names.
pub fn unit_for_choice(role: Role, choice: &str) -> Option<(&'static dyn UnitEntry, &'static str)> {
    UNITS
        .iter()
        .copied()
        .filter(|u| u.role() == role)
        .find_map(|u| {
            u.choices()
                .iter()
                .find(|c| same_name(c.name, choice))
                .map(|c| (u, c.name))
        })
}

/// The switch whose key is `key`, of any unit.
pub fn switch(key: &str) -> Option<&'static Switch> {
    UNITS
        .iter()
        .flat_map(|u| u.switches())
        .find(|s| s.key == key)
}

/// Every unit's paper figures over the prefetch metrics, in table order.
pub fn prefetch_figures() -> impl Iterator<Item = &'static PrefetchFigure> {
    UNITS.iter().flat_map(|u| u.prefetch_figures())
}

/// The units that can fill `role`, in table order.
pub fn role_units(role: Role) -> impl Iterator<Item = &'static dyn UnitEntry> {
    UNITS.iter().copied().filter(move |u| u.role() == role)
}

/// Every choice of `role` with its help line: the native one first, then
/// each unit's, in table order, then the model-only baselines (the command
/// line's possible values).
pub fn role_choices(role: Role) -> Vec<(&'static str, &'static str)> {
    let native = role.native();
    let baselines = baseline_choices(role).map(|c| (c.name, c.help));
    std::iter::once((native.name, native.help))
        .chain(role_units(role).flat_map(|u| u.choices().iter().map(|c| (c.name, c.help))))
        .chain(baselines)
        .collect()
}

/// The canonical name of `choice` for `role` (native or a unit's), if it
/// is one.
pub(crate) fn canonical_choice(role: Role, choice: &str) -> Option<&'static str> {
    let native = role.native().name;
    if same_name(native, choice) {
        return Some(native);
    }
    if let Some(b) = baseline_choices(role).find(|c| same_name(c.name, choice)) {
        return Some(b.name);
    }
    unit_for_choice(role, choice).map(|(_, c)| c)
}

/// The model-only baselines' choices of `role` (`harness::baselines`): the
/// prefetchers', the L1's; none for the expander.
fn baseline_choices(role: Role) -> impl Iterator<Item = &'static Choice> {
    use crate::baselines::{BASELINES, L1_BASELINES};
    let prefetchers = BASELINES.iter().filter(move |_| role == Role::Prefetcher);
    let l1 = L1_BASELINES.iter().filter(move |_| role == Role::L1);
    prefetchers.map(|b| &b.choice).chain(l1.map(|b| &b.choice))
}

fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .all(|(x, y)| x == y || (matches!(x, b'-' | b'_') && matches!(y, b'-' | b'_')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lists() {
        assert!(same_name("ba-lru", "ba_lru"));
        assert!(!same_name("ba-lru", "ba"));
        for role in Role::ALL {
            let c = role_choices(role);
            assert_eq!(c[0].0, role.native().name);
            // Choices are unique within a role.
            for (i, a) in c.iter().enumerate() {
                assert!(c[i + 1..].iter().all(|b| b.0 != a.0), "{role:?} {a:?}");
            }
        }
        for u in UNITS {
            assert_eq!(unit(u.name()).unwrap().name(), u.name());
            assert_eq!(unit_by_key(u.key()).unwrap().name(), u.name());
            assert!(!u.choices().is_empty() && !u.param_names().is_empty());
        }
    }
}
