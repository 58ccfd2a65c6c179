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
//!
//! Files: `lex.rs` (tokens, positions, errors), `parse.rs` (operators, the
//! syntax tree, the token cursor), `class.rs` (resolved expressions and
//! their classification), `code.rs` (the bytecode and its evaluation).

mod class;
mod code;
mod lex;
mod parse;

pub(crate) use class::RExpr;
pub use class::{Class, ExprClass};
#[cfg(test)]
pub(crate) use code::eval_scalar;
pub(crate) use code::{compile, decode, eval, regs_read, Code, Op};
pub use code::{Lanes, LANES};
pub(crate) use lex::{lex, Tok};
pub use lex::{ExprError, Pos};
pub(crate) use parse::{parse_expr, Ast, Parser};
pub use parse::{BinOp, UnOp, MAX_DEPTH};

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
