//! The loader's view of a kernel file's text: offsets to lines, the
//! field an offset is in, errors, and scalar values.

use std::collections::BTreeMap;

use toml::Spanned;

use super::error::KernelError;
use super::params::resolve_const;
use crate::expr::parse_expr;

/// A kernel file being loaded.
pub(super) struct Loader<'a> {
    pub(super) text: &'a str,
    pub(super) file: &'a str,
    pub(super) line_starts: Vec<usize>,
}

pub(super) fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    v
}

impl<'a> Loader<'a> {
    pub(super) fn line_of(&self, offset: usize) -> u32 {
        (self.line_starts.partition_point(|&s| s <= offset)) as u32
    }

    pub(super) fn err(
        &self,
        offset: Option<usize>,
        field: &str,
        msg: impl Into<String>,
    ) -> KernelError {
        KernelError {
            file: self.file.to_string(),
            line: offset.map(|o| self.line_of(o)),
            field: field.to_string(),
            msg: msg.into(),
        }
    }

    /// The dotted key of the entry on the line holding `offset`: the
    /// `[table]` header above it plus the key before `=`.
    pub(super) fn field_at(&self, offset: usize) -> String {
        let ln = self.line_of(offset) as usize - 1;
        let line_text = |i: usize| {
            let s = self.line_starts[i];
            let e = self
                .line_starts
                .get(i + 1)
                .copied()
                .unwrap_or(self.text.len());
            self.text[s..e].trim()
        };
        let this = line_text(ln);
        let key = this
            .split_once('=')
            .map(|(k, _)| k.trim().trim_matches('"').to_string())
            .filter(|k| !k.is_empty() && !k.contains(' '))
            .or_else(|| {
                let t = this.trim_start_matches('[').trim_end_matches(']');
                this.starts_with('[').then(|| t.to_string())
            });
        let table = (0..=ln)
            .rev()
            .map(line_text)
            .find(|l| l.starts_with('[') && !l.starts_with("[["))
            .map(|l| {
                l.trim_start_matches('[')
                    .trim_end_matches(']')
                    .trim()
                    .to_string()
            });
        match (table, key) {
            (Some(t), Some(k)) if !this.starts_with('[') => format!("{t}.{k}"),
            (_, Some(k)) => k,
            (Some(t), None) => t,
            (None, None) => "(document)".into(),
        }
    }

    /// An integer, or a string holding a scalar expression over `params`.
    pub(super) fn scalar(
        &self,
        v: &Spanned<toml::Value>,
        field: &str,
        params: &BTreeMap<String, i64>,
    ) -> Result<i64, KernelError> {
        let at = Some(v.span().start);
        match v.get_ref() {
            toml::Value::Integer(i) => Ok(*i),
            toml::Value::String(s) => {
                let ast =
                    parse_expr(s).map_err(|e| self.err(at, field, format!("`{s}`: {}", e.msg)))?;
                let r = resolve_const(&ast, params)
                    .map_err(|e| self.err(at, field, format!("`{s}`: {e}")))?;
                Ok(r)
            }
            other => Err(self.err(
                at,
                field,
                format!(
                    "expected an integer or an expression string, found {}",
                    other.type_str()
                ),
            )),
        }
    }
}
