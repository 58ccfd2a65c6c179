//! Integer expressions of kernel files: lexer, parser, classification
//! (scalar / affine / non-affine, and whether loaded data is involved), and
//! a small stack bytecode evaluated on all 32 lanes of a warp at once.
//!
//! Grammar (lowest precedence first):
//! ```text
//! expr    := or
//! or      := and ('||' and)*
//! and     := cmp ('&&' cmp)*
//! cmp     := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
//! sum     := product (('+' | '-') product)*
//! product := unary (('*' | '/' | '%') unary)*
//! unary   := '-' unary | '!' unary | primary
//! primary := INT | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
//!          | NAME '.' ('x' | 'y' | 'z')      built-ins: tid threadIdx ctaid blockIdx
//!                                            ntid blockDim nctaid gridDim
//!          | NAME '[' expr ']'               a value loaded from an array
//!          | NAME                            a parameter or a variable
//! ```
//! Integers are 64-bit two's complement (wrapping); `/` and `%` truncate
//! toward zero; a divisor that is the constant 0 is refused when the kernel
//! loads, and `eval` reports the lanes whose divisor is 0 at run time
//! (an error for an active thread); comparisons and `&&`, `||`, `!` give 0
//! or 1. Expressions nest at most [`MAX_DEPTH`] levels deep.

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

/// How an expression varies across the threads of a kernel launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// The same for every thread (literals, parameters, dimensions, loop
    /// counters of uniform loops).
    Scalar,
    /// Linear in the thread and CTA indices with scalar coefficients.
    Affine,
    /// Anything else (products of thread-varying values, `/`, `%`, `min`,
    /// `max` of them, loaded values).
    NonAffine,
}

/// The classification of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ExprClass {
    /// Scalar, affine or non-affine.
    pub class: Class,
    /// The value depends on data loaded from memory (an *indirect*
    /// address when used as an index). Implies [`Class::NonAffine`].
    pub indirect: bool,
}

impl ExprClass {
    /// A scalar.
    pub const SCALAR: ExprClass = ExprClass {
        class: Class::Scalar,
        indirect: false,
    };
    /// An affine value.
    pub const AFFINE: ExprClass = ExprClass {
        class: Class::Affine,
        indirect: false,
    };
    /// A loaded value.
    pub const LOADED: ExprClass = ExprClass {
        class: Class::NonAffine,
        indirect: true,
    };
    /// The least class containing both.
    pub fn join(self, o: ExprClass) -> ExprClass {
        ExprClass {
            class: self.class.max(o.class),
            indirect: self.indirect || o.indirect,
        }
    }
    fn nonaffine(self) -> ExprClass {
        ExprClass {
            class: Class::NonAffine,
            indirect: self.indirect,
        }
    }
}

/// A resolved expression: names replaced by constants or registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RExpr {
    Const(i64),
    Reg(u16),
    Un(UnOp, Box<RExpr>),
    Bin(BinOp, Box<RExpr>, Box<RExpr>),
}

impl RExpr {
    /// Fold constant sub-expressions.
    pub(crate) fn fold(self) -> RExpr {
        match self {
            RExpr::Un(op, a) => match a.fold() {
                RExpr::Const(v) => RExpr::Const(op.apply(v)),
                a => RExpr::Un(op, Box::new(a)),
            },
            RExpr::Bin(op, a, b) => match (a.fold(), b.fold()) {
                // A zero divisor stays, for [`RExpr::zero_divisor`].
                (a, RExpr::Const(0)) if matches!(op, BinOp::Div | BinOp::Rem) => {
                    RExpr::Bin(op, Box::new(a), Box::new(RExpr::Const(0)))
                }
                (RExpr::Const(x), RExpr::Const(y)) => RExpr::Const(op.apply(x, y)),
                (a, RExpr::Const(0)) if matches!(op, BinOp::Add | BinOp::Sub) => a,
                (RExpr::Const(0), b) if op == BinOp::Add => b,
                (a, RExpr::Const(1)) if matches!(op, BinOp::Mul | BinOp::Div) => a,
                (RExpr::Const(1), b) if op == BinOp::Mul => b,
                (a, b) => RExpr::Bin(op, Box::new(a), Box::new(b)),
            },
            e => e,
        }
    }

