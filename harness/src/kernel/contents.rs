//! Synthetic array contents (`contents = ...`) and the random graphs
//! (`[graphs.NAME]`) some of them are built from.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use toml::Spanned;

use super::error::KernelError;
use super::loader::Loader;
use super::params::shown_expr;
use super::types::{hash_str, splitmix64, Contents};

/// A `[graphs.NAME]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGraph {
    nodes: Spanned<toml::Value>,
    #[serde(default)]
    degree: Option<Spanned<toml::Value>>,
    #[serde(default)]
    seed: Option<u64>,
}

/// A random graph in CSR form.
pub(super) struct Graph {
    offsets: Vec<i64>,
    edges: Vec<i64>,
}

impl Loader<'_> {
    /// The random graphs, by name.
    pub(super) fn graphs(
        &self,
        raw: &BTreeMap<String, Spanned<RawGraph>>,
        params: &BTreeMap<String, i64>,
        contents_seed: u64,
    ) -> Result<HashMap<String, Arc<Graph>>, KernelError> {
        let mut graphs: HashMap<String, Arc<Graph>> = HashMap::new();
        for (gname, g) in raw {
            let field = format!("graphs.{gname}");
            let nodes = self.scalar(&g.get_ref().nodes, &format!("{field}.nodes"), params)?;
            if !(1..=1 << 24).contains(&nodes) {
                return Err(self.err(
                    Some(g.get_ref().nodes.span().start),
                    &format!("{field}.nodes"),
                    format!(
                        "{nodes} nodes; allowed 1..=2^24{}",
                        shown_expr(&g.get_ref().nodes, params)
                    ),
                ));
            }
            let (dmin, dmax) = match &g.get_ref().degree {
                None => (1, 8),
                Some(d) => {
                    let bad = || {
                        self.err(
                            Some(d.span().start),
                            &format!("{field}.degree"),
                            "expected [min, max] with 0 <= min <= max <= 4096",
                        )
                    };
                    let arr = d.get_ref().as_array().ok_or_else(bad)?;
                    if arr.len() != 2 {
                        return Err(bad());
                    }
                    let a = arr[0].as_integer().ok_or_else(bad)?;
                    let b = arr[1].as_integer().ok_or_else(bad)?;
                    if a < 0 || a > b || b > 4096 {
                        return Err(bad());
                    }
                    (a, b)
                }
            };
            // The edge list is built in memory (and copied per array).
            if nodes * dmax > 1 << 25 {
                return Err(self.err(
                    Some(g.span().start),
                    &field,
                    format!(
                        "{nodes} nodes of out-degree up to {dmax}: up to {} edges; at most 2^25",
                        nodes * dmax
                    ),
                ));
            }
            let gseed = contents_seed ^ splitmix64(g.get_ref().seed.unwrap_or(hash_str(gname)));
            let mut rng = ChaCha8Rng::seed_from_u64(gseed);
            let mut offsets = Vec::with_capacity(nodes as usize + 1);
            let mut edges = Vec::new();
            offsets.push(0);
            for _ in 0..nodes {
                let deg = rng.gen_range(dmin..=dmax);
                for _ in 0..deg {
                    edges.push(rng.gen_range(0..nodes));
                }
                offsets.push(edges.len() as i64);
            }
            graphs.insert(gname.clone(), Arc::new(Graph { offsets, edges }));
        }
        Ok(graphs)
    }

    pub(super) fn contents(
        &self,
        c: &Spanned<toml::Value>,
        field: &str,
        seed: u64,
        graphs: &HashMap<String, Arc<Graph>>,
    ) -> Result<Contents, KernelError> {
        let at = Some(c.span().start);
        let err = |m: String| self.err(at, field, m);
        let (kind, table) = match c.get_ref() {
            toml::Value::String(s) => (s.clone(), toml::Table::new()),
            toml::Value::Table(t) => {
                let k = t
                    .get("kind")
                    .and_then(|k| k.as_str())
                    .ok_or_else(|| err("a contents table needs `kind = \"...\"`".into()))?;
                (k.to_string(), t.clone())
            }
            other => {
                return Err(err(format!(
                    "expected a kind name or a table, found {}",
                    other.type_str()
                )))
            }
        };
        let allowed: &[&str] = match kind.as_str() {
            "zero" | "index" => &[],
            "linear" => &["scale", "offset"],
            "random" => &["min", "max"],
            "bool" => &["p"],
            "values" => &["values"],
            "graph-offsets" | "graph-edges" | "graph-starts" | "graph-degrees" | "graph-nodes" => {
                &["graph"]
            }
            _ => {
                return Err(err(format!(
                    "unknown contents kind `{kind}`; expected zero, index, linear, random, bool, values, \
                     graph-offsets, graph-edges, graph-starts, graph-degrees or graph-nodes"
                )))
            }
        };
        for k in table.keys() {
            if k != "kind" && !allowed.contains(&k.as_str()) {
                return Err(err(format!("unknown key `{k}` for contents kind `{kind}`")));
            }
        }
        let int = |k: &str, default: Option<i64>| -> Result<i64, KernelError> {
            match table.get(k) {
                Some(v) => v
                    .as_integer()
                    .ok_or_else(|| err(format!("`{k}` must be an integer"))),
                None => default.ok_or_else(|| err(format!("contents kind `{kind}` needs `{k}`"))),
            }
        };
        let graph = || -> Result<Arc<Graph>, KernelError> {
            let g = table
                .get("graph")
                .and_then(|g| g.as_str())
                .ok_or_else(|| err(format!("contents kind `{kind}` needs `graph = \"NAME\"`")))?;
            graphs
                .get(g)
                .cloned()
                .ok_or_else(|| err(format!("no graph `{g}` (declare it as [graphs.{g}])")))
        };
        Ok(match kind.as_str() {
            "zero" => Contents::Zero,
            "index" => Contents::Linear {
                scale: 1,
                offset: 0,
            },
            "linear" => Contents::Linear {
                scale: int("scale", Some(1))?,
                offset: int("offset", Some(0))?,
            },
            "random" => {
                let min = int("min", None)?;
                let max = int("max", None)?;
                if max < min {
                    return Err(err(format!("random: max {max} < min {min}")));
                }
                Contents::Random {
                    min,
                    span: (max.wrapping_sub(min) as u64).wrapping_add(1),
                    seed,
                }
            }
            "bool" => {
                let p = table
                    .get("p")
                    .and_then(|p| p.as_float().or_else(|| p.as_integer().map(|i| i as f64)))
                    .ok_or_else(|| err("bool needs `p` (a probability)".into()))?;
                if !(0.0..=1.0).contains(&p) {
                    return Err(err(format!("probability p = {p} outside [0, 1]")));
                }
                let threshold = if p >= 1.0 {
                    u64::MAX
                } else {
                    (p * (u64::MAX as f64)) as u64
                };
                Contents::Bool { threshold, seed }
            }
            "values" => {
                let vals = table
                    .get("values")
                    .and_then(|v| v.as_array())
                    .ok_or_else(|| err("values needs `values = [...]`".into()))?;
                let v: Option<Vec<i64>> = vals.iter().map(|x| x.as_integer()).collect();
                let v = v.ok_or_else(|| err("`values` must be integers".into()))?;
                if v.is_empty() {
                    return Err(err("`values` is empty".into()));
                }
                Contents::Values(Arc::new(v))
            }
            "graph-offsets" => Contents::Table(Arc::new(graph()?.offsets.clone())),
            "graph-edges" => Contents::Table(Arc::new(graph()?.edges.clone())),
            "graph-starts" => {
                let g = graph()?;
                Contents::Table(Arc::new(g.offsets[..g.offsets.len() - 1].to_vec()))
            }
            "graph-degrees" => {
                let g = graph()?;
                Contents::Table(Arc::new(
                    g.offsets.windows(2).map(|w| w[1] - w[0]).collect(),
                ))
            }
            "graph-nodes" => {
                let g = graph()?;
                Contents::Table(Arc::new(
                    g.offsets
                        .windows(2)
                        .flat_map(|w| [w[0], w[1] - w[0]])
                        .collect(),
                ))
            }
            _ => unreachable!(),
        })
    }
}
