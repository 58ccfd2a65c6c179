//! The expression parser: operators, the syntax tree (names not yet
//! resolved), and the token cursor the statement parser of kernel bodies
//! shares.

use super::lex::{lex, ExprError, Pos, Tok};

/// How deep an expression may nest: each pair of parentheses or brackets,
/// each `min`/`max` call, each unary operator and each binary operator
/// above another (a chain `a + b + c` is two deep) counts one level.
/// Deeper expressions are refused rather than overflowing the stack.
pub const MAX_DEPTH: u32 = 128;

fn too_deep(pos: Pos) -> ExprError {
    ExprError::new(
        pos,
        format!(
            "expression nested more than {MAX_DEPTH} levels deep (parentheses, brackets, \
             `min`/`max`, unary operators and chained binary operators each add a level)"
        ),
    )
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (truncating; [`BinOp::apply`] gives 0 for a zero divisor,
    /// which the kernel loader and the harness report as errors)
    Div,
    /// `%` (truncating; as `/` for a zero divisor)
    Rem,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// Apply to two values.
    #[inline(always)]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => {
                if b == 0 {
                    0
                } else {
                    a.wrapping_div(b)
                }
            }
            BinOp::Rem => {
                if b == 0 {
                    0
                } else {
                    a.wrapping_rem(b)
                }
            }
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
            BinOp::Lt => (a < b) as i64,
            BinOp::Le => (a <= b) as i64,
            BinOp::Gt => (a > b) as i64,
            BinOp::Ge => (a >= b) as i64,
            BinOp::Eq => (a == b) as i64,
            BinOp::Ne => (a != b) as i64,
            BinOp::And => (a != 0 && b != 0) as i64,
            BinOp::Or => (a != 0 || b != 0) as i64,
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-a`
    Neg,
    /// `!a` (1 when a = 0)
    Not,
}

impl UnOp {
    /// Apply to a value.
    #[inline(always)]
    pub fn apply(self, a: i64) -> i64 {
        match self {
            UnOp::Neg => a.wrapping_neg(),
            UnOp::Not => (a == 0) as i64,
        }
    }
}

/// Parsed expression (names not yet resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ast {
    Int(i64),
    /// A parameter, a variable, or a built-in (`tid.x`).
    Name(String, Pos),
    /// `array[index]`: a loaded value.
    Index(String, Box<Ast>, Pos),
    Un(UnOp, Box<Ast>),
    Bin(BinOp, Box<Ast>, Box<Ast>),
}

/// A token cursor shared by the expression and statement parsers.
pub(crate) struct Parser {
    toks: Vec<(Tok, Pos)>,
    i: usize,
}

impl Parser {
    pub(crate) fn new(toks: Vec<(Tok, Pos)>) -> Self {
        Parser { toks, i: 0 }
    }
    pub(crate) fn peek(&self) -> &Tok {
        &self.toks[self.i].0
    }
    pub(crate) fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].0
    }
    /// The token index (to parse a stretch again: [`Self::rewind`]).
    pub(crate) fn mark(&self) -> usize {
        self.i
    }
    /// Go back to a [`Self::mark`].
    pub(crate) fn rewind(&mut self, mark: usize) {
        self.i = mark;
    }
    pub(crate) fn pos(&self) -> Pos {
        self.toks[self.i].1
    }
    pub(crate) fn next(&mut self) -> (Tok, Pos) {
        let t = self.toks[self.i].clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    pub(crate) fn eat(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Tok::P(q) if *q == p) {
            self.next();
            true
        } else {
            false
        }
    }
    pub(crate) fn expect(&mut self, p: &str) -> Result<(), ExprError> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(ExprError::new(
                self.pos(),
                format!("expected `{p}`, found {}", self.peek()),
            ))
        }
    }
    pub(crate) fn ident(&mut self, what: &str) -> Result<(String, Pos), ExprError> {
        match self.next() {
            (Tok::Ident(s), p) => Ok((s, p)),
            (t, p) => Err(ExprError::new(p, format!("expected {what}, found {t}"))),
        }
    }
    pub(crate) fn skip_newlines(&mut self) {
        while *self.peek() == Tok::Newline {
            self.next();
        }
    }

    pub(crate) fn expr(&mut self) -> Result<Ast, ExprError> {
        Ok(self.expr_in(0)?.0)
    }
    /// An expression `nest` levels inside brackets, calls and unary
    /// operators, with its depth ([`MAX_DEPTH`] bounds both, so that
    /// neither this parser nor the passes over the tree recurse without
    /// bound).
    fn expr_in(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        if nest > MAX_DEPTH {
            return Err(too_deep(self.pos()));
        }
        self.or(nest)
    }
    /// `a op b`, refused when the tree gets deeper than [`MAX_DEPTH`].
    fn bin(op: BinOp, a: (Ast, u32), b: (Ast, u32), pos: Pos) -> Result<(Ast, u32), ExprError> {
        let d = 1 + a.1.max(b.1);
        if d > MAX_DEPTH {
            return Err(too_deep(pos));
        }
        Ok((Ast::Bin(op, Box::new(a.0), Box::new(b.0)), d))
    }
    fn or(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let mut a = self.and(nest)?;
        while let Tok::P("||") = self.peek() {
            let pos = self.next().1;
            let b = self.and(nest)?;
            a = Self::bin(BinOp::Or, a, b, pos)?;
        }
        Ok(a)
    }
    fn and(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let mut a = self.cmp(nest)?;
        while let Tok::P("&&") = self.peek() {
            let pos = self.next().1;
            let b = self.cmp(nest)?;
            a = Self::bin(BinOp::And, a, b, pos)?;
        }
        Ok(a)
    }
    fn cmp(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let a = self.sum(nest)?;
        let op = match self.peek() {
            Tok::P("<") => BinOp::Lt,
            Tok::P("<=") => BinOp::Le,
            Tok::P(">") => BinOp::Gt,
            Tok::P(">=") => BinOp::Ge,
            Tok::P("==") => BinOp::Eq,
            Tok::P("!=") => BinOp::Ne,
            _ => return Ok(a),
        };
        let pos = self.next().1;
        let b = self.sum(nest)?;
        Self::bin(op, a, b, pos)
    }
    fn sum(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let mut a = self.product(nest)?;
        loop {
            let op = match self.peek() {
                Tok::P("+") => BinOp::Add,
                Tok::P("-") => BinOp::Sub,
                _ => return Ok(a),
            };
            let pos = self.next().1;
            let b = self.product(nest)?;
            a = Self::bin(op, a, b, pos)?;
        }
    }
    fn product(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let mut a = self.unary(nest)?;
        loop {
            let op = match self.peek() {
                Tok::P("*") => BinOp::Mul,
                Tok::P("/") => BinOp::Div,
                Tok::P("%") => BinOp::Rem,
                _ => return Ok(a),
            };
            let pos = self.next().1;
            let b = self.unary(nest)?;
            a = Self::bin(op, a, b, pos)?;
        }
    }
    fn unary(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let op = match self.peek() {
            Tok::P("-") => UnOp::Neg,
            Tok::P("!") => UnOp::Not,
            _ => return self.primary(nest),
        };
        let pos = self.next().1;
        if nest + 1 > MAX_DEPTH {
            return Err(too_deep(pos));
        }
        let (a, d) = self.unary(nest + 1)?;
        if d + 1 > MAX_DEPTH {
            return Err(too_deep(pos));
        }
        Ok((Ast::Un(op, Box::new(a)), d + 1))
    }
    fn primary(&mut self, nest: u32) -> Result<(Ast, u32), ExprError> {
        let (t, pos) = self.next();
        match t {
            Tok::Int(v) => Ok((Ast::Int(v), 1)),
            Tok::P("(") => {
                let e = self.expr_in(nest + 1)?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Ident(name) if (name == "min" || name == "max") && *self.peek() == Tok::P("(") => {
                self.next();
                let a = self.expr_in(nest + 1)?;
                self.expect(",")?;
                let b = self.expr_in(nest + 1)?;
                self.expect(")")?;
                let op = if name == "min" {
                    BinOp::Min
                } else {
                    BinOp::Max
                };
                Self::bin(op, a, b, pos)
            }
            Tok::Ident(name) => {
                if self.eat("[") {
                    let (idx, d) = self.expr_in(nest + 1)?;
                    self.expect("]")?;
                    if d + 1 > MAX_DEPTH {
                        return Err(too_deep(pos));
                    }
                    return Ok((Ast::Index(name, Box::new(idx), pos), d + 1));
                }
                if self.eat(".") {
                    let (field, fpos) = self.ident("`x`, `y` or `z`")?;
                    if !matches!(field.as_str(), "x" | "y" | "z") {
                        return Err(ExprError::new(
                            fpos,
                            format!("expected `x`, `y` or `z` after `{name}.`, found `{field}`"),
                        ));
                    }
                    return Ok((Ast::Name(format!("{name}.{field}"), pos), 1));
                }
                Ok((Ast::Name(name, pos), 1))
            }
            t => Err(ExprError::new(
                pos,
                format!("expected an expression, found {t}"),
            )),
        }
    }
}

/// Parse a whole text as one expression.
pub(crate) fn parse_expr(text: &str) -> Result<Ast, ExprError> {
    let toks = lex(text)?;
    let mut p = Parser::new(toks);
    p.skip_newlines();
    let e = p.expr()?;
    p.skip_newlines();
    if *p.peek() != Tok::Eof {
        return Err(ExprError::new(
            p.pos(),
            format!("unexpected {} after the expression", p.peek()),
        ));
    }
    Ok(e)
}
