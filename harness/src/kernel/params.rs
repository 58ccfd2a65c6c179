//! Parameter expressions of a kernel file: resolving a scalar expression
//! over the parameters, and what an error shows of it.

use std::collections::BTreeMap;

use toml::Spanned;

use crate::expr::{parse_expr, Ast};

/// For a value out of range: `: `EXPR` with N = 4096, M = 2` when the
/// value is an expression string over parameters, `: `EXPR`` for one
/// without, nothing for an integer.
pub(super) fn shown_expr(v: &Spanned<toml::Value>, params: &BTreeMap<String, i64>) -> String {
    fn names(a: &Ast, out: &mut Vec<String>) {
        match a {
            Ast::Int(_) => {}
            Ast::Name(n, _) => {
                if !out.contains(n) {
                    out.push(n.clone())
                }
            }
            Ast::Index(_, x, _) | Ast::Un(_, x) => names(x, out),
            Ast::Bin(_, x, y) => {
                names(x, out);
                names(y, out);
            }
        }
    }
    let toml::Value::String(s) = v.get_ref() else {
        return String::new();
    };
    let mut used = Vec::new();
    if let Ok(ast) = parse_expr(s) {
        names(&ast, &mut used);
    }
    let vals: Vec<String> = used
        .iter()
        .filter_map(|n| params.get(n).map(|v| format!("{n} = {v}")))
        .collect();
    if vals.is_empty() {
        format!(": `{s}`")
    } else {
        format!(": `{s}` with {}", vals.join(", "))
    }
}

/// The first name a parameter's expression uses that `params` does not
/// have yet (`None` for an integer, a syntax error, or every name known).
pub(super) fn missing_param(
    v: &Spanned<toml::Value>,
    params: &BTreeMap<String, i64>,
) -> Option<String> {
    fn names<'a>(a: &'a Ast, out: &mut Vec<&'a str>) {
        match a {
            Ast::Int(_) => {}
            Ast::Name(n, _) => out.push(n),
            Ast::Index(_, x, _) | Ast::Un(_, x) => names(x, out),
            Ast::Bin(_, x, y) => {
                names(x, out);
                names(y, out);
            }
        }
    }
    let toml::Value::String(s) = v.get_ref() else {
        return None;
    };
    let ast = parse_expr(s).ok()?;
    let mut used = Vec::new();
    names(&ast, &mut used);
    used.into_iter()
        .find(|n| !params.contains_key(*n))
        .map(str::to_string)
}

/// Evaluate an expression that may only use literals and parameters, in
/// checked 64-bit arithmetic: an overflow or a zero divisor is an error
/// naming the operation and the parameters' values.
pub(super) fn resolve_const(ast: &Ast, params: &BTreeMap<String, i64>) -> Result<i64, String> {
    use crate::expr::{BinOp, UnOp};
    enum Fail {
        /// Not a constant expression (an unknown name, an array).
        Other(String),
        /// Overflow or a zero divisor: the operation.
        Arith(String),
    }
    fn sym(op: BinOp) -> &'static str {
        match op {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
    fn go(a: &Ast, params: &BTreeMap<String, i64>, used: &mut Vec<String>) -> Result<i64, Fail> {
        Ok(match a {
            Ast::Int(v) => *v,
            Ast::Name(n, _) => {
                let v = *params.get(n).ok_or_else(|| {
                    Fail::Other(format!(
                        "unknown parameter `{n}` (only integers and parameters are allowed here)"
                    ))
                })?;
                if !used.contains(n) {
                    used.push(n.clone());
                }
                v
            }
            Ast::Index(n, _, _) => {
                return Err(Fail::Other(format!("`{n}[...]`: no array values here")))
            }
            Ast::Un(op, x) => {
                let v = go(x, params, used)?;
                match op {
                    UnOp::Neg => v.checked_neg().ok_or_else(|| {
                        Fail::Arith(format!("-({v}) overflows the 64-bit integer range"))
                    })?,
                    UnOp::Not => op.apply(v),
                }
            }
            Ast::Bin(op, x, y) => {
                let a = go(x, params, used)?;
                let b = go(y, params, used)?;
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div | BinOp::Rem if b == 0 => {
                        return Err(Fail::Arith(format!("division by zero: {a} {} 0", sym(*op))))
                    }
                    BinOp::Div => a.checked_div(b),
                    BinOp::Rem => a.checked_rem(b),
                    _ => Some(op.apply(a, b)),
                };
                r.ok_or_else(|| {
                    Fail::Arith(format!(
                        "{a} {} {b} overflows the 64-bit integer range",
                        sym(*op)
                    ))
                })?
            }
        })
    }
    let mut used = Vec::new();
    go(ast, params, &mut used).map_err(|f| match f {
        Fail::Other(m) => m,
        Fail::Arith(m) if used.is_empty() => m,
        Fail::Arith(m) => {
            let vals: Vec<String> = used
                .iter()
                .map(|n| format!("{n} = {}", params.get(n).copied().unwrap_or_default()))
                .collect();
            format!("{m} (with {})", vals.join(", "))
        }
    })
}