    /// Classify, given the class of every register.
    pub(crate) fn classify(&self, regs: &dyn Fn(u16) -> ExprClass) -> ExprClass {
        match self {
            RExpr::Const(_) => ExprClass::SCALAR,
            RExpr::Reg(r) => regs(*r),
            RExpr::Un(_, a) => a.classify(regs),
            RExpr::Bin(op, a, b) => {
                let ca = a.classify(regs);
                let cb = b.classify(regs);
                let j = ca.join(cb);
                match op {
                    BinOp::Add | BinOp::Sub => j,
                    BinOp::Mul => {
                        if ca.class == Class::Scalar || cb.class == Class::Scalar {
                            j
                        } else {
                            j.nonaffine()
                        }
                    }
                    BinOp::Div | BinOp::Rem | BinOp::Min | BinOp::Max => {
                        if j.class == Class::Scalar {
                            j
                        } else {
                            j.nonaffine()
                        }
                    }
                    // A predicate keeps the class of its operands (an
                    // "affine predicate" in DAC's terms).
                    _ => j,
                }
            }
        }
    }

    /// Whether a `/` or `%` of the (folded) expression divides by the
    /// constant 0.
    pub(crate) fn zero_divisor(&self) -> bool {
        match self {
            RExpr::Const(_) | RExpr::Reg(_) => false,
            RExpr::Un(_, a) => a.zero_divisor(),
            RExpr::Bin(op, a, b) => {
                (matches!(op, BinOp::Div | BinOp::Rem) && **b == RExpr::Const(0))
                    || a.zero_divisor()
                    || b.zero_divisor()
            }
        }
    }

    /// The constant value, if the expression is a constant.
    pub(crate) fn as_const(&self) -> Option<i64> {
        match self {
            RExpr::Const(v) => Some(*v),
            _ => None,
        }
    }
}

/// Warp width.
pub const LANES: usize = 32;

/// One value per lane.
pub type Lanes = [i64; LANES];

/// Bytecode of the vector stack machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Push a constant.
    Const(i64),
    /// Push a register.
    Reg(u16),
    /// Apply a unary operator to the top.
    Un(UnOp),
    /// Pop b, pop a, push `a op b`.
    Bin(BinOp),
    /// Top := top op constant.
    BinImm(BinOp, i64),
    /// Push `reg op constant`.
    RegImm(u16, BinOp, i64),
}

/// Compiled code: a range of an [`Op`] vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Code {
    pub start: u32,
    pub len: u32,
    /// The value if the expression is a constant.
    pub konst: Option<i64>,
    /// The line of the kernel file holding the statement the expression
    /// belongs to (set by the body compiler; 0 when unknown), for run-time
    /// errors such as a zero divisor.
    pub line: u32,
}

/// Append the bytecode of `e` to `ops`, returning its range and the stack
/// depth it needs.
pub(crate) fn compile(e: &RExpr, ops: &mut Vec<Op>) -> (Code, usize) {
    let start = ops.len();
    let depth = emit(e, ops);
    (
        Code {
            start: start as u32,
            len: (ops.len() - start) as u32,
            konst: e.as_const(),
            line: 0,
        },
        depth,
    )
}

/// The expression `code` was compiled from (up to the constant folding
/// that [`compile`] keeps): the inverse of [`compile`], for evaluators
/// over other value domains (DAC's affine tuples).
pub(crate) fn decode(ops: &[Op], code: Code) -> RExpr {
    if let Some(k) = code.konst {
        return RExpr::Const(k);
    }
    let mut stack: Vec<RExpr> = Vec::new();
    for op in &ops[code.start as usize..(code.start + code.len) as usize] {
        match *op {
            Op::Const(k) => stack.push(RExpr::Const(k)),
            Op::Reg(r) => stack.push(RExpr::Reg(r)),
            Op::RegImm(r, b, k) => stack.push(RExpr::Bin(
                b,
                Box::new(RExpr::Reg(r)),
                Box::new(RExpr::Const(k)),
            )),
            Op::Un(u) => {
                let a = stack.pop().expect("operand");
                stack.push(RExpr::Un(u, Box::new(a)));
            }
            Op::BinImm(b, k) => {
                let a = stack.pop().expect("operand");
                stack.push(RExpr::Bin(b, Box::new(a), Box::new(RExpr::Const(k))));
            }
            Op::Bin(b) => {
                let y = stack.pop().expect("operand");
                let x = stack.pop().expect("operand");
                stack.push(RExpr::Bin(b, Box::new(x), Box::new(y)));
            }
        }
    }
    stack.pop().expect("a value")
}

