//! The split pass against its meaning: a random combinational block in
//! rust-hdl's subset, executed once in order, must leave every signal with
//! the value the split blocks settle to.

use super::*;
use proptest::prelude::*;

const INPUTS: [&str; 3] = ["i0", "i1", "i2"];
const SIGNALS: [&str; 5] = ["s0", "s1", "s2", "s3", "s4"];
const CONSTS: [(&str, u8); 2] = [("k0", 3), ("k1", 250)];

/// An operand: an input, a signal, a constant or a literal.
fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(INPUTS.to_vec()).prop_map(str::to_string),
        prop::sample::select(SIGNALS.to_vec()).prop_map(str::to_string),
        prop::sample::select(vec!["k0", "k1"]).prop_map(str::to_string),
        (0u8..8).prop_map(|v| format!("8'd{v}")),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    (
        operand(),
        prop::sample::select(vec!["+", "&", "^", "|", "=="]),
        operand(),
    )
        .prop_map(|(a, op, b)| format!("{a} {op} {b}"))
}

#[derive(Clone, Debug)]
enum G {
    Assign(usize, String),
    If(String, Vec<G>, Vec<G>, bool),
}

fn stmts(depth: u32) -> BoxedStrategy<Vec<G>> {
    let assign = || (0..SIGNALS.len(), expr()).prop_map(|(t, e)| G::Assign(t, e));
    let leaf = prop::collection::vec(assign(), 0..4).boxed();
    if depth == 0 {
        return leaf;
    }
    let stmt = prop_oneof![
        3 => assign(),
        1 => (expr(), stmts(depth - 1), stmts(depth - 1), any::<bool>())
            .prop_map(|(c, t, e, has_else)| G::If(c, t, e, has_else)),
    ];
    prop::collection::vec(stmt, 0..5).boxed()
}

fn write(g: &[G], indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    for s in g {
        match s {
            G::Assign(t, e) => out.push_str(&format!("{pad}{} = {e};\n", SIGNALS[*t])),
            G::If(c, t, e, has_else) => {
                out.push_str(&format!("{pad}if ({c}) begin\n"));
                write(t, indent + 4, out);
                out.push_str(&format!("{pad}end\n"));
                if *has_else {
                    // An `else if` chain when the else branch is one `if`.
                    if let [G::If(..)] = e.as_slice() {
                        let mut inner = String::new();
                        write(e, indent, &mut inner);
                        out.push_str(&format!("{pad}else {}", inner.trim_start()));
                    } else {
                        out.push_str(&format!("{pad}else begin\n"));
                        write(e, indent + 4, out);
                        out.push_str(&format!("{pad}end\n"));
                    }
                }
            }
        }
    }
}

/// Evaluate an expression of the test's grammar (operands, the five
/// operators, parentheses, `?:`), 8-bit wrapping.
fn eval(e: &str, env: &BTreeMap<String, u8>) -> u8 {
    let toks = tokens(e);
    let mut pos = 0;
    let v = ternary(&toks, &mut pos, env);
    assert_eq!(pos, toks.len(), "trailing tokens in `{e}`");
    v
}

