//! The runs of a reproduction: its options, a paper's benchmarks and
//! mechanisms, the quick set's input sizes, and the run ids.

use std::path::PathBuf;

use crate::reproduce::paper::Paper;
use crate::sweep::RunSpec;

/// Options of a reproduction.
#[derive(Clone, Debug)]
pub struct Options {
    /// Papers (all when empty).
    pub papers: Vec<Paper>,
    /// Folder of the bundled kernels.
    pub kernels: PathBuf,
    /// The kernel files' own sizes instead of the quick set's (the
    /// heaviest inputs shrunk by a count each).
    pub full: bool,
}

/// A benchmark of a paper: its label and the bundled kernels that make it
/// (their figures are summed: IPC is instructions over cycles of all).
#[derive(Clone, Debug)]
pub(crate) struct Bench {
    /// The paper's label (`LPS`).
    pub(crate) label: &'static str,
    /// The bundled kernels.
    pub(crate) kernels: &'static [&'static str],
    /// Whether the paper lists it (others are extra context, kept out of
    /// the claims' averages).
    pub(crate) in_paper: bool,
}

/// A benchmark the paper lists.
pub(crate) const fn b(label: &'static str, kernels: &'static [&'static str]) -> Bench {
    Bench {
        label,
        kernels,
        in_paper: true,
    }
}

/// A benchmark shown beside the paper's (not in its averages).
pub(crate) const fn extra(label: &'static str, kernels: &'static [&'static str]) -> Bench {
    Bench {
        label,
        kernels,
        in_paper: false,
    }
}

/// A mechanism: label and settings.
pub(crate) type Mech = (&'static str, &'static [&'static str]);

/// Kernel settings of the default (quick) reproduction: the heaviest
/// inputs scaled down so the whole set fits in 15 minutes on 2 cores;
/// `--full` runs the kernel files' own sizes. Each keeps the access
/// pattern (strides, coalescing, loop structure) and shrinks a count.
pub(crate) const QUICK: &[(&str, &[&str])] = &[
    ("similarity_score", &["param.DOCS=256"]),
    (
        "kmeans_point",
        &["param.NPOINTS=123505", "param.BLOCKS_PER_DIM=22"],
    ),
    (
        "kmeans_invert",
        &["param.NPOINTS=123505", "param.BLOCKS_PER_DIM=22"],
    ),
    ("mvt1", &["param.N=2048"]),
    ("mvt2", &["param.N=2048"]),
    ("bicg1", &["param.NX=2048", "param.NY=2048"]),
    ("bicg2", &["param.NX=2048", "param.NY=2048"]),
    ("spmv", &["param.DIM=36672"]),
];

/// A run's id: paper, experiment, kernel, mechanism (made file-safe).
pub(crate) fn id(paper: Paper, exp: &str, kernel: &str, mech: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    };
    format!("{}-{}--{}--{}", paper.name(), exp, kernel, clean(mech))
}

/// A bundled kernel's file.
pub(crate) fn kernel_path(o: &Options, k: &str) -> PathBuf {
    o.kernels.join(format!("{k}.toml"))
}

/// The quick set's settings of kernel `k` (none with `--full`).
pub(crate) fn kernel_sets(o: &Options, k: &str) -> Vec<String> {
    if o.full {
        return Vec::new();
    }
    QUICK
        .iter()
        .filter(|(n, _)| *n == k)
        .flat_map(|(_, s)| s.iter().map(|x| x.to_string()))
        .collect()
}

/// Every kernel of `bench` under every mechanism of `mechs` on `preset`.
pub(crate) fn grid(
    o: &Options,
    paper: Paper,
    exp: &str,
    preset: &str,
    bench: &[Bench],
    mechs: &[Mech],
) -> Vec<RunSpec> {
    let mut v = Vec::new();
    for bn in bench {
        for k in bn.kernels {
            for (m, sets) in mechs {
                let mut set = kernel_sets(o, k);
                set.extend(sets.iter().map(|s| s.to_string()));
                v.push(RunSpec {
                    id: id(paper, exp, k, m),
                    kernel: kernel_path(o, k),
                    preset: preset.into(),
                    set,
                    catt: false,
                });
            }
        }
    }
    v
}

/// The run ids of a benchmark's kernels under mechanism `mech`.
pub(crate) fn ids(paper: Paper, exp: &str, bn: &Bench, mech: &str) -> Vec<String> {
    bn.kernels.iter().map(|k| id(paper, exp, k, mech)).collect()
}