/// The registers `code` reads, appended to `out`.
pub(crate) fn regs_read(ops: &[Op], code: Code, out: &mut Vec<u16>) {
    if code.konst.is_some() {
        return;
    }
    for op in &ops[code.start as usize..(code.start + code.len) as usize] {
        if let Op::Reg(r) | Op::RegImm(r, _, _) = *op {
            out.push(r);
        }
    }
}

fn emit(e: &RExpr, ops: &mut Vec<Op>) -> usize {
    match e {
        RExpr::Const(v) => {
            ops.push(Op::Const(*v));
            1
        }
        RExpr::Reg(r) => {
            ops.push(Op::Reg(*r));
            1
        }
        RExpr::Un(op, a) => {
            let d = emit(a, ops);
            ops.push(Op::Un(*op));
            d
        }
        RExpr::Bin(op, a, b) => {
            if let RExpr::Const(k) = **b {
                if let RExpr::Reg(r) = **a {
                    ops.push(Op::RegImm(r, *op, k));
                    return 1;
                }
                let d = emit(a, ops);
                ops.push(Op::BinImm(*op, k));
                return d;
            }
            let da = emit(a, ops);
            let db = emit(b, ops);
            ops.push(Op::Bin(*op));
            da.max(db + 1)
        }
    }
}

/// Evaluate `code` on all lanes. `stack` must hold at least the depth the
/// code needs; the result is in `stack[0]`.
#[inline]
///
/// Returns the lanes (bit `l` for lane `l`) at which a `/` or `%` had a
/// zero divisor (those give 0); the caller reports the active ones.
#[must_use = "a zero divisor of an active thread is an error"]
pub(crate) fn eval(ops: &[Op], code: Code, regs: &[Lanes], stack: &mut [Lanes]) -> u32 {
    if let Some(k) = code.konst {
        stack[0] = [k; LANES];
        return 0;
    }
    let mut zero = 0u32;
    let mut sp = 0usize;
    for op in &ops[code.start as usize..(code.start + code.len) as usize] {
        match *op {
            Op::Const(k) => {
                stack[sp] = [k; LANES];
                sp += 1;
            }
            Op::Reg(r) => {
                stack[sp] = regs[r as usize];
                sp += 1;
            }
            Op::RegImm(r, bop, k) => {
                let src = &regs[r as usize];
                let dst = &mut stack[sp];
                zero |= imm_zero(bop, k);
                lanes_imm(bop, src, k, dst);
                sp += 1;
            }
            Op::Un(u) => {
                for v in stack[sp - 1].iter_mut() {
                    *v = u.apply(*v);
                }
            }
            Op::BinImm(bop, k) => {
                let top = stack[sp - 1];
                zero |= imm_zero(bop, k);
                lanes_imm(bop, &top, k, &mut stack[sp - 1]);
            }
            Op::Bin(bop) => {
                let (lo, hi) = stack.split_at_mut(sp - 1);
                let a = &mut lo[sp - 2];
                let b = &hi[0];
                if matches!(bop, BinOp::Div | BinOp::Rem) {
                    for (l, &v) in b.iter().enumerate() {
                        zero |= ((v == 0) as u32) << l;
                    }
                }
                lanes_bin(bop, a, b);
                sp -= 1;
            }
        }
    }
    zero
}

/// Every lane, if `op k` divides by zero.
#[inline(always)]
fn imm_zero(op: BinOp, k: i64) -> u32 {
    if k == 0 && matches!(op, BinOp::Div | BinOp::Rem) {
        u32::MAX
    } else {
        0
    }
}

