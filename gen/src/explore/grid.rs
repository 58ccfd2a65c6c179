//! The grid of `warpgen explore`: the swept parameters, every combination
//! of their values (a point), and each point's configuration.

use anyhow::anyhow;
use ports::ConfigFile;

/// One swept parameter: `NAME=v1,v2,...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The parameter's name, as in the unit's table.
    pub name: String,
    /// Its values, in the order given.
    pub values: Vec<u64>,
}

impl std::str::FromStr for Sweep {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, vals) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: give NAME=v1,v2,... (e.g. TAIL_ENTRIES=4,8,16,32)"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{s}`: the parameter's name is missing before `=`"));
        }
        let values = vals
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|e| format!("`{s}`: `{}` is not a whole number ({e})", v.trim()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if values.is_empty() {
            return Err(format!("`{s}`: no values after `=`"));
        }
        Ok(Sweep {
            name: name.to_string(),
            values,
        })
    }
}

/// One point of the grid: each swept parameter's value.
pub type Point = Vec<(String, u64)>;

/// Every combination of the sweeps' values, the first sweep slowest.
pub fn grid(sweeps: &[Sweep]) -> Vec<Point> {
    let mut points: Vec<Point> = vec![Vec::new()];
    for s in sweeps {
        points = points
            .into_iter()
            .flat_map(|p| {
                s.values.iter().map(move |&v| {
                    let mut q = p.clone();
                    q.push((s.name.clone(), v));
                    q
                })
            })
            .collect();
    }
    points
}

/// `NAME=v NAME2=v2`.
pub fn label(p: &Point) -> String {
    p.iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The configuration of one point: `base` with the unit's table extended
/// by the point's values (checked as a file would be: an unknown parameter
/// or an impossible value names the parameter).
pub fn point_config(base: &ConfigFile, unit: &str, p: &Point) -> anyhow::Result<ConfigFile> {
    let pairs: Vec<(&str, u64)> = p.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    base.with_params(unit, &pairs)
        .map_err(|e| anyhow!("{} ({}): {e}", unit, label(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_parse_and_say_what_is_wrong() {
        let s: Sweep = "TAIL_ENTRIES=4,8, 16".parse().unwrap();
        assert_eq!(s.name, "TAIL_ENTRIES");
        assert_eq!(s.values, vec![4, 8, 16]);
        assert!("TAIL_ENTRIES"
            .parse::<Sweep>()
            .unwrap_err()
            .contains("NAME=v1,v2"));
        assert!("=4"
            .parse::<Sweep>()
            .unwrap_err()
            .contains("name is missing"));
        assert!("X=4,a"
            .parse::<Sweep>()
            .unwrap_err()
            .contains("`a` is not a whole number"));
    }

    #[test]
    fn the_grid_is_every_combination_first_sweep_slowest() {
        let g = grid(&["A=1,2".parse().unwrap(), "B=5,6,7".parse().unwrap()]);
        assert_eq!(g.len(), 6);
        assert_eq!(label(&g[0]), "A=1 B=5");
        assert_eq!(label(&g[2]), "A=1 B=7");
        assert_eq!(label(&g[3]), "A=2 B=5");
    }
}
