//! The statements of a kernel body (`let`, `load`, `store`, `compute`,
//! `use`, `barrier`, `if`, `loop`, `unroll`, assignments), compiled by the
//! [`BodyCompiler`].

use super::body::{check_count, join_all, BodyCompiler, PResult, Var, MAX_UNROLLED};
use super::types::{Instr, MemInstrInfo, FIRST_FREE_REG};
use crate::config::InstrClass;
use crate::expr::{regs_read, Ast, BinOp, ExprClass, ExprError, Parser, Pos, RExpr, Tok};

impl BodyCompiler<'_> {
    /// One statement, up to its end.
    pub(super) fn statement(&mut self, p: &mut Parser) -> PResult<()> {
        let (tok, pos) = p.next();
        self.stmt_line = pos.line;
        let kw = match &tok {
            Tok::Ident(s) => s.clone(),
            t => {
                return Err(ExprError::new(
                    pos,
                    format!("expected a statement, found {t}"),
                ))
            }
        };
        match kw.as_str() {
            "let" => self.let_statement(p, pos)?,
            "load" | "store" => self.mem_statement(p, pos, kw == "store")?,
            "compute" => self.compute_statement(p, pos)?,
            "use" => self.use_names(p)?,
            "barrier" => self.emit(Instr::Barrier, None),
            "if" => return self.if_statement(p, pos),
            "loop" => return self.loop_statement(p, pos),
            "unroll" => return self.unroll_statement(p, pos),
            _ => self.assignment(p, pos, kw)?,
        }
        self.end_of_statement(p)
    }

    /// `let NAME = EXPR`.
    fn let_statement(&mut self, p: &mut Parser, pos: Pos) -> PResult<()> {
        let (name, npos) = p.ident("a variable name")?;
        self.check_name(&name, npos)?;
        p.expect("=")?;
        let e = p.expr()?;
        let (r, class) = self.lower(&e, pos)?;
        let depth = self.scopes.len() - 1;
        let existing = self.scopes[depth].vars.get(&name).copied();
        let var = match existing {
            Some(v) => v,
            None => {
                let id = self.new_var(class);
                let reg = self.new_reg(class, Some(id));
                let v = Var { reg, depth, id };
                self.scopes[depth].vars.insert(name, v);
                v
            }
        };
        self.assign(var, r, class, pos)
    }

    /// `load ARRAY[EXPR] [-> NAME] [@PC]` or `store ARRAY[EXPR] [= EXPR] [@PC]`.
    fn mem_statement(&mut self, p: &mut Parser, pos: Pos, store: bool) -> PResult<()> {
        let (aname, apos) = p.ident("an array name")?;
        let array = self.array_id(&aname, apos)?;
        p.expect("[")?;
        let idx = p.expr()?;
        p.expect("]")?;
        let mut value_regs = Vec::new();
        if store && p.eat("=") {
            // The stored value: its loads are issued, and the store
            // reads what it reads (`Use`).
            let v = p.expr()?;
            let (rv, _) = self.lower(&v, pos)?;
            let (code, _) = self.code(&rv);
            regs_read(&self.ops, code, &mut value_regs);
        }
        let (ri, class) = self.lower(&idx, pos)?;
        let pc = self.opt_pc(p)?;
        let (code, _) = self.code(&ri);
        let mem = self.mems.len() as u16;
        self.mems.push(MemInstrInfo {
            pc: 0,
            store,
            array: aname.clone(),
            class: class.class,
            indirect: class.indirect,
            line: pos.line,
            texture: false,
        });
        value_regs.sort_unstable();
        value_regs.dedup();
        for reg in value_regs {
            if reg >= FIRST_FREE_REG {
                self.emit(Instr::Use { reg }, None);
            }
        }
        // `load A[i] -> name`: the value becomes a new variable.
        let dst = if !store && p.eat("->") {
            let (name, npos) = p.ident("a name for the loaded value")?;
            self.check_name(&name, npos)?;
            let id = self.new_var(ExprClass::LOADED);
            let reg = self.new_reg(ExprClass::LOADED, Some(id));
            let depth = self.scopes.len() - 1;
            self.scopes[depth].vars.insert(name, Var { reg, depth, id });
            Some(reg)
        } else {
            None
        };
        self.texture_mark(p, pos, store, &aname)?;
        let ins = if store {
            Instr::Store {
                array,
                index: code,
                mem,
            }
        } else {
            Instr::Load {
                array,
                index: code,
                dst,
                mem,
            }
        };
        self.emit_address(&ri);
        self.emit(ins, pc);
        self.set_class(class);
        Ok(())
    }

    /// A load's `texture` mark (read through the texture cache): refused
    /// on a store, and a store to an array that a texture load reads (the
    /// texture cache is read-only) is refused whichever comes first.
    fn texture_mark(&mut self, p: &mut Parser, pos: Pos, store: bool, array: &str) -> PResult<()> {
        let marked = matches!(p.peek(), Tok::Ident(s) if s == "texture");
        if marked {
            p.next();
        }
        if store && marked {
            return Err(ExprError::new(
                pos,
                format!(
                    "`texture` on a store to `{array}`: the texture cache is read-only (only a \
                     load may be marked `texture`)"
                ),
            ));
        }
        let other =
            |m: &MemInstrInfo| m.array == array && (if store { m.texture } else { m.store });
        if (store || marked) && self.mems[..self.mems.len() - 1].iter().any(other) {
            let what = if store {
                format!("a store to `{array}`, which a `texture` load reads")
            } else {
                format!("a `texture` load of `{array}`, which a store writes")
            };
            return Err(ExprError::new(
                pos,
                format!(
                    "{what}: the texture cache is read-only (a texture array is never stored to)"
                ),
            ));
        }
        let last = self.mems.len() - 1;
        self.mems[last].texture = marked;
        Ok(())
    }

    /// `compute N [CLASS] [uses NAMES]`.
    fn compute_statement(&mut self, p: &mut Parser, pos: Pos) -> PResult<()> {
        let e = p.expr()?;
        let (r, _) = self.lower(&e, pos)?;
        let n = r.as_const().ok_or_else(|| {
            ExprError::new(
                pos,
                "`compute N` needs a constant N (literals and parameters)",
            )
        })?;
        if !(0..=1 << 20).contains(&n) {
            return Err(ExprError::new(
                pos,
                format!("compute {n}: allowed 0..=2^20"),
            ));
        }
        let mut class = InstrClass::Alu;
        if let Tok::Ident(name) = p.peek() {
            if let Some(c) = InstrClass::parse(name) {
                class = c;
                p.next();
            }
        }
        if matches!(p.peek(), Tok::Ident(s) if s == "uses") {
            p.next();
            self.use_names(p)?;
        }
        if n > 0 {
            self.emit(Instr::Compute { n: n as u32, class }, None);
        }
        Ok(())
    }

    /// `NAME = EXPR`, `NAME += EXPR`, `-=`, `*=`: assignment to an existing
    /// variable (any other word is an unknown statement).
    fn assignment(&mut self, p: &mut Parser, pos: Pos, kw: String) -> PResult<()> {
        let op = match p.peek() {
            Tok::P("=") => None,
            Tok::P("+=") => Some(BinOp::Add),
            Tok::P("-=") => Some(BinOp::Sub),
            Tok::P("*=") => Some(BinOp::Mul),
            _ => {
                return Err(ExprError::new(
                    pos,
                    format!(
                    "unknown statement `{kw}`; expected let, load, store, loop, unroll, if, use, \
                         compute, barrier or an assignment"
                ),
                ))
            }
        };
        p.next();
        let var = self.lookup_var(&kw).ok_or_else(|| {
            ExprError::new(
                pos,
                format!("assignment to undeclared variable `{kw}` (use `let`)"),
            )
        })?;
        let rhs = p.expr()?;
        let e = match op {
            None => rhs,
            Some(op) => Ast::Bin(op, Box::new(Ast::Name(kw.clone(), pos)), Box::new(rhs)),
        };
        let (r, class) = self.lower(&e, pos)?;
        self.assign(var, r, class, pos)
    }

    fn if_statement(&mut self, p: &mut Parser, pos: Pos) -> PResult<()> {
        // Also an `else if`, which is no statement of its own.
        self.stmt_line = pos.line;
        let c = p.expr()?;
        let (rc, class) = self.lower(&c, pos)?;
        let (code, _) = self.code(&rc);
        let at = self.instrs.len();
        self.emit(
            Instr::If {
                cond: code,
                else_at: 0,
            },
            None,
        );
        self.set_class(class);
        p.expect("{")?;
        let before = self.cur.clone();
        self.push_scope(class);
        self.block_body(p, false)?;
        self.pop_scope();
        let after_then = std::mem::replace(&mut self.cur, before);
        let has_else = matches!(p.peek(), Tok::Ident(s) if s == "else")
            || (*p.peek() == Tok::Newline && matches!(p.peek_at(1), Tok::Ident(s) if s == "else"));
        if has_else {
            p.skip_newlines();
            p.next();
            let else_at = self.instrs.len();
            self.emit(Instr::Else { end_at: 0 }, None);
            self.push_scope(class);
            if matches!(p.peek(), Tok::Ident(s) if s == "if") {
                let (_, ipos) = p.next();
                self.if_statement(p, ipos)?;
            } else {
                p.expect("{")?;
                self.block_body(p, false)?;
            }
            self.pop_scope();
            self.cur = join_all(&after_then, &self.cur);
            let end = self.instrs.len() as u32;
            self.emit(Instr::EndIf, None);
            self.instrs[at] = Instr::If {
                cond: code,
                else_at: else_at as u32,
            };
            self.instrs[else_at] = Instr::Else { end_at: end };
        } else {
            self.cur = join_all(&after_then, &self.cur);
            let end = self.instrs.len() as u32;
            self.emit(Instr::EndIf, None);
            self.instrs[at] = Instr::If {
                cond: code,
                else_at: end,
            };
        }
        Ok(())
    }

    /// A loop's range after its name: `COUNT` (from 0, step 1) or `= START
    /// .. END [step S]` with a constant step that is not 0.
    fn range_header(&mut self, p: &mut Parser, pos: Pos, what: &str) -> PResult<(Ast, Ast, i64)> {
        if !p.eat("=") {
            let count = p.expr()?;
            return Ok((Ast::Int(0), count, 1));
        }
        let a = p.expr()?;
        p.expect("..")?;
        let b = p.expr()?;
        if !matches!(p.peek(), Tok::Ident(s) if s == "step") {
            return Ok((a, b, 1));
        }
        p.next();
        let s = p.expr()?;
        let (rs, _) = self.lower(&s, pos)?;
        let k = rs
            .as_const()
            .ok_or_else(|| ExprError::new(pos, format!("the {what} step must be a constant")))?;
        if k == 0 {
            return Err(ExprError::new(
                pos,
                format!("the {what} step must not be 0"),
            ));
        }
        Ok((a, b, k))
    }

    fn loop_statement(&mut self, p: &mut Parser, pos: Pos) -> PResult<()> {
        let (name, npos) = p.ident("a loop variable")?;
        self.check_name(&name, npos)?;
        let counted = !matches!(p.peek(), Tok::P("="));
        let (start, bound, step) = self.range_header(p, pos, "loop")?;
        let (rs, cs) = self.lower(&start, pos)?;
        let (rb, cb) = self.lower(&bound, pos)?;
        if counted {
            check_count(&rb, cb, pos, "loop")?;
        }
        let (start_code, _) = self.code(&rs);
        let (bound_code, _) = self.code(&rb);
        p.expect("{")?;
        // The head sees the classes before the loop and at its back edge.
        let loop_idx = self.loop_out.len();
        self.loop_out.push(Vec::new());
        if let Some(back) = self.loop_in.get(loop_idx) {
            self.cur = join_all(&self.cur, back);
        }
        let head = self.cur.clone();
        // The loop variable: declared in the loop's scope.
        self.push_scope(cs.join(cb));
        let id = self.new_var(cs);
        let reg = self.new_reg(cs, Some(id));
        let depth = self.scopes.len() - 1;
        self.scopes[depth].vars.insert(name, Var { reg, depth, id });
        let end = self.new_reg(cb, None);
        let begin_at = self.instrs.len();
        self.loop_lines.push(pos.line);
        self.emit(
            Instr::LoopBegin {
                var: reg,
                end,
                start: start_code,
                bound: bound_code,
                step,
                exit_at: 0,
            },
            None,
        );
        self.set_class(cs.join(cb));
        self.block_body(p, false)?;
        self.pop_scope();
        self.loop_out[loop_idx] = self.cur.clone();
        self.cur = join_all(&head, &self.cur);
        self.emit(
            Instr::LoopEnd {
                var: reg,
                end,
                step,
                body_at: begin_at as u32 + 1,
            },
            None,
        );
        let exit = self.instrs.len() as u32;
        self.instrs[begin_at] = Instr::LoopBegin {
            var: reg,
            end,
            start: start_code,
            bound: bound_code,
            step,
            exit_at: exit,
        };
        Ok(())
    }

    /// `NAME[, NAME ...]`: a `Use` of each variable (after `use` or
    /// `compute N uses`).
    fn use_names(&mut self, p: &mut Parser) -> PResult<()> {
        loop {
            let (name, npos) = p.ident("a variable")?;
            let v = self.lookup_var(&name).ok_or_else(|| {
                ExprError::new(npos, format!("`use {name}`: no variable `{name}`"))
            })?;
            self.emit(Instr::Use { reg: v.reg }, None);
            if !p.eat(",") {
                return Ok(());
            }
        }
    }

    /// `unroll NAME COUNT { body }` or `unroll NAME = A .. B [step S] {
    /// body }` with constant bounds: the body once per value of NAME, NAME
    /// a constant in each copy (as `#pragma unroll` gives each copy its own
    /// instructions, and so its own PCs); no loop instructions.
    fn unroll_statement(&mut self, p: &mut Parser, pos: Pos) -> PResult<()> {
        let (name, npos) = p.ident("an unroll variable")?;
        self.check_name(&name, npos)?;
        let konst = |c: &mut Self, a: &Ast, what: &str| -> PResult<i64> {
            let (r, _) = c.lower(a, pos)?;
            r.as_const().ok_or_else(|| {
                ExprError::new(
                    pos,
                    format!("`unroll` needs a constant {what} (literals and parameters)"),
                )
            })
        };
        let counted = !matches!(p.peek(), Tok::P("="));
        let (a, b, step) = self.range_header(p, pos, "unroll")?;
        let start = konst(self, &a, "start")?;
        let bound = konst(self, &b, if counted { "count" } else { "bound" })?;
        if counted {
            check_count(&RExpr::Const(bound), ExprClass::SCALAR, pos, "unroll")?;
        }
        // The number of copies, in 128 bits (no overflow near the ends of
        // the 64-bit range).
        let (s0, b0, k) = (start as i128, bound as i128, step as i128);
        let n = if k > 0 && b0 > s0 {
            (b0 - s0 + k - 1) / k
        } else if k < 0 && b0 < s0 {
            (s0 - b0 - k - 1) / -k
        } else {
            0
        };
        if n > 4096 {
            return Err(ExprError::new(
                pos,
                format!("`unroll` of {n} copies: at most 4096"),
            ));
        }
        self.unrolled += n.max(1) as usize;
        if self.unrolled > MAX_UNROLLED {
            return Err(ExprError::new(
                pos,
                format!(
                    "the `unroll` statements make more than {MAX_UNROLLED} copies in all \
                     (nested ones multiply)"
                ),
            ));
        }
        // Every value lies between start and bound: no overflow.
        let values: Vec<i64> = (0..n).map(|i| (s0 + i * k) as i64).collect();
        p.expect("{")?;
        let body = p.mark();
        if values.is_empty() {
            // Parse the body once for its errors, then drop what it emitted.
            let (n_ins, n_mems) = (self.instrs.len(), self.mems.len());
            self.push_scope(ExprClass::SCALAR);
            self.scopes
                .last_mut()
                .expect("scope")
                .consts
                .insert(name, start);
            self.block_body(p, false)?;
            self.pop_scope();
            self.instrs.truncate(n_ins);
            self.explicit_pc.truncate(n_ins);
            self.info.truncate(n_ins);
            self.mems.truncate(n_mems);
            return Ok(());
        }
        for v in values {
            p.rewind(body);
            self.push_scope(ExprClass::SCALAR);
            self.scopes
                .last_mut()
                .expect("scope")
                .consts
                .insert(name.clone(), v);
            self.block_body(p, false)?;
            self.pop_scope();
        }
        Ok(())
    }
}