#[inline(always)]
fn lanes_imm(op: BinOp, src: &Lanes, k: i64, dst: &mut Lanes) {
    match op {
        BinOp::Add => {
            for i in 0..LANES {
                dst[i] = src[i].wrapping_add(k);
            }
        }
        BinOp::Sub => {
            for i in 0..LANES {
                dst[i] = src[i].wrapping_sub(k);
            }
        }
        BinOp::Mul => {
            for i in 0..LANES {
                dst[i] = src[i].wrapping_mul(k);
            }
        }
        _ => {
            for i in 0..LANES {
                dst[i] = op.apply(src[i], k);
            }
        }
    }
}

#[inline(always)]
fn lanes_bin(op: BinOp, a: &mut Lanes, b: &Lanes) {
    match op {
        BinOp::Add => {
            for i in 0..LANES {
                a[i] = a[i].wrapping_add(b[i]);
            }
        }
        BinOp::Sub => {
            for i in 0..LANES {
                a[i] = a[i].wrapping_sub(b[i]);
            }
        }
        BinOp::Mul => {
            for i in 0..LANES {
                a[i] = a[i].wrapping_mul(b[i]);
            }
        }
        _ => {
            for i in 0..LANES {
                a[i] = op.apply(a[i], b[i]);
            }
        }
    }
}

