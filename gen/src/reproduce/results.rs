//! The results of a reproduction's runs, looked up by id and summed over
//! a benchmark's kernels.

use std::collections::HashMap;

use crate::sweep::RunResult;

/// The results by id.
pub struct Res<'a> {
    by: HashMap<&'a str, &'a RunResult>,
}

impl<'a> Res<'a> {
    /// The results `all`, by id.
    pub fn new(all: &'a [RunResult]) -> Self {
        Res {
            by: all.iter().map(|r| (r.spec.id.as_str(), r)).collect(),
        }
    }

    /// The result of run `id` if it ran.
    pub fn ok(&self, id: &str) -> Option<&'a RunResult> {
        self.by.get(id).copied().filter(|r| r.metrics.is_some())
    }

    /// `Σ num / Σ den` over the runs `ids` (None if any is missing or the
    /// denominator is 0).
    pub fn ratio(&self, ids: &[String], num: &[&str], den: &[&str]) -> Option<f64> {
        let mut n = 0.0;
        let mut d = 0.0;
        for i in ids {
            let r = self.ok(i)?;
            for p in num {
                n += r.num(p)?;
            }
            for p in den {
                d += r.num(p)?;
            }
        }
        (d > 0.0).then_some(n / d)
    }

    /// The L1 miss rate over the runs `ids`, bypasses counted as misses
    /// (`1 - hits / accesses`: a bypass and a pseudo-hit go to memory).
    pub fn miss_rate(&self, ids: &[String]) -> Option<f64> {
        self.ratio(ids, &["l1.hits"], &["l1.accesses"])
            .map(|h| 1.0 - h)
    }

    /// The L1 miss rate over the runs `ids` as GPGPU-Sim's statistics (and
    /// the BA thesis's Figure 19) count it: requests that skipped the L1
    /// (bypasses) left out, `1 - hits / (accesses - bypasses)`.
    pub fn miss_rate_no_bypass(&self, ids: &[String]) -> Option<f64> {
        let hits = sum_of(self, ids, "l1.hits")?;
        let n = sum_of(self, ids, "l1.accesses")? - sum_of(self, ids, "l1.bypasses")?;
        (n > 0.0).then(|| 1.0 - hits / n)
    }
}

/// `Σ path` over the runs `ids` (None if any is missing).
pub(crate) fn sum_of(res: &Res, ids: &[String], path: &str) -> Option<f64> {
    ids.iter()
        .map(|x| res.ok(x).and_then(|r| r.num(path)))
        .sum()
}

/// `a / b` unless `b` is 0.
pub(crate) trait CheckedDiv {
    /// `self / b` unless `b` is 0.
    fn checked_div_f(self, b: f64) -> Option<f64>;
}

impl CheckedDiv for f64 {
    fn checked_div_f(self, b: f64) -> Option<f64> {
        (b > 0.0).then_some(self / b)
    }
}

/// Why run `id` has no metrics: its error, or that it has no result.
pub(crate) fn run_reason(res: &Res, id: &str) -> String {
    match res.by.get(id) {
        Some(r) => r.error.clone().unwrap_or_default(),
        None => "no result".into(),
    }
}