fn tokens(e: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = e.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '\'' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == '_' || b[i] == '\'') {
                i += 1;
            }
            out.push(b[s..i].iter().collect());
        } else if c == '=' {
            out.push("==".into());
            i += 2;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

fn ternary(t: &[String], p: &mut usize, env: &BTreeMap<String, u8>) -> u8 {
    let c = binary(t, p, env);
    if t.get(*p).map(String::as_str) == Some("?") {
        *p += 1;
        let a = ternary(t, p, env);
        assert_eq!(t[*p], ":");
        *p += 1;
        let b = ternary(t, p, env);
        return if c != 0 { a } else { b };
    }
    c
}

/// Left to right, no precedence: the generator never mixes operators
/// without parentheses except in `a op b`.
fn binary(t: &[String], p: &mut usize, env: &BTreeMap<String, u8>) -> u8 {
    let mut v = atom(t, p, env);
    while let Some(op) = t
        .get(*p)
        .filter(|o| ["+", "&", "^", "|", "=="].contains(&o.as_str()))
    {
        let op = op.clone();
        *p += 1;
        let r = atom(t, p, env);
        v = match op.as_str() {
            "+" => v.wrapping_add(r),
            "&" => v & r,
            "^" => v ^ r,
            "|" => v | r,
            _ => u8::from(v == r),
        };
    }
    v
}

fn atom(t: &[String], p: &mut usize, env: &BTreeMap<String, u8>) -> u8 {
    let tok = t[*p].clone();
    *p += 1;
    if tok == "(" {
        let v = ternary(t, p, env);
        assert_eq!(t[*p], ")");
        *p += 1;
        return v;
    }
    if let Some(v) = tok.strip_prefix("8'd") {
        return v.parse().unwrap();
    }
    *env.get(&tok).unwrap_or_else(|| panic!("unknown `{tok}`"))
}

fn run(stmts: &[Stmt], env: &mut BTreeMap<String, u8>) {
    for s in stmts {
        match s {
            Stmt::Assign { target, text, .. } => {
                let rhs = text.split_once(" = ").unwrap().1.trim_end_matches(';');
                let v = eval(rhs, env);
                env.insert(target.clone(), v);
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                if eval(cond, env) != 0 {
                    run(then, env);
                } else if let Some(e) = els {
                    run(e, env);
                }
            }
        }
    }
}

fn parse(module: &str, lines: &[&str]) -> Vec<Stmt> {
    let mut p = Parser {
        lines: lines.to_vec(),
        at: 0,
        pos: 0,
        module,
        first_line: 0,
    };
    p.lines.push("end");
    p.block().unwrap()
}

/// Every block of the split module, settled: each `always` block and
/// `assign` evaluated in turn until nothing changes.
fn settle(split: &str, env: &mut BTreeMap<String, u8>) {
    let lines: Vec<&str> = split.lines().collect();
    let mut blocks: Vec<Vec<Stmt>> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l == "    always @(*) begin" {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == "    end")
                .unwrap();
            blocks.push(parse("m", &lines[i + 1..end]));
            i = end + 1;
            continue;
        }
        let one = l
            .strip_prefix("    always @(*) ")
            .or_else(|| l.strip_prefix("    assign "));
        if let Some(a) = one {
            blocks.push(parse("m", &[a]));
        }
        i += 1;
    }
    for _ in 0..=blocks.len() + 1 {
        let before = env.clone();
        for b in &blocks {
            run(b, env);
        }
        if *env == before {
            return;
        }
    }
    panic!("the split blocks do not settle:\n{split}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn split_blocks_settle_to_the_sequential_values(
        defaults in prop::collection::vec(operand(), SIGNALS.len()),
        body in stmts(2),
        inputs in prop::collection::vec(any::<u8>(), INPUTS.len()),
    ) {
        // Every signal is assigned first (rust-hdl writes defaults),
        // from inputs, constants, literals or earlier signals only.
        let mut text = String::new();
        for (k, d) in defaults.iter().enumerate() {
            let d = if SIGNALS[k..].contains(&d.as_str()) { "i0" } else { d.as_str() };
            text.push_str(&format!("        {} = {d};\n", SIGNALS[k]));
        }
        write(&body, 8, &mut text);
        let mut module = String::from("module m(i0,i1,i2);\n");
        for (k, v) in CONSTS {
            module.push_str(&format!("    localparam  {k} = 8'd{v};\n"));
        }
        for s in SIGNALS {
            module.push_str(&format!("    reg  [7:0] {s};\n"));
        }
        module.push_str(&format!("    always @(*) begin\n{text}    end\nendmodule // m\n"));

        let mut env: BTreeMap<String, u8> = CONSTS.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        for (n, v) in INPUTS.iter().zip(&inputs) {
            env.insert(n.to_string(), *v);
        }
        let mut seq = env.clone();
        let body_lines: Vec<&str> = text.lines().collect();
        run(&parse("m", &body_lines), &mut seq);

        let split = split_comb_blocks(&module).unwrap();
        let mut par = env.clone();
        for s in SIGNALS {
            par.insert(s.to_string(), 0);
        }
        settle(&split, &mut par);
        for s in SIGNALS {
            prop_assert_eq!(seq[s], par[s], "signal {} differs\n{}\n---\n{}", s, module, split);
        }
    }
}
