//! The combinations the harness comparisons run (`warpgen all`'s kernel
//! table, `warpgen bench-harness`), built from what each unit declares
//! (`harness::HarnessUnit::LABEL`, `PAPER_SETTINGS`, `COMPARED_WITH`):
//! every unit in its role, in the order of the roles, and the pairs a unit
//! asks to be compared with.

use harness::{HarnessUnit, Role};

/// How the comparisons run one unit.
#[derive(Clone, Debug)]
pub struct UnitCombination {
    /// The unit's role.
    pub role: Role,
    /// Its machine-override prefix (`harness::HarnessUnit::KEY`), by which
    /// other units name it in `COMPARED_WITH`.
    pub key: &'static str,
    /// Its first choice (the bench variant's name).
    pub choice: &'static str,
    /// Its column label.
    pub label: &'static str,
    /// The machine settings: its role set to its first choice, then its
    /// paper's settings.
    pub settings: Vec<String>,
    /// The units (by key) it is also compared together with.
    pub compared_with: &'static [&'static str],
}

impl UnitCombination {
    /// The combination `U` declares.
    pub fn of<U: HarnessUnit>() -> Self {
        let choice = U::CHOICES[0].name;
        let mut settings = vec![format!("{}={choice}", U::ROLE.key())];
        settings.extend(U::PAPER_SETTINGS.iter().map(|s| s.to_string()));
        UnitCombination {
            role: U::ROLE,
            key: U::KEY,
            choice,
            label: U::LABEL,
            settings,
            compared_with: U::COMPARED_WITH,
        }
    }
}

/// A labelled set of machine settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combination {
    /// The label (a table column, a bench variant).
    pub label: String,
    /// The machine settings (`KEY=VALUE`).
    pub settings: Vec<String>,
}

/// The units in the order of their roles ([`Role::ALL`]), each role's in
/// table order.
fn by_role(units: &[UnitCombination]) -> Vec<&UnitCombination> {
    let rank = |r: Role| Role::ALL.iter().position(|x| *x == r).unwrap_or(usize::MAX);
    let mut v: Vec<&UnitCombination> = units.iter().collect();
    v.sort_by_key(|u| rank(u.role));
    v
}

/// Every pair a unit asks for (the asking unit first), as indices into
/// `order`.
fn pairs(order: &[&UnitCombination]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, u) in order.iter().enumerate() {
        for key in u.compared_with {
            if let Some(j) = order.iter().position(|o| o.key == *key) {
                v.push((i, j));
            }
        }
    }
    v
}

fn joined(
    order: &[&UnitCombination],
    (i, j): (usize, usize),
    name: fn(&UnitCombination) -> &str,
) -> Combination {
    let mut settings = order[i].settings.clone();
    settings.extend(order[j].settings.iter().cloned());
    Combination {
        label: format!("{}+{}", name(order[i]), name(order[j])),
        settings,
    }
}

/// `warpgen all`'s kernel comparison: `base` (no unit), then every unit by
/// its label, each pair (`CAPS+BA`) right after the later of its two units.
pub fn compare_combos(units: &[UnitCombination]) -> Vec<Combination> {
    let order = by_role(units);
    let pairs = pairs(&order);
    let mut v = vec![Combination {
        label: "base".into(),
        settings: Vec::new(),
    }];
    for (k, u) in order.iter().enumerate() {
        v.push(Combination {
            label: u.label.into(),
            settings: u.settings.clone(),
        });
        for &(i, j) in pairs.iter().filter(|(i, j)| (*i).max(*j) == k) {
            v.push(joined(&order, (i, j), |u| u.label));
        }
    }
    v
}

/// `warpgen bench-harness`'s unit variants: every unit by its first choice
/// (`caps`), then every pair (`caps+ba`).
pub fn bench_variants(units: &[UnitCombination]) -> Vec<Combination> {
    let order = by_role(units);
    let mut v: Vec<Combination> = order
        .iter()
        .map(|u| Combination {
            label: u.choice.into(),
            settings: u.settings.clone(),
        })
        .collect();
    for p in pairs(&order) {
        v.push(joined(&order, p, |u| u.choice));
    }
    v
}
