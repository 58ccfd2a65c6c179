//! The lexer of kernel-file text: tokens with their positions, and the
//! error every stage of the expression language reports.

use std::fmt;

/// Where a token is: line within the text (0-based) and column (0-based,
/// in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Line within the text the token came from (0-based).
    pub line: u32,
    /// Column (0-based).
    pub col: u32,
}

/// A lexical token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Int(i64),
    Ident(String),
    /// Punctuation and operators.
    P(&'static str),
    /// End of a statement (a newline outside brackets, or `;`).
    Newline,
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Int(v) => write!(f, "`{v}`"),
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::P(p) => write!(f, "`{p}`"),
            Tok::Newline => write!(f, "end of line"),
            Tok::Eof => write!(f, "end of text"),
        }
    }
}

/// A syntax or name error at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub msg: String,
}

impl ExprError {
    pub(crate) fn new(pos: Pos, msg: impl Into<String>) -> Self {
        ExprError {
            pos,
            msg: msg.into(),
        }
    }
}

const PUNCT: [&str; 28] = [
    "->", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "..", "+", "-", "*", "/", "%", "(",
    ")", "[", "]", "{", "}", ",", "<", ">", "!", "=", "@",
];

/// Operators after which a line continues on the next.
const CONTINUE: [&str; 19] = [
    "+", "-", "*", "/", "%", "&&", "||", "<", "<=", ">", ">=", "==", "!=", "=", "+=", "-=", "*=",
    ",", "..",
];

/// Split text into tokens. Newlines inside `(` `)` or `[` `]` are ignored;
/// `#` and `//` start comments.
pub(crate) fn lex(text: &str) -> Result<Vec<(Tok, Pos)>, ExprError> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    for (ln, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let pos = Pos {
                line: ln as u32,
                col: i as u32,
            };
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if c == '#' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
                break;
            }
            if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                let v = parse_int(&s)
                    .ok_or_else(|| ExprError::new(pos, format!("bad integer `{s}`")))?;
                out.push((Tok::Int(v), pos));
                continue;
            }
            if c.is_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push((Tok::Ident(chars[start..i].iter().collect()), pos));
                continue;
            }
            if c == ';' {
                out.push((Tok::Newline, pos));
                i += 1;
                continue;
            }
            if c == '.' && chars.get(i + 1) != Some(&'.') {
                out.push((Tok::P("."), pos));
                i += 1;
                continue;
            }
            let rest: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let p = PUNCT
                .iter()
                .find(|p| rest.starts_with(**p))
                .ok_or_else(|| ExprError::new(pos, format!("unexpected character `{c}`")))?;
            match *p {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                _ => {}
            }
            out.push((Tok::P(p), pos));
            i += p.len();
        }
        let continues = matches!(
            out.last(),
            Some((Tok::P(p), _)) if CONTINUE.contains(p)
        );
        if depth <= 0 && !continues {
            out.push((
                Tok::Newline,
                Pos {
                    line: ln as u32,
                    col: chars.len() as u32,
                },
            ));
        }
    }
    let end = Pos {
        line: text.lines().count() as u32,
        col: 0,
    };
    out.push((Tok::Eof, end));
    Ok(out)
}

fn parse_int(s: &str) -> Option<i64> {
    let s: String = s.chars().filter(|&c| c != '_').collect();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok().map(|v| v as i64)
    } else {
        s.parse::<i64>().ok()
    }
}