/// Evaluate a resolved expression for one set of register values (tests).
#[cfg(test)]
pub(crate) fn eval_scalar(e: &RExpr, regs: &dyn Fn(u16) -> i64) -> i64 {
    match e {
        RExpr::Const(v) => *v,
        RExpr::Reg(r) => regs(*r),
        RExpr::Un(op, a) => op.apply(eval_scalar(a, regs)),
        RExpr::Bin(op, a, b) => op.apply(eval_scalar(a, regs), eval_scalar(b, regs)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve_simple(a: &Ast) -> RExpr {
        match a {
            Ast::Int(v) => RExpr::Const(*v),
            Ast::Name(n, _) => match n.as_str() {
                "tid.x" => RExpr::Reg(0),
                "ctaid.x" => RExpr::Reg(1),
                "ld" => RExpr::Reg(2),
                "N" => RExpr::Const(100),
                other => panic!("{other}"),
            },
            Ast::Index(..) => RExpr::Reg(2),
            Ast::Un(op, a) => RExpr::Un(*op, Box::new(resolve_simple(a))),
            Ast::Bin(op, a, b) => RExpr::Bin(
                *op,
                Box::new(resolve_simple(a)),
                Box::new(resolve_simple(b)),
            ),
        }
    }

    fn classes(r: u16) -> ExprClass {
        match r {
            0 | 1 => ExprClass::AFFINE,
            _ => ExprClass::LOADED,
        }
    }

    fn class_of(s: &str) -> ExprClass {
        resolve_simple(&parse_expr(s).unwrap())
            .fold()
            .classify(&classes)
    }

    #[test]
    fn precedence_and_values() {
        let e = resolve_simple(&parse_expr("1 + 2 * 3 - -4 % 3").unwrap()).fold();
        assert_eq!(e, RExpr::Const(1 + 6 + 1));
        let e = resolve_simple(&parse_expr("min(7, N) + max(2, 3) * (1 < 2) + 7 / 7").unwrap());
        assert_eq!(e.fold(), RExpr::Const(11));
        // A constant zero divisor is kept, to be reported.
        for text in ["7 / 0", "tid.x % (N - 100)", "-(1 + tid.x / (3 - 3))"] {
            let e = resolve_simple(&parse_expr(text).unwrap()).fold();
            assert!(e.zero_divisor(), "{text}: {e:?}");
        }
        assert!(!resolve_simple(&parse_expr("tid.x / ld").unwrap())
            .fold()
            .zero_divisor());
        let e = resolve_simple(&parse_expr("0x10 == 16 && !(3 >= 4) || 0").unwrap());
        assert_eq!(e.fold(), RExpr::Const(1));
    }

    #[test]
    fn classification() {
        assert_eq!(class_of("N * 4 + 3").class, Class::Scalar);
        assert_eq!(class_of("ctaid.x * N + tid.x").class, Class::Affine);
        assert_eq!(class_of("tid.x * tid.x").class, Class::NonAffine);
        assert_eq!(class_of("tid.x / 32").class, Class::NonAffine);
        let c = class_of("A[tid.x] + 1");
        assert!(c.indirect && c.class == Class::NonAffine);
        assert!(!class_of("tid.x % 7").indirect);
    }

    #[test]
    fn vector_eval_matches_scalar() {
        let e = resolve_simple(
            &parse_expr("(ctaid.x * 256 + tid.x) * 4 - tid.x / 3 + min(tid.x, 7)").unwrap(),
        )
        .fold();
        let mut ops = Vec::new();
        let (code, depth) = compile(&e, &mut ops);
        let mut regs = vec![[0i64; LANES]; 3];
        for (l, v) in regs[0].iter_mut().enumerate() {
            *v = l as i64;
        }
        regs[1] = [5; LANES];
        let mut stack = vec![[0i64; LANES]; depth];
        assert_eq!(eval(&ops, code, &regs, &mut stack), 0);
        for l in 0..LANES {
            let want = eval_scalar(&e, &|r| regs[r as usize][l]);
            assert_eq!(stack[0][l], want);
        }
    }

    #[test]
    fn decode_inverts_compile() {
        for text in [
            "(ctaid.x * 256 + tid.x) * 4 - tid.x / 3 + min(tid.x, 7)",
            "-(tid.x + 1) * N < ld",
            "!(tid.x == 3) || ctaid.x % 5",
            "tid.x",
            "7",
            "ld * 3 + N",
        ] {
            let e = resolve_simple(&parse_expr(text).unwrap()).fold();
            let mut ops = vec![Op::Const(99)];
            let (code, _) = compile(&e, &mut ops);
            let d = decode(&ops, code);
            // The same value for every register assignment tried.
            for (a, b, c) in [(0, 0, 0), (5, 2, 9), (-3, 7, 1), (31, 14, -8)] {
                let regs = [a, b, c];
                assert_eq!(
                    eval_scalar(&d, &|r| regs[r as usize]),
                    eval_scalar(&e, &|r| regs[r as usize]),
                    "{text}"
                );
            }
            let mut reads = Vec::new();
            regs_read(&ops, code, &mut reads);
            reads.sort_unstable();
            reads.dedup();
            let want: Vec<u16> = [("tid.x", 0), ("ctaid.x", 1), ("ld", 2)]
                .iter()
                .filter(|(n, _)| text.contains(n))
                .map(|&(_, r)| r)
                .collect();
            assert_eq!(reads, want, "{text}");
        }
    }

    #[test]
    fn eval_reports_the_lanes_with_a_zero_divisor() {
        let e = resolve_simple(&parse_expr("100 / (tid.x - 3) + ctaid.x % tid.x").unwrap()).fold();
        let mut ops = Vec::new();
        let (code, depth) = compile(&e, &mut ops);
        let mut regs = vec![[0i64; LANES]; 3];
        for (l, v) in regs[0].iter_mut().enumerate() {
            *v = l as i64;
        }
        let mut stack = vec![[0i64; LANES]; depth];
        let zero = eval(&ops, code, &regs, &mut stack);
        assert_eq!(zero, 1 << 3 | 1);
        assert_eq!(stack[0][3], 0);
        assert_eq!(stack[0][4], 100);
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        parse_expr(&ok).unwrap();
        let chain = vec!["1"; MAX_DEPTH as usize].join(" + ");
        parse_expr(&chain).unwrap();
        for text in [
            format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000)),
            format!("{}1", "-".repeat(100_000)),
            format!("{}1", "!".repeat(100_000)),
            vec!["1"; 100_000].join(" + "),
            vec!["1"; 100_000].join(" || "),
            format!("{}1{}", "min(1, ".repeat(10_000), ")".repeat(10_000)),
            format!("{}1{}", "A[".repeat(10_000), "]".repeat(10_000)),
            format!("{}1", "1 + (".repeat(10_000)),
        ] {
            let e = parse_expr(&text).unwrap_err();
            assert!(e.msg.contains("nested more than 128 levels"), "{}", e.msg);
        }
    }

    #[test]
    fn errors_have_positions() {
        let e = parse_expr("1 +\n (2 * )").unwrap_err();
        assert_eq!(e.pos.line, 1);
        assert!(e.msg.contains("expected an expression"), "{}", e.msg);
        let e = parse_expr("tid.w").unwrap_err();
        assert!(e.msg.contains("`w`"));
        let e = parse_expr("3 $ 4").unwrap_err();
        assert!(e.msg.contains('$'));
    }
}
